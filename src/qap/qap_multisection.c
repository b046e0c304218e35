/* qap_multisection.c - Top-Down hierarchical multisection (VieM Sec. 3.1,
 * SharedMap Sec. 4-5): the task graph is split into a_k blocks, each block
 * into a_{k-1}, ... down to single PEs.  One code path serves one-to-one
 * mapping (unit weights, one task per PE: the caps make every split
 * perfectly balanced) and general process mapping (many tasks per PE,
 * caps from SharedMap's adaptive imbalance, Lemma 5.1, so the final PEs
 * carry at most `bound` weight).
 *
 * Subproblems are independent: a small thread pool (tm_ctx_threads)
 * works on them as soon as they appear (the non-blocking layer schedule).
 * METIS itself is serialised by a mutex (qap_metis.c), so threads only
 * overlap the non-METIS work (subgraph extraction, balance correction).
 * Seeds depend on the subproblem, not on the thread, so the result is the
 * same for any thread count. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "qap_int.h"

typedef struct sub {
    int64_t lo, hi;  /* range of ord[] */
    int level;       /* split into h->a[level-1] blocks */
    int64_t pe0;     /* first PE of this subtree */
} sub;

typedef struct pool {
    tm_ctx *ctx;
    const tm__qgraph *g;
    const tm_hier *h;
    double bound;
    bool integral;
    int ncuts;     /* METIS bisections tried per split */
    int ncuts_top; /* ... for the top-level split */
    uint64_t seed;
    int32_t *ord;
    int32_t *pe;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    sub *stack;
    size_t nstack, capstack;
    int64_t pending; /* queued + running */
    tm_err err;
} pool;

double tm__qap_bound(const tm__qgraph *g, const tm_hier *h, double eps)
{
    double b = (1.0 + eps) * g->total_vw / (double)h->n_pe;
    bool integral = true;
    for (int32_t u = 0; u < g->n; u++)
        if (g->vw[u] != floor(g->vw[u]))
            integral = false;
    if (integral)
        b = ceil(b - 1e-9);
    return b;
}

/* Largest weight a child block may get (Lemma 5.1): with subgraph weight c
 * on k' PEs at depth l, child cap = c/a * (bound*k'/c)^(1/l). */
static double child_cap(const pool *P, double c, int level)
{
    double a = P->h->a[level - 1], kp = (double)P->h->group[level];
    double cap = c / a * pow(P->bound * kp / c, 1.0 / level);
    double hard = P->bound * kp / a;
    if (level == 1)
        cap = P->bound;
    if (P->integral) {
        cap = floor(cap + 1e-9);
        if (cap < ceil(c / a - 1e-9))
            cap = ceil(c / a - 1e-9);
    }
    return cap > hard ? hard : cap;
}

static uint64_t sub_seed(uint64_t seed, const sub *s)
{
    uint64_t x = seed ^ ((uint64_t)s->pe0 * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)s->level << 56);
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ULL;
    return x ^ (x >> 29);
}

static int push(pool *P, sub s)
{
    if (tm__grow((void **)&P->stack, &P->capstack, P->nstack + 1, sizeof *P->stack) < 0)
        return -1;
    P->stack[P->nstack++] = s;
    P->pending++;
    return 0;
}

/* Solves one subproblem: partition its range, reorder it by block, return
 * the children in kids[] (count in *nkids). */
static tm_err solve(pool *P, const sub *s, int32_t *map, sub *kids, int *nkids)
{
    const tm_hier *h = P->h;
    int32_t nv = (int32_t)(s->hi - s->lo), a = s->level > 0 ? h->a[s->level - 1] : 1;
    int32_t *verts = P->ord + s->lo, *part = NULL, *tmp = NULL;
    double *cap = NULL;
    int64_t *start = NULL;
    tm__qgraph sg;
    tm_err err = TM_EOK;
    memset(&sg, 0, sizeof sg);
    *nkids = 0;
    if (nv <= 0)
        return TM_EOK;
    if (s->level == 0) {
        for (int32_t i = 0; i < nv; i++)
            P->pe[verts[i]] = (int32_t)s->pe0;
        return TM_EOK;
    }
    if (a == 1) {
        kids[(*nkids)++] = (sub){s->lo, s->hi, s->level - 1, s->pe0};
        return TM_EOK;
    }
    part = tm__malloc_n((size_t)nv, sizeof *part);
    tmp = tm__malloc_n((size_t)nv, sizeof *tmp);
    cap = tm__malloc_n((size_t)a, sizeof *cap);
    start = tm__calloc_n((size_t)a + 1, sizeof *start);
    if (!part || !tmp || !cap || !start) {
        err = tm__nomem(P->ctx);
        goto out;
    }
    err = tm__qgraph_induced(P->ctx, P->g, verts, nv, map, &sg);
    if (err)
        goto out;
    {
        double c = sg.total_vw, cc = child_cap(P, c, s->level);
        for (int32_t j = 0; j < a; j++)
            cap[j] = cc;
    }
    err = tm__qap_partition(P->ctx, &sg, a, cap,
                            s->level == h->k ? P->ncuts_top : P->ncuts,
                            sub_seed(P->seed, s), part);
    if (err)
        goto out;
    /* stable counting sort of the range by block */
    for (int32_t i = 0; i < nv; i++)
        start[part[i] + 1]++;
    for (int32_t j = 0; j < a; j++)
        start[j + 1] += start[j];
    for (int32_t i = 0; i < nv; i++)
        tmp[start[part[i]]++] = verts[i];
    memcpy(verts, tmp, (size_t)nv * sizeof *verts);
    {
        int64_t lo = s->lo;
        for (int32_t j = 0; j < a; j++) {
            int64_t hi = s->lo + start[j];
            if (hi > lo)
                kids[(*nkids)++] =
                    (sub){lo, hi, s->level - 1, s->pe0 + (int64_t)j * h->group[s->level - 1]};
            lo = hi;
        }
    }
out:
    tm__qgraph_release(&sg);
    free(part);
    free(tmp);
    free(cap);
    free(start);
    return err;
}

static void *worker(void *arg)
{
    pool *P = arg;
    int32_t *map = tm__malloc_n((size_t)P->g->n, sizeof *map);
    sub *kids = tm__malloc_n((size_t)1 << 16, sizeof *kids);
    pthread_mutex_lock(&P->mu);
    if (!map || !kids) {
        if (!P->err)
            P->err = tm__nomem(P->ctx);
        pthread_cond_broadcast(&P->cv);
    } else {
        for (int32_t i = 0; i < P->g->n; i++)
            map[i] = -1;
    }
    while (map && kids) {
        sub s;
        int nk = 0;
        tm_err err;
        while (P->nstack == 0 && P->pending > 0 && !P->err)
            pthread_cond_wait(&P->cv, &P->mu);
        if (P->err || P->pending == 0)
            break;
        s = P->stack[--P->nstack];
        pthread_mutex_unlock(&P->mu);
        err = solve(P, &s, map, kids, &nk);
        pthread_mutex_lock(&P->mu);
        if (err && !P->err)
            P->err = err;
        for (int i = 0; i < nk && !P->err; i++)
            if (push(P, kids[i]) < 0)
                P->err = tm__nomem(P->ctx);
        P->pending--;
        pthread_cond_broadcast(&P->cv);
    }
    pthread_mutex_unlock(&P->mu);
    free(map);
    free(kids);
    return NULL;
}

tm_err tm__qap_multisection(tm_ctx *ctx, const tm__qgraph *g, const tm_hier *h, double bound,
                            uint64_t seed, int32_t *pe)
{
    pool P;
    int nthreads = tm_ctx_threads(ctx);
    pthread_t th[64];
    int started = 0;
    tm_err err;
    for (int i = 0; i < h->k; i++)
        if (h->a[i] > (1 << 16))
            return tm__fail(ctx, TM_EUSAGE, "hierarchy level %d has more than 65536 blocks",
                            i + 1);
    memset(&P, 0, sizeof P);
    P.ctx = ctx;
    P.g = g;
    P.h = h;
    P.bound = bound;
    P.seed = seed;
    P.pe = pe;
    P.integral = true;
    /* METIS bisection tries per split.  One-to-one (quotient graphs): 8;
     * more did not help (whole trials do).  General mapping: the top-level
     * split carries the largest distance and its quality decides J: on
     * rgg16 -> 4:16:16 with 3%, top/other tries 8/8 give J = 716,772 in
     * 7 s, 128/16 669,736 in 22 s, 256/8 661,150 in 39 s (docs/qap.md).
     * Top tries: size / 2^13, at most 2^26 / size (entries x tries), 8..256
     * (about 90 for rgg16; small graphs gain little and stay fast). */
    P.ncuts = 8;
    P.ncuts_top = 8;
    if (bound > 1.0 || g->n > h->n_pe) {
        int64_t size = g->n + g->xadj[g->n], t = size >> 13;
        if (size > 0 && t > ((int64_t)1 << 26) / size)
            t = ((int64_t)1 << 26) / size;
        P.ncuts = size >= (1 << 16) ? 16 : 8;
        P.ncuts_top = t < 8 ? 8 : t > 256 ? 256 : (int)t;
    }
    for (int32_t u = 0; u < g->n; u++) {
        if (g->vw[u] != floor(g->vw[u]))
            P.integral = false;
        if (g->vw[u] > bound)
            return tm__fail(ctx, TM_EINFEASIBLE,
                            "task %d has weight %g, more than the %g one PE may carry", u,
                            g->vw[u], bound);
    }
    if (g->total_vw > bound * (double)h->n_pe * (1 + 1e-12))
        return tm__fail(ctx, TM_EINFEASIBLE, "total task weight %g exceeds %lld PEs x %g",
                        g->total_vw, (long long)h->n_pe, bound);
    P.ord = tm__malloc_n((size_t)(g->n ? g->n : 1), sizeof *P.ord);
    if (!P.ord)
        return tm__nomem(ctx);
    for (int32_t u = 0; u < g->n; u++)
        P.ord[u] = u;
    pthread_mutex_init(&P.mu, NULL);
    pthread_cond_init(&P.cv, NULL);
    if (push(&P, (sub){0, g->n, h->k, 0}) < 0) {
        P.err = tm__nomem(ctx);
        goto out;
    }
    if (nthreads > 64)
        nthreads = 64;
    for (int i = 1; i < nthreads; i++) {
        if (pthread_create(&th[started], NULL, worker, &P) != 0)
            break;
        started++;
    }
    worker(&P);
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
out:
    err = P.err;
    pthread_mutex_destroy(&P.mu);
    pthread_cond_destroy(&P.cv);
    free(P.stack);
    free(P.ord);
    return err;
}
