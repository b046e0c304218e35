/* fuzz_hier.c - tm_hier_parse on "levels\ndistances" (e.g. "4:16:8\n1:10:100"). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tm_ctx *ctx = fz_ctx();
    char *s = fz_strdup(data, size);
    char *nl = strchr(s, '\n');
    const char *dist = "1";
    tm_hier h;
    tm_err err;
    if (nl) {
        *nl = '\0';
        dist = nl + 1;
    }
    err = tm_hier_parse(ctx, s, dist, &h);
    fz_check_err(ctx, err, 0);
    if (err == TM_EOK) {
        /* The documented invariants of a parsed hierarchy. */
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
        (void)tm_hier_dist(&h, 0, h.n_pe - 1);
    }
    free(s);
    tm_ctx_free(ctx);
    return 0;
}
