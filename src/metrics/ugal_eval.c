/*
 * ugal_eval.c - the exact evaluation under UGAL routing (route_eval.h
 * tm__route_ugal_loads): the choice of each flow depends on all flows, so
 * the messages are summed per (source host, destination host), sorted by
 * source then destination host (the order of the choices), and routed in
 * one call.  O(messages log messages) for the sort; no n x n array.
 */
#include <stdlib.h>

#include "metrics_int.h"
#include "../route/route_eval.h"
#include "../util/util.h"

typedef struct pair {
    int32_t s, d;
    double w;
} pair;

static int pair_cmp(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    if (x->s != y->s)
        return x->s < y->s ? -1 : 1;
    return x->d < y->d ? -1 : x->d > y->d;
}

/* The inter-host messages as pairs of hosts, merged and sorted; *n. */
static tm_err gather(tm_ctx *ctx, const tm_comm *comm, const tm_mapping *map, pair **out,
                     size_t *n, tm__msum *sum)
{
    size_t k = 0, m = 0;
    pair *p = tm__malloc_n((size_t)comm->xadj[comm->n] + 1, sizeof *p);
    if (!p)
        return tm__nomem(ctx);
    for (int32_t u = 0; u < comm->n; u++)
        for (int64_t e = comm->xadj[u]; e < comm->xadj[u + 1]; e++) {
            int32_t hu = map->host[u], hv = map->host[comm->adj[e]];
            sum->messages++;
            sum->total_volume += comm->w[e];
            if (hu == hv)
                continue;
            sum->inter_host_volume += comm->w[e];
            p[k++] = (pair){hu, hv, comm->w[e]};
        }
    qsort(p, k, sizeof *p, pair_cmp);
    for (size_t i = 0; i < k; i++) {
        if (m > 0 && p[m - 1].s == p[i].s && p[m - 1].d == p[i].d)
            p[m - 1].w += p[i].w;
        else
            p[m++] = p[i];
    }
    *out = p;
    *n = m;
    return TM_EOK;
}

tm_err tm__metrics_ugal(tm_ctx *ctx, const tm_route *route, const tm_comm *comm,
                        const tm_mapping *map, double *load, tm__msum *sum)
{
    const tm_net_csr *g = tm_net_csr_get(tm_route_net(route));
    pair *p = NULL;
    size_t m = 0;
    int32_t *s = NULL, *d = NULL, *hops = NULL;
    double *w = NULL;
    tm_err err = gather(ctx, comm, map, &p, &m, sum);
    if (err)
        return err;
    s = tm__malloc_n(m + 1, sizeof *s);
    d = tm__malloc_n(m + 1, sizeof *d);
    hops = tm__malloc_n(m + 1, sizeof *hops);
    w = tm__malloc_n(m + 1, sizeof *w);
    if (!s || !d || !hops || !w) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (size_t i = 0; i < m; i++) {
        s[i] = p[i].s;
        d[i] = p[i].d;
        w[i] = p[i].w;
    }
    err = tm__route_ugal_loads(ctx, route, m, s, d, w, load, hops, NULL, NULL);
    if (err)
        goto out;
    for (size_t i = 0; i < m; i++)
        if (w[i] > 0 && hops[i] > sum->max_dilation)
            sum->max_dilation = hops[i];
    /* volume x hops travelled = the total link load (route_eval.h) */
    sum->sum_w_hops = 0.0;
    for (int32_t l = 0; l < g->n_links; l++)
        sum->sum_w_hops += load[l];
out:
    free(p);
    free(s);
    free(d);
    free(hops);
    free(w);
    return err;
}
