/* map_run.c - tm_map_run: one strategy or the whole portfolio ("all", Hoefler
 * & Snir Sec. 4.2 / Fig. 4: every strategy, greedy from several starts, each
 * refined, the best by the chosen objective is kept).
 *
 * Runs are independent jobs with their own context, seed and mapping, so
 * they execute in tm_ctx_threads() worker threads and the result does not
 * depend on the thread count (without a time limit): a job's output depends
 * only on its seed, and the winner is chosen by the objective with ties
 * broken by job order.  METIS calls inside the strategies are serialised
 * (metis_part.c); igraph is not called by any network-mode strategy, so the
 * workers only read the net's CSR snapshot and the shared read-only router. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topomap/map.h"
#include "topomap/metrics.h"
#include "../util/util.h"

#define GREEDY_STARTS 4

typedef struct job {
    const tm_strategy *st;
    char name[48];
    uint64_t seed;
    tm_mapping m;
    tm_metrics *met;
    double time_s, refine_s;
    tm_err err;
    char msg[512];
} job;

typedef struct runner {
    const tm_problem *p;
    const tm_refiner *rf;
    const char *rarg;
    double time_limit;
    int job_threads;  /* threads a strategy may use itself: all of them for a lone job */
    job *jobs;
    int nj;
    atomic_int next;
} runner;

static void run_job(runner *rn, job *j)
{
    tm_ctx *jc = NULL;
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    double t0 = tm__now(), t1;
    if (tm_ctx_new(&jc) != TM_EOK) {
        j->err = TM_ENOMEM;
        snprintf(j->msg, sizeof j->msg, "out of memory");
        return;
    }
    tm_ctx_set_seed(jc, j->seed);
    tm_ctx_set_threads(jc, rn->job_threads);
    tm_ctx_set_time_limit(jc, rn->time_limit);
    j->err = j->st->run(jc, rn->p, j->seed, &j->m);
    t1 = tm__now();
    if (!j->err && rn->rf)
        j->err = rn->rf->run(jc, rn->p, rn->rarg, j->seed * 0x9e3779b97f4a7c15ULL + 1, &j->m);
    j->refine_s = rn->rf ? tm__now() - t1 : 0;
    j->time_s = tm__now() - t0;
    if (!j->err) {
        j->met = calloc(1, sizeof *j->met);
        if (!j->met) {
            j->err = tm__nomem(jc);
        } else {
            tm_metrics_init(j->met);
            o.node_hier = rn->p->hier;
            o.hop_distance = rn->p->hop_distance;
            if (rn->p->net)
                j->err = tm_metrics_eval(jc, rn->p->route, rn->p->comm, &j->m, &o, j->met);
            else
                j->err = tm_metrics_eval_hier(jc, rn->p->hier, rn->p->comm, &j->m, j->met);
        }
    }
    if (j->err)
        snprintf(j->msg, sizeof j->msg, "%s", tm_ctx_errmsg(jc));
    tm_ctx_free(jc);
}

static void *worker(void *arg)
{
    runner *rn = arg;
    for (;;) {
        int i = atomic_fetch_add(&rn->next, 1);
        if (i >= rn->nj)
            break;
        run_job(rn, &rn->jobs[i]);
    }
    return NULL;
}

/* Allocated hosts that cannot reach the first one through transit
 * vertices make a disconnected allocation (TM_EINPUT naming them). */
static tm_err check_connected(tm_ctx *ctx, const tm_problem *p)
{
    const tm_net_csr *g = tm_net_csr_get(p->net);
    const tm_alloc *al = p->alloc;
    uint8_t *seen;
    int32_t *q, head = 0, tail = 0, bad = 0;
    char list[600] = "";
    size_t len = 0;
    tm_err err = TM_EOK;
    if (al->n <= 1)
        return TM_EOK;
    seen = tm__calloc_n((size_t)g->n, 1);
    q = tm__malloc_n((size_t)g->n, sizeof *q);
    if (!seen || !q) {
        free(seen);
        free(q);
        return tm__nomem(ctx);
    }
    q[tail++] = al->host[0];
    seen[al->host[0]] = 1;
    while (head < tail) {
        int32_t v = q[head++];
        if (v != al->host[0] && !g->transit[v])
            continue;
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++)
            if (!seen[g->head[j]]) {
                seen[g->head[j]] = 1;
                q[tail++] = g->head[j];
            }
    }
    for (int32_t i = 1; i < al->n; i++) {
        if (seen[al->host[i]])
            continue;
        if (bad++ < 10 && len < sizeof list - 80)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s'%s'", bad > 1 ? ", " : "",
                                    tm_net_name(p->net, al->host[i]));
    }
    if (bad > 10)
        snprintf(list + len, sizeof list - len, " and %d more", bad - 10);
    if (bad)
        err = tm__fail(ctx, TM_EINPUT,
                       "disconnected allocation: %d allocated host%s cannot be reached from host "
                       "'%s': %s",
                       bad, bad > 1 ? "s" : "", tm_net_name(p->net, al->host[0]), list);
    free(seen);
    free(q);
    return err;
}

/* Objective keys in priority order. */
static void keys(const tm_metrics *m, tm_objective obj, double k[3])
{
    double c = m->max_congestion, d = m->avg_dilation, j = m->qap_J;
    k[0] = obj == TM_OBJ_DILATION ? d : obj == TM_OBJ_QAP ? j : c;
    k[1] = obj == TM_OBJ_CONGESTION ? d : c;
    k[2] = obj == TM_OBJ_QAP ? d : j;
}

static bool better(const tm_metrics *a, const tm_metrics *b, tm_objective obj)
{
    double ka[3], kb[3];
    keys(a, obj, ka);
    keys(b, obj, kb);
    for (int i = 0; i < 3; i++) {
        double tol = 1e-12 * (kb[i] > 1 ? kb[i] : 1);
        if (ka[i] < kb[i] - tol)
            return true;
        if (ka[i] > kb[i] + tol)
            return false;
    }
    return false;
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
        if (!one && strcmp(s->name, "greedy") == 0)
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

static tm_err run_jobs(tm_ctx *ctx, runner *rn)
{
    int nt = tm_ctx_threads(ctx), started = 0;
    pthread_t tid[64];
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
    return TM_EOK;
}

tm_err tm_map_run(tm_ctx *ctx, const tm_problem *p, const char *strategy, const char *refine,
                  tm_objective obj, tm_map_result *out)
{
    runner rn = {0};
    tm_route *own = NULL;
    tm_problem pr = *p;
    double t0 = tm__now(), tl = tm_ctx_time_limit(ctx);
    tm_err err = TM_EOK;
    int nt = tm_ctx_threads(ctx);

    tm_map_result_init(out);
    if (refine && strcmp(refine, "none") != 0) {
        unsigned mode = p->net ? TM_MODE_NETWORK : TM_MODE_HIERARCHY;
        rn.rf = tm_refiner_find(refine);
        if (!rn.rf)
            return tm__fail(ctx, TM_EUSAGE, "unknown refinement '%s'", refine);
        if (!(rn.rf->modes & mode))
            return tm__fail(ctx, TM_EUSAGE, "refinement '%s' does not work in %s mode", refine,
                            p->net ? "network" : "hierarchy");
        rn.rarg = strchr(refine, ':') ? strchr(refine, ':') + 1 : NULL;
    }
    err = make_jobs(ctx, p, strategy, &rn.jobs, &rn.nj);
    if (err)
        return err;
    if (p->net) {
        int64_t slots = tm_alloc_total_slots(p->alloc);
        if (p->comm->n > slots) {
            err = tm__fail(ctx, TM_EINFEASIBLE, "%d tasks but only %lld slots on %d hosts",
                           p->comm->n, (long long)slots, p->alloc->n);
            goto out;
        }
        err = check_connected(ctx, p);
        if (!err && !pr.route) {
            /* created here, in the calling thread, and shared read-only */
            err = tm_route_new(ctx, p->net, TM_ROUTE_ECMP, &own);
            pr.route = own;
        }
        if (err)
            goto out;
    }
    rn.p = &pr;
    /* the portfolio shares the time budget: the jobs run in
     * ceil(jobs / threads) rounds, each round gets an equal share */
    rn.time_limit = tl;
    if (tl > 0 && rn.nj > 1) {
        int t = nt < 1 ? 1 : nt < rn.nj ? nt : rn.nj;
        rn.time_limit = tl / (double)((rn.nj + t - 1) / t);
    }
    rn.job_threads = rn.nj == 1 ? (nt < 1 ? 1 : nt) : 1;
    atomic_init(&rn.next, 0);
    run_jobs(ctx, &rn);
    out->rows = tm__calloc_n((size_t)rn.nj, sizeof *out->rows);
    if (!out->rows) {
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
    for (int i = 0; i < rn.nj; i++) {
        job *j = &rn.jobs[i];
        tm_map_row *r = &out->rows[out->n_rows++];
        snprintf(r->name, sizeof r->name, "%s", j->name);
        snprintf(r->refine, sizeof r->refine, "%s", rn.rf ? refine : "");
        r->metrics = j->met;
        j->met = NULL;
        r->time_s = j->time_s;
        r->refine_time_s = j->refine_s;
        if (out->best < 0 || better(r->metrics, out->rows[out->best].metrics, obj))
            out->best = i;
    }
    out->mapping = rn.jobs[out->best].m;
    tm_mapping_init(&rn.jobs[out->best].m);
    out->metrics = out->rows[out->best].metrics;
out:
    for (int i = 0; i < rn.nj; i++) {
        tm_mapping_release(&rn.jobs[i].m);
        if (rn.jobs[i].met)
            tm_metrics_release(rn.jobs[i].met);
        free(rn.jobs[i].met);
    }
    free(rn.jobs);
    tm_route_free(own);
    if (err)
        tm_map_result_release(out);
    else
        out->time_s = tm__now() - t0;
    return err;
}
