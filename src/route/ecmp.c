/*
 * ecmp.c - the default routing model: the traffic between two hosts is
 * split uniformly over ALL minimum-hop paths, a path being a sequence of
 * directed links (so k parallel cables are k distinct paths).
 *
 * With sigma(v) = number of minimum-hop paths src -> v, the share of the
 * traffic src -> t that crosses DAG link u -> v is flow(v) * sigma(u) /
 * sigma(v), where flow(v) is the traffic of all destinations beyond v
 * that passes v (Brandes 2001).  All destinations of one source are
 * accumulated in one backward sweep (dag.c), so a whole source host costs
 * O(area of its DAG up to the farthest destination), never a path search
 * per message; a single message costs the DAG area between src and dst.
 *
 * Two structures found at init make it cheaper, with the same loads:
 * regular fat-trees (ftclass.h: the exact evaluation uses class totals and
 * no DAG at all) and healthy tori and meshes (gridbox.h: one box per
 * message, used when a source's boxes are smaller than its DAG would be).
 */
#include <stdlib.h>

#include "gridbox.h"
#include "route_int.h"
#include "route_eval.h"
#include "../net/ftclass.h"
#include "../util/util.h"

typedef struct ecmp_data {
    tm__ftclass *fc;
    tm__gridbox *gb;
} ecmp_data;

/* Per thread: the DAG workspace, and the boxes' buffer. */
typedef struct ecmp_ws {
    tm_route_ws dag; /* priv: the tm__dagws of dag.c */
    double *buf;
    size_t cap;
} ecmp_ws;

static void ecmp_fini(tm_route *r)
{
    ecmp_data *e = r->priv;
    if (e) {
        tm__ftclass_free(e->fc);
        tm__gridbox_free(e->gb);
    }
    free(e);
    r->priv = NULL;
}

static tm_err ecmp_init(tm_ctx *ctx, tm_route *r)
{
    ecmp_data *e = calloc(1, sizeof *e);
    tm_err err;
    if (!e)
        return tm__nomem(ctx);
    r->priv = e;
    err = tm__ftclass_detect(ctx, r->g, &e->fc);
    if (!err && !e->fc)
        err = tm__gridbox_detect(ctx, r->net, &e->gb);
    if (err)
        ecmp_fini(r);
    return err;
}

const tm__ftclass *tm__route_ftclass(const tm_route *r)
{
    return r->ops == &tm__route_ecmp_ops ? ((const ecmp_data *)r->priv)->fc : NULL;
}

const tm__gridbox *tm__route_gridbox(const tm_route *r)
{
    return r->ops == &tm__route_ecmp_ops ? ((const ecmp_data *)r->priv)->gb : NULL;
}

static tm_err ecmp_ws_init(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws)
{
    ecmp_ws *w = calloc(1, sizeof *w);
    tm_err err;
    if (!w)
        return tm__nomem(ctx);
    w->dag.r = r;
    if ((err = tm__dag_ws_init(ctx, r, &w->dag)) != TM_EOK) {
        free(w);
        return err;
    }
    ws->priv = w;
    return TM_EOK;
}

static void ecmp_ws_fini(tm_route_ws *ws)
{
    ecmp_ws *w = ws->priv;
    if (!w)
        return;
    tm__dag_ws_fini(&w->dag);
    free(w->buf);
    free(w);
}

static tm_err ecmp_flows(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, int32_t src, size_t k,
                         const int32_t *dst, const double *vol, double *load, int32_t *hops)
{
    const ecmp_data *e = r->priv;
    ecmp_ws *w = ws->priv;
    tm__dag *d;
    int64_t max;
    tm_err err;
    /* boxes, if together smaller than the DAG (about the vertices it
     * reaches, at most all of them); depends on the input only */
    if (e->gb && tm__gridbox_boxes(e->gb, src, k, dst, r->g->n / 2, &max) >= 0) {
        size_t cap = w->cap;
        if (tm__grow((void **)&w->buf, &cap, (size_t)max, sizeof *w->buf) < 0)
            return tm__nomem(ctx);
        w->cap = cap;
        for (size_t i = 0; i < k; i++) {
            if (vol[i] != 0.0)
                tm__gridbox_route(e->gb, src, dst[i], vol[i], load, w->buf);
            if (hops)
                hops[i] = tm__gridbox_hops(e->gb, src, dst[i]);
        }
        return TM_EOK;
    }
    d = tm__dag_get(w->dag.priv, src);
    err = tm__dag_reach_all(ctx, r, d, k, dst, hops);
    if (!err)
        tm__dag_sweep(w->dag.priv, d, TM__SPLIT_ECMP, k, dst, vol, load);
    return err;
}

static int32_t ecmp_hops(const tm_route *r, tm_route_ws *ws, int32_t src, int32_t dst)
{
    const ecmp_data *e = r->priv;
    ecmp_ws *w = ws->priv;
    if (e->gb && tm__gridbox_on(e->gb, src) && tm__gridbox_on(e->gb, dst))
        return tm__gridbox_hops(e->gb, src, dst);
    return tm__dag_hops(r, &w->dag, src, dst);
}

const tm__route_ops tm__route_ecmp_ops = {
    .name = "ecmp",
    .init = ecmp_init,
    .fini = ecmp_fini,
    .ws_init = ecmp_ws_init,
    .ws_fini = ecmp_ws_fini,
    .flows = ecmp_flows,
    .hops = ecmp_hops,
    .stub_sources = true,
};
