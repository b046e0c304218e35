/* run_jobs.c - the jobs of tm_map_run (run.c says how they run and
 * why the result does not depend on the thread count): construction,
 * the refinement chain with its revert rule, the pool of threads, the
 * screen of large `all` runs and the side-by-side refinement under a time
 * limit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_int.h"
#include "../util/util.h"

/* `all` runs greedy from several starts (Hoefler & Snir Fig. 4), but on
 * large jobs from one: a start costs a least-loaded-path search per task
 * (1.8 s for 16,384 tasks on a 65,536-host fat-tree) and the starts
 * differ only in the first host (the same size rule as grow's starts). */
#define GREEDY_STARTS 4
#define GREEDY_MULTI_MAX_TASKS 8192

/* `all` on large jobs refines only the constructions that can still win:
 * those that no other construction beats on congestion, dilation and J at
 * once, at most SCREEN_KEEP of them in the order of the objective.  A
 * refinement costs seconds per row at this size (ils:10 on 16,384 tasks:
 * 5-25 s), and on the issue-10 fat-tree the dominated constructions,
 * refined, stayed far from the best one (identity 4.29 -> 4.29 hops, grow
 * 4.02 -> 3.95, recursive 5.30 -> 5.24, against topdown's 3.25).  Below the size every row is refined, as
 * in Hoefler & Snir's portfolio. */
#define SCREEN_MIN_TASKS 8192
#define SCREEN_KEEP 2

/* Under a time limit, added to the evaluations a refinement leaves time
 * for (seconds): thread joins, the mapping's copy, the result's check. */
#define EVAL_MARGIN_S 0.002

static void report(tm__runner *rn, const tm__run_job *j, const char *step, const tm_metrics *m)
{
    char what[96];
    bool net = rn->p->net != NULL;
    snprintf(what, sizeof what, "%s %s", j->name, step);
    tm__progress(rn->parent, what, net ? m->max_congestion : -1, net ? m->avg_dilation : -1,
                 m->qap_J);
}

/* The stop predicate of a job's context: the caller's stop request, or,
 * under a time limit, the job's deadline (the end of the construction
 * window while it is constructed, of its refinement after). */
static int job_stop(void *ud)
{
    const tm__run_job *j = ud;
    return tm__stopped(j->rn->parent) || (j->rn->timed && tm__now() >= j->deadline);
}

tm_err tm__run_eval(tm_ctx *jc, const tm__runner *rn, const tm_mapping *m, tm_metrics *met)
{
    return tm__run_eval_time(jc, rn, m, true, met);
}

tm_err tm__run_eval_time(tm_ctx *jc, const tm__runner *rn, const tm_mapping *m, bool with_time,
                         tm_metrics *met)
{
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    tm_time_opts none = TM_TIME_OPTS_INIT;
    tm_mapping e;
    tm_err err;
    tm_metrics_init(met);
    none.model = TM_TIME_NONE;
    o.node_hier = rn->p->hier;
    o.hop_distance = rn->p->hop_distance;
    o.time = with_time ? rn->p->time : &none;
    if (!rn->p->net)
        return tm_metrics_eval_hier(jc, rn->p->hier, rn->p->comm, m, met);
    if (!rn->gen)
        return tm_metrics_eval(jc, rn->p->route, rn->p->comm, m, &o, met);
    tm_mapping_init(&e);
    err = tm__general_expand(jc, rn->gen, m, rn->full->n, &e);
    if (!err)
        err = tm_metrics_eval(jc, rn->p->route, rn->full, &e, &o, met);
    tm_mapping_release(&e);
    return err;
}

/* A refined mapping worse than its construction on every objective that
 * applies (network: congestion and dilation; hierarchy: J) is replaced by
 * the construction: a result is never worse than its start on both.  With
 * the time objective, worse on the estimated time is enough: the
 * refinements work on congestion and dilation (the terms of the time
 * that can be updated per move, docs/time.md "Mapping for time"), and
 * the full estimate judges their result. */
static bool refined_worse(const tm__runner *rn, const tm_metrics *m, const tm__run_job *j)
{
    const tm_problem *p = rn->p;
    const double *start = j->start;
    double tol = 1e-9;
    if (rn->obj == TM_OBJ_TIME && p->net)
        return m->est_time_s > j->start_est * (1 + tol);
    if (!p->net)
        return m->qap_J > start[2] * (1 + tol) + tol;
    return m->max_congestion > start[0] * (1 + tol) + tol &&
           m->avg_dilation > start[1] * (1 + tol) + tol;
}

static tm_err refine_job(tm_ctx *jc, tm__runner *rn, tm__run_job *j)
{
    tm_metrics st;
    tm_mapping m0;
    tm_err err = TM_EOK;
    tm_mapping_init(&m0);
    if (j->cmet) { /* evaluated by the screen */
        st = *j->cmet;
        tm_metrics_init(j->cmet);
    } else {
        double t = tm__now();
        err = tm__run_eval(jc, rn, &j->m, &st);
        j->eval_s = tm__now() - t;
    }
    if (!err)
        err = tm_mapping_copy(jc, &j->m, &m0);
    if (err)
        goto out;
    j->start[0] = st.max_congestion;
    j->start[1] = st.avg_dilation;
    j->start[2] = st.qap_J;
    j->start_est = st.est_time_s;
    report(rn, j, "constructed", &st);
    /* under a time limit the refinement ends where the evaluations after
     * it (this row's, and the baseline's) still fit before the deadline */
    if (rn->timed)
        j->deadline = rn->deadline - (2 * j->eval_s + EVAL_MARGIN_S);
    for (int k = 0; k < rn->nrf && !err; k++) {
        /* the steps of a chain share what is left, in equal parts */
        if (rn->timed) {
            double left = (j->deadline - tm__now()) / (rn->nrf - k);
            if (left <= 0)
                break; /* no time left: the mapping stays as it is */
            (void)tm_ctx_set_time_limit(jc, left); /* finite, checked */
        }
        err = rn->rf[k]->run(jc, rn->p, rn->has_arg[k] ? rn->rarg[k] : NULL,
                             j->seed * 0x9e3779b97f4a7c15ULL + 1 + (uint64_t)k, &j->m);
    }
    /* a refinement that moved nothing (a construction at a local optimum
     * or at the congestion bound) has the construction's figures: the
     * evaluation is deterministic, and on 16,384 tasks it costs 0.1-0.3 s */
    if (!err && tm__run_same_mapping(&j->m, &m0))
        *j->met = st, tm_metrics_init(&st); /* no link loads: plain copy */
    else if (!err)
        err = tm__run_eval(jc, rn, &j->m, j->met);
    if (!err && refined_worse(rn, j->met, j)) {
        tm_mapping_release(&j->m);
        j->m = m0;
        tm_mapping_init(&m0);
        tm_metrics_release(j->met);
        *j->met = st;
        tm_metrics_init(&st);
        j->reverted = true;
    }
out:
    tm_metrics_release(&st);
    tm_mapping_release(&m0);
    return err;
}

/* The construction of job j (its context stays in j->jc). */
static void construct_job(tm__runner *rn, tm__run_job *j)
{
    double t0 = tm__now();
    if (tm_ctx_new(&j->jc) != TM_EOK) {
        j->err = TM_ENOMEM;
        snprintf(j->msg, sizeof j->msg, "out of memory");
        return;
    }
    tm__ctx_inherit(j->jc, rn->parent);
    j->rn = rn;
    j->deadline = rn->construct_end;
    tm_ctx_set_stop(j->jc, job_stop, j);
    tm_ctx_set_seed(j->jc, j->seed);
    /* cannot fail: both come from the parent context, already checked */
    (void)tm_ctx_set_threads(j->jc, rn->job_threads);
    (void)tm_ctx_set_time_limit(j->jc, rn->time_limit);
    j->err = j->st->run(j->jc, rn->p, j->seed, &j->m);
    if (!j->err) {
        j->met = calloc(1, sizeof *j->met);
        if (!j->met)
            j->err = tm__nomem(j->jc);
    }
    if (!j->err && rn->screen) { /* in this worker: the evaluations run in parallel too */
        if (!(j->cmet = calloc(1, sizeof *j->cmet)))
            j->err = tm__nomem(j->jc);
        else {
            double t = tm__now();
            j->err = tm__run_eval(j->jc, rn, &j->m, j->cmet);
            j->eval_s = tm__now() - t;
        }
    }
    j->time_s = tm__now() - t0;
}

/* Refinement (or evaluation) of a constructed job; frees its context. */
static void refine_phase(tm__runner *rn, tm__run_job *j)
{
    double t1 = tm__now();
    if (!j->err && rn->nrf > 0)
        j->err = refine_job(j->jc, rn, j);
    else if (!j->err)
        j->err = tm__run_eval(j->jc, rn, &j->m, j->met);
    if (!j->err)
        report(rn, j, rn->nrf > 0 ? "refined" : "done", j->met);
    j->refine_s = rn->nrf > 0 ? tm__now() - t1 : 0;
    j->time_s += tm__now() - t1;
    if (j->err)
        snprintf(j->msg, sizeof j->msg, "%s", tm_ctx_errmsg(j->jc));
    tm_ctx_free(j->jc);
    j->jc = NULL;
}

static void run_job(tm__runner *rn, tm__run_job *j)
{
    if (rn->phase != PHASE_REFINE)
        construct_job(rn, j);
    if (!j->jc)
        return;
    if (rn->phase != PHASE_CONSTRUCT || j->err)
        refine_phase(rn, j);
}

/* Under a time limit the constructions start in an order of value for
 * time: consecutive first (free, and the answer if nothing else fits),
 * then the constructions that won the bench-map cases, cheapest of them
 * first after topdown; further starts of greedy last.  Strategies not
 * named here follow in their order.  Only the order in which jobs start
 * changes: rows stay in job order. */
static const char *const budget_order[] = {"identity", "topdown", "recursive", "grow", "greedy",
                                           "rcm"};

static int budget_rank(const tm__run_job *j)
{
    int n = (int)(sizeof budget_order / sizeof *budget_order);
    for (int k = 0; k < n; k++)
        if (strcmp(j->st->name, budget_order[k]) == 0)
            return strcmp(j->name, j->st->name) == 0 || strstr(j->name, "#0") ? k : 2 * n;
    return n;
}

/* rn->order: the job each pool index starts (a stable sort by rank). */
static void budget_sort(tm__runner *rn)
{
    for (int i = 0; i < rn->nj; i++)
        rn->order[i] = i;
    for (int i = 1; i < rn->nj; i++)
        for (int k = i; k > 0 && budget_rank(&rn->jobs[rn->order[k]]) <
                                     budget_rank(&rn->jobs[rn->order[k - 1]]); k--) {
            int t = rn->order[k];
            rn->order[k] = rn->order[k - 1];
            rn->order[k - 1] = t;
        }
}

/* Job i of the pool (tm__parallel_for). */
static void pool_job(void *arg, int i, int member)
{
    tm__runner *rn = arg;
    /* the first always runs; under a time limit the first two (in the
     * budget's order, consecutive and the first real construction) */
    bool first = i == 0 || (rn->order && i == 1);
    if (rn->order && rn->phase != PHASE_REFINE)
        i = rn->order[i];
    /* a stop request, or the end of the construction window of a time
     * limit, drops the jobs not started */
    if (rn->phase != PHASE_REFINE && !first &&
        (tm__stopped(rn->parent) || (rn->timed && tm__now() >= rn->construct_end))) {
        rn->jobs[i].skipped = true;
        return;
    }
    if (!rn->jobs[i].skipped)
        run_job(rn, &rn->jobs[i]);
}

/* Job i refined, if it was constructed (refine_side_by_side). */
static void side_job(void *arg, int i, int member)
{
    tm__runner *rn = arg;
    if (rn->jobs[i].jc)
        run_job(rn, &rn->jobs[i]);
}

/* The jobs of a run: one, or the portfolio of "all". */
tm_err tm__run_make_jobs(tm_ctx *ctx, const tm_problem *p, const char *strategy,
                         tm__run_job **out, int *nj)
{
    unsigned mode = p->net ? TM_MODE_NETWORK : TM_MODE_HIERARCHY;
    uint64_t seed = tm_ctx_seed(ctx);
    const tm_strategy *one = NULL;
    int n = 0, cap = 0;
    tm__run_job *jobs;
    *out = NULL;
    *nj = 0;
    if (strcmp(strategy, "all") != 0) {
        one = tm_strategy_find(strategy);
        if (!one)
            return tm__fail(ctx, TM_EUSAGE, "unknown strategy '%s'", strategy);
        if (!(one->modes & mode))
            return tm__fail(ctx, TM_EUSAGE, "strategy '%s' does not work in %s mode", strategy,
                            p->net ? "network" : "hierarchy");
    }
    for (const tm_strategy *s = tm_strategies(); s->name; s++)
        cap += GREEDY_STARTS;
    jobs = tm__calloc_n((size_t)cap + 1, sizeof *jobs);
    if (!jobs)
        return tm__nomem(ctx);
    for (const tm_strategy *s = tm_strategies(); s->name; s++) {
        int starts = 1;
        if (one ? s != one : !(s->in_all && (s->modes & mode)))
            continue;
        if (!one && strcmp(s->name, "greedy") == 0 && p->comm->n <= GREEDY_MULTI_MAX_TASKS)
            starts = GREEDY_STARTS;
        for (int k = 0; k < starts; k++) {
            tm__run_job *j = &jobs[n++];
            j->st = s;
            j->seed = seed + (uint64_t)k;
            tm_mapping_init(&j->m);
            if (starts > 1)
                snprintf(j->name, sizeof j->name, "%s#%d", s->name, k);
            else
                snprintf(j->name, sizeof j->name, "%s", s->name);
        }
    }
    *out = jobs;
    *nj = n;
    return TM_EOK;
}

/* The jobs in order on nt threads (at most 64), each job on the first
 * free one. */
static void run_pool(tm__runner *rn, int nt)
{
    tm__parallel_for(nt < 64 ? nt : 64, rn->nj, pool_job, rn);
}

/* Every constructed job refined in its own thread, side by side, each for
 * the whole time limit: as many members as jobs, so that every job is
 * taken as soon as the members start (when threads cannot start, fewer
 * members take the rest one after the other). */
static tm_err refine_side_by_side(tm_ctx *ctx, tm__runner *rn)
{
    tm__parallel_for(rn->nj, rn->nj, side_job, rn);
    (void)ctx;
    return TM_EOK;
}

/* The screen of large `all` runs (SCREEN_MIN_TASKS): every construction
 * is evaluated (its row needs the figures anyway), and the ones that are
 * dominated, or beyond the first SCREEN_KEEP by the objective, keep their
 * construction as their result.  Depends only on the constructions, so
 * the answer stays independent of the thread count. */
static tm_err screen(tm_ctx *ctx, tm__runner *rn, tm_objective obj)
{
    for (int i = 0; i < rn->nj; i++) /* refine_phase has kept the message */
        if (rn->jobs[i].err)
            return tm__fail(ctx, rn->jobs[i].err, "%s", rn->jobs[i].msg);
    /* under a time limit the order is J's: the refinement starts with
     * ils, which lowers J, and a short one keeps the lead of the
     * construction with the lowest J (bench-budget: SpMV 512 on torus
     * 8^3, where recursive leads on congestion and topdown on J, the
     * refined topdown wins on both) */
    tm_objective order = rn->timed ? TM_OBJ_QAP : obj;
    for (int kept = 0; kept < rn->keep; kept++) {
        int b = -1; /* the best non-dominated construction not yet kept */
        for (int i = 0; i < rn->nj; i++) {
            tm__run_job *j = &rn->jobs[i];
            bool dom = false;
            if (!j->cmet || j->kept)
                continue;
            for (int k = 0; k < rn->nj && !dom; k++)
                dom = k != i && rn->jobs[k].cmet &&
                      tm__run_dominates(rn->jobs[k].cmet, j->cmet, obj);
            if (!dom && (b < 0 || tm__run_better(j->cmet, rn->jobs[b].cmet, order)))
                b = i;
        }
        if (b < 0)
            break;
        rn->jobs[b].kept = true;
    }
    for (int i = 0; i < rn->nj; i++) {
        tm__run_job *j = &rn->jobs[i];
        if (!j->cmet || j->kept)
            continue;
        j->screened = true;
        j->start[0] = j->cmet->max_congestion;
        j->start[1] = j->cmet->avg_dilation;
        j->start[2] = j->cmet->qap_J;
        j->start_est = j->cmet->est_time_s;
        *j->met = *j->cmet;
        free(j->cmet);
        j->cmet = NULL;
        report(rn, j, "screened", j->met);
        tm_ctx_free(j->jc);
        j->jc = NULL;
    }
    return TM_EOK;
}

/* Before the refinement phase: the threads are shared out among the jobs
 * still to refine (one refined row after the screen gets them all).  The
 * refinements give the same result for any thread count. */
static void share_threads(tm__runner *rn, int nt)
{
    int k = 0;
    for (int i = 0; i < rn->nj; i++)
        k += rn->jobs[i].jc != NULL;
    for (int i = 0; i < rn->nj; i++)
        if (rn->jobs[i].jc)
            (void)tm_ctx_set_threads(rn->jobs[i].jc, k > 0 && nt / k > 1 ? nt / k : 1);
}

tm_err tm__run_jobs(tm_ctx *ctx, tm__runner *rn, tm_objective obj)
{
    int nt = tm_ctx_threads(ctx);
    tm_err err;
    rn->obj = obj;
    rn->screen = rn->nj > 1 && rn->nrf > 0 && rn->p->net && rn->p->comm->n > SCREEN_MIN_TASKS;
    rn->keep = SCREEN_KEEP;
    if (rn->timed && rn->nj > 1 && rn->nrf > 0) {
        /* a budget is not spread over rows that cannot win: refine the
         * best constructions, as many as there are threads (up to
         * SCREEN_KEEP), each with the whole time that is left */
        rn->screen = true;
        rn->keep = nt < SCREEN_KEEP ? (nt > 1 ? nt : 1) : SCREEN_KEEP;
    }
    if (rn->timed && rn->nj > 1) {
        if (!(rn->order = tm__malloc_n((size_t)rn->nj, sizeof *rn->order)))
            return tm__nomem(ctx);
        budget_sort(rn);
    }
    if ((rn->timed || rn->screen) && rn->nj > 1) {
        rn->phase = PHASE_CONSTRUCT;
        run_pool(rn, nt);
        if (rn->screen && (err = screen(ctx, rn, obj)) != TM_EOK)
            return err;
        rn->phase = PHASE_REFINE;
        share_threads(rn, nt);
        if (rn->timed)
            return refine_side_by_side(ctx, rn);
        run_pool(rn, nt);
        return TM_EOK;
    }
    rn->phase = PHASE_ALL;
    run_pool(rn, nt);
    return TM_EOK;
}
