/* workload_cli.h - pieces shared by `topomap workload eval`, `workload
 * replay`, `workload merge` and `topomap alloc` (docs/workload.md): their
 * options, their inputs, and their results as a table, JSON or CSV
 * (printed from a tm_workload_doc, topomap/workload_doc.h, whichever
 * command made it: the merge's files are the unsharded command's). */
#ifndef TM_WORKLOAD_CLI_H
#define TM_WORKLOAD_CLI_H

#include "topomap/workload_doc.h"
#include "cli.h"
#include "shard_cli.h"

#define WL_MAX_OUT 8
/* Options remembered for the shard identity. */
#define WL_MAX_OPTS 1024

typedef struct wl_args {
    cli_inputs in;   /* topology, routing, time model, slots, threads, comm (alloc) */
    const char *jobs, *at, *policy, *partition, *slurm_topology, *free, *exclude, *report;
    const char *default_comm;
    bool slurm;                      /* --slurm: the state from the controller */
    const char *slurm_state, *slurm_partition; /* --slurm-state DIR, --slurm-partition P */
    double slurm_max_age;            /* --slurm-state-max-age S (0: any age) */
    const char *slurm_topology_name; /* --slurm-topology-name N (topology.yaml) */
    const char *out[WL_MAX_OUT];
    int n_out;
    long seed, nodes, ppn;
    bool json;
    tm_shard shard;                  /* --shard K/N; n = 0: every row */
    cli_optval opts[WL_MAX_OPTS];    /* every option, in order (the shard identity) */
    int n_opts;
} wl_args;

/* The options of workload eval / replay and alloc, as cli_option_fn
 * (cmd: "topomap workload eval", ...). */
typedef struct wl_parse {
    const char *cmd;
    wl_args *a;
} wl_parse;
tm_err wl_option(void *ud, int c, const char *v);

/* Everything the commands load: the fabric, its router, the jobs. */
typedef struct wl_inputs {
    tm_net *net;
    tm_route *route;
    tm_workload w;
    tm_time_opts topt;
    tm_slurm_state st; /* with --slurm or --slurm-state */
    bool have_state;
} wl_inputs;
void wl_inputs_init(wl_inputs *x);
void wl_inputs_release(wl_inputs *x);
/* The fabric and router of a->in; the jobs file `jobs` (NULL: none), or
 * with --slurm / --slurm-state the running jobs of the cluster's state
 * (kept in x->st). */
tm_err wl_inputs_load(tm_ctx *ctx, const wl_args *a, const char *jobs, wl_inputs *x);
/* Where the jobs come from, as printed: the jobs file, the state's folder
 * or "slurmctld". */
const char *wl_jobs_source(const wl_args *a);
/* --jobs, --slurm and --slurm-state: exactly one when need (else at most
 * one); TM_EUSAGE (printed) otherwise. */
tm_err wl_check_jobs_source(const char *cmd, const wl_args *a, bool need);
/* --slurm-topology F [--slurm-topology-name N] (NULL without the option):
 * Slurm's view, a tree or blocks. */
tm_err wl_slurm_topology(tm_ctx *ctx, const wl_args *a, const tm_net *net, tm_slurm_tree **out);
/* --at: the jobs running then (*set malloc'ed; NULL and every job without --at). */
tm_err wl_at_set(tm_ctx *ctx, const wl_args *a, const tm_workload *w, int32_t **set, int32_t *n);

/* A job's hosts as a Slurm hostlist (malloc'ed). */
char *wl_hostlist(const tm_net *net, const int32_t *host, int32_t n);
/* What a job sends: "stencil3d:1MiB" or its matrix file. */
void wl_comm_label(const tm_workload *w, const tm_job *job, char *buf, size_t size);
/* A time as written in the jobs file (sacct's format), "Unknown" for a
 * running job's end. */
void wl_time_str(double t, char *buf, size_t size);

/* A shard's output: K/N, its identity, each row's position among the
 * unsharded rows (rows_total of them). */
typedef struct wl_shard_out {
    tm_shard sh;
    char id[TM_SHARD_ID_LEN + 1];
    int64_t total;
    const int64_t *pos; /* per row of the doc */
} wl_shard_out;
/* The identity of a shard of command `what` ("workload eval", "workload
 * replay"): its options and the bytes of its inputs and of every matrix
 * file its jobs name. */
tm_err wl_shard_id(tm_ctx *ctx, const char *what, const wl_args *a, const tm_workload *w,
                   char *out);

/* The printed form of a result (workload_doc.c): a row (job r->job of w;
 * rr: its replay row, else NULL; hosts: its nodes, NULL when not placed). */
tm_err wl_doc_row(tm_workload_doc *d, const tm_net *net, const tm_workload *w,
                  const tm_job_result *r, const int32_t *hosts, const tm_replay_row *rr,
                  const char *policy, tm_workload_row *out);
/* Eval's result: its rows and the fabric (not summarized). */
tm_err wl_doc_eval(tm_ctx *ctx, const wl_args *a, const wl_inputs *in, int32_t n_set,
                   const tm_workload_result *res, tm_workload_doc *d);

/* The writers (workload_out.c): JSON (sh: a shard's, NULL: the whole, with
 * the statistics; time_s: the command's run time, NaN in files), CSV. */
void wl_write_json(FILE *out, const tm_workload_doc *d, const wl_shard_out *sh, double time_s);
void wl_write_csv(FILE *out, const tm_workload_doc *d, const wl_shard_out *sh);
/* Every --out file (CSV or JSON by its name), atomically. */
tm_err wl_write_outs(tm_ctx *ctx, const char *const *outs, int n_out, const tm_workload_doc *d,
                     const wl_shard_out *sh);
/* The tables: eval's rows, the fabric's shared links, the slowdowns (when
 * summarized); a replay's policies and (up to 40 jobs) each job's slowdown
 * under each. */
void wl_print_eval(FILE *out, const tm_workload_doc *d);
void wl_print_replay(FILE *out, const tm_workload_doc *d);

/* workload replay (cmd_replay.c). */
int cmd_replay(int argc, char **argv, cli_warns *w);
/* `topomap workload merge F1 F2 ...` (cmd_workload_merge.c). */
int cmd_workload_merge(int argc, char **argv, cli_warns *w);
/* --report (workload_report.c): eval's page (the fabric by load and by
 * job: the whole result with its link loads); a replay's, from its doc. */
tm_err wl_write_eval_report(tm_ctx *ctx, const wl_args *a, const wl_inputs *in,
                            const tm_workload_result *r);
tm_err wl_write_replay_report(tm_ctx *ctx, const tm_workload_doc *d, const char *path);

#endif
