/*
 * topomap/workload.h - many jobs on one fabric (docs/workload.md): a jobs
 * file (as `sacct -P` prints it), every job's figures alone and with the
 * other jobs' traffic on the same links, the choice of a new job's nodes
 * (`topomap alloc`) and the replay of a trace under node-choice policies
 * (`topomap workload replay`).
 *
 * Every job's figures are computed from the job and the set of jobs that
 * run with it, nothing else, so the rows of different jobs can be
 * computed apart (shards) and joined in any order.
 */
#ifndef TOPOMAP_WORKLOAD_H
#define TOPOMAP_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "topomap/comm.h"
#include "topomap/error.h"
#include "topomap/export.h"
#include "topomap/map.h"
#include "topomap/metrics.h"
#include "topomap/net.h"
#include "topomap/route.h"
#include "topomap/slurm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- communication patterns ------------------------------------------------
 * For jobs without a recorded matrix (docs/workload.md "Patterns"): every
 * message is `bytes` bytes (default TM_PATTERN_BYTES_DEFAULT).
 *   ring       rank i sends to i-1 and i+1 (mod n)
 *   alltoall   every rank sends to every other rank
 *   stencil3d  the ranks in a near-cubic 3-D grid (dims as MPI_Dims_create(n, 3):
 *              d0 >= d1 >= d2, the most even split), row-major (the last
 *              coordinate fastest, as MPI_Cart_create numbers them), each rank
 *              sending to its up to 6 face neighbours (not periodic) */
typedef enum {
    TM_PATTERN_NONE = 0, /* a matrix file */
    TM_PATTERN_RING,
    TM_PATTERN_ALLTOALL,
    TM_PATTERN_STENCIL3D
} tm_pattern;
#define TM_PATTERN_BYTES_DEFAULT 1048576.0 /* 1 MiB per message */

/* Parses "ring", "alltoall" or "stencil3d", optionally followed by
 * ":BYTES" (a number with an optional k, M, G (powers of 1000) or Ki, Mi,
 * Gi (powers of 1024) prefix and an optional B: "ring:64KiB").  Returns 1
 * and sets *kind and *bytes for a pattern, 0 when spec names no pattern
 * (a file), -1 for a pattern name with a bad size (*why set, static
 * text). */
TM_API int tm_pattern_parse(const char *spec, tm_pattern *kind, double *bytes, const char **why);
/* The pattern's matrix for n tasks (volumes in bytes). */
TM_API tm_err tm_pattern_comm(tm_ctx *ctx, tm_pattern kind, int32_t n, double bytes, tm_comm *out);
/* "ring", "alltoall", "stencil3d" ("file" for TM_PATTERN_NONE). */
TM_API const char *tm_pattern_name(tm_pattern kind);

/* ---- jobs files ----------------------------------------------------------- */

/* One job: where it ran, how many tasks on each node, what it sends. */
typedef struct tm_job {
    char *id;         /* JobID as written ("123", "123_4", "123+1") */
    int64_t line;     /* its line in the jobs file */
    int32_t n_hosts;
    int32_t *host;    /* net vertex ids, in the hostlist's order (Slurm's node order) */
    int32_t *tasks;   /* tasks on each host; ranks fill host 0 first, then host 1, ... */
    int32_t n_tasks;  /* sum of tasks[] */
    tm_pattern pattern;   /* TM_PATTERN_NONE: the matrix file `matrix` */
    double pattern_bytes; /* bytes per message of the pattern */
    int32_t matrix;       /* index into tm_workload.matrix, -1 for a pattern */
    /* Start and End (docs/workload.md "Times"): seconds since 1970-01-01,
     * of the time as written (UTC when it carries a zone); end is INFINITY
     * for a job still running (End "Unknown").  NAN without times. */
    double start, end;
} tm_job;

typedef struct tm_workload {
    int32_t n_jobs;
    tm_job *job;        /* in file order */
    int32_t n_matrices; /* the distinct matrix files the jobs name, each read once */
    tm_comm *matrix;
    char **matrix_path; /* as resolved (relative to the jobs file's folder) */
    bool has_times;     /* the file has Start and End columns */
    /* lines of real sacct output that are not running or finished jobs,
     * skipped (each counted once, warned about once per kind) */
    int32_t skipped_steps;       /* job steps (123.batch, 123.0, ...) */
    int32_t skipped_not_started; /* NodeList "None assigned", or no Start time */
} tm_workload;

typedef struct tm_workload_read_opts {
    /* Folder that Comm paths are relative to (NULL: the current folder;
     * tm_workload_read_file uses the jobs file's folder). */
    const char *base_dir;
    /* The Comm of a job without one (no Comm column, or an empty value):
     * a pattern or a matrix file; NULL: "stencil3d". */
    const char *default_comm;
    tm_comm_format comm_format; /* of the matrix files (TM_COMM_AUTO: by name and content) */
} tm_workload_read_opts;
#define TM_WORKLOAD_READ_OPTS_INIT {NULL, NULL, TM_COMM_AUTO}

/* An empty workload; release frees it and leaves it empty (NULL allowed). */
TM_API void tm_workload_init(tm_workload *w);
TM_API void tm_workload_release(tm_workload *w);
/* Reads a jobs file: a header line, then one job per line, fields
 * separated by '|' as `sacct -P` (or -p) prints them; columns by name
 * (case-insensitive, any order, others ignored): JobID and NodeList
 * (required), NTasksPerNode, NTasks, NCPUS or AllocCPUS, Comm, Start, End
 * (docs/workload.md).  Host names resolve against net.  Errors are
 * TM_EINPUT "name:line: what is wrong" (a matrix file's own error follows
 * "name:line: job J: "); on error *out is left empty. */
TM_API tm_err tm_workload_read(tm_ctx *ctx, const tm_net *net, FILE *in, const char *name,
                               const tm_workload_read_opts *opts, tm_workload *out);
TM_API tm_err tm_workload_read_file(tm_ctx *ctx, const tm_net *net, const char *path,
                                    const tm_workload_read_opts *opts, tm_workload *out);
/* The running jobs of a cluster's state (RUNNING or CONFIGURING, on hosts
 * of net) as a workload, read as a jobs file (docs/workload.md "Live
 * state"): each job on the nodes of its largest numbered step (else its
 * own) with that step's tasks (else its tasks per node, tasks or CPUs),
 * sending what the tag of its comment says (tm_slurm_comm_tag: a pattern,
 * or a matrix file relative to the job's working folder), else
 * opts->default_comm.  Jobs not running count in skipped_not_started; a
 * job with a node net lacks is left out, and a tag that cannot be used
 * gives its job the default, each with a warning. */
TM_API tm_err tm_workload_from_slurm(tm_ctx *ctx, const tm_net *net, const tm_slurm_state *st,
                                     const tm_workload_read_opts *opts, tm_workload *out);
/* Job j's communication matrix (its file's, copied, or its pattern's). */
TM_API tm_err tm_workload_job_comm(tm_ctx *ctx, const tm_workload *w, int32_t j, tm_comm *out);
/* Parses a time as the Start and End columns hold it
 * ("2024-03-05T10:22:13", optionally with a fraction and a zone): 0 and
 * *out in seconds as tm_job.start, or -1. */
TM_API int tm_workload_parse_time(const char *s, double *out);
/* The jobs running at time t (start <= t < end; a job with start == end
 * counts at its start), as job indices in *set (malloc'ed, *n of them).
 * TM_EUSAGE when the workload has no times. */
TM_API tm_err tm_workload_at(tm_ctx *ctx, const tm_workload *w, double t, int32_t **set,
                             int32_t *n);
/* A job's placement on hosts host[0..n_hosts) with tasks[k] tasks on
 * host k: ranks fill the hosts in order, slot i for the i-th rank on a
 * host (Slurm's block distribution). */
TM_API tm_err tm_job_mapping(tm_ctx *ctx, int32_t n_hosts, const int32_t *host,
                             const int32_t *tasks, tm_mapping *out);

/* ---- every job alone and with the others (docs/workload.md "Figures") ---- */

/* One job's figures (docs/design.md "Definitions"). */
typedef struct tm_job_figures {
    /* alone: the job's max congestion (tm_metrics_eval, = `topomap eval`);
     * shared: the max over the links the job loads of every job's load on
     * them / capacity */
    double max_congestion;
    double avg_dilation; /* routes do not depend on the load: shared = alone */
    double qap_J;        /* likewise */
    double est_time_s;   /* alone: tm_metrics_eval's; shared: tm_time_eval_shared's */
    bool time_approximate;
} tm_job_figures;

typedef struct tm_job_result {
    int32_t job;          /* index in the workload */
    tm_job_figures alone, shared;
    /* shared est_time_s / the job's est_time_s alone under the same model
     * (tm_time_shared.alone_est_time_s when set); 1 when the job sends
     * nothing over the network */
    double slowdown;
    int32_t group;        /* the lowest job index of its group of interacting jobs */
    int32_t links_used;   /* directed links the job loads */
    int32_t links_shared; /* of those, links another job loads too */
    int32_t n_neighbours; /* jobs that load a link it loads */
    int32_t *neighbours;  /* their indices, ascending (owned) */
} tm_job_result;

/* A directed link that two or more jobs load. */
typedef struct tm_link_share {
    int32_t link;       /* directed link id (tm_net_csr) */
    double congestion;  /* every job's load / capacity */
    int32_t n_jobs;
    int32_t *jobs;      /* the jobs on it, largest load first (owned) */
    double *load;       /* their loads */
} tm_link_share;

typedef struct tm_workload_result {
    int32_t n_rows;
    tm_job_result *rows;   /* in the order of the options' rows */
    double max_congestion; /* the fabric's: max over links of every job's load / capacity */
    int32_t max_link;      /* the lowest link attaining it, -1 without load */
    int32_t links_used;    /* directed links some job loads */
    int32_t links_shared;  /* directed links two or more jobs load */
    int32_t n_shared;      /* listed below (at most the options' max_shared) */
    tm_link_share *shared; /* links two or more jobs load, most congested first (ties: link id) */
    /* with keep_link_loads: per directed link the jobs' total load, the job
     * with the largest load on it (-1: none) and how many jobs load it */
    int32_t n_links;
    double *link_load;
    int32_t *link_job;
    int32_t *link_n_jobs;
} tm_workload_result;

typedef struct tm_workload_eval_opts {
    const tm_time_opts *time;  /* NULL: TM_TIME_OPTS_INIT (no phases) */
    /* the jobs that run together (indices, each once); NULL: every job */
    const int32_t *set;
    int32_t n_set;
    /* the jobs to give rows for, each in the set; NULL: the whole set.  A
     * row depends only on its job and the set, so rows of one set can be
     * computed in parts (shards) and joined. */
    const int32_t *rows;
    int32_t n_rows;
    /* per job index: the hosts it runs on instead of its own (the same
     * count, tasks[k] on host k); NULL (or a NULL entry): its own */
    const int32_t *const *hosts;
    bool keep_link_loads;
    int32_t max_shared;        /* shared links listed; 0: 64, < 0: none */
} tm_workload_eval_opts;
#define TM_WORKLOAD_EVAL_OPTS_INIT {NULL, NULL, 0, NULL, 0, NULL, false, 0}

/* An empty result; release frees it and leaves it empty. */
TM_API void tm_workload_result_init(tm_workload_result *r);
TM_API void tm_workload_result_release(tm_workload_result *r);
/* Every row job's figures alone and with the set's traffic, and the
 * fabric's load under the set (docs/workload.md).  UGAL routing is
 * TM_EUSAGE (it routes by the whole traffic, so loads do not add up).
 * Uses tm_ctx_threads(ctx) threads for the evaluations; the result does
 * not depend on it. */
TM_API tm_err tm_workload_eval(tm_ctx *ctx, const tm_route *route, const tm_workload *w,
                               const tm_workload_eval_opts *opts, tm_workload_result *out);

/* ---- choosing a new job's nodes (docs/workload.md "alloc") --------------- */
typedef enum {
    TM_PICK_TOPOMAP = 0, /* the least predicted time with the running jobs' traffic */
    TM_PICK_SLURM_TREE,  /* Slurm's own choice, emulated (tm_slurm_pick) */
    TM_PICK_RANDOM,      /* uniform among the free nodes (seeded) */
    TM_PICK_SLURM_BLOCK  /* Slurm's topology/block choice, emulated (tm_slurm_pick on blocks) */
} tm_pick_policy;
/* "topomap", "slurm-tree", "random", "slurm-block" -> policy; -1 otherwise. */
TM_API int tm_pick_policy_parse(const char *s);
TM_API const char *tm_pick_policy_name(tm_pick_policy p);

typedef struct tm_pick_request {
    int32_t n_nodes;
    int32_t ppn;               /* tasks on every node (> 0), unless tasks is given */
    const int32_t *tasks;      /* tasks on the k-th node picked, in Slurm's node order */
    const tm_comm *comm;       /* the job's matrix, its tasks those of the nodes; NULL: */
    tm_pattern pattern;        /* the pattern (TM_PATTERN_NONE: stencil3d) */
    double pattern_bytes;      /* its bytes per message (<= 0: the default) */
    const int32_t *free;       /* the hosts it may get */
    int32_t n_free;
    /* the running jobs, whose traffic is the background (NULL: none): the
     * jobs of set (NULL: all), on hosts[j] instead of their own (NULL:
     * their own) */
    const tm_workload *running;
    const int32_t *set;
    int32_t n_set;
    const int32_t *const *hosts;
    const tm_time_opts *time;  /* NULL: TM_TIME_OPTS_INIT */
    const tm_slurm_tree *tree; /* Slurm's tree (NULL: tm_slurm_tree_from_net) */
    uint64_t seed;             /* of the random pick */
    /* Slurm's blocks, for TM_PICK_SLURM_BLOCK (NULL: tm_slurm_topology_from_net with
     * the blocks of the leaf switches) */
    const tm_slurm_tree *blocks;
} tm_pick_request;

typedef struct tm_pick {
    tm_pick_policy policy;
    int32_t n_hosts;
    int32_t *hosts;            /* the nodes, in Slurm's node order (owned) */
    int32_t *tasks;            /* tasks on each (owned) */
    tm_job_figures alone;      /* the job alone on them */
    tm_job_figures shared;     /* with the running jobs (tm_workload_eval's definitions) */
    double slowdown;
    /* the running jobs it would share links with, and the largest of
     * their slowdowns with it among them (1: none) */
    int32_t n_neighbours;
    double neighbours_slowdown;
    int32_t candidates;        /* topomap: node sets scored (the best few timed) */
} tm_pick;

/* An empty pick; release frees it and leaves it empty. */
TM_API void tm_pick_init(tm_pick *p);
TM_API void tm_pick_release(tm_pick *p);
/* The nodes policy gives the job, and its figures with the running jobs.
 * TM_PICK_TOPOMAP scores compact node sets (the slurm-tree pick, the
 * nearest free nodes around each leaf switch or host, the leaves whose
 * links carry the least background) by the congestion they would see,
 * times the best few with the background's flows (tm_time_eval_shared)
 * and keeps the least est_time_s, so it is never predicted slower than
 * the slurm-tree pick.  TM_EINFEASIBLE when fewer nodes are free (or,
 * slurm-tree, Slurm would not start the job). */
TM_API tm_err tm_pick_nodes(tm_ctx *ctx, const tm_route *route, const tm_pick_request *req,
                            tm_pick_policy policy, tm_pick *out);

/* ---- replaying a trace (docs/workload.md "replay") ---------------------------
 * The jobs start and end at their recorded times; a policy only chooses
 * where each one runs, among the nodes free under that policy's own
 * history, at its start.  Between two events (a start or an end) the
 * running jobs are a set, evaluated as tm_workload_eval does; a job's
 * shared figures and slowdown are the means over the intervals of its
 * run, weighted by their lengths (a job of no length: the set at its
 * start).  A job still running at the end of the trace (End "Unknown")
 * runs until the last recorded time.  Times do not change with the
 * slowdowns: the replay predicts what each placement costs, it does not
 * re-schedule. */
typedef enum {
    TM_REPLAY_RECORDED = 0, /* the trace's own nodes */
    TM_REPLAY_SLURM_TREE,   /* Slurm's topology/tree pick (tm_slurm_pick) */
    TM_REPLAY_RANDOM,       /* a seeded random pick */
    TM_REPLAY_TOPOMAP       /* tm_pick_nodes' TM_PICK_TOPOMAP, the running jobs as background */
} tm_replay_policy;
/* "as-recorded", "slurm-tree", "random", "topomap" -> policy; -1 otherwise. */
TM_API int tm_replay_policy_parse(const char *s);
TM_API const char *tm_replay_policy_name(tm_replay_policy p);

typedef struct tm_replay_opts {
    const tm_time_opts *time;  /* NULL: TM_TIME_OPTS_INIT */
    /* the hosts the policies may give (NULL: every host); as-recorded
     * keeps the trace's */
    const int32_t *partition;
    int32_t n_partition;
    const tm_slurm_tree *tree; /* NULL: tm_slurm_tree_from_net */
    uint64_t seed;             /* the random policy's (each job's draw from it and the job) */
    /* as-recorded only: the jobs to give rows for (the others are only
     * the background of theirs: a shard); NULL: all */
    const int32_t *rows;
    int32_t n_rows;
} tm_replay_opts;
#define TM_REPLAY_OPTS_INIT {NULL, NULL, 0, NULL, 1, NULL, 0}

typedef struct tm_replay_row {
    /* alone; shared figures and slowdown: the time-weighted means over its
     * run; neighbours: every job it shared a link with in its run; group:
     * -1 */
    tm_job_result r;
    bool placed;        /* false: the policy found no nodes at its start (no row figures) */
    int32_t *hosts;     /* its nodes under the policy (the job's n_hosts; owned); NULL when
                         * not placed */
    double worst_slowdown, worst_max_congestion; /* over the intervals of its run */
    int32_t intervals;  /* intervals of its run */
} tm_replay_row;

/* The fabric between two events: figures of every running job, the same
 * whichever rows were asked for (the jobs' slowdowns are in the rows). */
typedef struct tm_replay_interval {
    double t0, t1;          /* seconds since the trace's first start */
    int32_t running, busy_nodes;
    double max_congestion;  /* the fabric's, every running job's load */
} tm_replay_interval;

typedef struct tm_replay_result {
    tm_replay_policy policy;
    int32_t n_rows;
    tm_replay_row *rows;    /* the row jobs (every job: its index = its job), job order */
    int32_t n_intervals;
    tm_replay_interval *intervals;
    double start;           /* the trace's first start (seconds, as tm_job.start) */
    double end;             /* its last recorded time */
    int32_t not_placed;
} tm_replay_result;

/* An empty result (init), and freeing its rows and intervals (release; r is
 * empty again after). */
TM_API void tm_replay_result_init(tm_replay_result *r);
TM_API void tm_replay_result_release(tm_replay_result *r);
/* Replays trace w (it needs Start and End) under policy.  rows other than
 * NULL with another policy than TM_REPLAY_RECORDED is TM_EUSAGE (a
 * policy's choices depend on every earlier job). */
TM_API tm_err tm_replay(tm_ctx *ctx, const tm_route *route, const tm_workload *w,
                        tm_replay_policy policy, const tm_replay_opts *opts,
                        tm_replay_result *out);

/* The distribution of slowdowns (docs/workload.md "Slowdowns"). */
#define TM_SLOWED 1.05 /* a job is "slowed" when its slowdown is above this */
typedef struct tm_slowdown_stats {
    int32_t n;     /* values */
    double mean, min, median, p90, p99, max;
    int32_t slowed; /* values above TM_SLOWED */
} tm_slowdown_stats;
/* The statistics of n values (quantiles by linear interpolation between
 * order statistics, numpy's and pandas' default; all 0 when n is 0). */
TM_API tm_err tm_slowdown_stats_compute(tm_ctx *ctx, const double *v, int32_t n,
                                        tm_slowdown_stats *out);

#ifdef __cplusplus
}
#endif
#endif
