/* cmd_workload_merge.c - `topomap workload merge F1 F2 ...`: the --out
 * files of the N shards of one `workload eval` or `workload replay --policy
 * as-recorded` joined into the command's own result (engine:
 * src/workload/merge.c over src/shard/; writers: workload_out.c, the same
 * as the unsharded command's, so its files come out byte for byte). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workload_cli.h"

static const char *const CMD = "topomap workload merge";

static const char usage_text[] =
    "usage: topomap workload merge F1 F2 ... [--out F.csv|F.json] [--json] [--report F.html]\n"
    "\n"
    "Joins the --out files of the N shards of one 'topomap workload eval --shard K/N'\n"
    "or 'topomap workload replay --policy as-recorded --shard K/N' (K = 0..N-1, all\n"
    "JSON or all CSV) into the command's result: every job's row in job order, the\n"
    "slowdowns' statistics (and a replay's summary) computed over all of them, printed\n"
    "as the command prints them.  --out F writes exactly the file the unsharded\n"
    "command writes.  The files must be the N shards of one run, each once (the same\n"
    "options and input files: their shard id); otherwise nothing is written and the\n"
    "error names the file (exit 2).  docs/workload.md \"Shards\".\n"
    "\n"
    "options:\n";

static void merge_usage(FILE *out)
{
    fputs(usage_text, out);
    cli_print_options(out, CLI_WMERGE);
}

/* What the merged files need that the shards may not hold. */
static tm_err check_outputs(tm_ctx *ctx, const cli_merge_args *a, const tm_workload_doc *d)
{
    if ((a->json_out || a->json) && !d->has_head)
        return tm_ctx_fail(ctx, TM_EUSAGE, "%s needs the shards' JSON files (a CSV holds the "
                           "rows only: not the %s); merge the JSON shards, or write F.csv",
                           a->json ? "--json" : "--out F.json",
                           d->replay ? "trace's times and timeline" : "fabric");
    if (a->report && !d->replay)
        return tm_ctx_fail(ctx, TM_EUSAGE, "--report: the page of a workload eval draws the "
                           "fabric by every job's load on each link, which the shards do not "
                           "hold; run 'topomap workload eval --report' without --shard");
    if (a->report && !d->has_head)
        return tm_ctx_fail(ctx, TM_EUSAGE, "--report needs the shards' JSON files (the "
                           "timeline is not in CSV)");
    return TM_EOK;
}

static tm_err run(tm_ctx *ctx, const cli_merge_args *a, char **paths, int n, tm_workload_doc *d,
                  int32_t *n_shards)
{
    FILE **fp = calloc((size_t)n, sizeof *fp);
    tm_err err = fp ? TM_EOK : tm_ctx_fail(ctx, TM_ENOMEM, "out of memory");
    for (int i = 0; !err && i < n; i++)
        if (!(fp[i] = fopen(paths[i], "r")))
            err = tm_ctx_fail(ctx, TM_EINPUT, "%s: %s", paths[i], strerror(errno));
    if (!err)
        err = tm_workload_merge(ctx, fp, (const char *const *)paths, n, d, n_shards);
    for (int i = 0; fp && i < n; i++)
        if (fp[i])
            fclose(fp[i]);
    free(fp);
    if (!err)
        err = check_outputs(ctx, a, d);
    if (!err)
        err = wl_write_outs(ctx, a->outs, a->n_outs, d, NULL);
    if (!err && a->report)
        err = wl_write_replay_report(ctx, d, a->report);
    return err;
}

static void print_text(const cli_merge_args *a, const tm_workload_doc *d, int32_t n_shards)
{
    if (d->has_head)
        printf("%-12s %s on %s, routing %s: %lld jobs\n\n", d->replay ? "trace" : "jobs",
               d->input, d->topology, d->routing, (long long)d->n_jobs);
    if (d->replay)
        wl_print_replay(stdout, d);
    else
        wl_print_eval(stdout, d);
    printf("merged       %d rows of a workload %s from %d shards\n", d->n_rows,
           d->replay ? "replay" : "eval", (int)n_shards);
    if (a->report)
        printf("report       %s\n", a->report);
}

int cmd_workload_merge(int argc, char **argv, cli_warns *w)
{
    cli_merge_args a;
    tm_workload_doc d;
    tm_ctx *ctx = NULL;
    int32_t n_shards = 0;
    int first = argc, rc;
    tm_err err;
    memset(&a, 0, sizeof a);
    a.cmd = CMD;
    tm_workload_doc_init(&d);
    if (!cli_parse_options_args(CMD, CLI_WMERGE, argc, argv, cli_merge_option, &a, merge_usage,
                                &first, &rc))
        return rc;
    if (first >= argc)
        return cli_usage_error(CMD, "give the shards' files (the --out files of 'topomap "
                                    "workload eval --shard K/N', or of replay, every K of one N)");
    if (cli_ctx_new(&ctx, w))
        return TM_EXIT_INTERNAL;
    err = run(ctx, &a, argv + first, argc - first, &d, &n_shards);
    rc = err ? cli_report(ctx, w, "workload merge", err) : 0;
    if (!err && a.json)
        wl_write_json(stdout, &d, NULL, NAN);
    else if (!err)
        print_text(&a, &d, n_shards);
    tm_workload_doc_release(&d);
    tm_ctx_free(ctx);
    return rc;
}
