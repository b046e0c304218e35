/*
 * rails.c - multi-rail hosts under ecmp and single routing
 * (docs/routing.md "Multi-rail hosts").
 *
 * A node with several HCAs, each cabled to its own leaf or to its own
 * plane of the fabric, is one host with several rails (tm__csr_rails: the
 * distinct switches its cables go to).  An MPI library over UCX uses all
 * of them for large messages: it stripes a message evenly over the HCAs
 * that reach the peer, and each part then travels as that HCA's traffic
 * does.  So, for a multi-rail source host, each message is split evenly
 * over the rails whose switch reaches the destination, and the share of a
 * rail takes that rail's cables (the stub rule: evenly under ECMP, the
 * lowest link id under single-path) and then the router's own paths from
 * the rail's switch.  A stub host (one rail) is routed exactly as before.
 *
 * The parts of a message may differ in length (a peer one hop away on one
 * rail, three on another), so a striped router counts as non-minimal
 * (route_eval.h): a flow's hops are its longest part, and the exact
 * metrics take volume x hops from the link loads.
 */
#include <stdlib.h>

#include "route_int.h"
#include "../net/net_int.h"
#include "../util/util.h"

/* The routers that stripe: ecmp and single here, the forwarding-table
 * models in fwd.c (each rail to the peer's port LID it reaches). */
static bool stripes(const tm_route *r)
{
    switch (r->kind) {
    case TM_ROUTE_ECMP:
    case TM_ROUTE_SINGLE:
    case TM_ROUTE_LFT:
    case TM_ROUTE_FTREE:
    case TM_ROUTE_MINHOP:
    case TM_ROUTE_UPDN:
        return true;
    default:
        return false;
    }
}

bool tm__rails_striped(const tm_route *r)
{
    if (!stripes(r))
        return false;
    for (int32_t v = 0; v < r->g->n; v++)
        if (tm__csr_rails(r->g, v) >= 2)
            return true;
    return false;
}

bool tm__rails_of(const tm_route *r, int32_t v)
{
    return r->striped && (r->kind == TM_ROUTE_ECMP || r->kind == TM_ROUTE_SINGLE) && v >= 0 &&
           v < r->g->n && tm__csr_rails(r->g, v) >= 2;
}

/* Is cable j (an out-link index of h) the first of h's cables to its
 * switch?  The rail's switch is then g->head[j]. */
static bool rail_start(const tm_net_csr *g, int32_t h, int32_t j)
{
    for (int32_t i = g->off[h]; i < j; i++)
        if (g->head[i] == g->head[j])
            return false;
    return true;
}

/* Puts vol on the cables of h's rail to switch w (the stub rule). */
static void rail_hop(const tm_route *r, int32_t h, int32_t w, double vol, double *load)
{
    const tm_net_csr *g = r->g;
    int32_t m = 0, low = -1;
    for (int32_t j = g->off[h]; j < g->off[h + 1]; j++)
        if (g->head[j] == w) {
            m++;
            if (low < 0 || g->link[j] < low)
                low = g->link[j];
        }
    if (r->kind == TM_ROUTE_SINGLE) {
        load[low] += vol;
        return;
    }
    for (int32_t j = g->off[h]; j < g->off[h + 1]; j++)
        if (g->head[j] == w)
            load[g->link[j]] += vol / m;
}

/* Hops from h's rail switch w to vertex d (0 when d is w), -1 if none. */
static int32_t rail_reach(const tm_route *r, tm_route_ws *ws, int32_t w, int32_t d)
{
    return d == w ? 0 : r->ops->hops(r, ws, w, d);
}

int32_t tm__rails_hops(const tm_route *r, tm_route_ws *ws, int32_t src, int32_t dst)
{
    const tm_net_csr *g = r->g;
    int32_t best = -1;
    if (src == dst)
        return 0;
    for (int32_t j = g->off[src]; j < g->off[src + 1]; j++) {
        int32_t h;
        if (!rail_start(g, src, j) || (h = rail_reach(r, ws, g->head[j], dst)) < 0)
            continue;
        best = h + 1 > best ? h + 1 : best;
    }
    return best;
}

static tm_err unreachable(tm_ctx *ctx, const tm_route *r, int32_t src, int32_t dst)
{
    return tm__fail(ctx, TM_EINPUT, "host '%s' cannot reach '%s' over any of its rails (%s)",
                    tm_net_name(r->net, src), tm_net_name(r->net, dst),
                    tm_net_part(r->net, src) != tm_net_part(r->net, dst)
                        ? "they are in different connected parts of the network: 'topomap "
                          "topo info' lists the parts"
                        : "no path through transit vertices");
}

typedef struct stripe {
    int32_t *cnt, *dst2, *hops2;
    double *vol2;
} stripe;

static void stripe_free(stripe *s)
{
    free(s->cnt);
    free(s->dst2);
    free(s->hops2);
    free(s->vol2);
}

/* Counts the rails of src that reach each destination and sets hops. */
static tm_err count_rails(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, int32_t src, size_t k,
                          const int32_t *dst, int32_t *hops, int32_t *cnt)
{
    const tm_net_csr *g = r->g;
    for (size_t i = 0; i < k; i++) {
        int32_t far = 0;
        cnt[i] = 0;
        for (int32_t j = g->off[src]; dst[i] != src && j < g->off[src + 1]; j++) {
            int32_t h;
            if (!rail_start(g, src, j) || (h = rail_reach(r, ws, g->head[j], dst[i])) < 0)
                continue;
            cnt[i]++;
            far = h + 1 > far ? h + 1 : far;
        }
        if (dst[i] != src && cnt[i] == 0)
            return unreachable(ctx, r, src, dst[i]);
        if (hops)
            hops[i] = far;
    }
    return TM_EOK;
}

tm_err tm__rails_flows(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, int32_t src, size_t k,
                       const int32_t *dst, const double *vol, double *load, int32_t *hops)
{
    const tm_net_csr *g = r->g;
    stripe s = {0};
    tm_err err;
    size_t n = k ? k : 1;
    s.cnt = tm__malloc_n(n, sizeof *s.cnt);
    s.dst2 = tm__malloc_n(n, sizeof *s.dst2);
    s.hops2 = tm__malloc_n(n, sizeof *s.hops2);
    s.vol2 = tm__malloc_n(n, sizeof *s.vol2);
    if (!s.cnt || !s.dst2 || !s.hops2 || !s.vol2) {
        stripe_free(&s);
        return tm__nomem(ctx);
    }
    /* every part is checked first, so that a failing flow loads nothing */
    err = count_rails(ctx, r, ws, src, k, dst, hops, s.cnt);
    for (int32_t j = g->off[src]; !err && j < g->off[src + 1]; j++) {
        int32_t w = g->head[j];
        size_t k2 = 0;
        double out = 0.0;
        if (!rail_start(g, src, j))
            continue;
        for (size_t i = 0; i < k; i++) {
            double part;
            if (dst[i] == src || rail_reach(r, ws, w, dst[i]) < 0)
                continue;
            part = vol[i] / s.cnt[i];
            out += part;
            if (dst[i] != w) {
                s.dst2[k2] = dst[i];
                s.vol2[k2++] = part;
            }
        }
        if (out != 0.0)
            rail_hop(r, src, w, out, load);
        if (k2)
            err = r->ops->flows(ctx, r, ws, w, k2, s.dst2, s.vol2, load, s.hops2);
    }
    stripe_free(&s);
    return err;
}
