/* fuzz_gen.c - generator spec strings ("torus:8x8", "fattree:k=4,n=3", ...)
 * through tm_gen_build, then finalize and check.  Sizes are not capped
 * here on purpose: the generator itself must refuse specs too large to
 * build (a timeout or out-of-memory report is a finding). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tm_ctx *ctx;
    tm_net *net = NULL;
    char *s;
    tm_err err;
    if (size > 256)
        return 0;
    ctx = fz_ctx();
    s = fz_strdup(data, size);
    (void)tm_gen_is_spec(s);
    if (tm_net_new(ctx, &net) != TM_EOK)
        abort();
    err = tm_gen_build(ctx, s, NULL, net);
    fz_check_err(ctx, err, 0);
    if (err == TM_EOK) {
        err = tm_net_finalize(ctx, net);
        fz_check_err(ctx, err, 0);
        if (err == TM_EOK && tm_net_n_vertices(net) > 0) {
            err = tm_net_check(ctx, net);
            fz_check_err(ctx, err, 0);
        }
    }
    tm_net_free(net);
    free(s);
    tm_ctx_free(ctx);
    return 0;
}
