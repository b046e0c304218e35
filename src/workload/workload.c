/* workload.c - the workload object: release, a job's matrix, a job's
 * placement (docs/workload.md). */
#include <stdlib.h>
#include <string.h>

#include "wl_int.h"
#include "../util/util.h"

void tm_workload_init(tm_workload *w)
{
    memset(w, 0, sizeof *w);
}

void tm_workload_release(tm_workload *w)
{
    if (!w)
        return;
    for (int32_t j = 0; j < w->n_jobs; j++) {
        free(w->job[j].id);
        free(w->job[j].host);
        free(w->job[j].tasks);
    }
    free(w->job);
    for (int32_t k = 0; k < w->n_matrices; k++) {
        tm_comm_release(&w->matrix[k]);
        free(w->matrix_path[k]);
    }
    free(w->matrix);
    free(w->matrix_path);
    tm_workload_init(w);
}

tm_err tm_workload_job_comm(tm_ctx *ctx, const tm_workload *w, int32_t j, tm_comm *out)
{
    const tm_job *job;
    tm_comm_init(out);
    if (j < 0 || j >= w->n_jobs)
        return tm__fail(ctx, TM_EUSAGE, "workload: no job %d (%d jobs)", j, w->n_jobs);
    job = &w->job[j];
    if (job->matrix >= 0)
        return tm_comm_copy(ctx, &w->matrix[job->matrix], out);
    return tm_pattern_comm(ctx, job->pattern, job->n_tasks, job->pattern_bytes, out);
}

tm_err tm_job_mapping(tm_ctx *ctx, int32_t n_hosts, const int32_t *host, const int32_t *tasks,
                      tm_mapping *out)
{
    int64_t n = 0;
    int32_t t = 0;
    tm_err err;
    tm_mapping_init(out);
    for (int32_t k = 0; k < n_hosts; k++) {
        if (tasks[k] < 0)
            return tm__fail(ctx, TM_EUSAGE, "job mapping: %d tasks on host %d", tasks[k], k);
        n += tasks[k];
    }
    if (n > INT32_MAX / 2)
        return tm__fail(ctx, TM_EUSAGE, "job mapping: %lld tasks", (long long)n);
    err = tm_mapping_alloc(ctx, out, (int32_t)n, false);
    if (err)
        return err;
    for (int32_t k = 0; k < n_hosts; k++)
        for (int32_t s = 0; s < tasks[k]; s++, t++) {
            out->host[t] = host[k];
            out->slot[t] = s;
        }
    return TM_EOK;
}

int tm_workload_parse_time(const char *s, double *out)
{
    return tm__iso_time(s, out);
}

tm_err tm_workload_at(tm_ctx *ctx, const tm_workload *w, double t, int32_t **set, int32_t *n)
{
    *set = NULL;
    *n = 0;
    if (!w->has_times)
        return tm__fail(ctx, TM_EUSAGE, "the jobs have no Start and End times");
    *set = tm__malloc_n((size_t)w->n_jobs + 1, sizeof **set);
    if (!*set)
        return tm__nomem(ctx);
    for (int32_t j = 0; j < w->n_jobs; j++) {
        const tm_job *job = &w->job[j];
        if (job->start <= t && (t < job->end || (job->start == job->end && t == job->start)))
            (*set)[(*n)++] = j;
    }
    return TM_EOK;
}
