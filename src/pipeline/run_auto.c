/* run_auto.c - the default pipeline of tm_map_run (refinement "auto"): a
 * fixed schedule of stages whose work is counted in iterations, never in
 * seconds (docs/mapping.md "Effort and time").
 *
 *   constructions  every row's construction, evaluated;
 *   probe          a short refinement of every row (nc:2, then a short
 *                  threshold accepting), evaluated: which construction wins
 *                  once refined is judged on this, not on its J before
 *                  refinement (the screen of the previous pipeline kept the
 *                  lowest J and dropped topdown, the winner after refinement);
 *   level L >= 1   the best L + 1 rows by their results so far: more kicks
 *                  of the iterated local search on J (1 per task at level
 *                  1, doubling per level), then threshold accepting from
 *                  there (TA's default budget), evaluated.  From level 2 on,
 *                  further starts join (topdown's other trials, greedy's
 *                  other starts), constructed and probed first.
 *
 * Every evaluated result is a candidate, and the answer is the best
 * candidate by the objective (tm__run_pick over all of them): a later
 * level only adds candidates, so more levels never give a worse answer.
 * The effort (tm_ctx_effort) is the last level; by default 1.  With a time
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

#include "run_int.h"
#include "../qap/qap_int.h" /* tm__topdown_net_trial */
#include "../util/util.h"

/* The probe: nc:2, then TA with 5 moves per slot (2,000 to 50,000). */
#define PROBE_NC "2"
#define PROBE_TA_PER_SLOT 5
#define PROBE_TA_MIN 2000
#define PROBE_TA_MAX 50000
/* Level L: ils with its kicks, then TA with 50 moves per slot (as TA's
 * own default), at least 5,000 and at most 500,000 x 2^(L-1).  The cap
 * is TA's cost on big jobs: a move reroutes both tasks' messages, 35 us
 * on 131,072 tasks on torus:64x64x32, where TA's own 2,000,000 moves
 * cost 70 s a row. */
#define LEVEL_ILS_DEPTH 2
#define LEVEL_TA_PER_SLOT 50
#define LEVEL_TA_MIN 5000
#define LEVEL_TA_MAX 500000
/* The default effort (no effort, no time limit) by the job's size: the
 * levels cost little on small jobs, where the extra starts of level 2 (the
 * other orientations of topdown) pay most (docs/mapping.md "Effort and
 * time"). */
#define DEFAULT_EFFORT(n) ((n) <= 128 ? 3 : (n) <= 256 ? 2 : 1)
/* Jobs with more tasks than this probe only the constructions no other
 * one dominates (screened). */
#define SCREEN_MIN_TASKS 8192
/* Extra starts that join at level 2: topdown's trials 1..5 (there are 6
 * on 3D grids, 2 elsewhere), greedy's starts 1..3. */
#define EXTRA_TOPDOWN 5
#define EXTRA_GREEDY 3
/* Convergence without an effort: two levels without an improvement of
 * the answer by 0.1 %. */
#define STALE_LEVELS 2
#define IMPROVE_REL 1e-3
/* Under a time limit, added to what a row's evaluation costs (seconds). */
#define EVAL_MARGIN_S 0.002

enum { CAND_CONSTRUCTION = -1, CAND_PROBE = 0 };
/* TASK_BUILD: the construction and its probe in one task, so that on a
 * short budget the first rows are probed while the others are built. */
enum { TASK_CONSTRUCT, TASK_PROBE, TASK_BUILD, TASK_LEVEL };

typedef struct cand {
    tm_metrics met; /* no link loads */
    tm_mapping m;   /* empty once another candidate of the row dominates it */
    int level;      /* CAND_CONSTRUCTION, CAND_PROBE or the level */
    double kicks;   /* kicks per task on the J-state it came from */
    int64_t ta;     /* TA's budget */
} cand;

typedef struct arow {
    const struct autorun *a;
    const tm_strategy *st;
    char name[48];
    uint64_t seed;
    int trial;            /* topdown's trial or greedy's start */
    bool extra;           /* joins at level 2 */
    bool built;           /* constructed and evaluated */
    bool gone;            /* the construction has nothing (no such trial) */
    bool screened;        /* big job: another construction dominates it, not probed */
    tm_ctx *jc;
    tm_mapping js;        /* the J-state: the construction, then after nc:2 and the kicks */
    double kicks;         /* kicks per task done on js */
    int level;            /* last stage done: -2 none, -1 constructed, 0 probed, L */
    cand *c;
    int nc, capc;
    double start[3];      /* the construction's congestion, dilation, J */
    double time_s, refine_s, eval_s;
    int64_t kicks_n, ta_n, evals_n; /* work done: kicks, TA's moves, evaluations */
    double deadline;      /* time limit: when its stop predicate fires */
    tm_err err;
    char msg[512];
} arow;

typedef struct autorun {
    tm__runner *rn;
    tm_map_result *out;   /* its consecutive: the baseline */
    arow *rows;
    int nr;
    int effort;           /* asked for (TM_EFFORT_AUTO: the default, or until converged) */
    int last;             /* the last level */
    int levels;           /* levels completed */
    bool cut;             /* a task was stopped (time limit, stop request) */
    const char *stop;     /* why the schedule ended */
    double eval_max;      /* the longest evaluation so far */
    double final_s;       /* time limit: what the rows' timed evaluations at the end take */
    int64_t kicks, ta_moves, evals; /* work done (the info) */
    int task, level;      /* the stage being run */
    arow **todo;
    int ntodo, threads;
} autorun;

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
    for (const tm_strategy *s = tm_strategies(); s->name && !err; s++)
        if (one ? s == one : (s->in_all && (s->modes & mode)))
            err = add_row(ctx, a, s, 0, false, &cap);
    for (int i = 0, n = a->nr; i < n && !err; i++) {
        const tm_strategy *s = a->rows[i].st;
        int extra = strcmp(s->name, "greedy") == 0 ? EXTRA_GREEDY
                    : is_net_topdown(a, &a->rows[i]) ? EXTRA_TOPDOWN : 0;
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

/* ---- candidates ---------------------------------------------------------- */

/* Adds the evaluated mapping *m (taken over) as a candidate of r; the
 * mappings of the row's candidates it dominates are dropped (such a
 * candidate can never be the answer), as is its own when another
 * dominates it. */
static tm_err add_cand(autorun *a, arow *r, tm_mapping *m, const tm_metrics *met, int level,
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

/* Every candidate that still has its mapping, as rows for tm__run_pick
 * (metrics pointers only); *owner gets (row, candidate) of each. */
static int list_cands(const autorun *a, int only_row, tm_map_row *list, int *owner)
{
    int n = 0;
    for (int i = 0; i < a->nr; i++) {
        const arow *r = &a->rows[i];
        if (only_row >= 0 && i != only_row)
            continue;
        for (int k = 0; k < r->nc; k++) {
            if (!r->c[k].m.n)
                continue;
            memset(&list[n], 0, sizeof list[n]);
            list[n].metrics = (tm_metrics *)&r->c[k].met;
            owner[2 * n] = i;
            owner[2 * n + 1] = k;
            n++;
        }
    }
    return n;
}

static int count_cands(const autorun *a)
{
    int n = 0;
    for (int i = 0; i < a->nr; i++)
        n += a->rows[i].nc;
    return n;
}

/* The pareto rule's ideal point over every candidate (run_pick.c). */
static void ideal(const autorun *a, double *cmin, double *dmin)
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

/* The best candidate of row `row` (all rows: -1), by the objective with
 * the ideal point of all candidates; -1 when there is none.  *ri, *ci:
 * its row and index. */
static bool best_cand(const autorun *a, int row, int *ri, int *ci)
{
    int n = count_cands(a), *owner, b;
    tm_map_row *list;
    double cmin, dmin;
    bool ok = false;
    if (n == 0)
        return false;
    list = tm__malloc_n((size_t)n, sizeof *list);
    owner = tm__malloc_n((size_t)n * 2, sizeof *owner);
    if (list && owner) {
        ideal(a, &cmin, &dmin);
        n = list_cands(a, row, list, owner);
        b = n > 0 ? tm__run_pick_ideal(list, n, a->rn->obj, cmin, dmin) : -1;
        if (b >= 0) {
            *ri = owner[2 * b];
            *ci = owner[2 * b + 1];
            ok = true;
        }
    }
    free(list);
    free(owner);
    return ok;
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
        err = add_cand(a, r, m, &met, level, ta);
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
    tm_ctx_set_stop(r->jc, row_stop, r);
    tm_ctx_set_seed(r->jc, r->seed);
    (void)tm_ctx_set_threads(r->jc, a->threads); /* from the parent: checked */
    if (is_net_topdown(a, r))
        err = tm__topdown_net_trial(r->jc, rn->p, r->seed, r->trial, &m);
    else
        err = r->st->run(r->jc, rn->p, r->seed, &m);
    if (!err && m.n == 0 && rn->p->comm->n > 0) {
        r->gone = true; /* topdown's trial that does not exist */
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
            tm_mapping_consecutive(r->jc, rn->p->alloc, rn->p->comm->n, &cons) == TM_EOK &&
            tm__run_same_mapping(&cons, &m)) {
            tm_metrics met = *c;
            met.link_load = NULL;
            report(a, r, "constructed", &met);
            err = add_cand(a, r, &m, &met, CAND_CONSTRUCTION, 0);
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
    char arg[32];
    int64_t ta = 0;
    tm_err err = refine_step(r, "nc", PROBE_NC, 1, &r->js);
    tm_mapping_init(&m);
    if (!err && row_stop(r))
        return TM_EOK; /* stopped inside: the row stays constructed */
    if (!err)
        err = tm_mapping_copy(r->jc, &r->js, &m);
    if (!err && a->rn->p->net) {
        ta = clamp64(PROBE_TA_PER_SLOT * slots(a), PROBE_TA_MIN, PROBE_TA_MAX);
        snprintf(arg, sizeof arg, "%lld", (long long)ta);
        err = refine_step(r, "ta", arg, 2, &m);
        r->ta_n += ta;
    }
    if (!err && row_stop(r)) {
        tm_mapping_release(&m);
        return TM_EOK;
    }
    if (!err)
        err = eval_cand(a, r, &m, CAND_PROBE, ta, "probed");
    if (!err)
        r->level = 0;
    tm_mapping_release(&m);
    return err;
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
        snprintf(arg, sizeof arg, "%lld", (long long)ta);
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
        r->deadline = rn->deadline - (2 * a->eval_max + a->final_s + EVAL_MARGIN_S);
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
        if (!r->gone && r->level != want)
            a->cut = true; /* stopped or not started: the schedule ends */
    }
    return TM_EOK;
}

/* The rows of a stage: constructions (base or extra rows), probes of the
 * rows just built. */
/* On big jobs, a construction another one beats on congestion, dilation
 * and J at once is not probed (screened): a probe's threshold accepting on
 * a far-flung placement reroutes long paths at every move (the identity of
 * a relabelled stencil: 30 hops a message on a 64x64x32 torus), and such a
 * row has never won once refined (docs/mapping.md "The screen"). */
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

/* The rows of level L: the best L + 1 built rows, ranked by their best
 * candidates (the objective's order, the pareto rule with the ideal point
 * of all candidates). */
static tm_err todo_level(tm_ctx *ctx, autorun *a, int level)
{
    int want = level + 1;
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
    ideal(a, &cmin, &dmin);
    for (int i = 0; i < a->nr; i++) {
        int ri, ci;
        best[i] = -1;
        if (a->rows[i].built && a->rows[i].level >= 0 && best_cand(a, i, &ri, &ci))
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
        b = tm__run_pick_ideal(list, m, a->rn->obj, cmin, dmin);
        taken[map[b]] = true;
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
    if (!best_cand(a, -1, &ri, &ci))
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
            if (stale >= STALE_LEVELS) {
                a->stop = "converged";
                return TM_EOK;
            }
        }
    }
    return TM_EOK;
}

/* ---- the result ---------------------------------------------------------- */

/* "nc:2+ta:8640" for a probe, "ils:2,kicks=4+ta:86400" for a level. */
static void describe(const cand *c, char *buf, size_t size)
{
    char ta[32] = "";
    if (c->ta > 0)
        snprintf(ta, sizeof ta, "+ta:%lld", (long long)c->ta);
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
    describe(c, row->refine, sizeof row->refine);
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
    /* the evaluation's own threads are the context's (the same figures) */
    tm__parallel_for(nt < n ? nt : n, n, time_row, &t);
    for (int i = 0; i < n && !err; i++)
        err = t.err[i];
    free(t.err);
    return err;
}

/* One row per constructed row, in row order, each showing its best
 * candidate; the row of the answer shows the answer. */
static tm_err collect(tm_ctx *ctx, autorun *a, tm_mapping *best_m)
{
    tm_map_result *out = a->out;
    const cand **shown = NULL;
    int bi, bc;
    tm_err err = TM_EOK;
    if (!best_cand(a, -1, &bi, &bc))
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
        else if (!best_cand(a, i, &ri, &ci))
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

static void fill_info(const autorun *a, tm_map_info *info)
{
    const tm__runner *rn = a->rn;
    memset(info, 0, sizeof *info);
    info->pipeline = "auto";
    /* the level the default chose, or TM_EFFORT_AUTO: until converged */
    info->effort = a->effort == TM_EFFORT_AUTO && rn->timed ? TM_EFFORT_AUTO : a->last;
    info->levels = a->levels;
    info->stop = a->stop;
    if (!info->stop)
        info->stop = !a->cut ? "effort"
                     : rn->timed && tm__now() >= rn->deadline - 2 * a->eval_max - EVAL_MARGIN_S
                         ? "time limit"
                         : "stopped";
    for (int i = 0; i < a->nr; i++) {
        info->kicks += a->rows[i].kicks_n;
        info->ta_moves += a->rows[i].ta_n;
        info->evaluations += a->rows[i].evals_n;
        info->rows_refined += a->rows[i].level >= 1;
    }
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
    a.last = a.effort != TM_EFFORT_AUTO ? a.effort
             : rn->timed                ? TM_EFFORT_MAX
                                        : DEFAULT_EFFORT(rn->p->comm->n);
    a.threads = 1;
    err = make_rows(ctx, &a, strategy);
    if (!err && !(a.todo = tm__malloc_n((size_t)a.nr + 1, sizeof *a.todo)))
        err = tm__nomem(ctx);
    /* first: the rows compare with it, and the identity row reuses it; its
     * cost says what the rows' timed evaluations at the end take */
    if (!err) {
        double t = tm__now();
        int nt = tm_ctx_threads(ctx);
        err = tm__run_baseline(ctx, rn->p, rn, out);
        a.final_s = (tm__now() - t) * ((a.nr + nt - 1) / (nt > 0 ? nt : 1));
    }
    if (!err)
        err = schedule(ctx, &a);
    if (!err)
        err = collect(ctx, &a, best_m);
    if (!err && info)
        fill_info(&a, info);
    release_rows(&a);
    return err;
}
