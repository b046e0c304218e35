/* test_comm.c - the communication graph's CSR: construction from entries,
 * the invariant check, symmetrisation, copying and the two writers
 * (round-tripped through the readers). */
#include <math.h>

#include "test_fixtures.h"

static double vol(const tm_comm *c, int32_t u, int32_t v)
{
    for (int64_t j = c->xadj[u]; j < c->xadj[u + 1]; j++)
        if (c->adj[j] == v)
            return c->w[j];
    return 0;
}

static void test_from_entries(void **state)
{
    /* unsorted, a duplicate (2->0 twice), a diagonal entry, a zero volume */
    const int32_t s[] = {2, 0, 2, 1, 0, 2, 1};
    const int32_t d[] = {0, 2, 0, 1, 1, 1, 2};
    const double w[] = {1.5, 4, 2, 9, 3, 0, 7};
    tm_comm c;
    (void)state;
    assert_tm_ok(ctx, tm_comm_from_entries(ctx, 3, 7, s, d, w, &c));
    assert_tm_ok(ctx, tm_comm_check(ctx, &c));
    assert_int_equal(c.n, 3);
    assert_int_equal(c.nnz, 4);
    const int64_t xadj[] = {0, 2, 3, 4};
    const int32_t adj[] = {1, 2, 2, 0};
    const double ww[] = {3, 4, 7, 3.5};
    assert_memory_equal(c.xadj, xadj, sizeof xadj);
    assert_memory_equal(c.adj, adj, sizeof adj);
    for (int i = 0; i < 4; i++)
        assert_true(c.w[i] == ww[i]);
    assert_true(tm_comm_total_volume(&c) == 17.5);
    tm_comm_release(&c);
    tm_comm_release(&c); /* idempotent */
    /* empty graphs */
    assert_tm_ok(ctx, tm_comm_from_entries(ctx, 0, 0, NULL, NULL, NULL, &c));
    assert_int_equal(c.nnz, 0);
    assert_tm_ok(ctx, tm_comm_check(ctx, &c));
    tm_comm_release(&c);
    assert_tm_ok(ctx, tm_comm_from_entries(ctx, 5, 0, NULL, NULL, NULL, &c));
    assert_int_equal(c.xadj[5], 0);
    tm_comm_release(&c);
}

static void test_from_entries_errors(void **state)
{
    const int32_t s[] = {0, 1}, d[] = {1, 3};
    const double w[] = {1, 1}, neg[] = {1, -2}, inf[] = {INFINITY, 1}, nan_[] = {NAN, 1};
    const int32_t d2[] = {1, 0};
    tm_comm c;
    (void)state;
    assert_tm_error(ctx, tm_comm_from_entries(ctx, 3, 2, s, d, w, &c), TM_EINPUT,
                    "entry 1: task id (1 -> 3) outside [0, 3)");
    assert_null(c.xadj);
    assert_tm_error(ctx, tm_comm_from_entries(ctx, 3, 2, s, d2, neg, &c), TM_EINPUT,
                    "entry 1 (1 -> 0): volume -2 is not a finite non-negative number");
    assert_tm_error(ctx, tm_comm_from_entries(ctx, 3, 2, s, d2, inf, &c), TM_EINPUT,
                    "entry 0 (0 -> 1): volume inf");
    assert_tm_error(ctx, tm_comm_from_entries(ctx, 3, 2, s, d2, nan_, &c), TM_EINPUT,
                    "entry 0 (0 -> 1): volume nan");
    assert_tm_error(ctx, tm_comm_from_entries(ctx, -1, 0, NULL, NULL, NULL, &c), TM_EINPUT,
                    "negative task or entry count");
    /* volumes are bounded (TM_COMM_MAX_VOLUME) so that sums, J and loads
     * stay finite: an overflow of the sum is caught by the same test */
    const double big[] = {1.5e308, 1.5e308}, near[] = {6e29, 6e29}, at[] = {5e29, 5e29};
    const int32_t s3[] = {0, 0}, d3[] = {1, 1};
    assert_tm_error(ctx, tm_comm_from_entries(ctx, 2, 2, s3, d3, big, &c), TM_EINPUT,
                    "total volume inf is larger than the limit 1e+30");
    assert_null(c.xadj);
    assert_tm_error(ctx, tm_comm_from_entries(ctx, 2, 2, s3, d3, near, &c), TM_EINPUT,
                    "total volume 1.2e+30 is larger than the limit 1e+30");
    assert_null(c.xadj);
    assert_tm_ok(ctx, tm_comm_from_entries(ctx, 2, 2, s3, d3, at, &c));
    assert_true(c.w[0] == TM_COMM_MAX_VOLUME);
    assert_tm_ok(ctx, tm_comm_check(ctx, &c));
    c.w[0] = 2e30; /* a graph built by hand is checked too */
    assert_tm_error(ctx, tm_comm_check(ctx, &c), TM_EINPUT,
                    "comm: total volume 2e+30 is larger than the limit 1e+30");
    tm_comm_release(&c);
}

static void test_check(void **state)
{
    int64_t xadj[] = {0, 2, 3};
    int32_t adj[] = {1, 1, 0};
    double w[] = {1, 2, 3};
    tm_comm c = {2, 3, xadj, adj, w, NULL};
    (void)state;
    assert_tm_error(ctx, tm_comm_check(ctx, &c), TM_EINPUT,
                    "comm: entries of task 0 not sorted or duplicated at target 1");
    adj[0] = 0, adj[1] = 1;
    assert_tm_error(ctx, tm_comm_check(ctx, &c), TM_EINPUT, "comm: self-loop on task 0");
    adj[0] = 1, adj[1] = 5;
    xadj[1] = 1, xadj[2] = 2, c.nnz = 2;
    assert_tm_error(ctx, tm_comm_check(ctx, &c), TM_EINPUT, "comm: entry 1 -> 5: target outside");
    adj[1] = 0;
    w[1] = 0;
    assert_tm_error(ctx, tm_comm_check(ctx, &c), TM_EINPUT,
                    "comm: entry 1 -> 0: volume 0 is not positive");
    w[1] = 1;
    assert_tm_ok(ctx, tm_comm_check(ctx, &c));
    xadj[2] = 3;
    assert_tm_error(ctx, tm_comm_check(ctx, &c), TM_EINPUT, "comm: offsets do not span 0..2");
    xadj[2] = 2;
    double vw[] = {1, -1};
    c.vwgt = vw;
    assert_tm_error(ctx, tm_comm_check(ctx, &c), TM_EINPUT, "comm: task 1: weight -1");
}

static void test_symmetrize_copy(void **state)
{
    const int32_t s[] = {0, 1, 2}, d[] = {1, 0, 0};
    const double w[] = {3, 5, 2};
    tm_comm c, sym, cp;
    (void)state;
    assert_tm_ok(ctx, tm_comm_from_entries(ctx, 3, 3, s, d, w, &c));
    c.vwgt = malloc(3 * sizeof *c.vwgt);
    c.vwgt[0] = 1, c.vwgt[1] = 2, c.vwgt[2] = 3;
    assert_tm_ok(ctx, tm_comm_symmetrize(ctx, &c, &sym));
    assert_tm_ok(ctx, tm_comm_check(ctx, &sym));
    assert_int_equal(sym.nnz, 4);
    assert_true(vol(&sym, 0, 1) == 8 && vol(&sym, 1, 0) == 8);
    assert_true(vol(&sym, 0, 2) == 2 && vol(&sym, 2, 0) == 2);
    assert_true(tm_comm_total_volume(&sym) == 2 * tm_comm_total_volume(&c));
    assert_true(sym.vwgt && sym.vwgt[2] == 3);
    assert_tm_ok(ctx, tm_comm_copy(ctx, &c, &cp));
    assert_int_equal(cp.nnz, c.nnz);
    assert_memory_equal(cp.adj, c.adj, (size_t)c.nnz * sizeof *c.adj);
    assert_true(cp.vwgt != c.vwgt && cp.vwgt[1] == 2);
    tm_comm_release(&c);
    tm_comm_release(&sym);
    tm_comm_release(&cp);
}

/* Writes with fn into a memory buffer, reads it back with fmt. */
static void round_trip(const tm_comm *c, tm_err (*fn)(tm_ctx *, const tm_comm *, FILE *),
                       tm_comm_format fmt, tm_comm *back)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_tm_ok(ctx, fn(ctx, c, f));
    fclose(f);
    f = fmemopen(buf, len, "r");
    assert_tm_ok(ctx, tm_comm_read(ctx, f, "rt", fmt, back));
    fclose(f);
    free(buf);
}

static void test_write_metis(void **state)
{
    const int32_t s[] = {0, 1, 1, 2}, d[] = {1, 0, 2, 1};
    const double w[] = {2.4, 2.4, 0.2, 0.2};
    tm_comm c, back;
    (void)state;
    assert_tm_ok(ctx, tm_comm_from_entries(ctx, 4, 4, s, d, w, &c));
    round_trip(&c, tm_comm_write_metis, TM_COMM_METIS, &back);
    /* volumes rounded to integers >= 1; vertex 3 isolated */
    assert_int_equal(back.n, 4);
    assert_int_equal(back.nnz, 4);
    assert_true(vol(&back, 0, 1) == 2 && vol(&back, 1, 2) == 1);
    assert_null(back.vwgt);
    tm_comm_release(&back);
    c.vwgt = calloc(4, sizeof *c.vwgt);
    c.vwgt[3] = 7;
    round_trip(&c, tm_comm_write_metis, TM_COMM_METIS, &back);
    assert_non_null(back.vwgt);
    assert_true(back.vwgt[3] == 7 && back.vwgt[0] == 0);
    tm_comm_release(&back);
    tm_comm_release(&c);

    /* asymmetric graphs are refused and nothing is written */
    const int32_t s2[] = {0}, d2[] = {1};
    const double w2[] = {1};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_tm_ok(ctx, tm_comm_from_entries(ctx, 2, 1, s2, d2, w2, &c));
    assert_tm_error(ctx, tm_comm_write_metis(ctx, &c, f), TM_EINPUT,
                    "graph is not symmetric (0 -> 1 has no reverse entry)");
    fclose(f);
    assert_int_equal(len, 0);
    free(buf);
    tm_comm_release(&c);
    const int32_t s3[] = {0, 1}, d3[] = {1, 0};
    const double w3[] = {1, 5}, w4[] = {3e9, 3e9};
    assert_tm_ok(ctx, tm_comm_from_entries(ctx, 2, 2, s3, d3, w3, &c));
    assert_tm_error(ctx, tm_comm_write_metis(ctx, &c, stdout), TM_EINPUT,
                    "volumes 0 -> 1 (1) and 1 -> 0 (5) differ");
    tm_comm_release(&c);
    assert_tm_ok(ctx, tm_comm_from_entries(ctx, 2, 2, s3, d3, w4, &c));
    assert_tm_error(ctx, tm_comm_write_metis(ctx, &c, stdout), TM_EINPUT,
                    "exceeds METIS's 32-bit weights");
    tm_comm_release(&c);
}

static void test_write_edges(void **state)
{
    const int32_t s[] = {0, 1, 2}, d[] = {1, 0, 0};
    const double w[] = {0.1, 1e20, 917566464};
    tm_comm c, back;
    (void)state;
    assert_tm_ok(ctx, tm_comm_from_entries(ctx, 3, 3, s, d, w, &c));
    round_trip(&c, tm_comm_write_edges, TM_COMM_EDGES, &back);
    assert_int_equal(back.n, 3);
    assert_int_equal(back.nnz, 3);
    for (int64_t j = 0; j < 3; j++) {
        assert_int_equal(back.adj[j], c.adj[j]);
        assert_true(back.w[j] == c.w[j]); /* exact */
    }
    tm_comm_release(&back);
    tm_comm_release(&c);
}

/* Real file: write the symmetrised lulesh graph as METIS and read it back. */
static void test_real_metis_round_trip(void **state)
{
    tm_comm c, sym, back;
    (void)state;
    assert_tm_ok(ctx, tm_comm_read_file(ctx, REAL_DATA("data/commmatrix/netloc_scotch/app.mat"),
                                        TM_COMM_AUTO, &c));
    assert_tm_ok(ctx, tm_comm_symmetrize(ctx, &c, &sym));
    round_trip(&sym, tm_comm_write_metis, TM_COMM_AUTO, &back);
    assert_int_equal(back.n, 64);
    assert_int_equal(back.nnz, sym.nnz);
    assert_true(tm_comm_total_volume(&back) == tm_comm_total_volume(&sym));
    tm_comm_release(&c);
    tm_comm_release(&sym);
    tm_comm_release(&back);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_from_entries),
        cmocka_unit_test(test_from_entries_errors),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_symmetrize_copy),
        cmocka_unit_test(test_write_metis),
        cmocka_unit_test(test_write_edges),
        cmocka_unit_test(test_real_metis_round_trip),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
