/* qap_grow.c - `grow`: greedy growth that matches neighbourhoods (network
 * mode).  Tasks are placed one at a time, the next one being the task with
 * the most volume to placed tasks (ties: the most placed tasks two steps
 * away, i.e. the most constrained).  Its PE is the free PE on or next to
 * the hosts of its placed partners that minimises
 *   1. the J to its placed partners (the network-mode distance), then
 *   2. the structural mismatch: for every placed task y within two steps
 *      in G, |common neighbours of (u, y) in G - common neighbours of
 *      their hosts in the host graph|.
 * The second key is what plain greedy lacks: on a grid the first partners
 * of a task can go to any adjacent host at equal cost, but only the host
 * that keeps orthogonal partners orthogonal (two common neighbours, not
 * one) lets the rest of the grid embed at distance 1, so a task graph
 * isomorphic to the host graph is rebuilt exactly up to symmetry.  The
 * host graph links each allocated host to its nearest allocated hosts
 * (grid neighbours on tori, hosts of one leaf switch on fat-trees).
 * Several starts, the best J kept. */
#include <stdlib.h>
#include <string.h>

#include "qap_int.h"
#include "qap_gcells.h"
#include "../graph/bfs.h"
#include "../graph/heap.h"
#include "../net/net_int.h"

/* Starts (each from a random task, with random tie-breaks): on tori with a
 * ring of 4 (where C4 looks like a square locally) some starts embed a
 * ring in the wrong plane; the best J of several is kept. */
#define GROW_STARTS 16
#define HADJ_MAX 32 /* nearest hosts kept per host */

typedef struct hent { double key; int32_t u; } hent;

/* Lazy max-heap of (key, task) on the key alone: equal keys leave in the
 * order the heap's shape gives them (deterministic), which the results of
 * `grow` depend on, so no tie-break is added. */
static inline bool hent_first(const hent *x, const hent *y) { return x->key > y->key; }
TM__HEAP_DEFINE(hheap, hent, hent_first)

typedef struct grow {
    tm_ctx *ctx;
    const tm__sgraph *g;
    /* the search graph (TM__SEARCH_RATIO): the structure (common
     * neighbours, tasks two steps away) and the candidate hosts come from
     * it, J from g; on a trace rank 0 is two steps from every task on g */
    const tm__sgraph *sg;
    tm__sgraph heavy;
    const tm__qnet *q;
    tm__qdist o;
    int32_t *hoff, *hadj;       /* host graph (allocation indices) */
    int32_t *pe;                /* task -> PE or -1 */
    int32_t *free_n;            /* free slots per host */
    uint8_t *pe_used;
    double *vol;                /* volume to placed tasks */
    int32_t *c2;                /* placed tasks within two steps */
    int32_t *cnt, *stamp, *list; /* scratch: common-neighbour counts */
    int32_t cur;
    int32_t *cand, *cmark;
    int32_t *sw_of;             /* per host: its switch if a stub host, else -1 */
    int32_t *swmark;            /* per net vertex: stamp (all_free_hosts) */
    tm__gcells cells;           /* free slots per group of the levels form */
    bool have_cells;            /* (fat-trees: boxed_in) */
    int32_t *cellbuf;
    hheap heap;
    tm__rng rng;   /* tie-breaks */
    int32_t ties;
    bool use_cn;  /* structural key: only on sparse host graphs (direct networks) */
    bool corners; /* hosts differ in their number of nearest hosts (a mesh, a part of
                   * a torus): starts begin at a corner (start_task) */
} grow;

static double task_key(const grow *G, int32_t u) { return G->vol[u] + 1e-6 * G->c2[u]; }

/* ---- host graph: each host's nearest allocated hosts ----------------------- */

/* Breadth-first from host a (src/graph/bfs.h), stopping after the first
 * level that holds other allocated hosts: cheap (the ball up to the
 * nearest hosts) and exactly "the nearest allocated hosts", in the order
 * the search reaches them. */
static int32_t nearest_hosts(const tm__qnet *q, tm__bfs *b, int32_t a, int32_t *out)
{
    int32_t k = 0, src = q->host_vertex[a];
    tm__bfs_start(b, &src, 1);
    while (k == 0) {
        int32_t from = b->tail;
        if (tm__bfs_level(b) == 0)
            break;
        for (int32_t i = from; i < b->tail; i++) {
            int32_t h = q->aidx[b->queue[i]];
            if (h >= 0 && k < HADJ_MAX)
                out[k++] = h;
        }
    }
    return k;
}

static tm_err host_graph(grow *G, const tm_net *net)
{
    const tm__qnet *q = G->q;
    const tm_net_csr *g = tm_net_csr_get(net);
    int32_t nh = q->n_hosts;
    int32_t *queue = tm__malloc_n((size_t)g->n, sizeof *queue);
    int32_t *dist = tm__malloc_n((size_t)g->n, sizeof *dist);
    tm__bfs b;
    tm_err err = TM_EOK;
    G->hoff = tm__malloc_n((size_t)nh + 1, sizeof *G->hoff);
    G->hadj = tm__malloc_n((size_t)nh * HADJ_MAX + 1, sizeof *G->hadj);
    if (!queue || !dist || !G->hoff || !G->hadj) {
        err = tm__nomem(G->ctx);
        goto out;
    }
    tm__bfs_init(&b, g, dist, queue);
    G->hoff[0] = 0;
    /* indirect networks (every host a stub of a switch): the nearest hosts
     * of a host are the others of its switch, a clique, and common
     * neighbours carry no structure; on a big fat-tree with few hosts per
     * leaf they also made every boxed-in task price every host */
    G->use_cn = false;
    for (int32_t a = 0; a < nh && !G->use_cn; a++)
        G->use_cn = G->sw_of[a] < 0;
    for (int32_t a = 0; a < nh; a++) {
        int32_t k = nearest_hosts(q, &b, a, G->hadj + G->hoff[a]);
        G->hoff[a + 1] = G->hoff[a] + k;
        /* common-neighbour counts separate orthogonal from opposite
         * partners on grids (degree 2d); among the dozens of hosts of a
         * leaf switch they carry no information and cost O(deg^2) */
        if (k > 12)
            G->use_cn = false;
    }
    for (int32_t a = 1; a < nh && G->use_cn; a++)
        G->corners |= G->hoff[a + 1] - G->hoff[a] != G->hoff[1] - G->hoff[0];
out:
    free(queue), free(dist);
    return err;
}

static int32_t host_cn(const grow *G, int32_t a, int32_t b)
{
    int32_t n = 0;
    for (int32_t i = G->hoff[a]; i < G->hoff[a + 1]; i++)
        for (int32_t j = G->hoff[b]; j < G->hoff[b + 1]; j++)
            n += G->hadj[i] == G->hadj[j];
    return n;
}

/* Common neighbours of u with every placed task within two steps:
 * G->list[0..return) with counts in G->cnt. */
static int32_t task_cn(grow *G, int32_t u)
{
    const tm__sgraph *g = G->sg;
    int32_t n = 0;
    G->cur++;
    for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++) {
        int32_t x = g->adj[e];
        for (int64_t f = g->xadj[x]; f < g->xadj[x + 1]; f++) {
            int32_t y = g->adj[f];
            if (y == u || G->pe[y] < 0)
                continue;
            if (G->stamp[y] != G->cur) {
                G->stamp[y] = G->cur;
                G->cnt[y] = 0;
                G->list[n++] = y;
            }
            G->cnt[y]++;
        }
    }
    return n;
}

/* (J to placed partners, structural mismatch) of task u on PE p. */
static void cost(grow *G, int32_t u, int32_t p, int32_t ncn, double *c1, double *c2)
{
    const tm__sgraph *g = G->g;
    int32_t hp = G->q->pe_host[p];
    *c1 = 0;
    *c2 = 0;
    for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
        if (G->pe[g->adj[e]] >= 0)
            *c1 += g->w[e] * tm__qd(&G->o, p, G->pe[g->adj[e]]);
    for (int32_t i = 0; i < ncn; i++) {
        int32_t y = G->list[i], hy = G->q->pe_host[G->pe[y]];
        int32_t d = hy == hp ? 0 : G->cnt[y] - host_cn(G, hp, hy);
        *c2 += d < 0 ? -d : d;
    }
}

/* Is (c1, c2) better than the best so far?  Equal pairs win with
 * probability 1 / (number of equal pairs seen): a uniform tie-break. */
static bool take(grow *G, bool first, double c1, double c2, double b1, double b2)
{
    if (first || c1 < b1 - 1e-9 || (c1 <= b1 + 1e-9 && c2 < b2 - 1e-9)) {
        G->ties = 1;
        return true;
    }
    if (c1 <= b1 + 1e-9 && c2 <= b2 + 1e-9)
        return tm__rng_below(&G->rng, (uint64_t)++G->ties) == 0;
    return false;
}

/* Free PEs of host a (all of them: with node levels the slots differ). */
static int32_t best_pe_on(grow *G, int32_t u, int32_t a, int32_t ncn, double *b1, double *b2)
{
    int32_t best = -1;
    for (int64_t p = G->q->host_pe0[a]; p < G->q->host_pe0[a + 1]; p++) {
        double c1, c2;
        if (G->pe_used[p])
            continue;
        cost(G, u, (int32_t)p, ncn, &c1, &c2);
        if (best < 0 || c1 < *b1 - 1e-9 || (c1 <= *b1 + 1e-9 && c2 < *b2 - 1e-9)) {
            best = (int32_t)p;
            *b1 = c1;
            *b2 = c2;
        }
        if (!G->q->node)
            break; /* slots of a host are alike without node levels */
    }
    return best;
}

/* Every host with a free slot, except that of the wholly free stub hosts
 * of one switch only the first is kept: they are at the same hop distance
 * from every placed task (tm__csr_stub_of), so every one costs the same
 * (and the structural key is off on such indirect networks).  On a
 * 65,536-host fat-tree this is 4,096 candidates instead of 65,536 for
 * each boxed-in task. */
static int32_t all_free_hosts(grow *G)
{
    int32_t nc = 0;
    for (int32_t a = 0; a < G->q->n_hosts; a++) {
        int32_t w = G->sw_of[a];
        if (G->free_n[a] == 0)
            continue;
        if (w >= 0 && !G->use_cn && G->free_n[a] == G->q->host_pe0[a + 1] - G->q->host_pe0[a]) {
            if (G->swmark[w] == G->cur)
                continue;
            G->swmark[w] = G->cur;
        }
        G->cand[nc++] = a;
    }
    return nc;
}

/* A task whose partners' hosts and their nearest hosts are all full, on a
 * network whose hop oracle has the levels form: one host per cell around
 * the partners (qap_gcells.h) is priced instead of every free host (on a
 * 262,144-host fat-tree, 35,000 such tasks priced 25,000 hosts each).
 * Every free host lies in one cell and costs what the cell's host costs,
 * so the least J is the same; among equal ones the tie-break is uniform
 * over cells, not hosts. */
static int32_t boxed_in(grow *G, int32_t u, int32_t ncn)
{
    const tm__sgraph *g = G->g;
    int32_t np = 0, nc, best = -1;
    double b1 = 0, b2 = 0;
    for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
        if (G->pe[g->adj[e]] >= 0)
            G->cand[np++] = G->q->pe_host[G->pe[g->adj[e]]];
    nc = tm__gcells_cells(&G->cells, G->q, G->cand, np, G->free_n, G->cellbuf);
    for (int32_t i = 0; i < nc; i++) {
        double c1 = 0, c2 = 0;
        int32_t a = tm__gcells_host(&G->cells, G->cellbuf[i], G->free_n);
        int32_t p = best_pe_on(G, u, a, ncn, &c1, &c2);
        if (p >= 0 && take(G, best < 0, c1, c2, b1, b2)) {
            best = p;
            b1 = c1;
            b2 = c2;
        }
    }
    return best;
}

/* The first task of a component on a direct network starts on a host of
 * the fewest nearest hosts among G->cand[0..nc): a corner of a mesh,
 * where a task of the fewest partners (start_task) fits; on a torus every
 * host qualifies.  Returns how many are kept. */
static int32_t least_degree_hosts(grow *G, int32_t nc)
{
    int32_t best = INT32_MAX, k = 0;
    for (int32_t i = 0; i < nc; i++) {
        int32_t a = G->cand[i], d = G->hoff[a + 1] - G->hoff[a];
        best = d < best ? d : best;
    }
    for (int32_t i = 0; i < nc; i++)
        if (G->hoff[G->cand[i] + 1] - G->hoff[G->cand[i]] == best)
            G->cand[k++] = G->cand[i];
    return k;
}

static int32_t choose_pe(grow *G, int32_t u)
{
    const tm__sgraph *g = G->sg;
    int32_t ncn = G->use_cn ? task_cn(G, u) : 0, nc = 0, best = -1;
    double b1 = 0, b2 = 0;
    G->cur++;
    /* candidate hosts: the partners' hosts and their neighbours */
    for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++) {
        int32_t x = g->adj[e], hx;
        if (G->pe[x] < 0)
            continue;
        hx = G->q->pe_host[G->pe[x]];
        for (int32_t i = G->hoff[hx] - 1; i < G->hoff[hx + 1]; i++) {
            int32_t a = i < G->hoff[hx] ? hx : G->hadj[i];
            if (G->cmark[a] == G->cur || G->free_n[a] == 0)
                continue;
            G->cmark[a] = G->cur;
            G->cand[nc++] = a;
        }
    }
    if (nc == 0 && G->have_cells && !G->use_cn && G->vol[u] > 0)
        return boxed_in(G, u, ncn);
    if (nc == 0) /* boxed in (or first task of a component): every host */
        nc = all_free_hosts(G);
    if (nc > 0 && G->corners && G->vol[u] == 0)
        nc = least_degree_hosts(G, nc);
    for (int32_t i = 0; i < nc; i++) {
        double c1 = 0, c2 = 0;
        int32_t p = best_pe_on(G, u, G->cand[i], ncn, &c1, &c2);
        if (p >= 0 && take(G, best < 0, c1, c2, b1, b2)) {
            best = p;
            b1 = c1;
            b2 = c2;
        }
    }
    return best;
}

static int place(grow *G, int32_t u, int32_t p)
{
    const tm__sgraph *g = G->g, *sg = G->sg;
    G->pe[u] = p;
    G->pe_used[p] = 1;
    G->free_n[G->q->pe_host[p]]--;
    if (G->have_cells)
        tm__gcells_take(&G->cells, G->q, G->q->pe_host[p]);
    for (int64_t e = sg->xadj[u]; e < sg->xadj[u + 1]; e++) {
        int32_t x = sg->adj[e];
        if (G->pe[x] >= 0)
            continue;
        for (int64_t f = sg->xadj[x]; f < sg->xadj[x + 1]; f++)
            if (G->pe[sg->adj[f]] < 0 && sg->adj[f] != u)
                G->c2[sg->adj[f]]++;
    }
    for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++) {
        int32_t x = g->adj[e];
        if (G->pe[x] >= 0)
            continue;
        G->vol[x] += g->w[e];
        if (hheap_push(&G->heap, (hent){task_key(G, x), x}) < 0)
            return -1;
    }
    return 0;
}

static tm_err grow_once(grow *G, int32_t seed_task)
{
    const tm__sgraph *g = G->g;
    int32_t placed = 0, next_any = 0;
    memset(G->pe_used, 0, (size_t)G->q->n_pe);
    for (int32_t a = 0; a < G->q->n_hosts; a++)
        G->free_n[a] = (int32_t)(G->q->host_pe0[a + 1] - G->q->host_pe0[a]);
    if (G->have_cells)
        tm__gcells_reset(&G->cells, G->q, G->free_n);
    for (int32_t u = 0; u < g->n; u++) {
        G->pe[u] = -1;
        G->vol[u] = 0;
        G->c2[u] = 0;
    }
    hheap_clear(&G->heap);
    if (g->n > 0 && hheap_push(&G->heap, (hent){0, seed_task}) < 0)
        return tm__nomem(G->ctx);
    while (placed < g->n) {
        int32_t u = -1, p;
        hent h;
        while (u < 0 && hheap_pop(&G->heap, &h)) {
            if (G->pe[h.u] < 0 && h.key >= task_key(G, h.u) - 1e-12)
                u = h.u;
        }
        while (u < 0 && next_any < g->n) /* a new component */
            if (G->pe[next_any++] < 0)
                u = next_any - 1;
        p = choose_pe(G, u);
        if (p < 0)
            return tm__fail(G->ctx, TM_EINTERNAL, "grow: no free slot for task %d", u);
        if (place(G, u, p) < 0)
            return tm__nomem(G->ctx);
        placed++;
    }
    return TM_EOK;
}

static void grow_free(grow *G)
{
    free(G->hoff), free(G->hadj), free(G->pe), free(G->free_n), free(G->pe_used);
    free(G->vol), free(G->c2), free(G->cnt), free(G->stamp), free(G->list);
    free(G->cand), free(G->cmark), free(G->sw_of), free(G->swmark), free(G->cellbuf);
    tm__sgraph_release(&G->heavy);
    tm__gcells_release(&G->cells);
    hheap_release(&G->heap);
}

static tm_err grow_init(grow *G, tm_ctx *ctx, const tm_net *net, const tm__sgraph *g,
                        const tm__qnet *q)
{
    size_t n = (size_t)(g->n ? g->n : 1), nh = (size_t)q->n_hosts;
    tm__heavy_share kept;
    memset(G, 0, sizeof *G);
    G->ctx = ctx;
    G->g = g;
    G->q = q;
    if (tm__sgraph_heavy(ctx, g, TM__SEARCH_RATIO, &G->heavy, &kept) != TM_EOK)
        return tm__nomem(ctx);
    G->sg = kept.edges < 1.0 ? &G->heavy : g;
    tm__qdist_init_net(&G->o, q);
    G->pe = tm__malloc_n(n, sizeof *G->pe);
    G->vol = tm__malloc_n(n, sizeof *G->vol);
    G->c2 = tm__malloc_n(n, sizeof *G->c2);
    G->cnt = tm__malloc_n(n, sizeof *G->cnt);
    G->stamp = tm__calloc_n(n, sizeof *G->stamp);
    G->list = tm__malloc_n(n, sizeof *G->list);
    G->free_n = tm__malloc_n(nh, sizeof *G->free_n);
    G->cand = tm__malloc_n(nh, sizeof *G->cand);
    G->cmark = tm__calloc_n(nh, sizeof *G->cmark);
    G->pe_used = tm__malloc_n((size_t)q->n_pe, 1);
    G->sw_of = tm__malloc_n(nh + 1, sizeof *G->sw_of);
    G->swmark = tm__calloc_n((size_t)tm_net_n_vertices(net) + 1, sizeof *G->swmark);
    if (!G->pe || !G->vol || !G->c2 || !G->cnt || !G->stamp || !G->list || !G->free_n ||
        !G->cand || !G->cmark || !G->pe_used || !G->sw_of || !G->swmark)
        return tm__nomem(ctx);
    for (size_t a = 0; a < nh; a++) {
        int32_t h = q->host_vertex[a], w = tm__csr_stub_of(tm_net_csr_get(net), h);
        G->sw_of[a] = w != h ? w : -1;
    }
    if (tm__gcells_build(ctx, q, &G->cells, &G->have_cells) != TM_EOK)
        return tm__nomem(ctx);
    if (G->have_cells && !(G->cellbuf = tm__malloc_n((size_t)G->cells.n + nh, sizeof *G->cellbuf)))
        return tm__nomem(ctx);
    return host_graph(G, net);
}

/* The first task of a start: on a direct network whose hosts have
 * corners (G->corners) one of the fewest partners on the search graph (a
 * corner of a stencil, the end of a chain), which least_degree_hosts puts
 * where the network has the fewest neighbours: on a mesh a grid job then
 * embeds from its corner, where a random first task on a random host (an
 * inner task on a border host) cannot (LULESH 64 on mesh:4x4x4: 1.14-1.26
 * hops a byte instead of the 1.03 of its own order).  Elsewhere (a whole
 * torus: every host alike) any task. */
static int32_t start_task(const grow *G, tm__rng *r)
{
    const tm__sgraph *g = G->sg;
    int64_t best = INT64_MAX, cnt = 0, pick;
    if (!G->corners)
        return (int32_t)tm__rng_below(r, (uint64_t)g->n);
    for (int32_t u = 0; u < g->n; u++) {
        int64_t d = g->xadj[u + 1] - g->xadj[u];
        if (d > 0 && d < best)
            best = d, cnt = 0;
        cnt += d == best;
    }
    if (cnt == 0)
        return (int32_t)tm__rng_below(r, (uint64_t)g->n);
    pick = (int64_t)tm__rng_below(r, (uint64_t)cnt);
    for (int32_t u = 0; u < g->n; u++)
        if (g->xadj[u + 1] - g->xadj[u] == best && pick-- == 0)
            return u;
    return 0;
}

/* Starts [first, first + count) of grow, the best J kept.  Start s draws
 * its first task and breaks its ties from its own streams (seed + s x the
 * golden ratio), so that a range of starts gives the same mappings alone
 * or inside a longer range. */
static tm_err grow_starts(tm_ctx *ctx, const tm_problem *p, uint64_t seed, int first, int count,
                          tm_mapping *out)
{
    tm__qnet_job j;
    grow G;
    double bj = 0;
    tm_err err;
    if (!p->net)
        return tm__fail(ctx, TM_EUSAGE, "strategy grow needs a network");
    err = tm__qnet_job_init(ctx, p, &j);
    if (err)
        return err;
    err = grow_init(&G, ctx, p->net, &j.g, &j.q);
    for (int s = first; s < first + count && !err && j.g.n > 0; s++) {
        uint64_t ss = seed + (uint64_t)s * 0x9e3779b97f4a7c15ULL;
        tm__rng r;
        int32_t t0;
        double jv;
        tm__rng_seed(&r, ss, 0x67726f77); /* "grow" */
        tm__rng_seed(&G.rng, ss, 0x74696573); /* "ties" */
        t0 = start_task(&G, &r);
        err = grow_once(&G, t0);
        if (err)
            break;
        jv = tm__qap_eval_sym(&j.g, &G.o, G.pe);
        if (s == first || jv < bj) {
            bj = jv;
            memcpy(j.pe, G.pe, (size_t)j.g.n * sizeof *j.pe);
        }
    }
    if (!err)
        err = tm_mapping_alloc(ctx, out, j.g.n, false);
    if (!err)
        tm__qnet_from_pe(&j.q, j.pe, out);
    grow_free(&G);
    tm__qnet_job_release(&j);
    return err;
}

int tm__grow_n_starts(const tm_problem *p)
{
    /* large graphs: fewer starts (each is O(n deg^2 x candidates)) */
    return p->comm->n <= 8192 ? GROW_STARTS : 2;
}

tm_err tm__strategy_grow(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out)
{
    return grow_starts(ctx, p, seed, 0, tm__grow_n_starts(p), out);
}

tm_err tm__grow_starts(tm_ctx *ctx, const tm_problem *p, uint64_t seed, int first, int count,
                       tm_mapping *out)
{
    int n = tm__grow_n_starts(p);
    if (first >= n)
        return TM_EOK; /* no such starts: out stays empty */
    return grow_starts(ctx, p, seed, first, first + count > n ? n - first : count, out);
}
