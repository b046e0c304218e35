/*
 * fwd_rails.c - multi-rail sources under forwarding tables (docs/routing.md
 * "Multi-rail hosts").
 *
 * A host with cables to several switches stripes a message evenly over its
 * rails whose tables deliver one of the destination's port LIDs: a rail
 * leaves by its cable (the base LID's, if it is on this rail, else the
 * rail's first) and goes to the nearest such LID (fewest hops, then the
 * lowest), as an HCA talks to the peer's HCA on its own rail.  With
 * --lmc-spread a rail's part is split over that port's 2^LMC LIDs.
 */
#include <stdio.h>

#include "fwd_walk.h"

#define NAME(v) tm_net_name(w->r->net, (v))

/* The cable rail j (an out-link index of src, the first to its switch)
 * leaves by. */
static int32_t rail_link(const tm_net_csr *g, const tm__fwd *f, int32_t src, int32_t j)
{
    int32_t base = f->first_link[src];
    if (base >= 0 && g->head_of[base] == g->head[j])
        return base;
    return g->link[j];
}

static bool rail_first(const tm_net_csr *g, int32_t src, int32_t j)
{
    for (int32_t i = g->off[src]; i < j; i++)
        if (g->head[i] == g->head[j])
            return false;
    return true;
}

/* The LIDs of a port of w->dst that a flow is spread over: 2^LMC with
 * --lmc-spread, else its base LID only. */
static uint32_t port_span(const tm__fwd_walk *w, uint32_t lid)
{
    (void)lid;
    return w->f->dlmc ? 1u << w->f->dlmc[w->dst] : 1;
}

/* The port LID of w->dst that rail link l reaches in the fewest hops
 * (then the lowest), every LID of its span delivered; 0 if none; *hops
 * its hop count. */
static uint32_t rail_target(tm__fwd_walk *w, int32_t l, int32_t *hops)
{
    const tm__fwd *f = w->f;
    uint32_t best = 0;
    w->first = l;
    for (int32_t i = f->lid_off[w->dst]; i < f->lid_off[w->dst + 1]; i++) {
        uint32_t lid = f->lids[i], n = port_span(w, lid), j;
        int32_t h0 = -1;
        for (j = 0; j < n; j++) {
            int32_t h;
            w->dlid = lid + j;
            if ((h = tm__fwd_follow(w, 0, NULL)) < 0)
                break;
            if (j == 0)
                h0 = h;
        }
        if (j == n && (!best || h0 < *hops)) {
            best = lid;
            *hops = h0;
        }
    }
    w->first = l;
    return best;
}

/* route_one for a multi-rail w->src: the longest part's hops, or -1 with
 * w->why set (the base LID's failure) and nothing loaded. */
int32_t tm__fwd_route_rails(tm__fwd_walk *w, double vol, double *load)
{
    const tm_net_csr *g = w->r->g;
    int32_t src = w->src, parts = 0, far = -1, h;
    for (int32_t j = g->off[src]; j < g->off[src + 1]; j++)
        if (rail_first(g, src, j) && rail_target(w, rail_link(g, w->f, src, j), &h)) {
            parts++;
            far = h > far ? h : far;
        }
    if (parts == 0) { /* the error of the base LID's path */
        w->first = -1;
        w->dlid = w->f->dlid[w->dst];
        if (tm__fwd_follow(w, 0, NULL) >= 0) /* else it set w->why */
            snprintf(w->why, w->whysz, "routing: no rail of host '%s' reaches every LID of a "
                     "port of host '%s'", NAME(w->src), NAME(w->dst));
        return -1;
    }
    for (int32_t j = g->off[src]; load && j < g->off[src + 1]; j++) {
        uint32_t lid, n;
        if (!rail_first(g, src, j) || !(lid = rail_target(w, rail_link(g, w->f, src, j), &h)))
            continue;
        n = port_span(w, lid);
        for (uint32_t k = 0; k < n; k++) {
            w->dlid = lid + k;
            tm__fwd_follow(w, vol / parts / n, load);
        }
    }
    w->first = -1;
    return far;
}
