/* fuzz_hwloc.c - hwloc XML exports (v1, v2) through tm_hier_from_hwloc:
 * a hierarchy that was read must satisfy the invariants of hier.h. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tm_ctx *ctx = fz_ctx();
    FILE *in = fz_open(data, size);
    tm_hier h;
    tm_err err = tm_hier_from_hwloc(ctx, in, FZ_NAME, &h);
    fz_check_err(ctx, err, 1);
    if (err == TM_EOK) {
        int64_t prod = 1;
        if (h.k < 1 || h.k > TM_HIER_MAX_LEVELS || h.group[0] != 1)
            fz_die("bad level count", err, ctx);
        for (int i = 0; i < h.k; i++) {
            if (h.a[i] < 1 || !(h.d[i] >= 0) || h.d[i] > 1e308)
                fz_die("bad level", err, ctx);
            prod *= h.a[i];
            if (h.group[i + 1] != prod)
                fz_die("bad group size", err, ctx);
        }
        if (h.n_pe != prod || prod > (INT64_C(1) << 31))
            fz_die("bad PE count", err, ctx);
    }
    fclose(in);
    tm_ctx_free(ctx);
    return 0;
}
