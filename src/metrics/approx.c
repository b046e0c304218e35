/*
 * approx.c - the APPROXIMATE congestion of Hoefler & Snir 2011, Algorithm 3
 * ("Determine Congestion"), offered as an option and always labelled
 * (tm_metrics.approximate = true).  It is not a routing model: it models an
 * adaptive network that sends every message over one minimum-hop path,
 * chosen greedily to avoid the load placed by earlier messages.
 *
 * The paper gives every link the weight w^ = max(w) * |V_H|^2 plus its
 * current congestion rho(f) and runs one shortest-path search per message,
 * so that fewer hops always win and, among minimum-hop paths, the least
 * congested one is taken; then rho(f) += w(e) / c(f) along that path.  We
 * implement that order directly instead of adding w^: the minimum-hop
 * paths are the BFS DAG of the source host (dag.c), and a dynamic program
 * over the DAG ancestors of the destination finds the path with the least
 * sum of rho.  Same choice as the paper (up to ties), but without the
 * precision loss of adding rho to a weight of ~1e16 in double precision.
 * Ties go to the first in-link in CSR order.  Messages are processed in
 * task order (u ascending, then the CSR order of u's entries); messages
 * between tasks on one host load nothing, as in exact mode.
 *
 * Cost: O(messages x DAG area between the two hosts), sequential (each
 * message depends on the previous ones).
 */
#include <stdlib.h>

#include "metrics_int.h"
#include "../route/route_int.h"
#include "../util/util.h"

typedef struct approx_ws {
    tm__dagws *dw;
    int32_t *anc;    /* ancestors, decreasing dist */
    double *best;    /* least rho sum src -> v */
    int32_t *via;    /* link into v on that path */
    double *rho;     /* congestion so far per link */
} approx_ws;

/* One message: picks the least-congested minimum-hop path src -> dst and
 * adds w to its links.  Returns the hop count. */
static int32_t route_one(const tm_net_csr *g, approx_ws *a, const tm__dag *d, int32_t dst,
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
    return d->dist[dst];
}

tm_err tm__metrics_approx(tm_ctx *ctx, const tm_route *route, const tm_comm *comm,
                          const tm_mapping *map, double *load, tm__msum *sum)
{
    const tm_net_csr *g = tm_net_csr_get(tm_route_net(route));
    size_t n = (size_t)g->n + 1;
    approx_ws a = {0};
    tm_err err = TM_EOK;

    err = tm__dagws_new(ctx, g, &a.dw);
    if (err)
        goto out;
    a.anc = tm__malloc_n(n, sizeof *a.anc);
    a.best = tm__malloc_n(n, sizeof *a.best);
    a.via = tm__malloc_n(n, sizeof *a.via);
    a.rho = tm__calloc_n((size_t)g->n_links + 1, sizeof *a.rho);
    if (!a.anc || !a.best || !a.via || !a.rho) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t u = 0; u < comm->n; u++) {
        int32_t hu = map->host[u];
        tm__dag *d = NULL;
        for (int64_t e = comm->xadj[u]; e < comm->xadj[u + 1]; e++) {
            int32_t hv = map->host[comm->adj[e]], hops;
            double w = comm->w[e];
            sum->messages++;
            sum->total_volume += w;
            if (hv == hu)
                continue;
            if (!d)
                d = tm__dag_get(a.dw, hu);
            err = tm__dag_reach_all(ctx, route, d, 1, &hv, &hops);
            if (err)
                goto out;
            route_one(g, &a, d, hv, w, load);
            sum->inter_host_volume += w;
            sum->sum_w_hops += w * hops;
            if (hops > sum->max_dilation)
                sum->max_dilation = hops;
        }
    }
out:
    tm__dagws_free(a.dw);
    free(a.anc);
    free(a.best);
    free(a.via);
    free(a.rho);
    return err;
}
