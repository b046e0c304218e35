/*
 * valiant.c - Valiant routing on dragonflies (Kim, Dally, Scott, Abts,
 * ISCA 2008, section 4.2): a flow between hosts of two different groups
 * goes minimally to an intermediate group and from there minimally to its
 * destination.  Oblivious and linear in the volume, so it fits the
 * incremental evaluation of the refinement like any other router.
 *
 * Exactly (docs/routing.md, "--routing valiant and --routing ugal"):
 *  - groups are the dragonfly groups of dfgroups.c (cliques of routers,
 *    found from the graph, failed cables included); a host's group is its
 *    router's;
 *  - a flow src -> dst with both hosts in one group is routed minimally
 *    (ECMP over its minimum-hop paths), as in Kim et al.;
 *  - otherwise its volume is split evenly over the G - 2 groups I other
 *    than the source's and the destination's.  Within I, the share goes
 *    over ECMP's minimum-hop paths from src to the group: the entry
 *    routers are the routers of I nearest to src, each taking the share in
 *    proportion to the number of minimum-hop paths src -> e (sigma);
 *  - from entry router e the flow takes ECMP's minimum-hop paths to dst.
 * The hop count of such a flow is the longest path it uses (its dilation:
 * the hops it actually travels at most); the mean is the total link load
 * per volume (route_eval.h tm__route_minimal).
 *
 * All loads come from the shortest-path DAGs of dag.c: one sweep from src
 * for the direct flows and the first segments, one per entry router for
 * the second segments.  Sources may be any vertex (stub_sources): the
 * exact evaluation routes the hosts of a router together from the router.
 */
#include <stdlib.h>
#include <string.h>

#include "route_int.h"
#include "../util/util.h"

/* Read-only after init. */
typedef struct vdata {
    int32_t n_groups;
    int32_t *grp;  /* per vertex: dragonfly group, -1 */
    int32_t *goff; /* n_groups + 1: routers of group x are grt[goff[x] .. goff[x+1]) */
    int32_t *grt;
} vdata;

/* Per thread. */
typedef struct vws {
    tm__dagws *dw;
    int32_t *ent;    /* entry routers of every group, in group order */
    int32_t *eoff;   /* n_groups + 1 */
    double *ew;      /* per entry: its fraction of the group's share */
    int32_t *edist;  /* per entry: hops src -> entry */
    double *seg1;    /* per vertex: volume src -> vertex (first segments) */
    int32_t *list;   /* vertices with seg1 volume */
    int32_t *dst2;   /* second segments */
    double *vol2;
    int32_t *h2, *idx2, *hv;
    size_t cap;      /* of dst2, vol2, h2, idx2, hv */
    uint32_t *mark, gen; /* seg1 entries in use */
    int32_t only;        /* >= 0: route the share of this intermediate group only (ugal.c) */
} vws;

static void valiant_fini(tm_route *r)
{
    vdata *v = r->priv;
    if (v) {
        free(v->grp);
        free(v->goff);
        free(v->grt);
        free(v);
    }
    r->priv = NULL;
}

/* Routers listed by group (counting sort, vertex order within a group). */
static tm_err group_lists(tm_ctx *ctx, const tm_net_csr *g, vdata *v)
{
    int32_t n_r = 0;
    v->goff = tm__calloc_n((size_t)v->n_groups + 2, sizeof *v->goff);
    if (!v->goff)
        return tm__nomem(ctx);
    for (int32_t x = 0; x < g->n; x++)
        if (!g->is_host[x]) {
            v->goff[v->grp[x] + 2]++;
            n_r++;
        }
    for (int32_t i = 2; i <= v->n_groups + 1; i++)
        v->goff[i] += v->goff[i - 1];
    v->grt = tm__malloc_n((size_t)n_r + 1, sizeof *v->grt);
    if (!v->grt)
        return tm__nomem(ctx);
    for (int32_t x = 0; x < g->n; x++)
        if (!g->is_host[x])
            v->grt[v->goff[v->grp[x] + 1]++] = x;
    return TM_EOK;
}

static tm_err valiant_init(tm_ctx *ctx, tm_route *r)
{
    vdata *v = calloc(1, sizeof *v);
    tm_err err;
    if (!v)
        return tm__nomem(ctx);
    r->priv = v;
    v->grp = tm__malloc_n((size_t)r->g->n + 1, sizeof *v->grp);
    if (!v->grp)
        err = tm__nomem(ctx);
    else
        err = tm__dragonfly_groups(ctx, r, v->grp, &v->n_groups);
    if (!err)
        err = group_lists(ctx, r->g, v);
    if (err)
        valiant_fini(r);
    return err;
}

static void valiant_ws_fini(tm_route_ws *ws)
{
    vws *w = ws->priv;
    if (!w)
        return;
    tm__dagws_free(w->dw);
    free(w->ent);
    free(w->eoff);
    free(w->ew);
    free(w->edist);
    free(w->seg1);
    free(w->list);
    free(w->dst2);
    free(w->vol2);
    free(w->h2);
    free(w->idx2);
    free(w->hv);
    free(w->mark);
    free(w);
    ws->priv = NULL;
}

static tm_err valiant_ws_init(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws)
{
    const vdata *v = r->priv;
    size_t n = (size_t)r->g->n + 1;
    vws *w = calloc(1, sizeof *w);
    tm_err err;
    if (!w)
        return tm__nomem(ctx);
    ws->priv = w;
    if ((err = tm__dagws_new(ctx, r->g, &w->dw)) != TM_EOK) {
        valiant_ws_fini(ws);
        return err;
    }
    w->ent = tm__malloc_n(n, sizeof *w->ent);
    w->eoff = tm__malloc_n((size_t)v->n_groups + 1, sizeof *w->eoff);
    w->ew = tm__malloc_n(n, sizeof *w->ew);
    w->edist = tm__malloc_n(n, sizeof *w->edist);
    w->seg1 = tm__calloc_n(n, sizeof *w->seg1);
    w->list = tm__malloc_n(n, sizeof *w->list);
    w->mark = tm__calloc_n(n, sizeof *w->mark);
    w->only = -1;
    if (!w->ent || !w->eoff || !w->ew || !w->edist || !w->seg1 || !w->list || !w->mark) {
        valiant_ws_fini(ws);
        return tm__nomem(ctx);
    }
    return TM_EOK;
}

/* Entry routers of every group other than src's, from src's DAG d: the
 * nearest routers of the group, weighted by sigma. */
static void find_entries(const tm_route *r, vws *w, tm__dag *d, int32_t gs)
{
    const vdata *v = r->priv;
    int32_t ne = 0;
    for (int32_t x = 0; x < v->n_groups; x++) {
        int32_t best = -1, first = ne;
        double tot = 0.0;
        w->eoff[x] = ne;
        if (x == gs)
            continue;
        for (int32_t i = v->goff[x]; i < v->goff[x + 1]; i++) {
            int32_t e = v->grt[i], h = tm__dag_reach(r->g, d, e);
            if (h < 0 || (best >= 0 && h > best))
                continue;
            if (best < 0 || h < best) {
                best = h;
                ne = first;
                tot = 0.0;
            }
            w->ent[ne] = e;
            w->edist[ne] = h;
            w->ew[ne++] = d->sigma[e];
            tot += d->sigma[e];
        }
        for (int32_t i = first; i < ne; i++)
            w->ew[i] /= tot;
    }
    w->eoff[v->n_groups] = ne;
}

/* The intermediate groups of a flow from group gs to group gd: those the
 * source reaches (after failures, a group may be cut off), other than gd;
 * 0 inside one group (the flow is then minimal). */
static int32_t n_mid(const tm_route *r, const vws *w, int32_t gs, int32_t gd)
{
    const vdata *v = r->priv;
    int32_t k = 0;
    if (gs == gd)
        return 0;
    for (int32_t x = 0; x < v->n_groups; x++)
        if (x != gs && x != gd && w->eoff[x + 1] > w->eoff[x])
            k++;
    return k;
}

static tm_err grow_second(tm_ctx *ctx, vws *w, size_t k)
{
    if (k <= w->cap)
        return TM_EOK;
    free(w->dst2);
    free(w->vol2);
    free(w->h2);
    free(w->idx2);
    free(w->hv);
    w->dst2 = tm__malloc_n(k, sizeof *w->dst2);
    w->vol2 = tm__malloc_n(k, sizeof *w->vol2);
    w->h2 = tm__malloc_n(k, sizeof *w->h2);
    w->idx2 = tm__malloc_n(k, sizeof *w->idx2);
    w->hv = tm__malloc_n(k, sizeof *w->hv);
    w->cap = k;
    if (!w->dst2 || !w->vol2 || !w->h2 || !w->idx2 || !w->hv) {
        w->cap = 0;
        return tm__nomem(ctx);
    }
    return TM_EOK;
}

/* Adds vol to the first-segment volume of vertex x. */
static void seg1_add(vws *w, int32_t x, double vol, int32_t *n)
{
    if (w->mark[x] != w->gen) {
        w->mark[x] = w->gen;
        w->seg1[x] = 0.0;
        w->list[(*n)++] = x;
    }
    w->seg1[x] += vol;
}

/* Direct flows and first segments: one sweep from src (none when load is
 * NULL).  Fills hops with the minimum-hop counts. */
static tm_err first_segments(tm_ctx *ctx, const tm_route *r, vws *w, int32_t src, size_t k,
                             const int32_t *dst, const double *vol, double *load, int32_t *hops)
{
    const vdata *v = r->priv;
    int32_t gs = v->grp[src], n = 0, ng = v->n_groups;
    tm__dag *d = tm__dag_get(w->dw, src);
    tm_err err = tm__dag_reach_all(ctx, r, d, k, dst, hops);
    if (err)
        return err;
    find_entries(r, w, d, gs);
    if (!load)
        return TM_EOK;
    w->gen++;
    for (size_t i = 0; i < k; i++) {
        int32_t gd = v->grp[dst[i]], mid;
        if (dst[i] == src || vol[i] == 0.0)
            continue;
        if ((mid = n_mid(r, w, gs, gd)) == 0) {
            if (w->only < 0)
                seg1_add(w, dst[i], vol[i], &n);
            continue;
        }
        for (int32_t x = 0; x < ng; x++)
            if (x != gs && x != gd && (w->only < 0 || x == w->only))
                for (int32_t e = w->eoff[x]; e < w->eoff[x + 1]; e++)
                    seg1_add(w, w->ent[e], vol[i] / mid * w->ew[e], &n);
    }
    for (int32_t i = 0; i < n; i++)
        w->vol2[i] = w->seg1[w->list[i]];
    tm__dag_sweep(w->dw, d, TM__SPLIT_ECMP, (size_t)n, w->list, w->vol2, load);
    return TM_EOK;
}

/* Second segments from the entry routers of group x: the share of every
 * flow to a host outside groups gs and x; hv[i] = the longest path. */
static tm_err second_segments(tm_ctx *ctx, const tm_route *r, vws *w, int32_t src, int32_t x,
                              size_t k, const int32_t *dst, const double *vol, double *load)
{
    const vdata *v = r->priv;
    int32_t gs = v->grp[src];
    for (int32_t e = w->eoff[x]; e < w->eoff[x + 1]; e++) {
        int32_t m = 0;
        tm__dag *d;
        tm_err err;
        for (size_t i = 0; i < k; i++) {
            int32_t gd = v->grp[dst[i]], mid = n_mid(r, w, gs, gd);
            if (dst[i] == src || mid == 0 || gd == x)
                continue;
            w->dst2[m] = dst[i];
            w->vol2[m] = vol[i] / mid * w->ew[e];
            w->idx2[m++] = (int32_t)i;
        }
        if (!m)
            return TM_EOK;
        d = tm__dag_get(w->dw, w->ent[e]);
        if ((err = tm__dag_reach_all(ctx, r, d, (size_t)m, w->dst2, w->h2)) != TM_EOK)
            return err;
        if (load)
            tm__dag_sweep(w->dw, d, TM__SPLIT_ECMP, (size_t)m, w->dst2, w->vol2, load);
        for (int32_t i = 0; i < m; i++) {
            int32_t j = w->idx2[i], h = w->edist[e] + w->h2[i];
            if (h > w->hv[j])
                w->hv[j] = h;
        }
    }
    return TM_EOK;
}

/* load NULL: hop counts only. */
static tm_err valiant_route(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, int32_t src,
                            size_t k, const int32_t *dst, const double *vol, double *load,
                            int32_t *hops)
{
    const vdata *v = r->priv;
    vws *w = ws->priv;
    int32_t gs = v->grp[src];
    /* first segments list up to every vertex, second ones up to k flows */
    tm_err err = grow_second(ctx, w, k + (size_t)r->g->n + 1);
    if (err)
        return err;
    err = first_segments(ctx, r, w, src, k, dst, vol, load, hops);
    for (size_t i = 0; i < k; i++)
        w->hv[i] = 0;
    for (int32_t x = 0; x < v->n_groups && !err; x++)
        if (x != gs && (w->only < 0 || x == w->only))
            err = second_segments(ctx, r, w, src, x, k, dst, vol, load);
    if (err || !hops)
        return err;
    for (size_t i = 0; i < k; i++)
        if (dst[i] != src && n_mid(r, w, gs, v->grp[dst[i]]) > 0)
            hops[i] = w->hv[i];
    return TM_EOK;
}

static tm_err valiant_flows(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, int32_t src,
                            size_t k, const int32_t *dst, const double *vol, double *load,
                            int32_t *hops)
{
    return valiant_route(ctx, r, ws, src, k, dst, vol, load, hops);
}

/* The longest path a flow src -> dst uses: its dilation.  No context to
 * report to: tm__fail and tm__nomem accept NULL. */
static int32_t valiant_hops(const tm_route *r, tm_route_ws *ws, int32_t src, int32_t dst)
{
    double vol = 0.0;
    int32_t h = -1;
    if (!r->g->is_host[src] || !r->g->is_host[dst])
        return -1;
    return valiant_route(NULL, r, ws, src, 1, &dst, &vol, NULL, &h) == TM_EOK ? h : -1;
}

tm_err tm__valiant_minimal(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, int32_t src,
                           size_t k, const int32_t *dst, const double *vol, double *load,
                           int32_t *hops)
{
    vws *w = ws->priv;
    tm__dag *d = tm__dag_get(w->dw, src);
    tm_err err = tm__dag_reach_all(ctx, r, d, k, dst, hops);
    if (!err)
        tm__dag_sweep(w->dw, d, TM__SPLIT_ECMP, k, dst, vol, load);
    return err;
}

int32_t tm__valiant_group(const tm_route *r, int32_t v) { return ((const vdata *)r->priv)->grp[v]; }

int32_t tm__valiant_n_groups(const tm_route *r) { return ((const vdata *)r->priv)->n_groups; }

tm_err tm__valiant_via(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, int32_t src, int32_t dst,
                       int32_t x, double *load, int32_t *hops)
{
    vws *w = ws->priv;
    const double one = 1.0;
    tm_err err;
    w->only = x;
    err = valiant_route(ctx, r, ws, src, 1, &dst, &one, load, hops);
    w->only = -1;
    return err;
}

static int32_t minimal_hops(const tm_route *r, tm_route_ws *ws, int32_t src, int32_t dst)
{
    vws *w = ws->priv;
    return tm__dag_reach(r->g, tm__dag_get(w->dw, src), dst);
}

/* UGAL (ugal.c) shares the groups and the workspace; its per-flow calls,
 * which the strategies and the refinement make, are minimal. */
const tm__route_ops tm__route_ugal_ops = {
    .name = "ugal",
    .init = valiant_init,
    .fini = valiant_fini,
    .ws_init = valiant_ws_init,
    .ws_fini = valiant_ws_fini,
    .flows = tm__valiant_minimal,
    .hops = minimal_hops,
    .stub_sources = true,
    .nonminimal = true,
};

const tm__route_ops tm__route_valiant_ops = {
    .name = "valiant",
    .init = valiant_init,
    .fini = valiant_fini,
    .ws_init = valiant_ws_init,
    .ws_fini = valiant_ws_fini,
    .flows = valiant_flows,
    .hops = valiant_hops,
    /* a stub host's paths are its cable and its router's paths: the
     * router is as near to every entry router, with as many paths */
    .stub_sources = true,
    .nonminimal = true,
};
