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
 * PEs stay within `bound` (equal-weight tasks always can).
 *
 * This file: the swaps, their gains and the N_C^D visit from one task;
 * the searches that run them: qap_ls_run.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qap_int.h"
#include "qap_ls_int.h"

double tm__ls_contrib(const tm__ls *L, int32_t u)
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
        L->c[u] = tm__ls_contrib(L, u);
        L->c[v] = tm__ls_contrib(L, v);
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
int tm__ls_move_pass(tm__ls *L, const int32_t *order)
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
                L->c[u] = tm__ls_contrib(L, u);
            nmoved++;
        }
    }
    return nmoved;
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
