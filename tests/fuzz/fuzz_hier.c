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
        fz_check_hier(&h, ctx);
        (void)tm_hier_dist(&h, 0, h.n_pe - 1);
    }
    free(s);
    tm_ctx_free(ctx);
    return 0;
}
