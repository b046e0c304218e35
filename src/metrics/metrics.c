/*
 * metrics.c - the public metrics API (docs/design.md "Definitions"): checks the
 * inputs, groups the tasks by host, gets the link loads from the exact
 * engine (exact.c) or the paper's approximation (approx.c), and derives
 * every figure from the loads:
 *   congestion(l)   = load(l) / capacity(l) per directed link l;
 *   max_congestion  = max over l; max_links = the links within a relative
 *                     1e-9 of it (listed in link id order, up to the cap);
 *   avg_dilation    = sum(w * hops) / sum(w) over ALL messages, intra-host
 *                     ones counting 0 hops;
 *   qap_J           = sum(w * hops) (+ node-internal part, see exact.c);
 *   histogram       = used links by congestion, bins of width max / BINS
 *                     (the maximum falls in the last bin);
 * and the time model's figures from time.c, a job in phases phase by phase
 * (tm_time_eval: those alone).
 */
#include <stdlib.h>
#include <string.h>

#include "metrics_int.h"
#include "../route/route_eval.h"
#include "time_int.h"
#include "../util/util.h"

#define TM_MAX_TOL 1e-9

void tm_metrics_init(tm_metrics *m)
{
    memset(m, 0, sizeof *m);
}

void tm_metrics_release(tm_metrics *m)
{
    free(m->link_load);
    tm_metrics_init(m);
}

void tm__group_release(tm__bygroup *b)
{
    free(b->hosts);
    free(b->off);
    free(b->tasks);
    memset(b, 0, sizeof *b);
}

/* Counting sort of the tasks by host: O(tasks + vertices). */
tm_err tm__group_by_host(tm_ctx *ctx, const tm_net *net, const tm_mapping *map, tm__bygroup *out)
{
    int32_t nv = tm_net_n_vertices(net), *cnt = NULL, nh = 0;
    tm_err err = TM_EOK;

    memset(out, 0, sizeof *out);
    cnt = tm__calloc_n((size_t)nv + 1, sizeof *cnt);
    out->tasks = tm__malloc_n((size_t)map->n + 1, sizeof *out->tasks);
    if (!cnt || !out->tasks)
        goto nomem;
    for (int32_t t = 0; t < map->n; t++)
        if (cnt[map->host[t]]++ == 0)
            nh++;
    out->n_hosts = nh;
    out->hosts = tm__malloc_n((size_t)nh + 1, sizeof *out->hosts);
    out->off = tm__malloc_n((size_t)nh + 1, sizeof *out->off);
    if (!out->hosts || !out->off)
        goto nomem;
    out->off[0] = 0;
    nh = 0;
    for (int32_t v = 0; v < nv; v++)
        if (cnt[v] > 0) {
            out->hosts[nh] = v;
            out->off[nh + 1] = out->off[nh] + cnt[v];
            cnt[v] = out->off[nh]; /* now: next free position of host v */
            nh++;
        }
    for (int32_t t = 0; t < map->n; t++)
        out->tasks[cnt[map->host[t]]++] = t;
    goto out;
nomem:
    err = tm__nomem(ctx);
    tm__group_release(out);
out:
    free(cnt);
    return err;
}

static tm_err check_inputs(tm_ctx *ctx, const tm_net *net, const tm_comm *comm,
                           const tm_mapping *map)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    if (!map->host || !map->slot)
        return tm__fail(ctx, TM_EUSAGE, "metrics need a network-mode mapping (task -> host)");
    if (map->n != comm->n)
        return tm__fail(ctx, TM_EUSAGE, "the mapping has %d tasks but the communication graph %d",
                        (int)map->n, (int)comm->n);
    for (int32_t t = 0; t < map->n; t++)
        if (map->host[t] < 0 || map->host[t] >= g->n || !g->is_host[map->host[t]])
            return tm__fail(ctx, TM_EUSAGE, "task %d is mapped to vertex %d, which is not a host",
                            (int)t, (int)map->host[t]);
    return TM_EOK;
}

/* Derives the congestion figures from the link loads. */
static void summarise(const tm_net_csr *g, const double *load, tm_metrics *m)
{
    double max = 0.0, thr;
    for (int32_t l = 0; l < g->n_links; l++) {
        double c = load[l] / g->cap[l];
        if (load[l] > 0) {
            m->links_used++;
            m->congestion_sum_sq += c * c;
            if (c > max)
                max = c;
        }
    }
    m->max_congestion = max;
    if (max <= 0)
        return;
    thr = max * (1.0 - TM_MAX_TOL);
    for (int32_t l = 0; l < g->n_links; l++) {
        double c = load[l] / g->cap[l];
        int b;
        if (!(load[l] > 0))
            continue;
        if (c >= thr) {
            if (m->n_max_links < TM_METRICS_MAX_LINKS_LISTED)
                m->max_links[m->n_max_links++] = l;
            m->n_max_links_total++;
        }
        b = (int)(c / max * TM_METRICS_HIST_BINS);
        if (b >= TM_METRICS_HIST_BINS)
            b = TM_METRICS_HIST_BINS - 1;
        m->hist[b]++;
    }
}

/* Node-internal part of the network-mode J (docs/qap.md): a message between
 * slots s, t of one host costs d_node(s, t); a message that leaves its host
 * crosses the node's top level, d_top, on top of its scaled hops.  Route-
 * independent, so it is added here for exact and approximate evaluation. */
static tm_err node_part(tm_ctx *ctx, const tm_comm *comm, const tm_mapping *map,
                        const tm_hier *nh, double *out)
{
    double j = 0.0, d_top = nh->d[nh->k - 1];
    for (int32_t u = 0; u < comm->n; u++) {
        if (map->slot[u] >= nh->n_pe)
            return tm__fail(ctx, TM_EINPUT,
                            "task %d is on slot %d, but the node hierarchy has %lld PEs", u,
                            map->slot[u], (long long)nh->n_pe);
        for (int64_t e = comm->xadj[u]; e < comm->xadj[u + 1]; e++) {
            int32_t v = comm->adj[e];
            if (map->host[v] == map->host[u])
                j += comm->w[e] * tm_hier_dist(nh, map->slot[u], map->slot[v]);
            else
                j += comm->w[e] * d_top;
        }
    }
    *out = j;
    return TM_EOK;
}

/* est_time_s of a job that runs in phases (docs/time.md "Phases"): the
 * phases run one after the other, so the job's time is the sum over its
 * distinct phases of repeat x the time of one exchange of the phase's
 * matrix, each with every message in flight at once and its own latency
 * and overhead.  This is not the time of the sum: the messages of two
 * phases do not share links, and a phase's message keeps its own size (the
 * SMPI bandwidth and latency factors depend on it).  Each phase's matrix is
 * evaluated alone, by tm_metrics_eval without phases. */
static tm_err time_of_phases(tm_ctx *ctx, const tm_route *route, const tm_comm *comm,
                             const tm_mapping *map, const tm_time_opts *topt, tm_metrics *out)
{
    const tm_comm_phases *ph = topt->phases;
    tm_time_opts one = *topt;
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    double est = 0.0, lb = 0.0;
    int64_t flows = 0;
    int64_t updates = 0;
    bool approx = false;
    if (ph->n_tasks != comm->n)
        return tm_ctx_fail(ctx, TM_EINPUT, "the phases have %d tasks but the communication "
                                           "graph has %d", ph->n_tasks, comm->n);
    one.phases = NULL; /* each phase alone */
    o.time = &one;
    for (int32_t k = 0; k < ph->n_phases; k++) {
        tm_metrics m;
        tm_err err;
        if (ph->phase[k].n != comm->n)
            return tm_ctx_fail(ctx, TM_EINPUT, "phase %d has %d tasks, not %d", k + 1,
                               ph->phase[k].n, comm->n);
        err = tm_metrics_eval(ctx, route, &ph->phase[k], map, &o, &m);
        if (err)
            return err;
        est += (double)ph->repeat[k] * m.est_time_s;
        lb += (double)ph->repeat[k] * m.time_lower_bound_s;
        approx = approx || m.time_approximate;
        flows += m.time_flows;
        updates += m.time_rate_updates;
        tm_metrics_release(&m);
    }
    out->est_time_s = est;
    out->time_lower_bound_s = lb;
    out->time_approximate = approx;
    out->time_flows = flows;
    out->time_rate_updates = updates > INT32_MAX ? INT32_MAX : (int32_t)updates;
    return TM_EOK;
}

tm_err tm_metrics_eval(tm_ctx *ctx, const tm_route *route, const tm_comm *comm,
                       const tm_mapping *map, const tm_metrics_opts *opts, tm_metrics *out)
{
    const tm_net *net = tm_route_net(route);
    const tm_net_csr *g = tm_net_csr_get(net);
    tm_metrics_opts dflt = TM_METRICS_OPTS_INIT;
    tm__bygroup by = {0};
    tm__msum sum = {0};
    double *load = NULL, t0 = tm__now();
    tm_err err;

    tm_metrics_init(out);
    if (!opts)
        opts = &dflt;
    err = check_inputs(ctx, net, comm, map);
    if (err)
        return err;
    load = tm__calloc_n((size_t)g->n_links + 1, sizeof *load);
    if (!load)
        return tm__nomem(ctx);
    err = tm__group_by_host(ctx, net, map, &by);
    if (err)
        goto out;
    if (opts->approximate)
        err = tm__metrics_approx(ctx, route, comm, map, load, &sum);
    else if (tm__route_is_ugal(route))
        err = tm__metrics_ugal(ctx, route, comm, map, load, &sum);
    else
        err = tm__metrics_exact(ctx, route, comm, map, opts, &by, load, &sum);
    if (err)
        goto out;

    out->n_tasks = comm->n;
    out->hosts_used = by.n_hosts;
    out->messages = sum.messages;
    out->total_volume = sum.total_volume;
    out->inter_host_volume = sum.inter_host_volume;
    out->sum_w_hops = sum.sum_w_hops;
    out->avg_dilation = sum.total_volume > 0 ? sum.sum_w_hops / sum.total_volume : 0.0;
    out->max_dilation = sum.max_dilation;
    if (opts->node_hier) {
        err = node_part(ctx, comm, map, opts->node_hier, &sum.j_node);
        if (err)
            goto out;
    }
    out->hop_distance = opts->node_hier ? (opts->hop_distance > 0 ? opts->hop_distance
                                                                  : TM_HOP_DISTANCE_NODE_DEFAULT)
                                        : (opts->hop_distance > 0 ? opts->hop_distance : 1.0);
    out->qap_J = out->hop_distance * sum.sum_w_hops + sum.j_node;
    out->approximate = opts->approximate;
    out->n_links = g->n_links;
    summarise(g, load, out);
    if (opts->time && opts->time->model == TM_TIME_NONE)
        err = TM_EOK; /* the caller does not need the time */
    else if (opts->time && opts->time->phases)
        err = time_of_phases(ctx, route, comm, map, opts->time, out);
    else
        err = tm__time_eval(ctx, route, comm, map, opts->time, load, out);
    if (err) {
        tm_metrics_init(out); /* left empty on error */
        goto out;
    }
    if (opts->keep_link_loads) {
        out->link_load = load;
        load = NULL;
    }
    out->time_s = tm__now() - t0;
out:
    tm__group_release(&by);
    free(load);
    return err;
}

tm_err tm_time_eval(tm_ctx *ctx, const tm_route *route, const tm_comm *comm,
                    const tm_mapping *map, const tm_time_opts *topt, tm_metrics *out)
{
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    tm_metrics m;
    tm_err err;
    o.time = topt;
    err = tm_metrics_eval(ctx, route, comm, map, &o, &m);
    if (err)
        return err;
    out->est_time_s = m.est_time_s;
    out->time_lower_bound_s = m.time_lower_bound_s;
    out->time_approximate = m.time_approximate;
    out->time_flows = m.time_flows;
    out->time_rate_updates = m.time_rate_updates;
    tm_metrics_release(&m);
    return TM_EOK;
}

tm_err tm_metrics_link_loads(tm_ctx *ctx, const tm_route *route, const tm_comm *comm,
                             const tm_mapping *map, double *load, int32_t *max_dilation)
{
    const tm_net *net = tm_route_net(route);
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    const tm_net_csr *g = tm_net_csr_get(net);
    tm__bygroup by = {0};
    tm__msum sum = {0};
    double *mine;
    tm_err err = check_inputs(ctx, net, comm, map);
    if (err)
        return err;
    if (tm__route_is_ugal(route))
        return tm__fail(ctx, TM_EUSAGE, "link loads: UGAL routes by the loads of the whole "
                        "traffic, so one job's loads do not add up with another's");
    /* the engines start from zero loads (some sum over them) */
    if (!(mine = tm__calloc_n((size_t)g->n_links + 1, sizeof *mine)))
        return tm__nomem(ctx);
    err = tm__group_by_host(ctx, net, map, &by);
    if (!err)
        err = tm__metrics_exact(ctx, route, comm, map, &o, &by, mine, &sum);
    for (int32_t l = 0; !err && l < g->n_links; l++)
        load[l] += mine[l];
    if (max_dilation)
        *max_dilation = sum.max_dilation;
    tm__group_release(&by);
    free(mine);
    return err;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

tm_err tm_metrics_eval_hier(tm_ctx *ctx, const tm_hier *hier, const tm_comm *comm,
                            const tm_mapping *map, tm_metrics *out)
{
    double t0 = tm__now(), j = 0.0, vol = 0.0;
    int32_t *pes;
    tm_metrics_init(out);
    if (!map->pe)
        return tm__fail(ctx, TM_EUSAGE, "hierarchy metrics need a task -> PE mapping");
    if (map->n != comm->n)
        return tm__fail(ctx, TM_EUSAGE, "the mapping has %d tasks but the communication graph %d",
                        (int)map->n, (int)comm->n);
    for (int32_t t = 0; t < map->n; t++)
        if (map->pe[t] < 0 || map->pe[t] >= hier->n_pe)
            return tm__fail(ctx, TM_EUSAGE, "task %d is mapped to PE %d, outside [0, %lld)",
                            (int)t, (int)map->pe[t], (long long)hier->n_pe);
    for (int32_t u = 0; u < comm->n; u++)
        for (int64_t e = comm->xadj[u]; e < comm->xadj[u + 1]; e++) {
            j += comm->w[e] * tm_hier_dist(hier, map->pe[u], map->pe[comm->adj[e]]);
            vol += comm->w[e];
        }
    /* hosts_used = distinct PEs (sort a copy: O(n log n), no PE-sized array). */
    pes = tm__malloc_n((size_t)map->n + 1, sizeof *pes);
    if (!pes)
        return tm__nomem(ctx);
    memcpy(pes, map->pe, (size_t)map->n * sizeof *pes);
    qsort(pes, (size_t)map->n, sizeof *pes, cmp_i32);
    for (int32_t t = 0; t < map->n; t++)
        out->hosts_used += t == 0 || pes[t] != pes[t - 1];
    free(pes);
    out->n_tasks = comm->n;
    out->messages = comm->nnz;
    out->total_volume = vol;
    out->qap_J = j;
    out->time_s = tm__now() - t0;
    return TM_EOK;
}
