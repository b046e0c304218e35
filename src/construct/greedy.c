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
 *   sort, so there is no quadratic scan; the search for the closest free
 *   host is an A* search (search_astar) that stops at the first free host
 *   it settles: the same (hops, load) as the paper's Dijkstra, but among
 *   hosts and paths that tie on both the one it meets first.
 * Paths may pass only through transit vertices (docs/design.md "Transit"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "netmap.h"
#include "../mapping/strategies.h"
#include "../graph/bfs.h"
#include "../graph/heap.h"
#include "../util/util.h"

/* ---- A* search with lexicographic (hops, load) costs -------------------- */

/* A heap item: f = hops + fh[v] (the A* estimate of the hops of the whole
 * path), the path load and the hops so far.  Items leave by (f, load), then
 * deeper first, then vertex id: a total order. */
typedef struct {
    int32_t f;
    int32_t hops;
    int32_t v;
    double load;
} dkey;

static bool dless(const dkey *x, const dkey *y)
{
    if (x->f != y->f)
        return x->f < y->f;
    if (x->load != y->load)
        return x->load < y->load;
    if (x->hops != y->hops)
        return x->hops > y->hops;
    return x->v < y->v;
}

/* min-heap on (f, load, -hops, vertex) */
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
    int64_t wasted; /* links scanned from vertices that a stale fh let in */
    /* tests (tm__greedy_core_checked): every search is repeated with the
     * estimate 0 (a plain Dijkstra) and must find the same (hops, load) */
    int32_t *zero;
    bool mismatch;
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

static bool is_free(const gstate *st, int32_t v)
{
    return st->aidx[v] >= 0 && st->freec[st->aidx[v]] > 0;
}

/* Relaxes the arcs of v (popped with key k).  A vertex keeps the first
 * path with the least (hops, load): ties go to the path found first. */
static int relax(gstate *st, const int32_t *est, const dkey *k, uint32_t c)
{
    const tm_net_csr *g = st->pp->net;
    int32_t v = k->v;
    for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
        int32_t u = g->head[j], l = g->link[j];
        dkey nk = {k->hops + 1 + est[u], k->hops + 1, u, k->load + st->rho[l]};
        if (est[u] >= FH_FAR)
            continue; /* no free host behind u */
        if (st->stamp[u] == c &&
            (st->done[u] || nk.hops > st->hops[u] ||
             (nk.hops == st->hops[u] && nk.load >= st->dist[u])))
            continue;
        st->stamp[u] = c;
        st->done[u] = 0;
        st->hops[u] = nk.hops;
        st->dist[u] = nk.load;
        st->plink[u] = l;
        if (dheap_push(&st->heap, nk))
            return -1;
    }
    return 0;
}

/* A* from src to the free host with the least (hops, path load), with the
 * lower bound fh as the estimate of the hops still to go.  fh is a BFS
 * distance to the free hosts of some earlier moment, so it is consistent
 * (fh[v] <= 1 + fh[u] along every arc) and admissible (hosts only fill
 * up): the first free host popped has the least (hops, load), as a plain
 * Dijkstra on (hops, load) would find (test_map_strategies checks every
 * search of random runs against that).  Why A*: on a fat-tree the free
 * hosts nearest to a full pod lie behind every top switch, and a Dijkstra
 * ordered by hops first settles that whole cone (400,000 links per search
 * on a 65,536-host tree); ordered by the estimate of the whole path and
 * then the load, and deeper first on ties, the search runs down one
 * least-loaded path.  Returns the allocation index, or -1 when no free host
 * is reachable.  Vertices popped with f below the final one were let in by
 * a stale fh: their links count as wasted. */
static int32_t search_astar(gstate *st, const int32_t *est, int32_t src, int *oom)
{
    const tm_net_csr *g = st->pp->net;
    uint32_t c = ++st->cur;
    int64_t scanned = 0, before_f = 0;
    int32_t last_f = -1;
    dkey k;
    dheap_clear(&st->heap);
    st->stamp[src] = c;
    st->hops[src] = 0;
    st->dist[src] = 0;
    st->plink[src] = -1;
    st->done[src] = 0;
    if (dheap_push(&st->heap, (dkey){est[src], 0, src, 0}))
        goto nomem;
    while (dheap_pop(&st->heap, &k)) {
        int32_t v = k.v;
        if (st->done[v])
            continue;
        st->done[v] = 1;
        if (k.f > last_f) {
            before_f = scanned;
            last_f = k.f;
        }
        if (is_free(st, v)) {
            st->wasted += before_f;
            return st->aidx[v];
        }
        if (v != src && !g->transit[v])
            continue;
        scanned += g->off[v + 1] - g->off[v];
        if (relax(st, est, &k, c))
            goto nomem;
    }
    st->wasted += scanned;
    return -1;
nomem:
    *oom = 1;
    return -1;
}

/* Closest allocation index with free capacity from net vertex src; -1 if
 * none is reachable.  Leaves parent links for the path.  When the links
 * wasted on stale estimates exceed one BFS, fh is recomputed (so the waste
 * stays within the cost of the searches). */
static int32_t closest_free(gstate *st, int32_t src, int *oom)
{
    const tm_net_csr *g = st->pp->net;
    int32_t a;
    if (st->wasted > (int64_t)g->n + g->n_links)
        refresh_fh(st);
    if (st->fh[src] >= FH_FAR) {
        refresh_fh(st);
        if (st->fh[src] >= FH_FAR)
            return -1; /* no free host reachable from src */
    }
    a = search_astar(st, st->fh, src, oom);
    if (a < 0 && !*oom) { /* every estimate was stale: once more, exact */
        refresh_fh(st);
        if (st->fh[src] < FH_FAR)
            a = search_astar(st, st->fh, src, oom);
    }
    return a;
}

/* The check of tm__greedy_core_checked: a Dijkstra (estimate 0) must reach
 * a free host with the same hops and load (within rounding: the loads are
 * summed along different paths) as the A* search did. */
static int32_t closest_free_checked(gstate *st, int32_t src, int *oom)
{
    int32_t ref = search_astar(st, st->zero, src, oom), a;
    int32_t rh = ref >= 0 ? st->hops[st->pp->host[ref]] : -1;
    double rl = ref >= 0 ? st->dist[st->pp->host[ref]] : 0;
    if (*oom)
        return -1;
    a = closest_free(st, src, oom);
    if (*oom)
        return -1;
    if ((a < 0) != (ref < 0) ||
        (a >= 0 && (st->hops[st->pp->host[a]] != rh ||
                    fabs(st->dist[st->pp->host[a]] - rl) > 1e-9 * (1 + rl))))
        st->mismatch = true;
    return a;
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
    a = st->zero ? closest_free_checked(st, from_vertex, &oom)
                 : closest_free(st, from_vertex, &oom);
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

static void gstate_release(gstate *st)
{
    free(st->zero);
    free(st->aidx);
    free(st->freec);
    free(st->rho);
    free(st->hops);
    free(st->dist);
    free(st->plink);
    free(st->stamp);
    free(st->done);
    free(st->fh);
    free(st->bfs_dist);
    free(st->bfs_queue);
    dheap_release(&st->heap);
}

/* The search state of pp: every slot free, no load, no path (check: also
 * the zero estimate of closest_free_checked). */
static tm_err gstate_init(tm_ctx *ctx, const tm__placeprob *pp, bool check, gstate *st)
{
    const tm_net_csr *net = pp->net;
    int32_t nv = net->n;
    st->pp = pp;
    st->aidx = tm__malloc_n((size_t)nv, sizeof *st->aidx);
    st->freec = tm__malloc_n((size_t)pp->nh + 1, sizeof *st->freec);
    st->rho = tm__calloc_n((size_t)net->n_links + 1, sizeof *st->rho);
    st->hops = tm__malloc_n((size_t)nv, sizeof *st->hops);
    st->dist = tm__malloc_n((size_t)nv, sizeof *st->dist);
    st->plink = tm__malloc_n((size_t)nv, sizeof *st->plink);
    st->stamp = tm__calloc_n((size_t)nv, sizeof *st->stamp);
    st->done = tm__calloc_n((size_t)nv, sizeof *st->done);
    st->fh = tm__malloc_n((size_t)nv + 1, sizeof *st->fh);
    st->bfs_dist = tm__malloc_n((size_t)nv + 1, sizeof *st->bfs_dist);
    st->bfs_queue = tm__malloc_n((size_t)nv + 1, sizeof *st->bfs_queue);
    if (check && !(st->zero = tm__calloc_n((size_t)nv + 1, sizeof *st->zero)))
        return tm__nomem(ctx);
    if (!st->aidx || !st->freec || !st->rho || !st->hops || !st->dist || !st->plink ||
        !st->stamp || !st->done || !st->fh || !st->bfs_dist || !st->bfs_queue)
        return tm__nomem(ctx);
    for (int32_t v = 0; v < nv; v++) {
        st->aidx[v] = -1;
        st->plink[v] = -1;
    }
    for (int32_t i = 0; i < pp->nh; i++) {
        st->aidx[pp->host[i]] = i;
        st->freec[i] = pp->cap[i];
    }
    tm__bfs_init(&st->bfs, net, st->bfs_dist, st->bfs_queue);
    refresh_fh(st);
    return TM_EOK;
}

/* Places task m near host vertex *s, then every unplaced task reachable
 * from it, heaviest edge to a placed partner first, each on the free host
 * closest to that partner; *s ends at the last host used.  *seq numbers
 * the queue entries (ties in order of arrival) over the whole run. */
static tm_err place_from(tm_ctx *ctx, gstate *st, tm__pq *q, int32_t m, int32_t *s,
                         int64_t *seq, int32_t *place, int32_t *mapped)
{
    const tm__placeprob *pp = st->pp;
    const tm__sgraph *G = pp->g;
    tm__pq_item it = {0, 0, m, -1};
    int32_t a;
    tm_err err = pick_host(ctx, st, *s, &a);
    if (err)
        return err;
    tm__pq_clear(q);
    do {
        int32_t u = it.aux;
        m = it.id;
        if (place[m] >= 0)
            continue;
        if (u >= 0) {
            err = pick_host(ctx, st, pp->host[place[u]], &a);
            if (err)
                return err;
            add_path_load(st, pp->host[a], it.key);
        }
        place[m] = a;
        st->freec[a]--;
        *s = pp->host[a];
        (*mapped)++;
        for (int64_t j = G->xadj[m]; j < G->xadj[m + 1]; j++)
            if (place[G->adj[j]] < 0 &&
                tm__pq_push(q, (tm__pq_item){G->w[j], (*seq)++, G->adj[j], m}))
                return tm__nomem(ctx);
    } while (tm__pq_pop(q, &it));
    return TM_EOK;
}

static tm_err greedy_run(tm_ctx *ctx, const tm__placeprob *pp, int64_t start, bool check,
                         int32_t *place)
{
    const tm__sgraph *G = pp->g;
    int32_t n = G->n, s, mapped = 0, nxt = 0;
    int64_t seq = 0;
    gstate st = {0};
    tkey *order = NULL;
    tm__pq q;
    tm_err err;

    tm__pq_init(&q);
    err = gstate_init(ctx, pp, check, &st);
    if (err)
        goto out;
    order = tm__malloc_n((size_t)n + 1, sizeof *order);
    if (!order) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t t = 0; t < n; t++) {
        place[t] = -1;
        order[t] = (tkey){tm__sgraph_wdeg(G, t), t};
    }
    qsort(order, (size_t)n, sizeof *order, cmp_tkey);
    s = pp->host[start % pp->nh];
    /* the heaviest unplaced task starts each connected part of G */
    while (mapped < n) {
        while (place[order[nxt].v] >= 0)
            nxt++;
        err = place_from(ctx, &st, &q, order[nxt].v, &s, &seq, place, &mapped);
        if (err)
            goto out;
    }
    if (st.mismatch)
        err = tm__fail(ctx, TM_EINTERNAL, "greedy: the A* search disagrees with Dijkstra");
out:
    tm__pq_release(&q);
    gstate_release(&st);
    free(order);
    return err;
}

tm_err tm__greedy_core_from(tm_ctx *ctx, const tm__placeprob *pp, int64_t start, int32_t *place)
{
    return greedy_run(ctx, pp, start, false, place);
}

tm_err tm__greedy_core_checked(tm_ctx *ctx, const tm__placeprob *pp, int64_t start,
                               int32_t *place)
{
    return greedy_run(ctx, pp, start, true, place);
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
