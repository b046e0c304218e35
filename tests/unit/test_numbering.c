/* test_numbering.c - answers that do not depend on how the ranks are
 * numbered (docs/mapping.md "Numbering"): the heavy edges of a task graph
 * (src/graph/sgraph_heavy.c), its canonical numbering (src/graph/canon.c),
 * the skeleton construction (src/qap/qap_skeleton.c), and the default
 * pipeline's answer on a job under several numberings. */
#include <math.h>

#include "map_fixtures.h"
#include "test_fixtures.h"
#include "graph/canon.h"
#include "graph/sgraph.h"
#include "mapping/strategies.h"
#include "qap/qap_int.h" /* tm__skeleton_starts */

/* A K^3 block-decomposed 3D code like LULESH: faces (weight F), edge
 * neighbours (F/50), corners (F/2000), and task 0 sending a few bytes to
 * every task (the collectives as mpiP traces them); task v renamed
 * perm[v] (perm NULL: as built). */
enum { K = 4, N = K * K * K, MAXE = 2 * (26 * N + N) };
typedef struct job {
    int32_t src[MAXE], dst[MAXE];
    double w[MAXE];
    int m;
} job;

static void add2(job *j, int32_t a, int32_t b, double w)
{
    j->src[j->m] = a, j->dst[j->m] = b, j->w[j->m++] = w / 2;
    j->src[j->m] = b, j->dst[j->m] = a, j->w[j->m++] = w / 2;
}

static void lulesh_like(job *j, const int32_t *perm)
{
    j->m = 0;
    for (int32_t v = 0; v < N; v++) {
        int x = v % K, y = v / K % K, z = v / (K * K);
        for (int dz = -1; dz <= 1; dz++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = x + dx, ny = y + dy, nz = z + dz, kind;
                    int32_t u = nx + K * (ny + K * nz);
                    if (nx < 0 || ny < 0 || nz < 0 || nx >= K || ny >= K || nz >= K || u <= v)
                        continue;
                    kind = abs(dx) + abs(dy) + abs(dz);
                    add2(j, perm ? perm[v] : v, perm ? perm[u] : u,
                         kind == 1 ? 2.56e9 : kind == 2 ? 4.7e7 : 1.27e6);
                }
        if (v > 0)
            add2(j, perm ? perm[0] : 0, perm ? perm[v] : v, 8);
    }
}

static void shuffle(int32_t *p, int32_t n, uint64_t seed)
{
    tm__rng r;
    tm__rng_seed(&r, seed, 0);
    for (int32_t i = 0; i < n; i++)
        p[i] = i;
    for (int32_t i = n - 1; i > 0; i--) {
        int32_t k = (int32_t)tm__rng_below(&r, (uint64_t)i + 1), t = p[i];
        p[i] = p[k];
        p[k] = t;
    }
}

static void job_comm(const job *j, tm_comm *c) { fx_comm(c, N, j->m, j->src, j->dst, j->w); }

/* ---- heavy edges ----------------------------------------------------------- */

/* Each class is kept or dropped as the ratio says, the relation is
 * symmetric, and the shares are those of the kept edges and weight. */
static void test_heavy_edges(void **state)
{
    job j;
    tm_comm c;
    tm__sgraph g, h;
    tm__heavy_share kept;
    int64_t faces = 0, heavy_w = 0;
    (void)state;
    lulesh_like(&j, NULL);
    job_comm(&j, &c);
    assert_tm_ok(ctx, tm__sgraph_from_comm(ctx, &c, TM__SG_POSITIVE, &g));
    /* 0.1: the faces alone (every task keeps its heaviest edges) */
    assert_tm_ok(ctx, tm__sgraph_heavy(ctx, &g, 0.1, &h, &kept));
    for (int32_t u = 0; u < h.n; u++)
        for (int64_t e = h.xadj[u]; e < h.xadj[u + 1]; e++) {
            int32_t v = h.adj[e];
            bool back = false;
            assert_true(h.w[e] >= 2.56e9 && h.w[e] < 2.6e9); /* task 0's: + 8 */
            for (int64_t f = h.xadj[v]; f < h.xadj[v + 1]; f++)
                back |= h.adj[f] == u;
            assert_true(back);
            faces++;
        }
    assert_int_equal(faces, 2 * 3 * K * K * (K - 1));
    assert_true(fabs(kept.edges - (double)faces / (double)g.xadj[g.n]) < 1e-12);
    assert_true(kept.weight > 0.96 && kept.weight < 1.0);
    tm__sgraph_release(&h);
    /* 1e-3 (the search graph): faces and edge neighbours, no corners, no
     * collectives */
    assert_tm_ok(ctx, tm__sgraph_heavy(ctx, &g, 1e-3, &h, &kept));
    for (int32_t u = 0; u < h.n; u++)
        for (int64_t e = h.xadj[u]; e < h.xadj[u + 1]; e++) {
            assert_true(h.w[e] >= 4.7e7);
            heavy_w++;
        }
    assert_int_equal(heavy_w, 2 * (3 * K * K * (K - 1) + 6 * K * (K - 1) * (K - 1)));
    tm__sgraph_release(&h);
    tm__sgraph_release(&g);
    fx_comm_free(&c);
}

/* The directed entries of the heavy edges keep their direction and volume. */
static void test_comm_heavy(void **state)
{
    int32_t src[] = {0, 1, 1, 2, 0, 2, 3, 0};
    int32_t dst[] = {1, 0, 2, 1, 2, 0, 0, 3};
    double w[] = {100, 50, 90, 90, 0.01, 0.01, 60, 1};
    tm_comm c, h;
    tm__heavy_share kept;
    (void)state;
    fx_comm(&c, 4, 8, src, dst, w);
    assert_tm_ok(ctx, tm__comm_heavy(ctx, &c, 0.1, &h, &kept));
    assert_int_equal(h.n, 4);
    assert_int_equal(h.nnz, 6); /* 0-2 (0.02 of 150) goes */
    assert_int_equal(h.xadj[1] - h.xadj[0], 2);
    assert_true(h.w[h.xadj[3]] == 60); /* 3 -> 0 as given */
    assert_true(fabs(kept.edges - 3.0 / 4.0) < 1e-12);
    tm_comm_release(&h);
    fx_comm_free(&c);
}

/* ---- the canonical numbering ----------------------------------------------- */

/* The job in canonical numbering: the same CSR, entry for entry. */
static void canon_comm(const tm_comm *c, tm_comm *out)
{
    tm__sgraph g;
    int32_t *perm = malloc((size_t)c->n * sizeof *perm);
    assert_tm_ok(ctx, tm__sgraph_from_comm(ctx, c, TM__SG_POSITIVE, &g));
    assert_tm_ok(ctx, tm__canon_order(ctx, &g, perm));
    for (int32_t i = 0, *seen = calloc((size_t)c->n, sizeof *seen); i < c->n || (free(seen), 0);
         i++) {
        assert_in_range(perm[i], 0, c->n - 1);
        assert_int_equal(seen[perm[i]]++, 0); /* a permutation */
    }
    assert_tm_ok(ctx, tm__comm_permute(ctx, c, perm, out));
    tm__sgraph_release(&g);
    free(perm);
}

/* A job without symmetry (random partners and volumes) numbered four ways
 * is one job in canonical numbering, entry for entry. */
static void test_canon_invariant(void **state)
{
    enum { M = 6 * N };
    int32_t src[M], dst[M], p[N], s2[M], d2[M];
    double w[M];
    tm_comm c0, c1, k0, k1;
    tm__rng r;
    (void)state;
    tm__rng_seed(&r, 11, 0);
    for (int i = 0; i < M; i += 2) {
        src[i] = dst[i + 1] = (int32_t)(i / 6);
        dst[i] = src[i + 1] = (int32_t)tm__rng_below(&r, N);
        w[i] = w[i + 1] = 1 + (double)tm__rng_below(&r, 1000);
    }
    fx_comm(&c0, N, M, src, dst, w);
    canon_comm(&c0, &k0);
    for (uint64_t seed = 1; seed <= 4; seed++) {
        shuffle(p, N, seed);
        for (int i = 0; i < M; i++)
            s2[i] = p[src[i]], d2[i] = p[dst[i]];
        fx_comm(&c1, N, M, s2, d2, w);
        canon_comm(&c1, &k1);
        assert_int_equal(k0.nnz, k1.nnz);
        assert_memory_equal(k0.xadj, k1.xadj, ((size_t)N + 1) * sizeof *k0.xadj);
        assert_memory_equal(k0.adj, k1.adj, (size_t)k0.nnz * sizeof *k0.adj);
        assert_memory_equal(k0.w, k1.w, (size_t)k0.nnz * sizeof *k0.w);
        tm_comm_release(&k1);
        fx_comm_free(&c1);
    }
    tm_comm_release(&k0);
    fx_comm_free(&c0);
}

/* ---- the skeleton construction --------------------------------------------- */

/* Hops between the hosts of tasks a and b (an independent BFS). */
static int torus_hops(const tm_net *net, const tm_mapping *m, int32_t a, int32_t b)
{
    return fx_hops(net, m->host[a], m->host[b]);
}

/* On the renumbered LULESH-like job the skeleton puts every face at one
 * hop (the job's own order's placement), where grow on the whole job does
 * not (the light classes hide the grid). */
static void test_skeleton_rebuilds(void **state)
{
    job j;
    int32_t perm[N];
    tm_comm c;
    tm_alloc al;
    tm_problem p = {0};
    tm_mapping m;
    (void)state;
    /* a mesh like the job, and a bigger torus (the rings of 4 of a 4^3
     * torus look like squares to grow: docs/mapping.md "grow") */
    for (uint64_t seed = 1; seed <= 4; seed++) {
        tm_net *net = tm_test_gen_net(seed % 2 ? "mesh:4x4x4" : "torus:5x5x5", 1);
        int far = 0;
        shuffle(perm, N, seed);
        lulesh_like(&j, perm);
        job_comm(&j, &c);
        fx_alloc(&al, net, 0, NULL);
        p.net = net, p.alloc = &al, p.comm = &c, p.imbalance = -1;
        tm_mapping_init(&m);
        assert_tm_ok(ctx, tm__strategy_skeleton(ctx, &p, 1, &m));
        for (int i = 0; i < j.m; i++)
            if (j.w[i] > 1e9 && torus_hops(net, &m, j.src[i], j.dst[i]) != 1)
                far++;
        assert_int_equal(far, 0);
        tm_mapping_release(&m);
        fx_alloc_free(&al);
        fx_comm_free(&c);
        tm_net_free(net);
    }
}

/* A job that is its own skeleton (no light class): the construction does
 * not exist in the default pipeline, and named alone it is grow. */
static void test_skeleton_of_plain_job(void **state)
{
    int32_t src[2 * N], dst[2 * N];
    double w[2 * N];
    tm_comm c;
    tm_alloc al;
    tm_problem p = {0};
    tm_mapping m, g;
    tm_net *net = fx_torus(ctx, K, 3, 1);
    (void)state;
    for (int32_t v = 0; v < N; v++) { /* a ring */
        src[2 * v] = dst[2 * v + 1] = v;
        dst[2 * v] = src[2 * v + 1] = (v + 1) % N;
        w[2 * v] = w[2 * v + 1] = 1 + v % 3;
    }
    fx_comm(&c, N, 2 * N, src, dst, w);
    fx_alloc(&al, net, 0, NULL);
    p.net = net, p.alloc = &al, p.comm = &c, p.imbalance = -1;
    tm_mapping_init(&m);
    tm_mapping_init(&g);
    assert_tm_ok(ctx, tm__skeleton_starts(ctx, &p, 1, 0, 4, &m));
    assert_int_equal(m.n, 0);
    assert_tm_ok(ctx, tm__strategy_skeleton(ctx, &p, 1, &m));
    assert_tm_ok(ctx, tm__strategy_grow(ctx, &p, 1, &g));
    assert_int_equal(m.n, N);
    assert_memory_equal(m.host, g.host, N * sizeof *m.host);
    tm_mapping_release(&m);
    tm_mapping_release(&g);
    fx_alloc_free(&al);
    fx_comm_free(&c);
    tm_net_free(net);
}

/* ---- the default pipeline under several numberings ------------------------- */

/* Figures of the default's answer on the job renumbered by seed (0: as
 * built) on net, and the mapping read back in the job's own numbering:
 * every face's hops must come from the answer, not from the rows. */
static void answer(tm_net *net, int32_t slots_per_host, uint64_t seed, double fig[3],
                   int32_t *faces_far)
{
    job j;
    int32_t perm[N];
    tm_comm c;
    tm_alloc al;
    tm_problem p = {0};
    tm_map_result r;
    (void)slots_per_host;
    shuffle(perm, N, seed);
    lulesh_like(&j, seed ? perm : NULL);
    job_comm(&j, &c);
    fx_alloc(&al, net, 0, NULL);
    p.net = net, p.alloc = &al, p.comm = &c, p.imbalance = -1;
    assert_tm_ok(ctx, tm_map_run(ctx, &p, "all", "auto", TM_OBJ_PARETO, &r));
    fig[0] = r.metrics->max_congestion;
    fig[1] = r.metrics->avg_dilation;
    fig[2] = r.metrics->qap_J;
    if (faces_far) {
        *faces_far = 0;
        for (int i = 0; i < j.m; i++)
            if (j.w[i] > 1e9 && torus_hops(net, &r.mapping, j.src[i], j.dst[i]) != 1)
                (*faces_far)++;
    }
    tm_map_result_release(&r);
    fx_alloc_free(&al);
    fx_comm_free(&c);
}

/* The case in small: the default puts every face at one hop
 * whatever the numbering, and the figures are the same for every
 * numbering (to the rounding of sums in another order). */
static void test_default_any_numbering(void **state)
{
    tm_net *torus = fx_torus(ctx, K, 3, 1), *tree = fx_tree(ctx, 8, 8, 1, 4.0);
    double f0[3], f[3];
    int32_t far;
    (void)state;
    assert_tm_ok(ctx, tm_ctx_set_threads(ctx, 2));
    answer(torus, 1, 1, f0, &far);
    assert_int_equal(far, 0);
    for (uint64_t seed = 0; seed <= 4; seed++) {
        answer(torus, 1, seed, f, &far);
        assert_int_equal(far, 0);
        for (int k = 0; k < 3; k++)
            assert_true(fabs(f[k] - f0[k]) <= 1e-9 * f0[k]);
    }
    answer(tree, 1, 1, f0, NULL);
    for (uint64_t seed = 2; seed <= 4; seed++) {
        answer(tree, 1, seed, f, NULL);
        for (int k = 0; k < 3; k++)
            assert_true(fabs(f[k] - f0[k]) <= 1e-9 * f0[k]);
    }
    tm_net_free(torus);
    tm_net_free(tree);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heavy_edges),
        cmocka_unit_test(test_comm_heavy),
        cmocka_unit_test(test_canon_invariant),
        cmocka_unit_test(test_skeleton_rebuilds),
        cmocka_unit_test(test_skeleton_of_plain_job),
        cmocka_unit_test(test_default_any_numbering),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
