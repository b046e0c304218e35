/* test_rails.c - multi-rail hosts (docs/routing.md "Multi-rail hosts"):
 * a message of a host with cables to several switches is striped evenly
 * over the rails that reach its peer, under ecmp and single routing, in
 * the router, the exact metrics and the time model's paths.  Hand-computed
 * loads on a generated two-plane fat-tree and on a real dump whose HCAs a
 * node-name map merges into dual-rail hosts. */
#include <math.h>

#include "test_fixtures.h"
#include "comm_fixtures.h"

static const tm_time_opts quick_time = {TM_TIME_SMPI, TM_TIME_LATENCY_PER_HOP_DEFAULT, 0.0,
                                        TM_TIME_HOST_BANDWIDTH_DEFAULT, 0, NULL};
static const tm_metrics_opts quick_opts = {true, false, NULL, 0.0, &quick_time}; /* loads kept */

static void assert_near(double a, double b)
{
    if (fabs(a - b) > 1e-12 * (1.0 + fabs(b)))
        fail_msg("%.17g != %.17g", a, b);
}

static int32_t vtx(const tm_net *net, const char *name)
{
    int32_t v = tm_net_find(net, name);
    if (v < 0)
        fail_msg("no vertex %s", name);
    return v;
}

/* The directed link a -> b (the first such cable). */
static int32_t link_of(const tm_net *net, const char *a, const char *b)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    int32_t va = vtx(net, a), vb = vtx(net, b);
    for (int32_t j = g->off[va]; j < g->off[va + 1]; j++)
        if (g->head[j] == vb)
            return g->link[j];
    fail_msg("no link %s -> %s", a, b);
    return -1;
}

/* Routes vol from a to b with kind into a fresh load array (n_links). */
static double *route_one(const tm_net *net, tm_route_kind kind, const char *a, const char *b,
                         double vol, int32_t *hops)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    double *load = calloc((size_t)g->n_links + 1, sizeof *load);
    int32_t dst = vtx(net, b);
    tm_route *r;
    tm_route_ws *ws;
    assert_tm_ok(ctx, tm_route_new(ctx, net, kind, &r));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, vtx(net, a), 1, &dst, &vol, load, hops));
    assert_int_equal(tm_route_hops(r, ws, vtx(net, a), dst), *hops);
    tm_route_ws_free(ws);
    tm_route_free(r);
    return load;
}

/* Every link not listed in want (link, load pairs, n of them) carries 0. */
static void expect_loads(const tm_net *net, const double *load, int n, const int32_t *links,
                         const double *want)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    for (int32_t l = 0; l < g->n_links; l++) {
        double w = 0;
        for (int i = 0; i < n; i++)
            if (links[i] == l)
                w = want[i];
        if (fabs(load[l] - w) > 1e-12)
            fail_msg("link %d (%s -> %s): load %g, want %g", (int)l,
                     tm_net_name(net, g->tail_of[l]), tm_net_name(net, g->head_of[l]), load[l], w);
    }
}

/* fattree:k=2,n=2,rails=2: hosts n0000, n0001 on leaf 0 of both planes,
 * n0002 on leaf 1.  One message of 8 from n0000 to n0001: 4 on each
 * plane's two links, nothing else; to n0002: 4 per plane, split over the
 * plane's two spines under ECMP (2 each), one spine under single. */
static void test_fattree_two_planes(void **state)
{
    tm_net *net;
    double *load;
    int32_t hops;
    (void)state;
    net = tm_test_gen_net("fattree:k=2,n=2,rails=2", 0);
    for (int k = 0; k < 2; k++) {
        tm_route_kind kind = k ? TM_ROUTE_SINGLE : TM_ROUTE_ECMP;
        const int32_t l1[4] = {link_of(net, "n0000", "rail0-sw-l1-000"),
                               link_of(net, "rail0-sw-l1-000", "n0001"),
                               link_of(net, "n0000", "rail1-sw-l1-000"),
                               link_of(net, "rail1-sw-l1-000", "n0001")};
        const double w1[4] = {4, 4, 4, 4};
        double tot = 0;
        load = route_one(net, kind, "n0000", "n0001", 8, &hops);
        assert_int_equal(hops, 2);
        expect_loads(net, load, 4, l1, w1);
        free(load);
        load = route_one(net, kind, "n0000", "n0002", 8, &hops);
        assert_int_equal(hops, 4);
        for (int p = 0; p < 2; p++) {
            char leaf0[32], leaf1[32], sp0[32], sp1[32];
            snprintf(leaf0, sizeof leaf0, "rail%d-sw-l1-000", p);
            snprintf(leaf1, sizeof leaf1, "rail%d-sw-l1-001", p);
            snprintf(sp0, sizeof sp0, "rail%d-sw-l2-000", p);
            snprintf(sp1, sizeof sp1, "rail%d-sw-l2-001", p);
            assert_near(load[link_of(net, "n0000", leaf0)], 4);
            assert_near(load[link_of(net, leaf1, "n0002")], 4);
            if (kind == TM_ROUTE_ECMP) {
                assert_near(load[link_of(net, leaf0, sp0)], 2);
                assert_near(load[link_of(net, leaf0, sp1)], 2);
                assert_near(load[link_of(net, sp1, leaf1)], 2);
            } else {
                assert_near(load[link_of(net, leaf0, sp0)] + load[link_of(net, leaf0, sp1)], 4);
                assert_true(load[link_of(net, leaf0, sp0)] == 0 ||
                            load[link_of(net, leaf0, sp1)] == 0);
            }
        }
        for (int32_t l = 0; l < tm_net_csr_get(net)->n_links; l++)
            tot += load[l];
        assert_near(tot, 8 * 4);
        free(load);
    }
    tm_net_free(net);
}

/* The exact metrics (link loads kept) of 2 tasks on hosts a and b that
 * send 8 to each other, under routing kind; release m after. */
static void eval_pair(tm_net *net, const char *a, const char *b, tm_route_kind kind,
                      tm_metrics *m)
{
    tm_route *r;
    tm_comm c;
    tm_mapping map = {0};
    const int32_t e[2][2] = {{0, 1}, {1, 0}};
    const double w[2] = {8, 8};
    int32_t host[2], slot[2] = {0, 0};
    host[0] = vtx(net, a);
    host[1] = vtx(net, b);
    map.n = 2;
    map.host = host;
    map.slot = slot;
    fx_make_comm(&c, 2, 2, e, w);
    assert_tm_ok(ctx, tm_route_new(ctx, net, kind, &r));
    tm_metrics_init(m);
    assert_tm_ok(ctx, tm_metrics_eval(ctx, r, &c, &map, &quick_opts, m));
    tm_route_free(r);
    fx_free_comm(&c);
}

/* The exact metrics of a mapping on the two planes: 2 tasks on n0000 and
 * n0001 exchanging 8 each way; each direction 4 per plane. */
static void test_fattree_metrics(void **state)
{
    tm_net *net;
    tm_metrics m;
    (void)state;
    net = tm_test_gen_net("fattree:k=2,n=2,rails=2,hostcap=2", 0);
    for (int k = 0; k < 2; k++) {
        eval_pair(net, "n0000", "n0001", k ? TM_ROUTE_SINGLE : TM_ROUTE_ECMP, &m);
        assert_near(m.max_congestion, 4.0 / 2); /* 4 on a 2 Gbit/s host cable */
        assert_near(m.avg_dilation, 2);
        assert_int_equal(m.max_dilation, 2);
        assert_near(m.qap_J, 2 * 8 * 2);
        assert_near(m.link_load[link_of(net, "n0001", "rail1-sw-l1-000")], 4);
        assert_near(m.link_load[link_of(net, "rail0-sw-l1-000", "n0000")], 4);
        tm_metrics_release(&m);
    }
    tm_net_free(net);
}

static tm_net *load_3topo(void)
{
    tm_topo_opts o = TM_TOPO_OPTS_INIT;
    tm_net *net;
    char map[4096]; /* TEST_DATA's buffer is reused by REAL_DATA */
    snprintf(map, sizeof map, "%s", TEST_DATA("ib/multirail/3-rails.map"));
    o.node_name_map = map;
    assert_tm_ok(ctx, tm_topology_load(ctx, REAL_DATA("data/ibnetdiscover/jabl_ibtopotool/3.topo"),
                                       &o, &net));
    return net;
}

/* The real 2016 lab dump 3.topo with a map naming two HCAs on different
 * switches "gpu1" and two others "gpu2": two dual-rail hosts (one cable
 * on each switch); r-ufm101's two HCAs share a switch: one rail, two
 * cables. */
static void test_real_dump_rails(void **state)
{
    tm_net *net = load_3topo();
    const char *sa = "S-e41d2d030003e470", *sb = "switch-de779e";
    double *load;
    int32_t hops;
    (void)state;
    assert_int_equal(tm_net_n_hosts(net), 3);
    assert_int_equal(tm_net_host_rails(net, vtx(net, "gpu1")), 2);
    assert_int_equal(tm_net_host_rails(net, vtx(net, "gpu2")), 2);
    assert_int_equal(tm_net_host_rails(net, vtx(net, "r-ufm101")), 1);
    assert_int_equal(tm_net_host_rails(net, vtx(net, sa)), 0);

    /* gpu1 -> gpu2, 8: each rail 4, one hop to the switch and one down;
     * the cable between the switches carries nothing */
    {
        const int32_t l[4] = {link_of(net, "gpu1", sa), link_of(net, sa, "gpu2"),
                              link_of(net, "gpu1", sb), link_of(net, sb, "gpu2")};
        const double want[4] = {4, 4, 4, 4};
        load = route_one(net, TM_ROUTE_ECMP, "gpu1", "gpu2", 8, &hops);
        assert_int_equal(hops, 2);
        expect_loads(net, load, 4, l, want);
        free(load);
    }
    /* gpu1 -> r-ufm101 (only on sb), 8: both rails reach it, 4 each; the
     * sa rail crosses to sb (3 hops), and r-ufm101's two cables share
     * the 8 evenly under ECMP (the stub rule) */
    {
        const int32_t l[4] = {link_of(net, "gpu1", sa), link_of(net, sa, sb),
                              link_of(net, "gpu1", sb), -1};
        const double want[4] = {4, 4, 4, 0};
        const tm_net_csr *g = tm_net_csr_get(net);
        int32_t h = vtx(net, "r-ufm101"), n_in = 0;
        load = route_one(net, TM_ROUTE_ECMP, "gpu1", "r-ufm101", 8, &hops);
        assert_int_equal(hops, 3);
        for (int32_t j = g->off[h]; j < g->off[h + 1]; j++, n_in++) {
            assert_near(load[g->link[j] ^ 1], 4);
            load[g->link[j] ^ 1] = 0;
        }
        assert_int_equal(n_in, 2);
        expect_loads(net, load, 3, l, want);
        free(load);
    }
    tm_net_free(net);
}

/* The same in the metrics: one task on each host, messages of 8 both
 * ways between gpu1 and r-ufm101.  Dilation is the volume-weighted mean
 * of the parts (2 and 3 hops from gpu1; r-ufm101 itself is one rail,
 * 2 hops to gpu1), and J, as for every router whose paths may be longer
 * than minimum-hop, counts the hops travelled (avg dilation x volume). */
static void test_real_dump_metrics(void **state)
{
    tm_net *net = load_3topo();
    tm_metrics m;
    (void)state;
    eval_pair(net, "gpu1", "r-ufm101", TM_ROUTE_ECMP, &m);
    /* gpu1 -> r-ufm101: 4 x 2 hops + 4 x 3 hops; back: 8 x 2 hops */
    assert_near(m.avg_dilation, (4.0 * 2 + 4.0 * 3 + 8.0 * 2) / 16);
    assert_int_equal(m.max_dilation, 3);
    assert_near(m.qap_J, 4.0 * 2 + 4.0 * 3 + 8.0 * 2);
    /* the way back is not striped (r-ufm101 has one rail): from its
     * switch the one minimum-hop path takes gpu1's SDR rail (4x SDR = 8
     * Gbit/s) with all 8, the busiest link; gpu1's part out on that rail
     * is 4 */
    assert_near(m.max_congestion, 8.0 / 8);
    assert_near(m.link_load[link_of(net, "switch-de779e", "gpu1")], 8);
    assert_near(m.link_load[link_of(net, "gpu1", "switch-de779e")], 4);
    tm_metrics_release(&m);
    tm_net_free(net);
}

/* The time model's paths (tm_route_pair_links): the pair's links and
 * fractions are the striped ones. */
static void test_pair_links(void **state)
{
    tm_net *net = load_3topo();
    tm_route *r;
    tm_route_pairs *p;
    const int32_t *links;
    const double *frac;
    int32_t n;
    double sum = 0;
    (void)state;
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &r));
    assert_tm_ok(ctx, tm_route_pairs_new(ctx, r, &p));
    assert_tm_ok(ctx, tm_route_pair_links(ctx, p, vtx(net, "gpu1"), vtx(net, "gpu2"), &n, &links,
                                          &frac));
    assert_int_equal(n, 4);
    for (int32_t i = 0; i < n; i++) {
        assert_near(frac[i], 0.5);
        sum += frac[i];
    }
    assert_near(sum, 2); /* mean hops of the pair */
    tm_route_pairs_free(p);
    tm_route_free(r);
    tm_net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fattree_two_planes),
        cmocka_unit_test(test_fattree_metrics),
        cmocka_unit_test(test_real_dump_rails),
        cmocka_unit_test(test_real_dump_metrics),
        cmocka_unit_test(test_pair_links),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
