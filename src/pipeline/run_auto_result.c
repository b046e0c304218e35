/* run_auto_result.c - the candidates of the default pipeline (run_auto.c):
 * every evaluated mapping is one, a row keeps the mappings no other of its
 * candidates dominates, and the answer is the best of all by the objective
 * (the pareto rule with the ideal point of all of them); then the result's
 * rows, their estimated times and the info. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_auto.h"
#include "../util/util.h"

/* ---- candidates ---------------------------------------------------------- */

/* Adds the evaluated mapping *m (taken over) as a candidate of r; the
 * mappings of the row's candidates it dominates are dropped (such a
 * candidate can never be the answer), as is its own when another
 * dominates it. */
tm_err tm__auto_add_cand(autorun *a, arow *r, tm_mapping *m, const tm_metrics *met, int level,
                       int64_t ta)
{
    tm_objective obj = a->rn->obj;
    cand *c;
    bool dominated = false;
    if (r->nc == r->capc) {
        size_t cap = (size_t)r->capc;
        if (tm__grow((void **)&r->c, &cap, (size_t)r->nc + 1, sizeof *r->c) < 0)
            return tm__nomem(r->jc);
        r->capc = (int)cap;
    }
    for (int k = 0; k < r->nc; k++) {
        if (!r->c[k].m.n)
            continue;
        if (tm__run_dominates(met, &r->c[k].met, obj))
            tm_mapping_release(&r->c[k].m);
        else if (tm__run_dominates(&r->c[k].met, met, obj))
            dominated = true;
    }
    c = &r->c[r->nc++];
    memset(c, 0, sizeof *c);
    c->met = *met;
    c->level = level;
    c->kicks = r->kicks;
    c->ta = ta;
    tm_mapping_init(&c->m);
    if (dominated)
        tm_mapping_release(m);
    else {
        c->m = *m;
        tm_mapping_init(m);
    }
    return TM_EOK;
}

/* The pareto rule's ideal point over every candidate (run_pick.c). */
void tm__auto_ideal(const autorun *a, double *cmin, double *dmin)
{
    bool first = true;
    *cmin = *dmin = 0;
    for (int i = 0; i < a->nr; i++)
        for (int k = 0; k < a->rows[i].nc; k++) {
            const tm_metrics *m = &a->rows[i].c[k].met;
            if (!a->rows[i].c[k].m.n)
                continue;
            if (first || m->max_congestion < *cmin)
                *cmin = m->max_congestion;
            if (first || m->avg_dilation < *dmin)
                *dmin = m->avg_dilation;
            first = false;
        }
}

/* Candidate k of row i is one of the set (row `row`, all rows: -1) and
 * still has its mapping. */
static bool in_set(const autorun *a, int row, int i, int k)
{
    return (row < 0 || i == row) && a->rows[i].c[k].m.n;
}

/* Another candidate of the set dominates candidate k of row i. */
static bool dominated(const autorun *a, int row, int i, int k)
{
    const tm_metrics *m = &a->rows[i].c[k].met;
    for (int j = 0; j < a->nr; j++)
        for (int l = 0; l < a->rows[j].nc; l++)
            if ((j != i || l != k) && in_set(a, row, j, l) &&
                tm__run_dominates(&a->rows[j].c[l].met, m, a->rn->obj))
                return true;
    return false;
}

/* The best candidate of row `row` (all rows: -1), by the objective with
 * the ideal point of all candidates (tm__run_pick_ideal's rule, the
 * candidates in row order); false when there is none.  *ri, *ci: its row
 * and index.  It allocates nothing: the schedule asks it between the
 * stages, where a failure could not be reported. */
bool tm__auto_best_cand(const autorun *a, int row, int *ri, int *ci)
{
    tm_objective obj = a->rn->obj;
    double cmin, dmin, best_s = 0;
    int bi = -1, bk = -1;
    tm__auto_ideal(a, &cmin, &dmin);
    for (int i = 0; i < a->nr; i++)
        for (int k = 0; k < a->rows[i].nc; k++) {
            const tm_metrics *m = &a->rows[i].c[k].met;
            double s;
            if (!in_set(a, row, i, k))
                continue;
            if (obj != TM_OBJ_PARETO) {
                if (bi < 0 || tm__run_better(m, &a->rows[bi].c[bk].met, obj))
                    bi = i, bk = k;
                continue;
            }
            if (dominated(a, row, i, k))
                continue;
            s = tm__run_ideal_score(m, cmin, dmin);
            if (bi < 0 || tm__run_ideal_beats(m, s, &a->rows[bi].c[bk].met, best_s, obj)) {
                bi = i, bk = k;
                best_s = s;
            }
        }
    if (bi < 0)
        return false;
    *ri = bi;
    *ci = bk;
    return true;
}

/* ---- the result ---------------------------------------------------------- */

/* "nc:2" for a probe, "ils:2,kicks=4+ta:86400,dil=0.01" for a level. */
static void describe(const autorun *a, const cand *c, char *buf, size_t size)
{
    char ta[48] = "";
    if (c->ta > 0)
        snprintf(ta, sizeof ta, "+ta:%lld,dil=%g", (long long)c->ta, a->level_dil);
    if (c->level == CAND_CONSTRUCTION)
        buf[0] = 0;
    else if (c->level == CAND_PROBE)
        snprintf(buf, size, "nc:%s%s", PROBE_NC, ta);
    else
        snprintf(buf, size, "ils:%d,kicks=%g%s", LEVEL_ILS_DEPTH, c->kicks, ta);
}

/* Row i of the result shows candidate k of its row. */
static tm_err fill_row(tm_ctx *ctx, const arow *r, int k, tm_map_row *row)
{
    const cand *c = &r->c[k];
    memset(row, 0, sizeof *row);
    if (!(row->metrics = malloc(sizeof *row->metrics)))
        return tm__nomem(ctx);
    *row->metrics = c->met;
    snprintf(row->name, sizeof row->name, "%s", r->name);
    describe(r->a, c, row->refine, sizeof row->refine);
    row->start_congestion = r->start[0];
    row->start_dilation = r->start[1];
    row->start_J = r->start[2];
    /* refined, and the construction is still the row's best */
    row->reverted = c->level == CAND_CONSTRUCTION && r->level >= 0;
    row->screened = r->screened;
    row->time_s = r->time_s;
    row->refine_time_s = r->refine_s;
    return TM_EOK;
}

/* The rows shown, with the time model: the candidates were evaluated
 * without it (eval_cand), except with the time objective. */
/* Above this many entries of the job's matrix only the answer's row is
 * timed (the others' est_time_s unknown, as under a time limit): an exact
 * simulation costs about the square of the messages, 0.17 s for the 4,002
 * of AMG 64 (MapLib), where timing 17 rows took 85 % of the default's run;
 * LULESH 64's 1,048 cost 0.01 s. */
#define TIMED_ROWS_MAX_ENTRIES 2048
typedef struct timed_rows {
    autorun *a;
    tm_ctx *ctx;
    const cand **c;    /* the candidate shown in each row */
    tm_err *err;
} timed_rows;

static void time_row(void *arg, int i, int member)
{
    timed_rows *t = arg;
    tm_map_row *row = &t->a->out->rows[i];
    tm_metrics met;
    (void)member;
    t->err[i] = tm__run_eval_time(t->ctx, t->a->rn, &t->c[i]->m, true, &met);
    if (!t->err[i]) {
        met.link_load = NULL;
        *row->metrics = met;
    }
}

static tm_err time_rows(tm_ctx *ctx, autorun *a, const cand **shown)
{
    timed_rows t = {a, ctx, shown, NULL};
    int n = a->out->n_rows, nt = tm_ctx_threads(ctx);
    tm_err err = TM_EOK;
    if (a->rn->obj == TM_OBJ_TIME || !a->rn->p->net || n == 0)
        return TM_EOK; /* evaluated with it already; or no time model */
    if (!(t.err = tm__calloc_n((size_t)n, sizeof *t.err)))
        return tm__nomem(ctx);
    if (a->rn->timed || a->rn->p->comm->nnz > TIMED_ROWS_MAX_ENTRIES) {
        /* under a time limit the answer alone: the budget goes to the search,
         * and a limit as long as the default's run, whose tail times every
         * row, reaches the default's levels (docs/mapping.md "Effort and
         * time"); the others' estimates are not known (NaN).  Likewise on
         * jobs whose simulation is dear (TIMED_ROWS_MAX_ENTRIES) */
        for (int i = 0; i < n; i++)
            if (i != a->out->best) {
                tm_metrics *m = a->out->rows[i].metrics;
                m->est_time_s = m->time_lower_bound_s = NAN;
            }
        time_row(&t, a->out->best, 0);
        err = t.err[a->out->best];
        free(t.err);
        return err;
    }
    /* the evaluation's own threads are the context's (the same figures) */
    tm__parallel_for(nt < n ? nt : n, n, time_row, &t);
    for (int i = 0; i < n && !err; i++)
        err = t.err[i];
    free(t.err);
    return err;
}

/* One row per constructed row, in row order, each showing its best
 * candidate; the row of the answer shows the answer. */
tm_err tm__auto_collect(tm_ctx *ctx, autorun *a, tm_mapping *best_m)
{
    tm_map_result *out = a->out;
    const cand **shown = NULL;
    int bi, bc;
    tm_err err = TM_EOK;
    if (!tm__auto_best_cand(a, -1, &bi, &bc))
        return tm__fail(ctx, TM_EINTERNAL, "the auto pipeline has no result");
    out->rows = tm__calloc_n((size_t)a->nr + 1, sizeof *out->rows); /* + fallback */
    shown = tm__calloc_n((size_t)a->nr + 1, sizeof *shown);
    if (!out->rows || !shown) {
        free(shown);
        return tm__nomem(ctx);
    }
    for (int i = 0; i < a->nr && !err; i++) {
        const arow *r = &a->rows[i];
        int ri, ci;
        if (!r->built)
            continue;
        if (i == bi)
            ci = bc, out->best = out->n_rows;
        else if (!tm__auto_best_cand(a, i, &ri, &ci))
            continue; /* cannot happen: a built row keeps a candidate */
        err = fill_row(ctx, r, ci, &out->rows[out->n_rows]);
        if (!err)
            shown[out->n_rows++] = &r->c[ci];
    }
    if (!err)
        err = time_rows(ctx, a, shown);
    if (!err) {
        *best_m = a->rows[bi].c[bc].m;
        tm_mapping_init(&a->rows[bi].c[bc].m);
    }
    free(shown);
    return err;
}

tm_err tm__auto_merge(tm_ctx *ctx, autorun *a, autorun *b, const int32_t *q)
{
    tm_err err = TM_EOK;
    for (int i = 0; i < a->nr && i < b->nr && !err; i++) {
        arow *ra = &a->rows[i], *rb = &b->rows[i];
        if (!rb->built)
            continue;
        if (!ra->built) { /* cannot happen with the same schedule; kept for safety */
            memcpy(ra->start, rb->start, sizeof ra->start);
            ra->built = true;
        }
        ra->level = rb->level > ra->level ? rb->level : ra->level;
        ra->time_s += rb->time_s;
        ra->refine_s += rb->refine_s;
        ra->eval_s += rb->eval_s;
        ra->kicks_n += rb->kicks_n;
        ra->ta_n += rb->ta_n;
        ra->evals_n += rb->evals_n;
        for (int k = 0; k < rb->nc && !err; k++) {
            const cand *c = &rb->c[k];
            tm_mapping m;
            if (!c->m.n)
                continue;
            tm_mapping_init(&m);
            if ((err = tm_mapping_alloc(ctx, &m, c->m.n, false)) != TM_EOK)
                break;
            for (int32_t t = 0; t < c->m.n; t++) { /* a's task t is b's q[t] */
                m.host[t] = c->m.host[q[t]];
                m.slot[t] = c->m.slot[q[t]];
            }
            err = tm__auto_add_cand(a, ra, &m, &c->met, c->level, c->ta);
            tm_mapping_release(&m);
            if (!err) {
                ra->c[ra->nc - 1].kicks = c->kicks;
                ra->c[ra->nc - 1].restart = b->restart;
            }
        }
    }
    a->cut = a->cut || b->cut;
    return err;
}

void tm__auto_info(const autorun *a, tm_map_info *info)
{
    const tm__runner *rn = a->rn;
    memset(info, 0, sizeof *info);
    info->pipeline = "auto";
    /* the level the default chose, or TM_EFFORT_AUTO: until converged */
    info->effort = a->effort == TM_EFFORT_AUTO && rn->timed ? TM_EFFORT_AUTO : a->last;
    info->levels = a->levels;
    info->restarts = a->restarts;
    info->stop = a->stop;
    if (!info->stop)
        info->stop = "effort";
    for (int i = 0; i < a->nr; i++) {
        info->kicks += a->rows[i].kicks_n;
        info->ta_moves += a->rows[i].ta_n;
        info->evaluations += a->rows[i].evals_n;
        info->rows_refined += a->rows[i].level >= 1;
    }
}
