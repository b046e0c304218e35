/* workload_report.c - `workload eval --report F.html`: the rows and the
 * links' loads and jobs of the evaluation on one page; `workload replay
 * --report` (and `workload merge --report` of its shards): the policies'
 * slowdowns and the fabric's load over time (tm_report_write_workload,
 * docs/report.md "Workloads"). */
#include <stdlib.h>
#include <string.h>

#include "workload_cli.h"

tm_err wl_write_eval_report(tm_ctx *ctx, const wl_args *a, const wl_inputs *in,
                            const tm_workload_result *r)
{
    tm_report_workload rep;
    tm_report_job *jobs = calloc((size_t)r->n_rows + 1, sizeof *jobs);
    int32_t *row_of = malloc(((size_t)in->w.n_jobs + 1) * sizeof *row_of);
    int32_t *link_job = malloc(((size_t)r->n_links + 1) * sizeof *link_job);
    char sub[1024];
    tm_err err;
    if (!jobs || !row_of || !link_job) {
        free(jobs);
        free(row_of);
        free(link_job);
        return tm_ctx_fail(ctx, TM_ENOMEM, "out of memory");
    }
    for (int32_t j = 0; j < in->w.n_jobs; j++)
        row_of[j] = -1;
    for (int32_t i = 0; i < r->n_rows; i++) {
        const tm_job_result *row = &r->rows[i];
        const tm_job *job = &in->w.job[row->job];
        row_of[row->job] = i;
        jobs[i].label = job->id;
        jobs[i].hosts = job->host;
        jobs[i].n_hosts = job->n_hosts;
        jobs[i].n_tasks = job->n_tasks;
        jobs[i].alone_congestion = row->alone.max_congestion;
        jobs[i].shared_congestion = row->shared.max_congestion;
        jobs[i].alone_time_s = row->alone.est_time_s;
        jobs[i].shared_time_s = row->shared.est_time_s;
        jobs[i].slowdown = row->slowdown;
    }
    for (int32_t l = 0; l < r->n_links; l++)
        link_job[l] = r->link_job[l] >= 0 ? row_of[r->link_job[l]] : -1;
    snprintf(sub, sizeof sub, "topology %s, jobs %s (%d%s), routing %s, fabric max congestion "
             "%.6g", a->in.topology, wl_jobs_source(a), r->n_rows, a->at ? " running at the time asked"
                                                              : " running at once",
             tm_route_kind_name(tm_route_kind_of(in->route)), r->max_congestion);
    memset(&rep, 0, sizeof rep);
    rep.title = "topomap workload eval";
    rep.subtitle = sub;
    rep.jobs = jobs;
    rep.n_jobs = r->n_rows;
    rep.net = in->net;
    rep.link_load = r->link_load;
    rep.link_job = link_job;
    rep.link_n_jobs = r->link_n_jobs;
    err = tm_report_write_workload(ctx, &rep, a->report);
    free(jobs);
    free(row_of);
    free(link_job);
    return err;
}

/* Per policy: its rows' slowdowns (placed ones), and over time its max
 * congestion; the busy nodes of the first policy's intervals. */
typedef struct replay_page {
    tm_report_job *jobs;
    double *slow, *t, *cong, *busy;
    const double **slow_of;
    int32_t *n_slow;
    tm_report_series *series, busy_series;
} replay_page;

static void page_free(replay_page *g)
{
    free(g->jobs);
    free(g->slow);
    free(g->t);
    free(g->cong);
    free(g->busy);
    free(g->slow_of);
    free(g->n_slow);
    free(g->series);
}

tm_err wl_write_replay_report(tm_ctx *ctx, const tm_workload_doc *d, const char *path)
{
    size_t np = (size_t)d->n_policies + 1, nr = (size_t)d->n_rows + 1, ni = (size_t)d->n_intervals + 1;
    replay_page g = {calloc(nr, sizeof *g.jobs), malloc(nr * sizeof *g.slow),
                     malloc(ni * sizeof *g.t), malloc(ni * sizeof *g.cong),
                     malloc(ni * sizeof *g.busy), calloc(np, sizeof *g.slow_of),
                     calloc(np, sizeof *g.n_slow), calloc(np, sizeof *g.series), {0}};
    tm_report_workload rep;
    int32_t ns = 0, nt = 0, nb = 0;
    char sub[1024];
    tm_err err;
    if (!g.jobs || !g.slow || !g.t || !g.cong || !g.busy || !g.slow_of || !g.n_slow || !g.series) {
        page_free(&g);
        return tm_ctx_fail(ctx, TM_ENOMEM, "out of memory");
    }
    for (int32_t i = 0; i < d->n_rows; i++) {
        const tm_workload_row *r = &d->rows[i];
        tm_report_job *x = &g.jobs[i];
        x->label = r->job;
        x->policy = r->policy;
        x->n_hosts = r->n_nodes;
        x->n_tasks = r->n_tasks;
        if (!r->placed)
            continue;
        x->alone_congestion = r->alone.max_congestion;
        x->shared_congestion = r->shared.max_congestion;
        x->alone_time_s = r->alone.est_time_s;
        x->shared_time_s = r->shared.est_time_s;
        x->slowdown = r->slowdown;
    }
    /* rows and intervals come policy by policy, in the doc's policy order */
    for (int32_t p = 0; p < d->n_policies; p++) {
        const char *name = d->policies[p];
        int32_t first = nt;
        g.slow_of[p] = g.slow + ns;
        for (int32_t i = 0; i < d->n_rows; i++)
            if (d->rows[i].placed && strcmp(d->rows[i].policy, name) == 0)
                g.slow[ns++] = d->rows[i].slowdown, g.n_slow[p]++;
        for (int32_t i = 0; i < d->n_intervals; i++) {
            const tm_workload_interval *iv = &d->timeline[i];
            if (strcmp(iv->policy, name) != 0)
                continue;
            g.t[nt] = iv->t0;
            g.cong[nt++] = iv->max_congestion;
            if (p == 0)
                g.busy[nb++] = (double)iv->busy_nodes;
        }
        g.series[p] = (tm_report_series){name, nt - first, g.t + first, g.cong + first};
    }
    g.busy_series = (tm_report_series){"busy nodes", nb, g.t, g.busy};
    snprintf(sub, sizeof sub, "topology %s, trace %s (%lld jobs), routing %s", d->topology,
             d->input, (long long)d->n_jobs, d->routing);
    memset(&rep, 0, sizeof rep);
    rep.title = "topomap workload replay";
    rep.subtitle = sub;
    rep.jobs = g.jobs;
    rep.n_jobs = d->n_rows;
    rep.n_policies = d->n_policies;
    rep.policies = d->policies;
    rep.slowdowns = g.slow_of;
    rep.n_slowdowns = g.n_slow;
    rep.congestion = g.series;
    rep.busy = &g.busy_series;
    rep.t_end = d->duration_s;
    err = tm_report_write_workload(ctx, &rep, path);
    page_free(&g);
    return err;
}
