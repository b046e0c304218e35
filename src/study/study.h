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

/* Capacity changes: tm_study_scale and tm_study_scale_parse (the public
 * topomap/study.h, where the level of a cable is defined). */
/* Per cable: its level (above), or 0 for a cable whose ends reach no host.
 * The net must be finalized; *out is malloc'ed. */
tm_err tm__cable_levels(tm_ctx *ctx, const tm_net *net, int32_t **out);
/* Scales the matching cables; *n_cables counts them.  A level that matches
 * no cable is TM_EUSAGE naming the topology `what`. */
tm_err tm__scale_apply(tm_ctx *ctx, tm_net *net, const tm_study_scale *s, const char *what,
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

/* ---- the rows (row.c) ----------------------------------------------------
 * The figures of a row by index (tm_study_fig), writable; tm_study_row_fig
 * and tm_study_change_pct are public. */
double *tm__study_fig(tm_study_row *r, bool base, int k);

/* ---- the grid (study.c) --------------------------------------------------
 * The engine works on the public types of topomap/study.h: tm_study_run
 * checks the caller's spec and fills in the defaults of the axes given
 * with n = 0 (samples >= 1 too), then runs tm__study_run on that copy. */

/* The lower bound of figure k (TM_STUDY_FIG_CONGESTION, _DILATION, _J),
 * writable (row.c). */
double *tm__study_bound(tm_study_row *r, int k);

/* Runs the grid of a checked spec whose axes all have values.  Errors that
 * concern one scenario (disconnection, unreachable hosts, too few slots)
 * become the status of its rows; any other error ends the study.
 * Scenarios run in tm_ctx_threads(ctx) worker threads, each mapping with
 * one thread and the seed of ctx; the result does not depend on the thread
 * count. */
tm_err tm__study_run(tm_ctx *ctx, const tm_study_spec *spec, tm_study_result *out);

/* Which shard runs each run row of the grid: owner[i] for row i (-1 for
 * summary rows), by tm_shard_assign over the runs' estimated costs: the
 * strategy's (all: every strategy it runs) times the application's tasks
 * plus messages.  The same for every shard of a study (the spec and its
 * graphs alone); *owner malloc'ed.  N above the number of runs is
 * TM_EUSAGE (a shard with nothing to run). */
tm_err tm__study_shard_owners(tm_ctx *ctx, const tm_study_spec *s, int32_t **owner);

/* ---- merging the outputs of shards (merge.c) ------------------------------
 * tm_study_merge (public): the shards' JSON or CSV files read back into the
 * spec's labels and the whole result. */
/* The kind of a study's output (shard.h): "rows", the CSV header. */
const tm__shard_kind *tm__study_shard_kind(void);

/* ---- internal to src/study ----------------------------------------------- */
/* Mean and worst rows of the random-failure groups (summary.c). */
void tm__study_summarize(tm_study_result *res);

#endif
