/* ugraph.c - the undirected weighted view of a communication graph that the
 * network-mode strategies work on (symmetrised: w'(u,v) = w(u,v) + w(v,u)),
 * and quotient graphs of a partition.  Built here rather than with
 * tm_comm_symmetrize because the strategies also need it for quotient graphs
 * and a sorted merge of (u, v, w) triples serves both. */
#include <stdlib.h>
#include <string.h>

#include "netmap.h"
#include "../util/util.h"

typedef struct {
    int32_t u, v;
    double w;
} triple;

static int cmp_triple(const void *a, const void *b)
{
    const triple *x = a, *y = b;
    if (x->u != y->u)
        return x->u < y->u ? -1 : 1;
    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return 0;
}

void tm__ugraph_release(tm__ugraph *g)
{
    free(g->xadj);
    free(g->adj);
    free(g->w);
    memset(g, 0, sizeof *g);
}

double tm__ugraph_wdeg(const tm__ugraph *g, int32_t v)
{
    double s = 0;
    for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++)
        s += g->w[j];
    return s;
}

/* Sorts the triples, merges duplicates and builds the CSR. Takes t. */
static tm_err build(tm_ctx *ctx, int32_t n, triple *t, size_t m, tm__ugraph *out)
{
    size_t k = 0;
    memset(out, 0, sizeof *out);
    qsort(t, m, sizeof *t, cmp_triple);
    for (size_t i = 0; i < m; i++) {
        if (k > 0 && t[k - 1].u == t[i].u && t[k - 1].v == t[i].v)
            t[k - 1].w += t[i].w;
        else
            t[k++] = t[i];
    }
    out->n = n;
    out->xadj = tm__calloc_n((size_t)n + 1, sizeof *out->xadj);
    out->adj = tm__malloc_n(k ? k : 1, sizeof *out->adj);
    out->w = tm__malloc_n(k ? k : 1, sizeof *out->w);
    if (!out->xadj || !out->adj || !out->w) {
        free(t);
        tm__ugraph_release(out);
        return tm__nomem(ctx);
    }
    for (size_t i = 0; i < k; i++) {
        out->xadj[t[i].u + 1]++;
        out->adj[i] = t[i].v;
        out->w[i] = t[i].w;
    }
    for (int32_t v = 0; v < n; v++)
        out->xadj[v + 1] += out->xadj[v];
    free(t);
    return TM_EOK;
}

tm_err tm__ugraph_from_comm(tm_ctx *ctx, const tm_comm *comm, tm__ugraph *out)
{
    size_t m = 0;
    triple *t = tm__malloc_n(2 * (size_t)comm->nnz + 1, sizeof *t);
    if (!t)
        return tm__nomem(ctx);
    for (int32_t u = 0; u < comm->n; u++) {
        for (int64_t j = comm->xadj[u]; j < comm->xadj[u + 1]; j++) {
            int32_t v = comm->adj[j];
            double w = comm->w[j];
            /* zero volumes and self-messages carry nothing between hosts */
            if (v == u || !(w > 0))
                continue;
            t[m++] = (triple){u, v, w};
            t[m++] = (triple){v, u, w};
        }
    }
    return build(ctx, comm->n, t, m, out);
}

tm_err tm__ugraph_quotient(tm_ctx *ctx, const tm__ugraph *g, const int32_t *part, int32_t k,
                           tm__ugraph *out)
{
    size_t m = 0;
    triple *t = tm__malloc_n((size_t)g->xadj[g->n] + 1, sizeof *t);
    if (!t)
        return tm__nomem(ctx);
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t j = g->xadj[u]; j < g->xadj[u + 1]; j++)
            if (part[u] != part[g->adj[j]])
                t[m++] = (triple){part[u], part[g->adj[j]], g->w[j]};
    return build(ctx, k, t, m, out);
}

tm_err tm__ugraph_induced(tm_ctx *ctx, const tm__ugraph *g, const int32_t *verts, int32_t cnt,
                          int32_t *local, tm__ugraph *out)
{
    int64_t m = 0;
    memset(out, 0, sizeof *out);
    for (int32_t i = 0; i < cnt; i++)
        local[verts[i]] = i;
    for (int32_t i = 0; i < cnt; i++)
        for (int64_t j = g->xadj[verts[i]]; j < g->xadj[verts[i] + 1]; j++)
            m += local[g->adj[j]] >= 0;
    out->n = cnt;
    out->xadj = tm__malloc_n((size_t)cnt + 1, sizeof *out->xadj);
    out->adj = tm__malloc_n((size_t)m + 1, sizeof *out->adj);
    out->w = tm__malloc_n((size_t)m + 1, sizeof *out->w);
    if (!out->xadj || !out->adj || !out->w) {
        tm__ugraph_release(out);
        for (int32_t i = 0; i < cnt; i++)
            local[verts[i]] = -1;
        return tm__nomem(ctx);
    }
    m = 0;
    out->xadj[0] = 0;
    for (int32_t i = 0; i < cnt; i++) {
        for (int64_t j = g->xadj[verts[i]]; j < g->xadj[verts[i] + 1]; j++) {
            if (local[g->adj[j]] < 0)
                continue;
            out->adj[m] = local[g->adj[j]];
            out->w[m++] = g->w[j];
        }
        out->xadj[i + 1] = m;
    }
    for (int32_t i = 0; i < cnt; i++)
        local[verts[i]] = -1;
    return TM_EOK;
}
