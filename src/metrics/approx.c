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
 * paths are the BFS DAG of the source host, and a dynamic program over
 * the DAG ancestors of the destination finds the path with the least sum
 * of rho (src/route/adaptive.c, behind route_eval.h).  Same choice as the paper (up to ties), but without the
 * precision loss of adding rho to a weight of ~1e16 in double precision.
 * Ties go to the first in-link in CSR order.  Messages are processed in
 * task order (u ascending, then the CSR order of u's entries); messages
 * between tasks on one host load nothing, as in exact mode.
 *
 * Cost: O(messages x DAG area between the two hosts), sequential (each
 * message depends on the previous ones).
 */
#include "metrics_int.h"
#include "../route/route_eval.h"
#include "../util/util.h"

tm_err tm__metrics_approx(tm_ctx *ctx, const tm_route *route, const tm_comm *comm,
                          const tm_mapping *map, double *load, tm__msum *sum)
{
    tm__route_adaptive *a = NULL;
    tm_err err;
    /* striped multi-rail hosts: Algorithm 3 picks one least-congested
     * minimum-hop path per message, as it does for any router */
    if (tm__route_nonminimal(route) && !tm__route_striped(route))
        return tm__fail(ctx, TM_EUSAGE,
                        "the approximate congestion models minimum-hop paths; %s routing is "
                        "evaluated exactly only (without the approximation)",
                        tm_route_kind_name(tm_route_kind_of(route)));
    err = tm__route_adaptive_new(ctx, route, &a);
    for (int32_t u = 0; !err && u < comm->n; u++) {
        int32_t hu = map->host[u];
        for (int64_t e = comm->xadj[u]; e < comm->xadj[u + 1]; e++) {
            int32_t hv = map->host[comm->adj[e]], hops;
            double w = comm->w[e];
            sum->messages++;
            sum->total_volume += w;
            if (hv == hu)
                continue;
            if ((err = tm__route_adaptive_flow(ctx, a, hu, hv, w, load, &hops)) != TM_EOK)
                break;
            sum->inter_host_volume += w;
            sum->sum_w_hops += w * hops;
            if (hops > sum->max_dilation)
                sum->max_dilation = hops;
        }
    }
    tm__route_adaptive_free(a);
    return err;
}
