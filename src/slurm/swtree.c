/*
 * swtree.c - what the files of the switch tree share (slurm_int.h): which
 * neighbours a written switch lists, which switch a host hangs from, and
 * releasing the tree.  Levels: swtree_build.c; line order: swtree_order.c.
 */
#include <stdlib.h>
#include <string.h>

#include "slurm_int.h"

static bool is_switch(const tm_net *net, int32_t v)
{
    return tm_net_kind(net, v) == TM_VERTEX_SWITCH;
}

void tm__slurm_tree_release(tm__slurm_tree *t)
{
    free(t->level);
    free(t->depth);
    free(t->slevel);
    for (int32_t v = 0; t->vname && v < t->n; v++)
        free(t->vname[v]);
    free(t->vname);
    free(t->root_name);
    free(t->listed);
    free(t->order);
    memset(t, 0, sizeof *t);
}

bool tm__slurm_home(const tm_net *net, int32_t s, int32_t h)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    int32_t home = -1;
    if (is_switch(net, h))
        return false;
    for (int32_t j = g->off[h]; j < g->off[h + 1]; j++)
        if (is_switch(net, g->head[j]) && (home < 0 || g->head[j] < home))
            home = g->head[j];
    return home == s;
}

bool tm__slurm_is_child(const tm_net *net, const tm__slurm_tree *t, int32_t parent, int32_t v)
{
    if (!is_switch(net, v))
        return t->level[parent] == 0 && !t->vname[parent] && tm__slurm_home(net, parent, v);
    if (t->level[v] < 0)
        return false;
    if (t->level[parent] > 0)
        return t->level[v] == t->level[parent] - 1;
    return t->level[v] == 0 && t->depth[v] == t->depth[parent] + 1;
}
