/* test_netdist.c - the hop-distance oracle equals a plain BFS (written here,
 * independently of the library) between every pair of allocated hosts, for
 * every backend: the table (default budget), the rows (budget of a few
 * rows, and of none) and the grid (budget 0 on a healthy torus or mesh).
 * Nets: generated fat-trees, tapered 2- and 3-level Clos, tori and meshes
 * (sizes 1 and 2 included), hypercubes, a dragonfly, PERCS; hand-made nets
 * (a host on two switches, parallel cables, a non-transit switch, random
 * transit hosts without switches, failed cables, two components, a torus
 * that is not what its geometry says, a chain longer than int16) and
 * sub-allocations.  ECMP's hop counts are checked too on the generated nets. */
#include <pthread.h>

#include "map_fixtures.h"
#include "test_fixtures.h"
#include "net/netdist_int.h"
#include "net/ftclass.h"

/* ---- reference and helpers ------------------------------------------------- */

/* dist[] from s: BFS expanding s and transit vertices only. */
static void ref_bfs(const tm_net_csr *g, int32_t s, int32_t *dist, int32_t *queue)
{
    int32_t qh = 0, qt = 0;
    for (int32_t v = 0; v < g->n; v++)
        dist[v] = -1;
    dist[s] = 0;
    queue[qt++] = s;
    while (qh < qt) {
        int32_t u = queue[qh++];
        if (u != s && !g->transit[u])
            continue;
        for (int32_t e = g->off[u]; e < g->off[u + 1]; e++)
            if (dist[g->head[e]] < 0) {
                dist[g->head[e]] = dist[u] + 1;
                queue[qt++] = g->head[e];
            }
    }
}

static tm_net *gen(const char *spec)
{
    tm_net *net;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_gen_build(ctx, spec, NULL, net));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    return net;
}

static int32_t add_v(tm_net *net, const char *name, bool host)
{
    int32_t id;
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, name, host ? TM_VERTEX_HOST : TM_VERTEX_SWITCH,
                                        host ? 1 : 0, &id));
    return id;
}

static int32_t add_c(tm_net *net, int32_t a, int32_t b)
{
    int32_t c;
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, a, b, 1.0, &c));
    return c;
}

/* Every `every`-th host of the net from the `first`-th, into hosts[]
 * (tm_net_n_vertices entries); returns how many. */
static int32_t pick_hosts(const tm_net *net, int every, int first, int32_t *hosts)
{
    int32_t n = 0, k = 0;
    for (int32_t v = 0; v < tm_net_n_vertices(net); v++)
        if (tm_net_kind(net, v) == TM_VERTEX_HOST && k++ % every == first)
            hosts[n++] = v;
    return n;
}

/* All pairs of d against the reference; out-of-range indices are -1. */
static void check_pairs(const tm_net *net, const tm_netdist *d, const int32_t *hosts, int32_t n)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    int32_t *dist = malloc((size_t)g->n * sizeof *dist);
    int32_t *queue = malloc((size_t)g->n * sizeof *queue);
    assert_int_equal(tm_netdist_n(d), n);
    assert_true(tm_netdist_bytes(d) >= sizeof(int32_t));
    for (int32_t i = 0; i < n; i++) {
        ref_bfs(g, hosts[i], dist, queue);
        for (int32_t j = 0; j < n; j++) {
            int32_t want = i == j ? 0 : dist[hosts[j]];
            int32_t got = tm_netdist_hops(d, i, j);
            if (got != want || tm__netdist_hops(d, i, j) != want)
                fail_msg("%s (%s): hosts %s, %s: oracle %d, bfs %d", tm_netdist_kind(d),
                         tm_net_name(net, hosts[0]), tm_net_name(net, hosts[i]),
                         tm_net_name(net, hosts[j]), got, want);
        }
    }
    assert_int_equal(tm_netdist_hops(d, -1, 0), -1);
    assert_int_equal(tm_netdist_hops(d, 0, n), -1);
    free(dist);
    free(queue);
}

/* Builds the oracle with `budget`, expects backend `kind`, checks all pairs. */
static void check_kind(const tm_net *net, const int32_t *hosts, int32_t n, size_t budget,
                       const char *kind)
{
    tm_netdist *d;
    assert_tm_ok(ctx, tm__netdist_new_budget(ctx, net, hosts, n, budget, &d));
    if (strcmp(tm_netdist_kind(d), kind) != 0)
        fail_msg("budget %zu: backend %s, expected %s", budget, tm_netdist_kind(d), kind);
    check_pairs(net, d, hosts, n);
    tm_netdist_free(d);
}

/* Levels of the form netdist takes from a fat-tree of net/ftclass.h when
 * the table does not fit (tree levels - 1), or a large number if the net
 * is not one. */
static int ftclass_levels(const tm_net *net)
{
    tm__ftclass *u;
    int nl;
    assert_tm_ok(ctx, tm__ftclass_detect(ctx, tm_net_csr_get(net), &u));
    nl = u ? u->n_lev - 1 : 1 << 20;
    tm__ftclass_free(u);
    return nl;
}

/* Every backend the net allows: the table, the grid (if `grid`) or rows
 * with a single slot (budget 0), and rows with three slots (misses,
 * evictions, symmetric hits). */
static void check_backends(const tm_net *net, const int32_t *hosts, int32_t n, bool grid)
{
    tm_netdist *d;
    size_t n_cls, three_rows;
    assert_tm_ok(ctx, tm_netdist_new(ctx, net, hosts, n, &d));
    /* the levels form replaces the table when it explains every entry */
    if (strcmp(tm_netdist_kind(d), "levels") != 0)
        assert_string_equal(tm_netdist_kind(d), "table");
    n_cls = (size_t)d->n_cls;
    check_pairs(net, d, hosts, n);
    tm_netdist_free(d);
    check_kind(net, hosts, n, 0, grid ? "grid" : "rows");
    three_rows = 3 * n_cls * sizeof(int32_t);
    if (!grid && three_rows < n_cls * n_cls * sizeof(int16_t))
        check_kind(net, hosts, n, three_rows, ftclass_levels(net) <= 3 ? "levels" : "rows");
}

/* All hosts, and two sub-allocations (every 3rd host, every 7th from the 2nd). */
static void check_net(const tm_net *net, bool grid)
{
    int32_t *hosts = malloc(((size_t)tm_net_n_vertices(net) + 1) * sizeof *hosts), n;
    n = pick_hosts(net, 1, 0, hosts);
    check_backends(net, hosts, n, grid);
    n = pick_hosts(net, 3, 0, hosts);
    check_backends(net, hosts, n, grid);
    n = pick_hosts(net, 7, 2, hosts);
    if (n > 0)
        check_backends(net, hosts, n, grid);
    free(hosts);
}

/* ECMP's hop count (tm_route_hops) agrees with the oracle. */
static void check_ecmp(const tm_net *net)
{
    int32_t *hosts = malloc(((size_t)tm_net_n_vertices(net) + 1) * sizeof *hosts);
    int32_t n = pick_hosts(net, 1, 0, hosts);
    tm_route *r;
    tm_route_ws *ws;
    tm_netdist *d;
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &r));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    assert_tm_ok(ctx, tm_netdist_new(ctx, net, hosts, n, &d));
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = 0; j < n; j++)
            if (tm_netdist_hops(d, i, j) != tm_route_hops(r, ws, hosts[i], hosts[j]))
                fail_msg("hosts %d, %d: oracle %d, ecmp %d", i, j, tm_netdist_hops(d, i, j),
                         tm_route_hops(r, ws, hosts[i], hosts[j]));
    tm_netdist_free(d);
    tm_route_ws_free(ws);
    tm_route_free(r);
    free(hosts);
}

/* ---- generated networks ---------------------------------------------------- */

static void test_generated(void **state)
{
    static const struct {
        const char *spec;
        bool grid;
    } nets[] = {
        {"fattree:k=4,n=3", false},
        {"fattree:k=2,n=4", false},
        {"fattree:k=3,n=2,upcap=0.5", false},
        {"clos:leaves=4,hosts_per_leaf=4,uplinks=2,spines=2", false},   /* 2:1 */
        {"clos:leaves=6,hosts_per_leaf=8,uplinks=4,spines=2", false},   /* parallel uplinks */
        {"clos3:pods=3,leaves=2,hosts_per_leaf=4,uplinks=2,spines=2,spine_uplinks=2,supers=1", false},
        {"clos3:pods=2,leaves=3,hosts_per_leaf=2", false},
        {"torus:4x4x4", true},
        {"torus:2x3", true},
        {"torus:2x2x2", true},
        {"torus:1x5", true},
        {"torus:5x1x3", true},
        {"torus:6x4", true},
        {"mesh:3x5", true},
        {"mesh:1x4", true},
        {"mesh:2x3x2", true},
        {"hypercube:4", true},
        {"hypercube:9", false}, /* more than TM_GRID_MAX_DIMS: no geometry recorded */
        {"dragonfly:h=2", false},
        {"dragonfly:a=4,p=3,h=1,g=5", false},
        {"percs:supernodes=3", false},
        {"percs:supernodes=5,dseed=3", false},
    };
    (void)state;
    for (size_t k = 0; k < sizeof nets / sizeof nets[0]; k++) {
        tm_net *net = gen(nets[k].spec);
        check_net(net, nets[k].grid);
        if (k % 3 == 0)
            check_ecmp(net);
        tm_net_free(net);
    }
}

/* A fat-tree's classes are its leaf switches. */
static void test_fattree_classes(void **state)
{
    tm_net *net = gen("fattree:k=4,n=3");
    int32_t hosts[64], n = pick_hosts(net, 1, 0, hosts);
    tm_netdist *d;
    (void)state;
    assert_int_equal(n, 64);
    assert_tm_ok(ctx, tm_netdist_new(ctx, net, hosts, n, &d));
    assert_int_equal(d->n_cls, 16);
    /* leaf, pod and top: the distances are 0 / 2 / 4 between leaf switches
     * by lowest common level, so the table gives way to that form */
    assert_string_equal(tm_netdist_kind(d), "levels");
    assert_int_equal(d->n_lev, 2);
    assert_int_equal(d->lvd[1], 2);
    assert_int_equal(d->lvd[2], 4);
    assert_int_equal(tm_netdist_hops(d, 0, 1), 2);  /* one leaf */
    assert_int_equal(tm_netdist_hops(d, 0, 4), 4);  /* one pod */
    assert_int_equal(tm_netdist_hops(d, 0, 63), 6); /* across the top */
    tm_netdist_free(d);
    tm_net_free(net);
}

/* Too many classes for the table (here: a budget one byte short of it):
 * a fat-tree still gets the levels form, from its structure alone
 * (net/ftclass.h), with the same levels and distances as the form the
 * table check finds; one extra cable between two leaves and it is rows. */
static void test_fattree_levels_without_table(void **state)
{
    (void)state;
    for (int damage = 0; damage < 2; damage++) {
        tm_net *net;
        int32_t hosts[64], n;
        tm_netdist *d;
        assert_tm_ok(ctx, tm_net_new(ctx, &net));
        assert_tm_ok(ctx, tm_gen_build(ctx, "fattree:k=4,n=3", NULL, net));
        if (damage)
            assert_tm_ok(ctx, tm_net_add_cable(ctx, net, tm_net_find(net, "sw-l1-000"),
                                               tm_net_find(net, "sw-l1-001"), 1, NULL));
        assert_tm_ok(ctx, tm_net_finalize(ctx, net));
        n = pick_hosts(net, 1, 0, hosts);
        assert_tm_ok(ctx, tm__netdist_new_budget(ctx, net, hosts, n, 16 * 16 * 2 - 1, &d));
        assert_string_equal(tm_netdist_kind(d), damage ? "rows" : "levels");
        if (!damage) {
            assert_null(d->table);
            assert_int_equal(d->n_lev, 2);
            assert_int_equal(d->lvd[1], 2);
            assert_int_equal(d->lvd[2], 4);
        }
        check_pairs(net, d, hosts, n);
        tm_netdist_free(d);
        /* every 3rd host: still one or two on each of the 16 leaves */
        n = pick_hosts(net, 3, 1, hosts);
        check_kind(net, hosts, n, 16 * 16 * 2 - 1, damage ? "rows" : "levels");
        tm_net_free(net);
    }
}

/* Above TM__NETDIST_GRID_TABLE a healthy torus answers from coordinates
 * even with the default budget; below it the table is used. */
static void test_big_grid(void **state)
{
    tm_net *net = gen("torus:48x48");
    int32_t *hosts = malloc(48 * 48 * sizeof *hosts), n = pick_hosts(net, 1, 0, hosts);
    (void)state;
    assert_true((size_t)n * (size_t)n * sizeof(int16_t) > TM__NETDIST_GRID_TABLE);
    check_kind(net, hosts, n, TM__NETDIST_BUDGET, "grid");
    n = pick_hosts(net, 2, 0, hosts);
    assert_true((size_t)n * (size_t)n * sizeof(int16_t) <= TM__NETDIST_GRID_TABLE);
    check_kind(net, hosts, n, TM__NETDIST_BUDGET, "table");
    tm_net_free(net);
    free(hosts);
}

/* ---- hand-made networks ---------------------------------------------------- */

/* star: 3 hosts on one switch are 2 hops apart (hand-computed) */
static void test_star(void **state)
{
    tm_net *net;
    int32_t s, h[3];
    tm_netdist *d;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    s = add_v(net, "sw", false);
    for (int i = 0; i < 3; i++) {
        char name[8];
        snprintf(name, sizeof name, "h%d", i);
        h[i] = add_v(net, name, true);
        add_c(net, s, h[i]);
    }
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    for (int b = 0; b < 2; b++) {
        assert_tm_ok(ctx, tm__netdist_new_budget(ctx, net, h, 3, b ? 0 : TM__NETDIST_BUDGET, &d));
        assert_string_equal(tm_netdist_kind(d), b ? "rows" : "table");
        assert_int_equal(d->n_cls, 1);
        assert_int_equal(tm_netdist_hops(d, 0, 1), 2);
        assert_int_equal(tm_netdist_hops(d, 2, 0), 2);
        assert_int_equal(tm_netdist_hops(d, 2, 2), 0);
        tm_netdist_free(d);
    }
    tm_net_free(net);
}

/* s0 - s1 - s2 in a line; a on s0 by two parallel cables (class s0), b on
 * s0 and s2 (own class), c on s2, x on s1; then s0 - s1 fails. */
static void test_two_switches(void **state)
{
    tm_net *net;
    int32_t s0, s1, s2, h[4], cable;
    tm_netdist *d;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    s0 = add_v(net, "s0", false);
    s1 = add_v(net, "s1", false);
    s2 = add_v(net, "s2", false);
    h[0] = add_v(net, "a", true);
    h[1] = add_v(net, "b", true);
    h[2] = add_v(net, "c", true);
    h[3] = add_v(net, "x", true);
    cable = add_c(net, s0, s1);
    add_c(net, s1, s2);
    add_c(net, h[0], s0);
    add_c(net, h[0], s0); /* parallel cable: still a leaf of s0 */
    add_c(net, h[1], s0);
    add_c(net, h[1], s2); /* b on two switches: its own class */
    add_c(net, h[2], s2);
    add_c(net, h[3], s1);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_netdist_new(ctx, net, h, 4, &d));
    assert_int_equal(d->n_cls, 4);
    assert_int_equal(d->off[0], 1);
    assert_int_equal(d->off[1], 0);
    assert_int_equal(tm_netdist_hops(d, 0, 1), 2); /* a s0 b */
    assert_int_equal(tm_netdist_hops(d, 1, 2), 2); /* b s2 c */
    assert_int_equal(tm_netdist_hops(d, 0, 2), 4); /* a s0 s1 s2 c */
    tm_netdist_free(d);
    check_net(net, false);
    /* without s0 - s1, a reaches c only through b, which is not transit */
    tm_net_set_cable_enabled(net, cable, false);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_netdist_new(ctx, net, h, 4, &d));
    assert_int_equal(tm_netdist_hops(d, 0, 2), -1);
    assert_int_equal(tm_netdist_hops(d, 1, 3), 3); /* b s2 s1 x */
    tm_netdist_free(d);
    check_net(net, false);
    /* b made transit: a s0 b s2 c */
    assert_tm_ok(ctx, tm_net_set_transit(ctx, net, h[1], TM_TRANSIT_YES));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_netdist_new(ctx, net, h, 4, &d));
    assert_int_equal(tm_netdist_hops(d, 0, 2), 4);
    tm_netdist_free(d);
    check_net(net, false);
    tm_net_free(net);
}

/* A leaf switch that is not transit cannot join its hosts to anything:
 * they are their own classes, and unreachable from each other. */
static void test_non_transit_switch(void **state)
{
    tm_net *net;
    int32_t s0, s1, h[3];
    tm_netdist *d;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    s0 = add_v(net, "s0", false);
    s1 = add_v(net, "s1", false);
    h[0] = add_v(net, "a", true);
    h[1] = add_v(net, "b", true);
    h[2] = add_v(net, "c", true);
    add_c(net, s0, s1);
    add_c(net, h[0], s0);
    add_c(net, h[1], s0);
    add_c(net, h[2], s1);
    assert_tm_ok(ctx, tm_net_set_transit(ctx, net, s0, TM_TRANSIT_NO));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_netdist_new(ctx, net, h, 3, &d));
    assert_int_equal(tm_netdist_hops(d, 0, 1), -1);
    assert_int_equal(tm_netdist_hops(d, 0, 2), -1);
    tm_netdist_free(d);
    check_net(net, false);
    tm_net_free(net);
}

/* No switches: every host is transit.  A random connected core, leaves
 * hanging off transit hosts (classed under them, the class vertex being
 * an allocated host), a few non-transit hosts, a second component. */
static void test_random_transit_hosts(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        tm_net *net;
        tm__rng rng;
        int32_t nv = 90, core = 60;
        tm__rng_seed(&rng, seed, 7);
        assert_tm_ok(ctx, tm_net_new(ctx, &net));
        for (int32_t v = 0; v < nv; v++) {
            char name[16];
            snprintf(name, sizeof name, "h%d", v);
            add_v(net, name, true);
        }
        for (int32_t v = 1; v < core; v++) /* a random tree keeps the core connected */
            add_c(net, v, (int32_t)tm__rng_below(&rng, (uint64_t)v));
        for (int e = 0; e < 40; e++) {
            int32_t a = (int32_t)tm__rng_below(&rng, (uint64_t)core);
            int32_t b = (int32_t)tm__rng_below(&rng, (uint64_t)core);
            if (a != b)
                add_c(net, a, b);
        }
        for (int32_t v = core; v < nv - 6; v++) { /* leaves, some with parallel cables */
            int32_t t = (int32_t)tm__rng_below(&rng, (uint64_t)core);
            add_c(net, v, t);
            if (v % 4 == 0)
                add_c(net, v, t);
        }
        for (int32_t v = nv - 6; v < nv - 1; v++) /* a second component: a path */
            add_c(net, v, v + 1);
        for (int k = 0; k < 5; k++)
            assert_tm_ok(ctx, tm_net_set_transit(ctx, net, (int32_t)tm__rng_below(&rng, (uint64_t)nv),
                                                 TM_TRANSIT_NO));
        assert_tm_ok(ctx, tm_net_finalize(ctx, net));
        check_net(net, false);
        tm_net_free(net);
    }
    /* a 3-ary 2-cube built by hand: a torus without recorded geometry */
    {
        tm_net *net = fx_torus(ctx, 3, 2, 1);
        check_net(net, false);
        tm_net_free(net);
    }
}

/* ---- grids that are not what their geometry says ----------------------------- */

static void set_grid(tm_net *net, int32_t base, int nd, const int32_t *dims, const bool *wrap)
{
    tm_net_grid gr;
    memset(&gr, 0, sizeof gr);
    gr.ndims = nd;
    gr.base = base;
    for (int i = 0; i < nd; i++) {
        gr.dims[i] = dims[i];
        gr.wrap[i] = wrap[i];
    }
    tm_net_set_grid(net, &gr);
}

/* A 2x3 torus with two parallel cables in the dimension of size 2 and the
 * wrap flag set there: the grid is still exact (ring distance of 2 is 1). */
static void test_grid_parallel_wrap(void **state)
{
    static const int32_t dims[2] = {2, 3};
    static const bool wrap[2] = {true, true};
    tm_net *net;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    for (int32_t v = 0; v < 6; v++) {
        char name[8];
        snprintf(name, sizeof name, "h%d", v);
        add_v(net, name, true);
    }
    for (int32_t y = 0; y < 3; y++) {
        add_c(net, 2 * y, 2 * y + 1);
        add_c(net, 2 * y + 1, 2 * y); /* the "wrap-around" cable of the size-2 ring */
        for (int32_t x = 0; x < 2; x++)
            add_c(net, 2 * y + x, 2 * ((y + 1) % 3) + x);
    }
    set_grid(net, 0, 2, dims, wrap);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    check_net(net, true);
    tm_net_free(net);
}

/* A failed cable, a non-transit host, a shortcut cable, a switch on a
 * host, geometry that does not fit: never the grid backend. */
static void test_grid_rejected(void **state)
{
    tm_net *net;
    int32_t sw;
    (void)state;
    /* failed cable (distances change: the grid formula would be wrong) */
    net = gen("torus:4x4");
    tm_net_set_cable_enabled(net, 0, false);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    check_net(net, false);
    tm_net_free(net);
    /* a host that does not forward */
    net = gen("torus:5x4");
    assert_tm_ok(ctx, tm_net_set_transit(ctx, net, 6, TM_TRANSIT_NO));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    check_net(net, false);
    tm_net_free(net);
    /* a shortcut cable across the torus */
    net = gen("mesh:6x6");
    add_c(net, 0, 35);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    check_net(net, false);
    tm_net_free(net);
    /* a switch joined to two hosts */
    net = gen("mesh:6x3");
    sw = add_v(net, "sw", false);
    add_c(net, sw, 0);
    add_c(net, sw, 17);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    check_net(net, false);
    tm_net_free(net);
    /* geometry recorded as a torus for a mesh (missing wrap cables) */
    {
        static const int32_t dims[2] = {4, 3};
        static const bool wrap[2] = {true, false};
        net = gen("mesh:4x3");
        set_grid(net, 0, 2, dims, wrap);
        assert_tm_ok(ctx, tm_net_finalize(ctx, net));
        check_net(net, false);
        tm_net_free(net);
    }
    /* geometry larger than the net */
    {
        static const int32_t dims[2] = {4, 4};
        static const bool wrap[2] = {false, false};
        net = gen("mesh:4x3");
        set_grid(net, 0, 2, dims, wrap);
        assert_tm_ok(ctx, tm_net_finalize(ctx, net));
        check_net(net, false);
        tm_net_free(net);
    }
}

/* A torus and a fat-tree in one net (generator prefixes): allocations on
 * the torus alone use the grid; with a fat-tree host, or once a cable
 * joins the two, they do not. */
static void test_grid_beside_switches(void **state)
{
    tm_net *net;
    int32_t hosts[64], n = 0;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_gen_build(ctx, "fattree:k=2,n=3", "f-", net));
    assert_tm_ok(ctx, tm_gen_build(ctx, "torus:3x4", "t-", net));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    for (int32_t v = 0; v < tm_net_n_vertices(net); v++)
        if (tm_net_kind(net, v) == TM_VERTEX_HOST && tm_net_name(net, v)[0] == 't')
            hosts[n++] = v;
    assert_int_equal(n, 12);
    check_backends(net, hosts, n, true);
    hosts[n++] = tm_net_find(net, "f-n0000");
    check_backends(net, hosts, n, false); /* unreachable pairs: -1 */
    add_c(net, tm_net_find(net, "t-n0000"), tm_net_find(net, "f-sw-l1-000"));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    check_backends(net, hosts, n - 1, false);
    check_backends(net, hosts, n, false);
    tm_net_free(net);
}

/* ---- edge cases ---------------------------------------------------------------- */

/* two components: -1 across; n = 1 and n = 0 */
static void test_unreachable(void **state)
{
    tm_net *net;
    int32_t s0, s1, h[2];
    tm_netdist *d;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    s0 = add_v(net, "s0", false);
    s1 = add_v(net, "s1", false);
    h[0] = add_v(net, "h0", true);
    h[1] = add_v(net, "h1", true);
    add_c(net, s0, h[0]);
    add_c(net, s1, h[1]);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    for (int b = 0; b < 2; b++) {
        assert_tm_ok(ctx, tm__netdist_new_budget(ctx, net, h, 2, b ? 0 : TM__NETDIST_BUDGET, &d));
        assert_int_equal(tm_netdist_hops(d, 0, 1), -1);
        assert_int_equal(tm_netdist_hops(d, 1, 0), -1);
        assert_int_equal(tm_netdist_hops(d, 0, 0), 0);
        tm_netdist_free(d);
    }
    for (int b = 0; b < 2; b++) {
        assert_tm_ok(ctx, tm__netdist_new_budget(ctx, net, h + 1, 1, b ? 0 : TM__NETDIST_BUDGET, &d));
        assert_int_equal(tm_netdist_n(d), 1);
        assert_int_equal(tm_netdist_hops(d, 0, 0), 0);
        tm_netdist_free(d);
        assert_tm_ok(ctx, tm__netdist_new_budget(ctx, net, NULL, 0, b ? 0 : TM__NETDIST_BUDGET, &d));
        assert_int_equal(tm_netdist_n(d), 0);
        assert_int_equal(tm_netdist_hops(d, 0, 0), -1);
        tm_netdist_free(d);
    }
    tm_net_free(net);
    /* n = 1 on a grid */
    net = gen("torus:3x3");
    check_kind(net, h, 0, 0, "table"); /* an empty table fits any budget */
    {
        int32_t one = 4;
        check_kind(net, &one, 1, 0, "grid");
        check_kind(net, &one, 1, TM__NETDIST_BUDGET, "table");
    }
    tm_net_free(net);
}

/* A chain of 33,000 switches: distances beyond int16 make the table
 * give way to the rows, which stay exact. */
static void test_long_chain(void **state)
{
    enum { LEN = 33000 };
    tm_net *net;
    int32_t prev = -1, h[3];
    tm_netdist *d;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    for (int32_t i = 0; i < LEN; i++) {
        char name[16];
        int32_t s;
        snprintf(name, sizeof name, "s%d", i);
        s = add_v(net, name, false);
        if (prev >= 0)
            add_c(net, prev, s);
        prev = s;
    }
    h[0] = add_v(net, "first", true);
    h[1] = add_v(net, "middle", true);
    h[2] = add_v(net, "last", true);
    add_c(net, h[0], 0);
    add_c(net, h[1], 100);
    add_c(net, h[2], LEN - 1);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_netdist_new(ctx, net, h, 3, &d));
    assert_string_equal(tm_netdist_kind(d), "rows");
    assert_int_equal(tm_netdist_hops(d, 0, 2), LEN + 1);
    assert_int_equal(tm_netdist_hops(d, 2, 0), LEN + 1);
    assert_int_equal(tm_netdist_hops(d, 0, 1), 102);
    assert_int_equal(tm_netdist_hops(d, 1, 2), LEN - 100 + 1);
    tm_netdist_free(d);
    /* the first and middle host alone still fit a table */
    check_kind(net, h, 2, TM__NETDIST_BUDGET, "table");
    tm_net_free(net);
}

static void test_usage(void **state)
{
    tm_net *net;
    tm_netdist *d = (tm_netdist *)1;
    int32_t h[2];
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_gen_build(ctx, "fattree:k=2,n=2", NULL, net));
    h[0] = tm_net_find(net, "n0000");
    h[1] = tm_net_find(net, "sw-l1-000");
    assert_tm_error(ctx, tm_netdist_new(ctx, net, h, 1, &d), TM_EUSAGE, "not finalized");
    assert_null(d);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_error(ctx, tm_netdist_new(ctx, net, h, 2, &d), TM_EUSAGE, "is not a host");
    h[1] = 12345;
    assert_tm_error(ctx, tm_netdist_new(ctx, net, h, 2, &d), TM_EUSAGE, "is not a host");
    h[1] = h[0];
    assert_tm_error(ctx, tm_netdist_new(ctx, net, h, 2, &d), TM_EUSAGE, "'n0000' is listed twice");
    assert_tm_error(ctx, tm_netdist_new(ctx, net, h, -1, &d), TM_EUSAGE, "bad host list");
    assert_null(d);
    tm_net_free(net);
}

/* ---- threads ------------------------------------------------------------------ */

typedef struct job {
    const tm_netdist *d;
    const int32_t *want; /* n x n */
    int32_t n, start;
    int bad;
} job;

static void *query_all(void *arg)
{
    job *jb = arg;
    for (int rep = 0; rep < 3; rep++)
        for (int32_t i = 0; i < jb->n; i++)
            for (int32_t j = 0; j < jb->n; j++) {
                int32_t a = (i + jb->start) % jb->n;
                jb->bad += tm__netdist_hops(jb->d, a, j) != jb->want[(size_t)a * jb->n + j];
            }
    return NULL;
}

/* Four threads querying one rows oracle with a two-row cache. */
static void test_threads(void **state)
{
    tm_net *net = gen("dragonfly:h=2");
    int32_t hosts[72], n = pick_hosts(net, 1, 0, hosts), *want;
    tm_netdist *d, *ref;
    pthread_t th[4];
    job jobs[4];
    (void)state;
    assert_tm_ok(ctx, tm_netdist_new(ctx, net, hosts, n, &ref));
    want = malloc((size_t)n * (size_t)n * sizeof *want);
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = 0; j < n; j++)
            want[(size_t)i * n + j] = tm_netdist_hops(ref, i, j);
    assert_tm_ok(ctx, tm__netdist_new_budget(ctx, net, hosts, n, 2 * (size_t)ref->n_cls * 4, &d));
    assert_string_equal(tm_netdist_kind(d), "rows");
    assert_int_equal(d->n_slots, 2);
    for (int t = 0; t < 4; t++) {
        jobs[t] = (job){d, want, n, 17 * t, 0};
        assert_int_equal(pthread_create(&th[t], NULL, query_all, &jobs[t]), 0);
    }
    for (int t = 0; t < 4; t++) {
        pthread_join(th[t], NULL);
        assert_int_equal(jobs[t].bad, 0);
    }
    tm_netdist_free(d);
    tm_netdist_free(ref);
    free(want);
    tm_net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generated),
        cmocka_unit_test(test_fattree_classes),
        cmocka_unit_test(test_fattree_levels_without_table),
        cmocka_unit_test(test_big_grid),
        cmocka_unit_test(test_star),
        cmocka_unit_test(test_two_switches),
        cmocka_unit_test(test_non_transit_switch),
        cmocka_unit_test(test_random_transit_hosts),
        cmocka_unit_test(test_grid_parallel_wrap),
        cmocka_unit_test(test_grid_rejected),
        cmocka_unit_test(test_grid_beside_switches),
        cmocka_unit_test(test_unreachable),
        cmocka_unit_test(test_long_chain),
        cmocka_unit_test(test_usage),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
