/* cmd_replay.c - `topomap workload replay`: a trace replayed under node-
 * choice policies, every job evaluated with the jobs running beside it,
 * the slowdowns of each policy and the fabric's load over time
 * (docs/workload.md "replay"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workload_cli.h"

static const char usage_head[] =
    "usage: topomap workload replay --topology T --trace F [--json] [--out F.csv|F.json]\n"
    "                               [--policy all|as-recorded|slurm-tree|random|topomap[,..]]\n"
    "                               [--report F.html] [--shard K/N]\n"
    "\n"
    "Replays the trace F (a jobs file with Start and End): at each start, the job is\n"
    "placed by the policy among the nodes free under that policy's own history, and\n"
    "every job is evaluated with the jobs running beside it (est_time_s with their\n"
    "flows, as 'workload eval'), weighted over the intervals of its run.  Prints the\n"
    "distribution of slowdowns of every policy and the fabric's max congestion over\n"
    "time.  The recorded times are kept: the replay compares placements, it does not\n"
    "re-schedule.  With --policy as-recorded, --shard K/N replays one shard of the\n"
    "jobs' rows (a Slurm job array: docs/slurm.md); 'topomap workload merge' joins\n"
    "the shards' --out files into exactly the unsharded files.  docs/workload.md.\n"
    "\n"
    "options:\n";

static void usage(FILE *out)
{
    fputs(usage_head, out);
    cli_print_options(out, CLI_WREPLAY);
}

#define MAX_POLICIES 4

typedef struct replay_run {
    int n;
    tm_replay_policy policy[MAX_POLICIES];
    tm_replay_result res[MAX_POLICIES];
} replay_run;

/* --policy's list into rr: TM_EUSAGE (printed) on an unknown or repeated
 * policy. */
static tm_err parse_policies(const char *cmd, const char *list, replay_run *rr)
{
    char buf[256];
    char *save = NULL;
    if (!list || strcmp(list, "all") == 0)
        list = "as-recorded,slurm-tree,random,topomap";
    snprintf(buf, sizeof buf, "%s", list);
    rr->n = 0;
    for (char *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        int k = tm_replay_policy_parse(p);
        if (k < 0)
            return cli_usage_error(cmd, "unknown --policy '%s' (as-recorded, slurm-tree, random, "
                                        "topomap, all)", p), TM_EUSAGE;
        for (int i = 0; i < rr->n; i++)
            if (rr->policy[i] == (tm_replay_policy)k)
                return cli_usage_error(cmd, "--policy names '%s' twice", p), TM_EUSAGE;
        if (rr->n >= MAX_POLICIES)
            return cli_usage_error(cmd, "--policy: at most %d policies", MAX_POLICIES), TM_EUSAGE;
        rr->policy[rr->n++] = (tm_replay_policy)k;
    }
    return TM_EOK;
}

static void replay_text(const wl_args *a, const wl_inputs *in, const tm_workload_doc *d,
                        const wl_shard_out *sh, double secs)
{
    printf("topology     %s (%d hosts), routing %s\n", a->in.topology, tm_net_n_hosts(in->net),
           tm_route_kind_name(tm_route_kind_of(in->route)));
    printf("trace        %s: %d jobs from %s to %s\n\n", a->jobs, in->w.n_jobs, d->start, d->end);
    wl_print_replay(stdout, d);
    if (sh)
        printf("shard        %d/%d: %d of the %lld jobs' rows (each with the jobs overlapping "
               "its run); 'topomap workload merge' joins the shards' --out files\n",
               (int)sh->sh.k, (int)sh->sh.n, d->n_rows, (long long)sh->total);
    printf("time         %.3f s\n", secs);
    if (a->report)
        printf("report       %s\n", a->report);
}

/* The result as printed: every policy's rows, then every policy's
 * intervals. */
static tm_err make_doc(tm_ctx *ctx, const wl_args *a, const wl_inputs *in, const replay_run *rr,
                       tm_workload_doc *d)
{
    const char **names = tm_workload_doc_keep(d, calloc((size_t)rr->n + 1, sizeof *names));
    int32_t nr = 0, ni = 0;
    char t[64];
    tm_err err = TM_EOK;
    d->replay = d->has_head = true;
    d->topology = a->in.topology;
    d->input = a->jobs;
    d->routing = tm_route_kind_name(tm_route_kind_of(in->route));
    d->n_jobs = in->w.n_jobs;
    wl_time_str(rr->res[0].start, t, sizeof t);
    d->start = tm_workload_doc_str(d, t);
    wl_time_str(rr->res[0].end, t, sizeof t);
    d->end = tm_workload_doc_str(d, t);
    d->duration_s = rr->res[0].end - rr->res[0].start;
    for (int p = 0; p < rr->n; p++) {
        nr += rr->res[p].n_rows;
        ni += rr->res[p].n_intervals;
    }
    d->rows = tm_workload_doc_keep(d, calloc((size_t)nr + 1, sizeof *d->rows));
    d->timeline = tm_workload_doc_keep(d, calloc((size_t)ni + 1, sizeof *d->timeline));
    if (!names || !d->start || !d->end || !d->rows || !d->timeline)
        return tm_ctx_fail(ctx, TM_ENOMEM, "out of memory");
    for (int p = 0; p < rr->n; p++)
        names[p] = tm_replay_policy_name(rr->policy[p]);
    d->policies = names;
    d->n_policies = rr->n;
    for (int p = 0; p < rr->n && !err; p++)
        for (int32_t i = 0; i < rr->res[p].n_rows && !err; i++) {
            const tm_replay_row *row = &rr->res[p].rows[i];
            err = wl_doc_row(d, in->net, &in->w, &row->r, row->hosts, row, names[p],
                             &d->rows[d->n_rows]);
            d->n_rows += !err;
        }
    for (int p = 0; p < rr->n; p++)
        for (int32_t i = 0; i < rr->res[p].n_intervals; i++) {
            const tm_replay_interval *iv = &rr->res[p].intervals[i];
            d->timeline[d->n_intervals++] = (tm_workload_interval){
                names[p], iv->t0, iv->t1, iv->running, iv->busy_nodes, iv->max_congestion};
        }
    return err ? tm_ctx_fail(ctx, TM_ENOMEM, "out of memory") : TM_EOK;
}

/* Shard K's rows (tm_replay_shard_owners), by index; their positions are
 * their indices. */
static tm_err shard_rows(tm_ctx *ctx, const wl_args *a, const wl_inputs *in, int32_t **rows,
                         int64_t **pos, int32_t *n_rows)
{
    int32_t n = in->w.n_jobs;
    int32_t *owner = malloc(((size_t)n + 1) * sizeof *owner);
    tm_err err = TM_EOK;
    *rows = malloc(((size_t)n + 1) * sizeof **rows);
    *pos = malloc(((size_t)n + 1) * sizeof **pos);
    *n_rows = 0;
    if (!owner || !*rows || !*pos)
        err = tm_ctx_fail(ctx, TM_ENOMEM, "out of memory");
    else if (n < a->shard.n)
        err = tm_ctx_fail(ctx, TM_EUSAGE, "--shard %d/%d: the trace has %d job%s, so at most %d "
                          "shards (each shard replays at least one)", (int)a->shard.k,
                          (int)a->shard.n, (int)n, n == 1 ? "" : "s", (int)n);
    else
        err = tm_replay_shard_owners(ctx, &in->w, &in->topt, a->shard.n, owner);
    for (int32_t j = 0; !err && j < n; j++)
        if (owner[j] == a->shard.k) {
            (*pos)[*n_rows] = j;
            (*rows)[(*n_rows)++] = j;
        }
    free(owner);
    return err;
}

/* Runs every policy (rows: as-recorded's rows of a shard, NULL: all). */
static tm_err run(tm_ctx *ctx, const wl_args *a, wl_inputs *in, const int32_t *rows,
                  int32_t n_rows, replay_run *rr)
{
    tm_replay_opts o = TM_REPLAY_OPTS_INIT;
    tm_slurm_tree *tree = NULL;
    tm_alloc part;
    tm_err err = TM_EOK;
    tm_alloc_init(&part);
    if (a->partition)
        err = tm_alloc_from_hostlist(ctx, in->net, a->partition, &part);
    if (!err)
        err = wl_slurm_topology(ctx, a, in->net, &tree);
    if (!err && tree && tm_slurm_tree_blocks(tree) > 0)
        err = tm_ctx_fail(ctx, TM_EUSAGE, "%s: a topology/block description: the replay's "
                          "slurm-tree policy needs Slurm's switches", a->slurm_topology);
    o.time = &in->topt;
    o.partition = a->partition ? part.host : NULL;
    o.n_partition = part.n;
    o.tree = tree;
    o.seed = (uint64_t)a->seed;
    o.rows = rows;
    o.n_rows = n_rows;
    for (int p = 0; p < rr->n && !err; p++)
        err = tm_replay(ctx, in->route, &in->w, rr->policy[p], &o, &rr->res[p]);
    tm_slurm_tree_free(tree);
    tm_alloc_release(&part);
    return err;
}

int cmd_replay(int argc, char **argv, cli_warns *w)
{
    const char *cmd = "topomap workload replay";
    static wl_args a;
    wl_parse ps = {cmd, &a};
    replay_run rr;
    tm_ctx *ctx = NULL;
    wl_inputs in;
    tm_workload_doc doc;
    wl_shard_out sh;
    int32_t *rows = NULL, n_rows = 0;
    int64_t *pos = NULL;
    double t0 = cli_now();
    tm_err err;
    int rc;
    memset(&a, 0, sizeof a);
    memset(&rr, 0, sizeof rr);
    a.seed = 1;
    if (!cli_parse_options(cmd, CLI_WREPLAY, argc, argv, wl_option, &ps, usage, &rc))
        return rc;
    if (!a.in.topology)
        return cli_usage_error(cmd, "--topology is required");
    if (!a.jobs)
        return cli_usage_error(cmd, "--trace is required");
    if (parse_policies(cmd, a.policy, &rr))
        return TM_EXIT_USAGE;
    if (a.shard.n && (rr.n != 1 || rr.policy[0] != TM_REPLAY_RECORDED))
        return cli_usage_error(cmd, "--shard needs --policy as-recorded: every other policy "
                                    "places a job on the nodes its own earlier choices left "
                                    "free, so each row depends on every job before it");
    if (a.shard.n && a.report)
        return cli_usage_error(cmd, "--report with --shard: a shard has only its rows; give "
                                    "--report to 'topomap workload merge'");
    if (cli_ctx_new(&ctx, w))
        return TM_EXIT_INTERNAL;
    wl_inputs_init(&in);
    tm_workload_doc_init(&doc);
    memset(&sh, 0, sizeof sh);
    err = tm_ctx_set_threads(ctx, (int)a.in.threads);
    if (!err)
        err = wl_inputs_load(ctx, &a, a.jobs, &in);
    if (!err && !in.w.has_times)
        err = tm_ctx_fail(ctx, TM_EUSAGE, "%s has no Start and End columns: a trace needs "
                          "them (sacct -o ...,Start,End)", a.jobs);
    if (!err && in.w.n_jobs == 0)
        err = tm_ctx_fail(ctx, TM_EINPUT, "%s: no job that ran", a.jobs);
    if (!err && a.shard.n) {
        err = shard_rows(ctx, &a, &in, &rows, &pos, &n_rows);
        if (!err)
            err = wl_shard_id(ctx, "workload replay", &a, &in.w, sh.id);
        sh.sh = a.shard;
        sh.total = in.w.n_jobs;
        sh.pos = pos;
    }
    if (!err)
        err = run(ctx, &a, &in, rows, n_rows, &rr);
    if (!err)
        err = make_doc(ctx, &a, &in, &rr, &doc);
    if (!err && !a.shard.n)
        err = tm_workload_doc_summarize(ctx, &doc);
    if (!err)
        err = wl_write_outs(ctx, a.out, a.n_out, &doc, a.shard.n ? &sh : NULL);
    if (!err && a.report)
        err = wl_write_replay_report(ctx, &doc, a.report);
    rc = 0;
    if (err)
        rc = cli_report(ctx, w, "workload replay", err);
    else if (a.json)
        wl_write_json(stdout, &doc, a.shard.n ? &sh : NULL, cli_now() - t0);
    else
        replay_text(&a, &in, &doc, a.shard.n ? &sh : NULL, cli_now() - t0);
    tm_workload_doc_release(&doc);
    for (int p = 0; p < MAX_POLICIES; p++)
        tm_replay_result_release(&rr.res[p]);
    wl_inputs_release(&in);
    free(rows);
    free(pos);
    tm_ctx_free(ctx);
    return rc;
}
