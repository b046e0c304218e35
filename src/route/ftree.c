/*
 * ftree.c - `--routing ftree`: the forwarding tables of OpenSM's fat-tree
 * engine (osm_ucast_ftree.c, linux-rdma/opensm @ fa74b98c) with its
 * default options (no reverse hops, every host a compute node), followed
 * like real ones (fwd.c).  docs/routing.md lists what is reproduced.
 *
 * Switches are ranked by their distance from the leaves (switches with
 * hosts); links between ranks form port groups (all parallel cables to
 * one neighbour switch).  For each destination host, leaf by leaf in
 * index order and host by host in port order, routes are assigned by
 * OpenSM's two recursions:
 *  - going up from the destination's leaf (downgoing_by_going_up): the up
 *    group with the fewest routes already coming down it (ties: lowest
 *    neighbour index), its least loaded port; the upper switch forwards
 *    the LID down that cable; the counters are promoted; the other up
 *    groups get secondary routes without counters;
 *  - going down from every switch reached (upgoing_by_going_down): each
 *    lower switch not yet routed forwards the LID up the least loaded
 *    (routes going up) cable of its group.
 * The "least loaded up group" rule spreads consecutive destinations of a
 * leaf over its uplinks, which is D-mod-k on k-ary n-trees.  Leaves with
 * fewer hosts than the largest leaf route dummy destinations, as OpenSM
 * does, so that the counters stay aligned between leaves.
 */
#include <stdlib.h>
#include <string.h>

#include "route_int.h"
#include "../util/util.h"

typedef struct ft_group {
    int32_t remote;       /* neighbour switch vertex */
    int32_t first, n;     /* its cables: links ft->glink[first .. first+n) out of this switch */
    uint32_t counter_up, counter_down;
} ft_group;

typedef struct ft {
    const tm_route *r;
    tm__fwd *f;
    int32_t *level;       /* per vertex: switch distance from the leaves, -1 */
    ft_group *groups;     /* per switch: up groups then down groups */
    int32_t *gfirst, *nup, *ndown; /* per switch index */
    int32_t *glink;       /* links of all groups */
    uint32_t *cup, *cdown;/* per directed link: port counters */
    int32_t *hops;        /* per switch index: hops to the current target, 0 = none */
    uint32_t lid;         /* current target; 0 = dummy (no table entry) */
} ft;

#define SW(v) (t->f->sw_of[v])

/* Least loaded cable of a group by the given counter, first on ties. */
static int32_t min_port(const ft *t, const ft_group *g, const uint32_t *c)
{
    int32_t best = t->glink[g->first];
    for (int32_t i = 1; i < g->n; i++)
        if (c[t->glink[g->first + i]] < c[best])
            best = t->glink[g->first + i];
    return best;
}

/* The remote switch forwards the target down/up the reverse of link l. */
static void set_route(ft *t, int32_t l, int32_t cur)
{
    int32_t rem = t->r->g->head_of[l];
    if (t->lid)
        tm__fwd_set(t->f, SW(rem), t->lid, l ^ 1);
    t->hops[SW(rem)] = cur + 1;
}

static int cmp_up(const ft_group *a, const ft_group *b)
{
    if (a->counter_up != b->counter_up)
        return a->counter_up < b->counter_up ? -1 : 1;
    return (a->remote > b->remote) - (a->remote < b->remote);
}

static int cmp_down(const ft_group *a, const ft_group *b)
{
    if (a->counter_down != b->counter_down)
        return a->counter_down < b->counter_down ? -1 : 1;
    return (a->remote > b->remote) - (a->remote < b->remote);
}

/* OpenSM's bubble sorts: stable, by load then neighbour index. */
static void sort_groups(ft_group *g, int32_t n, int (*cmp)(const ft_group *, const ft_group *))
{
    for (int32_t i = 1; i < n; i++)
        for (int32_t j = i; j > 0 && cmp(&g[j], &g[j - 1]) < 0; j--) {
            ft_group x = g[j];
            g[j] = g[j - 1];
            g[j - 1] = x;
        }
}

static bool up_by_down(ft *t, int32_t v, int32_t prev, int32_t cur)
{
    int32_t s = SW(v);
    ft_group *dg = &t->groups[t->gfirst[s] + t->nup[s]];
    bool created = false;
    if (t->level[v] == 0)
        return true; /* a leaf: its down groups are hosts */
    sort_groups(dg, t->ndown[s], cmp_up);
    for (int32_t k = 0; k < t->ndown[s]; k++) {
        ft_group *g = &dg[k];
        int32_t l, h = t->hops[SW(g->remote)];
        if (g->remote == prev || (h && cur + 1 >= h))
            continue;
        l = min_port(t, g, t->cup);
        set_route(t, l, cur);
        if (up_by_down(t, g->remote, -1, cur + 1)) {
            created = true;
            t->cup[l]++;
            g->counter_up++;
        }
    }
    return created;
}

static bool down_by_up(ft *t, int32_t v, int32_t prev, bool main_path, int32_t cur)
{
    int32_t s = SW(v);
    ft_group *ug = &t->groups[t->gfirst[s]];
    bool created = up_by_down(t, v, prev, cur);
    (void)prev;
    if (!t->nup[s])
        return created; /* a root */
    sort_groups(ug, t->nup[s], cmp_down);
    if (main_path) {
        int32_t l = min_port(t, &ug[0], t->cdown), h = t->hops[SW(ug[0].remote)];
        ug[0].counter_down++;
        t->cdown[l]++;
        if (!h || cur + 1 < h)
            set_route(t, l, cur);
        created |= down_by_up(t, ug[0].remote, v, true, cur + 1);
    }
    for (int32_t i = main_path ? 1 : 0; i < t->nup[s]; i++) {
        int32_t h = t->hops[SW(ug[i].remote)];
        if (h && cur + 1 >= h)
            continue;
        set_route(t, min_port(t, &ug[i], t->cdown), cur);
        created |= down_by_up(t, ug[i].remote, v, false, cur + 1);
    }
    return created;
}

/* fabric_route_to_cns for one (real or dummy) destination of leaf v. */
static void route_target(ft *t, int32_t v, int32_t link, uint32_t lid)
{
    memset(t->hops, 0, (size_t)t->f->n_sw * sizeof *t->hops);
    t->lid = lid;
    if (lid)
        tm__fwd_set(t->f, SW(v), lid, link);
    t->hops[SW(v)] = 1;
    down_by_up(t, v, -1, true, 1);
}

static tm_err route_all(tm_ctx *ctx, ft *t)
{
    const tm_net_csr *g = t->r->g;
    int32_t *hosts = tm__malloc_n((size_t)g->n + 1, sizeof *hosts), nh, max_nh = 0;
    if (!hosts)
        return tm__nomem(ctx);
    for (int32_t s = 0; s < t->f->n_sw; s++) {
        tm__sm_leaf_hosts(t->r, t->f, t->f->vertex_of[s], hosts, &nh);
        max_nh = nh > max_nh ? nh : max_nh;
    }
    for (int32_t s = 0; s < t->f->n_sw; s++) {
        int32_t v = t->f->vertex_of[s];
        if (t->level[v] != 0)
            continue;
        tm__sm_leaf_hosts(t->r, t->f, v, hosts, &nh);
        for (int32_t k = 0; k < nh; k++)
            route_target(t, v, hosts[k], t->f->dlid[g->head_of[hosts[k]]]);
        for (int32_t k = nh; k < max_nh; k++)
            route_target(t, v, -1, 0);
    }
    free(hosts);
    return TM_EOK;
}

/* ---- ranks and port groups ------------------------------------------------ */

/* level: BFS distance over switches from the switches that have hosts. */
static void rank_switches(ft *t, int32_t *queue)
{
    const tm_net_csr *g = t->r->g;
    int32_t head = 0, tail = 0;
    for (int32_t v = 0; v < g->n; v++) {
        bool leaf = false;
        for (int32_t j = g->off[v]; j < g->off[v + 1] && SW(v) >= 0; j++)
            leaf |= g->is_host[g->head[j]];
        t->level[v] = leaf ? 0 : -1;
        if (leaf)
            queue[tail++] = v;
    }
    while (head < tail) {
        int32_t v = queue[head++];
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t u = g->head[j];
            if (SW(u) >= 0 && t->level[u] < 0) {
                t->level[u] = t->level[v] + 1;
                queue[tail++] = u;
            }
        }
    }
}

typedef struct rl {
    int32_t remote, link, up;
} rl;

static int cmp_rl(const void *a, const void *b)
{
    const rl *x = a, *y = b;
    if (x->up != y->up)
        return y->up - x->up; /* up groups first */
    if (x->remote != y->remote)
        return x->remote < y->remote ? -1 : 1;
    return (x->link > y->link) - (x->link < y->link); /* stable stand-in: filled in port order */
}

/* The groups of switch s from its cables to switches one level up/down. */
static void build_groups(ft *t, int32_t s, rl *tmp, int32_t *ng, int32_t *nl)
{
    const tm_net_csr *g = t->r->g;
    int32_t v = t->f->vertex_of[s], n = 0;
    for (int32_t p = 1; p < 256; p++) {
        int32_t l = t->f->port_link[(size_t)s * 256 + (size_t)p], u;
        if (l < 0 || SW(u = g->head_of[l]) < 0 || t->level[u] == t->level[v])
            continue;
        tmp[n].remote = u;
        tmp[n].link = n; /* port order */
        tmp[n].up = t->level[u] > t->level[v];
        t->glink[*nl + n] = l;
        n++;
    }
    qsort(tmp, (size_t)n, sizeof *tmp, cmp_rl);
    t->gfirst[s] = *ng;
    t->nup[s] = t->ndown[s] = 0;
    for (int32_t i = 0, l0 = *nl; i < n; i++) {
        int32_t link = t->glink[l0 + tmp[i].link];
        if (i == 0 || tmp[i].remote != tmp[i - 1].remote) {
            ft_group *gr = &t->groups[(*ng)++];
            memset(gr, 0, sizeof *gr);
            gr->remote = tmp[i].remote;
            gr->first = *nl;
            *(tmp[i].up ? &t->nup[s] : &t->ndown[s]) += 1;
        }
        tmp[i].link = link;
        t->groups[*ng - 1].n++;
        (*nl)++;
    }
    for (int32_t i = 0; i < n; i++) /* the links in group order */
        t->glink[*nl - n + i] = tmp[i].link;
}

/* OpenSM refuses what is not a fat-tree (then falls back to minhop):
 * every switch must be ranked and all roots at one level. */
static tm_err check_tree(tm_ctx *ctx, ft *t)
{
    int32_t root_level = -1;
    for (int32_t s = 0; s < t->f->n_sw; s++) {
        int32_t v = t->f->vertex_of[s];
        if (t->level[v] < 0)
            return tm__fail(ctx, TM_EINPUT, "ftree routing: switch '%s' is not connected to a "
                            "switch with hosts (not a fat-tree; use minhop)",
                            tm_net_name(t->r->net, v));
        if (t->nup[s] == 0 && root_level >= 0 && t->level[v] != root_level)
            return tm__fail(ctx, TM_EINPUT, "ftree routing: top switches at levels %d and %d "
                            "('%s'): not a fat-tree (use minhop)", (int)root_level,
                            (int)t->level[v], tm_net_name(t->r->net, v));
        if (t->nup[s] == 0)
            root_level = t->level[v];
    }
    return TM_EOK;
}

static tm_err ftree_alloc(tm_ctx *ctx, ft *t)
{
    size_t n = (size_t)t->r->g->n, ns = (size_t)t->f->n_sw + 1, nl = (size_t)t->r->g->n_links + 1;
    t->level = tm__malloc_n(n, sizeof *t->level);
    t->groups = tm__malloc_n(nl, sizeof *t->groups);
    t->gfirst = tm__malloc_n(ns, sizeof *t->gfirst);
    t->nup = tm__malloc_n(ns, sizeof *t->nup);
    t->ndown = tm__malloc_n(ns, sizeof *t->ndown);
    t->glink = tm__malloc_n(nl, sizeof *t->glink);
    t->cup = calloc(nl, sizeof *t->cup);
    t->cdown = calloc(nl, sizeof *t->cdown);
    t->hops = tm__malloc_n(ns, sizeof *t->hops);
    return t->level && t->groups && t->gfirst && t->nup && t->ndown && t->glink && t->cup &&
                   t->cdown && t->hops
               ? TM_EOK
               : tm__nomem(ctx);
}

static void ftree_release(ft *t)
{
    free(t->level);
    free(t->groups);
    free(t->gfirst);
    free(t->nup);
    free(t->ndown);
    free(t->glink);
    free(t->cup);
    free(t->cdown);
    free(t->hops);
}

static tm_err ftree_tables(tm_ctx *ctx, ft *t)
{
    int32_t ng = 0, nl = 0;
    rl *tmp = tm__malloc_n(256, sizeof *tmp);
    int32_t *queue = tm__malloc_n((size_t)t->r->g->n + 1, sizeof *queue);
    tm_err err = tmp && queue ? TM_EOK : tm__nomem(ctx);
    if (!err) {
        rank_switches(t, queue);
        for (int32_t s = 0; s < t->f->n_sw; s++)
            build_groups(t, s, tmp, &ng, &nl);
        err = check_tree(ctx, t);
    }
    if (!err)
        err = route_all(ctx, t);
    free(tmp);
    free(queue);
    return err;
}

static tm_err ftree_init(tm_ctx *ctx, tm_route *r)
{
    ft t;
    tm_err err;
    memset(&t, 0, sizeof t);
    t.r = r;
    err = tm__fwd_new_computed(ctx, r, &t.f);
    if (err)
        return err;
    err = ftree_alloc(ctx, &t);
    if (!err)
        err = ftree_tables(ctx, &t);
    for (int32_t s = 0; s < t.f->n_sw; s++)
        t.f->has_table[s] = true;
    ftree_release(&t);
    if (err)
        tm__fwd_free(t.f);
    else
        r->priv = t.f;
    return err;
}

const tm__route_ops tm__route_ftree_ops = TM__FWD_OPS("ftree", ftree_init);
