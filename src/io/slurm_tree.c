/*
 * slurm_tree.c - the switch tree that Slurm's topology/tree plugin reads,
 * derived from a network's cables (the writers are in slurm_write.c).
 *
 * Slurm describes a fabric as switches and their children: a leaf switch
 * lists its hosts (Nodes=), an upper switch its child switches
 * (Switches=).  Slurm rejects a switch with both ("switch X has both child
 * switches and nodes") and a child relation with a cycle ("Switch
 * configuration is not a tree"), so the levels are:
 *   level 0  switches cabled to at least one host (they list those hosts);
 *   level k  switches whose nearest level-0 switch is k switch hops away
 *            (BFS over enabled switch-switch cables); they list their
 *            neighbours of level k-1.
 * Cables between switches of one level are left out: Slurm's tree has no
 * such edges.  A switch that reaches no host through switches has no
 * level and is not written; a host cabled to no switch is not written
 * either.  Only enabled cables count.
 */
#include <stdlib.h>
#include <string.h>

#include "slurm_int.h"
#include "../util/util.h"

void tm__slurm_tree_release(tm__slurm_tree *t)
{
    free(t->level);
    free(t->order);
    memset(t, 0, sizeof *t);
}

static bool is_switch(const tm_net *net, int32_t v)
{
    return tm_net_kind(net, v) == TM_VERTEX_SWITCH;
}

/* Level 0 and the BFS queue start: switches with a host neighbour. */
static int32_t find_leaves(const tm_net *net, const tm_net_csr *g, int32_t *level, int32_t *queue)
{
    int32_t nq = 0;
    for (int32_t v = 0; v < g->n; v++) {
        level[v] = -1;
        if (!is_switch(net, v))
            continue;
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++)
            if (!is_switch(net, g->head[j])) {
                level[v] = 0;
                queue[nq++] = v;
                break;
            }
    }
    return nq;
}

/* The switch order of the output: by level, then by vertex id (a stable
 * counting sort over the BFS levels). */
static tm_err sort_by_level(tm_ctx *ctx, const tm__slurm_tree *t, int32_t *order)
{
    int32_t *start = tm__calloc_n((size_t)t->n_levels + 1, sizeof *start);
    if (!start)
        return tm__nomem(ctx);
    for (int32_t v = 0; v < t->n; v++)
        if (t->level[v] >= 0)
            start[t->level[v] + 1]++;
    for (int32_t l = 0; l < t->n_levels; l++)
        start[l + 1] += start[l];
    for (int32_t v = 0; v < t->n; v++)
        if (t->level[v] >= 0)
            order[start[t->level[v]]++] = v;
    free(start);
    return TM_EOK;
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

tm_err tm__slurm_tree_build(tm_ctx *ctx, const tm_net *net, tm__slurm_tree *t)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    int32_t *queue = NULL, head = 0, nq;
    tm_err err = TM_EOK;

    memset(t, 0, sizeof *t);
    if (!g)
        return tm__fail(ctx, TM_EUSAGE, "Slurm topology: the network is not finalized");
    if (tm_net_n_switches(net) == 0)
        return tm__fail(ctx, TM_EINFEASIBLE,
                        "the network has no switches: Slurm's topology/tree describes switches "
                        "and the hosts below them, a switchless network (torus, mesh, "
                        "hypercube) has no such description");
    t->n = g->n;
    t->level = tm__malloc_n((size_t)g->n, sizeof *t->level);
    queue = tm__malloc_n((size_t)g->n, sizeof *queue);
    if (!t->level || !queue) {
        err = tm__nomem(ctx);
        goto out;
    }
    nq = find_leaves(net, g, t->level, queue);
    t->leaves = nq;
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
    t->n_switches = nq;
    t->n_levels = nq ? t->level[queue[nq - 1]] + 1 : 0;
    count_outsiders(net, g, t);
    if (nq == 0) {
        err = tm__fail(ctx, TM_EINFEASIBLE, "no switch is cabled to a host: Slurm's "
                       "topology/tree needs hosts below leaf switches");
        goto out;
    }
    t->order = queue; /* reused: BFS order is by level, not by id within a level */
    queue = NULL;
    err = sort_by_level(ctx, t, t->order);
out:
    free(queue);
    if (err)
        tm__slurm_tree_release(t);
    return err;
}

bool tm__slurm_is_child(const tm_net *net, const tm__slurm_tree *t, int32_t parent, int32_t v)
{
    if (t->level[parent] == 0)
        return !is_switch(net, v);
    return is_switch(net, v) && t->level[v] == t->level[parent] - 1;
}

/* Marks every switch below s (children, their children, ...) with stamp
 * and returns how many leaves that reaches; *budget counts visited
 * cables down to 0. */
static int32_t leaves_below(const tm_net *net, const tm_net_csr *g, const tm__slurm_tree *t,
                            int32_t s, int32_t *mark, int32_t stamp, int32_t *stack,
                            int64_t *budget)
{
    int32_t top = 0, leaves = 0;
    mark[s] = stamp;
    stack[top++] = s;
    while (top > 0) {
        int32_t v = stack[--top];
        if (t->level[v] == 0) {
            leaves++;
            continue;
        }
        *budget -= g->off[v + 1] - g->off[v];
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t w = g->head[j];
            if (mark[w] != stamp && tm__slurm_is_child(net, t, v, w)) {
                mark[w] = stamp;
                stack[top++] = w;
            }
        }
    }
    return leaves;
}

/* Slurm warns "no switch can reach all nodes through its descendants"
 * when no switch has every leaf below it (a dragonfly, whose routers all
 * carry hosts, is such a forest).  The check walks down from the highest
 * switches first and gives up (returns 1, "unknown") after about 2^26
 * cable visits on huge fabrics. */
tm_err tm__slurm_tree_has_root(tm_ctx *ctx, const tm_net *net, const tm__slurm_tree *t,
                               int *has_root)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    int32_t *mark = tm__calloc_n((size_t)t->n, sizeof *mark);
    int32_t *stack = tm__malloc_n((size_t)t->n, sizeof *stack);
    int64_t budget = INT64_C(1) << 26;
    *has_root = 1;
    if (!mark || !stack) {
        free(mark);
        free(stack);
        return tm__nomem(ctx);
    }
    *has_root = 0;
    for (int32_t i = t->n_switches - 1; i >= 0; i--) {
        if (leaves_below(net, g, t, t->order[i], mark, i + 1, stack, &budget) == t->leaves) {
            *has_root = 1;
            break;
        }
        if (budget < 0) {
            *has_root = 1; /* unknown: do not warn */
            break;
        }
    }
    free(mark);
    free(stack);
    return TM_EOK;
}
