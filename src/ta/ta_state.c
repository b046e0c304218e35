/* ta_state.c - the incremental congestion state behind threshold accepting.
 *
 * A swap of tasks a and b re-routes only their messages: the flows of both
 * at their old hosts are subtracted and those at the new hosts added.  Each
 * message uses the unit flow of its host pair, routed once with
 * tm_route_flows over the workspace's cached shortest-path DAGs and then
 * kept in the pair cache (ta_paths.c); the links a routed flow touched are
 * found by a walk from the source over the links that received flow (the
 * DAG area between source and destination), so a move costs the area of
 * its messages, never O(links).  The maximum congestion is kept in a
 * tournament tree, the sum of squares by differences.
 *
 * With ECMP (uniform over minimum-hop paths) the flow y -> x is exactly the
 * flow x -> y on the reversed links, so the out- and in-messages of a
 * partner share one unit flow.  Other routers route each direction. */
#include <stdlib.h>
#include <string.h>

#include "ta_state.h"
#include "../util/util.h"

/* delta[l] += v, remembering l in the touched list. */
static void add_delta(tm__ta_state *st, int32_t l, double v)
{
    if (!st->tmark[l]) {
        st->tmark[l] = 1;
        st->touched[st->ntouched++] = l;
    }
    st->delta[l] += v;
}

/* Moves the flow left in scratch s by a batch routed from src into delta
 * (with sign), on the reversed links if rev; clears s. */
static void collect(tm__ta_state *st, double *s, int32_t src, double sign, bool rev)
{
    const tm_net_csr *g = st->g;
    int32_t top = 0;
    uint32_t gen = tm__ta_next_gen(st);
    st->stack[top++] = src;
    st->vstamp[src] = gen;
    while (top > 0) {
        int32_t v = st->stack[--top];
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t l = g->link[j], tl;
            if (s[l] == 0)
                continue;
            tl = rev ? l ^ 1 : l;
            add_delta(st, tl, sign * s[l]);
            s[l] = 0;
            if (st->vstamp[g->head[j]] != gen) {
                st->vstamp[g->head[j]] = gen;
                st->stack[top++] = g->head[j];
            }
        }
    }
}

/* Adds vol_f times a unit-flow list to delta and vol_r times it on the
 * reversed links (ECMP: the flow y -> x is the flow x -> y reversed). */
static void apply2(tm__ta_state *st, const int32_t *links, const double *share, int32_t n,
                   double vol_f, double vol_r)
{
    for (int32_t i = 0; i < n; i++) {
        int32_t l = links[i];
        if (vol_f != 0)
            add_delta(st, l, vol_f * share[i]);
        if (vol_r != 0)
            add_delta(st, l ^ 1, vol_r * share[i]);
    }
}

/* The messages between the moving task on host x and one partner on host
 * y: wo from x to y, wi from y to x (either may be 0).  Cached pairs are
 * applied directly; once the cache budget is spent, messages routed from x
 * are queued into the forward or reverse batch (bdst/bvol), and incoming
 * messages of non-ECMP routers are routed singly. */
static tm_err partner(tm__ta_state *st, int32_t x, int32_t y, double wo, double wi, double sign,
                      size_t *kf, size_t *kr)
{
    const int32_t *links;
    const double *share;
    int32_t n;
    tm_err err;
    if (st->reverse_ok || wo != 0) {
        err = tm__ta_pair(st, x, y, &links, &share, &n);
        if (err)
            return err;
        if (n >= 0) {
            apply2(st, links, share, n, sign * wo, st->reverse_ok ? sign * wi : 0);
            if (st->reverse_ok)
                return TM_EOK;
            wo = 0;
        }
        if (wo != 0) {
            st->bdst[*kf] = y;
            st->bvol[(*kf)++] = wo;
        }
        if (st->reverse_ok) {
            if (wi != 0) {
                st->bdst[st->c->n + *kr] = y;
                st->bvol[st->c->n + (*kr)++] = wi;
            }
            return TM_EOK;
        }
    }
    if (wi == 0)
        return TM_EOK;
    err = tm__ta_pair(st, y, x, &links, &share, &n);
    if (err)
        return err;
    if (n >= 0) {
        apply2(st, links, share, n, sign * wi, 0);
        return TM_EOK;
    }
    err = tm_route_flows(st->ctx, st->route, st->ws, y, 1, &x, &wi, st->sf, NULL);
    if (!err)
        collect(st, st->sf, y, sign, false);
    return err;
}

/* Routes every message of task t (placed on host x, partners at their
 * current hosts) with the given sign: out- and in-messages of one partner
 * together (both lists are sorted by partner).  Messages between the
 * swapped tasks a and b are counted once (as out-messages). */
static tm_err task_flows(tm__ta_state *st, int32_t t, int32_t x, int32_t a, int32_t b, double sign)
{
    const tm_comm *c = st->c;
    size_t kf = 0, kr = 0;
    int64_t j = c->xadj[t], je = c->xadj[t + 1], i = st->ixadj[t], ie = st->ixadj[t + 1];
    tm_err err = TM_EOK;
    while (!err && (j < je || i < ie)) {
        int32_t vo = j < je ? c->adj[j] : INT32_MAX, vi = i < ie ? st->iadj[i] : INT32_MAX;
        int32_t v = vo < vi ? vo : vi, hv = st->cur.host[v];
        double wo = vo == v ? c->w[j++] : 0, wi = vi == v ? st->iw[i++] : 0;
        if (v == a || v == b)
            wi = 0; /* counted as the other task's out-message */
        if (hv != x && (wo != 0 || wi != 0))
            err = partner(st, x, hv, wo, wi, sign, &kf, &kr);
    }
    if (!err && kf > 0)
        err = tm_route_flows(st->ctx, st->route, st->ws, x, kf, st->bdst, st->bvol, st->sf, NULL);
    if (!err && kf > 0)
        collect(st, st->sf, x, sign, false);
    if (!err && kr > 0)
        err = tm_route_flows(st->ctx, st->route, st->ws, x, kr, st->bdst + c->n, st->bvol + c->n,
                             st->sr, NULL);
    if (!err && kr > 0)
        collect(st, st->sr, x, sign, true);
    return err;
}

static void set_hosts(tm__ta_state *st, int32_t a, int32_t ha, int32_t b, int32_t hb)
{
    if (a >= 0)
        st->cur.host[a] = ha;
    if (b >= 0)
        st->cur.host[b] = hb;
}

tm_err tm__ta_move_eval(tm__ta_state *st, int32_t u1, int32_t u2, double *new_max,
                        double *new_sumsq)
{
    int32_t a = st->occ[u1], b = st->occ[u2], x1 = st->unit_host[u1], x2 = st->unit_host[u2];
    double dsq = 0;
    tm_err err = TM_EOK;
    st->ntouched = 0;
    if (a >= 0)
        err = task_flows(st, a, x1, a, b, -1.0);
    if (!err && b >= 0)
        err = task_flows(st, b, x2, a, b, -1.0);
    set_hosts(st, a, x2, b, x1);
    if (!err && a >= 0)
        err = task_flows(st, a, x2, a, b, 1.0);
    if (!err && b >= 0)
        err = task_flows(st, b, x1, a, b, 1.0);
    if (err) {
        set_hosts(st, a, x1, b, x2);
        for (int32_t i = 0; i < st->ntouched; i++) {
            st->delta[st->touched[i]] = 0;
            st->tmark[st->touched[i]] = 0;
        }
        st->ntouched = 0;
        return err;
    }
    /* The tree is only written when the move touches the link holding the
     * maximum: otherwise the new maximum is max(old, touched links), and a
     * rejected move (the common case) costs no tree work at all. */
    st->tree_dirty = st->argmax >= 0 && st->tmark[st->argmax];
    *new_max = st->tree_dirty ? 0 : tm__maxtree_max(&st->tree);
    for (int32_t i = 0; i < st->ntouched; i++) {
        int32_t l = st->touched[i];
        double cold = st->load[l] / st->g->cap[l];
        double nl = st->load[l] + st->delta[l];
        double cnew;
        /* cancelling flows leave rounding noise, never real negative load */
        if (nl < 1e-12 * (st->load[l] > 1 ? st->load[l] : 1))
            nl = 0;
        cnew = nl / st->g->cap[l];
        st->newc[l] = nl;
        if (st->tree_dirty)
            tm__maxtree_set(&st->tree, l, cnew);
        else if (cnew > *new_max)
            *new_max = cnew;
        dsq += cnew * cnew - cold * cold;
    }
    if (st->tree_dirty)
        *new_max = tm__maxtree_max(&st->tree);
    *new_sumsq = st->sumsq + dsq;
    return TM_EOK;
}

void tm__ta_move_commit(tm__ta_state *st, int32_t u1, int32_t u2, double new_sumsq)
{
    int32_t a = st->occ[u1], b = st->occ[u2];
    for (int32_t i = 0; i < st->ntouched; i++) {
        int32_t l = st->touched[i];
        st->load[l] = st->newc[l];
        if (!st->tree_dirty)
            tm__maxtree_set(&st->tree, l, st->load[l] / st->g->cap[l]);
        st->delta[l] = 0;
        st->tmark[l] = 0;
    }
    if (st->ntouched > 0)
        st->argmax = tm__maxtree_argmax(&st->tree);
    st->ntouched = 0;
    st->sumsq = new_sumsq < 0 ? 0 : new_sumsq;
    st->occ[u1] = b;
    st->occ[u2] = a;
    if (a >= 0) {
        st->unit_of[a] = u2;
        st->cur.slot[a] = st->unit_slot[u2];
    }
    if (b >= 0) {
        st->unit_of[b] = u1;
        st->cur.slot[b] = st->unit_slot[u1];
    }
}

void tm__ta_move_undo(tm__ta_state *st, int32_t u1, int32_t u2)
{
    int32_t a = st->occ[u1], b = st->occ[u2];
    for (int32_t i = 0; i < st->ntouched; i++) {
        int32_t l = st->touched[i];
        if (st->tree_dirty)
            tm__maxtree_set(&st->tree, l, st->load[l] / st->g->cap[l]);
        st->delta[l] = 0;
        st->tmark[l] = 0;
    }
    st->ntouched = 0;
    set_hosts(st, a, st->unit_host[u1], b, st->unit_host[u2]);
}
