/* fuzz_lft.c - one forwarding-table dump (lft_read.c, lft_fdbs.c: any of
 * the formats, autodetected) read for the hand-made fabrics of
 * tests/data/route/lft2 (2 leaves, 2 spines, 4 hosts, LMC 0) and
 * tests/data/route/lmc1 (the same with LMC 1, routed with --lmc-spread),
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

/* tests/data/route/lmc1/fabric.txt (make-lmc-fixtures.py) */
static const char fabric_lmc[] =
    "#\n"
    "# Topology file: hand-made (make-lmc-fixtures.py)\n"
    "#\n"
    "\n"
    "vendid=0x2c9\n"
    "devid=0xcb20\n"
    "switchguid=0x1000(1000)\n"
    "Switch\t8 \"S-0000000000001000\"\t\t# \"leaf1\" base port 0 lid 10 lmc 0\n"
    "[1]\t\"H-0000000000000a00\"[1](a01)\t\t# \"a HCA-1\" lid 2 4xEDR\n"
    "[2]\t\"H-0000000000000b00\"[1](b01)\t\t# \"b HCA-1\" lid 4 4xEDR\n"
    "[3]\t\"S-0000000000002000\"[1]\t\t# \"spine1\" lid 20 4xEDR\n"
    "[4]\t\"S-0000000000002100\"[1]\t\t# \"spine2\" lid 21 4xEDR\n"
    "\n"
    "vendid=0x2c9\n"
    "devid=0xcb20\n"
    "switchguid=0x1100(1100)\n"
    "Switch\t8 \"S-0000000000001100\"\t\t# \"leaf2\" base port 0 lid 11 lmc 0\n"
    "[1]\t\"H-0000000000000c00\"[1](c01)\t\t# \"c HCA-1\" lid 6 4xEDR\n"
    "[2]\t\"H-0000000000000d00\"[1](d01)\t\t# \"d HCA-1\" lid 8 4xEDR\n"
    "[3]\t\"S-0000000000002000\"[2]\t\t# \"spine1\" lid 20 4xEDR\n"
    "[4]\t\"S-0000000000002100\"[2]\t\t# \"spine2\" lid 21 4xEDR\n"
    "\n"
    "vendid=0x2c9\n"
    "devid=0xcb20\n"
    "switchguid=0x2000(2000)\n"
    "Switch\t8 \"S-0000000000002000\"\t\t# \"spine1\" base port 0 lid 20 lmc 0\n"
    "[1]\t\"S-0000000000001000\"[3]\t\t# \"leaf1\" lid 10 4xEDR\n"
    "[2]\t\"S-0000000000001100\"[3]\t\t# \"leaf2\" lid 11 4xEDR\n"
    "\n"
    "vendid=0x2c9\n"
    "devid=0xcb20\n"
    "switchguid=0x2100(2100)\n"
    "Switch\t8 \"S-0000000000002100\"\t\t# \"spine2\" base port 0 lid 21 lmc 0\n"
    "[1]\t\"S-0000000000001000\"[4]\t\t# \"leaf1\" lid 10 4xEDR\n"
    "[2]\t\"S-0000000000001100\"[4]\t\t# \"leaf2\" lid 11 4xEDR\n"
    "\n"
    "vendid=0x2c9\n"
    "devid=0x1017\n"
    "caguid=0xa00\n"
    "Ca\t1 \"H-0000000000000a00\"\t\t# \"a HCA-1\"\n"
    "[1](a01) \t\"S-0000000000001000\"[1]\t\t# lid 2 lmc 1 \"leaf1\" lid 10 4xEDR\n"
    "\n"
    "vendid=0x2c9\n"
    "devid=0x1017\n"
    "caguid=0xb00\n"
    "Ca\t1 \"H-0000000000000b00\"\t\t# \"b HCA-1\"\n"
    "[1](b01) \t\"S-0000000000001000\"[2]\t\t# lid 4 lmc 1 \"leaf1\" lid 10 4xEDR\n"
    "\n"
    "vendid=0x2c9\n"
    "devid=0x1017\n"
    "caguid=0xc00\n"
    "Ca\t1 \"H-0000000000000c00\"\t\t# \"c HCA-1\"\n"
    "[1](c01) \t\"S-0000000000001100\"[1]\t\t# lid 6 lmc 1 \"leaf2\" lid 11 4xEDR\n"
    "\n"
    "vendid=0x2c9\n"
    "devid=0x1017\n"
    "caguid=0xd00\n"
    "Ca\t1 \"H-0000000000000d00\"\t\t# \"d HCA-1\"\n"
    "[1](d01) \t\"S-0000000000001100\"[2]\t\t# lid 8 lmc 1 \"leaf2\" lid 11 4xEDR\n";

static tm_net *make_net(tm_ctx *ctx, const char *text, size_t len)
{
    FILE *in = fmemopen((void *)text, len, "r");
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

static void read_and_route(tm_ctx *ctx, const uint8_t *data, size_t size, const char *text,
                           size_t len, bool spread)
{
    tm_net *net = make_net(ctx, text, len);
    tm_route *ecmp = NULL, r;
    tm__fwd *f = NULL;
    FILE *in = fz_open(data, size);
    tm_err err;
    /* any router gives the net and CSR a table router needs */
    if (tm_route_new(ctx, net, TM_ROUTE_ECMP, &ecmp) || tm__fwd_new(ctx, ecmp, true, &f))
        abort();
    err = tm__lft_read_file(ctx, ecmp, f, in, FZ_NAME);
    fz_check_err(ctx, err, 1);
    if (!err && spread && tm__fwd_spread(ctx, ecmp, f))
        abort();
    if (!err) {
        r = *ecmp;
        r.priv = f;
        route_pairs(ctx, &r);
    }
    tm__fwd_free(f);
    tm_route_free(ecmp);
    tm_net_free(net);
    fclose(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tm_ctx *ctx = fz_ctx();
    read_and_route(ctx, data, size, fabric, sizeof fabric - 1, false);
    read_and_route(ctx, data, size, fabric_lmc, sizeof fabric_lmc - 1, true);
    tm_ctx_free(ctx);
    return 0;
}
