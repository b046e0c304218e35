/*
 * ecmp.c - the default routing model: the traffic between two hosts is
 * split uniformly over ALL minimum-hop paths, a path being a sequence of
 * directed links (so k parallel cables are k distinct paths).
 *
 * With sigma(v) = number of minimum-hop paths src -> v, the share of the
 * traffic src -> t that crosses DAG link u -> v is flow(v) * sigma(u) /
 * sigma(v), where flow(v) is the traffic of all destinations beyond v
 * that passes v (Brandes 2001).  All destinations of one source are
 * accumulated in one backward sweep (dag.c), so a whole source host costs
 * O(area of its DAG up to the farthest destination), never a path search
 * per message; a single message costs the DAG area between src and dst.
 */
#include "route_int.h"
#include "updown.h"

/* The fat-tree structure of updown.h, if the net has it: the exact
 * evaluation then needs no DAG at all (updown_run in src/metrics/exact.c). */
static tm_err ecmp_init(tm_ctx *ctx, tm_route *r)
{
    tm__updown *u;
    tm_err err = tm__updown_detect(ctx, r->g, &u);
    r->priv = u;
    return err;
}

static void ecmp_fini(tm_route *r)
{
    tm__updown_free(r->priv);
    r->priv = NULL;
}

const tm__updown *tm__route_updown(const tm_route *r)
{
    return r->ops == &tm__route_ecmp_ops ? r->priv : NULL;
}

static tm_err ecmp_flows(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, int32_t src, size_t k,
                         const int32_t *dst, const double *vol, double *load, int32_t *hops)
{
    tm__dagws *w = ws->priv;
    tm__dag *d = tm__dag_get(w, src);
    tm_err err = tm__dag_reach_all(ctx, r, d, k, dst, hops);
    if (!err)
        tm__dag_sweep(w, d, TM__SPLIT_ECMP, k, dst, vol, load);
    return err;
}

const tm__route_ops tm__route_ecmp_ops = {
    .name = "ecmp",
    .init = ecmp_init,
    .fini = ecmp_fini,
    .ws_init = tm__dag_ws_init,
    .ws_fini = tm__dag_ws_fini,
    .flows = ecmp_flows,
    .hops = tm__dag_hops,
    .stub_sources = true,
};
