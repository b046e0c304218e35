/* mapping.c - tm_mapping life cycle, the consecutive placement and the
 * validity check shared by every strategy and reader. */
#include <stdlib.h>
#include <string.h>

#include "topomap/map.h"
#include "../util/util.h"

void tm_mapping_init(tm_mapping *m) { memset(m, 0, sizeof *m); }

void tm_mapping_release(tm_mapping *m)
{
    free(m->host);
    free(m->slot);
    free(m->pe);
    memset(m, 0, sizeof *m);
}

tm_err tm_mapping_alloc(tm_ctx *ctx, tm_mapping *m, int32_t n, bool hierarchy)
{
    tm_mapping_release(m);
    if (n < 0)
        return tm__fail(ctx, TM_EINTERNAL, "negative task count");
    m->n = n;
    if (hierarchy) {
        m->pe = tm__calloc_n((size_t)n, sizeof *m->pe);
        if (!m->pe)
            goto nomem;
    } else {
        m->host = tm__calloc_n((size_t)n, sizeof *m->host);
        m->slot = tm__calloc_n((size_t)n, sizeof *m->slot);
        if (!m->host || !m->slot)
            goto nomem;
    }
    return TM_EOK;
nomem:
    tm_mapping_release(m);
    return tm__nomem(ctx);
}

tm_err tm_mapping_copy(tm_ctx *ctx, const tm_mapping *src, tm_mapping *dst)
{
    tm_err err = tm_mapping_alloc(ctx, dst, src->n, src->pe != NULL);
    if (err)
        return err;
    if (src->pe) {
        memcpy(dst->pe, src->pe, (size_t)src->n * sizeof *src->pe);
    } else {
        memcpy(dst->host, src->host, (size_t)src->n * sizeof *src->host);
        memcpy(dst->slot, src->slot, (size_t)src->n * sizeof *src->slot);
    }
    return TM_EOK;
}

tm_err tm_mapping_consecutive(tm_ctx *ctx, const tm_alloc *alloc, int32_t n_tasks, tm_mapping *out)
{
    int64_t slots = tm_alloc_total_slots(alloc);
    int32_t t = 0;
    tm_err err;
    if (n_tasks > slots)
        return tm__fail(ctx, TM_EINFEASIBLE, "%d tasks but only %lld slots on %d hosts", n_tasks,
                        (long long)slots, alloc->n);
    err = tm_mapping_alloc(ctx, out, n_tasks, false);
    if (err)
        return err;
    for (int32_t i = 0; i < alloc->n && t < n_tasks; i++) {
        for (int32_t s = 0; s < alloc->slots[i] && t < n_tasks; s++, t++) {
            out->host[t] = alloc->host[i];
            out->slot[t] = s;
        }
    }
    return TM_EOK;
}

tm_err tm_mapping_blocks(tm_ctx *ctx, const tm_alloc *alloc, int32_t n_tasks, tm_mapping *out)
{
    int64_t s = tm_alloc_total_slots(alloc), k = 0;
    int32_t u = 0;
    tm_err err;
    if (s < 1 && n_tasks > 0)
        return tm__fail(ctx, TM_EINFEASIBLE, "%d tasks but the allocation has no slot", n_tasks);
    err = tm_mapping_alloc(ctx, out, n_tasks, false);
    if (err)
        return err;
    /* task u on slot floor(u * s / n): slot k takes the u with u * s < (k + 1) * n */
    for (int32_t i = 0; i < alloc->n; i++)
        for (int32_t sl = 0; sl < alloc->slots[i]; sl++, k++)
            for (; u < n_tasks && (int64_t)u * s < (k + 1) * (int64_t)n_tasks; u++) {
                out->host[u] = alloc->host[i];
                out->slot[u] = sl;
            }
    return TM_EOK;
}

tm_err tm_mapping_check(tm_ctx *ctx, const tm_net *net, const tm_alloc *alloc, const tm_mapping *m)
{
    int32_t nv = tm_net_n_vertices(net);
    int64_t *base = NULL, total = 0;
    int32_t *owner = NULL;
    uint8_t *in_alloc = NULL;
    bool shared;
    tm_err err = TM_EOK;

    if (!m->host || !m->slot)
        return tm__fail(ctx, TM_EINTERNAL, "mapping has no host/slot arrays");
    shared = m->n > (alloc ? tm_alloc_total_slots(alloc) : tm_net_total_slots(net));
    base = tm__malloc_n((size_t)nv + 1, sizeof *base);
    if (!base)
        return tm__nomem(ctx);
    for (int32_t v = 0; v < nv; v++) {
        base[v] = total;
        total += tm_net_slots(net, v);
    }
    base[nv] = total;
    owner = tm__malloc_n((size_t)total, sizeof *owner);
    if (!owner) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int64_t i = 0; i < total; i++)
        owner[i] = -1;
    if (alloc) {
        in_alloc = tm__calloc_n((size_t)nv, 1);
        if (!in_alloc) {
            err = tm__nomem(ctx);
            goto out;
        }
        for (int32_t i = 0; i < alloc->n; i++)
            in_alloc[alloc->host[i]] = 1;
    }
    for (int32_t t = 0; t < m->n; t++) {
        int32_t h = m->host[t], s = m->slot[t];
        if (h < 0 || h >= nv || tm_net_kind(net, h) != TM_VERTEX_HOST) {
            err = tm__fail(ctx, TM_EINPUT, "task %d is not mapped to a host", t);
            goto out;
        }
        if (in_alloc && !in_alloc[h]) {
            err = tm__fail(ctx, TM_EINPUT, "task %d is on host '%s', which is not in the allocation",
                           t, tm_net_name(net, h));
            goto out;
        }
        if (s < 0 || s >= tm_net_slots(net, h)) {
            err = tm__fail(ctx, TM_EINPUT, "task %d: slot %d does not exist on host '%s' (%d slots)",
                           t, s, tm_net_name(net, h), tm_net_slots(net, h));
            goto out;
        }
        if (owner[base[h] + s] >= 0 && !shared) {
            err = tm__fail(ctx, TM_EINPUT, "tasks %d and %d share slot %d of host '%s'",
                           owner[base[h] + s], t, s, tm_net_name(net, h));
            goto out;
        }
        owner[base[h] + s] = t;
    }
out:
    free(base);
    free(owner);
    free(in_alloc);
    return err;
}
