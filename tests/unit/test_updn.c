/* test_updn.c - `--routing updn` (OpenSM's Up/Down engine, emulated):
 * link loads on a hand-made fabric with a cycle, where min-hop takes a
 * down -> up turn and updn must not (worked out by hand below); every
 * pair of generated fat-trees delivered on a minimal path; the real
 * PlaFRIM fabric with its two spines as roots: every pair delivered,
 * within diameter + 2 hops, and no path turns from down to up under
 * OpenSM's direction rule; plafrim2's subnets with automatic roots; root
 * errors. */
#include "test_fixtures.h"
#include "route_fixtures.h"

#define PLAFRIM "data/ibnetdiscover_p/plafrim/ib-subnet-fe80_0000_0000_0000.txt"
#define PLAFRIM2 "data/ibnetdiscover_p/plafrim2/ib-subnet-fe80_0000_0000_000"

static void add(tm_net *net, const char *name, tm_vertex_kind kind)
{
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, name, kind, kind == TM_VERTEX_HOST, NULL));
}

static void cable(tm_net *net, const char *a, const char *b)
{
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, tm_net_find(net, a), tm_net_find(net, b), 100,
                                       NULL));
}

/* Root R; R - P - A and R - Q - B, host h1 on A, h2 on B, and a switch C
 * under both A and B.  Ranks from R: P, Q 1; A, B 2; C 3.  h1 -> h2:
 * min-hop takes A -> C -> B (4 hops): A -> C goes down (rank 2 -> 3) and
 * C -> B up: illegal for updn.  updn's BFS from B never lets C hand B's
 * routes up to A, so A only reaches B over P: h1 -> A -> P -> R -> Q -> B
 * -> h2, 6 hops, 1 unit on each of those links and none on A -> C. */
static tm_net *cycle_fabric(void)
{
    static const char *const sw[] = {"R", "P", "Q", "A", "B", "C"};
    tm_net *net;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    add(net, "h1", TM_VERTEX_HOST);
    add(net, "h2", TM_VERTEX_HOST);
    for (int i = 0; i < 6; i++)
        add(net, sw[i], TM_VERTEX_SWITCH);
    cable(net, "h1", "A");
    cable(net, "h2", "B");
    cable(net, "R", "P");
    cable(net, "R", "Q");
    cable(net, "P", "A");
    cable(net, "Q", "B");
    cable(net, "A", "C");
    cable(net, "C", "B");
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    return net;
}

static tm_route *updn_router(const tm_net *net, const int32_t *roots, int32_t n)
{
    tm_route *r;
    tm_route_opts o = TM_ROUTE_OPTS_INIT;
    o.roots = roots;
    o.n_roots = n;
    assert_tm_ok(ctx, tm_route_new_opts(ctx, net, TM_ROUTE_UPDN, &o, &r));
    return r;
}

static void test_cycle_by_hand(void **state)
{
    static const char *const src[] = {"h1"}, *const dst[] = {"h2"};
    static const char *const path[] = {"h1", "A", "P", "R", "Q", "B", "h2"};
    tm_net *net = cycle_fabric();
    int32_t root = tm_net_find(net, "R");
    tm_route *r = updn_router(net, &root, 1);
    tm_route_ws *ws;
    double *up = flows_loads(r, src, dst, 1), total = 0;
    double *mh = route_loads(net, TM_ROUTE_MINHOP, src, dst, 1);
    (void)state;
    assert_true(mh[link_of(net, "A", "C")] == 1);
    assert_true(mh[link_of(net, "C", "B")] == 1);
    for (int i = 0; i + 1 < 7; i++)
        assert_true(up[link_of(net, path[i], path[i + 1])] == 1);
    for (int32_t l = 0; l < tm_net_csr_get(net)->n_links; l++)
        total += up[l];
    assert_true(total == 6);
    assert_true(up[link_of(net, "A", "C")] == 0);
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    assert_int_equal(tm_route_hops(r, ws, 0, 1), 6);
    assert_int_equal(tm_route_hops(r, ws, 1, 0), 6); /* the way back, the same links reversed */
    tm_route_ws_free(ws);
    free(up);
    free(mh);
    tm_route_free(r);
    tm_net_free(net);
}

/* Without roots, OpenSM's rule picks R and C (each sees both hosts at one
 * distance); C is then a root and A -> C -> B goes up, then down: legal,
 * and the 4-hop path is taken. */
static void test_cycle_auto_roots(void **state)
{
    static const char *const src[] = {"h1"}, *const dst[] = {"h2"};
    tm_net *net = cycle_fabric();
    double *up = route_loads(net, TM_ROUTE_UPDN, src, dst, 1);
    (void)state;
    assert_true(up[link_of(net, "A", "C")] == 1);
    assert_true(up[link_of(net, "A", "P")] == 0);
    free(up);
    tm_net_free(net);
}

/* The path of one flow src -> dst, read back from its loads: the vertex
 * sequence into path (returns its length). */
static int32_t path_of(const tm_route *r, tm_route_ws *ws, int32_t s, int32_t t, double *load,
                       int32_t *path)
{
    const tm_net_csr *g = tm_net_csr_get(tm_route_net(r));
    double vol = 1;
    int32_t n = 0, v = s;
    memset(load, 0, (size_t)g->n_links * sizeof *load);
    assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, s, 1, &t, &vol, load, NULL));
    path[n++] = s;
    while (v != t) {
        int32_t next = -1;
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++)
            if (load[g->link[j]] > 0)
                next = g->head[j];
        assert_true(next >= 0 && n < g->n);
        path[n++] = v = next;
    }
    return n;
}

/* Is the step a -> b up under OpenSM's rule (updn_get_dir)? */
static bool is_up(const tm_net *net, const int32_t *rank, int32_t a, int32_t b)
{
    if (!rank[a] && !rank[b])
        return true;
    if (rank[a] != rank[b])
        return rank[a] > rank[b];
    return tm_net_guid(net, a) > tm_net_guid(net, b);
}

/* Every ordered host pair is delivered within diameter + slack hops (or
 * exactly the min-hop distance with slack 0), and, when rank is given, no
 * path turns from down to up. */
static void route_all_pairs(const tm_route *r, const int32_t *rank, int32_t slack)
{
    const tm_net *net = tm_route_net(r);
    const tm_net_csr *g = tm_net_csr_get(net);
    tm_route *e;
    tm_route_ws *ws, *wse;
    tm_net_info info;
    int32_t n = tm_net_n_hosts(net), *path = malloc((size_t)g->n * sizeof *path);
    double *load = malloc((size_t)g->n_links * sizeof *load);
    assert_tm_ok(ctx, tm_net_info_compute(ctx, net, true, &info));
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &e));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, e, &wse));
    for (int32_t s = 0; s < n; s++)
        for (int32_t t = 0; t < n; t++) {
            int32_t h = tm_route_hops(r, ws, s, t), len;
            bool down = false;
            if (s == t)
                continue;
            if (slack)
                assert_true(h >= 2 && h <= info.diameter + slack);
            else
                assert_int_equal(h, tm_route_hops(e, wse, s, t));
            len = path_of(r, ws, s, t, load, path);
            assert_int_equal(len, h + 1);
            for (int32_t i = 1; rank && i + 2 < len; i++) {
                bool up = is_up(net, rank, path[i], path[i + 1]);
                assert_false(down && up);
                down |= !up;
            }
        }
    tm_net_info_release(&info);
    tm_route_ws_free(ws);
    tm_route_ws_free(wse);
    tm_route_free(e);
    free(path);
    free(load);
}

/* On k-ary n-trees every up-down path is minimal and the top switches
 * are OpenSM's roots. */
static void test_fattrees(void **state)
{
    static const char *const specs[] = {"fattree:k=2,n=2", "fattree:k=4,n=2", "fattree:k=4,n=3"};
    (void)state;
    for (int i = 0; i < 3; i++) {
        tm_net *net = load(specs[i]);
        tm_route *r;
        assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_UPDN, &r));
        assert_int_equal(tm_route_kind_of(r), TM_ROUTE_UPDN);
        route_all_pairs(r, NULL, 0);
        tm_route_free(r);
        tm_net_free(net);
    }
}

/* Switch ranks: BFS distance from the roots (for the turn check). */
static int32_t *ranks(const tm_net *net, const int32_t *roots, int32_t k)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    int32_t *rank = malloc((size_t)g->n * sizeof *rank), *q = malloc((size_t)g->n * sizeof *q);
    int32_t head = 0, tail = 0;
    for (int32_t v = 0; v < g->n; v++)
        rank[v] = INT32_MAX;
    for (int32_t i = 0; i < k; i++)
        rank[q[tail++] = roots[i]] = 0;
    while (head < tail) {
        int32_t v = q[head++];
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t w = g->head[j];
            if (!g->is_host[w] && rank[w] == INT32_MAX) {
                rank[w] = rank[v] + 1;
                q[tail++] = w;
            }
        }
    }
    free(q);
    return rank;
}

/* The turn check itself: min-hop's path on the cycle fabric turns from
 * down (A -> C) to up (C -> B). */
static void test_turn_check(void **state)
{
    tm_net *net = cycle_fabric();
    int32_t root = tm_net_find(net, "R"), *rank = ranks(net, &root, 1);
    int32_t a = tm_net_find(net, "A"), b = tm_net_find(net, "B"), c = tm_net_find(net, "C");
    (void)state;
    assert_false(is_up(net, rank, a, c));
    assert_true(is_up(net, rank, c, b));
    assert_true(is_up(net, rank, a, tm_net_find(net, "P")));
    free(rank);
    tm_net_free(net);
}

/* plafrim: 9 switches, no switch passes OpenSM's automatic root test
 * (an error naming --root, where OpenSM would fall back to min-hop); its
 * two spines (the Voltaire 4036 switches cabled to four leaves each) as
 * roots route every pair. */
static void test_real_plafrim(void **state)
{
    char topo[4096];
    tm_net *net;
    tm_route *r = NULL;
    int32_t roots[2], *rank;
    (void)state;
    snprintf(topo, sizeof topo, "%s", REAL_DATA(PLAFRIM));
    net = load(topo);
    assert_tm_error(ctx, tm_route_new(ctx, net, TM_ROUTE_UPDN, &r), TM_EINPUT,
                    "no switch passes OpenSM's root test");
    assert_null(r);
    roots[0] = tm_net_find(net, "S-0008f10500108500");
    roots[1] = tm_net_find(net, "S-0008f10500108548");
    r = updn_router(net, roots, 2);
    rank = ranks(net, roots, 2);
    route_all_pairs(r, rank, 2);
    free(rank);
    tm_route_free(r);
    tm_net_free(net);
}

/* plafrim2's two subnets (7 switches, and 1): OpenSM's automatic roots
 * route every pair within diameter + 2 hops. */
static void test_real_plafrim2(void **state)
{
    (void)state;
    for (int sn = 0; sn < 2; sn++) {
        char topo[4096], rel[128];
        tm_net *net;
        tm_route *r;
        snprintf(rel, sizeof rel, "%s%d.txt", PLAFRIM2, sn);
        snprintf(topo, sizeof topo, "%s", REAL_DATA(rel));
        net = load(topo);
        assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_UPDN, &r));
        route_all_pairs(r, NULL, 2);
        tm_route_free(r);
        tm_net_free(net);
    }
}

static void test_root_errors(void **state)
{
    tm_net *net = cycle_fabric();
    tm_route *r = NULL;
    tm_route_opts o = TM_ROUTE_OPTS_INIT;
    int32_t host = tm_net_find(net, "h1");
    (void)state;
    o.roots = &host;
    o.n_roots = 1;
    assert_tm_error(ctx, tm_route_new_opts(ctx, net, TM_ROUTE_UPDN, &o, &r), TM_EUSAGE,
                    "is not a switch");
    assert_tm_error(ctx, tm_route_new_opts(ctx, net, TM_ROUTE_MINHOP, &o, &r), TM_EUSAGE,
                    "updn routing only");
    assert_null(r);
    assert_int_equal(tm_route_kind_parse("updn"), TM_ROUTE_UPDN);
    assert_string_equal(tm_route_kind_name(TM_ROUTE_UPDN), "updn");
    tm_net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_root_errors),
        cmocka_unit_test(test_cycle_by_hand),
        cmocka_unit_test(test_cycle_auto_roots),
        cmocka_unit_test(test_turn_check),
        cmocka_unit_test(test_fattrees),
        cmocka_unit_test(test_real_plafrim),
        cmocka_unit_test(test_real_plafrim2),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
