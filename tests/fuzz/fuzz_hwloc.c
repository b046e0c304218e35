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
        fz_check_hier(&h, ctx);
    }
    fclose(in);
    tm_ctx_free(ctx);
    return 0;
}
