/* cmd_map.c - `topomap map`: compute a mapping with a strategy (and an
 * optional refinement), evaluate it, and write it as a rankfile,
 * machinefile, Slurm hostfile or plain mapping. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage_head[] =
    "usage: topomap map --topology T --comm G [--alloc A] [--strategy S] [--refine R]\n"
    "                   [--objective O] [--seed N] [--time-limit SEC] [--threads N]\n"
    "                   [--out F] [--format openmpi|mpich|slurm|plain|smpi] [--hostnames short|full] [--json]\n"
    "                   [--quiet] [--report F.html]\n"
    "       topomap map --hierarchy a1:..:ak --distances d1:..:dk --comm G [--strategy S]\n"
    "                   [--refine R] [--imbalance EPS] [--out F] [--json]\n"
    "\n"
    "Maps the tasks of G onto the slots of the hosts of T (or the PEs of a hierarchy), prints\n"
    "the quality figures of the result beside those of the consecutive placement, and writes\n"
    "the mapping (docs/mapping.md).\n"
    "\n"
    "options:\n";

static const char usage_signals[] =
    "\n"
    "SIGINT (Ctrl-C), SIGTERM (Slurm's time limit) or SIGUSR1 stop the refinements: the best\n"
    "mapping found so far is written and reported, exit 0 (a second signal ends at once).\n"
    "\n";

static void usage(FILE *out)
{
    fputs(usage_head, out);
    cli_print_options(out, CLI_MAP); /* options.c */
    fputs(usage_signals, out);
    fprintf(out, "strategies:\n");
    for (const tm_strategy *s = tm_strategies(); s->name; s++)
        fprintf(out, "  %-12s %s%s\n", s->name, s->help,
                s->modes == TM_MODE_HIERARCHY ? " [hierarchy mode]"
                : s->modes == TM_MODE_NETWORK ? " [network mode]" : "");
    fprintf(out, "refinements:\n  %-12s %s\n", "none", "keep the construction");
    for (const tm_refiner *r = tm_refiners(); r->name; r++)
        fprintf(out, "  %-12s %s\n", r->name, r->help);
}

typedef struct map_args {
    cli_inputs in;
    const char *strategy, *refine, *out, *format, *report;
    int objective;
    long seed;
    double time_limit, imbalance;
    int effort;           /* TM_EFFORT_AUTO, a level, or CLI_EFFORT_EXHAUSTIVE */
    bool json, full_hostnames, refine_given, effort_given, quiet;
    tm_time_opts topt; /* the time model's options (p->time points here) */
} map_args;

static tm_err map_option(void *ud, int c, const char *v)
{
    const char *cmd = "topomap map";
    map_args *a = ud;
    switch (c) {
    case OPT_STRATEGY: a->strategy = v; return TM_EOK;
    case OPT_REFINE:
        a->refine = strcmp(v, "none") == 0 ? NULL : v;
        a->refine_given = true;
        return TM_EOK;
    case OPT_OBJECTIVE:
        if ((a->objective = tm_objective_parse(v)) < 0)
            return cli_usage_error(cmd, "unknown --objective '%s' (congestion, dilation, qap, "
                                        "pareto, time)", v), TM_EUSAGE;
        return TM_EOK;
    case OPT_SEED: return cli_parse_int(cmd, "--seed", v, 0, 0x7fffffffL, &a->seed);
    case OPT_TIME_LIMIT:
        return cli_parse_double(cmd, "--time-limit", v, 0, 1e9, &a->time_limit);
    case OPT_EFFORT:
        a->effort_given = true;
        return cli_parse_effort(cmd, v, &a->effort);
    case OPT_IMBALANCE:
        return cli_parse_double(cmd, "--imbalance", v, 0, 10, &a->imbalance);
    case OPT_OUT: a->out = v; return TM_EOK;
    case OPT_JSON: a->json = true; return TM_EOK;
    case OPT_QUIET: a->quiet = true; return TM_EOK;
    case OPT_REPORT: a->report = v; return TM_EOK;
    case OPT_FORMAT:
        if (tm_mapfmt_parse(v) < 0)
            return cli_usage_error(cmd, "unknown --format '%s' (openmpi, mpich, slurm, plain, smpi)",
                                   v), TM_EUSAGE;
        a->format = v;
        return TM_EOK;
    case OPT_HOSTNAMES:
        if (strcmp(v, "short") && strcmp(v, "full"))
            return cli_usage_error(cmd, "--hostnames is 'short' or 'full'"), TM_EUSAGE;
        a->full_hostnames = strcmp(v, "full") == 0;
        return TM_EOK;
    default: return cli_input_option(cmd, &a->in, c, v);
    }
}

/* Options into *a: true to go on, false to end with exit code *rc (0 after
 * --help; usage errors printed). */
static bool parse_args(int argc, char **argv, map_args *a, int *rc)
{
    const char *cmd = "topomap map";
    memset(a, 0, sizeof *a);
    a->strategy = "all";
    a->objective = TM_OBJ_PARETO;
    a->seed = 1;
    a->time_limit = -1;
    a->imbalance = -1;
    a->effort = TM_EFFORT_AUTO;
    if (!cli_parse_options(cmd, CLI_MAP, argc, argv, map_option, a, usage, rc))
        return false;
    *rc = TM_EXIT_USAGE;
    if (cli_check_inputs(cmd, &a->in))
        return false;
    if (a->effort_given && a->refine_given)
        return cli_usage_error(cmd, "--effort sets the work of the default pipeline; with "
                               "--refine the chain given runs instead (drop one of them)"), false;
    if (a->effort_given && a->in.hierarchy)
        return cli_usage_error(cmd, "--effort needs a network (--topology): hierarchy mode "
                               "refines with --refine only"), false;
    if (a->report && a->in.hierarchy)
        return cli_usage_error(cmd, "--report needs a network (--topology)"), false;
    *rc = TM_EXIT_OK;
    return true;
}

static const char *objective_name(int obj)
{
    return obj == TM_OBJ_DILATION ? "dilation" : obj == TM_OBJ_QAP ? "qap"
         : obj == TM_OBJ_PARETO ? "pareto" : obj == TM_OBJ_TIME ? "time" : "congestion";
}

/* The per-strategy table of --strategy all; the refine column as wide as
 * its longest chain (the default's levels: "ils:2,kicks=1+ta:86400,dil=0.01"). */
static void print_rows(FILE *out, const tm_map_result *res, bool network)
{
    int w = network ? 22 : 14;
    for (int32_t i = 0; i < res->n_rows; i++)
        if ((int)strlen(res->rows[i].refine) > w)
            w = (int)strlen(res->rows[i].refine);
    if (network)
        fprintf(out, "%-12s %-*s %14s %12s %16s %12s %9s\n", "strategy", w, "refine",
                "max congestion", "avg dilation", "J", "est. time (s)", "time (s)");
    else
        fprintf(out, "%-16s %-*s %16s %9s\n", "strategy", w, "refine", "J", "time (s)");
    for (int32_t i = 0; i < res->n_rows; i++) {
        const tm_map_row *r = &res->rows[i];
        const char *mark = i == res->best ? "  <- best"
                           : r->reverted ? "  (refinement undone)"
                           : r->screened ? "  (screened: not refined)"
                                         : "";
        char est[32] = "-"; /* not estimated: a row beside the answer under --time-limit */
        if (!isnan(r->metrics->est_time_s))
            snprintf(est, sizeof est, "%.6g", r->metrics->est_time_s);
        if (network)
            fprintf(out, "%-12s %-*s %14.6g %12.4f %16.10g %12s %9.3f%s\n", r->name, w,
                    r->refine[0] ? r->refine : "-", r->metrics->max_congestion,
                    r->metrics->avg_dilation, r->metrics->qap_J, est, r->time_s, mark);
        else
            fprintf(out, "%-16s %-*s %16.10g %9.3f%s\n", r->name, w,
                    r->refine[0] ? r->refine : "-", r->metrics->qap_J, r->time_s, mark);
    }
}

static double gain_pct(double base, double v)
{
    return base > 0 ? 100.0 * (v - base) / base : 0.0;
}

/* The result is the consecutive placement that tm_map_run fell back on
 * (it appends a row named "consecutive" only then: --objective time, or a
 * time budget whose best result consecutive beats). */
static bool fell_back(const tm_map_result *res)
{
    return strcmp(res->rows[res->best].name, "consecutive") == 0;
}

/* v is worse (larger) than the consecutive placement's base beyond
 * rounding: the one rule of the text notes and the JSON flag. */
static bool worse_than(double base, double v)
{
    return v > base * (1 + 1e-9) + 1e-12;
}

/* base / v, 1 when both are 0 (nothing to gain) */
static double speedup(double base, double v)
{
    return v > 0 ? base / v : base > 0 ? INFINITY : 1;
}

/* The least est_time_s of the candidates the result fell back from (every
 * row but the appended "consecutive"; rows without an estimate skipped):
 * INFINITY when there is none. */
static double best_candidate_time(const tm_map_result *res)
{
    double t = INFINITY;
    for (int32_t i = 0; i < res->n_rows; i++) {
        double e = res->rows[i].metrics->est_time_s;
        if (i != res->best && isfinite(e) && e < t)
            t = e;
    }
    return t;
}

/* Why the result is the consecutive placement (NULL: it is not a
 * fallback): --objective time when every candidate is predicted slower,
 * or when the best one's predicted gain is within the time model's error
 * (TM_TIME_GAIN_TOLERANCE); else a time budget that found nothing better. */
static const char *fallback_reason(const tm_map_result *res, int obj)
{
    if (!fell_back(res))
        return NULL;
    if (obj != TM_OBJ_TIME)
        return "time_limit";
    return worse_than(res->consecutive->est_time_s, best_candidate_time(res))
               ? "predicted_slower"
               : "gain_within_model_error";
}

/* Predicted slower than consecutive (est_time_s, network mode). */
static bool predicted_slower(const tm_map_result *res)
{
    const tm_metrics *c = res->consecutive, *m = res->metrics;
    return c && worse_than(c->est_time_s, m->est_time_s);
}

/* The result beside the consecutive placement, and a note for every
 * objective on which the result is worse than consecutive (never silent). */
static void print_vs_consecutive(FILE *out, const tm_map_result *res, bool network, int obj)
{
    const tm_metrics *c = res->consecutive, *m = res->metrics;
    const char *name[4] = {"max congestion", "avg dilation", "QAP J", "est. time (s)"};
    const char *why;
    double base[4], val[4];
    int first = network ? 0 : 2, end = network ? 4 : 3;
    if (!c)
        return;
    base[0] = c->max_congestion, base[1] = c->avg_dilation, base[2] = c->qap_J;
    val[0] = m->max_congestion, val[1] = m->avg_dilation, val[2] = m->qap_J;
    base[3] = c->est_time_s, val[3] = m->est_time_s;
    fprintf(out, "%-18s %16s %16s %9s\n", "", "consecutive", "result", "change");
    for (int k = first; k < end; k++)
        fprintf(out, "%-18s %16.10g %16.10g %+8.1f%%\n", name[k], base[k], val[k],
                gain_pct(base[k], val[k]));
    for (int k = first; k < end; k++)
        if (worse_than(base[k], val[k]))
            fprintf(out, "note: %s is %.1f%% worse than the consecutive placement%s\n", name[k],
                    gain_pct(base[k], val[k]),
                    k == 3 ? ": the result is predicted SLOWER (--objective time never returns "
                             "a placement predicted slower)" : "");
    why = network ? fallback_reason(res, obj) : NULL;
    if (!why)
        return;
    if (strcmp(why, "predicted_slower") == 0)
        fprintf(out, "note: every candidate was predicted slower than the consecutive "
                     "placement (est. time): the result is the consecutive placement "
                     "(--objective time)\n");
    else if (strcmp(why, "gain_within_model_error") == 0)
        fprintf(out, "note: the best candidate's predicted speed-up over the consecutive "
                     "placement, %.3fx (est. time), is within the time model's error (%g%%): "
                     "the result is the consecutive placement (--objective time)\n",
                speedup(c->est_time_s, best_candidate_time(res)), 100 * TM_TIME_GAIN_TOLERANCE);
    else
        fprintf(out, "note: the consecutive placement beats every result found within "
                     "--time-limit: the result is the consecutive placement\n");
}

static void json_vs_consecutive(json_w *j, const tm_net *net, const tm_map_result *res, int obj)
{
    const tm_metrics *c = res->consecutive, *m = res->metrics;
    if (!c)
        return;
    json_obj_begin(j, "consecutive");
    cli_json_metrics(j, net, c, net == NULL);
    json_obj_end(j);
    json_obj_begin(j, "change_pct");
    if (net) {
        json_num(j, "max_congestion", gain_pct(c->max_congestion, m->max_congestion));
        json_num(j, "avg_dilation", gain_pct(c->avg_dilation, m->avg_dilation));
        json_num(j, "est_time_s", gain_pct(c->est_time_s, m->est_time_s));
    }
    json_num(j, "qap_J", gain_pct(c->qap_J, m->qap_J));
    json_obj_end(j);
    if (net) {
        json_bool(j, "predicted_slower_than_consecutive", predicted_slower(res));
        json_bool(j, "fell_back_to_consecutive", fell_back(res));
        if (fallback_reason(res, obj))
            json_str(j, "fallback_reason", fallback_reason(res, obj));
        else
            json_null(j, "fallback_reason");
    }
}

static void json_row(json_w *j, const tm_net *net, const tm_map_row *r)
{
    json_obj_begin(j, NULL);
    json_str(j, "name", r->name);
    json_str(j, "refine", r->refine[0] ? r->refine : "none");
    cli_json_metrics(j, net, r->metrics, net == NULL);
    if (r->refine[0]) {
        json_obj_begin(j, "construction");
        if (net) {
            json_num(j, "max_congestion", r->start_congestion);
            json_num(j, "avg_dilation", r->start_dilation);
        }
        json_num(j, "qap_J", r->start_J);
        json_obj_end(j);
        json_bool(j, "refinement_undone", r->reverted);
    }
    json_bool(j, "screened", r->screened);
    json_num(j, "time_s", r->time_s);
    json_num(j, "refine_time_s", r->refine_time_s);
    json_obj_end(j);
}

/* Hosts that appear in more than one run of consecutive ranks, i.e. on
 * several lines of a Hydra machinefile; *example is one of them.  Hydra
 * (MPICH 4.0) starts one proxy per line: docs/mpi.md "Launchers". */
static int32_t hydra_split_hosts(const tm_net *net, const tm_mapping *m, int32_t *example)
{
    int32_t split = 0;
    unsigned char *seen = calloc((size_t)tm_net_n_vertices(net), 1); /* 0 no, 1 yes, 2 split */
    if (!seen)
        return 0; /* only a warning is at stake */
    for (int32_t t = 0; t < m->n; t++) {
        int32_t h = m->host[t];
        if (t > 0 && h == m->host[t - 1])
            continue;
        if (seen[h] == 1) {
            if (split++ == 0)
                *example = h;
            seen[h] = 2;
        } else if (seen[h] == 0) {
            seen[h] = 1;
        }
    }
    free(seen);
    return split;
}

static void warn_hydra(const tm_net *net, const tm_mapping *m)
{
    int32_t ex = -1, n = hydra_split_hosts(net, m, &ex);
    if (n > 0)
        fprintf(stderr, "topomap map: warning: %d host%s (e.g. %s) appear%s on several lines of the "
                "machinefile: Hydra starts one proxy per line, so ranks of one host land in "
                "different MPI_COMM_TYPE_SHARED groups and -bind-to core binds them to the same "
                "cores; see docs/mpi.md \"Launchers\"\n", n, n == 1 ? "" : "s",
                tm_net_name(net, ex), n == 1 ? "s" : "");
}

static tm_err write_mapping(tm_ctx *ctx, const map_args *a, const tm_net *net, const tm_mapping *m)
{
    tm_mapwrite_opts wo = TM_MAPWRITE_OPTS_INIT;
    tm_mapfmt fmt = a->format ? (tm_mapfmt)tm_mapfmt_parse(a->format)
                              : (net ? TM_MAPFMT_OPENMPI : TM_MAPFMT_PLAIN);
    tm_ofile of;
    tm_err err;
    wo.full_hostnames = a->full_hostnames;
    err = tm_ofile_open(ctx, a->out ? a->out : "-", &of);
    if (err)
        return err;
    err = tm_mapping_write(ctx, net, m, fmt, &wo, of.fp);
    if (err) {
        char msg[512];
        tm_ofile_abort(&of);
        /* the writer knows the stream, not the path: name the file */
        snprintf(msg, sizeof msg, "%s", tm_ctx_errmsg(ctx));
        return tm_ctx_fail(ctx, err, "%s: %s", a->out ? a->out : "<stdout>", msg);
    }
    err = tm_ofile_commit(ctx, &of);
    if (!err && fmt == TM_MAPFMT_MPICH)
        warn_hydra(net, m);
    return err;
}

/* --report: every strategy row against consecutive, the chosen mapping's
 * link loads on the fabric (docs/report.md). */
static tm_err map_report(tm_ctx *ctx, const map_args *a, const cli_network *nw,
                         const tm_comm *comm, const tm_map_result *res, const tm_bounds *bnd)
{
    char (*labels)[128] = calloc((size_t)res->n_rows + 1, sizeof *labels);
    tm_report_row *rows = labels ? cli_report_rows(res, bnd, labels) : NULL;
    cli_report_args ra = {0};
    tm_err err;
    if (!rows) {
        free(labels);
        return tm_ctx_fail(ctx, TM_ENOMEM, "out of memory");
    }
    ra.path = a->report;
    ra.title = "topomap map";
    ra.nw = nw;
    ra.in = &a->in;
    ra.comm = comm;
    ra.map = &res->mapping;
    ra.map_label = labels[res->best];
    ra.rows = rows;
    ra.n_rows = res->consecutive ? res->n_rows : 0;
    ra.bounds = bnd;
    err = cli_write_report(ctx, &ra);
    free(rows);
    free(labels);
    return err;
}

/* Loads the inputs of either mode into *p (hier, nw and comm own them). */
static tm_err load_problem(tm_ctx *ctx, map_args *a, cli_network *nw, tm_comm *comm, tm_hier *hier,
                           tm_problem *p)
{
    tm_err err;
    p->comm = comm;
    p->imbalance = a->imbalance; /* < 0: one-to-one */
    if (a->in.hierarchy) {
        err = tm_hier_parse(ctx, a->in.hierarchy, a->in.distances, hier);
        if (!err)
            err = cli_load_comm(ctx, &a->in, comm);
        if (err)
            return err;
        if (comm->n > hier->n_pe && a->imbalance < 0)
            return tm_ctx_fail(ctx, TM_EINFEASIBLE,
                               "%d tasks but only %lld PEs (one-to-one mapping); give "
                               "--imbalance for general process mapping",
                               comm->n, (long long)hier->n_pe);
        p->hier = hier;
        return TM_EOK;
    }
    err = cli_network_load(ctx, &a->in, nw);
    if (!err)
        err = cli_load_comm(ctx, &a->in, comm);
    if (!err)
        err = cli_load_phases(ctx, &a->in, comm);
    if (err)
        return err;
    /* more tasks than slots: tm_map_run refuses it too (exit 3), but only
     * here can the message name the options that cure it */
    if (comm->n > tm_alloc_total_slots(&nw->alloc) && a->imbalance < 0)
        return tm_ctx_fail(ctx, TM_EINFEASIBLE,
                           "%d tasks but only %lld slots on %d hosts%s; give --slots N (every "
                           "host N slots)%s or --imbalance EPS (several tasks per slot: general "
                           "process mapping)", comm->n,
                           (long long)tm_alloc_total_slots(&nw->alloc), nw->alloc.n,
                           a->in.alloc ? " of the allocation" : "",
                           a->in.alloc ? ", a larger --alloc" : "");
    p->net = nw->net;
    p->route = nw->route;
    p->alloc = &nw->alloc;
    p->hier = nw->have_node_hier ? &nw->node_hier : NULL;
    p->hop_distance = a->in.hop_distance;
    a->topt = cli_time_opts(&a->in);
    p->time = &a->topt;
    if (!a->refine_given)
        a->refine = a->effort == CLI_EFFORT_EXHAUSTIVE ? CLI_NET_PIPELINE : "auto";
    return TM_EOK;
}

/* What --effort asked for, in words. */
static void effort_asked(const map_args *a, const tm_map_info *info, char *buf, size_t size)
{
    if (a->effort == CLI_EFFORT_EXHAUSTIVE)
        snprintf(buf, size, "exhaustive");
    else if (a->effort >= 0)
        snprintf(buf, size, "%d", a->effort);
    else if (info->effort == TM_EFFORT_AUTO)
        snprintf(buf, size, "until converged");
    else
        snprintf(buf, size, "%d (default)", info->effort);
}

static void json_effort(json_w *j, const map_args *a, const tm_map_info *info)
{
    char asked[32];
    effort_asked(a, info, asked, sizeof asked);
    json_obj_begin(j, "effort");
    json_str(j, "asked", asked);
    json_str(j, "pipeline", info->pipeline);
    json_int(j, "levels", info->levels);
    json_int(j, "rows_refined", info->rows_refined);
    json_int(j, "restarts", info->restarts);
    json_str(j, "stop", info->stop);
    json_int(j, "kicks", info->kicks);
    json_int(j, "ta_moves", info->ta_moves);
    json_int(j, "evaluations", info->evaluations);
    json_obj_end(j);
}

static void print_effort(FILE *out, const map_args *a, const tm_map_info *info)
{
    char asked[32], runs[48] = "";
    if (strcmp(info->pipeline, "auto") != 0)
        return;
    effort_asked(a, info, asked, sizeof asked);
    if (info->restarts > 1)
        snprintf(runs, sizeof runs, " in each of %d runs (restarts)", info->restarts);
    fprintf(out, "effort             %s: %d level%s%s, ended: %s (work: %lld kicks, %lld ta moves, "
            "%lld evaluations)\n", asked, info->levels, info->levels == 1 ? "" : "s", runs, info->stop,
            (long long)info->kicks, (long long)info->ta_moves, (long long)info->evaluations);
    if (strcmp(info->stop, "gap") == 0)
        fprintf(out, "note: stopped early: the answer is within %.0f%% of the lower bounds on "
                "what --objective weighs (docs/bounds.md)\n", 100 * (TM_BOUNDS_STOP_GAP - 1));
}

static void report_json(const map_args *a, const tm_net *net, const tm_map_result *res,
                        const tm_map_info *info, const tm_bounds *bnd, int sig, double t0)
{
    json_w j;
    json_begin(&j, stdout);
    json_obj_begin(&j, NULL);
    json_str(&j, "mode", net ? "network" : "hierarchy");
    json_str(&j, "strategy", a->strategy);
    json_str(&j, "refine", a->refine ? a->refine : "none");
    json_int(&j, "seed", a->seed);
    json_str(&j, "objective", objective_name(a->objective));
    if (a->out)
        json_str(&j, "out", a->out);
    if (a->report)
        json_str(&j, "report", a->report);
    json_str(&j, "best", res->rows[res->best].name);
    if (net)
        json_effort(&j, a, info);
    if (res->blocks > 0) {
        json_obj_begin(&j, "general");
        json_int(&j, "blocks", res->blocks);
        json_num(&j, "block_bound", res->block_bound);
        json_num(&j, "block_weight_max", res->block_weight_max);
        json_obj_end(&j);
    }
    cli_json_metrics(&j, net, res->metrics, net == NULL);
    cli_json_bounds(&j, bnd, res->metrics);
    json_vs_consecutive(&j, net, res, a->objective);
    json_arr_begin(&j, "strategies");
    for (int32_t i = 0; i < res->n_rows; i++)
        json_row(&j, net, &res->rows[i]);
    json_arr_end(&j);
    if (sig)
        json_str(&j, "interrupted", cli_signal_name(sig));
    json_num(&j, "mapping_time_s", res->time_s);
    json_num(&j, "time_s", cli_now() - t0);
    json_obj_end(&j);
    json_end(&j);
}

static void report_text(const map_args *a, const tm_net *net, const tm_map_result *res,
                        const tm_map_info *info, const tm_bounds *bnd)
{
    /* The mapping went to stdout unless --out was given: keep the summary
     * out of its way. */
    FILE *summary = a->out ? stdout : stderr;
    const tm_map_row *best = &res->rows[res->best];
    if (res->n_rows > 1)
        print_rows(summary, res, net != NULL);
    /* the chain the chosen row had (none for a screened row, or for the
     * consecutive placement that --objective time or a time budget fell
     * back on) */
    fprintf(summary, "strategy           %s%s%s\n", best->name, best->refine[0] ? " + " : "",
            best->refine);
    print_effort(summary, a, info);
    if (res->blocks > 0)
        fprintf(summary, "general mapping    %d blocks (one per slot), heaviest %g, cap %g; "
                "consecutive = ranks in order, floor/ceil(tasks/slots) per slot\n",
                res->blocks, res->block_weight_max, res->block_bound);
    cli_print_metrics(summary, net, res->metrics, net == NULL);
    cli_print_bounds(summary, bnd, res->metrics);
    print_vs_consecutive(summary, res, net != NULL, a->objective);
    fprintf(summary, "mapping time       %.3f s\n", res->time_s);
    if (a->out)
        fprintf(summary, "written            %s\n", a->out);
    if (a->report)
        fprintf(summary, "report             %s\n", a->report);
}

/* Under --imbalance the bounds assume the balance's cap per slot; a result
 * that exceeds it (a cap METIS could not meet) is judged against bounds
 * over as many tasks per slot as it has. */
static tm_err bounds_of_result(tm_ctx *ctx, const map_args *a, const cli_network *nw,
                               const tm_comm *comm, const tm_hier *hier, const tm_problem *p,
                               const tm_map_result *res, tm_bounds *bnd)
{
    int32_t most;
    if (a->imbalance < 0)
        return TM_EOK;
    most = cli_tasks_per_slot(&res->mapping, p->net ? tm_alloc_total_slots(&nw->alloc)
                                                    : hier->n_pe);
    if (most <= bnd->tasks_per_slot)
        return TM_EOK;
    return p->net ? cli_bounds_network(ctx, nw, &a->in, comm, a->imbalance, most, bnd)
                  : cli_bounds_hier(ctx, hier, comm, a->imbalance, most, bnd);
}

int cmd_map(int argc, char **argv, cli_warns *w)
{
    map_args a;
    tm_ctx *ctx = NULL;
    cli_network nw;
    tm_comm comm;
    tm_map_result res;
    tm_map_info info;
    tm_hier hier;
    tm_problem p = {0};
    tm_bounds bnd;
    tm_err err;
    double t0;
    int rc = 0, sig;
    cli_anytime any;

    if (!parse_args(argc, argv, &a, &rc))
        return rc;
    tm_comm_init(&comm);
    cli_network_init(&nw);
    tm_map_result_init(&res);
    tm_bounds_init(&bnd);
    if (cli_ctx_new(&ctx, w))
        return TM_EXIT_INTERNAL;
    /* before any thread exists: they all inherit the blocked signals */
    if (cli_anytime_start(&any, ctx, a.strategy, !a.quiet))
        fprintf(stderr, "topomap map: warning: cannot watch for signals; Ctrl-C ends at once\n");
    tm_ctx_set_seed(ctx, (uint64_t)a.seed);
    t0 = cli_now();
    err = tm_ctx_set_threads(ctx, (int)a.in.threads);
    if (!err)
        err = tm_ctx_set_time_limit(ctx, a.time_limit);
    if (!err)
        err = load_problem(ctx, &a, &nw, &comm, &hier, &p);
    /* the bounds first: the pipeline stops early on them (docs/bounds.md) */
    if (!err)
        err = p.net ? cli_bounds_network(ctx, &nw, &a.in, &comm, a.imbalance, 0, &bnd)
                    : cli_bounds_hier(ctx, &hier, &comm, a.imbalance, 0, &bnd);
    p.bounds = &bnd;
    /* --time-limit counts from the start of the command: reading the
     * inputs and building the network took part of it */
    if (!err && a.time_limit >= 0) {
        double left = a.time_limit - (cli_now() - t0);
        err = tm_ctx_set_time_limit(ctx, left > 0 ? left : 0);
    }
    if (err)
        goto fail;
    if (!err && a.effort >= 0)
        err = tm_ctx_set_effort(ctx, a.effort);
    if (err)
        goto fail;
    err = tm_map_run_ex(ctx, &p, a.strategy, a.refine, (tm_objective)a.objective, &res, &info);
    cli_anytime_stop(&any, ctx);
    sig = cli_anytime_signal(&any);
    if (!err && p.net)
        err = tm_mapping_check(ctx, p.net, &nw.alloc, &res.mapping);
    if (!err)
        err = bounds_of_result(ctx, &a, &nw, &comm, &hier, &p, &res, &bnd);
    /* the report first: a report that cannot be written leaves no mapping */
    if (!err && a.report)
        err = map_report(ctx, &a, &nw, &comm, &res, &bnd);
    if (!err && (a.out || !a.json))
        err = write_mapping(ctx, &a, p.net, &res.mapping);
    if (err)
        goto fail;
    if (a.json)
        report_json(&a, p.net, &res, &info, &bnd, sig, t0);
    else
        report_text(&a, p.net, &res, &info, &bnd);
    if (sig)
        fprintf(stderr, "topomap map: interrupted by %s after %.1f s: the best mapping found "
                "so far (%s) was %s\n", cli_signal_name(sig), cli_now() - t0,
                res.rows[res.best].name, a.out ? "written" : "printed");
    goto out;
fail:
    cli_anytime_stop(&any, ctx);
    rc = cli_report_in(ctx, w, "map", err, &a.in);
out:
    tm_map_result_release(&res);
    tm_comm_release(&comm);
    cli_network_release(&nw);
    cli_inputs_release(&a.in);
    tm_ctx_free(ctx);
    return rc;
}
