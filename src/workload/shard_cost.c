/* shard_cost.c - what each row of a workload eval or replay costs, by
 * which the shards are dealt (wl_shard.h).  Estimates from the jobs file
 * alone (no routing): every shard computes them before it evaluates
 * anything, and all get the same (integers only).
 *
 * What a row costs is mostly the time model's simulations (docs/time.md,
 * docs/workload.md "How the shared time is computed"): a group of jobs
 * whose flows (a job's messages between two hosts with one size merged)
 * are at most --time-exact-max is simulated exactly, at a cost that grows
 * with its flows; above, the approximation costs next to nothing (each
 * job's own simulation is made once).  Measured on a replay of 150 jobs on
 * a 1,024-host Clos (docs/workload.md "Shards"): an exact simulation took
 * about 0.04 s + 0.08 ms per flow, an approximate one 1-6 ms, routing and
 * evaluating a job alone a few ms per 10^4 messages.  The unit below is
 * one flow of an exact simulation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util/util.h"
#include "wl_shard.h"

/* A simulation's fixed part, in flows; an approximate one's cost per flow
 * (1/APPROX_DIV); routing's per message (1/ROUTE_DIV). */
#define EXACT_BASE 500
#define APPROX_DIV 128
#define ROUTE_DIV 256
/* Largest matrix whose flows are counted (above: its host pairs, bounded). */
#define MAX_COUNTED ((int64_t)1 << 22)
/* Below 2^32, so that the sums of 2^31 jobs fit. */
#define MAX_COST (((int64_t)1 << 32) - 1)

static int64_t add_sat(int64_t a, int64_t b)
{
    return a > INT64_MAX - b ? INT64_MAX : a + b;
}

static int64_t cap(int64_t c)
{
    return c < 0 ? 0 : c < MAX_COST ? c : MAX_COST;
}

/* ---- one job ------------------------------------------------------------------ */

typedef struct flow {
    int32_t src, dst;
    double bytes;
} flow;

static int by_flow(const void *a, const void *b)
{
    const flow *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    return (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

/* The distinct (host, host, size) of the messages of c between two hosts,
 * ranks filling the job's hosts in order (tm_job_mapping). */
static int64_t count_flows(const tm_comm *c, const tm_job *job)
{
    int32_t *host = tm__malloc_n((size_t)c->n + 1, sizeof *host), r = 0;
    flow *f = tm__malloc_n((size_t)c->nnz + 1, sizeof *f);
    int64_t n = 0, distinct = 0;
    if (!host || !f || c->n != job->n_tasks) {
        free(host);
        free(f);
        return c->nnz;
    }
    for (int32_t k = 0; k < job->n_hosts; k++)
        for (int32_t t = 0; t < job->tasks[k]; t++)
            host[r++] = k;
    for (int32_t u = 0; u < c->n; u++)
        for (int64_t e = c->xadj[u]; e < c->xadj[u + 1]; e++)
            if (host[u] != host[c->adj[e]] && c->w[e] > 0)
                f[n++] = (flow){host[u], host[c->adj[e]], c->w[e]};
    qsort(f, (size_t)n, sizeof *f, by_flow);
    for (int64_t i = 0; i < n; i++)
        distinct += i == 0 || by_flow(&f[i - 1], &f[i]) != 0;
    free(host);
    free(f);
    return distinct;
}

/* The job's flows, counted (an all-to-all's by formula: every ordered pair
 * of its hosts, one size; a matrix too large: its host pairs, bounded). */
static int64_t job_flows(tm_ctx *ctx, const tm_workload *w, const tm_job *job)
{
    int64_t h = job->n_hosts, flows;
    tm_comm c;
    if (job->matrix < 0 && job->pattern == TM_PATTERN_ALLTOALL)
        return job->n_tasks > 1 ? h * (h - 1) : 0;
    if (job->matrix >= 0) {
        const tm_comm *m = &w->matrix[job->matrix];
        return m->nnz > MAX_COUNTED ? (m->nnz < h * (h - 1) ? m->nnz : h * (h - 1))
                                    : count_flows(m, job);
    }
    tm_comm_init(&c);
    if (tm_pattern_comm(ctx, job->pattern, job->n_tasks, job->pattern_bytes, &c) != TM_EOK) {
        tm_ctx_clear_error(ctx); /* an estimate: a ring's or a stencil's pairs */
        return 6 * h;
    }
    flows = count_flows(&c, job);
    tm_comm_release(&c);
    return flows;
}

static int64_t messages(const tm_workload *w, const tm_job *job)
{
    int64_t n = job->n_tasks;
    if (job->matrix >= 0)
        return w->matrix[job->matrix].nnz;
    switch (job->pattern) {
    case TM_PATTERN_RING: return n >= 3 ? 2 * n : n == 2 ? 2 : 0;
    case TM_PATTERN_ALLTOALL: return n * (n - 1);
    default: return 6 * n; /* a stencil's at most */
    }
}

/* A simulation of `flows` flows. */
static int64_t sim_cost(int64_t flows, int64_t exact_max)
{
    if (flows <= 0)
        return 0;
    return flows <= exact_max ? EXACT_BASE + flows : flows / APPROX_DIV;
}

static int64_t exact_max_of(const tm_time_opts *topt)
{
    tm_time_opts dflt = TM_TIME_OPTS_INIT;
    return (topt ? topt : &dflt)->exact_max_flows;
}

/* The job alone: its messages routed, its flows simulated. */
static int64_t own_cost(int64_t msgs, int64_t flows, int64_t exact_max)
{
    return cap(add_sat(msgs / ROUTE_DIV + 1, sim_cost(flows, exact_max)));
}

void tm_workload_eval_costs(tm_ctx *ctx, const tm_workload *w, const tm_time_opts *topt,
                            const int32_t *rows, int32_t n, int64_t *cost)
{
    int64_t exact_max = exact_max_of(topt);
    for (int32_t i = 0; i < n; i++) {
        const tm_job *job = &w->job[rows[i]];
        cost[i] = own_cost(messages(w, job), job_flows(ctx, w, job), exact_max);
    }
}

/* ---- a replay ------------------------------------------------------------------- */

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

/* The index of x among the m sorted distinct times t (x is one of them). */
static int32_t time_index(const double *t, int32_t m, double x)
{
    int32_t lo = 0, hi = m - 1;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (t[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Dealing the jobs of a replay: runs of jobs consecutive in start order,
 * where run k costs its jobs' own costs plus every interval from its first
 * start to its last end (the shard simulates each of them once for all its
 * jobs running there). */
typedef struct dealer {
    int32_t n;
    const int32_t *order;        /* jobs in start order */
    const int32_t *first, *last; /* per job: its intervals [first, last) */
    const int64_t *own;          /* per job */
    const int64_t *pre;          /* intervals' costs, prefix sums */
} dealer;

/* Runs of cost at most M each, exactly n_shards of them (each shard a job
 * at least: a run ends early when just enough jobs are left); owner set
 * when not NULL.  Whether every run stays within M. */
static bool deal(const dealer *d, int32_t n_shards, int64_t M, int32_t *owner)
{
    int32_t a = 0;
    for (int32_t k = 0; k < n_shards; k++) {
        int32_t b = a, j = d->order[a], top = d->last[j];
        int64_t own = d->own[j], c;
        int32_t end = k == n_shards - 1 ? d->n - 1 : d->n - (n_shards - k); /* its last job at most */
        for (;;) {
            c = add_sat(own, d->pre[top] - d->pre[d->first[d->order[a]]]);
            if (owner)
                owner[d->order[b]] = k;
            if (b >= end)
                break;
            {
                int32_t nj = d->order[b + 1], ntop = d->last[nj] > top ? d->last[nj] : top;
                int64_t nown = add_sat(own, d->own[nj]);
                int64_t nc = add_sat(nown, d->pre[ntop] - d->pre[d->first[d->order[a]]]);
                if (nc > M && k < n_shards - 1)
                    break;
                b++;
                own = nown;
                top = ntop;
            }
        }
        if (c > M)
            return false;
        a = b + 1;
    }
    return true;
}

tm_err tm_replay_shard_owners(tm_ctx *ctx, const tm_workload *w, const tm_time_opts *topt,
                              int32_t n_shards, int32_t *owner)
{
    int32_t n = w->n_jobs, m = 0;
    int64_t exact_max = exact_max_of(topt), lo = 0, hi;
    double *t = tm__malloc_n((size_t)2 * n + 1, sizeof *t);
    int32_t *first = tm__malloc_n((size_t)n + 1, sizeof *first);
    int32_t *last = tm__malloc_n((size_t)n + 1, sizeof *last);
    int32_t *order = tm__malloc_n((size_t)n + 1, sizeof *order);
    int64_t *own = tm__malloc_n((size_t)n + 1, sizeof *own);
    /* per interval: the flows of the jobs running in it (differences, then
     * sums), then the prefix sums of the intervals' costs */
    int64_t *sum = tm__calloc_n((size_t)2 * n + 2, sizeof *sum);
    int64_t *pre = tm__calloc_n((size_t)2 * n + 2, sizeof *pre);
    start_key *key = tm__malloc_n((size_t)n + 1, sizeof *key);
    dealer d;
    tm_err err = TM_EOK;
    if (n_shards < 1 || n_shards > n) {
        err = tm__fail(ctx, TM_EUSAGE, "replay: %d shards of %d jobs", (int)n_shards, (int)n);
        goto out;
    }
    if (!t || !first || !last || !order || !own || !sum || !pre || !key) {
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
    for (int32_t j = 0; j < n; j++) {
        const tm_job *job = &w->job[j];
        int64_t fl = job_flows(ctx, w, job);
        fl = fl < MAX_COST ? fl : MAX_COST;
        own[j] = own_cost(messages(w, job), fl, exact_max);
        first[j] = time_index(t, m, job->start);
        last[j] = isfinite(job->end) ? time_index(t, m, job->end) : m - 1;
        sum[first[j]] += fl;
        sum[last[j]] -= fl;
    }
    /* each interval's simulation, its running jobs taken as one group (the
     * scattered jobs of a busy cluster are) */
    for (int32_t i = 0; i + 1 < m; i++) {
        if (i > 0)
            sum[i] += sum[i - 1];
        pre[i + 1] = add_sat(pre[i], sim_cost(sum[i], exact_max));
    }
    for (int32_t j = 0; j < n; j++)
        key[j] = (start_key){w->job[j].start, j};
    qsort(key, (size_t)n, sizeof *key, by_start);
    for (int32_t i = 0; i < n; i++)
        order[i] = key[i].job;
    d = (dealer){n, order, first, last, own, pre};
    /* the least M that deals every job: between the dearest job and all */
    hi = add_sat(pre[m > 0 ? m - 1 : 0], 0);
    for (int32_t j = 0; j < n; j++)
        hi = add_sat(hi, own[j]);
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (deal(&d, n_shards, mid, NULL))
            hi = mid;
        else
            lo = mid + 1;
    }
    deal(&d, n_shards, lo, owner);
out:
    free(t);
    free(first);
    free(last);
    free(order);
    free(own);
    free(sum);
    free(pre);
    free(key);
    return err;
}
