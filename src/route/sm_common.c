/*
 * sm_common.c - helpers of the emulated OpenSM routing engines (minhop.c,
 * ftree.c): which hosts hang off a switch, in port order, and the order in
 * which OpenSM visits switches.
 */
#include <stdlib.h>

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
