/* study.h - the engine of what-if studies (not installed; the API is
 * topomap/study.h): one grid of scenarios (topologies x slots x capacity
 * changes x failures x failure samples x routing models x applications),
 * every scenario mapped by every strategy with tm_map_run and compared
 * with its consecutive placement.
 *
 * The result is a flat table (tm_study_result) that the CLI prints as a
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
#include "topomap/study.h"
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
tm_err tm__fail_apply(tm_ctx *ctx, tm_net *net, const tm_study_failure *f, uint64_t seed,
                      uint64_t sample, const char *what, int32_t *n_cables);

/* ---- the grid (study.c) --------------------------------------------------
 * The engine works on the public types of topomap/study.h: tm_study_run
 * checks the caller's spec and fills in the defaults of the axes given
 * with n = 0 (samples >= 1 too), then runs tm__study_run on that copy. */

/* The four figures of a row by index, for the code that treats them alike
 * (summaries, writers, the merge): the consecutive placement's (base) or
 * the mapping's. */
enum { TM__FIG_CONG = 0, TM__FIG_DIL, TM__FIG_J, TM__FIG_TIME, TM__N_FIG };
double *tm__study_fig(tm_study_row *r, bool base, int k);
double tm__study_fig_of(const tm_study_row *r, bool base, int k);
/* The lower bound of figure k (TM__FIG_CONG, _DIL, _J: the time has none). */
double *tm__study_bound(tm_study_row *r, int k);
double tm__study_bound_of(const tm_study_row *r, int k);
/* The mapping's gap on figure k: its value / the bound, 1 for a value of
 * 0, INFINITY over a bound of 0. */
double tm__study_gap(const tm_study_row *r, int k);

/* Runs the grid of a checked spec whose axes all have values.  Errors that
 * concern one scenario (disconnection, unreachable hosts, too few slots)
 * become the status of its rows; any other error ends the study.
 * Scenarios run in tm_ctx_threads(ctx) worker threads, each mapping with
 * one thread and the seed of ctx; the result does not depend on the thread
 * count. */
tm_err tm__study_run(tm_ctx *ctx, const tm_study_spec *spec, tm_study_result *out);
/* 100 * (v - base) / base, 0 when base is 0. */
double tm__study_change_pct(double base, double v);

/* Which shard runs each run row of the grid: owner[i] for row i (-1 for
 * summary rows), by tm__shard_assign over the runs' estimated costs: the
 * strategy's (all: every strategy it runs) times the application's tasks
 * plus messages.  The same for every shard of a study (the spec and its
 * graphs alone); *owner malloc'ed.  N above the number of runs is
 * TM_EUSAGE (a shard with nothing to run). */
tm_err tm__study_shard_owners(tm_ctx *ctx, const tm_study_spec *s, int32_t **owner);

/* ---- merging the outputs of shards (merge.c) ------------------------------
 * The shards' JSON or CSV files read back into the spec's labels and the
 * whole result, mean and worst rows computed as the unsharded study does:
 * the writers of the unsharded study then print exactly its files.  The
 * spec holds labels only (comms is NULL; the applications' names are
 * comm_names); JSON shards also give the grid's alloc, refine and seed
 * (has_grid). */
typedef struct tm__study_merged {
    tm_study_spec spec;
    const char *const *comm_names; /* spec.n_comms names */
    tm_study_result res;
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
    "change_est_time_s_pct,bound_max_congestion,bound_avg_dilation,bound_qap_J,"             \
    "gap_max_congestion,gap_avg_dilation,gap_qap_J,best,cause"
/* The kind of a study's output (shard.h): "rows", the CSV header. */
const tm__shard_kind *tm__study_shard_kind(void);
/* Reads the n shard files (streams in[i], named names[i]) and merges. */
tm_err tm__study_merge(tm_ctx *ctx, FILE *const *in, const char *const *names, int n,
                       tm__study_merged *out);
void tm__study_merged_release(tm__study_merged *m);

/* ---- internal to src/study ----------------------------------------------- */
/* Mean and worst rows of the random-failure groups (summary.c). */
void tm__study_summarize(tm_study_result *res);

#endif
