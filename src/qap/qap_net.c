/* qap_net.c - the QAP engine on a network: the PE space of a network-mode
 * problem (the slots of the allocated hosts) and its distance, so that the
 * J local searches (nc, np, n2, ils) and the multisection run on real
 * fabrics with exactly the J that tm_metrics_eval reports (docs/qap.md,
 * "Network mode"):
 *
 *     D(p, q) = d_node(slot p, slot q)              on one host
 *             = d_top + c_hop * hops(host p, host q) otherwise
 *
 * hops come from the hop-distance oracle of src/net/netdist.c (exact
 * shortest transit paths, the hop count every shortest-path router
 * reports), built once per problem and shared read-only. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "topomap/metrics.h"
#include "qap_int.h"

void tm__qdist_init_net(tm__qdist *o, const tm__qnet *q)
{
    memset(o, 0, sizeof *o);
    o->net = q;
    o->h = q->node;
    o->n_pe = q->n_pe;
    o->group1 = 1;
    o->d_min = q->d_min;
    o->gc = q->pe_gc;
    memcpy(o->gc_ring, q->gc_ring, sizeof o->gc_ring);
    o->d_top = q->d_top;
    o->c_hop = q->c_hop;
    o->gc_hops = q->d_top == 0.0 && q->c_hop == 1.0;
}

void tm__qnet_release(tm__qnet *q)
{
    free(q->pe_host);
    free(q->pe_slot);
    free(q->host_pe0);
    free(q->aidx);
    free(q->pe_gc);
    tm_netdist_free(q->own_hd);
    memset(q, 0, sizeof *q);
}

static tm_err check_node_levels(tm_ctx *ctx, const tm_problem *p)
{
    const tm_alloc *al = p->alloc;
    if (!p->hier)
        return TM_EOK;
    for (int32_t i = 0; i < al->n; i++)
        if (al->slots[i] > p->hier->n_pe)
            return tm__fail(ctx, TM_EINPUT,
                            "host '%s' has %d slots, but the node hierarchy has %lld PEs",
                            tm_net_name(p->net, al->host[i]), al->slots[i],
                            (long long)p->hier->n_pe);
    return TM_EOK;
}

/* tm__qnet.d_min: two slots of one host are at least the least node
 * level distance apart (0 without node levels); two hosts at least one
 * hop, two when no allocated host has a cable to another (hosts hang off
 * switches). */
static double least_distance(const tm_net *net, const tm_alloc *al, const tm__qnet *q)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    double m = INFINITY;
    int32_t hops = 2, hosts = 0;
    for (int32_t i = 0; i < al->n; i++) {
        int32_t v = al->host[i];
        if (al->slots[i] <= 0)
            continue;
        hosts++;
        if (al->slots[i] >= 2) {
            double d = q->node ? tm__hier_dmin(q->node) : 0.0;
            m = d < m ? d : m;
        }
        for (int32_t j = g->off[v]; j < g->off[v + 1] && hops > 1; j++)
            if (g->head[j] != v && q->aidx[g->head[j]] >= 0)
                hops = 1;
    }
    if (hosts >= 2) { /* c_hop > 0 (tm__qnet_build) */
        double d = q->d_top + q->c_hop * hops;
        m = d < m ? d : m;
    }
    return m;
}

/* Whether a path through an allocated host is never shorter than the
 * paths the oracle counts (tm__qnet.hops_metric). */
static bool hops_metric(const tm_net *net, const tm_alloc *al)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    for (int32_t i = 0; i < al->n; i++) {
        int32_t v = al->host[i];
        if (g->transit[v])
            continue;
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++)
            if (g->head[j] != g->head[g->off[v]])
                return false;
    }
    return true;
}

/* tm__qnet.pe_gc from the oracle's host coordinates, when it has them
 * (a healthy grid) and they fit. */
static tm_err grid_coords(tm_ctx *ctx, tm__qnet *q)
{
    const tm_netdist *d = q->hd;
    if (!d->coord || d->ndims > TM__QGRID_DIMS)
        return TM_EOK;
    for (int k = 0; k < d->ndims; k++)
        if (d->dims[k] > INT16_MAX)
            return TM_EOK;
    q->pe_gc = tm__calloc_n((size_t)(q->n_pe ? q->n_pe : 1) * TM__QGRID_DIMS, sizeof *q->pe_gc);
    if (!q->pe_gc)
        return tm__nomem(ctx);
    for (int k = 0; k < TM__QGRID_DIMS; k++) /* a line: alt = ring - dx never wins */
        q->gc_ring[k] = k < d->ndims && d->wrap[k] ? d->dims[k] : 4 * INT16_MAX;
    for (int64_t pe = 0; pe < q->n_pe; pe++)
        for (int k = 0; k < d->ndims; k++)
            q->pe_gc[pe * TM__QGRID_DIMS + k] =
                (int16_t)d->coord[(size_t)q->pe_host[pe] * (size_t)d->ndims + (size_t)k];
    return TM_EOK;
}

tm_err tm__qnet_build(tm_ctx *ctx, const tm_problem *p, tm__qnet *q)
{
    const tm_alloc *al = p->alloc;
    int32_t nv = tm_net_n_vertices(p->net);
    int64_t n_pe = tm_alloc_total_slots(al), k = 0;
    tm_err err;
    memset(q, 0, sizeof *q);
    if (!p->net || !al || !p->comm)
        return tm__fail(ctx, TM_EUSAGE, "network mode needs a network, an allocation and a communication graph");
    if (n_pe > INT32_MAX)
        return tm__fail(ctx, TM_EUSAGE, "the allocation has %lld slots, at most %d supported",
                        (long long)n_pe, INT32_MAX);
    err = check_node_levels(ctx, p);
    if (err)
        return err;
    q->n_hosts = al->n;
    q->host_vertex = al->host;
    q->n_pe = n_pe;
    q->node = p->hier;
    q->d_top = p->hier ? p->hier->d[p->hier->k - 1] : 0.0;
    q->c_hop = p->hop_distance > 0 ? p->hop_distance
                                   : p->hier ? TM_HOP_DISTANCE_NODE_DEFAULT : 1.0;
    q->pe_host = tm__malloc_n((size_t)(n_pe ? n_pe : 1), sizeof *q->pe_host);
    q->pe_slot = tm__malloc_n((size_t)(n_pe ? n_pe : 1), sizeof *q->pe_slot);
    q->host_pe0 = tm__malloc_n((size_t)al->n + 1, sizeof *q->host_pe0);
    q->aidx = tm__malloc_n((size_t)(nv ? nv : 1), sizeof *q->aidx);
    if (!q->pe_host || !q->pe_slot || !q->host_pe0 || !q->aidx) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t v = 0; v < nv; v++)
        q->aidx[v] = -1;
    for (int32_t i = 0; i < al->n; i++) {
        q->aidx[al->host[i]] = i;
        q->host_pe0[i] = k;
        for (int32_t s = 0; s < al->slots[i]; s++, k++) {
            q->pe_host[k] = i;
            q->pe_slot[k] = s;
        }
    }
    q->host_pe0[al->n] = k;
    q->hops_metric = hops_metric(p->net, al);
    q->d_min = least_distance(p->net, al, q);
    if (p->dist) {
        q->hd = p->dist;
        if (tm_netdist_n(p->dist) != al->n)
            err = tm__fail(ctx, TM_EINTERNAL, "distance oracle of %d hosts for %d allocated",
                           tm_netdist_n(p->dist), al->n);
    } else {
        err = tm_netdist_new(ctx, p->net, al->host, al->n, &q->own_hd);
        q->hd = q->own_hd;
    }
    if (!err)
        err = grid_coords(ctx, q);
out:
    if (err)
        tm__qnet_release(q);
    return err;
}

tm_err tm__qnet_to_pe(tm_ctx *ctx, const tm__qnet *q, const tm_mapping *m, int32_t *pe)
{
    for (int32_t u = 0; u < m->n; u++) {
        int32_t h = m->host[u] >= 0 ? q->aidx[m->host[u]] : -1;
        if (h < 0 || m->slot[u] < 0 || q->host_pe0[h] + m->slot[u] >= q->host_pe0[h + 1])
            return tm__fail(ctx, TM_EINPUT, "task %d is not on a slot of the allocation", u);
        pe[u] = (int32_t)(q->host_pe0[h] + m->slot[u]);
    }
    return TM_EOK;
}

void tm__qnet_from_pe(const tm__qnet *q, const int32_t *pe, tm_mapping *m)
{
    for (int32_t u = 0; u < m->n; u++) {
        m->host[u] = q->host_vertex[q->pe_host[pe[u]]];
        m->slot[u] = q->pe_slot[pe[u]];
    }
}

tm_err tm__qnet_job_init(tm_ctx *ctx, const tm_problem *p, tm__qnet_job *j)
{
    tm_err err;
    memset(j, 0, sizeof *j);
    err = tm__qnet_build(ctx, p, &j->q);
    if (err)
        return err;
    err = tm__sgraph_from_comm(ctx, p->comm, TM__SG_VERTEX_WEIGHTS, &j->g);
    if (!err) {
        for (int32_t u = 0; u < j->g.n; u++)
            j->g.vw[u] = 1.0; /* one task per slot */
        j->g.total_vw = j->g.n;
        j->pe = tm__malloc_n((size_t)(j->g.n ? j->g.n : 1), sizeof *j->pe);
        if (!j->pe)
            err = tm__nomem(ctx);
    }
    tm__qdist_init_net(&j->o, &j->q);
    if (err)
        tm__qnet_job_release(j);
    return err;
}

void tm__qnet_job_release(tm__qnet_job *j)
{
    free(j->pe);
    tm__sgraph_release(&j->g);
    tm__qnet_release(&j->q);
    memset(j, 0, sizeof *j);
}
