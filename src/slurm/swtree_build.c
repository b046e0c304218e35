/*
 * swtree_build.c - the switch tree that Slurm's topology/tree plugin reads,
 * derived from a network's cables (the relations every file of the tree
 * shares: swtree.c; line order and the top switch: swtree_order.c; the
 * writers: conf_write.c; rules: docs/slurm.md).
 *
 * Slurm describes a fabric as switches and their children: a leaf switch
 * lists its hosts (Nodes=), an upper switch its child switches
 * (Switches=).  Slurm rejects a switch with both ("switch X has both child
 * switches and nodes") and a child relation with a cycle ("Switch
 * configuration is not a tree").  From the enabled cables:
 *   level 0  switches cabled to at least one host;
 *   level k  switches whose nearest level-0 switch is k switch hops away
 *            (BFS); they list their neighbours of level k-1.
 * Level-0 switches cabled to each other (a core switch with a few login
 * or storage hosts above leaves; a dragonfly's routers) form groups; each
 * group hangs from its most central switch (smallest eccentricity within
 * the group, then lowest id): a switch lists its group neighbours one BFS
 * step further from that root, and when it lists switches its own hosts
 * go on a virtual leaf "<switch>-hosts" below it.  Other cables between
 * switches of one level are left out: Slurm's tree has no such edges.  A
 * switch that reaches no host has no level and is not written; a host
 * cabled to no switch is not written either.  A host cabled to several
 * switches (a multi-rail node) is listed once, below the one of lowest id
 * (tm__slurm_home): the other planes of a multi-plane fabric then reach no
 * host and are not written (docs/slurm.md).
 */
#include <stdlib.h>
#include <string.h>

#include "slurm_int.h"
#include "../util/util.h"

/* Above this many switches in one group, the root is the group switch
 * with the most group cables instead of the most central one (the exact
 * centre costs a BFS per member). */
#define GROUP_EXACT_MAX 2048


static bool is_switch(const tm_net *net, int32_t v)
{
    return tm_net_kind(net, v) == TM_VERTEX_SWITCH;
}


/* Level 0 and the BFS queue start: switches with a host listed below. */
static int32_t find_leaves(const tm_net *net, const tm_net_csr *g, int32_t *level, int32_t *queue)
{
    int32_t nq = 0;
    for (int32_t v = 0; v < g->n; v++) {
        level[v] = -1;
        if (!is_switch(net, v))
            continue;
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++)
            if (tm__slurm_home(net, v, g->head[j])) {
                level[v] = 0;
                queue[nq++] = v;
                break;
            }
    }
    return nq;
}

static void count_outsiders(const tm_net *net, const tm_net_csr *g, tm__slurm_tree *t)
{
    for (int32_t v = 0; v < g->n; v++) {
        if (is_switch(net, v)) {
            if (t->level[v] < 0)
                t->unreached_switches++;
            continue;
        }
        bool on_switch = false;
        for (int32_t j = g->off[v]; j < g->off[v + 1] && !on_switch; j++)
            on_switch = is_switch(net, g->head[j]);
        if (on_switch)
            t->hosts++;
        else
            t->hosts_off_switch++;
    }
}

/* BFS from src over the level-0 switches cabled to each other; dist must
 * be -1 on the group.  Returns how many were reached (in q), and the
 * largest distance in *ecc. */
static int32_t group_bfs(const tm_net_csr *g, const tm__slurm_tree *t, int32_t src, int32_t *dist,
                         int32_t *q, int32_t *ecc)
{
    int32_t head = 0, nq = 0;
    dist[src] = 0;
    q[nq++] = src;
    *ecc = 0;
    while (head < nq) {
        int32_t v = q[head++];
        *ecc = dist[v];
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t w = g->head[j];
            if (t->level[w] == 0 && dist[w] < 0) {
                dist[w] = dist[v] + 1;
                q[nq++] = w;
            }
        }
    }
    return nq;
}

static void reset(int32_t *dist, const int32_t *q, int32_t nq)
{
    for (int32_t i = 0; i < nq; i++)
        dist[q[i]] = -1;
}

/* The root of the group of level-0 switch v: smallest eccentricity within
 * the group, then lowest id (the group switch with most group cables on a
 * huge group).  dist is -1 everywhere on entry and on return. */
static int32_t group_root(const tm_net_csr *g, const tm__slurm_tree *t, int32_t v, int32_t *dist,
                          int32_t *q, int32_t *q2)
{
    int32_t ecc, nq = group_bfs(g, t, v, dist, q, &ecc), best = -1, best_key = 0;
    reset(dist, q, nq);
    for (int32_t i = 0; i < nq; i++) {
        int32_t u = q[i], key = 0;
        if (nq <= GROUP_EXACT_MAX) {
            reset(dist, q2, group_bfs(g, t, u, dist, q2, &key));
        } else {
            for (int32_t j = g->off[u]; j < g->off[u + 1]; j++)
                key -= t->level[g->head[j]] == 0; /* more group cables first */
        }
        if (best < 0 || key < best_key || (key == best_key && u < best)) {
            best = u;
            best_key = key;
        }
    }
    return best;
}

/* Depths of the level-0 switches below the roots of their groups. */
static tm_err group_depths(tm_ctx *ctx, const tm_net_csr *g, tm__slurm_tree *t)
{
    int32_t *q = tm__malloc_n((size_t)t->n, sizeof *q);
    int32_t *q2 = tm__malloc_n((size_t)t->n, sizeof *q2);
    int32_t ecc;
    if (!q || !q2) {
        free(q);
        free(q2);
        return tm__nomem(ctx);
    }
    for (int32_t v = 0; v < t->n; v++)
        t->depth[v] = -1;
    for (int32_t v = 0; v < t->n; v++)
        if (t->level[v] == 0 && t->depth[v] < 0)
            group_bfs(g, t, group_root(g, t, v, t->depth, q, q2), t->depth, q, &ecc);
    free(q);
    free(q2);
    return TM_EOK;
}


/* The switches bottom-up (level 0 by decreasing depth, then by level;
 * by id within one key), a counting sort into sw. */
static tm_err bottom_up(tm_ctx *ctx, const tm__slurm_tree *t, int32_t *sw)
{
    int32_t dmax = 0, lmax = 0, *start;
    for (int32_t v = 0; v < t->n; v++) {
        dmax = t->depth[v] > dmax ? t->depth[v] : dmax;
        lmax = t->level[v] > lmax ? t->level[v] : lmax;
    }
    start = tm__calloc_n((size_t)dmax + (size_t)lmax + 2, sizeof *start);
    if (!start)
        return tm__nomem(ctx);
#define KEY(v) (t->level[v] == 0 ? dmax - t->depth[v] : dmax + t->level[v])
    for (int32_t v = 0; v < t->n; v++)
        if (t->level[v] >= 0)
            start[KEY(v) + 1]++;
    for (int32_t k = 0; k < dmax + lmax + 1; k++)
        start[k + 1] += start[k];
    for (int32_t v = 0; v < t->n; v++)
        if (t->level[v] >= 0)
            sw[start[KEY(v)]++] = v;
#undef KEY
    free(start);
    return TM_EOK;
}

/* "<switch>-hosts", or "vleaf-<id>" when that is taken or too long. */
static char *vleaf_name(const tm_net *net, int32_t v)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s-hosts", tm_net_name(net, v));
    if (strlen(buf) > 64 || tm_net_find(net, buf) >= 0)
        snprintf(buf, sizeof buf, "vleaf-%d", (int)v);
    return tm__strdup(buf);
}

/* Slurm's level of every written switch (a line with Nodes= is 0, an
 * upper one 1 + its highest child), and the virtual leaves. */
static tm_err slurm_levels(tm_ctx *ctx, const tm_net *net, const tm_net_csr *g, tm__slurm_tree *t,
                           int32_t *sw)
{
    tm_err err = bottom_up(ctx, t, sw);
    if (err)
        return err;
    for (int32_t i = 0; i < t->n_switches; i++) {
        int32_t v = sw[i], top = -1;
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t w = g->head[j];
            if (is_switch(net, w) && tm__slurm_is_child(net, t, v, w) && t->slevel[w] > top)
                top = t->slevel[w];
        }
        if (top >= 0 && t->level[v] == 0) {
            t->vname[v] = vleaf_name(net, v);
            if (!t->vname[v])
                return tm__nomem(ctx);
            t->virtual_leaves++;
        }
        t->slevel[v] = top + 1; /* a virtual leaf is level 0 */
        if (t->slevel[v] + 1 > t->n_levels)
            t->n_levels = t->slevel[v] + 1;
    }
    t->leaves = t->virtual_leaves;
    for (int32_t i = 0; i < t->n_switches; i++)
        t->leaves += t->slevel[sw[i]] == 0;
    return TM_EOK;
}

static tm_err alloc_tree(tm_ctx *ctx, tm__slurm_tree *t)
{
    size_t n = (size_t)t->n;
    t->level = tm__malloc_n(n, sizeof *t->level);
    t->depth = tm__malloc_n(n, sizeof *t->depth);
    t->slevel = tm__malloc_n(n, sizeof *t->slevel);
    t->vname = tm__calloc_n(n, sizeof *t->vname);
    t->order = tm__malloc_n(2 * n + 1, sizeof *t->order);
    if (!t->level || !t->depth || !t->slevel || !t->vname || !t->order)
        return tm__nomem(ctx);
    for (size_t v = 0; v < n; v++)
        t->slevel[v] = -1;
    return TM_EOK;
}

/* Bottom-up BFS levels from the switches with hosts; returns the
 * switches reached, in BFS order, in queue. */
static int32_t bfs_levels(const tm_net *net, const tm_net_csr *g, tm__slurm_tree *t, int32_t *queue)
{
    int32_t head = 0, nq = find_leaves(net, g, t->level, queue);
    while (head < nq) {
        int32_t v = queue[head++];
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t w = g->head[j];
            if (is_switch(net, w) && t->level[w] < 0) {
                t->level[w] = t->level[v] + 1;
                queue[nq++] = w;
            }
        }
    }
    return nq;
}

tm_err tm__slurm_tree_build(tm_ctx *ctx, const tm_net *net, tm__slurm_tree *t)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    int32_t *queue = NULL;
    tm_err err;

    memset(t, 0, sizeof *t);
    if (!g)
        return tm__fail(ctx, TM_EUSAGE, "Slurm topology: the network is not finalized");
    if (tm_net_n_switches(net) == 0)
        return tm__fail(ctx, TM_EINFEASIBLE,
                        "the network has no switches: Slurm's topology/tree describes switches "
                        "and the hosts below them, a switchless network (torus, mesh, "
                        "hypercube) has no such description");
    t->n = g->n;
    queue = tm__malloc_n((size_t)g->n, sizeof *queue);
    if (!queue) {
        err = tm__nomem(ctx);
        goto out;
    }
    if ((err = alloc_tree(ctx, t)))
        goto out;
    t->n_switches = bfs_levels(net, g, t, queue);
    count_outsiders(net, g, t);
    if (t->n_switches == 0) {
        err = tm__fail(ctx, TM_EINFEASIBLE, "no switch is cabled to a host: Slurm's "
                       "topology/tree needs hosts below leaf switches");
        goto out;
    }
    if ((err = group_depths(ctx, g, t)) || (err = slurm_levels(ctx, net, g, t, queue)))
        goto out;
out:
    free(queue);
    if (err)
        tm__slurm_tree_release(t);
    return err;
}
