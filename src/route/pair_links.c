/*
 * pair_links.c - the directed links of one (src host, dst host) pair and
 * the fraction of the pair's traffic on each (route.h "the links of one
 * pair of hosts").
 *
 * Every routing model already answers "where does this traffic go" through
 * tm_route_flows, so the pair's links are taken from there rather than
 * re-derived per model: one unit of traffic is routed into a zeroed
 * n_links scratch array, and the links it touched are found by a
 * breadth-first walk from src along out-links that carry some of it (every
 * loaded link lies on a path from src, so the walk reaches all of them and
 * only them).  The walk resets what it reads, so the scratch is zero again
 * and no call ever scans all links.
 */
#include <stdlib.h>

#include "route_int.h"
#include "../util/util.h"

struct tm_route_pairs {
    const tm_route *r;
    tm_route_ws *ws;
    double *scratch;   /* n_links, zero between calls */
    uint32_t *seen;    /* per vertex: generation of its last visit */
    uint32_t gen;
    int32_t *queue;    /* n vertices */
    int32_t *links;    /* result, grown */
    double *frac;
    size_t cap;
};

void tm_route_pairs_free(tm_route_pairs *p)
{
    if (!p)
        return;
    tm_route_ws_free(p->ws);
    free(p->scratch);
    free(p->seen);
    free(p->queue);
    free(p->links);
    free(p->frac);
    free(p);
}

tm_err tm_route_pairs_new(tm_ctx *ctx, const tm_route *r, tm_route_pairs **out)
{
    tm_route_pairs *p = calloc(1, sizeof *p);
    tm_err err;
    *out = NULL;
    if (!p)
        return tm__nomem(ctx);
    p->r = r;
    p->scratch = tm__calloc_n((size_t)r->g->n_links + 1, sizeof *p->scratch);
    p->seen = tm__calloc_n((size_t)r->g->n + 1, sizeof *p->seen);
    p->queue = tm__malloc_n((size_t)r->g->n + 1, sizeof *p->queue);
    if (!p->scratch || !p->seen || !p->queue) {
        tm_route_pairs_free(p);
        return tm__nomem(ctx);
    }
    err = tm_route_ws_new(ctx, r, &p->ws);
    if (err) {
        tm_route_pairs_free(p);
        return err;
    }
    *out = p;
    return TM_EOK;
}

static int push_link(tm_route_pairs *p, int32_t n, int32_t l, double f)
{
    if ((size_t)n >= p->cap) {
        size_t c1 = p->cap, c2 = p->cap;
        if (tm__grow((void **)&p->links, &c1, (size_t)n + 1, sizeof *p->links) < 0 ||
            tm__grow((void **)&p->frac, &c2, (size_t)n + 1, sizeof *p->frac) < 0)
            return -1;
        p->cap = c1 < c2 ? c1 : c2;
    }
    p->links[n] = l;
    p->frac[n] = f;
    return 0;
}

/* Breadth-first from src over loaded out-links; moves their loads from the
 * scratch into the result.  Returns the count, -1 if out of memory (the
 * scratch is then cleared by the caller's sweep). */
static int32_t collect(tm_route_pairs *p, int32_t src)
{
    const tm_net_csr *g = p->r->g;
    int32_t qh = 0, qt = 0, n = 0;
    int oom = 0;
    if (++p->gen == 0) { /* wrapped: forget every old visit */
        for (int32_t v = 0; v < g->n; v++)
            p->seen[v] = 0;
        p->gen = 1;
    }
    p->queue[qt++] = src;
    p->seen[src] = p->gen;
    while (qh < qt) {
        int32_t v = p->queue[qh++];
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t l = g->link[j], w = g->head[j];
            double f = p->scratch[l];
            if (f == 0.0)
                continue;
            p->scratch[l] = 0.0;
            if (!oom && push_link(p, n, l, f) < 0)
                oom = 1;
            n++;
            if (p->seen[w] != p->gen) {
                p->seen[w] = p->gen;
                p->queue[qt++] = w;
            }
        }
    }
    return oom ? -1 : n;
}

tm_err tm_route_pair_links(tm_ctx *ctx, tm_route_pairs *p, int32_t src, int32_t dst, int32_t *n,
                           const int32_t **links, const double **frac)
{
    const double one = 1.0;
    int32_t cnt;
    tm_err err;
    *n = 0;
    *links = p->links;
    *frac = p->frac;
    err = tm_route_flows(ctx, p->r, p->ws, src, 1, &dst, &one, p->scratch, NULL);
    if (err) {
        /* a failing router may have loaded part of the path */
        for (int32_t l = 0; l < p->r->g->n_links; l++)
            p->scratch[l] = 0.0;
        return err;
    }
    if (src == dst)
        return TM_EOK;
    cnt = collect(p, src);
    if (cnt < 0)
        return tm__nomem(ctx);
    *n = cnt;
    *links = p->links;
    *frac = p->frac;
    return TM_EOK;
}
