/* run.c - tm_map_run: one strategy or the whole portfolio ("all", Hoefler
 * & Snir Sec. 4.2 / Fig. 4: every strategy, greedy from several starts, each
 * refined, the best by the chosen objective is kept).
 *
 * Runs are independent jobs with their own context, seed and mapping, so
 * they execute in tm_ctx_threads() worker threads and the result does not
 * depend on the thread count (without a time limit): a job's output depends
 * only on its seed, and the winner is chosen by the objective with ties
 * broken by job order.  A time limit is a budget for the whole call
 * (run_int.h, docs/mapping.md "Time budget"): constructions start only in
 * its first third, the best of them are refined side by side until the
 * evaluations that follow just fit, and the consecutive placement is the
 * answer when nothing beat it.  METIS calls inside the strategies are isolated
 * (src/graph/metis_pool.h); igraph is not called by any network-mode
 * strategy, so the workers only read the net's CSR snapshot and the shared
 * read-only router.
 *
 * Anytime: when the context's stop predicate fires, refinements return
 * their best mapping so far, jobs not yet started are dropped (the first
 * always runs), and the best of the finished rows is returned as usual. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_int.h"
#include "../graph/bfs.h"
#include "../graph/metis_pool.h"
#include "../util/util.h"

/* Under a time limit, the share of it in which constructions (jobs, and
 * the trials inside topdown) may start; the refinements have the rest. */
#define CONSTRUCT_SHARE (1.0 / 3)

/* Allocated hosts that cannot reach the first one through transit
 * vertices make a disconnected allocation (TM_EINPUT naming them). */
static tm_err check_connected(tm_ctx *ctx, const tm_problem *p)
{
    const tm_net_csr *g = tm_net_csr_get(p->net);
    const tm_alloc *al = p->alloc;
    int32_t *dist, *q, bad = 0, parts = 1;
    tm__bfs b;
    char list[600] = "";
    size_t len = 0;
    tm_err err = TM_EOK;
    if (al->n <= 1)
        return TM_EOK;
    dist = tm__malloc_n((size_t)g->n, sizeof *dist);
    q = tm__malloc_n((size_t)g->n, sizeof *q);
    if (!dist || !q) {
        free(dist);
        free(q);
        return tm__nomem(ctx);
    }
    tm__bfs_init(&b, g, dist, q);
    tm__bfs_from(&b, al->host[0]);
    for (int32_t i = 1; i < al->n; i++) {
        if (dist[al->host[i]] >= 0)
            continue;
        if (bad++ < 10 && len < sizeof list - 80)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s'%s'", bad > 1 ? ", " : "",
                                    tm_net_name(p->net, al->host[i]));
    }
    if (bad > 10)
        snprintf(list + len, sizeof list - len, " and %d more", bad - 10);
    for (int32_t i = 1; i < al->n && parts == 1; i++)
        if (tm_net_part(p->net, al->host[i]) != tm_net_part(p->net, al->host[0]))
            parts = 2;
    if (bad)
        err = tm__fail(ctx, TM_EINPUT,
                       "disconnected allocation: %d allocated host%s cannot be reached from host "
                       "'%s': %s%s",
                       bad, bad > 1 ? "s" : "", tm_net_name(p->net, al->host[0]), list,
                       parts > 1 ? " (the allocation spans connected parts of the network: "
                                   "'topomap topo info' lists them)"
                                 : "");
    free(dist);
    free(q);
    return err;
}

void tm_map_result_init(tm_map_result *r)
{
    memset(r, 0, sizeof *r);
    tm_mapping_init(&r->mapping);
    r->best = -1;
}

void tm_map_result_release(tm_map_result *r)
{
    for (int32_t i = 0; i < r->n_rows; i++) {
        if (r->rows[i].metrics)
            tm_metrics_release(r->rows[i].metrics);
        free(r->rows[i].metrics);
    }
    free(r->rows);
    if (r->consecutive)
        tm_metrics_release(r->consecutive);
    free(r->consecutive);
    tm_mapping_release(&r->mapping);
    tm_map_result_init(r);
}

/* "nc:1+ta" -> the refiners in order, each with its argument. */
static tm_err parse_chain(tm_ctx *ctx, const tm_problem *p, const char *refine, tm__runner *rn)
{
    unsigned mode = p->net ? TM_MODE_NETWORK : TM_MODE_HIERARCHY;
    const char *s = refine;
    if (!refine || strcmp(refine, "none") == 0)
        return TM_EOK;
    while (*s) {
        size_t n = strcspn(s, "+");
        char item[64];
        const char *colon;
        if (n == 0 || n >= sizeof item || rn->nrf == MAX_CHAIN)
            return tm__fail(ctx, TM_EUSAGE, "refinement '%s': expected up to %d names joined "
                            "by '+' (e.g. nc:1+ta)", refine, MAX_CHAIN);
        memcpy(item, s, n);
        item[n] = 0;
        rn->rf[rn->nrf] = tm_refiner_find(item);
        if (!rn->rf[rn->nrf])
            return tm__fail(ctx, TM_EUSAGE, "unknown refinement '%s'", item);
        if (!(rn->rf[rn->nrf]->modes & mode))
            return tm__fail(ctx, TM_EUSAGE, "refinement '%s' does not work in %s mode", item,
                            p->net ? "network" : "hierarchy");
        colon = strchr(item, ':');
        if (colon && strlen(colon + 1) >= sizeof rn->rarg[0])
            return tm__fail(ctx, TM_EUSAGE, "refinement '%s': argument too long", item);
        rn->has_arg[rn->nrf] = colon != NULL;
        snprintf(rn->rarg[rn->nrf], sizeof rn->rarg[0], "%s", colon ? colon + 1 : "");
        rn->nrf++;
        s += n;
        if (*s == '+' && !*++s)
            return tm__fail(ctx, TM_EUSAGE, "refinement '%s' ends with '+'", refine);
    }
    return TM_EOK;
}

/* Network mode: more tasks than slots (general mapping, or refused
 * without --imbalance), connectivity, and the router and hop-distance
 * oracle every job shares read-only, created here in the calling thread. */
static tm_err setup_network(tm_ctx *ctx, const tm_problem *p, tm_problem *pr, tm__general *gen,
                            tm_route **own, tm_netdist **own_dist)
{
    int64_t slots = tm_alloc_total_slots(p->alloc);
    tm_err err;
    if (p->comm->n > slots && p->imbalance < 0)
        return tm__fail(ctx, TM_EINFEASIBLE,
                        "%d tasks but only %lld slots on %d hosts (general process mapping needs an "
                        "imbalance EPS >= 0)",
                        p->comm->n, (long long)slots, p->alloc->n);
    err = check_connected(ctx, p);
    if (!err && !pr->route) {
        err = tm_route_new(ctx, p->net, TM_ROUTE_ECMP, own);
        pr->route = *own;
    }
    if (!err && !pr->dist) {
        err = tm_netdist_new(ctx, p->net, p->alloc->host, p->alloc->n, own_dist);
        pr->dist = *own_dist;
    }
    /* after the oracle: the partition's multisection uses it too */
    if (!err && p->comm->n > slots) {
        err = tm__general_build(ctx, pr, tm_ctx_seed(ctx), gen);
        pr->comm = &gen->q;
        pr->imbalance = -1;
    }
    return err;
}

/* Fields a caller fills by hand: checked here, not silently taken as
 * congestion or as a NaN bound. */
static tm_err check_args(tm_ctx *ctx, const tm_problem *p, tm_objective obj)
{
    if ((unsigned)obj > (unsigned)TM_OBJ_TIME)
        return tm__fail(ctx, TM_EUSAGE, "unknown objective %d", (int)obj);
    if (obj == TM_OBJ_TIME && !p->net)
        return tm__fail(ctx, TM_EUSAGE, "objective 'time' needs a network (the time model has "
                        "no hierarchy mode)");
    if (!isfinite(p->imbalance) || !isfinite(p->hop_distance))
        return tm__fail(ctx, TM_EUSAGE, "imbalance %g and hop distance %g must be finite",
                        p->imbalance, p->hop_distance);
    /* the bound of the CLI's --hop-distance: J stays finite (docs/errors.md) */
    if (p->hop_distance > TM_HIER_MAX_DISTANCE)
        return tm__fail(ctx, TM_EUSAGE, "hop distance %g is larger than the limit %g",
                        p->hop_distance, TM_HIER_MAX_DISTANCE);
    return TM_EOK;
}

/* The first job error fails the run; else the baseline, then one row per
 * job that ran (a skipped one has none), in job order, each taking its
 * job's figures; row_job[r] is the job of row r. */
static tm_err collect_rows(tm_ctx *ctx, tm__runner *rn, const char *refine, tm_map_result *out,
                           int *row_job)
{
    tm_err err;
    for (int i = 0; i < rn->nj; i++)
        if (rn->jobs[i].err)
            return tm__fail(ctx, rn->jobs[i].err, "%s", rn->jobs[i].msg);
    /* before the rows take the figures: the baseline may reuse a row's */
    if ((err = tm__run_baseline(ctx, rn->p, rn, out)) != TM_EOK)
        return err;
    for (int i = 0; i < rn->nj; i++) {
        tm__run_job *j = &rn->jobs[i];
        tm_map_row *r;
        if (j->skipped)
            continue;
        r = &out->rows[out->n_rows];
        row_job[out->n_rows++] = i;
        snprintf(r->name, sizeof r->name, "%s", j->name);
        snprintf(r->refine, sizeof r->refine, "%s", rn->nrf && !j->screened ? refine : "");
        r->screened = j->screened;
        r->start_congestion = j->start[0];
        r->start_dilation = j->start[1];
        r->start_J = j->start[2];
        r->reverted = j->reverted;
        r->metrics = j->met;
        j->met = NULL;
        r->time_s = j->time_s;
        r->refine_time_s = j->refine_s;
    }
    return TM_EOK;
}

/* When the consecutive placement itself becomes the result, as one more
 * row named "consecutive" (its figures are the baseline's):
 * - the time objective's guard: even the fastest row is not predicted
 *   faster than consecutive by more than the time model's error
 *   (TM_TIME_GAIN_TOLERANCE; rows are sorted by est_time_s first, so no
 *   row is then): slower, or a gain the estimate cannot vouch for, and
 *   consecutive is the candidate known not to lose;
 * - under a time limit (network mode, one task per slot), a result that
 *   consecutive beats on the objective (pareto: dominates): a budget too
 *   short for anything better still returns the baseline, never less.
 *   Without a limit every row had its full refinement and the rule is not
 *   needed (results stay those of before). */
static bool needs_fallback(const tm__runner *rn, tm_objective obj, const tm_map_result *out)
{
    const tm_metrics *c = out->consecutive, *m = out->rows[out->best].metrics;
    if (!c)
        return false;
    if (obj == TM_OBJ_TIME)
        return tm__run_no_clear_gain(m, c);
    return rn->timed && rn->p->net && !rn->gen &&
           (obj == TM_OBJ_PARETO ? tm__run_dominates(c, m, obj) : tm__run_better(c, m, obj));
}

static tm_err fall_back(tm_ctx *ctx, const tm__runner *rn, tm_map_result *out)
{
    tm_map_row *r = &out->rows[out->n_rows];
    const tm_problem *p = rn->p;
    tm_err err;
    memset(r, 0, sizeof *r);
    if (!(r->metrics = malloc(sizeof *r->metrics)))
        return tm__nomem(ctx);
    *r->metrics = *out->consecutive; /* no link loads in a row's figures */
    if (rn->gen)
        err = tm_mapping_blocks(ctx, p->alloc, rn->full->n, &out->mapping);
    else
        err = tm_mapping_consecutive(ctx, p->alloc, p->comm->n, &out->mapping);
    if (err) {
        free(r->metrics);
        r->metrics = NULL;
        return err;
    }
    snprintf(r->name, sizeof r->name, "consecutive");
    r->start_congestion = r->metrics->max_congestion;
    r->start_dilation = r->metrics->avg_dilation;
    r->start_J = r->metrics->qap_J;
    out->best = out->n_rows++;
    out->metrics = r->metrics;
    return TM_EOK;
}

/* The chosen row (out->best) and its mapping *bm become the result:
 * expanded to every task after a general mapping, else taken over; or the
 * consecutive placement when it must be (needs_fallback). */
static tm_err take_mapping(tm_ctx *ctx, tm__runner *rn, const tm__general *gen, tm_objective obj,
                           tm_mapping *bm, tm_map_result *out)
{
    if (rn->gen) {
        out->blocks = gen->n_blocks;
        out->block_bound = gen->bound;
        out->block_weight_max = gen->weight_max;
    }
    if (needs_fallback(rn, obj, out))
        return fall_back(ctx, rn, out);
    if (rn->gen) {
        tm_err err = tm__general_expand(ctx, gen, bm, rn->full->n, &out->mapping);
        if (err)
            return err;
    } else {
        out->mapping = *bm;
        tm_mapping_init(bm);
    }
    out->metrics = out->rows[out->best].metrics;
    return TM_EOK;
}

/* A refinement chain's result: the best row by obj, its job's mapping. */
static tm_err take_best(tm_ctx *ctx, tm__runner *rn, const tm__general *gen, tm_objective obj,
                        const int *row_job, tm_map_result *out)
{
    out->best = tm__run_pick(out->rows, out->n_rows, obj);
    return take_mapping(ctx, rn, gen, obj, &rn->jobs[row_job[out->best]].m, out);
}

/* The chain's rows and result (run_jobs.c), after the network's setup. */
static tm_err run_chain(tm_ctx *ctx, tm__runner *rn, const tm__general *gen, const char *refine,
                        tm_objective obj, tm_map_result *out)
{
    int *row_job = NULL;
    tm_err err = tm__run_jobs(ctx, rn, obj);
    if (err)
        return err;
    /* + the fallback row (take_best) */
    out->rows = tm__calloc_n((size_t)rn->nj + 1, sizeof *out->rows);
    row_job = tm__malloc_n((size_t)rn->nj, sizeof *row_job);
    if (!out->rows || !row_job)
        err = tm__nomem(ctx);
    if (!err)
        err = collect_rows(ctx, rn, refine, out, row_job);
    if (!err)
        err = take_best(ctx, rn, gen, obj, row_job, out);
    free(row_job);
    return err;
}

/* The auto pipeline's rows and result (run_auto.c). */
static tm_err run_auto(tm_ctx *ctx, tm__runner *rn, const tm__general *gen, const char *strategy,
                       tm_objective obj, tm_map_result *out, tm_map_info *info)
{
    tm_mapping bm;
    tm_err err;
    tm_mapping_init(&bm);
    rn->obj = obj;
    err = tm__run_auto(ctx, rn, strategy, out, &bm, info);
    if (!err)
        err = take_mapping(ctx, rn, gen, obj, &bm, out);
    tm_mapping_release(&bm);
    return err;
}

static void release_jobs(tm__runner *rn)
{
    for (int i = 0; i < rn->nj; i++) {
        tm_ctx_free(rn->jobs[i].jc);
        tm_mapping_release(&rn->jobs[i].m);
        if (rn->jobs[i].cmet)
            tm_metrics_release(rn->jobs[i].cmet);
        free(rn->jobs[i].cmet);
        if (rn->jobs[i].met)
            tm_metrics_release(rn->jobs[i].met);
        free(rn->jobs[i].met);
    }
    free(rn->jobs);
    free(rn->order);
}

tm_err tm_map_run(tm_ctx *ctx, const tm_problem *p, const char *strategy, const char *refine,
                  tm_objective obj, tm_map_result *out)
{
    return tm_map_run_ex(ctx, p, strategy, refine, obj, out, NULL);
}

tm_err tm_map_run_ex(tm_ctx *ctx, const tm_problem *p, const char *strategy, const char *refine,
                     tm_objective obj, tm_map_result *out, tm_map_info *info)
{
    tm__runner rn = {0};
    tm_route *own = NULL;
    tm_netdist *own_dist = NULL;
    tm__general gen = {0};
    tm_problem pr = *p;
    double t0 = tm__now(), tl = tm_ctx_time_limit(ctx);
    bool autop = refine && strcmp(refine, "auto") == 0;
    tm_err err;
    int nt = tm_ctx_threads(ctx);

    tm_map_result_init(out);
    if (info) {
        memset(info, 0, sizeof *info);
        info->pipeline = "chain";
        info->stop = "done";
        info->effort = tm_ctx_effort(ctx);
    }
    if ((err = check_args(ctx, p, obj)) != TM_EOK ||
        (!autop && (err = parse_chain(ctx, p, refine, &rn)) != TM_EOK) ||
        (!autop && (err = tm__run_make_jobs(ctx, p, strategy, &rn.jobs, &rn.nj)) != TM_EOK))
        return err;
    if (p->net) {
        err = setup_network(ctx, p, &pr, &gen, &own, &own_dist);
        if (err)
            goto out;
        if (gen.block) {
            rn.gen = &gen;
            rn.full = p->comm;
        }
    }
    rn.p = &pr;
    rn.parent = ctx;
    /* the limit is a budget for the whole run (run_int.h, docs/mapping.md
     * "Time budget") */
    rn.time_limit = tl;
    rn.timed = tl >= 0;
    rn.deadline = t0 + tl;
    rn.construct_end = t0 + CONSTRUCT_SHARE * tl;
    rn.job_threads = rn.nj == 1 ? (nt < 1 ? 1 : nt) : 1;
    /* METIS workers forked now, while the process is small: a worker
     * shares its parent's pages copy-on-write for its whole life */
    if (nt > 1)
        tm__metis_pool_prefork(tm__ctx_metis_pool(ctx), nt - 1);
    if (autop)
        err = run_auto(ctx, &rn, &gen, strategy, obj, out, info);
    else
        err = run_chain(ctx, &rn, &gen, refine, obj, out);
out:
    release_jobs(&rn);
    tm_route_free(own);
    tm_netdist_free(own_dist);
    tm__general_release(&gen);
    if (err)
        tm_map_result_release(out);
    else
        out->time_s = tm__now() - t0;
    return err;
}
