/*
 * topomap/bounds.h - lower bounds on the best mapping: what no placement of
 * this job on this allocation can beat, beside every answer.
 *
 * tm_bounds_compute gives, for a problem (the job, the allocation, the
 * routing model; tm_problem of map.h), a lower bound on the max
 * congestion, the average dilation and J that holds for *every* mapping of
 * the job onto the allocation (at most the slots' tasks per host), under
 * the routing in use: the congestion bounds are cut arguments (every path
 * from one side of a cut to the other crosses a cut link, whatever the
 * routing), the dilation and J bounds count least hop distances (no route
 * is shorter).  The gap of a mapping is its value over the bound: 1 means
 * provably optimal on that objective.  Methods, why each is valid, their
 * cost and where they are weak: docs/bounds.md.
 *
 * The bounds depend only on the job, the allocation, the routing and the
 * node hierarchy, so a caller computes them once per problem; a call is
 * deterministic (the same figures for any thread count) and single-threaded.
 */
#ifndef TOPOMAP_BOUNDS_H
#define TOPOMAP_BOUNDS_H

#include <stdbool.h>
#include <stdint.h>

#include "topomap/error.h"
#include "topomap/export.h"
#include "topomap/map.h"
#include "topomap/metrics.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One method's bounds (docs/bounds.md "Methods"); a figure the method does
 * not bound, or did not compute within its work limit, is NAN. */
typedef struct tm_bound_method {
    const char *name;       /* static: "injection", "levels", "slabs", "volume",
                             * "profile", "node" */
    double max_congestion;  /* volume / (Gbit/s) */
    double avg_dilation;    /* hops per unit of volume */
    double qap_J;           /* network J (or hierarchy J) */
} tm_bound_method;

#define TM_BOUNDS_MAX_METHODS 8

typedef struct tm_bounds {
    bool network;           /* network mode (else hierarchy mode: qap_J only) */
    int32_t n_tasks;
    double total_volume;
    /* The bounds: the largest over the methods (0 when no method bounds a
     * figure above 0).  Each is shaved by a relative 1e-9 so that the
     * rounding of two sums in different orders never lifts a bound above
     * an optimal mapping's figure. */
    double max_congestion, avg_dilation, qap_J;
    /* the method that gave each bound ("none" when it is 0) */
    const char *congestion_by, *dilation_by, *J_by;
    int n_methods;
    tm_bound_method method[TM_BOUNDS_MAX_METHODS];
    /* what the bounds assume: at most this many tasks share a slot (1 for a
     * one-to-one mapping) */
    int32_t tasks_per_slot;
    /* the flow certificate of the task graph's cuts (docs/bounds.md): the
     * sources it routed from (0: not computed) */
    int32_t flow_sources;
    double time_s;          /* wall time of the computation */
} tm_bounds;

/* Options of tm_bounds_compute; start from TM_BOUNDS_OPTS_INIT. */
typedef struct tm_bounds_opts {
    /* > 0: the mappings bounded put at most this many tasks on a slot (a
     * given oversubscribed mapping: `eval` passes the most it has on one
     * slot); 0: one (a one-to-one problem), or with p->imbalance >= 0 the
     * most tasks a slot's (or PE's) weight cap holds. */
    int32_t tasks_per_slot;
    /* Work limit (elementary steps) of the expensive methods (the flow
     * certificate, the ball profile); 0: the default, sized so that the
     * bounds cost less than the default `map` (docs/bounds.md "Cost"). */
    int64_t work;
} tm_bounds_opts;
#define TM_BOUNDS_OPTS_INIT {0, 0}

/* An empty result (every bound 0). */
TM_API void tm_bounds_init(tm_bounds *b);

/* Lower bounds for problem p (network mode: net, route or ECMP, alloc,
 * comm, optional node hierarchy hier and hop_distance as in tm_map_run;
 * hierarchy mode: hier and comm, net NULL).  opts NULL: the defaults.  A
 * problem tm_map_run would refuse (no allocation, more tasks than slots
 * without an imbalance) is TM_EUSAGE / TM_EINFEASIBLE; *out is left
 * initialised on error. */
TM_API tm_err tm_bounds_compute(tm_ctx *ctx, const tm_problem *p, const tm_bounds_opts *opts,
                                tm_bounds *out);

typedef struct tm_bounds_gap {
    double max_congestion, avg_dilation, qap_J;
} tm_bounds_gap;
/* The gap of each figure of m: value / bound, 1 when the value is 0,
 * INFINITY when the bound is 0 and the value is not.  Network mode:
 * congestion, dilation and J; hierarchy mode: J (the others 1). */
TM_API void tm_bounds_gap_of(const tm_bounds *b, const struct tm_metrics *m, tm_bounds_gap *out);

/* The early stop of the default pipeline (docs/mapping.md "Effort and
 * time"): whether m is within a factor tol (>= 1) of the bounds on what
 * objective obj weighs: congestion, dilation or J; pareto: congestion
 * and dilation; time: never (no bound on the estimated time). */
TM_API bool tm_bounds_within(const tm_bounds *b, const struct tm_metrics *m, tm_objective obj,
                             double tol);
/* The tolerance of the default pipeline's early stop: 1 % (docs/bounds.md). */
#define TM_BOUNDS_STOP_GAP 1.01

#ifdef __cplusplus
}
#endif
#endif
