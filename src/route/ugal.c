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
 *     with L the loads of all other flows, the cost of a routing P of f is
 *        hops(P) x max over router-to-router links l of P of
 *                   (L[l] + w * share_P(l)) / capacity(l)
 *     (hops(P): the mean hops of P; host cables, which both routings
 *     share, are left out, as UGAL compares the queues inside the
 *     network).  f goes Valiant if that cost is strictly lower, else
 *     minimal (ties keep it minimal);
 *  3. passes repeat until one changes nothing, at most TM_UGAL_PASSES.
 * Flows inside one group are always minimal.  Deterministic: the result
 * depends on the flows and their order only.
 *
 * Cost: each flow's two routings are found once, as sparse link shares
 * (one routing of a unit flow and a scan of all links each, O(flows x
 * links)), then every pass costs the total size of those lists.
 */
#include <stdlib.h>
#include <string.h>

#include "route_eval.h"
#include "route_int.h"
#include "../util/util.h"

#define TM_UGAL_PASSES 8

/* The sparse link shares of the two routings of every flow. */
typedef struct paths {
    size_t n, cap;
    int32_t *link;
    double *frac;
    size_t *off[2];   /* per flow and routing (0 minimal, 1 valiant): start in link/frac */
    size_t *end[2];
    double *mean[2];  /* mean hops */
    int32_t *hmax[2]; /* longest path */
} paths;

static void paths_free(paths *p)
{
    free(p->link);
    free(p->frac);
    for (int k = 0; k < 2; k++) {
        free(p->off[k]);
        free(p->end[k]);
        free(p->mean[k]);
        free(p->hmax[k]);
    }
}

/* Appends the non-zero entries of the unit loads in unit (cleared). */
static tm_err take(tm_ctx *ctx, paths *p, const tm_net_csr *g, double *unit, size_t *off,
                   size_t *end, double *mean)
{
    *off = p->n;
    *mean = 0.0;
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
        *mean += unit[l];
        unit[l] = 0.0;
    }
    *end = p->n;
    return TM_EOK;
}

/* Both routings of every flow (valiant only between groups). */
static tm_err find_paths(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, size_t m,
                         const int32_t *src, const int32_t *dst, paths *p, double *unit)
{
    const double one = 1.0;
    tm_err err = TM_EOK;
    for (int k = 0; k < 2; k++) {
        p->off[k] = tm__malloc_n(m + 1, sizeof(size_t));
        p->end[k] = tm__malloc_n(m + 1, sizeof(size_t));
        p->mean[k] = tm__malloc_n(m + 1, sizeof(double));
        p->hmax[k] = tm__malloc_n(m + 1, sizeof(int32_t));
        if (!p->off[k] || !p->end[k] || !p->mean[k] || !p->hmax[k])
            return tm__nomem(ctx);
    }
    for (size_t i = 0; i < m && !err; i++) {
        bool between = tm__valiant_group(r, src[i]) != tm__valiant_group(r, dst[i]);
        err = tm__valiant_minimal(ctx, r, ws, src[i], 1, &dst[i], &one, unit, &p->hmax[0][i]);
        if (!err)
            err = take(ctx, p, r->g, unit, &p->off[0][i], &p->end[0][i], &p->mean[0][i]);
        if (!err && between)
            err = tm__route_valiant_ops.flows(ctx, r, ws, src[i], 1, &dst[i], &one, unit,
                                              &p->hmax[1][i]);
        if (!err && between)
            err = take(ctx, p, r->g, unit, &p->off[1][i], &p->end[1][i], &p->mean[1][i]);
        if (!err && !between) {
            p->off[1][i] = p->end[1][i] = 0;
            p->mean[1][i] = 0.0;
            p->hmax[1][i] = 0;
        }
    }
    return err;
}

static void add_flow(const paths *p, int k, size_t i, double w, double *load)
{
    for (size_t e = p->off[k][i]; e < p->end[k][i]; e++)
        load[p->link[e]] += w * p->frac[e];
}

/* UGAL's cost of routing k of flow i (volume w, currently on cur, whose
 * shares are in mine) over the loads L of all flows. */
static double cost(const tm_route *r, const paths *p, int k, size_t i, double w,
                   const double *L, const double *mine)
{
    const tm_net_csr *g = r->g;
    double worst = 0.0;
    for (size_t e = p->off[k][i]; e < p->end[k][i]; e++) {
        int32_t l = p->link[e];
        double c;
        if (g->is_host[g->tail_of[l]] || g->is_host[g->tail_of[l ^ 1]])
            continue;
        c = (L[l] - w * mine[l] + w * p->frac[e]) / g->cap[l];
        if (c > worst)
            worst = c;
    }
    return p->mean[k][i] * worst;
}

/* One pass; returns the number of flows that changed. */
static size_t pass(const tm_route *r, const paths *p, size_t m, const double *vol, double *L,
                   double *mine, unsigned char *choice)
{
    size_t changed = 0;
    for (size_t i = 0; i < m; i++) {
        int cur = choice[i], best;
        double cm, cv;
        if (p->end[1][i] == p->off[1][i] || vol[i] <= 0.0)
            continue; /* inside one group: minimal */
        for (size_t e = p->off[cur][i]; e < p->end[cur][i]; e++)
            mine[p->link[e]] = p->frac[e];
        cm = cost(r, p, 0, i, vol[i], L, mine);
        cv = cost(r, p, 1, i, vol[i], L, mine);
        for (size_t e = p->off[cur][i]; e < p->end[cur][i]; e++)
            mine[p->link[e]] = 0.0;
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

tm_err tm__route_ugal_loads(tm_ctx *ctx, const tm_route *r, size_t m, const int32_t *src,
                            const int32_t *dst, const double *vol, double *load, int32_t *hops,
                            unsigned char *valiant, int *passes)
{
    size_t nl = (size_t)r->g->n_links + 1;
    paths p;
    tm_route_ws *ws = NULL;
    double *unit = tm__calloc_n(nl, sizeof *unit), *L = tm__calloc_n(nl, sizeof *L);
    double *mine = tm__calloc_n(nl, sizeof *mine);
    unsigned char *choice = tm__calloc_n(m + 1, 1);
    tm_err err = TM_EOK;
    int np = 0;
    memset(&p, 0, sizeof p);
    if (!unit || !L || !mine || !choice) {
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
        if (pass(r, &p, m, vol, L, mine, choice) == 0)
            break;
    }
    /* the loads summed afresh in flow order: no drift from the moves */
    for (size_t i = 0; i < m; i++) {
        add_flow(&p, choice[i], i, vol[i], load);
        hops[i] = p.hmax[choice[i]][i];
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
    free(choice);
    return err;
}
