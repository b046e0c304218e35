/* test_gen.c - network generators: counts of hosts, switches and cables,
 * degree distributions, hop diameters, capacity classes, grid geometry,
 * names and options, and malformed specs with their exact messages. */
#include <time.h>

#include "test_fixtures.h"

static tm_net *gen(const char *spec)
{
    tm_net *net;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_gen_build(ctx, spec, NULL, net));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_net_check(ctx, net));
    return net;
}

/* Checks hosts, switches, cables and (if diameter >= 0) the hop diameter. */
static void check_counts(const tm_net *net, int32_t hosts, int32_t switches, int32_t cables,
                         int32_t diameter)
{
    tm_net_info info;
    assert_tm_ok(ctx, tm_net_info_compute(ctx, net, diameter >= 0, &info));
    assert_int_equal(info.hosts, hosts);
    assert_int_equal(info.switches, switches);
    assert_int_equal(info.cables, cables);
    if (diameter >= 0)
        assert_int_equal(info.diameter, diameter);
    tm_net_info_release(&info);
}

/* Capacity classes as "cap:count cap:count" in increasing capacity. */
static void check_caps(const tm_net *net, const char *expect)
{
    tm_net_info info;
    char buf[256];
    size_t len = 0;
    assert_tm_ok(ctx, tm_net_info_compute(ctx, net, false, &info));
    buf[0] = '\0';
    for (int i = 0; i < info.n_capclasses; i++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%g:%lld", i ? " " : "",
                                info.capclasses[i].capacity,
                                (long long)info.capclasses[i].cables);
    tm_net_info_release(&info);
    assert_string_equal(buf, expect);
}

/* Degree histogram of hosts (kind 0) or switches (kind 1) as
 * "deg:count ..." in increasing degree. */
static void check_degrees(const tm_net *net, tm_vertex_kind kind, const char *expect)
{
    int32_t n = tm_net_n_vertices(net), maxd = 0;
    int32_t *deg = calloc((size_t)n, sizeof *deg), *hist;
    char buf[256];
    size_t len = 0;
    for (int32_t c = 0; c < tm_net_n_cables(net); c++) {
        int32_t a, b;
        tm_net_cable(net, c, &a, &b);
        deg[a]++;
        deg[b]++;
    }
    for (int32_t v = 0; v < n; v++)
        if (deg[v] > maxd)
            maxd = deg[v];
    hist = calloc((size_t)maxd + 1, sizeof *hist);
    for (int32_t v = 0; v < n; v++)
        if (tm_net_kind(net, v) == kind)
            hist[deg[v]]++;
    buf[0] = '\0';
    for (int32_t d = 0; d <= maxd; d++)
        if (hist[d])
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%d:%d", len ? " " : "", d,
                                    hist[d]);
    free(deg);
    free(hist);
    assert_string_equal(buf, expect);
}

static void check_grid(const tm_net *net, int ndims, const int32_t *dims, const bool *wrap)
{
    const tm_net_grid *g = tm_net_grid_info(net);
    assert_int_equal(g->ndims, ndims);
    for (int i = 0; i < ndims; i++) {
        assert_int_equal(g->dims[i], dims[i]);
        assert_int_equal(g->wrap[i], wrap[i]);
    }
}

/* Hop eccentricity of host `src` among hosts, by BFS over the CSR (for
 * networks too big for the all-hosts diameter in a unit test). */
static int32_t eccentricity(const tm_net *net, int32_t src)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    int32_t *dist = malloc((size_t)g->n * sizeof *dist), *q = malloc((size_t)g->n * sizeof *q);
    int32_t qh = 0, qt = 0, far = 0;
    for (int32_t v = 0; v < g->n; v++)
        dist[v] = -1;
    dist[src] = 0;
    q[qt++] = src;
    while (qh < qt) {
        int32_t u = q[qh++];
        if (g->is_host[u] && dist[u] > far)
            far = dist[u];
        if (u != src && !g->transit[u])
            continue;
        for (int32_t j = g->off[u]; j < g->off[u + 1]; j++)
            if (dist[g->head[j]] < 0) {
                dist[g->head[j]] = dist[u] + 1;
                q[qt++] = g->head[j];
            }
    }
    for (int32_t v = 0; v < g->n; v++)
        if (g->is_host[v] && dist[v] < 0)
            far = -1;
    free(dist);
    free(q);
    return far;
}

static bool linked(const tm_net *net, const char *a, const char *b)
{
    int32_t x = tm_net_find(net, a), y = tm_net_find(net, b);
    assert_true(x >= 0 && y >= 0);
    for (int32_t c = 0; c < tm_net_n_cables(net); c++) {
        int32_t p, q;
        tm_net_cable(net, c, &p, &q);
        if ((p == x && q == y) || (p == y && q == x))
            return true;
    }
    return false;
}

static void test_is_spec(void **state)
{
    (void)state;
    assert_true(tm_gen_is_spec("torus:8x8x8"));
    assert_true(tm_gen_is_spec("mesh:16x16"));
    assert_true(tm_gen_is_spec("hypercube:3"));
    assert_true(tm_gen_is_spec("fattree:k=4,n=3"));
    assert_true(tm_gen_is_spec("clos:leaves=2,hosts_per_leaf=2"));
    assert_true(tm_gen_is_spec("clos2:"));
    assert_true(tm_gen_is_spec("clos3:pods=2"));
    assert_true(tm_gen_is_spec("percs:supernodes=1"));
    assert_true(tm_gen_is_spec("dragonfly:h=2"));
    assert_false(tm_gen_is_spec("torus"));
    assert_false(tm_gen_is_spec("Torus:2"));
    assert_false(tm_gen_is_spec("cluster.graphml"));
    assert_false(tm_gen_is_spec("dir/torus:2"));
    assert_false(tm_gen_is_spec(""));
    assert_false(tm_gen_is_spec(NULL));
    assert_non_null(strstr(tm_gen_help(), "percs:supernodes="));
}

/* The paper's 2-ary 3-cube (Hoefler & Snir Sec. 2.3): torus:2x2x2 and
 * hypercube:3 are the same network. */
static void test_cube(void **state)
{
    const int32_t dims[3] = {2, 2, 2};
    const bool wrap[3] = {false, false, false};
    tm_net *t = gen("torus:2x2x2"), *h = gen("hypercube:3");
    (void)state;
    check_counts(t, 8, 0, 12, 3);
    check_counts(h, 8, 0, 12, 3);
    check_degrees(t, TM_VERTEX_HOST, "3:8");
    check_caps(t, "1:12");
    check_grid(t, 3, dims, wrap);
    check_grid(h, 3, dims, wrap);
    assert_int_equal(tm_net_grid_info(t)->base, 0);
    for (int32_t c = 0; c < 12; c++) {
        int32_t a1, b1, a2, b2;
        tm_net_cable(t, c, &a1, &b1);
        tm_net_cable(h, c, &a2, &b2);
        assert_int_equal(a1, a2);
        assert_int_equal(b1, b2);
        assert_int_equal(__builtin_popcount((unsigned)(a1 ^ b1)), 1);
    }
    assert_string_equal(tm_net_name(t, 0), "n0000");
    assert_string_equal(tm_net_name(t, 7), "n0007");
    assert_true(tm_net_is_transit(t, 3));
    assert_int_equal(tm_net_transit_policy(t, 3), TM_TRANSIT_YES);
    assert_int_equal(tm_net_total_slots(t), 8);
    tm_net_free(t);
    tm_net_free(h);
}

static void test_torus(void **state)
{
    const int32_t d43[2] = {4, 3}, d888[3] = {8, 8, 8}, d51[2] = {5, 1}, d23[2] = {2, 3};
    const bool ww[3] = {true, true, true}, w51[2] = {true, false}, w23[2] = {false, true};
    tm_net *net;
    (void)state;
    net = gen("torus:4x3");
    check_counts(net, 12, 0, 24, 3);
    check_degrees(net, TM_VERTEX_HOST, "4:12");
    check_grid(net, 2, d43, ww);
    /* x0 varies fastest: (3,0) is vertex 3, wraps to (0,0); (0,2) is vertex 8 */
    assert_true(linked(net, "n0003", "n0000"));
    assert_true(linked(net, "n0008", "n0000"));
    assert_true(linked(net, "n0005", "n0009"));
    assert_false(linked(net, "n0003", "n0004"));
    tm_net_free(net);

    net = gen("torus:8x8x8");
    check_counts(net, 512, 0, 1536, 12);
    check_degrees(net, TM_VERTEX_HOST, "6:512");
    check_grid(net, 3, d888, ww);
    tm_net_free(net);

    net = gen("torus:5x1"); /* size-1 dimension: no cable */
    check_counts(net, 5, 0, 5, 2);
    check_grid(net, 2, d51, w51);
    tm_net_free(net);

    net = gen("torus:2x3"); /* size-2 dimension: one cable, recorded as not wrapping */
    check_counts(net, 6, 0, 3 + 6, 2);
    check_degrees(net, TM_VERTEX_HOST, "3:6");
    check_grid(net, 2, d23, w23);
    tm_net_free(net);

    net = gen("torus:1");
    check_counts(net, 1, 0, 0, 0);
    tm_net_free(net);
}

static void test_mesh(void **state)
{
    const int32_t d43[2] = {4, 3}, d16[2] = {16, 16};
    const bool nw[2] = {false, false};
    tm_net *net;
    (void)state;
    net = gen("mesh:4x3");
    check_counts(net, 12, 0, 3 * 3 + 2 * 4, 5);
    check_degrees(net, TM_VERTEX_HOST, "2:4 3:6 4:2");
    check_grid(net, 2, d43, nw);
    assert_false(linked(net, "n0003", "n0000"));
    tm_net_free(net);

    net = gen("mesh:16x16,cap=2.5");
    check_counts(net, 256, 0, 2 * 15 * 16, 30);
    check_caps(net, "2.5:480");
    check_grid(net, 2, d16, nw);
    tm_net_free(net);
}

static void test_hypercube(void **state)
{
    tm_net *net;
    (void)state;
    net = gen("hypercube:6");
    check_counts(net, 64, 0, 192, 6);
    check_degrees(net, TM_VERTEX_HOST, "6:64");
    assert_int_equal(tm_net_grid_info(net)->ndims, 6);
    tm_net_free(net);

    net = gen("hypercube:10"); /* more dimensions than tm_net_grid holds: no grid */
    check_counts(net, 1024, 0, 5120, 10);
    assert_int_equal(tm_net_grid_info(net)->ndims, 0);
    tm_net_free(net);
}

static void test_fattree(void **state)
{
    tm_net *net;
    (void)state;
    net = gen("fattree:k=4,n=3");
    check_counts(net, 64, 48, 192, 6);
    check_degrees(net, TM_VERTEX_HOST, "1:64");
    /* 16 leaves and 16 middle switches with 4 down + 4 up, 16 roots with 4 down */
    check_degrees(net, TM_VERTEX_SWITCH, "4:16 8:32");
    check_caps(net, "1:192");
    assert_int_equal(tm_net_grid_info(net)->ndims, 0);
    assert_false(tm_net_is_transit(net, tm_net_find(net, "n0000")));
    /* hosts 0..3 on leaf 0; leaf 5 = w(1,1) goes up to middle w(1,x) = 4..7;
     * middle 6 = w(1,2) goes up to roots w(x,2) = 2, 6, 10, 14 */
    assert_true(linked(net, "n0003", "sw-l1-000"));
    assert_true(linked(net, "n0004", "sw-l1-001"));
    assert_true(linked(net, "sw-l1-005", "sw-l2-004"));
    assert_true(linked(net, "sw-l1-005", "sw-l2-007"));
    assert_false(linked(net, "sw-l1-005", "sw-l2-008"));
    assert_true(linked(net, "sw-l2-006", "sw-l3-002"));
    assert_true(linked(net, "sw-l2-006", "sw-l3-014"));
    assert_false(linked(net, "sw-l2-006", "sw-l3-003"));
    tm_net_free(net);

    net = gen("fattree:k=2,n=1");
    check_counts(net, 2, 1, 2, 2);
    tm_net_free(net);

    net = gen("fattree:k=16,n=3,hostcap=100,upcap=50,slots=32"); /* 4,096 hosts */
    check_counts(net, 4096, 768, 3 * 4096, -1);
    check_caps(net, "50:8192 100:4096");
    assert_int_equal(tm_net_total_slots(net), 4096 * 32);
    assert_int_equal(eccentricity(net, 0), 6);
    tm_net_free(net);

    /* rails=4: four planes of the 4-ary 3-tree, every host with one cable
     * into each (the same leaf index in every plane), planes apart */
    net = gen("fattree:k=4,n=3,rails=4,hostcap=100");
    check_counts(net, 64, 4 * 48, 4 * 192, 6);
    check_degrees(net, TM_VERTEX_HOST, "4:64");
    check_degrees(net, TM_VERTEX_SWITCH, "4:64 8:128");
    check_caps(net, "1:512 100:256");
    for (int32_t h = 0; h < 64; h++)
        assert_int_equal(tm_net_host_rails(net, h), 4);
    assert_int_equal(tm_net_host_rails(net, tm_net_find(net, "rail0-sw-l1-000")), 0);
    assert_true(linked(net, "n0003", "rail0-sw-l1-000"));
    assert_true(linked(net, "n0003", "rail3-sw-l1-000"));
    assert_true(linked(net, "n0004", "rail2-sw-l1-001"));
    assert_true(linked(net, "rail1-sw-l1-005", "rail1-sw-l2-004"));
    assert_false(linked(net, "rail1-sw-l1-005", "rail2-sw-l2-004"));
    assert_int_equal(tm_net_find(net, "sw-l1-000"), -1);
    assert_int_equal(eccentricity(net, 0), 6);
    tm_net_free(net);

    net = gen("fattree:k=4,n=2,rails=1"); /* the plain tree, plain names */
    check_counts(net, 16, 8, 32, 4);
    assert_int_equal(tm_net_host_rails(net, 0), 1);
    assert_true(linked(net, "n0000", "sw-l1-000"));
    tm_net_free(net);
}

static void test_clos(void **state)
{
    tm_net *net;
    (void)state;
    net = gen("clos:leaves=4,hosts_per_leaf=4"); /* non-blocking: 4 uplinks, 4 spines */
    check_counts(net, 16, 8, 32, 4);
    check_degrees(net, TM_VERTEX_SWITCH, "4:4 8:4");
    tm_net_free(net);

    /* 16 hosts per leaf, 8 uplinks of half the speed: 4:1 tapering; two
     * parallel cables from every leaf to every spine */
    net = gen("clos2:leaves=8,hosts_per_leaf=16,spines=4,uplinks=8,hostcap=100,upcap=50");
    check_counts(net, 128, 12, 128 + 64, 4);
    check_degrees(net, TM_VERTEX_SWITCH, "16:4 24:8");
    check_caps(net, "50:64 100:128");
    assert_string_equal(tm_net_name(net, 128), "sw-l1-000");
    assert_string_equal(tm_net_name(net, 136), "sw-l2-000");
    tm_net_free(net);

    net = gen("clos3:pods=2,leaves=2,hosts_per_leaf=2");
    /* 8 hosts, 4 leaves, 4 spines, 2 planes of 2 super-spines */
    check_counts(net, 8, 12, 8 + 8 + 8, 6);
    check_degrees(net, TM_VERTEX_SWITCH, "2:4 4:8");
    assert_true(linked(net, "sw-l2-000", "sw-l3-000"));
    assert_true(linked(net, "sw-l2-002", "sw-l3-001")); /* spine 0 of pod 1: plane 0 */
    assert_false(linked(net, "sw-l2-001", "sw-l3-000"));
    assert_true(linked(net, "sw-l2-003", "sw-l3-003"));
    tm_net_free(net);

    net = gen("clos3:pods=4,leaves=8,hosts_per_leaf=16,uplinks=8,spines=4,supers=2,"
              "spine_uplinks=4,upcap=40,topcap=20");
    /* 512 hosts, 32 leaves, 16 spines, 4 planes of 2 */
    check_counts(net, 512, 32 + 16 + 8, 512 + 32 * 8 + 16 * 4, -1);
    check_caps(net, "1:512 20:64 40:256");
    assert_int_equal(eccentricity(net, 0), 6);
    tm_net_free(net);
}

static void test_percs_small(void **state)
{
    tm_net *net;
    (void)state;
    net = gen("percs:supernodes=1"); /* one supernode: everything one hop */
    check_counts(net, 32, 0, 32 * 31 / 2, 1);
    check_caps(net, "5:384 24:112");
    check_degrees(net, TM_VERTEX_HOST, "31:32");
    assert_true(linked(net, "n0000", "n0007"));
    tm_net_free(net);

    net = gen("percs:supernodes=2"); /* 32 parallel D links, one per host */
    check_counts(net, 64, 0, 2 * 496 + 32, 2);
    check_caps(net, "5:768 10:32 24:224");
    check_degrees(net, TM_VERTEX_HOST, "32:64");
    assert_true(linked(net, "n0005", "n0037"));
    tm_net_free(net);

    net = gen("percs:supernodes=10,cap=7,dcap=3");
    check_counts(net, 320, 0, 10 * 496 + 45 * 3, 3); /* 32/9 = 3 D links per pair */
    check_caps(net, "3:135 7:4960");
    tm_net_free(net);
}

/* Hosts' neighbours by link class: 7 LL, 24 LR, nd D links. */
static void check_percs_host_classes(const tm_net *net, int nd_min, int nd_max)
{
    int32_t n = tm_net_n_vertices(net);
    int32_t *ll = calloc((size_t)n, sizeof *ll), *lr = calloc((size_t)n, sizeof *lr);
    int32_t *dd = calloc((size_t)n, sizeof *dd);
    for (int32_t c = 0; c < tm_net_n_cables(net); c++) {
        int32_t a, b;
        double cap = tm_net_capacity(net, c);
        int32_t *cls = cap == 24 ? ll : cap == 5 ? lr : dd;
        tm_net_cable(net, c, &a, &b);
        cls[a]++;
        cls[b]++;
        if (cap == 24)
            assert_int_equal(a / 8, b / 8); /* same drawer */
        else if (cap == 5)
            assert_true(a / 32 == b / 32 && a / 8 != b / 8); /* same supernode */
        else
            assert_true(a / 32 != b / 32);
    }
    for (int32_t v = 0; v < n; v++) {
        assert_int_equal(ll[v], 7);
        assert_int_equal(lr[v], 24);
        assert_true(dd[v] >= nd_min && dd[v] <= nd_max);
    }
    free(ll);
    free(lr);
    free(dd);
}

static void test_percs_paper(void **state)
{
    tm_net *net;
    (void)state;
    net = gen("percs:supernodes=289");
    /* 9,248 hosts; 28 LL x 1,156 drawers, 384 LR x 289, 289*288/2 D */
    check_counts(net, 9248, 0, 32368 + 110976 + 41616, -1);
    check_caps(net, "5:110976 10:41616 24:32368");
    check_degrees(net, TM_VERTEX_HOST, "40:9248");
    check_percs_host_classes(net, 9, 9);
    assert_int_equal(eccentricity(net, 0), 3);
    assert_int_equal(eccentricity(net, 9247), 3);
    assert_int_equal(eccentricity(net, 4321), 3);
    tm_net_free(net);

    /* 100 supernodes: 4 D links per host needed for 99 partners; round-robin
     * gives hosts 3 or 4 */
    net = gen("percs:supernodes=100");
    check_counts(net, 3200, 0, 100 * 496 + 4950, -1);
    check_percs_host_classes(net, 3, 4);
    assert_int_equal(eccentricity(net, 17), 3);
    tm_net_free(net);
}

static void test_percs_seed(void **state)
{
    tm_net *a = gen("percs:supernodes=33,dseed=7"), *b = gen("percs:supernodes=33,dseed=7");
    tm_net *c = gen("percs:supernodes=33");
    int32_t same = 0, nc = tm_net_n_cables(a);
    (void)state;
    check_counts(a, 33 * 32, 0, 33 * 496 + 33 * 16, 3);
    check_percs_host_classes(a, 1, 1);
    for (int32_t i = 0; i < nc; i++) {
        int32_t a1, b1, a2, b2, a3, b3;
        tm_net_cable(a, i, &a1, &b1);
        tm_net_cable(b, i, &a2, &b2);
        tm_net_cable(c, i, &a3, &b3);
        assert_int_equal(a1, a2); /* a pure function of the spec */
        assert_int_equal(b1, b2);
        same += a1 == a3 && b1 == b3;
    }
    assert_true(same < nc); /* the shuffle changed the D wiring */
    tm_net_free(a);
    tm_net_free(b);
    tm_net_free(c);
}

static void test_dragonfly(void **state)
{
    tm_net *net;
    (void)state;
    net = gen("dragonfly:h=2"); /* balanced: p=2, a=4, g=9 */
    check_counts(net, 72, 36, 72 + 9 * 6 + 36, 5);
    check_degrees(net, TM_VERTEX_SWITCH, "7:36"); /* p + (a-1) + h */
    assert_string_equal(tm_net_name(net, 72), "sw-g000-r00");
    assert_string_equal(tm_net_name(net, 72 + 35), "sw-g008-r03");
    assert_true(linked(net, "n0000", "sw-g000-r00"));
    assert_true(linked(net, "sw-g000-r00", "sw-g001-r00"));
    tm_net_free(net);

    net = gen("dragonfly:a=4,p=2,h=2,g=3,globalcap=10,localcap=20,hostcap=30");
    /* 8 global ports per group, 2 partners: 4 parallel cables per pair,
     * router r of one group to router r of the other, so 4 hops suffice */
    check_counts(net, 24, 12, 24 + 18 + 12, 4);
    check_caps(net, "10:12 20:18 30:24");
    tm_net_free(net);

    net = gen("dragonfly:p=4"); /* h=4, a=8, g=33: 1,056 hosts */
    check_counts(net, 33 * 8 * 4, 33 * 8, 1056 + 33 * 28 + 33 * 16, -1);
    assert_int_equal(eccentricity(net, 0), 5);
    tm_net_free(net);
}

static void test_options(void **state)
{
    tm_net *net;
    (void)state;
    net = gen("mesh:3x3,slots=4,hostfmt=node%03d.cl");
    assert_int_equal(tm_net_total_slots(net), 36);
    assert_string_equal(tm_net_name(net, 8), "node008.cl");
    assert_int_equal(tm_net_slots(net, 0), 4);
    tm_net_free(net);

    net = gen("torus:3 , hostfmt = h%d%% ");
    assert_string_equal(tm_net_name(net, 2), "h2%");
    tm_net_free(net);

    net = gen("hypercube:14"); /* 16,384 hosts: default names grow to 5 digits */
    assert_string_equal(tm_net_name(net, 0), "n00000");
    tm_net_free(net);

    /* two generators in one net, as an XML spec combines them */
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_gen_build(ctx, "fattree:k=2,n=2", "a-", net));
    assert_tm_ok(ctx, tm_gen_build(ctx, "torus:3x3", "b-", net));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_int_equal(tm_net_find(net, "a-n0003"), 3);
    assert_true(tm_net_find(net, "a-sw-l2-001") >= 0);
    assert_int_equal(tm_net_grid_info(net)->base, 4 + 4);
    assert_int_equal(tm_net_find(net, "b-n0000"), 8);
    assert_true(tm_net_is_transit(net, 8));          /* torus hosts stay transit */
    assert_false(tm_net_is_transit(net, 0));         /* fat-tree hosts do not */
    assert_tm_error(ctx, tm_gen_build(ctx, "torus:3", "b-", net), TM_EINPUT,
                    "generator spec 'torus:3': duplicate vertex name 'b-n0000'");
    tm_net_free(net);
}

static void expect_bad(const char *spec, const char *msg)
{
    tm_net *net;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    tm_ctx_clear_error(ctx);
    if (tm_gen_build(ctx, spec, NULL, net) != TM_EUSAGE || strcmp(tm_ctx_errmsg(ctx), msg) != 0)
        fail_msg("spec '%s': expected usage error\n  '%s'\ngot\n  '%s'", spec, msg,
                 tm_ctx_errmsg(ctx));
    assert_int_equal(tm_net_n_vertices(net), 0); /* nothing added */
    tm_net_free(net);
}

static void test_bad_specs(void **state)
{
    (void)state;
    expect_bad("torus", "generator spec 'torus': expected <generator>:<parameters>");
    expect_bad("tori:8x8", "unknown generator 'tori' (known: torus, mesh, hypercube, fattree, "
                           "clos, clos2, clos3, percs, dragonfly)");
    expect_bad("torus:", "generator spec 'torus:': missing the dimensions before the options "
                         "(e.g. torus:8x8x8)");
    expect_bad("mesh:cap=2", "generator spec 'mesh:cap=2': missing the dimensions before the "
                             "options (e.g. mesh:16x16)");
    expect_bad("torus:8xx8", "generator spec 'torus:8xx8': bad dimensions '8xx8' "
                             "(expected sizes like 8x8x8)");
    expect_bad("torus:8x0x8", "generator spec 'torus:8x0x8': dimension 2 is 0 (must be at "
                              "least 1)");
    expect_bad("mesh:4x-2", "generator spec 'mesh:4x-2': dimension 2 is -2 (must be at least 1)");
    expect_bad("torus:2x2x2x2x2x2x2x2x2", "generator spec 'torus:2x2x2x2x2x2x2x2x2': more "
                                          "than 8 dimensions");
    expect_bad("torus:4096x4096x2", "generator spec 'torus:4096x4096x2': network too large: "
                                    "33554432 vertices (at most 16777216)");
    expect_bad("torus:16777216x16777216x16777216x16777216",
               "generator spec 'torus:16777216x16777216x16777216x16777216': network too "
               "large: over 2^63 vertices (at most 16777216)");
    expect_bad("hypercube:25", "generator spec 'hypercube:25': dimension 25 is out of range 1..24");
    expect_bad("hypercube:x", "generator spec 'hypercube:x': bad dimension 'x' "
                              "(expected hypercube:d, 1 <= d <= 24)");
    expect_bad("torus:4x4,slots=0", "generator spec 'torus:4x4,slots=0': option slots=0 is out "
                                    "of range 1..1048576");
    expect_bad("torus:4x4,cap=-1", "generator spec 'torus:4x4,cap=-1': option cap=-1 is not a "
                                   "capacity in (0, 1e+09] Gbit/s");
    expect_bad("torus:4x4,cap=fast", "generator spec 'torus:4x4,cap=fast': option cap=fast is "
                                     "not a number");
    expect_bad("torus:4x4,llcap=3", "generator spec 'torus:4x4,llcap=3': unknown option 'llcap' "
                                    "for torus (known: cap, slots, hostfmt)");
    expect_bad("torus:4x4,,slots=2", "generator spec 'torus:4x4,,slots=2': empty item "
                                     "(stray comma?)");
    expect_bad("torus:4x4,slots", "generator spec 'torus:4x4,slots': expected key=value, "
                                  "got 'slots'");
    expect_bad("torus:4x4,slots=", "generator spec 'torus:4x4,slots=': option 'slots' has no "
                                   "value");
    expect_bad("torus:4x4,slots=2,slots=3", "generator spec 'torus:4x4,slots=2,slots=3': "
                                            "option 'slots' given twice");
    expect_bad("torus:4,hostfmt=node", "generator spec 'torus:4,hostfmt=node': hostfmt 'node' "
                                       "must contain exactly one %d, optionally with a width "
                                       "such as %04d");
    expect_bad("torus:4,hostfmt=n%d-%d", "generator spec 'torus:4,hostfmt=n%d-%d': hostfmt "
                                         "'n%d-%d' must contain exactly one %d, optionally "
                                         "with a width such as %04d");
    expect_bad("torus:4,hostfmt=n%s", "generator spec 'torus:4,hostfmt=n%s': hostfmt 'n%s' "
                                      "must contain exactly one %d, optionally with a width "
                                      "such as %04d");
    expect_bad("torus:4,hostfmt=n%4d", "generator spec 'torus:4,hostfmt=n%4d': hostfmt 'n%4d': "
                                       "a width must be zero-padded (%04d), names cannot "
                                       "contain blanks");
    expect_bad("fattree:k=4", "generator spec 'fattree:k=4': missing option 'n'");
    expect_bad("fattree:k=1,n=3", "generator spec 'fattree:k=1,n=3': option k=1 is out of "
                                  "range 2..16777216");
    expect_bad("fattree:k=4,n=2.5", "generator spec 'fattree:k=4,n=2.5': option n=2.5 is not "
                                    "an integer");
    expect_bad("fattree:k=2,n=2,rails=0", "generator spec 'fattree:k=2,n=2,rails=0': option "
                                          "rails=0 is out of range 1..64");
    expect_bad("fattree:k=64,n=4,rails=64", "generator spec 'fattree:k=64,n=4,rails=64': network "
                                            "too large: 83886080 vertices (at most 16777216)");
    expect_bad("fattree:k=99999,n=3", "generator spec 'fattree:k=99999,n=3': network too "
                                      "large: 999999999700002 vertices (at most 16777216)");
    expect_bad("fattree:k=4,n=3,pods=2", "generator spec 'fattree:k=4,n=3,pods=2': unknown "
                                         "option 'pods' for fattree (known: k, n, rails, cap, hostcap, "
                                         "upcap, slots, hostfmt)");
    expect_bad("clos:leaves=4,hosts_per_leaf=6,spines=4",
               "generator spec 'clos:leaves=4,hosts_per_leaf=6,spines=4': uplinks=6 (default: "
               "hosts_per_leaf) is not a multiple of spines=4");
    expect_bad("clos3:pods=2,leaves=2,hosts_per_leaf=2,supers=3",
               "generator spec 'clos3:pods=2,leaves=2,hosts_per_leaf=2,supers=3': "
               "spine_uplinks=2 (default: spine down ports) is not a multiple of supers=3");
    expect_bad("percs:", "generator spec 'percs:': missing option 'supernodes'");
    expect_bad("percs:supernodes=0", "generator spec 'percs:supernodes=0': option "
                                     "supernodes=0 is out of range 1..513");
    expect_bad("percs:supernodes=300,dlinks=9",
               "generator spec 'percs:supernodes=300,dlinks=9': supernodes=300 need 299 D links "
               "per supernode, but dlinks=9 gives only 288 (32 hosts x 9)");
    expect_bad("percs:supernodes=4,dlinks=17", "generator spec 'percs:supernodes=4,dlinks=17': "
                                               "option dlinks=17 is out of range 1..16");
    expect_bad("dragonfly:g=4", "generator spec 'dragonfly:g=4': give at least one of a, p, h "
                                "(e.g. dragonfly:h=4)");
    expect_bad("dragonfly:a=1", "generator spec 'dragonfly:a=1': cannot derive h from a=1 "
                                "(give h)");
    expect_bad("dragonfly:h=2,g=10", "generator spec 'dragonfly:h=2,g=10': g=10 groups need 9 "
                                     "global links per group, but a*h = 8");
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The two largest specs of the brief build completely (sizes checked); the
 * time is printed, not asserted: timings belong to the benchmarks
 * (docs/performance.md), a wall-clock bound would fail on a loaded machine. */
static void test_large(void **state)
{
    const char *specs[] = {"percs:supernodes=289", "fattree:k=16,n=3"};
    const int hosts[] = {289 * 32, 16 * 16 * 16};
    (void)state;
    for (int i = 0; i < 2; i++) {
        tm_net *net;
        double t0;
        assert_tm_ok(ctx, tm_net_new(ctx, &net));
        t0 = now();
        assert_tm_ok(ctx, tm_gen_build(ctx, specs[i], NULL, net));
        print_message("  %-22s built in %.4f s\n", specs[i], now() - t0);
        assert_int_equal(tm_net_n_hosts(net), hosts[i]);
        tm_net_free(net);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_is_spec),     cmocka_unit_test(test_bad_specs),
        cmocka_unit_test(test_cube),        cmocka_unit_test(test_torus),
        cmocka_unit_test(test_mesh),        cmocka_unit_test(test_hypercube),
        cmocka_unit_test(test_fattree),     cmocka_unit_test(test_clos),
        cmocka_unit_test(test_percs_small), cmocka_unit_test(test_percs_paper),
        cmocka_unit_test(test_percs_seed),  cmocka_unit_test(test_dragonfly),
        cmocka_unit_test(test_options),     cmocka_unit_test(test_large),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
