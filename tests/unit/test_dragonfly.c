/* test_dragonfly.c - Valiant routing on dragonflies: the link loads of
 * flows computed by hand on dragonfly:a=3,p=1,h=1 (4 groups of 3 routers,
 * one host per router, one global cable per pair of groups), volume
 * conservation and linearity on dragonfly:h=2, the exact dilation and J
 * of tm_metrics_eval, and the refusals (other nets, --approx). */
#include <math.h>

#include "test_fixtures.h"
#include "route/route_eval.h"
#include "route/route_int.h"

static tm_net *gen(const char *spec)
{
    tm_net *net;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_gen_build(ctx, spec, NULL, net));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    return net;
}

/* Router "sw-gXXX-rYY" of dragonfly:a=3,p=1,h=1. */
static int32_t rt(const tm_net *net, int grp, int r)
{
    char name[32];
    int32_t v;
    snprintf(name, sizeof name, "sw-g%03d-r%02d", grp, r);
    v = tm_net_find(net, name);
    if (v < 0)
        fail_msg("no router %s", name);
    return v;
}

/* The directed link a -> b (the only cable between them). */
static int32_t lnk(const tm_net *net, int32_t a, int32_t b)
{
    for (int32_t c = 0; c < tm_net_n_cables(net); c++) {
        int32_t x, y;
        tm_net_cable(net, c, &x, &y);
        if (x == a && y == b)
            return 2 * c;
        if (x == b && y == a)
            return 2 * c + 1;
    }
    fail_msg("no cable %s - %s", tm_net_name(net, a), tm_net_name(net, b));
    return -1;
}

/* The host of a router (p = 1). */
static int32_t host_of(const tm_net *net, int32_t r)
{
    for (int32_t c = 0; c < tm_net_n_cables(net); c++) {
        int32_t x, y;
        tm_net_cable(net, c, &x, &y);
        if (y == r && tm_net_kind(net, x) == TM_VERTEX_HOST)
            return x;
        if (x == r && tm_net_kind(net, y) == TM_VERTEX_HOST)
            return y;
    }
    fail_msg("router %s has no host", tm_net_name(net, r));
    return -1;
}

static void assert_near(double a, double b)
{
    if (fabs(a - b) > 1e-12 * (1.0 + fabs(b)))
        fail_msg("%.17g != %.17g", a, b);
}

typedef struct expect {
    int ga, ra, gb, rb; /* router a -> router b */
    double load;
} expect;

/* load equals the expected loads on the listed router links, the host
 * cables of src and dst (vol each) and 0 everywhere else. */
static void check_loads(const tm_net *net, const double *load, const expect *e, int n,
                        int32_t src, int32_t dst, double vol)
{
    int32_t nl = 2 * tm_net_n_cables(net);
    double *want = calloc((size_t)nl, sizeof *want);
    assert_non_null(want);
    for (int i = 0; i < n; i++)
        want[lnk(net, rt(net, e[i].ga, e[i].ra), rt(net, e[i].gb, e[i].rb))] += e[i].load;
    for (int32_t l = 0; l < nl; l++) {
        int32_t a, b;
        double w = want[l];
        tm_net_cable(net, l / 2, &a, &b);
        if (l & 1) {
            int32_t t = a;
            a = b;
            b = t;
        }
        if (a == src || b == dst)
            w += vol;
        if (fabs(load[l] - w) > 1e-12)
            fail_msg("link %s -> %s: load %.17g, expected %.17g", tm_net_name(net, a),
                     tm_net_name(net, b), load[l], w);
    }
    free(want);
}

/* Global cables of dragonfly:a=3,p=1,h=1 (docs/generators.md): g0r0-g1r0,
 * g0r1-g2r0, g0r2-g3r0, g1r1-g2r1, g1r2-g3r1, g2r2-g3r2. */
static void test_valiant_by_hand(void **state)
{
    tm_net *net = gen("dragonfly:a=3,p=1,h=1");
    tm_route *r;
    tm_route_ws *ws;
    int32_t h0 = host_of(net, rt(net, 0, 0)), h3 = host_of(net, rt(net, 1, 0));
    int32_t h1 = host_of(net, rt(net, 0, 1)), hops = -1;
    double *load = calloc((size_t)(2 * tm_net_n_cables(net)), sizeof *load), vol = 1.0;
    /* h0 (g0r0) -> h3 (g1r0): half through group 2, half through group 3.
     * Group 2's nearest router from g0r0 is g2r0 (via g0r1, 3 hops from
     * h0, one path); from g2r0 two minimum-hop paths of 4 hops reach h3:
     * g2r0-g2r1-g1r1-g1r0 and g2r0-g0r1-g0r0-g1r0, a quarter each.  Group 3
     * alike through g0r2 and g3r0.  Every path: 3 + 4 = 7 hops. */
    const expect valiant[] = {
        {0, 0, 0, 1, 0.5},  {0, 1, 2, 0, 0.5},  {0, 0, 0, 2, 0.5},  {0, 2, 3, 0, 0.5},
        {2, 0, 2, 1, 0.25}, {2, 1, 1, 1, 0.25}, {1, 1, 1, 0, 0.25}, {2, 0, 0, 1, 0.25},
        {0, 1, 0, 0, 0.25}, {0, 0, 1, 0, 0.5},  {3, 0, 3, 1, 0.25}, {3, 1, 1, 2, 0.25},
        {1, 2, 1, 0, 0.25}, {3, 0, 0, 2, 0.25}, {0, 2, 0, 0, 0.25},
    };
    const expect local[] = {{0, 0, 0, 1, 1.0}};
    double sum = 0.0;
    (void)state;
    assert_non_null(load);
    assert_int_equal(tm_route_kind_parse("valiant"), TM_ROUTE_VALIANT);
    assert_string_equal(tm_route_kind_name(TM_ROUTE_VALIANT), "valiant");
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_VALIANT, &r));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, h0, 1, &h3, &vol, load, &hops));
    check_loads(net, load, valiant, (int)(sizeof valiant / sizeof valiant[0]), h0, h3, 1.0);
    assert_int_equal(hops, 7);
    assert_int_equal(tm_route_hops(r, ws, h0, h3), 7);
    for (int32_t l = 0; l < 2 * tm_net_n_cables(net); l++)
        sum += load[l];
    assert_near(sum, 7.0); /* volume x hops travelled */
    /* removing the flow (negative volume) leaves nothing */
    vol = -1.0;
    assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, h0, 1, &h3, &vol, load, NULL));
    for (int32_t l = 0; l < 2 * tm_net_n_cables(net); l++)
        assert_true(fabs(load[l]) < 1e-15);
    /* inside one group: minimal, h0 -> g0r0 -> g0r1 -> h1 */
    vol = 1.0;
    assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, h0, 1, &h1, &vol, load, &hops));
    check_loads(net, load, local, 1, h0, h1, 1.0);
    assert_int_equal(hops, 3);
    assert_int_equal(tm_route_hops(r, ws, h0, h1), 3);
    tm_route_ws_free(ws);
    tm_route_free(r);
    free(load);
    tm_net_free(net);
}

/* Per vertex, inflow - outflow: +vol at dst, -vol at src, 0 elsewhere. */
static void check_conservation(const tm_net *net, const double *load, int32_t src, int32_t dst,
                               double vol)
{
    int32_t n = tm_net_n_vertices(net);
    double *bal = calloc((size_t)n, sizeof *bal);
    assert_non_null(bal);
    for (int32_t c = 0; c < tm_net_n_cables(net); c++) {
        int32_t a, b;
        tm_net_cable(net, c, &a, &b);
        bal[b] += load[2 * c] - load[2 * c + 1];
        bal[a] += load[2 * c + 1] - load[2 * c];
    }
    for (int32_t v = 0; v < n; v++)
        if (fabs(bal[v] - (v == dst ? vol : v == src ? -vol : 0.0)) > 1e-12)
            fail_msg("vertex %s: balance %.17g", tm_net_name(net, v), bal[v]);
    free(bal);
}

/* On dragonfly:h=2 (9 groups of 4 routers, 2 hosts each): every flow is
 * conserved at every vertex, its total load is vol x mean hops (between
 * the minimal count and the longest path), routing several flows in one
 * call equals routing them one by one, and flows are linear in volume. */
static void test_valiant_conservation(void **state)
{
    tm_net *net = gen("dragonfly:h=2");
    int32_t nl = 2 * tm_net_n_cables(net), H = tm_net_n_hosts(net), dst[6], hops[6], hmin;
    double *one = calloc((size_t)nl, sizeof *one), *all = calloc((size_t)nl, sizeof *all);
    double *sep = calloc((size_t)nl, sizeof *sep), vol[6] = {1, 2, 0.5, 3, 1.5, 4};
    tm_route *r, *e;
    tm_route_ws *ws, *we;
    int32_t src = 5; /* hosts are vertices 0 .. H-1 (generators add them first) */
    (void)state;
    assert_non_null(one);
    assert_non_null(all);
    assert_non_null(sep);
    assert_int_equal(H, 72);
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_VALIANT, &r));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &e));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, e, &we));
    for (int i = 0; i < 6; i++)
        dst[i] = (int32_t)((src + 1 + 13 * i) % H); /* same router, same group, others */
    dst[0] = 4;
    for (int i = 0; i < 6; i++) {
        double s = 0.0;
        memset(one, 0, (size_t)nl * sizeof *one);
        assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, src, 1, &dst[i], &vol[i], one, &hops[i]));
        check_conservation(net, one, src, dst[i], vol[i]);
        for (int32_t l = 0; l < nl; l++) {
            s += one[l];
            sep[l] += one[l];
        }
        hmin = tm_route_hops(e, we, src, dst[i]);
        assert_true(s >= vol[i] * hmin - 1e-9);
        assert_true(s <= vol[i] * hops[i] + 1e-9);
        /* hosts of one group (8 per group): minimal; others: 5 router hops
         * at most (l g l g l in Kim et al.) plus the two host cables */
        if (src / 8 == dst[i] / 8)
            assert_int_equal(hops[i], hmin);
        else
            assert_true(hops[i] > hmin && hops[i] <= 7);
    }
    assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, src, 6, dst, vol, all, NULL));
    for (int32_t l = 0; l < nl; l++)
        assert_true(fabs(all[l] - sep[l]) < 1e-12);
    tm_route_ws_free(we);
    tm_route_free(e);
    tm_route_ws_free(ws);
    tm_route_free(r);
    free(one);
    free(all);
    free(sep);
    tm_net_free(net);
}

/* tm_metrics_eval: two tasks on h0 and h3 exchanging 1 each way: dilation
 * 7 and J = 14 (hop distance 1), not the minimal 3 and 6. */
static void test_valiant_metrics(void **state)
{
    tm_net *net = gen("dragonfly:a=3,p=1,h=1");
    const int32_t s[2] = {0, 1}, d[2] = {1, 0};
    const double w[2] = {1, 1};
    tm_comm c;
    tm_mapping map;
    tm_metrics m;
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    tm_route *r;
    (void)state;
    assert_tm_ok(ctx, tm_comm_from_entries(ctx, 2, 2, s, d, w, &c));
    tm_mapping_init(&map);
    assert_tm_ok(ctx, tm_mapping_alloc(ctx, &map, 2, false));
    map.host[0] = host_of(net, rt(net, 0, 0));
    map.host[1] = host_of(net, rt(net, 1, 0));
    map.slot[0] = map.slot[1] = 0;
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_VALIANT, &r));
    assert_tm_ok(ctx, tm_metrics_eval(ctx, r, &c, &map, NULL, &m));
    assert_int_equal(m.max_dilation, 7);
    assert_near(m.avg_dilation, 7.0);
    assert_near(m.qap_J, 14.0);
    /* each direction: 1 on its host cables, 0.5 on g0r0 -> g1r0 */
    assert_near(m.max_congestion, 1.0);
    tm_metrics_release(&m);
    o.approximate = true;
    assert_tm_error(ctx, tm_metrics_eval(ctx, r, &c, &map, &o, &m), TM_EUSAGE,
                    "evaluated exactly only");
    tm_metrics_release(&m);
    tm_route_free(r);
    tm_mapping_release(&map);
    tm_comm_release(&c);
    tm_net_free(net);
}

/* The exact evaluation routes the hosts of one router together (stub
 * hosts, route_eval.h): on dragonfly:h=2 (2 hosts per router) its loads,
 * dilation and J equal those of every message routed alone. */
static void test_valiant_metrics_by_message(void **state)
{
    tm_net *net = gen("dragonfly:h=2");
    int32_t n = 72, m = 0, nl = 2 * tm_net_n_cables(net), s[216], d[216], hmax = 0;
    double w[216], *load = calloc((size_t)nl, sizeof *load), whops = 0.0, tot = 0.0;
    tm_comm c;
    tm_mapping map;
    tm_metrics mt;
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    tm_route *r;
    tm_route_ws *ws;
    (void)state;
    assert_non_null(load);
    for (int32_t i = 0; i < n; i++) /* same router, same group, another group */
        for (int k = 0; k < 3; k++) {
            s[m] = i;
            d[m] = (i + (k == 0 ? 1 : k == 1 ? 3 : 29)) % n;
            w[m++] = 1.0 + (i * 7 + k) % 5;
        }
    assert_tm_ok(ctx, tm_comm_from_entries(ctx, n, m, s, d, w, &c));
    tm_mapping_init(&map);
    assert_tm_ok(ctx, tm_mapping_alloc(ctx, &map, n, false));
    for (int32_t i = 0; i < n; i++) {
        map.host[i] = i; /* hosts are vertices 0 .. 71 */
        map.slot[i] = 0;
    }
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_VALIANT, &r));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    for (int32_t i = 0; i < c.n; i++)
        for (int64_t e = c.xadj[i]; e < c.xadj[i + 1]; e++) {
            int32_t h;
            assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, i, 1, &c.adj[e], &c.w[e], load, &h));
            whops += c.w[e] * h;
            tot += c.w[e];
            if (h > hmax)
                hmax = h;
        }
    o.keep_link_loads = true;
    assert_tm_ok(ctx, tm_metrics_eval(ctx, r, &c, &map, &o, &mt));
    for (int32_t l = 0; l < nl; l++)
        assert_true(fabs(mt.link_load[l] - load[l]) < 1e-9);
    assert_int_equal(mt.max_dilation, hmax);
    assert_int_equal(hmax, 7);
    /* the mean: exact from the loads, at most every flow's longest path */
    assert_true(mt.sum_w_hops <= whops + 1e-9);
    tot = 0.0;
    for (int32_t l = 0; l < nl; l++)
        tot += load[l];
    assert_true(fabs(mt.sum_w_hops - tot) < 1e-9);
    assert_true(fabs(mt.qap_J - mt.sum_w_hops) < 1e-9);
    tm_metrics_release(&mt);
    tm_route_ws_free(ws);
    tm_route_free(r);
    tm_mapping_release(&map);
    tm_comm_release(&c);
    free(load);
    tm_net_free(net);
}

/* UGAL-G by hand on dragonfly:a=4,p=1,h=1 (5 groups of 4 routers; in
 * group x router r holds the global cable to the partner of rank r, so
 * g0r0-g1r0, g0r1-g2r0, g0r2-g3r0, g0r3-g4r0, g1r1-g2r1, g1r2-g3r1,
 * g1r3-g4r1, g2r2-g3r2, g2r3-g4r2, g3r3-g4r3).  Flow A: 3 units from the
 * host of g0r0 to the host of g1r1.
 *  minimal: g0r0 -> g1r0 -> g1r1, 4 hops, 3 on both router links;
 *  valiant: 1/3 through each of groups 2, 3, 4, one path each:
 *    g0r0-g0r1-g2r0-g2r1-g1r1 (6 hops), g0r0-g0r2-g3r0-g3r1-g1r2-g1r1 and
 *    g0r0-g0r3-g4r0-g4r1-g1r3-g1r1 (7 hops): 1 on each of 14 router
 *    links, mean 20/3 hops.
 * Alone: cost minimal 4 x 3 = 12, Valiant (6 x 1 + 7 x 1 + 7 x 1) / 3 =
 * 6.67 (the mean over the groups): A goes Valiant.
 * With flow C, 3 units from the host of g0r2 to the host of g3r0 (one
 * router link, g0r2 -> g3r0, 3 hops): A's path through group 3 would see
 * 3 + 1 there, cost (6 x 1 + 7 x 4 + 7 x 1) / 3 = 13.7 > 12: A stays
 * minimal; C's minimal cost is 3 x 3 = 9, its 7-hop paths through group 1
 * enter it over g0r0 -> g1r0 with 3 + 1: Valiant cost > 7 x 4 / 3 = 9.3:
 * C stays minimal.  One pass, no change. */
static void test_ugal_by_hand(void **state)
{
    tm_net *net = gen("dragonfly:a=4,p=1,h=1,hostcap=100");
    int32_t nl = 2 * tm_net_n_cables(net), hops[2], src[2], dst[2];
    int32_t a_s = host_of(net, rt(net, 0, 0)), a_d = host_of(net, rt(net, 1, 1));
    int32_t c_s = host_of(net, rt(net, 0, 2)), c_d = host_of(net, rt(net, 3, 0));
    double *load = calloc((size_t)nl, sizeof *load), vol[2] = {3, 3};
    unsigned char val[2];
    int passes = 0;
    tm_route *r;
    tm_route_ws *ws;
    const expect valiant[] = {
        {0, 0, 0, 1, 1}, {0, 1, 2, 0, 1}, {2, 0, 2, 1, 1}, {2, 1, 1, 1, 1}, {0, 0, 0, 2, 1},
        {0, 2, 3, 0, 1}, {3, 0, 3, 1, 1}, {3, 1, 1, 2, 1}, {1, 2, 1, 1, 1}, {0, 0, 0, 3, 1},
        {0, 3, 4, 0, 1}, {4, 0, 4, 1, 1}, {4, 1, 1, 3, 1}, {1, 3, 1, 1, 1},
    };
    const expect minimal[] = {{0, 0, 1, 0, 3}, {1, 0, 1, 1, 3}};
    (void)state;
    assert_non_null(load);
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_UGAL, &r));
    assert_true(tm__route_is_ugal(r));
    assert_tm_ok(ctx, tm__route_ugal_loads(ctx, r, 1, &a_s, &a_d, vol, load, hops, val, &passes));
    assert_int_equal(val[0], 1);
    assert_int_equal(hops[0], 7);
    assert_int_equal(passes, 2); /* the switch, then a pass without change */
    check_loads(net, load, valiant, (int)(sizeof valiant / sizeof valiant[0]), a_s, a_d, 3.0);
    memset(load, 0, (size_t)nl * sizeof *load);
    src[0] = a_s, dst[0] = a_d, src[1] = c_s, dst[1] = c_d;
    assert_tm_ok(ctx, tm__route_ugal_loads(ctx, r, 2, src, dst, vol, load, hops, val, &passes));
    assert_int_equal(val[0], 0);
    assert_int_equal(val[1], 0);
    assert_int_equal(hops[0], 4);
    assert_int_equal(hops[1], 3);
    assert_int_equal(passes, 1);
    /* A's minimal loads plus C's: subtract C and compare with A alone */
    load[lnk(net, c_s, rt(net, 0, 2))] -= 3;
    load[lnk(net, rt(net, 0, 2), rt(net, 3, 0))] -= 3;
    load[lnk(net, rt(net, 3, 0), c_d)] -= 3;
    check_loads(net, load, minimal, 2, a_s, a_d, 3.0);
    /* per-flow calls (strategies, refinement) are minimal */
    memset(load, 0, (size_t)nl * sizeof *load);
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, a_s, 1, &a_d, vol, load, hops));
    check_loads(net, load, minimal, 2, a_s, a_d, 3.0);
    assert_int_equal(hops[0], 4);
    tm_route_ws_free(ws);
    tm_route_free(r);
    free(load);
    tm_net_free(net);
}

/* hops x max over the router links that `on` uses of (others + w x
 * share) / capacity, others = load - w x cur, share = next; hops = the
 * sum of `on` / its fraction of the flow. */
static double paths_cost(const tm_net *net, const double *on, double frac, const double *load,
                         const double *cur, const double *next, double w)
{
    double hops = 0.0, worst = 0.0;
    for (int32_t l = 0; l < 2 * tm_net_n_cables(net); l++) {
        int32_t x, y;
        double c;
        hops += on[l];
        tm_net_cable(net, l / 2, &x, &y);
        if (on[l] == 0.0 || tm_net_kind(net, x) == TM_VERTEX_HOST ||
            tm_net_kind(net, y) == TM_VERTEX_HOST)
            continue;
        c = (load[l] - w * cur[l] + w * next[l]) / tm_net_capacity(net, l / 2);
        if (c > worst)
            worst = c;
    }
    return hops / frac * worst;
}

/* UGAL's two costs of flow src -> dst (volume w, now routed by router
 * cur) as docs/routing.md defines them, from the ecmp and valiant routers
 * and Valiant's share through each group (tm__valiant_via). */
static void ugal_costs(const tm_net *net, tm_route *ug, tm_route_ws *wu, tm_route *re,
                       tm_route_ws *we, tm_route *rv, tm_route_ws *wv, bool cur_val,
                       int32_t src, int32_t dst, double w, const double *load, double *cm,
                       double *cv)
{
    int32_t nl = 2 * tm_net_n_cables(net), n_mid = 0, h;
    double one = 1.0, *mn = calloc((size_t)nl, 8), *va = calloc((size_t)nl, 8);
    double *via = calloc((size_t)nl, 8), sum = 0.0;
    assert_non_null(mn);
    assert_non_null(va);
    assert_non_null(via);
    assert_tm_ok(ctx, tm_route_flows(ctx, re, we, src, 1, &dst, &one, mn, NULL));
    assert_tm_ok(ctx, tm_route_flows(ctx, rv, wv, src, 1, &dst, &one, va, NULL));
    *cm = paths_cost(net, mn, 1.0, load, cur_val ? va : mn, mn, w);
    for (int32_t x = 0; x < 9; x++) { /* dragonfly:h=2: 9 groups of 8 hosts */
        if (x == src / 8 || x == dst / 8)
            continue;
        memset(via, 0, (size_t)nl * 8);
        assert_tm_ok(ctx, tm__valiant_via(ctx, ug, wu, src, dst, x, via, &h));
        sum += paths_cost(net, via, 1.0 / 7, load, cur_val ? va : mn, va, w);
        n_mid++;
    }
    *cv = sum / n_mid;
    free(mn);
    free(va);
    free(via);
}

/* On dragonfly:h=2 with 216 flows: the result is a fixed point of the
 * documented rule, checked with the valiant and ecmp routers: every flow
 * between groups is Valiant exactly when that routing costs less, the
 * loads are the sum of the chosen routings, and tm_metrics_eval gives the
 * same loads. */
static void test_ugal_fixed_point(void **state)
{
    tm_net *net = gen("dragonfly:h=2");
    int32_t nl = 2 * tm_net_n_cables(net), m = 0, s[216], d[216], hops[216], host[72];
    double w[216], *load = calloc((size_t)nl, sizeof *load), *sum = calloc((size_t)nl, 8);
    unsigned char val[216];
    int passes = 0, n_val = 0;
    tm_route *r, *rv, *re;
    tm_route_ws *wv, *we, *wu;
    tm_comm c;
    tm_mapping map;
    tm_metrics mt;
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    (void)state;
    assert_non_null(load);
    assert_non_null(sum);
    for (int32_t i = 0; i < 72; i++)
        for (int k = 1; k <= 3; k++) {
            s[m] = i;
            d[m] = (i + (k == 1 ? 8 : k == 2 ? 1 : 29)) % 72; /* +8: group to group */
            w[m++] = 1 + (i * 5 + k) % 4;
        }
    /* the flows in the evaluation's order: by source, then destination */
    assert_tm_ok(ctx, tm_comm_from_entries(ctx, 72, m, s, d, w, &c));
    for (int32_t u = 0, j = 0; u < c.n; u++)
        for (int64_t e = c.xadj[u]; e < c.xadj[u + 1]; e++, j++) {
            s[j] = u;
            d[j] = c.adj[e];
            w[j] = c.w[e];
        }
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_UGAL, &r));
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_VALIANT, &rv));
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &re));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, rv, &wv));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, re, &we));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &wu));
    assert_tm_ok(ctx, tm__route_ugal_loads(ctx, r, (size_t)m, s, d, w, load, hops, val, &passes));
    assert_true(passes < 8);
    for (int32_t i = 0; i < m; i++) {
        tm_route *cur = val[i] ? rv : re;
        tm_route_ws *wc = val[i] ? wv : we;
        double cm, cv;
        assert_tm_ok(ctx, tm_route_flows(ctx, cur, wc, s[i], 1, &d[i], &w[i], sum, NULL));
        assert_int_equal(hops[i], tm_route_hops(cur, wc, s[i], d[i]));
        if (s[i] / 8 == d[i] / 8) { /* one group: always minimal */
            assert_int_equal(val[i], 0);
            continue;
        }
        ugal_costs(net, r, wu, re, we, rv, wv, val[i], s[i], d[i], w[i], load, &cm, &cv);
        if (fabs(cm - cv) > 1e-9)
            assert_int_equal(val[i], cv < cm);
        n_val += val[i];
    }
    if (!(n_val > 0 && n_val < m)) /* both routings occur */
        fail_msg("%d of %d flows valiant", n_val, (int)m);
    for (int32_t l = 0; l < nl; l++)
        assert_true(fabs(sum[l] - load[l]) < 1e-9);
    /* the evaluation: the same flows as one task per host */
    tm_mapping_init(&map);
    assert_tm_ok(ctx, tm_mapping_alloc(ctx, &map, 72, false));
    for (int32_t i = 0; i < 72; i++) {
        host[i] = i;
        map.host[i] = host[i];
        map.slot[i] = 0;
    }
    o.keep_link_loads = true;
    assert_tm_ok(ctx, tm_metrics_eval(ctx, r, &c, &map, &o, &mt));
    for (int32_t l = 0; l < nl; l++)
        assert_true(fabs(mt.link_load[l] - load[l]) < 1e-9);
    tm_metrics_release(&mt);
    tm_mapping_release(&map);
    tm_comm_release(&c);
    tm_route_ws_free(wv);
    tm_route_ws_free(we);
    tm_route_ws_free(wu);
    tm_route_free(rv);
    tm_route_free(re);
    tm_route_free(r);
    free(load);
    free(sum);
    tm_net_free(net);
}

/* Failed cables: the groups are those of the net as built (dfgroups.c),
 * flows avoid the failed cables and are still conserved.  On
 * dragonfly:a=3,p=1,h=1 with the global cable g0r1-g2r0 failed, the
 * nearest router of group 2 from g0r0 is g2r1 (via g1r0, g1r1) or g2r2
 * (via g0r2, g3r0, g3r2) - the first, at 4 hops against 5. */
static void test_valiant_failures(void **state)
{
    tm_net *net = gen("dragonfly:a=3,p=1,h=1");
    int32_t h0 = host_of(net, rt(net, 0, 0)), h3 = host_of(net, rt(net, 1, 0)), hops;
    int32_t failed = lnk(net, rt(net, 0, 1), rt(net, 2, 0)), nl = 2 * tm_net_n_cables(net);
    double *load = calloc((size_t)nl, sizeof *load), vol = 1.0;
    tm_route *r;
    tm_route_ws *ws;
    (void)state;
    assert_non_null(load);
    tm_net_set_cable_enabled(net, failed / 2, false);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_VALIANT, &r));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, h0, 1, &h3, &vol, load, &hops));
    check_conservation(net, load, h0, h3, 1.0);
    assert_true(load[failed] == 0.0 && load[failed ^ 1] == 0.0);
    /* group 2's half enters at g2r1 through g1r0 -> g1r1 -> g2r1 */
    assert_near(load[lnk(net, rt(net, 1, 1), rt(net, 2, 1))], 0.5);
    tm_route_ws_free(ws);
    tm_route_free(r);
    free(load);
    tm_net_free(net);
}

static void test_valiant_refusals(void **state)
{
    tm_net *ft = gen("fattree:k=4,n=2"), *ring = gen("dragonfly:a=2,p=1,h=1");
    tm_net *two = gen("dragonfly:a=3,p=1,h=1,g=2");
    tm_route *r = NULL;
    (void)state;
    assert_tm_error(ctx, tm_route_new(ctx, ft, TM_ROUTE_VALIANT, &r), TM_EUSAGE,
                    "needs a dragonfly");
    /* a=2: 6 routers in a ring; the graph alone cannot tell it from one */
    assert_tm_error(ctx, tm_route_new(ctx, ring, TM_ROUTE_VALIANT, &r), TM_EUSAGE,
                    "needs a dragonfly");
    /* two groups: no intermediate group */
    assert_tm_error(ctx, tm_route_new(ctx, two, TM_ROUTE_VALIANT, &r), TM_EUSAGE,
                    "at least 3 dragonfly groups");
    assert_null(r);
    tm_net_free(two);
    tm_net_free(ring);
    tm_net_free(ft);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valiant_by_hand),
        cmocka_unit_test(test_valiant_conservation),
        cmocka_unit_test(test_valiant_metrics),
        cmocka_unit_test(test_valiant_metrics_by_message),
        cmocka_unit_test(test_valiant_refusals),
        cmocka_unit_test(test_valiant_failures),
        cmocka_unit_test(test_ugal_by_hand),
        cmocka_unit_test(test_ugal_fixed_point),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
