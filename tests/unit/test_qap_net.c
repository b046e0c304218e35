/* test_qap_net.c - the QAP engine on networks: the network-mode distance
 * oracle gives exactly tm_metrics_eval's J, the fast swap gains equal full
 * recomputation, every local search keeps J exact, the triangle
 * inequality of the hops is detected (tm__qnet.hops_metric), the network
 * multisection makes valid mappings, refinement chains never end worse
 * than their construction on both objectives, and the Pareto pick never
 * returns a dominated row. */
#include <math.h>

#include "map_fixtures.h"
#include "test_fixtures.h"
#include "qap/qap_int.h"
#include "qap/qap_ptree.h"

static void random_comm(tm__rng *r, int32_t n, int m, tm_comm *c)
{
    int32_t *s = malloc((size_t)m * sizeof *s), *d = malloc((size_t)m * sizeof *d);
    double *w = malloc((size_t)m * sizeof *w);
    for (int i = 0; i < m; i++) {
        s[i] = (int32_t)tm__rng_below(r, (uint64_t)n);
        d[i] = (int32_t)tm__rng_below(r, (uint64_t)n);
        w[i] = 1 + (double)tm__rng_below(r, 9);
    }
    fx_comm(c, n, m, s, d, w);
    free(s), free(d), free(w);
}

/* Random injective placement of c->n tasks on the PEs of q. */
static void random_pe(tm__rng *r, const tm__qnet *q, int32_t n, int32_t *pe)
{
    int32_t *perm = malloc((size_t)q->n_pe * sizeof *perm);
    for (int32_t i = 0; i < q->n_pe; i++)
        perm[i] = i;
    for (int32_t i = (int32_t)q->n_pe - 1; i > 0; i--) {
        int32_t j = (int32_t)tm__rng_below(r, (uint64_t)i + 1), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    memcpy(pe, perm, (size_t)n * sizeof *pe);
    free(perm);
}

static double metrics_J(const tm_problem *p, const tm_mapping *m)
{
    tm_metrics met;
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    double j;
    o.node_hier = p->hier;
    o.hop_distance = p->hop_distance;
    assert_tm_ok(ctx, tm_metrics_eval(ctx, p->route, p->comm, m, &o, &met));
    j = met.qap_J;
    tm_metrics_release(&met);
    return j;
}

typedef struct ncase {
    const char *spec;
    int32_t slots;
    const char *node_levels, *node_dist; /* NULL: none */
    double hop;
    int32_t every; /* allocate every k-th host */
} ncase;

static const ncase cases[] = {
    {"torus:4x4x4", 1, NULL, NULL, 0, 1},
    {"torus:4x4", 2, NULL, NULL, 0, 2},
    {"fattree:k=4,n=3", 4, "2:2", "1:10", 0, 1},
    {"fattree:k=4,n=3", 2, "2", "3", 7, 3},
    {"dragonfly:a=4,p=2,h=2", 2, NULL, NULL, 0, 1},
    {"mesh:3x5", 3, "3", "2", 0, 1},
};

/* The problem of a case: every cs->every-th host allocated, its node
 * levels and hop distance; the caller sets p->comm (and p->route). */
static void case_problem(const ncase *cs, tm_net *net, tm_alloc *al, tm_hier *nh, tm_problem *p)
{
    int32_t *hosts = malloc((size_t)tm_net_n_vertices(net) * sizeof *hosts), k = 0, i = 0;
    for (int32_t v = 0; v < tm_net_n_vertices(net); v++)
        if (tm_net_kind(net, v) == TM_VERTEX_HOST && i++ % cs->every == 0)
            hosts[k++] = v;
    fx_alloc(al, net, k, hosts);
    free(hosts);
    memset(p, 0, sizeof *p);
    p->net = net;
    p->alloc = al;
    p->hop_distance = cs->hop;
    if (cs->node_levels) {
        assert_tm_ok(ctx, tm_hier_parse(ctx, cs->node_levels, cs->node_dist, nh));
        p->hier = nh;
    }
}

/* J from the oracle equals tm_metrics_eval's; swap gains equal full
 * recomputation; every local search keeps an exact J. */
static void test_oracle_and_gains(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        const ncase *cs = &cases[ci];
        tm_net *net = tm_test_gen_net(cs->spec, cs->slots);
        tm_alloc al;
        tm_hier nh;
        tm_route *route;
        tm_comm c;
        tm_problem p;
        tm__qnet q;
        tm__sgraph g;
        tm__qdist o;
        tm_mapping m;
        tm__rng r;
        int32_t *pe;
        case_problem(cs, net, &al, &nh, &p);
        tm__rng_seed(&r, 99, ci);
        random_comm(&r, (int32_t)(tm_alloc_total_slots(&al) * 3 / 4), 200, &c);
        assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &route));
        p.route = route;
        p.comm = &c;
        assert_tm_ok(ctx, tm__qnet_build(ctx, &p, &q));
        assert_true(q.hops_metric); /* transit hosts (direct nets) or single-homed */
        assert_tm_ok(ctx, tm__sgraph_from_comm(ctx, &c, TM__SG_VERTEX_WEIGHTS, &g));
        tm__qdist_init_net(&o, &q);
        /* tori and meshes answer from the PEs' coordinates (tm__qnet.pe_gc):
         * the oracle's figure for every pair, on one host too */
        assert_true((q.pe_gc != NULL) == (strncmp(cs->spec, "torus", 5) == 0 ||
                                          strncmp(cs->spec, "mesh", 4) == 0));
        for (int32_t a = 0; a < q.n_pe; a++)
            for (int32_t b = 0; b < q.n_pe; b++)
                assert_true(tm__qd(&o, a, b) == (a == b ? 0.0 : tm__qnet_d(&q, a, b)));
        pe = malloc((size_t)c.n * sizeof *pe);
        tm_mapping_init(&m);
        assert_tm_ok(ctx, tm_mapping_alloc(ctx, &m, c.n, false));
        for (int trial = 0; trial < 5; trial++) {
            double j;
            random_pe(&r, &q, c.n, pe);
            tm__qnet_from_pe(&q, pe, &m);
            j = tm__qap_eval_sym(&g, &o, pe);
            assert_true(fabs(j - metrics_J(&p, &m)) < 1e-6 * (1 + j));
            for (int s = 0; s < 50; s++) {
                int32_t u = (int32_t)tm__rng_below(&r, (uint64_t)c.n);
                int32_t v = (int32_t)tm__rng_below(&r, (uint64_t)c.n), t;
                double d = tm__qap_swap_delta(&g, &o, pe, u, v), j2;
                t = pe[u], pe[u] = pe[v], pe[v] = t;
                j2 = tm__qap_eval_sym(&g, &o, pe);
                assert_true(fabs(j + d - j2) < 1e-6 * (1 + j));
                j = j2;
            }
        }
        {
            const char *nbh[] = {"nc", "ils", "np", "n2"};
            for (int k = 0; k < 4; k++) {
                double jl = -1;
                random_pe(&r, &q, c.n, pe);
                assert_tm_ok(ctx, tm__qap_local_search(ctx, &g, &o, -1, nbh[k], 2, 5, pe, &jl));
                tm__qnet_from_pe(&q, pe, &m);
                assert_true(fabs(jl - metrics_J(&p, &m)) < 1e-6 * (1 + jl));
                assert_tm_ok(ctx, tm_mapping_check(ctx, net, &al, &m));
            }
        }
        tm_mapping_release(&m);
        free(pe);
        tm__sgraph_release(&g);
        tm__qnet_release(&q);
        tm_route_free(route);
        fx_comm_free(&c);
        fx_alloc_free(&al);
        tm_net_free(net);
    }
}

/* tm__qnet.d_min is the least distance of two distinct PEs (brute force
 * over every pair, each case of the table), and a placement whose every
 * message is at that distance is certified at J's lower bound, which the
 * local searches then leave as it is; one message farther is not. */
static void test_least_distance(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        const ncase *cs = &cases[ci];
        tm_net *net = tm_test_gen_net(cs->spec, cs->slots);
        tm_alloc al;
        tm_hier nh;
        tm_comm c;
        tm_problem p;
        tm__qnet q;
        tm__sgraph g;
        tm__qdist o;
        int32_t pe[3], bp = -1, bq = -1, far = -1;
        const int32_t src[] = {0, 1}, dst[] = {1, 2};
        const double w[] = {5, 2};
        double best = INFINITY, jl = -1;
        case_problem(cs, net, &al, &nh, &p);
        fx_comm(&c, 3, 2, src, dst, w);
        p.comm = &c;
        assert_tm_ok(ctx, tm__qnet_build(ctx, &p, &q));
        tm__qdist_init_net(&o, &q);
        for (int32_t a = 0; a < q.n_pe; a++)
            for (int32_t b = 0; b < q.n_pe; b++)
                if (a != b && tm__qd(&o, a, b) < best) {
                    best = tm__qd(&o, a, b);
                    bp = a, bq = b;
                }
        assert_true(fabs(q.d_min - best) < 1e-12);
        /* a chain 0 - 1 - 2 with both messages at the least distance: task
         * 2 on a PE at d_min from bq other than bp, when there is one */
        for (int32_t x = 0; x < q.n_pe; x++)
            if (x != bp && x != bq && fabs(tm__qd(&o, bq, x) - best) < 1e-12)
                pe[2] = x, far = 0;
        for (int32_t x = 0; far < 0 && x < q.n_pe; x++)
            if (x != bp && x != bq)
                pe[2] = x, far = 1;
        pe[0] = bp, pe[1] = bq;
        assert_tm_ok(ctx, tm__sgraph_from_comm(ctx, &c, TM__SG_VERTEX_WEIGHTS, &g));
        assert_int_equal(tm__qap_at_lower_bound(&g, &o, pe, NULL), far == 0);
        if (far == 0) {
            int32_t keep[3] = {pe[0], pe[1], pe[2]};
            assert_tm_ok(ctx, tm__qap_local_search(ctx, &g, &o, -1, "ils", 2, 5, pe, &jl));
            assert_memory_equal(pe, keep, sizeof keep);
            assert_true(fabs(jl - 7 * best) < 1e-9 * (1 + jl));
            for (int32_t x = 0; x < q.n_pe; x++) /* task 2 farther: no certificate */
                if (x != bp && x != bq && tm__qd(&o, bq, x) > best + 1e-9) {
                    pe[2] = x;
                    assert_false(tm__qap_at_lower_bound(&g, &o, pe, NULL));
                    break;
                }
        }
        tm__sgraph_release(&g);
        tm__qnet_release(&q);
        fx_comm_free(&c);
        fx_alloc_free(&al);
        tm_net_free(net);
    }
}

/* The PE tree covers every PE once, and the multisection places every
 * task on a distinct slot of the allocation (tasks = slots and fewer). */
/* A dual-homed host that does not forward is a shortcut no path may take:
 * h0 - s0 - h1 - s1 - h2 with s0 - s2 - s3 - s1 gives hops(h0, h2) = 5 >
 * hops(h0, h1) + hops(h1, h2) = 4, so the far-pair bound of the local
 * search (triangle inequality) must be off; when h1 forwards it holds. */
static void test_hops_metric(void **state)
{
    const char *names[] = {"h0", "h1", "h2", "s0", "s1", "s2", "s3"};
    const int cab[][2] = {{0, 3}, {1, 3}, {1, 4}, {2, 4}, {3, 5}, {5, 6}, {6, 4}};
    int32_t v[7], hosts[3];
    tm_net *net;
    tm_alloc al;
    tm_comm c;
    tm_problem p = {0};
    tm__qnet q;
    const int32_t src[] = {0}, dst[] = {2};
    const double w[] = {1};
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    for (int i = 0; i < 7; i++)
        assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, names[i], i < 3 ? TM_VERTEX_HOST : TM_VERTEX_SWITCH,
                                            i < 3 ? 1 : 0, &v[i]));
    for (int i = 0; i < 7; i++) {
        int32_t id;
        assert_tm_ok(ctx, tm_net_add_cable(ctx, net, v[cab[i][0]], v[cab[i][1]], 1, &id));
    }
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    for (int i = 0; i < 3; i++)
        hosts[i] = v[i];
    fx_alloc(&al, net, 3, hosts);
    fx_comm(&c, 3, 1, src, dst, w);
    p.net = net;
    p.alloc = &al;
    p.comm = &c;
    assert_tm_ok(ctx, tm__qnet_build(ctx, &p, &q));
    assert_false(q.hops_metric);
    assert_int_equal(tm__netdist_hops(q.hd, 0, 2), 5);
    tm__qnet_release(&q);
    assert_tm_ok(ctx, tm_net_set_transit(ctx, net, v[1], TM_TRANSIT_YES));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm__qnet_build(ctx, &p, &q));
    assert_true(q.hops_metric);
    assert_int_equal(tm__netdist_hops(q.hd, 0, 2), 4);
    tm__qnet_release(&q);
    fx_comm_free(&c);
    fx_alloc_free(&al);
    tm_net_free(net);
}

static void test_netsection_valid(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        const ncase *cs = &cases[ci];
        tm_net *net = tm_test_gen_net(cs->spec, cs->slots);
        tm_alloc al;
        tm_comm c;
        tm_hier nh;
        tm_problem p = {0};
        tm_mapping m;
        tm__rng r;
        tm__qnet q;
        fx_alloc(&al, net, 0, NULL);
        p.net = net;
        p.alloc = &al;
        p.comm = &c;
        if (cs->node_levels) {
            assert_tm_ok(ctx, tm_hier_parse(ctx, cs->node_levels, cs->node_dist, &nh));
            p.hier = &nh;
        }
        assert_tm_ok(ctx, tm__qnet_build(ctx, &p, &q));
        for (int bf = 0; bf < 2; bf++) {
            tm__ptree t;
            tm__ptree_opts po = {0, bf == 1};
            uint8_t *seen = calloc((size_t)q.n_pe, 1);
            assert_tm_ok(ctx, tm__ptree_build(ctx, &p, &q, &po, &t));
            assert_int_equal(t.npe[t.root], q.n_pe);
            assert_int_equal(t.nleaf[t.root], q.n_pe);
            for (int32_t i = 0; i < t.nleaf[t.root]; i++) {
                int32_t leaf = t.leaves[i];
                assert_int_equal(t.nkid[leaf], 0);
                assert_false(seen[t.pe[leaf]]);
                seen[t.pe[leaf]] = 1;
            }
            free(seen);
            tm__ptree_release(&t);
        }
        for (int full = 0; full < 2; full++) {
            int32_t n = full ? (int32_t)q.n_pe : (int32_t)(q.n_pe * 2 / 3);
            tm__rng_seed(&r, 5, ci);
            random_comm(&r, n, 4 * n, &c);
            tm_mapping_init(&m);
            assert_tm_ok(ctx, tm_strategy_find("topdown")->run(ctx, &p, 3, &m));
            assert_int_equal(m.n, n);
            assert_tm_ok(ctx, tm_mapping_check(ctx, net, &al, &m));
            tm_mapping_release(&m);
            fx_comm_free(&c);
        }
        tm__qnet_release(&q);
        fx_alloc_free(&al);
        tm_net_free(net);
    }
}

/* topdown's path of big grids (shared splits, qap_secmemo.h; the splits
 * first, then the trials on the task graph renumbered in their order),
 * forced on small tori: the same mapping as the shared trials run in
 * place, with 1 and 2 threads, on even extents (every split met again in
 * every trial) and odd ones (the memo misses), with fewer tasks than
 * slots, and a valid mapping. */
static void test_topdown_shared_in_order(void **state)
{
    static const struct { const char *spec; int32_t x, y, z, tasks; } tc[] = {
        {"torus:8x8x8", 8, 8, 8, 512}, {"torus:5x6x7", 5, 6, 7, 210}, {"torus:6x6x6", 6, 6, 5, 180}};
    (void)state;
    for (size_t ci = 0; ci < sizeof tc / sizeof tc[0]; ci++) {
        tm_net *net = tm_test_gen_net(tc[ci].spec, 1);
        int32_t n = tc[ci].x * tc[ci].y * tc[ci].z, *perm = malloc((size_t)n * sizeof *perm);
        int32_t *src = malloc((size_t)3 * (size_t)n * sizeof *src), *dst = malloc((size_t)3 * (size_t)n * sizeof *dst);
        double *w = malloc((size_t)3 * (size_t)n * sizeof *w);
        tm_alloc al;
        tm_comm c;
        tm_problem p = {0};
        tm_mapping ref, m;
        tm__rng r;
        int k = 0;
        tm__rng_seed(&r, 11, ci);
        for (int32_t i = 0; i < n; i++)
            perm[i] = i;
        for (int32_t i = n - 1; i > 0; i--) { /* ranks relabelled at random */
            int32_t j = (int32_t)tm__rng_below(&r, (uint64_t)i + 1), t = perm[i];
            perm[i] = perm[j], perm[j] = t;
        }
        for (int32_t z = 0; z < tc[ci].z; z++) /* periodic 7-point stencil */
            for (int32_t y = 0; y < tc[ci].y; y++)
                for (int32_t x = 0; x < tc[ci].x; x++) {
                    int32_t a = x + tc[ci].x * (y + tc[ci].y * z);
                    int32_t nb[3] = {(x + 1) % tc[ci].x + tc[ci].x * (y + tc[ci].y * z),
                                     x + tc[ci].x * ((y + 1) % tc[ci].y + tc[ci].y * z),
                                     x + tc[ci].x * (y + tc[ci].y * ((z + 1) % tc[ci].z))};
                    for (int d = 0; d < 3; d++, k++) {
                        src[k] = perm[a], dst[k] = perm[nb[d]];
                        w[k] = 1 + (double)((a + d) % 5);
                    }
                }
        assert_int_equal(n, tc[ci].tasks);
        fx_comm(&c, n, k, src, dst, w);
        fx_alloc(&al, net, 0, NULL);
        p.net = net;
        p.alloc = &al;
        p.comm = &c;
        tm_mapping_init(&ref);
        assert_tm_ok(ctx, tm__topdown_net_path(ctx, &p, 3, false, TM__TD_SHARED_IN_PLACE, &ref));
        assert_tm_ok(ctx, tm_mapping_check(ctx, net, &al, &ref));
        for (int threads = 1; threads <= 2; threads++) {
            assert_tm_ok(ctx, tm_ctx_set_threads(ctx, threads));
            tm_mapping_init(&m);
            assert_tm_ok(ctx, tm__topdown_net_path(ctx, &p, 3, false, TM__TD_SHARED, &m));
            assert_int_equal(m.n, ref.n);
            assert_memory_equal(m.host, ref.host, (size_t)n * sizeof *m.host);
            assert_memory_equal(m.slot, ref.slot, (size_t)n * sizeof *m.slot);
            tm_mapping_release(&m);
        }
        assert_tm_ok(ctx, tm_ctx_set_threads(ctx, 1));
        tm_mapping_release(&ref);
        fx_alloc_free(&al);
        fx_comm_free(&c);
        free(perm), free(src), free(dst), free(w);
        tm_net_free(net);
    }
}

/* A 2-level tree: 4 leaf switches of 4 hosts, a 16-task graph of four
 * 4-cliques relabelled: topdown puts each clique under one leaf switch
 * (the optimum: J = 4 cliques x 12 entries x 2 hops). */
static void test_topdown_finds_leaf_groups(void **state)
{
    tm_net *net = fx_tree(ctx, 4, 4, 1, 1.0);
    tm_alloc al;
    tm_comm c;
    tm_problem p = {0};
    tm_map_result res;
    int32_t src[48], dst[48];
    double w[48];
    int m = 0;
    static const int32_t lab[16] = {5, 12, 0, 9, 14, 3, 7, 10, 1, 15, 6, 11, 2, 8, 13, 4};
    (void)state;
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                if (i != j) {
                    src[m] = lab[4 * k + i];
                    dst[m] = lab[4 * k + j];
                    w[m++] = 1;
                }
    fx_comm(&c, 16, m, src, dst, w);
    fx_alloc(&al, net, 0, NULL);
    p.net = net;
    p.alloc = &al;
    p.comm = &c;
    assert_tm_ok(ctx, tm_map_run(ctx, &p, "topdown", NULL, TM_OBJ_CONGESTION, &res));
    assert_true(fabs(res.metrics->qap_J - 4 * 12 * 2) < 1e-9);
    assert_true(fabs(res.metrics->avg_dilation - 2) < 1e-9);
    assert_non_null(res.consecutive);
    assert_true(res.consecutive->qap_J > res.metrics->qap_J);
    tm_map_result_release(&res);
    fx_comm_free(&c);
    fx_alloc_free(&al);
    tm_net_free(net);
}

/* Structure recovery: a periodic 3D stencil whose tasks are relabelled at
 * random, on the torus of the same shape: `grow` rebuilds the natural
 * embedding (every message on one link: congestion 1, dilation 1, the
 * optimum by hand), and so does the default pipeline after it.  On a cube
 * every start does; with three ring lengths (10x8x6) a start whose early
 * ties lay a ring on an axis of another length misses (about 6 starts in
 * 7, docs/mapping.md "grow"), so there the best of a few seeds (16 starts
 * each) is asserted. */
static void test_grow_rebuilds_torus(void **state)
{
    /* {X, Y, Z, exact}: with a ring of 4 beside longer rings (6x5x4) some
     * starts put a ring in the wrong plane (C4 is a square locally); the best
     * of the seeds is exact.  exact 0 would assert the bound only:
     * congestion <= 1.5 x optimal, dilation <= 1.5 */
    static const int dims[][4] = {{4, 4, 4, 1}, {8, 8, 8, 1}, {10, 8, 6, 1}, {6, 5, 4, 1}};
    (void)state;
    for (size_t k = 0; k < sizeof dims / sizeof dims[0]; k++) {
        int X = dims[k][0], Y = dims[k][1], Z = dims[k][2], n = X * Y * Z, m = 0;
        char spec[64];
        tm_net *net;
        tm_alloc al;
        tm_comm c;
        tm__rng r;
        tm_problem p = {0};
        tm_map_result res;
        int32_t *lab = malloc((size_t)n * sizeof *lab), *src = malloc((size_t)n * 6 * sizeof *src);
        int32_t *dst = malloc((size_t)n * 6 * sizeof *dst);
        double *w = malloc((size_t)n * 6 * sizeof *w);
        snprintf(spec, sizeof spec, "torus:%dx%dx%d", X, Y, Z);
        net = tm_test_gen_net(spec, 1);
        tm__rng_seed(&r, 7, k);
        for (int i = 0; i < n; i++)
            lab[i] = i;
        for (int i = n - 1; i > 0; i--) {
            int j = (int)tm__rng_below(&r, (uint64_t)i + 1), t = lab[i];
            lab[i] = lab[j];
            lab[j] = t;
        }
        for (int z = 0; z < Z; z++)
            for (int y = 0; y < Y; y++)
                for (int x = 0; x < X; x++) {
                    int u = x + X * (y + Y * z);
                    int nb[6] = {(x + 1) % X + X * (y + Y * z), (x + X - 1) % X + X * (y + Y * z),
                                 x + X * ((y + 1) % Y + Y * z), x + X * ((y + Y - 1) % Y + Y * z),
                                 x + X * (y + Y * ((z + 1) % Z)), x + X * (y + Y * ((z + Z - 1) % Z))};
                    for (int d = 0; d < 6; d++) {
                        src[m] = lab[u];
                        dst[m] = lab[nb[d]];
                        w[m++] = 1;
                    }
                }
        fx_comm(&c, n, m, src, dst, w);
        fx_alloc(&al, net, 0, NULL);
        p.net = net;
        p.alloc = &al;
        p.comm = &c;
        /* the second run (every strategy, refined) on the smallest torus only
         * under the sanitizers: on 512 tasks it took a minute under ASan */
        int runs = TM_TEST_SANITIZED && n > 64 ? 1 : 2;
        for (int run = 0; run < runs; run++) {
            bool cube = X == Y && Y == Z;
            for (int seed = 0; seed < (cube ? 1 : 4); seed++) {
                if (seed)
                    tm_map_result_release(&res);
                tm_ctx_set_seed(ctx, (uint64_t)seed);
                assert_tm_ok(ctx, tm_map_run(ctx, &p, run ? "all" : "grow",
                                             run ? "ils:10+ta" : NULL, TM_OBJ_PARETO, &res));
                if (res.metrics->max_congestion == 1 && res.metrics->avg_dilation == 1)
                    break;
            }
            tm_ctx_set_seed(ctx, 0);
            if (dims[k][3]) {
                assert_true(fabs(res.metrics->avg_dilation - 1) < 1e-12);
                assert_true(fabs(res.metrics->max_congestion - 1) < 1e-12);
            } else {
                assert_true(res.metrics->avg_dilation <= 1.5);
                assert_true(res.metrics->max_congestion <= 1.5);
            }
            assert_true(res.consecutive->avg_dilation > 1.5);
            tm_map_result_release(&res);
        }
        free(lab), free(src), free(dst), free(w);
        fx_comm_free(&c);
        fx_alloc_free(&al);
        tm_net_free(net);
    }
}

static bool dominated_by(const tm_metrics *a, const tm_metrics *b)
{
    return b->max_congestion <= a->max_congestion && b->avg_dilation <= a->avg_dilation &&
           b->qap_J <= a->qap_J &&
           (b->max_congestion < a->max_congestion || b->avg_dilation < a->avg_dilation ||
            b->qap_J < a->qap_J);
}

/* `all` with every objective: the chosen row is dominated by no row, and
 * no refined row is worse than its construction on both objectives. */
static void test_pick_and_chain(void **state)
{
    tm_net *net = tm_test_gen_net("torus:4x4x4", 1);
    tm_alloc al;
    tm_comm c;
    tm__rng r;
    tm_problem p = {0};
    static const tm_objective objs[] = {TM_OBJ_CONGESTION, TM_OBJ_DILATION, TM_OBJ_QAP,
                                        TM_OBJ_PARETO};
    (void)state;
    fx_alloc(&al, net, 0, NULL);
    tm__rng_seed(&r, 17, 0);
    random_comm(&r, 64, 300, &c);
    p.net = net;
    p.alloc = &al;
    p.comm = &c;
    for (size_t k = 0; k < sizeof objs / sizeof objs[0]; k++) {
        tm_map_result res;
        assert_tm_ok(ctx, tm_map_run(ctx, &p, "all", "nc:1+ta:2000", objs[k], &res));
        assert_true(res.n_rows > 3);
        for (int32_t i = 0; i < res.n_rows; i++) {
            const tm_map_row *row = &res.rows[i];
            assert_false(i != res.best && dominated_by(res.metrics, row->metrics));
            assert_false(row->metrics->max_congestion > row->start_congestion * (1 + 1e-9) &&
                         row->metrics->avg_dilation > row->start_dilation * (1 + 1e-9));
            assert_string_equal(row->refine, "nc:1+ta:2000");
        }
        tm_map_result_release(&res);
    }
    fx_comm_free(&c);
    fx_alloc_free(&al);
    tm_net_free(net);
}

static void test_chain_errors(void **state)
{
    tm_net *net = tm_test_gen_net("torus:3x3", 1);
    tm_alloc al;
    tm_comm c;
    tm__rng r;
    tm_problem p = {0};
    tm_map_result res;
    (void)state;
    fx_alloc(&al, net, 0, NULL);
    tm__rng_seed(&r, 1, 0);
    random_comm(&r, 9, 20, &c);
    p.net = net;
    p.alloc = &al;
    p.comm = &c;
    assert_tm_error(ctx, tm_map_run(ctx, &p, "identity", "nc:1+", TM_OBJ_CONGESTION, &res),
                    TM_EUSAGE, "ends with '+'");
    assert_tm_error(ctx, tm_map_run(ctx, &p, "identity", "bogus+ta", TM_OBJ_CONGESTION, &res),
                    TM_EUSAGE, "unknown refinement 'bogus'");
    assert_tm_error(ctx, tm_map_run(ctx, &p, "identity", "ta:dil=-1", TM_OBJ_CONGESTION, &res),
                    TM_EUSAGE, "dil=");
    assert_tm_ok(ctx, tm_map_run(ctx, &p, "identity", "ta:100,dil=none", TM_OBJ_CONGESTION, &res));
    tm_map_result_release(&res);
    fx_comm_free(&c);
    fx_alloc_free(&al);
    tm_net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle_and_gains),
        cmocka_unit_test(test_hops_metric),
        cmocka_unit_test(test_least_distance),
        cmocka_unit_test(test_netsection_valid),
        cmocka_unit_test(test_topdown_shared_in_order),
        cmocka_unit_test(test_topdown_finds_leaf_groups),
        cmocka_unit_test(test_grow_rebuilds_torus),
        cmocka_unit_test(test_pick_and_chain),
        cmocka_unit_test(test_chain_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
