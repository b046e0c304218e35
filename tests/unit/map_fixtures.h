/* map_fixtures.h - small hand-built networks, communication graphs and
 * allocations for the mapping and refinement tests, plus an independent
 * BFS hop distance used to check dilations. */
#ifndef TM_MAP_FIXTURES_H
#define TM_MAP_FIXTURES_H

#include "test_util.h"
#include "util/util.h"

/* k-ary d-dimensional torus (k >= 3 wraps, k == 2 a hypercube), 1 Gbit/s
 * links, `slots` per host; host names "h<i>". */
static inline tm_net *fx_torus(tm_ctx *ctx, int k, int d, int32_t slots)
{
    tm_net *net;
    int32_t n = 1;
    char name[32];
    for (int i = 0; i < d; i++)
        n *= k;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    for (int32_t v = 0; v < n; v++) {
        snprintf(name, sizeof name, "h%d", v);
        assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, name, TM_VERTEX_HOST, slots, NULL));
    }
    for (int32_t v = 0; v < n; v++) {
        int32_t stride = 1;
        for (int i = 0; i < d; i++, stride *= k) {
            int32_t x = (v / stride) % k;
            int32_t u = v - x * stride + ((x + 1) % k) * stride;
            if (k == 2 && x == 1)
                continue; /* hypercube: one cable per dimension pair */
            if (k > 2 || x == 0)
                assert_tm_ok(ctx, tm_net_add_cable(ctx, net, v, u, 1.0, NULL));
        }
    }
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    return net;
}

/* Two-level tree: `nsw` leaf switches with `per` hosts each under one root
 * switch (cap `up` on the uplinks, 1 on host links). */
static inline tm_net *fx_tree(tm_ctx *ctx, int nsw, int per, int32_t slots, double up)
{
    tm_net *net;
    int32_t root, sw, h;
    char name[32];
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "root", TM_VERTEX_SWITCH, 0, &root));
    for (int s = 0; s < nsw; s++) {
        snprintf(name, sizeof name, "sw%d", s);
        assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, name, TM_VERTEX_SWITCH, 0, &sw));
        assert_tm_ok(ctx, tm_net_add_cable(ctx, net, root, sw, up, NULL));
        for (int i = 0; i < per; i++) {
            snprintf(name, sizeof name, "n%d", s * per + i);
            assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, name, TM_VERTEX_HOST, slots, &h));
            assert_tm_ok(ctx, tm_net_add_cable(ctx, net, sw, h, 1.0, NULL));
        }
    }
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    return net;
}

/* CSR communication graph from directed entries (duplicates summed, zero
 * volumes and self-loops dropped), built here so the tests do not depend
 * on the comm readers. */
static inline void fx_comm(tm_comm *c, int32_t n, int m, const int32_t *src, const int32_t *dst,
                           const double *w)
{
    int64_t *cnt = calloc((size_t)n + 1, sizeof *cnt);
    memset(c, 0, sizeof *c);
    c->n = n;
    c->xadj = calloc((size_t)n + 1, sizeof *c->xadj);
    c->adj = malloc(((size_t)m + 1) * sizeof *c->adj);
    c->w = malloc(((size_t)m + 1) * sizeof *c->w);
    for (int i = 0; i < m; i++)
        if (src[i] != dst[i] && w[i] > 0)
            c->xadj[src[i] + 1]++;
    for (int32_t v = 0; v < n; v++)
        c->xadj[v + 1] += c->xadj[v];
    for (int i = 0; i < m; i++) {
        if (src[i] == dst[i] || !(w[i] > 0))
            continue;
        int32_t u = src[i];
        int64_t at = c->xadj[u], end = c->xadj[u] + cnt[u];
        /* insertion into the sorted row, merging duplicates */
        int64_t j = at;
        while (j < end && c->adj[j] < dst[i])
            j++;
        if (j < end && c->adj[j] == dst[i]) {
            c->w[j] += w[i];
            continue;
        }
        memmove(c->adj + j + 1, c->adj + j, (size_t)(end - j) * sizeof *c->adj);
        memmove(c->w + j + 1, c->w + j, (size_t)(end - j) * sizeof *c->w);
        c->adj[j] = dst[i];
        c->w[j] = w[i];
        cnt[u]++;
    }
    /* compact rows shortened by merged duplicates */
    {
        int64_t k = 0, start = 0;
        for (int32_t v = 0; v < n; v++) {
            int64_t end = c->xadj[v] + cnt[v];
            start = c->xadj[v];
            c->xadj[v] = k;
            for (int64_t j = start; j < end; j++) {
                c->adj[k] = c->adj[j];
                c->w[k++] = c->w[j];
            }
        }
        c->xadj[n] = k;
        c->nnz = k;
    }
    free(cnt);
}

static inline void fx_comm_free(tm_comm *c)
{
    free(c->xadj);
    free(c->adj);
    free(c->w);
    free(c->vwgt);
    memset(c, 0, sizeof *c);
}

/* Allocation of the given hosts (NULL: all hosts) with their net slots. */
static inline void fx_alloc(tm_alloc *a, const tm_net *net, int32_t n, const int32_t *hosts)
{
    int32_t nv = tm_net_n_vertices(net), k = 0;
    a->host = malloc(((size_t)nv + 1) * sizeof *a->host);
    a->slots = malloc(((size_t)nv + 1) * sizeof *a->slots);
    if (hosts) {
        for (int32_t i = 0; i < n; i++) {
            a->host[k] = hosts[i];
            a->slots[k++] = tm_net_slots(net, hosts[i]);
        }
    } else {
        for (int32_t v = 0; v < nv; v++) {
            if (tm_net_kind(net, v) != TM_VERTEX_HOST)
                continue;
            a->host[k] = v;
            a->slots[k++] = tm_net_slots(net, v);
        }
    }
    a->n = k;
}

static inline void fx_alloc_free(tm_alloc *a)
{
    free(a->host);
    free(a->slots);
    a->host = a->slots = NULL;
    a->n = 0;
}

/* Hop distance between two vertices through transit vertices (BFS). */
static inline int32_t fx_hops(const tm_net *net, int32_t s, int32_t t)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    int32_t *d = malloc((size_t)g->n * sizeof *d), *q = malloc((size_t)g->n * sizeof *q);
    int32_t head = 0, tail = 0, res = -1;
    for (int32_t v = 0; v < g->n; v++)
        d[v] = -1;
    d[s] = 0;
    q[tail++] = s;
    while (head < tail) {
        int32_t v = q[head++];
        if (v == t)
            break;
        if (v != s && !g->transit[v])
            continue;
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++)
            if (d[g->head[j]] < 0) {
                d[g->head[j]] = d[v] + 1;
                q[tail++] = g->head[j];
            }
    }
    res = d[t];
    free(d);
    free(q);
    return res;
}

/* Volume-weighted average dilation of a mapping (by fx_hops). */
static inline double fx_avg_dilation(const tm_net *net, const tm_comm *c, const tm_mapping *m,
                                     int32_t *max_hops)
{
    double sw = 0, swh = 0;
    *max_hops = 0;
    for (int32_t u = 0; u < c->n; u++)
        for (int64_t j = c->xadj[u]; j < c->xadj[u + 1]; j++) {
            int32_t h = m->host[u] == m->host[c->adj[j]]
                            ? 0
                            : fx_hops(net, m->host[u], m->host[c->adj[j]]);
            sw += c->w[j];
            swh += c->w[j] * h;
            if (h > *max_hops)
                *max_hops = h;
        }
    return sw > 0 ? swh / sw : 0;
}

#endif
