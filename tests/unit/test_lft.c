/* test_lft.c - forwarding-table routing (--routing lft:DIR with and
 * without --lmc-spread, and the emulated OpenSM engines ftree and minhop):
 * link loads
 * on a hand-made fabric whose tables put two flows on one uplink (worked
 * out by hand below), the LIDs and port numbers the ibnetdiscover reader
 * keeps, error messages of broken tables, and every host pair of the real
 * PlaFRIM fabrics routed over their real tables. */
#include <math.h>

#include "test_fixtures.h"
#include "route_fixtures.h"

#define PLAFRIM "data/ibnetdiscover_p/plafrim/ib-subnet-fe80_0000_0000_0000.txt"
#define PLAFRIM2 "data/ibnetdiscover_p/plafrim2/ib-subnet-fe80_0000_0000_000"

static void test_kind_names(void **state)
{
    (void)state;
    assert_int_equal(tm_route_kind_parse("lft"), TM_ROUTE_LFT);
    assert_int_equal(tm_route_kind_parse("ftree"), TM_ROUTE_FTREE);
    assert_int_equal(tm_route_kind_parse("minhop"), TM_ROUTE_MINHOP);
    assert_string_equal(tm_route_kind_name(TM_ROUTE_MINHOP), "minhop");
    assert_int_equal(tm_route_kind_parse("lft:x"), -1);
}

static void test_reader_keeps_lids(void **state)
{
    tm_net *net = load(TEST_DATA("route/lft2/fabric.txt"));
    int32_t port, pa, pb, l = link_of(net, "leaf1", "spine2");
    int lmc;
    (void)state;
    assert_int_equal(tm_net_lid(net, tm_net_find(net, "c"), &lmc), 3);
    assert_int_equal(lmc, 0);
    assert_int_equal(tm_net_lid(net, tm_net_find(net, "spine1"), NULL), 20);
    assert_int_equal(tm_net_lid_owner(net, 11, &port), tm_net_find(net, "leaf2"));
    assert_int_equal(port, 0);
    assert_int_equal(tm_net_lid_owner(net, 5, NULL), -1);
    tm_net_cable_ports(net, l >> 1, &pa, &pb);
    /* leaf1 port 4 -> spine2 port 1, whichever end the cable starts at */
    assert_int_equal(l & 1 ? pb : pa, 4);
    assert_int_equal(l & 1 ? pa : pb, 1);
    tm_net_free(net);
}

/* a -> c and b -> d, 1 unit each.  leaf1's table sends LIDs 3 and 4 both
 * out of port 3 (spine1), so leaf1 -> spine1 and spine1 -> leaf2 carry 2
 * and leaf1 -> spine2 nothing; ECMP would put 1 on each uplink. */
static void test_two_flows_one_uplink(void **state)
{
    tm_net *net = load(TEST_DATA("route/lft2/fabric.txt"));
    const tm_net_csr *g = tm_net_csr_get(net);
    tm_route *r, *e;
    tm_route_ws *ws, *wse;
    double *load = calloc((size_t)g->n_links, sizeof *load);
    double *eload = calloc((size_t)g->n_links, sizeof *eload), vol = 1, total = 0;
    int32_t a = tm_net_find(net, "a"), b = tm_net_find(net, "b");
    int32_t c = tm_net_find(net, "c"), d = tm_net_find(net, "d"), hops;
    (void)state;
    assert_tm_ok(ctx, tm_route_new_lft(ctx, net, TEST_DATA("route/lft2/tables"), &r));
    assert_int_equal(tm_route_kind_of(r), TM_ROUTE_LFT);
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, a, 1, &c, &vol, load, &hops));
    assert_int_equal(hops, 4);
    assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, b, 1, &d, &vol, load, NULL));
    assert_true(load[link_of(net, "leaf1", "spine1")] == 2);
    assert_true(load[link_of(net, "spine1", "leaf2")] == 2);
    assert_true(load[link_of(net, "leaf1", "spine2")] == 0);
    assert_true(load[link_of(net, "a", "leaf1")] == 1);
    assert_true(load[link_of(net, "leaf2", "d")] == 1);
    for (int32_t l = 0; l < g->n_links; l++)
        total += load[l];
    assert_true(total == 8); /* two 4-hop paths, nothing else */
    assert_int_equal(tm_route_hops(r, ws, a, b), 2);
    assert_int_equal(tm_route_hops(r, ws, d, a), 4);
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &e));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, e, &wse));
    assert_tm_ok(ctx, tm_route_flows(ctx, e, wse, a, 1, &c, &vol, eload, NULL));
    assert_tm_ok(ctx, tm_route_flows(ctx, e, wse, b, 1, &d, &vol, eload, NULL));
    assert_true(eload[link_of(net, "leaf1", "spine1")] == 1);
    assert_true(eload[link_of(net, "leaf1", "spine2")] == 1);
    tm_route_ws_free(wse);
    tm_route_free(e);
    tm_route_ws_free(ws);
    tm_route_free(r);
    free(load);
    free(eload);
    tm_net_free(net);
}

/* A flow fails with the file and line of the entry at fault; a failed
 * flow loads nothing. */
static void expect_flow_error(const char *dir, const char *needle)
{
    tm_net *net = load(TEST_DATA("route/lft2/fabric.txt"));
    tm_route *r;
    tm_route_ws *ws;
    double load[32] = {0}, vol = 1;
    int32_t a = tm_net_find(net, "a"), c = tm_net_find(net, "c");
    assert_tm_ok(ctx, tm_route_new_lft(ctx, net, dir, &r));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    assert_tm_error(ctx, tm_route_flows(ctx, r, ws, a, 1, &c, &vol, load, NULL), TM_EINPUT,
                    needle);
    for (int i = 0; i < 32; i++)
        assert_true(load[i] == 0);
    assert_int_equal(tm_route_hops(r, ws, a, c), -1);
    tm_route_ws_free(ws);
    tm_route_free(r);
    tm_net_free(net);
}

static void test_flow_errors(void **state)
{
    char dir[4096];
    static const char *const cases[][2] = {
        {"missing-table", "ibroute-10.txt:6: switch 'leaf1' forwards LID 3 (host 'c') to switch "
                          "'spine1', which has no forwarding table"},
        {"first-missing", "switch 'leaf1', the first hop of host 'a', has no forwarding table"},
        {"no-cable", "ibroute-10.txt:6: switch 'leaf1' forwards LID 3 (host 'c') out of port 7, "
                     "which has no cable"},
        {"loop", "ibroute-20.txt:6: forwarding loop: LID 3 (host 'c')"},
        {"no-entry", "ibroute-10.txt:1: switch 'leaf1' has no entry for LID 3"},
        /* the same tables ending with ibroute's iberror line: read with warnings, and the
         * LID a flow needs is still missing (docs/routing.md "Tool diagnostics") */
        {"no-entry-iberror", "ibroute-10.txt:1: switch 'leaf1' has no entry for LID 3"},
        {"conflict", "ibroute-10.txt:12: switch 'leaf1' has conflicting entries for LID 3"},
        {"wrong-host",
         "ibroute-11.txt:6: LID 3 (host 'c') is delivered to 'd', which does not own"},
        {"port0", "ibroute-11.txt:6: switch 'leaf2' claims as its own (port 0) LID 3"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(dir, sizeof dir, "%s", TEST_DATA("bad/lft/"));
        strncat(dir, cases[i][0], sizeof dir - strlen(dir) - 1);
        expect_flow_error(dir, cases[i][1]);
    }
}

static void test_read_errors(void **state)
{
    tm_net *net = load(TEST_DATA("route/lft2/fabric.txt"));
    tm_route *r = NULL;
    (void)state;
    assert_tm_error(ctx, tm_route_new_lft(ctx, net, TEST_DATA("bad/lft/row"), &r), TM_EINPUT,
                    "x.txt:6: malformed entry");
    assert_tm_error(ctx, tm_route_new_lft(ctx, net, TEST_DATA("bad/lft/twice"), &r), TM_EINPUT,
                    "z.txt:1: second table for switch 'leaf1'");
    assert_tm_error(ctx, tm_route_new_lft(ctx, net, TEST_DATA("bad/lft/lid-mismatch"), &r),
                    TM_EINPUT, "has LID 10 in the topology, but LID 12 here");
    assert_tm_error(ctx, tm_route_new_lft(ctx, net, TEST_DATA("no/such/dir"), &r), TM_EIO,
                    "cannot open");
    assert_tm_error(ctx, tm_route_new(ctx, net, TM_ROUTE_LFT, &r), TM_EUSAGE, "directory");
    assert_null(r);
    tm_net_free(net);
}

static void test_host_without_lid(void **state)
{
    tm_net *net = load(TEST_DATA("route/lft2/fabric-nolid-c.txt"));
    tm_route *r;
    tm_route_ws *ws;
    double load[32] = {0}, vol = 1;
    int32_t a = tm_net_find(net, "a"), c = tm_net_find(net, "c");
    (void)state;
    assert_tm_ok(ctx, tm_route_new_lft(ctx, net, TEST_DATA("route/lft2/tables"), &r));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    assert_tm_error(ctx, tm_route_flows(ctx, r, ws, a, 1, &c, &vol, load, NULL), TM_EINPUT,
                    "host 'c' has no LID");
    tm_route_ws_free(ws);
    tm_route_free(r);
    tm_net_free(net);
}

/* ---- --lmc-spread ------------------------------------------------------------
 * tests/data/route/lmc1 (make-lmc-fixtures.py): hosts have LMC 1, every
 * base LID comes down spine1 and every second LID down spine2.  a -> c
 * and b -> d, 1 unit each.  Base LIDs only: both climb leaf1 -> spine1
 * (load 2), leaf1 -> spine2 idle.  Spread: each flow puts 1/2 on LID
 * base (spine1) and 1/2 on LID base+1 (spine2): every uplink and downlink
 * carries 1/2 + 1/2 = 1; the host cables carry their flow's 1. */
static tm_route *lmc_router(const tm_net *net, const char *dir, bool spread)
{
    tm_route *r;
    tm_route_opts o = TM_ROUTE_OPTS_INIT;
    o.lft_dir = dir;
    o.lmc_spread = spread;
    assert_tm_ok(ctx, tm_route_new_opts(ctx, net, TM_ROUTE_LFT, &o, &r));
    return r;
}

static void test_lmc_spread_by_hand(void **state)
{
    static const char *const src[] = {"a", "b"}, *const dst[] = {"c", "d"};
    tm_net *net = load(TEST_DATA("route/lmc1/fabric.txt"));
    tm_route *base = lmc_router(net, TEST_DATA("route/lmc1/tables"), false);
    tm_route *spread = lmc_router(net, TEST_DATA("route/lmc1/tables"), true);
    double *lb = flows_loads(base, src, dst, 2), *ls = flows_loads(spread, src, dst, 2);
    double *one = flows_loads(spread, src, dst, 1), total = 0;
    int lmc;
    (void)state;
    assert_int_equal(tm_net_lid(net, tm_net_find(net, "c"), &lmc), 6);
    assert_int_equal(lmc, 1);
    assert_true(lb[link_of(net, "leaf1", "spine1")] == 2);
    assert_true(lb[link_of(net, "leaf1", "spine2")] == 0);
    assert_true(ls[link_of(net, "leaf1", "spine1")] == 1);
    assert_true(ls[link_of(net, "leaf1", "spine2")] == 1);
    assert_true(ls[link_of(net, "spine1", "leaf2")] == 1);
    assert_true(ls[link_of(net, "spine2", "leaf2")] == 1);
    assert_true(ls[link_of(net, "a", "leaf1")] == 1);
    assert_true(ls[link_of(net, "leaf2", "d")] == 1);
    for (int32_t l = 0; l < tm_net_csr_get(net)->n_links; l++)
        total += ls[l];
    assert_true(total == 8); /* still two 4-hop flows of 1 */
    /* a -> c alone: half of it on each spine */
    assert_true(one[link_of(net, "leaf1", "spine1")] == 0.5);
    assert_true(one[link_of(net, "spine2", "leaf2")] == 0.5);
    assert_true(one[link_of(net, "leaf2", "c")] == 1);
    free(lb);
    free(ls);
    free(one);
    tm_route_free(base);
    tm_route_free(spread);
    tm_net_free(net);
}

/* A table without the entry of an extra LID fails only the spread flows,
 * with file:line; --lmc-spread is refused by the other models. */
static void test_lmc_spread_errors(void **state)
{
    tm_net *net = load(TEST_DATA("route/lmc1/fabric.txt"));
    tm_route *ok = lmc_router(net, TEST_DATA("bad/lft/lmc-missing"), false);
    tm_route *r = lmc_router(net, TEST_DATA("bad/lft/lmc-missing"), true), *none = NULL;
    tm_route_opts o = TM_ROUTE_OPTS_INIT;
    tm_route_ws *ws;
    double load[32] = {0}, vol = 1;
    int32_t a = tm_net_find(net, "a"), c = tm_net_find(net, "c");
    (void)state;
    free(flows_loads(ok, (const char *const[]){"a"}, (const char *const[]){"c"}, 1));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    assert_tm_error(ctx, tm_route_flows(ctx, r, ws, a, 1, &c, &vol, load, NULL), TM_EINPUT,
                    "ibroute-10.txt:1: switch 'leaf1' has no entry for LID 7 (host 'c')");
    for (int i = 0; i < 32; i++)
        assert_true(load[i] == 0);
    o.lmc_spread = true;
    assert_tm_error(ctx, tm_route_new_opts(ctx, net, TM_ROUTE_MINHOP, &o, &none), TM_EUSAGE,
                    "lmc_spread needs forwarding-table routing (lft, with lft_dir)");
    assert_null(none);
    tm_route_ws_free(ws);
    tm_route_free(r);
    tm_route_free(ok);
    tm_net_free(net);
}

/* Routes every ordered host pair; returns how many failed.  Each failure
 * must name `bad_file` (NULL: none may fail); every delivered pair takes
 * at most diameter + 1 hops (a loop would be an error). */
static int32_t route_all(const char *topo, const char *dir, const char *bad_file)
{
    tm_net *net = load(topo);
    tm_net_info info;
    tm_route *r;
    tm_route_ws *ws;
    int32_t n = tm_net_n_hosts(net), failed = 0, hops;
    double *load = calloc((size_t)tm_net_csr_get(net)->n_links, sizeof *load), vol = 1;
    assert_tm_ok(ctx, tm_net_info_compute(ctx, net, true, &info));
    assert_tm_ok(ctx, tm_route_new_lft(ctx, net, dir, &r));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    for (int32_t s = 0; s < n; s++)
        for (int32_t t = 0; t < n; t++) {
            tm_err err = tm_route_flows(ctx, r, ws, s, 1, &t, &vol, load, &hops);
            if (err) {
                if (!bad_file || !strstr(tm_ctx_errmsg(ctx), bad_file))
                    fail_msg("%s -> %s: %s", tm_net_name(net, s), tm_net_name(net, t),
                             tm_ctx_errmsg(ctx));
                failed++;
                continue;
            }
            assert_true(s == t ? hops == 0 : hops >= 2 && hops <= info.diameter + 1);
            assert_int_equal(tm_route_hops(r, ws, s, t), hops);
        }
    tm_net_info_release(&info);
    tm_route_ws_free(ws);
    tm_route_free(r);
    free(load);
    tm_net_free(net);
    return failed;
}

static void test_real_plafrim(void **state)
{
    char topo[4096];
    (void)state;
    snprintf(topo, sizeof topo, "%s", REAL_DATA(PLAFRIM));
    assert_int_equal(route_all(topo, REAL_DATA("data/ibroute_lft/plafrim"), NULL), 0);
}

/* plafrim2 subnet 0: the table of switch LID 60 is damaged (PROVENANCE):
 * exactly the pairs that need its broken entries fail, naming it. */
static void test_real_plafrim2(void **state)
{
    char topo[4096];
    int32_t failed;
    (void)state;
    snprintf(topo, sizeof topo, "%s", REAL_DATA(PLAFRIM2 "0.txt"));
    failed = route_all(topo, REAL_DATA("data/ibroute_lft/plafrim2"), "0000-60.txt");
    assert_true(failed > 0 && failed < 96 * 95 / 2);
    snprintf(topo, sizeof topo, "%s", REAL_DATA(PLAFRIM2 "1.txt"));
    assert_int_equal(route_all(topo, REAL_DATA("data/ibroute_lft/plafrim2"), NULL), 0);
}

/* ---- emulated OpenSM engines ----------------------------------------------- */

/* 2-ary 2-tree: leaves L0 (n0, n1), L1 (n2, n3), spines S0, S1; no LIDs in
 * the net, so LIDs are n0..n3 = 1..4 and ports follow cable order.
 * OpenSM ftree, by hand: leaf L0 routes its hosts first: n0 takes the up
 * group with the fewest down routes, S0 (tie: lower index); n1 then S1.
 * L1 likewise: n2 -> S0, n3 -> S1 (the counters live on each leaf's up
 * groups), i.e. destination d comes down through spine d mod 2.  From L1,
 * n0 is reached through S0 and n1 through S1 (the up route is the
 * spine that routes d down).  So n0 -> n2 and n1 -> n2 both climb L0 ->
 * S0 (load 2, L0 -> S1 idle), n0 -> n3 and n1 -> n3 both L0 -> S1; ECMP
 * would put 1 on each uplink.  min-hop gives the same tables here: each
 * switch takes the least-used least-hop port, lowest number first. */
static void test_ftree_minhop_by_hand(void **state)
{
    tm_net *net = load("fattree:k=2,n=2");
    static const char *const src[] = {"n0000", "n0001"}, *const to2[] = {"n0002", "n0002"};
    static const char *const to3[] = {"n0003", "n0003"};
    static const tm_route_kind kinds[] = {TM_ROUTE_FTREE, TM_ROUTE_MINHOP};
    (void)state;
    for (int i = 0; i < 2; i++) {
        double *a = route_loads(net, kinds[i], src, to2, 2);
        double *b = route_loads(net, kinds[i], src, to3, 2);
        assert_true(a[link_of(net, "sw-l1-000", "sw-l2-000")] == 2);
        assert_true(a[link_of(net, "sw-l1-000", "sw-l2-001")] == 0);
        assert_true(a[link_of(net, "sw-l2-000", "sw-l1-001")] == 2);
        assert_true(a[link_of(net, "sw-l1-001", "n0002")] == 2);
        assert_true(b[link_of(net, "sw-l1-000", "sw-l2-001")] == 2);
        assert_true(b[link_of(net, "sw-l1-000", "sw-l2-000")] == 0);
        free(a);
        free(b);
    }
    tm_net_free(net);
}

/* D-mod-k on a 4-ary 3-tree: every shift permutation i -> i + s (mod 64)
 * is routed without two flows on one cable (the property D-mod-k is
 * known for), and every path is minimal. */
static void test_ftree_shifts(void **state)
{
    tm_net *net = load("fattree:k=4,n=3");
    const tm_net_csr *g = tm_net_csr_get(net);
    tm_route *r;
    tm_route_ws *ws;
    double vol = 1, *load = malloc((size_t)g->n_links * sizeof *load);
    int32_t hops;
    (void)state;
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_FTREE, &r));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    for (int32_t s = 1; s < 64; s++) {
        memset(load, 0, (size_t)g->n_links * sizeof *load);
        for (int32_t i = 0; i < 64; i++) {
            int32_t t = (i + s) % 64;
            assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, i, 1, &t, &vol, load, &hops));
            assert_int_equal(hops, i / 16 != t / 16 ? 6 : i / 4 != t / 4 ? 4 : 2);
        }
        for (int32_t l = 0; l < g->n_links; l++)
            assert_true(load[l] <= 1);
    }
    tm_route_ws_free(ws);
    tm_route_free(r);
    free(load);
    tm_net_free(net);
}

/* ftree refuses what is not a fat-tree; minhop routes any fabric, here
 * the real plafrim one (irregular), every pair minimal. */
static void test_sm_on_real_fabric(void **state)
{
    char topo[4096];
    tm_net *net;
    tm_route *r = NULL;
    (void)state;
    snprintf(topo, sizeof topo, "%s", REAL_DATA(PLAFRIM));
    net = load(topo);
    assert_tm_error(ctx, tm_route_new(ctx, net, TM_ROUTE_FTREE, &r), TM_EINPUT, "not a fat-tree");
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_MINHOP, &r));
    {
        tm_route *e;
        tm_route_ws *ws, *wse;
        int32_t n = tm_net_n_hosts(net);
        assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &e));
        assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
        assert_tm_ok(ctx, tm_route_ws_new(ctx, e, &wse));
        for (int32_t s = 0; s < n; s++)
            for (int32_t t = 0; t < n; t++)
                assert_int_equal(tm_route_hops(r, ws, s, t), tm_route_hops(e, wse, s, t));
        tm_route_ws_free(ws);
        tm_route_ws_free(wse);
        tm_route_free(e);
    }
    tm_route_free(r);
    tm_net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind_names),
        cmocka_unit_test(test_reader_keeps_lids),
        cmocka_unit_test(test_two_flows_one_uplink),
        cmocka_unit_test(test_flow_errors),
        cmocka_unit_test(test_read_errors),
        cmocka_unit_test(test_host_without_lid),
        cmocka_unit_test(test_lmc_spread_by_hand),
        cmocka_unit_test(test_lmc_spread_errors),
        cmocka_unit_test(test_real_plafrim),
        cmocka_unit_test(test_real_plafrim2),
        cmocka_unit_test(test_ftree_minhop_by_hand),
        cmocka_unit_test(test_ftree_shifts),
        cmocka_unit_test(test_sm_on_real_fabric),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
