/*
 * levels.c - detection of the nested host groups a network's structure
 * defines (include/topomap/levels.h, docs/hierarchy.md): the public API,
 * the dispatch between networks with and without switches, and the
 * sampled hop distances per level.
 *
 * The family rules live in levels_tree.c (switches: flat, dragonfly,
 * trees and Clos) and levels_direct.c (no switches: PERCS, grids).  They
 * only offer candidate levels bottom-up through tm__lv_push() (the level
 * store, levels_store.c), which keeps the invariants in one place.
 */
#include <stdlib.h>
#include <string.h>

#include "levels_int.h"
#include "../graph/bfs.h"

/* Hosts used as BFS sources for hops[]: a handful spread over the host
 * order catches pairs of every common level on regular networks while
 * keeping the cost at a few O(V + E) sweeps. */
#define HOP_SOURCES 4
#define HOPS_UNSET (-2.0)

void tm_net_levels_init(tm_net_levels *l)
{
    memset(l, 0, sizeof *l);
    strcpy(l->kind, "none");
    for (int i = 0; i <= TM_NET_MAX_LEVELS; i++)
        l->hops[i] = -1;
}

void tm_net_levels_release(tm_net_levels *l)
{
    if (!l)
        return;
    for (int i = 0; i < TM_NET_MAX_LEVELS; i++)
        free(l->group[i]);
    tm_net_levels_init(l);
}

/* Lowest level at which hosts a and b share a group (n_levels if none). */
static int common_level(const tm_net_levels *o, int32_t a, int32_t b)
{
    int l = 0;
    while (l < o->n_levels && o->group[l][a] != o->group[l][b])
        l++;
    return l;
}

/* Records distance d for common level l: the first sample sets it, a
 * different later one makes it -1 for good. */
static void note_hops(double *h, int l, int32_t d)
{
    if (h[l] == HOPS_UNSET)
        h[l] = d;
    else if (h[l] != d)
        h[l] = -1;
}

/* Whether every common level already had two different distances. */
static bool all_mixed(const double *h, int n_levels)
{
    for (int l = 0; l <= n_levels; l++)
        if (h[l] != -1)
            return false;
    return true;
}

static tm_err sample_hops(tm__lv *s)
{
    const tm_net_csr *g = s->g;
    tm_net_levels *o = s->out;
    int32_t *dist = tm__malloc_n((size_t)g->n, sizeof *dist);
    int32_t *queue = tm__malloc_n((size_t)g->n, sizeof *queue);
    int32_t n_src = s->n_hosts < HOP_SOURCES ? s->n_hosts : HOP_SOURCES, rank = 0, next = 0;
    double h[TM_NET_MAX_LEVELS + 1];
    tm__bfs b;

    if (!dist || !queue) {
        free(dist);
        free(queue);
        return tm__nomem(s->ctx);
    }
    tm__bfs_init(&b, g, dist, queue);
    for (int l = 0; l <= TM_NET_MAX_LEVELS; l++)
        h[l] = HOPS_UNSET;
    /* source i is the host of rank i * n_hosts / n_src in vertex order */
    for (int32_t src = 0; src < g->n && next < n_src; src++) {
        if (!g->is_host[src] || rank++ != (int32_t)((int64_t)next * s->n_hosts / n_src))
            continue;
        next++;
        if (all_mixed(h, o->n_levels))
            break; /* nothing left to learn (grids after the first sweep) */
        tm__bfs_from(&b, src);
        for (int32_t v = 0; v < g->n; v++)
            if (g->is_host[v] && v != src && dist[v] > 0)
                note_hops(h, common_level(o, src, v), dist[v]);
    }
    for (int l = 0; l <= o->n_levels; l++)
        o->hops[l] = h[l] == HOPS_UNSET ? -1 : h[l];
    free(dist);
    free(queue);
    return TM_EOK;
}

tm_err tm_net_levels_detect(tm_ctx *ctx, const tm_net *net, tm_net_levels *out)
{
    tm__lv s = {.ctx = ctx, .out = out};
    int32_t switches = 0;
    tm_err err;

    tm_net_levels_init(out);
    s.g = tm_net_csr_get(net);
    if (!s.g)
        return tm__fail(ctx, TM_EUSAGE, "hierarchy detection needs a finalized network");
    for (int32_t v = 0; v < s.g->n; v++) {
        s.n_hosts += s.g->is_host[v];
        switches += !s.g->is_host[v];
    }
    if (s.n_hosts == 0)
        return TM_EOK;
    s.below = s.n_hosts;
    s.remap = tm__malloc_n((size_t)s.g->n, sizeof *s.remap);
    if (!s.remap)
        return tm__nomem(ctx);
    for (int32_t v = 0; v < s.g->n; v++)
        s.remap[v] = -1;
    err = switches > 0 ? tm__lv_indirect(&s) : tm__lv_direct(&s);
    if (!err)
        err = sample_hops(&s);
    free(s.remap);
    if (err)
        tm_net_levels_release(out);
    return err;
}
