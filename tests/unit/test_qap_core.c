/* test_qap_core.c - hierarchy distance oracle against a brute-force
 * matrix, the fast swap gain against recomputed J after every swap and
 * its far-pair bound,
 * the one-to-one strategies (bijection, J consistency, determinism), and
 * the top tries of the multisection. */
#include "test_qap_common.h"
#include "qap/qap_ls_int.h"

/* Brute-force distance: PE coordinates digit by digit (mixed radix). */
static double brute_dist(const tm_hier *h, int64_t p, int64_t q)
{
    int lvl = -1;
    for (int i = 0; i < h->k; i++) {
        int64_t dp = p % h->a[i], dq = q % h->a[i];
        if (dp != dq)
            lvl = i;
        p /= h->a[i];
        q /= h->a[i];
    }
    return lvl < 0 ? 0.0 : h->d[lvl];
}

static void test_oracle(void **state)
{
    const char *hs[][2] = {{"2:3:2", "1:10:100"}, {"4:4:2", "1:5:20"}, {"3:5", "2:7"},
                           {"4:16:2", "1:10:100"}, {"7", "3"}, {"2:2:2:2:3", "1:2:3:4:5"}};
    for (size_t t = 0; t < sizeof hs / sizeof hs[0]; t++) {
        tm_hier h = qt_hier(hs[t][0], hs[t][1]);
        tm__qdist o;
        double *mat = malloc((size_t)(h.n_pe * h.n_pe) * sizeof *mat);
        tm__qdist_init(&o, &h);
        for (int64_t p = 0; p < h.n_pe; p++)
            for (int64_t q = 0; q < h.n_pe; q++)
                mat[p * h.n_pe + q] = brute_dist(&h, p, q);
        for (int64_t p = 0; p < h.n_pe; p++)
            for (int64_t q = 0; q < h.n_pe; q++) {
                assert_true(tm_hier_dist(&h, p, q) == mat[p * h.n_pe + q]);
                assert_true(tm__qd(&o, (int32_t)p, (int32_t)q) == mat[p * h.n_pe + q]);
            }
        free(mat);
    }
}

static void test_fast_gain(void **state)
{
    const char *hs[][2] = {{"2:3:4", "1:10:100"}, {"4:4:4", "1:10:100"}, {"2:2:2:2:2", "1:3:9:27:81"}};
    for (size_t t = 0; t < 3; t++) {
        tm_hier h = qt_hier(hs[t][0], hs[t][1]);
        tm_comm c;
        tm__sgraph g;
        tm__qdist o;
        tm_ctx *ctx;
        tm__rng r;
        int32_t *pe = malloc((size_t)h.n_pe * sizeof *pe);
        assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
        qt_random_comm(&c, (int32_t)h.n_pe, 3, 7 + t, false);
        assert_tm_ok(ctx, tm__sgraph_from_comm(ctx, &c, TM__SG_VERTEX_WEIGHTS, &g));
        tm__qdist_init(&o, &h);
        tm__rng_seed(&r, 42, t);
        for (int32_t u = 0; u < c.n; u++)
            pe[u] = u;
        double j = tm__qap_eval(&c, &h, pe);
        assert_true(fabs(j - tm__qap_eval_sym(&g, &o, pe)) < 1e-9);
        for (int s = 0; s < 300; s++) {
            int32_t u = (int32_t)tm__rng_below(&r, (uint64_t)c.n);
            int32_t v = (int32_t)tm__rng_below(&r, (uint64_t)c.n);
            double d = tm__qap_swap_delta(&g, &o, pe, u, v), j2;
            int32_t t2 = pe[u];
            pe[u] = pe[v];
            pe[v] = t2;
            j2 = tm__qap_eval(&c, &h, pe);
            assert_true(fabs(j + d - j2) < 1e-6);
            j = j2;
        }
        /* the J each local search maintains incrementally is the real J */
        {
            const char *nbh[] = {"nc", "ils", "np", "n2"};
            for (int k = 0; k < 4; k++) {
                double jl = -1;
                assert_tm_ok(ctx, tm__qap_local_search(ctx, &g, &o, -1, nbh[k], 3, 5, pe, &jl));
                assert_true(fabs(jl - tm__qap_eval(&c, &h, pe)) < 1e-6);
            }
        }
        free(pe);
        tm__sgraph_release(&g);
        qt_free_comm(&c);
        tm_ctx_free(ctx);
    }
}

/* The far-pair bound of tm__ls_gain (distances obeying the triangle
 * inequality): (W_u + W_v) dist(pe u, pe v) - 2 (c[u] + c[v]) never
 * exceeds the exact change of J, it does skip pairs, and the gains with
 * and without it are the same decisions and values. */
static void test_far_pair_bound(void **state)
{
    tm_hier h = qt_hier("4:4:4", "1:10:100");
    tm_comm c;
    tm__sgraph g;
    tm__qdist o;
    tm_ctx *ctx;
    tm__rng r;
    tm__ls L;
    int32_t n = (int32_t)h.n_pe, far = 0;
    int32_t *pe = malloc((size_t)n * sizeof *pe);
    double *cu = calloc((size_t)n, sizeof *cu), *wd = calloc((size_t)n, sizeof *wd);
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    qt_random_comm(&c, n, 2, 11, true);
    assert_tm_ok(ctx, tm__sgraph_from_comm(ctx, &c, TM__SG_VERTEX_WEIGHTS, &g));
    tm__qdist_init(&o, &h);
    tm__rng_seed(&r, 3, 1);
    for (int32_t u = 0; u < n; u++)
        pe[u] = u;
    for (int32_t i = n - 1; i > 0; i--) { /* a random mapping: many far pairs */
        int32_t j = (int32_t)tm__rng_below(&r, (uint64_t)i + 1), t = pe[i];
        pe[i] = pe[j];
        pe[j] = t;
    }
    for (int32_t u = 0; u < n; u++)
        for (int64_t e = g.xadj[u]; e < g.xadj[u + 1]; e++) {
            cu[u] += g.w[e] * tm__qd(&o, pe[u], pe[g.adj[e]]);
            wd[u] += g.w[e];
        }
    memset(&L, 0, sizeof L);
    L.g = &g;
    L.o = o;
    L.pe = pe;
    L.c = cu;
    L.eps = -1e-9;
    for (int32_t u = 0; u < n; u++)
        for (int32_t v = 0; v < n; v++) {
            double exact = tm__ls_swap_delta(&L, u, v), d1 = 0, d2 = 0;
            double lb = (wd[u] + wd[v]) * tm__qd(&o, pe[u], pe[v]) - 2.0 * (cu[u] + cu[v]);
            bool g1, g2;
            assert_true(lb <= exact + 1e-9);
            far += u != v && lb >= 0;
            L.wdeg = NULL;
            g1 = tm__ls_gain(&L, u, v, &d1);
            L.wdeg = wd;
            g2 = tm__ls_gain(&L, u, v, &d2);
            assert_true(g1 == g2);
            assert_true(!g1 || d1 == d2);
        }
    assert_true(far > 0);
    free(pe), free(cu), free(wd);
    tm__sgraph_release(&g);
    qt_free_comm(&c);
    tm_ctx_free(ctx);
}

static void run_strategy_imb(const char *name, const char *a, const char *d, int32_t n,
                             uint64_t seed, double imb, double *jout);
static void run_strategy(const char *name, const char *a, const char *d, int32_t n, uint64_t seed,
                         double *jout)
{
    run_strategy_imb(name, a, d, n, seed, -1, jout);
}

static void run_strategy_imb(const char *name, const char *a, const char *d, int32_t n,
                             uint64_t seed, double imb, double *jout)
{
    tm_hier h = qt_hier(a, d);
    tm_comm c;
    tm_ctx *ctx;
    tm_mapping m, m2;
    tm_problem p = {0};
    const tm_strategy *s = tm_strategy_find(name);
    assert_non_null(s);
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    qt_random_comm(&c, n, 3, seed, false);
    p.comm = &c;
    p.hier = &h;
    p.imbalance = imb;
    tm_mapping_init(&m);
    tm_mapping_init(&m2);
    assert_tm_ok(ctx, s->run(ctx, &p, 5, &m));
    assert_int_equal(m.n, n);
    qt_assert_injective(&m, &h);
    /* deterministic for a seed */
    assert_tm_ok(ctx, s->run(ctx, &p, 5, &m2));
    assert_memory_equal(m.pe, m2.pe, (size_t)n * sizeof *m.pe);
    *jout = tm__qap_eval(&c, &h, m.pe);
    /* refiners never make it worse and keep it injective */
    for (const tm_refiner *r = tm_refiners(); r->name; r++) {
        const char *arg = strcmp(r->name, "nc") == 0 ? "3" : NULL;
        double before = tm__qap_eval(&c, &h, m.pe), after;
        if (!(r->modes & TM_MODE_HIERARCHY))
            continue;
        assert_tm_ok(ctx, r->run(ctx, &p, arg, 9, &m));
        qt_assert_injective(&m, &h);
        after = tm__qap_eval(&c, &h, m.pe);
        assert_true(after <= before + 1e-9);
    }
    tm_mapping_release(&m);
    tm_mapping_release(&m2);
    qt_free_comm(&c);
    tm_ctx_free(ctx);
}

static void test_strategies_bijection(void **state)
{
    const char *names[] = {"identity", "mm", "allc", "topdown", "bottomup", "random",
                           "topdown-ms", "topdown-c"};
    const char *hs[][2] = {{"4:4:4", "1:10:100"}, {"2:3:5", "1:10:100"}, {"4:16", "1:10"},
                           {"3:1:7", "1:5:25"}};
    for (size_t i = 0; i < 8; i++)
        for (size_t t = 0; t < 4; t++) {
            tm_hier h = qt_hier(hs[t][0], hs[t][1]);
            double j;
            run_strategy(names[i], hs[t][0], hs[t][1], (int32_t)h.n_pe, 11 + t, &j);
            /* fewer tasks than PEs: still injective */
            run_strategy_imb(names[i], hs[t][0], hs[t][1], (int32_t)h.n_pe - 5, 3 + t, 0.03, &j);
        }
}

static void test_topdown_beats_random(void **state)
{
    double jt, jr, jm;
    run_strategy("topdown", "4:4:8", "1:10:100", 128, 77, &jt);
    run_strategy("random", "4:4:8", "1:10:100", 128, 77, &jr);
    run_strategy("mm", "4:4:8", "1:10:100", 128, 77, &jm);
    assert_true(jt < jr);
    assert_true(jm < jr);
}

/* Weighted cut between the top-level groups (each entry counted once). */
static double top_cut(const tm__sgraph *g, const tm_hier *h, const int32_t *pe)
{
    int64_t s = h->group[h->k - 1];
    double c = 0;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
            if (pe[u] / s != pe[g->adj[e]] / s)
                c += g->w[e];
    return c;
}

/* Top tries (qap_multisection.c): try 0 is the single try, so the kept
 * top split never cuts more than one try, and over a few seeds it cuts
 * strictly less at least once; every result is a bijection, the same on
 * a rerun and with 2 threads. */
static void test_top_tries(void **state)
{
    tm_hier h = qt_hier("4:16:16", "1:10:100");
    tm_comm c;
    tm__sgraph g;
    tm_ctx *ctx;
    int32_t *one = malloc(1024 * sizeof *one), *many = malloc(1024 * sizeof *many);
    int32_t *again = malloc(1024 * sizeof *again);
    int lower = 0;
    (void)state;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    qt_random_comm(&c, 1024, 3, 17, false);
    assert_tm_ok(ctx, tm__sgraph_from_comm(ctx, &c, TM__SG_VERTEX_WEIGHTS, &g));
    for (uint64_t seed = 1; seed <= 4; seed++) {
        char *used = calloc(1024, 1);
        double c1, c8;
        assert_tm_ok(ctx, tm__qap_multisection(ctx, &g, &h, 1.0, 1, seed, one));
        assert_tm_ok(ctx, tm__qap_multisection(ctx, &g, &h, 1.0, 8, seed, many));
        c1 = top_cut(&g, &h, one);
        c8 = top_cut(&g, &h, many);
        assert_true(c8 <= c1);
        lower += c8 < c1;
        for (int32_t u = 0; u < 1024; u++) {
            assert_true(many[u] >= 0 && many[u] < 1024 && !used[many[u]]);
            used[many[u]] = 1;
        }
        free(used);
        assert_tm_ok(ctx, tm_ctx_set_threads(ctx, seed == 1 ? 2 : 1));
        assert_tm_ok(ctx, tm__qap_multisection(ctx, &g, &h, 1.0, 8, seed, again));
        assert_tm_ok(ctx, tm_ctx_set_threads(ctx, 1));
        assert_memory_equal(many, again, 1024 * sizeof *many);
    }
    assert_true(lower > 0);
    free(one), free(many), free(again);
    tm__sgraph_release(&g);
    qt_free_comm(&c);
    tm_ctx_free(ctx);
}

static void test_too_many_tasks(void **state)
{
    const char *names[] = {"mm", "allc", "topdown", "bottomup", "random", "identity"};
    tm_hier h = qt_hier("2:2", "1:10");
    tm_comm c;
    tm_ctx *ctx;
    tm_mapping m;
    tm_problem p = {0};
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    qt_random_comm(&c, 5, 2, 1, false);
    p.comm = &c;
    p.hier = &h;
    p.imbalance = -1;
    tm_mapping_init(&m);
    for (size_t i = 0; i < 6; i++)
        assert_tm_error(ctx, tm_strategy_find(names[i])->run(ctx, &p, 1, &m), TM_EINFEASIBLE,
                        "5 tasks but only 4 PEs");
    qt_free_comm(&c);
    /* fewer tasks than PEs without --imbalance: the hierarchy is wrong */
    qt_random_comm(&c, 3, 2, 1, false);
    for (size_t i = 1; i < 5; i++)
        assert_tm_error(ctx, tm_strategy_find(names[i])->run(ctx, &p, 1, &m), TM_EINPUT,
                        "the hierarchy has 4 PEs but the communication graph has 3 tasks");
    qt_free_comm(&c);
    tm_ctx_free(ctx);
}

static void test_refine_args(void **state)
{
    tm_hier h = qt_hier("2:2", "1:10");
    tm_comm c;
    tm_ctx *ctx;
    tm_mapping m;
    tm_problem p = {0};
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    qt_random_comm(&c, 4, 2, 1, false);
    p.comm = &c;
    p.hier = &h;
    p.imbalance = -1;
    tm_mapping_init(&m);
    assert_tm_ok(ctx, tm_strategy_find("identity")->run(ctx, &p, 1, &m));
    assert_non_null(tm_refiner_find("nc:10"));
    assert_tm_error(ctx, tm_refiner_find("nc")->run(ctx, &p, "x", 1, &m), TM_EUSAGE,
                    "nc:x: expected a positive integer");
    assert_tm_error(ctx, tm_refiner_find("nc")->run(ctx, &p, "0", 1, &m), TM_EUSAGE,
                    "expected a positive integer");
    assert_tm_error(ctx, tm_refiner_find("n2")->run(ctx, &p, "3", 1, &m), TM_EUSAGE,
                    "takes no argument");
    tm_mapping_release(&m);
    qt_free_comm(&c);
    tm_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle),
        cmocka_unit_test(test_fast_gain),
        cmocka_unit_test(test_far_pair_bound),
        cmocka_unit_test(test_strategies_bijection),
        cmocka_unit_test(test_topdown_beats_random),
        cmocka_unit_test(test_top_tries),
        cmocka_unit_test(test_too_many_tasks),
        cmocka_unit_test(test_refine_args),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
