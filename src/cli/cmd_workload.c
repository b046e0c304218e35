/* cmd_workload.c - `topomap workload eval`: every job of a jobs file alone
 * and with the others' traffic on the same links, and the fabric's load
 * (docs/workload.md); `workload replay` is cmd_replay.c. */
#include <stdlib.h>
#include <string.h>

#include "workload_cli.h"

static const char eval_head[] =
    "usage: topomap workload eval --topology T --jobs F [--routing R] [--at TIME] [--json]\n"
    "                             [--out F.csv|F.json] [--report F.html]\n"
    "\n"
    "Evaluates every job of the jobs file F on the fabric T: alone (max congestion,\n"
    "average dilation, J and est_time_s, as 'topomap eval' of the job) and shared: its\n"
    "congestion over the links it uses with every job's traffic on them, its\n"
    "est_time_s with the other jobs' flows in the same max-min simulation, and the\n"
    "slowdown (shared / alone); then the fabric's max congestion and the links\n"
    "where jobs collide, with which jobs.  Every job runs at once (or those running\n"
    "at --at).  docs/workload.md.\n"
    "\n"
    "options:\n";

static void eval_usage(FILE *out)
{
    fputs(eval_head, out);
    cli_print_options(out, CLI_WEVAL);
}

/* `topomap workload --help`: both subcommands and their options (the man
 * page topomap-workload(1) is made from it). */
static void usage(FILE *out)
{
    fputs("usage: topomap workload eval   --topology T --jobs F [--routing R] [--at TIME] [--json]\n"
          "                               [--out F.csv|F.json] [--report F.html]\n"
          "       topomap workload replay --topology T --trace F [--json] [--out F.csv|F.json]\n"
          "                               [--policy all|as-recorded|slurm-tree|random|topomap[,..]]\n"
          "                               [--report F.html]\n"
          "\n"
          "Many jobs on one fabric (docs/workload.md).  'workload eval' evaluates every job\n"
          "of a jobs file alone and with the other jobs' traffic on the same links;\n"
          "'workload replay' replays a trace under node-choice policies and prints the\n"
          "slowdowns of each.  'topomap workload eval --help' and 'topomap workload replay\n"
          "--help' describe each.\n"
          "\n"
          "eval options:\n",
          out);
    cli_print_options(out, CLI_WEVAL);
    fputs("\nreplay options:\n", out);
    cli_print_options(out, CLI_WREPLAY);
}

static int check_args(const char *cmd, const wl_args *a)
{
    if (!a->in.topology)
        return cli_usage_error(cmd, "--topology is required");
    if (!a->jobs)
        return cli_usage_error(cmd, "--jobs is required");
    if (a->in.lmc_spread && (!a->in.routing || a->in.route.kind != TM_ROUTE_LFT))
        return cli_usage_error(cmd, "--lmc-spread needs forwarding tables (--routing lft:DIR)");
    if (a->in.roots && (!a->in.routing || a->in.route.kind != TM_ROUTE_UPDN))
        return cli_usage_error(cmd, "--root needs --routing updn");
    return -1;
}

/* The whole answer as one JSON document (stdout --json, --out F.json). */
static void eval_json(FILE *out, const wl_args *a, const wl_inputs *in, const wl_rows *x,
                      const tm_slowdown_stats *st, int32_t n_set, double secs)
{
    json_w j;
    json_begin(&j, out);
    json_obj_begin(&j, NULL);
    json_str(&j, "topology", a->in.topology);
    json_str(&j, "jobs_file", a->jobs);
    json_str(&j, "routing", tm_route_kind_name(tm_route_kind_of(in->route)));
    if (a->at)
        json_str(&j, "at", a->at);
    else
        json_null(&j, "at");
    json_int(&j, "n_jobs", in->w.n_jobs);
    json_int(&j, "n_running", n_set);
    json_int(&j, "skipped_steps", in->w.skipped_steps);
    json_int(&j, "skipped_not_started", in->w.skipped_not_started);
    json_arr_begin(&j, "jobs");
    for (int32_t i = 0; i < x->r->n_rows; i++)
        wl_json_row(&j, x, i);
    json_arr_end(&j);
    wl_json_fabric(&j, x);
    wl_json_stats(&j, "slowdown", st);
    json_num(&j, "time_s", secs);
    json_obj_end(&j);
    json_end(&j);
}

static void eval_csv(FILE *out, const wl_rows *x)
{
    wl_csv_header(out, false);
    for (int32_t i = 0; i < x->r->n_rows; i++)
        wl_csv_row(out, x, i);
}

static tm_err write_outs(tm_ctx *ctx, const wl_args *a, const wl_inputs *in, const wl_rows *x,
                         const tm_slowdown_stats *st, int32_t n_set, double secs)
{
    for (int i = 0; i < a->n_out; i++) {
        tm_ofile of;
        tm_err err = tm_ofile_open(ctx, a->out[i], &of);
        if (err)
            return err;
        if (strstr(a->out[i], ".json"))
            eval_json(of.fp, a, in, x, st, n_set, secs);
        else
            eval_csv(of.fp, x);
        if ((err = tm_ofile_commit(ctx, &of)))
            return err;
    }
    return TM_EOK;
}

static void eval_text(const wl_args *a, const wl_inputs *in, const wl_rows *x,
                      const tm_slowdown_stats *st, int32_t n_set, double secs)
{
    printf("topology     %s (%d hosts), routing %s\n", a->in.topology, tm_net_n_hosts(in->net),
           tm_route_kind_name(tm_route_kind_of(in->route)));
    printf("jobs         %s: %d jobs", a->jobs, in->w.n_jobs);
    if (a->at)
        printf(", %d running at %s", n_set, a->at);
    else
        printf(", all running at once");
    printf("\n\n");
    wl_print_rows(stdout, x);
    printf("\n");
    wl_print_shared(stdout, x);
    if (st->n)
        printf("slowdown     mean %.3fx, median %.3fx, max %.3fx; %d of %d jobs slowed by more "
               "than %.0f%%\n", st->mean, st->median, st->max, st->slowed, st->n,
               100 * (TM_SLOWED - 1));
    printf("time         %.3f s\n", secs);
    if (a->report)
        printf("report       %s\n", a->report);
}

static tm_err stats_of(tm_ctx *ctx, const tm_workload_result *r, tm_slowdown_stats *st)
{
    double *v = malloc(((size_t)r->n_rows + 1) * sizeof *v);
    tm_err err;
    if (!v)
        return tm_ctx_fail(ctx, TM_ENOMEM, "out of memory");
    for (int32_t i = 0; i < r->n_rows; i++)
        v[i] = r->rows[i].slowdown;
    err = tm_slowdown_stats_compute(ctx, v, r->n_rows, st);
    free(v);
    return err;
}

static int workload_eval(int argc, char **argv, cli_warns *w)
{
    const char *cmd = "topomap workload eval";
    wl_args a = {0};
    wl_parse p = {cmd, &a};
    tm_workload_eval_opts eo = TM_WORKLOAD_EVAL_OPTS_INIT;
    tm_workload_result res;
    tm_slowdown_stats st;
    tm_ctx *ctx = NULL;
    wl_inputs in;
    wl_rows x = {0};
    int32_t *set = NULL, n_set = 0;
    double t0 = cli_now();
    tm_err err;
    int rc = cli_parse_options(cmd, CLI_WEVAL, argc, argv, wl_option, &p, eval_usage);
    if (rc >= 0)
        return rc;
    if ((rc = check_args(cmd, &a)) >= 0)
        return rc;
    if (cli_ctx_new(&ctx, w))
        return TM_EXIT_INTERNAL;
    wl_inputs_init(&in);
    tm_workload_result_init(&res);
    err = tm_ctx_set_threads(ctx, (int)a.in.threads);
    if (!err)
        err = wl_inputs_load(ctx, &a, a.jobs, &in);
    if (!err)
        err = wl_at_set(ctx, &a, &in.w, &set, &n_set);
    if (!err) {
        eo.time = &in.topt;
        eo.set = set;
        eo.n_set = n_set;
        eo.keep_link_loads = a.report != NULL;
        err = tm_workload_eval(ctx, in.route, &in.w, &eo, &res);
    }
    x.net = in.net;
    x.w = &in.w;
    x.r = &res;
    if (!err)
        err = stats_of(ctx, &res, &st);
    if (!err)
        err = write_outs(ctx, &a, &in, &x, &st, n_set, cli_now() - t0);
    if (!err && a.report)
        err = wl_write_eval_report(ctx, &a, &in, &x);
    rc = 0;
    if (err) {
        rc = cli_report(ctx, w, "workload eval", err);
    } else if (a.json) {
        eval_json(stdout, &a, &in, &x, &st, n_set, cli_now() - t0);
    } else {
        eval_text(&a, &in, &x, &st, n_set, cli_now() - t0);
    }
    tm_workload_result_release(&res);
    wl_inputs_release(&in);
    free(set);
    tm_ctx_free(ctx);
    return rc;
}

int cmd_workload(int argc, char **argv, cli_warns *w)
{
    if (argc < 2) {
        usage(stderr);
        return TM_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "eval") == 0)
        return workload_eval(argc - 1, argv + 1, w);
    if (strcmp(argv[1], "replay") == 0)
        return cmd_replay(argc - 1, argv + 1, w);
    return cli_usage_error("topomap workload", "unknown subcommand '%s' (eval, replay)", argv[1]);
}
