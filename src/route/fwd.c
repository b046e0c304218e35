/*
 * fwd.c - routing by linear forwarding tables (LFTs), shared by the
 * models that read them (lft.c, from ibroute dumps) and those that
 * compute them as a subnet manager would (ftree.c, minhop.c).
 *
 * InfiniBand forwards by destination LID only: switch s sends LID d out
 * of port out[s][d].  A flow src -> dst therefore leaves src through the
 * cable of its own LID's port and then follows the tables to dst's base
 * LID: exactly one path, whatever the volume.  Every way a table can fail
 * a flow (no table, no entry, conflicting entries, a port without cable,
 * a loop, delivery to a vertex that does not own the LID) is an error
 * naming the file and line of the entry that failed, never a guess.
 *
 * With --lmc-spread (f->dlmc set) a flow to a host whose LID has LMC m is
 * split into 2^m equal parts, one per destination LID base .. base+2^m-1,
 * each followed through the tables: the model of an MPI library that
 * stripes its connections over the path bits of the remote port
 * (docs/routing.md).  Its hop count is that of the base LID's path.
 *
 * A multi-rail source (cables to several switches) is striped over its
 * rails, each to the peer's port LID nearest that rail (fwd_rails.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fwd_walk.h"
#include "../net/net_int.h"
#include "../util/util.h"

void tm__fwd_free(tm__fwd *f)
{
    if (!f)
        return;
    for (int32_t s = 0; f->file && s < f->n_sw; s++)
        free(f->file[s]);
    free(f->file);
    free(f->sw_of);
    free(f->vertex_of);
    free(f->out);
    free(f->line);
    free(f->has_table);
    free(f->port_link);
    free(f->first_link);
    free(f->dlid);
    free(f->link_port);
    free(f->dlmc);
    free(f->lid_off);
    free(f->lids);
    free(f);
}

void tm__fwd_fini(tm_route *r) { tm__fwd_free(r->priv); }

/* The link a host's traffic leaves by: the cable at its base LID's port
 * (or its only cable when the dump gave no port numbers). */
static int32_t host_first_link(const tm_net *net, const tm_net_csr *g, int32_t h, uint32_t lid)
{
    int32_t port, pa, pb;
    if (!lid || tm_net_lid_owner(net, lid, &port) != h)
        return -1;
    for (int32_t j = g->off[h]; j < g->off[h + 1]; j++) {
        int32_t l = g->link[j];
        tm_net_cable_ports(net, l >> 1, &pa, &pb);
        if ((l & 1 ? pb : pa) == port)
            return l;
    }
    return g->off[h + 1] - g->off[h] == 1 ? g->link[g->off[h]] : -1;
}

/* Port -> out-link maps of the switches, first links and LIDs of hosts. */
static void map_ports(const tm_route *r, tm__fwd *f)
{
    const tm_net_csr *g = r->g;
    int32_t pa, pb;
    for (int32_t l = 0; l < g->n_links; l++) {
        int32_t v = g->tail_of[l], s = f->sw_of[v];
        tm_net_cable_ports(r->net, l >> 1, &pa, &pb);
        if (s >= 0 && (l & 1 ? pb : pa) > 0 && tm_net_cable_enabled(r->net, l >> 1)) {
            f->port_link[(size_t)s * 256 + (size_t)(l & 1 ? pb : pa)] = l;
            f->link_port[l] = l & 1 ? pb : pa;
        }
    }
    for (int32_t v = 0; v < g->n; v++) {
        f->dlid[v] = tm_net_lid(r->net, v, NULL);
        f->first_link[v] = g->is_host[v] ? host_first_link(r->net, g, v, f->dlid[v]) : -1;
    }
}

static uint32_t max_lid(const tm_net *net, bool synthetic)
{
    if (synthetic)
        return (uint32_t)tm_net_n_vertices(net);
    uint32_t m = 0;
    for (int32_t v = 0; v < tm_net_n_vertices(net); v++) {
        int lmc;
        uint32_t l = tm_net_lid(net, v, &lmc);
        if (l && l + (1u << lmc) - 1 > m)
            m = l + (1u << lmc) - 1;
    }
    return m;
}

static tm_err fwd_alloc(tm_ctx *ctx, const tm_route *r, tm__fwd *f, bool with_lines)
{
    size_t n = (size_t)r->g->n, cells;
    f->n_lid = max_lid(r->net, f->synthetic) + 1;
    for (int32_t v = 0; v < r->g->n; v++)
        if (tm_net_kind(r->net, v) == TM_VERTEX_SWITCH)
            f->n_sw++;
    cells = (size_t)f->n_sw * f->n_lid;
    f->sw_of = tm__malloc_n(n, sizeof *f->sw_of);
    f->vertex_of = tm__malloc_n(f->n_sw ? (size_t)f->n_sw : 1, sizeof *f->vertex_of);
    f->out = tm__malloc_n(cells ? cells : 1, sizeof *f->out);
    f->has_table = calloc(f->n_sw ? (size_t)f->n_sw : 1, sizeof *f->has_table);
    f->port_link = tm__malloc_n((size_t)f->n_sw * 256 + 1, sizeof *f->port_link);
    f->first_link = tm__malloc_n(n, sizeof *f->first_link);
    f->dlid = tm__malloc_n(n, sizeof *f->dlid);
    f->link_port = calloc((size_t)r->g->n_links + 1, sizeof *f->link_port);
    if (with_lines) {
        f->line = calloc(cells ? cells : 1, sizeof *f->line);
        f->file = calloc(f->n_sw ? (size_t)f->n_sw : 1, sizeof *f->file);
    }
    if (!f->sw_of || !f->vertex_of || !f->out || !f->has_table || !f->port_link ||
        !f->first_link || !f->dlid || !f->link_port || (with_lines && (!f->line || !f->file)))
        return tm__nomem(ctx);
    memset(f->out, 0xff, cells * sizeof *f->out);
    memset(f->port_link, 0xff, ((size_t)f->n_sw * 256 + 1) * sizeof *f->port_link);
    return TM_EOK;
}

/* Made-up addressing: LIDs in vertex order (hosts first: they come
 * first in every reader's and generator's order), ports in cable order. */
static tm_err synth_ports(tm_ctx *ctx, const tm_route *r, tm__fwd *f)
{
    const tm_net_csr *g = r->g;
    uint32_t next = 1;
    for (int pass = 0; pass < 2; pass++)
        for (int32_t v = 0; v < g->n; v++)
            if ((f->sw_of[v] < 0) == (pass == 0))
                f->dlid[v] = next++;
    for (int32_t v = 0; v < g->n; v++) {
        int32_t s = f->sw_of[v], deg = g->off[v + 1] - g->off[v];
        f->first_link[v] = g->is_host[v] && deg > 0 ? g->link[g->off[v]] : -1;
        if (s < 0)
            continue;
        if (deg > 255)
            return tm__fail(ctx, TM_EINPUT, "routing: switch '%s' has %d cables; InfiniBand "
                            "switches have at most 255 ports", tm_net_name(r->net, v), (int)deg);
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            f->link_port[g->link[j]] = j - g->off[v] + 1;
            f->port_link[(size_t)s * 256 + (size_t)(j - g->off[v] + 1)] = g->link[j];
        }
    }
    return TM_EOK;
}

/* Does the net give every host and switch a LID and every switch cable a
 * port? */
static bool complete_addressing(const tm_route *r)
{
    const tm_net_csr *g = r->g;
    int32_t pa, pb;
    for (int32_t v = 0; v < g->n; v++)
        if (!tm_net_lid(r->net, v, NULL))
            return false;
    for (int32_t l = 0; l < g->n_links; l++) {
        tm_net_cable_ports(r->net, l >> 1, &pa, &pb);
        if (tm_net_kind(r->net, g->tail_of[l]) == TM_VERTEX_SWITCH && !(l & 1 ? pb : pa))
            return false;
    }
    return true;
}

/* Is lid the base LID of a port of host v?  A port's 2^LMC LIDs start at
 * a multiple of 2^LMC (InfiniBand's rule; port numbers cannot tell, as
 * the HCAs of a merged host all have a port 1); the host's LMC is its
 * lowest port's. */
static bool port_base(const tm_net *net, int32_t v, uint32_t lid)
{
    int lmc;
    if (tm_net_lid_owner(net, lid, NULL) != v)
        return false;
    tm_net_lid(net, v, &lmc);
    return (lid & ((1u << lmc) - 1)) == 0;
}

/* The host whose port LID number i is (its base LID): the LIDs in order,
 * or, with made-up addressing, each host's one LID; -1 for the others. */
static int32_t lid_host(const tm_route *r, const tm__fwd *f, uint32_t i, uint32_t *lid)
{
    int32_t v;
    if (f->synthetic) {
        v = (int32_t)i;
        *lid = f->dlid[v];
        return r->g->is_host[v] && f->dlid[v] ? v : -1;
    }
    *lid = i;
    v = tm_net_lid_owner(r->net, i, NULL);
    return v >= 0 && r->g->is_host[v] && port_base(r->net, v, i) ? v : -1;
}

/* f->lids: every host's port LIDs in one pass over the LIDs (vertices if
 * made up), for the rails of multi-rail hosts (docs/routing.md
 * "Multi-rail hosts"). */
static tm_err port_lids(tm_ctx *ctx, const tm_route *r, tm__fwd *f)
{
    const tm_net_csr *g = r->g;
    uint32_t end = f->synthetic ? (uint32_t)g->n : f->n_lid, lid;
    int32_t *fill;
    f->lid_off = calloc((size_t)g->n + 2, sizeof *f->lid_off);
    fill = tm__malloc_n((size_t)g->n + 1, sizeof *fill);
    if (!f->lid_off || !fill) {
        free(fill);
        return tm__nomem(ctx);
    }
    for (uint32_t i = f->synthetic ? 0 : 1; i < end; i++) {
        int32_t v = lid_host(r, f, i, &lid);
        if (v >= 0)
            f->lid_off[v + 1]++;
    }
    for (int32_t v = 0; v < g->n; v++) {
        f->lid_off[v + 1] += f->lid_off[v];
        fill[v] = f->lid_off[v];
    }
    f->lids = tm__malloc_n((size_t)f->lid_off[g->n] + 1, sizeof *f->lids);
    if (!f->lids) {
        free(fill);
        return tm__nomem(ctx);
    }
    for (uint32_t i = f->synthetic ? 0 : 1; i < end; i++) {
        int32_t v = lid_host(r, f, i, &lid);
        if (v >= 0)
            f->lids[fill[v]++] = lid;
    }
    free(fill);
    return TM_EOK;
}

static tm_err fwd_make(tm_ctx *ctx, const tm_route *r, bool with_lines, bool synth, tm__fwd **out)
{
    tm__fwd *f = calloc(1, sizeof *f);
    tm_err err;
    *out = NULL;
    if (!f)
        return tm__nomem(ctx);
    f->synthetic = synth;
    err = fwd_alloc(ctx, r, f, with_lines);
    if (err) {
        tm__fwd_free(f);
        return err;
    }
    for (int32_t v = 0, s = 0; v < r->g->n; v++) {
        f->sw_of[v] = tm_net_kind(r->net, v) == TM_VERTEX_SWITCH ? s : -1;
        if (f->sw_of[v] >= 0)
            f->vertex_of[s++] = v;
    }
    err = synth ? synth_ports(ctx, r, f) : (map_ports(r, f), TM_EOK);
    if (!err)
        err = port_lids(ctx, r, f);
    if (err) {
        tm__fwd_free(f);
        return err;
    }
    *out = f;
    return TM_EOK;
}

tm_err tm__fwd_new(tm_ctx *ctx, const tm_route *r, bool with_lines, tm__fwd **out)
{
    return fwd_make(ctx, r, with_lines, false, out);
}

tm_err tm__fwd_new_computed(tm_ctx *ctx, const tm_route *r, tm__fwd **out)
{
    return fwd_make(ctx, r, false, !complete_addressing(r), out);
}

tm_err tm__fwd_spread(tm_ctx *ctx, const tm_route *r, tm__fwd *f)
{
    f->dlmc = calloc((size_t)r->g->n + 1, sizeof *f->dlmc);
    if (!f->dlmc)
        return tm__nomem(ctx);
    for (int32_t v = 0; v < r->g->n; v++) {
        int lmc;
        tm_net_lid(r->net, v, &lmc);
        f->dlmc[v] = (uint8_t)lmc;
    }
    return TM_EOK;
}

/* ---- the flows ---------------------------------------------------------- */

/* Routes vol from w->src to w->dst over the destination's LIDs (its base
 * LID, or all 2^LMC of them with --lmc-spread); returns the base LID's hop
 * count, or -1 with w->why set and nothing loaded. */
static int32_t route_one(tm__fwd_walk *w, double vol, double *load)
{
    const tm__fwd *f = w->f;
    uint32_t base = f->dlid[w->dst], n = f->dlmc && base ? 1u << f->dlmc[w->dst] : 1;
    int32_t h0 = -1;
    if (tm__csr_rails(w->r->g, w->src) >= 2)
        return tm__fwd_route_rails(w, vol, load);
    /* every path is checked first, so that a failing flow loads nothing */
    for (uint32_t j = 0; j < n; j++) {
        int32_t h;
        w->dlid = base + j;
        h = tm__fwd_follow(w, 0, NULL);
        if (h < 0)
            return -1;
        if (j == 0)
            h0 = h;
    }
    for (uint32_t j = 0; j < n; j++) {
        w->dlid = base + j;
        tm__fwd_follow(w, vol / n, load);
    }
    return h0;
}

tm_err tm__fwd_flows(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, int32_t src, size_t k,
                     const int32_t *dst, const double *vol, double *load, int32_t *hops)
{
    char why[1024];
    tm__fwd_walk w = {r, r->priv, src, -1, 0, why, sizeof why, -1};
    (void)ws;
    for (size_t i = 0; i < k; i++) {
        int32_t h = 0;
        if (dst[i] != src) {
            w.dst = dst[i];
            h = route_one(&w, vol[i], load);
            if (h < 0)
                return tm__fail(ctx, TM_EINPUT, "%s", why);
        }
        if (hops)
            hops[i] = h;
    }
    return TM_EOK;
}

int32_t tm__fwd_hops(const tm_route *r, tm_route_ws *ws, int32_t src, int32_t dst)
{
    char why[1024];
    tm__fwd_walk w = {r, r->priv, src, dst, 0, why, sizeof why, -1};
    (void)ws;
    if (src != dst && tm__csr_rails(r->g, src) >= 2)
        return tm__fwd_route_rails(&w, 0, NULL);
    w.dlid = w.f->dlid[dst];
    return tm__fwd_follow(&w, 0, NULL);
}
