/* mapping_hosts.c - tm_alloc_of_mapping: the allocation a network-mode
 * mapping uses, the baseline of `eval --mapping` without --alloc. */
#include <stdlib.h>
#include <string.h>

#include "topomap/map.h"
#include "../alloc/alloc_int.h"
#include "../util/util.h"

typedef struct used_host {
    const char *name;
    int32_t host, tasks;
} used_host;

static int by_name(const void *pa, const void *pb)
{
    const used_host *a = pa, *b = pb;
    return tm__host_name_cmp(a->name, b->name);
}

tm_err tm_alloc_of_mapping(tm_ctx *ctx, const tm_net *net, const tm_mapping *m, tm_alloc *out)
{
    int32_t nv = tm_net_n_vertices(net), n = 0;
    int32_t *tasks = NULL;
    used_host *used = NULL;
    tm_err err = TM_EOK;
    tm_alloc_release(out);
    if (!m->host)
        return tm__fail(ctx, TM_EUSAGE, "the allocation of a mapping needs a network-mode mapping");
    tasks = tm__calloc_n((size_t)nv, sizeof *tasks);
    if (!tasks)
        return tm__nomem(ctx);
    for (int32_t t = 0; t < m->n; t++) {
        if (m->host[t] < 0 || m->host[t] >= nv) {
            err = tm__fail(ctx, TM_EINPUT, "task %d is on vertex %d, not a vertex of the network", t,
                           m->host[t]);
            goto out;
        }
        n += tasks[m->host[t]]++ == 0;
    }
    used = tm__malloc_n(n ? (size_t)n : 1, sizeof *used);
    out->host = tm__malloc_n(n ? (size_t)n : 1, sizeof *out->host);
    out->slots = tm__malloc_n(n ? (size_t)n : 1, sizeof *out->slots);
    if (!used || !out->host || !out->slots) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t v = 0, k = 0; v < nv; v++)
        if (tasks[v])
            used[k++] = (used_host){tm_net_name(net, v), v, tasks[v]};
    /* name order, as Slurm lists a job's nodes: the order a batch system
     * would have placed the job in, not the order of the mapping's lines */
    qsort(used, (size_t)n, sizeof *used, by_name);
    for (int32_t k = 0; k < n; k++) {
        int32_t slots = tm_net_slots(net, used[k].host);
        out->host[k] = used[k].host;
        /* an oversubscribed mapping (more tasks than the host's slots) gets
         * the host's slots: its consecutive placement then does not fit */
        out->slots[k] = used[k].tasks < slots ? used[k].tasks : slots;
    }
    out->n = n;
out:
    if (err)
        tm_alloc_release(out);
    free(used);
    free(tasks);
    return err;
}
