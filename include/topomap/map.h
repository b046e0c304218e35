/*
 * topomap/map.h - mappings (task -> (host, slot) or task -> PE), their file
 * formats, and the strategy/refinement registry.
 *
 * Network mode: a problem has a net, a router and an allocation; a mapping
 * gives host[t] (net vertex id) and slot[t] (0-based slot on that host) and
 * pe == NULL.  Hierarchy mode (VieM): no net; pe[t] is the PE index and
 * host == slot == NULL.
 */
#ifndef TOPOMAP_MAP_H
#define TOPOMAP_MAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "topomap/alloc.h"
#include "topomap/comm.h"
#include "topomap/error.h"
#include "topomap/export.h"
#include "topomap/hier.h"
#include "topomap/net.h"
#include "topomap/netdist.h"
#include "topomap/route.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tm_mapping {
    int32_t n;      /* tasks */
    int32_t *host;  /* network mode */
    int32_t *slot;  /* network mode */
    int32_t *pe;    /* hierarchy mode */
} tm_mapping;

/* An empty mapping (no arrays); release frees the arrays and leaves it
 * empty again. */
TM_API void tm_mapping_init(tm_mapping *m);
TM_API void tm_mapping_release(tm_mapping *m);
/* Allocates arrays for n tasks (network: host+slot; hierarchy: pe). */
TM_API tm_err tm_mapping_alloc(tm_ctx *ctx, tm_mapping *m, int32_t n, bool hierarchy);
TM_API tm_err tm_mapping_copy(tm_ctx *ctx, const tm_mapping *src, tm_mapping *dst);

/* Consecutive placement: task i -> i-th free slot in allocation order.
 * More tasks than slots is TM_EINFEASIBLE with both numbers. */
TM_API tm_err tm_mapping_consecutive(tm_ctx *ctx, const tm_alloc *alloc, int32_t n_tasks,
                                     tm_mapping *out);
/* Block distribution, the consecutive placement when there are more tasks
 * than slots: ranks in order fill the slots in allocation order,
 * floor(n/S) or ceil(n/S) each (task u on slot floor(u * S / n)); with
 * n <= S it is tm_mapping_consecutive spread out (one task per slot, slots
 * skipped evenly). */
TM_API tm_err tm_mapping_blocks(tm_ctx *ctx, const tm_alloc *alloc, int32_t n_tasks,
                                tm_mapping *out);
/* Network mode: hosts are hosts, slots within [0, slots(host)), no slot
 * used twice (TM_EINPUT naming the task) unless the mapping has more tasks
 * than slots (of alloc if given, else of the net: general process mapping,
 * `map --imbalance`); with alloc != NULL also every host is in the
 * allocation (TM_EINPUT). */
TM_API tm_err tm_mapping_check(tm_ctx *ctx, const tm_net *net, const tm_alloc *alloc,
                               const tm_mapping *m);
/* The allocation a network-mode mapping uses: its hosts in name order (as
 * Slurm lists a job's nodes: tm_hostlist_compress's order), each with as
 * many slots as tasks the mapping puts on it (at most the host's slots).
 * Its consecutive placement is the batch system's placement of the same
 * job on the same hosts: the baseline of `eval --mapping` without --alloc. */
TM_API tm_err tm_alloc_of_mapping(tm_ctx *ctx, const tm_net *net, const tm_mapping *m,
                                  tm_alloc *out);

/* ---- files ---------------------------------------------------------------- */

typedef enum {
    TM_MAPFMT_OPENMPI = 0, /* "rank i=host slot=s" */
    TM_MAPFMT_MPICH,       /* Hydra machinefile "host:n" runs */
    TM_MAPFMT_SLURM,       /* SLURM_HOSTFILE for --distribution=arbitrary */
    TM_MAPFMT_PLAIN,       /* line i: "host slot" (network) or PE (hierarchy) */
    TM_MAPFMT_SMPI         /* SimGrid smpirun -hostfile: line i = host of rank i, full
                            * name (the platform's host id, topo export --format simgrid) */
} tm_mapfmt;
/* "openmpi" (or "rankfile"), "mpich" ("hydra", "machinefile"), "slurm",
 * "plain" -> format; -1 for anything else. */
TM_API int tm_mapfmt_parse(const char *s);

typedef struct tm_mapwrite_opts {
    bool full_hostnames; /* default: short names (up to the first '.') */
} tm_mapwrite_opts;
#define TM_MAPWRITE_OPTS_INIT {false}

/* Writes m in format fmt to out (opts NULL: the defaults).  Errors:
 * TM_EUSAGE for an unknown format or a hierarchy-mode mapping in a format
 * that names hosts, TM_EIO on a write error. */
TM_API tm_err tm_mapping_write(tm_ctx *ctx, const tm_net *net, const tm_mapping *m, tm_mapfmt fmt,
                               const tm_mapwrite_opts *opts, FILE *out);
/* Reads an Open MPI rankfile or a plain mapping (detected by content) for
 * n_tasks tasks (n_tasks < 0: as many as the file lists; then ranks must be
 * 0..N-1).  Host names are resolved with tm_alloc_resolve_host; a host the
 * topology lacks, a missing or duplicate rank and slot oversubscription are
 * TM_EINPUT with file:line, except that when n_tasks exceeds the
 * topology's slots (a general mapping, `map --imbalance`) slots may hold
 * several ranks.  In hierarchy mode (net == NULL) each line is a
 * PE index in [0, n_pe). */
TM_API tm_err tm_mapping_read(tm_ctx *ctx, const tm_net *net, int64_t n_pe, FILE *in,
                              const char *name, int32_t n_tasks, tm_mapping *out);

/* ---- strategies and refinement ------------------------------------------- */

typedef struct tm_route tm_route;

/* Everything a strategy may look at.  Network mode: net, route, alloc set;
 * hier optional (node-internal levels).  Hierarchy mode: net == NULL and
 * hier set. */
typedef struct tm_problem {
    const tm_net *net;
    const tm_route *route;
    const tm_alloc *alloc;
    const tm_comm *comm;
    const tm_hier *hier;
    double imbalance;  /* < 0 one-to-one, else general process mapping (tasks > PEs or slots) */
    double hop_distance; /* network mode: J distance of one hop (tm_metrics_opts) */
    /* Network mode, optional: hop distances between the allocated hosts in
     * allocation order (tm_netdist_new(net, alloc->host, alloc->n)), shared
     * read-only by every strategy; NULL: built where needed.  tm_map_run
     * builds it once when it is NULL. */
    const struct tm_netdist *dist;
    /* The time model's options for the rows' est_time_s (metrics.h); NULL:
     * TM_TIME_OPTS_INIT. */
    const struct tm_time_opts *time;
    /* Optional: the problem's lower bounds (topomap/bounds.h,
     * tm_bounds_compute), for the default pipeline's early stop (no
     * effort set: the levels end once the answer is within
     * TM_BOUNDS_STOP_GAP of them); NULL: computed there under a time
     * limit, no early stop without one. */
    const struct tm_bounds *bounds;
} tm_problem;

typedef enum {
    TM_OBJ_CONGESTION = 0,
    TM_OBJ_DILATION,
    TM_OBJ_QAP,
    TM_OBJ_PARETO, /* non-dominated rows only, nearest the ideal point (run_pick.c) */
    /* the estimated time est_time_s (docs/time.md) first, then congestion,
     * dilation; the consecutive placement unless the result is predicted
     * faster than it by more than TM_TIME_GAIN_TOLERANCE (network mode
     * only; docs/mapping.md "Objectives") */
    TM_OBJ_TIME
} tm_objective;

/* The time model's documented error on a predicted speed-up: in the runs
 * of docs/time.md "`make bench-sim`" the speed-up est_time_s predicts
 * (consecutive / mapped) was at most 10 % above the one SimGrid's SMPI
 * simulated (spmv on the shuffled torus: 1.98x predicted, 1.80x
 * simulated).  TM_OBJ_TIME returns a mapping only when it is predicted
 * faster than the consecutive placement by more than that (consecutive's
 * est_time_s > (1 + TM_TIME_GAIN_TOLERANCE) x the mapping's); a smaller
 * predicted gain could be a loss, and the consecutive placement is kept. */
#define TM_TIME_GAIN_TOLERANCE 0.10
/* "congestion", "dilation", "qap", "pareto", "time" -> objective; -1
 * otherwise. */
TM_API int tm_objective_parse(const char *s);

typedef enum { TM_MODE_NETWORK = 1, TM_MODE_HIERARCHY = 2 } tm_map_mode;

typedef tm_err (*tm_strategy_fn)(tm_ctx *ctx, const tm_problem *p, uint64_t seed,
                                 tm_mapping *out);
typedef struct tm_strategy {
    const char *name;
    const char *help;
    unsigned modes;      /* TM_MODE_* bits */
    bool in_all;         /* part of --strategy all */
    tm_strategy_fn run;
} tm_strategy;

/* Refinement: improves *m in place; never returns a worse mapping by its
 * objective.  `arg` is the text after ':' ("nc:10" -> "10") or NULL. */
typedef tm_err (*tm_refine_fn)(tm_ctx *ctx, const tm_problem *p, const char *arg, uint64_t seed,
                               tm_mapping *m);
typedef struct tm_refiner {
    const char *name;
    const char *help;
    unsigned modes;
    tm_refine_fn run;
} tm_refiner;

/* Registry (NULL-terminated arrays, read-only). */
TM_API const tm_strategy *tm_strategies(void);
TM_API const tm_refiner *tm_refiners(void);
TM_API const tm_strategy *tm_strategy_find(const char *name);
/* Finds "nc:10" by its prefix before ':'. */
TM_API const tm_refiner *tm_refiner_find(const char *spec);

/* ---- running strategies (src/pipeline/run.c) ----------------------------- */

/* metrics.h includes this header, so rows refer to their metrics by
 * pointer (include "topomap/metrics.h" to read them). */
struct tm_metrics;

/* One strategy run of tm_map_run: construction (+ refinement). */
typedef struct tm_map_row {
    char name[48];        /* "recursive", "greedy#2" (greedy start 2), ... */
    char refine[64];      /* refinement chain applied ("nc:1+ta"), "" if none */
    struct tm_metrics *metrics; /* of the refined mapping (owned) */
    /* the construction before refinement (when refine is not ""): a row is
     * never worse than its start on both congestion and dilation (J in
     * hierarchy mode); reverted says the refinement was undone for that */
    double start_congestion, start_dilation, start_J;
    bool reverted;
    /* `all` on a large job (more than 8,192 tasks) refines only the best
     * constructions that no other one dominates (docs/mapping.md "The
     * screen"); the others keep their construction: screened, refine "" */
    bool screened;
    double time_s;        /* construction + refinement, wall clock */
    double refine_time_s; /* refinement alone */
} tm_map_row;

typedef struct tm_map_result {
    tm_mapping mapping;   /* the best mapping */
    const struct tm_metrics *metrics; /* its metrics (rows[best].metrics) */
    int32_t best;         /* index of its row */
    int32_t n_rows;
    tm_map_row *rows;     /* one per strategy run, in registry order */
    double time_s;        /* whole run, wall clock */
    /* the consecutive placement (network mode) or identity PE mapping
     * (hierarchy mode), evaluated the same way: every result is compared
     * with it.  NULL when it does not exist (more tasks than PEs). */
    struct tm_metrics *consecutive;
    /* Network mode with more tasks than slots (tm_problem.imbalance >= 0):
     * the tasks were cut into `blocks` blocks (one per slot) of weight at
     * most block_bound, the heaviest weighs block_weight_max, and the
     * blocks were mapped one-to-one; consecutive is then the block
     * distribution (ranks in order, floor/ceil(n / slots) per slot).
     * 0 otherwise. */
    int32_t blocks;
    double block_bound, block_weight_max;
} tm_map_result;

/* An empty result; release frees its rows, metrics and mapping and leaves
 * it empty again. */
TM_API void tm_map_result_init(tm_map_result *r);
TM_API void tm_map_result_release(tm_map_result *r);

/* Runs strategy `strategy` (a registered name, or "all": every strategy
 * with in_all serving the problem's mode, greedy from several starts) and
 * refinement `refine` (NULL or "none": none; "ta", "nc:10", ...) and keeps
 * the best mapping by `obj` (ties broken by the other two figures, then
 * by row order).  Seed, threads and time limit come from ctx; "all" runs
 * the strategies in tm_ctx_threads() threads; with more than one thread
 * the call forks METIS worker processes first (tm_ctx_set_threads says why
 * and what that means for the caller).  A time limit T (>= 0) is a
 * budget for this call (docs/mapping.md "Time budget"): jobs and topdown's
 * trials start only in its first third, at most min(2, threads) of the
 * constructions (the lowest J first, none dominated) are refined, side by
 * side, and stop where the evaluations after them fit before T; in network
 * mode a result the consecutive placement beats on obj gives way to it (a
 * row named "consecutive").  Without a time limit the result does not
 * depend on the thread count.  When the stop predicate of ctx fires
 * (tm_ctx_set_stop), refinements keep their best mapping so far, runs not
 * yet started are left out of the rows, and the call succeeds with the best
 * of the rest.  Progress goes to tm_ctx_set_progress.  Network mode: allocated hosts that
 * cannot reach each other are TM_EINPUT naming them; more tasks than slots
 * TM_EINFEASIBLE.  Unknown names or a mode the strategy does not serve are
 * TM_EUSAGE, and so are an objective outside tm_objective and a NaN or
 * infinite p->imbalance or p->hop_distance.  p->route may be NULL (ECMP is
 * used).  TM_OBJ_TIME (network mode only, else TM_EUSAGE) picks by
 * est_time_s under p->route and p->time, a refined row that is predicted
 * slower than its construction is reverted, and the result is the
 * consecutive placement unless the best row is predicted faster than it by
 * more than TM_TIME_GAIN_TOLERANCE: otherwise (every row predicted slower,
 * or a gain the time model's error could undo) one more row named
 * "consecutive" (the baseline's figures) is appended and is the result. */
TM_API tm_err tm_map_run(tm_ctx *ctx, const tm_problem *p, const char *strategy, const char *refine,
                         tm_objective obj, tm_map_result *out);

/* What a tm_map_run_ex call did (docs/mapping.md "Effort and time"). */
typedef struct tm_map_info {
    const char *pipeline; /* "auto" (refine "auto") or "chain" (a given refinement) */
    int effort;           /* auto: the last level planned (the one asked for, or the
                           * default's for the job's size); TM_EFFORT_AUTO: until
                           * converged (a time limit and no effort) */
    int levels;           /* auto: refinement levels completed */
    int rows_refined;     /* auto: rows that got at least one level */
    int restarts;         /* auto: runs of the schedule on renamings of the job (the
                           * first included; docs/mapping.md "Restarts") */
    /* Why it ended (static strings): "effort" (every level of the effort
     * done), "converged" (no effort, a time limit: two levels without
     * an improvement of 0.1 %), "gap" (no effort; bounds given or a time limit:
     * the answer is within TM_BOUNDS_STOP_GAP of the lower bounds,
     * topomap/bounds.h),
     * "time limit", "stopped" (the stop predicate); "done" for a
     * refinement chain. */
    const char *stop;
    /* Work done, counted the same way on every machine: kicks of the
     * iterated local search, threshold accepting's moves (budgets) and
     * exact evaluations (auto only; 0 for a chain). */
    int64_t kicks, ta_moves, evaluations;
} tm_map_info;

/* tm_map_run, and when info is not NULL what it did.  refine "auto" is the
 * default pipeline of the command line in network mode: constructions, a
 * short probe of each, then levels of refinement of the best rows, as many
 * as tm_ctx_effort says (docs/mapping.md "Effort and time"); every result
 * it evaluates is a candidate, and the answer is the best of them by obj.
 * Its answer depends on the seed and the effort only (not on the machine
 * or the thread count) unless a time limit or the stop predicate cuts it
 * short: then the answer is the best of the candidates completed, and a
 * longer limit never gives an answer the shorter one beats by obj (pareto:
 * one that dominates it), up to the noise of the machine's speed. */
TM_API tm_err tm_map_run_ex(tm_ctx *ctx, const tm_problem *p, const char *strategy,
                            const char *refine, tm_objective obj, tm_map_result *out,
                            tm_map_info *info);

#ifdef __cplusplus
}
#endif
#endif
