/*
 * dag.c - per-source minimum-hop DAGs and the backward flow sweep shared by
 * the ECMP and single-path routers (Brandes-style accumulation).
 *
 * BFS from the source host over the CSR expands only the source and transit
 * vertices (docs/design.md "Transit"): a non-transit host can end a path but not
 * lie inside one.  sigma[v] counts the minimum-hop paths src -> v as
 * sequences of directed links, so parallel cables are distinct paths.
 * The BFS is grown lazily, one level at a time, only as far as the farthest
 * destination asked for: traffic of a sparse application mostly stays
 * within a few hops, and the cost of a source then is the area it touches,
 * not the whole network.  Hand-written rather than igraph_bfs because
 * igraph cannot stop and resume a BFS, cannot express "may end but not
 * cross a vertex", and must not be called from worker threads.  Not the
 * library's BFS (src/graph/bfs.h) either, though the transit rule is the
 * same: the sweep also accumulates sigma over every predecessor one level
 * up (also those reached earlier in the level), keeps its state per
 * cached DAG, and answers a destination one level ahead ("peek") without
 * expanding the level, all of which would make the shared search slower
 * for its other users.
 *
 * A workspace caches a few DAGs (LRU) so that refinement, which routes
 * single messages with +-vol again and again, pays the BFS once per source.
 */
#include <stdlib.h>
#include <string.h>

#include "route_int.h"
#include "../util/util.h"

/* Entries in the LRU; memory is 16 bytes x vertices per entry, allocated
 * on first use (a metrics sweep, which visits each source once, then
 * costs little more than one entry per entry it cycles through). */
#define TM_DAG_CACHE_MAX 32
#define TM_DAG_CACHE_BYTES (32u << 20)

static void dag_release(tm__dag *d)
{
    free(d->dist);
    free(d->sigma);
    free(d->order);
}

/* Allocates an entry's arrays; false (entry left empty) on failure. */
static bool dag_alloc(tm__dag *d, size_t n)
{
    d->src = -1;
    d->dist = tm__malloc_n(n + 1, sizeof *d->dist);
    d->sigma = tm__malloc_n(n + 1, sizeof *d->sigma);
    d->order = tm__malloc_n(n + 1, sizeof *d->order);
    if (!d->dist || !d->sigma || !d->order) {
        dag_release(d);
        d->dist = NULL;
        d->sigma = NULL;
        d->order = NULL;
        return false;
    }
    for (size_t v = 0; v < n; v++)
        d->dist[v] = -1;
    return true;
}

tm_err tm__dagws_new(tm_ctx *ctx, const tm_net_csr *g, tm__dagws **out)
{
    size_t n = (size_t)g->n, per = 16 * (n ? n : 1);
    tm__dagws *w = calloc(1, sizeof *w);
    *out = NULL;
    if (!w)
        return tm__nomem(ctx);
    w->g = g;
    w->n_cache = (int)(TM_DAG_CACHE_BYTES / per);
    if (w->n_cache > TM_DAG_CACHE_MAX)
        w->n_cache = TM_DAG_CACHE_MAX;
    if (w->n_cache < 1)
        w->n_cache = 1;
    w->cache = calloc((size_t)w->n_cache, sizeof *w->cache);
    w->flow = tm__calloc_n(n + 1, sizeof *w->flow);
    w->stamp = tm__calloc_n(n + 1, sizeof *w->stamp);
    w->cur = tm__malloc_n(n + 1, sizeof *w->cur);
    w->next = tm__malloc_n(n + 1, sizeof *w->next);
    w->idx = tm__malloc_n(n + 1, sizeof *w->idx);
    w->tmp = tm__malloc_n(n + 2, sizeof *w->tmp);
    w->entry_of = tm__malloc_n(n + 1, sizeof *w->entry_of);
    if (!w->cache || !w->flow || !w->stamp || !w->cur || !w->next || !w->idx || !w->tmp ||
        !w->entry_of)
        goto nomem;
    for (size_t v = 0; v < n; v++)
        w->entry_of[v] = -1;
    for (int i = 0; i < w->n_cache; i++)
        w->cache[i].src = -1;
    /* Entry 0 always exists, so tm__dag_get never fails. */
    if (!dag_alloc(&w->cache[0], n))
        goto nomem;
    w->n_alloc = 1;
    *out = w;
    return TM_EOK;
nomem:
    tm__dagws_free(w);
    return tm__nomem(ctx);
}

void tm__dagws_free(tm__dagws *w)
{
    if (!w)
        return;
    for (int i = 0; w->cache && i < w->n_alloc; i++)
        dag_release(&w->cache[i]);
    free(w->cache);
    free(w->flow);
    free(w->stamp);
    free(w->cur);
    free(w->next);
    free(w->idx);
    free(w->tmp);
    free(w->entry_of);
    free(w);
}

tm__dag *tm__dag_get(tm__dagws *w, int32_t src)
{
    tm__dag *victim;
    int32_t e = w->entry_of[src];
    w->clock++;
    if (e >= 0) {
        w->cache[e].last_use = w->clock;
        return &w->cache[e];
    }
    /* A miss: a fresh entry while the cache may grow, else the least
     * recently used one. */
    if (w->n_alloc < w->n_cache && dag_alloc(&w->cache[w->n_alloc], (size_t)w->g->n)) {
        e = w->n_alloc++;
    } else {
        e = 0;
        for (int i = 1; i < w->n_alloc; i++)
            if (w->cache[i].last_use < w->cache[e].last_use)
                e = i;
    }
    victim = &w->cache[e];
    if (victim->src >= 0)
        w->entry_of[victim->src] = -1;
    w->entry_of[src] = e;
    /* Reset only what the previous source touched: O(discovered). */
    for (int32_t i = 0; i < victim->n_order; i++)
        victim->dist[victim->order[i]] = -1;
    for (int32_t i = 0; i < victim->n_peek; i++)
        victim->dist[victim->order[w->g->n - 1 - i]] = -1;
    victim->n_peek = 0;
    victim->src = src;
    victim->dist[src] = 0;
    victim->sigma[src] = 1.0;
    victim->order[0] = src;
    victim->n_order = 1;
    victim->n_expanded = 0;
    victim->level_done = 0;
    victim->exhausted = false;
    victim->last_use = w->clock;
    return victim;
}

/* Expands every vertex at distance level_done, which finalises the next
 * level.  Only the source and transit vertices are expanded. */
static void expand_level(const tm_net_csr *g, tm__dag *d)
{
    int32_t level = d->level_done, before;
    /* Undo peeks: the expansion discovers those vertices properly (and
     * would otherwise add their sigma twice). */
    for (int32_t i = 0; i < d->n_peek; i++)
        d->dist[d->order[g->n - 1 - i]] = -1;
    d->n_peek = 0;
    before = d->n_order;
    while (d->n_expanded < d->n_order && d->dist[d->order[d->n_expanded]] == level) {
        int32_t u = d->order[d->n_expanded++];
        double su = d->sigma[u];
        if (u != d->src && !g->transit[u])
            continue;
        for (int32_t j = g->off[u]; j < g->off[u + 1]; j++) {
            int32_t v = g->head[j];
            if (d->dist[v] < 0) {
                d->dist[v] = level + 1;
                d->sigma[v] = su;
                d->order[d->n_order++] = v;
            } else if (d->dist[v] == level + 1) {
                d->sigma[v] += su;
            }
        }
    }
    if (d->n_order == before)
        d->exhausted = true;
    else
        d->level_done = level + 1;
}

/* If dst is at distance level_done + 1, records its dist and sigma from
 * its neighbours at level_done (all final) and returns true. */
static bool peek(const tm_net_csr *g, tm__dag *d, int32_t dst)
{
    int32_t level = d->level_done;
    double s = 0.0;
    bool found = false;
    for (int32_t j = g->off[dst]; j < g->off[dst + 1]; j++) {
        int32_t u = g->head[j];
        if (d->dist[u] == level && (u == d->src || g->transit[u])) {
            s += d->sigma[u];
            found = true;
        }
    }
    if (!found)
        return false;
    d->dist[dst] = level + 1;
    d->sigma[dst] = s;
    d->order[g->n - 1 - d->n_peek++] = dst;
    return true;
}

int32_t tm__dag_reach(const tm_net_csr *g, tm__dag *d, int32_t dst)
{
    for (;;) {
        int32_t dd = d->dist[dst];
        if (dd >= 0) /* final, or peeked at level_done + 1 */
            return dd;
        if (d->exhausted)
            return -1;
        /* Only undiscovered vertices get here; all of them are at
         * distance >= level_done + 1. */
        if (peek(g, d, dst))
            return d->dist[dst];
        expand_level(g, d);
    }
}

tm_err tm__dag_reach_all(tm_ctx *ctx, const tm_route *r, tm__dag *d, size_t k,
                         const int32_t *dst, int32_t *hops)
{
    for (size_t i = 0; i < k; i++) {
        int32_t h = tm__dag_reach(r->g, d, dst[i]);
        if (h < 0)
            return tm__fail(ctx, TM_EINPUT, "host '%s' cannot reach host '%s' (%s)",
                            tm_net_name(r->net, d->src), tm_net_name(r->net, dst[i]),
                            tm_net_part(r->net, d->src) != tm_net_part(r->net, dst[i])
                                ? "they are in different connected parts of the network: "
                                  "'topomap topo info' lists the parts"
                                : "no path through transit vertices");
        if (hops)
            hops[i] = h;
    }
    return TM_EOK;
}

tm_err tm__dag_ws_init(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws)
{
    tm__dagws *w;
    tm_err err = tm__dagws_new(ctx, r->g, &w);
    if (!err)
        ws->priv = w;
    return err;
}

void tm__dag_ws_fini(tm_route_ws *ws) { tm__dagws_free(ws->priv); }

int32_t tm__dag_hops(const tm_route *r, tm_route_ws *ws, int32_t src, int32_t dst)
{
    return tm__dag_reach(r->g, tm__dag_get(ws->priv, src), dst);
}

static void next_gen(tm__dagws *w)
{
    if (++w->gen == 0) { /* wrapped: old stamps could collide */
        memset(w->stamp, 0, (size_t)w->g->n * sizeof *w->stamp);
        w->gen = 1;
    }
}

/* Sorts destination indices by decreasing dist (insertion sort for small
 * k, else a counting sort over the distances). */
static void sort_by_dist_desc(const tm__dag *d, size_t k, const int32_t *dst, int32_t *idx,
                              int32_t *tmp)
{
    int32_t maxd = 0;
    for (size_t i = 0; i < k; i++)
        if (d->dist[dst[i]] > maxd)
            maxd = d->dist[dst[i]];
    if (k <= 16) {
        for (size_t i = 0; i < k; i++) {
            size_t j = i;
            while (j > 0 && d->dist[dst[idx[j - 1]]] < d->dist[dst[i]]) {
                idx[j] = idx[j - 1];
                j--;
            }
            idx[j] = (int32_t)i;
        }
        return;
    }
    /* tmp has n + 1 entries and maxd < n. */
    memset(tmp, 0, ((size_t)maxd + 2) * sizeof *tmp);
    for (size_t i = 0; i < k; i++)
        tmp[maxd - d->dist[dst[i]] + 1]++;
    for (int32_t l = 1; l <= maxd + 1; l++)
        tmp[l] += tmp[l - 1];
    for (size_t i = 0; i < k; i++)
        idx[tmp[maxd - d->dist[dst[i]]]++] = (int32_t)i;
}

/* Pushes the flow of v (at distance dv > 0) to its DAG predecessors and
 * appends newly touched ones to the list `next`. */
static void push_flow(tm__dagws *w, const tm__dag *d, tm__split split, int32_t v, double *load,
                      int32_t *n_next)
{
    const tm_net_csr *g = w->g;
    int32_t dv = d->dist[v];
    double f = w->flow[v];
    w->flow[v] = 0.0;
    if (split == TM__SPLIT_ECMP) {
        double per_path = f / d->sigma[v];
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t u = g->head[j];
            double fu;
            if (!tm__dag_is_pred(g, d, u, dv))
                continue;
            fu = per_path * d->sigma[u];
            load[g->link[j] ^ 1] += fu;
            w->flow[u] += fu;
            if (w->stamp[u] != w->gen) {
                w->stamp[u] = w->gen;
                w->next[(*n_next)++] = u;
            }
        }
    } else {
        int32_t best = -1, bu = -1;
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t u = g->head[j], l = g->link[j] ^ 1;
            if (tm__dag_is_pred(g, d, u, dv) && (best < 0 || l < best)) {
                best = l;
                bu = u;
            }
        }
        load[best] += f;
        w->flow[bu] += f;
        if (w->stamp[bu] != w->gen) {
            w->stamp[bu] = w->gen;
            w->next[(*n_next)++] = bu;
        }
    }
}

void tm__dag_sweep(tm__dagws *w, const tm__dag *d, tm__split split, size_t k, const int32_t *dst,
                   const double *vol, double *load)
{
    int32_t n_cur = 0, level;
    size_t di = 0;
    if (k == 0)
        return;
    /* idx holds at most n entries; repeated destinations beyond that are
     * swept in pieces (still O(area) each). */
    if (k > (size_t)w->g->n) {
        size_t half = k / 2;
        tm__dag_sweep(w, d, split, half, dst, vol, load);
        tm__dag_sweep(w, d, split, k - half, dst + half, vol + half, load);
        return;
    }
    sort_by_dist_desc(d, k, dst, w->idx, w->tmp);
    next_gen(w);
    /* Level-synchronous: all flow into level l - 1 comes from level l, so
     * finishing level l before touching l - 1 gives every vertex its whole
     * flow before it is pushed on. */
    level = d->dist[dst[w->idx[0]]];
    while (level > 0) {
        int32_t n_next = 0;
        while (di < k && d->dist[dst[w->idx[di]]] == level) {
            int32_t v = dst[w->idx[di]];
            w->flow[v] += vol[w->idx[di]];
            di++;
            if (w->stamp[v] != w->gen) {
                w->stamp[v] = w->gen;
                w->cur[n_cur++] = v;
            }
        }
        for (int32_t i = 0; i < n_cur; i++)
            push_flow(w, d, split, w->cur[i], load, &n_next);
        {
            int32_t *t = w->cur;
            w->cur = w->next;
            w->next = t;
        }
        n_cur = n_next;
        level--;
    }
    /* Level 0 is the source: flow arriving there (and destinations equal
     * to the source) load nothing. */
    w->flow[d->src] = 0.0;
}

int32_t tm__dag_ancestors(tm__dagws *w, const tm__dag *d, int32_t dst, int32_t *out)
{
    const tm_net_csr *g = w->g;
    int32_t n_out = 1, i = 0;
    next_gen(w);
    out[0] = dst;
    w->stamp[dst] = w->gen;
    /* BFS backwards over DAG edges: dist decreases by one per step, so
     * the list comes out ordered by decreasing dist. */
    while (i < n_out) {
        int32_t v = out[i++], dv = d->dist[v];
        if (dv == 0)
            continue;
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t u = g->head[j];
            if (tm__dag_is_pred(g, d, u, dv) && w->stamp[u] != w->gen) {
                w->stamp[u] = w->gen;
                out[n_out++] = u;
            }
        }
    }
    return n_out;
}
