/*
 * ugal.c - UGAL-G on dragonflies (Kim, Dally, Scott, Abts, ISCA 2008,
 * section 4.2): every flow between two groups takes either its minimal
 * paths (ECMP) or its Valiant paths (valiant.c), whichever the traffic of
 * all flows leaves less loaded.  The queue lengths of the paper are the
 * link loads of the whole traffic matrix, so the choice is made on the
 * matrix at once (the exact evaluation calls tm__route_ugal_loads):
 *
 *  1. every flow starts minimal;
 *  2. flows are visited in the caller's order (the evaluation sorts them
 *     by source host, then destination host); for flow f of volume w,
 *     with L the loads of all other flows and share(l) the share of f on
 *     link l if f takes the routing in question, the cost of a set of
 *     paths Q is
 *        hops(Q) x max over router-to-router links l of Q of
 *                   (L[l] + w * share(l)) / capacity(l)
 *     (hops(Q): the mean hops of Q; host cables, which both routings
 *     share, are left out, as UGAL compares the queues inside the
 *     network).  The minimal cost is that of the minimal paths; the
 *     Valiant cost is the mean over the intermediate groups of the cost
 *     of the paths through each (a packet picks one group at random).  f
 *     goes Valiant if that cost is strictly lower, else minimal (ties
 *     keep it minimal);
 *  3. passes repeat until one changes nothing, at most TM_UGAL_PASSES.
 * Flows inside one group are always minimal.  Deterministic: the result
 * depends on the flows and their order only.
 *
 * Cost: each flow's routings (minimal, and Valiant through each of the
 * G - 2 groups) are found once, as sparse link shares (one routing of a
 * unit flow and a scan of all links each: O(flows x groups x links)),
 * then every pass costs the total size of those lists.
 */
#include <stdlib.h>
#include <string.h>

#include "route_eval.h"
#include "route_int.h"
#include "../util/util.h"

#define TM_UGAL_PASSES 8

/* One routing's sparse link shares: link[off..end), frac[off..end). */
typedef struct sub {
    size_t off, end;
    double hops;  /* mean hops of its paths */
    int32_t hmax; /* longest path */
} sub;

/* Per flow: sub msub[i] (minimal), subs vb[i] .. ve[i]) (Valiant through
 * each intermediate group; none inside one group). */
typedef struct paths {
    size_t n, cap, n_sub, sub_cap;
    int32_t *link;
    double *frac;
    sub *subs;
    size_t *msub, *vb, *ve;
} paths;

static void paths_free(paths *p)
{
    free(p->link);
    free(p->frac);
    free(p->subs);
    free(p->msub);
    free(p->vb);
    free(p->ve);
}

/* Appends the non-zero entries of the unit loads in unit (cleared) as a
 * new sub carrying the fraction `share` of the flow; *out its index. */
static tm_err take(tm_ctx *ctx, paths *p, const tm_net_csr *g, double *unit, double share,
                   int32_t hmax, size_t *out)
{
    sub sb = {p->n, 0, 0.0, hmax};
    if (p->n_sub == p->sub_cap &&
        tm__grow((void **)&p->subs, &p->sub_cap, p->n_sub + 1, sizeof *p->subs) < 0)
        return tm__nomem(ctx);
    for (int32_t l = 0; l < g->n_links; l++) {
        if (unit[l] == 0.0)
            continue;
        if (p->n == p->cap) {
            size_t c1 = p->cap, c2 = p->cap;
            if (tm__grow((void **)&p->link, &c1, p->n + 1, sizeof *p->link) < 0 ||
                tm__grow((void **)&p->frac, &c2, p->n + 1, sizeof *p->frac) < 0)
                return tm__nomem(ctx);
            p->cap = c1 < c2 ? c1 : c2;
        }
        p->link[p->n] = l;
        p->frac[p->n++] = unit[l];
        sb.hops += unit[l];
        unit[l] = 0.0;
    }
    sb.end = p->n;
    sb.hops /= share;
    *out = p->n_sub;
    p->subs[p->n_sub++] = sb;
    return TM_EOK;
}

/* The minimal routing and the Valiant share through every intermediate
 * group of flow src -> dst. */
static tm_err find_flow(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, int32_t src,
                        int32_t dst, paths *p, size_t i, double *unit)
{
    const double one = 1.0;
    int32_t gs = tm__valiant_group(r, src), gd = tm__valiant_group(r, dst), h, n_mid = 0;
    int32_t ng = tm__valiant_n_groups(r);
    size_t first = p->n_sub, idx;
    tm_err err = tm__valiant_minimal(ctx, r, ws, src, 1, &dst, &one, unit, &h);
    if (!err)
        err = take(ctx, p, r->g, unit, 1.0, h, &p->msub[i]);
    p->vb[i] = p->ve[i] = p->n_sub;
    for (int32_t x = 0; x < ng && !err && gs != gd; x++) {
        if (x == gs || x == gd)
            continue;
        err = tm__valiant_via(ctx, r, ws, src, dst, x, unit, &h);
        if (!err && h > 0) /* a group the source still reaches */
            err = take(ctx, p, r->g, unit, 1.0, h, &idx);
        if (!err && h > 0 && p->subs[idx].end == p->subs[idx].off)
            p->n_sub--; /* no intermediate group left: nothing went through x */
        else if (!err && h > 0)
            n_mid++;
    }
    /* each sub carries 1 / n_mid of the flow: its mean hops are per unit */
    for (size_t k = first + 1; k < p->n_sub && !err; k++)
        p->subs[k].hops *= n_mid;
    if (!err && n_mid > 0) {
        p->vb[i] = first + 1;
        p->ve[i] = p->n_sub;
    }
    return err;
}

static tm_err find_paths(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, size_t m,
                         const int32_t *src, const int32_t *dst, paths *p, double *unit)
{
    tm_err err = TM_EOK;
    p->msub = tm__malloc_n(m + 1, sizeof *p->msub);
    p->vb = tm__malloc_n(m + 1, sizeof *p->vb);
    p->ve = tm__malloc_n(m + 1, sizeof *p->ve);
    if (!p->msub || !p->vb || !p->ve)
        return tm__nomem(ctx);
    for (size_t i = 0; i < m && !err; i++)
        err = find_flow(ctx, r, ws, src[i], dst[i], p, i, unit);
    return err;
}

/* Adds w times routing k (0 minimal, 1 Valiant) of flow i to load. */
static void add_flow(const paths *p, int k, size_t i, double w, double *load)
{
    size_t b = k ? p->vb[i] : p->msub[i], e = k ? p->ve[i] : p->msub[i] + 1;
    for (size_t s = b; s < e; s++)
        for (size_t j = p->subs[s].off; j < p->subs[s].end; j++)
            load[p->link[j]] += w * p->frac[j];
}

/* hops x the most loaded router link of sub s, the flow (volume w) moved
 * from its current shares (mine) to the new routing's shares (next). */
static double sub_cost(const tm_route *r, const paths *p, const sub *s, double w, const double *L,
                       const double *mine, const double *next)
{
    const tm_net_csr *g = r->g;
    double worst = 0.0;
    for (size_t j = s->off; j < s->end; j++) {
        int32_t l = p->link[j];
        double c;
        if (g->is_host[g->tail_of[l]] || g->is_host[g->tail_of[l ^ 1]])
            continue;
        c = (L[l] - w * mine[l] + w * next[l]) / g->cap[l];
        if (c > worst)
            worst = c;
    }
    return s->hops * worst;
}

/* UGAL's cost of routing k of flow i: minimal, or the mean over the
 * intermediate groups (each packet picks one at random). */
static double cost(const tm_route *r, const paths *p, int k, size_t i, double w, const double *L,
                   const double *mine, double *next)
{
    size_t b = k ? p->vb[i] : p->msub[i], e = k ? p->ve[i] : p->msub[i] + 1;
    double c = 0.0;
    add_flow(p, k, i, 1.0, next);
    for (size_t s = b; s < e; s++)
        c += sub_cost(r, p, &p->subs[s], w, L, mine, next);
    add_flow(p, k, i, -1.0, next);
    for (size_t s = b; s < e; s++) /* exact zeros again */
        for (size_t j = p->subs[s].off; j < p->subs[s].end; j++)
            next[p->link[j]] = 0.0;
    return c / (double)(e - b);
}

/* One pass; returns the number of flows that changed. */
static size_t pass(const tm_route *r, const paths *p, size_t m, const double *vol, double *L,
                   double *mine, double *next, unsigned char *choice)
{
    size_t changed = 0;
    for (size_t i = 0; i < m; i++) {
        int cur = choice[i], best;
        double cm, cv;
        if (p->ve[i] == p->vb[i] || vol[i] <= 0.0)
            continue; /* inside one group: minimal */
        add_flow(p, cur, i, 1.0, mine);
        cm = cost(r, p, 0, i, vol[i], L, mine, next);
        cv = cost(r, p, 1, i, vol[i], L, mine, next);
        add_flow(p, cur, i, -1.0, mine);
        for (size_t s = (cur ? p->vb[i] : p->msub[i]); s < (cur ? p->ve[i] : p->msub[i] + 1); s++)
            for (size_t j = p->subs[s].off; j < p->subs[s].end; j++)
                mine[p->link[j]] = 0.0;
        best = cv < cm ? 1 : 0;
        if (best != cur) {
            add_flow(p, cur, i, -vol[i], L);
            add_flow(p, best, i, vol[i], L);
            choice[i] = (unsigned char)best;
            changed++;
        }
    }
    return changed;
}

static int32_t hmax_of(const paths *p, int k, size_t i)
{
    int32_t h = 0;
    if (!k)
        return p->subs[p->msub[i]].hmax;
    for (size_t s = p->vb[i]; s < p->ve[i]; s++)
        if (p->subs[s].hmax > h)
            h = p->subs[s].hmax;
    return h;
}

tm_err tm__route_ugal_loads(tm_ctx *ctx, const tm_route *r, size_t m, const int32_t *src,
                            const int32_t *dst, const double *vol, double *load, int32_t *hops,
                            unsigned char *valiant, int *passes)
{
    size_t nl = (size_t)r->g->n_links + 1;
    paths p;
    tm_route_ws *ws = NULL;
    double *unit = tm__calloc_n(nl, sizeof *unit), *L = tm__calloc_n(nl, sizeof *L);
    double *mine = tm__calloc_n(nl, sizeof *mine), *next = tm__calloc_n(nl, sizeof *next);
    unsigned char *choice = tm__calloc_n(m + 1, 1);
    tm_err err = TM_EOK;
    int np = 0;
    memset(&p, 0, sizeof p);
    if (!unit || !L || !mine || !next || !choice) {
        err = tm__nomem(ctx);
        goto out;
    }
    if (!tm__route_is_ugal(r)) {
        err = tm__fail(ctx, TM_EUSAGE, "ugal loads need a ugal router");
        goto out;
    }
    if ((err = tm_route_ws_new(ctx, r, &ws)) != TM_EOK ||
        (err = find_paths(ctx, r, ws, m, src, dst, &p, unit)) != TM_EOK)
        goto out;
    for (size_t i = 0; i < m; i++)
        add_flow(&p, 0, i, vol[i], L);
    while (np < TM_UGAL_PASSES) {
        np++;
        if (pass(r, &p, m, vol, L, mine, next, choice) == 0)
            break;
    }
    /* the loads summed afresh in flow order: no drift from the moves */
    for (size_t i = 0; i < m; i++) {
        add_flow(&p, choice[i], i, vol[i], load);
        hops[i] = hmax_of(&p, choice[i], i);
        if (valiant)
            valiant[i] = choice[i];
    }
    if (passes)
        *passes = np;
out:
    tm_route_ws_free(ws);
    paths_free(&p);
    free(unit);
    free(L);
    free(mine);
    free(next);
    free(choice);
    return err;
}
