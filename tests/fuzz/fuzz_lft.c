/* fuzz_lft.c - one ibroute forwarding-table file (lft_read.c) read for the
 * hand-made fabric of tests/data/route/lft2 (2 leaves, 2 spines, 4 hosts),
 * then every host pair routed through whatever the table says (fwd.c):
 * loops, missing cables and conflicting entries must be errors, never a
 * crash or a hang. */
#include "fuzz_common.h"
#include "route/route_int.h"

static const char fabric[] =
    "CA     1   1 0x0000000000000a01 4x EDR - SW    10   1 0x0000000000001000 ( 'a HCA-1' - 'leaf1' )\n"
    "SW    10   1 0x0000000000001000 4x EDR - CA     1   1 0x0000000000000a01 ( 'leaf1' - 'a HCA-1' )\n"
    "CA     2   1 0x0000000000000b01 4x EDR - SW    10   2 0x0000000000001000 ( 'b HCA-1' - 'leaf1' )\n"
    "SW    10   2 0x0000000000001000 4x EDR - CA     2   1 0x0000000000000b01 ( 'leaf1' - 'b HCA-1' )\n"
    "CA     3   1 0x0000000000000c01 4x EDR - SW    11   1 0x0000000000001100 ( 'c HCA-1' - 'leaf2' )\n"
    "SW    11   1 0x0000000000001100 4x EDR - CA     3   1 0x0000000000000c01 ( 'leaf2' - 'c HCA-1' )\n"
    "CA     4   1 0x0000000000000d01 4x EDR - SW    11   2 0x0000000000001100 ( 'd HCA-1' - 'leaf2' )\n"
    "SW    11   2 0x0000000000001100 4x EDR - CA     4   1 0x0000000000000d01 ( 'leaf2' - 'd HCA-1' )\n"
    "SW    10   3 0x0000000000001000 4x EDR - SW    20   1 0x0000000000002000 ( 'leaf1' - 'spine1' )\n"
    "SW    20   1 0x0000000000002000 4x EDR - SW    10   3 0x0000000000001000 ( 'spine1' - 'leaf1' )\n"
    "SW    10   4 0x0000000000001000 4x EDR - SW    21   1 0x0000000000002100 ( 'leaf1' - 'spine2' )\n"
    "SW    21   1 0x0000000000002100 4x EDR - SW    10   4 0x0000000000001000 ( 'spine2' - 'leaf1' )\n"
    "SW    11   3 0x0000000000001100 4x EDR - SW    20   2 0x0000000000002000 ( 'leaf2' - 'spine1' )\n"
    "SW    20   2 0x0000000000002000 4x EDR - SW    11   3 0x0000000000001100 ( 'spine1' - 'leaf2' )\n"
    "SW    11   4 0x0000000000001100 4x EDR - SW    21   2 0x0000000000002100 ( 'leaf2' - 'spine2' )\n"
    "SW    21   2 0x0000000000002100 4x EDR - SW    11   4 0x0000000000001100 ( 'spine2' - 'leaf2' )\n"
;

static tm_net *make_net(tm_ctx *ctx)
{
    FILE *in = fmemopen((void *)fabric, sizeof fabric - 1, "r");
    tm_net *net = NULL;
    if (!in || tm_net_new(ctx, &net) || tm_ibnet_read(ctx, in, "fabric", NULL, net) ||
        tm_net_finalize(ctx, net))
        abort();
    fclose(in);
    return net;
}

static void route_pairs(tm_ctx *ctx, const tm_route *r)
{
    const tm_net_csr *g = r->g;
    double *load = calloc((size_t)g->n_links, sizeof *load), vol = 1;
    int32_t hops;
    if (!load)
        abort();
    for (int32_t s = 0; s < g->n; s++)
        for (int32_t t = 0; g->is_host[s] && t < g->n; t++) {
            tm_err err;
            if (!g->is_host[t])
                continue;
            err = tm__fwd_flows(ctx, r, NULL, s, 1, &t, &vol, load, &hops);
            fz_check_err(ctx, err, 0);
            if (!err && (hops < 0 || hops > g->n) && s != t)
                fz_die("impossible hop count", err, ctx);
        }
    free(load);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tm_ctx *ctx = fz_ctx();
    tm_net *net = make_net(ctx);
    tm_route *ecmp = NULL, r;
    tm__fwd *f = NULL;
    FILE *in = fz_open(data, size);
    tm_err err;
    /* any router gives the net and CSR a table router needs */
    if (tm_route_new(ctx, net, TM_ROUTE_ECMP, &ecmp) || tm__fwd_new(ctx, ecmp, true, &f))
        abort();
    err = tm__lft_read_file(ctx, ecmp, f, in, FZ_NAME);
    fz_check_err(ctx, err, 1);
    if (!err) {
        r = *ecmp;
        r.priv = f;
        route_pairs(ctx, &r);
    }
    tm__fwd_free(f);
    tm_route_free(ecmp);
    tm_net_free(net);
    fclose(in);
    tm_ctx_free(ctx);
    return 0;
}
