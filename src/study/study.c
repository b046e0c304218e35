/* study.c - runs the grid of a what-if study.
 *
 * The calling thread builds the networks of a wave of netcases (igraph
 * stays in this thread), then worker threads take the (scenario,
 * strategy) runs of the wave from a shared counter, each with its own
 * context (one thread, the study's seed), and write into their own row:
 * the rows do not depend on which worker ran them or when.  The calling
 * thread then frees the wave's networks and builds the next.  Waves bound
 * memory to a few networks per worker. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "topomap/bounds.h"
#include "../graph/metis_pool.h"
#include "../util/util.h"
#include "study_int.h"

typedef struct runner {
    tm_ctx *parent;
    const tm_study_spec *s;
    tm_study_row *rows;
    tm__netcase *nc;
    int n_nc;
    int *items;      /* row indices of the current wave */
    const int32_t *owner; /* sharded: the shard of each run row (NULL: all ours) */
    int n_items;
    tm_err *err;     /* per row: an error that ends the study */
    pthread_mutex_t mu;
    int n_rows;
    int done, total; /* progress: runs finished (or skipped) of all runs */
} runner;

static void set_figures(tm_study_row *r, const tm_map_result *res)
{
    const tm_metrics *c = res->consecutive, *m = res->metrics;
    r->base_congestion = c->max_congestion;
    r->base_dilation = c->avg_dilation;
    r->base_J = c->qap_J;
    r->max_congestion = m->max_congestion;
    r->avg_dilation = m->avg_dilation;
    r->qap_J = m->qap_J;
    r->base_est_time_s = c->est_time_s;
    r->est_time_s = m->est_time_s;
    snprintf(r->best, sizeof r->best, "%s", res->rows[res->best].name);
}

/* The scenario's lower bounds (docs/bounds.md) beside the figures. */
static tm_err set_bounds(tm_ctx *jc, const tm_problem *p, tm_study_row *r)
{
    tm_bounds b;
    tm_err err = tm_bounds_compute(jc, p, NULL, &b);
    r->bound_congestion = b.max_congestion;
    r->bound_dilation = b.avg_dilation;
    r->bound_J = b.qap_J;
    return err;
}

/* One (scenario, strategy) run.  Unreachable hosts and too few slots are
 * the scenario's status; anything else is kept in rn->err for the caller. */
static void run_one(runner *rn, int ri)
{
    tm_study_row *r = &rn->rows[ri];
    const tm__netcase *nc = &rn->nc[tm__grid_netcase_of(rn->nc, rn->n_nc, r)];
    tm_problem p = {0};
    tm_map_result res;
    tm_ctx *jc = NULL;
    tm_err err;
    tm_map_result_init(&res);
    if (tm_ctx_new(&jc) != TM_EOK) {
        rn->err[ri] = TM_ENOMEM;
        snprintf(r->cause, sizeof r->cause, "out of memory");
        return;
    }
    tm__ctx_inherit(jc, rn->parent);
    tm_ctx_set_seed(jc, tm_ctx_seed(rn->parent));
    (void)tm_ctx_set_effort(jc, tm_ctx_effort(rn->parent)); /* valid: the parent's */
    p.net = nc->net;
    p.route = nc->routes[r->routing];
    p.alloc = &nc->alloc;
    p.comm = rn->s->comms[r->comm];
    p.imbalance = -1; /* one task per slot: more tasks is an infeasible scenario */
    p.time = rn->s->time;
    err = tm_map_run(jc, &p, rn->s->strategies[r->strategy], rn->s->refine, rn->s->objective,
                     &res);
    if (!err && !res.consecutive)
        err = tm__fail(jc, TM_EINTERNAL, "no consecutive placement to compare with");
    if (!err)
        set_figures(r, &res);
    if (!err)
        err = set_bounds(jc, &p, r);
    else if (err == TM_EINPUT || err == TM_EINFEASIBLE)
        r->status = err == TM_EINPUT ? TM_STUDY_UNROUTABLE : TM_STUDY_INFEASIBLE;
    else
        rn->err[ri] = err;
    if (err) {
        /* the hint names an argument the study does not take */
        char *hint;
        snprintf(r->cause, sizeof r->cause, "%s", tm_ctx_errmsg(jc));
        if ((hint = strstr(r->cause, " (general process mapping needs an imbalance")))
            *hint = 0;
    }
    tm_map_result_release(&res);
    tm_ctx_free(jc);
}

/* Row i of the wave (tm__parallel_for), then the progress callback. */
static void run_item(void *arg, int i, int member)
{
    runner *rn = arg;
    run_one(rn, rn->items[i]);
    pthread_mutex_lock(&rn->mu);
    rn->done++;
    if (rn->s->progress)
        rn->s->progress(rn->s->progress_userdata, rn->done, rn->total);
    pthread_mutex_unlock(&rn->mu);
}

/* Runs rn->items in nt threads (the calling thread is one of them; fewer
 * when threads cannot start: the same rows, later). */
static void run_wave(runner *rn, int nt)
{
    tm__parallel_for(nt, rn->n_items, run_item, rn);
}

/* Whether row i is a run of this shard (every run when not sharded). */
static bool ours(const runner *rn, int i)
{
    return rn->rows[i].stat == TM_STUDY_RUN &&
           (!rn->owner || rn->owner[i] == rn->s->shard_index);
}

/* Builds the netcases of [a, b) that runs of ours need and lists those
 * runs; a disconnected netcase gives its rows its status without running
 * them. */
static tm_err build_wave(runner *rn, int a, int b, bool *loaded)
{
    const tm_study_spec *s = rn->s;
    rn->n_items = 0;
    for (int i = 0; i < rn->n_rows; i++) {
        int k;
        if (ours(rn, i) && (k = tm__grid_netcase_of(rn->nc, rn->n_nc, &rn->rows[i])) >= a && k < b)
            rn->nc[k].needed = true;
    }
    for (int k = a; k < b; k++) {
        tm__netcase *nc = &rn->nc[k];
        bool *l = &loaded[nc->key.topology];
        tm_err err = nc->needed ? tm__netcase_build(rn->parent, s, *l, nc) : TM_EOK;
        if (err)
            return err;
        *l = *l || nc->needed;
    }
    for (int i = 0; i < rn->n_rows; i++) {
        tm_study_row *r = &rn->rows[i];
        int k;
        if (!ours(rn, i) || (k = tm__grid_netcase_of(rn->nc, rn->n_nc, r)) < a || k >= b)
            continue;
        if (rn->nc[k].status != TM_STUDY_OK) {
            r->status = rn->nc[k].status;
            snprintf(r->cause, sizeof r->cause, "%s", rn->nc[k].cause);
            /* no worker runs yet: the callback is called from here */
            if (s->progress)
                s->progress(s->progress_userdata, ++rn->done, rn->total);
        } else {
            rn->items[rn->n_items++] = i;
        }
        r->scaled_cables = rn->nc[k].scaled;
        r->failed_cables = rn->nc[k].failed;
    }
    return TM_EOK;
}

/* The first error of the wave in row order (deterministic), if any. */
static tm_err wave_error(runner *rn)
{
    for (int i = 0; i < rn->n_items; i++) {
        int ri = rn->items[i];
        if (rn->err[ri])
            return tm__fail(rn->parent, rn->err[ri], "%s", rn->rows[ri].cause);
    }
    return TM_EOK;
}

static tm_err run_waves(runner *rn)
{
    int nt = tm_ctx_threads(rn->parent), wave = nt * 2 < 4 ? 4 : nt * 2;
    bool *loaded = tm__calloc_n((size_t)rn->s->n_topologies, sizeof *loaded);
    tm_err err = loaded ? TM_EOK : tm__nomem(rn->parent);
    /* METIS workers forked now, before any thread exists (metis_pool.h) */
    if (nt > 1)
        tm__metis_pool_prefork(tm__ctx_metis_pool(rn->parent), nt - 1);
    for (int a = 0; !err && a < rn->n_nc; a += wave) {
        int b = a + wave < rn->n_nc ? a + wave : rn->n_nc;
        err = build_wave(rn, a, b, loaded);
        if (!err) {
            run_wave(rn, nt);
            err = wave_error(rn);
        }
        for (int k = a; k < b; k++)
            tm__netcase_release(rn->s, &rn->nc[k]);
    }
    free(loaded);
    return err;
}

/* Estimated cost of a run (tm__study_shard_owners): the strategies it
 * runs, times the application's tasks and messages, times the bit length
 * of the number of hosts it spans (tasks / --slots; one task per host when
 * the slots are the topology's: the most hosts).  Measured: "all" costs
 * about the sum of the strategies it runs (lulesh-64 on the X5 fabric, a
 * 1,728-task stencil on a fat-tree); lulesh-64 on 64 hosts (--slots 1)
 * costs 2-3x what it costs on 16 (--slots 4); single strategies differ up
 * to 4x between each other, which the hashed order of equal costs spreads.
 * Integers only: every shard, on any machine, computes the same costs. */
static int64_t run_cost(const tm_study_spec *s, const tm_study_row *r)
{
    const tm_comm *c = s->comms ? s->comms[r->comm] : NULL;
    int64_t n = c ? c->n : 1, size = c ? (int64_t)c->n + c->nnz : 1, w = 1, hosts, bits = 0;
    int32_t slots = s->slots[r->slots];
    if (strcmp(s->strategies[r->strategy], "all") == 0) {
        w = 0;
        for (const tm_strategy *st = tm_strategies(); st->name; st++)
            w += st->in_all && (st->modes & TM_MODE_NETWORK);
    }
    hosts = slots > 0 ? (n + slots - 1) / slots : n;
    for (; hosts > 0; hosts >>= 1)
        bits++;
    return (w > 0 ? w : 1) * (size > 0 ? size : 1) * (bits > 0 ? bits : 1);
}

tm_err tm__study_shard_owners(tm_ctx *ctx, const tm_study_spec *s, int32_t **owner)
{
    int n_rows = tm__grid_count_rows(s), n_nc = tm__grid_count_netcases(s), n_runs = 0;
    tm_study_row *rows = tm__calloc_n((size_t)n_rows + 1, sizeof *rows);
    tm__netcase *nc = tm__calloc_n((size_t)n_nc + 1, sizeof *nc);
    int64_t *cost = tm__malloc_n((size_t)n_rows + 1, sizeof *cost);
    int32_t *run_owner = tm__malloc_n((size_t)n_rows + 1, sizeof *run_owner);
    tm_err err = TM_EOK;
    *owner = tm__malloc_n((size_t)n_rows + 1, sizeof **owner);
    if (!rows || !nc || !cost || !run_owner || !*owner) {
        err = tm__nomem(ctx);
        goto out;
    }
    tm__grid_fill(s, rows, nc);
    for (int i = 0; i < n_rows; i++)
        if (rows[i].stat == TM_STUDY_RUN)
            cost[n_runs++] = run_cost(s, &rows[i]);
    if (s->shard_count > n_runs) {
        err = tm__fail(ctx, TM_EUSAGE, "--shard %d/%d: the study has %d run%s, so at most %d "
                       "shards (each shard runs at least one)", s->shard_index, s->shard_count,
                       n_runs, n_runs == 1 ? "" : "s", n_runs);
        goto out;
    }
    if ((err = tm_shard_assign(ctx, cost, n_runs, s->shard_count, run_owner)))
        goto out;
    for (int i = 0, j = 0; i < n_rows; i++)
        (*owner)[i] = rows[i].stat == TM_STUDY_RUN ? run_owner[j++] : -1;
out:
    if (err) {
        free(*owner);
        *owner = NULL;
    }
    free(rows);
    free(nc);
    free(cost);
    free(run_owner);
    return err;
}

/* A shard's result: its run rows only, in grid order. */
static void keep_ours(const runner *rn, tm_study_result *out)
{
    int n = 0;
    for (int i = 0; i < out->n_rows; i++)
        if (ours(rn, i))
            out->rows[n++] = out->rows[i];
    out->n_rows = out->n_runs = n;
}

tm_err tm__study_run(tm_ctx *ctx, const tm_study_spec *s, tm_study_result *out)
{
    runner rn;
    int32_t *owner = NULL;
    tm_err err;
    memset(&rn, 0, sizeof rn);
    tm_study_result_init(out);
    rn.parent = ctx;
    rn.s = s;
    out->n_rows = tm__grid_count_rows(s);
    rn.n_nc = tm__grid_count_netcases(s);
    rn.rows = out->rows = tm__calloc_n((size_t)out->n_rows, sizeof *out->rows);
    rn.nc = tm__calloc_n((size_t)rn.n_nc, sizeof *rn.nc);
    rn.items = tm__malloc_n((size_t)out->n_rows, sizeof *rn.items);
    rn.err = tm__calloc_n((size_t)out->n_rows, sizeof *rn.err);
    if (!rn.rows || !rn.nc || !rn.items || !rn.err || out->n_rows == 0) {
        err = out->n_rows == 0 ? tm__fail(ctx, TM_EUSAGE, "empty study") : tm__nomem(ctx);
        goto out;
    }
    tm__grid_fill(s, rn.rows, rn.nc);
    for (int i = 0; i < rn.n_nc; i++)
        tm_alloc_init(&rn.nc[i].alloc);
    rn.n_rows = out->n_rows;
    for (int i = 0; i < out->n_rows; i++) {
        rn.rows[i].position = i;
        out->total_runs += rn.rows[i].stat == TM_STUDY_RUN;
    }
    out->total_rows = out->n_rows;
    if (s->shard_count > 0 && (err = tm__study_shard_owners(ctx, s, &owner)))
        goto out;
    rn.owner = owner;
    for (int i = 0; i < out->n_rows; i++)
        out->n_runs += ours(&rn, i);
    rn.total = out->n_runs;
    pthread_mutex_init(&rn.mu, NULL);
    if (s->progress)
        s->progress(s->progress_userdata, 0, rn.total);
    err = run_waves(&rn);
    pthread_mutex_destroy(&rn.mu);
    /* a shard has only some samples of a failure: the merge summarises */
    if (!err && owner)
        keep_ours(&rn, out);
    else if (!err)
        tm__study_summarize(out);
out:
    free(owner);
    free(rn.nc);
    free(rn.items);
    free(rn.err);
    if (err)
        tm_study_result_release(out);
    return err;
}
