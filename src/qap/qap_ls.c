/* qap_ls.c - swap local search on J with VieM's fast gains (Sec. 3.2):
 * the change of J when tasks u and v exchange PEs only involves the edges
 * at u and v, so a gain costs O(deg u + deg v) oracle calls and J is kept
 * up to date incrementally (no O(n) update as in Brandfass et al.).
 *
 * Neighbourhoods (Sec. 3.3): "nc" = pairs within graph distance D in G
 * (N_C^D, bounded BFS from every task), "np" = pairs inside consecutive
 * blocks of PE indices (Brandfass' pruned N_p; pairs on one lowest-level
 * group are skipped, a swap there cannot change J), "n2" = all pairs.
 * Tasks are visited in a seeded random order, improving swaps are applied
 * at once, and a round that finds none ends the search.
 *
 * Works for many-to-one mappings as well: a swap is allowed only if both
 * PEs stay within `bound` (equal-weight tasks always can). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qap_int.h"
#include "qap_ls_int.h"


static double contrib(const tm__ls *L, int32_t u)
{
    const tm__sgraph *g = L->g;
    double c = 0.0;
    for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
        c += g->w[e] * tm__qd(&L->o, L->pe[u], L->pe[g->adj[e]]);
    return c;
}

static void save(tm__ls *L, double *at)
{
    tm__ls_undo *ul = L->ul;
    size_t cap = ul->cap;
    if (ul->nomem)
        return;
    if (tm__grow((void **)&ul->at, &cap, ul->n + 1, sizeof *ul->at) < 0 ||
        tm__grow((void **)&ul->old, &ul->cap, ul->n + 1, sizeof *ul->old) < 0) {
        ul->nomem = true;
        return;
    }
    ul->at[ul->n] = at;
    ul->old[ul->n++] = *at;
}

void tm__ls_undo_apply(tm__ls_undo *ul)
{
    while (ul->n > 0) {
        ul->n--;
        *ul->at[ul->n] = ul->old[ul->n];
    }
}

/* Task u moves from PE `from` to pe[u] (already set): neighbours'
 * contributions follow in O(deg u). */
static void moved(tm__ls *L, int32_t u, int32_t from)
{
    const tm__sgraph *g = L->g;
    if (!L->c)
        return;
    for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++) {
        int32_t x = g->adj[e], px = L->pe[x];
        if (L->ul)
            save(L, &L->c[x]);
        L->c[x] += g->w[e] * (tm__qd(&L->o, px, L->pe[u]) - tm__qd(&L->o, px, from));
    }
}

/* Exchanges the PEs of u and v (J is updated by the caller). */
void tm__ls_apply_swap(tm__ls *L, int32_t u, int32_t v)
{
    int32_t pu = L->pe[u], pv = L->pe[v];
    L->pe[u] = pv;
    L->pe[v] = pu;
    if (L->load) {
        double du = L->g->vw[v] - L->g->vw[u];
        if (L->ul) {
            save(L, &L->load[pu]);
            save(L, &L->load[pv]);
        }
        L->load[pu] += du;
        L->load[pv] -= du;
    }
    if (L->c) {
        /* the edge u-v keeps its length; moved() would count it with one
         * endpoint already moved, so fix u and v by recomputing them */
        moved(L, u, pu);
        moved(L, v, pv);
        if (L->ul) {
            save(L, &L->c[u]);
            save(L, &L->c[v]);
        }
        L->c[u] = contrib(L, u);
        L->c[v] = contrib(L, v);
    }
}

double tm__ls_swap_delta(const tm__ls *L, int32_t u, int32_t v)
{
    const tm__sgraph *g = L->g;
    int32_t pu = L->pe[u], pv = L->pe[v];
    double d = 0.0;
    for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++) {
        int32_t x = g->adj[e], px;
        if (x == v)
            continue;
        px = L->pe[x];
        d += g->w[e] * (tm__qd(&L->o, pv, px) - tm__qd(&L->o, pu, px));
    }
    for (int64_t e = g->xadj[v]; e < g->xadj[v + 1]; e++) {
        int32_t x = g->adj[e], px;
        if (x == u)
            continue;
        px = L->pe[x];
        d += g->w[e] * (tm__qd(&L->o, pu, px) - tm__qd(&L->o, pv, px));
    }
    return d;
}

double tm__qap_swap_delta(const tm__sgraph *g, const tm__qdist *o, const int32_t *pe, int32_t u,
                          int32_t v)
{
    tm__ls L;
    memset(&L, 0, sizeof L);
    L.g = g;
    L.o = *o;
    L.pe = (int32_t *)pe;
    return tm__ls_swap_delta(&L, u, v);
}

bool tm__ls_gain(const tm__ls *L, int32_t u, int32_t v, double *dout)
{
    const tm__sgraph *g = L->g;
    int32_t pu = L->pe[u], pv = L->pe[v];
    double d = 0.0, eps = L->eps;
    if (pu == pv || u == v)
        return false;
    if (L->load) {
        double du = g->vw[v] - g->vw[u];
        if (du != 0 && (L->load[pu] + du > L->bound * (1 + 1e-12) ||
                        L->load[pv] - du > L->bound * (1 + 1e-12)))
            return false;
    }
    if (L->c) {
        /* with the contributions c[]: u's side is S_u(pv) - c[u] plus the
         * u-v edge, whose length does not change (one oracle call per
         * neighbour instead of two) */
        double wuv = 0, duv = tm__qd(&L->o, pu, pv), su = 0, sv = 0, lbv;
        /* far pairs first: with the triangle inequality, dist(pv, px) >=
         * duv - dist(pu, px), so u's side is at least wdeg[u] duv - 2 c[u]
         * (and v's alike): a pair farther apart than twice their
         * contributions per unit of weight cannot gain.  Most partners of
         * nc:D are such when D is large (issue 28). */
        if (L->wdeg && (L->wdeg[u] + L->wdeg[v]) * duv - 2.0 * (L->c[u] + L->c[v]) >= 0.0)
            return false;
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++) {
            int32_t x = g->adj[e];
            if (x == v)
                wuv = g->w[e];
            su += g->w[e] * tm__qd(&L->o, pv, L->pe[x]);
        }
        d = su - L->c[u] + wuv * duv;
        /* v's side can gain at most its contribution without the u-v edge,
         * and, with the triangle inequality, at most 2 c[v] - wdeg[v] duv */
        lbv = -L->c[v];
        if (L->wdeg && L->wdeg[v] * duv - 2.0 * L->c[v] > lbv)
            lbv = L->wdeg[v] * duv - 2.0 * L->c[v];
        if (!(d + lbv + wuv * duv < eps))
            return false;
        for (int64_t e = g->xadj[v]; e < g->xadj[v + 1]; e++)
            sv += g->w[e] * tm__qd(&L->o, pu, L->pe[g->adj[e]]);
        d += sv - L->c[v] + wuv * duv;
    } else {
        d = tm__ls_swap_delta(L, u, v);
    }
    if (!(d < eps))
        return false;
    *dout = d;
    return true;
}

/* Tries to swap u and v: whether the swap improved J and was done. */
bool tm__ls_try_swap(tm__ls *L, int32_t u, int32_t v)
{
    double d;
    if (!tm__ls_gain(L, u, v, &d))
        return false;
    tm__ls_apply_swap(L, u, v);
    L->j += d;
    return true;
}

/* Many-to-one only: moves single tasks to the PE of a neighbour when that
 * lowers J and the PE has room (the slack of the epsilon-balance makes
 * such moves possible; swaps alone cannot use it). */
static int move_pass(tm__ls *L, const int32_t *order)
{
    const tm__sgraph *g = L->g;
    int nmoved = 0;
    for (int32_t i = 0; i < g->n; i++) {
        int32_t u = order[i], pu = L->pe[u], bq = -1;
        double best = L->eps, base = 0.0;
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
            base += g->w[e] * tm__qd(&L->o, pu, L->pe[g->adj[e]]);
        for (int64_t f = g->xadj[u]; f < g->xadj[u + 1]; f++) {
            int32_t q = L->pe[g->adj[f]];
            double c = 0.0;
            if (q == pu || q == bq || L->load[q] + g->vw[u] > L->bound * (1 + 1e-12))
                continue;
            for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
                c += g->w[e] * tm__qd(&L->o, q, L->pe[g->adj[e]]);
            if (c - base < best) {
                best = c - base;
                bq = q;
            }
        }
        if (bq >= 0) {
            L->pe[u] = bq;
            L->load[pu] -= g->vw[u];
            L->load[bq] += g->vw[u];
            L->j += best;
            moved(L, u, pu);
            if (L->c)
                L->c[u] = contrib(L, u);
            nmoved++;
        }
    }
    return nmoved;
}

static void shuffle(int32_t *a, int32_t n, tm__rng *r)
{
    for (int32_t i = n - 1; i > 0; i--) {
        int32_t j = (int32_t)tm__rng_below(r, (uint64_t)i + 1), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

bool tm__ls_out_of_time(const tm__ls *L)
{
    return (L->t_end >= 0 && tm__now() > L->t_end) || tm__stopped(L->ctx);
}

static void mark(const tm__sgraph *g, uint8_t *dirty, int32_t u)
{
    dirty[u] = 1;
    for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
        dirty[g->adj[e]] = 1;
}

tm_err tm__ls_ws_init(tm_ctx *ctx, tm__ls_ws *w, int32_t n)
{
    memset(w, 0, sizeof *w);
    w->queue = tm__malloc_n((size_t)(n > 0 ? n : 1), sizeof *w->queue);
    w->dist = tm__malloc_n((size_t)(n > 0 ? n : 1), sizeof *w->dist);
    w->stamp = tm__calloc_n((size_t)(n > 0 ? n : 1), sizeof *w->stamp);
    if (!w->queue || !w->dist || !w->stamp) {
        tm__ls_ws_free(w);
        return tm__nomem(ctx);
    }
    return TM_EOK;
}

void tm__ls_ws_free(tm__ls_ws *w)
{
    free(w->queue), free(w->dist), free(w->stamp), free(w->moved);
    memset(w, 0, sizeof *w);
}

static uint32_t next_stamp(tm__ls_ws *w, int32_t n)
{
    if (++w->cur == 0) {
        memset(w->stamp, 0, (size_t)n * sizeof *w->stamp);
        w->cur = 1;
    }
    return w->cur;
}

/* The tasks within distance depth of u, in BFS order, into w->queue;
 * returns how many.  The ball depends on the graph only. */
static int32_t ball(const tm__sgraph *g, tm__ls_ws *w, int32_t u, int depth)
{
    uint32_t cur = next_stamp(w, g->n);
    int32_t qh = 0, qt = 0;
    w->stamp[u] = cur;
    w->dist[u] = 0;
    w->queue[qt++] = u;
    while (qh < qt) {
        int32_t x = w->queue[qh++];
        if (w->dist[x] >= depth)
            continue;
        for (int64_t e = g->xadj[x]; e < g->xadj[x + 1]; e++) {
            int32_t y = g->adj[e];
            if (w->stamp[y] != cur) {
                w->stamp[y] = cur;
                w->dist[y] = w->dist[x] + 1;
                w->queue[qt++] = y;
            }
        }
    }
    return qt;
}

/* Partners worth a try: one-to-one, a swap inside a lowest-level group is
 * void. */
static bool partner(const tm__ls *L, int32_t u, int32_t x)
{
    return x != u && (L->load || !tm__qsame(&L->o, L->pe[u], L->pe[x]));
}

int tm__ls_nc_visit(tm__ls *L, tm__ls_ws *w, int32_t u, int depth, uint8_t *next)
{
    int32_t nb = ball(L->sg, w, u, depth);
    int improved = 0;
    for (int32_t i = 1; i < nb; i++) {
        int32_t x = w->queue[i];
        if (!partner(L, u, x) || !tm__ls_try_swap(L, u, x))
            continue;
        improved++;
        mark(L->g, next, u);
        mark(L->g, next, x);
        if (w->track && !w->nomem) {
            if (tm__grow((void **)&w->moved, &w->cap_moved, w->n_moved + 1, sizeof *w->moved) < 0)
                w->nomem = true;
            else
                w->moved[w->n_moved++] = x;
        }
    }
    return improved;
}

bool tm__ls_nc_probe(const tm__ls *L, tm__ls_ws *w, int32_t u, int depth)
{
    int32_t nb = ball(L->sg, w, u, depth);
    double d;
    for (int32_t i = 1; i < nb; i++)
        if (partner(L, u, w->queue[i]) && tm__ls_gain(L, u, w->queue[i], &d))
            return true;
    return false;
}

/* N_C^D.  After the first round only "dirty" tasks are searched from: a
 * swap (u, v) changes its gain only if u, v or one of their neighbours
 * moved, and then u or v is dirty and the pair is met from its side (the
 * ball relation is symmetric), so no improving pair is missed.  With a
 * team (one-to-one only) each round runs in qap_lspar.c, same swaps. */
tm_err tm__ls_run_nc(tm_ctx *ctx, tm__ls *L, int depth, tm__rng *r)
{
    const tm__sgraph *g = L->g;
    int32_t n = g->n > 0 ? g->n : 0;
    int32_t *order = tm__malloc_n((size_t)(n ? n : 1), sizeof *order);
    uint8_t *dirty = tm__malloc_n((size_t)(n ? n : 1), 1), *next = tm__calloc_n((size_t)(n ? n : 1), 1);
    tm__ls_ws w;
    tm_err err = tm__ls_ws_init(ctx, &w, n);
    if (!err && (!order || !dirty || !next))
        err = tm__nomem(ctx);
    if (err)
        goto out;
    memset(dirty, 1, (size_t)n);
    for (int32_t i = 0; i < n; i++)
        order[i] = i;
    for (int round = 0;; round++) {
        int improved = 0;
        bool stopped = false;
        shuffle(order, n, r);
        if (L->load && move_pass(L, order) > 0) {
            improved++;
            memset(next, 1, (size_t)n);
        }
        if (L->team && !L->load) {
            err = tm__ls_par_nc_round(ctx, L, &w, order, dirty, next, depth, &improved, &stopped);
            if (err || stopped)
                goto out;
        } else {
            for (int32_t i = 0; i < n; i++) {
                int32_t u = order[i];
                if (dirty[u])
                    improved += tm__ls_nc_visit(L, &w, u, depth, next);
                if ((i & 255) == 0 && tm__ls_out_of_time(L))
                    goto out;
            }
        }
        if (!improved)
            break;
        {
            uint8_t *t = dirty;
            dirty = next;
            next = t;
            memset(next, 0, (size_t)n);
        }
    }
out:
    tm__ls_ws_free(&w);
    free(order), free(dirty), free(next);
    return err;
}

/* np (block >= 1) and n2 (block = n): pairs inside blocks of the tasks
 * ordered by PE. */
static tm_err run_blocks(tm_ctx *ctx, tm__ls *L, int64_t block, tm__rng *r)
{
    int32_t n = L->g->n;
    int64_t n_pe = L->o.n_pe;
    int32_t *byp = tm__malloc_n((size_t)n, sizeof *byp);
    int32_t *order = tm__malloc_n((size_t)n, sizeof *order);
    int64_t *cnt = tm__calloc_n((size_t)n_pe + 1, sizeof *cnt);
    bool one_to_one = L->load == NULL;
    if (!byp || !order || !cnt) {
        free(byp), free(order), free(cnt);
        return tm__nomem(ctx);
    }
    for (;;) {
        int improved = 0;
        /* tasks sorted by PE (counting sort); recomputed each round since
         * swaps move tasks between blocks */
        memset(cnt, 0, ((size_t)n_pe + 1) * sizeof *cnt);
        for (int32_t u = 0; u < n; u++)
            cnt[L->pe[u] + 1]++;
        for (int64_t p = 0; p < n_pe; p++)
            cnt[p + 1] += cnt[p];
        for (int32_t u = 0; u < n; u++)
            byp[cnt[L->pe[u]]++] = u;
        for (int32_t i = 0; i < n; i++)
            order[i] = i;
        shuffle(order, n, r);
        for (int32_t ii = 0; ii < n; ii++) {
            int32_t i = order[ii], u = byp[i];
            int64_t b0 = (i / block) * block, b1 = b0 + block;
            if (b1 > n)
                b1 = n;
            for (int64_t j = b0; j < b1; j++) {
                int32_t v = byp[j];
                if (j == i)
                    continue;
                if (one_to_one && tm__qsame(&L->o, L->pe[u], L->pe[v]))
                    continue;
                improved += tm__ls_try_swap(L, u, v);
            }
            if ((ii & 63) == 0 && tm__ls_out_of_time(L))
                goto done;
        }
        if (!improved)
            break;
    }
done:
    free(byp), free(order), free(cnt);
    return TM_EOK;
}

/* Whether every weight is non-negative and the oracle obeys the triangle
 * inequality, so that tm__ls_gain may skip far pairs.  Hierarchy mode: an
 * ultrametric when the distances do not decrease with the level.  Network
 * mode: hop counts of shortest paths plus d_top between hosts, when no
 * host is a shortcut (tm__qnet.hops_metric); inside a host the node levels
 * must not decrease and stay within two host-to-host distances (d_top +
 * c_hop at least). */
static bool far_bound_holds(const tm__sgraph *g, const tm__qdist *o)
{
    const tm_hier *h = o->net ? o->net->node : o->h;
    for (int64_t e = 0; e < g->xadj[g->n]; e++)
        if (!(g->w[e] >= 0))
            return false;
    for (int i = 1; h && i < h->k; i++)
        if (h->d[i] < h->d[i - 1])
            return false;
    if (o->net) {
        const tm__qnet *q = o->net;
        if (!q->hops_metric || !(q->d_top >= 0 && q->c_hop >= 0))
            return false;
        if (h && h->k > 0 && h->d[h->k - 1] > 2.0 * (q->d_top + q->c_hop))
            return false;
    }
    return true;
}

static double *weighted_degrees(const tm__sgraph *g)
{
    double *wd = tm__malloc_n((size_t)(g->n ? g->n : 1), sizeof *wd);
    for (int32_t u = 0; wd && u < g->n; u++) {
        wd[u] = 0.0;
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
            wd[u] += g->w[e];
    }
    return wd;
}

/* Smallest one-to-one problem searched with a team of threads: below, a
 * round is too short to share out. */
#define TM__LSPAR_MIN 2048

tm_err tm__qap_local_search(tm_ctx *ctx, const tm__sgraph *g, const tm__qdist *o, double bound,
                            const char *nbh, int depth, uint64_t seed, int32_t *pe,
                            double *j_out)
{
    return tm__qap_local_search_k(ctx, g, o, bound, nbh, depth, -1.0, seed, pe, j_out);
}

/* The search itself on gain graph g and search graph sg (the partners
 * tried), from pe; *j_out: J on g. */
static tm_err search(tm_ctx *ctx, const tm__sgraph *g, const tm__sgraph *sg, const tm__qdist *o,
                     double bound, const char *nbh, int depth, double kicks, uint64_t seed,
                     int32_t *pe, double *j_out)
{
    tm__ls L;
    tm__rng r;
    tm_err err = TM_EOK;
    double tl = tm_ctx_time_limit(ctx), *wdeg = NULL;
    bool nc = strcmp(nbh, "nc") == 0, ils = strcmp(nbh, "ils") == 0;
    memset(&L, 0, sizeof L);
    L.g = g;
    L.sg = sg;
    L.pe = pe;
    L.bound = bound;
    L.o = *o;
    L.t_end = tl >= 0 ? tm__now() + tl : -1.0;
    L.kicks = kicks;
    L.ctx = ctx;
    tm__rng_seed(&r, seed, 0x5157);
    if (bound >= 0) {
        L.load = tm__calloc_n((size_t)o->n_pe, sizeof *L.load);
        if (!L.load) {
            err = tm__nomem(ctx);
            goto out;
        }
        for (int32_t u = 0; u < g->n; u++)
            L.load[pe[u]] += g->vw[u];
    }
    L.c = tm__malloc_n((size_t)(g->n ? g->n : 1), sizeof *L.c);
    if (!L.c) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t u = 0; u < g->n; u++)
        L.c[u] = contrib(&L, u);
    if (far_bound_holds(g, o) && !(wdeg = weighted_degrees(g))) {
        err = tm__nomem(ctx);
        goto out;
    }
    L.wdeg = wdeg;
    L.j = tm__qap_eval_sym(g, &L.o, pe);
    L.eps = -1e-9 * (1.0 + fabs(L.j) * 1e-6);
    /* J at its lower bound (every task's partners at the least distance
     * two PEs can have: a stencil in natural order on its torus): every
     * step of these searches must lower J, so none exists, and skipping
     * them gives the same answer (ils:10 on 65,536 such tasks: 6 s) */
    if (tm__qap_at_lower_bound(g, &L.o, pe, L.c)) {
        tm__log(ctx, TM_LOG_INFO, "%s: J is at its lower bound, nothing to refine", nbh);
        goto out;
    }
    /* the results do not depend on the team's size (qap_lspar.c) */
    if ((nc || ils) && !L.load && g->n >= TM__LSPAR_MIN && tm_ctx_threads(ctx) > 1 &&
        (err = tm__team_new(ctx, tm_ctx_threads(ctx), &L.team)) != TM_EOK)
        goto out;
    if (nc)
        err = tm__ls_run_nc(ctx, &L, depth, &r);
    else if (ils)
        err = tm__ls_run_ils(ctx, &L, depth, &r);
    else if (strcmp(nbh, "np") == 0)
        err = run_blocks(ctx, &L, depth, &r);
    else
        err = run_blocks(ctx, &L, g->n > 0 ? g->n : 1, &r);
out:
    if (j_out)
        *j_out = L.j;
    tm__team_free(L.team);
    free(wdeg);
    free(L.load);
    free(L.c);
    return err;
}

/* nc and ils search on the heavy edges (TM__SEARCH_RATIO): the partners
 * always, and the gains too when the light edges carry at most
 * TM__LIGHT_WEIGHT of the volume (on AMG2013 1,000, 2e-3 of it on 207,000
 * of its 225,000 edges, where exact gains cost 900 oracle calls each).
 * Then J is the exact one of g, and a search whose answer is worse on it
 * than its start (J on the heavy edges fell, on all of them rose) returns
 * the start: never worse by J. */
tm_err tm__qap_local_search_k(tm_ctx *ctx, const tm__sgraph *g, const tm__qdist *o, double bound,
                              const char *nbh, int depth, double kicks, uint64_t seed,
                              int32_t *pe, double *j_out)
{
    tm__sgraph heavy = {0};
    tm__heavy_share kept = {1.0, 1.0};
    int32_t *start = NULL;
    double j0, j1;
    bool light;
    tm_err err;
    if ((strcmp(nbh, "nc") != 0 && strcmp(nbh, "ils") != 0))
        return search(ctx, g, g, o, bound, nbh, depth, kicks, seed, pe, j_out);
    if (tm__sgraph_heavy(ctx, g, TM__SEARCH_RATIO, &heavy, &kept) != TM_EOK)
        return tm__nomem(ctx);
    if (kept.edges >= 1.0) {
        tm__sgraph_release(&heavy);
        return search(ctx, g, g, o, bound, nbh, depth, kicks, seed, pe, j_out);
    }
    light = kept.weight >= 1.0 - TM__LIGHT_WEIGHT;
    if (!light) {
        err = search(ctx, g, &heavy, o, bound, nbh, depth, kicks, seed, pe, j_out);
        tm__sgraph_release(&heavy);
        return err;
    }
    if (!(start = tm__malloc_n((size_t)(g->n ? g->n : 1), sizeof *start))) {
        tm__sgraph_release(&heavy);
        return tm__nomem(ctx);
    }
    memcpy(start, pe, (size_t)g->n * sizeof *pe);
    j0 = tm__qap_eval_sym(g, o, pe);
    err = search(ctx, &heavy, &heavy, o, bound, nbh, depth, kicks, seed, pe, NULL);
    j1 = tm__qap_eval_sym(g, o, pe);
    if (!err && j1 > j0) {
        memcpy(pe, start, (size_t)g->n * sizeof *pe);
        j1 = j0;
    }
    if (j_out)
        *j_out = j1;
    free(start);
    tm__sgraph_release(&heavy);
    return err;
}
