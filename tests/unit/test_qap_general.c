/* test_qap_general.c - general process mapping (tasks > PEs): every final
 * PE stays within ceil((1+eps) * W / PEs) on unit and adversarial task
 * weights (SharedMap's adaptive imbalance), refiners keep the balance,
 * and impossible requests are TM_EINFEASIBLE (thread-count independence:
 * test_qap_parallel.c, run under ThreadSanitizer). */
#include "test_qap_common.h"

static double max_load(const tm_comm *c, const tm_hier *h, const tm_mapping *m)
{
    double *load = calloc((size_t)h->n_pe, sizeof *load), mx = 0;
    for (int32_t u = 0; u < m->n; u++) {
        assert_true(m->pe[u] >= 0 && m->pe[u] < h->n_pe);
        load[m->pe[u]] += c->vwgt ? c->vwgt[u] : 1.0;
        if (load[m->pe[u]] > mx)
            mx = load[m->pe[u]];
    }
    free(load);
    return mx;
}

/* weights: 0 unit, 1 a few heavy tasks, 2 geometric spread 1..32 */
static void set_weights(tm_comm *c, int kind, uint64_t seed)
{
    tm__rng r;
    tm__rng_seed(&r, seed, 3);
    c->vwgt = malloc((size_t)c->n * sizeof *c->vwgt);
    for (int32_t u = 0; u < c->n; u++) {
        if (kind == 0)
            c->vwgt[u] = 1;
        else if (kind == 1)
            c->vwgt[u] = tm__rng_below(&r, 20) == 0 ? 12 : 1;
        else
            c->vwgt[u] = (double)(1u << tm__rng_below(&r, 6));
    }
}

static void check_general(const char *strategy, const char *a, const char *d, int32_t n,
                          int kind, double eps, int threads)
{
    tm_hier h = qt_hier(a, d);
    tm_comm c;
    tm_ctx *ctx;
    tm_mapping m;
    tm_problem p = {0};
    double w = 0, bound;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    assert_tm_ok(ctx, tm_ctx_set_threads(ctx, threads));
    qt_random_comm(&c, n, 3, 99 + (uint64_t)kind, false);
    set_weights(&c, kind, (uint64_t)n);
    for (int32_t u = 0; u < n; u++)
        w += c.vwgt[u];
    bound = ceil((1 + eps) * w / (double)h.n_pe - 1e-9);
    p.comm = &c;
    p.hier = &h;
    p.imbalance = eps;
    tm_mapping_init(&m);
    assert_tm_ok(ctx, tm_strategy_find(strategy)->run(ctx, &p, 3, &m));
    assert_true(max_load(&c, &h, &m) <= bound);
    for (const tm_refiner *r = tm_refiners(); r->name; r++) {
        double before = tm__qap_eval(&c, &h, m.pe);
        if (!(r->modes & TM_MODE_HIERARCHY))
            continue;
        assert_tm_ok(ctx, r->run(ctx, &p, strcmp(r->name, "nc") == 0 ? "2" : NULL, 4, &m));
        assert_true(max_load(&c, &h, &m) <= bound);
        assert_true(tm__qap_eval(&c, &h, m.pe) <= before + 1e-9);
    }
    tm_mapping_release(&m);
    qt_free_comm(&c);
    tm_ctx_free(ctx);
}

static void test_unit_weights(void **state)
{
    check_general("topdown", "4:4:4", "1:10:100", 800, 0, 0.03, 1);
    check_general("topdown", "2:3:5", "1:10:100", 1000, 0, 0.03, 2);
    check_general("topdown", "4:4", "1:10", 64, 0, 0.0, 1); /* exactly 4 per PE */
    check_general("random", "4:4:4", "1:10:100", 800, 0, 0.03, 1);
    check_general("topdown-c", "4:4:2", "1:10:100", 2000, 0, 0.03, 1);
    check_general("topdown-ms", "4:4:2", "1:10:100", 700, 0, 0.03, 1);
}

static void test_adversarial_weights(void **state)
{
    check_general("topdown", "4:4:4", "1:10:100", 900, 1, 0.03, 1);
    check_general("topdown", "2:2:2:2", "1:10:100:1000", 700, 2, 0.03, 2);
    check_general("topdown", "3:5:2", "1:10:100", 1200, 2, 0.10, 1);
    check_general("random", "4:4:4", "1:10:100", 900, 1, 0.03, 1);
    check_general("topdown-c", "2:2:2", "1:10:100", 1500, 2, 0.03, 1);
}

/* The example of SharedMap Sec. 5: 800 unit tasks, 4:4:... with 3%:
 * a fixed 3% per level would overflow, the adaptive caps do not. */
static void test_paper_example(void **state)
{
    check_general("topdown", "2:2:2:2:2:2:2", "1:2:3:4:5:6:7", 800, 0, 0.03, 1);
}

static void test_infeasible(void **state)
{
    tm_hier h = qt_hier("2:2", "1:10");
    tm_comm c;
    tm_ctx *ctx;
    tm_mapping m;
    tm_problem p = {0};
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    qt_random_comm(&c, 40, 2, 1, true);
    p.comm = &c;
    p.hier = &h;
    p.imbalance = 0.03;
    tm_mapping_init(&m);
    /* greedy and bottom-up strategies are one-to-one only */
    assert_tm_error(ctx, tm_strategy_find("mm")->run(ctx, &p, 1, &m), TM_EINFEASIBLE,
                    "40 tasks but only 4 PEs");
    assert_tm_error(ctx, tm_strategy_find("bottomup")->run(ctx, &p, 1, &m), TM_EINFEASIBLE,
                    "40 tasks but only 4 PEs");
    /* one task heavier than a PE may carry */
    c.vwgt[7] = 30;
    assert_tm_error(ctx, tm_strategy_find("topdown")->run(ctx, &p, 1, &m), TM_EINFEASIBLE,
                    "task 7 has weight 30");
    tm_mapping_release(&m);
    qt_free_comm(&c);
    tm_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unit_weights),
        cmocka_unit_test(test_adversarial_weights),
        cmocka_unit_test(test_paper_example),
        cmocka_unit_test(test_infeasible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
