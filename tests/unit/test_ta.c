/* test_ta.c - threshold accepting: the incremental state equals a full
 * evaluation after every accepted move (ECMP with the reversed-flow
 * shortcut, and without it the single-path routers: single, ftree,
 * minhop, updn, dor, forwarding tables), the result is never
 * worse than the input, is valid (also with free slots), deterministic for
 * a seed, and a time limit of 0 returns the input. */
#include <math.h>

#include "map_fixtures.h"
#include "test_fixtures.h"
#include "ta/ta.h"

typedef struct {
    const tm_problem *p;
    int64_t checks;
} check_data;

static bool close_to(double a, double b)
{
    return fabs(a - b) <= 1e-9 * (fabs(a) > 1 ? fabs(a) : 1);
}

/* Full re-evaluation with tm_metrics_eval and link by link. */
static void check_state(void *data, const tm_mapping *cur, const double *load, double maxc,
                        double sumsq)
{
    check_data *cd = data;
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    tm_metrics met;
    const tm_net_csr *g = tm_net_csr_get(cd->p->net);
    o.keep_link_loads = true;
    tm_metrics_init(&met);
    assert_tm_ok(ctx, tm_metrics_eval(ctx, cd->p->route, cd->p->comm, cur, &o, &met));
    if (!close_to(met.max_congestion, maxc) || !close_to(met.congestion_sum_sq, sumsq))
        fail_msg("incremental max %.15g sumsq %.15g, full %.15g %.15g", maxc, sumsq,
                 met.max_congestion, met.congestion_sum_sq);
    for (int32_t l = 0; l < g->n_links; l++)
        if (!close_to(met.link_load[l], load[l]))
            fail_msg("link %d: incremental load %.15g, full %.15g", l, load[l], met.link_load[l]);
    tm_metrics_release(&met);
    cd->checks++;
}

static void random_comm(tm__rng *r, int32_t n, int m, tm_comm *c)
{
    int32_t *src = malloc(((size_t)m + 1) * sizeof *src);
    int32_t *dst = malloc(((size_t)m + 1) * sizeof *dst);
    double *w = malloc(((size_t)m + 1) * sizeof *w);
    for (int i = 0; i < m; i++) {
        src[i] = (int32_t)tm__rng_below(r, (uint64_t)n);
        dst[i] = (int32_t)tm__rng_below(r, (uint64_t)n);
        w[i] = 1 + (double)tm__rng_below(r, 9);
    }
    fx_comm(c, n, m, src, dst, w);
    free(src);
    free(dst);
    free(w);
}

static void eval(const tm_problem *p, const tm_mapping *m, double *maxc, double *sq)
{
    tm_metrics met;
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    tm_metrics_init(&met);
    assert_tm_ok(ctx, tm_metrics_eval(ctx, p->route, p->comm, m, &o, &met));
    *maxc = met.max_congestion;
    *sq = met.congestion_sum_sq;
    tm_metrics_release(&met);
}

/* Runs TA with checks on a random instance under the given router;
 * returns the number of checks. */
static int64_t run_checked_on(tm_net *net, tm_route *route, int32_t slots_used, uint64_t seed)
{
    tm__rng r;
    tm_alloc al;
    tm_comm c;
    tm_mapping m;
    tm_problem p = {0};
    check_data cd = {&p, 0};
    tm__ta_opts o = {3000, -1, 0.05, check_state, &cd, 0};
    tm__ta_stats stats;
    double m0, s0, m1, s1;
    int64_t total;
    tm__rng_seed(&r, seed, 1);
    fx_alloc(&al, net, 0, NULL);
    total = tm_alloc_total_slots(&al);
    random_comm(&r, slots_used < total ? slots_used : (int32_t)total, 4 * slots_used, &c);
    p.net = net;
    p.route = route;
    p.alloc = &al;
    p.comm = &c;
    tm_mapping_init(&m);
    assert_tm_ok(ctx, tm_mapping_consecutive(ctx, &al, c.n, &m));
    eval(&p, &m, &m0, &s0);
    assert_tm_ok(ctx, tm__ta_run(ctx, &p, &o, seed, &m, &stats));
    assert_tm_ok(ctx, tm_mapping_check(ctx, net, &al, &m));
    eval(&p, &m, &m1, &s1);
    /* never worse, and the stats agree with the evaluation */
    assert_true(m1 < m0 * (1 + 1e-12) || (close_to(m1, m0) && s1 <= s0 * (1 + 1e-12)));
    assert_true(close_to(m1, stats.max_after));
    assert_true(stats.evaluations > 0);
    tm_mapping_release(&m);
    fx_comm_free(&c);
    fx_alloc_free(&al);
    return cd.checks;
}

static int64_t run_checked(tm_net *net, tm_route_kind kind, int32_t slots_used, uint64_t seed)
{
    tm_route *route;
    int64_t n;
    assert_tm_ok(ctx, tm_route_new(ctx, net, kind, &route));
    n = run_checked_on(net, route, slots_used, seed);
    tm_route_free(route);
    return n;
}

/* The single-path routings of `map --routing`: OpenSM's ftree, minhop and
 * updn on a fat-tree, dimension order on a torus, and the forwarding
 * tables of a dumped fabric (tests/data/route/lft2): TA moves the flows on
 * the router's one path per pair (not ECMP's), and its incremental loads
 * equal a full evaluation under that router after every accepted move. */
static void test_incremental_equals_full_routings(void **state)
{
    tm_net *net = tm_test_gen_net("fattree:k=4,n=2,slots=2", 0);
    tm_topo_opts to = TM_TOPO_OPTS_INIT;
    tm_route *r;
    (void)state;
    for (int k = TM_ROUTE_FTREE; k <= TM_ROUTE_UPDN; k++)
        assert_true(run_checked(net, (tm_route_kind)k, 14, 20 + (uint64_t)k) > 10);
    tm_net_free(net);
    net = tm_test_gen_net("torus:4x3", 0);
    assert_true(run_checked(net, TM_ROUTE_DOR, 10, 31) > 10);
    tm_net_free(net);
    to.slots = 3; /* several tasks per host: TA's bound on one-slot hosts is met at once */
    assert_tm_ok(ctx, tm_topology_load(ctx, TEST_DATA("route/lft2/fabric.txt"), &to, &net));
    assert_tm_ok(ctx, tm_route_new_lft(ctx, net, TEST_DATA("route/lft2/tables"), &r));
    assert_true(run_checked_on(net, r, 10, 41) > 10);
    tm_route_free(r);
    tm_net_free(net);
}

static void test_incremental_equals_full_ecmp(void **state)
{
    (void)state;
    for (uint64_t s = 1; s <= 4; s++) {
        tm_net *net = s % 2 ? fx_torus(ctx, 4, 2, 1) : fx_tree(ctx, 3, 3, 2, 2.0);
        assert_true(run_checked(net, TM_ROUTE_ECMP, 12, s) > 10);
        tm_net_free(net);
    }
}

static void test_incremental_equals_full_single(void **state)
{
    tm_net *net = fx_torus(ctx, 3, 2, 2);
    (void)state;
    assert_true(run_checked(net, TM_ROUTE_SINGLE, 11, 9) > 10);
    tm_net_free(net);
}

/* More slots than tasks: moves to free slots happen and stay valid. */
static void test_free_slots(void **state)
{
    tm_net *net = fx_torus(ctx, 4, 2, 3);
    (void)state;
    assert_true(run_checked(net, TM_ROUTE_ECMP, 9, 5) > 10);
    tm_net_free(net);
}

static void test_time_limit_zero_and_determinism(void **state)
{
    tm_net *net = fx_torus(ctx, 4, 2, 1);
    tm__rng r;
    tm_alloc al;
    tm_comm c;
    tm_mapping m0, m1, m2;
    tm_problem p = {0};
    tm_route *route;
    (void)state;
    tm__rng_seed(&r, 3, 0);
    fx_alloc(&al, net, 0, NULL);
    random_comm(&r, 16, 60, &c);
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &route));
    p.net = net;
    p.route = route;
    p.alloc = &al;
    p.comm = &c;
    tm_mapping_init(&m0);
    tm_mapping_init(&m1);
    tm_mapping_init(&m2);
    assert_tm_ok(ctx, tm_mapping_consecutive(ctx, &al, 16, &m0));
    assert_tm_ok(ctx, tm_mapping_copy(ctx, &m0, &m1));
    assert_tm_ok(ctx, tm_mapping_copy(ctx, &m0, &m2));
    assert_tm_ok(ctx, tm_ctx_set_time_limit(ctx, 0));
    assert_tm_ok(ctx, tm_refiner_find("ta")->run(ctx, &p, NULL, 1, &m1));
    assert_memory_equal(m0.host, m1.host, 16 * sizeof *m0.host);
    assert_tm_ok(ctx, tm_ctx_set_time_limit(ctx, -1));
    assert_tm_ok(ctx, tm_refiner_find("ta")->run(ctx, &p, "5000", 7, &m1));
    assert_tm_ok(ctx, tm_refiner_find("ta")->run(ctx, &p, "5000", 7, &m2));
    assert_memory_equal(m1.host, m2.host, 16 * sizeof *m1.host);
    assert_memory_equal(m1.slot, m2.slot, 16 * sizeof *m1.slot);
    assert_tm_error(ctx, tm_refiner_find("ta")->run(ctx, &p, "x", 7, &m2), TM_EUSAGE,
                    "not a number of moves");
    tm_mapping_release(&m0);
    tm_mapping_release(&m1);
    tm_mapping_release(&m2);
    tm_route_free(route);
    fx_comm_free(&c);
    fx_alloc_free(&al);
    tm_net_free(net);
}

/* TA improves a bad placement of a ring of 16 tasks on a 4x4 torus. */
static void test_improves(void **state)
{
    tm_net *net = fx_torus(ctx, 4, 2, 1);
    int32_t src[32], dst[32];
    double w[32], m0, s0, m1, s1;
    tm_alloc al;
    tm_comm c;
    tm_mapping m;
    tm_problem p = {0};
    tm_route *route;
    (void)state;
    for (int i = 0; i < 16; i++) {
        /* task i talks to task (i + 5) % 16: consecutive placement is poor */
        src[2 * i] = i, dst[2 * i] = (i + 5) % 16, w[2 * i] = 1;
        src[2 * i + 1] = (i + 5) % 16, dst[2 * i + 1] = i, w[2 * i + 1] = 1;
    }
    fx_comm(&c, 16, 32, src, dst, w);
    fx_alloc(&al, net, 0, NULL);
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &route));
    p.net = net;
    p.route = route;
    p.alloc = &al;
    p.comm = &c;
    tm_mapping_init(&m);
    assert_tm_ok(ctx, tm_mapping_consecutive(ctx, &al, 16, &m));
    eval(&p, &m, &m0, &s0);
    assert_tm_ok(ctx, tm_refiner_find("ta")->run(ctx, &p, "20000", 1, &m));
    eval(&p, &m, &m1, &s1);
    assert_true(m1 < m0 || s1 < s0);
    tm_mapping_release(&m);
    tm_route_free(route);
    fx_comm_free(&c);
    fx_alloc_free(&al);
    tm_net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_incremental_equals_full_ecmp),
        cmocka_unit_test(test_incremental_equals_full_single),
        cmocka_unit_test(test_incremental_equals_full_routings),
        cmocka_unit_test(test_free_slots),
        cmocka_unit_test(test_time_limit_zero_and_determinism),
        cmocka_unit_test(test_improves),
    };
    return cmocka_run_group_tests_name("ta", tests, setup, teardown);
}
