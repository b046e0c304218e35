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

#include "refine_int.h"
#include "ta_int.h"
#include "../util/util.h"

#define TA_T0 0.003
#define TA_INNER 20
#define TA_RESYNC 4096 /* accepted moves between exact sums of squares */

static bool lex_better(double m1, double s1, double m0, double s0)
{
    if (m1 < m0 * (1 - 1e-12))
        return true;
    return m1 <= m0 * (1 + 1e-12) && s1 < s0 * (1 - 1e-12);
}

/* The task to move: one in four moves start at a host at either end of the
 * most congested link when that host holds tasks (the bottleneck of
 * indirect networks is often a host's own link); the others are uniform. */
static int32_t pick_task(tm__ta_state *st, tm_rng *r, int32_t n)
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
static int32_t pick_partner(tm__ta_state *st, tm_rng *r, int32_t a)
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

static tm_err search(tm__ta_state *st, const tm__ta_opts *o, tm_rng *r, tm_mapping *best,
                     tm__ta_stats *stats)
{
    int32_t n = st->c->n;
    double t0 = tm__now(), T = o->threshold0 > 0 ? o->threshold0 : TA_T0, thr = T;
    double cur_max = tm__maxtree_max(&st->tree), best_max = cur_max, best_sq = st->sumsq;
    int64_t budget = o->budget, it;
    bool timed = o->time_limit >= 0;
    tm_err err = TM_EOK;

    if (budget <= 0) {
        budget = 50 * (int64_t)st->U;
        budget = budget < 20000 ? 20000 : budget > 2000000 ? 2000000 : budget;
    }
    for (it = 0; timed || it < budget; it++) {
        int32_t a, u1, u2;
        double nmax, nsq;
        if (it % TA_INNER == 0) {
            double phi;
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
        a = pick_task(st, r, n);
        u1 = st->unit_of[a];
        u2 = pick_partner(st, r, a);
        if (st->unit_host[u1] == st->unit_host[u2])
            continue;
        err = tm__ta_move_eval(st, u1, u2, &nmax, &nsq);
        if (err)
            break;
        stats->evaluations++;
        if (nmax < cur_max * (1 - 1e-12) ||
            (nmax <= cur_max * (1 + thr) + 1e-300 && nsq <= st->sumsq * (1 + thr) + 1e-300)) {
            tm__ta_move_commit(st, u1, u2, nsq);
            cur_max = nmax;
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
            if (lex_better(cur_max, st->sumsq, best_max, best_sq)) {
                best_max = cur_max;
                best_sq = st->sumsq;
                memcpy(best->host, st->cur.host, (size_t)n * sizeof *best->host);
                memcpy(best->slot, st->cur.slot, (size_t)n * sizeof *best->slot);
                stats->improved++;
            }
        } else {
            tm__ta_move_undo(st, u1, u2);
        }
    }
    stats->max_after = best_max;
    stats->sumsq_after = best_sq;
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
    tm_rng r;
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
    stats->max_before = tm__maxtree_max(&st.tree);
    stats->sumsq_before = st.sumsq;
    tm__rng_seed(&r, seed, 0x7461ULL); /* "ta" stream */
    if (st.U > 1 && st.nh > 1)
        err = search(&st, opts, &r, &best, stats);
    else
        stats->max_after = stats->max_before, stats->sumsq_after = stats->sumsq_before;
    if (!err && lex_better(stats->max_after, stats->sumsq_after, stats->max_before,
                           stats->sumsq_before)) {
        memcpy(m->host, best.host, (size_t)m->n * sizeof *m->host);
        memcpy(m->slot, best.slot, (size_t)m->n * sizeof *m->slot);
    }
out:
    stats->time_s = tm__now() - t0;
    tm__ta_state_release(&st);
    tm_mapping_release(&best);
    tm_route_free(own);
    return err;
}

tm_err tm__refine_ta(tm_ctx *ctx, const tm_problem *p, const char *arg, uint64_t seed,
                     tm_mapping *m)
{
    tm__ta_opts o = {0, tm_ctx_time_limit(ctx), 0, NULL, NULL};
    if (arg && *arg) {
        int64_t b;
        if (tm__str_to_i64(arg, &b) || b < 0)
            return tm__fail(ctx, TM_EUSAGE, "ta: '%s' is not a number of moves", arg);
        if (b == 0)
            return TM_EOK;
        o.budget = b;
    }
    return tm__ta_run(ctx, p, &o, seed, m, NULL);
}
