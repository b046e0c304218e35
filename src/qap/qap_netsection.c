/* qap_netsection.c - Top-Down multisection on a real network: the tasks
 * are split along the PE tree of qap_ptree.c (network groups, hosts,
 * node-internal levels) with METIS and exact-capacity correction
 * (tm__metis_part_caps), one-to-one, then the `topdown` / `topdown-ms`
 * strategies of network mode.
 *
 * Unlike VieM's uniform hierarchy, the groups of a real allocation have
 * different sizes and are not all equidistant (halves of a torus box), so
 * two things are added:
 *   - capacities: each child gets as many tasks as it has PEs; with fewer
 *     tasks than PEs the largest children are filled first (packing keeps
 *     communicating tasks on fewer hosts);
 *   - orientation: which block goes to which child is chosen by the
 *     traffic of the block with tasks already placed elsewhere, measured
 *     from the child's representative PE to the representative of the
 *     group holding each partner (Scotch's dual recursive bipartitioning
 *     uses the same external-communication idea).
 * Subproblems are processed breadth first, one wave (queue level) at a
 * time: the METIS partitions of a wave depend only on each job's own tasks
 * and run in tm_ctx_threads() threads; the orientation then runs in queue
 * order, so the regions it sees, and the result, are those of a
 * sequential run and depend only on the seed. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "qap_int.h"
#include "qap_ptree.h"
#include "qap_secmemo.h"
#include "../graph/metis_pool.h"

#define ORIENT_MAX 8 /* children above this are equidistant groups (fan-out of a switch level) */

typedef struct job { int32_t v, lo, hi; } job;

typedef struct nsec {
    tm_ctx *ctx;
    const tm__sgraph *g;
    const tm__ptree *t;
    const tm__qdist *o;
    uint64_t seed;
    double bound;     /* >= 0: general mapping, at most this weight per PE */
    tm__secmemo *memo; /* splits shared by the trials (qap_secmemo.h), or NULL */
    bool splits_only;  /* the splits into the memo, blocks not oriented (net_trials) */
    int32_t *ord, *region, *pe;
    int32_t *rpe;      /* per task: t->pe[region[task]], read beside region in
                        * orient_costs (one cache miss per partner, not two) */
    job *q;
    size_t qh, qt, qcap;
} nsec;

static int push(nsec *S, int32_t v, int32_t lo, int32_t hi)
{
    if (tm__grow((void **)&S->q, &S->qcap, S->qt + 1, sizeof *S->q) < 0)
        return -1;
    S->q[S->qt++] = (job){v, lo, hi};
    return 0;
}

/* General mapping: every child may take `bound` weight per PE below it
 * (METIS then splits the weight in proportion to those caps). */
static void caps_general(const tm__ptree *t, int32_t v, double bound, double *cap)
{
    const int32_t *kids = t->kids + t->kid0[v];
    for (int32_t j = 0; j < t->nkid[v]; j++)
        cap[j] = bound * (double)t->npe[kids[j]];
}

/* Tasks per child: all PEs when the tasks fill the node, else the largest
 * children first. */
static void targets(const tm__ptree *t, int32_t v, int32_t nt, int64_t *tg)
{
    int32_t a = t->nkid[v];
    const int32_t *kids = t->kids + t->kid0[v];
    int64_t left = nt;
    for (int32_t j = 0; j < a; j++)
        tg[j] = 0;
    while (left > 0) {
        int32_t best = -1;
        for (int32_t j = 0; j < a; j++)
            if (tg[j] == 0 && (best < 0 || t->npe[kids[j]] > t->npe[kids[best]]))
                best = j;
        tg[best] = t->npe[kids[best]] < left ? t->npe[kids[best]] : left;
        left -= tg[best];
    }
}

static uint64_t sub_seed(uint64_t seed, int32_t v)
{
    uint64_t x = seed ^ ((uint64_t)(v + 1) * 0x9e3779b97f4a7c15ULL);
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ULL;
    return x ^ (x >> 29);
}

/* cost[b * na + c]: traffic of block b with tasks outside the node, times
 * the distance from child c's representative to the partner's region. */
static void orient_costs(const nsec *S, int32_t v, const int32_t *verts, int32_t nv,
                         const int32_t *part, const int32_t *act, int32_t na, double *cost)
{
    const tm__sgraph *g = S->g;
    const tm__ptree *t = S->t;
    const int32_t *kids = t->kids + t->kid0[v];
    int32_t rep[ORIENT_MAX];
    for (int32_t c = 0; c < na; c++)
        rep[c] = t->pe[kids[act[c]]];
    memset(cost, 0, (size_t)na * (size_t)na * sizeof *cost);
    for (int32_t i = 0; i < nv; i++) {
        int32_t u = verts[i], b = part[i];
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++) {
            int32_t x = g->adj[e];
            if (S->region[x] == v)
                continue;
            for (int32_t c = 0; c < na; c++)
                cost[b * na + c] += g->w[e] * tm__qd(S->o, rep[c], S->rpe[x]);
        }
    }
}

/* Block b goes to active child perm[b]; improving exchanges between blocks
 * of equal size (2-opt; exhaustive for two children). */
static void orient(const double *cost, const int64_t *size, int32_t na, int32_t *perm)
{
    bool again = true;
    for (int32_t b = 0; b < na; b++)
        perm[b] = b;
    while (again) {
        again = false;
        for (int32_t x = 0; x < na; x++)
            for (int32_t y = x + 1; y < na; y++) {
                double now, swapped;
                if (size[x] != size[y])
                    continue;
                now = cost[x * na + perm[x]] + cost[y * na + perm[y]];
                swapped = cost[x * na + perm[y]] + cost[y * na + perm[x]];
                if (swapped < now - 1e-9 * (now > 1 ? now : 1)) {
                    int32_t tmp = perm[x];
                    perm[x] = perm[y];
                    perm[y] = tmp;
                    again = true;
                }
            }
    }
}

/* The partition of one job (phase 1 of a wave, any thread): active
 * children act[0..na-1] with capacities, part[i] = block of verts[i]. */
typedef struct jpart {
    int32_t na, *act, *part;
    double *cap;
    bool fresh;   /* computed here, not found in the memo: to be remembered */
    uint64_t h;   /* memo key */
} jpart;

static void jpart_free(jpart *jp)
{
    free(jp->act), free(jp->part), free(jp->cap);
    memset(jp, 0, sizeof *jp);
}

/* Needs a METIS split (not a leaf nor, one-to-one, a node of single-PE
 * children, whose tasks just take one PE each). */
static bool needs_split(const nsec *S, const job *jb)
{
    const tm__ptree *t = S->t;
    if (S->bound >= 0)
        return t->nkid[jb->v] > 0;
    return t->nkid[jb->v] > 0 && t->nleaf[jb->v] != t->nkid[jb->v];
}

/* On grids (one-to-one, with the memo; elsewhere every split is METIS's
 * with 8 tries, as before): tasks up to which a bisection is solved
 * exactly (at most C(12, 6) = 924 subsets).  Half of all splits of a
 * binary tree of PEs have 4 or 8 tasks, and a METIS call on them costs
 * its set-up and its tries (the most expensive levels of a 131,072-task
 * torus), where the exact answer is cheaper and never worse in cut. */
#define EXACT_MAX 12
/* METIS tries per split: 8, but one below this many tasks, where a call
 * is mostly set-up (131,072-task torus, natural order: 11.0 -> 8.1 s of
 * CPU, average dilation 4.177 -> 4.199; one try everywhere: 4.5 s, 4.51) */
#define FEW_TRIES_MAX 64

/* Phase 1: depends only on the job's own range, never on the other jobs
 * of the wave, so the wave's partitions can run in parallel.  map: the
 * caller's scratch (all -1). */
static tm_err partition_job(const nsec *S, const job *jb, int32_t *map, jpart *jp)
{
    const tm__ptree *t = S->t;
    int32_t v = jb->v, nv = jb->hi - jb->lo, a = t->nkid[v];
    int64_t *tg = tm__malloc_n((size_t)a, sizeof *tg);
    tm__sgraph sg;
    tm_err err = TM_EOK;
    memset(&sg, 0, sizeof sg);
    jp->na = 0;
    jp->part = tm__calloc_n((size_t)nv, sizeof *jp->part);
    jp->act = tm__malloc_n((size_t)a, sizeof *jp->act);
    jp->cap = tm__malloc_n((size_t)a, sizeof *jp->cap);
    if (!tg || !jp->part || !jp->act || !jp->cap) {
        err = tm__nomem(S->ctx);
        goto out;
    }
    if (S->bound >= 0) {
        caps_general(t, v, S->bound, jp->cap);
        for (int32_t j = 0; j < a; j++)
            jp->act[jp->na++] = j;
    } else {
        targets(t, v, nv, tg);
        for (int32_t j = 0; j < a; j++)
            if (tg[j] > 0) {
                jp->act[jp->na] = j;
                jp->cap[jp->na++] = (double)tg[j];
            }
    }
    if (jp->na > 1) {
        uint64_t s = sub_seed(S->seed, v);
        if (S->memo) { /* seed from the task set: the same split in every trial */
            const int32_t *known;
            jp->h = tm__secmemo_hash(S->ord + jb->lo, nv, tg, a);
            known = tm__secmemo_find(S->memo, jp->h, S->ord + jb->lo, nv, tg, a);
            if (known) {
                memcpy(jp->part, known, (size_t)nv * sizeof *jp->part);
                goto out;
            }
            jp->fresh = true;
            s = sub_seed(S->seed ^ jp->h, 0);
        }
        err = tm__sgraph_induced(S->ctx, S->g, S->ord + jb->lo, nv, map, &sg);
        if (!err && S->memo && jp->na == 2 && nv <= EXACT_MAX)
            tm__bisect_exact(&sg, (int32_t)jp->cap[0], jp->part);
        else if (!err)
            err = tm__metis_part_caps(S->ctx, &sg, jp->na, jp->cap,
                                      S->memo && nv <= FEW_TRIES_MAX ? 1 : 8, s, jp->part);
    }
out:
    tm__sgraph_release(&sg);
    free(tg);
    return err;
}

/* Phase 2 (in queue order): orients the blocks against the regions of
 * the tasks placed so far, reorders the range by child and queues them. */
static tm_err place_job(nsec *S, const job *jb, const jpart *jp)
{
    const tm__ptree *t = S->t;
    int32_t v = jb->v, nv = jb->hi - jb->lo, na = jp->na;
    const int32_t *kids = t->kids + t->kid0[v], *part = jp->part, *act = jp->act;
    int32_t *verts = S->ord + jb->lo, *perm = NULL, *tmp = NULL;
    int64_t *tg = NULL, *start = NULL;
    double *cost = NULL;
    tm_err err = TM_EOK;
    tmp = tm__malloc_n((size_t)nv, sizeof *tmp);
    perm = tm__malloc_n((size_t)(na ? na : 1), sizeof *perm);
    tg = tm__malloc_n((size_t)(na ? na : 1), sizeof *tg);
    start = tm__calloc_n((size_t)na + 1, sizeof *start);
    if (!tmp || !perm || !tg || !start) {
        err = tm__nomem(S->ctx);
        goto out;
    }
    for (int32_t b = 0; b < na; b++) {
        perm[b] = b;
        tg[b] = (int64_t)jp->cap[b];
    }
    if (na > 1 && na <= ORIENT_MAX && !S->splits_only) {
        cost = tm__malloc_n((size_t)na * (size_t)na, sizeof *cost);
        if (!cost) {
            err = tm__nomem(S->ctx);
            goto out;
        }
        orient_costs(S, v, verts, nv, part, act, na, cost);
        orient(cost, tg, na, perm);
    }
    /* stable counting sort of the range by destination child */
    for (int32_t i = 0; i < nv; i++)
        start[perm[part[i]] + 1]++;
    for (int32_t c = 0; c < na; c++)
        start[c + 1] += start[c];
    for (int32_t i = 0; i < nv; i++)
        tmp[start[perm[part[i]]]++] = verts[i];
    memcpy(verts, tmp, (size_t)nv * sizeof *verts);
    for (int32_t c = 0, lo = jb->lo; c < na; c++) {
        int32_t hi = jb->lo + (int32_t)start[c];
        for (int32_t i = lo; i < hi; i++) {
            S->region[S->ord[i]] = kids[act[c]];
            S->rpe[S->ord[i]] = t->pe[kids[act[c]]];
        }
        if (hi > lo && push(S, kids[act[c]], lo, hi) < 0) {
            err = tm__nomem(S->ctx);
            goto out;
        }
        lo = hi;
    }
out:
    free(tmp), free(perm), free(tg), free(start), free(cost);
    return err;
}

static void place_leaves(nsec *S, const job *jb)
{
    const tm__ptree *t = S->t;
    int32_t v = jb->v, nv = jb->hi - jb->lo;
    if (t->nkid[v] == 0) { /* one task, or (general mapping) all of them */
        for (int32_t i = 0; i < nv; i++)
            S->pe[S->ord[jb->lo + i]] = t->pe[v];
        return;
    }
    /* siblings that are single PEs are interchangeable */
    for (int32_t i = 0; i < nv; i++)
        S->pe[S->ord[jb->lo + i]] = t->pe[t->kids[t->kid0[v] + i]];
}

/* Phase 1 of a wave: the partitions of jobs [w0, w1) of the queue, by
 * tm_ctx_threads() threads taking jobs in turn. */
typedef struct wave {
    const nsec *S;
    size_t w0, w1;
    jpart *jp;
    atomic_size_t next;
    atomic_int err;
} wave;

/* One member of the team (tm__team_once): the jobs of the wave, one at a
 * time, with this member's scratch map. */
static void wave_worker(void *arg, int member)
{
    wave *W = arg;
    const nsec *S = W->S;
    int32_t *map = tm__malloc_n((size_t)(S->g->n ? S->g->n : 1), sizeof *map);
    if (!map) {
        int zero = TM_EOK;
        atomic_compare_exchange_strong(&W->err, &zero, (int)tm__nomem(S->ctx));
        return;
    }
    for (int32_t u = 0; u < S->g->n; u++)
        map[u] = -1;
    for (;;) {
        size_t i = atomic_fetch_add(&W->next, 1);
        tm_err err;
        if (i >= W->w1 - W->w0 || atomic_load(&W->err) != TM_EOK)
            break;
        if (!needs_split(S, &S->q[W->w0 + i]))
            continue;
        err = partition_job(S, &S->q[W->w0 + i], map, &W->jp[i]);
        if (err) {
            int zero = TM_EOK;
            atomic_compare_exchange_strong(&W->err, &zero, (int)err);
        }
    }
    free(map);
}

/* Adds a split just computed to the memo (phase 2, in queue order, so the
 * memo's content does not depend on the thread count). */
static tm_err remember(nsec *S, const job *jb, const jpart *jp)
{
    const tm__ptree *t = S->t;
    int32_t a = t->nkid[jb->v], nv = jb->hi - jb->lo;
    int64_t *tg = tm__malloc_n((size_t)a, sizeof *tg);
    tm_err err = TM_EOK;
    if (!tg)
        return tm__nomem(S->ctx);
    targets(t, jb->v, nv, tg);
    if (tm__secmemo_add(S->memo, jp->h, S->ord + jb->lo, nv, tg, a, jp->part) < 0)
        err = tm__nomem(S->ctx);
    free(tg);
    return err;
}

static tm_err run_wave(nsec *S, size_t w0, size_t w1, int nthreads)
{
    wave W;
    tm_err err;
    W.S = S;
    W.w0 = w0;
    W.w1 = w1;
    W.jp = tm__calloc_n(w1 - w0, sizeof *W.jp);
    if (!W.jp)
        return tm__nomem(S->ctx);
    atomic_init(&W.next, 0);
    atomic_init(&W.err, TM_EOK);
    if ((size_t)nthreads > w1 - w0)
        nthreads = (int)(w1 - w0);
    tm__team_once(nthreads < 64 ? nthreads : 64, wave_worker, &W);
    err = (tm_err)atomic_load(&W.err);
    /* phase 2: queue order, as a sequential run would see the regions */
    for (size_t i = 0; !err && i < w1 - w0; i++) {
        job jb = S->q[w0 + i];
        if (needs_split(S, &jb) && W.jp[i].fresh)
            err = remember(S, &jb, &W.jp[i]);
        if (!err && needs_split(S, &jb))
            err = place_job(S, &jb, &W.jp[i]);
        else
            place_leaves(S, &jb);
    }
    for (size_t i = 0; i < w1 - w0; i++)
        jpart_free(&W.jp[i]);
    free(W.jp);
    return err;
}

/* tm__qap_netsection with a memo of splits (NULL: none; one-to-one only).
 * ord_out (or NULL): the tasks in the order of their leaves, each node's
 * tasks a range of it; with it, the splits only (no orientation: the
 * task sets are the same, pe is scratch). */
static tm_err netsection(tm_ctx *ctx, const tm__sgraph *g, const tm__ptree *t, const tm__qdist *o,
                         double bound, uint64_t seed, tm__secmemo *memo, int32_t *pe,
                         int32_t *ord_out)
{
    nsec S;
    tm_err err = TM_EOK;
    int nthreads = tm_ctx_threads(ctx);
    memset(&S, 0, sizeof S);
    if (bound < 0 && g->n > t->npe[t->root])
        return tm__fail(ctx, TM_EINFEASIBLE, "%d tasks but only %lld slots", g->n,
                        (long long)t->npe[t->root]);
    if (bound >= 0 && !g->vw)
        return tm__fail(ctx, TM_EINTERNAL, "general multisection needs task weights");
    S.ctx = ctx;
    S.g = g;
    S.t = t;
    S.o = o;
    S.bound = bound;
    S.seed = seed;
    S.memo = bound < 0 ? memo : NULL;
    S.splits_only = ord_out != NULL;
    S.pe = pe;
    S.ord = tm__malloc_n((size_t)(g->n ? g->n : 1), sizeof *S.ord);
    S.region = tm__malloc_n((size_t)(g->n ? g->n : 1), sizeof *S.region);
    S.rpe = tm__malloc_n((size_t)(g->n ? g->n : 1), sizeof *S.rpe);
    if (!S.ord || !S.region || !S.rpe) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t u = 0; u < g->n; u++) {
        S.ord[u] = u;
        S.region[u] = t->root;
        S.rpe[u] = t->pe[t->root];
    }
    if (g->n > 0 && push(&S, t->root, 0, g->n) < 0)
        err = tm__nomem(ctx);
    /* METIS workers forked before any thread starts (metis_pool.c) */
    if (nthreads > 1)
        tm__metis_pool_prefork(tm__ctx_metis_pool(ctx), nthreads - 1);
    /* breadth first, one wave (queue level) at a time */
    while (!err && S.qh < S.qt) {
        size_t w0 = S.qh, w1 = S.qt;
        S.qh = w1;
        err = run_wave(&S, w0, w1, nthreads);
    }
    if (!err && ord_out)
        memcpy(ord_out, S.ord, (size_t)g->n * sizeof *S.ord);
out:
    free(S.ord), free(S.region), free(S.rpe), free(S.q);
    return err;
}

tm_err tm__qap_netsection(tm_ctx *ctx, const tm__sgraph *g, const tm__ptree *t,
                          const tm__qdist *o, double bound, uint64_t seed, int32_t *pe)
{
    return netsection(ctx, g, t, o, bound, seed, NULL, pe, NULL);
}

/* ---- strategies ---------------------------------------------------------- */

/* Graph entries x trials above which the trials on a grid share their
 * splits.  Independent trials (each with its own seeds) find better
 * mappings, since the best of six different partitions is kept: on the
 * 512-task torus of same-results shared splits gave max congestion 46.2
 * and J 31,500 against 33.7 and 28,774; so they are shared only where six
 * would cost too much (a 3D stencil of about 45,000 tasks and more). */
#define SHARE_MIN_WORK ((int64_t)1 << 21)

static bool big_grid(const tm__sgraph *g, int ntrials)
{
    return (g->n + g->xadj[g->n]) * (int64_t)ntrials > SHARE_MIN_WORK;
}

/* On a big grid the splits come first, without orientation (a split
 * depends on its task set and the tasks per child only, not on which
 * half of the box it goes to), and the trials then run on the task graph
 * renumbered in that pass's order of leaves, the memo renamed alike:
 * every split's tasks are one range of ids, so the orientation, all the
 * trials then do, reads their rows and their partners' regions in
 * sequence instead of missing the cache on every task.  Sums of integer
 * volumes (bytes) times hops are exact in any order, so the result is
 * that of the trials on the graph itself; volumes with fractions may
 * round differently in the last bits (the result still depends only on
 * the input and the seed). */
typedef struct renum {
    tm__sgraph g;
    int32_t *ord; /* new id i is task ord[i] of the trials' graph */
    int32_t *pe;  /* per new id */
} renum;

static tm_err renumber(tm_ctx *ctx, const tm__sgraph *g, tm__secmemo *memo, renum *r)
{
    int32_t *to = tm__malloc_n((size_t)(g->n ? g->n : 1), sizeof *to);
    tm_err err = TM_EOK;
    if (!to)
        return tm__nomem(ctx);
    for (int32_t i = 0; i < g->n; i++)
        to[r->ord[i]] = i;
    if (tm__secmemo_relabel(memo, to) < 0)
        err = tm__nomem(ctx);
    for (int32_t u = 0; !err && u < g->n; u++)
        to[u] = -1;
    if (!err)
        err = tm__sgraph_induced(ctx, g, r->ord, g->n, to, &r->g);
    free(to);
    return err;
}

/* Trials of the multisection: on grids one per rotation of the dimension
 * priorities (the orientation of the coordinate bisection), elsewhere
 * different seeds; the best J kept.  One-to-one on big grids, the trials
 * share their splits (qap_secmemo.h): the METIS seed of a split comes from
 * its task set, so a set met again is not split again.  `ils`: each trial is followed by
 * ils:10, whose J counts.  bound < 0: one task per PE; else general
 * mapping (tm__qap_netsection). */
static tm_err net_trials(tm_ctx *ctx, const tm_problem *p, const tm__qnet *q,
                         const tm__sgraph *g, uint64_t seed, int first, int ntrials, bool ils,
                         double bound, tm__td_path path, int32_t *best_pe)
{
    const tm_net_grid *gr = tm_net_grid_info(p->net);
    int n_orders = tm__ptree_n_orders(p->net);
    size_t n = (size_t)(g->n ? g->n : 1);
    int32_t *trial = tm__malloc_n(n, sizeof *trial);
    tm__qdist o;
    tm__secmemo memo;
    bool share = n_orders > 1 && bound < 0 && (path != TM__TD_AUTO || big_grid(g, ntrials));
    bool in_order = share && ntrials > 1 && path != TM__TD_SHARED_IN_PLACE;
    bool later = false; /* the trials run on rn.g */
    renum rn;
    tm__ptree t0; /* the first trial's tree, built for the splits pass */
    double best = 0;
    tm_err err = TM_EOK;
    memset(&rn, 0, sizeof rn);
    memset(&t0, 0, sizeof t0);
    if (in_order) {
        rn.ord = tm__malloc_n(n, sizeof *rn.ord);
        rn.pe = tm__malloc_n(n, sizeof *rn.pe);
    }
    if (!trial || (in_order && (!rn.ord || !rn.pe))) {
        err = tm__nomem(ctx);
        goto out;
    }
    tm__qdist_init_net(&o, q);
    tm__secmemo_init(&memo);
    if (rn.ord) {
        tm__ptree_opts po = {tm__ptree_order(gr->ndims, 0), false};
        err = tm__ptree_build(ctx, p, q, &po, &t0);
        if (!err)
            err = netsection(ctx, g, &t0, &o, bound, seed, &memo, trial, rn.ord);
        if (!err)
            err = renumber(ctx, g, &memo, &rn);
        later = !err;
    }
    /* a stop request (the caller's, or the end of a time budget's
     * construction window) ends the trials after the first */
    for (int k = first; k < first + ntrials && !err && !(k > first && tm__stopped(ctx)); k++) {
        tm__ptree t;
        tm__ptree_opts po = {0, false};
        uint64_t s = seed + (uint64_t)k * 0x9e3779b97f4a7c15ULL;
        double j = 0;
        if (n_orders > 1)
            po.dimorder = tm__ptree_order(gr->ndims, k);
        if (k == first && t0.n > 0) { /* taken over: released below as t */
            t = t0;
            memset(&t0, 0, sizeof t0);
        } else if ((err = tm__ptree_build(ctx, p, q, &po, &t)) != TM_EOK) {
            break;
        }
        if (k == first)
            tm__log(ctx, TM_LOG_INFO, "topdown (network): %s groups, %d nodes", t.kind, t.n);
        err = netsection(ctx, later ? &rn.g : g, &t, &o, bound, share ? seed : s,
                         share ? &memo : NULL, later ? rn.pe : trial, NULL);
        tm__ptree_release(&t);
        for (int32_t i = 0; !err && later && i < g->n; i++)
            trial[rn.ord[i]] = rn.pe[i];
        if (!err && ils)
            err = tm__qap_local_search(ctx, g, &o, -1.0, "ils", 10, s, trial, &j);
        else if (!err)
            j = tm__qap_eval_sym(g, &o, trial);
        if (!err && (k == first || j < best)) {
            best = j;
            memcpy(best_pe, trial, (size_t)g->n * sizeof *trial);
        }
    }
    tm__secmemo_release(&memo);
out:
    tm__ptree_release(&t0);
    tm__sgraph_release(&rn.g);
    free(rn.ord), free(rn.pe);
    free(trial);
    return err;
}

/* Orientation trials of the general multisection: every rotation on
 * small graphs, fewer on big ones (a trial of a 110,592-task stencil on a
 * 512-host torus costs 3 s, almost all METIS), as hierarchy-mode topdown
 * budgets its trials by size. */
static int general_trials(const tm__sgraph *g, int n_orders)
{
    int64_t size = g->n + g->xadj[g->n], t = size > 0 ? ((int64_t)1 << 21) / size : n_orders;
    if (n_orders < 1)
        n_orders = 1;
    return t < 1 ? 1 : t > n_orders ? n_orders : (int)t;
}

tm_err tm__qap_netsection_general(tm_ctx *ctx, const tm_problem *p, const tm__sgraph *g,
                                  double bound, uint64_t seed, int32_t *block)
{
    tm__qnet q;
    tm_err err = tm__qnet_build(ctx, p, &q);
    if (err)
        return err;
    err = net_trials(ctx, p, &q, g, seed, 0, general_trials(g, tm__ptree_n_orders(p->net)),
                     false, bound, TM__TD_AUTO, block);
    tm__qnet_release(&q);
    return err;
}

/* Breadth-first order of g (each connected part from its lowest vertex). */
static void bfs_order(const tm__sgraph *g, int32_t *ord, uint8_t *seen)
{
    int32_t head = 0, tail = 0;
    for (int32_t s = 0; s < g->n; s++) {
        if (seen[s])
            continue;
        seen[s] = 1;
        ord[tail++] = s;
        while (head < tail) {
            int32_t u = ord[head++];
            for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
                if (!seen[g->adj[e]]) {
                    seen[g->adj[e]] = 1;
                    ord[tail++] = g->adj[e];
                }
        }
    }
}

/* The trials on g renumbered in breadth-first order: the tasks of a split
 * then lie close together in memory, so METIS and the orientation, which
 * read the partners of every task, stop missing the cache when the ranks
 * have no locality (131,072 tasks relabelled at random on a torus).  Only
 * on big grids: on small ones it buys no time and only reshuffles the
 * results (same-results' 512-task torus: better unrefined, worse after
 * ils:10+ta).  pe: per task of g. */
static tm_err trials_local(tm_ctx *ctx, const tm_problem *p, const tm__qnet *q,
                           const tm__sgraph *g, uint64_t seed, int ntrials, bool ils,
                           tm__td_path path, int32_t *pe)
{
    size_t n = (size_t)(g->n ? g->n : 1);
    int32_t *ord = tm__malloc_n(n, sizeof *ord), *local = tm__malloc_n(n, sizeof *local);
    int32_t *pe2 = tm__malloc_n(n, sizeof *pe2);
    uint8_t *seen = tm__calloc_n(n, 1);
    tm__sgraph g2;
    tm_err err;
    memset(&g2, 0, sizeof g2);
    if (!ord || !local || !pe2 || !seen) {
        err = tm__nomem(ctx);
        goto out;
    }
    bfs_order(g, ord, seen);
    for (int32_t u = 0; u < g->n; u++)
        local[u] = -1;
    err = tm__sgraph_induced(ctx, g, ord, g->n, local, &g2);
    if (!err)
        err = net_trials(ctx, p, q, &g2, seed, 0, ntrials, ils, -1.0, path, pe2);
    for (int32_t i = 0; !err && i < g->n; i++)
        pe[ord[i]] = pe2[i];
out:
    tm__sgraph_release(&g2);
    free(ord), free(local), free(pe2), free(seen);
    return err;
}

tm_err tm__strategy_topdown_net(tm_ctx *ctx, const tm_problem *p, uint64_t seed, bool ils,
                                tm_mapping *out)
{
    return tm__topdown_net_path(ctx, p, seed, ils, TM__TD_AUTO, out);
}

/* The trials of topdown: all of them (trial < 0), or trial `trial` alone
 * (tm__topdown_net_trial: none when it does not exist or when the
 * trials share their splits, then trial 0 runs them all). */
static tm_err topdown_net(tm_ctx *ctx, const tm_problem *p, uint64_t seed, bool ils,
                          tm__td_path path, int trial, tm_mapping *out)
{
    tm__qnet_job j;
    int n_orders, ntrials;
    bool shared;
    tm_err err = tm__qnet_job_init(ctx, p, &j);
    if (err)
        return err;
    n_orders = tm__ptree_n_orders(p->net);
    shared = n_orders > 1 && (path != TM__TD_AUTO || big_grid(&j.g, n_orders));
    ntrials = shared ? n_orders : n_orders > 1 ? n_orders : ils ? 4 : 2;
    if (trial > 0 && (shared || trial >= ntrials))
        goto out; /* no such trial: out stays empty */
    if (shared)
        err = trials_local(ctx, p, &j.q, &j.g, seed, n_orders, ils, path, j.pe);
    else
        err = net_trials(ctx, p, &j.q, &j.g, seed, trial < 0 ? 0 : trial,
                         trial < 0 ? ntrials : 1, ils, -1.0, path, j.pe);
    if (!err)
        err = tm_mapping_alloc(ctx, out, j.g.n, false);
    if (!err)
        tm__qnet_from_pe(&j.q, j.pe, out);
out:
    tm__qnet_job_release(&j);
    return err;
}

tm_err tm__topdown_net_path(tm_ctx *ctx, const tm_problem *p, uint64_t seed, bool ils,
                            tm__td_path path, tm_mapping *out)
{
    return topdown_net(ctx, p, seed, ils, path, -1, out);
}

tm_err tm__topdown_net_trial(tm_ctx *ctx, const tm_problem *p, uint64_t seed, int k,
                             tm_mapping *out)
{
    return topdown_net(ctx, p, seed, false, TM__TD_AUTO, k, out);
}
