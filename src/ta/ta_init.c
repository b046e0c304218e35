/* ta_init.c - building and releasing the incremental congestion state of
 * threshold accepting (see ta_state.c): slots as units, the transposed
 * communication graph, the nearest allocated hosts of each host (targets of
 * local moves), and the link loads of the input mapping from scratch. */
#include <stdlib.h>
#include <string.h>

#include "ta_state.h"
#include "topomap/metrics.h"
#include "../graph/bfs.h"
#include "../util/util.h"

void tm__ta_state_release(tm__ta_state *st)
{
    tm_route_ws_free(st->ws);
    free(st->ixadj);
    free(st->iadj);
    free(st->iw);
    tm__ta_paths_release(st);
    free(st->unit_host);
    free(st->unit_slot);
    free(st->occ);
    free(st->unit_of);
    free(st->hoff);
    free(st->aidx);
    free(st->near);
    tm_mapping_release(&st->cur);
    free(st->load);
    tm__maxtree_release(&st->tree);
    free(st->sf);
    free(st->sr);
    free(st->delta);
    free(st->newc);
    free(st->touched);
    free(st->tmark);
    free(st->vstamp);
    free(st->stack);
    free(st->bdst);
    free(st->bvol);
    memset(st, 0, sizeof *st);
}

static tm_err transpose(tm_ctx *ctx, tm__ta_state *st)
{
    const tm_comm *c = st->c;
    int64_t *fill;
    st->ixadj = tm__calloc_n((size_t)c->n + 1, sizeof *st->ixadj);
    st->iadj = tm__malloc_n((size_t)c->nnz + 1, sizeof *st->iadj);
    st->iw = tm__malloc_n((size_t)c->nnz + 1, sizeof *st->iw);
    fill = tm__calloc_n((size_t)c->n + 1, sizeof *fill);
    if (!st->ixadj || !st->iadj || !st->iw || !fill) {
        free(fill);
        return tm__nomem(ctx);
    }
    for (int64_t j = 0; j < c->nnz; j++)
        st->ixadj[c->adj[j] + 1]++;
    for (int32_t v = 0; v < c->n; v++)
        st->ixadj[v + 1] += st->ixadj[v];
    for (int32_t u = 0; u < c->n; u++)
        for (int64_t j = c->xadj[u]; j < c->xadj[u + 1]; j++) {
            int32_t v = c->adj[j];
            int64_t at = st->ixadj[v] + fill[v]++;
            st->iadj[at] = u;
            st->iw[at] = c->w[j];
        }
    free(fill);
    return TM_EOK;
}

/* For each allocated host the TM__TA_NEAR closest other allocated hosts
 * (BFS through transit vertices; -1 where fewer exist): the targets of
 * "local" moves. */
static tm_err near_lists(tm_ctx *ctx, tm__ta_state *st, const int32_t *hosts)
{
    const tm_net_csr *g = st->g;
    int32_t *q = tm__malloc_n((size_t)g->n + 1, sizeof *q);
    int32_t *dist = tm__malloc_n((size_t)g->n + 1, sizeof *dist);
    tm__bfs b;
    st->near = tm__malloc_n((size_t)st->nh * TM__TA_NEAR + 1, sizeof *st->near);
    if (!q || !dist || !st->near) {
        free(q);
        free(dist);
        return tm__nomem(ctx);
    }
    tm__bfs_init(&b, g, dist, q);
    for (int32_t i = 0; i < st->nh; i++) {
        int32_t found = 0, *nr = st->near + (size_t)i * TM__TA_NEAR;
        /* level by level: the first allocated hosts in BFS order */
        tm__bfs_start(&b, &hosts[i], 1);
        while (found < TM__TA_NEAR) {
            int32_t from = b.tail;
            if (tm__bfs_level(&b) == 0)
                break;
            for (int32_t k = from; k < b.tail && found < TM__TA_NEAR; k++)
                if (st->aidx[q[k]] >= 0)
                    nr[found++] = st->aidx[q[k]];
        }
        while (found < TM__TA_NEAR)
            nr[found++] = -1;
    }
    free(q);
    free(dist);
    return TM_EOK;
}

/* The link loads of the current mapping: the exact evaluation, which
 * routes all hosts of a switch in one sweep (route_eval.h) and so costs a
 * fraction of routing every task on its own. */
tm_err tm__ta_state_full(tm__ta_state *st)
{
    const tm_net_csr *g = st->g;
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    tm_time_opts no_time = TM_TIME_OPTS_INIT;
    tm_metrics m;
    tm_err err;
    o.keep_link_loads = true;
    no_time.model = TM_TIME_NONE; /* the loads only */
    o.time = &no_time;
    err = tm_metrics_eval(st->ctx, st->route, st->c, &st->cur, &o, &m);
    if (err)
        return err;
    memcpy(st->load, m.link_load, (size_t)g->n_links * sizeof *st->load);
    tm_metrics_release(&m);
    st->sumsq = 0;
    for (int32_t l = 0; l < g->n_links; l++) {
        st->newc[l] = st->load[l] / g->cap[l];
        st->sumsq += st->newc[l] * st->newc[l];
    }
    tm__maxtree_release(&st->tree);
    err = tm__maxtree_init(st->ctx, &st->tree, g->n_links, st->newc);
    if (err)
        return err;
    st->argmax = tm__maxtree_argmax(&st->tree);
    return TM_EOK;
}

static tm_err init_units(tm_ctx *ctx, tm__ta_state *st, const tm_problem *p, const tm_mapping *m,
                         int32_t *hosts)
{
    const tm_alloc *al = p->alloc;
    int32_t u = 0;
    for (int32_t i = 0; i < al->n; i++)
        if (al->slots[i] > 0)
            st->U += al->slots[i];
    st->unit_host = tm__malloc_n((size_t)st->U + 1, sizeof *st->unit_host);
    st->unit_slot = tm__malloc_n((size_t)st->U + 1, sizeof *st->unit_slot);
    st->occ = tm__malloc_n((size_t)st->U + 1, sizeof *st->occ);
    st->unit_of = tm__malloc_n((size_t)m->n + 1, sizeof *st->unit_of);
    st->hoff = tm__malloc_n((size_t)al->n + 2, sizeof *st->hoff);
    st->aidx = tm__malloc_n((size_t)st->g->n + 1, sizeof *st->aidx);
    if (!st->unit_host || !st->unit_slot || !st->occ || !st->unit_of || !st->hoff || !st->aidx)
        return tm__nomem(ctx);
    for (int32_t v = 0; v < st->g->n; v++)
        st->aidx[v] = -1;
    for (int32_t i = 0; i < al->n; i++) {
        if (al->slots[i] <= 0)
            continue;
        hosts[st->nh] = al->host[i];
        st->aidx[al->host[i]] = st->nh;
        st->hoff[st->nh++] = u;
        for (int32_t s = 0; s < al->slots[i]; s++, u++) {
            st->unit_host[u] = al->host[i];
            st->unit_slot[u] = s;
            st->occ[u] = -1;
        }
    }
    st->hoff[st->nh] = u;
    for (int32_t t = 0; t < m->n; t++) {
        int32_t h = m->host[t], s = m->slot[t], a = h >= 0 && h < st->g->n ? st->aidx[h] : -1;
        if (a < 0 || s < 0 || s >= st->hoff[a + 1] - st->hoff[a] || st->occ[st->hoff[a] + s] >= 0)
            return tm__fail(ctx, TM_EINPUT,
                            "refinement: task %d is not on a free slot of an allocated host", t);
        st->occ[st->hoff[a] + s] = t;
        st->unit_of[t] = st->hoff[a] + s;
    }
    return TM_EOK;
}

tm_err tm__ta_state_init(tm_ctx *ctx, tm__ta_state *st, const tm_problem *p,
                         const tm_route *route, const tm_mapping *m)
{
    const tm_net_csr *g = tm_net_csr_get(p->net);
    int32_t *hosts = NULL;
    int64_t maxdeg = 1;
    size_t L;
    tm_err err;
    memset(st, 0, sizeof *st);
    tm_mapping_init(&st->cur);
    st->ctx = ctx;
    st->g = g;
    st->c = p->comm;
    st->route = route;
    st->reverse_ok = tm_route_kind_of(route) == TM_ROUTE_ECMP;
    L = (size_t)g->n_links + 1;
    hosts = tm__malloc_n((size_t)p->alloc->n + 1, sizeof *hosts);
    if (!hosts)
        return tm__nomem(ctx);
    err = init_units(ctx, st, p, m, hosts);
    if (!err)
        err = transpose(ctx, st);
    if (!err)
        err = near_lists(ctx, st, hosts);
    for (int32_t h = 0; !err && h < st->nh && !st->multi; h++)
        st->multi = st->hoff[h + 1] - st->hoff[h] > 1;
    if (!err)
        err = tm_mapping_copy(ctx, m, &st->cur);
    if (!err)
        err = tm_route_ws_new(ctx, route, &st->ws);
    free(hosts);
    if (err)
        return err;
    for (int32_t u = 0; u < st->c->n; u++) {
        int64_t d = st->c->xadj[u + 1] - st->c->xadj[u], e = st->ixadj[u + 1] - st->ixadj[u];
        maxdeg = d > maxdeg ? d : maxdeg;
        maxdeg = e > maxdeg ? e : maxdeg;
    }
    st->load = tm__calloc_n(L, sizeof *st->load);
    st->sf = tm__calloc_n(L, sizeof *st->sf);
    st->sr = tm__calloc_n(L, sizeof *st->sr);
    st->delta = tm__calloc_n(L, sizeof *st->delta);
    st->newc = tm__calloc_n(L, sizeof *st->newc);
    st->touched = tm__malloc_n(L, sizeof *st->touched);
    st->tmark = tm__calloc_n(L, sizeof *st->tmark);
    st->tlink = tm__malloc_n(L, sizeof *st->tlink);
    st->tfrac = tm__malloc_n(L, sizeof *st->tfrac);
    st->vstamp = tm__calloc_n((size_t)g->n + 1, sizeof *st->vstamp);
    st->stack = tm__malloc_n((size_t)g->n + 1, sizeof *st->stack);
    /* forward batch at [0, maxdeg), reverse batch at [n, n + maxdeg) */
    st->bdst = tm__malloc_n((size_t)st->c->n + (size_t)maxdeg + 1, sizeof *st->bdst);
    st->bvol = tm__malloc_n((size_t)st->c->n + (size_t)maxdeg + 1, sizeof *st->bvol);
    if (!st->load || !st->sf || !st->sr || !st->delta || !st->newc || !st->touched ||
        !st->tmark || !st->tlink || !st->tfrac || !st->vstamp || !st->stack || !st->bdst ||
        !st->bvol)
        return tm__nomem(ctx);
    return tm__ta_state_full(st);
}
