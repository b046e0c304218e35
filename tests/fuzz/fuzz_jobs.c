/* fuzz_jobs.c - jobs files (docs/workload.md "Jobs files", sacct -P / -p
 * output) through tm_workload_read against the small fixed net of
 * fuzz_net.h: on success every job has distinct hosts of the net, task
 * counts that add up, a matrix index in range or a pattern, times in
 * order; on failure the workload is left empty.  Matrix files resolve
 * under a folder that does not exist; inputs naming device or process
 * files are skipped (a path may be absolute, and reading /dev/stdin would
 * block the fuzzer, not find a bug). */
#include <math.h>

#include "fuzz_common.h"
#include "fuzz_net.h"

static tm_net *net;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    net = fz_small_net();
    return 0;
}

static bool device_path(const uint8_t *data, size_t size)
{
    static const char *const bad[] = {"/dev", "/proc", "/sys", "stdin", "fd/"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (memmem(data, size, bad[i], strlen(bad[i])))
            return true;
    return false;
}

static void check(tm_ctx *ctx, const tm_workload *w)
{
    int32_t nv = tm_net_n_vertices(net);
    for (int32_t j = 0; j < w->n_jobs; j++) {
        const tm_job *job = &w->job[j];
        int64_t sum = 0;
        if (!job->id || !job->id[0] || job->n_hosts < 1)
            fz_die("job without an id or hosts", TM_EOK, ctx);
        for (int32_t k = 0; k < job->n_hosts; k++) {
            if (job->host[k] < 0 || job->host[k] >= nv ||
                tm_net_kind(net, job->host[k]) != TM_VERTEX_HOST || job->tasks[k] < 0)
                fz_die("bad host or task count", TM_EOK, ctx);
            for (int32_t q = 0; q < k; q++)
                if (job->host[q] == job->host[k])
                    fz_die("host twice in a job", TM_EOK, ctx);
            sum += job->tasks[k];
        }
        if (sum != job->n_tasks)
            fz_die("task counts do not add up", TM_EOK, ctx);
        if (job->matrix >= w->n_matrices || (job->matrix < 0) != (job->pattern != TM_PATTERN_NONE))
            fz_die("bad matrix index", TM_EOK, ctx);
        if (job->matrix >= 0 && w->matrix[job->matrix].n != job->n_tasks)
            fz_die("matrix of another task count", TM_EOK, ctx);
        if (w->has_times && !(job->start <= job->end))
            fz_die("times out of order", TM_EOK, ctx);
        if (!w->has_times && !isnan(job->start))
            fz_die("a time without the columns", TM_EOK, ctx);
        if (job->n_tasks <= 4096) {
            tm_comm c;
            tm_err err = tm_workload_job_comm(ctx, w, j, &c);
            if (err != TM_EOK && err != TM_EINPUT)
                fz_die("the job's matrix cannot be built", err, ctx);
            if (!err && (c.n != job->n_tasks || tm_comm_check(ctx, &c)))
                fz_die("the job's matrix is not valid", TM_EOK, ctx);
            tm_comm_release(&c);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tm_workload_read_opts o = TM_WORKLOAD_READ_OPTS_INIT;
    tm_ctx *ctx;
    FILE *in;
    tm_workload w;
    tm_err err;
    if (device_path(data, size))
        return 0;
    ctx = fz_ctx();
    in = fz_open(data, size);
    o.base_dir = "/nonexistent-topomap-fuzz";
    err = tm_workload_read(ctx, net, in, FZ_NAME, &o, &w);
    fz_check_err(ctx, err, 1);
    if (err == TM_EOK)
        check(ctx, &w);
    else if (w.n_jobs || w.job || w.n_matrices)
        fz_die("not left empty on error", err, ctx);
    tm_workload_release(&w);
    fclose(in);
    tm_ctx_free(ctx);
    return 0;
}
