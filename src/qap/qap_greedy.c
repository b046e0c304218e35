/* qap_greedy.c - the greedy constructions `mm` (Müller-Merbach) and `allc`
 * (GreedyAllC, Glantz et al.), as described in VieM Sec. 2.
 * Müller-Merbach: the unassigned task with the largest volume to assigned
 * tasks (heaviest total volume first; an indexed max-heap) goes to the free
 * PE with the smallest distance sum to the assigned PEs, chosen
 * independently of the task.  On a hierarchy that PE is found by one
 * descent into the fullest groups, so groups fill one after the other.
 * GreedyAllC links the two choices: for that PE it takes the task with the
 * largest communication scaled by closeness, sum w(t,x) * (d_max -
 * dist(PE, pe[x])), among the unassigned neighbours of the tasks in the
 * lowest group around the PE that has tasks (at most 64 PEs; otherwise,
 * and when there is none, the heap's top).  (Choosing the PE by
 * volume-weighted distance for MM's task instead gives exactly MM's PE
 * with consecutive filling, see docs/qap.md.)  O(n log n + m deg k) with
 * the O(k) oracle instead of O(n^2). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qap_int.h"

/* ---- indexed max-heap on (conn, deg) ----------------------------------- */
typedef struct heap {
    int32_t *a, *pos, n;
    const double *key, *key2;
} heap;

static bool hless(const heap *H, int32_t x, int32_t y)
{
    if (H->key[x] != H->key[y])
        return H->key[x] < H->key[y];
    if (H->key2[x] != H->key2[y])
        return H->key2[x] < H->key2[y];
    return x > y;
}

static void hswap(heap *H, int32_t i, int32_t j)
{
    int32_t t = H->a[i];
    H->a[i] = H->a[j];
    H->a[j] = t;
    H->pos[H->a[i]] = i;
    H->pos[H->a[j]] = j;
}

static void hup(heap *H, int32_t i)
{
    while (i > 0 && hless(H, H->a[(i - 1) / 2], H->a[i])) {
        hswap(H, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static void hdown(heap *H, int32_t i)
{
    for (;;) {
        int32_t l = 2 * i + 1, r = l + 1, b = i;
        if (l < H->n && hless(H, H->a[b], H->a[l]))
            b = l;
        if (r < H->n && hless(H, H->a[b], H->a[r]))
            b = r;
        if (b == i)
            return;
        hswap(H, i, b);
        i = b;
    }
}

static int32_t hpop(heap *H)
{
    int32_t top = H->a[0];
    hswap(H, 0, --H->n);
    H->pos[top] = -1;
    hdown(H, 0);
    return top;
}

static void hdelete(heap *H, int32_t x)
{
    int32_t i = H->pos[x];
    hswap(H, i, --H->n);
    H->pos[x] = -1;
    if (i < H->n) {
        hup(H, i);
        hdown(H, H->pos[H->a[i]]);
    }
}

/* ---- free PEs per hierarchy group -------------------------------------- */
typedef struct freepe {
    const tm_hier *h;
    int32_t *cnt[TM_HIER_MAX_LEVELS + 1]; /* cnt[l][g]: free PEs in group g of level l */
} freepe;

static int free_init(freepe *F, const tm_hier *h)
{
    memset(F, 0, sizeof *F);
    F->h = h;
    for (int l = 0; l <= h->k; l++) {
        int64_t ng = h->n_pe / h->group[l];
        F->cnt[l] = tm__malloc_n((size_t)ng, sizeof *F->cnt[l]);
        if (!F->cnt[l])
            return -1;
        for (int64_t g = 0; g < ng; g++)
            F->cnt[l][g] = (int32_t)h->group[l];
    }
    return 0;
}

static void free_release(freepe *F)
{
    for (int l = 0; l <= TM_HIER_MAX_LEVELS; l++)
        free(F->cnt[l]);
}

static void free_take(freepe *F, int64_t p)
{
    for (int l = 0; l <= F->h->k; l++)
        F->cnt[l][p / F->h->group[l]]--;
}

/* A free PE inside group g of level l (which must have one): descends
 * into the child with the fewest free PEs left (the fullest one). */
static int64_t free_find(const freepe *F, int l, int64_t g)
{
    for (; l > 0; l--) {
        int64_t c0 = g * F->h->a[l - 1], best = -1;
        for (int64_t c = c0; c < c0 + F->h->a[l - 1]; c++) {
            int32_t f = F->cnt[l - 1][c];
            if (f > 0 && (best < 0 || f < F->cnt[l - 1][best]))
                best = c;
        }
        g = best;
    }
    return g;
}

/* The state of one greedy run (Müller-Merbach or GreedyAllC). */
typedef struct gst {
    const tm_hier *h;
    tm__sgraph g;
    tm__qdist o;
    heap H;         /* unplaced tasks by (volume to placed tasks, total volume) */
    freepe F;
    double *conn, *deg;
    int32_t *inv;   /* PE -> task (GreedyAllC only) */
    double dmax;
    tm_mapping *out;
} gst;

static void gst_release(gst *s)
{
    free_release(&s->F);
    free(s->conn);
    free(s->deg);
    free(s->inv);
    free(s->H.a);
    free(s->H.pos);
    tm__sgraph_release(&s->g);
}

/* Arrays, the output mapping (all -1) and the heap of all tasks. */
static tm_err gst_init(tm_ctx *ctx, gst *s, bool allc)
{
    const tm_hier *h = s->h;
    tm__sgraph *g = &s->g;
    tm_err err;
    tm__qdist_init(&s->o, h);
    s->dmax = h->d[h->k - 1];
    for (int i = 0; i < h->k; i++)
        s->dmax = h->d[i] > s->dmax ? h->d[i] : s->dmax;
    if (allc && !(s->inv = tm__malloc_n((size_t)h->n_pe, sizeof *s->inv)))
        return tm__nomem(ctx);
    for (int64_t q = 0; allc && q < h->n_pe; q++)
        s->inv[q] = -1;
    s->conn = tm__calloc_n((size_t)g->n + 1, sizeof *s->conn);
    s->deg = tm__calloc_n((size_t)g->n + 1, sizeof *s->deg);
    s->H.a = tm__malloc_n((size_t)g->n + 1, sizeof *s->H.a);
    s->H.pos = tm__malloc_n((size_t)g->n + 1, sizeof *s->H.pos);
    if (free_init(&s->F, h) < 0 || !s->conn || !s->deg || !s->H.a || !s->H.pos)
        return tm__nomem(ctx);
    err = tm_mapping_alloc(ctx, s->out, g->n, true);
    if (err)
        return err;
    s->H.key = s->conn;
    s->H.key2 = s->deg;
    for (int32_t u = 0; u < g->n; u++) {
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
            s->deg[u] += g->w[e];
        s->out->pe[u] = -1;
        s->H.a[u] = u;
        s->H.pos[u] = u;
    }
    s->H.n = g->n;
    for (int32_t i = g->n / 2; i >= 0 && g->n > 0; i--)
        hdown(&s->H, i);
    return TM_EOK;
}

/* GreedyAllC's task for PE best: among the unassigned neighbours of the
 * tasks near best (its smallest group that is partly filled, if that group
 * has at most 64 PEs), the one whose volume to placed tasks, scaled by
 * their closeness to best, is largest (distance-scaled communication links
 * the two choices).  -1 if there is none. */
static int32_t allc_task(const gst *s, int64_t best)
{
    const tm_hier *h = s->h;
    const tm__sgraph *g = &s->g;
    double bscore = -1;
    int32_t t = -1;
    int l = 1;
    while (l < h->k && s->F.cnt[l][best / h->group[l]] == h->group[l])
        l++;
    if (h->group[l] > 64 || s->F.cnt[l][best / h->group[l]] >= h->group[l])
        return -1;
    for (int64_t q = best / h->group[l] * h->group[l], q1 = q + h->group[l]; q < q1; q++) {
        int32_t y = s->inv[q];
        for (int64_t e = y < 0 ? 0 : g->xadj[y]; y >= 0 && e < g->xadj[y + 1]; e++) {
            int32_t c = g->adj[e];
            double sc = 0;
            if (s->H.pos[c] < 0)
                continue;
            for (int64_t f = g->xadj[c]; f < g->xadj[c + 1]; f++)
                if (s->out->pe[g->adj[f]] >= 0)
                    sc += g->w[f] * (s->dmax - tm__qd(&s->o, (int32_t)best, s->out->pe[g->adj[f]]));
            if (sc > bscore || (sc == bscore && c < t)) {
                bscore = sc;
                t = c;
            }
        }
    }
    return t;
}

/* Task t onto PE best; its unplaced neighbours gain connection. */
static void place(gst *s, int32_t t, int64_t best)
{
    const tm__sgraph *g = &s->g;
    s->out->pe[t] = (int32_t)best;
    if (s->inv)
        s->inv[best] = t;
    free_take(&s->F, best);
    for (int64_t e = g->xadj[t]; e < g->xadj[t + 1]; e++) {
        int32_t x = g->adj[e];
        if (s->H.pos[x] >= 0) {
            s->conn[x] += g->w[e];
            hup(&s->H, s->H.pos[x]);
        }
    }
}

static tm_err greedy(tm_ctx *ctx, const tm_problem *p, bool allc, tm_mapping *out)
{
    gst s;
    bool general;
    tm_err err = tm__qap_check_problem(ctx, p, false, &general);
    if (err)
        return err;
    memset(&s, 0, sizeof s);
    s.h = p->hier;
    s.out = out;
    err = tm__sgraph_from_comm(ctx, p->comm, TM__SG_VERTEX_WEIGHTS, &s.g);
    if (err)
        return err;
    err = gst_init(ctx, &s, allc);
    while (!err && s.H.n > 0) {
        /* MM: the most connected task to the first free PE; GreedyAllC
         * picks the task for that PE by allc_task */
        int64_t best = free_find(&s.F, s.h->k, 0);
        int32_t t = allc ? allc_task(&s, best) : -1;
        if (t >= 0)
            hdelete(&s.H, t);
        else
            t = hpop(&s.H);
        place(&s, t, best);
    }
    if (err)
        tm_mapping_release(out);
    gst_release(&s);
    return err;
}

tm_err tm__strategy_mm(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out)
{
    (void)seed;
    return greedy(ctx, p, false, out);
}

tm_err tm__strategy_allc(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out)
{
    (void)seed;
    return greedy(ctx, p, true, out);
}
