/*
 * state_hosts.c - the free nodes of a cluster's state that are hosts of a
 * fabric (tm_slurm_free_hosts): the nodes `alloc --slurm` chooses from.
 */
#include <stdlib.h>
#include <string.h>

#include "slurm_int.h"
#include "topomap/alloc.h"
#include "../util/util.h"

tm_err tm_slurm_free_hosts(tm_ctx *ctx, const tm_net *net, const tm_slurm_state *st,
                           const char *partition, int32_t **hosts, int32_t *n)
{
    int32_t k = 0;
    uint8_t *mark = tm__calloc_n((size_t)tm_net_n_vertices(net) + 1, 1);
    *n = 0;
    *hosts = tm__malloc_n((size_t)st->n_nodes + 1, sizeof **hosts);
    if (!*hosts || !mark) {
        free(mark);
        free(*hosts);
        *hosts = NULL;
        return tm__nomem(ctx);
    }
    for (int32_t i = 0; i < st->n_nodes; i++) {
        const tm_slurm_node *nd = &st->node[i];
        int32_t v = nd->free ? tm_alloc_resolve_host(net, nd->name) : -1;
        bool in_part = !partition;
        for (const char *p = nd->partitions; !in_part && p && *p;) {
            size_t len = strcspn(p, ",");
            in_part = len == strlen(partition) && strncmp(p, partition, len) == 0;
            p += len + (p[len] == ',');
        }
        if (v < 0 || !in_part || tm_net_kind(net, v) != TM_VERTEX_HOST)
            continue;
        if (!mark[v])
            (*hosts)[k++] = v;
        mark[v] = 1;
    }
    *n = k;
    free(mark);
    return TM_EOK;
}
