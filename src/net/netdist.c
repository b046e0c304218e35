/* netdist.c - the hop-distance oracle (netdist_int.h has the layout).
 *
 * The table over classes is filled by a bit-parallel breadth-first search:
 * 64 class vertices at once, one uint64_t of "reached from source k" bits
 * per vertex, frontiers propagated level by level, only out of transit
 * vertices (and out of each source itself, which may be a non-transit
 * host).  A batch costs about diameter x links word operations instead of
 * 64 x links, so a 4,096-leaf fat-tree fills its 32 MiB table in a fraction
 * of a second.  Hand-written: igraph_distances has no notion of vertices
 * that may end a path but not lie inside one, and one BFS per source would
 * be 64 times the work.
 *
 * When the table would exceed the budget (more than ~16k classes, e.g. a
 * huge torus), rows are computed on demand by the same search with one
 * source and kept in a direct-mapped cache under a mutex (rare; the lock
 * keeps the oracle shareable between threads). */
#include <stdlib.h>
#include <string.h>

#include "netdist_int.h"
#include "../util/util.h"

typedef struct bfs64 {
    const tm_net_csr *g;
    uint64_t *seen, *front, *next;
} bfs64;

static int bfs64_init(bfs64 *b, const tm_net_csr *g)
{
    b->g = g;
    b->seen = tm__malloc_n((size_t)g->n, sizeof *b->seen);
    b->front = tm__malloc_n((size_t)g->n, sizeof *b->front);
    b->next = tm__malloc_n((size_t)g->n, sizeof *b->next);
    return b->seen && b->front && b->next ? 0 : -1;
}

static void bfs64_free(bfs64 *b)
{
    free(b->seen), free(b->front), free(b->next);
}

/* Distances from the class vertices src[0..k-1] (k <= 64) to every class
 * vertex: out[s * n_cls + c], -1 when unreachable. */
static void bfs64_run(bfs64 *b, const int32_t *src, int k, const int32_t *cls_vertex,
                      int32_t n_cls, int16_t *out, size_t stride)
{
    const tm_net_csr *g = b->g;
    int32_t n = g->n;
    bool any = true;
    memset(b->seen, 0, (size_t)n * sizeof *b->seen);
    memset(b->front, 0, (size_t)n * sizeof *b->front);
    for (int s = 0; s < k; s++) {
        b->seen[src[s]] |= 1ULL << s;
        b->front[src[s]] |= 1ULL << s;
        for (int32_t c = 0; c < n_cls; c++)
            out[(size_t)s * stride + (size_t)c] = -1;
    }
    for (int32_t level = 0; any && level < INT16_MAX; level++) {
        /* record the vertices first reached at this level */
        for (int32_t c = 0; c < n_cls; c++) {
            uint64_t f = b->front[cls_vertex[c]];
            while (f) {
                int s = __builtin_ctzll(f);
                f &= f - 1;
                out[(size_t)s * stride + (size_t)c] = (int16_t)level;
            }
        }
        memset(b->next, 0, (size_t)n * sizeof *b->next);
        for (int32_t v = 0; v < n; v++) {
            uint64_t f = b->front[v];
            if (!f)
                continue;
            if (!g->transit[v]) {
                /* a non-transit vertex only starts paths (its own bits) */
                uint64_t own = 0;
                for (int s = 0; s < k; s++)
                    if (src[s] == v)
                        own |= 1ULL << s;
                f &= own;
                if (!f || level > 0)
                    continue;
            }
            for (int32_t e = g->off[v]; e < g->off[v + 1]; e++)
                b->next[g->head[e]] |= f;
        }
        any = false;
        for (int32_t v = 0; v < n; v++) {
            uint64_t nw = b->next[v] & ~b->seen[v];
            b->front[v] = nw;
            b->seen[v] |= nw;
            any |= nw != 0;
        }
    }
}

/* Classes: a non-transit host whose enabled cables all end at one switch
 * joins that switch's class at offset 1; anything else is its own class. */
static tm_err make_classes(tm_ctx *ctx, tm_netdist *d, const tm_net_csr *g, const int32_t *hosts)
{
    d->vcls = tm__malloc_n((size_t)g->n, sizeof *d->vcls);
    d->cls = tm__malloc_n((size_t)(d->n ? d->n : 1), sizeof *d->cls);
    d->off = tm__malloc_n((size_t)(d->n ? d->n : 1), sizeof *d->off);
    d->cls_vertex = tm__malloc_n((size_t)(d->n ? d->n : 1), sizeof *d->cls_vertex);
    if (!d->vcls || !d->cls || !d->off || !d->cls_vertex)
        return tm__nomem(ctx);
    for (int32_t v = 0; v < g->n; v++)
        d->vcls[v] = -1;
    for (int32_t i = 0; i < d->n; i++) {
        int32_t h = hosts[i], s = -1, c;
        bool leaf = !g->transit[h] && g->off[h + 1] > g->off[h];
        if (h < 0 || h >= g->n || !g->is_host[h])
            return tm__fail(ctx, TM_EUSAGE, "hop oracle: vertex %d is not a host", h);
        for (int32_t e = g->off[h]; leaf && e < g->off[h + 1]; e++) {
            int32_t w = g->head[e];
            leaf = !g->is_host[w] && (s < 0 || s == w);
            s = w;
        }
        c = leaf ? s : h;
        if (d->vcls[c] < 0) {
            d->vcls[c] = d->n_cls;
            d->cls_vertex[d->n_cls++] = c;
        }
        d->cls[i] = d->vcls[c];
        d->off[i] = leaf ? 1 : 0;
    }
    return TM_EOK;
}

static tm_err fill_table(tm_ctx *ctx, tm_netdist *d, const tm_net_csr *g)
{
    bfs64 b;
    tm_err err = TM_EOK;
    d->table = tm__malloc_n((size_t)d->n_cls * (size_t)d->n_cls, sizeof *d->table);
    if (!d->table || bfs64_init(&b, g) < 0) {
        if (d->table)
            bfs64_free(&b);
        return tm__nomem(ctx);
    }
    for (int32_t c0 = 0; c0 < d->n_cls; c0 += 64) {
        int k = d->n_cls - c0 < 64 ? (int)(d->n_cls - c0) : 64;
        bfs64_run(&b, d->cls_vertex + c0, k, d->cls_vertex, d->n_cls,
                  d->table + (size_t)c0 * (size_t)d->n_cls, (size_t)d->n_cls);
    }
    bfs64_free(&b);
    return err;
}

int32_t tm__netdist_row_hops(const tm_netdist *d, int32_t ci, int32_t cj)
{
    tm_netdist *m = (tm_netdist *)d; /* the cache is the only mutable part */
    int32_t slot = ci % d->n_slots, x = -1;
    pthread_mutex_lock(&m->mu);
    if (m->slot_of[slot] != ci) {
        bfs64 b;
        if (bfs64_init(&b, tm_net_csr_get(d->net)) == 0) {
            bfs64_run(&b, &d->cls_vertex[ci], 1, d->cls_vertex, d->n_cls,
                      m->rows + (size_t)slot * (size_t)d->n_cls, (size_t)d->n_cls);
            m->slot_of[slot] = ci;
        }
        bfs64_free(&b);
    }
    if (m->slot_of[slot] == ci)
        x = m->rows[(size_t)slot * (size_t)d->n_cls + (size_t)cj];
    pthread_mutex_unlock(&m->mu);
    return x;
}

static tm_err make_rows(tm_ctx *ctx, tm_netdist *d, const tm_net *net, size_t max_bytes)
{
    size_t row = (size_t)d->n_cls * sizeof *d->rows;
    d->net = net;
    d->n_slots = (int32_t)(max_bytes / row < 1 ? 1 : max_bytes / row > 4096 ? 4096
                                                                           : max_bytes / row);
    d->slot_of = tm__malloc_n((size_t)d->n_slots, sizeof *d->slot_of);
    d->rows = tm__malloc_n((size_t)d->n_slots * (size_t)d->n_cls, sizeof *d->rows);
    if (!d->slot_of || !d->rows)
        return tm__nomem(ctx);
    for (int32_t s = 0; s < d->n_slots; s++)
        d->slot_of[s] = -1;
    return TM_EOK;
}

tm_err tm__netdist_new_budget(tm_ctx *ctx, const tm_net *net, const int32_t *hosts, int32_t n,
                              size_t max_bytes, tm_netdist **out)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    tm_netdist *d;
    tm_err err;
    *out = NULL;
    if (!g)
        return tm__fail(ctx, TM_EUSAGE, "hop oracle: the network is not finalized");
    d = calloc(1, sizeof *d);
    if (!d)
        return tm__nomem(ctx);
    d->n = n;
    pthread_mutex_init(&d->mu, NULL);
    err = make_classes(ctx, d, g, hosts);
    if (!err && (size_t)d->n_cls * (size_t)d->n_cls * sizeof(int16_t) <= max_bytes)
        err = fill_table(ctx, d, g);
    else if (!err)
        err = make_rows(ctx, d, net, max_bytes);
    if (err) {
        tm_netdist_free(d);
        return err;
    }
    *out = d;
    return TM_EOK;
}

tm_err tm_netdist_new(tm_ctx *ctx, const tm_net *net, const int32_t *hosts, int32_t n,
                      tm_netdist **out)
{
    return tm__netdist_new_budget(ctx, net, hosts, n, TM__NETDIST_BUDGET, out);
}

void tm_netdist_free(tm_netdist *d)
{
    if (!d)
        return;
    free(d->cls), free(d->off), free(d->cls_vertex), free(d->table), free(d->vcls);
    free(d->slot_of), free(d->rows);
    pthread_mutex_destroy(&d->mu);
    free(d);
}

int32_t tm_netdist_n(const tm_netdist *d) { return d->n; }

int32_t tm_netdist_hops(const tm_netdist *d, int32_t i, int32_t j)
{
    if (i < 0 || j < 0 || i >= d->n || j >= d->n)
        return -1;
    return tm__netdist_hops(d, i, j);
}

const char *tm_netdist_kind(const tm_netdist *d) { return d->table ? "table" : "rows"; }

size_t tm_netdist_bytes(const tm_netdist *d)
{
    size_t b = sizeof *d + (size_t)d->n * (sizeof *d->cls + sizeof *d->off) +
               (size_t)d->n_cls * sizeof *d->cls_vertex;
    if (d->table)
        b += (size_t)d->n_cls * (size_t)d->n_cls * sizeof *d->table;
    else
        b += (size_t)d->n_slots * ((size_t)d->n_cls * sizeof *d->rows + sizeof *d->slot_of);
    return b;
}
