/* test_qap_parallel.c - threads and stop requests in the mapping engine
 * (docs/parallel.md): the multisection gives the same answer for 1, 2, 3
 * and 8 threads also when its top split shares METIS tries out as trials;
 * a stop predicate ends ils early with a valid, not worse mapping; and
 * tm_map_run under a stop request keeps only the first run and succeeds;
 * nc and ils with a team of threads (qap_lspar.c) swap exactly as they do
 * alone, from a random start (most steps redone) and from a converged one
 * (most evaluations replayed).  Part of `make test-tsan`. */
#include <stdatomic.h>

#include "test_qap_common.h"

/* Under ThreadSanitizer (make test-tsan) every run costs about ten times
 * more: 1 and 3 threads there (3 threads on 2 cores: preemption inside the
 * parallel sections), 1, 2, 3 and 8 in the plain and ASan builds. */
#if defined(__SANITIZE_THREAD__)
#define QP_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define QP_TSAN 1
#endif
#endif
#ifdef QP_TSAN
static const int threads[] = {1, 3};
#else
static const int threads[] = {1, 2, 3, 8};
#endif

/* A 28^3 7-point grid: 21,952 tasks, 127,008 adjacency entries, enough
 * for 18 METIS tries at the top split, shared out as 2 trials. */
#define G 28
#define N (G * G * G)

static void grid_comm(tm_comm *c)
{
    int64_t k = 0;
    memset(c, 0, sizeof *c);
    c->n = N;
    c->xadj = calloc((size_t)N + 1, sizeof *c->xadj);
    c->adj = malloc((size_t)N * 6 * sizeof *c->adj);
    c->w = malloc((size_t)N * 6 * sizeof *c->w);
    for (int32_t u = 0; u < N; u++) {
        int x = u % G, y = u / G % G, z = u / (G * G);
        static const int d[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
        c->xadj[u] = k;
        for (int i = 0; i < 6; i++) {
            int a = x + d[i][0], b = y + d[i][1], e = z + d[i][2];
            if (a < 0 || b < 0 || e < 0 || a >= G || b >= G || e >= G)
                continue;
            c->adj[k] = a + G * (b + G * e);
            c->w[k++] = 1;
        }
    }
    c->xadj[N] = k;
    c->nnz = k;
}

static void general_problem(tm_comm *c, tm_hier *h, tm_problem *p)
{
    *h = qt_hier("4:4:4", "1:10:100");
    grid_comm(c);
    memset(p, 0, sizeof *p);
    p->comm = c;
    p->hier = h;
    p->imbalance = 0.03;
}

static void test_multisection_threads(void **state)
{
    tm_comm c;
    tm_hier h;
    tm_problem p;
    int32_t *first = NULL;
    (void)state;
    general_problem(&c, &h, &p);
    assert_true(c.n + c.nnz > 17 << 13); /* more than 16 tries at the top split */
    for (size_t i = 0; i < sizeof threads / sizeof *threads; i++) {
        tm_ctx *ctx;
        tm_mapping m;
        assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
        assert_tm_ok(ctx, tm_ctx_set_threads(ctx, threads[i]));
        tm_mapping_init(&m);
        assert_tm_ok(ctx, tm_strategy_find("topdown")->run(ctx, &p, 7, &m));
        if (!first) {
            first = malloc(N * sizeof *first);
            memcpy(first, m.pe, N * sizeof *first);
        } else {
            assert_memory_equal(first, m.pe, N * sizeof *first);
        }
        tm_mapping_release(&m);
        tm_ctx_free(ctx);
    }
    free(first);
    qt_free_comm(&c);
}

typedef struct counter { atomic_int calls, fire_after; } counter;

static int stop_after(void *ud)
{
    counter *k = ud;
    return atomic_fetch_add(&k->calls, 1) >= atomic_load(&k->fire_after);
}

/* ils with 16n kicks would run long; a predicate that fires after a few
 * polls ends it with a balanced mapping no worse than its start. */
static void test_stop_predicate_ends_ils(void **state)
{
    tm_comm c;
    tm_hier h;
    tm_problem p;
    tm_ctx *ctx;
    tm_mapping m;
    counter k;
    double j0;
    (void)state;
    general_problem(&c, &h, &p);
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    tm_mapping_init(&m);
    assert_tm_ok(ctx, tm_strategy_find("random")->run(ctx, &p, 3, &m));
    j0 = tm__qap_eval(&c, &h, m.pe);
    atomic_init(&k.calls, 0);
    atomic_init(&k.fire_after, 5);
    tm_ctx_set_stop(ctx, stop_after, &k);
    assert_tm_ok(ctx, tm_refiner_find("ils")->run(ctx, &p, "1", 5, &m));
    /* Stopped at the first poll after the predicate fired: a handful of
     * polls, not one per kick of a full 16n-kick run. */
    assert_true(atomic_load(&k.calls) >= 5);
    assert_true(atomic_load(&k.calls) < 5 + 64);
    assert_true(tm__qap_eval(&c, &h, m.pe) <= j0);
    {
        int32_t *load = calloc((size_t)h.n_pe, sizeof *load);
        for (int32_t u = 0; u < N; u++)
            assert_true(++load[m.pe[u]] <= (int32_t)ceil(1.03 * N / (double)h.n_pe));
        free(load);
    }
    tm_mapping_release(&m);
    tm_ctx_free(ctx);
    qt_free_comm(&c);
}

static int always(void *ud)
{
    (void)ud;
    return 1;
}

/* "all" stopped before it starts: the first run alone, refined not at
 * all, and a valid result. */
static void test_map_run_stopped(void **state)
{
    tm_comm c;
    tm_hier h = qt_hier("4:4:4", "1:10:100");
    tm_problem p = {0};
    tm_ctx *ctx;
    tm_map_result res;
    (void)state;
    qt_random_comm(&c, 64, 3, 2, false);
    p.comm = &c;
    p.hier = &h;
    p.imbalance = -1;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    assert_tm_ok(ctx, tm_ctx_set_threads(ctx, 2));
    tm_ctx_set_stop(ctx, always, NULL);
    assert_tm_ok(ctx, tm_map_run(ctx, &p, "all", "ils:10", TM_OBJ_QAP, &res));
    assert_int_equal(res.n_rows, 1);
    assert_int_equal(res.best, 0);
    qt_assert_injective(&res.mapping, &h);
    tm_map_result_release(&res);
    tm_ctx_free(ctx);
    qt_free_comm(&c);
}

/* General mapping of a random graph: 1 and 3 threads, the same answer. */
static void test_threads_same_result(void **state)
{
    (void)state;
    tm_hier h = qt_hier("4:4:4", "1:10:100");
    tm_comm c;
    tm_ctx *ctx;
    tm_mapping m1, m2;
    tm_problem p = {0};
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    qt_random_comm(&c, 1000, 3, 5, false);
    p.comm = &c;
    p.hier = &h;
    p.imbalance = 0.03;
    tm_mapping_init(&m1);
    tm_mapping_init(&m2);
    assert_tm_ok(ctx, tm_ctx_set_threads(ctx, 1));
    assert_tm_ok(ctx, tm_strategy_find("topdown")->run(ctx, &p, 8, &m1));
    assert_tm_ok(ctx, tm_ctx_set_threads(ctx, 3));
    assert_tm_ok(ctx, tm_strategy_find("topdown")->run(ctx, &p, 8, &m2));
    assert_memory_equal(m1.pe, m2.pe, 1000 * sizeof *m1.pe);
    tm_mapping_release(&m1);
    tm_mapping_release(&m2);
    qt_free_comm(&c);
    tm_ctx_free(ctx);
}

/* nc:D / ils:D on a 14^3 grid (2,744 tasks, above TM__LSPAR_MIN) with
 * 1, 2, 3 and 8 threads: the same PEs and bit for bit the same J, and J is
 * the real J.  The first pass starts from a random placement on 4,096 PEs
 * (dense improvements: commits invalidate evaluations), the second from
 * the first's result (nothing to commit: evaluations are replayed). */
static void test_local_search_threads(void **state)
{
    enum { GL = 14, NL = GL * GL * GL };
    static const char *nbh[] = {"nc", "ils"};
    tm_hier h = qt_hier("8:8:8:8", "1:3:10:30");
    tm_comm c;
    tm__sgraph g;
    tm__qdist o;
    tm__rng r;
    tm_ctx *ctx;
    int32_t start[NL], first[NL], pe[NL], perm[4096];
    (void)state;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    memset(&c, 0, sizeof c);
    c.n = NL;
    c.xadj = calloc(NL + 1, sizeof *c.xadj);
    c.adj = malloc(NL * 6 * sizeof *c.adj);
    c.w = malloc(NL * 6 * sizeof *c.w);
    for (int32_t u = 0; u < NL; u++) {
        int x = u % GL, y = u / GL % GL, z = u / (GL * GL);
        static const int d[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
        c.xadj[u] = c.nnz;
        for (int i = 0; i < 6; i++) {
            int a = x + d[i][0], b = y + d[i][1], e = z + d[i][2];
            if (a >= 0 && b >= 0 && e >= 0 && a < GL && b < GL && e < GL) {
                int32_t v = a + GL * (b + GL * e);
                c.adj[c.nnz] = v;
                c.w[c.nnz++] = 1 + (u + v) % 3; /* symmetric */
            }
        }
    }
    c.xadj[NL] = c.nnz;
    assert_tm_ok(ctx, tm__sgraph_from_comm(ctx, &c, TM__SG_VERTEX_WEIGHTS, &g));
    tm__qdist_init(&o, &h);
    tm__rng_seed(&r, 3, 1);
    for (int32_t i = 0; i < 4096; i++)
        perm[i] = i;
    for (int32_t i = 4095; i > 0; i--) {
        int32_t k = (int32_t)tm__rng_below(&r, (uint64_t)i + 1), t = perm[i];
        perm[i] = perm[k];
        perm[k] = t;
    }
    for (int k = 0; k < 2; k++) {
        for (int pass = 0; pass < 2; pass++) {
            double j1 = 0;
            memcpy(start, pass == 0 ? perm : first, sizeof start);
            for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
                double j = -1;
                memcpy(pe, start, sizeof pe);
                assert_tm_ok(ctx, tm_ctx_set_threads(ctx, threads[t]));
                assert_tm_ok(ctx, tm__qap_local_search(ctx, &g, &o, -1, nbh[k], 3, 11, pe, &j));
                assert_true(fabs(j - tm__qap_eval(&c, &h, pe)) < 1e-6 * (1 + j));
                if (t == 0) {
                    memcpy(first, pe, sizeof first);
                    j1 = j;
                    assert_true(j < tm__qap_eval(&c, &h, start) || pass == 1);
                } else {
                    if (memcmp(first, pe, sizeof pe) != 0 || memcmp(&j, &j1, sizeof j) != 0)
                        fail_msg("%s pass %d: %d threads differ from 1 (J %.17g vs %.17g)",
                                 nbh[k], pass, threads[t], j, j1);
                }
            }
        }
    }
    tm__sgraph_release(&g);
    qt_free_comm(&c);
    tm_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_multisection_threads),
        cmocka_unit_test(test_stop_predicate_ends_ils),
        cmocka_unit_test(test_map_run_stopped),
        cmocka_unit_test(test_threads_same_result),
        cmocka_unit_test(test_local_search_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
