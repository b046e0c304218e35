/* run_auto.c - the default pipeline of tm_map_run (refinement "auto"): a
 * fixed schedule of stages whose work is counted in iterations, never in
 * seconds (docs/mapping.md "Effort and time").
 *
 *   constructions  every row's construction, evaluated;
 *   probe          a short refinement of every row (nc:2, the descent on
 *                  J), evaluated: which construction wins once refined is
 *                  judged on this, not on its J before refinement (the
 *                  screen of the previous pipeline kept the lowest J and
 *                  dropped topdown, the winner after refinement).  No
 *                  threshold accepting here: on 16 instances of 64 to
 *                  1,728 tasks a short one (5 moves per slot) changed the
 *                  rows the levels refine on 2, into pareto trade-offs, and
 *                  cost 10-40 % of the default's time (docs/mapping.md);
 *   level L >= 1   the best L + 1 rows by their results so far: more kicks
 *                  of the iterated local search on J (1 per task at level
 *                  1, doubling per level), then threshold accepting from
 *                  there (50 moves per slot, capped on big jobs),
 *                  evaluated.  From level 2 on, further starts join
 *                  (topdown's other trials, greedy's other starts),
 *                  constructed and probed first.
 *
 * Every evaluated result is a candidate (run_auto_result.c), and the answer
 * is the best candidate by the objective (tm__run_pick over all of them): a
 * later level only adds candidates, so more levels never give a worse
 * answer.  The effort (tm_ctx_effort) is the last level; by default one
 * set by the job's size (DEFAULT_EFFORT).  With a time
 * limit and no effort the levels go on until the answer has not improved
 * by 0.1 % for two levels in a row, or until the limit: a task that would
 * end after the limit is stopped and its work dropped, so the answer is
 * always that of a whole number of tasks of the same schedule, and a
 * longer limit reaches at least as far (the same machine, up to the noise
 * of its speed).  Tasks of a stage run on the context's threads, each on
 * its own row; stages depend only on the results of the stages before, so
 * the answer depends on the seed and the effort, never on the thread count
 * (nor on the machine, without a time limit). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_auto.h"
#include "../qap/qap_int.h" /* tm__topdown_net_trial */
#include "../util/util.h"

/* Level L: ils with its kicks, then TA with 50 moves per slot (as TA's
 * own default), at least 5,000 and at most 500,000 x 2^(L-1), under the
 * dilation guard of the objective (tm__auto_level_dil).  The cap
 * is TA's cost on big jobs: a move reroutes both tasks' messages, 35 us
 * on 131,072 tasks on torus:64x64x32, where TA's own 2,000,000 moves
 * cost 70 s a row. */
#define LEVEL_TA_PER_SLOT 50
#define LEVEL_TA_MIN 5000
#define LEVEL_TA_MAX 500000
/* How far the levels' threshold accepting may raise the sum of hops
 * weighted by volume (TA's dil=): 1 % when the objective weighs dilation
 * (pareto, dilation, qap), TA's own 5 % when it is congestion or time.
 * With 5 % under pareto the default's dilation ended level with Scotch's
 * on SpMV tori (docs/mapping.md "Effort and time"). */
#define LEVEL_TA_DIL 0.01
#define LEVEL_TA_DIL_CONGESTION 0.05
/* The default effort (no effort, no time limit) by the job's size: the
 * levels cost little on small jobs, where the extra starts of level 2 (the
 * other orientations of topdown) pay most (docs/mapping.md "Effort and
 * time"). */
#define DEFAULT_EFFORT(n) ((n) <= 128 ? 3 : (n) <= 256 ? 2 : 1)
/* Restarts (docs/mapping.md "Restarts"): the schedule runs again on the
 * canonical job renamed at random, and every run's candidates compete.
 * One numbering can land a search in a poor basin that another avoids
 * (NPB CG 64 on torus:4x4x4: 1.153 hops a byte from the canonical
 * numbering, 1.083 with three renamings beside it).  A run costs 0.05-0.6 s
 * on 64-task jobs, whose time target is 1 s, and its cost grows with the
 * job's entries (the evaluations and the local searches) and with the
 * allocation's slots (threshold accepting's moves: 50 a slot), so jobs of
 * at most 128 tasks get 4 runs or 2 by their entries plus slots (NPB CG 64
 * on a 64-host torus: 312, 4 runs; LULESH 64: 1,112, 2 runs; either on 89
 * hosts of 8 slots of X5: 960 and 1,760, 2 runs and 1). */
#define RESTART_MAX_TASKS 128
static int restarts_for(const tm_problem *p)
{
    int64_t w = p->comm->nnz;
    if (p->comm->n > RESTART_MAX_TASKS || !p->alloc)
        return 1;
    for (int32_t i = 0; i < p->alloc->n; i++)
        w += p->alloc->slots[i] > 0 ? p->alloc->slots[i] : 0;
    return w <= 768 ? 4 : w <= 1536 ? 2 : 1;
}
/* Jobs with more tasks than this probe only the constructions no other
 * one dominates (screened). */
#define SCREEN_MIN_TASKS 8192
/* Extra starts that join at level 2: topdown's trials 1..5 (there are 6
 * on 3D grids, 2 elsewhere), greedy's starts 1..3, and grow's starts
 * beyond the first GROW_FIRST (one row: the best of the rest).  A grow
 * start rebuilds a relabelled stencil of a cube exactly; rings of 4 beside
 * longer ones (6x5x4) need up to 8 (docs/mapping.md "grow"), and on SpMV
 * 1,728 its 16 starts are a sixth of the default's work.  Grow named
 * alone (`--strategy grow`) runs all its starts in its one row. */
#define EXTRA_TOPDOWN 5
#define EXTRA_GREEDY 3
#define GROW_FIRST 4
/* Convergence without an effort: two levels without an improvement of
 * the answer by 0.1 %. */
#define STALE_LEVELS 2
#define IMPROVE_REL 1e-3
/* Under a time limit, added to what a row's evaluation costs (seconds). */
#define EVAL_MARGIN_S 0.002

/* ---- rows ---------------------------------------------------------------- */

static int row_stop(void *ud)
{
    const arow *r = ud;
    const tm__runner *rn = r->a->rn;
    return tm__stopped(rn->parent) || (rn->timed && tm__now() >= r->deadline);
}

static bool is_net_topdown(const autorun *a, const arow *r)
{
    return a->rn->p->net && strcmp(r->st->name, "topdown") == 0;
}

static bool is_grow(const arow *r) { return strcmp(r->st->name, "grow") == 0; }
static bool is_skeleton(const arow *r) { return strcmp(r->st->name, "skeleton") == 0; }

static tm_err add_row(tm_ctx *ctx, autorun *a, const tm_strategy *st, int k, bool extra, int *cap)
{
    arow *r;
    if (a->nr == *cap) {
        size_t c = (size_t)*cap;
        if (tm__grow((void **)&a->rows, &c, (size_t)a->nr + 1, sizeof *a->rows) < 0)
            return tm__nomem(ctx);
        *cap = (int)c;
    }
    r = &a->rows[a->nr++];
    memset(r, 0, sizeof *r);
    r->a = a;
    r->st = st;
    r->trial = k;
    r->extra = extra;
    r->level = -2;
    /* greedy's starts take seed + k (as `all` always did); topdown's trials
     * take their own seeds inside (tm__topdown_net_trial) */
    r->seed = tm_ctx_seed(a->rn->parent) + (strcmp(st->name, "greedy") == 0 ? (uint64_t)k : 0);
    tm_mapping_init(&r->js);
    if (k > 0)
        snprintf(r->name, sizeof r->name, "%s#%d", st->name, k);
    else
        snprintf(r->name, sizeof r->name, "%s", st->name);
    return TM_EOK;
}

/* The rows: the strategy named, or every strategy of `all` for the mode;
 * then the extra starts of topdown (network mode) and greedy. */
static tm_err make_rows(tm_ctx *ctx, autorun *a, const char *strategy)
{
    unsigned mode = a->rn->p->net ? TM_MODE_NETWORK : TM_MODE_HIERARCHY;
    const tm_strategy *one = NULL;
    int cap = 0;
    tm_err err = TM_EOK;
    if (strcmp(strategy, "all") != 0) {
        one = tm_strategy_find(strategy);
        if (!one)
            return tm__fail(ctx, TM_EUSAGE, "unknown strategy '%s'", strategy);
        if (!(one->modes & mode))
            return tm__fail(ctx, TM_EUSAGE, "strategy '%s' does not work in %s mode", strategy,
                            a->rn->p->net ? "network" : "hierarchy");
    }
    a->named = one != NULL;
    for (const tm_strategy *s = tm_strategies(); s->name && !err; s++)
        if (one ? s == one : (s->in_all && (s->modes & mode)))
            err = add_row(ctx, a, s, 0, false, &cap);
    for (int i = 0, n = a->nr; i < n && !err; i++) {
        const tm_strategy *s = a->rows[i].st;
        int extra = strcmp(s->name, "greedy") == 0                     ? EXTRA_GREEDY
                    : is_net_topdown(a, &a->rows[i])                   ? EXTRA_TOPDOWN
                    : is_grow(&a->rows[i]) || is_skeleton(&a->rows[i]) ? !a->named
                                                                       : 0;
        for (int k = 1; k <= extra && !err; k++)
            err = add_row(ctx, a, s, k, true, &cap);
    }
    return err;
}

static void release_rows(autorun *a)
{
    for (int i = 0; i < a->nr; i++) {
        arow *r = &a->rows[i];
        tm_ctx_free(r->jc);
        tm_mapping_release(&r->js);
        for (int k = 0; k < r->nc; k++)
            tm_mapping_release(&r->c[k].m);
        free(r->c);
    }
    free(a->rows);
    free(a->todo);
}

/* ---- the tasks ----------------------------------------------------------- */

static void report(const autorun *a, const arow *r, const char *step, const tm_metrics *m)
{
    char what[96];
    bool net = a->rn->p->net != NULL;
    snprintf(what, sizeof what, "%s %s", r->name, step);
    tm__progress(a->rn->parent, what, net ? m->max_congestion : -1, net ? m->avg_dilation : -1,
                 m->qap_J);
}

/* Evaluates *m and adds it to r's candidates.  The time model only with
 * the time objective: the other objectives do not read it, and on small
 * jobs the simulation is most of an evaluation; the rows shown get their
 * estimated time at the end (timed_rows). */
static tm_err eval_cand(autorun *a, arow *r, tm_mapping *m, int level, int64_t ta,
                        const char *step)
{
    tm_metrics met;
    double t = tm__now();
    tm_err err = tm__run_eval_time(r->jc, a->rn, m, a->rn->obj == TM_OBJ_TIME, &met);
    r->eval_s = tm__now() - t;
    r->evals_n++;
    if (!err) {
        report(a, r, step, &met);
        met.link_load = NULL; /* none asked for */
        err = tm__auto_add_cand(a, r, m, &met, level, ta);
    }
    return err;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

static int64_t slots(const autorun *a)
{
    const tm_problem *p = a->rn->p;
    return p->net ? tm_alloc_total_slots(p->alloc) : p->comm->n;
}

/* Runs refiner `name` with argument `arg` on *m; the seed is the row's,
 * mixed with the step. */
static tm_err refine_step(arow *r, const char *name, const char *arg, uint64_t step,
                          tm_mapping *m)
{
    const tm_refiner *rf = tm_refiner_find(name);
    return rf->run(r->jc, r->a->rn->p, arg, r->seed * 0x9e3779b97f4a7c15ULL + step, m);
}

static tm_err task_construct(autorun *a, arow *r)
{
    const tm__runner *rn = a->rn;
    tm_mapping m;
    tm_err err;
    tm_mapping_init(&m);
    if (tm_ctx_new(&r->jc) != TM_EOK) {
        snprintf(r->msg, sizeof r->msg, "out of memory");
        return TM_ENOMEM;
    }
    tm__ctx_inherit(r->jc, rn->parent);
    tm__ctx_set_memo(r->jc, a->memo); /* the rows share what they compute alike */
    tm_ctx_set_stop(r->jc, row_stop, r);
    tm_ctx_set_seed(r->jc, r->seed);
    (void)tm_ctx_set_threads(r->jc, a->threads); /* from the parent: checked */
    if (a->perm && strcmp(r->st->name, "identity") == 0)
        err = tm__auto_canon_consecutive(r->jc, a, &m); /* the given numbering's */
    else if (is_net_topdown(a, r))
        err = tm__topdown_net_trial(r->jc, rn->p, r->seed, r->trial, &m);
    else if (is_grow(r) && !a->named) /* the first starts, or (grow#1) all the others */
        err = tm__grow_starts(r->jc, rn->p, r->seed, r->trial ? GROW_FIRST : 0,
                              r->trial ? tm__grow_n_starts(rn->p) : GROW_FIRST, &m);
    else if (is_skeleton(r) && !a->named) /* grow's starts on the skeleton, if any */
        err = tm__skeleton_starts(r->jc, rn->p, r->seed, r->trial ? GROW_FIRST : 0,
                                  r->trial ? tm__grow_n_starts(rn->p) : GROW_FIRST, &m);
    else
        err = r->st->run(r->jc, rn->p, r->seed, &m);
    if (!err && m.n == 0 && rn->p->comm->n > 0) {
        r->gone = true; /* topdown's trial or grow's starts that do not exist */
        return TM_EOK;
    }
    if (!err)
        err = tm_mapping_copy(r->jc, &m, &r->js);
    if (!err) {
        tm_metrics *c = a->out->consecutive;
        tm_mapping cons;
        tm_mapping_init(&cons);
        /* the identity row is the baseline, evaluated already */
        if (c && !rn->gen && rn->p->net && strcmp(r->st->name, "identity") == 0 &&
            (a->perm ? tm__auto_canon_consecutive(r->jc, a, &cons)
                     : tm_mapping_consecutive(r->jc, rn->p->alloc, rn->p->comm->n, &cons)) ==
                TM_EOK &&
            tm__run_same_mapping(&cons, &m)) {
            tm_metrics met = *c;
            met.link_load = NULL;
            report(a, r, "constructed", &met);
            err = tm__auto_add_cand(a, r, &m, &met, CAND_CONSTRUCTION, 0);
        } else {
            err = eval_cand(a, r, &m, CAND_CONSTRUCTION, 0, "constructed");
        }
        tm_mapping_release(&cons);
    }
    if (!err) {
        const tm_metrics *s = &r->c[0].met;
        r->built = true;
        r->level = -1;
        r->start[0] = s->max_congestion;
        r->start[1] = s->avg_dilation;
        r->start[2] = s->qap_J;
    }
    tm_mapping_release(&m);
    return err;
}

static tm_err task_probe(autorun *a, arow *r)
{
    tm_mapping m;
    tm_err err = refine_step(r, "nc", PROBE_NC, 1, &r->js);
    tm_mapping_init(&m);
    if (!err && row_stop(r))
        return TM_EOK; /* stopped inside: the row stays constructed */
    if (!err)
        err = tm_mapping_copy(r->jc, &r->js, &m);
    if (!err)
        err = eval_cand(a, r, &m, CAND_PROBE, 0, "probed");
    if (!err)
        r->level = 0;
    tm_mapping_release(&m);
    return err;
}

double tm__auto_level_dil(tm_objective obj)
{
    return obj == TM_OBJ_CONGESTION || obj == TM_OBJ_TIME ? LEVEL_TA_DIL_CONGESTION : LEVEL_TA_DIL;
}

/* Kicks per task up to level L: 1, 2, 4, ... */
static double level_kicks(int level) { return ldexp(1.0, level - 1); }

static tm_err task_level(autorun *a, arow *r, int level)
{
    tm_mapping m;
    char arg[48];
    double dk = level_kicks(level) - r->kicks;
    int64_t ta = 0;
    tm_err err = TM_EOK;
    tm_mapping_init(&m);
    if (dk > 0) {
        snprintf(arg, sizeof arg, "%d,kicks=%g", LEVEL_ILS_DEPTH, dk);
        err = refine_step(r, "ils", arg, 16 + 2 * (uint64_t)level, &r->js);
        r->kicks_n += (int64_t)ceil(dk * r->js.n);
    }
    if (!err && row_stop(r))
        return TM_EOK; /* the kicks were cut: the level did not happen */
    if (!err)
        err = tm_mapping_copy(r->jc, &r->js, &m);
    if (!err && a->rn->p->net) {
        ta = clamp64(LEVEL_TA_PER_SLOT * slots(a), LEVEL_TA_MIN,
                     (int64_t)ldexp(LEVEL_TA_MAX, level - 1));
        snprintf(arg, sizeof arg, "%lld,dil=%g", (long long)ta, tm__auto_level_dil(a->rn->obj));
        err = refine_step(r, "ta", arg, 17 + 2 * (uint64_t)level, &m);
        r->ta_n += ta;
    }
    if (!err && row_stop(r)) {
        tm_mapping_release(&m);
        return TM_EOK;
    }
    r->kicks = level_kicks(level);
    if (!err)
        err = eval_cand(a, r, &m, level, ta, "refined");
    if (!err)
        r->level = level;
    tm_mapping_release(&m);
    return err;
}

/* Whether a task may start: the first two constructions always do (the
 * consecutive placement and a real construction exist), the others not
 * after a stop request or the time limit. */
static bool may_start(const autorun *a, const arow *r)
{
    const tm__runner *rn = a->rn;
    if ((a->task == TASK_CONSTRUCT || a->task == TASK_BUILD) && r - a->rows < 2)
        return true;
    return !tm__stopped(rn->parent) && !(rn->timed && tm__now() >= r->deadline);
}

static void stage_task(void *arg, int i, int member)
{
    autorun *a = arg;
    arow *r = a->todo[i];
    const tm__runner *rn = a->rn;
    double t0 = tm__now();
    (void)member;
    /* under a time limit a task stops where its evaluation still fits */
    if (rn->timed)
        r->deadline = rn->deadline - (a->eval_max + a->final_s + EVAL_MARGIN_S);
    if (!may_start(a, r))
        return;
    if (r->jc)
        (void)tm_ctx_set_threads(r->jc, a->threads);
    if (a->task == TASK_CONSTRUCT || a->task == TASK_BUILD)
        r->err = task_construct(a, r);
    r->time_s += tm__now() - t0;
    t0 = tm__now();
    if (!r->err && (a->task == TASK_PROBE || (a->task == TASK_BUILD && !r->gone &&
                                               !row_stop(r))))
        r->err = task_probe(a, r);
    else if (!r->err && a->task == TASK_LEVEL)
        r->err = task_level(a, r, a->level);
    if (r->err && r->jc)
        snprintf(r->msg, sizeof r->msg, "%s", tm_ctx_errmsg(r->jc));
    r->time_s += tm__now() - t0;
    r->refine_s += tm__now() - t0;
}

/* Runs the stage's task on every row of todo, on the context's threads
 * (each task gets an equal share for its own parallel parts).  The
 * results do not depend on the order or the threads. */
static tm_err run_stage(tm_ctx *ctx, autorun *a, int task, int level)
{
    int nt = tm_ctx_threads(ctx), n = a->ntodo;
    if (n == 0)
        return TM_EOK;
    a->task = task;
    a->level = level;
    a->threads = nt / n > 1 ? nt / n : 1;
    tm__parallel_for(nt < n ? nt : n, n, stage_task, a);
    for (int i = 0; i < n; i++) {
        arow *r = a->todo[i];
        int want = task == TASK_CONSTRUCT ? -1 : task == TASK_LEVEL ? level : 0;
        if (r->err)
            return tm__fail(ctx, r->err, "%s", r->msg);
        if (r->eval_s > a->eval_max)
            a->eval_max = r->eval_s;
        if (!r->gone && r->level != want) {
            a->cut = true; /* stopped or not started: the schedule ends */
            if (!a->stop)
                a->stop = tm__stopped(a->rn->parent) ? "stopped" : "time limit";
        }
    }
    return TM_EOK;
}

/* The rows of a stage: constructions (base or extra rows), probes of the
 * rows just built. */
/* On big jobs, a construction another one beats on congestion, dilation
 * and J at once is not probed (screened): the descent from a far-flung
 * placement (the identity of a relabelled stencil: 30 hops a message on a
 * 64x64x32 torus) swaps most tasks, and such a row has never won once
 * refined (docs/mapping.md "The screen"). */
static bool screened(const autorun *a, const arow *r)
{
    if (a->rn->p->comm->n <= SCREEN_MIN_TASKS || !r->built)
        return false;
    for (int i = 0; i < a->nr; i++) {
        const arow *o = &a->rows[i];
        if (o != r && o->built && o->nc > 0 &&
            tm__run_dominates(&o->c[0].met, &r->c[0].met, a->rn->obj))
            return true;
    }
    return false;
}

static void todo_rows(autorun *a, int task, bool extra)
{
    a->ntodo = 0;
    for (int i = 0; i < a->nr; i++) {
        arow *r = &a->rows[i];
        if (r->extra != extra || r->gone)
            continue;
        if (task == TASK_PROBE && r->level == -1 && (r->screened = screened(a, r)))
            continue;
        if (((task == TASK_CONSTRUCT || task == TASK_BUILD) && r->level == -2) ||
            (task == TASK_PROBE && r->level == -1))
            a->todo[a->ntodo++] = r;
    }
}

/* Whether a row of the level so far has a best candidate with the same
 * congestion, dilation and J as *m: the same placement or one the
 * network's symmetry makes equivalent (grow and skeleton both rebuild a
 * stencil exactly), whose refinement would spend the level's work again. */
static bool same_as_todo(const autorun *a, const tm_metrics *m)
{
    for (int i = 0; i < a->ntodo; i++) {
        int ri, ci;
        const tm_metrics *o;
        if (!tm__auto_best_cand(a, (int)(a->todo[i] - a->rows), &ri, &ci))
            continue;
        o = &a->rows[ri].c[ci].met;
        if (o->max_congestion == m->max_congestion && o->avg_dilation == m->avg_dilation &&
            o->qap_J == m->qap_J)
            return true;
    }
    return false;
}

/* The objective the k-th row of a level is taken by: under pareto the
 * ideal point, then J, then congestion, in turn.  The rows are ranked on
 * probes, which have not had threshold accepting yet: the row whose
 * refinement wins is often not the probes' ideal point, but the one with
 * the least J (AMG2013 1,000: the skeleton's probe had 1.77 hops a byte
 * and 1.7x the least congestion) or the least congestion (SpMV 512 on X5,
 * where the hosts' links decide). */
static tm_objective rank_objective(const autorun *a, int k)
{
    static const tm_objective turn[3] = {TM_OBJ_PARETO, TM_OBJ_QAP, TM_OBJ_CONGESTION};
    return a->rn->obj == TM_OBJ_PARETO ? turn[k % 3] : a->rn->obj;
}

/* The rows of level L: the best L + 1 built rows that differ, ranked by
 * their best candidates (the objective's order, the pareto rule with the
 * ideal point of all candidates); a row whose best candidate has the
 * figures of one taken already is passed over (same_as_todo). */
static tm_err todo_level(tm_ctx *ctx, autorun *a, int level)
{
    int want = level + 1, k = 0;
    int *best = tm__malloc_n((size_t)a->nr + 1, sizeof *best);
    int *map = tm__malloc_n((size_t)a->nr + 1, sizeof *map);
    tm_map_row *list = tm__malloc_n((size_t)a->nr + 1, sizeof *list);
    double cmin, dmin;
    bool *taken = tm__calloc_n((size_t)a->nr + 1, sizeof *taken);
    tm_err err = TM_EOK;
    a->ntodo = 0;
    if (!best || !map || !list || !taken) {
        err = tm__nomem(ctx);
        goto out;
    }
    tm__auto_ideal(a, &cmin, &dmin);
    for (int i = 0; i < a->nr; i++) {
        int ri, ci;
        best[i] = -1;
        if (a->rows[i].built && a->rows[i].level >= 0 && tm__auto_best_cand(a, i, &ri, &ci))
            best[i] = ci;
    }
    while (a->ntodo < want) {
        int m = 0, b;
        for (int i = 0; i < a->nr; i++)
            if (best[i] >= 0 && !taken[i]) {
                memset(&list[m], 0, sizeof list[m]);
                list[m].metrics = &a->rows[i].c[best[i]].met;
                map[m++] = i;
            }
        if (m == 0)
            break;
        b = tm__run_pick_ideal(list, m, rank_objective(a, k++), cmin, dmin);
        taken[map[b]] = true;
        if (!same_as_todo(a, list[b].metrics))
            a->todo[a->ntodo++] = &a->rows[map[b]];
    }
out:
    free(best);
    free(map);
    free(list);
    free(taken);
    return err;
}

/* The answer improved by IMPROVE_REL on one of its figures (the time:
 * with the time objective, the only one that evaluates it throughout). */
static bool improved(const tm_metrics *now, const tm_metrics *before, tm_objective obj)
{
    double a[4] = {now->max_congestion, now->avg_dilation, now->qap_J, now->est_time_s};
    double b[4] = {before->max_congestion, before->avg_dilation, before->qap_J,
                   before->est_time_s};
    for (int k = 0; k < (obj == TM_OBJ_TIME ? 4 : 3); k++)
        if (b[k] > 0 && (b[k] - a[k]) / b[k] >= IMPROVE_REL)
            return true;
    return false;
}

static bool answer(const autorun *a, tm_metrics *m)
{
    int ri, ci;
    if (!tm__auto_best_cand(a, -1, &ri, &ci))
        return false;
    *m = a->rows[ri].c[ci].met;
    return true;
}

/* The constructions and probes of the base rows (or the extra ones): one
 * task each, or on big jobs two stages, the screen between them. */
static tm_err build(tm_ctx *ctx, autorun *a, bool extra)
{
    tm_err err;
    if (a->rn->p->comm->n <= SCREEN_MIN_TASKS) {
        todo_rows(a, TASK_BUILD, extra);
        return run_stage(ctx, a, TASK_BUILD, 0);
    }
    todo_rows(a, TASK_CONSTRUCT, extra);
    if ((err = run_stage(ctx, a, TASK_CONSTRUCT, 0)) != TM_EOK || a->cut)
        return err;
    todo_rows(a, TASK_PROBE, extra);
    return run_stage(ctx, a, TASK_PROBE, 0);
}

/* The schedule: constructions, probes, then the levels. */
static tm_err schedule(tm_ctx *ctx, autorun *a)
{
    int last = a->last;
    int stale = 0;
    tm_err err;
    if ((err = build(ctx, a, false)) != TM_EOK || a->cut)
        return err;
    for (int level = 1; level <= last; level++) {
        tm_metrics best;
        if (answer(a, &best) && tm__autobound_met(&a->bound, &best)) {
            a->stop = "gap"; /* within 1 % of the lower bounds: nothing left to win */
            return TM_EOK;
        }
        tm_metrics before, now;
        bool had = answer(a, &before);
        if (level == 2) { /* the extra starts join */
            if ((err = build(ctx, a, true)) != TM_EOK || a->cut)
                return err;
        }
        if ((err = todo_level(ctx, a, level)) != TM_EOK)
            return err;
        if ((err = run_stage(ctx, a, TASK_LEVEL, level)) != TM_EOK || a->cut)
            return err;
        a->levels = level;
        if (a->effort == TM_EFFORT_AUTO && a->rn->timed && had && answer(a, &now)) {
            stale = improved(&now, &before, a->rn->obj) ? 0 : stale + 1;
            /* never before the default's own levels: a limit at least as
             * long as the default's run must reach its answer (on the
             * 64-task demo levels 1 and 2 change nothing, level 3 does) */
            if (stale >= STALE_LEVELS && level >= DEFAULT_EFFORT(a->rn->p->comm->n)) {
                a->stop = "converged";
                return TM_EOK;
            }
        }
    }
    return TM_EOK;
}

/* Restart b->restart: the schedule of a once more on a renaming of the
 * canonical job, its candidates then a's (tm__auto_merge). */
static tm_err restart(tm_ctx *ctx, autorun *a, const char *strategy, int k)
{
    autorun b;
    int32_t *q = tm__malloc_n((size_t)a->given->comm->n, sizeof *q);
    tm_err err = q ? TM_EOK : tm__nomem(ctx);
    memset(&b, 0, sizeof b);
    b.rn = a->rn;
    b.out = a->out;
    b.effort = a->effort;
    b.level_dil = a->level_dil;
    b.last = a->last;
    b.threads = 1;
    b.bound = a->bound; /* a's: not released with b */
    b.restart = k;
    if (!err)
        err = tm__memo_new(ctx, &b.memo);
    if (!err)
        err = make_rows(ctx, &b, strategy);
    if (!err && !(b.todo = tm__malloc_n((size_t)b.nr + 1, sizeof *b.todo)))
        err = tm__nomem(ctx);
    if (!err)
        err = tm__auto_canon_restart(ctx, a, &b, q);
    if (!err)
        err = schedule(ctx, &b);
    a->rn->p = &a->canon_p;
    if (!err)
        err = tm__auto_merge(ctx, a, &b, q);
    b.given = NULL; /* rn->p is a's again */
    tm__auto_canon_release(&b);
    release_rows(&b);
    tm__memo_free(b.memo);
    free(q);
    return err;
}

tm_err tm__run_auto(tm_ctx *ctx, tm__runner *rn, const char *strategy, tm_map_result *out,
                    tm_mapping *best_m, tm_map_info *info)
{
    autorun a;
    tm_err err;
    memset(&a, 0, sizeof a);
    a.rn = rn;
    a.out = out;
    a.effort = tm_ctx_effort(ctx);
    a.level_dil = tm__auto_level_dil(rn->obj);
    a.last = a.effort != TM_EFFORT_AUTO ? a.effort
             : rn->timed                ? TM_EFFORT_MAX
                                        : DEFAULT_EFFORT(rn->p->comm->n);
    a.threads = 1;
    err = tm__memo_new(ctx, &a.memo);
    if (!err)
        err = make_rows(ctx, &a, strategy);
    if (!err && !(a.todo = tm__malloc_n((size_t)a.nr + 1, sizeof *a.todo)))
        err = tm__nomem(ctx);
    /* first: the rows compare with it, and the identity row reuses it; its
     * cost says what the answer's timed evaluation at the end takes */
    if (!err) {
        double t = tm__now();
        err = tm__run_baseline(ctx, rn->p, rn, out);
        a.final_s = tm__now() - t;
    }
    /* after the baseline, which is the given numbering's */
    if (!err)
        err = tm__auto_canon_begin(ctx, &a);
    if (!err)
        err = tm__autobound_init(ctx, rn, a.effort, &a.bound);
    if (!err)
        err = schedule(ctx, &a);
    a.restarts = 1;
    /* nothing to win once within the bounds' gap; nor after a cut */
    for (int k = 1; !err && a.perm && k < restarts_for(rn->p) && !a.cut &&
                    !(a.stop && strcmp(a.stop, "gap") == 0) && !tm__stopped(rn->parent);
         k++, a.restarts++)
        err = restart(ctx, &a, strategy, k);
    if (!err)
        err = tm__auto_collect(ctx, &a, best_m);
    if (!err)
        err = tm__auto_canon_end(ctx, &a, best_m);
    if (!err && info)
        tm__auto_info(&a, info);
    tm__auto_canon_release(&a);
    release_rows(&a);
    tm__memo_free(a.memo);
    return err;
}
