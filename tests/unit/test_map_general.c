/* test_map_general.c - general process mapping in network mode (more tasks
 * than slots, src/pipeline/general.c): a hand-computed case, the block caps,
 * every reported figure equal to an independent evaluation of the
 * returned mapping on the original graph, the block-distribution baseline
 * checked against its definition, and the refusal without --imbalance. */
#include <math.h>

#include "map_fixtures.h"
#include "test_fixtures.h"

static void eval_full(const tm_problem *p, const tm_mapping *m, tm_metrics *met)
{
    tm_route *r;
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    assert_tm_ok(ctx, tm_route_new(ctx, p->net, TM_ROUTE_ECMP, &r));
    tm_metrics_init(met);
    assert_tm_ok(ctx, tm_metrics_eval(ctx, r, p->comm, m, &o, met));
    tm_route_free(r);
}

static void assert_same_metrics(const tm_metrics *a, const tm_metrics *b)
{
    assert_true(fabs(a->max_congestion - b->max_congestion) <= 1e-9 * (1 + b->max_congestion));
    assert_true(fabs(a->avg_dilation - b->avg_dilation) <= 1e-9 * (1 + b->avg_dilation));
    assert_true(fabs(a->qap_J - b->qap_J) <= 1e-9 * (1 + b->qap_J));
    assert_true(fabs(a->total_volume - b->total_volume) <= 1e-9 * (1 + b->total_volume));
    assert_int_equal(a->messages, b->messages);
}

/* The path 0 - 2 - 1 - 3 (unit volume each way) on two hosts with one slot
 * under one switch, --imbalance 0: two blocks of two tasks.  Consecutive
 * (ranks 0,1 | 2,3) cuts all three edges: host links carry 3, dilation
 * 6 * 2 / 6 = 2.  The best cut {0,2 | 1,3} cuts only 2 - 1: congestion 1,
 * dilation 2 * 2 / 6 = 2/3, J = 2 * 2 = 4. */
static void test_hand_path(void **state)
{
    tm_net *net = fx_tree(ctx, 1, 2, 1, 1.0);
    static const int32_t s[] = {0, 2, 2, 1, 1, 3}, d[] = {2, 0, 1, 2, 3, 1};
    static const double w[] = {1, 1, 1, 1, 1, 1};
    tm_comm c;
    tm_alloc al;
    tm_problem p = {0};
    tm_map_result res;
    (void)state;
    fx_comm(&c, 4, 6, s, d, w);
    fx_alloc(&al, net, 0, NULL);
    p.net = net;
    p.alloc = &al;
    p.comm = &c;
    p.imbalance = 0;
    assert_tm_ok(ctx, tm_map_run(ctx, &p, "all", "nc:1+ta", TM_OBJ_PARETO, &res));
    assert_int_equal(res.blocks, 2);
    assert_true(res.block_bound == 2 && res.block_weight_max == 2);
    assert_true(fabs(res.consecutive->max_congestion - 3) < 1e-12);
    assert_true(fabs(res.consecutive->avg_dilation - 2) < 1e-12);
    assert_true(fabs(res.metrics->max_congestion - 1) < 1e-12);
    assert_true(fabs(res.metrics->avg_dilation - 2.0 / 3) < 1e-12);
    assert_true(fabs(res.metrics->qap_J - 4) < 1e-12);
    assert_int_equal(res.mapping.n, 4);
    assert_int_equal(res.mapping.host[0], res.mapping.host[2]);
    assert_int_equal(res.mapping.host[1], res.mapping.host[3]);
    assert_int_not_equal(res.mapping.host[0], res.mapping.host[1]);
    tm_map_result_release(&res);
    fx_comm_free(&c);
    fx_alloc_free(&al);
    tm_net_free(net);
}

static void random_comm(tm__rng *r, int32_t n, int m, bool weights, tm_comm *c)
{
    int32_t *s = malloc((size_t)m * sizeof *s), *d = malloc((size_t)m * sizeof *d);
    double *w = malloc((size_t)m * sizeof *w);
    for (int i = 0; i < m; i++) {
        s[i] = (int32_t)tm__rng_below(r, (uint64_t)n);
        d[i] = (int32_t)tm__rng_below(r, (uint64_t)n);
        w[i] = 1 + (double)tm__rng_below(r, 9);
    }
    fx_comm(c, n, m, s, d, w);
    if (weights) {
        c->vwgt = malloc((size_t)n * sizeof *c->vwgt);
        for (int32_t u = 0; u < n; u++)
            c->vwgt[u] = 1 + (double)tm__rng_below(r, 3);
    }
    free(s), free(d), free(w);
}

/* Slot index (allocation order) of every task, and the weight per slot. */
static void check_caps(const tm_problem *p, const tm_map_result *res)
{
    int64_t total = tm_alloc_total_slots(p->alloc);
    double *load = calloc((size_t)total, sizeof *load);
    for (int32_t u = 0; u < p->comm->n; u++) {
        int64_t base = 0;
        int32_t i = 0;
        while (i < p->alloc->n && p->alloc->host[i] != res->mapping.host[u])
            base += p->alloc->slots[i++];
        assert_true(i < p->alloc->n);
        assert_true(res->mapping.slot[u] >= 0 && res->mapping.slot[u] < p->alloc->slots[i]);
        load[base + res->mapping.slot[u]] += p->comm->vwgt ? p->comm->vwgt[u] : 1;
    }
    for (int64_t k = 0; k < total; k++)
        assert_true(load[k] <= res->block_bound + 1e-9 && load[k] <= res->block_weight_max + 1e-9);
    free(load);
}

/* The baseline by its definition: task u on slot floor(u * S / n). */
static void check_baseline(const tm_problem *p, const tm_map_result *res)
{
    int64_t total = tm_alloc_total_slots(p->alloc);
    tm_mapping m;
    tm_metrics met;
    tm_mapping_init(&m);
    assert_tm_ok(ctx, tm_mapping_alloc(ctx, &m, p->comm->n, false));
    for (int32_t u = 0; u < p->comm->n; u++) {
        int64_t k = (int64_t)u * total / p->comm->n;
        int32_t i = 0;
        while (k >= p->alloc->slots[i])
            k -= p->alloc->slots[i++];
        m.host[u] = p->alloc->host[i];
        m.slot[u] = (int32_t)k;
    }
    eval_full(p, &m, &met);
    assert_same_metrics(res->consecutive, &met);
    tm_metrics_release(&met);
    tm_mapping_release(&m);
}

/* Random graphs on a torus and a tree, 1 and 2 slots, unit and random task
 * weights: caps hold, and the figures are those of the returned mapping. */
static void test_random_valid(void **state)
{
    tm__rng r;
    (void)state;
    tm__rng_seed(&r, 7, 0);
    for (int k = 0; k < 8; k++) {
        int32_t slots = 1 + (k & 1);
        tm_net *net = k & 2 ? fx_tree(ctx, 3, 4, slots, 2.0) : fx_torus(ctx, 4, 2, slots);
        int32_t n = (int32_t)(tm_net_total_slots(net) * (2 + k / 4) + 3);
        tm_comm c;
        tm_alloc al;
        tm_problem p = {0};
        tm_map_result res;
        tm_metrics met;
        int32_t maxh;
        random_comm(&r, n, 4 * n, k & 4, &c);
        fx_alloc(&al, net, 0, NULL);
        p.net = net;
        p.alloc = &al;
        p.comm = &c;
        p.imbalance = 0.05;
        assert_tm_ok(ctx, tm_map_run(ctx, &p, k & 1 ? "all" : "recursive", "ils:10+ta",
                                     TM_OBJ_PARETO, &res));
        assert_int_equal(res.blocks, tm_net_total_slots(net));
        check_caps(&p, &res);
        eval_full(&p, &res.mapping, &met);
        assert_same_metrics(res.metrics, &met);
        assert_true(fabs(fx_avg_dilation(net, &c, &res.mapping, &maxh) - met.avg_dilation) < 1e-9);
        check_baseline(&p, &res);
        tm_metrics_release(&met);
        tm_map_result_release(&res);
        fx_comm_free(&c);
        fx_alloc_free(&al);
        tm_net_free(net);
    }
}

static void test_refused_without_imbalance(void **state)
{
    tm_net *net = fx_tree(ctx, 1, 2, 1, 1.0);
    static const int32_t s[] = {0, 1, 2}, d[] = {1, 2, 0};
    static const double w[] = {1, 1, 1};
    tm_comm c;
    tm_alloc al;
    tm_problem p = {0};
    tm_map_result res;
    (void)state;
    fx_comm(&c, 3, 3, s, d, w);
    fx_alloc(&al, net, 0, NULL);
    p.net = net;
    p.alloc = &al;
    p.comm = &c;
    p.imbalance = -1;
    assert_tm_error(ctx, tm_map_run(ctx, &p, "identity", NULL, TM_OBJ_PARETO, &res),
                    TM_EINFEASIBLE, "needs an imbalance");
    fx_comm_free(&c);
    fx_alloc_free(&al);
    tm_net_free(net);
}

/* The block distribution by hand (10 tasks on 4 slots: 3, 2, 3, 2), and
 * shared slots accepted by tm_mapping_check and tm_mapping_read only when
 * there are more tasks than slots. */
static void test_blocks_check_read(void **state)
{
    tm_net *net = fx_tree(ctx, 1, 2, 2, 1.0); /* hosts n0, n1 with 2 slots */
    tm_alloc al;
    tm_mapping m, r;
    static const int32_t want_slot[10] = {0, 0, 0, 1, 1, 0, 0, 0, 1, 1};
    const char *rf = "rank 0=n0 slot=0\nrank 1=n0 slot=0\nrank 2=n1 slot=1\n"
                     "rank 3=n1 slot=1\nrank 4=n1 slot=0\n";
    FILE *f;
    (void)state;
    fx_alloc(&al, net, 0, NULL);
    tm_mapping_init(&m);
    tm_mapping_init(&r);
    assert_tm_ok(ctx, tm_mapping_blocks(ctx, &al, 10, &m));
    for (int32_t u = 0; u < 10; u++) {
        assert_int_equal(m.host[u], al.host[u < 5 ? 0 : 1]);
        assert_int_equal(m.slot[u], want_slot[u]);
    }
    assert_tm_ok(ctx, tm_mapping_check(ctx, net, &al, &m));
    m.n = 4; /* 4 tasks, 4 slots: tasks 0 and 1 on one slot are refused */
    assert_tm_error(ctx, tm_mapping_check(ctx, net, &al, &m), TM_EINPUT, "share slot 0");
    m.n = 10;
    f = fmemopen((void *)rf, strlen(rf), "r");
    assert_tm_ok(ctx, tm_mapping_read(ctx, net, 0, f, "g.rankfile", 5, &r));
    fclose(f);
    assert_int_equal(r.slot[1], 0);
    assert_int_equal(r.host[1], r.host[0]);
    tm_mapping_release(&r);
    f = fmemopen((void *)rf, 68, "r"); /* first 4 lines: 4 ranks on 4 slots */
    assert_tm_error(ctx, tm_mapping_read(ctx, net, 0, f, "g.rankfile", 4, &r), TM_EINPUT,
                    "g.rankfile:2: rank 1: slot 0 of host 'n0' already used by rank 0");
    fclose(f);
    tm_mapping_release(&m);
    fx_alloc_free(&al);
    tm_net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_path),
        cmocka_unit_test(test_random_valid),
        cmocka_unit_test(test_refused_without_imbalance),
        cmocka_unit_test(test_blocks_check_read),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
