/* ta.c - the `ta` refinement: threshold accepting (Dueck & Scheuer 1990) on
 * the maximum link congestion, as in Hoefler & Snir Sec. 3.5, with the
 * incremental state of ta_state.c instead of a full evaluation per move.
 *
 * Objective: (max congestion, sum of squared congestions) compared
 * lexicographically; the sum of squares lets the search move on the wide
 * plateaus of equal maximum.  A move swaps the occupants of two slots on
 * different hosts (a free slot is an empty occupant, so moves to free slots
 * are included).  One in four moves starts at a host at either end of the
 * most congested link.  Most moves (31 in 32) are local: the partner slot lies
 * on the host of one of the task's communication partners or one of that
 * host's nearest allocated hosts; the others are uniform (far moves cost
 * far more to evaluate and are rarely accepted).  A move is accepted when
 * it improves the maximum, or when neither the maximum nor the sum of
 * squares grows by more than the threshold T (relative).  T falls linearly
 * from T0 to 0, in steps of 20 moves (the paper's inner loop).  The best
 * state seen is returned, so the result is never worse than the input.
 *
 * Budget: with a time limit the run ends at the limit (T follows the
 * elapsed time); without one it performs a fixed number of evaluations
 * ("ta:N" or 50 per slot, at least 20,000 and at most 2,000,000), so the
 * result depends only on the seed.  A time limit of 0 returns the input. */
#include <stdlib.h>
#include <string.h>

#include "ta.h"
#include "ta_state.h"
#include "topomap/metrics.h"
#include "../graph/sgraph.h"
#include "../net/netdist_int.h"
#include "../util/util.h"

#define TA_T0 0.003
#define TA_INNER 20
#define TA_RESYNC 4096 /* accepted moves between exact sums of squares */
/* Without a time limit the search ends once budget / TA_STALL_DIV
 * evaluations in a row found no better state.  With the threshold of
 * 0.003 few moves are accepted (139 to 1,626 of 25,600 to 51,200 on the
 * default's level-1 rows of SpMV, the real traces and X5), and on all of
 * them the last better state came within the first 12 % of the budget:
 * the rest of the moves only cost time (40 % of the default's on LULESH
 * 1,000 renumbered, whose row was optimal before TA began). */
#define TA_STALL_DIV 4
/* With several slots on a host, one move in TA_BLOCK_EVERY trades the
 * contents of two hosts (block_move). */
#define TA_BLOCK_EVERY 16

/* The dilation guard: the total volume x hops W of the mapping (average
 * dilation = W / total volume) may grow by at most the factor `cap` over
 * the start, and among states of equal maximum congestion the one with the
 * smaller W is kept.  A move changes W only through the messages of the
 * two tasks, so its change costs O(deg a + deg b) oracle lookups. */
typedef struct guard {
    const tm_netdist *d;
    double w, cap;   /* current W; largest W allowed (< 0: no cap) */
} guard;

static double side(const tm__ta_state *st, const tm_netdist *d, int32_t a, int32_t from,
                   int32_t to, int32_t skip)
{
    const tm_comm *c = st->c;
    double x = 0;
    for (int64_t e = c->xadj[a]; e < c->xadj[a + 1]; e++) {
        int32_t y = c->adj[e], hy;
        if (y == skip || y == a)
            continue;
        hy = st->aidx[st->cur.host[y]];
        x += c->w[e] * (tm__netdist_hops(d, to, hy) - tm__netdist_hops(d, from, hy));
    }
    for (int64_t e = st->ixadj[a]; e < st->ixadj[a + 1]; e++) {
        int32_t y = st->iadj[e], hy;
        if (y == skip || y == a)
            continue;
        hy = st->aidx[st->cur.host[y]];
        x += st->iw[e] * (tm__netdist_hops(d, to, hy) - tm__netdist_hops(d, from, hy));
    }
    return x;
}

/* Change of W if task a (on unit u1) and task b (on u2, -1: free) swap;
 * the messages between a and b keep their length. */
static double guard_delta(const tm__ta_state *st, const guard *gd, int32_t u1, int32_t u2)
{
    int32_t a = st->occ[u1], b = st->occ[u2];
    int32_t x1 = st->aidx[st->unit_host[u1]], x2 = st->aidx[st->unit_host[u2]];
    double d = 0;
    if (a >= 0)
        d += side(st, gd->d, a, x1, x2, b);
    if (b >= 0)
        d += side(st, gd->d, b, x2, x1, a);
    return d;
}

static double total_w(const tm__ta_state *st, const tm_netdist *d)
{
    const tm_comm *c = st->c;
    double w = 0;
    for (int32_t u = 0; u < c->n; u++)
        for (int64_t e = c->xadj[u]; e < c->xadj[u + 1]; e++)
            w += c->w[e] * tm__netdist_hops(d, st->aidx[st->cur.host[u]],
                                            st->aidx[st->cur.host[c->adj[e]]]);
    return w;
}

/* A lower bound on the maximum congestion of every placement, or 0.  When
 * each allocated host has one slot, all of a task's messages leave (and
 * enter) its host over the host's own cables, and the most loaded of them
 * carries at least total / total capacity of the host (the mediant of the
 * per-cable ratios); the task may sit on the host with the most capacity.
 * When the search reaches the bound it stops: nothing can do better
 * (typical of fat-trees, where the host links pin the maximum). */
static double lower_bound(const tm__ta_state *st)
{
    const tm_comm *c = st->c;
    const tm_net_csr *g = st->g;
    double cmax = 0, lb = 0;
    for (int32_t h = 0; h < st->nh; h++) {
        double cap = 0;
        int32_t v = st->unit_host[st->hoff[h]];
        if (st->hoff[h + 1] - st->hoff[h] != 1)
            return 0;
        for (int32_t e = g->off[v]; e < g->off[v + 1]; e++)
            cap += g->cap[g->link[e]];
        cmax = cap > cmax ? cap : cmax;
    }
    if (cmax <= 0)
        return 0;
    for (int32_t t = 0; t < c->n; t++) {
        double out = 0, in = 0;
        for (int64_t e = c->xadj[t]; e < c->xadj[t + 1]; e++)
            out += c->adj[e] != t ? c->w[e] : 0;
        for (int64_t e = st->ixadj[t]; e < st->ixadj[t + 1]; e++)
            in += st->iadj[e] != t ? st->iw[e] : 0;
        lb = out > lb ? out : lb;
        lb = in > lb ? in : lb;
    }
    return lb / cmax;
}

/* (max, W, sum of squares) lexicographically. */
static bool state_better(double m1, double w1, double s1, double m0, double w0, double s0)
{
    if (m1 < m0 * (1 - 1e-12))
        return true;
    if (m1 > m0 * (1 + 1e-12))
        return false;
    if (w1 < w0 - 1e-9 * (w0 > 1 ? w0 : 1))
        return true;
    if (w1 > w0 + 1e-9 * (w0 > 1 ? w0 : 1))
        return false;
    return s1 < s0 * (1 - 1e-12);
}

/* The task to move: one in four moves start at a host at either end of the
 * most congested link when that host holds tasks (the bottleneck of
 * indirect networks is often a host's own link); the others are uniform. */
static int32_t pick_task(tm__ta_state *st, tm__rng *r, int32_t n)
{
    if (st->argmax >= 0 && tm__rng_below(r, 4) == 0) {
        int32_t l = st->argmax;
        int32_t h = st->aidx[tm__rng_below(r, 2) ? st->g->tail_of[l] : st->g->head_of[l]];
        if (h >= 0) {
            uint64_t k = (uint64_t)(st->hoff[h + 1] - st->hoff[h]);
            int32_t u = st->hoff[h] + (int32_t)tm__rng_below(r, k);
            if (st->occ[u] >= 0)
                return st->occ[u];
        }
    }
    return (int32_t)tm__rng_below(r, (uint64_t)n);
}

/* Partner slot of a move from unit u1 (task a). */
static int32_t pick_partner(tm__ta_state *st, tm__rng *r, int32_t a)
{
    const tm_comm *c = st->c;
    int64_t deg = c->xadj[a + 1] - c->xadj[a];
    if (deg > 0 && tm__rng_below(r, 32) != 0) {
        int32_t v = c->adj[c->xadj[a] + (int64_t)tm__rng_below(r, (uint64_t)deg)];
        int32_t h = st->aidx[st->cur.host[v]];
        uint64_t k = tm__rng_below(r, TM__TA_NEAR + 1);
        if (k > 0 && st->near[(size_t)h * TM__TA_NEAR + k - 1] >= 0)
            h = st->near[(size_t)h * TM__TA_NEAR + k - 1];
        return st->hoff[h] + (int32_t)tm__rng_below(r, (uint64_t)(st->hoff[h + 1] - st->hoff[h]));
    }
    return (int32_t)tm__rng_below(r, (uint64_t)st->U);
}

/* Whether a move that led from (max0, sq0) to (nmax, nsq) is accepted
 * under threshold thr. */
static bool accept(double nmax, double nsq, double max0, double sq0, double thr)
{
    return nmax < max0 * (1 - 1e-12) ||
           (nmax <= max0 * (1 + thr) + 1e-300 && nsq <= sq0 * (1 + thr) + 1e-300);
}

/* Swaps units u1 and u2 for good (a step of a block move); *w follows. */
static tm_err swap_now(tm__ta_state *st, const guard *gd, int32_t u1, int32_t u2, double *w,
                       double *nmax)
{
    double nsq, dw = gd->d ? guard_delta(st, gd, u1, u2) : 0;
    tm_err err = tm__ta_move_eval(st, u1, u2, nmax, &nsq);
    if (!err) {
        tm__ta_move_commit(st, u1, u2, nsq);
        *w += dw;
    }
    return err;
}

/* A block move: the contents of two hosts trade places, slot by slot.  A
 * task-by-task search cannot move a node's group of tasks to a host with
 * faster links without passing through states that split the group: on
 * 16 hosts of X5 with links of two speeds and 4 tasks each, LULESH 64's
 * groups sat on the slow links at 1.5x the congestion of the placement
 * that puts the groups with the most external traffic on the fast ones.
 * The first host is one end of the most congested link when that is a
 * host, else any; the other, one of its nearest or any.  Undone by the
 * same swaps backwards when not accepted. */
static tm_err block_move(tm__ta_state *st, guard *gd, tm__rng *r, double thr, double *cur_max,
                         bool *accepted)
{
    int32_t h1 = -1, h2, k;
    double max0 = *cur_max, sq0 = st->sumsq, w0 = gd->w, nmax = max0;
    tm_err err = TM_EOK;
    *accepted = false;
    if (st->argmax >= 0) {
        int32_t l = st->argmax;
        h1 = st->aidx[tm__rng_below(r, 2) ? st->g->tail_of[l] : st->g->head_of[l]];
    }
    if (h1 < 0)
        h1 = (int32_t)tm__rng_below(r, (uint64_t)st->nh);
    h2 = st->near[(size_t)h1 * TM__TA_NEAR + tm__rng_below(r, TM__TA_NEAR)];
    if (h2 < 0 || tm__rng_below(r, 2) == 0)
        h2 = (int32_t)tm__rng_below(r, (uint64_t)st->nh);
    k = st->hoff[h1 + 1] - st->hoff[h1];
    if (st->hoff[h2 + 1] - st->hoff[h2] < k)
        k = st->hoff[h2 + 1] - st->hoff[h2];
    if (h1 == h2 || k < 2)
        return TM_EOK;
    for (int32_t i = 0; i < k && !err; i++)
        err = swap_now(st, gd, st->hoff[h1] + i, st->hoff[h2] + i, &gd->w, &nmax);
    if (err)
        return err;
    if (accept(nmax, st->sumsq, max0, sq0, thr) && !(gd->cap >= 0 && gd->w > gd->cap)) {
        *cur_max = nmax;
        *accepted = true;
        return TM_EOK;
    }
    for (int32_t i = k - 1; i >= 0 && !err; i--)
        err = swap_now(st, gd, st->hoff[h1] + i, st->hoff[h2] + i, &gd->w, &nmax);
    gd->w = w0;
    *cur_max = tm__maxtree_max(&st->tree);
    st->sumsq = sq0;
    return err;
}

/* The state after an accepted move: the best so far kept, the checks. */
static void accepted_move(tm__ta_state *st, const tm__ta_opts *o, const guard *gd,
                          double cur_max, tm_mapping *best, double *best_max, double *best_sq,
                          double *best_w, tm__ta_stats *stats)
{
    int32_t n = st->c->n;
    stats->accepted++;
    if (stats->accepted % TA_RESYNC == 0) {
        double s = 0;
        for (int32_t l = 0; l < st->g->n_links; l++) {
            double c = tm__maxtree_get(&st->tree, l);
            s += c * c;
        }
        st->sumsq = s;
    }
    if (o->check)
        o->check(o->check_data, &st->cur, st->load, cur_max, st->sumsq);
    if (state_better(cur_max, gd->w, st->sumsq, *best_max, *best_w, *best_sq)) {
        *best_max = cur_max;
        *best_sq = st->sumsq;
        *best_w = gd->w;
        memcpy(best->host, st->cur.host, (size_t)n * sizeof *best->host);
        memcpy(best->slot, st->cur.slot, (size_t)n * sizeof *best->slot);
        stats->improved++;
        stats->last_improved = stats->evaluations;
    }
}

static tm_err search(const tm_ctx *ctx, tm__ta_state *st, const tm__ta_opts *o, guard *gd,
                     tm__rng *r, tm_mapping *best, tm__ta_stats *stats)
{
    int32_t n = st->c->n;
    double t0 = tm__now(), T = o->threshold0 > 0 ? o->threshold0 : TA_T0, thr = T;
    double cur_max = tm__maxtree_max(&st->tree), best_max = cur_max, best_sq = st->sumsq;
    double best_w = gd->w, lb = lower_bound(st);
    int64_t budget = o->budget, it;
    bool timed = o->time_limit >= 0;
    tm_err err = TM_EOK;

    if (budget <= 0) {
        budget = 50 * (int64_t)st->U;
        budget = budget < 20000 ? 20000 : budget > 2000000 ? 2000000 : budget;
    }
    for (it = 0; timed || it < budget; it++) {
        int32_t a, u1, u2;
        double nmax, nsq, dw;
        if (it % TA_INNER == 0) {
            double phi;
            if (best_max <= lb * (1 + 1e-12))
                break; /* at the lower bound */
            if (!timed && stats->evaluations - stats->last_improved > budget / TA_STALL_DIV)
                break; /* stalled */
            if (tm__stopped(ctx))
                break; /* the caller's stop request: keep the best so far */
            if (timed) {
                double el = tm__now() - t0;
                if (el >= o->time_limit)
                    break;
                phi = el / o->time_limit;
            } else {
                phi = (double)it / (double)budget;
            }
            thr = T * (1 - phi);
        }
        if (st->multi && tm__rng_below(r, TA_BLOCK_EVERY) == 0) {
            bool acc;
            err = block_move(st, gd, r, thr, &cur_max, &acc);
            if (err)
                break;
            stats->evaluations++;
            if (acc)
                accepted_move(st, o, gd, cur_max, best, &best_max, &best_sq, &best_w, stats);
            continue;
        }
        a = pick_task(st, r, n);
        u1 = st->unit_of[a];
        u2 = pick_partner(st, r, a);
        if (st->unit_host[u1] == st->unit_host[u2])
            continue;
        dw = gd->d ? guard_delta(st, gd, u1, u2) : 0;
        if (gd->cap >= 0 && gd->w + dw > gd->cap)
            continue; /* dilation would grow past the cap */
        err = tm__ta_move_eval(st, u1, u2, &nmax, &nsq);
        if (err)
            break;
        stats->evaluations++;
        if (accept(nmax, nsq, cur_max, st->sumsq, thr)) {
            tm__ta_move_commit(st, u1, u2, nsq);
            cur_max = nmax;
            gd->w += dw;
            accepted_move(st, o, gd, cur_max, best, &best_max, &best_sq, &best_w, stats);
        } else {
            tm__ta_move_undo(st, u1, u2);
        }
    }
    stats->max_after = best_max;
    stats->sumsq_after = best_sq;
    stats->w_after = best_w;
    return err;
}

/* Exact (max congestion, W) of m on the whole job: the check of a search
 * run on the heavy edges. */
static tm_err exact(tm_ctx *ctx, const tm_problem *p, const tm_route *route, const tm_mapping *m,
                    double *max, double *w)
{
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    tm_time_opts none = TM_TIME_OPTS_INIT;
    tm_metrics met;
    tm_err err;
    none.model = TM_TIME_NONE;
    o.time = &none;
    tm_metrics_init(&met);
    err = tm_metrics_eval(ctx, route, p->comm, m, &o, &met);
    *max = met.max_congestion;
    *w = met.avg_dilation * met.total_volume;
    tm_metrics_release(&met);
    return err;
}

/* Threshold accepting on the job's heavy edges (TM__SEARCH_RATIO) when the
 * light ones carry at most TM__LIGHT_WEIGHT of the volume: a move reroutes
 * the messages of two tasks, and on a trace rank 0 has a message with every
 * rank (AMG2013 1,000: 451 partners a rank on average, 18 heavy).  The
 * answer replaces m only if it is no worse on the whole job (exact maximum,
 * then W), so the refinement is never worse by its own objective. */
static tm_err run_heavy(tm_ctx *ctx, const tm_problem *p, const tm__ta_opts *opts,
                        uint64_t seed, tm_mapping *m, tm__ta_stats *stats, bool *done)
{
    tm_problem q = *p;
    tm_comm heavy;
    tm__heavy_share kept;
    tm_mapping r;
    double m0, w0, m1, w1;
    tm_err err;
    *done = false;
    if (!p->route || (err = tm__comm_heavy(ctx, p->comm, TM__SEARCH_RATIO, &heavy, &kept)))
        return TM_EOK; /* (out of memory: the search on the whole job says so) */
    if (!tm__heavy_suffices(&kept)) {
        tm_comm_release(&heavy);
        return TM_EOK;
    }
    *done = true;
    q.comm = &heavy;
    tm_mapping_init(&r);
    err = tm_mapping_copy(ctx, m, &r);
    if (!err)
        err = tm__ta_run(ctx, &q, opts, seed, &r, stats);
    if (!err)
        err = exact(ctx, p, p->route, m, &m0, &w0);
    if (!err)
        err = exact(ctx, p, p->route, &r, &m1, &w1);
    if (!err && state_better(m1, w1, 0, m0, w0, 1)) {
        memcpy(m->host, r.host, (size_t)m->n * sizeof *m->host);
        memcpy(m->slot, r.slot, (size_t)m->n * sizeof *m->slot);
    }
    tm_mapping_release(&r);
    tm_comm_release(&heavy);
    return err;
}

tm_err tm__ta_run(tm_ctx *ctx, const tm_problem *p, const tm__ta_opts *opts, uint64_t seed,
                  tm_mapping *m, tm__ta_stats *stats)
{
    tm__ta_state st;
    tm_route *own = NULL;
    const tm_route *route = p->route;
    tm_mapping best;
    tm__ta_stats dummy;
    tm_netdist *own_d = NULL;
    guard gd = {NULL, 0, -1};
    tm__rng r;
    double t0 = tm__now();
    tm_err err;

    if (!stats)
        stats = &dummy;
    memset(stats, 0, sizeof *stats);
    tm_mapping_init(&best);
    if (!p->net || !m->host)
        return tm__fail(ctx, TM_EUSAGE, "refinement 'ta' needs a network (not hierarchy mode)");
    if (opts->time_limit == 0 || m->n < 2)
        return TM_EOK;
    if (!route) {
        err = tm_route_new(ctx, p->net, TM_ROUTE_ECMP, &own);
        if (err)
            return err;
        route = own;
    }
    err = tm__ta_state_init(ctx, &st, p, route, m);
    if (!err)
        err = tm_mapping_copy(ctx, m, &best);
    if (err)
        goto out;
    gd.d = p->dist;
    if (!gd.d) {
        err = tm_netdist_new(ctx, p->net, p->alloc->host, p->alloc->n, &own_d);
        if (err)
            goto out;
        gd.d = own_d;
    }
    gd.w = total_w(&st, gd.d);
    if (opts->dil_cap >= 0)
        gd.cap = gd.w * (1 + (opts->dil_cap > 0 ? opts->dil_cap : TM__TA_DIL_CAP)) + 1e-9;
    stats->max_before = tm__maxtree_max(&st.tree);
    stats->sumsq_before = st.sumsq;
    stats->w_before = gd.w;
    tm__rng_seed(&r, seed, 0x7461ULL); /* "ta" stream */
    if (st.U > 1 && st.nh > 1)
        err = search(ctx, &st, opts, &gd, &r, &best, stats);
    else
        stats->max_after = stats->max_before, stats->sumsq_after = stats->sumsq_before,
        stats->w_after = stats->w_before;
    if (!err && state_better(stats->max_after, stats->w_after, stats->sumsq_after,
                             stats->max_before, stats->w_before, stats->sumsq_before)) {
        memcpy(m->host, best.host, (size_t)m->n * sizeof *m->host);
        memcpy(m->slot, best.slot, (size_t)m->n * sizeof *m->slot);
    }
out:
    stats->time_s = tm__now() - t0;
    tm__ta_state_release(&st);
    tm_mapping_release(&best);
    tm_route_free(own);
    tm_netdist_free(own_d);
    return err;
}

/* "ta", "ta:N" (N moves), "ta:dil=F" (W may grow by the factor F; "none":
 * no cap), "ta:N,dil=F". */
static tm_err parse_ta(tm_ctx *ctx, const char *arg, tm__ta_opts *o)
{
    char buf[64], *save = NULL;
    if (!arg || !*arg)
        return TM_EOK;
    if (strlen(arg) >= sizeof buf)
        return tm__fail(ctx, TM_EUSAGE, "ta: argument '%s' too long", arg);
    snprintf(buf, sizeof buf, "%s", arg);
    for (char *it = strtok_r(buf, ",", &save); it; it = strtok_r(NULL, ",", &save)) {
        int64_t b;
        double f;
        if (strncmp(it, "dil=", 4) == 0) {
            if (strcmp(it + 4, "none") == 0)
                o->dil_cap = -1;
            else if (tm__str_to_double(it + 4, &f) || f < 0)
                return tm__fail(ctx, TM_EUSAGE, "ta: '%s': dil= takes a growth factor >= 0 "
                                "(0.05 = 5%%) or 'none'", it);
            else
                o->dil_cap = f > 0 ? f : 1e-15;
        } else if (tm__str_to_i64(it, &b) || b < 0) {
            return tm__fail(ctx, TM_EUSAGE, "ta: '%s' is not a number of moves or dil=F", it);
        } else {
            o->budget = b == 0 ? -1 : b;
        }
    }
    return TM_EOK;
}

tm_err tm__refine_ta(tm_ctx *ctx, const tm_problem *p, const char *arg, uint64_t seed,
                     tm_mapping *m)
{
    tm__ta_opts o = {0, tm_ctx_time_limit(ctx), 0, NULL, NULL, 0};
    tm_err err = parse_ta(ctx, arg, &o);
    bool done = false;
    if (err || o.budget < 0)
        return err; /* ta:0 keeps the input */
    if (p->net && m->host && o.time_limit != 0 && (err = run_heavy(ctx, p, &o, seed, m, NULL, &done)))
        return err;
    return done ? TM_EOK : tm__ta_run(ctx, p, &o, seed, m, NULL);
}
