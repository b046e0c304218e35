/* fuzz_study.c - the option values of `topomap study` that reach the
 * library: capacity changes ("2=0.5,all=2"), named cable and switch
 * failures ("A:B,C:D", "S1,S2") and failure percentages, applied to a
 * small fat-tree and finalized.  The first byte picks the parser. */
#include "fuzz_common.h"
#include "study/study.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tm_topo_opts o = TM_TOPO_OPTS_INIT;
    tm_ctx *ctx;
    tm_net *net = NULL;
    tm_study_failure f = {TM_STUDY_FAIL_NONE, 0, NULL};
    tm_study_scale sc;
    int32_t n = 0;
    char *s;
    tm_err err;
    if (size < 1 || size > 512)
        return 0;
    ctx = fz_ctx();
    if (tm_topology_load(ctx, "fattree:k=2,n=2", &o, &net) != TM_EOK)
        abort();
    s = fz_strdup(data + 1, size - 1);
    switch (data[0] % 4) {
    case 0:
        err = tm_study_scale_parse(ctx, s, &sc);
        if (!err)
            err = tm__scale_apply(ctx, net, &sc, FZ_NAME, &n);
        break;
    case 1:
        f.kind = TM_STUDY_FAIL_LINKS, f.names = s;
        err = tm__fail_apply(ctx, net, &f, 1, 1, FZ_NAME, &n);
        break;
    case 2:
        f.kind = TM_STUDY_FAIL_SWITCHES, f.names = s;
        err = tm__fail_apply(ctx, net, &f, 1, 1, FZ_NAME, &n);
        break;
    default:
        f.kind = TM_STUDY_FAIL_RANDOM;
        f.pct = size > 1 ? data[1] : 0;
        err = tm__fail_apply(ctx, net, &f, size, size, FZ_NAME, &n);
        break;
    }
    fz_check_err(ctx, err, 0);
    if (err == TM_EOK && (n < 0 || n > tm_net_n_cables(net) * 8))
        fz_die("changed-cable count out of range", err, ctx);
    if (err == TM_EOK) {
        err = tm_net_finalize(ctx, net);
        fz_check_err(ctx, err, 0);
    }
    free(s);
    tm_net_free(net);
    tm_ctx_free(ctx);
    return 0;
}
