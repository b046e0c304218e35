/*
 * minhop.c - `--routing minhop`: the forwarding tables OpenSM's default
 * engine (min-hop, osm_ucast_mgr.c + osm_switch_recommend_path in
 * osm_switch.c, linux-rdma/opensm @ fa74b98c) computes with its default
 * options (LMC 0, no port shifting, no scatter, fresh tables), then
 * followed like real ones (fwd.c).
 *
 * OpenSM routes every switch's table over one list of destination ports:
 * the CAs of each switch in port order, switches taken by decreasing
 * number of CA links (sort_ports_by_switch_load).  For each destination,
 * a switch picks, among its ports with the least hop count to it, the one
 * that already carries the fewest routes (its port profile counter),
 * the lowest port number on ties; then counts the route on that port
 * (tm__sm_build_tables, sm_common.c).  Here the hop counts are plain
 * switch-to-switch BFS distances; updn.c restricts them to up-down paths.
 * Counters are per switch, so routing destination by destination over
 * all switches gives the same tables as OpenSM's switch-by-switch loop.
 * Routes to switch LIDs are not computed: no flow goes to a switch, and
 * by default OpenSM does not count them in the port profiles.
 */
#include <stdlib.h>
#include <string.h>

#include "route_int.h"
#include "../util/util.h"

typedef struct mh {
    const tm_route *r;
    const tm__fwd *f;
    int32_t *dist;  /* per vertex: switch hops to the current leaf, -1 */
    int32_t *queue; /* per vertex */
} mh;

/* Switch-to-switch BFS distances from leaf t, then the hop count through
 * every switch-to-switch link: one more than its head's distance. */
static void minhop_hops(void *ud, int32_t t, int32_t *phop)
{
    mh *m = ud;
    const tm_net_csr *g = m->r->g;
    tm__sm_switch_bfs(m->r, m->f, &t, 1, m->dist, m->queue);
    for (int32_t l = 0; l < g->n_links; l++) {
        int32_t u = g->head_of[l];
        phop[l] = m->f->sw_of[g->tail_of[l]] >= 0 && m->f->sw_of[u] >= 0 && m->dist[u] >= 0
                      ? m->dist[u] + 1
                      : TM__SM_NO_PATH;
    }
}

static tm_err minhop_init(tm_ctx *ctx, tm_route *r)
{
    mh m = {r, NULL, NULL, NULL};
    tm__fwd *f;
    tm_err err = tm__fwd_new_computed(ctx, r, &f);
    if (err)
        return err;
    m.f = f;
    m.dist = tm__malloc_n((size_t)r->g->n, sizeof *m.dist);
    m.queue = tm__malloc_n((size_t)r->g->n, sizeof *m.queue);
    err = m.dist && m.queue ? tm__sm_build_tables(ctx, r, f, minhop_hops, &m) : tm__nomem(ctx);
    free(m.dist);
    free(m.queue);
    if (err)
        tm__fwd_free(f);
    else
        r->priv = f;
    return err;
}

const tm__route_ops tm__route_minhop_ops = TM__FWD_OPS("minhop", minhop_init);
