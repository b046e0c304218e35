/* test_study.c - the what-if study engine (src/study/): failure samples
 * (deterministic per seed, eligible cables only), capacity levels and
 * their parser, named failures, and whole grids (figures computed by hand,
 * the same rows for any thread count), and the public API's time figures. */
#include "test_util.h"

#include "study/study.h"
#include "topomap/metrics.h"
#include "topomap/study.h"

static tm_net *load(tm_ctx *ctx, const char *spec)
{
    tm_topo_opts o = TM_TOPO_OPTS_INIT;
    tm_net *net = NULL;
    assert_tm_ok(ctx, tm_topology_load(ctx, spec, &o, &net));
    return net;
}

/* Same (seed, sample): the same cables; sorted, distinct, eligible, and
 * as many as round(pct * eligible). */
static void test_sample_deterministic(void **state)
{
    tm_ctx *ctx;
    tm_net *net;
    int32_t *a = NULL, *b = NULL, *c = NULL, na, nb, nc;
    (void)state;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    net = load(ctx, "fattree:k=4,n=3"); /* 64 host cables, 128 switch-switch */
    assert_tm_ok(ctx, tm__fail_sample(ctx, net, 10, 1, 1, &a, &na));
    assert_tm_ok(ctx, tm__fail_sample(ctx, net, 10, 1, 1, &b, &nb));
    assert_tm_ok(ctx, tm__fail_sample(ctx, net, 10, 1, 2, &c, &nc));
    assert_int_equal(na, 13); /* round(0.1 * 128) */
    assert_int_equal(nb, na);
    assert_int_equal(nc, na);
    assert_memory_equal(a, b, (size_t)na * sizeof *a);
    assert_true(memcmp(a, c, (size_t)na * sizeof *a) != 0);
    for (int32_t i = 0; i < na; i++) {
        int32_t x, y;
        tm_net_cable(net, a[i], &x, &y);
        assert_int_equal(tm_net_kind(net, x), TM_VERTEX_SWITCH);
        assert_int_equal(tm_net_kind(net, y), TM_VERTEX_SWITCH);
        if (i)
            assert_true(a[i - 1] < a[i]);
    }
    free(a), free(b), free(c);
    /* 100% is every eligible cable; another seed, another sample */
    assert_tm_ok(ctx, tm__fail_sample(ctx, net, 100, 1, 1, &a, &na));
    assert_int_equal(na, 128);
    free(a);
    assert_tm_ok(ctx, tm__fail_sample(ctx, net, 10, 2, 1, &a, &na));
    assert_tm_ok(ctx, tm__fail_sample(ctx, net, 10, 1, 1, &b, &nb));
    assert_true(memcmp(a, b, (size_t)na * sizeof *a) != 0);
    free(a), free(b);
    assert_tm_error(ctx, tm__fail_sample(ctx, net, 0, 1, 1, &a, &na), TM_EUSAGE, "not in (0, 100]");
    tm_net_free(net);
    tm_ctx_free(ctx);
}

/* On a torus every cable may fail (hosts forward traffic). */
static void test_sample_direct(void **state)
{
    tm_ctx *ctx;
    tm_net *net;
    int32_t *a = NULL, n;
    (void)state;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    net = load(ctx, "torus:4x4"); /* 32 cables */
    assert_tm_ok(ctx, tm__fail_sample(ctx, net, 25, 5, 1, &a, &n));
    assert_int_equal(n, 8);
    free(a);
    tm_net_free(net);
    tm_ctx_free(ctx);
}

static void test_levels(void **state)
{
    tm_ctx *ctx;
    tm_net *net;
    int32_t *lv = NULL, count[5] = {0}, n;
    tm_study_scale s;
    (void)state;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    net = load(ctx, "fattree:k=4,n=3");
    assert_tm_ok(ctx, tm__cable_levels(ctx, net, &lv));
    for (int32_t c = 0; c < tm_net_n_cables(net); c++) {
        assert_true(lv[c] >= 1 && lv[c] <= 3);
        count[lv[c]]++;
    }
    assert_int_equal(count[1], 64);
    assert_int_equal(count[2], 64);
    assert_int_equal(count[3], 64);
    free(lv);
    assert_tm_ok(ctx, tm_study_scale_parse(ctx, "2=0.5,3=0.25", &s));
    assert_int_equal(s.n, 2);
    assert_tm_ok(ctx, tm__scale_apply(ctx, net, &s, "ft", &n));
    assert_int_equal(n, 128);
    for (int32_t c = 0; c < tm_net_n_cables(net); c++) {
        int32_t a, b;
        tm_net_cable(net, c, &a, &b);
        if (tm_net_kind(net, a) == TM_VERTEX_HOST || tm_net_kind(net, b) == TM_VERTEX_HOST)
            assert_true(tm_net_capacity(net, c) == 1);
        else
            assert_true(tm_net_capacity(net, c) == 0.5 || tm_net_capacity(net, c) == 0.25);
    }
    assert_tm_ok(ctx, tm_study_scale_parse(ctx, "4=2", &s));
    assert_tm_error(ctx, tm__scale_apply(ctx, net, &s, "ft", &n), TM_EUSAGE, "ft: no cable at level 4");
    assert_tm_error(ctx, tm_study_scale_parse(ctx, "2=0", &s), TM_EUSAGE, "factor '0'");
    assert_tm_error(ctx, tm_study_scale_parse(ctx, "leaf=2", &s), TM_EUSAGE, "level 'leaf'");
    assert_tm_error(ctx, tm_study_scale_parse(ctx, "2", &s), TM_EUSAGE, "not LEVEL=FACTOR");
    assert_tm_error(ctx, tm_study_scale_parse(ctx, "2=1,", &s), TM_EUSAGE, "empty");
    tm_net_free(net);
    tm_ctx_free(ctx);
}

static void test_named(void **state)
{
    tm_ctx *ctx;
    tm_net *net;
    int32_t n;
    tm_study_failure f = {TM_STUDY_FAIL_LINKS, 0, "sw-l1-000:sw-l2-000,n0001:sw-l1-000"};
    (void)state;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    net = load(ctx, "fattree:k=2,n=2");
    assert_tm_ok(ctx, tm__fail_apply(ctx, net, &f, 1, 0, "ft", &n));
    assert_int_equal(n, 2);
    /* the same cables again: none is working any more */
    assert_tm_error(ctx, tm__fail_apply(ctx, net, &f, 1, 0, "ft", &n), TM_EINPUT, "no working cable");
    f.kind = TM_STUDY_FAIL_SWITCHES;
    f.names = "sw-l2-001";
    assert_tm_ok(ctx, tm__fail_apply(ctx, net, &f, 1, 0, "ft", &n));
    assert_int_equal(n, 2);
    f.names = "n0000";
    assert_tm_error(ctx, tm__fail_apply(ctx, net, &f, 1, 0, "ft", &n), TM_EINPUT, "is not a switch");
    f.kind = TM_STUDY_FAIL_LINKS;
    f.names = "n0000:nosuch";
    assert_tm_error(ctx, tm__fail_apply(ctx, net, &f, 1, 0, "ft", &n), TM_EINPUT, "is not A:B");
    tm_net_free(net);
    tm_ctx_free(ctx);
}

/* One message 0 -> 2 of 8 on fattree:k=2,n=2 with fast host cables: 4 on
 * each uplink; 8 with one root failed; the random samples of 50% keep the
 * allocation connected only when both cables of one root fail. */
static void run_grid(int threads, tm_study_result *res)
{
    static const char *const topo[] = {"fattree:k=2,n=2,hostcap=100"};
    static const char *const strat[] = {"identity"};
    static const char *const scales[] = {NULL};
    static const int32_t slots[] = {0};
    static const tm_route_kind routing[] = {TM_ROUTE_ECMP};
    static const tm_study_failure fails[] = {{TM_STUDY_FAIL_NONE, 0, NULL},
                                             {TM_STUDY_FAIL_SWITCHES, 0, "sw-l2-001"},
                                             {TM_STUDY_FAIL_RANDOM, 50, NULL}};
    tm_ctx *ctx;
    tm_comm comm;
    const tm_comm *sc = &comm;
    tm_study_spec s;
    FILE *f = tm_test_memfile("0 2 8\n");
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    tm_comm_init(&comm);
    assert_tm_ok(ctx, tm_comm_read(ctx, f, "one", TM_COMM_EDGES, &comm));
    fclose(f);
    memset(&s, 0, sizeof s);
    s.topologies = topo, s.n_topologies = 1;
    s.slots = slots, s.n_slots = 1;
    s.scales = scales, s.n_scales = 1;
    s.failures = fails, s.n_failures = 3;
    s.samples = 5;
    s.routings = routing, s.n_routings = 1;
    s.comms = &sc, s.n_comms = 1;
    s.strategies = strat, s.n_strategies = 1;
    s.objective = TM_OBJ_PARETO;
    assert_tm_ok(ctx, tm_ctx_set_threads(ctx, threads));
    assert_tm_ok(ctx, tm_study_run(ctx, &s, res));
    tm_comm_release(&comm);
    tm_ctx_free(ctx);
}

static void test_grid(void **state)
{
    tm_study_result r1, r3;
    int ok = 0;
    (void)state;
    run_grid(1, &r1);
    run_grid(3, &r3);
    assert_int_equal(r1.n_rows, 1 + 1 + 5 + 2);
    assert_int_equal(r1.n_runs, 7);
    assert_int_equal(r3.n_rows, r1.n_rows);
    assert_memory_equal(r1.rows, r3.rows, (size_t)r1.n_rows * sizeof *r1.rows);
    assert_true(r1.rows[0].base_congestion == 4);
    assert_true(r1.rows[1].base_congestion == 8);
    assert_int_equal(r1.rows[1].failed_cables, 2);
    for (int i = 2; i < 7; i++) {
        const tm_study_row *r = &r1.rows[i];
        assert_int_equal(r->sample, i - 1);
        assert_int_equal(r->failed_cables, 2);
        if (r->status == TM_STUDY_OK) {
            assert_true(r->base_congestion == 8);
            ok++;
        } else {
            assert_int_equal(r->status, TM_STUDY_DISCONNECTED);
            assert_non_null(strstr(r->cause, "different connected parts"));
        }
    }
    assert_int_equal(r1.rows[7].stat, TM_STUDY_MEAN);
    assert_int_equal(r1.rows[8].stat, TM_STUDY_WORST);
    assert_int_equal(r1.rows[7].runs, 5);
    assert_int_equal(r1.rows[7].not_ok, 5 - ok);
    if (ok)
        assert_true(r1.rows[7].max_congestion == 8 && r1.rows[8].avg_dilation == 4);
    tm_study_result_release(&r1);
    tm_study_result_release(&r3);
}

/* One public study (tm_study_run) of two tasks 0 -> 2 (8 bytes) on
 * fattree:k=2,n=2, strategy identity, with the time options *t. */
static void run_public(const tm_time_opts *t, tm_study_row *row)
{
    static const char *const topo[] = {"fattree:k=2,n=2"};
    static const char *const strat[] = {"identity"};
    tm_ctx *ctx;
    tm_comm comm;
    const tm_comm *comms[1] = {&comm};
    tm_study_spec s;
    tm_study_result res;
    FILE *f = tm_test_memfile("0 2 8\n");
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    tm_comm_init(&comm);
    assert_tm_ok(ctx, tm_comm_read(ctx, f, "one", TM_COMM_EDGES, &comm));
    fclose(f);
    memset(&s, 0, sizeof s);
    s.topologies = topo, s.n_topologies = 1;
    s.comms = comms, s.n_comms = 1;
    s.strategies = strat, s.n_strategies = 1;
    s.objective = TM_OBJ_PARETO;
    s.time = t;
    assert_tm_ok(ctx, tm_study_run(ctx, &s, &res));
    assert_int_equal(res.n_rows, 1);
    *row = res.rows[0];
    tm_study_result_release(&res);
    tm_comm_release(&comm);
    tm_ctx_free(ctx);
}

/* The public rows carry est_time_s of both placements; NULL time options
 * are TM_TIME_OPTS_INIT, and other options change the figure. */
static void test_public_time(void **state)
{
    tm_time_opts def = TM_TIME_OPTS_INIT, slow = TM_TIME_OPTS_INIT;
    tm_study_row a, b, c;
    (void)state;
    slow.message_overhead_s = 1.0;
    run_public(NULL, &a);
    run_public(&def, &b);
    run_public(&slow, &c);
    assert_int_equal(a.status, TM_STUDY_OK);
    assert_true(a.est_time_s > 0 && a.base_est_time_s > 0);
    /* identity is the consecutive placement */
    assert_true(a.est_time_s == a.base_est_time_s);
    assert_true(a.est_time_s == b.est_time_s && a.base_est_time_s == b.base_est_time_s);
    assert_true(c.est_time_s >= 1.0 && c.est_time_s < a.est_time_s + 1.0 + 1e-9);
}

/* Every routing model a study computes goes through the public API, the
 * dragonflies' valiant and ugal included (the API refused them, the CLI
 * did not); forwarding tables (lft) do not: a study changes the network. */
static void test_public_routings(void **state)
{
    static const char *const topo[] = {"dragonfly:a=3,p=1,h=1"};
    static const char *const strat[] = {"identity"};
    static const tm_route_kind ok[] = {TM_ROUTE_ECMP, TM_ROUTE_VALIANT, TM_ROUTE_UGAL};
    static const tm_route_kind lft[] = {TM_ROUTE_LFT};
    tm_ctx *ctx;
    tm_comm comm;
    const tm_comm *comms[1] = {&comm};
    tm_study_spec s;
    tm_study_result res;
    FILE *f = tm_test_memfile("0 5 8\n");
    (void)state;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    tm_comm_init(&comm);
    assert_tm_ok(ctx, tm_comm_read(ctx, f, "one", TM_COMM_EDGES, &comm));
    fclose(f);
    memset(&s, 0, sizeof s);
    s.topologies = topo, s.n_topologies = 1;
    s.comms = comms, s.n_comms = 1;
    s.strategies = strat, s.n_strategies = 1;
    s.routings = ok, s.n_routings = 3;
    assert_tm_ok(ctx, tm_study_run(ctx, &s, &res));
    assert_int_equal(res.n_rows, 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(res.rows[i].routing, i);
        assert_int_equal(res.rows[i].status, TM_STUDY_OK);
        assert_int_equal(res.rows[i].position, i);
    }
    assert_int_equal(res.total_rows, 3);
    tm_study_result_release(&res);
    s.routings = lft, s.n_routings = 1;
    assert_tm_error(ctx, tm_study_run(ctx, &s, &res), TM_EUSAGE, "not a computed routing model");
    tm_comm_release(&comm);
    tm_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sample_deterministic),
        cmocka_unit_test(test_sample_direct),
        cmocka_unit_test(test_levels),
        cmocka_unit_test(test_named),
        cmocka_unit_test(test_grid),
        cmocka_unit_test(test_public_time),
        cmocka_unit_test(test_public_routings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
