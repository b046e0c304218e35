/* ta.h - threshold accepting (tm__ta_run) with its options, shared with tests and
 * benchmarks (never installed). */
#ifndef TM_TA_H
#define TM_TA_H

#include <stdint.h>

#include "topomap/map.h"
#include "../mapping/strategies.h" /* tm__refine_ta */

/* Called after every accepted move (tests compare the incremental state
 * with a full evaluation): the current mapping, the directed link loads,
 * the maximum congestion and the sum of squared congestions. */
typedef void (*tm__ta_check_fn)(void *data, const tm_mapping *cur, const double *load,
                                double max_congestion, double sum_sq);

typedef struct tm__ta_opts {
    int64_t budget;        /* swap evaluations; <= 0: default from the size */
    double time_limit;     /* seconds; < 0: none (then the budget decides) */
    double threshold0;     /* initial relative threshold; <= 0: default */
    tm__ta_check_fn check; /* optional */
    void *check_data;
    double dil_cap;        /* the total volume x hops may grow by this factor over the
                            * start; 0: TM__TA_DIL_CAP; < 0: no cap */
} tm__ta_opts;

/* Default dilation guard of `ta`: 5 %.  Congestion is bought with
 * dilation only within this margin (docs/mapping.md "Pipeline"). */
#define TM__TA_DIL_CAP 0.05

typedef struct tm__ta_stats {
    int64_t evaluations, accepted, improved;
    int64_t last_improved; /* evaluations when the best state last improved */
    double time_s;
    double max_before, max_after, sumsq_before, sumsq_after;
    double w_before, w_after; /* total volume x hops */
} tm__ta_stats;

tm_err tm__ta_run(tm_ctx *ctx, const tm_problem *p, const tm__ta_opts *opts, uint64_t seed,
                  tm_mapping *m, tm__ta_stats *stats);

#endif
