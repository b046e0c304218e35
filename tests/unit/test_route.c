/* test_route.c - routing models: ECMP against brute-force enumeration of
 * all minimum-hop paths on random multigraphs (switches, hosts, transit
 * rules), parallel cables, caching with +-vol, single path and dimension
 * order checked by hand, unreachable destinations, usage errors. */
#include <math.h>

#include "test_fixtures.h"
#include "route/gridbox.h"
#include "util/util.h"

static int32_t add_v(tm_net *net, const char *name, bool host)
{
    int32_t id;
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, name, host ? TM_VERTEX_HOST : TM_VERTEX_SWITCH,
                                        host ? 1 : 0, &id));
    return id;
}

static int32_t add_c(tm_net *net, int32_t a, int32_t b, double cap)
{
    int32_t c;
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, a, b, cap, &c));
    return c;
}

static void assert_near(double a, double b)
{
    if (fabs(a - b) > 1e-12 * (1.0 + fabs(b)))
        fail_msg("%.17g != %.17g", a, b);
}

/* ---- names and usage ------------------------------------------------------ */

static void test_kinds(void **state)
{
    (void)state;
    assert_int_equal(tm_route_kind_parse("ecmp"), TM_ROUTE_ECMP);
    assert_int_equal(tm_route_kind_parse("single"), TM_ROUTE_SINGLE);
    assert_int_equal(tm_route_kind_parse("dor"), TM_ROUTE_DOR);
    assert_int_equal(tm_route_kind_parse("ECMP"), -1);
    assert_int_equal(tm_route_kind_parse(""), -1);
    assert_int_equal(tm_route_kind_parse(NULL), -1);
    assert_string_equal(tm_route_kind_name(TM_ROUTE_DOR), "dor");
    assert_int_equal(tm_route_kind_parse("valiant"), TM_ROUTE_VALIANT);
    assert_int_equal(tm_route_kind_parse("ugal"), TM_ROUTE_UGAL);
    assert_string_equal(tm_route_kind_name((tm_route_kind)9), "unknown");
}

static void test_usage_errors(void **state)
{
    tm_net *net;
    tm_route *r = NULL;
    tm_route_ws *ws;
    int32_t h0, h1, sw, bad = 99;
    double load[4] = {0}, vol = 1;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    h0 = add_v(net, "h0", true);
    h1 = add_v(net, "h1", true);
    sw = add_v(net, "sw", false);
    add_c(net, h0, sw, 1);
    /* not finalized */
    assert_tm_error(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &r), TM_EUSAGE, "finalized");
    assert_null(r);
    add_c(net, h1, sw, 1);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_error(ctx, tm_route_new(ctx, net, TM_ROUTE_DOR, &r), TM_EUSAGE, "grid");
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &r));
    assert_int_equal(tm_route_kind_of(r), TM_ROUTE_ECMP);
    assert_ptr_equal(tm_route_net(r), net);
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    assert_tm_error(ctx, tm_route_flows(ctx, r, ws, h0, 1, &sw, &vol, load, NULL), TM_EUSAGE,
                    "'sw' is not a host");
    assert_tm_error(ctx, tm_route_flows(ctx, r, ws, h0, 1, &bad, &vol, load, NULL), TM_EUSAGE,
                    "out of range");
    assert_int_equal(tm_route_hops(r, ws, h0, h1), 2);
    assert_int_equal(tm_route_hops(r, ws, h1, h1), 0);
    assert_int_equal(tm_route_hops(r, ws, h0, 99), -1);
    for (int l = 0; l < 4; l++)
        assert_true(load[l] == 0);
    tm_route_ws_free(ws);
    tm_route_free(r);
    tm_route_ws_free(NULL);
    tm_route_free(NULL);
    tm_net_free(net);
}

/* h0 = sw = h1: two parallel cables on each side; ECMP halves the load. */
static void test_parallel_cables(void **state)
{
    tm_net *net;
    tm_route *r;
    tm_route_ws *ws;
    int32_t h0, h1, sw, hops = -1;
    double load[8] = {0}, vol = 10;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    h0 = add_v(net, "h0", true);
    sw = add_v(net, "sw", false);
    h1 = add_v(net, "h1", true);
    add_c(net, h0, sw, 10); /* links 0 (h0->sw), 1 */
    add_c(net, sw, h0, 10); /* links 2, 3 (h0->sw) */
    add_c(net, sw, h1, 10); /* links 4 (sw->h1), 5 */
    add_c(net, h1, sw, 10); /* links 6, 7 (sw->h1) */
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &r));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, h0, 1, &h1, &vol, load, &hops));
    assert_int_equal(hops, 2);
    assert_near(load[0], 5);
    assert_near(load[3], 5);
    assert_near(load[4], 5);
    assert_near(load[7], 5);
    assert_near(load[1] + load[2] + load[5] + load[6], 0);
    /* removing the flow again restores zero loads (refinement's use) */
    vol = -10;
    assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, h0, 1, &h1, &vol, load, NULL));
    for (int l = 0; l < 8; l++)
        assert_near(load[l], 0);
    tm_route_ws_free(ws);
    tm_route_free(r);
    tm_net_free(net);
}

/* Non-transit hosts: h0 - s0 - h1 - s1 - h2 where h1 is dual-homed.  With
 * switches present h1 must not carry traffic: h0 cannot reach h2. */
static void test_transit_rules(void **state)
{
    tm_net *net;
    tm_route *r;
    tm_route_ws *ws;
    int32_t h0, h1, h2, s0, s1, hops;
    double load[8] = {0}, vol = 1;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    h0 = add_v(net, "h0", true);
    h1 = add_v(net, "h1", true);
    h2 = add_v(net, "h2", true);
    s0 = add_v(net, "s0", false);
    s1 = add_v(net, "s1", false);
    add_c(net, h0, s0, 1);
    add_c(net, h1, s0, 1);
    add_c(net, h1, s1, 1);
    add_c(net, h2, s1, 1);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &r));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    assert_tm_error(ctx, tm_route_flows(ctx, r, ws, h0, 1, &h2, &vol, load, &hops), TM_EINPUT,
                    "host 'h0' cannot reach host 'h2'");
    assert_int_equal(tm_route_hops(r, ws, h0, h2), -1);
    assert_int_equal(tm_route_hops(r, ws, h0, h1), 2);
    assert_int_equal(tm_route_hops(r, ws, h1, h2), 2); /* h1 may start a path */
    for (int l = 0; l < 8; l++)
        assert_true(load[l] == 0);
    tm_route_ws_free(ws);
    tm_route_free(r);
    /* now h1 forwards */
    assert_tm_ok(ctx, tm_net_set_transit(ctx, net, h1, TM_TRANSIT_YES));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &r));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, h0, 1, &h2, &vol, load, &hops));
    assert_int_equal(hops, 4);
    assert_near(load[0] + load[3] + load[4] + load[7], 4);
    tm_route_ws_free(ws);
    tm_route_free(r);
    tm_net_free(net);
}

/* ---- ECMP against brute force ------------------------------------------- */

typedef struct brute {
    const tm_net_csr *g;
    int32_t src, dst, len;
    int32_t path[16];
    double count;
    double *acc;     /* per link: number of paths using it */
} brute;

/* All link sequences of length b->len from src to dst whose inner
 * vertices are transit; independent of the library's BFS. */
static void brute_dfs(brute *b, int32_t v, int32_t depth)
{
    const tm_net_csr *g = b->g;
    if (depth == b->len) {
        if (v == b->dst) {
            b->count += 1;
            for (int32_t i = 0; i < depth; i++)
                b->acc[b->path[i]] += 1;
        }
        return;
    }
    if (depth > 0 && !g->transit[v])
        return;
    for (int32_t l = 0; l < g->n_links; l++) {
        bool enabled = false;
        if (g->tail_of[l] != v)
            continue;
        /* only links present in the adjacency (enabled cables) */
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++)
            if (g->link[j] == l)
                enabled = true;
        if (!enabled)
            continue;
        b->path[depth] = l;
        brute_dfs(b, g->head_of[l], depth + 1);
    }
}

/* Expected loads of vol from src to dst (all zero and -1 if unreachable). */
static int32_t brute_flow(const tm_net_csr *g, int32_t src, int32_t dst, double vol, double *load)
{
    brute b = {.g = g, .src = src, .dst = dst};
    if (src == dst)
        return 0;
    b.acc = calloc((size_t)g->n_links, sizeof *b.acc);
    for (b.len = 1; b.len <= g->n && b.len < 16; b.len++) {
        brute_dfs(&b, src, 0);
        if (b.count > 0)
            break;
    }
    if (b.count > 0)
        for (int32_t l = 0; l < g->n_links; l++)
            load[l] += vol * b.acc[l] / b.count;
    free(b.acc);
    return b.count > 0 ? b.len : -1;
}

/* Rails of host s as docs/routing.md defines them, counted here from the
 * adjacency (not tm_net_host_rails): its distinct neighbours when s is
 * not transit and they all are; else 0. */
static int32_t brute_rails(const tm_net_csr *g, int32_t s, int32_t *sw)
{
    int32_t n = 0;
    if (g->transit[s])
        return 0;
    for (int32_t j = g->off[s]; j < g->off[s + 1]; j++) {
        int32_t w = g->head[j], i = 0;
        if (!g->transit[w])
            return 0;
        while (i < n && sw[i] != w)
            i++;
        if (i == n)
            sw[n++] = w;
    }
    return n;
}

/* brute_flow for a source that may be multi-rail (routers that stripe):
 * vol split evenly over the rails whose switch reaches dst, each share
 * evenly over the rail's cables and then over the switch's minimum-hop
 * paths.  Returns the longest part's hops; *mean the volume-weighted
 * mean hops. */
static int32_t brute_route(const tm_net_csr *g, bool striped, int32_t src, int32_t dst,
                           double vol, double *load, double *mean)
{
    int32_t sw[64], n = striped ? brute_rails(g, src, sw) : 0, reach = 0, far = -1;
    double *none = calloc((size_t)g->n_links + 1, sizeof *none);
    int32_t h;
    *mean = 0;
    if (n < 2 || src == dst) {
        free(none);
        h = brute_flow(g, src, dst, vol, load);
        *mean = h;
        return h;
    }
    for (int32_t i = 0; i < n; i++)
        reach += brute_flow(g, sw[i], dst, 0.0, none) >= 0;
    for (int32_t i = 0; i < n && reach; i++) {
        int32_t m = 0;
        if ((h = brute_flow(g, sw[i], dst, vol / reach, load)) < 0)
            continue;
        for (int32_t j = g->off[src]; j < g->off[src + 1]; j++)
            m += g->head[j] == sw[i];
        for (int32_t j = g->off[src]; j < g->off[src + 1]; j++)
            if (g->head[j] == sw[i])
                load[g->link[j]] += vol / reach / m;
        far = h + 1 > far ? h + 1 : far;
        *mean += (double)(h + 1) / reach;
    }
    free(none);
    return far;
}

/* A random multigraph: 0-3 switches, 2-7 hosts, parallel cables, random
 * transit policies and capacities, some disabled cables; maybe
 * disconnected. */
static tm_net *random_net(tm__rng *rng)
{
    tm_net *net;
    int32_t n_sw = (int32_t)tm__rng_below(rng, 4), n_h = 2 + (int32_t)tm__rng_below(rng, 6);
    int32_t n = n_sw + n_h, m = n + (int32_t)tm__rng_below(rng, (uint64_t)n + 2);
    char name[16];
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    for (int32_t i = 0; i < n; i++) {
        snprintf(name, sizeof name, "%s%d", i < n_sw ? "s" : "h", (int)i);
        add_v(net, name, i >= n_sw);
        if (i >= n_sw && tm__rng_below(rng, 4) == 0)
            assert_tm_ok(ctx, tm_net_set_transit(ctx, net, i, tm__rng_below(rng, 2) ? TM_TRANSIT_YES
                                                                                : TM_TRANSIT_NO));
    }
    for (int32_t c = 0; c < m; c++) {
        int32_t a = (int32_t)tm__rng_below(rng, (uint64_t)n), b = (int32_t)tm__rng_below(rng, (uint64_t)n);
        int32_t id;
        if (a == b)
            continue;
        id = add_c(net, a, b, 1.0 + (double)tm__rng_below(rng, 3));
        if (tm__rng_below(rng, 3) == 0) /* a parallel twin */
            add_c(net, b, a, 2.0);
        if (tm__rng_below(rng, 12) == 0)
            tm_net_set_cable_enabled(net, id, false);
    }
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    return net;
}

static void check_random_net(tm__rng *rng, tm_route_kind kind)
{
    tm_net *net = random_net(rng);
    const tm_net_csr *g = tm_net_csr_get(net);
    tm_route *r;
    tm_route_ws *ws;
    int32_t nl = g->n_links;
    double *want = calloc((size_t)nl + 1, sizeof *want), *got = calloc((size_t)nl + 1, sizeof *got);
    double *one = calloc((size_t)nl + 1, sizeof *one);
    int32_t dst[16], hops[16];
    double vol[16], mean[16], mh;

    assert_tm_ok(ctx, tm_route_new(ctx, net, kind, &r));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    for (int32_t s = 0; s < g->n; s++) {
        size_t k = 0;
        if (!g->is_host[s])
            continue;
        memset(want, 0, (size_t)nl * sizeof *want);
        memset(got, 0, (size_t)nl * sizeof *got);
        for (int32_t t = 0; t < g->n; t++) {
            double v = 1.0 + (double)tm__rng_below(rng, 5);
            int32_t h;
            if (!g->is_host[t])
                continue;
            h = brute_route(g, true, s, t, v, want, &mh);
            assert_int_equal(tm_route_hops(r, ws, s, t), h);
            if (h < 0) {
                int32_t hh;
                assert_tm_error(ctx, tm_route_flows(ctx, r, ws, s, 1, &t, &v, one, &hh),
                                TM_EINPUT, "cannot reach");
                continue;
            }
            /* k = 1 calls (cached DAG) with +v then -v leave nothing */
            assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, s, 1, &t, &v, one, NULL));
            v = -v;
            assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, s, 1, &t, &v, one, NULL));
            v = -v;
            dst[k] = t;
            vol[k] = v;
            mean[k++] = mh;
            if (t == s || tm__rng_below(rng, 3) == 0) { /* repeated destination */
                dst[k] = t;
                vol[k] = 0.5;
                brute_route(g, true, s, t, 0.5, want, &mean[k]);
                k++;
            }
        }
        assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, s, k, dst, vol, got, hops));
        for (size_t i = 0; i < k; i++)
            assert_int_equal(hops[i], tm_route_hops(r, ws, s, dst[i]));
        if (kind == TM_ROUTE_ECMP) {
            for (int32_t l = 0; l < nl; l++)
                assert_near(got[l], want[l]);
        } else {
            /* single: every flow (every rail's part of it) on one path;
             * total load = sum vol x mean hops, and only links that some
             * shortest path (of a rail) uses */
            double tot = 0, exp_tot = 0;
            for (size_t i = 0; i < k; i++)
                exp_tot += vol[i] * mean[i];
            for (int32_t l = 0; l < nl; l++) {
                tot += got[l];
                if (got[l] != 0)
                    assert_true(want[l] > 0);
            }
            assert_near(tot, exp_tot);
        }
    }
    for (int32_t l = 0; l < nl; l++)
        assert_true(fabs(one[l]) < 1e-9);
    tm_route_ws_free(ws);
    tm_route_free(r);
    tm_net_free(net);
    free(want);
    free(got);
    free(one);
}

static void test_ecmp_brute_force(void **state)
{
    tm__rng rng;
    (void)state;
    tm__rng_seed(&rng, 42, 0);
    for (int i = 0; i < 300; i++)
        check_random_net(&rng, TM_ROUTE_ECMP);
}

static void test_single_random(void **state)
{
    tm__rng rng;
    (void)state;
    tm__rng_seed(&rng, 7, 1);
    for (int i = 0; i < 100; i++)
        check_random_net(&rng, TM_ROUTE_SINGLE);
}

/* More sources than cache entries, revisited: results must not depend on
 * what the cache holds. */
static void test_cache_eviction(void **state)
{
    tm_net *net;
    tm_route *r;
    tm_route_ws *ws, *fresh;
    int32_t ids[40], n = 40;
    char name[16];
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    for (int32_t i = 0; i < n; i++) {
        snprintf(name, sizeof name, "h%d", (int)i);
        ids[i] = add_v(net, name, true);
    }
    for (int32_t i = 0; i < n; i++) { /* ring with chords: hosts transit */
        add_c(net, ids[i], ids[(i + 1) % n], 1);
        if (i % 5 == 0)
            add_c(net, ids[i], ids[(i + 13) % n], 1);
    }
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &r));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    for (int round = 0; round < 3; round++)
        for (int32_t s = 0; s < n; s++) {
            int32_t t = (s * 7 + round * 11 + 3) % n;
            double a[200] = {0}, b[200] = {0}, v = 1.5;
            assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &fresh));
            assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, s, 1, &t, &v, a, NULL));
            assert_tm_ok(ctx, tm_route_flows(ctx, r, fresh, s, 1, &t, &v, b, NULL));
            assert_memory_equal(a, b, sizeof a);
            tm_route_ws_free(fresh);
        }
    tm_route_ws_free(ws);
    tm_route_free(r);
    tm_net_free(net);
}

/* The batch of route/gridbox.h (the exact evaluation's: closed form,
 * a message and its reverse in one box, rows owned by threads) on the
 * same grids: random messages, some with their reverse, some between
 * hosts whose rings tie, against every minimum-hop path enumerated; and
 * bit-identical loads for 1, 2, 3 and 8 threads. */
static void test_gridbox_batch_brute_force(void **state)
{
    static const char *specs[] = {"torus:4x5x3", "torus:6x4", "mesh:3x4x2", "torus:8",
                                  "torus:4x4x4", "mesh:5x3", "torus:3x2x4", "torus:4x3x3x2",
                                  "torus:6x6", "mesh:7", "torus:10x2x6", "mesh:1x5",
                                  "torus:3x1x4", "mesh:6x1x1", "torus:5x1"};
    tm__rng rng;
    (void)state;
    tm__rng_seed(&rng, 11, 0);
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        tm_net *net;
        tm_route *r;
        const tm_net_csr *g;
        const tm__gridbox *gb;
        tm__gridmsg msg[200];
        double *want, *ref, *got;
        size_t m = 0;
        int tries = 0;
        assert_tm_ok(ctx, tm_net_new(ctx, &net));
        assert_tm_ok(ctx, tm_gen_build(ctx, specs[i], NULL, net));
        assert_tm_ok(ctx, tm_net_finalize(ctx, net));
        g = tm_net_csr_get(net);
        assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &r));
        gb = tm__route_gridbox(r);
        if (!gb)
            fail_msg("%s: no grid", specs[i]);
        want = calloc((size_t)g->n_links, sizeof *want);
        ref = calloc((size_t)g->n_links, sizeof *ref);
        got = calloc((size_t)g->n_links, sizeof *got);
        while (m < 120 && tries++ < 2000) { /* distinct pairs; a third with the reverse too */
            int32_t s = gb->base + (int32_t)tm__rng_below(&rng, (uint64_t)gb->n);
            int32_t t = gb->base + (int32_t)tm__rng_below(&rng, (uint64_t)gb->n);
            bool dup = s == t;
            for (size_t j = 0; j < m; j++)
                dup |= (msg[j].src == s && msg[j].dst == t) || (msg[j].src == t && msg[j].dst == s);
            if (dup)
                continue;
            msg[m++] = (tm__gridmsg){s, t, 1 + (double)tm__rng_below(&rng, 9)};
            if (tm__rng_below(&rng, 3) == 0)
                msg[m++] = (tm__gridmsg){t, s, 0.5 + (double)tm__rng_below(&rng, 4)};
        }
        for (size_t j = 0; j < m; j++)
            brute_flow(g, msg[j].src, msg[j].dst, msg[j].w, want);
        for (int th = 1; th <= 8; th += th < 3 ? 1 : 5) {
            double *out = th == 1 ? ref : got;
            memset(out, 0, (size_t)g->n_links * sizeof *out);
            assert_tm_ok(ctx, tm_ctx_set_threads(ctx, th));
            assert_tm_ok(ctx, tm__gridbox_batch(ctx, gb, msg, m, out));
            if (th > 1)
                assert_memory_equal(got, ref, (size_t)g->n_links * sizeof *got);
        }
        assert_tm_ok(ctx, tm_ctx_set_threads(ctx, 1));
        for (int32_t l = 0; l < g->n_links; l++)
            if (fabs(ref[l] - want[l]) > 1e-12 * (1 + want[l]))
                fail_msg("%s: link %d: batch %.17g, enumerated %.17g", specs[i], (int)l, ref[l],
                         want[l]);
        free(want);
        free(ref);
        free(got);
        tm_route_free(r);
        tm_net_free(net);
    }
}

/* ---- single path by hand ---------------------------------------------------- */

/* Square h0-h1-h3, h0-h2-h3 (no switches: hosts are transit).  Cables:
 * c0 h0-h1 (links 0,1), c1 h0-h2 (2,3), c2 h2-h3 (4,5), c3 h1-h3 (6,7).
 * h0 -> h3: in-links of h3 are 4 (from h2) and 6 (from h1): lowest is 4,
 * then into h2 link 2.  ECMP splits 50/50. */
static void test_single_by_hand(void **state)
{
    tm_net *net;
    tm_route *r;
    tm_route_ws *ws;
    int32_t h[4];
    double load[8] = {0}, vol = 3;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    h[0] = add_v(net, "h0", true);
    h[1] = add_v(net, "h1", true);
    h[2] = add_v(net, "h2", true);
    h[3] = add_v(net, "h3", true);
    add_c(net, h[0], h[1], 1);
    add_c(net, h[0], h[2], 1);
    add_c(net, h[2], h[3], 1);
    add_c(net, h[1], h[3], 1);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_SINGLE, &r));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, h[0], 1, &h[3], &vol, load, NULL));
    assert_near(load[2], 3);
    assert_near(load[4], 3);
    assert_near(load[0] + load[1] + load[3] + load[5] + load[6] + load[7], 0);
    tm_route_ws_free(ws);
    tm_route_free(r);
    memset(load, 0, sizeof load);
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &r));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, h[0], 1, &h[3], &vol, load, NULL));
    assert_near(load[0], 1.5);
    assert_near(load[2], 1.5);
    assert_near(load[4], 1.5);
    assert_near(load[6], 1.5);
    tm_route_ws_free(ws);
    tm_route_free(r);
    tm_net_free(net);
}

/* ---- dimension order by hand ---------------------------------------------- */

/* An X x Y grid (hosts (x, y) = vertex x + X*y), cables +x then +y per
 * vertex in that order, wrap-around per flag. */
/* ECMP on generated tori and meshes, where it routes one box of lattice
 * paths per message (route/gridbox.h) when that is cheaper than a DAG:
 * 60 random pairs per net one by one against every minimum-hop path
 * enumerated, then all of one source's pairs in one call (the DAG when
 * the boxes are larger).  Rings whose two ways tie (even sizes), meshes,
 * 1 to 4 dimensions; a torus with one extra cable is not a healthy grid
 * and keeps the DAG, with the same loads. */
static void test_ecmp_grid_brute_force(void **state)
{
    static const char *specs[] = {"torus:4x5x3", "torus:6x4", "mesh:3x4x2", "torus:8", "torus:4x4x4",
                                  "mesh:5x3", "torus:3x2x4", "torus:4x3x3x2", "torus:6x6"};
    tm__rng rng;
    (void)state;
    tm__rng_seed(&rng, 5, 0);
    for (size_t i = 0; i < sizeof specs / sizeof *specs * 2; i++) {
        bool damage = i >= sizeof specs / sizeof *specs;
        const char *spec = specs[i % (sizeof specs / sizeof *specs)];
        tm_net *net;
        tm_route *r;
        tm_route_ws *ws;
        const tm_net_csr *g;
        double *want, *got, vol[60];
        int32_t src[60], dst[60], hops[60], k = 0;
        assert_tm_ok(ctx, tm_net_new(ctx, &net));
        assert_tm_ok(ctx, tm_gen_build(ctx, spec, NULL, net));
        if (damage) /* a cable across the grid */
            add_c(net, 0, tm_net_n_vertices(net) - 1, 1);
        assert_tm_ok(ctx, tm_net_finalize(ctx, net));
        g = tm_net_csr_get(net);
        assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &r));
        assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
        /* (a torus dimension of 2 is one cable, recorded without wrap) */
        if ((tm__route_gridbox(r) != NULL) != !damage)
            fail_msg("%s%s: grid %s", spec, damage ? " + cable" : "",
                     tm__route_gridbox(r) ? "found" : "not found");
        want = calloc((size_t)g->n_links, sizeof *want);
        got = calloc((size_t)g->n_links, sizeof *got);
        for (int p = 0; p < 60; p++) {
            int32_t s = (int32_t)tm__rng_below(&rng, (uint64_t)g->n), t = (int32_t)tm__rng_below(&rng, (uint64_t)g->n), h;
            double v = 1 + (double)tm__rng_below(&rng, 7);
            if (!g->is_host[s] || !g->is_host[t])
                continue;
            memset(want, 0, (size_t)g->n_links * sizeof *want);
            memset(got, 0, (size_t)g->n_links * sizeof *got);
            h = brute_flow(g, s, t, v, want);
            assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, s, 1, &t, &v, got, &hops[0]));
            assert_int_equal(hops[0], h);
            assert_int_equal(tm_route_hops(r, ws, s, t), h);
            for (int32_t l = 0; l < g->n_links; l++)
                assert_near(got[l], want[l]);
            if (k == 0 || s == src[0]) {
                src[k] = s;
                dst[k] = t;
                vol[k++] = v;
            }
        }
        /* every pair of the first source in one call */
        memset(want, 0, (size_t)g->n_links * sizeof *want);
        memset(got, 0, (size_t)g->n_links * sizeof *got);
        for (int32_t t = 0; t < g->n && k < 60; t++)
            if (g->is_host[t]) {
                src[k] = src[0];
                dst[k] = t;
                vol[k++] = 0.5 + t;
            }
        for (int32_t j = 0; j < k; j++)
            brute_flow(g, src[0], dst[j], vol[j], want);
        assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, src[0], (size_t)k, dst, vol, got, hops));
        for (int32_t l = 0; l < g->n_links; l++)
            assert_near(got[l], want[l]);
        free(want);
        free(got);
        tm_route_ws_free(ws);
        tm_route_free(r);
        tm_net_free(net);
    }
}

static tm_net *grid_net(int32_t X, int32_t Y, bool wrap, bool set_grid)
{
    tm_net *net;
    char name[16];
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    for (int32_t i = 0; i < X * Y; i++) {
        snprintf(name, sizeof name, "n%d_%d", (int)(i % X), (int)(i / X));
        add_v(net, name, true);
    }
    for (int32_t y = 0; y < Y; y++)
        for (int32_t x = 0; x < X; x++) {
            if (x + 1 < X || (wrap && X > 2))
                add_c(net, x + X * y, (x + 1) % X + X * y, 1);
            if (y + 1 < Y || (wrap && Y > 2))
                add_c(net, x + X * y, x + X * ((y + 1) % Y), 1);
        }
    if (set_grid) {
        tm_net_grid gr = {.ndims = 2, .base = 0, .dims = {X, Y}, .wrap = {wrap, wrap}};
        tm_net_set_grid(net, &gr);
    }
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    return net;
}

/* Directed link id from vertex a to neighbour b (first match). */
static int32_t link_between(const tm_net *net, int32_t a, int32_t b)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    for (int32_t j = g->off[a]; j < g->off[a + 1]; j++)
        if (g->head[j] == b)
            return g->link[j];
    return -1;
}

static void test_dor_torus_by_hand(void **state)
{
    tm_net *net = grid_net(4, 3, true, true);
    const tm_net_csr *g = tm_net_csr_get(net);
    tm_route *r;
    tm_route_ws *ws;
    double *load = calloc((size_t)g->n_links, sizeof *load), vol[3] = {1, 2, 4};
    int32_t dst[3], hops[3];
    (void)state;
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_DOR, &r));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    /* (0,0) -> (2,0): tie on a ring of 4, positive direction: 0->1->2.
     * (0,0) -> (3,2): x negative (1 hop) to (3,0), then y: 0 -> 2 on a
     * ring of 3 is shorter backwards: (3,0) -> (3,2). */
    dst[0] = 2;
    dst[1] = 3 + 4 * 2;
    dst[2] = 0;
    assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, 0, 3, dst, vol, load, hops));
    assert_int_equal(hops[0], 2);
    assert_int_equal(hops[1], 2);
    assert_int_equal(hops[2], 0);
    assert_near(load[link_between(net, 0, 1)], 1);
    assert_near(load[link_between(net, 1, 2)], 1);
    assert_near(load[link_between(net, 0, 3)], 2);
    assert_near(load[link_between(net, 3, 11)], 2);
    {
        double tot = 0;
        for (int32_t l = 0; l < g->n_links; l++)
            tot += load[l];
        assert_near(tot, 6);
    }
    assert_int_equal(tm_route_hops(r, ws, 0, 3 + 4 * 2), 2);
    assert_int_equal(tm_route_hops(r, ws, 5, 5), 0);
    tm_route_ws_free(ws);
    tm_route_free(r);
    tm_net_free(net);
    free(load);
}

static void test_dor_mesh_and_failures(void **state)
{
    tm_net *net = grid_net(3, 3, false, true);
    const tm_net_csr *g = tm_net_csr_get(net);
    tm_route *r;
    tm_route_ws *ws;
    double load[64] = {0}, vol = 1;
    int32_t t = 8, hops;
    (void)state;
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_DOR, &r));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    /* (0,0) -> (2,2): x first: 0 -> 1 -> 2, then 2 -> 5 -> 8 */
    assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, 0, 1, &t, &vol, load, &hops));
    assert_int_equal(hops, 4);
    assert_near(load[link_between(net, 0, 1)], 1);
    assert_near(load[link_between(net, 1, 2)], 1);
    assert_near(load[link_between(net, 2, 5)], 1);
    assert_near(load[link_between(net, 5, 8)], 1);
    /* (2,2) -> (0,0) goes the other way round: 8 -> 7 -> 6 -> 3 -> 0 */
    t = 0;
    memset(load, 0, sizeof load);
    assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, 8, 1, &t, &vol, load, &hops));
    assert_near(load[link_between(net, 8, 7)], 1);
    assert_near(load[link_between(net, 3, 0)], 1);
    tm_route_ws_free(ws);
    tm_route_free(r);
    /* a failed cable on the route: DOR does not route around it */
    tm_net_set_cable_enabled(net, link_between(net, 2, 5) / 2, false);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    g = tm_net_csr_get(net);
    (void)g;
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_DOR, &r));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    t = 8;
    memset(load, 0, sizeof load);
    assert_tm_error(ctx, tm_route_flows(ctx, r, ws, 0, 1, &t, &vol, load, &hops), TM_EINPUT,
                    "cannot reach host 'n2_2' by dimension-order routing (route breaks at 'n2_0'");
    for (int l = 0; l < 64; l++)
        assert_true(load[l] == 0);
    assert_int_equal(tm_route_hops(r, ws, 0, 8), -1);
    tm_route_ws_free(ws);
    tm_route_free(r);
    tm_net_free(net);
}

/* A ring of size 2 with two cables between the pair: DOR splits the hop
 * over both; a vertex outside the grid is an error. */
static void test_dor_ring2_and_outside(void **state)
{
    tm_net *net;
    tm_route *r;
    tm_route_ws *ws;
    tm_net_grid gr = {.ndims = 1, .base = 0, .dims = {2}, .wrap = {true}};
    int32_t a, b, c, t;
    double load[6] = {0}, vol = 4;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    a = add_v(net, "a", true);
    b = add_v(net, "b", true);
    c = add_v(net, "c", true);
    add_c(net, a, b, 1);
    add_c(net, b, a, 1);
    add_c(net, b, c, 1);
    tm_net_set_grid(net, &gr);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_DOR, &r));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    t = b;
    assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, a, 1, &t, &vol, load, NULL));
    assert_near(load[0], 2);
    assert_near(load[3], 2);
    t = c;
    assert_tm_error(ctx, tm_route_flows(ctx, r, ws, a, 1, &t, &vol, load, NULL), TM_EINPUT,
                    "not part of the grid");
    tm_route_ws_free(ws);
    tm_route_free(r);
    /* geometry larger than the net */
    gr.dims[0] = 5;
    tm_net_set_grid(net, &gr);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_error(ctx, tm_route_new(ctx, net, TM_ROUTE_DOR, &r), TM_EUSAGE, "does not fit");
    tm_net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kinds),
        cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_parallel_cables),
        cmocka_unit_test(test_transit_rules),
        cmocka_unit_test(test_ecmp_brute_force),
        cmocka_unit_test(test_ecmp_grid_brute_force),
        cmocka_unit_test(test_gridbox_batch_brute_force),
        cmocka_unit_test(test_single_random),
        cmocka_unit_test(test_cache_eviction),
        cmocka_unit_test(test_single_by_hand),
        cmocka_unit_test(test_dor_torus_by_hand),
        cmocka_unit_test(test_dor_mesh_and_failures),
        cmocka_unit_test(test_dor_ring2_and_outside),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
