/* canon.c - a numbering of the tasks read off the task graph itself
 * (canon.h), so that a job whose ranks are numbered differently is the
 * same input to everything that follows.
 *
 * Why: applications number their ranks however their decomposition does,
 * and every construction and search reads the numbering somewhere -- METIS
 * visits vertices and breaks ties in index order, grow and the local
 * searches draw tasks and partners by index, ties go to the lower id.  On
 * the same job the default's answer moved by 5-15 % between numberings
 * (SpMV 512 on torus:8x8x8, six numberings: dilation 1.889 to 2.092).  On
 * the canonical numbering the whole pipeline sees one input whatever the
 * ranks were called.
 *
 * How: colour refinement (1-dimensional Weisfeiler-Leman): a task's colour
 * starts as the multiset of its edge weights and becomes, round after
 * round until the colours stop splitting, a hash of its colour and the
 * multiset of (weight, neighbour's colour); while some colour is shared,
 * one task of the smallest shared colour gets a colour of its own and the
 * refinement goes on (individualization, as in nauty, so that the
 * symmetric tasks of a stencil end apart); then a breadth-first order
 * from a canonical peripheral task
 * (George and Liu's pseudo-peripheral search, as RCM's start), neighbours
 * taken by decreasing weight and then colour.  Colours and weights are
 * compared as sorted multisets of numbers rounded to CANON_DIGITS
 * significant bits, so neither the order of a row nor the order in which
 * parallel entries were summed matters.  What is left to the old numbering
 * is which task of a shared colour is individualized: where the tasks are
 * alike (a symmetry of the job) every choice gives the same renumbered
 * job; where refinement cannot tell unlike tasks apart, or after
 * CANON_MAX_IND picks, the choice matters.  The order also keeps partners near in
 * index, which METIS's matching and the searches' visits like. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "../util/util.h"

/* Colour refinement runs until the number of colours stops growing, at
 * most CANON_MAX_ROUNDS rounds (a round lets a colour see one step
 * further: a stencil's layers are told apart up to that depth); then at
 * most CANON_MAX_IND tasks are individualized (a 3D grid's symmetries are
 * broken by 3 or 4). */
#define CANON_MAX_ROUNDS 48
#define CANON_MAX_IND 24
/* Weights are rounded to this many significant bits before hashing: sums
 * of parallel entries in another order differ in the last bits. */
#define CANON_DIGITS 36

static uint64_t mix(uint64_t h, uint64_t x)
{
    /* splitmix64's finaliser over the running state */
    h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebULL;
    h ^= h >> 31;
    return h;
}

/* The bits of w rounded to CANON_DIGITS significant bits. */
static uint64_t wkey(double w)
{
    int e;
    double f = frexp(w, &e);
    double r = ldexp(nearbyint(ldexp(f, CANON_DIGITS)), e - CANON_DIGITS);
    uint64_t b;
    memcpy(&b, &r, sizeof b);
    return b;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* One round: col[u] from the sorted multiset of (weight, colour of the
 * neighbour) and, after the first, u's own colour. */
static void refine(const tm__sgraph *g, const uint64_t *col, uint64_t *next, uint64_t *buf,
                   bool first)
{
    for (int32_t u = 0; u < g->n; u++) {
        int64_t d = g->xadj[u + 1] - g->xadj[u];
        uint64_t h = first ? 0x636f6c6f7572ULL : col[u];
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
            buf[e - g->xadj[u]] = first ? wkey(g->w[e]) : mix(wkey(g->w[e]), col[g->adj[e]]);
        qsort(buf, (size_t)d, sizeof *buf, cmp_u64);
        h = mix(h, (uint64_t)d);
        for (int64_t i = 0; i < d; i++)
            h = mix(h, buf[i]);
        next[u] = h;
    }
}

/* Distinct values among col[0..n) (scratch: tmp). */
static int32_t distinct(const uint64_t *col, int32_t n, uint64_t *tmp)
{
    int32_t d = n > 0;
    memcpy(tmp, col, (size_t)n * sizeof *tmp);
    qsort(tmp, (size_t)n, sizeof *tmp, cmp_u64);
    for (int32_t i = 1; i < n; i++)
        d += tmp[i] != tmp[i - 1];
    return d;
}

/* Refines *col until the number of colours stops growing (at most
 * CANON_MAX_ROUNDS rounds: a round lets a colour see one step further). */
static tm_err stable(tm_ctx *ctx, const tm__sgraph *g, uint64_t **col, uint64_t **nxt,
                     uint64_t *buf)
{
    uint64_t *tmp = tm__malloc_n((size_t)(g->n > 0 ? g->n : 1), sizeof *tmp);
    int32_t before;
    if (!tmp)
        return tm__nomem(ctx);
    before = distinct(*col, g->n, tmp);
    for (int r = 0; r < CANON_MAX_ROUNDS && before < g->n; r++) {
        uint64_t *t;
        int32_t now;
        refine(g, *col, *nxt, buf, false);
        t = *col, *col = *nxt, *nxt = t;
        now = distinct(*col, g->n, tmp);
        if (now <= before)
            break;
        before = now;
    }
    free(tmp);
    return TM_EOK;
}

typedef struct vc { uint64_t c; int32_t v; } vc;

static int cmp_vc(const void *a, const void *b)
{
    const vc *x = a, *y = b;
    if (x->c != y->c)
        return x->c < y->c ? -1 : 1;
    return (x->v > y->v) - (x->v < y->v);
}

/* A task of the smallest colour class with several tasks (ties: the least
 * colour; in it the least index), or -1 when every colour is one task's. */
static int32_t tied(tm_ctx *ctx, const uint64_t *col, int32_t n, tm_err *err)
{
    vc *a = tm__malloc_n((size_t)(n > 0 ? n : 1), sizeof *a);
    int32_t best = -1, bsize = INT32_MAX;
    if (!a) {
        *err = tm__nomem(ctx);
        return -1;
    }
    for (int32_t u = 0; u < n; u++)
        a[u] = (vc){col[u], u};
    qsort(a, (size_t)n, sizeof *a, cmp_vc);
    for (int32_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && a[j].c == a[i].c; j++)
            ;
        if (j - i > 1 && j - i < bsize) {
            bsize = j - i;
            best = a[i].v;
        }
    }
    free(a);
    return best;
}

typedef struct canon {
    const tm__sgraph *g;
    const uint64_t *col;
    int32_t *order, *pos, *dist;
    int64_t *nb;  /* scratch: a row's edge indices, sorted */
} canon;

/* Neighbours in the order the search takes them: heavier first, then by
 * colour, then (ties the colours cannot break) by index. */
static int cmp_edge(const void *a, const void *b, void *arg)
{
    const canon *c = arg;
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    uint64_t wx = wkey(c->g->w[x]), wy = wkey(c->g->w[y]);
    uint64_t cx = c->col[c->g->adj[x]], cy = c->col[c->g->adj[y]];
    if (c->g->w[x] != c->g->w[y] && wx != wy)
        return c->g->w[x] > c->g->w[y] ? -1 : 1;
    if (cx != cy)
        return cx < cy ? -1 : 1;
    return (c->g->adj[x] > c->g->adj[y]) - (c->g->adj[x] < c->g->adj[y]);
}

/* Breadth-first from root over the unvisited tasks (pos < 0), appending
 * to order from *k; returns the first index of the last level. */
static int32_t bfs(canon *c, int32_t root, int32_t *k, bool keep)
{
    const tm__sgraph *g = c->g;
    int32_t head = *k, last = *k, start = *k;
    c->order[(*k)++] = root;
    c->pos[root] = start;
    c->dist[root] = 0;
    while (head < *k) {
        int32_t u = c->order[head++];
        int64_t d = g->xadj[u + 1] - g->xadj[u];
        if (c->dist[u] > c->dist[c->order[last]])
            last = head - 1;
        for (int64_t e = 0; e < d; e++)
            c->nb[e] = g->xadj[u] + e;
        /* a trial search needs only the levels, which the order of the
         * neighbours does not change (the last level is the same set) */
        if (keep)
            qsort_r(c->nb, (size_t)d, sizeof *c->nb, cmp_edge, c);
        for (int64_t e = 0; e < d; e++) {
            int32_t v = g->adj[c->nb[e]];
            if (c->pos[v] >= 0)
                continue;
            c->pos[v] = *k;
            c->dist[v] = c->dist[u] + 1;
            c->order[(*k)++] = v;
        }
    }
    if (!keep) /* a trial search: forget it */
        for (int32_t i = start; i < *k; i++)
            c->pos[c->order[i]] = -1;
    return last;
}

/* The task of least colour (ties: least index) among order[from, to). */
static int32_t least(const canon *c, int32_t from, int32_t to)
{
    int32_t b = c->order[from];
    for (int32_t i = from + 1; i < to; i++) {
        int32_t u = c->order[i];
        if (c->col[u] < c->col[b] || (c->col[u] == c->col[b] && u < b))
            b = u;
    }
    return b;
}

/* The component of `seed`: a pseudo-peripheral root found from it (the
 * least-coloured task of the last level, while the depth grows), then the
 * search from that root, kept. */
static void component(canon *c, int32_t seed, int32_t *k)
{
    int32_t root = seed, depth = -1;
    for (int it = 0; it < 8; it++) {
        int32_t k0 = *k, last = bfs(c, root, k, false), d = c->dist[c->order[last]];
        int32_t next = least(c, last, *k);
        *k = k0;
        if (d <= depth)
            break;
        depth = d;
        root = next;
    }
    bfs(c, root, k, true);
}

tm_err tm__canon_order(tm_ctx *ctx, const tm__sgraph *g, int32_t *perm)
{
    size_t n = (size_t)(g->n > 0 ? g->n : 1), m = (size_t)g->xadj[g->n] + 1;
    uint64_t *col = tm__malloc_n(n, sizeof *col), *nxt = tm__malloc_n(n, sizeof *nxt);
    uint64_t *buf = tm__malloc_n(m, sizeof *buf);
    canon c = {g, NULL, tm__malloc_n(n, sizeof(int32_t)), perm, tm__malloc_n(n, sizeof(int32_t)),
               tm__malloc_n(m, sizeof(int64_t))};
    int32_t k = 0;
    tm_err err = TM_EOK;
    if (!col || !nxt || !buf || !c.order || !c.dist || !c.nb) {
        err = tm__nomem(ctx);
        goto out;
    }
    refine(g, col, nxt, buf, true);
    memcpy(col, nxt, n * sizeof *col);
    if ((err = stable(ctx, g, &col, &nxt, buf)) != TM_EOK)
        goto out;
    /* individualize-refine until every task has a colour of its own (or
     * CANON_MAX_IND tasks were picked): a pick among tasks of one colour is
     * arbitrary only where they are alike (then any pick gives an
     * equivalent order) or where refinement cannot tell them apart */
    for (int it = 0; it < CANON_MAX_IND && !err; it++) {
        int32_t v = tied(ctx, col, g->n, &err);
        if (v < 0)
            break;
        col[v] = mix(col[v], 0x696e646976ULL + (uint64_t)it);
        err = stable(ctx, g, &col, &nxt, buf);
    }
    if (err)
        goto out;
    c.col = col;
    for (int32_t u = 0; u < g->n; u++)
        perm[u] = -1;
    /* components one after the other, each from its least-coloured task */
    while (k < g->n) {
        int32_t seed = -1;
        for (int32_t u = 0; u < g->n; u++)
            if (perm[u] < 0 && (seed < 0 || col[u] < col[seed]))
                seed = u;
        component(&c, seed, &k);
    }
out:
    free(col), free(nxt), free(buf), free(c.order), free(c.dist), free(c.nb);
    return err;
}

typedef struct { int32_t v; double w; } pent;

static int cmp_pent(const void *a, const void *b)
{
    const pent *x = a, *y = b;
    if (x->v != y->v)
        return (x->v > y->v) - (x->v < y->v);
    return (x->w > y->w) - (x->w < y->w);
}

tm_err tm__comm_permute(tm_ctx *ctx, const tm_comm *c, const int32_t *perm, tm_comm *out)
{
    size_t n = (size_t)(c->n > 0 ? c->n : 1);
    int32_t *inv = tm__malloc_n(n, sizeof *inv);
    pent *row = tm__malloc_n((size_t)c->nnz + 1, sizeof *row);
    int64_t k = 0;
    tm_err err = TM_EOK;
    memset(out, 0, sizeof *out);
    out->n = c->n;
    out->nnz = c->nnz;
    out->xadj = tm__malloc_n(n + 1, sizeof *out->xadj);
    out->adj = tm__malloc_n((size_t)c->nnz + 1, sizeof *out->adj);
    out->w = tm__malloc_n((size_t)c->nnz + 1, sizeof *out->w);
    if (c->vwgt)
        out->vwgt = tm__malloc_n(n, sizeof *out->vwgt);
    if (!inv || !row || !out->xadj || !out->adj || !out->w || (c->vwgt && !out->vwgt)) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t u = 0; u < c->n; u++)
        inv[perm[u]] = u;
    /* row i is task inv[i]'s, its targets renamed and sorted, so that the
     * graph (and every sum over a row) is the same whatever the numbering */
    for (int32_t i = 0; i < c->n; i++) {
        int32_t u = inv[i];
        int64_t d = c->xadj[u + 1] - c->xadj[u];
        out->xadj[i] = k;
        for (int64_t e = 0; e < d; e++)
            row[e] = (pent){perm[c->adj[c->xadj[u] + e]], c->w[c->xadj[u] + e]};
        qsort(row, (size_t)d, sizeof *row, cmp_pent);
        for (int64_t e = 0; e < d; e++, k++) {
            out->adj[k] = row[e].v;
            out->w[k] = row[e].w;
        }
        if (c->vwgt)
            out->vwgt[i] = c->vwgt[u];
    }
    out->xadj[c->n] = k;
out:
    free(inv);
    free(row);
    if (err)
        tm__comm_drop(out);
    return err;
}
