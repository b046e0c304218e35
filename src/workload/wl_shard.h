/* wl_shard.h - `workload eval` and `workload replay --policy as-recorded`
 * in shards, and `workload merge` (not installed; docs/workload.md
 * "Shards"):
 *   - what each row job costs, by which the shards are dealt (shard_cost.c);
 *   - the result as its writers print it (tm__wl_doc: strings, figures read
 *     back exactly, lists), which the commands fill from their results and
 *     the merge from the shards' files, so that one writer prints both and
 *     the merged files are the unsharded ones byte for byte (doc.c);
 *   - the merge itself (merge.c, over src/shard/).
 * The rows of eval are the jobs of the set (every job, or those running at
 * --at) in job order, a shard's those tm__shard_assign gives it; the rows of
 * an as-recorded replay are every job in job order, a shard's a run of
 * jobs consecutive in start order (tm__wl_replay_owners). */
#ifndef TM_WL_SHARD_H
#define TM_WL_SHARD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../shard/shard.h"
#include "topomap/workload.h"

/* The CSV header lines of eval and replay (docs/workload.md "Output"). */
#define TM__WL_EVAL_CSV_HEADER                                                                  \
    "job,index,line,nodes,n_nodes,n_tasks,comm,start,end,alone_max_congestion,"                 \
    "alone_avg_dilation,alone_qap_J,alone_est_time_s,shared_max_congestion,shared_est_time_s,"  \
    "slowdown,time_approximate,group,links_used,links_shared,shares_with"
#define TM__WL_REPLAY_CSV_HEADER                                                                \
    "policy," TM__WL_EVAL_CSV_HEADER ",placed,worst_slowdown,worst_max_congestion,intervals"

/* ---- dealing the rows (shard_cost.c) -------------------------------------- */

/* Eval: the estimated cost of each of the n row jobs rows[i] (units of
 * shard_cost.c): routing its messages, simulating its flows alone. */
void tm__wl_eval_costs(tm_ctx *ctx, const tm_workload *w, const tm_time_opts *topt,
                       const int32_t *rows, int32_t n, int64_t *cost);
/* An as-recorded replay: each job's shard, into owner[job] (n_shards <=
 * n_jobs, each shard a job at least).  A shard gets a run of jobs
 * consecutive in start order (ties by index, as the replay starts them):
 * it simulates every interval from its first job's start to its last
 * job's end once for all its rows there, and jobs that start together
 * share most of their intervals.  The runs minimise the dearest shard's
 * estimated cost: its jobs' own costs plus the simulations of those
 * intervals, each interval's running jobs taken as one group. */
tm_err tm__wl_replay_owners(tm_ctx *ctx, const tm_workload *w, const tm_time_opts *topt,
                            int32_t n_shards, int32_t *owner);

/* ---- the printed result ----------------------------------------------------- */

/* One row (a job; in a replay, a job under a policy). */
typedef struct tm__wl_row {
    const char *policy;           /* replay: the policy; NULL: eval */
    const char *job;              /* JobID */
    int64_t index, line;          /* its index among the jobs, its line in the file */
    const char *nodes, *comm;     /* a hostlist ("" when not placed), the Comm label */
    int32_t n_nodes, n_tasks;
    const char *start, *end;      /* as written; NULL when the jobs have no times */
    bool placed;                  /* replay: false when the policy found no nodes */
    tm_job_figures alone, shared; /* (placed rows) */
    double slowdown;
    double worst_slowdown, worst_max_congestion; /* replay */
    int32_t intervals;                           /* replay */
    const char *group;            /* the lowest job of its group; NULL: none */
    int32_t links_used, links_shared;
    int32_t n_shares;
    const char *const *shares_with; /* JobIDs of the jobs sharing a link with it */
} tm__wl_row;

/* A directed link that two or more jobs load (eval's fabric). */
typedef struct tm__wl_share_job {
    const char *job;
    double load, share;
} tm__wl_share_job;
typedef struct tm__wl_share {
    const char *from, *to;
    double congestion;
    int32_t n_jobs;
    tm__wl_share_job *jobs;
} tm__wl_share;
typedef struct tm__wl_fabric {
    double max_congestion;
    const char *max_from, *max_to; /* the link attaining it; NULL: no load */
    int64_t links_used, links_shared;
    int32_t n_shared;
    tm__wl_share *shared;
} tm__wl_fabric;

/* One interval of a replay's timeline. */
typedef struct tm__wl_interval {
    const char *policy;
    double t0, t1; /* seconds since the first start */
    int64_t running, busy_nodes;
    double max_congestion;
} tm__wl_interval;

/* A policy's figures in a replay (tm__wl_doc_summarize). */
typedef struct tm__wl_summary {
    const char *policy;
    int32_t jobs, not_placed;
    tm_slowdown_stats slowdown; /* of its placed rows */
    double peak, mean;          /* of the fabric's max congestion over time */
} tm__wl_summary;

typedef struct tm__wl_doc {
    bool replay;
    /* false when only rows are known (a merge of CSV shards): the writers
     * then print only CSV and the rows */
    bool has_head;
    const char *topology, *input, *routing; /* input: the jobs file or trace */
    const char *at;                         /* eval's --at, NULL without */
    int64_t n_jobs, n_running, skipped_steps, skipped_not_started; /* eval (n_jobs: both) */
    const char *start, *end;                /* replay: the trace's first and last times */
    double duration_s;                      /* replay: end - start, exactly */
    int32_t n_policies;
    const char *const *policies;            /* replay */
    int32_t n_rows;
    tm__wl_row *rows;                       /* eval: set order; replay: by policy, job order */
    tm__wl_fabric fabric;                   /* eval */
    int32_t n_intervals;
    tm__wl_interval *timeline;              /* replay: by policy, time order */
    /* computed by tm__wl_doc_summarize from the rows and the timeline (a
     * shard's doc is not: its rows are a part of the set) */
    bool summarized;
    tm_slowdown_stats slowdown;             /* eval: of every row */
    tm__wl_summary *summary;                /* replay: per policy */
    /* what the doc owns */
    void **own;
    size_t n_own, cap_own;
    tm__shard_set *set;                     /* a merge's files, whose strings it borrows */
} tm__wl_doc;

void tm__wl_doc_init(tm__wl_doc *d);
void tm__wl_doc_release(tm__wl_doc *d);
/* Memory the doc frees on release: p itself (NULL when p is NULL or cannot
 * be recorded: then p is freed). */
void *tm__wl_doc_keep(tm__wl_doc *d, void *p);
/* A copy of s owned by the doc (NULL when out of memory). */
const char *tm__wl_doc_str(tm__wl_doc *d, const char *s);
/* The statistics of the rows: eval's slowdown of every row; a replay's
 * summary per policy (its rows, the placed ones' slowdowns in row order,
 * the peak and the time-weighted mean of its timeline's max congestion). */
tm_err tm__wl_doc_summarize(tm_ctx *ctx, tm__wl_doc *d);

/* ---- the merge (merge.c) ----------------------------------------------------- */

/* The shard kinds: "workload eval", "workload replay". */
const tm__shard_kind *tm__wl_shard_kind(bool replay);
/* Reads the n files of the shards (streams in[i], named names[i]) of one
 * workload eval or as-recorded replay (which: by the first file) and joins
 * their rows by position into *out, checked (every position once, job
 * indices in order, as-recorded rows only), then summarized.  JSON shards
 * give the whole document, CSV shards the rows (has_head false).
 * TM_EINPUT naming the file ("file:line: ..." or "file: ..."). */
tm_err tm__workload_merge(tm_ctx *ctx, FILE *const *in, const char *const *names, int n,
                          tm__wl_doc *out, int32_t *n_shards);

#endif
