/* bounds.c - the public API of the lower bounds (topomap/bounds.h,
 * docs/bounds.md): the problem's capacities, the task graph's and the
 * network's sides, every method, the largest of each figure. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bounds_int.h"
#include "../util/util.h"

const char *const tm__bound_method_name[TM__M_N] = {"injection", "levels", "slabs",
                                                     "volume", "profile"};

/* Rounding of sums taken in another order than the metrics' (relative). */
#define SHAVE 1e-9

void tm_bounds_init(tm_bounds *b)
{
    memset(b, 0, sizeof *b);
    b->congestion_by = b->dilation_by = b->J_by = "none";
    b->tasks_per_slot = 1;
}

/* Tasks a slot (or PE) holds at most under the balance of p->imbalance
 * (docs/design.md "Balance"): B = ceil((1 + eps) W / S) with integral
 * weights, never less than the heaviest task; then B over the lightest. */
static int32_t balance_tasks(const tm_comm *c, int64_t slots, double eps)
{
    double W = 0, wmin = INFINITY, wmax = 0, B, t;
    bool integral = true;
    for (int32_t u = 0; u < c->n; u++) {
        double w = c->vwgt ? c->vwgt[u] : 1.0;
        W += w;
        wmin = w < wmin ? w : wmin;
        wmax = w > wmax ? w : wmax;
        integral = integral && w == floor(w);
    }
    if (c->n == 0 || slots < 1)
        return 1;
    B = (1.0 + eps) * W / (double)slots;
    if (integral)
        B = ceil(B - 1e-9);
    B = B > wmax ? B : wmax;
    if (!(wmin > 0))
        return c->n; /* weightless tasks: any number fits */
    t = floor(B / wmin + 1e-9);
    return t >= c->n ? c->n : t < 1 ? 1 : (int32_t)t;
}

static tm_err check(tm_ctx *ctx, const tm_problem *p, int32_t tps)
{
    int64_t cap;
    if (!p || !p->comm)
        return tm__fail(ctx, TM_EUSAGE, "bounds: no problem or no communication graph");
    if (p->net) {
        if (!tm_net_csr_get(p->net))
            return tm__fail(ctx, TM_EUSAGE, "bounds: the network is not finalized");
        if (!p->alloc || p->alloc->n < 1)
            return tm__fail(ctx, TM_EUSAGE, "bounds: no allocation");
        cap = tm_alloc_total_slots(p->alloc);
    } else {
        if (!p->hier)
            return tm__fail(ctx, TM_EUSAGE, "bounds: neither a network nor a hierarchy");
        cap = p->hier->n_pe;
    }
    if ((double)cap * tps < p->comm->n)
        return tm__fail(ctx, TM_EINFEASIBLE, "bounds: %d tasks but room for %lld (%lld slots x "
                        "%d tasks each)", p->comm->n, (long long)cap * tps, (long long)cap, tps);
    return TM_EOK;
}

/* Fills method m's figures (NAN: none) and keeps the largest of each. */
static void set_method(tm_bounds *b, int m, double c, double d, double j)
{
    tm_bound_method *x = &b->method[b->n_methods++];
    x->name = tm__bound_method_name[m];
    x->max_congestion = c;
    x->avg_dilation = d;
    x->qap_J = j;
    if (c > b->max_congestion) {
        b->max_congestion = c;
        b->congestion_by = x->name;
    }
    if (d > b->avg_dilation) {
        b->avg_dilation = d;
        b->dilation_by = x->name;
    }
    if (j > b->qap_J) {
        b->qap_J = j;
        b->J_by = x->name;
    }
}

static double hop_distance(const tm_problem *p)
{
    if (p->hop_distance > 0)
        return p->hop_distance;
    return p->hier ? TM_HOP_DISTANCE_NODE_DEFAULT : 1.0;
}

static tm_err network(tm_ctx *ctx, const tm_problem *p, int32_t tps, int64_t work_net,
                      tm__tcut *t, tm_bounds *out)
{
    tm__ncut nc;
    double cong[TM__M_N], sum[TM__M_N], node = 0, c = hop_distance(p), best = 0;
    int32_t smax = 0;
    tm_err err = tm__ncut_build(ctx, p, tps, t->maxlen, work_net, &nc);
    if (err)
        return err;
    tm__cong_bounds(t, &nc, cong);
    tm__dist_sum_bounds(t, &nc, sum);
    for (int32_t i = 0; i < p->alloc->n; i++)
        smax = p->alloc->slots[i] > smax ? p->alloc->slots[i] : smax;
    if (p->hier)
        node = tm__dist_node_J(t, p->hier, smax, tps);
    for (int m = 0; m < TM__M_N; m++)
        if (!isnan(sum[m]) && sum[m] > best)
            best = sum[m];
    cong[TM__M_VOLUME] = nc.link_cap > 0 ? best / nc.link_cap : 0;
    for (int m = 0; m < TM__M_N; m++) {
        double d = isnan(sum[m]) ? NAN : t->W > 0 ? sum[m] / t->W : 0;
        double j = isnan(sum[m]) ? NAN : c * sum[m] + node;
        if (isnan(cong[m]) && isnan(sum[m]))
            continue;
        set_method(out, m, cong[m], d, j);
    }
    tm__ncut_release(&nc);
    return TM_EOK;
}

tm_err tm_bounds_compute(tm_ctx *ctx, const tm_problem *p, const tm_bounds_opts *opts,
                         tm_bounds *out)
{
    tm_bounds_opts dflt = TM_BOUNDS_OPTS_INIT;
    double t0 = tm__now();
    int32_t tps;
    int64_t work;
    tm__tcut t;
    tm_err err;
    tm_bounds_init(out);
    if (!opts)
        opts = &dflt;
    if (!p || !p->comm)
        return check(ctx, p, 1);
    tps = opts->tasks_per_slot > 0 ? opts->tasks_per_slot
          : p->imbalance < 0       ? 1
                                   : balance_tasks(p->comm, p->net ? tm_alloc_total_slots(p->alloc)
                                                                   : p->hier->n_pe,
                                                   p->imbalance);
    if ((err = check(ctx, p, tps)) != TM_EOK)
        return err;
    work = opts->work > 0 ? opts->work : 0;
    err = tm__tcut_init(ctx, p->comm, p->comm->n, work ? work : TM__BOUNDS_WORK_DEG, &t);
    if (err)
        return err;
    err = tm__tgrid_detect(ctx, p->comm, &t);
    if (!err)
        err = tm__flow_certificate(ctx, &t, work ? work : TM__BOUNDS_WORK_FLOW);
    if (!err && p->net) {
        err = network(ctx, p, tps, work ? work : TM__BOUNDS_WORK_NET, &t, out);
    } else if (!err) {
        double jb[TM__M_N];
        err = tm__dist_hier_J(ctx, &t, p->hier, tps, jb);
        for (int m = 0; !err && m < TM__M_N; m++)
            if (!isnan(jb[m]))
                set_method(out, m, NAN, NAN, jb[m]);
    }
    if (!err) {
        out->network = p->net != NULL;
        out->n_tasks = p->comm->n;
        out->total_volume = t.W;
        out->tasks_per_slot = tps;
        out->flow_sources = t.r;
        out->max_congestion *= 1 - SHAVE;
        out->avg_dilation *= 1 - SHAVE;
        out->qap_J *= 1 - SHAVE;
        out->time_s = tm__now() - t0;
    } else {
        tm_bounds_init(out);
    }
    tm__tcut_release(&t);
    return err;
}

/* value / bound, 1 for a value of 0, INFINITY over a bound of 0. */
static double gap(double value, double bound)
{
    if (!(value > 0))
        return 1.0;
    return bound > 0 ? value / bound : INFINITY;
}

void tm_bounds_gap_of(const tm_bounds *b, const tm_metrics *m, tm_bounds_gap *out)
{
    out->max_congestion = b->network ? gap(m->max_congestion, b->max_congestion) : 1.0;
    out->avg_dilation = b->network ? gap(m->avg_dilation, b->avg_dilation) : 1.0;
    out->qap_J = gap(m->qap_J, b->qap_J);
}

bool tm_bounds_within(const tm_bounds *b, const tm_metrics *m, tm_objective obj, double tol)
{
    tm_bounds_gap g;
    tm_bounds_gap_of(b, m, &g);
    switch (obj) {
    case TM_OBJ_CONGESTION: return g.max_congestion <= tol;
    case TM_OBJ_DILATION: return g.avg_dilation <= tol;
    case TM_OBJ_QAP: return g.qap_J <= tol;
    case TM_OBJ_PARETO: return g.max_congestion <= tol && g.avg_dilation <= tol;
    default: return false;
    }
}
