/*
 * time_int.h - internals of the time model (docs/time.md; never installed).
 *
 * time.c turns the messages into flows (effective bytes, weight, rate
 * bound, latency) with the model's factors; time_flows.c lists the links
 * each flow loads (the routing's paths, or only the hosts' own links for
 * the approximation); time_sim.c runs the fluid simulation: max-min fair
 * rates by progressive filling, recomputed whenever a flow starts or ends.
 */
#ifndef TM_TIME_INT_H
#define TM_TIME_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "metrics_int.h"

/* The flows of one exchange, CSR by flow: flow f loads resource
 * ent_link[e] with coefficient ent_coef[e] x its rate, e in [off[f],
 * off[f+1]).  tm__time_paths fills ent_link with the network's link ids;
 * tm__tflows_compact then renumbers them 0 .. n_res - 1 (the links some
 * flow loads) and sets cap[]. */
typedef struct tm__tflows {
    int64_t n;           /* flows */
    int32_t n_res;       /* resources (links a flow loads) */
    double *cap;         /* n_res, bytes/s */
    double *vol;         /* effective bytes (bytes / bandwidth factor) */
    double *weight;      /* share per unit of the fair level (1 / penalty) */
    double *bound;       /* max rate, bytes/s (<= 0: none) */
    double *start;       /* the bandwidth phase starts (latency paid) */
    double *hops;        /* average hops over the flow's paths */
    double *inv_bw;      /* sum over its forward links of fraction / capacity (s/byte) */
    int64_t *off;        /* n + 1 */
    int32_t *ent_link;
    double *ent_coef;
    int64_t n_ent, cap_ent;
} tm__tflows;

void tm__tflows_release(tm__tflows *t);
/* Bytes/s of directed link l (capacities are in Gbit/s). */
static inline double tm__link_Bps(const tm_net_csr *g, int32_t l)
{
    return g->cap[l] * 1e9 / 8.0;
}
/* Renumbers the links of the entries as resources 0 .. n_res - 1 in order
 * of first use and sets cap[] (-1 without memory). */
int tm__tflows_compact(tm__tflows *t, const tm_net_csr *g);
/* Appends entry (l, c) to the flow being built (off[n] .. ). */
int tm__tflows_push(tm__tflows *t, int32_t l, double c);

/* The one network message u -> v of the exchange before the model's
 * factors are applied. */
typedef struct tm__tmsg {
    int32_t src_host, dst_host;
    double bytes;
} tm__tmsg;

/* Appends the entries of every message (full == true: the routing's links
 * with their fractions, plus cross-traffic coefficient xt on the links of
 * the reverse route; false: only the source host's out-links and the
 * destination host's in-links, split evenly, plus xt on their reverses)
 * and sets hops[] (full: sum of fractions; else 0) and inv_bw[] (full: sum
 * of fraction / cap over the forward links; else the two host links'); the
 * entries name the network's links (t->cap is not used).  max_ent > 0 stops with
 * *too_big = true once more entries than that would be needed. */
tm_err tm__time_paths(tm_ctx *ctx, const tm_route *route, const tm__tmsg *msg, int64_t n,
                      bool full, double xt, int64_t max_ent, tm__tflows *t, bool *too_big);

/* Completion time of every flow (done[f], s, latency included) under
 * max-min fair sharing.  max_epochs > 0: bounded mode from the start
 * (every flow starts its bandwidth phase at 0, its latency is added
 * after), at most max_epochs rate computations, each epoch running until
 * at least 1/8 of the active flows have ended (their bandwidth is handed
 * back at the end of the epoch only).  Else exact, one rate computation
 * per event (a flow starts after its latency, or ends), until the work
 * (sum of the active flows' entries over the computations) exceeds
 * work_budget (> 0): then bounded from that moment on, *switched = true,
 * with about work_budget / 2 more work in TM__TIME_SWITCH_MIN..MAX epochs
 * that each end an even share of the flows left. */
#define TM__TIME_SWITCH_MIN 8
#define TM__TIME_SWITCH_MAX 128

/* The time fields of out (time.c); load: the exact link loads (bytes),
 * used by the approximation. */
tm_err tm__time_eval(tm_ctx *ctx, const tm_route *route, const tm_comm *comm,
                     const tm_mapping *map, const tm_time_opts *topt, const double *load,
                     tm_metrics *out);
/* ---- the pieces of time.c that time_shared.c strings together ------------ */
#define TM__TIME_CROSSTRAFFIC 0.05 /* SMPI network/crosstraffic: acks on the route back */
#define TM__TIME_APPROX_EPOCHS 64  /* epochs of the approximation (tier 2) */
#define TM__TIME_EXACT_WORK 1e7    /* work bound of the exact simulation (tier 1 above) */
/* The model's parameters from the options (TM_EUSAGE for bad values). */
typedef struct tm__tparams {
    bool smpi;
    double lat_hop, overhead, host_Bps;
} tm__tparams;
tm_err tm__time_params(tm_ctx *ctx, const tm_time_opts *o, tm__tparams *p);
/* The network messages of a mapping (*n, malloc'ed into *out); the
 * intra-host ones are timed on the spot: *intra their latest end,
 * *intra_lb its bandwidth part, *n_intra how many. */
tm_err tm__time_messages(tm_ctx *ctx, const tm_comm *comm, const tm_mapping *map,
                         const tm__tparams *p, tm__tmsg **out, int64_t *n, double *intra,
                         double *intra_lb, int64_t *n_intra);
/* Zeroes *t and allocates its per-flow arrays for n flows (-1 without
 * memory). */
int tm__tflows_alloc(tm__tflows *t, int64_t n);
/* The flows' entries: the full paths when *full and they fit the exact
 * simulation's entry bound, else (*full = false) the hosts' links only. */
tm_err tm__time_build(tm_ctx *ctx, const tm_route *route, const tm__tmsg *msg,
                      const tm__tparams *p, bool *full, tm__tflows *t);
/* Volume, start, weight and bound of every flow from its message (hops of
 * an approximate flow: hops_dflt); frees hops[] and inv_bw[]. */
void tm__time_flow_params(tm__tflows *t, const tm__tmsg *msg, const tm__tparams *p,
                          double hops_dflt, bool full);

tm_err tm__time_simulate(tm_ctx *ctx, const tm__tflows *t, int32_t max_epochs, double work_budget,
                         double *done, int32_t *updates, bool *switched);

#endif
