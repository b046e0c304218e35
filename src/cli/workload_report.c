/* workload_report.c - `workload eval --report F.html`: the rows and the
 * links' loads and jobs of the evaluation on one page
 * (tm_report_write_workload, docs/report.md "Workloads"). */
#include <stdlib.h>
#include <string.h>

#include "workload_cli.h"

tm_err wl_write_eval_report(tm_ctx *ctx, const wl_args *a, const wl_inputs *in, const wl_rows *x)
{
    const tm_workload_result *r = x->r;
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
             "%.6g", a->in.topology, a->jobs, r->n_rows, a->at ? " running at the time asked"
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
