/* run_int.h - the state tm_map_run shares between its stages (internal to
 * src/pipeline/): run.c checks the problem, sets up the network and
 * collects the result; run_jobs.c constructs and refines the jobs on the
 * context's threads; run_pick.c compares rows, chooses the result and
 * evaluates the baseline. */
#ifndef TM_PIPELINE_RUN_INT_H
#define TM_PIPELINE_RUN_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "topomap/map.h"
#include "topomap/metrics.h"
#include "general.h"

struct tm__runner;

/* One row of a run: a strategy (one start of it) with its own context,
 * seed and mapping. */
typedef struct tm__run_job {
    const struct tm__runner *rn; /* its run: the parent's stop request and the deadlines */
    const tm_strategy *st;
    char name[48];
    uint64_t seed;
    tm_mapping m;
    tm_metrics *met;
    double start[3];      /* construction: congestion, dilation, J */
    double start_est;     /* construction: est_time_s */
    bool reverted;
    double time_s, refine_s;
    tm_ctx *jc;           /* between the construction and refinement phases */
    tm_metrics *cmet;     /* the construction's figures, when screening evaluated it */
    bool screened;        /* not refined: a construction dominated it (screen) */
    bool kept;            /* the screen keeps it for refinement */
    bool skipped;         /* not started: the caller asked to stop, or the budget */
    double deadline;      /* time limit: tm__now() at which its stop predicate fires */
    double eval_s;        /* time limit: what one exact evaluation of it cost */
    tm_err err;
    char msg[512];
} tm__run_job;

#define MAX_CHAIN 4

typedef struct tm__runner {
    const tm_problem *p;
    tm_objective obj;
    const tm_refiner *rf[MAX_CHAIN]; /* refinement chain "nc:1+ta" */
    char rarg[MAX_CHAIN][32];
    bool has_arg[MAX_CHAIN];
    int nrf;
    double time_limit;
    /* With a time limit (>= 0), the budget of the whole run (docs/mapping.md
     * "Time budget"): jobs and construction trials start only before
     * construct_end, refinements stop at deadline less what the evaluations
     * after them cost. */
    bool timed;
    double deadline, construct_end;
    int keep;         /* refined rows after the screen */
    int *order;       /* time limit: the job each pool index starts (run_jobs.c) */
    int job_threads;  /* threads a strategy may use itself: all of them for a lone job */
    tm_ctx *parent;   /* stop predicate, progress callback, METIS pool */
    /* general mapping (general.c): jobs map the quotient p->comm, and
     * every figure is of the expansion evaluated on `full` */
    const tm__general *gen;
    const tm_comm *full;
    int phase;        /* PHASE_* */
    bool screen;      /* large `all` run: constructions evaluated, then screened */
    tm__run_job *jobs;
    int nj;
} tm__runner;

enum { PHASE_ALL, PHASE_CONSTRUCT, PHASE_REFINE };

/* ---- run_jobs.c ---------------------------------------------------------- */
/* The jobs of a run: the one strategy named, or the portfolio of "all". */
tm_err tm__run_make_jobs(tm_ctx *ctx, const tm_problem *p, const char *strategy,
                         tm__run_job **out, int *nj);
/* Constructs and refines every job of rn on the context's threads (in
 * phases with the screen or a time limit); a job's error stays in it. */
tm_err tm__run_jobs(tm_ctx *ctx, tm__runner *rn, tm_objective obj);

/* Exact figures of mapping m of a job (a general mapping: of its
 * expansion on the whole graph). */
tm_err tm__run_eval(tm_ctx *jc, const tm__runner *rn, const tm_mapping *m, tm_metrics *met);
/* The same without the time model when with_time is false (est_time_s and
 * the time figures 0): the simulation is most of an evaluation's cost on
 * small jobs. */
tm_err tm__run_eval_time(tm_ctx *jc, const tm__runner *rn, const tm_mapping *m, bool with_time,
                         tm_metrics *met);

/* ---- run_auto.c ---------------------------------------------------------- */
/* The auto pipeline (refine "auto"): out gets its rows, best and
 * consecutive, *best_m the chosen row's mapping (of the quotient after a
 * general mapping), info (when not NULL) what ran. */
tm_err tm__run_auto(tm_ctx *ctx, tm__runner *rn, const char *strategy, tm_map_result *out,
                    tm_mapping *best_m, tm_map_info *info);

/* ---- run_pick.c ---------------------------------------------------------- */
/* a better than b by the objective (its keys in priority order). */
bool tm__run_better(const tm_metrics *a, const tm_metrics *b, tm_objective obj);
/* a dominates b: no worse on congestion, dilation and J (time objective:
 * and est_time_s), better on one. */
bool tm__run_dominates(const tm_metrics *a, const tm_metrics *b, tm_objective obj);
/* est_time_s of a not predicted faster than b's by more than
 * TM_TIME_GAIN_TOLERANCE (run_pick.c). */
bool tm__run_no_clear_gain(const tm_metrics *a, const tm_metrics *b);
/* The chosen row of n (see run_pick.c for the pareto rule). */
int32_t tm__run_pick(tm_map_row *rows, int32_t n, tm_objective obj);
/* The same with the pareto rule's ideal point given (the least congestion
 * and dilation of a larger set the rows belong to). */
/* The pareto rule's score of m: the worse of its ratios to the ideal
 * point (cmin, dmin); and whether m with score s is picked over best with
 * score best_s (the lower score, ties by the objective's order). */
double tm__run_ideal_score(const tm_metrics *m, double cmin, double dmin);
bool tm__run_ideal_beats(const tm_metrics *m, double s, const tm_metrics *best, double best_s,
                         tm_objective obj);
int32_t tm__run_pick_ideal(tm_map_row *rows, int32_t n, tm_objective obj, double cmin,
                           double dmin);
/* a and b place every task on the same host and slot (or PE). */
bool tm__run_same_mapping(const tm_mapping *a, const tm_mapping *b);
/* out->consecutive: the baseline every result is compared with. */
tm_err tm__run_baseline(tm_ctx *ctx, const tm_problem *p, const tm__runner *rn, tm_map_result *out);

#endif
