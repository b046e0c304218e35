/* run_bound.h - the default pipeline's early stop on the lower bounds
 * (run_bound.c, docs/mapping.md "Effort and time", docs/bounds.md).
 * Internal to src/pipeline/. */
#ifndef TM_PIPELINE_RUN_BOUND_H
#define TM_PIPELINE_RUN_BOUND_H

#include <stdbool.h>

#include "topomap/bounds.h"
#include "run_int.h"

typedef struct tm__autobound {
    bool active;        /* no effort, network mode, a bounded objective; bounds given
                           or a time limit */
    const tm_bounds *b; /* the problem's (tm_problem.bounds) or own */
    tm_bounds own;
    tm_objective obj;
} tm__autobound;

/* Sets up the early stop of a run of the auto pipeline with effort
 * `effort` (tm_ctx_effort): active with no effort asked, in network mode,
 * for an objective with a bound (not time), when the problem carries its
 * bounds or under a time limit; the bounds are the problem's, or computed
 * here once under a time limit (they depend on the job, the allocation and
 * the routing only). */
tm_err tm__autobound_init(tm_ctx *ctx, const tm__runner *rn, int effort, tm__autobound *ab);
/* The answer m is already within TM_BOUNDS_STOP_GAP of the bounds on what
 * the objective weighs: the run may stop. */
bool tm__autobound_met(const tm__autobound *ab, const tm_metrics *m);

#endif
