/* run_auto.h - the state of the default pipeline (refinement "auto",
 * run_auto.c: the schedule; run_auto_result.c: the candidates and the
 * result).  Internal to src/pipeline/. */
#ifndef TM_PIPELINE_RUN_AUTO_H
#define TM_PIPELINE_RUN_AUTO_H

#include "run_bound.h"
#include "run_int.h"
#include "../util/util.h"

/* The probe's descent and the levels' local search: nc:2, ils:2. */
#define PROBE_NC "2"
#define LEVEL_ILS_DEPTH 2
/* The levels' dilation guard for objective obj (TA's dil=; run_auto.c). */
double tm__auto_level_dil(tm_objective obj);

enum { CAND_CONSTRUCTION = -1, CAND_PROBE = 0 };
/* TASK_BUILD: the construction and its probe in one task, so that on a
 * short budget the first rows are probed while the others are built. */
enum { TASK_CONSTRUCT, TASK_PROBE, TASK_BUILD, TASK_LEVEL };

typedef struct cand {
    tm_metrics met; /* no link loads */
    tm_mapping m;   /* empty once another candidate of the row dominates it */
    int level;      /* CAND_CONSTRUCTION, CAND_PROBE or the level */
    double kicks;   /* kicks per task on the J-state it came from */
    int64_t ta;     /* TA's budget */
    int restart;    /* the restart that found it (0: the canonical numbering) */
} cand;

typedef struct arow {
    const struct autorun *a;
    const tm_strategy *st;
    char name[48];
    uint64_t seed;
    int trial;            /* topdown's trial or greedy's start */
    bool extra;           /* joins at level 2 */
    bool built;           /* constructed and evaluated */
    bool gone;            /* the construction has nothing (no such trial) */
    bool screened;        /* big job: another construction dominates it, not probed */
    tm_ctx *jc;
    tm_mapping js;        /* the J-state: the construction, then after nc:2 and the kicks */
    double kicks;         /* kicks per task done on js */
    int level;            /* last stage done: -2 none, -1 constructed, 0 probed, L */
    cand *c;
    int nc, capc;
    double start[3];      /* the construction's congestion, dilation, J */
    double time_s, refine_s, eval_s;
    int64_t kicks_n, ta_n, evals_n; /* work done: kicks, TA's moves, evaluations */
    double deadline;      /* time limit: when its stop predicate fires */
    tm_err err;
    char msg[512];
} arow;

typedef struct autorun {
    tm__runner *rn;
    tm_map_result *out;   /* its consecutive: the baseline */
    arow *rows;
    int nr;
    int effort;           /* asked for (TM_EFFORT_AUTO: the default, or until converged) */
    double level_dil;     /* the levels' dilation guard for the objective (TA's dil=) */
    int last;             /* the last level */
    int levels;           /* levels completed */
    bool cut;             /* a task was stopped (time limit, stop request) */
    const char *stop;     /* why the schedule ended */
    double eval_max;      /* the longest evaluation so far */
    double final_s;       /* time limit: what the answer's timed evaluation at the end takes */
    int64_t kicks, ta_moves, evals; /* work done (the info) */
    int task, level;      /* the stage being run */
    arow **todo;
    int ntodo, threads;
    tm__memo *memo;       /* what rows compute alike (the k-way cut of multicore hosts) */
    bool named;           /* one strategy named: its row runs all its starts */
    /* The canonical numbering (run_canon.c): perm[t] is task t's index in
     * the problem the rows see (rn->p, whose comm is the job renumbered);
     * NULL when the rows see the job as given. */
    int32_t *perm;
    const tm_problem *given; /* the caller's problem (the baseline's) */
    tm_problem canon_p;
    tm_comm canon_c;
    tm__autobound bound;  /* the early stop on the lower bounds (run_bound.c) */
    int restart;          /* which restart this run is (0: the canonical numbering) */
    int restarts;         /* restarts run (the first included) */
} autorun;

/* ---- run_auto_result.c ---------------------------------------------------- */
/* Adds the evaluated mapping *m (taken over) as a candidate of r, at stage
 * `level` (CAND_*, or the level) with TA's budget ta. */
tm_err tm__auto_add_cand(autorun *a, arow *r, tm_mapping *m, const tm_metrics *met, int level,
                         int64_t ta);
/* The pareto rule's ideal point over every candidate. */
void tm__auto_ideal(const autorun *a, double *cmin, double *dmin);
/* The best candidate of row `row` (all rows: -1) by the objective; false
 * when there is none.  *ri, *ci: its row and index. */
bool tm__auto_best_cand(const autorun *a, int row, int *ri, int *ci);
/* The result's rows (one per constructed row, each its best candidate, the
 * answer's row the answer), their estimated times, and *best_m. */
tm_err tm__auto_collect(tm_ctx *ctx, autorun *a, tm_mapping *best_m);
/* Restart b's candidates (b's rows are a's, in b's numbering, which is
 * a's renamed by q: a's task t is b's q[t]) join a's rows, with its work. */
tm_err tm__auto_merge(tm_ctx *ctx, autorun *a, autorun *b, const int32_t *q);
/* What ran, for tm_map_run_ex. */
void tm__auto_info(const autorun *a, tm_map_info *info);

/* ---- run_canon.c ----------------------------------------------------------- */
/* Network mode, one task per slot: the rows from now on see the job in its
 * canonical numbering (a->rn->p becomes a->canon_p); else nothing. */
tm_err tm__auto_canon_begin(tm_ctx *ctx, autorun *a);
/* The consecutive placement of the given numbering, in the rows'
 * numbering, into *out (empty: allocated here). */
tm_err tm__auto_canon_consecutive(tm_ctx *ctx, const autorun *a, tm_mapping *out);
/* *m (the rows' numbering) back in the given numbering; the problem the
 * caller gave is a->rn->p again. */
tm_err tm__auto_canon_end(tm_ctx *ctx, autorun *a, tm_mapping *m);
/* Restart b (b->restart >= 1) sees a's canonical job renamed by a random
 * permutation q of the seed and the restart (a->perm composed with q: still
 * independent of the numbering given); its rows see it from now on.  q: n
 * entries, filled here. */
tm_err tm__auto_canon_restart(tm_ctx *ctx, const autorun *a, autorun *b, int32_t *q);
/* Frees what tm__auto_canon_begin made. */
void tm__auto_canon_release(autorun *a);

#endif
