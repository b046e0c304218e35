/*
 * topomap/workload_doc.h - the results of `topomap workload eval` and
 * `workload replay` as their outputs print them, run in shards and merged
 * (docs/workload.md "Shards"): the costs by which a workload's rows are
 * dealt to shards, the printed form of a result (tm_workload_doc), which
 * the writers print whichever way it was made, and the merge of the
 * shards' files into the whole result (`topomap workload merge`).
 *
 * The rows of eval are the jobs of its set (every job, or those running at
 * --at) in job order, a shard's those tm_shard_assign gives it; the rows of
 * an as-recorded replay are every job in job order, a shard's a run of jobs
 * consecutive in start order (tm_replay_shard_owners).
 */
#ifndef TOPOMAP_WORKLOAD_DOC_H
#define TOPOMAP_WORKLOAD_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "topomap/error.h"
#include "topomap/export.h"
#include "topomap/metrics.h"
#include "topomap/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The CSV header lines of eval and replay (`topomap workload eval|replay
 * --out F.csv`, docs/workload.md "Output"). */
#define TM_WORKLOAD_EVAL_CSV_HEADER                                                            \
    "job,index,line,nodes,n_nodes,n_tasks,comm,start,end,alone_max_congestion,"                 \
    "alone_avg_dilation,alone_qap_J,alone_est_time_s,shared_max_congestion,shared_est_time_s,"  \
    "slowdown,time_approximate,group,links_used,links_shared,shares_with"
#define TM_WORKLOAD_REPLAY_CSV_HEADER                                                          \
    "policy," TM_WORKLOAD_EVAL_CSV_HEADER                                                       \
    ",placed,worst_slowdown,worst_max_congestion,intervals"

/* ---- dealing the rows to shards ------------------------------------------ */

/* Eval's shards: the estimated cost of each of the n row jobs rows[i] (job
 * indices of w, relative units): routing its messages, simulating its flows
 * alone.  `workload eval --shard K/N` deals the rows of its set (every job,
 * or those running at --at) with tm_shard_assign over these costs; each
 * shard's rows are computed with every other job's traffic as background
 * (tm_workload_eval_opts.rows), so that they equal the whole run's. */
TM_API void tm_workload_eval_costs(tm_ctx *ctx, const tm_workload *w, const tm_time_opts *topt,
                                   const int32_t *rows, int32_t n, int64_t *cost);
/* An as-recorded replay's shards: each job's shard, into owner[job]
 * (n_shards <= n_jobs, each shard a job at least).  A shard gets a run of jobs
 * consecutive in start order (ties by index, as the replay starts them):
 * it simulates every interval from its first job's start to its last
 * job's end once for all its rows there, and jobs that start together
 * share most of their intervals.  The runs minimise the dearest shard's
 * estimated cost: its jobs' own costs plus the simulations of those
 * intervals, each interval's running jobs taken as one group. */
TM_API tm_err tm_replay_shard_owners(tm_ctx *ctx, const tm_workload *w, const tm_time_opts *topt,
                                     int32_t n_shards, int32_t *owner);

/* ---- the result as the outputs print it ------------------------------------
 * A workload command's result in the form its writers print it: names
 * instead of vertex ids, hostlists, labels and times as written, figures
 * that read back exactly.  The commands fill it from their results
 * (tm_workload_result, tm_replay_result) and tm_workload_merge from the
 * shards' files, so that one writer prints both and the merged files are
 * the unsharded ones byte for byte.  The strings and arrays a doc points
 * to are its own (tm_workload_doc_keep, tm_workload_doc_str) or borrowed
 * from what its maker keeps alive. */

/* One row (a job; in a replay, a job under a policy). */
typedef struct tm_workload_row {
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
} tm_workload_row;

/* A directed link that two or more jobs load (eval's fabric). */
typedef struct tm_workload_share_job {
    const char *job;
    double load, share;
} tm_workload_share_job;
typedef struct tm_workload_share {
    const char *from, *to;
    double congestion;
    int32_t n_jobs;
    tm_workload_share_job *jobs;
} tm_workload_share;
typedef struct tm_workload_fabric {
    double max_congestion;
    const char *max_from, *max_to; /* the link attaining it; NULL: no load */
    int64_t links_used, links_shared;
    int32_t n_shared;
    tm_workload_share *shared;
} tm_workload_fabric;

/* One interval of a replay's timeline. */
typedef struct tm_workload_interval {
    const char *policy;
    double t0, t1; /* seconds since the first start */
    int64_t running, busy_nodes;
    double max_congestion;
} tm_workload_interval;

/* A policy's figures in a replay (tm_workload_doc_summarize). */
typedef struct tm_workload_summary {
    const char *policy;
    int32_t jobs, not_placed;
    tm_slowdown_stats slowdown; /* of its placed rows */
    double peak, mean;          /* of the fabric's max congestion over time */
} tm_workload_summary;

/* The whole result: eval's (replay false) or a replay's. */
typedef struct tm_workload_doc {
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
    tm_workload_row *rows;                  /* eval: set order; replay: by policy, job order */
    tm_workload_fabric fabric;              /* eval */
    int32_t n_intervals;
    tm_workload_interval *timeline;         /* replay: by policy, time order */
    /* computed by tm_workload_doc_summarize from the rows and the timeline
     * (a shard's doc is not: its rows are a part of the set) */
    bool summarized;
    tm_slowdown_stats slowdown;             /* eval: of every row */
    tm_workload_summary *summary;           /* replay: per policy */
    /* what the doc owns (tm_workload_doc_keep) */
    void **own;
    size_t n_own, cap_own;
    void *files_;                           /* private: a merge's files, whose strings it borrows */
} tm_workload_doc;

/* A doc starts empty (init); release frees what it owns and leaves it
 * empty again (also a zeroed or released doc). */
TM_API void tm_workload_doc_init(tm_workload_doc *d);
TM_API void tm_workload_doc_release(tm_workload_doc *d);
/* Memory the doc frees on release: p itself (NULL when p is NULL or cannot
 * be recorded: then p is freed). */
TM_API void *tm_workload_doc_keep(tm_workload_doc *d, void *p);
/* A copy of s owned by the doc (NULL when out of memory). */
TM_API const char *tm_workload_doc_str(tm_workload_doc *d, const char *s);
/* The statistics of the rows: eval's slowdown of every row; a replay's
 * summary per policy (its rows, the placed ones' slowdowns in row order,
 * the peak and the time-weighted mean of its timeline's max congestion). */
TM_API tm_err tm_workload_doc_summarize(tm_ctx *ctx, tm_workload_doc *d);

/* ---- merging shards ------------------------------------------------------ */

/* Reads the n files of the shards (streams in[i], named names[i]) of one
 * workload eval or as-recorded replay (which: by the first file) and joins
 * their rows by position into *out, checked (every position once, job
 * indices in order, as-recorded rows only), then summarized.  JSON shards
 * give the whole document, CSV shards the rows (has_head false).
 * TM_EINPUT naming the file ("file:line: ..." or "file: ..."). */
TM_API tm_err tm_workload_merge(tm_ctx *ctx, FILE *const *in, const char *const *names, int n,
                                tm_workload_doc *out, int32_t *n_shards);

#ifdef __cplusplus
}
#endif

#endif
