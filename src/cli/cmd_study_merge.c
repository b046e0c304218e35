/* cmd_study_merge.c - `topomap study merge F1 F2 ...`: the --out files of
 * the N shards of one study joined into the study's own result (engine:
 * src/study/merge.c over src/shard/; writers: study_out.c, the same as the
 * unsharded study's, so its files come out byte for byte). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "study_cli.h"

static const char *const CMD = "topomap study merge";

static const char usage_text[] =
    "usage: topomap study merge F1 F2 ... [--out F.csv|F.json] [--report F.html]\n"
    "\n"
    "Joins the --out files of the N shards of one study ('topomap study --shard K/N\n"
    "--out F', K = 0..N-1, all JSON or all CSV) into the study's result: the rows of\n"
    "every run in grid order, the mean and worst rows of random failures computed\n"
    "over all samples, printed as the study prints them.  --out F writes exactly the\n"
    "file the unsharded study writes.  The files must be the N shards of one study,\n"
    "each once (the same options and input files: their shard id); otherwise nothing\n"
    "is written and the error names the file (exit 2).  docs/study.md \"Shards\".\n"
    "\n"
    "options:\n";

static void merge_usage(FILE *out)
{
    fputs(usage_text, out);
    cli_print_options(out, CLI_STUDY_MERGE);
}

/* Opens the n files; on failure the error names the file (exit 2). */
static tm_err open_all(tm_ctx *ctx, char **paths, int n, FILE **fp)
{
    for (int i = 0; i < n; i++)
        if (!(fp[i] = fopen(paths[i], "r")))
            return tm_ctx_fail(ctx, TM_EINPUT, "%s: %s", paths[i], strerror(errno));
    return TM_EOK;
}

static tm_err run(tm_ctx *ctx, const cli_merge_args *a, char **paths, int n, tm_study_merged *m)
{
    FILE **fp = calloc((size_t)n, sizeof *fp);
    study_outputs o;
    tm_err err = fp ? open_all(ctx, paths, n, fp) : tm_ctx_fail(ctx, TM_ENOMEM, "out of memory");
    if (!err)
        err = tm_study_merge(ctx, fp, (const char *const *)paths, n, m);
    for (int i = 0; fp && i < n; i++)
        if (fp[i])
            fclose(fp[i]);
    free(fp);
    if (err)
        return err;
    if (a->json_out && !m->has_grid)
        return tm_ctx_fail(ctx, TM_EUSAGE, "--out F.json needs the shards' JSON files (a CSV "
                           "holds no grid: alloc, refine, seed); merge the JSON shards, or write "
                           "F.csv");
    memset(&o, 0, sizeof o);
    o.outs = a->outs;
    o.n_outs = a->n_outs;
    o.report = a->report;
    o.seed = (long)m->seed;
    m->spec.alloc = m->alloc; /* the grid's own labels ("all hosts", "none") */
    m->spec.refine = m->refine;
    return study_write_all(ctx, &o, &(study_grid){&m->spec, m->comm_names}, &m->res);
}

int cmd_study_merge(int argc, char **argv, cli_warns *w)
{
    cli_merge_args a;
    tm_study_merged m;
    tm_ctx *ctx = NULL;
    int first = argc, rc;
    tm_err err;
    memset(&a, 0, sizeof a);
    a.cmd = CMD;
    memset(&m, 0, sizeof m);
    if (!cli_parse_options_args(CMD, CLI_STUDY_MERGE, argc, argv, cli_merge_option, &a,
                                merge_usage, &first, &rc))
        return rc;
    if (first >= argc)
        return cli_usage_error(CMD, "give the shards' files (the --out files of 'topomap study "
                                    "--shard K/N', every K of one N)");
    if (cli_ctx_new(&ctx, w))
        return TM_EXIT_INTERNAL;
    err = run(ctx, &a, argv + first, argc - first, &m);
    if (err) {
        rc = cli_report(ctx, w, "study merge", err);
    } else {
        rc = 0;
        study_print_table(stdout, &(study_grid){&m.spec, m.comm_names}, &m.res);
        printf("%d runs, merged from %d shards\n", m.res.n_runs, (int)m.n_shards);
    }
    tm_study_merged_release(&m);
    tm_ctx_free(ctx);
    return rc;
}
