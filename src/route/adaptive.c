/*
 * adaptive.c - least-congested minimum-hop paths (route_eval.h), for the
 * approximate congestion of Hoefler & Snir 2011, Algorithm 3
 * (src/metrics/approx.c says what is modelled and how it is labelled).
 *
 * The minimum-hop paths of a flow are the BFS DAG of its source host
 * (dag.c), and a dynamic program over the DAG ancestors of the destination
 * finds the path with the least sum of rho, the congestion placed so far:
 * the order of the paper's weights (fewer hops first, then less
 * congestion) without adding rho to a weight of ~1e16 in double precision.
 * Ties go to the first in-link in CSR order.  Then rho(f) += w / c(f)
 * along the path.
 */
#include <stdlib.h>

#include "route_eval.h"
#include "route_int.h"
#include "../util/util.h"

struct tm__route_adaptive {
    const tm_route *r;
    tm__dagws *dw;
    int32_t *anc;    /* ancestors, decreasing dist */
    double *best;    /* least rho sum src -> v */
    int32_t *via;    /* link into v on that path */
    double *rho;     /* congestion so far per link */
};

tm_err tm__route_adaptive_new(tm_ctx *ctx, const tm_route *r, tm__route_adaptive **out)
{
    const tm_net_csr *g = r->g;
    size_t n = (size_t)g->n + 1;
    tm__route_adaptive *a = calloc(1, sizeof *a);
    tm_err err;
    *out = NULL;
    if (!a)
        return tm__nomem(ctx);
    a->r = r;
    if ((err = tm__dagws_new(ctx, g, &a->dw)) != TM_EOK) {
        tm__route_adaptive_free(a);
        return err;
    }
    a->anc = tm__malloc_n(n, sizeof *a->anc);
    a->best = tm__malloc_n(n, sizeof *a->best);
    a->via = tm__malloc_n(n, sizeof *a->via);
    a->rho = tm__calloc_n((size_t)g->n_links + 1, sizeof *a->rho);
    if (!a->anc || !a->best || !a->via || !a->rho) {
        tm__route_adaptive_free(a);
        return tm__nomem(ctx);
    }
    *out = a;
    return TM_EOK;
}

/* The least-rho path to dst over the DAG d, loaded with w. */
static void route_one(const tm_net_csr *g, tm__route_adaptive *a, const tm__dag *d, int32_t dst,
                      double w, double *load)
{
    int32_t na = tm__dag_ancestors(a->dw, d, dst, a->anc), v;
    for (int32_t i = na - 1; i >= 0; i--) {
        int32_t x = a->anc[i], dx = d->dist[x];
        if (dx == 0) {
            a->best[x] = 0.0;
            continue;
        }
        a->via[x] = -1;
        for (int32_t j = g->off[x]; j < g->off[x + 1]; j++) {
            int32_t u = g->head[j], l = g->link[j] ^ 1;
            double c;
            if (!tm__dag_is_pred(g, d, u, dx))
                continue;
            c = a->best[u] + a->rho[l];
            if (a->via[x] < 0 || c < a->best[x]) {
                a->best[x] = c;
                a->via[x] = l;
            }
        }
    }
    for (v = dst; v != d->src; v = g->tail_of[a->via[v]]) {
        int32_t l = a->via[v];
        load[l] += w;
        a->rho[l] += w / g->cap[l];
    }
}

tm_err tm__route_adaptive_flow(tm_ctx *ctx, tm__route_adaptive *a, int32_t src, int32_t dst,
                               double w, double *load, int32_t *hops)
{
    /* The DAG of src stays cached while its flows come one after another. */
    tm__dag *d = tm__dag_get(a->dw, src);
    tm_err err = tm__dag_reach_all(ctx, a->r, d, 1, &dst, hops);
    if (!err)
        route_one(a->r->g, a, d, dst, w, load);
    return err;
}

void tm__route_adaptive_free(tm__route_adaptive *a)
{
    if (!a)
        return;
    tm__dagws_free(a->dw);
    free(a->anc);
    free(a->best);
    free(a->via);
    free(a->rho);
    free(a);
}
