/*
 * sm_common.c - helpers of the emulated OpenSM routing engines (minhop.c,
 * ftree.c): which hosts hang off a switch, in port order, and the order in
 * which OpenSM visits switches.
 */
#include <stdlib.h>
#include <string.h>

#include "route_int.h"
#include "../util/util.h"

void tm__sm_leaf_hosts(const tm_route *r, const tm__fwd *f, int32_t t, int32_t *out, int32_t *n)
{
    const tm_net_csr *g = r->g;
    *n = 0;
    for (int32_t p = 1; p < 256; p++) {
        int32_t l = f->port_link[(size_t)f->sw_of[t] * 256 + (size_t)p], h;
        if (l < 0)
            continue;
        h = g->head_of[l];
        if (g->is_host[h] && f->first_link[h] >= 0 && g->head_of[f->first_link[h]] == t &&
            f->first_link[h] == (l ^ 1))
            out[(*n)++] = l;
    }
}

void tm__sm_switch_bfs(const tm_route *r, const tm__fwd *f, const int32_t *src, int32_t n,
                       int32_t *dist, int32_t *queue)
{
    const tm_net_csr *g = r->g;
    int32_t head = 0, tail = 0;
    memset(dist, 0xff, (size_t)g->n * sizeof *dist);
    for (int32_t i = 0; i < n; i++)
        if (dist[src[i]] < 0) {
            dist[src[i]] = 0;
            queue[tail++] = src[i];
        }
    while (head < tail) {
        int32_t v = queue[head++];
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t u = g->head[j];
            if (f->sw_of[u] >= 0 && dist[u] < 0) {
                dist[u] = dist[v] + 1;
                queue[tail++] = u;
            }
        }
    }
}

typedef struct sw_key {
    int32_t v, hosts;
    uint64_t guid;
} sw_key;

static int cmp_load(const void *a, const void *b)
{
    const sw_key *x = a, *y = b;
    if (x->hosts != y->hosts)
        return x->hosts > y->hosts ? -1 : 1;
    if (x->guid != y->guid)
        return x->guid < y->guid ? -1 : 1;
    return (x->v > y->v) - (x->v < y->v);
}

tm_err tm__sm_switch_order(tm_ctx *ctx, const tm_route *r, const tm__fwd *f, int32_t **order)
{
    const tm_net_csr *g = r->g;
    sw_key *k = tm__malloc_n(f->n_sw ? (size_t)f->n_sw : 1, sizeof *k);
    *order = tm__malloc_n(f->n_sw ? (size_t)f->n_sw : 1, sizeof **order);
    if (!k || !*order) {
        free(k);
        free(*order);
        *order = NULL;
        return tm__nomem(ctx);
    }
    for (int32_t s = 0; s < f->n_sw; s++) {
        int32_t v = f->vertex_of[s];
        k[s].v = v;
        k[s].guid = tm_net_guid(r->net, v);
        k[s].hosts = 0;
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++)
            k[s].hosts += g->is_host[g->head[j]];
    }
    qsort(k, (size_t)f->n_sw, sizeof *k, cmp_load);
    for (int32_t s = 0; s < f->n_sw; s++)
        (*order)[s] = k[s].v;
    free(k);
    return TM_EOK;
}

/* ---- the min-hop table builder (minhop.c, updn.c) ------------------------ */

typedef struct sm_build {
    const tm_route *r;
    tm__fwd *f;
    const int32_t *phop; /* per directed link: hops to the current leaf through it */
    uint32_t *count;     /* per directed link: routes through it (port profile) */
} sm_build;

/* osm_switch_recommend_path: among the ports of switch v with the least
 * hop count, the one with the fewest routes, the lowest port number first;
 * -1 if v has no path. */
static int32_t recommend(const sm_build *b, int32_t v)
{
    const int32_t *pl = &b->f->port_link[(size_t)b->f->sw_of[v] * 256];
    int32_t best = -1;
    for (int32_t p = 1; p < 256; p++) {
        int32_t l = pl[p];
        if (l < 0 || b->phop[l] == TM__SM_NO_PATH)
            continue;
        if (best < 0 || b->phop[l] < b->phop[best] ||
            (b->phop[l] == b->phop[best] && b->count[l] < b->count[best]))
            best = l;
    }
    return best;
}

/* Routes the LID of the host behind link lt of leaf switch t from every
 * switch. */
static void route_host(sm_build *b, int32_t t, int32_t lt)
{
    tm__fwd *f = b->f;
    uint32_t lid = f->dlid[b->r->g->head_of[lt]];
    tm__fwd_set(f, f->sw_of[t], lid, lt);
    b->count[lt]++;
    for (int32_t s = 0; s < f->n_sw; s++) {
        int32_t v = f->vertex_of[s], l;
        if (v == t)
            continue;
        l = recommend(b, v);
        if (l >= 0) {
            tm__fwd_set(f, s, lid, l);
            b->count[l]++;
        }
    }
}

tm_err tm__sm_build_tables(tm_ctx *ctx, const tm_route *r, tm__fwd *f, tm__sm_hops_fn hops,
                           void *ud)
{
    const tm_net_csr *g = r->g;
    int32_t *order = NULL, nh;
    int32_t *hosts = tm__malloc_n((size_t)g->n + 1, sizeof *hosts);
    int32_t *phop = tm__malloc_n((size_t)g->n_links + 1, sizeof *phop);
    uint32_t *count = calloc((size_t)g->n_links + 1, sizeof *count);
    sm_build b = {r, f, phop, count};
    tm_err err = hosts && phop && count ? tm__sm_switch_order(ctx, r, f, &order) : tm__nomem(ctx);
    if (err)
        goto out;
    for (int32_t i = 0; i < f->n_sw; i++) {
        int32_t t = order[i];
        tm__sm_leaf_hosts(r, f, t, hosts, &nh);
        if (nh)
            hops(ud, t, phop);
        for (int32_t k = 0; k < nh; k++)
            route_host(&b, t, hosts[k]);
    }
    for (int32_t s = 0; s < f->n_sw; s++)
        f->has_table[s] = true;
out:
    free(order);
    free(hosts);
    free(phop);
    free(count);
    return err;
}
