/*
 * levels_tree.c - hierarchy of networks with switches (docs/hierarchy.md).
 *
 * Every host must have a switch neighbour (otherwise kind "none"); its
 * leaf is the lowest-id switch it is cabled to.  Why the lowest id: a host
 * on two switches (dual-rail, or an HCA per rail) has to sit in exactly one
 * bottom group for the levels to nest, and the lowest id is the choice that
 * does not depend on cable order.  Host-host cables are ignored.
 *
 *  - flat: all hosts share one leaf (0 levels: the leaf level would be the
 *    implicit all-hosts top).
 *  - dragonfly: every switch carries hosts and the switch graph splits
 *    into at least 2 equal cliques of >= 3 routers: levels "router" and
 *    "group".
 *  - fat-tree (trees, k-ary n-trees, Clos, real fabrics): switch tier =
 *    BFS distance from the hosts (leaf = 1).  Level 1 groups the hosts by
 *    leaf; level L >= 2 groups the leaves that are connected through
 *    up-links (cables between tiers t and t+1) among tiers <= L.  In a
 *    regular fat-tree this is exactly "leaves with the same up-set form a
 *    pod, pods whose upper switches have the same up-set form the next
 *    level": up-sets there are identical or disjoint.  On irregular real
 *    wiring, where up-sets overlap without being equal, identical-up-set
 *    classes would not nest into anything sensible above (their upper
 *    switches are shared), so overlapping classes are merged: a pod is a
 *    connected component.  Cables within a tier (e.g. spine-spine) are
 *    ignored.
 */
#include <stdlib.h>
#include <string.h>

#include "levels_int.h"

/* Dragonfly groups need >= 3 routers: with 2, a group's local cable looks
 * like any global one and the split would be a guess. */
#define DFLY_MIN_ROUTERS 3

typedef struct tree {
    int32_t *leaf;   /* per host: its leaf switch; -1 for switches */
    int32_t *dist;   /* per vertex: 0 hosts, tier of switches, -1 unreached */
    int32_t *order;  /* reached switches by nondecreasing tier */
    int32_t n_order;
    int32_t *parent; /* union-find over switches */
    int32_t *key;    /* per vertex: group key handed to tm__lv_push */
} tree;

/* leaf[h] = lowest-id switch neighbour of host h; false if some host has
 * none.  *n_leaves gets the number of distinct leaves. */
static bool find_leaves(const tm_net_csr *g, tree *t, int32_t *n_leaves)
{
    int32_t n = 0;
    for (int32_t v = 0; v < g->n; v++)
        t->key[v] = 0; /* used as "is a leaf of some host" mark */
    for (int32_t v = 0; v < g->n; v++) {
        t->leaf[v] = -1;
        if (!g->is_host[v])
            continue;
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++)
            if (!g->is_host[g->head[j]] && (t->leaf[v] < 0 || g->head[j] < t->leaf[v]))
                t->leaf[v] = g->head[j];
        if (t->leaf[v] < 0)
            return false;
        if (!t->key[t->leaf[v]]++)
            n++;
    }
    *n_leaves = n;
    return true;
}

/* Multi-source BFS from every host across switches only: dist[] of
 * switches is their tier, order[] lists them tier by tier. */
static void find_tiers(const tm_net_csr *g, tree *t)
{
    int32_t qh = 0;
    t->n_order = 0;
    for (int32_t v = 0; v < g->n; v++)
        t->dist[v] = g->is_host[v] ? 0 : -1;
    for (int32_t v = 0; v < g->n; v++) {
        if (!g->is_host[v])
            continue;
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++)
            if (t->dist[g->head[j]] < 0) {
                t->dist[g->head[j]] = 1;
                t->order[t->n_order++] = g->head[j];
            }
    }
    while (qh < t->n_order) {
        int32_t u = t->order[qh++];
        for (int32_t j = g->off[u]; j < g->off[u + 1]; j++)
            if (t->dist[g->head[j]] < 0) {
                t->dist[g->head[j]] = t->dist[u] + 1;
                t->order[t->n_order++] = g->head[j];
            }
    }
}

static int32_t uf_find(int32_t *parent, int32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]]; /* path halving */
        x = parent[x];
    }
    return x;
}

/* Joins the sets of a and b; true if they were different. */
static bool uf_union(int32_t *parent, int32_t a, int32_t b)
{
    a = uf_find(parent, a);
    b = uf_find(parent, b);
    if (a == b)
        return false;
    if (a < b)
        parent[b] = a;
    else
        parent[a] = b;
    return true;
}

static tm_err push_by_root(tm__lv *s, tree *t, const char *name)
{
    for (int32_t v = 0; v < s->g->n; v++)
        t->key[v] = s->g->is_host[v] ? uf_find(t->parent, t->leaf[v]) : 0;
    return tm__lv_push(s, name, t->key);
}

/* Name of the next stored level above the leaves: pod, superpod, then
 * tier<t> where the leaves are tier 1. */
static void upper_name(const tm__lv *s, char *buf, size_t sz)
{
    const tm_net_levels *o = s->out;
    int upper = o->n_levels - (o->n_levels > 0 && strcmp(o->name[0], "leaf") == 0);
    if (upper == 0)
        snprintf(buf, sz, "pod");
    else if (upper == 1)
        snprintf(buf, sz, "superpod");
    else
        snprintf(buf, sz, "tier%d", upper + 2);
}

/* The tree rule: tiers joined bottom-up through up-links, a level offered
 * whenever a tier merged two clusters.  O(V + E) plus O(V) per offer. */
static tm_err tree_rule(tm__lv *s, tree *t)
{
    const tm_net_csr *g = s->g;
    char name[16];
    int32_t i = 0;
    tm_err err;

    for (int32_t v = 0; v < g->n; v++)
        t->parent[v] = v;
    if ((err = push_by_root(s, t, "leaf")))
        return err;
    while (i < t->n_order && t->dist[t->order[i]] == 1)
        i++;
    while (i < t->n_order && !s->top) {
        int32_t tier = t->dist[t->order[i]];
        bool merged = false;
        for (; i < t->n_order && t->dist[t->order[i]] == tier; i++) {
            int32_t u = t->order[i];
            bool first = true; /* joining u's first cluster merges nothing */
            for (int32_t j = g->off[u]; j < g->off[u + 1]; j++) {
                if (t->dist[g->head[j]] != tier - 1 || g->is_host[g->head[j]])
                    continue;
                if (uf_union(t->parent, u, g->head[j]) && !first)
                    merged = true;
                first = false;
            }
        }
        if (!merged)
            continue;
        upper_name(s, name, sizeof name);
        if ((err = push_by_root(s, t, name)))
            return err;
    }
    return TM_EOK;
}

/* Dragonfly if every switch carries hosts and the switches split into
 * >= 2 equal cliques; *done tells whether it applied. */
static tm_err try_dragonfly(tm__lv *s, tree *t, bool *done)
{
    const tm_net_csr *g = s->g;
    uint8_t *in = tm__malloc_n((size_t)g->n, 1);
    int32_t n_cl = 0, size = 0;
    bool ok;
    tm_err err;

    *done = false;
    if (!in)
        return tm__nomem(s->ctx);
    for (int32_t v = 0; v < g->n; v++)
        in[v] = !g->is_host[v];
    err = tm__lv_cliques(s, in, DFLY_MIN_ROUTERS, t->parent, &n_cl, &size, &ok);
    free(in);
    if (err || !ok || n_cl < 2)
        return err;
    *done = true;
    tm__lv_kind(s, "dragonfly");
    if ((err = tm__lv_push(s, "router", t->leaf)))
        return err;
    for (int32_t v = 0; v < g->n; v++)
        t->key[v] = g->is_host[v] ? t->parent[t->leaf[v]] : 0;
    return tm__lv_push(s, "group", t->key);
}

tm_err tm__lv_indirect(tm__lv *s)
{
    const tm_net_csr *g = s->g;
    size_t n = (size_t)g->n;
    tree t = {0};
    int32_t n_leaves;
    bool all_leaves, done;
    tm_err err = TM_EOK;

    t.leaf = tm__malloc_n(n, sizeof *t.leaf);
    t.dist = tm__malloc_n(n, sizeof *t.dist);
    t.order = tm__malloc_n(n, sizeof *t.order);
    t.parent = tm__malloc_n(n, sizeof *t.parent);
    t.key = tm__malloc_n(n, sizeof *t.key);
    if (!t.leaf || !t.dist || !t.order || !t.parent || !t.key) {
        err = tm__nomem(s->ctx);
        goto out;
    }
    if (!find_leaves(g, &t, &n_leaves))
        goto out; /* a host without a switch: "none" */
    if (n_leaves == 1) {
        tm__lv_kind(s, "flat");
        goto out;
    }
    find_tiers(g, &t);
    all_leaves = true;
    for (int32_t v = 0; v < g->n; v++)
        if (!g->is_host[v] && t.dist[v] != 1)
            all_leaves = false;
    if (all_leaves && ((err = try_dragonfly(s, &t, &done)) || done))
        goto out;
    tm__lv_kind(s, "fat-tree");
    err = tree_rule(s, &t);
out:
    free(t.leaf);
    free(t.dist);
    free(t.order);
    free(t.parent);
    free(t.key);
    return err;
}
