/* workload_io.c - the options and inputs of `workload eval`, `workload
 * replay` and `alloc` (docs/workload.md). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "workload_cli.h"

tm_err wl_option(void *ud, int c, const char *v)
{
    wl_parse *p = ud;
    wl_args *a = p->a;
    if (a->n_opts >= WL_MAX_OPTS)
        return cli_usage_error(p->cmd, "more than %d options", WL_MAX_OPTS), TM_EUSAGE;
    a->opts[a->n_opts++] = (cli_optval){c, v};
    switch (c) {
    case OPT_SHARD: return cli_shard_option(p->cmd, v, &a->shard);
    case OPT_JOBS:
    case OPT_TRACE: a->jobs = v; return TM_EOK;
    case OPT_DEFAULT_COMM: a->default_comm = v; return TM_EOK;
    case OPT_AT: a->at = v; return TM_EOK;
    case OPT_POLICY: a->policy = v; return TM_EOK;
    case OPT_PARTITION: a->partition = v; return TM_EOK;
    case OPT_SLURM_TOPOLOGY: a->slurm_topology = v; return TM_EOK;
    case OPT_SLURM_TOPOLOGY_NAME: a->slurm_topology_name = v; return TM_EOK;
    case OPT_FREE: a->free = v; return TM_EOK;
    case OPT_EXCLUDE: a->exclude = v; return TM_EOK;
    case OPT_SLURM: a->slurm = true; return TM_EOK;
    case OPT_SLURM_STATE: a->slurm_state = v; return TM_EOK;
    case OPT_SLURM_PARTITION: a->slurm_partition = v; return TM_EOK;
    case OPT_SLURM_MAX_AGE:
        return cli_parse_double(p->cmd, "--slurm-state-max-age", v, 0.001, 1e9, &a->slurm_max_age);
    case OPT_REPORT: a->report = v; return TM_EOK;
    case OPT_JSON: a->json = true; return TM_EOK;
    case OPT_SEED:
        return cli_parse_int(p->cmd, "--seed", v, 0, 0x7fffffffL, &a->seed);
    case OPT_NODES:
        return cli_parse_int(p->cmd, "--nodes", v, 1, 1L << 24, &a->nodes);
    case OPT_PPN:
        return cli_parse_int(p->cmd, "--ppn", v, 1, CLI_MAX_SLOTS, &a->ppn);
    case OPT_OUT:
        if (a->n_out >= WL_MAX_OUT)
            return cli_usage_error(p->cmd, "at most %d --out files", WL_MAX_OUT), TM_EUSAGE;
        if (!strstr(v, ".csv") && !strstr(v, ".json"))
            return cli_usage_error(p->cmd, "--out '%s': the name must end in .csv or .json", v),
                   TM_EUSAGE;
        a->out[a->n_out++] = v;
        return TM_EOK;
    default: return cli_input_option(p->cmd, &a->in, c, v);
    }
}

void wl_inputs_init(wl_inputs *x)
{
    memset(x, 0, sizeof *x);
    tm_workload_init(&x->w);
}

void wl_inputs_release(wl_inputs *x)
{
    tm_route_free(x->route);
    tm_net_free(x->net);
    tm_workload_release(&x->w);
    tm_slurm_state_release(&x->st);
    wl_inputs_init(x);
}

tm_err wl_slurm_topology(tm_ctx *ctx, const wl_args *a, const tm_net *net, tm_slurm_tree **out)
{
    FILE *f;
    tm_err err;
    *out = NULL;
    if (!a->slurm_topology && a->slurm_topology_name)
        return tm_ctx_fail(ctx, TM_EUSAGE, "--slurm-topology-name needs --slurm-topology");
    if (!a->slurm_topology || (err = tm_open_input(ctx, a->slurm_topology, &f)))
        return a->slurm_topology ? err : TM_EOK;
    err = tm_slurm_topology_read(ctx, net, f, a->slurm_topology, a->slurm_topology_name, out);
    fclose(f);
    return err;
}

const char *wl_jobs_source(const wl_args *a)
{
    return a->jobs ? a->jobs : a->slurm_state ? a->slurm_state : a->slurm ? "slurmctld" : "";
}

tm_err wl_check_jobs_source(const char *cmd, const wl_args *a, bool need)
{
    int n = (a->jobs != NULL) + a->slurm + (a->slurm_state != NULL);
    if (n > 1)
        return cli_usage_error(cmd, "--jobs, --slurm and --slurm-state each give the running "
                                    "jobs: give one"), TM_EUSAGE;
    if (need && n == 0)
        return cli_usage_error(cmd, "--jobs is required (or --slurm, --slurm-state)"), TM_EUSAGE;
    if (a->slurm_max_age > 0 && !a->slurm_state)
        return cli_usage_error(cmd, "--slurm-state-max-age needs --slurm-state"), TM_EUSAGE;
    if (a->slurm_partition && n - (a->jobs != NULL) == 0)
        return cli_usage_error(cmd, "--slurm-partition needs --slurm or --slurm-state"),
               TM_EUSAGE;
    if (a->shard.n && n - (a->jobs != NULL) > 0)
        return cli_usage_error(cmd, "--shard needs --jobs (a state from Slurm changes between "
                                    "runs: save it with 'topomap slurm snapshot', then give the "
                                    "shards one jobs file)"), TM_EUSAGE;
    return TM_EOK;
}

/* --slurm-state-max-age: DIR/jobs.json no older than that. */
static tm_err snapshot_age(tm_ctx *ctx, const wl_args *a)
{
    char path[4096];
    struct stat sb;
    double age;
    snprintf(path, sizeof path, "%s/jobs.json", a->slurm_state);
    if (stat(path, &sb) != 0)
        return tm_ctx_fail(ctx, TM_EIO, "%s: cannot open: %s", path, strerror(errno));
    age = difftime(time(NULL), sb.st_mtime);
    if (age > a->slurm_max_age)
        return tm_ctx_fail(ctx, TM_EINPUT, "%s: the snapshot is %.0f s old, more than "
                           "--slurm-state-max-age %g (is the cron job of 'topomap slurm "
                           "snapshot' running?)", path, age, a->slurm_max_age);
    return TM_EOK;
}

/* The cluster's state (--slurm: from the controller; --slurm-state DIR)
 * and its running jobs as the workload. */
static tm_err load_state(tm_ctx *ctx, const wl_args *a, const tm_workload_read_opts *ro,
                         wl_inputs *x)
{
    tm_err err = a->slurm_max_age > 0 ? snapshot_age(ctx, a) : TM_EOK;
    if (err)
        return err;
    err = a->slurm ? tm_slurm_state_query(ctx, 30.0, &x->st)
                          : tm_slurm_state_read_dir(ctx, a->slurm_state, &x->st);
    if (err)
        return err;
    x->have_state = true;
    return tm_workload_from_slurm(ctx, x->net, &x->st, ro, &x->w);
}

tm_err wl_inputs_load(tm_ctx *ctx, const wl_args *a, const char *jobs, wl_inputs *x)
{
    tm_workload_read_opts ro = TM_WORKLOAD_READ_OPTS_INIT;
    tm_err err = cli_load_topology(ctx, &a->in, &x->net);
    x->topt = cli_time_opts(&a->in);
    if (!err)
        err = cli_route_new(ctx, x->net, &a->in, &x->route);
    if (!err && tm_route_kind_of(x->route) == TM_ROUTE_UGAL)
        err = tm_ctx_fail(ctx, TM_EUSAGE, "--routing ugal routes by the loads of the whole "
                          "traffic, so the jobs' loads do not add up: use valiant or a minimal "
                          "routing");
    ro.default_comm = a->default_comm;
    ro.comm_format = a->in.comm_format ? (tm_comm_format)tm_comm_format_parse(a->in.comm_format)
                                       : TM_COMM_AUTO;
    if (!err && (a->slurm || a->slurm_state))
        err = load_state(ctx, a, &ro, x);
    else if (!err && jobs)
        err = tm_workload_read_file(ctx, x->net, jobs, &ro, &x->w);
    return err;
}

tm_err wl_at_set(tm_ctx *ctx, const wl_args *a, const tm_workload *w, int32_t **set, int32_t *n)
{
    double t;
    *set = NULL;
    *n = w->n_jobs;
    if (!a->at)
        return TM_EOK;
    if (tm_workload_parse_time(a->at, &t) < 0)
        return tm_ctx_fail(ctx, TM_EUSAGE, "--at '%s' is not a time YYYY-MM-DDTHH:MM:SS", a->at);
    if (!w->has_times)
        return tm_ctx_fail(ctx, TM_EUSAGE, "--at needs the jobs' times: %s has no Start and End "
                           "columns", wl_jobs_source(a));
    return tm_workload_at(ctx, w, t, set, n);
}

char *wl_hostlist(const tm_net *net, const int32_t *host, int32_t n)
{
    const char **names = malloc(((size_t)n + 1) * sizeof *names);
    char *out = NULL;
    tm_ctx *ctx = NULL;
    if (!names || tm_ctx_new(&ctx)) {
        free(names);
        return NULL;
    }
    for (int32_t k = 0; k < n; k++)
        names[k] = tm_net_name(net, host[k]);
    if (tm_hostlist_compress(ctx, names, (size_t)n, &out)) {
        /* a name Slurm cannot read (brackets, blanks): list them plainly */
        size_t len = 1;
        for (int32_t k = 0; k < n; k++)
            len += strlen(names[k]) + 1;
        if ((out = malloc(len))) {
            out[0] = '\0';
            for (int32_t k = 0; k < n; k++)
                strcat(strcat(out, k ? "," : ""), names[k]);
        }
    }
    tm_ctx_free(ctx);
    free(names);
    return out;
}

void wl_comm_label(const tm_workload *w, const tm_job *job, char *buf, size_t size)
{
    double b = job->pattern_bytes;
    if (job->matrix >= 0) {
        snprintf(buf, size, "%s", w->matrix_path[job->matrix]);
        return;
    }
    if (fmod(b, 1048576.0) == 0)
        snprintf(buf, size, "%s:%gMiB", tm_pattern_name(job->pattern), b / 1048576.0);
    else if (fmod(b, 1024.0) == 0)
        snprintf(buf, size, "%s:%gKiB", tm_pattern_name(job->pattern), b / 1024.0);
    else
        snprintf(buf, size, "%s:%.17gB", tm_pattern_name(job->pattern), b);
}

void wl_time_str(double t, char *buf, size_t size)
{
    struct tm tmv;
    time_t s;
    if (isinf(t)) {
        snprintf(buf, size, "Unknown");
        return;
    }
    if (isnan(t)) {
        snprintf(buf, size, "None");
        return;
    }
    s = (time_t)floor(t);
    gmtime_r(&s, &tmv);
    strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tmv);
}
