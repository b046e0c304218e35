/* test_bounds.c - the lower bounds (src/bounds/, docs/bounds.md).
 *
 *  - brute force: on tiny instances every mapping is enumerated and
 *    evaluated exactly; each bound is at most the least congestion,
 *    dilation and J any mapping has (tori, meshes, trees with tapered
 *    uplinks, fat-trees, a dragonfly under valiant, parallel and failed
 *    cables, heterogeneous capacities, a dual-homed host, multi-slot hosts,
 *    node hierarchies, several tasks per slot, directed and disconnected
 *    jobs, routings ecmp / single / dor / valiant), and equal to it where
 *    it should be (a ring stencil on the ring, a job on a non-blocking
 *    tree);
 *  - properties: on random jobs and fabrics, no strategy's result nor a
 *    random placement beats a bound;
 *  - known optima: a stencil on the matching torus (and mesh) has its
 *    optimum (every message one hop, every link one message) reached by the
 *    congestion and dilation bounds;
 *  - hierarchy mode: brute force and a ring on 2:2. */
#include <math.h>

#include "map_fixtures.h"
#include "test_fixtures.h"
#include "bounds/bounds_int.h"

/* The time model is not bounded: evaluate without it. */
static tm_time_opts no_time = {TM_TIME_NONE, 0, 0, 1, 0, NULL};

static void rand_comm(tm__rng *r, int32_t n, int m, bool directed, double zero_share,
                      tm_comm *c)
{
    int32_t *src = malloc(((size_t)m * 2 + 1) * sizeof *src);
    int32_t *dst = malloc(((size_t)m * 2 + 1) * sizeof *dst);
    double *w = malloc(((size_t)m * 2 + 1) * sizeof *w);
    int k = 0;
    for (int i = 0; i < m; i++) {
        src[k] = (int32_t)tm__rng_below(r, (uint64_t)n);
        dst[k] = (int32_t)tm__rng_below(r, (uint64_t)n);
        w[k] = tm__rng_unit(r) < zero_share ? 0.0 : 1.0 + (double)tm__rng_below(r, 9);
        k++;
        if (!directed) {
            src[k] = dst[k - 1];
            dst[k] = src[k - 1];
            w[k] = w[k - 1];
            k++;
        }
    }
    assert_tm_ok(ctx, tm_comm_from_entries(ctx, n, k, src, dst, w, c));
    free(src);
    free(dst);
    free(w);
}

/* The least figures over every mapping of p with at most `per` tasks per
 * slot (brute force). */
typedef struct best {
    double c, d, j;
    int64_t mappings;
} best;

typedef struct enumr {
    const tm_problem *p;
    const tm_metrics_opts *mo;
    int32_t *shost, *sslot, *used, nslots, per;
    tm_mapping m;
    best b;
} enumr;

static void visit(enumr *e, int32_t t)
{
    if (t == e->m.n) {
        tm_metrics met;
        assert_tm_ok(ctx, tm_metrics_eval(ctx, e->p->route, e->p->comm, &e->m, e->mo, &met));
        e->b.c = fmin(e->b.c, met.max_congestion);
        e->b.d = fmin(e->b.d, met.avg_dilation);
        e->b.j = fmin(e->b.j, met.qap_J);
        e->b.mappings++;
        tm_metrics_release(&met);
        return;
    }
    for (int32_t s = 0; s < e->nslots; s++) {
        if (e->used[s] >= e->per)
            continue;
        e->used[s]++;
        e->m.host[t] = e->shost[s];
        e->m.slot[t] = e->sslot[s];
        visit(e, t + 1);
        e->used[s]--;
    }
}

static best brute(const tm_problem *p, int32_t per)
{
    tm_metrics_opts mo = TM_METRICS_OPTS_INIT;
    int64_t S = tm_alloc_total_slots(p->alloc);
    enumr e = {0};
    mo.node_hier = p->hier;
    mo.hop_distance = p->hop_distance;
    mo.time = &no_time;
    e.p = p;
    e.mo = &mo;
    e.per = per;
    e.shost = malloc((size_t)S * sizeof *e.shost);
    e.sslot = malloc((size_t)S * sizeof *e.sslot);
    e.used = calloc((size_t)S, sizeof *e.used);
    for (int32_t i = 0; i < p->alloc->n; i++)
        for (int32_t s = 0; s < p->alloc->slots[i]; s++) {
            e.shost[e.nslots] = p->alloc->host[i];
            e.sslot[e.nslots++] = s;
        }
    e.b.c = e.b.d = e.b.j = INFINITY;
    assert_tm_ok(ctx, tm_mapping_alloc(ctx, &e.m, p->comm->n, false));
    visit(&e, 0);
    tm_mapping_release(&e.m);
    free(e.shost);
    free(e.sslot);
    free(e.used);
    return e.b;
}

static void assert_below(const char *what, double bound, double value)
{
    if (!(bound <= value * (1 + 1e-12) + 1e-12))
        fail_msg("%s: bound %.17g above a mapping's %.17g", what, bound, value);
}

/* Bounds of p (per tasks per slot) against the brute force; exact: the
 * bounds must reach the optimum (congestion and dilation). */
static void check_brute(const char *name, const tm_problem *p, int32_t per, bool exact)
{
    tm_bounds b;
    tm_bounds_opts o = TM_BOUNDS_OPTS_INIT;
    best opt;
    char what[160];
    o.tasks_per_slot = per;
    assert_tm_ok(ctx, tm_bounds_compute(ctx, p, &o, &b));
    opt = brute(p, per);
    assert_true(opt.mappings > 0);
    if (getenv("TM_TEST_VERBOSE"))
        printf("%s: congestion %g / %g (%s), dilation %g / %g (%s), J %g / %g (%s), %lld mappings\n",
               name, b.max_congestion, opt.c, b.congestion_by, b.avg_dilation, opt.d, b.dilation_by,
               b.qap_J, opt.j, b.J_by, (long long)opt.mappings);
    snprintf(what, sizeof what, "%s congestion", name);
    assert_below(what, b.max_congestion, opt.c);
    snprintf(what, sizeof what, "%s dilation", name);
    assert_below(what, b.avg_dilation, opt.d);
    snprintf(what, sizeof what, "%s J", name);
    assert_below(what, b.qap_J, opt.j);
    if (exact) {
        if (fabs(b.max_congestion - opt.c) > 1e-6 * opt.c || fabs(b.avg_dilation - opt.d) > 1e-6 * opt.d)
            fail_msg("%s: bounds %g / %g, optimum %g / %g", name, b.max_congestion,
                     b.avg_dilation, opt.c, opt.d);
    }
}

/* The allocation of hosts[0..n) (all when NULL) with `slots` each (0: the
 * net's). */
static void make_alloc(const tm_net *net, const int32_t *hosts, int32_t n, int32_t slots,
                       tm_alloc *al)
{
    int32_t nv = tm_net_n_vertices(net), k = 0;
    tm_alloc_init(al);
    al->host = malloc((size_t)nv * sizeof *al->host);
    al->slots = malloc((size_t)nv * sizeof *al->slots);
    for (int32_t v = 0; v < nv; v++) {
        if (tm_net_kind(net, v) != TM_VERTEX_HOST)
            continue;
        if (hosts) {
            bool in = false;
            for (int32_t i = 0; i < n; i++)
                in = in || hosts[i] == v;
            if (!in)
                continue;
        }
        al->host[k] = v;
        al->slots[k++] = slots > 0 ? slots : tm_net_slots(net, v);
    }
    al->n = k;
}

/* One brute-force case: net, routing, allocation, job. */
static void brute_case(const char *name, tm_net *net, tm_route_kind rk, const tm_alloc *al,
                       const tm_comm *c, const tm_hier *nh, double hop, int32_t per, bool exact)
{
    tm_route *route;
    tm_problem p = {0};
    assert_tm_ok(ctx, tm_route_new(ctx, net, rk, &route));
    p.net = net;
    p.route = route;
    p.alloc = al;
    p.comm = c;
    p.hier = nh;
    p.hop_distance = hop;
    p.imbalance = -1;
    check_brute(name, &p, per, exact);
    tm_route_free(route);
}

static tm_net *gen(const char *spec, int32_t slots) { return tm_test_gen_net(spec, slots); }

/* Random jobs on many tiny fabrics, every mapping enumerated. */
static void test_brute_force(void **state)
{
    tm__rng r;
    (void)state;
    tm__rng_seed(&r, 43, 0);
    for (int it = 0; it < 36; it++) {
        tm_net *net;
        tm_alloc al;
        tm_comm c;
        tm_hier nh;
        const tm_hier *nhp = NULL;
        tm_route_kind rk = TM_ROUTE_ECMP;
        int32_t per = 1, n = 3 + (int32_t)tm__rng_below(&r, 3);
        double hop = 0;
        char name[64];
        int kind = it % 9;
        switch (kind) {
        case 0: net = fx_torus(ctx, 6, 1, 1); break;                 /* ring */
        case 1: net = fx_torus(ctx, 3, 2, 1); rk = TM_ROUTE_SINGLE; break;
        case 2: net = gen("torus:3x3", 1); rk = TM_ROUTE_DOR; break;
        case 3: net = fx_tree(ctx, 3, 2, 2, 0.5); break;             /* tapered, 2 slots */
        case 4: net = gen("fattree:k=4,n=2", 1); break;
        case 5: net = gen("mesh:4x2", 1); break;
        case 6: net = gen("dragonfly:a=3,p=1,h=1", 1); rk = TM_ROUTE_VALIANT; break;
        case 7: net = fx_tree(ctx, 2, 2, 4, 1.0); break;             /* node hierarchy */
        default: net = fx_tree(ctx, 2, 3, 1, 2.0); per = 2; break;   /* 2 tasks per slot */
        }
        if (kind == 6) { /* four hosts, every third */
            make_alloc(net, NULL, 0, 0, &al);
            al.n = 4;
            for (int i = 0; i < 4; i++)
                al.host[i] = al.host[i * 3];
            if (n > 4)
                n = 4;
        } else if (kind == 4) { /* two hosts on each of two leaves (4 per leaf) */
            make_alloc(net, NULL, 0, 1, &al);
            al.host[2] = al.host[4];
            al.host[3] = al.host[5];
            al.n = 4;
        } else {
            make_alloc(net, NULL, 0, 0, &al);
            if (kind == 3)
                al.n = 3; /* 6 slots on the first three hosts */
        }
        if (kind == 7) {
            assert_tm_ok(ctx, tm_hier_parse(ctx, "2:2", "1:10", &nh));
            nhp = &nh;
            hop = it % 2 ? 0 : 7;
        }
        if (n > tm_alloc_total_slots(&al) * per)
            n = (int32_t)(tm_alloc_total_slots(&al) * per);
        rand_comm(&r, n, 2 + (int)tm__rng_below(&r, (uint64_t)(2 * n)), it % 2 == 0,
                  it % 4 == 0 ? 0.3 : 0.0, &c);
        snprintf(name, sizeof name, "case %d (kind %d, %d tasks)", it, kind, n);
        brute_case(name, net, rk, &al, &c, nhp, hop, per, false);
        tm_comm_release(&c);
        tm_alloc_release(&al);
        tm_net_free(net);
    }
}

/* A ring of 4 hosts (transit, no switches) with a fifth host hanging off
 * host 0: its distances run through a transit host. */
static tm_net *pendant_ring(void)
{
    tm_net *net;
    int32_t h[5];
    char name[8];
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    for (int i = 0; i < 5; i++) {
        snprintf(name, sizeof name, "r%d", i);
        assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, name, TM_VERTEX_HOST, 1, &h[i]));
    }
    for (int i = 0; i < 4; i++)
        assert_tm_ok(ctx, tm_net_add_cable(ctx, net, h[i], h[(i + 1) % 4], 1.0, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, h[0], h[4], 1.0, NULL));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    return net;
}

/* A hand-made fabric: parallel cables, a failed cable, unequal
 * capacities, a host on two switches. */
static tm_net *odd_net(void)
{
    tm_net *net;
    int32_t s0, s1, s2, h[5], cab;
    char name[8];
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "s0", TM_VERTEX_SWITCH, 0, &s0));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "s1", TM_VERTEX_SWITCH, 0, &s1));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "s2", TM_VERTEX_SWITCH, 0, &s2));
    for (int i = 0; i < 5; i++) {
        snprintf(name, sizeof name, "h%d", i);
        assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, name, TM_VERTEX_HOST, 2, &h[i]));
    }
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s0, s1, 3.0, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s0, s1, 1.0, NULL)); /* parallel */
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s1, s2, 2.0, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s0, s2, 5.0, &cab));
    tm_net_set_cable_enabled(net, cab, false); /* failed */
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s0, h[0], 1.0, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s0, h[1], 2.0, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s1, h[2], 1.0, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s1, h[2], 1.0, NULL)); /* two cables */
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s2, h[3], 0.5, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s2, h[4], 1.0, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s0, h[4], 1.0, NULL)); /* dual-homed */
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    return net;
}

static void test_brute_force_odd(void **state)
{
    tm__rng r;
    (void)state;
    tm__rng_seed(&r, 7, 0);
    for (int it = 0; it < 12; it++) {
        tm_net *net = it >= 8 ? pendant_ring() : odd_net();
        tm_alloc al;
        tm_comm c;
        char name[64];
        int32_t n = 3 + (int32_t)tm__rng_below(&r, 2);
        make_alloc(net, NULL, 0, it % 2 || it >= 8 ? 1 : 2, &al);
        rand_comm(&r, n, 3 + (int)tm__rng_below(&r, 6), it % 2 == 1, 0.0, &c);
        snprintf(name, sizeof name, "odd net %d", it);
        brute_case(name, net, it % 3 == 2 ? TM_ROUTE_SINGLE : TM_ROUTE_ECMP, &al, &c, NULL, 0,
                   1, false);
        tm_comm_release(&c);
        tm_alloc_release(&al);
        tm_net_free(net);
    }
}

/* A ring stencil on the ring and a job on a non-blocking tree: the bounds
 * are the optimum. */
static void test_brute_force_exact(void **state)
{
    int32_t src[12], dst[12];
    double w[12];
    tm_net *net;
    tm_alloc al;
    tm_comm c;
    (void)state;
    for (int i = 0; i < 6; i++) {
        src[2 * i] = i, dst[2 * i] = (i + 1) % 6, w[2 * i] = 2;
        src[2 * i + 1] = (i + 1) % 6, dst[2 * i + 1] = i, w[2 * i + 1] = 2;
    }
    assert_tm_ok(ctx, tm_comm_from_entries(ctx, 6, 12, src, dst, w, &c));
    net = fx_torus(ctx, 6, 1, 1);
    make_alloc(net, NULL, 0, 0, &al);
    brute_case("ring on ring", net, TM_ROUTE_ECMP, &al, &c, NULL, 0, 1, true);
    tm_alloc_release(&al);
    tm_net_free(net);
    tm_comm_release(&c);
    /* a star of 4 with unequal volumes on 4 hosts of two leaves, full uplinks */
    src[0] = 0, dst[0] = 1, w[0] = 5;
    src[1] = 0, dst[1] = 2, w[1] = 3;
    src[2] = 3, dst[2] = 0, w[2] = 1;
    src[3] = 2, dst[3] = 1, w[3] = 1;
    assert_tm_ok(ctx, tm_comm_from_entries(ctx, 4, 4, src, dst, w, &c));
    net = fx_tree(ctx, 2, 2, 1, 2.0);
    make_alloc(net, NULL, 0, 0, &al);
    {
        tm_route *route;
        tm_problem p = {0};
        tm_bounds b;
        best opt;
        assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &route));
        p.net = net, p.route = route, p.alloc = &al, p.comm = &c, p.imbalance = -1;
        assert_tm_ok(ctx, tm_bounds_compute(ctx, &p, NULL, &b));
        opt = brute(&p, 1);
        /* task 0 sends 8 over its host's one cable: the optimum 8 */
        assert_true(fabs(opt.c - 8) < 1e-12);
        assert_true(fabs(b.max_congestion - 8) < 1e-6);
        assert_string_equal(b.congestion_by, "injection");
        tm_route_free(route);
    }
    tm_alloc_release(&al);
    tm_net_free(net);
    tm_comm_release(&c);
}

/* The periodic 7-point stencil of a k^3 grid in the torus generator's
 * vertex order (task i on host i is the optimum), volume 1 each way;
 * relabel: task ids shuffled. */
static void stencil(int32_t kx, int32_t ky, int32_t kz, bool wrap, uint64_t relabel, tm_comm *c)
{
    int32_t n = kx * ky * kz, *perm = malloc((size_t)n * sizeof *perm);
    int32_t *src = malloc((size_t)n * 6 * sizeof *src), *dst = malloc((size_t)n * 6 * sizeof *dst);
    double *w = malloc((size_t)n * 6 * sizeof *w);
    int32_t dims[3] = {kx, ky, kz};
    int m = 0;
    tm__rng r;
    tm__rng_seed(&r, relabel, 1);
    for (int32_t i = 0; i < n; i++)
        perm[i] = i;
    for (int32_t i = n - 1; relabel && i > 0; i--) {
        int32_t j = (int32_t)tm__rng_below(&r, (uint64_t)i + 1), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int32_t v = 0; v < n; v++) {
        int32_t x[3] = {v % kx, (v / kx) % ky, v / (kx * ky)};
        for (int d = 0; d < 3; d++)
            for (int s = -1; s <= 1; s += 2) {
                int32_t y[3] = {x[0], x[1], x[2]};
                if (dims[d] == 1 || (dims[d] == 2 && s < 0))
                    continue;
                y[d] += s;
                if (!wrap && (y[d] < 0 || y[d] >= dims[d]))
                    continue;
                y[d] = (y[d] + dims[d]) % dims[d];
                src[m] = perm[v];
                dst[m] = perm[y[0] + kx * (y[1] + ky * y[2])];
                w[m++] = 1;
            }
    }
    assert_tm_ok(ctx, tm_comm_from_entries(ctx, n, m, src, dst, w, c));
    free(perm);
    free(src);
    free(dst);
    free(w);
}

static void known_optimum(const char *spec, int32_t kx, int32_t ky, int32_t kz, bool wrap,
                          uint64_t relabel)
{
    tm_net *net = gen(spec, 1);
    tm_route *route;
    tm_alloc al;
    tm_comm c;
    tm_problem p = {0};
    tm_bounds b;
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &route));
    make_alloc(net, NULL, 0, 0, &al);
    stencil(kx, ky, kz, wrap, relabel, &c);
    p.net = net, p.route = route, p.alloc = &al, p.comm = &c, p.imbalance = -1;
    assert_tm_ok(ctx, tm_bounds_compute(ctx, &p, NULL, &b));
    /* the optimum: every message one hop, every directed link one message
     * of volume 1 on 1 Gbit/s */
    if (fabs(b.max_congestion - 1) > 1e-6 || fabs(b.avg_dilation - 1) > 1e-6)
        fail_msg("%s: bounds %g / %g, optimum 1 / 1", spec, b.max_congestion, b.avg_dilation);
    if (!relabel) { /* the identity reaches them: evaluate it */
        tm_mapping m;
        tm_metrics met;
        tm_metrics_opts mo = TM_METRICS_OPTS_INIT;
        mo.time = &no_time;
        tm_mapping_init(&m);
        assert_tm_ok(ctx, tm_mapping_consecutive(ctx, &al, c.n, &m));
        assert_tm_ok(ctx, tm_metrics_eval(ctx, route, &c, &m, &mo, &met));
        assert_true(fabs(met.max_congestion - 1) < 1e-12 && fabs(met.avg_dilation - 1) < 1e-12);
        tm_metrics_release(&met);
        tm_mapping_release(&m);
    }
    tm_comm_release(&c);
    tm_alloc_release(&al);
    tm_route_free(route);
    tm_net_free(net);
}

static void test_known_optima(void **state)
{
    (void)state;
    known_optimum("torus:4x4x4", 4, 4, 4, true, 0);
    known_optimum("torus:8x8x8", 8, 8, 8, true, 7);
    known_optimum("torus:6x5x4", 6, 5, 4, true, 3);
    known_optimum("mesh:6x6", 6, 6, 1, false, 5);
}

/* The grid recognition and its isoperimetric bound against every set of k
 * tasks: tori and meshes of 1 to 3 dimensions (rings of 3, 4 and 5, a ring
 * of 4 being two dimensions of 2), shuffled, with a volume per dimension;
 * and graphs that are no grid (a missing edge, unequal volumes in one
 * dimension) are not taken for one. */
static void grid_comm(const int32_t *dims, const bool *wrap, int d, const double *vol,
                      uint64_t relabel, int32_t drop, tm_comm *c)
{
    int32_t n = 1, m = 0, *perm, *src, *dst;
    double *w;
    tm__rng r;
    for (int i = 0; i < d; i++)
        n *= dims[i];
    perm = malloc((size_t)n * sizeof *perm);
    src = malloc((size_t)n * 2 * d * sizeof *src);
    dst = malloc((size_t)n * 2 * d * sizeof *dst);
    w = malloc((size_t)n * 2 * d * sizeof *w);
    tm__rng_seed(&r, relabel, 2);
    for (int32_t i = 0; i < n; i++)
        perm[i] = i;
    for (int32_t i = n - 1; relabel && i > 0; i--) {
        int32_t j = (int32_t)tm__rng_below(&r, (uint64_t)i + 1), t = perm[i];
        perm[i] = perm[j], perm[j] = t;
    }
    for (int32_t v = 0; v < n; v++)
        for (int i = 0, stride = 1; i < d; stride *= dims[i], i++) {
            int32_t x = v / stride % dims[i], y = x + 1;
            if (y == dims[i] && !(wrap[i] && dims[i] >= 3))
                continue;
            y %= dims[i];
            if (m / 2 == drop) { /* the edge left out */
                drop = -1;
                continue;
            }
            src[m] = perm[v], dst[m] = perm[v + (y - x) * stride], w[m++] = vol[i];
            src[m] = dst[m - 1], dst[m] = src[m - 1], w[m++] = vol[i];
        }
    assert_tm_ok(ctx, tm_comm_from_entries(ctx, n, m, src, dst, w, c));
    free(perm);
    free(src);
    free(dst);
    free(w);
}

/* The least volume leaving a set of k tasks, over every set (k small). */
static double least_out(const tm_comm *c, int32_t k)
{
    int32_t n = c->n, pick[16];
    double least = INFINITY;
    uint8_t *in = calloc((size_t)n, 1);
    for (int32_t i = 0; i < k; i++)
        pick[i] = i;
    for (;;) {
        double out = 0;
        for (int32_t i = 0; i < k; i++)
            in[pick[i]] = 1;
        for (int32_t i = 0; i < k; i++)
            for (int64_t e = c->xadj[pick[i]]; e < c->xadj[pick[i] + 1]; e++)
                out += in[c->adj[e]] ? 0 : c->w[e];
        least = fmin(least, out);
        for (int32_t i = 0; i < k; i++)
            in[pick[i]] = 0;
        int32_t i = k - 1; /* the next k-subset in lexicographic order */
        while (i >= 0 && pick[i] == n - k + i)
            i--;
        if (i < 0)
            break;
        pick[i]++;
        for (int32_t j = i + 1; j < k; j++)
            pick[j] = pick[j - 1] + 1;
    }
    free(in);
    return least;
}

static void test_grid_isoperimetry(void **state)
{
    static const struct {
        int d;
        int32_t dims[3];
        bool wrap[3];
        double vol[3];
        int kmax, want_d;
    } cases[] = {
        {1, {7}, {true}, {1}, 5, 1},                    /* ring */
        {1, {6}, {false}, {2}, 5, 1},                   /* path */
        {2, {5, 5}, {true, true}, {1, 3}, 5, 2},
        {2, {4, 4}, {true, true}, {1, 1}, 6, 4},        /* rings of 4: four dimensions of 2 */
        {2, {3, 6}, {true, false}, {2, 1}, 6, 2},       /* a ring of 3 by a path */
        {3, {3, 3, 3}, {true, true, true}, {1, 1, 1}, 5, 3},
        {3, {2, 3, 4}, {false, false, false}, {1, 2, 1}, 5, 3},
    };
    (void)state;
    for (size_t ci = 0; ci < sizeof cases / sizeof *cases; ci++) {
        tm_comm c;
        tm__tcut t;
        grid_comm(cases[ci].dims, cases[ci].wrap, cases[ci].d, cases[ci].vol, 11 + ci, -1, &c);
        assert_tm_ok(ctx, tm__tcut_init(ctx, &c, c.n, TM__BOUNDS_WORK_DEG, &t));
        assert_tm_ok(ctx, tm__tgrid_detect(ctx, &c, &t));
        if (t.grid.d != cases[ci].want_d)
            fail_msg("case %zu: %d dimensions found, want %d", ci, t.grid.d, cases[ci].want_d);
        for (int32_t k = 1; k <= cases[ci].kmax; k++) {
            double b = tm__tgrid_out(&t, k), least = least_out(&c, k);
            if (!(b <= least * (1 + 1e-12)))
                fail_msg("case %zu, k %d: bound %.17g above the least %.17g", ci, k, b, least);
            if (getenv("TM_TEST_VERBOSE"))
                printf("grid case %zu k %d: %g / %g\n", ci, k, b, least);
        }
        tm__tcut_release(&t);
        tm_comm_release(&c);
    }
    { /* exact on a cube of a big torus: 8 tasks, 24 edges out; no grid without one edge */
        int32_t dims[3] = {8, 8, 8};
        bool wrap[3] = {true, true, true};
        double vol[3] = {1, 1, 1}, vol2[3] = {1, 1, 2};
        tm_comm c;
        tm__tcut t;
        grid_comm(dims, wrap, 3, vol, 3, -1, &c);
        assert_tm_ok(ctx, tm__tcut_init(ctx, &c, c.n, TM__BOUNDS_WORK_DEG, &t));
        assert_tm_ok(ctx, tm__tgrid_detect(ctx, &c, &t));
        assert_int_equal(t.grid.d, 3);
        assert_true(fabs(tm__tgrid_out(&t, 8) - 24) < 1e-6);
        assert_true(fabs(tm__tgrid_out(&t, 1) - 6) < 1e-9);
        tm__tcut_release(&t);
        tm_comm_release(&c);
        grid_comm(dims, wrap, 3, vol, 3, 100, &c); /* edge 100 missing */
        assert_tm_ok(ctx, tm__tcut_init(ctx, &c, c.n, TM__BOUNDS_WORK_DEG, &t));
        assert_tm_ok(ctx, tm__tgrid_detect(ctx, &c, &t));
        assert_int_equal(t.grid.d, 0);
        tm__tcut_release(&t);
        tm_comm_release(&c);
        { /* one edge more (a diagonal of a square): no grid */
            tm_comm c2;
            int32_t src[2] = {0, 9}, dst[2] = {9, 0};
            double w2[2] = {1, 1};
            int64_t m2;
            int32_t *s2, *d2;
            double *ww;
            grid_comm(dims, wrap, 3, vol, 0, -1, &c);
            m2 = c.nnz + 2;
            s2 = malloc((size_t)m2 * sizeof *s2), d2 = malloc((size_t)m2 * sizeof *d2);
            ww = malloc((size_t)m2 * sizeof *ww);
            for (int32_t u = 0; u < c.n; u++)
                for (int64_t e = c.xadj[u]; e < c.xadj[u + 1]; e++)
                    s2[e] = u, d2[e] = c.adj[e], ww[e] = c.w[e];
            for (int i = 0; i < 2; i++)
                s2[c.nnz + i] = src[i], d2[c.nnz + i] = dst[i], ww[c.nnz + i] = w2[i];
            assert_tm_ok(ctx, tm_comm_from_entries(ctx, c.n, m2, s2, d2, ww, &c2));
            assert_tm_ok(ctx, tm__tcut_init(ctx, &c2, c2.n, TM__BOUNDS_WORK_DEG, &t));
            assert_tm_ok(ctx, tm__tgrid_detect(ctx, &c2, &t));
            assert_int_equal(t.grid.d, 0);
            tm__tcut_release(&t);
            tm_comm_release(&c2);
            tm_comm_release(&c);
            free(s2), free(d2), free(ww);
        }
        grid_comm(dims, wrap, 3, vol2, 3, -1, &c); /* one volume per dimension: a grid */
        assert_tm_ok(ctx, tm__tcut_init(ctx, &c, c.n, TM__BOUNDS_WORK_DEG, &t));
        assert_tm_ok(ctx, tm__tgrid_detect(ctx, &c, &t));
        assert_int_equal(t.grid.d, 3);
        /* 8 + 8 + 16 for the cube; the relaxation to real line counts may
         * go below (30.24: equal 2 p_x = 2 p_y = 4 p_z) */
        assert_true(tm__tgrid_out(&t, 8) <= 32 + 1e-9 && tm__tgrid_out(&t, 8) > 30);
        tm__tcut_release(&t);
        tm_comm_release(&c);
    }
}

/* Grid jobs on hosts of two slots, every mapping enumerated: the grid
 * bound never above the optimum. */
static void test_brute_force_grid(void **state)
{
    static const struct {
        int d;
        int32_t dims[2];
        bool wrap[2];
    } jobs[] = {{1, {6}, {true}}, {1, {5}, {true}}, {2, {2, 3}, {false, false}},
                {2, {2, 3}, {true, true}}, {1, {6}, {false}}, {2, {2, 4}, {false, true}}};
    double vol[2] = {1, 2};
    (void)state;
    for (size_t j = 0; j < sizeof jobs / sizeof *jobs; j++)
        for (int net_kind = 0; net_kind < 2; net_kind++) {
            tm_net *net = net_kind ? fx_torus(ctx, 4, 1, 2) : fx_tree(ctx, 2, 2, 2, 1.0);
            tm_alloc al;
            tm_comm c;
            char name[64];
            grid_comm(jobs[j].dims, jobs[j].wrap, jobs[j].d, vol, 5 + j, -1, &c);
            make_alloc(net, NULL, 0, 0, &al);
            snprintf(name, sizeof name, "grid job %zu on %s", j, net_kind ? "ring" : "tree");
            brute_case(name, net, TM_ROUTE_ECMP, &al, &c, NULL, 0, 1, false);
            tm_comm_release(&c);
            tm_alloc_release(&al);
            tm_net_free(net);
        }
}

/* Random jobs and fabrics: every strategy's result and random placements
 * are no better than the bounds. */
static void test_property(void **state)
{
    static const char *const specs[] = {"torus:4x4x2", "fattree:k=4,n=3", "dragonfly:h=2",
                                        "mesh:5x5", "clos:leaves=4,hosts_per_leaf=6,spines=2",
                                        "percs:supernodes=3"};
    static const char *const strategies[] = {"identity", "greedy", "recursive", "rcm", "topdown",
                                             "grow"};
    tm__rng r;
    (void)state;
    tm__rng_seed(&r, 99, 0);
    for (int it = 0; it < 12; it++) {
        const char *spec = specs[it % 6];
        int32_t slots = 1 + (int32_t)tm__rng_below(&r, 3);
        tm_net *net = gen(spec, slots);
        tm_route *route;
        tm_alloc al;
        tm_comm c;
        tm_problem p = {0};
        tm_bounds b;
        tm_metrics_opts mo = TM_METRICS_OPTS_INIT;
        int64_t S;
        int32_t n;
        mo.time = &no_time;
        assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &route));
        make_alloc(net, NULL, 0, 0, &al);
        if (it % 2)
            al.n = al.n * 2 / 3; /* a partial allocation */
        S = tm_alloc_total_slots(&al);
        n = (int32_t)(S * (6 + (int64_t)tm__rng_below(&r, 5)) / 10);
        rand_comm(&r, n, 3 * n, it % 3 == 0, 0.0, &c);
        p.net = net, p.route = route, p.alloc = &al, p.comm = &c, p.imbalance = -1;
        assert_tm_ok(ctx, tm_bounds_compute(ctx, &p, NULL, &b));
        for (size_t s = 0; s < sizeof strategies / sizeof *strategies + 4; s++) {
            tm_mapping m;
            tm_metrics met;
            char what[96];
            tm_mapping_init(&m);
            if (s < sizeof strategies / sizeof *strategies) {
                assert_tm_ok(ctx, tm_strategy_find(strategies[s])->run(ctx, &p, 5, &m));
                snprintf(what, sizeof what, "%s on %s", strategies[s], spec);
            } else { /* a random placement */
                int32_t *slot_host = malloc((size_t)S * sizeof *slot_host);
                int32_t *slot_idx = malloc((size_t)S * sizeof *slot_idx);
                int64_t k = 0;
                for (int32_t i = 0; i < al.n; i++)
                    for (int32_t q = 0; q < al.slots[i]; q++)
                        slot_host[k] = al.host[i], slot_idx[k++] = q;
                for (int64_t i = S - 1; i > 0; i--) {
                    int64_t j = (int64_t)tm__rng_below(&r, (uint64_t)i + 1);
                    int32_t th = slot_host[i], ti = slot_idx[i];
                    slot_host[i] = slot_host[j], slot_idx[i] = slot_idx[j];
                    slot_host[j] = th, slot_idx[j] = ti;
                }
                assert_tm_ok(ctx, tm_mapping_alloc(ctx, &m, n, false));
                for (int32_t t = 0; t < n; t++)
                    m.host[t] = slot_host[t], m.slot[t] = slot_idx[t];
                free(slot_host);
                free(slot_idx);
                snprintf(what, sizeof what, "random placement on %s", spec);
            }
            assert_tm_ok(ctx, tm_metrics_eval(ctx, route, &c, &m, &mo, &met));
            assert_below(what, b.max_congestion, met.max_congestion);
            assert_below(what, b.avg_dilation, met.avg_dilation);
            assert_below(what, b.qap_J, met.qap_J);
            tm_metrics_release(&met);
            tm_mapping_release(&m);
        }
        tm_comm_release(&c);
        tm_alloc_release(&al);
        tm_route_free(route);
        tm_net_free(net);
    }
}

/* Hierarchy mode: every PE mapping of tiny jobs, and a ring of 4 on 2:2
 * (each task: one partner at 1, one at 10: the optimum 44). */
static void test_hierarchy(void **state)
{
    tm__rng r;
    tm_hier h;
    (void)state;
    tm__rng_seed(&r, 5, 0);
    assert_tm_ok(ctx, tm_hier_parse(ctx, "2:2:2", "1:4:3", &h)); /* not increasing */
    for (int it = 0; it < 10; it++) {
        tm_comm c;
        tm_problem p = {0};
        tm_bounds b;
        tm_mapping m;
        double best_j = INFINITY;
        int32_t n = 4 + (int32_t)tm__rng_below(&r, 2), pe[6];
        rand_comm(&r, n, 2 * n, it % 2 == 0, 0.0, &c);
        p.comm = &c, p.hier = &h, p.imbalance = -1;
        assert_tm_ok(ctx, tm_bounds_compute(ctx, &p, NULL, &b));
        assert_false(b.network);
        tm_mapping_init(&m);
        assert_tm_ok(ctx, tm_mapping_alloc(ctx, &m, n, true));
        /* every injective map of n tasks to 8 PEs */
        for (int64_t code = 0; code < (int64_t)1 << (3 * n); code++) {
            bool ok = true;
            tm_metrics met;
            for (int32_t t = 0; t < n; t++) {
                pe[t] = (int32_t)((code >> (3 * t)) & 7);
                for (int32_t q = 0; q < t; q++)
                    ok = ok && pe[q] != pe[t];
                m.pe[t] = pe[t];
            }
            if (!ok)
                continue;
            assert_tm_ok(ctx, tm_metrics_eval_hier(ctx, &h, &c, &m, &met));
            best_j = fmin(best_j, met.qap_J);
        }
        assert_below("hierarchy J", b.qap_J, best_j);
        tm_mapping_release(&m);
        tm_comm_release(&c);
    }
    {
        int32_t src[8] = {0, 1, 1, 2, 2, 3, 3, 0}, dst[8] = {1, 0, 2, 1, 3, 2, 0, 3};
        double w[8] = {1, 1, 1, 1, 1, 1, 1, 1};
        tm_comm c;
        tm_problem p = {0};
        tm_bounds b;
        assert_tm_ok(ctx, tm_hier_parse(ctx, "2:2", "1:10", &h));
        assert_tm_ok(ctx, tm_comm_from_entries(ctx, 4, 8, src, dst, w, &c));
        p.comm = &c, p.hier = &h, p.imbalance = -1;
        assert_tm_ok(ctx, tm_bounds_compute(ctx, &p, NULL, &b));
        assert_true(fabs(b.qap_J - 44) < 1e-6);
        tm_comm_release(&c);
    }
}

/* The gap, the early-stop test, and the problems refused. */
static void test_gap_and_errors(void **state)
{
    tm_bounds b;
    tm_metrics m;
    tm_bounds_gap g;
    tm_problem p = {0};
    (void)state;
    tm_bounds_init(&b);
    tm_metrics_init(&m);
    b.network = true;
    b.max_congestion = 2, b.avg_dilation = 1, b.qap_J = 0;
    m.max_congestion = 3, m.avg_dilation = 1.005, m.qap_J = 4;
    tm_bounds_gap_of(&b, &m, &g);
    assert_true(fabs(g.max_congestion - 1.5) < 1e-12 && fabs(g.avg_dilation - 1.005) < 1e-12);
    assert_true(isinf(g.qap_J));
    assert_false(tm_bounds_within(&b, &m, TM_OBJ_CONGESTION, TM_BOUNDS_STOP_GAP));
    assert_true(tm_bounds_within(&b, &m, TM_OBJ_DILATION, TM_BOUNDS_STOP_GAP));
    assert_false(tm_bounds_within(&b, &m, TM_OBJ_PARETO, TM_BOUNDS_STOP_GAP));
    assert_false(tm_bounds_within(&b, &m, TM_OBJ_TIME, 100));
    m.qap_J = 0;
    tm_bounds_gap_of(&b, &m, &g);
    assert_true(g.qap_J == 1);
    assert_int_equal(tm_bounds_compute(ctx, &p, NULL, &b), TM_EUSAGE);
    {
        tm_net *net = fx_torus(ctx, 3, 1, 1);
        tm_alloc al;
        tm_comm c;
        tm__rng r;
        tm__rng_seed(&r, 1, 0);
        make_alloc(net, NULL, 0, 0, &al);
        rand_comm(&r, 4, 4, false, 0, &c);
        p.net = net, p.alloc = &al, p.comm = &c, p.imbalance = -1;
        assert_int_equal(tm_bounds_compute(ctx, &p, NULL, &b), TM_EINFEASIBLE);
        p.imbalance = 0; /* ceil(4 / 3) = 2 tasks per slot */
        assert_tm_ok(ctx, tm_bounds_compute(ctx, &p, NULL, &b));
        assert_int_equal(b.tasks_per_slot, 2);
        tm_comm_release(&c);
        tm_alloc_release(&al);
        tm_net_free(net);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_brute_force),     cmocka_unit_test(test_brute_force_odd),
        cmocka_unit_test(test_brute_force_exact), cmocka_unit_test(test_known_optima),
        cmocka_unit_test(test_property),        cmocka_unit_test(test_hierarchy),
        cmocka_unit_test(test_grid_isoperimetry), cmocka_unit_test(test_brute_force_grid),
        cmocka_unit_test(test_gap_and_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
