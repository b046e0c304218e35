/* test_net.c - the host network model: building, finalizing, CSR links,
 * transit defaults, connectivity check and parts, info (degrees, diameter). */
#include <math.h>

#include "test_fixtures.h"
#include "topomap/route.h"
#include "util/util.h"

/* sw - h0, sw - h1 (two parallel cables), h2 isolated */
static tm_net *small_net(bool isolated)
{
    tm_net *net;
    int32_t sw, h0, h1, h2;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "sw", TM_VERTEX_SWITCH, 0, &sw));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "h0", TM_VERTEX_HOST, 2, &h0));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "h1", TM_VERTEX_HOST, 4, &h1));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, sw, h0, 100, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, sw, h1, 100, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, h1, sw, 25, NULL));
    if (isolated)
        assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "h2", TM_VERTEX_HOST, 1, &h2));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    return net;
}

static void test_bad_vertices(void **state)
{
    tm_net *net;
    int32_t a;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_error(ctx, tm_net_add_vertex(ctx, net, "", TM_VERTEX_HOST, 1, NULL), TM_EINPUT, "empty");
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "a", TM_VERTEX_HOST, 1, &a));
    assert_tm_error(ctx, tm_net_add_vertex(ctx, net, "a", TM_VERTEX_HOST, 1, NULL), TM_EINPUT,
                    "duplicate vertex name 'a'");
    assert_tm_error(ctx, tm_net_add_cable(ctx, net, a, a, 1, NULL), TM_EINPUT, "to itself");
    assert_tm_error(ctx, tm_net_add_vertex(ctx, net, "b", TM_VERTEX_HOST, -1, NULL), TM_EINPUT, "negative");
    tm_net_free(net);
    tm_net_free(NULL);
}

static void test_csr(void **state)
{
    tm_net *net = small_net(false);
    const tm_net_csr *g = tm_net_csr_get(net);
    (void)state;
    assert_non_null(g);
    assert_int_equal(g->n, 3);
    assert_int_equal(g->n_links, 6);
    assert_int_equal(g->off[1] - g->off[0], 3); /* switch has 3 cables */
    assert_int_equal(g->tail_of[4], tm_net_find(net, "h1"));
    assert_int_equal(g->head_of[4], tm_net_find(net, "sw"));
    assert_true(g->cap[5] == 25.0);
    /* network with switches: hosts are not transit */
    assert_true(g->transit[0]);
    assert_false(g->transit[1]);
    assert_int_equal(tm_net_total_slots(net), 6);
    assert_int_equal(tm_net_find(net, "h1"), 2);
    assert_int_equal(tm_net_find(net, "nope"), -1);
    assert_tm_ok(ctx, tm_net_check(ctx, net));
    tm_net_free(net);
}

/* An isolated host is a part of its own (a failed cable): the network is
 * accepted, and the parts say which hosts can work together. */
static void test_unreachable(void **state)
{
    tm_net *net = small_net(true);
    tm_net_info info;
    (void)state;
    assert_tm_ok(ctx, tm_net_check(ctx, net));
    assert_int_equal(tm_net_n_parts(net), 2);
    assert_int_equal(tm_net_part(net, tm_net_find(net, "sw")), 0);
    assert_int_equal(tm_net_part(net, tm_net_find(net, "h1")), 0);
    assert_int_equal(tm_net_part(net, tm_net_find(net, "h2")), 1);
    assert_tm_ok(ctx, tm_net_info_compute(ctx, net, true, &info));
    assert_int_equal(info.parts, 2);
    assert_int_equal(info.part_hosts[0], 2);
    assert_int_equal(info.part_hosts[1], 1);
    assert_string_equal(tm_net_name(net, info.part_first_host[0]), "h0");
    assert_string_equal(tm_net_name(net, info.part_first_host[1]), "h2");
    assert_int_equal(info.diameter, 2);
    /* h1 has two parallel cables: degree 2; the switch has 3 */
    assert_int_equal(info.host_degree.min, 0);
    assert_int_equal(info.host_degree.max, 2);
    assert_true(info.host_degree.mean == 1.0);
    assert_int_equal(info.switch_degree.count, 1);
    assert_int_equal(info.switch_degree.max, 3);
    tm_net_info_release(&info);
    tm_net_free(net);
}

static int32_t uf_find(int32_t *up, int32_t v)
{
    while (up[v] != v)
        v = up[v] = up[up[v]];
    return v;
}

/* Parts (igraph) and per-part diameter against a union-find over the
 * enabled cables and hop counts of the router, on random small networks
 * with failed cables. */
/* Minimum hop count a -> b with transit inner vertices (-1: none): the
 * diameter's distance.  Not tm_route_hops: a multi-rail host's route is
 * striped over its rails and may be longer (docs/routing.md). */
static int32_t bfs_hops(const tm_net_csr *g, int32_t a, int32_t b)
{
    int32_t dist[64], queue[64], qh = 0, qt = 0;
    for (int32_t v = 0; v < g->n; v++)
        dist[v] = -1;
    dist[a] = 0;
    queue[qt++] = a;
    while (qh < qt) {
        int32_t v = queue[qh++];
        if (v == b)
            return dist[v];
        if (v != a && !g->transit[v])
            continue;
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++)
            if (dist[g->head[j]] < 0) {
                dist[g->head[j]] = dist[v] + 1;
                queue[qt++] = g->head[j];
            }
    }
    return -1;
}

static void test_parts_brute_force(void **state)
{
    tm__rng rng;
    (void)state;
    tm__rng_seed(&rng, 78, 1);
    for (int iter = 0; iter < 200; iter++) {
        tm_net *net;
        tm_route *r;
        tm_route_ws *ws;
        tm_net_info info;
        int32_t n = 2 + (int32_t)tm__rng_below(&rng, 12), up[16], root_part[16], nparts = 0;
        int32_t deg[16] = {0}, want_diam = 0, nc;
        char name[16];
        assert_tm_ok(ctx, tm_net_new(ctx, &net));
        for (int32_t i = 0; i < n; i++) {
            snprintf(name, sizeof name, "v%d", (int)i);
            assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, name, i % 3 == 0 ? TM_VERTEX_SWITCH
                                                                             : TM_VERTEX_HOST,
                                                i % 3 == 0 ? 0 : 1, NULL));
            up[i] = i;
            root_part[i] = -1;
        }
        nc = (int32_t)tm__rng_below(&rng, (uint64_t)(2 * n));
        for (int32_t c = 0; c < nc; c++) {
            int32_t a = (int32_t)tm__rng_below(&rng, (uint64_t)n), b = (int32_t)tm__rng_below(&rng, (uint64_t)n);
            if (a == b)
                continue;
            assert_tm_ok(ctx, tm_net_add_cable(ctx, net, a, b, 1, NULL));
            if (tm__rng_below(&rng, 4) == 0) {
                tm_net_set_cable_enabled(net, tm_net_n_cables(net) - 1, false);
                continue;
            }
            deg[a]++, deg[b]++;
            up[uf_find(up, a)] = uf_find(up, b);
        }
        assert_tm_ok(ctx, tm_net_finalize(ctx, net));
        for (int32_t v = 0; v < n; v++) {
            int32_t root = uf_find(up, v);
            if (root_part[root] < 0)
                root_part[root] = nparts++;
            assert_int_equal(tm_net_part(net, v), root_part[root]); /* numbered by smallest vertex */
        }
        assert_int_equal(tm_net_n_parts(net), nparts);
        assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &r));
        assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
        for (int32_t a = 0; a < n && want_diam >= 0; a++)
            for (int32_t b = 0; b < n && a % 3 && want_diam >= 0; b++) {
                int32_t h;
                if (b % 3 == 0 || tm_net_part(net, a) != tm_net_part(net, b))
                    continue;
                h = bfs_hops(tm_net_csr_get(net), a, b);
                want_diam = h < 0 ? -1 : h > want_diam ? h : want_diam;
            }
        if (tm_net_n_hosts(net) > 0) {
            int32_t hmin = INT32_MAX, hmax = 0, smax = 0;
            assert_tm_ok(ctx, tm_net_info_compute(ctx, net, true, &info));
            assert_int_equal(info.diameter, want_diam);
            for (int32_t v = 0; v < n; v++) {
                if (v % 3) {
                    hmin = deg[v] < hmin ? deg[v] : hmin;
                    hmax = deg[v] > hmax ? deg[v] : hmax;
                } else {
                    smax = deg[v] > smax ? deg[v] : smax;
                }
            }
            assert_int_equal(info.host_degree.min, hmin);
            assert_int_equal(info.host_degree.max, hmax);
            assert_int_equal(info.switch_degree.max, smax);
            tm_net_info_release(&info);
        }
        tm_route_ws_free(ws);
        tm_route_free(r);
        tm_net_free(net);
    }
}

static void test_info(void **state)
{
    tm_net *net = small_net(false);
    tm_net_info info;
    (void)state;
    assert_tm_ok(ctx, tm_net_info_compute(ctx, net, true, &info));
    assert_int_equal(info.hosts, 2);
    assert_int_equal(info.switches, 1);
    assert_int_equal(info.cables, 3);
    assert_int_equal(info.diameter, 2);
    assert_int_equal(info.n_capclasses, 2);
    assert_true(info.capclasses[0].capacity == 25.0);
    assert_int_equal(info.capclasses[1].cables, 2);
    tm_net_info_release(&info);
    /* a failed cable disappears from the CSR after re-finalizing */
    tm_net_set_cable_enabled(net, 1, false);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_int_equal(tm_net_csr_get(net)->off[1] - tm_net_csr_get(net)->off[0], 2);
    tm_net_free(net);
}

/* The host diameter (one BFS per switch of stub hosts) against the largest
 * hop count over all host pairs (routing's per-pair BFS) on random nets:
 * switch trees with hosts hanging off, extra and parallel cables, some
 * hosts on two switches, some host-host cables. */
static void test_diameter_brute_force(void **state)
{
    tm__rng rng;
    (void)state;
    tm__rng_seed(&rng, 77, 1);
    for (int iter = 0; iter < 200; iter++) {
        tm_net *net;
        tm_route *r;
        tm_route_ws *ws;
        tm_net_info info;
        int32_t n_sw = 1 + (int32_t)tm__rng_below(&rng, 5), n_h = 1 + (int32_t)tm__rng_below(&rng, 9);
        int32_t want = 0, hosts[16];
        char name[16];
        assert_tm_ok(ctx, tm_net_new(ctx, &net));
        for (int32_t i = 0; i < n_sw + n_h; i++) {
            int32_t id;
            snprintf(name, sizeof name, "v%d", (int)i);
            assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, name, i < n_sw ? TM_VERTEX_SWITCH
                                                                           : TM_VERTEX_HOST,
                                                i < n_sw ? 0 : 1, &id));
            if (i > 0)
                assert_tm_ok(ctx, tm_net_add_cable(ctx, net, id,
                                                   (int32_t)tm__rng_below(&rng, (uint64_t)(i < n_sw ? i : n_sw)),
                                                   1, NULL));
            if (i >= n_sw)
                hosts[i - n_sw] = id;
        }
        for (int32_t x = (int32_t)tm__rng_below(&rng, 5); x > 0; x--) {
            int32_t a = (int32_t)tm__rng_below(&rng, (uint64_t)(n_sw + n_h));
            int32_t b = (int32_t)tm__rng_below(&rng, (uint64_t)(n_sw + n_h));
            if (a != b)
                assert_tm_ok(ctx, tm_net_add_cable(ctx, net, a, b, 1, NULL));
        }
        assert_tm_ok(ctx, tm_net_finalize(ctx, net));
        assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &r));
        assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
        for (int32_t i = 0; i < n_h && want >= 0; i++)
            for (int32_t j = 0; j < n_h; j++) {
                int32_t h = bfs_hops(tm_net_csr_get(net), hosts[i], hosts[j]);
                if (h < 0) {
                    want = -1;
                    break;
                }
                want = h > want ? h : want;
            }
        assert_tm_ok(ctx, tm_net_info_compute(ctx, net, true, &info));
        assert_int_equal(info.diameter, want);
        tm_net_info_release(&info);
        tm_route_ws_free(ws);
        tm_route_free(r);
        tm_net_free(net);
    }
}

static void test_hosts_only_are_transit(void **state)
{
    tm_net *net;
    int32_t a, b, c;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "a", TM_VERTEX_HOST, 1, &a));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "b", TM_VERTEX_HOST, 1, &b));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "c", TM_VERTEX_HOST, 1, &c));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, a, b, 1, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, b, c, 1, NULL));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_true(tm_net_is_transit(net, b));
    assert_tm_ok(ctx, tm_net_check(ctx, net));
    assert_tm_ok(ctx, tm_net_set_transit(ctx, net, b, TM_TRANSIT_NO));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_error(ctx, tm_net_check(ctx, net), TM_EINPUT, "cannot be reached");
    tm_net_free(net);
}

/* Setters refuse what the adders refuse, with a message, and change
 * nothing (they used to ignore such values silently). */
static void test_setters_reject(void **state)
{
    tm_net *net = small_net(false);
    int32_t sw = tm_net_find(net, "sw"), h0 = tm_net_find(net, "h0");
    (void)state;
    assert_tm_error(ctx, tm_net_set_slots(ctx, net, h0, -1), TM_EUSAGE,
                    "vertex 'h0': negative slot count -1");
    assert_tm_error(ctx, tm_net_set_slots(ctx, net, sw, 4), TM_EUSAGE,
                    "switch 'sw' cannot have slots (4 given)");
    assert_tm_error(ctx, tm_net_set_slots(ctx, net, 3, 1), TM_EUSAGE, "vertex id 3 is not in [0, 3)");
    assert_tm_error(ctx, tm_net_set_slots(ctx, net, -1, 1), TM_EUSAGE, "vertex id -1");
    assert_int_equal(tm_net_slots(net, h0), 2);
    assert_tm_ok(ctx, tm_net_set_slots(ctx, net, sw, 0));
    assert_tm_ok(ctx, tm_net_set_slots(ctx, net, h0, 5));
    assert_int_equal(tm_net_slots(net, h0), 5);

    assert_tm_error(ctx, tm_net_set_transit(ctx, net, h0, (tm_transit)3), TM_EUSAGE,
                    "vertex 'h0': unknown transit policy 3");
    assert_tm_error(ctx, tm_net_set_transit(ctx, net, 7, TM_TRANSIT_YES), TM_EUSAGE, "vertex id 7");
    assert_int_equal(tm_net_transit_policy(net, h0), TM_TRANSIT_DEFAULT);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net)); /* set_slots un-finalized it */

    assert_tm_error(ctx, tm_net_set_capacity(ctx, net, 0, 0), TM_EUSAGE,
                    "cable 'sw' - 'h0': capacity 0 is not a number in [1e-06, 1e+15] Gbit/s");
    assert_tm_error(ctx, tm_net_set_capacity(ctx, net, 0, -5), TM_EUSAGE, "capacity -5");
    assert_tm_error(ctx, tm_net_set_capacity(ctx, net, 0, NAN), TM_EUSAGE, "capacity nan");
    assert_tm_error(ctx, tm_net_set_capacity(ctx, net, 0, 1e16), TM_EUSAGE, "capacity 1e+16");
    /* a positive but tiny capacity would make loads / capacity infinite */
    assert_tm_error(ctx, tm_net_set_capacity(ctx, net, 0, 1e-300), TM_EUSAGE, "capacity 1e-300");
    assert_tm_error(ctx, tm_net_set_capacity(ctx, net, 0, 9e-7), TM_EUSAGE, "capacity 9e-07");
    assert_tm_error(ctx, tm_net_set_capacity(ctx, net, 3, 1), TM_EUSAGE, "cable id 3 is not in [0, 3)");
    assert_true(tm_net_capacity(net, 0) == 100.0);
    /* a valid change keeps the snapshot usable (capacities are not structure) */
    assert_tm_ok(ctx, tm_net_set_capacity(ctx, net, 0, 40));
    assert_true(tm_net_csr_get(net)->cap[0] == 40.0 && tm_net_csr_get(net)->cap[1] == 40.0);
    tm_net_free(net);
}

/* Context setters: out-of-range values are TM_EUSAGE and leave the
 * previous setting in place. */
static void test_ctx_setters_reject(void **state)
{
    tm_ctx *c;
    (void)state;
    assert_int_equal(tm_ctx_new(&c), TM_EOK);
    assert_tm_ok(c, tm_ctx_set_threads(c, 3));
    assert_tm_error(c, tm_ctx_set_threads(c, -1), TM_EUSAGE, "thread count -1 is not in [0, 1024]");
    assert_tm_error(c, tm_ctx_set_threads(c, TM_CTX_MAX_THREADS + 1), TM_EUSAGE, "1025");
    assert_int_equal(tm_ctx_threads(c), 3);
    assert_tm_ok(c, tm_ctx_set_threads(c, TM_CTX_MAX_THREADS));
    assert_tm_ok(c, tm_ctx_set_threads(c, 0)); /* online cores */
    assert_in_range(tm_ctx_threads(c), 1, TM_CTX_MAX_THREADS);

    assert_tm_ok(c, tm_ctx_set_time_limit(c, 2.5));
    assert_tm_error(c, tm_ctx_set_time_limit(c, NAN), TM_EUSAGE, "time limit nan");
    assert_tm_error(c, tm_ctx_set_time_limit(c, INFINITY), TM_EUSAGE, "not a finite");
    assert_tm_error(c, tm_ctx_set_time_limit(c, -INFINITY), TM_EUSAGE, "not a finite");
    assert_true(tm_ctx_time_limit(c) == 2.5);
    assert_tm_ok(c, tm_ctx_set_time_limit(c, -1)); /* none */

    assert_tm_ok(c, tm_ctx_set_log_level(c, TM_LOG_DEBUG));
    assert_tm_error(c, tm_ctx_set_log_level(c, (tm_log_level)0), TM_EUSAGE, "log level 0");
    assert_tm_error(c, tm_ctx_set_log_level(c, (tm_log_level)4), TM_EUSAGE, "log level 4");
    tm_ctx_free(c);
}

static void test_hier_parse(void **state)
{
    tm_hier h;
    (void)state;
    assert_tm_ok(ctx, tm_hier_parse(ctx, "4:16:8", "1:10:100", &h));
    assert_int_equal(h.n_pe, 512);
    assert_true(tm_hier_dist(&h, 0, 3) == 1);
    assert_true(tm_hier_dist(&h, 0, 4) == 10);
    assert_true(tm_hier_dist(&h, 63, 64) == 100);
    assert_true(tm_hier_dist(&h, 5, 5) == 0);
    assert_tm_error(ctx, tm_hier_parse(ctx, "4:0:8", "1:10:100", &h), TM_EINPUT, "level 2 is 0");
    assert_tm_error(ctx, tm_hier_parse(ctx, "4:16", "1:10:100", &h), TM_EINPUT, "has 2 levels");
    assert_tm_error(ctx, tm_hier_parse(ctx, "4:x", "1:10", &h), TM_EINPUT, "expected integers");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_vertices),
        cmocka_unit_test(test_csr),
        cmocka_unit_test(test_unreachable),
        cmocka_unit_test(test_info),
        cmocka_unit_test(test_diameter_brute_force),
        cmocka_unit_test(test_parts_brute_force),
        cmocka_unit_test(test_hosts_only_are_transit),
        cmocka_unit_test(test_setters_reject),
        cmocka_unit_test(test_ctx_setters_reject),
        cmocka_unit_test(test_hier_parse),
    };
    return cmocka_run_group_tests_name("net", tests, setup, teardown);
}
