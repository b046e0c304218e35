/*
 * route.c - the public routing API: router and workspace life cycle,
 * argument checks, and dispatch to the model's ops table (route_int.h).
 *
 * A router keeps a pointer to the net's CSR snapshot: re-finalizing the
 * net (what-if studies) invalidates routers made before; make a new one.
 */
#include <stdlib.h>
#include <string.h>

#include "route_int.h"
#include "route_eval.h"
#include "../net/net_int.h"
#include "../util/util.h"

/* Indexed by tm_route_kind. */
static const tm__route_ops *const route_models[] = {
    &tm__route_ecmp_ops,
    &tm__route_single_ops,
    &tm__route_dor_ops,
    &tm__route_lft_ops,
    &tm__route_ftree_ops,
    &tm__route_minhop_ops,
    &tm__route_updn_ops,
    &tm__route_valiant_ops,
    &tm__route_ugal_ops,
};
#define N_MODELS ((int)(sizeof route_models / sizeof route_models[0]))

int tm_route_kind_parse(const char *s)
{
    if (!s)
        return -1;
    for (int i = 0; i < N_MODELS; i++)
        if (strcmp(s, route_models[i]->name) == 0)
            return i;
    return -1;
}

const char *tm_route_kind_name(tm_route_kind kind)
{
    if ((int)kind < 0 || (int)kind >= N_MODELS)
        return "unknown";
    return route_models[kind]->name;
}

static tm_err route_make(tm_ctx *ctx, const tm_net *net, tm_route_kind kind,
                         const tm_route_opts *opts, tm_route **out)
{
    tm_route *r;
    tm_err err;
    *out = NULL;
    if ((int)kind < 0 || (int)kind >= N_MODELS)
        return tm__fail(ctx, TM_EUSAGE, "unknown routing model %d", (int)kind);
    if (!net || !tm_net_csr_get(net))
        return tm__fail(ctx, TM_EUSAGE, "routing needs a finalized network");
    r = calloc(1, sizeof *r);
    if (!r)
        return tm__nomem(ctx);
    r->net = net;
    r->g = tm_net_csr_get(net);
    r->kind = kind;
    r->ops = route_models[kind];
    r->opts = *opts;
    err = r->ops->init ? r->ops->init(ctx, r) : TM_EOK;
    r->striped = tm__rails_striped(r);
    r->opts.lft_dir = NULL;
    r->opts.roots = NULL;
    if (err) {
        free(r);
        return err;
    }
    *out = r;
    return TM_EOK;
}

tm_err tm_route_new(tm_ctx *ctx, const tm_net *net, tm_route_kind kind, tm_route **out)
{
    tm_route_opts o = TM_ROUTE_OPTS_INIT;
    return route_make(ctx, net, kind, &o, out);
}

tm_err tm_route_new_lft(tm_ctx *ctx, const tm_net *net, const char *dir, tm_route **out)
{
    tm_route_opts o = TM_ROUTE_OPTS_INIT;
    o.lft_dir = dir;
    return tm_route_new_opts(ctx, net, TM_ROUTE_LFT, &o, out);
}

tm_err tm_route_new_opts(tm_ctx *ctx, const tm_net *net, tm_route_kind kind,
                         const tm_route_opts *opts, tm_route **out)
{
    tm_route_opts o = TM_ROUTE_OPTS_INIT;
    *out = NULL;
    if (opts)
        o = *opts;
    if (kind == TM_ROUTE_LFT && !o.lft_dir)
        return tm__fail(ctx, TM_EUSAGE, "lft routing needs a table directory");
    /* options another model would ignore are refused, not dropped */
    if (o.lmc_spread && kind != TM_ROUTE_LFT)
        return tm__fail(ctx, TM_EUSAGE, "lmc_spread needs forwarding-table routing (lft, with "
                        "lft_dir)");
    if ((o.roots || o.n_roots) && kind != TM_ROUTE_UPDN)
        return tm__fail(ctx, TM_EUSAGE, "root switches are an option of updn routing only");
    if (o.n_roots < 0 || (o.n_roots && !o.roots))
        return tm__fail(ctx, TM_EUSAGE, "updn: bad root switch list");
    return route_make(ctx, net, kind, &o, out);
}

void tm_route_free(tm_route *r)
{
    if (!r)
        return;
    if (r->ops->fini)
        r->ops->fini(r);
    free(r);
}

tm_route_kind tm_route_kind_of(const tm_route *r) { return r->kind; }
const tm_net *tm_route_net(const tm_route *r) { return r->net; }

tm_err tm_route_ws_new(tm_ctx *ctx, const tm_route *r, tm_route_ws **out)
{
    tm_route_ws *ws = calloc(1, sizeof *ws);
    tm_err err;
    *out = NULL;
    if (!ws)
        return tm__nomem(ctx);
    ws->r = r;
    err = r->ops->ws_init ? r->ops->ws_init(ctx, r, ws) : TM_EOK;
    if (err) {
        free(ws);
        return err;
    }
    *out = ws;
    return TM_EOK;
}

void tm_route_ws_free(tm_route_ws *ws)
{
    if (!ws)
        return;
    if (ws->r->ops->ws_fini)
        ws->r->ops->ws_fini(ws);
    free(ws);
}

static tm_err check_host(tm_ctx *ctx, const tm_route *r, int32_t v)
{
    if (v < 0 || v >= r->g->n)
        return tm__fail(ctx, TM_EUSAGE, "routing: vertex id %d out of range [0, %d)", (int)v,
                        (int)r->g->n);
    if (!r->g->is_host[v])
        return tm__fail(ctx, TM_EUSAGE, "routing: '%s' is not a host", tm_net_name(r->net, v));
    return TM_EOK;
}

tm_err tm_route_flows(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, int32_t src, size_t k,
                      const int32_t *dst, const double *vol, double *load, int32_t *hops)
{
    tm_err err = check_host(ctx, r, src);
    if (err)
        return err;
    if (ws->r != r)
        return tm__fail(ctx, TM_EUSAGE, "routing workspace belongs to another router");
    for (size_t i = 0; i < k; i++) {
        err = check_host(ctx, r, dst[i]);
        if (err)
            return err;
    }
    if (tm__rails_of(r, src))
        return tm__rails_flows(ctx, r, ws, src, k, dst, vol, load, hops);
    return r->ops->flows(ctx, r, ws, src, k, dst, vol, load, hops);
}

int32_t tm_route_hops(const tm_route *r, tm_route_ws *ws, int32_t src, int32_t dst)
{
    if (src < 0 || src >= r->g->n || dst < 0 || dst >= r->g->n || ws->r != r)
        return -1;
    if (src == dst)
        return 0;
    if (tm__rails_of(r, src))
        return tm__rails_hops(r, ws, src, dst);
    return r->ops->hops(r, ws, src, dst);
}

/* striped multi-rail hosts: a message's parts may differ in length */
bool tm__route_nonminimal(const tm_route *r) { return r->ops->nonminimal || r->striped; }
bool tm__route_striped(const tm_route *r) { return r->striped; }
bool tm__route_is_ugal(const tm_route *r) { return r->ops == &tm__route_ugal_ops; }

/* ---- stub hosts (route_eval.h) ------------------------------------------- */

bool tm__route_stub_ok(const tm_route *r) { return r->ops->stub_sources; }

int32_t tm__route_stub_of(const tm_route *r, int32_t h) { return tm__csr_stub_of(r->g, h); }

void tm__route_stub_hop(const tm_route *r, int32_t h, double vol, double *load)
{
    const tm_net_csr *g = r->g;
    int32_t m = g->off[h + 1] - g->off[h], low = -1;
    if (r->kind == TM_ROUTE_SINGLE) {
        for (int32_t j = g->off[h]; j < g->off[h + 1]; j++)
            if (low < 0 || g->link[j] < low)
                low = g->link[j];
        load[low] += vol;
        return;
    }
    /* ECMP: every cable starts the same number of minimum-hop paths */
    for (int32_t j = g->off[h]; j < g->off[h + 1]; j++)
        load[g->link[j]] += vol / m;
}

void tm__route_stub_last_hop(const tm_route *r, int32_t h, double vol, double *load)
{
    const tm_net_csr *g = r->g;
    int32_t m = g->off[h + 1] - g->off[h], low = -1;
    /* the links into h are the reverses (l ^ 1) of its out-links */
    if (r->kind == TM_ROUTE_SINGLE) {
        for (int32_t j = g->off[h]; j < g->off[h + 1]; j++)
            if (low < 0 || (g->link[j] ^ 1) < low)
                low = g->link[j] ^ 1;
        load[low] += vol;
        return;
    }
    for (int32_t j = g->off[h]; j < g->off[h + 1]; j++)
        load[g->link[j] ^ 1] += vol / m;
}

tm_err tm__route_flows_from(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, int32_t v, size_t k,
                            const int32_t *dst, const double *vol, double *load, int32_t *hops)
{
    if (tm__rails_of(r, v))
        return tm__rails_flows(ctx, r, ws, v, k, dst, vol, load, hops);
    return r->ops->flows(ctx, r, ws, v, k, dst, vol, load, hops);
}
