/*
 * updn.c - `--routing updn`: the forwarding tables OpenSM's Up/Down engine
 * (osm_ucast_updn.c, linux-rdma/opensm @ fa74b98c) computes with its
 * default options (no root GUID file unless roots are given, no node-id
 * file, connect_roots off, LMC 0), then followed like real ones (fwd.c).
 *
 * - Roots: the switches given (opts.roots, `--root`), else OpenSM's
 *   updn_find_root_nodes_by_min_hop: a switch is a root when, weighting
 *   every leaf switch by its number of CA cables, more than 90% of the CAs
 *   sit at one min-hop distance from it and no other distance holds more
 *   than 5%.
 * - Ranks (updn_subn_rank): BFS distance of every switch from the nearest
 *   root.  A link is "up" towards the lower rank; between equal ranks
 *   towards the larger id (updn_get_dir; id = GUID, or vertex id + 1
 *   without GUIDs).
 * - Hop tables (updn_bfs_by_node): a BFS from each destination leaf that
 *   never turns from a down step to an up step, keeping OpenSM's
 *   per-port hop counts and its quirks: a switch's direction is the one
 *   it was queued with, and a switch is queued again when a later step
 *   improves one of its ports.  Traffic runs the BFS paths backwards, so
 *   every path goes up, then down: no down -> up turn, hence no credit
 *   loop.
 * - Port choice: the min-hop rule (tm__sm_build_tables, sm_common.c).
 */
#include <stdlib.h>
#include <string.h>

#include "route_int.h"
#include "../util/util.h"

enum { UP = 0, DOWN = 1 };

typedef struct updn {
    const tm_route *r;
    const tm__fwd *f;
    int32_t *rank;   /* per vertex: distance from the nearest root (-1: none) */
    uint64_t *id;    /* per vertex */
    int32_t *least;  /* per vertex: least hops to the current leaf */
    int32_t *queue;  /* ring of n entries */
    uint8_t *dir, *queued;
} updn;

/* updn_get_dir: the direction of the step cur -> rem.  An unranked
 * switch (-1: no root reaches it) compares as OpenSM's 0xffffffff. */
static int step_dir(const updn *u, int32_t cur, int32_t rem)
{
    uint32_t rc = (uint32_t)u->rank[cur], rr = (uint32_t)u->rank[rem];
    if (!rc && !rr)
        return UP; /* OpenSM's hack for cables between two roots */
    if (rc != rr)
        return rc < rr ? DOWN : UP;
    return u->id[cur] > u->id[rem] ? UP : DOWN;
}

/* updn_bfs_by_node from leaf switch t: phop[l] for the link l out of a
 * switch = the hop count to t through l along a legal path. */
static void updn_hops(void *ud, int32_t t, int32_t *phop)
{
    updn *u = ud;
    const tm_net_csr *g = u->r->g;
    const tm__fwd *f = u->f;
    int32_t n = g->n, head = 0, len = 0;
    for (int32_t l = 0; l < g->n_links; l++)
        phop[l] = TM__SM_NO_PATH;
    for (int32_t v = 0; v < n; v++)
        u->least[v] = TM__SM_NO_PATH;
    memset(u->queued, 0, (size_t)n);
    u->least[t] = 0;
    u->dir[t] = UP;
    u->queue[len++] = t;
    while (len) {
        int32_t v = u->queue[head], s = f->sw_of[v];
        head = (head + 1) % n;
        len--;
        u->queued[v] = 0;
        for (int32_t p = 1; p < 256; p++) {
            int32_t l = f->port_link[(size_t)s * 256 + (size_t)p], w, d;
            if (l < 0 || f->sw_of[w = g->head_of[l]] < 0)
                continue;
            d = step_dir(u, v, w);
            if (u->dir[v] == DOWN && d == UP)
                continue; /* the one illegal turn */
            /* traffic w -> v uses the reverse link, out of w's port */
            if (u->least[v] + 1 >= phop[l ^ 1])
                continue;
            phop[l ^ 1] = u->least[v] + 1;
            if (phop[l ^ 1] < u->least[w])
                u->least[w] = phop[l ^ 1];
            if (!u->queued[w]) {
                u->dir[w] = (uint8_t)d;
                u->queued[w] = 1;
                u->queue[(head + len++) % n] = w;
            }
        }
    }
}

/* updn_find_root_nodes_by_min_hop: the roots into roots; returns their
 * number. */
static int32_t auto_roots(updn *u, int32_t *dist, int32_t *roots)
{
    const tm_net_csr *g = u->r->g;
    const tm__fwd *f = u->f;
    int32_t *cas = u->least, n_roots = 0; /* CA cables per switch vertex (scratch) */
    double total = 0;
    memset(cas, 0, (size_t)g->n * sizeof *cas);
    for (int32_t l = 0; l < g->n_links; l++)
        if (g->is_host[g->tail_of[l]] && f->sw_of[g->head_of[l]] >= 0) {
            cas[g->head_of[l]]++;
            total++;
        }
    for (int32_t s = 0; s < f->n_sw; s++) {
        double hist[64] = {0};
        int over1 = 0, over2 = 0;
        tm__sm_switch_bfs(u->r, f, &f->vertex_of[s], 1, dist, u->queue);
        for (int32_t v = 0; v < g->n; v++)
            if (cas[v] && dist[v] >= 0 && dist[v] < 64)
                hist[dist[v]] += cas[v];
        for (int i = 0; i < 64; i++) {
            over1 += hist[i] > total * 0.9;
            over2 += hist[i] > total * 0.05;
        }
        if (over1 == 1 && over2 == 1)
            roots[n_roots++] = f->vertex_of[s];
    }
    return n_roots;
}

/* The roots (given, or OpenSM's rule), then updn_subn_rank: every
 * switch's BFS distance from the nearest root. */
static tm_err rank_switches(tm_ctx *ctx, updn *u)
{
    const tm_route *r = u->r;
    int32_t *roots = tm__malloc_n((size_t)r->g->n + 1, sizeof *roots), n = r->opts.n_roots;
    tm_err err = TM_EOK;
    if (!roots)
        return tm__nomem(ctx);
    for (int32_t v = 0; v < r->g->n; v++) {
        uint64_t guid = tm_net_guid(r->net, v);
        u->id[v] = guid ? guid : (uint64_t)v + 1;
    }
    for (int32_t i = 0; i < n && !err; i++) {
        roots[i] = r->opts.roots[i];
        if (roots[i] < 0 || roots[i] >= r->g->n || u->f->sw_of[roots[i]] < 0)
            err = tm__fail(ctx, TM_EUSAGE, "updn: root %d is not a switch of the topology",
                           (int)roots[i]);
    }
    if (!err && !n && !(n = auto_roots(u, u->rank, roots)))
        err = tm__fail(ctx, TM_EINPUT, "updn: no switch passes OpenSM's root test (90%% of the "
                       "hosts at one hop distance); name the roots (tm_route_opts.roots)");
    if (!err)
        tm__sm_switch_bfs(r, u->f, roots, n, u->rank, u->queue);
    free(roots);
    return err;
}

static tm_err updn_init(tm_ctx *ctx, tm_route *r)
{
    updn u = {r, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    size_t n = (size_t)r->g->n + 1;
    tm__fwd *f = NULL;
    tm_err err = tm__fwd_new_computed(ctx, r, &f);
    if (err)
        return err;
    u.f = f;
    u.rank = tm__malloc_n(n, sizeof *u.rank);
    u.id = tm__malloc_n(n, sizeof *u.id);
    u.least = tm__malloc_n(n, sizeof *u.least);
    u.queue = tm__malloc_n(n, sizeof *u.queue);
    u.dir = calloc(n, 1);
    u.queued = calloc(n, 1);
    err = u.rank && u.id && u.least && u.queue && u.dir && u.queued ? rank_switches(ctx, &u)
                                                                     : tm__nomem(ctx);
    if (!err)
        err = tm__sm_build_tables(ctx, r, f, updn_hops, &u);
    free(u.rank);
    free(u.id);
    free(u.least);
    free(u.queue);
    free(u.dir);
    free(u.queued);
    if (err)
        tm__fwd_free(f);
    else
        r->priv = f;
    return err;
}

const tm__route_ops tm__route_updn_ops = TM__FWD_OPS("updn", updn_init);
