/* workload_cli.h - pieces shared by `topomap workload eval`, `workload
 * replay` and `topomap alloc` (docs/workload.md): their options, their
 * inputs, and the rows they print as a table, JSON or CSV. */
#ifndef TM_WORKLOAD_CLI_H
#define TM_WORKLOAD_CLI_H

#include "cli.h"

#define WL_MAX_OUT 8

typedef struct wl_args {
    cli_inputs in;   /* topology, routing, time model, slots, threads, comm (alloc) */
    const char *jobs, *at, *policy, *partition, *slurm_topology, *free, *report;
    const char *default_comm;
    const char *out[WL_MAX_OUT];
    int n_out;
    long seed, nodes, ppn;
    bool json;
} wl_args;

/* The options of workload eval / replay and alloc, as cli_option_fn
 * (cmd: "topomap workload eval", ...). */
typedef struct wl_parse {
    const char *cmd;
    wl_args *a;
} wl_parse;
int wl_option(void *ud, int c, const char *v);

/* Everything the commands load: the fabric, its router, the jobs. */
typedef struct wl_inputs {
    tm_net *net;
    tm_route *route;
    tm_workload w;
    tm_time_opts topt;
} wl_inputs;
void wl_inputs_init(wl_inputs *x);
void wl_inputs_release(wl_inputs *x);
/* The fabric and router of a->in; the jobs file `jobs` (NULL: none). */
tm_err wl_inputs_load(tm_ctx *ctx, const wl_args *a, const char *jobs, wl_inputs *x);
/* --at: the jobs running then (*set malloc'ed; NULL and every job without --at). */
tm_err wl_at_set(tm_ctx *ctx, const wl_args *a, const tm_workload *w, int32_t **set, int32_t *n);

/* A job's hosts as a Slurm hostlist (malloc'ed). */
char *wl_hostlist(const tm_net *net, const int32_t *host, int32_t n);
/* What a job sends: "stencil3d:1MiB" or its matrix file. */
void wl_comm_label(const tm_workload *w, const tm_job *job, char *buf, size_t size);
/* A time as written in the jobs file (sacct's format), "Unknown" for a
 * running job's end. */
void wl_time_str(double t, char *buf, size_t size);

/* The rows of one set (workload eval; replay adds its own keys). */
typedef struct wl_rows {
    const tm_net *net;
    const tm_workload *w;
    const tm_workload_result *r;
    const char *policy;        /* replay: the policy of the rows, else NULL */
    const tm_replay_row *rr;   /* replay: its rows (r->rows are their .r), else NULL */
} wl_rows;
void wl_json_row(json_w *j, const wl_rows *x, int32_t i);
void wl_json_fabric(json_w *j, const wl_rows *x);
void wl_json_stats(json_w *j, const char *key, const tm_slowdown_stats *s);
/* CSV: the header line, then one line per row. */
void wl_csv_header(FILE *out, bool replay);
void wl_csv_row(FILE *out, const wl_rows *x, int32_t i);
/* The table of the rows and the shared links (stdout). */
void wl_print_rows(FILE *out, const wl_rows *x);
void wl_print_shared(FILE *out, const wl_rows *x);

/* workload replay (cmd_replay.c). */
int cmd_replay(int argc, char **argv, cli_warns *w);
/* --report of workload eval (workload_report.c). */
tm_err wl_write_eval_report(tm_ctx *ctx, const wl_args *a, const wl_inputs *in, const wl_rows *x);

#endif
