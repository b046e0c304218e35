/* test_netdist.c - the hop-distance oracle equals a plain BFS between every
 * pair of allocated hosts (table and on-demand rows), on generated
 * fat-trees, Clos, tori, meshes, hypercubes, a dragonfly, PERCS, hand-made
 * nets (a host on two switches, transit hosts without switches, a failed
 * cable, two components), and sub-allocations. */
#include "map_fixtures.h"
#include "test_fixtures.h"
#include "net/netdist_int.h"

static tm_net *gen(const char *spec)
{
    tm_net *net;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_gen_build(ctx, spec, NULL, net));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    return net;
}

/* every k-th host; all pairs against fx_hops, for a big and a tiny budget */
static void check_all_pairs(tm_net *net, int every)
{
    int32_t nv = tm_net_n_vertices(net), n = 0, i = 0;
    int32_t *hosts = malloc((size_t)nv * sizeof *hosts);
    for (int32_t v = 0; v < nv; v++)
        if (tm_net_kind(net, v) == TM_VERTEX_HOST && i++ % every == 0)
            hosts[n++] = v;
    for (int b = 0; b < 2; b++) {
        tm_netdist *d;
        assert_tm_ok(ctx, tm__netdist_new_budget(ctx, net, hosts, n, b ? 1 : TM__NETDIST_BUDGET, &d));
        assert_string_equal(tm_netdist_kind(d), b ? "rows" : "table");
        assert_int_equal(tm_netdist_n(d), n);
        for (int32_t x = 0; x < n; x++)
            for (int32_t y = 0; y < n; y++)
                if (tm_netdist_hops(d, x, y) != (x == y ? 0 : fx_hops(net, hosts[x], hosts[y])))
                    fail_msg("hosts %d,%d: oracle %d, bfs %d", x, y, tm_netdist_hops(d, x, y),
                             fx_hops(net, hosts[x], hosts[y]));
        assert_true(tm_netdist_bytes(d) > 0);
        tm_netdist_free(d);
    }
    free(hosts);
}

static void test_generated(void **state)
{
    static const char *specs[] = {"fattree:k=4,n=3", "fattree:k=2,n=4", "clos2:leaves=4,spines=2,hosts_per_leaf=4",
                                  "torus:4x4x4", "torus:2x3", "mesh:3x5", "hypercube:4",
                                  "dragonfly:h=2", "percs:supernodes=3"};
    (void)state;
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        tm_net *net = gen(specs[k]);
        check_all_pairs(net, 1);
        check_all_pairs(net, 3);
        tm_net_free(net);
    }
}

/* star: 3 hosts on one switch are 2 hops apart (hand-computed) */
static void test_star(void **state)
{
    tm_net *net;
    int32_t s, h[3];
    tm_netdist *d;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "sw", TM_VERTEX_SWITCH, 0, &s));
    for (int i = 0; i < 3; i++) {
        char name[8];
        snprintf(name, sizeof name, "h%d", i);
        assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, name, TM_VERTEX_HOST, 1, &h[i]));
        assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s, h[i], 1.0, NULL));
    }
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_netdist_new(ctx, net, h, 3, &d));
    assert_int_equal(tm_netdist_hops(d, 0, 1), 2);
    assert_int_equal(tm_netdist_hops(d, 2, 2), 0);
    tm_netdist_free(d);
    tm_net_free(net);
}

/* A host on two switches (own class), a failed cable, transit hosts. */
static void test_hand_made(void **state)
{
    tm_net *net;
    int32_t s0, s1, s2, a, b, c, x, cable;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "s0", TM_VERTEX_SWITCH, 0, &s0));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "s1", TM_VERTEX_SWITCH, 0, &s1));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "s2", TM_VERTEX_SWITCH, 0, &s2));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "a", TM_VERTEX_HOST, 1, &a));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "b", TM_VERTEX_HOST, 1, &b));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "c", TM_VERTEX_HOST, 1, &c));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "x", TM_VERTEX_HOST, 1, &x));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s0, s1, 1, &cable));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s1, s2, 1, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, a, s0, 1, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, a, s0, 1, NULL)); /* parallel cable */
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, b, s0, 1, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, b, s2, 1, NULL)); /* b on two switches */
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, c, s2, 1, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, x, s1, 1, NULL));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    check_all_pairs(net, 1);
    tm_net_set_cable_enabled(net, cable, false);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    check_all_pairs(net, 1);
    tm_net_free(net);
    /* no switches: hosts are transit */
    net = fx_torus(ctx, 3, 2, 1);
    check_all_pairs(net, 1);
    tm_net_free(net);
}

/* two components: -1 across */
static void test_unreachable(void **state)
{
    tm_net *net;
    int32_t s0, s1, h[2];
    tm_netdist *d;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "s0", TM_VERTEX_SWITCH, 0, &s0));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "s1", TM_VERTEX_SWITCH, 0, &s1));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "h0", TM_VERTEX_HOST, 1, &h[0]));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "h1", TM_VERTEX_HOST, 1, &h[1]));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s0, h[0], 1, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s1, h[1], 1, NULL));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    for (int b = 0; b < 2; b++) {
        assert_tm_ok(ctx, tm__netdist_new_budget(ctx, net, h, 2, b ? 2 : TM__NETDIST_BUDGET, &d));
        assert_int_equal(tm_netdist_hops(d, 0, 1), -1);
        assert_int_equal(tm_netdist_hops(d, 0, 0), 0);
        tm_netdist_free(d);
    }
    assert_tm_ok(ctx, tm_netdist_new(ctx, net, h, 1, &d));
    assert_int_equal(tm_netdist_n(d), 1);
    tm_netdist_free(d);
    tm_net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generated),
        cmocka_unit_test(test_star),
        cmocka_unit_test(test_hand_made),
        cmocka_unit_test(test_unreachable),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
