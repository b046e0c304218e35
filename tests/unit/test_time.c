/* test_time.c - the time model (docs/time.md) on hand-computed cases: one
 * link shared by 2 and 3 flows, flows of different sizes ending at
 * different times, a bottleneck in the middle, ECMP over two paths, full
 * duplex, latency and overhead, intra-host messages, SMPI's factors; the
 * max-min rates against a naive progressive filling and the approximation
 * against the exact simulation on random cases; the lower bound never
 * above the estimate; and tm_route_pair_links against tm_route_flows for
 * every routing kind. */
#include <math.h>

#include "test_fixtures.h"
#include "comm_fixtures.h"
#include "route_fixtures.h"
#include "metrics/time_int.h"
#include "util/util.h"

#define GB 1e9 /* bytes; a cable of 8 Gbit/s carries 1 GB/s */

static void assert_rel(double a, double b, double tol)
{
    if (fabs(a - b) > tol * (1.0 + fabs(b)))
        fail_msg("%.17g != %.17g", a, b);
}

static void set_map(tm_mapping *m, int32_t n, const int32_t *host)
{
    memset(m, 0, sizeof *m);
    m->n = n;
    m->host = calloc((size_t)n + 1, sizeof *m->host);
    m->slot = calloc((size_t)n + 1, sizeof *m->slot);
    for (int32_t t = 0; t < n; t++)
        m->host[t] = host[t];
}

static void map_release(tm_mapping *m)
{
    free(m->host);
    free(m->slot);
}

/* Hosts h0..h(n-1) on one switch (vertex n), cables of cap Gbit/s. */
static tm_net *star(int n, double cap, int slots)
{
    tm_net *net;
    int32_t sw, v;
    char name[16];
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "h%d", i);
        assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, name, TM_VERTEX_HOST, slots, &v));
    }
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "sw", TM_VERTEX_SWITCH, 0, &sw));
    for (int i = 0; i < n; i++)
        assert_tm_ok(ctx, tm_net_add_cable(ctx, net, i, sw, cap, NULL));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    return net;
}

/* est_time_s and time_lower_bound_s of messages e (task i on host host[i]). */
static void eval_time(const tm_net *net, tm_route_kind kind, int32_t n, const int32_t *host,
                      int32_t m, const int32_t (*e)[2], const double *w, const tm_time_opts *to,
                      tm_metrics *out)
{
    tm_route *r;
    tm_comm c;
    tm_mapping map;
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    o.time = to;
    fx_make_comm(&c, n, m, e, w);
    set_map(&map, n, host);
    assert_tm_ok(ctx, tm_route_new(ctx, net, kind, &r));
    assert_tm_ok(ctx, tm_metrics_eval(ctx, r, &c, &map, &o, out));
    tm_route_free(r);
    map_release(&map);
    fx_free_comm(&c);
}

static tm_time_opts fluid(void)
{
    tm_time_opts o = TM_TIME_OPTS_INIT;
    o.model = TM_TIME_FLUID;
    o.latency_per_hop_s = 0.0;
    return o;
}

/* ---- hand-computed cases through the public API --------------------------- */

static void test_shared_link(void **state)
{
    tm_net *net = star(4, 8, 1);
    tm_time_opts to = fluid();
    tm_metrics m;
    const int32_t host[4] = {0, 1, 2, 3};
    const int32_t e2[2][2] = {{0, 3}, {1, 3}}, e3[3][2] = {{0, 3}, {1, 3}, {2, 3}};
    const double w[3] = {GB, GB, GB};
    (void)state;
    /* 2 flows into h3: sw -> h3 (1 GB/s) shared, 0.5 GB/s each: 2 s */
    eval_time(net, TM_ROUTE_ECMP, 4, host, 2, e2, w, &to, &m);
    assert_rel(m.est_time_s, 2.0, 1e-12);
    assert_rel(m.time_lower_bound_s, 2.0, 1e-12);
    assert_false(m.time_approximate);
    assert_int_equal(m.time_flows, 2);
    tm_metrics_release(&m);
    /* 3 flows: 1/3 GB/s each: 3 s */
    eval_time(net, TM_ROUTE_SINGLE, 4, host, 3, e3, w, &to, &m);
    assert_rel(m.est_time_s, 3.0, 1e-12);
    assert_rel(m.time_lower_bound_s, 3.0, 1e-12);
    tm_metrics_release(&m);
    tm_net_free(net);
}

/* h0 = sw = h1 with two parallel cables per hop: ECMP halves the flow on
 * each cable, single-path routing puts it all on the lowest link id. */
static void test_ecmp_two_paths(void **state)
{
    tm_net *net;
    int32_t h0, h1, sw;
    tm_time_opts to = fluid();
    tm_metrics m;
    const int32_t host[2] = {0, 2}, e[1][2] = {{0, 1}};
    const double w[1] = {GB};
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "h0", TM_VERTEX_HOST, 1, &h0));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "sw", TM_VERTEX_SWITCH, 0, &sw));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "h1", TM_VERTEX_HOST, 1, &h1));
    for (int i = 0; i < 2; i++) {
        assert_tm_ok(ctx, tm_net_add_cable(ctx, net, h0, sw, 8, NULL));
        assert_tm_ok(ctx, tm_net_add_cable(ctx, net, sw, h1, 8, NULL));
    }
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    /* a rate r puts r/2 on each cable of 1 GB/s: r = 2 GB/s, 0.5 s */
    eval_time(net, TM_ROUTE_ECMP, 2, host, 1, e, w, &to, &m);
    assert_rel(m.est_time_s, 0.5, 1e-12);
    assert_rel(m.time_lower_bound_s, 0.5, 1e-12);
    tm_metrics_release(&m);
    eval_time(net, TM_ROUTE_SINGLE, 2, host, 1, e, w, &to, &m);
    assert_rel(m.est_time_s, 1.0, 1e-12);
    tm_metrics_release(&m);
    tm_net_free(net);
}

/* Opposite directions of a cable do not share; SMPI's cross-traffic puts
 * 5 % of each rate on the route back. */
static void test_full_duplex(void **state)
{
    tm_net *net = star(2, 8, 1);
    tm_time_opts to = fluid();
    tm_metrics m;
    const int32_t host[2] = {0, 1}, e[2][2] = {{0, 1}, {1, 0}};
    const double w[2] = {GB, GB};
    (void)state;
    eval_time(net, TM_ROUTE_ECMP, 2, host, 2, e, w, &to, &m);
    assert_rel(m.est_time_s, 1.0, 1e-12);
    tm_metrics_release(&m);
    /* SMPI, latency 0: each link carries r + 0.05 r, r = 1/1.05 GB/s of
     * progress x 0.940694 (bandwidth factor): t = 1.05 / 0.940694 */
    to.model = TM_TIME_SMPI;
    eval_time(net, TM_ROUTE_ECMP, 2, host, 2, e, w, &to, &m);
    assert_rel(m.est_time_s, 1.05 / 0.940694, 1e-12);
    assert_true(m.time_lower_bound_s <= m.est_time_s * (1 + 1e-12));
    tm_metrics_release(&m);
    tm_net_free(net);
}

static void test_latency_overhead_intra(void **state)
{
    tm_net *net = star(2, 8, 2);
    tm_time_opts to = fluid();
    tm_metrics m;
    const int32_t host1[2] = {0, 1}, host0[2] = {0, 0}, e[1][2] = {{0, 1}};
    const double w[1] = {GB};
    (void)state;
    to.latency_per_hop_s = 1e-6;
    to.message_overhead_s = 3e-6;
    /* 2 hops: 3 us + 2 x 1 us, then 1 s */
    eval_time(net, TM_ROUTE_ECMP, 2, host1, 1, e, w, &to, &m);
    assert_rel(m.est_time_s, 1.0 + 5e-6, 1e-12);
    assert_rel(m.time_lower_bound_s, 1.0, 1e-12);
    tm_metrics_release(&m);
    /* on one host: no link, the host bandwidth (16 Gbit/s = 2 GB/s) */
    to.host_bandwidth_gbps = 16;
    eval_time(net, TM_ROUTE_ECMP, 2, host0, 1, e, w, &to, &m);
    assert_rel(m.est_time_s, 0.5 + 3e-6, 1e-12);
    assert_rel(m.time_lower_bound_s, 0.5, 1e-12);
    assert_int_equal(m.time_flows, 1);
    tm_metrics_release(&m);
    /* SMPI defaults: 1 MB over 2 hops of 0.5 us; latency factor 11.6436
     * and bandwidth factor 0.940694 for >= 65472 bytes */
    to = (tm_time_opts)TM_TIME_OPTS_INIT;
    {
        const double w1[1] = {1e6};
        eval_time(net, TM_ROUTE_ECMP, 2, host1, 1, e, w1, &to, &m);
        assert_rel(m.est_time_s, 2 * 5e-7 * 11.6436 + 1e6 / 0.940694 / GB, 1e-12);
        tm_metrics_release(&m);
    }
    to.latency_per_hop_s = -1;
    {
        tm_route *r;
        tm_comm c;
        tm_mapping map;
        fx_make_comm(&c, 2, 1, e, w);
        set_map(&map, 2, host1);
        assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &r));
        assert_tm_error(ctx, tm_time_eval(ctx, r, &c, &map, &to, &m), TM_EUSAGE, "latency");
        tm_route_free(r);
        map_release(&map);
        fx_free_comm(&c);
    }
    tm_net_free(net);
}

/* ---- the simulation on hand-made flows ----------------------------------- */

/* nf flows over nl resources; flow f uses links lk[f][0..] (-1 ends). */
static void make_flows(tm__tflows *t, int nl, const double *cap, int nf, const double *vol,
                       const int (*lk)[4], const double *start)
{
    memset(t, 0, sizeof *t);
    t->n = nf;
    t->n_res = nl;
    t->cap = malloc(sizeof(double) * (size_t)nl);
    memcpy(t->cap, cap, sizeof(double) * (size_t)nl);
    t->vol = malloc(sizeof(double) * (size_t)nf);
    t->weight = malloc(sizeof(double) * (size_t)nf);
    t->bound = malloc(sizeof(double) * (size_t)nf);
    t->start = malloc(sizeof(double) * (size_t)nf);
    t->off = malloc(sizeof(int64_t) * (size_t)(nf + 1));
    t->off[0] = 0;
    for (int f = 0; f < nf; f++) {
        t->vol[f] = vol[f];
        t->weight[f] = 1.0;
        t->bound[f] = 0.0;
        t->start[f] = start ? start[f] : 0.0;
        for (int i = 0; i < 4 && lk[f][i] >= 0; i++)
            assert_int_equal(tm__tflows_push(t, lk[f][i], 1.0), 0);
        t->off[f + 1] = t->n_ent;
    }
}

static void test_water_filling(void **state)
{
    tm__tflows t;
    double done[3];
    int32_t up;
    bool sw;
    (void)state;
    {
        /* one link, sizes 1, 2, 3: 1/3 each until 3 s, then 1/2 each
         * until 5 s, then 1: ends 3, 5, 6 */
        const double cap[1] = {1}, vol[3] = {1, 2, 3};
        const int lk[3][4] = {{0, -1}, {0, -1}, {0, -1}};
        make_flows(&t, 1, cap, 3, vol, lk, NULL);
        assert_tm_ok(ctx, tm__time_simulate(ctx, &t, 0, 0, done, &up, &sw));
        assert_rel(done[0], 3, 1e-12);
        assert_rel(done[1], 5, 1e-12);
        assert_rel(done[2], 6, 1e-12);
        assert_int_equal(up, 3);
        tm__tflows_release(&t);
    }
    {
        /* bottleneck in the middle: A on X (cap 1) and Y (cap 2), B on X,
         * C on Y.  X fills first at 1/2 (A, B); C takes Y's 1.5.  At 2 s
         * A and B end, C (4) has 1 left alone on Y: 0.5 s more */
        const double cap[2] = {1, 2}, vol[3] = {1, 1, 4};
        const int lk[3][4] = {{0, 1, -1}, {0, -1}, {1, -1}};
        make_flows(&t, 2, cap, 3, vol, lk, NULL);
        assert_tm_ok(ctx, tm__time_simulate(ctx, &t, 0, 0, done, &up, &sw));
        assert_rel(done[0], 2, 1e-12);
        assert_rel(done[1], 2, 1e-12);
        assert_rel(done[2], 2.5, 1e-12);
        tm__tflows_release(&t);
    }
    {
        /* staggered starts (latency): A from 0, B from 0.5 on one link of
         * cap 1, size 1 each: A alone 0.5, then both at 1/2: A ends at
         * 1.5, B has 0.5 left at 1.5 and ends at 2 */
        const double cap[1] = {1}, vol[2] = {1, 1}, start[2] = {0, 0.5};
        const int lk[2][4] = {{0, -1}, {0, -1}};
        make_flows(&t, 1, cap, 2, vol, lk, start);
        assert_tm_ok(ctx, tm__time_simulate(ctx, &t, 0, 0, done, &up, &sw));
        assert_rel(done[0], 1.5, 1e-12);
        assert_rel(done[1], 2, 1e-12);
        tm__tflows_release(&t);
    }
}

/* Naive progressive filling (raise every unfrozen flow until a link or a
 * bound is tight, O(flows x links) per level), for the random check. */
static void naive_rates(const tm__tflows *t, const bool *act, double *rate)
{
    bool *fz = calloc((size_t)t->n, sizeof *fz);
    double lambda = 0;
    for (;;) {
        double best = INFINITY;
        for (int32_t l = 0; l < t->n_res; l++) {
            double used = 0, ws = 0;
            for (int64_t f = 0; f < t->n; f++)
                for (int64_t e = t->off[f]; act[f] && e < t->off[f + 1]; e++)
                    if (t->ent_link[e] == l) {
                        if (fz[f])
                            used += rate[f] * t->ent_coef[e];
                        else
                            ws += t->weight[f] * t->ent_coef[e];
                    }
            if (ws > 0 && (t->cap[l] - used) / ws < best)
                best = (t->cap[l] - used) / ws;
        }
        for (int64_t f = 0; f < t->n; f++)
            if (act[f] && !fz[f] && t->bound[f] > 0 && t->bound[f] / t->weight[f] < best)
                best = t->bound[f] / t->weight[f];
        if (best == INFINITY)
            break;
        lambda = best > lambda ? best : lambda;
        /* freeze the flows on tight links and at their bound */
        for (int64_t f = 0; f < t->n; f++) {
            bool tight = act[f] && !fz[f] && t->bound[f] > 0 &&
                         t->bound[f] / t->weight[f] <= lambda * (1 + 1e-12);
            for (int64_t e = t->off[f]; act[f] && !fz[f] && !tight && e < t->off[f + 1]; e++) {
                int32_t l = t->ent_link[e];
                double used = 0;
                for (int64_t g = 0; g < t->n; g++)
                    for (int64_t x = t->off[g]; act[g] && x < t->off[g + 1]; x++)
                        if (t->ent_link[x] == l)
                            used += (fz[g] ? rate[g] : t->weight[g] * lambda) * t->ent_coef[x];
                tight = used >= t->cap[l] * (1 - 1e-12);
            }
            if (tight) {
                rate[f] = t->weight[f] * lambda;
                fz[f] = true;
            }
        }
    }
    free(fz);
}

/* Naive event loop over naive_rates. */
static double naive_last(const tm__tflows *t)
{
    bool *act = calloc((size_t)t->n, sizeof *act), *fin = calloc((size_t)t->n, sizeof *fin);
    double *rem = malloc(sizeof(double) * (size_t)t->n), *rate = calloc((size_t)t->n, 8);
    double now = 0, last = 0;
    for (int64_t f = 0; f < t->n; f++)
        rem[f] = t->vol[f];
    for (;;) {
        double dt = INFINITY, nexts = INFINITY;
        int n_act = 0;
        for (int64_t f = 0; f < t->n; f++) {
            act[f] = !fin[f] && t->start[f] <= now;
            n_act += act[f];
            if (!fin[f] && t->start[f] > now && t->start[f] < nexts)
                nexts = t->start[f];
        }
        if (!n_act && nexts == INFINITY)
            break;
        if (!n_act) {
            now = nexts;
            continue;
        }
        naive_rates(t, act, rate);
        for (int64_t f = 0; f < t->n; f++)
            if (act[f] && rem[f] / rate[f] < dt)
                dt = rem[f] / rate[f];
        if (nexts - now < dt)
            dt = nexts - now;
        for (int64_t f = 0; f < t->n; f++)
            if (act[f]) {
                rem[f] -= rate[f] * dt;
                if (rem[f] <= 1e-9 * t->vol[f]) {
                    fin[f] = true;
                    last = now + dt;
                }
            }
        now += dt;
    }
    free(act);
    free(fin);
    free(rem);
    free(rate);
    return last;
}

/* Random flows on random links with random weights, bounds, fractions and
 * starts: the heap-based filling and event loop against the naive ones;
 * the bounded (approximate) mode never earlier than the exact one. */
static void test_random_vs_naive(void **state)
{
    tm__rng rng;
    (void)state;
    tm__rng_seed(&rng, 25, 2);
    for (int iter = 0; iter < 300; iter++) {
        tm__tflows t;
        int nl = 1 + (int)tm__rng_below(&rng, 6), nf = 1 + (int)tm__rng_below(&rng, 9);
        double cap[6], vol[9], *done = malloc(sizeof(double) * (size_t)nf), last = 0, lastb = 0;
        int lk[9][4];
        int32_t up;
        bool sw;
        for (int l = 0; l < nl; l++)
            cap[l] = 1 + (double)tm__rng_below(&rng, 4);
        for (int f = 0; f < nf; f++) {
            int k = 1 + (int)tm__rng_below(&rng, 3), m = 0;
            vol[f] = 1 + (double)tm__rng_below(&rng, 5);
            for (int i = 0; i < k; i++) {
                int l = (int)tm__rng_below(&rng, (uint64_t)nl);
                bool dup = false;
                for (int j = 0; j < m; j++)
                    dup |= lk[f][j] == l;
                if (!dup)
                    lk[f][m++] = l;
            }
            for (int i = m; i < 4; i++)
                lk[f][i] = -1;
        }
        make_flows(&t, nl, cap, nf, vol, (const int(*)[4])lk, NULL);
        for (int f = 0; f < nf; f++) {
            t.weight[f] = 0.5 + (double)tm__rng_below(&rng, 3);
            t.bound[f] = tm__rng_below(&rng, 3) == 0 ? 0.5 + (double)tm__rng_below(&rng, 3) : 0;
            t.start[f] = tm__rng_below(&rng, 2) ? 0.0 : 0.25 * (double)tm__rng_below(&rng, 8);
        }
        for (int64_t e = 0; e < t.n_ent; e++)
            t.ent_coef[e] = tm__rng_below(&rng, 2) ? 1.0 : 0.25 * (1 + (double)tm__rng_below(&rng, 3));
        assert_tm_ok(ctx, tm__time_simulate(ctx, &t, 0, 0, done, &up, &sw));
        for (int f = 0; f < nf; f++)
            last = done[f] > last ? done[f] : last;
        assert_rel(last, naive_last(&t), 1e-9);
        assert_tm_ok(ctx, tm__time_simulate(ctx, &t, 2, 0, done, &up, &sw));
        for (int f = 0; f < nf; f++)
            lastb = done[f] > lastb ? done[f] : lastb;
        assert_true(up <= 2);
        assert_false(sw);
        /* a work budget of one entry: exact for one step, then bounded */
        {
            double lasts = 0;
            assert_tm_ok(ctx, tm__time_simulate(ctx, &t, 0, 1, done, &up, &sw));
            for (int f = 0; f < nf; f++)
                lasts = done[f] > lasts ? done[f] : lasts;
            assert_true(up <= 1 + TM__TIME_SWITCH_MAX);
            if (lasts < last * (1 - 1e-9)) {
                bool staggered = false;
                for (int f = 0; f < nf; f++)
                    staggered |= t.start[f] > 0;
                assert_true(staggered);
            }
        }
        /* without staggered starts, the bounded mode only delays */
        if (lastb < last * (1 - 1e-9)) {
            bool staggered = false;
            for (int f = 0; f < nf; f++)
                staggered |= t.start[f] > 0;
            assert_true(staggered);
        }
        tm__tflows_release(&t);
        free(done);
    }
}

/* ---- whole evaluations: lower bound, approximation ----------------------- */

/* Random messages on small generated networks: LB <= exact; the
 * approximation (exact_max_flows = 0) >= LB; and its error against the
 * exact figure stays within the documented range (docs/time.md). */
static void test_approx_vs_exact(void **state)
{
    static const char *const specs[] = {"fattree:k=4,n=2", "torus:4x4", "fattree:k=4,n=3",
                                        "mesh:3x3x2"};
    tm__rng rng;
    double worst = 0;
    (void)state;
    tm__rng_seed(&rng, 7, 1);
    for (int iter = 0; iter < 40; iter++) {
        tm_net *net;
        tm_route *r;
        tm_comm c;
        tm_mapping map;
        tm_metrics ex, ap;
        tm_metrics_opts o = TM_METRICS_OPTS_INIT;
        tm_time_opts to = TM_TIME_OPTS_INIT;
        const tm_net_csr *g;
        int32_t nh = 0, *hosts, n = 8 + (int32_t)tm__rng_below(&rng, 16), m = 3 * n;
        int32_t (*e)[2] = malloc(sizeof *e * (size_t)m), *host = malloc(sizeof *host * (size_t)n);
        double *w = malloc(sizeof *w * (size_t)m);
        assert_tm_ok(ctx, tm_net_new(ctx, &net));
        assert_tm_ok(ctx, tm_gen_build(ctx, specs[iter % 4], NULL, net));
        assert_tm_ok(ctx, tm_net_finalize(ctx, net));
        g = tm_net_csr_get(net);
        hosts = malloc(sizeof *hosts * (size_t)g->n);
        for (int32_t v = 0; v < g->n; v++)
            if (g->is_host[v])
                hosts[nh++] = v;
        for (int32_t t = 0; t < n; t++)
            host[t] = hosts[tm__rng_below(&rng, (uint64_t)nh)];
        for (int32_t i = 0; i < m; i++) {
            e[i][0] = (int32_t)tm__rng_below(&rng, (uint64_t)n);
            do
                e[i][1] = (int32_t)tm__rng_below(&rng, (uint64_t)n);
            while (e[i][1] == e[i][0]);
            w[i] = (double)(1 + tm__rng_below(&rng, 4)) * 1e6;
        }
        fx_make_comm(&c, n, m, (const int32_t(*)[2])e, w);
        set_map(&map, n, host);
        assert_tm_ok(ctx, tm_route_new(ctx, net, iter % 3 ? TM_ROUTE_ECMP : TM_ROUTE_SINGLE, &r));
        o.time = &to;
        assert_tm_ok(ctx, tm_metrics_eval(ctx, r, &c, &map, &o, &ex));
        to.exact_max_flows = 0;
        assert_tm_ok(ctx, tm_metrics_eval(ctx, r, &c, &map, &o, &ap));
        assert_false(ex.time_approximate);
        assert_true(ap.time_approximate);
        assert_true(ex.time_lower_bound_s <= ex.est_time_s * (1 + 1e-9));
        assert_true(ap.time_lower_bound_s <= ap.est_time_s * (1 + 1e-9));
        assert_true(ap.time_lower_bound_s <= ex.est_time_s * (1 + 1e-9));
        if (fabs(ap.est_time_s / ex.est_time_s - 1) > worst)
            worst = fabs(ap.est_time_s / ex.est_time_s - 1);
        tm_metrics_release(&ex);
        tm_metrics_release(&ap);
        tm_route_free(r);
        map_release(&map);
        fx_free_comm(&c);
        tm_net_free(net);
        free(hosts);
        free(host);
        free(e);
        free(w);
    }
    print_message("approximation: worst relative error %.3f over 40 random cases\n", worst);
    assert_true(worst < 0.25); /* measured 0.177 (docs/time.md) */
}

/* ---- tm_route_pair_links against tm_route_flows --------------------------- */

static void check_pairs(const tm_net *net, tm_route *r, const char *label)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    tm_route_pairs *p;
    tm_route_ws *ws;
    double *want = calloc((size_t)g->n_links, sizeof *want);
    double *got = calloc((size_t)g->n_links, sizeof *got);
    int32_t nh = 0, *hosts = malloc(sizeof *hosts * (size_t)g->n);
    assert_tm_ok(ctx, tm_route_pairs_new(ctx, r, &p));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    for (int32_t v = 0; v < g->n; v++)
        if (g->is_host[v])
            hosts[nh++] = v;
    for (int32_t i = 0; i < nh; i++)
        for (int32_t j = 0; j < nh; j++) {
            const int32_t *links;
            const double *frac;
            const double one = 1.0;
            int32_t n;
            assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, hosts[i], 1, &hosts[j], &one, want, NULL));
            assert_tm_ok(ctx, tm_route_pair_links(ctx, p, hosts[i], hosts[j], &n, &links, &frac));
            if (i == j)
                assert_int_equal(n, 0);
            for (int32_t k = 0; k < n; k++) {
                assert_true(frac[k] > 0 && frac[k] <= 1 + 1e-12);
                got[links[k]] += frac[k];
            }
            for (int32_t l = 0; l < g->n_links; l++) {
                if (fabs(got[l] - want[l]) > 1e-12)
                    fail_msg("%s: %d -> %d link %d: %.17g, tm_route_flows %.17g", label,
                             (int)hosts[i], (int)hosts[j], (int)l, got[l], want[l]);
                got[l] = want[l] = 0;
            }
            /* the links out of the source carry the whole pair */
            if (i != j) {
                double out = 0;
                for (int32_t k = 0; k < n; k++)
                    if (g->tail_of[links[k]] == hosts[i])
                        out += frac[k];
                assert_rel(out, 1.0, 1e-12);
            }
        }
    tm_route_ws_free(ws);
    tm_route_pairs_free(p);
    free(want);
    free(got);
    free(hosts);
}

static void test_pair_links(void **state)
{
    static const struct {
        const char *spec;
        tm_route_kind kind;
    } cases[] = {
        {"fattree:k=4,n=3", TM_ROUTE_ECMP},   {"fattree:k=4,n=3", TM_ROUTE_SINGLE},
        {"fattree:k=4,n=3", TM_ROUTE_FTREE},  {"fattree:k=4,n=3", TM_ROUTE_MINHOP},
        {"fattree:k=4,n=3", TM_ROUTE_UPDN},   {"torus:4x3x2", TM_ROUTE_DOR},
        {"torus:4x3x2", TM_ROUTE_ECMP},       {"mesh:3x3", TM_ROUTE_SINGLE},
        {"dragonfly:h=2", TM_ROUTE_ECMP},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tm_net *net;
        tm_route *r;
        assert_tm_ok(ctx, tm_net_new(ctx, &net));
        assert_tm_ok(ctx, tm_gen_build(ctx, cases[i].spec, NULL, net));
        assert_tm_ok(ctx, tm_net_finalize(ctx, net));
        assert_tm_ok(ctx, tm_route_new(ctx, net, cases[i].kind, &r));
        check_pairs(net, r, cases[i].spec);
        tm_route_free(r);
        tm_net_free(net);
    }
    {   /* forwarding tables read from ibroute dumps */
        tm_net *net = load(TEST_DATA("route/lft2/fabric.txt"));
        tm_route *r;
        assert_tm_ok(ctx, tm_route_new_lft(ctx, net, TEST_DATA("route/lft2/tables"), &r));
        check_pairs(net, r, "lft2");
        tm_route_free(r);
        tm_net_free(net);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_link),
        cmocka_unit_test(test_ecmp_two_paths),
        cmocka_unit_test(test_full_duplex),
        cmocka_unit_test(test_latency_overhead_intra),
        cmocka_unit_test(test_water_filling),
        cmocka_unit_test(test_random_vs_naive),
        cmocka_unit_test(test_approx_vs_exact),
        cmocka_unit_test(test_pair_links),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
