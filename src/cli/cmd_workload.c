/* cmd_workload.c - `topomap workload eval`: every job of a jobs file alone
 * and with the others' traffic on the same links, and the fabric's load
 * (docs/workload.md); `workload replay` is cmd_replay.c. */
#include <stdlib.h>
#include <string.h>

#include "workload_cli.h"

static const char eval_head[] =
    "usage: topomap workload eval --topology T --jobs F|--slurm|--slurm-state DIR [--routing R]\n"
    "                             [--at TIME] [--json] [--out F.csv|F.json] [--report F.html]\n"
    "                             [--shard K/N]\n"
    "\n"
    "Evaluates every job of the jobs file F on the fabric T: alone (max congestion,\n"
    "average dilation, J and est_time_s, as 'topomap eval' of the job) and shared: its\n"
    "congestion over the links it uses with every job's traffic on them, its\n"
    "est_time_s with the other jobs' flows in the same max-min simulation, and the\n"
    "slowdown (shared / alone); then the fabric's max congestion and the links\n"
    "where jobs collide, with which jobs.  Every job runs at once (or those running\n"
    "at --at).  --shard K/N evaluates one shard of the jobs' rows (a Slurm job\n"
    "array: docs/slurm.md); 'topomap workload merge' joins the shards' --out files\n"
    "into exactly the unsharded files.  docs/workload.md.\n"
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
    fputs("usage: topomap workload eval   --topology T --jobs F|--slurm|--slurm-state DIR\n"
          "                               [--routing R] [--at TIME] [--json] [--out F.csv|F.json]\n"
          "                               [--report F.html] [--shard K/N]\n"
          "       topomap workload replay --topology T --trace F [--json] [--out F.csv|F.json]\n"
          "                               [--policy all|as-recorded|slurm-tree|random|topomap[,..]]\n"
          "                               [--report F.html] [--shard K/N]\n"
          "       topomap workload merge  F1 F2 ... [--out F.csv|F.json] [--json] [--report F.html]\n"
          "\n"
          "Many jobs on one fabric (docs/workload.md).  'workload eval' evaluates every job\n"
          "of a jobs file alone and with the other jobs' traffic on the same links;\n"
          "'workload replay' replays a trace under node-choice policies and prints the\n"
          "slowdowns of each; 'workload merge' joins the --out files of the shards of one\n"
          "eval or as-recorded replay (--shard K/N) into the unsharded result.  'topomap\n"
          "workload eval --help', 'topomap workload replay --help' and 'topomap workload\n"
          "merge --help' describe each.\n"
          "\n"
          "eval options:\n",
          out);
    cli_print_options(out, CLI_WEVAL);
    fputs("\nreplay options:\n", out);
    cli_print_options(out, CLI_WREPLAY);
    fputs("\nmerge options:\n", out);
    cli_print_options(out, CLI_WMERGE);
}

/* The options eval needs together: TM_EUSAGE (printed) when one is missing
 * or needs another. */
static tm_err check_args(const char *cmd, const wl_args *a)
{
    if (!a->in.topology)
        return cli_usage_error(cmd, "--topology is required"), TM_EUSAGE;
    if (wl_check_jobs_source(cmd, a, true))
        return TM_EUSAGE;
    if (a->in.lmc_spread && (!a->in.routing || a->in.route.kind != TM_ROUTE_LFT))
        return cli_usage_error(cmd, "--lmc-spread needs forwarding tables (--routing lft:DIR)"),
               TM_EUSAGE;
    if (a->in.roots && (!a->in.routing || a->in.route.kind != TM_ROUTE_UPDN))
        return cli_usage_error(cmd, "--root needs --routing updn"), TM_EUSAGE;
    return TM_EOK;
}

static void eval_text(const wl_args *a, const wl_inputs *in, const tm_workload_doc *d,
                      const wl_shard_out *sh, double secs)
{
    printf("topology     %s (%d hosts), routing %s\n", a->in.topology, tm_net_n_hosts(in->net),
           tm_route_kind_name(tm_route_kind_of(in->route)));
    printf("jobs         %s: %d jobs", wl_jobs_source(a), in->w.n_jobs);
    if (a->at)
        printf(", %lld running at %s", (long long)d->n_running, a->at);
    else
        printf(", all running at once");
    printf("\n\n");
    wl_print_eval(stdout, d);
    if (sh)
        printf("shard        %d/%d: %d of the %lld jobs' rows (their figures with every job "
               "running); 'topomap workload merge' joins the shards' --out files\n",
               (int)sh->sh.k, (int)sh->sh.n, d->n_rows, (long long)sh->total);
    printf("time         %.3f s\n", secs);
    if (a->report)
        printf("report       %s\n", a->report);
}

/* Shard K's rows: the jobs of the set tm_shard_assign gives it, by their
 * cost; their positions in the set. */
static tm_err shard_rows(tm_ctx *ctx, const wl_args *a, const wl_inputs *in, const int32_t *set,
                         int32_t n_set, int32_t **rows, int64_t **pos, int32_t *n_rows)
{
    int32_t *all = malloc(((size_t)n_set + 1) * sizeof *all);
    int32_t *owner = malloc(((size_t)n_set + 1) * sizeof *owner);
    int64_t *cost = malloc(((size_t)n_set + 1) * sizeof *cost);
    tm_err err = TM_EOK;
    *rows = malloc(((size_t)n_set + 1) * sizeof **rows);
    *pos = malloc(((size_t)n_set + 1) * sizeof **pos);
    *n_rows = 0;
    if (!all || !owner || !cost || !*rows || !*pos) {
        err = tm_ctx_fail(ctx, TM_ENOMEM, "out of memory");
        goto out;
    }
    if (n_set < a->shard.n) {
        err = tm_ctx_fail(ctx, TM_EUSAGE, "--shard %d/%d: %d job%s %s, so at most %d shards "
                          "(each shard evaluates at least one)", (int)a->shard.k,
                          (int)a->shard.n, (int)n_set, n_set == 1 ? "" : "s",
                          a->at ? "run at --at" : "in the jobs file", (int)n_set);
        goto out;
    }
    for (int32_t i = 0; i < n_set; i++)
        all[i] = set ? set[i] : i;
    tm_workload_eval_costs(ctx, &in->w, &in->topt, all, n_set, cost);
    if ((err = tm_shard_assign(ctx, cost, n_set, a->shard.n, owner)))
        goto out;
    for (int32_t i = 0; i < n_set; i++)
        if (owner[i] == a->shard.k) {
            (*pos)[*n_rows] = i;
            (*rows)[(*n_rows)++] = all[i];
        }
out:
    free(all);
    free(owner);
    free(cost);
    return err;
}

static int workload_eval(int argc, char **argv, cli_warns *w)
{
    const char *cmd = "topomap workload eval";
    static wl_args a;
    wl_parse p = {cmd, &a};
    tm_workload_eval_opts eo = TM_WORKLOAD_EVAL_OPTS_INIT;
    tm_workload_result res;
    tm_ctx *ctx = NULL;
    wl_inputs in;
    tm_workload_doc doc;
    wl_shard_out sh;
    int32_t *set = NULL, n_set = 0, *rows = NULL, n_rows = 0;
    int64_t *pos = NULL;
    double t0 = cli_now();
    tm_err err;
    int rc;
    memset(&a, 0, sizeof a);
    if (!cli_parse_options(cmd, CLI_WEVAL, argc, argv, wl_option, &p, eval_usage, &rc))
        return rc;
    if (check_args(cmd, &a))
        return TM_EXIT_USAGE;
    if (a.shard.n && a.report)
        return cli_usage_error(cmd, "--report with --shard: a shard has only its rows; the page "
                                    "of every job: without --shard");
    if (cli_ctx_new(&ctx, w))
        return TM_EXIT_INTERNAL;
    wl_inputs_init(&in);
    tm_workload_result_init(&res);
    tm_workload_doc_init(&doc);
    memset(&sh, 0, sizeof sh);
    err = tm_ctx_set_threads(ctx, (int)a.in.threads);
    if (!err)
        err = wl_inputs_load(ctx, &a, a.jobs, &in);
    if (!err)
        err = wl_at_set(ctx, &a, &in.w, &set, &n_set);
    if (!err && a.shard.n) {
        err = shard_rows(ctx, &a, &in, set, n_set, &rows, &pos, &n_rows);
        if (!err)
            err = wl_shard_id(ctx, "workload eval", &a, &in.w, sh.id);
        sh.sh = a.shard;
        sh.total = n_set;
        sh.pos = pos;
    }
    if (!err) {
        eo.time = &in.topt;
        eo.set = set;
        eo.n_set = n_set;
        eo.rows = rows;
        eo.n_rows = n_rows;
        eo.keep_link_loads = a.report != NULL;
        err = tm_workload_eval(ctx, in.route, &in.w, &eo, &res);
    }
    if (!err)
        err = wl_doc_eval(ctx, &a, &in, n_set, &res, &doc);
    if (!err && !a.shard.n)
        err = tm_workload_doc_summarize(ctx, &doc);
    if (!err)
        err = wl_write_outs(ctx, a.out, a.n_out, &doc, a.shard.n ? &sh : NULL);
    if (!err && a.report)
        err = wl_write_eval_report(ctx, &a, &in, &res);
    rc = 0;
    if (err)
        rc = cli_report(ctx, w, "workload eval", err);
    else if (a.json)
        wl_write_json(stdout, &doc, a.shard.n ? &sh : NULL, cli_now() - t0);
    else
        eval_text(&a, &in, &doc, a.shard.n ? &sh : NULL, cli_now() - t0);
    tm_workload_doc_release(&doc);
    tm_workload_result_release(&res);
    wl_inputs_release(&in);
    free(set);
    free(rows);
    free(pos);
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
    if (strcmp(argv[1], "merge") == 0)
        return cmd_workload_merge(argc - 1, argv + 1, w);
    return cli_usage_error("topomap workload", "unknown subcommand '%s' (eval, replay, merge)",
                           argv[1]);
}
