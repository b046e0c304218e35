/* greedy.c - the `greedy` strategy: Algorithm 1 of Hoefler & Snir 2011
 * (greedy graph embedding).  The heaviest unmapped task goes to the current
 * host; then the heaviest edge (u, m) in the queue of edges from mapped to
 * unmapped tasks is taken and m is placed on the free host closest to u's
 * host by a shortest-path search on the weighted host graph, whose link
 * weights are "fewer hops first, then the least accumulated load/capacity";
 * the load of the edge is then added along the path used.
 *
 * Differences from the paper's pseudo code, all deliberate:
 * - the paper initialises link weights to w_max * |V_H|^2 so that hop count
 *   dominates; we compare (hops, load) lexicographically, which is the same
 *   order without the loss of floating-point precision;
 * - the search for a free host starts at the host of u (the mapped end of
 *   the edge), as the prose says ("maps its heaviest neighbours to the
 *   closest free hosts"); the pseudo code's "closest to s" would place m
 *   next to the previously mapped task instead of next to its partner;
 * - queues are binary heaps with lazy deletion and the task order is a
 *   sort, so there is no quadratic scan; the search stops at the first free
 *   host it settles, and it skips the vertices that cannot lead to a free
 *   host within the current hop radius (closest_free: a lower bound on the
 *   hops to the nearest free host, refreshed now and then).
 * Paths may pass only through transit vertices (docs/design.md "Transit"). */
#include <stdlib.h>
#include <string.h>

#include "netmap.h"
#include "map_int.h"
#include "../graph/bfs.h"
#include "../graph/heap.h"
#include "../util/util.h"

/* ---- Dijkstra with lexicographic (hops, load) keys ------------------------ */

typedef struct {
    int32_t hops;
    int32_t v;
    double load;
} dkey;

static bool dless(const dkey *x, const dkey *y)
{
    if (x->hops != y->hops)
        return x->hops < y->hops;
    if (x->load != y->load)
        return x->load < y->load;
    return x->v < y->v;
}

/* min-heap on (hops, load, vertex): a total order */
TM__HEAP_DEFINE(dheap, dkey, dless)

typedef struct {
    const tm__placeprob *pp;
    int32_t *aidx;    /* net vertex -> allocation index or -1 */
    int32_t *freec;   /* per allocation index: free capacity */
    double *rho;      /* per directed link: accumulated load / capacity */
    int32_t *hops;    /* per net vertex, valid when stamp == cur */
    double *dist;
    int32_t *plink;   /* link used to reach the vertex */
    uint32_t *stamp;
    uint8_t *done;
    uint32_t cur;
    dheap heap;
    int32_t any_free; /* lowest allocation index that may still be free */
    /* fh[v] <= hops from v to the nearest free host: exact when computed
     * (refresh_fh), a valid lower bound later since hosts only fill up */
    int32_t *fh;
    tm__bfs bfs; /* over bfs_dist, bfs_queue: computes fh */
    int32_t *bfs_dist, *bfs_queue;
    int64_t wasted; /* links scanned by searches that found nothing */
} gstate;

#define FH_FAR (INT32_MAX / 4)

/* fh = hop distance to the nearest free host, through transit vertices
 * (a multi-source BFS from the free hosts: O(vertices + links)). */
static void refresh_fh(gstate *st)
{
    const tm_net_csr *g = st->pp->net;
    int32_t nsrc = 0;
    /* the sources go to fh as scratch, overwritten below */
    for (int32_t a = 0; a < st->pp->nh; a++)
        if (st->freec[a] > 0)
            st->fh[nsrc++] = st->pp->host[a];
    tm__bfs_start(&st->bfs, st->fh, nsrc);
    tm__bfs_run(&st->bfs);
    for (int32_t v = 0; v < g->n; v++)
        st->fh[v] = st->bfs.dist[v] < 0 ? FH_FAR : st->bfs.dist[v];
    st->wasted = 0;
}

/* One search from src that only enters vertices u with hops(u) + fh[u] <=
 * radius.  Every vertex on a minimum-hop path to a free host at distance
 * <= radius passes (fh is a lower bound), so when such a host exists the
 * search settles the same vertices of those paths in the same (hops, load,
 * id) order as an unpruned search, and returns the same host and path.
 * Returns -1 with *scanned set when no free host is within the radius. */
static int32_t search_within(gstate *st, int32_t src, int32_t radius, int64_t *scanned, int *oom)
{
    const tm_net_csr *g = st->pp->net;
    uint32_t c = ++st->cur;
    dkey k;
    dheap_clear(&st->heap);
    st->stamp[src] = c;
    st->hops[src] = 0;
    st->dist[src] = 0;
    st->plink[src] = -1;
    st->done[src] = 0;
    if (dheap_push(&st->heap, (dkey){0, src, 0})) {
        *oom = 1;
        return -1;
    }
    while (dheap_pop(&st->heap, &k)) {
        int32_t v = k.v;
        if (st->done[v])
            continue;
        st->done[v] = 1;
        if (st->aidx[v] >= 0 && st->freec[st->aidx[v]] > 0)
            return st->aidx[v];
        if (v != src && !g->transit[v])
            continue;
        *scanned += g->off[v + 1] - g->off[v];
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t u = g->head[j], l = g->link[j];
            dkey nk = {k.hops + 1, u, k.load + st->rho[l]};
            if (nk.hops + st->fh[u] > radius)
                continue;
            if (st->stamp[u] == c && (st->done[u] || !dless(&nk, &(dkey){st->hops[u], u,
                                                                            st->dist[u]})))
                continue;
            st->stamp[u] = c;
            st->done[u] = 0;
            st->hops[u] = nk.hops;
            st->dist[u] = nk.load;
            st->plink[u] = l;
            if (dheap_push(&st->heap, nk)) {
                *oom = 1;
                return -1;
            }
        }
    }
    return -1;
}

/* Closest allocation index with free capacity from net vertex src; -1 if
 * none is reachable.  Leaves parent links for the path.  Radii grow from
 * the lower bound fh[src]; when the failed searches have cost more than
 * one BFS, fh is recomputed (so the waste stays within a factor of two). */
static int32_t closest_free(gstate *st, int32_t src, int *oom)
{
    const tm_net_csr *g = st->pp->net;
    int32_t radius = st->fh[src];
    for (;;) {
        int64_t scanned = 0;
        int32_t a;
        if (radius >= FH_FAR) {
            refresh_fh(st);
            if (st->fh[src] >= FH_FAR)
                return -1; /* no free host reachable from src */
            radius = st->fh[src];
        }
        a = search_within(st, src, radius, &scanned, oom);
        if (a >= 0 || *oom)
            return a;
        st->wasted += scanned;
        if (st->wasted > (int64_t)g->n + g->n_links) {
            refresh_fh(st);
            radius = st->fh[src];
        } else {
            radius++;
        }
    }
}

/* Adds the traffic of an edge of weight w along the path just found to t
 * (half each way: the undirected weight is the sum of both directions). */
static void add_path_load(gstate *st, int32_t t, double w)
{
    const tm_net_csr *g = st->pp->net;
    for (int32_t v = t; st->plink[v] >= 0; v = g->tail_of[st->plink[v]]) {
        int32_t l = st->plink[v];
        st->rho[l] += 0.5 * w / g->cap[l];
        st->rho[l ^ 1] += 0.5 * w / g->cap[l ^ 1];
    }
}

typedef struct {
    double w;
    int32_t v;
} tkey;

static int cmp_tkey(const void *a, const void *b)
{
    const tkey *x = a, *y = b;
    if (x->w != y->w)
        return x->w > y->w ? -1 : 1;
    return x->v < y->v ? -1 : x->v > y->v;
}

/* Finds a host for a task pulled from the queue of edge partner u (or the
 * current host when u < 0). */
static tm_err pick_host(tm_ctx *ctx, gstate *st, int32_t from_vertex, int32_t *a_out)
{
    int oom = 0;
    int32_t a = st->aidx[from_vertex];
    if (a >= 0 && st->freec[a] > 0) {
        st->plink[from_vertex] = -1;
        *a_out = a;
        return TM_EOK;
    }
    a = closest_free(st, from_vertex, &oom);
    if (oom)
        return tm__nomem(ctx);
    if (a < 0) {
        /* unreachable from here (a disconnected allocation): any free host */
        while (st->any_free < st->pp->nh && st->freec[st->any_free] == 0)
            st->any_free++;
        if (st->any_free == st->pp->nh)
            return tm__fail(ctx, TM_EINTERNAL, "greedy: no free slot left");
        a = st->any_free;
        st->plink[st->pp->host[a]] = -1;
    }
    *a_out = a;
    return TM_EOK;
}

tm_err tm__greedy_core_from(tm_ctx *ctx, const tm__placeprob *pp, int64_t start, int32_t *place)
{
    const tm__sgraph *G = pp->g;
    const tm_net_csr *net = pp->net;
    int32_t n = G->n, nv = net->n, s, mapped = 0, nxt = 0;
    gstate st = {0};
    tkey *order = NULL;
    tm__pq q;
    tm__pq_item it;
    int64_t seq = 0;
    tm_err err = TM_EOK;

    tm__pq_init(&q);
    st.pp = pp;
    st.aidx = tm__malloc_n((size_t)nv, sizeof *st.aidx);
    st.freec = tm__malloc_n((size_t)pp->nh + 1, sizeof *st.freec);
    st.rho = tm__calloc_n((size_t)net->n_links + 1, sizeof *st.rho);
    st.hops = tm__malloc_n((size_t)nv, sizeof *st.hops);
    st.dist = tm__malloc_n((size_t)nv, sizeof *st.dist);
    st.plink = tm__malloc_n((size_t)nv, sizeof *st.plink);
    st.stamp = tm__calloc_n((size_t)nv, sizeof *st.stamp);
    st.done = tm__calloc_n((size_t)nv, sizeof *st.done);
    st.fh = tm__malloc_n((size_t)nv + 1, sizeof *st.fh);
    st.bfs_dist = tm__malloc_n((size_t)nv + 1, sizeof *st.bfs_dist);
    st.bfs_queue = tm__malloc_n((size_t)nv + 1, sizeof *st.bfs_queue);
    order = tm__malloc_n((size_t)n + 1, sizeof *order);
    if (!st.aidx || !st.freec || !st.rho || !st.hops || !st.dist || !st.plink || !st.stamp ||
        !st.done || !st.fh || !st.bfs_dist || !st.bfs_queue || !order)
        goto nomem;
    for (int32_t v = 0; v < nv; v++) {
        st.aidx[v] = -1;
        st.plink[v] = -1;
    }
    for (int32_t i = 0; i < pp->nh; i++) {
        st.aidx[pp->host[i]] = i;
        st.freec[i] = pp->cap[i];
    }
    tm__bfs_init(&st.bfs, net, st.bfs_dist, st.bfs_queue);
    refresh_fh(&st);
    for (int32_t t = 0; t < n; t++) {
        place[t] = -1;
        order[t] = (tkey){tm__sgraph_wdeg(G, t), t};
    }
    qsort(order, (size_t)n, sizeof *order, cmp_tkey);
    s = pp->host[start % pp->nh];

    while (mapped < n) {
        int32_t m, a;
        while (place[order[nxt].v] >= 0)
            nxt++;
        m = order[nxt].v;
        err = pick_host(ctx, &st, s, &a);
        if (err)
            goto out;
        tm__pq_clear(&q);
        it = (tm__pq_item){0, 0, m, -1};
        do {
            int32_t u = it.aux;
            m = it.id;
            if (place[m] >= 0)
                continue;
            if (u >= 0) {
                err = pick_host(ctx, &st, pp->host[place[u]], &a);
                if (err)
                    goto out;
                add_path_load(&st, pp->host[a], it.key);
            }
            place[m] = a;
            st.freec[a]--;
            s = pp->host[a];
            mapped++;
            for (int64_t j = G->xadj[m]; j < G->xadj[m + 1]; j++)
                if (place[G->adj[j]] < 0 &&
                    tm__pq_push(&q, (tm__pq_item){G->w[j], seq++, G->adj[j], m}))
                    goto nomem;
        } while (tm__pq_pop(&q, &it));
    }
    goto out;
nomem:
    err = tm__nomem(ctx);
out:
    tm__pq_release(&q);
    free(st.aidx);
    free(st.freec);
    free(st.rho);
    free(st.hops);
    free(st.dist);
    free(st.plink);
    free(st.stamp);
    free(st.done);
    free(st.fh);
    free(st.bfs_dist);
    free(st.bfs_queue);
    dheap_release(&st.heap);
    free(order);
    return err;
}

tm_err tm__greedy_core(tm_ctx *ctx, const tm__placeprob *pp, uint64_t seed, int32_t *place)
{
    tm__rng r;
    tm__rng_seed(&r, seed, 0x6772656564ULL); /* "greedy" stream */
    return tm__greedy_core_from(ctx, pp, (int64_t)tm__rng_below(&r, (uint64_t)pp->nh), place);
}

tm_err tm__strategy_greedy(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out)
{
    return tm__map_network(ctx, p, seed, tm__greedy_core, out);
}
