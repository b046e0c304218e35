/* test_map_auto.c - the default pipeline of tm_map_run (refine "auto",
 * src/pipeline/run_auto.c, docs/mapping.md "Effort and time"): its answer
 * does not depend on the thread count; more effort never gives a worse
 * answer; a run cut short after any number of its steps (the stop
 * predicate, the way a time limit cuts it, but counted instead of timed)
 * is never better than a longer one; the rows and the info say what ran. */
#include <math.h>
#include <stdatomic.h>

#include "map_fixtures.h"
#include "test_fixtures.h"
#include "pipeline/run_auto.h" /* tm__auto_level_dil */
#include "pipeline/run_int.h"

/* An irregular 64-task graph (a 4^3 stencil with every rank relabelled
 * and varied volumes) on a 4x4x4 torus (hand-built: no grid geometry, so
 * topdown has 2 trials), or on a two-level tree of 16 hosts with 4 slots
 * each. */
typedef struct inst {
    tm_net *net;
    tm_alloc al;
    tm_comm c;
    tm_problem p;
} inst;

/* The job of n tasks and m messages on all of net's slots. */
static void set_inst(inst *s, tm_net *net, int32_t n, int m, const int32_t *src,
                     const int32_t *dst, const double *w)
{
    memset(s, 0, sizeof *s);
    s->net = net;
    fx_comm(&s->c, n, m, src, dst, w);
    fx_alloc(&s->al, s->net, 0, NULL);
    s->p.net = s->net;
    s->p.alloc = &s->al;
    s->p.comm = &s->c;
    s->p.imbalance = -1;
}

static void make_inst(inst *s, bool tree)
{
    enum { K = 4, N = K * K * K };
    int32_t src[6 * N], dst[6 * N], perm[N];
    double w[6 * N];
    int m = 0;
    tm__rng r;
    tm__rng_seed(&r, 3, 0);
    for (int32_t i = 0; i < N; i++)
        perm[i] = i;
    for (int32_t i = N - 1; i > 0; i--) {
        int32_t j = (int32_t)tm__rng_below(&r, (uint64_t)i + 1), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int v = 0; v < N; v++) {
        int x = v % K, y = v / K % K, z = v / (K * K);
        int nb[3] = {(x + 1) % K + K * (y + K * z), x + K * ((y + 1) % K + K * z),
                     x + K * (y + K * ((z + 1) % K))};
        for (int k = 0; k < 3; k++) {
            double vol = 1 + (v + k) % 4;
            src[m] = perm[v], dst[m] = perm[nb[k]], w[m++] = vol;
            src[m] = perm[nb[k]], dst[m] = perm[v], w[m++] = vol;
        }
    }
    set_inst(s, tree ? fx_tree(ctx, 4, 4, 4, 2.0) : fx_torus(ctx, K, 3, 1), N, m, src, dst, w);
}

/* 64 tasks with 4 random partners each on the 4x4x4 torus. */
static void make_random_inst(inst *s)
{
    enum { N = 64, D = 4 };
    int32_t src[2 * D * N], dst[2 * D * N];
    double w[2 * D * N];
    int m = 0;
    tm__rng r;
    tm__rng_seed(&r, 5, 0);
    for (int32_t v = 0; v < N; v++)
        for (int k = 0; k < D; k++) {
            int32_t u = (int32_t)tm__rng_below(&r, N);
            double vol = 1 + (double)tm__rng_below(&r, 8);
            if (u == v)
                continue;
            src[m] = v, dst[m] = u, w[m++] = vol;
            src[m] = u, dst[m] = v, w[m++] = vol;
        }
    set_inst(s, fx_torus(ctx, 4, 3, 1), N, m, src, dst, w);
}

static void free_inst(inst *s)
{
    fx_comm_free(&s->c);
    fx_alloc_free(&s->al);
    tm_net_free(s->net);
}

static void run(inst *s, int threads, int effort, tm_objective obj, tm_map_result *r,
                tm_map_info *info)
{
    assert_tm_ok(ctx, tm_ctx_set_threads(ctx, threads));
    assert_tm_ok(ctx, tm_ctx_set_effort(ctx, effort));
    assert_tm_ok(ctx, tm_map_run_ex(ctx, &s->p, "all", "auto", obj, r, info));
}

static void same_result(const tm_map_result *a, const tm_map_result *b)
{
    assert_int_equal(a->n_rows, b->n_rows);
    assert_int_equal(a->best, b->best);
    for (int32_t i = 0; i < a->n_rows; i++) {
        assert_string_equal(a->rows[i].name, b->rows[i].name);
        assert_string_equal(a->rows[i].refine, b->rows[i].refine);
        assert_true(a->rows[i].metrics->max_congestion == b->rows[i].metrics->max_congestion);
        assert_true(a->rows[i].metrics->qap_J == b->rows[i].metrics->qap_J);
        assert_true(a->rows[i].metrics->est_time_s == b->rows[i].metrics->est_time_s);
    }
    assert_int_equal(a->mapping.n, b->mapping.n);
    assert_memory_equal(a->mapping.host, b->mapping.host, (size_t)a->mapping.n * sizeof(int32_t));
    assert_memory_equal(a->mapping.slot, b->mapping.slot, (size_t)a->mapping.n * sizeof(int32_t));
}

/* The same rows and mapping with 1, 2 and 3 threads, at effort 1 and 2,
 * on a torus and on a tree. */
static void test_auto_threads(void **state)
{
    (void)state;
    for (int tree = 0; tree < 2; tree++) {
        inst s;
        make_inst(&s, tree);
        for (int effort = 1; effort <= 2; effort++) {
            tm_map_result r1, r;
            run(&s, 1, effort, TM_OBJ_PARETO, &r1, NULL);
            for (int t = 2; t <= 3; t++) {
                run(&s, t, effort, TM_OBJ_PARETO, &r, NULL);
                same_result(&r1, &r);
                tm_map_result_release(&r);
            }
            tm_map_result_release(&r1);
        }
        free_inst(&s);
    }
    assert_tm_ok(ctx, tm_ctx_set_effort(ctx, TM_EFFORT_AUTO));
    assert_tm_ok(ctx, tm_ctx_set_threads(ctx, 1));
}

/* b is no worse than a by obj: lexicographic objectives, not better by
 * the order; pareto, not dominated. */
static void no_worse(const tm_metrics *b, const tm_metrics *a, tm_objective obj)
{
    if (obj == TM_OBJ_PARETO)
        assert_false(tm__run_dominates(a, b, obj));
    else
        assert_false(tm__run_better(a, b, obj));
}

/* Effort 0, 1, 2, 3: every level only adds candidates, so the answer never
 * gets worse; it is never worse than the consecutive placement (a
 * candidate: the identity row); the info counts the levels. */
static void test_auto_effort_monotone(void **state)
{
    const tm_objective objs[] = {TM_OBJ_PARETO, TM_OBJ_CONGESTION, TM_OBJ_TIME};
    (void)state;
    for (int tree = 0; tree < 2; tree++) {
        inst s;
        /* the tree with pareto alone (and the sanitizer builds, whose runs
         * cost several times more, with pareto alone) */
        size_t nobj = tree || TM_TEST_SANITIZED ? 1 : sizeof objs / sizeof *objs;
        make_inst(&s, tree);
        for (size_t o = 0; o < nobj; o++) {
            tm_map_result prev;
            for (int effort = 0; effort <= 3; effort++) {
                tm_map_result r;
                tm_map_info info;
                run(&s, 2, effort, objs[o], &r, &info);
                assert_string_equal(info.pipeline, "auto");
                assert_string_equal(info.stop, "effort");
                assert_int_equal(info.levels, effort);
                assert_int_equal(info.effort, effort);
                /* the best effort + 1 rows of each restart, those whose best
                 * candidate has the figures of one taken already passed over
                 * (a small job: several restarts) */
                assert_in_range(info.restarts, 2, 4);
                assert_true(effort == 0 ? info.rows_refined == 0
                                        : info.rows_refined >= 1 &&
                                              info.rows_refined <=
                                                  (effort + 1) * info.restarts);
                assert_true(info.evaluations > 0);
                assert_true(effort == 0 ? info.kicks == 0 : info.kicks > 0);
                no_worse(r.metrics, r.consecutive, objs[o]);
                if (effort > 0) {
                    no_worse(r.metrics, prev.metrics, objs[o]);
                    tm_map_result_release(&prev);
                }
                prev = r;
            }
            tm_map_result_release(&prev);
        }
        free_inst(&s);
    }
    assert_tm_ok(ctx, tm_ctx_set_effort(ctx, TM_EFFORT_AUTO));
}

/* A run stopped after its first k reports (constructions, probes, levels:
 * one report each) stands for a time limit that falls there: the answer
 * is the best of the steps completed, so it never gets worse as k grows,
 * and once k covers the whole effort it is the uncut answer. */
typedef struct cutter {
    atomic_int seen;
    int after;
} cutter;

static void count_reports(void *ud, const char *what, double c, double d, double j)
{
    cutter *k = ud;
    (void)what, (void)c, (void)d, (void)j;
    atomic_fetch_add(&k->seen, 1);
}

static int cut_here(void *ud)
{
    cutter *k = ud;
    return atomic_load(&k->seen) >= k->after;
}

static void test_auto_cut_monotone(void **state)
{
    inst s;
    tm_map_result full, prev, r;
    cutter k;
    tm_map_info info;
    (void)state;
    make_inst(&s, false);
    int total, step;
    atomic_init(&k.seen, 0);
    tm_ctx_set_progress(ctx, count_reports, &k);
    run(&s, 1, 2, TM_OBJ_PARETO, &full, &info);
    tm_ctx_set_progress(ctx, NULL, NULL);
    /* every count up to the whole run (per restart: 6 + 6 reports, at most
     * 2 at level 1, the extra rows' constructions and probes, at most 3 at
     * level 2); a cut in a later restart keeps the earlier ones' answer */
    total = atomic_load(&k.seen);
    assert_in_range(info.restarts, 2, 4);
    assert_in_range(total, (12 + 1 + 2 + 1) * info.restarts,
                    (12 + 2 + 2 * 6 + 3) * info.restarts);
    /* about 30 cuts (6 under the sanitizers), spread over the whole run */
    step = (total + 29) / (TM_TEST_SANITIZED ? 6 : 30);
    for (k.after = 1; k.after <= total + step; k.after += step) {
        atomic_init(&k.seen, 0);
        tm_ctx_set_progress(ctx, count_reports, &k);
        tm_ctx_set_stop(ctx, cut_here, &k);
        run(&s, 1, 2, TM_OBJ_PARETO, &r, NULL);
        tm_ctx_set_stop(ctx, NULL, NULL);
        tm_ctx_set_progress(ctx, NULL, NULL);
        assert_true(r.n_rows >= 2); /* identity and topdown always run */
        if (k.after > 1) {
            no_worse(r.metrics, prev.metrics, TM_OBJ_PARETO);
            tm_map_result_release(&prev);
        }
        prev = r;
        if (k.after > total) /* the whole run's reports: the full answer */
            same_result(&prev, &full);
    }
    tm_map_result_release(&prev);
    tm_map_result_release(&full);
    free_inst(&s);
    assert_tm_ok(ctx, tm_ctx_set_effort(ctx, TM_EFFORT_AUTO));
}

/* The rows: the six constructions of `all` at effort 1, the extra starts
 * (topdown's other trials, greedy's other starts) from effort 2; each row
 * says what it shows (nothing for a construction, the probe's chain, or
 * the level's kicks); a named strategy runs alone. */
static void test_auto_rows(void **state)
{
    const char *base[] = {"identity", "topdown", "grow", "greedy", "recursive", "rcm"};
    inst s;
    tm_map_result r;
    tm_map_info info;
    int refined = 0;
    (void)state;
    make_inst(&s, false);
    run(&s, 2, 1, TM_OBJ_PARETO, &r, &info);
    assert_int_equal(r.n_rows, 6);
    for (int i = 0; i < 6; i++) {
        const tm_map_row *row = &r.rows[i];
        assert_string_equal(row->name, base[i]);
        assert_true(row->refine[0] == 0 || strcmp(row->refine, "nc:2") == 0 ||
                    strncmp(row->refine, "ils:2,kicks=1+ta:", 17) == 0);
        /* the levels' TA under pareto: 1 % of volume x hops at most */
        if (strncmp(row->refine, "ils:", 4) == 0)
            assert_non_null(strstr(row->refine, ",dil=0.01"));
        refined += strncmp(row->refine, "ils:", 4) == 0;
        assert_true(row->metrics->est_time_s > 0); /* the rows are timed at the end */
    }
    assert_true(refined <= 2);
    tm_map_result_release(&r);
    /* a job no construction solves (random partners): the levels' rows show
     * their chain, with the guard of the objective */
    for (int o = TM_OBJ_CONGESTION; o <= TM_OBJ_PARETO; o++) {
        inst t;
        make_random_inst(&t);
        run(&t, 2, 1, (tm_objective)o, &r, &info);
        refined = 0;
        for (int i = 0; i < r.n_rows; i++)
            if (strncmp(r.rows[i].refine, "ils:", 4) == 0) {
                assert_non_null(strstr(r.rows[i].refine, o == TM_OBJ_CONGESTION ? ",dil=0.05"
                                                                                : ",dil=0.01"));
                refined++;
            }
        assert_true(refined >= 1);
        tm_map_result_release(&r);
        free_inst(&t);
    }
    /* the guard by objective: TA's own 5 % where dilation is not weighed */
    assert_true(tm__auto_level_dil(TM_OBJ_PARETO) == 0.01);
    assert_true(tm__auto_level_dil(TM_OBJ_DILATION) == 0.01);
    assert_true(tm__auto_level_dil(TM_OBJ_QAP) == 0.01);
    assert_true(tm__auto_level_dil(TM_OBJ_CONGESTION) == 0.05);
    assert_true(tm__auto_level_dil(TM_OBJ_TIME) == 0.05);
    run(&s, 2, 2, TM_OBJ_PARETO, &r, &info);
    assert_int_equal(r.n_rows, 6 + 1 + 3 + 1); /* topdown#1 (2 trials off grids), greedy#1..3, grow#1 */
    assert_string_equal(r.rows[6].name, "topdown#1");
    assert_string_equal(r.rows[7].name, "grow#1");
    assert_string_equal(r.rows[10].name, "greedy#3");
    tm_map_result_release(&r);
    /* one strategy: its row alone at effort 1, its trials from effort 2 */
    assert_tm_ok(ctx, tm_ctx_set_effort(ctx, 1));
    assert_tm_ok(ctx, tm_map_run_ex(ctx, &s.p, "recursive", "auto", TM_OBJ_PARETO, &r, &info));
    assert_int_equal(r.n_rows, 1);
    assert_string_equal(r.rows[0].name, "recursive");
    /* the row shows its best candidate: its level, its probe or its
     * construction */
    assert_true(strncmp(r.rows[0].refine, "ils:2,kicks=1+ta:", 17) == 0 ||
                strcmp(r.rows[0].refine, "nc:2") == 0 || r.rows[0].refine[0] == 0);
    assert_int_equal(info.levels, 1);
    tm_map_result_release(&r);
    free_inst(&s);
    assert_tm_ok(ctx, tm_ctx_set_effort(ctx, TM_EFFORT_AUTO));
}

/* Without an effort, a time limit far longer than the job needs: the
 * levels end when the answer stops improving, well before the limit. */
static void test_auto_converges(void **state)
{
    inst s;
    tm_map_result r;
    tm_map_info info;
    (void)state;
    tm_map_result d;
    tm_map_info dinfo;
    make_inst(&s, true);
    assert_tm_ok(ctx, tm_ctx_set_threads(ctx, 2));
    assert_tm_ok(ctx, tm_ctx_set_effort(ctx, TM_EFFORT_AUTO));
    assert_tm_ok(ctx, tm_map_run_ex(ctx, &s.p, "all", "auto", TM_OBJ_PARETO, &d, &dinfo));
    assert_int_equal(dinfo.levels, 3); /* the default on 64 tasks */
    assert_tm_ok(ctx, tm_ctx_set_time_limit(ctx, 600));
    assert_tm_ok(ctx, tm_map_run_ex(ctx, &s.p, "all", "auto", TM_OBJ_PARETO, &r, &info));
    assert_string_equal(info.stop, "converged");
    /* not before the default's levels: a generous limit passes through
     * the default's steps, so its answer is the default's or better */
    assert_true(info.levels >= dinfo.levels && info.levels < TM_EFFORT_MAX);
    assert_int_equal(info.effort, TM_EFFORT_AUTO);
    assert_true(r.metrics->max_congestion <= d.metrics->max_congestion ||
                r.metrics->avg_dilation < d.metrics->avg_dilation ||
                r.metrics->qap_J < d.metrics->qap_J);
    tm_map_result_release(&d);
    tm_map_result_release(&r);
    assert_tm_ok(ctx, tm_ctx_set_time_limit(ctx, -1));
    /* bad efforts are refused, the context unchanged */
    assert_tm_error(ctx, tm_ctx_set_effort(ctx, TM_EFFORT_MAX + 1), TM_EUSAGE, "effort");
    assert_tm_error(ctx, tm_ctx_set_effort(ctx, -2), TM_EUSAGE, "effort");
    assert_int_equal(tm_ctx_effort(ctx), TM_EFFORT_AUTO);
    free_inst(&s);
}

/* Hierarchy mode (no threshold accepting: the probe is nc:2 alone) and a
 * general mapping (more tasks than slots, the quotient refined) run the
 * same schedule. */
static void test_auto_modes(void **state)
{
    inst s;
    tm_hier h;
    tm_problem p = {0};
    tm_map_result r;
    (void)state;
    make_inst(&s, false);
    assert_tm_ok(ctx, tm_hier_parse(ctx, "4:4:4", "1:10:100", &h));
    p.hier = &h;
    p.comm = &s.c;
    p.imbalance = -1;
    assert_tm_ok(ctx, tm_ctx_set_effort(ctx, 1));
    assert_tm_ok(ctx, tm_map_run(ctx, &p, "all", "auto", TM_OBJ_QAP, &r));
    assert_true(r.n_rows >= 4);
    assert_true(r.metrics->qap_J <= r.consecutive->qap_J);
    for (int32_t i = 0; i < r.n_rows; i++)
        assert_null(strstr(r.rows[i].refine, "ta:"));
    tm_map_result_release(&r);
    free_inst(&s);
    /* 64 tasks on 32 slots */
    {
        inst g;
        make_inst(&g, true);
        for (int32_t i = 0; i < g.al.n; i++)
            g.al.slots[i] = 2; /* 32 slots */
        g.p.imbalance = 0.03;
        assert_tm_ok(ctx, tm_map_run(ctx, &g.p, "all", "auto", TM_OBJ_PARETO, &r));
        assert_int_equal(r.mapping.n, 64);
        assert_int_equal(r.blocks, 32);
        assert_false(tm__run_dominates(r.consecutive, r.metrics, TM_OBJ_PARETO));
        tm_map_result_release(&r);
        free_inst(&g);
    }
    assert_tm_ok(ctx, tm_ctx_set_effort(ctx, TM_EFFORT_AUTO));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_auto_threads),
        cmocka_unit_test(test_auto_effort_monotone),
        cmocka_unit_test(test_auto_cut_monotone),
        cmocka_unit_test(test_auto_rows),
        cmocka_unit_test(test_auto_converges),
        cmocka_unit_test(test_auto_modes),
    };
    if (getenv("XF")) cmocka_set_test_filter(getenv("XF"));
    return cmocka_run_group_tests_name("map_auto", tests, setup, teardown);
}
