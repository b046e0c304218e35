/*
 * single.c - one deterministic minimum-hop path per host pair: from the
 * destination back to the source, each step takes the DAG in-link with the
 * lowest directed link id (link ids follow cable order, so the choice is
 * reproducible for a given input file).  The path src -> t is therefore a
 * function of (src, t) only, as with static routing tables; all traffic of
 * a pair uses it.
 */
#include "route_int.h"

static tm_err single_flows(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, int32_t src, size_t k,
                           const int32_t *dst, const double *vol, double *load, int32_t *hops)
{
    tm__dagws *w = ws->priv;
    tm__dag *d = tm__dag_get(w, src);
    tm_err err = tm__dag_reach_all(ctx, r, d, k, dst, hops);
    /* The lowest-id in-link of a vertex does not depend on which
     * destination the flow is heading for, so merged flows stay exact. */
    if (!err)
        tm__dag_sweep(w, d, TM__SPLIT_LOWEST, k, dst, vol, load);
    return err;
}

const tm__route_ops tm__route_single_ops = {
    .name = "single",
    .init = NULL,
    .fini = NULL,
    .ws_init = tm__dag_ws_init,
    .ws_fini = tm__dag_ws_fini,
    .flows = single_flows,
    .hops = tm__dag_hops,
    .stub_sources = true,
};
