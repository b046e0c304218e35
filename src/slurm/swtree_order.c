/*
 * swtree_order.c - the order of the lines of a Slurm topology file, chosen
 * for the way Slurm picks the switch a job runs under.
 *
 * Slurm 22.05's select/cons_tres (`_eval_nodes_topo` in job_test.c) walks
 * the switches in file order and takes as the job's top switch the
 * *first* switch of the highest level that holds any requested node (any
 * usable node when none is requested), then refuses the job unless that
 * switch's descendants hold every requested node ("requires nodes that
 * do not have shared network", shown by sbatch as "Requested node
 * configuration is not available").  So every job can start exactly when
 * the first line of the highest level reaches every host: it is then
 * chosen for any set of nodes and holds them all.
 *
 * The lines come by Slurm level (virtual leaves with level 0), by vertex
 * id within a level, and the first top-level switch that reaches every
 * host is moved to the front of its level.  When no top-level switch
 * does (PSMN X5's only level-2 switch reaches 68 of its 89 hosts; a core
 * switch with hosts among its leaves), and the written switches are
 * connected by cables, a virtual root switch that lists every switch no
 * other line lists is written last: it is the highest and reaches every
 * host.  A fabric in parts gets no root: no switch can hold hosts of two
 * parts, and Slurm cannot start a job across them (warned by the writer).
 */
#include <stdlib.h>
#include <string.h>

#include "slurm_int.h"
#include "../util/util.h"

static bool is_switch(const tm_net *net, int32_t v)
{
    return tm_net_kind(net, v) == TM_VERTEX_SWITCH;
}

/* Lines by Slurm level, then by vertex id (a virtual leaf sorts with the
 * id of its switch). */
static tm_err sort_items(tm_ctx *ctx, tm__slurm_tree *t)
{
    int32_t *start = tm__calloc_n((size_t)t->n_levels + 1, sizeof *start);
    if (!start)
        return tm__nomem(ctx);
    for (int32_t v = 0; v < t->n; v++) {
        start[1] += t->vname[v] != NULL;
        if (t->slevel[v] >= 0)
            start[t->slevel[v] + 1]++;
    }
    for (int32_t l = 0; l < t->n_levels; l++)
        start[l + 1] += start[l];
    t->n_items = start[t->n_levels];
    for (int32_t v = 0; v < t->n; v++) {
        if (t->vname[v])
            t->order[start[0]++] = t->n + v;
        if (t->slevel[v] >= 0)
            t->order[start[t->slevel[v]]++] = v;
    }
    free(start);
    return TM_EOK;
}

/* Hosts below switch s (through its line's children and virtual leaf),
 * marking with stamp; *budget counts cable visits down to 0. */
static int32_t hosts_below(const tm_net *net, const tm_net_csr *g, const tm__slurm_tree *t,
                           int32_t s, int32_t *mark, int32_t stamp, int32_t *stack,
                           int64_t *budget)
{
    int32_t top = 0, hosts = 0;
    mark[s] = stamp;
    stack[top++] = s;
    while (top > 0) {
        int32_t v = stack[--top];
        *budget -= g->off[v + 1] - g->off[v];
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t w = g->head[j];
            bool child = tm__slurm_is_child(net, t, v, w) ||
                         (t->vname[v] && tm__slurm_home(net, v, w));
            if (!child || mark[w] == stamp)
                continue;
            mark[w] = stamp;
            if (is_switch(net, w))
                stack[top++] = w;
            else
                hosts++;
        }
    }
    return hosts;
}

/* Moves a top-level line that reaches every host to the front of its
 * level; *found = 1 (also when the search gave up on a huge fabric, after
 * about 2^26 cable visits: nothing is changed then). */
static tm_err spanning_first(tm_ctx *ctx, const tm_net *net, tm__slurm_tree *t, int *found)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    int32_t *mark = tm__calloc_n((size_t)t->n, sizeof *mark);
    int32_t *stack = tm__malloc_n((size_t)t->n, sizeof *stack), first = t->n_items;
    int64_t budget = INT64_C(1) << 26;
    *found = 0;
    if (!mark || !stack) {
        free(mark);
        free(stack);
        return tm__nomem(ctx);
    }
    while (first > 0 && t->order[first - 1] < t->n &&
           t->slevel[t->order[first - 1]] == t->n_levels - 1)
        first--;
    for (int32_t i = first; i < t->n_items && !*found; i++) {
        int32_t s = t->order[i];
        if (hosts_below(net, g, t, s, mark, i + 1, stack, &budget) == t->hosts) {
            memmove(t->order + first + 1, t->order + first, (size_t)(i - first) * sizeof *t->order);
            t->order[first] = s;
            *found = 1;
        } else if (budget < 0) {
            *found = 1; /* unknown: keep the order */
        }
    }
    free(mark);
    free(stack);
    return TM_EOK;
}

/* Whether the written switches are connected by enabled cables. */
static tm_err connected(tm_ctx *ctx, const tm_net *net, const tm__slurm_tree *t, bool *yes)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    int32_t *q = tm__malloc_n((size_t)t->n, sizeof *q), head = 0, nq = 0;
    bool *seen = tm__calloc_n((size_t)t->n, sizeof *seen);
    if (!q || !seen) {
        free(q);
        free(seen);
        return tm__nomem(ctx);
    }
    for (int32_t v = 0; v < t->n && !nq; v++)
        if (t->slevel[v] >= 0) {
            seen[v] = true;
            q[nq++] = v;
        }
    while (head < nq) {
        int32_t v = q[head++];
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t w = g->head[j];
            if (is_switch(net, w) && t->slevel[w] >= 0 && !seen[w]) {
                seen[w] = true;
                q[nq++] = w;
            }
        }
    }
    *yes = nq == t->n_switches;
    free(q);
    free(seen);
    return TM_EOK;
}

/* The virtual root: a name no vertex has, and the switches it lists
 * (those no other line lists). */
static tm_err add_root(tm_ctx *ctx, const tm_net *net, tm__slurm_tree *t)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    char name[64] = "topomap-root";
    for (int k = 2; tm_net_find(net, name) >= 0; k++)
        snprintf(name, sizeof name, "topomap-root-%d", k);
    t->root_name = tm__strdup(name);
    t->listed = tm__calloc_n((size_t)t->n, sizeof *t->listed);
    if (!t->root_name || !t->listed)
        return tm__nomem(ctx);
    for (int32_t v = 0; v < t->n; v++)
        for (int32_t j = g->off[v]; t->slevel[v] >= 0 && j < g->off[v + 1]; j++)
            if (is_switch(net, g->head[j]) && tm__slurm_is_child(net, t, v, g->head[j]))
                t->listed[g->head[j]] = true;
    t->order[t->n_items++] = 2 * t->n;
    t->n_levels++;
    return TM_EOK;
}

tm_err tm__slurm_tree_top(tm_ctx *ctx, const tm_net *net, tm__slurm_tree *t)
{
    int found = 0;
    bool conn = false;
    tm_err err = sort_items(ctx, t);
    if (!err)
        err = spanning_first(ctx, net, t, &found);
    if (err || found) {
        t->spanning = found;
        return err;
    }
    if ((err = connected(ctx, net, t, &conn)) || !conn)
        return err;
    t->spanning = true;
    return add_root(ctx, net, t);
}
