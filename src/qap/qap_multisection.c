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
 * Concurrent METIS calls go to worker processes (src/graph/metis_pool.c),
 * forked here before the threads start (docs/parallel.md).
 * Seeds depend on the subproblem, not on the thread, so the result is the
 * same for any thread count. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "qap_int.h"
#include "../graph/metis_pool.h"

typedef struct sub {
    int64_t lo, hi;  /* range of ord[] */
    int level;       /* split into h->a[level-1] blocks */
    int64_t pe0;     /* first PE of this subtree */
} sub;

/* A split whose METIS tries are shared out (the top split of general
 * mapping, where one METIS call would otherwise hold up every thread):
 * the a-way split is done as METIS does it, by recursive bisection, but
 * each bisection's `ncuts` tries run as several trials (tasks) of fewer
 * tries with their own seeds, and the lowest cut wins (first trial on
 * ties) - the same best-of-ncuts per bisection as one METIS call. */
typedef struct split {
    sub s;
    tm__sgraph sg;   /* induced subgraph of the range */
    double cc;       /* cap of one final block */
    int32_t a;
    int32_t *fin;    /* final block of each vertex of sg */
    int open;        /* bisections not yet done */
} split;

typedef struct bis {
    split *sp;
    int32_t *verts;  /* vertices of sp->sg in this part */
    int32_t n, b0, nb; /* final blocks [b0, b0 + nb) */
    tm__sgraph g2;   /* induced subgraph of sp->sg on verts */
    int32_t **part;
    double *cut;
    int ntrial, left;
} bis;

typedef struct task {
    sub s;
    bis *bs;   /* NULL: subproblem s to start; else trial `trial` of bs */
    int trial;
} task;

typedef struct pool {
    tm_ctx *ctx;
    const tm__sgraph *g;
    const tm_hier *h;
    double bound;
    bool integral;
    int ncuts;     /* METIS bisections tried per split */
    int ncuts_top; /* ... for the top-level split */
    bool general;  /* many-to-one (bound > 1 or more tasks than PEs) */
    int top_tries; /* whole tries of the top split (one-to-one) */
    uint64_t seed;
    int32_t *ord;
    int32_t *pe;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    task *stack;
    size_t nstack, capstack;
    int64_t pending; /* queued + running */
    double *busy;    /* seconds each thread spent on tasks (bench, tests) */
    int nbusy;
    tm_err err;
} pool;

double tm__qap_bound(const tm__sgraph *g, const tm_hier *h, double eps)
{
    return tm__qap_bound_pes(g, h->n_pe, eps);
}

double tm__qap_bound_pes(const tm__sgraph *g, int64_t n_pe, double eps)
{
    double b = (1.0 + eps) * g->total_vw / (double)n_pe;
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

static int push(pool *P, task t)
{
    if (tm__grow((void **)&P->stack, &P->capstack, P->nstack + 1, sizeof *P->stack) < 0)
        return -1;
    P->stack[P->nstack++] = t;
    P->pending++;
    return 0;
}

/* METIS tries of a bisection are shared out as trials of TRIAL_CUTS
 * tries each (only the top split of general mapping has more than that).
 * The count depends on ncuts alone, never on the thread count. */
#define TRIAL_CUTS 16

static int n_trials(int ncuts) { return ncuts <= TRIAL_CUTS ? 1 : (ncuts + TRIAL_CUTS - 1) / TRIAL_CUTS; }

static uint64_t bis_seed(uint64_t seed, const bis *b, int k)
{
    uint64_t x = seed ^ ((uint64_t)(b->b0 + 1) << 40) ^ ((uint64_t)b->nb << 20) ^ (uint64_t)k;
    x *= 0x9e3779b97f4a7c15ULL;
    return x ^ (x >> 31);
}

/* Weighted edge cut of part on g (the criterion between trials). */
static double cut_of(const tm__sgraph *g, const int32_t *part)
{
    double c = 0;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
            if (part[g->adj[e]] != part[u])
                c += g->w[e];
    return c;
}

static void split_free(split *sp)
{
    if (!sp)
        return;
    tm__sgraph_release(&sp->sg);
    free(sp->fin);
    free(sp);
}

static void bis_free(bis *b)
{
    if (!b)
        return;
    tm__sgraph_release(&b->g2);
    for (int k = 0; b->part && k < b->ntrial; k++)
        free(b->part[k]);
    free(b->part);
    free(b->cut);
    free(b->verts);
    free(b);
}

/* Reorders the range of s by block (stable counting sort) and returns the
 * children in kids[] (count in *nkids). */
static tm_err finish(pool *P, const sub *s, const int32_t *part, int32_t a, sub *kids, int *nkids)
{
    const tm_hier *h = P->h;
    int32_t nv = (int32_t)(s->hi - s->lo), *verts = P->ord + s->lo;
    int32_t *tmp = tm__malloc_n((size_t)nv, sizeof *tmp);
    int64_t *start = tm__calloc_n((size_t)a + 1, sizeof *start), lo = s->lo;
    if (!tmp || !start) {
        free(tmp), free(start);
        return tm__nomem(P->ctx);
    }
    for (int32_t i = 0; i < nv; i++)
        start[part[i] + 1]++;
    for (int32_t j = 0; j < a; j++)
        start[j + 1] += start[j];
    for (int32_t i = 0; i < nv; i++)
        tmp[start[part[i]]++] = verts[i];
    memcpy(verts, tmp, (size_t)nv * sizeof *verts);
    for (int32_t j = 0; j < a; j++) {
        int64_t hi = s->lo + start[j];
        if (hi > lo)
            kids[(*nkids)++] =
                (sub){lo, hi, s->level - 1, s->pe0 + (int64_t)j * h->group[s->level - 1]};
        lo = hi;
    }
    free(tmp), free(start);
    return TM_EOK;
}

/* A bisection of sp over verts (owned, NULL = all of sp->sg) into final
 * blocks [b0, b0 + nb); map: scratch of size sp->sg.n, all -1. */
static tm_err bis_new(pool *P, split *sp, int32_t *verts, int32_t n, int32_t b0, int32_t nb,
                      int32_t *map, bis **out)
{
    int ncuts = P->ncuts_top;
    bis *b = calloc(1, sizeof *b);
    tm_err err = TM_EOK;
    *out = NULL;
    if (!b) {
        free(verts);
        return tm__nomem(P->ctx);
    }
    b->sp = sp;
    b->verts = verts;
    b->n = n;
    b->b0 = b0;
    b->nb = nb;
    b->ntrial = b->left = n_trials(ncuts);
    b->part = tm__calloc_n((size_t)b->ntrial, sizeof *b->part);
    b->cut = tm__calloc_n((size_t)b->ntrial, sizeof *b->cut);
    if (!b->part || !b->cut)
        err = tm__nomem(P->ctx);
    for (int k = 0; !err && k < b->ntrial; k++)
        if (!(b->part[k] = tm__malloc_n((size_t)(n ? n : 1), sizeof **b->part)))
            err = tm__nomem(P->ctx);
    if (!err)
        err = tm__sgraph_induced(P->ctx, &sp->sg, verts, n, map, &b->g2);
    if (err) {
        bis_free(b);
        return err;
    }
    *out = b;
    return TM_EOK;
}

/* Whole-split tries: the top split of a one-to-one problem is done
 * P->top_tries times with different seeds and the lowest weighted cut is
 * kept.  It carries the largest distance, so its cut decides most of J,
 * and the best of several complete a-way splits is much lower than one
 * split with more tries per bisection (METIS's ncuts): on rgg16_k1024
 * (16 x 64 PEs) the 16-way cut of recursive bisection with 8 tries per
 * bisection ranges 2,774-3,072 over 64 seeds, while 300 tries per
 * bisection give 2,915 (docs/qap.md).  Lower splits carry a tenth of the
 * distance or less: tries there gained 0.3% on rgg16_k1024 and nothing at
 * n = 256, for 3x the time.  General mapping keeps its many tries per
 * bisection (pool_setup). */
static int split_tries(const pool *P, const sub *s)
{
    if (P->general || s->level != P->h->k || P->top_tries < 1)
        return 1;
    return P->top_tries;
}

/* The a-way split of sg with the lowest weighted cut over split_tries
 * tries (the first on ties; try 0 has the seed a single try would have).
 * A try that ties the best cut ends the tries: on graphs whose top split
 * METIS finds every time (rgg16_k256, grid64_k256: the same cut for 64
 * seeds) further tries only cost time. */
static tm_err best_split(pool *P, const sub *s, const tm__sgraph *sg, int32_t a,
                         const double *cap, int ncuts, int32_t *part)
{
    int tries = split_tries(P, s);
    int32_t *cand = NULL;
    double best = 0;
    tm_err err = TM_EOK;
    if (tries > 1 && !(cand = tm__malloc_n((size_t)sg->n, sizeof *cand)))
        return tm__nomem(P->ctx);
    for (int t = 0; !err && t < tries; t++) {
        int32_t *out = t == 0 ? part : cand;
        uint64_t seed = sub_seed(P->seed, s);
        double c;
        if (t > 0 && tm__stopped(P->ctx))
            break; /* the caller wants an answer now: the best so far */
        if (t > 0) /* independent of the trial seeds (seed + t * golden ratio) */
            seed = sub_seed(seed ^ ((uint64_t)t * 0xd1b54a32d192ed03ULL), s);
        err = tm__metis_part_caps(P->ctx, sg, a, cap, ncuts, seed, out);
        if (err || tries == 1)
            break;
        c = cut_of(sg, out);
        if (t > 0 && c == best)
            break; /* a seed found the same cut again: likely the floor */
        if (t == 0 || c < best) {
            best = c;
            if (t > 0)
                memcpy(part, cand, (size_t)sg->n * sizeof *part);
        }
    }
    free(cand);
    return err;
}

/* Starts subproblem s: leaves and pass-through levels at once; a split
 * with one METIS call (children in kids[]); or the first bisection of a
 * split whose tries are shared out (*out, its trials to be queued). */
static tm_err start(pool *P, const sub *s, int32_t *map, sub *kids, int *nkids, bis **out)
{
    const tm_hier *h = P->h;
    int32_t nv = (int32_t)(s->hi - s->lo), a = s->level > 0 ? h->a[s->level - 1] : 1;
    int32_t *verts = P->ord + s->lo, *part = NULL, *all = NULL;
    int ncuts = s->level == h->k ? P->ncuts_top : P->ncuts;
    split *sp = NULL;
    double *cap = NULL;
    tm_err err = TM_EOK;
    *nkids = 0;
    *out = NULL;
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
    sp = calloc(1, sizeof *sp);
    if (!sp)
        return tm__nomem(P->ctx);
    sp->s = *s;
    sp->a = a;
    err = tm__sgraph_induced(P->ctx, P->g, verts, nv, map, &sp->sg);
    if (err)
        goto out;
    sp->cc = child_cap(P, sp->sg.total_vw, s->level);
    if (n_trials(ncuts) == 1) {
        part = tm__malloc_n((size_t)nv, sizeof *part);
        cap = tm__malloc_n((size_t)a, sizeof *cap);
        if (!part || !cap) {
            err = tm__nomem(P->ctx);
            goto out;
        }
        for (int32_t j = 0; j < a; j++)
            cap[j] = sp->cc;
        err = best_split(P, s, &sp->sg, a, cap, ncuts, part);
        if (!err)
            err = finish(P, s, part, a, kids, nkids);
        goto out;
    }
    sp->fin = tm__malloc_n((size_t)nv, sizeof *sp->fin);
    all = tm__malloc_n((size_t)nv, sizeof *all);
    if (!sp->fin || !all) {
        free(all);
        err = tm__nomem(P->ctx);
        goto out;
    }
    for (int32_t i = 0; i < nv; i++)
        all[i] = i;
    sp->open = 1;
    err = bis_new(P, sp, all, nv, 0, a, map, out);
    if (!err)
        sp = NULL; /* owned by the bisection now */
out:
    split_free(sp);
    free(part);
    free(cap);
    return err;
}

/* Trial k of a bisection (no lock held): its own part vector and cut. */
static tm_err run_trial(pool *P, bis *b, int k)
{
    int per = (P->ncuts_top + b->ntrial - 1) / b->ntrial;
    int32_t n1 = b->nb / 2;
    double cap[2];
    tm_err err;
    cap[0] = b->sp->cc * (double)(b->nb - n1);
    cap[1] = b->sp->cc * (double)n1;
    err = tm__metis_part_caps(P->ctx, &b->g2, 2, cap, per,
                            bis_seed(sub_seed(P->seed, &b->sp->s), b, k), b->part[k]);
    if (!err)
        b->cut[k] = cut_of(&b->g2, b->part[k]);
    return err;
}

/* Every trial of b is in: the best side assignment; final blocks, or the
 * two next bisections (in next[], count in *nnext). */
static tm_err bis_done(pool *P, bis *b, int32_t *map, bis **next, int *nnext)
{
    int best = 0;
    int32_t nb0 = b->nb - b->nb / 2;
    tm_err err = TM_EOK;
    *nnext = 0;
    for (int k = 1; k < b->ntrial; k++)
        if (b->cut[k] < b->cut[best])
            best = k;
    for (int side = 0; side < 2 && !err; side++) {
        int32_t nb = side ? b->nb / 2 : nb0, b0 = b->b0 + (side ? nb0 : 0), m = 0, *vs;
        for (int32_t i = 0; i < b->n; i++)
            m += b->part[best][i] == side;
        if (nb == 1) {
            for (int32_t i = 0; i < b->n; i++)
                if (b->part[best][i] == side)
                    b->sp->fin[b->verts[i]] = b0;
            continue;
        }
        vs = tm__malloc_n((size_t)(m ? m : 1), sizeof *vs);
        if (!vs)
            return tm__nomem(P->ctx);
        m = 0;
        for (int32_t i = 0; i < b->n; i++)
            if (b->part[best][i] == side)
                vs[m++] = b->verts[i];
        err = bis_new(P, b->sp, vs, m, b0, nb, map, &next[*nnext]);
        if (!err)
            (*nnext)++;
    }
    return err;
}

/* One task (no lock held).  *queued: up to two new bisections whose
 * trials must be queued (count *nq). */
static tm_err run_task(pool *P, const task *t, int32_t *map, sub *kids, int *nk, bis **queued,
                       int *nq)
{
    bis *b = t->bs;
    split *sp;
    bool failed, last;
    tm_err err;
    *nk = 0;
    *nq = 0;
    if (!b) {
        err = start(P, &t->s, map, kids, nk, &queued[0]);
        *nq = queued[0] != NULL;
        return err;
    }
    err = run_trial(P, b, t->trial);
    pthread_mutex_lock(&P->mu);
    last = --b->left == 0;
    failed = P->err != TM_EOK;
    pthread_mutex_unlock(&P->mu);
    if (!last)
        return err;
    /* every trial is in: this thread goes on with the split */
    sp = b->sp;
    if (!err && !failed)
        err = bis_done(P, b, map, queued, nq);
    bis_free(b);
    pthread_mutex_lock(&P->mu);
    sp->open += *nq - 1;
    last = sp->open == 0;
    pthread_mutex_unlock(&P->mu);
    if (err || failed) {
        for (int i = 0; i < *nq; i++)
            bis_free(queued[i]);
        *nq = 0;
        if (last)
            split_free(sp);
        return err;
    }
    if (last) {
        err = finish(P, &sp->s, sp->fin, sp->a, kids, nk);
        split_free(sp);
    }
    return err;
}

/* One member of the team (tm__team_once) over the pool arg. */
static void worker(void *arg, int member)
{
    pool *P = arg;
    int32_t *map = tm__malloc_n((size_t)P->g->n, sizeof *map);
    sub *kids = tm__malloc_n((size_t)1 << 16, sizeof *kids);
    double busy = 0;
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
        task t;
        bis *nb[2] = {NULL, NULL};
        int nk = 0, nq = 0;
        double t0;
        tm_err err;
        while (P->nstack == 0 && P->pending > 0 && !P->err)
            pthread_cond_wait(&P->cv, &P->mu);
        if (P->err || P->pending == 0)
            break;
        t = P->stack[--P->nstack];
        pthread_mutex_unlock(&P->mu);
        t0 = tm__now();
        err = run_task(P, &t, map, kids, &nk, nb, &nq);
        busy += tm__now() - t0;
        pthread_mutex_lock(&P->mu);
        if (err && !P->err)
            P->err = err;
        for (int i = 0; i < nk && !P->err; i++)
            if (push(P, (task){kids[i], NULL, 0}) < 0)
                P->err = tm__nomem(P->ctx);
        for (int i = 0; i < nq; i++) {
            /* trials pushed last-first so that trial 0 is taken first */
            int k;
            for (k = nb[i]->ntrial - 1; k >= 0 && !P->err; k--)
                if (push(P, (task){t.s, nb[i], k}) < 0)
                    P->err = tm__nomem(P->ctx);
            if (k >= 0) {
                /* not fully queued: the queued ones wait as if run */
                nb[i]->left = nb[i]->ntrial - 1 - k;
                if (nb[i]->left == 0) {
                    if (--nb[i]->sp->open == 0)
                        split_free(nb[i]->sp);
                    bis_free(nb[i]);
                }
            }
        }
        P->pending--;
        pthread_cond_broadcast(&P->cv);
    }
    if (member < P->nbusy)
        P->busy[member] = busy;
    pthread_mutex_unlock(&P->mu);
    free(map);
    free(kids);
}

/* The pool's inputs and METIS tries, and the checks that every task fits
 * a PE and all tasks the PEs (before any allocation). */
static tm_err pool_setup(tm_ctx *ctx, const tm__sgraph *g, const tm_hier *h, double bound,
                         int top_tries, uint64_t seed, int32_t *pe, pool *P)
{
    for (int i = 0; i < h->k; i++)
        if (h->a[i] > (1 << 16))
            return tm__fail(ctx, TM_EUSAGE, "hierarchy level %d has more than 65536 blocks",
                            i + 1);
    P->ctx = ctx;
    P->g = g;
    P->h = h;
    P->bound = bound;
    P->seed = seed;
    P->top_tries = top_tries;
    P->pe = pe;
    P->integral = true;
    /* METIS bisection tries per split.  One-to-one (quotient graphs): 8;
     * more did not help (whole trials do).  General mapping: the top-level
     * split carries the largest distance and its quality decides J: on
     * rgg16 -> 4:16:16 with 3%, top/other tries 8/8 give J = 716,772 in
     * 7 s, 128/16 669,736 in 22 s, 256/8 661,150 in 39 s (docs/qap.md).
     * Top tries: size / 2^13, at most 2^26 / size (entries x tries), 8..256
     * (about 90 for rgg16; small graphs gain little and stay fast).
     * One-to-one above 2^22 entries (a 3D stencil of more than about
     * 600,000 tasks): 4, every bisection of the whole graph costing
     * seconds; 2^20 tasks on 64:128:128, topdown + nc:1, one thread:
     * 42.6 -> 23.9 s of CPU, J 52,682,244 -> 52,973,286 (+0.55 %; 2
     * tries: 13.8 s, +2.0 %). */
    P->ncuts = 8;
    P->ncuts_top = 8;
    if (g->n + g->xadj[g->n] > ((int64_t)1 << 22))
        P->ncuts = P->ncuts_top = 4; /* one-to-one; general mapping below */
    P->general = bound > 1.0 || g->n > h->n_pe;
    if (P->general) {
        int64_t size = g->n + g->xadj[g->n], t = size >> 13;
        if (size > 0 && t > ((int64_t)1 << 26) / size)
            t = ((int64_t)1 << 26) / size;
        P->ncuts = size >= (1 << 16) ? 16 : 8;
        P->ncuts_top = t < 8 ? 8 : t > 256 ? 256 : (int)t;
    }
    for (int32_t u = 0; u < g->n; u++) {
        if (g->vw[u] != floor(g->vw[u]))
            P->integral = false;
        if (g->vw[u] > bound)
            return tm__fail(ctx, TM_EINFEASIBLE,
                            "task %d has weight %g, more than the %g one PE may carry", u,
                            g->vw[u], bound);
    }
    if (g->total_vw > bound * (double)h->n_pe * (1 + 1e-12))
        return tm__fail(ctx, TM_EINFEASIBLE, "total task weight %g exceeds %lld PEs x %g",
                        g->total_vw, (long long)h->n_pe, bound);
    return TM_EOK;
}

tm_err tm__qap_multisection(tm_ctx *ctx, const tm__sgraph *g, const tm_hier *h, double bound,
                            int top_tries, uint64_t seed, int32_t *pe)
{
    pool P;
    int nthreads = tm_ctx_threads(ctx);
    int members;
    tm_err err;
    memset(&P, 0, sizeof P);
    if ((err = pool_setup(ctx, g, h, bound, top_tries, seed, pe, &P)) != TM_EOK)
        return err;
    P.ord = tm__malloc_n((size_t)(g->n ? g->n : 1), sizeof *P.ord);
    if (!P.ord)
        return tm__nomem(ctx);
    for (int32_t u = 0; u < g->n; u++)
        P.ord[u] = u;
    pthread_mutex_init(&P.mu, NULL);
    pthread_cond_init(&P.cv, NULL);
    if (push(&P, (task){(sub){0, g->n, h->k, 0}, NULL, 0}) < 0) {
        P.err = tm__nomem(ctx);
        goto out;
    }
    if (nthreads > 64)
        nthreads = 64;
    P.busy = tm__calloc_n((size_t)nthreads, sizeof *P.busy);
    P.nbusy = P.busy ? nthreads : 0;
    if (nthreads > 1)
        tm__metis_pool_prefork(tm__ctx_metis_pool(ctx), nthreads - 1);
    members = tm__team_once(nthreads, worker, &P);
    if (P.nbusy > 1) {
        char line[600];
        size_t len = 0;
        for (int i = 0; i < members && len < sizeof line - 16; i++)
            len += (size_t)snprintf(line + len, sizeof line - len, " %.2f", P.busy[i]);
        tm__log(ctx, TM_LOG_INFO, "multisection: %d threads, busy s:%s", members, line);
    }
out:
    /* after a failure: trials still queued (a bisection is freed with its
     * last trial, a split with its last bisection) */
    for (size_t i = 0; i < P.nstack; i++) {
        bis *b = P.stack[i].bs;
        if (b && --b->left == 0) {
            if (--b->sp->open == 0)
                split_free(b->sp);
            bis_free(b);
        }
    }
    err = P.err;
    pthread_mutex_destroy(&P.mu);
    pthread_cond_destroy(&P.cv);
    free(P.stack);
    free(P.ord);
    free(P.busy);
    return err;
}
