/*
 * cli.h - shared pieces of the command-line tool: the options every
 * subcommand understands, loading of the inputs they name, error
 * reporting with docs/design.md's exit codes, and a tiny JSON writer.
 * Only cli/ prints.
 */
#ifndef TM_CLI_H
#define TM_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "topomap/topomap.h"

/* Exit codes (docs/design.md). */
enum { EXIT_OK_ = 0, EXIT_USAGE_ = 1, EXIT_INPUT_ = 2, EXIT_INFEASIBLE_ = 3, EXIT_INTERNAL_ = 4 };

/* Inputs shared by topo/eval/map. */
typedef struct cli_inputs {
    const char *topology;
    const char *node_name_map;
    bool separate_hcas;
    int slots;
    const char *comm;
    const char *comm_format;
    const char *alloc;
    const char *routing;
    bool lmc_spread;    /* --lmc-spread (lft routing) */
    const char *roots;  /* --root S[,S2..] (updn routing) */
    const char *hierarchy;
    const char *distances;
    /* network mode: node-internal levels for J */
    const char *node_hierarchy;
    const char *node_distances;
    const char *hwloc;
    double hop_distance;
    /* the time model (docs/time.md): values of the options given, with
     * bit i of time_set for option i of cli_time_opts */
    double time_lat, time_overhead, time_host_bw;
    int time_model;
    long time_exact;
    unsigned time_set;
} cli_inputs;

/* Long-option ids shared by the subcommands (>= 256 to stay clear of
 * short options). */
enum {
    OPT_TOPOLOGY = 256, OPT_NODEMAP, OPT_SEPARATE_HCAS, OPT_SLOTS, OPT_COMM, OPT_COMM_FORMAT,
    OPT_ALLOC, OPT_ROUTING, OPT_HIERARCHY, OPT_DISTANCES, OPT_JSON, OPT_OUT, OPT_FORMAT,
    OPT_MAPPING, OPT_STRATEGY, OPT_REFINE, OPT_OBJECTIVE, OPT_SEED, OPT_TIME_LIMIT,
    OPT_THREADS, OPT_HOSTNAMES, OPT_APPROX, OPT_IMBALANCE, OPT_EXPORT_LOADS, OPT_NO_DIAMETER,
    OPT_HELP, OPT_QUIET, OPT_NODE_HIERARCHY, OPT_NODE_DISTANCES, OPT_HWLOC, OPT_HOP_DISTANCE,
    OPT_COMPARE_ROUTING, OPT_REPORT, OPT_LMC_SPREAD, OPT_ROOT,
    OPT_LATENCY_PER_HOP, OPT_MESSAGE_OVERHEAD, OPT_HOST_BANDWIDTH, OPT_TIME_MODEL,
    OPT_TIME_EXACT,
    OPT_SHARED_END_ /* a subcommand's own option ids start here */
};

/* getopt_long entries for the inputs (no terminator); append to a table. */
#define CLI_INPUT_OPTIONS                                                         \
    {"topology", required_argument, NULL, OPT_TOPOLOGY},                          \
    {"node-name-map", required_argument, NULL, OPT_NODEMAP},                      \
    {"separate-hcas", no_argument, NULL, OPT_SEPARATE_HCAS},                      \
    {"slots", required_argument, NULL, OPT_SLOTS},                                \
    {"comm", required_argument, NULL, OPT_COMM},                                  \
    {"comm-format", required_argument, NULL, OPT_COMM_FORMAT},                    \
    {"alloc", required_argument, NULL, OPT_ALLOC},                                \
    {"routing", required_argument, NULL, OPT_ROUTING},                            \
    {"lmc-spread", no_argument, NULL, OPT_LMC_SPREAD},                            \
    {"root", required_argument, NULL, OPT_ROOT},                                  \
    {"hierarchy", required_argument, NULL, OPT_HIERARCHY},                        \
    {"distances", required_argument, NULL, OPT_DISTANCES},                        \
    {"node-hierarchy", required_argument, NULL, OPT_NODE_HIERARCHY},              \
    {"node-distances", required_argument, NULL, OPT_NODE_DISTANCES},              \
    {"hwloc", required_argument, NULL, OPT_HWLOC},                                \
    {"hop-distance", required_argument, NULL, OPT_HOP_DISTANCE},                  \
    {"latency-per-hop", required_argument, NULL, OPT_LATENCY_PER_HOP},            \
    {"message-overhead", required_argument, NULL, OPT_MESSAGE_OVERHEAD},          \
    {"host-bandwidth", required_argument, NULL, OPT_HOST_BANDWIDTH},              \
    {"time-model", required_argument, NULL, OPT_TIME_MODEL},                      \
    {"time-exact-max", required_argument, NULL, OPT_TIME_EXACT},                  \
    {"help", no_argument, NULL, OPT_HELP}

/* Handles an input option; returns 1 if c was one, 0 if not, -1 on a bad
 * value (message printed). */
int cli_input_option(cli_inputs *in, int c, const char *arg);

/* The time model's options: TM_TIME_OPTS_INIT with those given. */
tm_time_opts cli_time_opts(const cli_inputs *in);
/* The help lines of the time options (eval, map, study). */
#define CLI_TIME_HELP                                                                        \
    "  --time-model M    smpi (default: SimGrid 3.32's SMPI factors) or fluid (plain max-min\n" \
    "                    sharing); est_time_s is one exchange of the matrix, volumes in\n"     \
    "                    bytes (docs/time.md)\n"                                               \
    "  --latency-per-hop S  latency of one link in seconds (default 5e-7)\n"                   \
    "  --message-overhead S  seconds added once per message (default 0)\n"                    \
    "  --host-bandwidth G  Gbit/s of a message between two tasks of one host (default 80)\n"  \
    "  --time-exact-max N  simulate up to N messages exactly, approximate above (4096)\n"

/* Prints "topomap <cmd>: <message>" and returns the exit code for err. */
int cli_report(tm_ctx *ctx, const char *cmd, tm_err err);
/* The usage error for what getopt_long returned ('?' unknown or ambiguous
 * option, ':' missing value; call with opterr = 0 and optstring ":"). */
int cli_getopt_error(const char *cmd, int c, char *const *argv);
/* Prints a usage error ("topomap <cmd>: <msg>" + hint) and returns 1. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Parses an integer/double option value; -1 on error (message printed). */
int cli_parse_int(const char *cmd, const char *opt, const char *s, long lo, long hi, long *out);
int cli_parse_double(const char *cmd, const char *opt, const char *s, double lo, double hi,
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
 * stop predicate and progress callback of ctx.  0, or -1 (no watcher). */
int cli_anytime_start(cli_anytime *a, tm_ctx *ctx, const char *strategy, bool progress);
void cli_anytime_stop(cli_anytime *a, tm_ctx *ctx);
/* The signal that stopped the run, 0 if none. */
int cli_anytime_signal(const cli_anytime *a);
const char *cli_signal_name(int sig);

/* Creates the context with the CLI's log callback (warnings to stderr). */
tm_err cli_ctx_new(tm_ctx **out, bool quiet);

/* Input loading. */
tm_err cli_load_topology(tm_ctx *ctx, const cli_inputs *in, tm_net **out);
tm_err cli_load_comm(tm_ctx *ctx, const cli_inputs *in, tm_comm *out);
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
/* Checks option combinations common to eval and map; prints and returns -1
 * on a usage error. */
int cli_check_inputs(const char *cmd, const cli_inputs *in);

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

/* ---- reporting metrics (report.c) --------------------------------------- */
/* Writes the metric keys of docs/design.md into an open JSON object. */
void cli_json_metrics(json_w *j, const tm_net *net, const tm_metrics *m, bool hierarchy);
/* Human-readable block of the same figures. */
void cli_print_metrics(FILE *out, const tm_net *net, const tm_metrics *m, bool hierarchy);
/* Writes per-link loads: .graphml / .dot (network with loads) or .csv
 * (from,to,capacity,load,congestion per used directed link). */
tm_err cli_export_loads(tm_ctx *ctx, const tm_net *net, const tm_metrics *m, const char *path);
/* Reads a mapping file for the problem (network mode when net != NULL). */
tm_err cli_read_mapping(tm_ctx *ctx, const tm_net *net, int64_t n_pe, const char *path,
                        int32_t n_tasks, tm_mapping *out);

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
    const tm_metrics *met;        /* exact figures of map with link loads, or NULL */
    bool map_is_consecutive;      /* map is the consecutive placement */
} cli_report_args;
/* Evaluates ra->map (unless ra->met) and the consecutive placement
 * (unless it is ra->map) exactly with per-link loads and writes the page
 * (atomically). */
tm_err cli_write_report(tm_ctx *ctx, const cli_report_args *ra);
/* One report row per strategy row of res against res->consecutive, with
 * labels written into labels[i] (n_rows entries); NULL without memory. */
tm_report_row *cli_report_rows(const tm_map_result *res, char (*labels)[128]);

/* Subcommands. */
int cmd_topo(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_map(int argc, char **argv);
int cmd_study(int argc, char **argv);

#endif
