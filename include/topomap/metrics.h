/*
 * topomap/metrics.h - the exact quality figures of a mapping (docs/design.md
 * "Definitions"): congestion per directed link (traffic / capacity) under
 * the router's model, its maximum and where, average dilation (volume-
 * weighted hops), the QAP cost J, and a link-load histogram.
 *
 * Exact congestion is computed by flow accumulation over the shortest-path
 * DAG of every source host: O(source hosts x links), never one path search
 * per message.
 */
#ifndef TOPOMAP_METRICS_H
#define TOPOMAP_METRICS_H

#include <stdbool.h>
#include <stdint.h>

#include "topomap/comm.h"
#include "topomap/error.h"
#include "topomap/export.h"
#include "topomap/hier.h"
#include "topomap/map.h"
#include "topomap/net.h"
#include "topomap/route.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TM_METRICS_MAX_LINKS_LISTED 64
#define TM_METRICS_HIST_BINS 10

typedef struct tm_metrics {
    int32_t n_tasks;
    int32_t hosts_used;
    int64_t messages;          /* directed entries with volume > 0 */
    double total_volume;       /* sum of all volumes (intra-host included) */
    double inter_host_volume;  /* volume that leaves its host */
    double max_congestion;     /* max over directed links of load / capacity */
    int32_t n_max_links;       /* links attaining the max (relative tol 1e-9), listed up to the cap */
    int32_t max_links[TM_METRICS_MAX_LINKS_LISTED]; /* directed link ids */
    int32_t n_max_links_total; /* how many attain it in all */
    double avg_dilation;       /* sum(w * hops) / sum(w), 0 if no volume */
    double sum_w_hops;
    int32_t max_dilation;      /* max hops of any message */
    double qap_J;              /* network mode: sum w * D(p,q); hierarchy mode: J */
    double hop_distance;       /* network mode: distance of one hop in J (see opts) */
    double congestion_sum_sq;  /* sum over links of congestion^2 (tie-breaker) */
    int32_t links_used;        /* links with load > 0 */
    /* histogram of congestion over used links, bins of width max/BINS */
    int64_t hist[TM_METRICS_HIST_BINS];
    double *link_load;         /* n_links entries if requested, owned */
    int32_t n_links;
    bool approximate;          /* congestion from the paper's Algorithm 3 */
    double time_s;             /* evaluation time */
    /* The time model (docs/time.md): one exchange of the whole matrix,
     * volumes in bytes, capacities in Gbit/s (bytes/s = cap * 1e9 / 8). */
    double est_time_s;         /* completion time of the last message, s */
    double time_lower_bound_s; /* max over links of effective bytes / (bytes/s) */
    bool time_approximate;     /* est_time_s from the approximation (too many flows) */
    int64_t time_flows;        /* messages simulated (intra-host ones included) */
    int32_t time_rate_updates; /* max-min rate computations the estimate took */
} tm_metrics;

/* The time model's options (docs/time.md).  TM_TIME_SMPI follows SimGrid
 * 3.32's default SMPI network model (bandwidth and latency factors by
 * message size, sharing weights, TCP window bound, 5 % cross-traffic on
 * the reverse route); TM_TIME_FLUID is plain max-min fair sharing of the
 * raw capacities.  TM_TIME_NONE skips the model: est_time_s,
 * time_lower_bound_s and the other time figures stay 0 (a caller that needs
 * only congestion, dilation and J: the simulation is most of an
 * evaluation's cost on small jobs). */
typedef enum { TM_TIME_SMPI = 0, TM_TIME_FLUID = 1, TM_TIME_NONE = 2 } tm_time_model;
typedef struct tm_time_opts {
    tm_time_model model;
    double latency_per_hop_s;   /* latency of one link (>= 0) */
    double message_overhead_s;  /* added once per message (>= 0) */
    double host_bandwidth_gbps; /* intra-host messages, Gbit/s (> 0) */
    int64_t exact_max_flows;    /* more messages than this: the approximation */
    /* NULL: est_time_s is one exchange of the whole matrix.  Else the job's
     * phases (comm.h; the same tasks as the matrix evaluated):
     * est_time_s and time_lower_bound_s are sums over the phases of
     * repeat x the figure of the phase's own matrix (docs/time.md
     * "Phases"); the other figures stay those of the whole matrix. */
    const struct tm_comm_phases *phases;
} tm_time_opts;
#define TM_TIME_LATENCY_PER_HOP_DEFAULT 5e-7  /* s per link */
#define TM_TIME_HOST_BANDWIDTH_DEFAULT 80.0   /* Gbit/s: SimGrid's loopback, 10 GB/s */
#define TM_TIME_EXACT_MAX_FLOWS_DEFAULT 4096
#define TM_TIME_OPTS_INIT                                                                   \
    {TM_TIME_SMPI, TM_TIME_LATENCY_PER_HOP_DEFAULT, 0.0, TM_TIME_HOST_BANDWIDTH_DEFAULT,    \
     TM_TIME_EXACT_MAX_FLOWS_DEFAULT, NULL}

typedef struct tm_metrics_opts {
    bool keep_link_loads;      /* fill link_load */
    bool approximate;          /* Hoefler & Snir Algorithm 3 instead of exact */
    const tm_hier *node_hier;  /* optional node-internal levels (network-mode J) */
    double hop_distance;       /* J distance of one network hop; <= 0: 1 without a node
                                * hierarchy, TM_HOP_DISTANCE_NODE_DEFAULT with one */
    const tm_time_opts *time;  /* the time model's options; NULL: TM_TIME_OPTS_INIT */
} tm_metrics_opts;
#define TM_METRICS_OPTS_INIT {false, false, NULL, 0.0, NULL}

/* Network-mode J with a node hierarchy (docs/qap.md):
 *   D(u,v) = d_node(slot u, slot v)                    on one host
 *          = d_top + hop_distance * hops(host u, host v) otherwise
 * with d_top the node hierarchy's largest distance.  50 per hop makes the
 * usual host-switch-host path (2 hops) cost 100, VieM's inter-node
 * distance for 1:10:100-like node levels.  Without a node hierarchy
 * D = hops (docs/design.md). */
#define TM_HOP_DISTANCE_NODE_DEFAULT 50.0

/* Empty figures (no link loads); release frees the link loads and leaves
 * them empty again. */
TM_API void tm_metrics_init(tm_metrics *m);
TM_API void tm_metrics_release(tm_metrics *m);

/* Network mode: needs a mapping with host/slot.  Uses tm_ctx_threads()
 * threads (results are bit-identical for any thread count).  *out is
 * overwritten (release it first when reusing one with link_load); on error
 * it is left empty.  Exact definitions: docs/metrics.md. */
TM_API tm_err tm_metrics_eval(tm_ctx *ctx, const tm_route *route, const tm_comm *comm,
                              const tm_mapping *map, const tm_metrics_opts *opts, tm_metrics *out);
/* The time figures alone (est_time_s, time_lower_bound_s and the counts
 * above) of a network-mode mapping, into the time fields of *out (the
 * others untouched).  topt NULL: TM_TIME_OPTS_INIT.  tm_metrics_eval
 * calls it; docs/time.md has the model, its units and its limits. */
TM_API tm_err tm_time_eval(tm_ctx *ctx, const tm_route *route, const tm_comm *comm,
                           const tm_mapping *map, const tm_time_opts *topt, tm_metrics *out);
/* The exact link loads of a network-mode mapping (bytes, or volume units,
 * per directed link), added into load[] (tm_net_csr n_links entries),
 * without the time model: what tm_metrics_eval computes its congestion
 * from, for callers that only sum loads (docs/workload.md); with
 * max_dilation != NULL also the largest hop count of a message.  UGAL
 * routing, which routes by the loads of the whole matrix, is TM_EUSAGE. */
TM_API tm_err tm_metrics_link_loads(tm_ctx *ctx, const tm_route *route, const tm_comm *comm,
                                    const tm_mapping *map, double *load, int32_t *max_dilation);

/* ---- several jobs on one fabric (time_shared.c, docs/workload.md) --------
 * Every job's messages are flows of one max-min fair simulation (the model
 * of tm_time_eval, all flows starting at 0): a job's est_time_s with the
 * others is the end of its last flow.  Jobs whose loads share no link (in
 * either direction) are simulated apart, which is exact (they do not
 * change each other's rates); a group of jobs that do is exact when it has
 * at most exact_max_flows flows in all (identical messages of a job between
 * two hosts are one flow, exactly), else the approximation of
 * docs/time.md, with each job's estimate taken over the links it loads. */
/* A job's messages listed once for the time model (and what
 * tm_time_eval_shared learns of them: identical messages merged, the
 * job's own simulation under the approximation), for a caller that
 * evaluates the job in many sets (alloc, replay).  It belongs to one
 * comm, mapping and set of time options; a call that is handed it may
 * add to it, so a prep is used by one thread at a time. */
typedef struct tm_time_prep tm_time_prep;
TM_API tm_err tm_time_prep_new(tm_ctx *ctx, const tm_comm *comm, const tm_mapping *map,
                               const tm_time_opts *topt, tm_time_prep **out);
TM_API void tm_time_prep_free(tm_time_prep *p);
typedef struct tm_time_job {
    const tm_comm *comm;
    const tm_mapping *map;
    /* the job's link loads (tm_metrics_link_loads), sparse: n_loads
     * (link, bytes) pairs with bytes > 0 */
    const int32_t *load_link;
    const double *load_bytes;
    int32_t n_loads;
    int32_t max_dilation; /* the job's (tm_metrics): latency of approximate flows */
    tm_time_prep *prep;   /* NULL: made for the call (from comm and map) */
} tm_time_job;
typedef struct tm_time_shared {
    double est_time_s;       /* with the other jobs, s */
    /* the job alone under the same model as est_time_s (the slowdown's
     * denominator): set when the job's group is approximate or has this
     * job only; 0 when exact with others (then tm_time_eval's figure,
     * which is the same model) */
    double alone_est_time_s;
    bool approximate;        /* est_time_s from the approximation */
    int32_t group;           /* the lowest job index of its group of interacting jobs
                              * (-1: its group was not simulated, see want) */
} tm_time_shared;
/* The figures of n jobs into out[0..n) (topt NULL: TM_TIME_OPTS_INIT;
 * phases are TM_EUSAGE).  want NULL: every job; else only the groups
 * holding a job with want[j] are simulated (the others' outputs are 0:
 * a shard of the jobs pays for its own groups only).  Hosts may hold
 * tasks of several jobs. */
TM_API tm_err tm_time_eval_shared(tm_ctx *ctx, const tm_route *route, const tm_time_job *jobs,
                                  int32_t n, const tm_time_opts *topt, const bool *want,
                                  tm_time_shared *out);

/* Hierarchy mode: J only (plus total_volume, n_tasks). */
TM_API tm_err tm_metrics_eval_hier(tm_ctx *ctx, const tm_hier *hier, const tm_comm *comm,
                                   const tm_mapping *map, tm_metrics *out);

#ifdef __cplusplus
}
#endif
#endif
