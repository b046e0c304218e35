/*
 * levels.c - detection of the nested host groups a network's structure
 * defines (include/topomap/levels.h, docs/hierarchy.md): the public API,
 * the dispatch between networks with and without switches, the level
 * store that enforces nesting and drops redundant levels, and the sampled
 * hop distances per level.
 *
 * The family rules live in levels_tree.c (switches: flat, dragonfly,
 * trees and Clos) and levels_direct.c (no switches: PERCS, grids).  They
 * only offer candidate levels bottom-up through tm__lv_push(), which keeps
 * the invariants in one place.
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

void tm__lv_kind(tm__lv *s, const char *kind)
{
    snprintf(s->out->kind, sizeof s->out->kind, "%s", kind);
}

/* Checks that level grp (k groups) nests in the last stored level. */
static tm_err check_nested(tm__lv *s, const int32_t *grp)
{
    const tm_net_levels *o = s->out;
    const int32_t *prev = o->group[o->n_levels - 1];
    int32_t *up = tm__malloc_n((size_t)s->below, sizeof *up);
    tm_err err = TM_EOK;
    if (!up)
        return tm__nomem(s->ctx);
    for (int32_t i = 0; i < s->below; i++)
        up[i] = -1;
    for (int32_t v = 0; v < s->g->n && !err; v++) {
        if (!s->g->is_host[v])
            continue;
        if (up[prev[v]] < 0)
            up[prev[v]] = grp[v];
        else if (up[prev[v]] != grp[v])
            err = tm__fail(s->ctx, TM_EINTERNAL,
                           "hierarchy detection: level '%s' does not nest in level '%s'",
                           o->name[o->n_levels], o->name[o->n_levels - 1]);
    }
    free(up);
    return err;
}

tm_err tm__lv_push(tm__lv *s, const char *name, const int32_t *key)
{
    const tm_net_csr *g = s->g;
    tm_net_levels *o = s->out;
    int32_t k = 0, *grp;
    tm_err err;

    if (s->top)
        return TM_EOK;
    grp = tm__malloc_n((size_t)g->n, sizeof *grp);
    if (!grp)
        return tm__nomem(s->ctx);
    for (int32_t v = 0; v < g->n; v++) {
        grp[v] = -1;
        if (!g->is_host[v])
            continue;
        if (s->remap[key[v]] < 0)
            s->remap[key[v]] = k++;
        grp[v] = s->remap[key[v]];
    }
    for (int32_t v = 0; v < g->n; v++)
        if (g->is_host[v])
            s->remap[key[v]] = -1;
    /* nested and not coarser: the same partition as below, nothing to add */
    if (k == 1 || k == s->below) {
        s->top = k == 1;
        free(grp);
        return TM_EOK;
    }
    snprintf(o->name[o->n_levels], sizeof o->name[0], "%s", name);
    if (o->n_levels > 0 && (err = check_nested(s, grp))) {
        free(grp);
        return err;
    }
    o->group[o->n_levels] = grp;
    o->n_groups[o->n_levels] = k;
    o->n_levels++;
    s->below = k;
    s->top = o->n_levels == TM_NET_MAX_LEVELS;
    return TM_EOK;
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
