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
    "                               [--report F.html]\n"
    "\n"
    "Replays the trace F (a jobs file with Start and End): at each start, the job is\n"
    "placed by the policy among the nodes free under that policy's own history, and\n"
    "every job is evaluated with the jobs running beside it (est_time_s with their\n"
    "flows, as 'workload eval'), weighted over the intervals of its run.  Prints the\n"
    "distribution of slowdowns of every policy and the fabric's max congestion over\n"
    "time.  The recorded times are kept: the replay compares placements, it does not\n"
    "re-schedule.  docs/workload.md.\n"
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
    tm_slowdown_stats st[MAX_POLICIES];
    tm_workload_result rows[MAX_POLICIES]; /* the rows' tm_job_result, for the writers */
} replay_run;

static int parse_policies(const char *cmd, const char *list, replay_run *rr)
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
                                        "topomap, all)", p);
        for (int i = 0; i < rr->n; i++)
            if (rr->policy[i] == (tm_replay_policy)k)
                return cli_usage_error(cmd, "--policy names '%s' twice", p);
        if (rr->n >= MAX_POLICIES)
            return cli_usage_error(cmd, "--policy: at most %d policies", MAX_POLICIES);
        rr->policy[rr->n++] = (tm_replay_policy)k;
    }
    return -1;
}

/* The peak and the time-weighted mean of the fabric's max congestion. */
static void fabric_over_time(const tm_replay_result *r, double *peak, double *mean)
{
    double w = 0, s = 0;
    *peak = 0;
    for (int32_t i = 0; i < r->n_intervals; i++) {
        const tm_replay_interval *iv = &r->intervals[i];
        *peak = fmax(*peak, iv->max_congestion);
        s += (iv->t1 - iv->t0) * iv->max_congestion;
        w += iv->t1 - iv->t0;
    }
    *mean = w > 0 ? s / w : 0;
}

static wl_rows rows_of(const wl_inputs *in, const replay_run *rr, int p)
{
    wl_rows x = {in->net, &in->w, &rr->rows[p], tm_replay_policy_name(rr->policy[p]),
                 rr->res[p].rows};
    return x;
}

static void replay_json(FILE *out, const wl_args *a, const wl_inputs *in, const replay_run *rr,
                        double secs)
{
    json_w j;
    char t[64];
    json_begin(&j, out);
    json_obj_begin(&j, NULL);
    json_str(&j, "topology", a->in.topology);
    json_str(&j, "trace", a->jobs);
    json_str(&j, "routing", tm_route_kind_name(tm_route_kind_of(in->route)));
    json_int(&j, "n_jobs", in->w.n_jobs);
    wl_time_str(rr->res[0].start, t, sizeof t);
    json_str(&j, "start", t);
    wl_time_str(rr->res[0].end, t, sizeof t);
    json_str(&j, "end", t);
    json_arr_begin(&j, "policies");
    for (int p = 0; p < rr->n; p++)
        json_str(&j, NULL, tm_replay_policy_name(rr->policy[p]));
    json_arr_end(&j);
    json_arr_begin(&j, "summary");
    for (int p = 0; p < rr->n; p++) {
        double peak, mean;
        fabric_over_time(&rr->res[p], &peak, &mean);
        json_obj_begin(&j, NULL);
        json_str(&j, "policy", tm_replay_policy_name(rr->policy[p]));
        json_int(&j, "jobs", rr->res[p].n_rows);
        json_int(&j, "not_placed", rr->res[p].not_placed);
        wl_json_stats(&j, "slowdown", &rr->st[p]);
        json_num(&j, "max_congestion_peak", peak);
        json_num(&j, "max_congestion_mean", mean);
        json_obj_end(&j);
    }
    json_arr_end(&j);
    json_arr_begin(&j, "jobs");
    for (int p = 0; p < rr->n; p++) {
        wl_rows x = rows_of(in, rr, p);
        for (int32_t i = 0; i < rr->res[p].n_rows; i++)
            wl_json_row(&j, &x, i);
    }
    json_arr_end(&j);
    json_arr_begin(&j, "timeline");
    for (int p = 0; p < rr->n; p++)
        for (int32_t i = 0; i < rr->res[p].n_intervals; i++) {
            const tm_replay_interval *iv = &rr->res[p].intervals[i];
            json_obj_begin(&j, NULL);
            json_str(&j, "policy", tm_replay_policy_name(rr->policy[p]));
            json_num(&j, "t0", iv->t0);
            json_num(&j, "t1", iv->t1);
            json_int(&j, "running", iv->running);
            json_int(&j, "busy_nodes", iv->busy_nodes);
            json_num(&j, "max_congestion", iv->max_congestion);
            json_obj_end(&j);
        }
    json_arr_end(&j);
    json_num(&j, "time_s", secs);
    json_obj_end(&j);
    json_end(&j);
}

static void replay_csv(FILE *out, const wl_inputs *in, const replay_run *rr)
{
    wl_csv_header(out, true);
    for (int p = 0; p < rr->n; p++) {
        wl_rows x = rows_of(in, rr, p);
        for (int32_t i = 0; i < rr->res[p].n_rows; i++)
            wl_csv_row(out, &x, i);
    }
}

static void replay_text(const wl_args *a, const wl_inputs *in, const replay_run *rr, double secs)
{
    char t0[64], t1[64];
    wl_time_str(rr->res[0].start, t0, sizeof t0);
    wl_time_str(rr->res[0].end, t1, sizeof t1);
    printf("topology     %s (%d hosts), routing %s\n", a->in.topology, tm_net_n_hosts(in->net),
           tm_route_kind_name(tm_route_kind_of(in->route)));
    printf("trace        %s: %d jobs from %s to %s\n\n", a->jobs, in->w.n_jobs, t0, t1);
    printf("%-12s %6s %6s %9s %9s %9s %9s %9s %7s %14s %14s\n", "policy", "jobs", "unplaced",
           "mean", "median", "p90", "p99", "max", "slowed", "cong peak", "cong mean");
    for (int p = 0; p < rr->n; p++) {
        const tm_slowdown_stats *s = &rr->st[p];
        double peak, mean;
        fabric_over_time(&rr->res[p], &peak, &mean);
        printf("%-12s %6d %6d %8.3fx %8.3fx %8.3fx %8.3fx %8.3fx %7d %14.6g %14.6g\n",
               tm_replay_policy_name(rr->policy[p]), rr->res[p].n_rows, rr->res[p].not_placed,
               s->mean, s->median, s->p90, s->p99, s->max, s->slowed, peak, mean);
    }
    printf("\n(slowdown: each job's est. time with the jobs running beside it over its time "
           "alone,\n time-weighted over its run; slowed: above %.2fx; cong: the fabric's max "
           "congestion\n over time)\n", TM_SLOWED);
    if (in->w.n_jobs <= 40) {
        printf("\n%-12s %5s", "job", "nodes");
        for (int p = 0; p < rr->n; p++)
            printf(" %12.12s", tm_replay_policy_name(rr->policy[p]));
        printf("   (slowdown by policy)\n");
        for (int32_t i = 0; i < rr->res[0].n_rows; i++) {
            const tm_job *job = &in->w.job[rr->res[0].rows[i].r.job];
            printf("%-12s %5d", job->id, job->n_hosts);
            for (int p = 0; p < rr->n; p++) {
                const tm_replay_row *r = &rr->res[p].rows[i];
                if (r->placed)
                    printf(" %11.3fx", r->r.slowdown);
                else
                    printf(" %12s", "unplaced");
            }
            printf("\n");
        }
    }
    printf("time         %.3f s\n", secs);
    if (a->report)
        printf("report       %s\n", a->report);
}

static tm_err write_outs(tm_ctx *ctx, const wl_args *a, const wl_inputs *in,
                         const replay_run *rr, double secs)
{
    for (int i = 0; i < a->n_out; i++) {
        tm_ofile of;
        tm_err err = tm_ofile_open(ctx, a->out[i], &of);
        if (err)
            return err;
        if (strstr(a->out[i], ".json"))
            replay_json(of.fp, a, in, rr, secs);
        else
            replay_csv(of.fp, in, rr);
        if ((err = tm_ofile_commit(ctx, &of)))
            return err;
    }
    return TM_EOK;
}

/* The page: every policy's slowdowns and fabric load over time, the jobs
 * of every policy (tm_report_write_workload, docs/report.md). */
static tm_err write_report(tm_ctx *ctx, const wl_args *a, const wl_inputs *in,
                           const replay_run *rr)
{
    tm_report_workload rep;
    int32_t total = 0, k = 0;
    tm_report_job *jobs;
    tm_report_series cong[MAX_POLICIES], busy;
    const char *names[MAX_POLICIES];
    const double *slow[MAX_POLICIES];
    int32_t n_slow[MAX_POLICIES];
    double *buf[MAX_POLICIES] = {NULL}, *tb[2 * MAX_POLICIES + 2] = {NULL}, *busy_v = NULL;
    char sub[1024];
    tm_err err = TM_EOK;
    for (int p = 0; p < rr->n; p++)
        total += rr->res[p].n_rows;
    jobs = calloc((size_t)total + 1, sizeof *jobs);
    for (int p = 0; p < rr->n && jobs; p++) {
        const tm_replay_result *r = &rr->res[p];
        int32_t ns = 0;
        names[p] = tm_replay_policy_name(rr->policy[p]);
        buf[p] = malloc(((size_t)r->n_rows + 1) * sizeof *buf[p]);
        tb[2 * p] = malloc(((size_t)r->n_intervals + 1) * sizeof *tb[0]);
        tb[2 * p + 1] = malloc(((size_t)r->n_intervals + 1) * sizeof *tb[0]);
        if (!buf[p] || !tb[2 * p] || !tb[2 * p + 1]) {
            err = tm_ctx_fail(ctx, TM_ENOMEM, "out of memory");
            goto out;
        }
        for (int32_t i = 0; i < r->n_rows; i++) {
            const tm_replay_row *row = &r->rows[i];
            const tm_job *job = &in->w.job[row->r.job];
            tm_report_job *x = &jobs[k++];
            x->label = job->id;
            x->policy = names[p];
            x->hosts = row->hosts;
            x->n_hosts = job->n_hosts;
            x->n_tasks = job->n_tasks;
            if (!row->placed)
                continue;
            x->alone_congestion = row->r.alone.max_congestion;
            x->shared_congestion = row->r.shared.max_congestion;
            x->alone_time_s = row->r.alone.est_time_s;
            x->shared_time_s = row->r.shared.est_time_s;
            x->slowdown = row->r.slowdown;
            buf[p][ns++] = row->r.slowdown;
        }
        slow[p] = buf[p];
        n_slow[p] = ns;
        for (int32_t i = 0; i < r->n_intervals; i++) {
            tb[2 * p][i] = r->intervals[i].t0;
            tb[2 * p + 1][i] = r->intervals[i].max_congestion;
        }
        cong[p] = (tm_report_series){names[p], r->n_intervals, tb[2 * p], tb[2 * p + 1]};
    }
    if (!jobs || !(busy_v = malloc(((size_t)rr->res[0].n_intervals + 1) * sizeof *busy_v))) {
        err = tm_ctx_fail(ctx, TM_ENOMEM, "out of memory");
        goto out;
    }
    for (int32_t i = 0; i < rr->res[0].n_intervals; i++)
        busy_v[i] = rr->res[0].intervals[i].busy_nodes;
    busy = (tm_report_series){"busy nodes", rr->res[0].n_intervals, tb[0], busy_v};
    snprintf(sub, sizeof sub, "topology %s, trace %s (%d jobs), routing %s", a->in.topology,
             a->jobs, in->w.n_jobs, tm_route_kind_name(tm_route_kind_of(in->route)));
    memset(&rep, 0, sizeof rep);
    rep.title = "topomap workload replay";
    rep.subtitle = sub;
    rep.jobs = jobs;
    rep.n_jobs = total;
    rep.n_policies = rr->n;
    rep.policies = names;
    rep.slowdowns = slow;
    rep.n_slowdowns = n_slow;
    rep.congestion = cong;
    rep.busy = &busy;
    rep.t_end = rr->res[0].end - rr->res[0].start;
    err = tm_report_write_workload(ctx, &rep, a->report);
out:
    for (int p = 0; p < MAX_POLICIES; p++)
        free(buf[p]);
    for (int i = 0; i < 2 * MAX_POLICIES + 2; i++)
        free(tb[i]);
    free(busy_v);
    free(jobs);
    return err;
}

/* Runs every policy; the rows' figures also as a tm_workload_result for
 * the row writers, and each policy's slowdown statistics. */
static tm_err run(tm_ctx *ctx, const wl_args *a, wl_inputs *in, replay_run *rr)
{
    tm_replay_opts o = TM_REPLAY_OPTS_INIT;
    tm_slurm_tree *tree = NULL;
    tm_alloc part;
    tm_err err = TM_EOK;
    tm_alloc_init(&part);
    if (a->partition)
        err = tm_alloc_from_hostlist(ctx, in->net, a->partition, &part);
    if (!err && a->slurm_topology) {
        FILE *f;
        if (!(err = tm_open_input(ctx, a->slurm_topology, &f))) {
            err = tm_slurm_tree_read(ctx, in->net, f, a->slurm_topology, &tree);
            fclose(f);
        }
    }
    o.time = &in->topt;
    o.partition = a->partition ? part.host : NULL;
    o.n_partition = part.n;
    o.tree = tree;
    o.seed = (uint64_t)a->seed;
    for (int p = 0; p < rr->n && !err; p++) {
        tm_replay_result *r = &rr->res[p];
        double *v;
        int32_t nv = 0;
        err = tm_replay(ctx, in->route, &in->w, rr->policy[p], &o, r);
        if (err)
            break;
        rr->rows[p].rows = calloc((size_t)r->n_rows + 1, sizeof *rr->rows[p].rows);
        v = malloc(((size_t)r->n_rows + 1) * sizeof *v);
        if (!rr->rows[p].rows || !v) {
            free(v);
            err = tm_ctx_fail(ctx, TM_ENOMEM, "out of memory");
            break;
        }
        rr->rows[p].n_rows = r->n_rows;
        for (int32_t i = 0; i < r->n_rows; i++) {
            rr->rows[p].rows[i] = r->rows[i].r;
            if (r->rows[i].placed)
                v[nv++] = r->rows[i].r.slowdown;
        }
        err = tm_slowdown_stats_compute(ctx, v, nv, &rr->st[p]);
        free(v);
    }
    tm_slurm_tree_free(tree);
    tm_alloc_release(&part);
    return err;
}

int cmd_replay(int argc, char **argv, cli_warns *w)
{
    const char *cmd = "topomap workload replay";
    wl_args a = {0};
    wl_parse ps = {cmd, &a};
    replay_run rr;
    tm_ctx *ctx = NULL;
    wl_inputs in;
    double t0 = cli_now();
    tm_err err;
    int rc;
    memset(&rr, 0, sizeof rr);
    a.seed = 1;
    rc = cli_parse_options(cmd, CLI_WREPLAY, argc, argv, wl_option, &ps, usage);
    if (rc >= 0)
        return rc;
    if (!a.in.topology)
        return cli_usage_error(cmd, "--topology is required");
    if (!a.jobs)
        return cli_usage_error(cmd, "--trace is required");
    if ((rc = parse_policies(cmd, a.policy, &rr)) >= 0)
        return rc;
    if (cli_ctx_new(&ctx, w))
        return TM_EXIT_INTERNAL;
    wl_inputs_init(&in);
    err = tm_ctx_set_threads(ctx, (int)a.in.threads);
    if (!err)
        err = wl_inputs_load(ctx, &a, a.jobs, &in);
    if (!err && !in.w.has_times)
        err = tm_ctx_fail(ctx, TM_EUSAGE, "%s has no Start and End columns: a trace needs "
                          "them (sacct -o ...,Start,End)", a.jobs);
    if (!err && in.w.n_jobs == 0)
        err = tm_ctx_fail(ctx, TM_EINPUT, "%s: no job that ran", a.jobs);
    if (!err)
        err = run(ctx, &a, &in, &rr);
    if (!err)
        err = write_outs(ctx, &a, &in, &rr, cli_now() - t0);
    if (!err && a.report)
        err = write_report(ctx, &a, &in, &rr);
    rc = 0;
    if (err)
        rc = cli_report(ctx, w, "workload replay", err);
    else if (a.json)
        replay_json(stdout, &a, &in, &rr, cli_now() - t0);
    else
        replay_text(&a, &in, &rr, cli_now() - t0);
    for (int p = 0; p < MAX_POLICIES; p++) {
        free(rr.rows[p].rows);
        tm_replay_result_release(&rr.res[p]);
    }
    wl_inputs_release(&in);
    tm_ctx_free(ctx);
    return rc;
}
