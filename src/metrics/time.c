/*
 * time.c - the time model (docs/time.md): the estimated completion time of
 * one exchange of the whole communication matrix, every message in flight
 * at once, volumes in bytes, capacities in Gbit/s (bytes/s = cap * 1e9 /
 * 8).
 *
 * A network message becomes a flow over its route's links (time_flows.c)
 * that starts after its latency and then shares the links max-min fairly
 * with the others (time_sim.c).  With TM_TIME_SMPI the flow also carries
 * the factors of SimGrid 3.32's default SMPI network model (each constant
 * below names its source); TM_TIME_FLUID drops them.  Intra-host messages
 * use no network link: as SimGrid's loopback (a FATPIPE link), each has
 * the host bandwidth to itself.
 *
 * Exact for up to exact_max_flows network messages (and a bounded number
 * of (flow, link) entries); above, the approximation of docs/time.md.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "time_int.h"
#include "../util/util.h"

/* SimGrid 3.32, src/kernel/resource/models/network_cm02.cpp (model
 * "SMPI"): network/bandwidth-factor and network/latency-factor, "size >=
 * threshold: factor", and network/weight-S. */
static const double smpi_thr[] = {65472, 15424, 9376, 5776, 3484, 1426, 732, 257, 0};
static const double smpi_bwf[] = {0.940694, 0.697866, 0.58729, 1.08739, 0.77493,
                                  0.608902, 0.341987, 0.338112, 0.812084};
static const double smpi_latf[] = {11.6436, 3.48845, 2.59299, 2.18796, 1.88101,
                                   1.61075, 1.9503,  1.95341, 2.01467};
#define SMPI_WEIGHT_S 8775.0     /* bytes (network/weight-S of the SMPI model) */
#define SMPI_TCP_GAMMA 4194304.0 /* bytes (network/TCP-gamma default) */
#define SMPI_CROSSTRAFFIC TM__TIME_CROSSTRAFFIC
#define EXACT_MAX_ENTRIES 4000000 /* (flow, link) entries of the exact simulation */
#define APPROX_EPOCHS TM__TIME_APPROX_EPOCHS
#define EXACT_WORK TM__TIME_EXACT_WORK

static int size_class(double bytes)
{
    int i = 0;
    while (bytes < smpi_thr[i])
        i++;
    return i;
}

static double bw_factor(const tm__tparams *p, double bytes)
{
    return p->smpi ? smpi_bwf[size_class(bytes)] : 1.0;
}

static double lat_factor(const tm__tparams *p, double bytes)
{
    return p->smpi ? smpi_latf[size_class(bytes)] : 1.0;
}

/* Lists the network messages; intra-host ones are timed on the spot
 * (*intra: the latest end, *intra_lb: its bandwidth part). */
tm_err tm__time_messages(tm_ctx *ctx, const tm_comm *comm, const tm_mapping *map,
                            const tm__tparams *p, tm__tmsg **out, int64_t *n, double *intra,
                            double *intra_lb, int64_t *n_intra)
{
    int64_t k = 0;
    *out = tm__malloc_n((size_t)comm->nnz + 1, sizeof **out);
    if (!*out)
        return tm__nomem(ctx);
    *intra = *intra_lb = 0.0;
    *n_intra = 0;
    for (int32_t u = 0; u < comm->n; u++)
        for (int64_t e = comm->xadj[u]; e < comm->xadj[u + 1]; e++) {
            int32_t v = comm->adj[e];
            double b = comm->w[e];
            if (!(b > 0))
                continue;
            if (map->host[u] == map->host[v]) {
                double bw = b / bw_factor(p, b) / p->host_Bps;
                if (bw > *intra_lb)
                    *intra_lb = bw;
                if (p->overhead + bw > *intra)
                    *intra = p->overhead + bw;
                ++*n_intra;
                continue;
            }
            (*out)[k++] = (tm__tmsg){map->host[u], map->host[v], b};
        }
    *n = k;
    return TM_EOK;
}

int tm__tflows_alloc(tm__tflows *t, int64_t n)
{
    size_t m = (size_t)n + 1;
    memset(t, 0, sizeof *t);
    t->n = n;
    t->vol = tm__malloc_n(m, sizeof *t->vol);
    t->weight = tm__malloc_n(m, sizeof *t->weight);
    t->bound = tm__malloc_n(m, sizeof *t->bound);
    t->start = tm__malloc_n(m, sizeof *t->start);
    t->hops = tm__malloc_n(m, sizeof *t->hops);
    t->inv_bw = tm__malloc_n(m, sizeof *t->inv_bw);
    t->off = tm__malloc_n(m, sizeof *t->off);
    if (!t->vol || !t->weight || !t->bound || !t->start || !t->hops || !t->inv_bw || !t->off)
        return -1;
    return 0;
}

/* Volume, latency, weight and bound of every flow (docs/time.md "SMPI");
 * hops[] and inv_bw[] are not needed after and are freed. */
void tm__time_flow_params(tm__tflows *t, const tm__tmsg *msg, const tm__tparams *p, double hops_dflt,
                        bool full)
{
    for (int64_t f = 0; f < t->n; f++) {
        double b = msg[f].bytes, h = full ? t->hops[f] : hops_dflt, lat = h * p->lat_hop;
        t->hops[f] = h;
        t->vol[f] = b / bw_factor(p, b);
        t->start[f] = p->overhead + lat * lat_factor(p, b);
        t->weight[f] = 1.0;
        t->bound[f] = 0.0;
        if (!p->smpi)
            continue;
        /* SimGrid's sharing penalty: route latency + weight-S / bandwidth
         * of each link; the rate is inversely proportional to it */
        if (lat + SMPI_WEIGHT_S * t->inv_bw[f] > 0)
            t->weight[f] = 1.0 / (lat + SMPI_WEIGHT_S * t->inv_bw[f]);
        if (lat > 0)
            t->bound[f] = SMPI_TCP_GAMMA / (2.0 * lat);
    }
    free(t->hops);
    free(t->inv_bw);
    t->hops = t->inv_bw = NULL;
}

/* max over links of (sum of effective bytes x coefficient) / capacity. */
static double lower_bound_full(const tm__tflows *t, double *acc)
{
    double lb = 0.0;
    for (int64_t f = 0; f < t->n; f++)
        for (int64_t e = t->off[f]; e < t->off[f + 1]; e++)
            acc[t->ent_link[e]] += t->vol[f] * t->ent_coef[e];
    for (int32_t l = 0; l < t->n_res; l++) {
        if (acc[l] / t->cap[l] > lb)
            lb = acc[l] / t->cap[l];
        acc[l] = 0.0;
    }
    return lb;
}

/* The approximation's bound from the exact loads in bytes, scaled to
 * effective bytes by rho (the smallest or the mean 1 / bandwidth factor),
 * plus cross-traffic xt x the load of the reverse link (the route back of
 * a symmetric routing). */
static double lower_bound_loads(const tm_net_csr *g, const double *load, double rho, double xt)
{
    double lb = 0.0;
    for (int32_t l = 0; l < g->n_links; l++) {
        double v = rho * (load[l] + xt * load[l ^ 1]) / tm__link_Bps(g, l);
        lb = v > lb ? v : lb;
    }
    return lb;
}

tm_err tm__time_params(tm_ctx *ctx, const tm_time_opts *o, tm__tparams *p)
{
    if (!(o->latency_per_hop_s >= 0) || !(o->message_overhead_s >= 0) ||
        !(o->host_bandwidth_gbps > 0) || (o->model != TM_TIME_SMPI && o->model != TM_TIME_FLUID))
        return tm__fail(ctx, TM_EUSAGE,
                        "time model: latency and overhead must be >= 0, host bandwidth > 0");
    p->smpi = o->model == TM_TIME_SMPI;
    p->lat_hop = o->latency_per_hop_s;
    p->overhead = o->message_overhead_s;
    p->host_Bps = o->host_bandwidth_gbps * 1e9 / 8.0;
    return TM_EOK;
}

/* Builds the flows (full paths if allowed and not too many entries). */
tm_err tm__time_build(tm_ctx *ctx, const tm_route *route, const tm__tmsg *msg, const tm__tparams *p,
                    bool *full, tm__tflows *t)
{
    double xt = p->smpi ? SMPI_CROSSTRAFFIC : 0.0;
    bool too_big = false;
    tm_err err = TM_EOK;
    if (*full)
        err = tm__time_paths(ctx, route, msg, t->n, true, xt, EXACT_MAX_ENTRIES, t, &too_big);
    if (!err && (!*full || too_big)) {
        *full = false;
        err = tm__time_paths(ctx, route, msg, t->n, false, xt, 0, t, &too_big);
    }
    return err;
}

/* The approximation's figures from the exact loads (docs/time.md,
 * Approximation tier 2): *lb the bound for any routing (smallest 1 /
 * bandwidth factor, no cross-traffic), *est the loads' estimate (mean
 * factor, the cross-traffic of a symmetric routing) plus the largest
 * latency.  Needs only the flows' volumes and starts and msg's bytes. */
static void approx_figures(const tm__tflows *t, const tm__tmsg *msg, const tm_net_csr *g,
                           const double *load, const tm__tparams *p, double *lb, double *est)
{
    double rho_min = INFINITY, rho_sum = 0.0, b_sum = 0.0, lat = 0.0;
    *lb = *est = 0.0;
    if (!t->n)
        return;
    for (int64_t f = 0; f < t->n; f++) {
        double r = t->vol[f] / msg[f].bytes;
        rho_min = r < rho_min ? r : rho_min;
        rho_sum += t->vol[f];
        b_sum += msg[f].bytes;
        lat = t->start[f] > lat ? t->start[f] : lat;
    }
    *lb = lower_bound_loads(g, load, rho_min, 0.0);
    *est = lower_bound_loads(g, load, rho_sum / b_sum, p->smpi ? SMPI_CROSSTRAFFIC : 0.0) + lat;
}

/* The flows of the n messages, ready to simulate (resources compacted,
 * the approximation's figures taken from msg, which is then freed: the
 * simulation's peak holds only what it reads). */
static tm_err prepare(tm_ctx *ctx, const tm_route *route, tm__tmsg **msg, const tm__tparams *p,
                      const double *load, double max_dilation, bool *full, tm__tflows *t,
                      double *approx_lb, double *approx_est)
{
    const tm_net_csr *g = tm_net_csr_get(tm_route_net(route));
    tm_err err = tm__time_build(ctx, route, *msg, p, full, t);
    if (err)
        return err;
    if (tm__tflows_compact(t, g) < 0)
        return tm__nomem(ctx);
    tm__time_flow_params(t, *msg, p, max_dilation, *full);
    if (!*full)
        approx_figures(t, *msg, g, load, p, approx_lb, approx_est);
    free(*msg);
    *msg = NULL;
    return TM_EOK;
}

tm_err tm__time_eval(tm_ctx *ctx, const tm_route *route, const tm_comm *comm,
                     const tm_mapping *map, const tm_time_opts *topt, const double *load,
                     tm_metrics *out)
{
    tm_time_opts dflt = TM_TIME_OPTS_INIT;
    tm__tmsg *msg = NULL;
    tm__tflows t = {0};
    double intra = 0.0, intra_lb = 0.0, *done = NULL, est = 0.0, lb = 0.0, a_est = 0.0;
    int64_t n = 0, n_intra = 0;
    bool switched = false;
    tm__tparams p = {0};
    bool full;
    tm_err err = tm__time_params(ctx, topt ? topt : &dflt, &p);
    if (err)
        return err;
    err = tm__time_messages(ctx, comm, map, &p, &msg, &n, &intra, &intra_lb, &n_intra);
    if (err)
        return err;
    full = n <= (topt ? topt : &dflt)->exact_max_flows;
    if (tm__tflows_alloc(&t, n) < 0 || !(done = tm__malloc_n((size_t)n + 1, sizeof *done))) {
        err = tm__nomem(ctx);
        goto out;
    }
    err = prepare(ctx, route, &msg, &p, load, out->max_dilation, &full, &t, &lb, &a_est);
    if (err)
        goto out;
    /* full paths: exact until the work bound, then bounded epochs
     * (docs/time.md "Approximation", tier 1) */
    err = tm__time_simulate(ctx, &t, full ? 0 : APPROX_EPOCHS, EXACT_WORK, done,
                            &out->time_rate_updates, &switched);
    if (err)
        goto out;
    for (int64_t f = 0; f < n; f++)
        if (done[f] > est)
            est = done[f];
    if (full) {
        double *acc = tm__calloc_n((size_t)t.n_res + 1, sizeof *acc);
        if (!acc) {
            err = tm__nomem(ctx);
            goto out;
        }
        lb = lower_bound_full(&t, acc);
        free(acc);
    } else if (a_est > est) {
        est = a_est;
    }
    out->est_time_s = est > intra ? est : intra;
    out->time_lower_bound_s = lb > intra_lb ? lb : intra_lb;
    out->time_approximate = !full || switched;
    out->time_flows = n + n_intra;
out:
    tm__tflows_release(&t);
    free(msg);
    free(done);
    return err;
}
