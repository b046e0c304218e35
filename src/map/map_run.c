/* map_run.c - tm_map_run: one strategy or the whole portfolio ("all", Hoefler
 * & Snir Sec. 4.2 / Fig. 4: every strategy, greedy from several starts, each
 * refined, the best by the chosen objective is kept).
 *
 * Runs are independent jobs with their own context, seed and mapping, so
 * they execute in tm_ctx_threads() worker threads and the result does not
 * depend on the thread count (without a time limit): a job's output depends
 * only on its seed, and the winner is chosen by the objective with ties
 * broken by job order.  With a time limit, the constructions run first
 * (same pool), then every refinement runs in its own thread for the whole
 * limit, side by side, so the limit a refinement gets does not depend on
 * the thread count either.  METIS calls inside the strategies are isolated
 * (src/graph/metis_pool.h); igraph is not called by any network-mode
 * strategy, so the workers only read the net's CSR snapshot and the shared
 * read-only router.
 *
 * Anytime: when the context's stop predicate fires, refinements return
 * their best mapping so far, jobs not yet started are dropped (the first
 * always runs), and the best of the finished rows is returned as usual. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topomap/map.h"
#include "topomap/metrics.h"
#include "general.h"
#include "../graph/bfs.h"
#include "../graph/metis_pool.h"
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

typedef struct job {
    const tm_strategy *st;
    char name[48];
    uint64_t seed;
    tm_mapping m;
    tm_metrics *met;
    double start[3];      /* construction: congestion, dilation, J */
    bool reverted;
    double time_s, refine_s;
    tm_ctx *jc;           /* between the construction and refinement phases */
    tm_metrics *cmet;     /* the construction's figures, when screening evaluated it */
    bool screened;        /* not refined: a construction dominated it (screen) */
    bool kept;            /* the screen keeps it for refinement */
    bool skipped;         /* not started: the caller asked to stop */
    tm_err err;
    char msg[512];
} job;

#define MAX_CHAIN 4

typedef struct runner {
    const tm_problem *p;
    const tm_refiner *rf[MAX_CHAIN]; /* refinement chain "nc:1+ta" */
    char rarg[MAX_CHAIN][32];
    bool has_arg[MAX_CHAIN];
    int nrf;
    double time_limit;
    int job_threads;  /* threads a strategy may use itself: all of them for a lone job */
    tm_ctx *parent;   /* stop predicate, progress callback, METIS pool */
    /* general mapping (general.c): jobs map the quotient p->comm, and
     * every figure is of the expansion evaluated on `full` */
    const tm__general *gen;
    const tm_comm *full;
    int phase;        /* PHASE_* */
    bool screen;      /* large `all` run: constructions evaluated, then screened */
    job *jobs;
    int nj;
    atomic_int next;
} runner;

enum { PHASE_ALL, PHASE_CONSTRUCT, PHASE_REFINE };

static void report(runner *rn, const job *j, const char *step, const tm_metrics *m)
{
    char what[96];
    bool net = rn->p->net != NULL;
    snprintf(what, sizeof what, "%s %s", j->name, step);
    tm__progress(rn->parent, what, net ? m->max_congestion : -1, net ? m->avg_dilation : -1,
                 m->qap_J);
}

static tm_err eval_job(tm_ctx *jc, const runner *rn, const tm_mapping *m, tm_metrics *met)
{
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    tm_mapping e;
    tm_err err;
    tm_metrics_init(met);
    o.node_hier = rn->p->hier;
    o.hop_distance = rn->p->hop_distance;
    o.time = rn->p->time;
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
 * the construction: a result is never worse than its start on both. */
static bool worse_on_all(const tm_problem *p, const tm_metrics *m, const double start[3])
{
    double tol = 1e-9;
    if (!p->net)
        return m->qap_J > start[2] * (1 + tol) + tol;
    return m->max_congestion > start[0] * (1 + tol) + tol &&
           m->avg_dilation > start[1] * (1 + tol) + tol;
}

static tm_err refine_job(tm_ctx *jc, runner *rn, job *j)
{
    tm_metrics st;
    tm_mapping m0;
    tm_err err = TM_EOK;
    tm_mapping_init(&m0);
    if (j->cmet) { /* evaluated by the screen */
        st = *j->cmet;
        tm_metrics_init(j->cmet);
    } else {
        err = eval_job(jc, rn, &j->m, &st);
    }
    if (!err)
        err = tm_mapping_copy(jc, &j->m, &m0);
    if (err)
        goto out;
    j->start[0] = st.max_congestion;
    j->start[1] = st.avg_dilation;
    j->start[2] = st.qap_J;
    report(rn, j, "constructed", &st);
    /* the steps of a chain share the time limit */
    if (rn->time_limit > 0)
        (void)tm_ctx_set_time_limit(jc, rn->time_limit / rn->nrf); /* finite, checked */
    for (int k = 0; k < rn->nrf && !err; k++)
        err = rn->rf[k]->run(jc, rn->p, rn->has_arg[k] ? rn->rarg[k] : NULL,
                             j->seed * 0x9e3779b97f4a7c15ULL + 1 + (uint64_t)k, &j->m);
    if (!err)
        err = eval_job(jc, rn, &j->m, j->met);
    if (!err && worse_on_all(rn->p, j->met, j->start)) {
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
static void construct_job(runner *rn, job *j)
{
    double t0 = tm__now();
    if (tm_ctx_new(&j->jc) != TM_EOK) {
        j->err = TM_ENOMEM;
        snprintf(j->msg, sizeof j->msg, "out of memory");
        return;
    }
    tm__ctx_inherit(j->jc, rn->parent);
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
        else
            j->err = eval_job(j->jc, rn, &j->m, j->cmet);
    }
    j->time_s = tm__now() - t0;
}

/* Refinement (or evaluation) of a constructed job; frees its context. */
static void refine_phase(runner *rn, job *j)
{
    double t1 = tm__now();
    if (!j->err && rn->nrf > 0)
        j->err = refine_job(j->jc, rn, j);
    else if (!j->err)
        j->err = eval_job(j->jc, rn, &j->m, j->met);
    if (!j->err)
        report(rn, j, rn->nrf > 0 ? "refined" : "done", j->met);
    j->refine_s = rn->nrf > 0 ? tm__now() - t1 : 0;
    j->time_s += tm__now() - t1;
    if (j->err)
        snprintf(j->msg, sizeof j->msg, "%s", tm_ctx_errmsg(j->jc));
    tm_ctx_free(j->jc);
    j->jc = NULL;
}

static void run_job(runner *rn, job *j)
{
    if (rn->phase != PHASE_REFINE)
        construct_job(rn, j);
    if (!j->jc)
        return;
    if (rn->phase != PHASE_CONSTRUCT || j->err)
        refine_phase(rn, j);
}

static void *worker(void *arg)
{
    runner *rn = arg;
    for (;;) {
        int i = atomic_fetch_add(&rn->next, 1);
        if (i >= rn->nj)
            break;
        /* a stop request drops the jobs not started (the first always runs) */
        if (rn->phase != PHASE_REFINE && i > 0 && tm__stopped(rn->parent)) {
            rn->jobs[i].skipped = true;
            continue;
        }
        if (!rn->jobs[i].skipped)
            run_job(rn, &rn->jobs[i]);
    }
    return NULL;
}

typedef struct refine_arg { runner *rn; job *j; } refine_arg;

static void *refine_one(void *arg)
{
    refine_arg *o = arg;
    run_job(o->rn, o->j);
    return NULL;
}

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

/* Objective keys in priority order (pareto ranks by congestion first
 * among the rows it keeps). */
static void keys(const tm_metrics *m, tm_objective obj, double k[3])
{
    double c = m->max_congestion, d = m->avg_dilation, j = m->qap_J;
    k[0] = obj == TM_OBJ_DILATION ? d : obj == TM_OBJ_QAP ? j : c;
    k[1] = obj == TM_OBJ_CONGESTION || obj == TM_OBJ_PARETO ? d : c;
    k[2] = obj == TM_OBJ_QAP ? d : j;
}

static int cmp_key(double a, double b)
{
    double tol = 1e-12 * (b > 1 ? b : 1);
    return a < b - tol ? -1 : a > b + tol ? 1 : 0;
}

static bool better(const tm_metrics *a, const tm_metrics *b, tm_objective obj)
{
    double ka[3], kb[3];
    keys(a, obj, ka);
    keys(b, obj, kb);
    for (int i = 0; i < 3; i++) {
        int c = cmp_key(ka[i], kb[i]);
        if (c)
            return c < 0;
    }
    return false;
}

/* a dominates b: no worse on congestion, dilation and J, better on one. */
static bool dominates(const tm_metrics *a, const tm_metrics *b)
{
    int c0 = cmp_key(a->max_congestion, b->max_congestion);
    int c1 = cmp_key(a->avg_dilation, b->avg_dilation);
    int c2 = cmp_key(a->qap_J, b->qap_J);
    return c0 <= 0 && c1 <= 0 && c2 <= 0 && (c0 < 0 || c1 < 0 || c2 < 0);
}

/* The chosen row.  congestion / dilation / qap: lexicographic (the other
 * two figures break ties, then row order), which never picks a dominated
 * row.  pareto: among the rows no other row dominates, the one whose worse
 * ratio to the best congestion and the best dilation of all rows is
 * smallest (the point nearest the ideal in the Chebyshev sense, so
 * neither objective is given away for the other), ties lexicographic. */
static int32_t pick(tm_map_row *rows, int32_t n, tm_objective obj)
{
    double cmin = 0, dmin = 0, best_s = 0;
    int32_t best = -1;
    if (obj != TM_OBJ_PARETO) {
        for (int32_t i = 0; i < n; i++)
            if (best < 0 || better(rows[i].metrics, rows[best].metrics, obj))
                best = i;
        return best;
    }
    for (int32_t i = 0; i < n; i++) {
        const tm_metrics *m = rows[i].metrics;
        if (i == 0 || m->max_congestion < cmin)
            cmin = m->max_congestion;
        if (i == 0 || m->avg_dilation < dmin)
            dmin = m->avg_dilation;
    }
    for (int32_t i = 0; i < n; i++) {
        const tm_metrics *m = rows[i].metrics;
        double rc = cmin > 0 ? m->max_congestion / cmin : 1, rd = dmin > 0 ? m->avg_dilation / dmin : 1;
        double sc = rc > rd ? rc : rd;
        bool dominated = false;
        for (int32_t k = 0; k < n && !dominated; k++)
            dominated = k != i && dominates(rows[k].metrics, m);
        if (dominated)
            continue;
        if (best < 0 || cmp_key(sc, best_s) < 0 ||
            (cmp_key(sc, best_s) == 0 && better(m, rows[best].metrics, obj))) {
            best = i;
            best_s = sc;
        }
    }
    return best;
}

static bool same_mapping(const tm_mapping *a, const tm_mapping *b)
{
    size_t n = (size_t)a->n;
    if (a->n != b->n)
        return false;
    if (a->pe || b->pe)
        return a->pe && b->pe && memcmp(a->pe, b->pe, n * sizeof *a->pe) == 0;
    return a->host && b->host && memcmp(a->host, b->host, n * sizeof *a->host) == 0 &&
           memcmp(a->slot, b->slot, n * sizeof *a->slot) == 0;
}

/* The exact metrics of a job whose final mapping is m, if there is one:
 * evaluating the same mapping again gives the same figures (evaluation is
 * deterministic), and on a big network it is most of what `identity`
 * costs. */
static bool reuse_row(const runner *rn, const tm_mapping *m, tm_metrics *out)
{
    for (int i = 0; i < rn->nj; i++) {
        const job *j = &rn->jobs[i];
        if (!j->skipped && !j->err && j->met && !j->met->link_load && same_mapping(&j->m, m)) {
            *out = *j->met;
            return true;
        }
    }
    return false;
}

/* The consecutive placement (network mode) or identity PE mapping
 * (hierarchy mode, when it exists), evaluated like every row: the
 * baseline every result is compared with. */
static tm_err baseline(tm_ctx *ctx, const tm_problem *p, const runner *rn, tm_map_result *out)
{
    tm_mapping m;
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    tm_err err;
    tm_mapping_init(&m);
    out->consecutive = calloc(1, sizeof *out->consecutive);
    if (!out->consecutive)
        return tm__nomem(ctx);
    tm_metrics_init(out->consecutive);
    if (p->net) {
        o.node_hier = p->hier;
        o.hop_distance = p->hop_distance;
        o.time = p->time;
        if (rn->gen)
            err = tm_mapping_blocks(ctx, p->alloc, rn->full->n, &m);
        else
            err = tm_mapping_consecutive(ctx, p->alloc, p->comm->n, &m);
        if (!err && !reuse_row(rn, &m, out->consecutive))
            err = tm_metrics_eval(ctx, p->route, rn->gen ? rn->full : p->comm, &m, &o,
                                  out->consecutive);
    } else if (p->comm->n <= p->hier->n_pe) {
        err = tm_mapping_alloc(ctx, &m, p->comm->n, true);
        for (int32_t u = 0; !err && u < m.n; u++)
            m.pe[u] = u;
        if (!err && !reuse_row(rn, &m, out->consecutive))
            err = tm_metrics_eval_hier(ctx, p->hier, p->comm, &m, out->consecutive);
    } else {
        free(out->consecutive); /* many tasks per PE: no identity placement */
        out->consecutive = NULL;
        err = TM_EOK;
    }
    tm_mapping_release(&m);
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

/* The jobs of a run: one, or the portfolio of "all". */
static tm_err make_jobs(tm_ctx *ctx, const tm_problem *p, const char *strategy, job **out,
                        int *nj)
{
    unsigned mode = p->net ? TM_MODE_NETWORK : TM_MODE_HIERARCHY;
    uint64_t seed = tm_ctx_seed(ctx);
    const tm_strategy *one = NULL;
    int n = 0, cap = 0;
    job *jobs;
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
            job *j = &jobs[n++];
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

static void run_pool(runner *rn, int nt)
{
    int started = 0;
    pthread_t tid[64];
    atomic_store(&rn->next, 0);
    if (nt > rn->nj)
        nt = rn->nj;
    if (nt > 64)
        nt = 64;
    for (int i = 1; i < nt; i++) {
        if (pthread_create(&tid[started], NULL, worker, rn) != 0)
            break; /* fewer threads only make it slower */
        started++;
    }
    worker(rn);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
}

/* Every constructed job refined in its own thread, side by side, each for
 * the whole time limit (a job whose thread cannot start runs here). */
static tm_err refine_side_by_side(tm_ctx *ctx, runner *rn)
{
    pthread_t *tid = tm__calloc_n((size_t)rn->nj, sizeof *tid);
    refine_arg *args = tm__calloc_n((size_t)rn->nj, sizeof *args);
    bool *on = tm__calloc_n((size_t)rn->nj, sizeof *on);
    if (!tid || !args || !on) {
        free(tid), free(args), free(on);
        for (int i = 0; i < rn->nj; i++)
            if (rn->jobs[i].jc)
                run_job(rn, &rn->jobs[i]); /* one after the other */
        return TM_EOK;
    }
    for (int i = 0; i < rn->nj; i++) {
        args[i] = (refine_arg){rn, &rn->jobs[i]};
        if (rn->jobs[i].jc)
            on[i] = pthread_create(&tid[i], NULL, refine_one, &args[i]) == 0;
    }
    for (int i = 0; i < rn->nj; i++) {
        if (on[i])
            pthread_join(tid[i], NULL);
        else if (rn->jobs[i].jc)
            run_job(rn, &rn->jobs[i]);
    }
    free(tid), free(args), free(on);
    (void)ctx;
    return TM_EOK;
}

static bool dominates(const tm_metrics *a, const tm_metrics *b);
static bool better(const tm_metrics *a, const tm_metrics *b, tm_objective obj);

/* The screen of large `all` runs (SCREEN_MIN_TASKS): every construction
 * is evaluated (its row needs the figures anyway), and the ones that are
 * dominated, or beyond the first SCREEN_KEEP by the objective, keep their
 * construction as their result.  Depends only on the constructions, so
 * the answer stays independent of the thread count. */
static tm_err screen(tm_ctx *ctx, runner *rn, tm_objective obj)
{
    for (int i = 0; i < rn->nj; i++) /* refine_phase has kept the message */
        if (rn->jobs[i].err)
            return tm__fail(ctx, rn->jobs[i].err, "%s", rn->jobs[i].msg);
    for (int kept = 0; kept < SCREEN_KEEP; kept++) {
        int b = -1; /* the best non-dominated construction not yet kept */
        for (int i = 0; i < rn->nj; i++) {
            job *j = &rn->jobs[i];
            bool dom = false;
            if (!j->cmet || j->kept)
                continue;
            for (int k = 0; k < rn->nj && !dom; k++)
                dom = k != i && rn->jobs[k].cmet && dominates(rn->jobs[k].cmet, j->cmet);
            if (!dom && (b < 0 || better(j->cmet, rn->jobs[b].cmet, obj)))
                b = i;
        }
        if (b < 0)
            break;
        rn->jobs[b].kept = true;
    }
    for (int i = 0; i < rn->nj; i++) {
        job *j = &rn->jobs[i];
        if (!j->cmet || j->kept)
            continue;
        j->screened = true;
        j->start[0] = j->cmet->max_congestion;
        j->start[1] = j->cmet->avg_dilation;
        j->start[2] = j->cmet->qap_J;
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
static void share_threads(runner *rn, int nt)
{
    int k = 0;
    for (int i = 0; i < rn->nj; i++)
        k += rn->jobs[i].jc != NULL;
    for (int i = 0; i < rn->nj; i++)
        if (rn->jobs[i].jc)
            (void)tm_ctx_set_threads(rn->jobs[i].jc, k > 0 && nt / k > 1 ? nt / k : 1);
}

static tm_err run_jobs(tm_ctx *ctx, runner *rn, tm_objective obj)
{
    int nt = tm_ctx_threads(ctx);
    tm_err err;
    rn->screen = rn->nj > 1 && rn->nrf > 0 && rn->p->net && rn->p->comm->n > SCREEN_MIN_TASKS;
    if ((rn->time_limit > 0 || rn->screen) && rn->nj > 1) {
        rn->phase = PHASE_CONSTRUCT;
        run_pool(rn, nt);
        if (rn->screen && (err = screen(ctx, rn, obj)) != TM_EOK)
            return err;
        rn->phase = PHASE_REFINE;
        share_threads(rn, nt);
        if (rn->time_limit > 0)
            return refine_side_by_side(ctx, rn);
        run_pool(rn, nt);
        return TM_EOK;
    }
    rn->phase = PHASE_ALL;
    run_pool(rn, nt);
    return TM_EOK;
}

/* "nc:1+ta" -> the refiners in order, each with its argument. */
static tm_err parse_chain(tm_ctx *ctx, const tm_problem *p, const char *refine, runner *rn)
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
                        "%d tasks but only %lld slots on %d hosts (give --imbalance EPS for "
                        "general process mapping)",
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

tm_err tm_map_run(tm_ctx *ctx, const tm_problem *p, const char *strategy, const char *refine,
                  tm_objective obj, tm_map_result *out)
{
    runner rn = {0};
    tm_route *own = NULL;
    tm_netdist *own_dist = NULL;
    tm__general gen = {0};
    tm_problem pr = *p;
    double t0 = tm__now(), tl = tm_ctx_time_limit(ctx);
    tm_err err = TM_EOK;
    int nt = tm_ctx_threads(ctx), *row_job = NULL;

    tm_map_result_init(out);
    /* fields a caller fills by hand: checked here, not silently taken as
     * congestion or as a NaN bound */
    if ((unsigned)obj > (unsigned)TM_OBJ_PARETO)
        return tm__fail(ctx, TM_EUSAGE, "unknown objective %d", (int)obj);
    if (!isfinite(p->imbalance) || !isfinite(p->hop_distance))
        return tm__fail(ctx, TM_EUSAGE, "imbalance %g and hop distance %g must be finite",
                        p->imbalance, p->hop_distance);
    err = parse_chain(ctx, p, refine, &rn);
    if (err)
        return err;
    err = make_jobs(ctx, p, strategy, &rn.jobs, &rn.nj);
    if (err)
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
    /* every refinement gets the whole limit (run_jobs) */
    rn.time_limit = tl;
    rn.job_threads = rn.nj == 1 ? (nt < 1 ? 1 : nt) : 1;
    atomic_init(&rn.next, 0);
    /* METIS workers forked now, while the process is small: a worker
     * shares its parent's pages copy-on-write for its whole life */
    if (nt > 1)
        tm__metis_pool_prefork(tm__ctx_metis_pool(ctx), nt - 1);
    err = run_jobs(ctx, &rn, obj);
    if (err)
        goto out;
    out->rows = tm__calloc_n((size_t)rn.nj, sizeof *out->rows);
    row_job = tm__malloc_n((size_t)rn.nj, sizeof *row_job);
    if (!out->rows || !row_job) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int i = 0; i < rn.nj; i++) {
        job *j = &rn.jobs[i];
        if (j->err) {
            err = tm__fail(ctx, j->err, "%s", j->msg);
            goto out;
        }
    }
    err = baseline(ctx, &pr, &rn, out);
    if (err)
        goto out;
    for (int i = 0; i < rn.nj; i++) {
        job *j = &rn.jobs[i];
        tm_map_row *r;
        if (j->skipped)
            continue;
        r = &out->rows[out->n_rows];
        row_job[out->n_rows++] = i;
        snprintf(r->name, sizeof r->name, "%s", j->name);
        snprintf(r->refine, sizeof r->refine, "%s", rn.nrf && !j->screened ? refine : "");
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
    out->best = pick(out->rows, out->n_rows, obj);
    if (rn.gen) {
        err = tm__general_expand(ctx, &gen, &rn.jobs[row_job[out->best]].m, p->comm->n,
                                 &out->mapping);
        if (err)
            goto out;
        out->blocks = gen.n_blocks;
        out->block_bound = gen.bound;
        out->block_weight_max = gen.weight_max;
    } else {
        out->mapping = rn.jobs[row_job[out->best]].m;
        tm_mapping_init(&rn.jobs[row_job[out->best]].m);
    }
    out->metrics = out->rows[out->best].metrics;
out:
    free(row_job);
    for (int i = 0; i < rn.nj; i++) {
        tm_ctx_free(rn.jobs[i].jc);
        tm_mapping_release(&rn.jobs[i].m);
        if (rn.jobs[i].cmet)
            tm_metrics_release(rn.jobs[i].cmet);
        free(rn.jobs[i].cmet);
        if (rn.jobs[i].met)
            tm_metrics_release(rn.jobs[i].met);
        free(rn.jobs[i].met);
    }
    free(rn.jobs);
    tm_route_free(own);
    tm_netdist_free(own_dist);
    tm__general_release(&gen);
    if (err)
        tm_map_result_release(out);
    else
        out->time_s = tm__now() - t0;
    return err;
}
