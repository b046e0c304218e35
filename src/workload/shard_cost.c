/* shard_cost.c - what each row of a workload eval or replay costs, by
 * which the shards are dealt (wl_shard.h).  Estimates from the jobs file
 * alone (no routing): every shard computes them before it evaluates
 * anything, and all get the same. */
#include <math.h>
#include <stdlib.h>

#include "../util/util.h"
#include "wl_shard.h"

static int64_t add_sat(int64_t a, int64_t b)
{
    return a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* Messages of job j: its matrix's entries, or its pattern's count (a
 * stencil's at most 6 per task). */
static int64_t messages(const tm_workload *w, const tm_job *job)
{
    int64_t n = job->n_tasks;
    if (job->matrix >= 0)
        return w->matrix[job->matrix].nnz;
    switch (job->pattern) {
    case TM_PATTERN_RING: return n >= 3 ? 2 * n : n == 2 ? 2 : 0;
    case TM_PATTERN_ALLTOALL: return n * (n - 1);
    case TM_PATTERN_STENCIL3D: return 6 * n;
    default: return n;
    }
}

/* Below 2^32, so that the sums of 2^31 jobs fit. */
#define MAX_JOB_COST (((int64_t)1 << 32) - 1)

static int64_t job_cost(const tm_workload *w, int32_t j)
{
    const tm_job *job = &w->job[j];
    int64_t bits = 1, m = messages(w, job), c;
    for (int32_t h = job->n_hosts; h > 1; h >>= 1)
        bits++;
    c = m > MAX_JOB_COST / bits ? MAX_JOB_COST : job->n_tasks + m * bits;
    return c < MAX_JOB_COST ? c : MAX_JOB_COST;
}

void tm__wl_eval_costs(const tm_workload *w, const int32_t *rows, int32_t n, int64_t *cost)
{
    for (int32_t i = 0; i < n; i++)
        cost[i] = job_cost(w, rows[i]);
}

typedef struct start_key {
    double start;
    int32_t job;
} start_key;

static int by_start(const void *a, const void *b)
{
    const start_key *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->job > y->job) - (x->job < y->job);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The index of t among the n sorted distinct times (t is one of them). */
static int32_t time_index(const double *t, int32_t n, double x)
{
    int32_t lo = 0, hi = n - 1;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (t[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

tm_err tm__wl_replay_costs(tm_ctx *ctx, const tm_workload *w, int32_t *order, int64_t *cost)
{
    int32_t n = w->n_jobs, m = 0;
    double *t = tm__malloc_n((size_t)2 * n + 1, sizeof *t);
    int32_t *first = tm__malloc_n((size_t)n + 1, sizeof *first);
    int32_t *last = tm__malloc_n((size_t)n + 1, sizeof *last);
    int64_t *own = tm__malloc_n((size_t)n + 1, sizeof *own);
    /* per interval: the costs and the count of the jobs running in it
     * (differences, then sums), and the shares before it */
    int64_t *sum = tm__calloc_n((size_t)2 * n + 2, sizeof *sum);
    int64_t *cnt = tm__calloc_n((size_t)2 * n + 2, sizeof *cnt);
    int64_t *before = tm__calloc_n((size_t)2 * n + 2, sizeof *before);
    start_key *key = tm__malloc_n((size_t)n + 1, sizeof *key);
    tm_err err = TM_EOK;
    if (!t || !first || !last || !own || !sum || !cnt || !before || !key) {
        err = tm__nomem(ctx);
        goto out;
    }
    /* the event times, as the replay sweeps them: starts and finite ends;
     * a job still running runs until the last */
    for (int32_t j = 0; j < n; j++) {
        t[m++] = w->job[j].start;
        if (isfinite(w->job[j].end))
            t[m++] = w->job[j].end;
    }
    qsort(t, (size_t)m, sizeof *t, cmp_double);
    {
        int32_t k = 0;
        for (int32_t i = 0; i < m; i++)
            if (k == 0 || t[i] != t[k - 1])
                t[k++] = t[i];
        m = k;
    }
    /* job j runs in the intervals [first, last) between the times */
    for (int32_t j = 0; j < n; j++) {
        first[j] = time_index(t, m, w->job[j].start);
        last[j] = isfinite(w->job[j].end) ? time_index(t, m, w->job[j].end) : m - 1;
        own[j] = job_cost(w, j);
        sum[first[j]] += own[j];
        sum[last[j]] -= own[j];
        cnt[first[j]]++;
        cnt[last[j]]--;
    }
    for (int32_t i = 0; i + 1 < m; i++) {
        if (i > 0) {
            sum[i] += sum[i - 1];
            cnt[i] += cnt[i - 1];
        }
        /* the interval's simulation, shared by its jobs */
        before[i + 1] = add_sat(before[i], cnt[i] > 0 ? sum[i] / cnt[i] : 0);
    }
    for (int32_t j = 0; j < n; j++)
        key[j] = (start_key){w->job[j].start, j};
    qsort(key, (size_t)n, sizeof *key, by_start);
    for (int32_t i = 0; i < n; i++) {
        int32_t j = order[i] = key[i].job;
        cost[i] = add_sat(own[j], before[last[j]] - before[first[j]]);
    }
out:
    free(t);
    free(first);
    free(last);
    free(own);
    free(sum);
    free(cnt);
    free(before);
    free(key);
    return err;
}
