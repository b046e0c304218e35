/*
 * topomap/study.h - what-if studies through the library: the grid of
 * scenarios that `topomap study` runs (docs/study.md), for callers that are
 * not the CLI (the Python module, docs/python.md).
 *
 * A scenario is one value of each axis; the grid is every combination, in
 * this order (outermost first): topology, slots per host, capacity change,
 * failure, routing model, application, failure sample, strategy.  Every
 * (scenario, strategy) is mapped with tm_map_run (seed of ctx, one thread
 * per run, the runs spread over tm_ctx_threads(ctx) threads) and compared
 * with the scenario's consecutive placement; the rows do not depend on the
 * thread count; with more than one thread the call forks METIS worker
 * processes first (tm_ctx_set_threads).  A scenario that cannot run (the failures cut the
 * allocation apart, the routing model cannot reach a host, too few slots)
 * is a row with that status, not an error.  With samples > 1, each group
 * of random-failure samples is followed by a mean and a worst row per
 * strategy over its OK samples.
 *
 * Networks are loaded and finalized in the calling thread (igraph is not
 * thread-safe): call tm_study_run from one thread at a time.
 *
 * A study can be split into shards (a Slurm job array: docs/study.md
 * "Shards", docs/slurm.md): with shard_count = N, the call runs only the
 * runs of shard shard_index, dealt by their estimated cost so that the N
 * shards take about the same time; the result holds those run rows, each
 * with its position in the whole study's rows.  `topomap study merge`
 * joins the shards' files into the whole study's.
 */
#ifndef TOPOMAP_STUDY_H
#define TOPOMAP_STUDY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "topomap/comm.h"
#include "topomap/error.h"
#include "topomap/export.h"
#include "topomap/map.h"
#include "topomap/route.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TM_STUDY_FAIL_NONE = 0, /* the unchanged network */
    TM_STUDY_FAIL_RANDOM,   /* pct % of the cables between two transit vertices, one draw per
                             * sample (a function of net, pct, seed of ctx and sample alone) */
    TM_STUDY_FAIL_LINKS,    /* names "A:B[,C:D..]": every cable between A and B */
    TM_STUDY_FAIL_SWITCHES  /* names "S[,S2..]": every cable of each switch */
} tm_study_fail_kind;

typedef struct tm_study_failure {
    tm_study_fail_kind kind;
    double pct;        /* RANDOM: in (0, 100] */
    const char *names; /* LINKS, SWITCHES */
} tm_study_failure;

/* Called after every (scenario, strategy) run with the runs done so far
 * and the runs of the call (from worker threads, one call at a time). */
typedef void (*tm_study_progress_fn)(void *userdata, int done, int total);

/* An axis given with n = 0 takes its single default value (noted).  The
 * CLI always puts the unchanged network first on the capacity and failure
 * axes (a NULL scale, a TM_STUDY_FAIL_NONE failure); callers decide. */
typedef struct tm_study_spec {
    const char *const *topologies; int n_topologies; /* files or generator specs (>= 1) */
    const char *node_name_map;   /* ibnetdiscover GUID -> name map, or NULL */
    bool separate_hcas;          /* ibnetdiscover: one host vertex per HCA */
    const int32_t *slots; int n_slots;         /* slots per host; 0 = as the topology says
                                                * (default) */
    const char *const *scales; int n_scales;   /* "LEVEL=FACTOR[,..]" or "all=F"; NULL = no
                                                * change (default) */
    const tm_study_failure *failures; int n_failures; /* default: none */
    int samples;                               /* random-failure samples; 0 means 1 */
    const tm_route_kind *routings; int n_routings;     /* default ECMP; not LFT */
    const tm_comm *const *comms; int n_comms;  /* applications (>= 1), read-only */
    const char *const *strategies; int n_strategies; /* network-mode names or "all" (default) */
    const char *alloc;      /* hostlist or hostfile (tm_alloc_parse), the same for every
                             * topology; NULL: every host */
    const char *refine;     /* refinement chain ("ils:10+ta"), NULL: none */
    tm_objective objective; /* how "all" picks its row */
    /* the time model of the est_time_s figures (topomap/metrics.h,
     * docs/time.md); NULL: TM_TIME_OPTS_INIT */
    const struct tm_time_opts *time;
    tm_study_progress_fn progress; /* NULL: none */
    void *progress_userdata;
    /* shard_count > 0: only the runs of shard shard_index (0-based) of
     * shard_count; 0: the whole study (default) */
    int shard_index, shard_count;
} tm_study_spec;

typedef enum {
    TM_STUDY_OK = 0,
    TM_STUDY_DISCONNECTED, /* the failures split the allocation into connected parts */
    TM_STUDY_UNROUTABLE,   /* the routing model cannot reach a host */
    TM_STUDY_INFEASIBLE    /* more tasks than slots */
} tm_study_status;

typedef enum { TM_STUDY_RUN = 0, TM_STUDY_MEAN, TM_STUDY_WORST } tm_study_stat;

typedef struct tm_study_row {
    tm_study_stat stat;
    /* the scenario: indices into the spec's axes (after defaults: 0 on an
     * axis given with n = 0); sample is 1..samples for random failures, 0
     * otherwise and in mean/worst rows */
    int topology, slots, scale, failure, sample, routing, comm, strategy;
    int32_t scaled_cables, failed_cables; /* cables the scenario changed */
    tm_study_status status;
    char cause[320];  /* why the status is not OK */
    char best[48];    /* the tm_map_run row chosen ("all": which strategy); "" in summaries */
    /* figures (status OK): the consecutive placement and the mapping */
    double base_congestion, base_dilation, base_J;
    double max_congestion, avg_dilation, qap_J;
    int runs, not_ok; /* mean/worst rows: samples, samples whose status is not OK */
    /* (status OK) est_time_s (docs/time.md, with the spec's time options) of
     * the consecutive placement and of the mapping, s */
    double base_est_time_s, est_time_s;
    int32_t position; /* index of the row in the whole (unsharded) study's rows */
    /* (status OK) lower bounds on every mapping of the scenario
     * (topomap/bounds.h); mean rows: their mean, worst rows: the largest */
    double bound_congestion, bound_dilation, bound_J;
} tm_study_row;

typedef struct tm_study_result {
    int n_rows;
    tm_study_row *rows; /* grid order; summary rows follow their samples (owned) */
    int n_runs;         /* rows with stat TM_STUDY_RUN */
    /* the whole study's rows and runs; a shard's result holds only its run
     * rows (n_rows == n_runs) and no mean or worst row */
    int total_rows, total_runs;
} tm_study_result;

/* A result starts empty (init) and release frees its rows and leaves it empty
 * again; release on an empty result does nothing. */
TM_API void tm_study_result_init(tm_study_result *r);
TM_API void tm_study_result_release(tm_study_result *r);
/* Runs the grid (docs/study.md).  A bad axis value (no topology or
 * application, a failure percentage outside (0, 100], an empty name list,
 * LFT routing, an unknown strategy), a shard outside [0, shard_count) or
 * more shards than runs is TM_EUSAGE before anything runs; an unreadable
 * topology or any error other than a scenario's status ends the study with
 * that error and *out left empty. */
TM_API tm_err tm_study_run(tm_ctx *ctx, const tm_study_spec *spec, tm_study_result *out);
/* "ok", "disconnected", "unroutable", "infeasible"; "run", "mean", "worst"
 * ("?" for other values). */
TM_API const char *tm_study_status_name(tm_study_status s);
TM_API const char *tm_study_stat_name(tm_study_stat s);
/* A failure as the study's outputs name it: "none", "links 5%",
 * "link A:B[,C:D..]", "switch S[,S2..]" (truncated to size). */
TM_API void tm_study_failure_label(const tm_study_failure *f, char *buf, size_t size);

/* ---- a row's figures ------------------------------------------------------ */

/* The four figures of a row, by index, for code that treats them alike
 * (the writers print them in this order). */
typedef enum {
    TM_STUDY_FIG_CONGESTION = 0, /* base_congestion / max_congestion */
    TM_STUDY_FIG_DILATION,       /* base_dilation / avg_dilation */
    TM_STUDY_FIG_J,              /* base_J / qap_J */
    TM_STUDY_FIG_TIME,           /* base_est_time_s / est_time_s */
    TM_STUDY_N_FIG
} tm_study_fig;
/* Figure k of row r: the consecutive placement's (base) or the mapping's. */
TM_API double tm_study_row_fig(const tm_study_row *r, bool base, tm_study_fig k);
/* The change of v against base in percent, 100 * (v - base) / base, as
 * the outputs print it: 0 when base is 0. */
TM_API double tm_study_change_pct(double base, double v);
/* The lower bound of figure k of row r (TM_STUDY_FIG_CONGESTION, _DILATION
 * or _J: the estimated time has none, 0), topomap/bounds.h. */
TM_API double tm_study_row_bound(const tm_study_row *r, tm_study_fig k);
/* The mapping's gap on figure k: its value over the bound, 1 for a value
 * of 0, INFINITY over a bound of 0. */
TM_API double tm_study_row_gap(const tm_study_row *r, tm_study_fig k);

/* The header line of the study's CSV (`topomap study --out F.csv`,
 * docs/study.md "Output"): one column per field of a row. */
#define TM_STUDY_CSV_HEADER                                                                   \
    "stat,topology,comm,routing,slots,capacity,failure,sample,scaled_cables,failed_cables,"   \
    "strategy,status,runs,not_ok,consecutive_max_congestion,consecutive_avg_dilation,"        \
    "consecutive_qap_J,consecutive_est_time_s,max_congestion,avg_dilation,qap_J,est_time_s,"  \
    "change_max_congestion_pct,change_avg_dilation_pct,change_qap_J_pct,"                     \
    "change_est_time_s_pct,bound_max_congestion,bound_avg_dilation,bound_qap_J,"             \
    "gap_max_congestion,gap_avg_dilation,gap_qap_J,best,cause"

/* ---- capacity changes ---------------------------------------------------- */

/* A capacity change of the scales axis, "L=F[,L=F...]": cables of level L
 * (or every cable for "all") get F times their capacity.  The level of a
 * cable is 1 + the smaller height of its two ends, the height of a vertex
 * being its hop distance to the nearest host: 1 = cables at hosts
 * (host-leaf; every cable of a torus), 2 = leaf uplinks, 3 = the next
 * stage up (docs/study.md). */
#define TM_STUDY_SCALE_MAX 8
typedef struct tm_study_scale {
    int n;
    int level[TM_STUDY_SCALE_MAX]; /* 0 = all */
    double factor[TM_STUDY_SCALE_MAX];
} tm_study_scale;
/* Parses spec: TM_EUSAGE naming the item on a bad one (a check before a
 * study starts: tm_study_run parses its scales the same way). */
TM_API tm_err tm_study_scale_parse(tm_ctx *ctx, const char *spec, tm_study_scale *out);

/* ---- merging shards --------------------------------------------------------
 * A study run in shards (shard_count > 0, topomap/shard.h) writes each
 * shard's rows to a file (`topomap study --shard K/N --out F.json|F.csv`).
 * tm_study_merge reads the N files back and gives the whole study: the
 * spec's axes as labels (its comms are NULL: the applications' names are
 * comm_names) and the result, the mean and worst rows computed over every
 * sample as the unsharded study computes them, so that the writers of the
 * unsharded study print exactly its files.  JSON shards also give the
 * grid's alloc, refine and seed (has_grid); CSV shards hold the rows only. */
typedef struct tm_study_merged {
    tm_study_spec spec;            /* labels: topologies, scales, failures, routings, ... */
    const char *const *comm_names; /* spec.n_comms names */
    tm_study_result res;
    int32_t n_shards;
    bool has_grid;                 /* JSON: the three members below are set */
    const char *alloc;             /* as the grid prints them ("all hosts", "none") */
    const char *refine;
    int64_t seed;
    void *store_;                  /* private: what the spec's pointers point into */
} tm_study_merged;
/* Reads the n files of one study's shards (streams in[i], named names[i]
 * in messages) and merges them into *out.  The files must be the N shards
 * of one study, each once, all JSON or all CSV (the same options and input
 * files: their shard id): else TM_EINPUT naming the file ("file:line: ..."
 * or "file: ..."), and *out left empty. */
TM_API tm_err tm_study_merge(tm_ctx *ctx, FILE *const *in, const char *const *names, int n,
                             tm_study_merged *out);
/* Frees what *m holds (also after a failed merge); m may be zeroed memory. */
TM_API void tm_study_merged_release(tm_study_merged *m);

#ifdef __cplusplus
}
#endif
#endif
