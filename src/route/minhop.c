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
 * the lowest port number on ties; then counts the route on that port.
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
    tm__fwd *f;
    int32_t *dist;  /* per vertex: switch hops to the current leaf, -1 */
    int32_t *queue; /* per vertex */
    uint32_t *count;/* per directed link: routes through it (port profile) */
} mh;

/* BFS over switches from switch vertex t. */
static void bfs(mh *m, int32_t t)
{
    const tm_net_csr *g = m->r->g;
    int32_t head = 0, tail = 0;
    memset(m->dist, 0xff, (size_t)g->n * sizeof *m->dist);
    m->dist[t] = 0;
    m->queue[tail++] = t;
    while (head < tail) {
        int32_t v = m->queue[head++];
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t u = g->head[j];
            if (m->f->sw_of[u] >= 0 && m->dist[u] < 0) {
                m->dist[u] = m->dist[v] + 1;
                m->queue[tail++] = u;
            }
        }
    }
}

/* osm_switch_recommend_path: the least-hop port with the fewest routes,
 * lowest port number first. */
static int32_t recommend(const mh *m, int32_t v)
{
    const tm__fwd *f = m->f;
    const int32_t *pl = &f->port_link[(size_t)f->sw_of[v] * 256];
    int32_t best = -1;
    for (int32_t p = 1; p < 256; p++) {
        int32_t l = pl[p], u;
        if (l < 0)
            continue;
        u = m->r->g->head_of[l];
        if (f->sw_of[u] < 0 || m->dist[u] != m->dist[v] - 1)
            continue;
        if (best < 0 || m->count[l] < m->count[best])
            best = l;
    }
    return best;
}

/* Routes the LID of the host behind link lt of switch t from every switch. */
static void route_host(mh *m, int32_t t, int32_t lt)
{
    tm__fwd *f = m->f;
    uint32_t lid = f->dlid[m->r->g->head_of[lt]];
    tm__fwd_set(f, f->sw_of[t], lid, lt);
    m->count[lt]++;
    for (int32_t s = 0; s < f->n_sw; s++) {
        int32_t v = f->vertex_of[s], l;
        if (v == t || m->dist[v] <= 0)
            continue;
        l = recommend(m, v);
        if (l >= 0) {
            tm__fwd_set(f, s, lid, l);
            m->count[l]++;
        }
    }
}

static tm_err minhop_tables(tm_ctx *ctx, mh *m)
{
    const tm_net_csr *g = m->r->g;
    int32_t *order, *hosts = tm__malloc_n((size_t)g->n + 1, sizeof *hosts), nh;
    tm_err err = hosts ? tm__sm_switch_order(ctx, m->r, m->f, &order) : tm__nomem(ctx);
    if (err) {
        free(hosts);
        return err;
    }
    for (int32_t i = 0; i < m->f->n_sw; i++) {
        int32_t t = order[i];
        tm__sm_leaf_hosts(m->r, m->f, t, hosts, &nh);
        if (nh)
            bfs(m, t);
        for (int32_t k = 0; k < nh; k++)
            route_host(m, t, hosts[k]);
    }
    free(order);
    free(hosts);
    return TM_EOK;
}

static tm_err minhop_init(tm_ctx *ctx, tm_route *r)
{
    mh m = {r, NULL, NULL, NULL, NULL};
    const tm_net_csr *g = r->g;
    tm_err err = tm__fwd_new_computed(ctx, r, &m.f);
    if (err)
        return err;
    m.dist = tm__malloc_n((size_t)g->n, sizeof *m.dist);
    m.queue = tm__malloc_n((size_t)g->n, sizeof *m.queue);
    m.count = calloc((size_t)g->n_links + 1, sizeof *m.count);
    err = m.dist && m.queue && m.count ? minhop_tables(ctx, &m) : tm__nomem(ctx);
    for (int32_t s = 0; s < m.f->n_sw; s++)
        m.f->has_table[s] = true;
    free(m.dist);
    free(m.queue);
    free(m.count);
    if (err)
        tm__fwd_free(m.f);
    else
        r->priv = m.f;
    return err;
}

const tm__route_ops tm__route_minhop_ops = TM__FWD_OPS("minhop", minhop_init);
