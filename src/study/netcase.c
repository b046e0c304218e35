/* netcase.c - one network of a study: load the topology, apply the
 * capacity change and the failure, re-finalize, resolve the allocation,
 * check it is still one connected part, make the routers.  Runs in the
 * calling thread only: loading and finalizing call igraph, which is not
 * thread-safe (docs/design.md "Threads"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/util.h"
#include "study_int.h"

/* Loads the topology; a quiet load reports errors but drops warnings, so
 * a study prints each topology's warnings once, not once per scenario. */
static tm_err load(tm_ctx *ctx, const tm_study_spec *s, bool quiet, tm__netcase *nc)
{
    tm_topo_opts o = TM_TOPO_OPTS_INIT;
    tm_ctx *q = NULL;
    tm_err err;
    o.node_name_map = s->node_name_map;
    o.keep_hcas_separate = s->separate_hcas;
    o.slots = s->slots[nc->key.slots];
    if (!quiet)
        return tm_topology_load(ctx, s->topologies[nc->key.topology], &o, &nc->net);
    if (tm_ctx_new(&q) != TM_EOK)
        return tm__nomem(ctx);
    err = tm_topology_load(q, s->topologies[nc->key.topology], &o, &nc->net);
    if (err)
        tm__fail(ctx, err, "%s", tm_ctx_errmsg(q));
    tm_ctx_free(q);
    return err;
}

/* Capacity change and failure, then a new finalize. */
static tm_err modify(tm_ctx *ctx, const tm_study_spec *s, tm__netcase *nc)
{
    const char *topo = s->topologies[nc->key.topology], *scale = s->scales[nc->key.scale];
    const tm_study_failure *f = &s->failures[nc->key.failure];
    char what[600];
    tm_err err;
    if (!scale && f->kind == TM_STUDY_FAIL_NONE)
        return TM_EOK;
    if (scale) {
        tm_study_scale sc;
        snprintf(what, sizeof what, "capacity scale %s on %s", scale, topo);
        err = tm_study_scale_parse(ctx, scale, &sc);
        if (!err)
            err = tm__scale_apply(ctx, nc->net, &sc, what, &nc->scaled);
        if (err)
            return err;
    }
    snprintf(what, sizeof what, "%s", topo);
    /* the sample is drawn from the seed of ctx (docs/study.md) */
    err = tm__fail_apply(ctx, nc->net, f, tm_ctx_seed(ctx), (uint64_t)nc->key.sample, what,
                         &nc->failed);
    return err ? err : tm_net_finalize(ctx, nc->net);
}

/* A failure may split the network: the allocation must stay in one part
 * (tm_map_run refuses it otherwise).  Names two hosts that are apart. */
static void check_parts(const tm_study_spec *s, tm__netcase *nc)
{
    const tm_alloc *a = &nc->alloc;
    int32_t p0 = a->n ? tm_net_part(nc->net, a->host[0]) : 0;
    for (int32_t i = 1; i < a->n; i++)
        if (tm_net_part(nc->net, a->host[i]) != p0) {
            char lab[400];
            tm_study_failure_label(&s->failures[nc->key.failure], lab, sizeof lab);
            nc->status = TM_STUDY_DISCONNECTED;
            snprintf(nc->cause, sizeof nc->cause, "disconnected allocation: hosts %.60s and "
                     "%.60s are in different connected parts (%d parts) after failing %d cables "
                     "(%.60s)",
                     tm_net_name(nc->net, a->host[0]), tm_net_name(nc->net, a->host[i]),
                     (int)tm_net_n_parts(nc->net), (int)nc->failed, lab);
            return;
        }
}

tm_err tm__netcase_build(tm_ctx *ctx, const tm_study_spec *s, bool quiet, tm__netcase *nc)
{
    tm_err err = load(ctx, s, quiet, nc);
    if (!err)
        err = modify(ctx, s, nc);
    if (!err)
        err = tm_alloc_parse(ctx, nc->net, s->alloc, &nc->alloc);
    if (err)
        return err;
    check_parts(s, nc);
    if (nc->status != TM_STUDY_OK)
        return TM_EOK;
    nc->routes = tm__calloc_n((size_t)s->n_routings, sizeof *nc->routes);
    if (!nc->routes)
        return tm__nomem(ctx);
    for (int i = 0; !err && i < s->n_routings; i++)
        err = tm_route_new(ctx, nc->net, s->routings[i], &nc->routes[i]);
    return err;
}

void tm__netcase_release(const tm_study_spec *s, tm__netcase *nc)
{
    if (nc->routes)
        for (int i = 0; i < s->n_routings; i++)
            tm_route_free(nc->routes[i]);
    free(nc->routes);
    nc->routes = NULL;
    tm_alloc_release(&nc->alloc);
    tm_net_free(nc->net);
    nc->net = NULL;
}
