/* sgraph_heavy.c - the heavy edges of a task graph (sgraph.h).
 *
 * Real traces mix weight classes several orders of magnitude apart: a
 * 3D code's faces, then its edge and corner neighbours (LULESH: 54x and
 * 2,000x lighter), then the collectives traced as messages from rank 0 to
 * every rank (10^8-10^9x lighter).  The light classes hide the job's
 * geometry from the constructions (a BFS ball through rank 0 is the whole
 * job) and make the local searches' neighbourhoods dense; the heavy ones
 * are the skeleton the job is built on. */
#include <stdlib.h>
#include <string.h>

#include "sgraph.h"
#include "../util/util.h"

static bool heavy(const tm__sgraph *g, const double *top, int32_t u, int64_t e, double ratio)
{
    double t = top[u] < top[g->adj[e]] ? top[u] : top[g->adj[e]];
    return g->w[e] >= ratio * t;
}

tm_err tm__sgraph_heavy(tm_ctx *ctx, const tm__sgraph *g, double ratio, tm__sgraph *out,
                        tm__heavy_share *kept)
{
    size_t n = (size_t)(g->n > 0 ? g->n : 0), m = (size_t)g->xadj[g->n], k = 0;
    double wall = 0, wkept = 0;
    double *top = tm__calloc_n(n + 1, sizeof *top);
    tm_err err = TM_EOK;
    memset(out, 0, sizeof *out);
    out->n = g->n;
    out->total_vw = g->total_vw;
    out->xadj = tm__malloc_n(n + 1, sizeof *out->xadj);
    out->adj = tm__malloc_n(m + 1, sizeof *out->adj);
    out->w = tm__malloc_n(m + 1, sizeof *out->w);
    if (g->vw && (out->vw = tm__malloc_n(n + 1, sizeof *out->vw)))
        memcpy(out->vw, g->vw, n * sizeof *out->vw);
    if (!top || !out->xadj || !out->adj || !out->w || (g->vw && !out->vw)) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
            if (g->w[e] > top[u])
                top[u] = g->w[e];
    for (int32_t u = 0; u < g->n; u++) {
        out->xadj[u] = (int64_t)k;
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++) {
            wall += g->w[e];
            if (heavy(g, top, u, e, ratio)) {
                out->adj[k] = g->adj[e];
                out->w[k++] = g->w[e];
                wkept += g->w[e];
            }
        }
    }
    out->xadj[n] = (int64_t)k;
    kept->edges = m ? (double)k / (double)m : 1.0;
    kept->weight = wall > 0 ? wkept / wall : 1.0;
out:
    free(top);
    if (err)
        tm__sgraph_release(out);
    return err;
}

/* The weight of {u, v} in g (rows sorted by target), 0 when absent. */
static double edge_w(const tm__sgraph *g, int32_t u, int32_t v)
{
    int64_t lo = g->xadj[u], hi = g->xadj[u + 1];
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (g->adj[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->xadj[u + 1] && g->adj[lo] == v ? g->w[lo] : 0.0;
}

tm_err tm__comm_heavy(tm_ctx *ctx, const tm_comm *c, double ratio, tm_comm *out,
                      tm__heavy_share *kept)
{
    tm__sgraph g, h;
    int64_t k = 0;
    tm_err err = tm__sgraph_from_comm(ctx, c, TM__SG_POSITIVE, &g);
    memset(out, 0, sizeof *out);
    if (err)
        return err;
    err = tm__sgraph_heavy(ctx, &g, ratio, &h, kept);
    if (err)
        goto done;
    out->n = c->n;
    out->xadj = tm__malloc_n((size_t)c->n + 1, sizeof *out->xadj);
    out->adj = tm__malloc_n((size_t)c->nnz + 1, sizeof *out->adj);
    out->w = tm__malloc_n((size_t)c->nnz + 1, sizeof *out->w);
    if (c->vwgt && (out->vwgt = tm__malloc_n((size_t)c->n + 1, sizeof *out->vwgt)))
        memcpy(out->vwgt, c->vwgt, (size_t)c->n * sizeof *out->vwgt);
    if (!out->xadj || !out->adj || !out->w || (c->vwgt && !out->vwgt)) {
        err = tm__nomem(ctx);
        goto done;
    }
    /* an entry stays when its edge is in h (the heavy edges, rows sorted) */
    for (int32_t u = 0; u < c->n; u++) {
        out->xadj[u] = k;
        for (int64_t e = c->xadj[u]; e < c->xadj[u + 1]; e++)
            if (c->adj[e] != u && c->w[e] > 0 && edge_w(&h, u, c->adj[e]) > 0) {
                out->adj[k] = c->adj[e];
                out->w[k++] = c->w[e];
            }
    }
    out->xadj[c->n] = k;
    out->nnz = k;
done:
    tm__sgraph_release(&g);
    tm__sgraph_release(&h);
    if (err)
        tm__comm_drop(out);
    return err;
}
