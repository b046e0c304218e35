/* test_qap_secmemo.c - the pieces of topdown's shared splits on big grids
 * (docs/mapping.md): tm__bisect_exact finds the least cut with the given
 * block size (checked against a recursive enumeration of every subset on
 * random small graphs), and the memo of splits (qap_secmemo.h) returns
 * exactly what was stored for a task set and its tasks per child, never
 * another entry with the same hash, across rehashes. */
#include <math.h>

#include "map_fixtures.h"
#include "test_fixtures.h"
#include "graph/partition.h"
#include "qap/qap_secmemo.h"

/* Random weighted graph on n vertices (symmetric rows). */
static void random_graph(tm__rng *r, int32_t n, tm__sgraph *g)
{
    double w[20][20] = {{0}};
    int64_t m = 0;
    for (int32_t u = 0; u < n; u++)
        for (int32_t v = u + 1; v < n; v++)
            if (tm__rng_below(r, 3) == 0)
                w[u][v] = w[v][u] = 1 + (double)tm__rng_below(r, 7);
    g->n = n;
    g->xadj = malloc((size_t)(n + 1) * sizeof *g->xadj);
    g->adj = malloc(400 * sizeof *g->adj);
    g->w = malloc(400 * sizeof *g->w);
    g->vw = NULL;
    g->total_vw = 0;
    g->xadj[0] = 0;
    for (int32_t u = 0; u < n; u++) {
        for (int32_t v = 0; v < n; v++)
            if (w[u][v] > 0) {
                g->adj[m] = v;
                g->w[m++] = w[u][v];
            }
        g->xadj[u + 1] = m;
    }
}

static double cut_of(const tm__sgraph *g, const int32_t *part)
{
    double c = 0;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
            if (part[u] == 0 && part[g->adj[e]] == 1)
                c += g->w[e];
    return c;
}

/* Least cut over every assignment of vertices i.. with `left` more in block 0. */
static double brute(const tm__sgraph *g, int32_t *part, int32_t i, int32_t left)
{
    double best = INFINITY;
    if (i == g->n)
        return left == 0 ? cut_of(g, part) : INFINITY;
    if (left > 0) {
        part[i] = 0;
        best = fmin(best, brute(g, part, i + 1, left - 1));
    }
    if (g->n - i > left) {
        part[i] = 1;
        best = fmin(best, brute(g, part, i + 1, left));
    }
    return best;
}

static void test_bisect_exact(void **state)
{
    tm__rng r;
    (void)state;
    tm__rng_seed(&r, 5, 0);
    for (int t = 0; t < 300; t++) {
        tm__sgraph g;
        int32_t n = 1 + (int32_t)tm__rng_below(&r, 12), c0 = (int32_t)tm__rng_below(&r, (uint64_t)n + 1);
        int32_t part[20], scratch[20], in0 = 0;
        random_graph(&r, n, &g);
        tm__bisect_exact(&g, c0, part);
        for (int32_t i = 0; i < n; i++) {
            assert_true(part[i] == 0 || part[i] == 1);
            in0 += part[i] == 0;
        }
        assert_int_equal(in0, c0);
        assert_true(fabs(cut_of(&g, part) - brute(&g, scratch, 0, c0)) < 1e-9);
        free(g.xadj), free(g.adj), free(g.w);
    }
}

static void test_memo(void **state)
{
    tm__secmemo m;
    int32_t verts[64], part[64];
    int64_t tg[2];
    (void)state;
    tm__secmemo_init(&m);
    assert_null(tm__secmemo_find(&m, 1, verts, 1, tg, 2));
    /* 500 sets (rehashes), every third one stored under the hash of the
     * one before, so that equal hashes with different sets are met */
    for (int k = 0; k < 500; k++) {
        int32_t nv = 1 + k % 60;
        uint64_t h;
        for (int32_t i = 0; i < nv; i++) {
            verts[i] = 3 * i + k;
            part[i] = (i + k) & 1;
        }
        tg[0] = k % 7;
        tg[1] = nv - tg[0];
        h = tm__secmemo_hash(verts, nv, tg, 2);
        if (k % 3 == 2)
            h = 42;
        assert_int_equal(tm__secmemo_add(&m, h, verts, nv, tg, 2, part), 0);
    }
    for (int k = 0; k < 500; k++) {
        int32_t nv = 1 + k % 60;
        uint64_t h;
        const int32_t *got;
        for (int32_t i = 0; i < nv; i++)
            verts[i] = 3 * i + k;
        tg[0] = k % 7;
        tg[1] = nv - tg[0];
        h = k % 3 == 2 ? 42 : tm__secmemo_hash(verts, nv, tg, 2);
        got = tm__secmemo_find(&m, h, verts, nv, tg, 2);
        assert_non_null(got);
        for (int32_t i = 0; i < nv; i++)
            assert_int_equal(got[i], (i + k) & 1);
        tg[0]++; /* other tasks per child: not the same split */
        assert_null(tm__secmemo_find(&m, h, verts, nv, tg, 2));
        tg[0]--;
        verts[nv - 1]++; /* another set */
        assert_null(tm__secmemo_find(&m, h, verts, nv, tg, 2));
    }
    tm__secmemo_release(&m);
}

/* Renaming the tasks keeps every split findable under its new names,
 * each task with its own block: a set that becomes a range (the usual
 * case) and one that does not. */
static void test_memo_relabel(void **state)
{
    enum { N = 40 };
    tm__secmemo m;
    int32_t to[N], a[N], pa[N], b[6] = {1, 7, 8, 20, 33, 39}, pb[6] = {1, 0, 0, 1, 1, 0};
    int32_t ra[N];
    int64_t tga[2] = {20, 20}, tgb[2] = {3, 3};
    (void)state;
    for (int32_t u = 0; u < N; u++) { /* a permutation: u -> 13u + 5 mod 40 */
        to[u] = (13 * u + 5) % N;
        a[u] = u;
        pa[u] = (u * u) % 3 == 0;
    }
    tm__secmemo_init(&m);
    assert_int_equal(tm__secmemo_add(&m, tm__secmemo_hash(a, N, tga, 2), a, N, tga, 2, pa), 0);
    assert_int_equal(tm__secmemo_add(&m, tm__secmemo_hash(b, 6, tgb, 2), b, 6, tgb, 2, pb), 0);
    assert_int_equal(tm__secmemo_relabel(&m, to), 0);
    for (int32_t u = 0; u < N; u++)
        ra[u] = u; /* the set of all tasks, renamed: 0..39 again */
    {
        const int32_t *got = tm__secmemo_find(&m, tm__secmemo_hash(ra, N, tga, 2), ra, N, tga, 2);
        assert_non_null(got);
        for (int32_t u = 0; u < N; u++)
            assert_int_equal(got[to[u]], pa[u]);
    }
    /* 1 7 8 20 33 39 -> 18 16 29 25 34 32: ascending 16 18 25 29 32 34 */
    {
        int32_t sorted[6] = {16, 18, 25, 29, 32, 34}, want[6] = {0, 1, 1, 0, 0, 1};
        const int32_t *got = tm__secmemo_find(&m, tm__secmemo_hash(sorted, 6, tgb, 2), sorted, 6,
                                              tgb, 2);
        assert_non_null(got);
        for (int i = 0; i < 6; i++)
            assert_int_equal(got[i], want[i]);
        assert_null(tm__secmemo_find(&m, tm__secmemo_hash(b, 6, tgb, 2), b, 6, tgb, 2));
    }
    tm__secmemo_release(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bisect_exact),
        cmocka_unit_test(test_memo),
        cmocka_unit_test(test_memo_relabel),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
