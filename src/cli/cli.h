/*
 * cli.h - shared pieces of the command-line tool: the options every
 * subcommand understands, loading of the inputs they name, error
 * reporting with the exit codes of topomap/error.h (tm_exit_code), and a
 * tiny JSON writer.
 * Only cli/ prints.
 *
 * One return convention (docs/contributing.md "A subcommand"): an option
 * handler (cli_option_fn) and every helper that can fail return a tm_err
 * (TM_EUSAGE after printing a usage error); cli_parse_options returns true
 * when the command goes on, false when it ends with the exit code in *rc;
 * only what ends a command returns an exit code (cmd_*, cli_usage_error,
 * cli_getopt_error, cli_report and the steps that end in it).
 */
#ifndef TM_CLI_H
#define TM_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "topomap/topomap.h"

/* The refinement chain of `--effort exhaustive` (network mode): every
 * construction refined by ils:10 then ta, the default pipeline until
 * round 4 (docs/mapping.md "Effort and time"). */
#define CLI_NET_PIPELINE "ils:10+ta"
/* --effort's value for exhaustive (not a level of the auto pipeline). */
#define CLI_EFFORT_EXHAUSTIVE (-2)
/* Largest --slots. */
#define CLI_MAX_SLOTS (1L << 20)

/* A --routing value: the model, and the tables' directory of lft:DIR. */
/* The command's warning holder (warn_summary.h). */
typedef struct cli_warns cli_warns;

typedef struct cli_routing {
    tm_route_kind kind;
    const char *lft_dir;
} cli_routing;

/* Inputs shared by topo/eval/map/study. */
typedef struct cli_inputs {
    const char *topology;
    const char *node_name_map;
    bool separate_hcas;
    int slots;
    const char *comm;
    const char *comm_format;
    const char *alloc;
    const char *routing; /* as given; NULL: ECMP */
    cli_routing route;   /* parsed (valid when routing != NULL) */
    bool lmc_spread;    /* --lmc-spread (lft routing) */
    const char *roots;  /* --root S[,S2..] (updn routing) */
    const char *hierarchy;
    const char *distances;
    /* network mode: node-internal levels for J */
    const char *node_hierarchy;
    const char *node_distances;
    const char *hwloc;
    double hop_distance;
    long threads;       /* --threads, 0: all cores */
    /* the time model (docs/time.md): values of the options given, with
     * bit i of time_set for option i of cli_time_opts */
    double time_lat, time_overhead, time_host_bw;
    int time_model;
    long time_exact;
    unsigned time_set;
    /* --comm-phases F: the job's phases (docs/time.md "Phases"), loaded by
     * cli_load_phases, released by cli_inputs_release */
    const char *comm_phases;
    tm_comm_phases phases;
    bool phases_loaded;
} cli_inputs;

/* Long-option ids (>= 256 to stay clear of short options). */
enum {
    OPT_TOPOLOGY = 256, OPT_NODEMAP, OPT_SEPARATE_HCAS, OPT_SLOTS, OPT_COMM, OPT_COMM_FORMAT,
    OPT_ALLOC, OPT_ROUTING, OPT_HIERARCHY, OPT_DISTANCES, OPT_JSON, OPT_OUT, OPT_FORMAT,
    OPT_MAPPING, OPT_STRATEGY, OPT_REFINE, OPT_OBJECTIVE, OPT_SEED, OPT_TIME_LIMIT,
    OPT_THREADS, OPT_HOSTNAMES, OPT_APPROX, OPT_IMBALANCE, OPT_EXPORT_LOADS, OPT_NO_DIAMETER,
    OPT_HELP, OPT_QUIET, OPT_NODE_HIERARCHY, OPT_NODE_DISTANCES, OPT_HWLOC, OPT_HOP_DISTANCE,
    OPT_COMPARE_ROUTING, OPT_REPORT, OPT_LMC_SPREAD, OPT_ROOT, OPT_LINK_SPEED,
    OPT_FAIL_LINKS, OPT_FAIL_LINK, OPT_FAIL_SWITCH, OPT_SEEDS, OPT_SCALE_CAPACITY,
    OPT_LATENCY_PER_HOP, OPT_MESSAGE_OVERHEAD, OPT_HOST_BANDWIDTH, OPT_TIME_MODEL, OPT_TIME_EXACT,
    OPT_COMM_PHASES, OPT_EFFORT,
    OPT_SHARD, /* --shard K/N of study, workload eval and replay (docs/study.md "Shards") */
    /* workload eval / replay and alloc (docs/workload.md) */
    OPT_JOBS, OPT_TRACE, OPT_DEFAULT_COMM, OPT_AT, OPT_POLICY, OPT_PARTITION, OPT_SLURM_TOPOLOGY,
    OPT_FREE, OPT_NODES, OPT_PPN,
    /* the cluster's state from Slurm (docs/workload.md "Live state") */
    OPT_SLURM, OPT_SLURM_STATE, OPT_SLURM_PARTITION, OPT_SLURM_MAX_AGE, OPT_EXCLUDE, OPT_TIMEOUT,
    /* topo export --format slurm-block / slurm-yaml; --slurm-topology-name */
    OPT_BLOCK_LEVEL, OPT_BLOCK_SIZES, OPT_SLURM_TOPOLOGIES, OPT_SLURM_TOPOLOGY_NAME
};

/* ---- the option table (options.c) ----------------------------------------
 * One table holds every option of topo, eval, map and study with the
 * subcommands that take it; getopt_long's entries and the option list of
 * every --help are made from it. */
enum { CLI_TOPO = 1, CLI_EVAL = 2, CLI_MAP = 4, CLI_STUDY = 8 };
/* `study merge` (its files are arguments: cli_parse_options_args) */
enum { CLI_STUDY_MERGE = 16 };
/* workload eval, workload replay, alloc, workload merge (docs/workload.md) */
enum { CLI_WEVAL = 32, CLI_WREPLAY = 64, CLI_ALLOC = 128, CLI_WMERGE = 256 };
/* `slurm snapshot` (docs/slurm.md "Live state") */
enum { CLI_SLURM = 512 };
typedef struct cli_opt {
    const char *name; /* without "--" */
    int id;           /* OPT_* */
    const char *arg;  /* the value's name in --help; NULL: no value */
    unsigned cmds;    /* CLI_* of the subcommands that take it */
    const char *help; /* one line; '\n' starts a continuation line */
} cli_opt;
/* The whole table (n entries). */
const cli_opt *cli_options(size_t *n);
/* The options of subcommand `cmd` (one CLI_*), one per line or more. */
void cli_print_options(FILE *out, unsigned cmd);
/* Handles option id with value arg (NULL for flags): TM_EOK when taken,
 * TM_EUSAGE on a bad value (message printed), TM_EINTERNAL for an option
 * the handler does not know (the table gives it to the subcommand: a bug). */
typedef tm_err (*cli_option_fn)(void *ud, int id, const char *arg);
/* Runs getopt_long over argv with the table's options of `mask`, calling
 * fn for each.  True when the options are parsed and the command goes on;
 * false when it ends here with exit code *rc: 0 after --help (the usage on
 * stdout), else the usage error's (printed as "<cmd>: ..."). */
bool cli_parse_options(const char *cmd, unsigned mask, int argc, char **argv, cli_option_fn fn,
                       void *ud, void (*usage)(FILE *), int *rc);
/* As cli_parse_options, for a subcommand that takes arguments beside its
 * options (`study merge F1 F2 ...`): they are argv[*first .. argc). */
bool cli_parse_options_args(const char *cmd, unsigned mask, int argc, char **argv,
                            cli_option_fn fn, void *ud, void (*usage)(FILE *), int *first,
                            int *rc);
/* The options of cli_inputs (and --threads) into in: as cli_option_fn. */
tm_err cli_input_option(const char *cmd, cli_inputs *in, int c, const char *arg);
/* Value checks shared by the subcommands: TM_EUSAGE on a bad value (the
 * message printed).  --routing: the library's model names; lft:DIR only
 * when tables. */
tm_err cli_parse_routing(const char *cmd, const char *v, bool tables, cli_routing *out);
tm_err cli_parse_threads(const char *cmd, const char *v, long *out);
tm_err cli_parse_slots(const char *cmd, const char *v, long *out);

/* The time model's options: TM_TIME_OPTS_INIT with those given. */
tm_time_opts cli_time_opts(const cli_inputs *in);

/* Prints the command's held warnings (w), then "topomap <cmd>: <message>",
 * and returns the exit code for err. */
int cli_report(tm_ctx *ctx, cli_warns *w, const char *cmd, tm_err err);
/* The same, with "; fix: <option> ..." added when the error can come from
 * an option the inputs `in` lack (cli_hints). */
int cli_report_in(tm_ctx *ctx, cli_warns *w, const char *cmd, tm_err err, const cli_inputs *in);
/* The hints for message msg of command cmd ("eval", "map", ...) given the
 * inputs (NULL: none known) into buf, "" if none (hints.c). */
void cli_hints(const char *cmd, const char *msg, const cli_inputs *in, char *buf, size_t size);
/* The usage error for what getopt_long returned ('?' unknown or ambiguous
 * option, ':' missing value; call with opterr = 0 and optstring ":"). */
int cli_getopt_error(const char *cmd, int c, char *const *argv);
/* Prints a usage error ("topomap <cmd>: <msg>" + hint) and returns 1. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Parses an integer/double option value; TM_EUSAGE (printed) on a bad one. */
tm_err cli_parse_int(const char *cmd, const char *opt, const char *s, long lo, long hi,
                     long *out);
/* --effort: a level in [0, TM_EFFORT_MAX] or "exhaustive"
 * (CLI_EFFORT_EXHAUSTIVE); TM_EUSAGE (printed) on a bad value. */
tm_err cli_parse_effort(const char *cmd, const char *s, int *out);
tm_err cli_parse_double(const char *cmd, const char *opt, const char *s, double lo, double hi,
                        double *out);

/* Monotonic seconds (wall clock for the time_s figures). */
double cli_now(void);

/* ---- anytime `map` (anytime.c) ------------------------------------------
 * SIGINT / SIGTERM / SIGUSR1 stop the refinements (the best mapping so far
 * is written, exit 0); a progress line on stderr when it is a terminal. */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
typedef struct cli_anytime {
    sigset_t set;          /* the signals taken (those not ignored at start) */
    pthread_t th;
    bool running, progress, shown;
    atomic_int sig;        /* the first signal received, 0 if none */
    atomic_bool done;
    pthread_mutex_t mu;    /* guards the progress fields below */
    char strategy[48], last[96];
    double best_c, best_d, best_j, t0;
} cli_anytime;
/* Blocks the signals in the calling thread (call before any thread is
 * started: threads inherit the mask), starts the watcher and sets the
 * stop predicate and progress callback of ctx.  TM_EINTERNAL when no
 * watcher can start (nothing printed: the caller warns and goes on). */
tm_err cli_anytime_start(cli_anytime *a, tm_ctx *ctx, const char *strategy, bool progress);
void cli_anytime_stop(cli_anytime *a, tm_ctx *ctx);
/* The signal that stopped the run, 0 if none. */
int cli_anytime_signal(const cli_anytime *a);
const char *cli_signal_name(int sig);

/* Creates the context with the CLI's log callback (warnings to stderr). */
/* Creates the context with the CLI's log callback: warnings go to the
 * command's holder w (summarised; warn_summary.c). */
tm_err cli_ctx_new(tm_ctx **out, cli_warns *w);

/* Input loading. */
tm_err cli_load_topology(tm_ctx *ctx, const cli_inputs *in, tm_net **out);
tm_err cli_load_comm(tm_ctx *ctx, const cli_inputs *in, tm_comm *out);
/* --comm-phases: reads the phases into in->phases (nothing without the
 * option); their task count must be comm's.  cli_time_opts then points the
 * time model at them. */
tm_err cli_load_phases(tm_ctx *ctx, cli_inputs *in, const tm_comm *comm);
/* Frees what cli_load_phases read. */
void cli_inputs_release(cli_inputs *in);
/* Everything network mode loads from the inputs: the topology, the
 * allocation (--alloc, default all hosts), the optional node hierarchy and
 * the router (--routing, default ECMP). */
typedef struct cli_network {
    tm_net *net;
    tm_route *route;
    tm_alloc alloc;
    tm_hier node_hier;
    bool have_node_hier;
} cli_network;
void cli_network_init(cli_network *nw);
void cli_network_release(cli_network *nw);
/* A router for --routing (NULL: ECMP; lft:DIR: forwarding tables) with
 * --lmc-spread and --root. */
tm_err cli_route_new(tm_ctx *ctx, const tm_net *net, const cli_inputs *in, tm_route **out);
tm_err cli_network_load(tm_ctx *ctx, const cli_inputs *in, cli_network *nw);

/* Node-internal hierarchy of network mode from --hwloc or --node-hierarchy
 * (+ --node-distances); *have is false when none was given. */
tm_err cli_load_node_hier(tm_ctx *ctx, const cli_inputs *in, tm_hier *out, bool *have);
/* Checks option combinations common to eval and map; TM_EUSAGE (printed)
 * on a usage error. */
tm_err cli_check_inputs(const char *cmd, const cli_inputs *in);

/* ---- JSON writer (pretty-printed, 2-space indent) ---------------------- */
typedef struct json_w {
    FILE *out;
    int depth;
    bool first[32];
} json_w;
void json_begin(json_w *j, FILE *out);
void json_obj_begin(json_w *j, const char *key);   /* key NULL inside arrays / at top */
void json_obj_end(json_w *j);
void json_arr_begin(json_w *j, const char *key);
void json_arr_end(json_w *j);
void json_str(json_w *j, const char *key, const char *val);
void json_num(json_w *j, const char *key, double val);
void json_int(json_w *j, const char *key, long long val);
void json_bool(json_w *j, const char *key, bool val);
void json_null(json_w *j, const char *key);
void json_end(json_w *j);

/* ---- printing metrics (metrics_print.c) ---------------------------------- */
/* Writes the metric keys of docs/design.md into an open JSON object. */
void cli_json_metrics(json_w *j, const tm_net *net, const tm_metrics *m, bool hierarchy);
/* Human-readable block of the same figures. */
void cli_print_metrics(FILE *out, const tm_net *net, const tm_metrics *m, bool hierarchy);
/* Writes per-link loads atomically: .graphml / .dot (the network with its
 * loads) or .csv (tm_loads_csv_write: one line per used directed link). */
tm_err cli_export_loads(tm_ctx *ctx, const tm_net *net, const tm_metrics *m, const char *path);
/* Reads a mapping file for the problem (network mode when net != NULL). */
tm_err cli_read_mapping(tm_ctx *ctx, const tm_net *net, int64_t n_pe, const char *path,
                        int32_t n_tasks, tm_mapping *out);

/* ---- lower bounds (bounds_print.c, docs/bounds.md) ---------------------- */
/* The bounds of network mode for the job comm on nw's allocation, with the
 * node hierarchy and hop distance of the inputs (imbalance < 0: one task
 * per slot; tasks_per_slot > 0: at most that many, see tm_bounds_opts). */
tm_err cli_bounds_network(tm_ctx *ctx, const cli_network *nw, const cli_inputs *in,
                          const tm_comm *comm, double imbalance, int32_t tasks_per_slot,
                          tm_bounds *out);
/* The bounds of hierarchy mode. */
tm_err cli_bounds_hier(tm_ctx *ctx, const tm_hier *h, const tm_comm *comm, double imbalance,
                       int32_t tasks_per_pe, tm_bounds *out);
/* The most tasks m puts on one slot (PE) when it has more tasks than the
 * slots; 0 when it has at most as many (one per slot). */
int32_t cli_tasks_per_slot(const tm_mapping *m, int64_t slots);
/* The bounds table beside m's figures, and the JSON keys "bounds" and "gap". */
void cli_print_bounds(FILE *out, const tm_bounds *b, const tm_metrics *m);
void cli_json_bounds(json_w *j, const tm_bounds *b, const tm_metrics *m);

/* ---- the HTML report (report_html.c, docs/report.md) -------------------- */
typedef struct cli_report_args {
    const char *path;             /* --report F.html */
    const char *title;
    const cli_network *nw;
    const cli_inputs *in;
    const tm_comm *comm;
    const tm_mapping *map;        /* the mapping drawn */
    const char *map_label;
    const tm_report_row *rows;    /* NULL: one row, map against consecutive */
    int32_t n_rows;
    const char *alloc_label;      /* the allocation in the subtitle; NULL: --alloc or all hosts */
    const tm_metrics *met;        /* exact figures of map with link loads, or NULL */
    bool map_is_consecutive;      /* map is the consecutive placement */
    const tm_bounds *bounds;      /* the problem's lower bounds (beside every row), or NULL */
} cli_report_args;
/* Evaluates ra->map (unless ra->met) and the consecutive placement
 * (unless it is ra->map) exactly with per-link loads and writes the page
 * (atomically). */
tm_err cli_write_report(tm_ctx *ctx, const cli_report_args *ra);
/* One report row per strategy row of res against res->consecutive, with
 * labels written into labels[i] (n_rows entries); NULL without memory. */
tm_report_row *cli_report_rows(const tm_map_result *res, const tm_bounds *bounds,
                               char (*labels)[128]);

/* Subcommands. */
int cmd_topo(int argc, char **argv, cli_warns *w);
int cmd_eval(int argc, char **argv, cli_warns *w);
int cmd_map(int argc, char **argv, cli_warns *w);
int cmd_study(int argc, char **argv, cli_warns *w);
int cmd_workload(int argc, char **argv, cli_warns *w);
int cmd_alloc(int argc, char **argv, cli_warns *w);
int cmd_slurm(int argc, char **argv, cli_warns *w);


#endif
