/* study.h - what-if studies (not installed): one grid of scenarios
 * (topologies x slots x capacity changes x failures x failure samples x
 * routing models x applications), every scenario mapped by every strategy
 * with tm_map_run and compared with its consecutive placement.
 *
 * The result is a flat table (tm__study_result) that the CLI prints as a
 * table, CSV or JSON and a report writer can render: one row per
 * (scenario, strategy), plus a mean and a worst row per strategy for every
 * group of random-failure samples.  docs/study.md, docs/design.md.
 *
 * Threads (docs/design.md "Threads"): networks are loaded, modified,
 * finalized and freed only in the calling thread (igraph); worker threads
 * only run tm_map_run on finalized, read-only networks. */
#ifndef TM_STUDY_H
#define TM_STUDY_H

#include <stdbool.h>
#include <stdint.h>

#include "../shard/shard.h"
#include "topomap/topomap.h"

/* ---- scenario modifications (modify.c) --------------------------------- */

/* A capacity change "L=F[,L=F...]": cables of level L (or every cable for
 * "all") get F times their capacity.  The level of a cable is 1 + the
 * smaller height of its two ends, the height of a vertex being its hop
 * distance to the nearest host: 1 = cables at hosts (host-leaf; every cable
 * of a torus), 2 = leaf uplinks, 3 = the next stage up. */
#define TM__SCALE_MAX 8
typedef struct tm__scale {
    int n;
    int level[TM__SCALE_MAX]; /* 0 = all */
    double factor[TM__SCALE_MAX];
} tm__scale;
/* Parses spec (TM_EUSAGE naming the item on a bad one). */
tm_err tm__scale_parse(tm_ctx *ctx, const char *spec, tm__scale *out);
/* Per cable: its level (above), or 0 for a cable whose ends reach no host.
 * The net must be finalized; *out is malloc'ed. */
tm_err tm__cable_levels(tm_ctx *ctx, const tm_net *net, int32_t **out);
/* Scales the matching cables; *n_cables counts them.  A level that matches
 * no cable is TM_EUSAGE naming the topology `what`. */
tm_err tm__scale_apply(tm_ctx *ctx, tm_net *net, const tm__scale *s, const char *what,
                       int32_t *n_cables);

typedef enum {
    TM__FAIL_NONE = 0,
    TM__FAIL_RANDOM,   /* pct % of the eligible cables, one sample per seed */
    TM__FAIL_LINKS,    /* named cables "A:B,C:D" */
    TM__FAIL_SWITCHES  /* named switches "S1,S2": all their cables */
} tm__fail_kind;
typedef struct tm__failure {
    tm__fail_kind kind;
    double pct;        /* RANDOM: 0 < pct <= 100 */
    const char *names; /* LINKS, SWITCHES: the list as given */
} tm__failure;

/* RANDOM: the cables that may fail are the enabled cables between two
 * transit vertices (switch-switch on indirect networks, every cable of a
 * direct one): a host's own cable failing only removes the host.  The
 * sample is round(pct/100 * eligible) of them, uniform without
 * replacement, a function of (net, pct, seed, sample) alone.  *out
 * (malloc'ed, sorted) gets *n cable ids.  The net must be finalized. */
tm_err tm__fail_sample(tm_ctx *ctx, const tm_net *net, double pct, uint64_t seed,
                       uint64_t sample, int32_t **out, int32_t *n);
/* Disables the cables a failure names (every parallel cable between A
 * and B; every cable of a switch) and counts them in *n_cables.  Unknown
 * names, a link between vertices that share no cable and a switch name
 * that is a host are TM_EINPUT naming them and the topology `what`. */
tm_err tm__fail_apply(tm_ctx *ctx, tm_net *net, const tm__failure *f, uint64_t seed,
                      uint64_t sample, const char *what, int32_t *n_cables);

/* ---- the grid (study.c) -------------------------------------------------- */

typedef struct tm__study_comm {
    const char *name;     /* as given */
    const tm_comm *comm;  /* loaded by the caller, read-only */
} tm__study_comm;

/* Called from worker threads (one at a time: the engine serialises the
 * calls) after every (scenario, strategy) run. */
typedef void (*tm__study_progress_fn)(void *ud, int done, int total);

typedef struct tm__study_spec {
    const char *const *topologies; int n_topologies;
    tm_topo_opts topo;            /* node-name map, HCAs (slots from `slots`) */
    const int32_t *slots; int n_slots;       /* 0 = as the topology says */
    const char *const *scales; int n_scales; /* NULL entry = no change */
    const tm__failure *fails; int n_fails;
    int samples;                  /* random-failure samples (>= 1) */
    const tm_route_kind *routings; int n_routings;
    const tm__study_comm *comms; int n_comms;
    const char *const *strategies; int n_strategies;
    const char *alloc;            /* NULL: every host */
    const char *refine;           /* NULL: none */
    tm_objective objective;
    const tm_time_opts *time;     /* est_time_s of the rows; NULL: TM_TIME_OPTS_INIT */
    tm__study_progress_fn progress;
    void *progress_ud;
    /* shard.n > 0: run only the runs tm__study_shard_owners gives shard
     * shard.k (docs/study.md "Shards") */
    tm__shard shard;
} tm__study_spec;

typedef enum {
    TM__ROW_OK = 0,
    TM__ROW_DISCONNECTED, /* the allocation spans connected parts */
    TM__ROW_UNROUTABLE,   /* the routing model cannot reach a host (DOR around a failure) */
    TM__ROW_INFEASIBLE    /* more tasks than slots */
} tm__row_status;
typedef enum { TM__STAT_RUN = 0, TM__STAT_MEAN, TM__STAT_WORST } tm__row_stat;

enum { TM__FIG_CONG = 0, TM__FIG_DIL, TM__FIG_J, TM__FIG_TIME, TM__N_FIG };

typedef struct tm__study_row {
    tm__row_stat stat;
    /* the scenario: indices into the spec (sample: 1..samples for random
     * failures, 0 otherwise) */
    int topology, slots, scale, fail, sample, routing, comm, strategy;
    int32_t scaled_cables, failed_cables;
    tm__row_status status;
    char cause[320];           /* why the status is not OK */
    char best[48];             /* the chosen tm_map_run row ("all": which strategy) */
    double base[TM__N_FIG];    /* consecutive placement */
    double val[TM__N_FIG];     /* the strategy's mapping */
    int runs, not_ok;          /* summary rows: samples, samples whose status is not OK */
    int32_t pos;               /* position in the unsharded grid's rows */
} tm__study_row;

typedef struct tm__study_result {
    int n_rows;
    tm__study_row *rows; /* grid order; summary rows follow their samples */
    int n_runs;          /* rows with stat RUN */
    /* the whole grid: its rows and runs (a shard's result holds only the
     * run rows of its runs, and no summary row: n_rows == n_runs) */
    int total_rows, total_runs;
} tm__study_result;

void tm__study_result_init(tm__study_result *r);
void tm__study_result_release(tm__study_result *r);
/* Runs the grid.  Errors that concern one scenario (disconnection,
 * unreachable hosts, too few slots) become the status of its rows; any
 * other error ends the study.  Scenarios run in tm_ctx_threads(ctx) worker
 * threads, each mapping with one thread and the seed of ctx; the result
 * does not depend on the thread count. */
tm_err tm__study_run(tm_ctx *ctx, const tm__study_spec *spec, tm__study_result *out);
/* "ok", "disconnected", "unroutable", "infeasible"; "run", "mean", "worst". */
const char *tm__study_status_name(tm__row_status s);
const char *tm__study_stat_name(tm__row_stat s);
/* Label of a failure ("none", "links 5%", "link A:B", "switch S"). */
void tm__fail_label(const tm__failure *f, char *buf, size_t size);
/* 100 * (v - base) / base, 0 when base is 0. */
double tm__study_change_pct(double base, double v);

/* Which shard runs each run row of the grid: owner[i] for row i (-1 for
 * summary rows), by tm__shard_assign over the runs' estimated costs: the
 * strategy's (all: every strategy it runs) times the application's tasks
 * plus messages.  The same for every shard of a study (the spec and its
 * graphs alone); *owner malloc'ed.  N above the number of runs is
 * TM_EUSAGE (a shard with nothing to run). */
tm_err tm__study_shard_owners(tm_ctx *ctx, const tm__study_spec *s, int32_t **owner);

/* ---- merging the outputs of shards (merge.c) ------------------------------
 * The shards' JSON or CSV files read back into the spec's labels and the
 * whole result, mean and worst rows computed as the unsharded study does:
 * the writers of the unsharded study then print exactly its files.  The
 * spec holds labels only (comms[i].comm is NULL); JSON shards also give the
 * grid's alloc, refine and seed (has_grid). */
typedef struct tm__study_merged {
    tm__study_spec spec;
    tm__study_result res;
    int32_t n_shards;
    bool has_grid;           /* JSON: the members below are set */
    const char *alloc;       /* as the grid prints them ("all hosts", "none") */
    const char *refine;
    int64_t seed;
    void *store_;            /* what the spec's pointers point into */
} tm__study_merged;
/* The header line of the study's CSV (docs/study.md "Output"). */
#define TM__STUDY_CSV_HEADER                                                                  \
    "stat,topology,comm,routing,slots,capacity,failure,sample,scaled_cables,failed_cables,"   \
    "strategy,status,runs,not_ok,consecutive_max_congestion,consecutive_avg_dilation,"        \
    "consecutive_qap_J,consecutive_est_time_s,max_congestion,avg_dilation,qap_J,est_time_s,"  \
    "change_max_congestion_pct,change_avg_dilation_pct,change_qap_J_pct,"                     \
    "change_est_time_s_pct,best,cause"
/* The kind of a study's output (shard.h): "rows", the CSV header. */
const tm__shard_kind *tm__study_shard_kind(void);
/* Reads the n shard files (streams in[i], named names[i]) and merges. */
tm_err tm__study_merge(tm_ctx *ctx, FILE *const *in, const char *const *names, int n,
                       tm__study_merged *out);
void tm__study_merged_release(tm__study_merged *m);

/* ---- internal to src/study ----------------------------------------------- */
/* Mean and worst rows of the random-failure groups (summary.c). */
void tm__study_summarize(tm__study_result *res);

#endif
