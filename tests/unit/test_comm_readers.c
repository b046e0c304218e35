/* test_comm_readers.c - the communication-graph readers: hand-computed
 * valid inputs in every format and variant, the real matrices under
 * tests/data/real/data/commmatrix, a generated graphStats file of the size of
 * CNCA's AMG2013 run, and malformed files with their exact messages. */
#include <math.h>
#include <unistd.h>

#include "test_fixtures.h"
#include "util/util.h"

/* Reads text with the given format and display name. */
static void read_text(const char *text, const char *name, tm_comm_format fmt, tm_comm *c)
{
    FILE *f = tm_test_memfile(text);
    assert_non_null(f);
    assert_tm_ok(ctx, tm_comm_read(ctx, f, name, fmt, c));
    fclose(f);
    assert_tm_ok(ctx, tm_comm_check(ctx, c));
}

static tm_err read_text_err(const char *text, const char *name, tm_comm_format fmt)
{
    tm_comm c;
    FILE *f = tm_test_memfile(text);
    tm_err err;
    assert_non_null(f);
    err = tm_comm_read(ctx, f, name, fmt, &c);
    fclose(f);
    assert_int_equal(c.n, 0);
    assert_null(c.xadj);
    return err;
}

/* Volume u -> v (0 if absent). */
static double vol(const tm_comm *c, int32_t u, int32_t v)
{
    for (int64_t j = c->xadj[u]; j < c->xadj[u + 1]; j++)
        if (c->adj[j] == v)
            return c->w[j];
    return 0;
}

static void test_metis_plain(void **state)
{
    tm_comm c;
    (void)state;
    /* path 1-2-3 plus an isolated vertex 4 (blank line), comments between */
    read_text("% a comment\n4 2\n2\n% inside\n1 3\n2\n\n", "p.graph", TM_COMM_AUTO, &c);
    assert_int_equal(c.n, 4);
    assert_int_equal(c.nnz, 4);
    assert_true(vol(&c, 0, 1) == 1 && vol(&c, 1, 0) == 1 && vol(&c, 1, 2) == 1);
    assert_int_equal(c.xadj[4] - c.xadj[3], 0);
    assert_null(c.vwgt);
    assert_true(tm_comm_total_volume(&c) == 4);
    tm_comm_release(&c);
}

static void test_metis_fmt_variants(void **state)
{
    tm_comm c;
    (void)state;
    /* fmt 1: edge weights; each METIS edge is a message in both directions */
    read_text("3 2 1\n2 5\n1 5 3 7\n2 7\n", "w.graph", TM_COMM_METIS, &c);
    assert_true(vol(&c, 0, 1) == 5 && vol(&c, 1, 0) == 5 && vol(&c, 2, 1) == 7);
    assert_true(tm_comm_total_volume(&c) == 24);
    tm_comm_release(&c);
    /* fmt 10 with ncon 2: the first weight is kept */
    read_text("3 2 10 2\n4 9 2\n5 1 1 3\n6 0 2\n", "v.graph", TM_COMM_METIS, &c);
    assert_non_null(c.vwgt);
    assert_true(c.vwgt[0] == 4 && c.vwgt[1] == 5 && c.vwgt[2] == 6);
    assert_int_equal(c.nnz, 4);
    tm_comm_release(&c);
    /* fmt 11 (also written 011) */
    read_text("2 1 011\n3 2 4\n7 1 4\n", "v.graph", TM_COMM_METIS, &c);
    assert_true(c.vwgt[0] == 3 && c.vwgt[1] == 7 && vol(&c, 0, 1) == 4);
    tm_comm_release(&c);
    /* fmt 100: vertex sizes are read and ignored */
    read_text("2 1 100\n9 2\n9 1\n", "s.graph", TM_COMM_METIS, &c);
    assert_null(c.vwgt);
    assert_true(vol(&c, 1, 0) == 1);
    tm_comm_release(&c);
    /* fmt 101, 110, 111 */
    read_text("2 1 101\n9 2 6\n9 1 6\n", "s.graph", TM_COMM_METIS, &c);
    assert_true(vol(&c, 0, 1) == 6);
    tm_comm_release(&c);
    read_text("2 1 110\n9 3 2\n9 5 1\n", "s.graph", TM_COMM_METIS, &c);
    assert_true(c.vwgt[1] == 5 && vol(&c, 0, 1) == 1);
    tm_comm_release(&c);
    read_text("2 1 111 1\n1 3 2 4\n1 5 1 4\n", "s.graph", TM_COMM_METIS, &c);
    assert_true(c.vwgt[0] == 3 && vol(&c, 1, 0) == 4);
    tm_comm_release(&c);
    /* fmt 0 explicitly, CRLF line ends */
    read_text("2 1 0\r\n2\r\n1\r\n", "c.graph", TM_COMM_METIS, &c);
    assert_int_equal(c.nnz, 2);
    tm_comm_release(&c);
}

static void test_mtx(void **state)
{
    tm_comm c;
    (void)state;
    read_text("%%MatrixMarket matrix coordinate real general\n% c\n3 3 4\n1 2 1.5\n2 1 2\n"
              "3 3 9\n3 1 4\n", "g.mtx", TM_COMM_AUTO, &c);
    assert_int_equal(c.n, 3);
    assert_int_equal(c.nnz, 3); /* diagonal (3,3) ignored */
    assert_true(vol(&c, 0, 1) == 1.5 && vol(&c, 1, 0) == 2 && vol(&c, 2, 0) == 4);
    tm_comm_release(&c);
    read_text("%%MatrixMarket matrix coordinate integer symmetric\n3 3 3\n2 1 5\n3 2 7\n3 3 1\n",
              "s.mtx", TM_COMM_MTX, &c);
    assert_int_equal(c.nnz, 4);
    assert_true(vol(&c, 0, 1) == 5 && vol(&c, 1, 0) == 5 && vol(&c, 1, 2) == 7);
    tm_comm_release(&c);
    /* upper triangle only is accepted as well */
    read_text("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n1 2\n2 3\n", "p.mtx",
              TM_COMM_MTX, &c);
    assert_int_equal(c.nnz, 4);
    assert_true(tm_comm_total_volume(&c) == 4);
    tm_comm_release(&c);
    read_text("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n", "p.mtx",
              TM_COMM_MTX, &c);
    assert_true(vol(&c, 0, 1) == 1 && vol(&c, 1, 0) == 0);
    tm_comm_release(&c);
}

static void test_edges(void **state)
{
    tm_comm c;
    (void)state;
    read_text("# src dst volume\n0 1 10\n1 0\n0 1 5  # again: summed\n3 3 7\n2 3 2.5\n",
              "e.edges", TM_COMM_AUTO, &c);
    assert_int_equal(c.n, 4);
    assert_int_equal(c.nnz, 3);
    assert_true(vol(&c, 0, 1) == 15 && vol(&c, 1, 0) == 1 && vol(&c, 2, 3) == 2.5);
    tm_comm_release(&c);
}

static void test_dense(void **state)
{
    tm_comm c;
    (void)state;
    read_text("5,1,0\n2,0,3,\n0, 4 ,9\n", "d.csv", TM_COMM_AUTO, &c);
    assert_int_equal(c.n, 3);
    assert_int_equal(c.nnz, 4);
    assert_true(vol(&c, 0, 1) == 1 && vol(&c, 1, 0) == 2 && vol(&c, 2, 1) == 4);
    tm_comm_release(&c);
    read_text("0 1.5 \n\n# c\n2e3 0 \n", "d.mat", TM_COMM_AUTO, &c);
    assert_int_equal(c.n, 2);
    assert_true(vol(&c, 1, 0) == 2000 && vol(&c, 0, 1) == 1.5);
    tm_comm_release(&c);
}

static void test_graphstats(void **state)
{
    tm_comm c;
    (void)state;
    read_text("intro\n--------------- Graph Information----------------\n0 , 2 = 10.0\n"
              "1 , 1 = 4.0\n2 , 1 = 3\n----------------Graph info end ----\n5 , 6 = 1\n",
              "x.graphStats.txt", TM_COMM_AUTO, &c);
    assert_int_equal(c.n, 3);
    assert_int_equal(c.nnz, 4);
    assert_true(vol(&c, 0, 2) == 5 && vol(&c, 2, 0) == 5 && vol(&c, 1, 2) == 1.5);
    assert_true(tm_comm_total_volume(&c) == 13);
    tm_comm_release(&c);
}

static void test_mpip(void **state)
{
    tm_comm c;
    (void)state;
    read_text("@ mpiP\n@ MPI Task Assignment      : 0 h\n@ MPI Task Assignment      : 3 h\n"
              "------- Start Communication Matrix -------------\n\nStatistics of rank: 0\n\n"
              "Source\tTarget\tTotal Amount\tTotal Count\n0\t0\t9\t1\n0\t1\t100\t2\n"
              "1\t0\t50\t1\n1\t2\t0\t0\n------- End Communication Matrix -------------\n"
              "0\t2\t7\t1\n", "r.mpiP", TM_COMM_AUTO, &c);
    assert_int_equal(c.n, 4); /* from the task assignment lines */
    assert_int_equal(c.nnz, 2);
    assert_true(vol(&c, 0, 1) == 100 && vol(&c, 1, 0) == 50);
    tm_comm_release(&c);
}

static void test_scotch(void **state)
{
    tm_comm c;
    (void)state;
    /* labels, vertex loads and edge loads; arcs given by label */
    read_text("0\n3 4\n0 111\n10 5 1 2 20\n20 6 2 2 10 3 30\n30 7 1 3 20\n", "l.grf",
              TM_COMM_AUTO, &c);
    assert_int_equal(c.n, 3);
    assert_int_equal(c.nnz, 4);
    assert_true(vol(&c, 0, 1) == 2 && vol(&c, 1, 0) == 2 && vol(&c, 2, 1) == 3);
    assert_true(c.vwgt && c.vwgt[0] == 5 && c.vwgt[2] == 7);
    tm_comm_release(&c);
    /* numbers may run across lines, as Scotch reads them */
    read_text("0\n2 2\n0 000\n1\n1\n1 0\n", "s.src", TM_COMM_AUTO, &c);
    assert_int_equal(c.nnz, 2);
    tm_comm_release(&c);
    /* base 1, isolated vertex, sniffed from the content */
    read_text("0\n3\t2\n1\t000\n1\t2\n1\t1\n0\n", "-", TM_COMM_AUTO, &c);
    assert_int_equal(c.n, 3);
    assert_true(vol(&c, 1, 0) == 1);
    tm_comm_release(&c);
    /* the Scotch test graphs in tests/data/real (4x4 and 16x16 meshes) */
    assert_tm_ok(ctx, tm_comm_read_file(ctx, REAL_DATA("data/scotch/grf/m4x4_b1.grf"),
                                        TM_COMM_AUTO, &c));
    assert_int_equal(c.n, 16);
    assert_int_equal(c.nnz, 48);
    assert_true(vol(&c, 0, 1) == 1 && vol(&c, 0, 4) == 1 && vol(&c, 0, 5) == 0);
    tm_comm_release(&c);
    assert_tm_ok(ctx, tm_comm_read_file(ctx, REAL_DATA("data/scotch/grf/m16x16.grf"),
                                        TM_COMM_AUTO, &c));
    assert_int_equal(c.n, 256);
    assert_int_equal(c.nnz, 960);
    assert_true(tm_comm_total_volume(&c) == 960);
    tm_comm_release(&c);
}

static void test_sniffing(void **state)
{
    tm_comm c;
    (void)state;
    /* no telling extension: content decides */
    read_text("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n", "-",
              TM_COMM_AUTO, &c);
    assert_int_equal(c.nnz, 1);
    tm_comm_release(&c);
    read_text("0 7 1\n7 0 2\n1 2 0\n", "-", TM_COMM_AUTO, &c); /* square: dense */
    assert_int_equal(c.n, 3);
    assert_true(vol(&c, 0, 1) == 7);
    tm_comm_release(&c);
    read_text("% metis\n3 2\n2\n1 3\n2\n", "stdin", TM_COMM_AUTO, &c);
    assert_int_equal(c.n, 3);
    assert_int_equal(c.nnz, 4);
    tm_comm_release(&c);
    read_text("4 1\n2\n1\n\n\n", "stdin", TM_COMM_AUTO, &c); /* trailing isolated vertices */
    assert_int_equal(c.n, 4);
    tm_comm_release(&c);
    read_text("0 5 1\n5 0 1\n2 3\n1 4 2\n", "job.txt", TM_COMM_AUTO, &c);
    assert_int_equal(c.n, 6);
    assert_true(vol(&c, 2, 3) == 1);
    tm_comm_release(&c);
    read_text("x\n--- Graph Information ---\n0 , 1 = 2\n", "stats", TM_COMM_AUTO, &c);
    assert_true(vol(&c, 1, 0) == 1);
    tm_comm_release(&c);
    read_text("1,2\n3,4\n", "m", TM_COMM_AUTO, &c);
    assert_true(vol(&c, 0, 1) == 2);
    tm_comm_release(&c);
    assert_tm_error(ctx, read_text_err("hello world\n", "<stdin>", TM_COMM_AUTO), TM_EINPUT,
                    "<stdin>:1: cannot tell the communication-graph format");
    assert_tm_error(ctx, read_text_err("", "<stdin>", TM_COMM_AUTO), TM_EINPUT,
                    "<stdin>:1: cannot tell");
    assert_int_equal(tm_comm_format_parse("metis"), TM_COMM_METIS);
    assert_int_equal(tm_comm_format_parse("graphstats"), TM_COMM_GRAPHSTATS);
    assert_int_equal(tm_comm_format_parse("bogus"), -1);
}

static void test_missing_file(void **state)
{
    tm_comm c;
    (void)state;
    assert_tm_error(ctx, tm_comm_read_file(ctx, "/nonexistent/x.graph", TM_COMM_AUTO, &c), TM_EIO,
                    "/nonexistent/x.graph: cannot open: ");
    assert_null(c.xadj);
}

/* tests/data/comm/ring.*: one graph in every format gives one CSR. */
static void test_same_graph_every_format(void **state)
{
    static const char *const files[] = {"ring.graph", "ring.mtx", "ring.edges", "ring.csv",
                                        "ring.mat", "ring.graphStats.txt", "ring.mpiP",
                                        "ring.grf"};
    const int64_t xadj[] = {0, 2, 4, 6, 8};
    const int32_t adj[] = {1, 3, 0, 2, 1, 3, 0, 2};
    const double w[] = {10, 2, 10, 5, 5, 7, 2, 7};
    (void)state;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char rel[64];
        tm_comm c;
        snprintf(rel, sizeof rel, "comm/%s", files[i]);
        if (tm_comm_read_file(ctx, TEST_DATA(rel), TM_COMM_AUTO, &c) != TM_EOK)
            fail_msg("%s: %s", files[i], tm_ctx_errmsg(ctx));
        assert_int_equal(c.n, 4);
        assert_int_equal(c.nnz, 8);
        assert_memory_equal(c.xadj, xadj, sizeof xadj);
        assert_memory_equal(c.adj, adj, sizeof adj);
        for (int j = 0; j < 8; j++)
            if (c.w[j] != w[j])
                fail_msg("%s: w[%d] = %g, expected %g", files[i], j, c.w[j], w[j]);
        tm_comm_release(&c);
        /* the same through a stream without a name: content sniffing */
        FILE *f = fopen(TEST_DATA(rel), "r");
        assert_non_null(f);
        assert_tm_ok(ctx, tm_comm_read(ctx, f, "-", TM_COMM_AUTO, &c));
        fclose(f);
        assert_int_equal(c.nnz, 8);
        assert_memory_equal(c.adj, adj, sizeof adj);
        tm_comm_release(&c);
    }
}

/* ---- real files ---------------------------------------------------------- */

typedef struct real_case {
    const char *rel;
    int32_t n;
    int64_t nnz;
    double total;
} real_case;

/* n, directed nonzeros without the diagonal, total volume: computed
 * independently with a Python script from the raw files. */
static const real_case real_cases[] = {
    {"data/commmatrix/maplib/amg/comm_matrix.p2p.count.csv", 64, 4002, 1256017.0},
    {"data/commmatrix/maplib/amg/comm_matrix.p2p.size.csv", 64, 4002, 5431666584.0},
    {"data/commmatrix/maplib/btmz/comm_matrix.p2p.count.csv", 64, 910, 182910.0},
    {"data/commmatrix/maplib/btmz/comm_matrix.p2p.size.csv", 64, 910, 4785761760.0},
    {"data/commmatrix/maplib/cg/comm_matrix.p2p.count.csv", 64, 248, 1263424.0},
    {"data/commmatrix/maplib/cg/comm_matrix.p2p.size.csv", 64, 248, 73513503744.0},
    {"data/commmatrix/netloc_scotch/app.mat", 64, 480, 4473291420.0},
    {"data/commmatrix/cnca_mpiP_cm/cloverleaf_1152.graphStats.txt", 1152, 6770, 484124464408.0},
    {"data/commmatrix/cnca_mpiP_cm/lulesh_1000.graphStats.txt", 1000, 22936, 7147799385336.0},
    {"data/commmatrix/cnca_mpiP_cm/lulesh_64.graphStats.txt", 64, 1048, 135920072376.0},
    {"data/commmatrix/cnca_mpiP_cm/miniamr_1000.graphStats.txt", 1000, 7392, 497669583060.0},
    {"data/commmatrix/cnca_mpiP_cm/npb_cg_C_1024.graphStats.txt", 1024, 8148, 453067312116.0},
    {"data/commmatrix/cnca_mpiP_cm/npb_mg_C_1024.graphStats.txt", 1024, 11786, 12523393472.0},
    {"data/commmatrix/cnca_mpiP_cm/lulesh_64.mpiP", 64, 992, 135920072376.0},
};

static void test_real_files(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof real_cases / sizeof real_cases[0]; i++) {
        const real_case *rc = &real_cases[i];
        tm_comm c;
        tm_err err = tm_comm_read_file(ctx, REAL_DATA(rc->rel), TM_COMM_AUTO, &c);
        if (err)
            fail_msg("%s: %s", rc->rel, tm_ctx_errmsg(ctx));
        assert_tm_ok(ctx, tm_comm_check(ctx, &c));
        if (c.n != rc->n || c.nnz != rc->nnz || tm_comm_total_volume(&c) != rc->total)
            fail_msg("%s: n=%d nnz=%lld total=%.1f", rc->rel, c.n, (long long)c.nnz,
                     tm_comm_total_volume(&c));
        tm_comm_release(&c);
    }
}

static void test_real_semantics(void **state)
{
    tm_comm amg, cg;
    (void)state;
    /* amg is asymmetric and stays directed: row 0 col 1 vs row 1 col 0 */
    assert_tm_ok(ctx, tm_comm_read_file(ctx, REAL_DATA("data/commmatrix/maplib/amg/"
                                                         "comm_matrix.p2p.size.csv"),
                                        TM_COMM_AUTO, &amg));
    assert_true(vol(&amg, 0, 1) == 17737128 && vol(&amg, 1, 0) == 17714368);
    tm_comm_release(&amg);
    /* cg: 8 nonzero diagonal entries (2.96e8 bytes) are dropped */
    assert_tm_ok(ctx, tm_comm_read_file(ctx, REAL_DATA("data/commmatrix/maplib/cg/"
                                                         "comm_matrix.p2p.size.csv"),
                                        TM_COMM_DENSE, &cg));
    for (int32_t u = 0; u < cg.n; u++)
        assert_true(vol(&cg, u, u) == 0);
    assert_int_equal(cg.nnz, 248);
    tm_comm_release(&cg);
}

/* A graphStats file of the size and shape of CNCA's amg2013_1000 (1000
 * ranks, 225,518 pairs, 3.9 MB: too large to keep in the repository,
 * tests/data/PROVENANCE.md): rank 0 talks to every rank, about 45% of the
 * other pairs are present, pairs come in a scrambled order with either rank
 * first, weights are floats, and the statistics sections follow the graph.
 * Written to a temporary file and read by path, as the real file was. */
enum { BIG_N = 1000 };

static uint64_t lcg(uint64_t *x)
{
    *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
    return *x >> 33;
}

/* Writes the pairs in a seeded random order; returns their count, the sum
 * of the weights in *total and the first pair (i, j, w) in first[]. */
static int64_t write_big_graphstats(FILE *f, double *total, double first[3])
{
    int64_t m = 0, cap = (int64_t)BIG_N * (BIG_N - 1) / 2;
    int32_t(*e)[2] = malloc((size_t)cap * sizeof *e);
    uint64_t x = 20170601;
    assert_non_null(e);
    for (int32_t i = 0; i < BIG_N; i++)
        for (int32_t j = i + 1; j < BIG_N; j++)
            if (i == 0 || lcg(&x) % 1000 < 450) {
                e[m][0] = i;
                e[m++][1] = j;
            }
    for (int64_t k = m - 1; k > 0; k--) { /* Fisher-Yates */
        int64_t r = (int64_t)(lcg(&x) % (uint64_t)(k + 1));
        int32_t t0 = e[k][0], t1 = e[k][1];
        e[k][0] = e[r][0], e[k][1] = e[r][1];
        e[r][0] = t0, e[r][1] = t1;
    }
    fprintf(f, "--------------- Graph Information----------------\n");
    *total = 0;
    for (int64_t k = 0; k < m; k++) {
        long long w = 8 * (long long)(1 + lcg(&x) % 100000); /* written as a float */
        int swap = (int)(lcg(&x) & 1);
        fprintf(f, "%d , %d = %lld.0\n", e[k][swap], e[k][!swap], w);
        *total += (double)w;
        if (k == 0)
            first[0] = e[k][swap], first[1] = e[k][!swap], first[2] = (double)w;
    }
    fprintf(f, "----------------Graph info end -------------------\n"
               "--------------- Connectivity Statistics----------------\n"
               "Average Degree:  451.036\nStandard Deviation:  109.7662093\n"
               "----------------Connectivity Statistics end -------------------\n");
    free(e);
    return m;
}

static void test_large_graphstats(void **state)
{
    char path[] = "/tmp/tm_big_graphStats_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    double total, first[3] = {0, 0, 0};
    int64_t m;
    tm_comm c;
    (void)state;
    assert_non_null(f);
    m = write_big_graphstats(f, &total, first);
    assert_int_equal(fclose(f), 0);
    assert_true(m > 220000 && m < 230000);
    assert_tm_ok(ctx, tm_comm_read_file(ctx, path, TM_COMM_AUTO, &c));
    unlink(path);
    assert_tm_ok(ctx, tm_comm_check(ctx, &c));
    assert_int_equal(c.n, BIG_N);
    assert_int_equal(c.nnz, 2 * m);
    assert_true(tm_comm_total_volume(&c) == total);
    assert_int_equal(c.xadj[1] - c.xadj[0], BIG_N - 1); /* the rank-0 hub */
    assert_true(vol(&c, (int32_t)first[0], (int32_t)first[1]) == first[2] / 2);
    assert_true(vol(&c, (int32_t)first[1], (int32_t)first[0]) == first[2] / 2);
    tm_comm_release(&c);
}

/* graphStats weights are Amount[i][j] + Amount[j][i] of the mpiP report
 * (tests/data/PROVENANCE.md, CNCA); with the w/2 split both symmetrise to one graph. */
static void test_lulesh_crosscheck(void **state)
{
    tm_comm gs, mp, sgs, smp;
    (void)state;
    assert_tm_ok(ctx, tm_comm_read_file(ctx, REAL_DATA("data/commmatrix/cnca_mpiP_cm/"
                                                         "lulesh_64.graphStats.txt"),
                                        TM_COMM_AUTO, &gs));
    assert_tm_ok(ctx, tm_comm_read_file(ctx, REAL_DATA("data/commmatrix/cnca_mpiP_cm/"
                                                         "lulesh_64.mpiP"),
                                        TM_COMM_AUTO, &mp));
    assert_true(tm_comm_total_volume(&gs) == tm_comm_total_volume(&mp));
    /* mpiP is directed: 0 -> 1 303014400, 1 -> 0 614552072 */
    assert_true(vol(&mp, 0, 1) == 303014400 && vol(&mp, 1, 0) == 614552072);
    assert_true(vol(&gs, 0, 1) == (303014400.0 + 614552072.0) / 2);
    assert_tm_ok(ctx, tm_comm_symmetrize(ctx, &gs, &sgs));
    assert_tm_ok(ctx, tm_comm_symmetrize(ctx, &mp, &smp));
    assert_int_equal(sgs.nnz, 1048);
    assert_int_equal(smp.nnz, 1048);
    assert_memory_equal(sgs.xadj, smp.xadj, 65 * sizeof *sgs.xadj);
    assert_memory_equal(sgs.adj, smp.adj, 1048 * sizeof *sgs.adj);
    for (int64_t j = 0; j < 1048; j++)
        assert_true(sgs.w[j] == smp.w[j]);
    tm_comm_release(&gs);
    tm_comm_release(&mp);
    tm_comm_release(&sgs);
    tm_comm_release(&smp);
}

/* ---- malformed files (tests/data/bad/comm) ------------------------------- */

typedef struct bad_case {
    const char *file;
    const char *msg; /* expected right after the path */
} bad_case;

static const bad_case bad_cases[] = {
    {"metis_empty.graph", ":1: empty file: no METIS header"},
    {"metis_header_short.graph", ":1: header needs at least"},
    {"metis_header_nonnum.graph", ":1: edge count 'x' is not an integer"},
    {"metis_bad_fmt.graph", ":1: fmt '12' must be up to three digits"},
    {"metis_ncon_no_vwgt.graph", ":1: ncon given but fmt 001 has no vertex weights"},
    {"metis_huge_n.graph", ":1: vertex count 1000000000000 out of range [1, 16777216]"},
    {"metis_too_many_edges.graph", ":1: edge count 5 out of range [0, 1]"},
    {"metis_nbr_range.graph", ":3: neighbour 4 out of range [1, 3]"},
    {"metis_nbr_zero.graph", ":2: neighbour 0 out of range [1, 3]"},
    {"metis_self_loop.graph", ":2: vertex 1 lists itself (self loop)"},
    {"metis_asym.graph", ":3: asymmetric graph: vertex 1 lists 3, but vertex 3 (line 5) does not list 1"},
    {"metis_asym_weight.graph", ":2: asymmetric graph: edge 1-2 has weight 5 here but 6 on the line of vertex 2 (line 3)"},
    {"metis_edge_count.graph", ":1: header says 3 edges, but the vertex lines list 2 (4 adjacency entries)"},
    {"metis_too_few_lines.graph", ":3: file ends after 2 of 3 vertex lines"},
    {"metis_too_many_lines.graph", ":4: more lines than the 2 vertices of the header (line 1)"},
    {"metis_nonnum_nbr.graph", ":2: neighbour '2x' is not an integer"},
    {"metis_neg_weight.graph", ":2: negative edge weight -3"},
    {"metis_missing_ewgt.graph", ":2: vertex 1: neighbour 2 has no edge weight"},
    {"metis_dup_nbr.graph", ":2: vertex 1 lists neighbour 2 twice"},
    {"metis_missing_vwgt.graph", ":3: vertex 2: missing vertex weight 1 of 1"},
    {"metis_neg_vwgt.graph", ":2: negative vertex weight -5"},
    {"metis_header_extra.graph", ":1: ncon given but fmt 001"},
    {"mtx_no_banner.mtx", ":1: missing '%%MatrixMarket' banner"},
    {"mtx_array.mtx", ":1: format 'array' is not supported (only 'coordinate')"},
    {"mtx_complex.mtx", ":1: field 'complex' is not supported"},
    {"mtx_skew.mtx", ":1: symmetry 'skew-symmetric' is not supported"},
    {"mtx_hermitian.mtx", ":1: symmetry 'hermitian' is not supported"},
    {"mtx_nonsquare.mtx", ":3: matrix is 3 x 4; a communication matrix must be square"},
    {"mtx_huge.mtx", ":2: row count 1000000000000 out of range [1, 16777216]"},
    {"mtx_no_size.mtx", ":2: missing size line 'rows cols entries'"},
    {"mtx_row_range.mtx", ":3: row index 3 out of range [1, 2]"},
    {"mtx_col_zero.mtx", ":3: column index 0 out of range [1, 2]"},
    {"mtx_too_few.mtx", ":3: file ends after 1 of 2 entries"},
    {"mtx_too_many.mtx", ":4: more entries than the 1 of the size line"},
    {"mtx_negative.mtx", ":3: negative value -2"},
    {"mtx_nonnum.mtx", ":3: value 'abc' is not a finite number"},
    {"mtx_pattern_extra.mtx", ":3: unexpected '5' after the entry"},
    {"mtx_sym_both.mtx", ":4: symmetric matrix stores entries on both sides of the diagonal (lines 3 and 4)"},
    {"mtx_missing_value.mtx", ":3: missing value"},
    {"mtx_nan.mtx", ":3: value 'nan' is not a finite number"},
    {"mtx_empty.mtx", ":1: empty file: no '%%MatrixMarket' banner"},
    {"edges_missing_dst.edges", ":2: missing target task"},
    {"edges_nonnum_dst.edges", ":1: target task 'x' is not an integer"},
    {"edges_neg_src.edges", ":1: source task -1 out of range [0, 16777215]"},
    {"edges_neg_volume.edges", ":2: negative volume -5"},
    {"edges_extra.edges", ":1: unexpected '3' after 'src dst volume'"},
    {"edges_inf.edges", ":1: volume 'inf' is not a finite number"},
    {"edges_overflow.edges", ":1: volume '1e400' is not a finite number"},
    {"edges_empty.edges", ":2: no edges"},
    {"edges_huge_id.edges", ":1: target task 99999999999 out of range"},
    {"edges_comma.edges", ":1: volume '2,5' is not a finite number"},
    {"edges_float_id.edges", ":1: source task '0.5' is not an integer"},
    {"edges_hex.edges", ":1: volume '0x10' is not a finite number"},
    {"edges_nul.edges", ":2: NUL byte in text input"},
    {"edges_nan.edges", ":1: volume 'nan' is not a finite number"},
    {"dense_ragged.csv", ":2: row 2 has 1 values, expected 2"},
    {"dense_long_row.csv", ":2: row 2 has more than 2 values"},
    {"dense_extra_row.csv", ":3: more than 2 rows in a 2 x 2 matrix"},
    {"dense_short.csv", ":2: file ends after 2 rows of a 3 x 3 matrix"},
    {"dense_empty_field.csv", ":1: row 1: empty field in column 2"},
    {"dense_nonnum.csv", ":1: value 'a' is not a finite number"},
    {"dense_negative.mat", ":1: negative value -1"},
    {"dense_empty.csv", ":1: no matrix rows"},
    {"dense_ws_ragged.mat", ":2: row 2 has 2 values, expected 3"},
    {"dense_semicolon.csv", ":1: value '0;1' is not a finite number"},
    {"dense_nan.mat", ":1: value 'nan' is not a finite number"},
    {"dense_comments_only.mat", ":3: no matrix rows"},
    {"dense_inf.csv", ":2: value 'inf' is not a finite number"},
    {"gs_no_heading.graphStats.txt", ":1: no 'Graph Information' heading"},
    {"gs_no_lines.graphStats.txt", ":2: no 'i , j = w' lines"},
    {"gs_no_comma.graphStats.txt", ":2: expected ',' after the first rank"},
    {"gs_no_equals.graphStats.txt", ":2: expected '=' after the second rank"},
    {"gs_no_weight.graphStats.txt", ":2: missing weight after '='"},
    {"gs_negative.graphStats.txt", ":3: negative weight -5"},
    {"gs_nonnum.graphStats.txt", ":2: weight 'abc' is not a finite number"},
    {"gs_bad_rank.graphStats.txt", ":2: rank 'a' is not an integer"},
    {"gs_huge_rank.graphStats.txt", ":2: rank 99999999999 out of range"},
    {"gs_extra.graphStats.txt", ":2: unexpected '4' after the weight"},
    {"gs_neg_rank.graphStats.txt", ":2: rank -1 out of range"},
    {"gs_nan.graphStats.txt", ":2: weight 'nan' is not a finite number"},
    {"gs_overflow.graphStats.txt", ":2: weight '1e999' is not a finite number"},
    {"mpip_no_block.mpiP", ":2: no 'Start Communication Matrix' block"},
    {"mpip_no_end.mpiP", ":4: communication matrix started on line 2 has no 'End Communication Matrix' line"},
    {"mpip_short_row.mpiP", ":2: missing count"},
    {"mpip_nonnum_amount.mpiP", ":2: amount 'x' is not a finite number"},
    {"mpip_neg_amount.mpiP", ":2: negative amount -5"},
    {"mpip_float_count.mpiP", ":2: count '1.5' is not an integer"},
    {"mpip_extra.mpiP", ":2: unexpected '9'"},
    {"mpip_neg_src.mpiP", ":2: source rank -1 out of range"},
    {"mpip_bad_tgt.mpiP", ":2: target rank 'b' is not an integer"},
    {"mpip_empty_block.mpiP", ":3: empty communication matrix"},
    {"mpip_neg_count.mpiP", ":2: count -3 out of range"},
    {"mpip_nan.mpiP", ":2: amount 'nan' is not a finite number"},
    {"mpip_garbage.mpiP", ":2: source rank 'hello' is not an integer"},
    {"scotch_empty.grf", ":1: file ends before the version number"},
    {"scotch_version.grf", ":1: version number 1 out of range [0, 0]"},
    {"scotch_nonnum_n.grf", ":2: vertex count 'x' is not an integer"},
    {"scotch_arcs_range.grf", ":2: arc count 4 out of range [0, 2]"},
    {"scotch_base.grf", ":3: base value 2 out of range [0, 1]"},
    {"scotch_flags.grf", ":3: flags 012 must be three digits 0/1"},
    {"scotch_flags_range.grf", ":3: flags 200 out of range [0, 111]"},
    {"scotch_end_range.grf", ":4: arc end 5 out of range [0, 1]"},
    {"scotch_self_loop.grf", ":4: vertex 1 has an arc to itself (self loop)"},
    {"scotch_degree.grf", ":4: vertex 0: degree 3 exceeds the 2 arcs left of the header's 2"},
    {"scotch_asym.grf", ":4: asymmetric graph: vertex 0 lists 1, but vertex 1 (line 5) does not list 0"},
    {"scotch_arc_count.grf", ":2: header says 4 arcs, but the vertices list 2"},
    {"scotch_truncated.grf", ":5: file ends before the vertex degree"},
    {"scotch_extra.grf", ":6: unexpected '7' after the last of the 2 vertices"},
    {"scotch_neg_load.grf", ":4: negative edge load -1"},
    {"scotch_bad_load.grf", ":4: vertex load 'x' is not a finite number"},
    {"scotch_unknown_label.grf", ":5: arc to unknown vertex label 9"},
    {"scotch_dup_label.grf", ":5: vertex label 5 used twice (also on line 4)"},
    {"scotch_asym_weight.grf", ":4: asymmetric graph: edge 0-1 has weight 4 here but 5 on the line of vertex 1 (line 5)"},
};

static void test_malformed(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        char rel[256], want[4400];
        tm_comm c;
        tm_err err;
        snprintf(rel, sizeof rel, "bad/comm/%s", bad_cases[i].file);
        snprintf(want, sizeof want, "%s%s", TEST_DATA(rel), bad_cases[i].msg);
        err = tm_comm_read_file(ctx, TEST_DATA(rel), TM_COMM_AUTO, &c);
        if (err != TM_EINPUT || strncmp(tm_ctx_errmsg(ctx), want, strlen(want)) != 0)
            fail_msg("%s: got %d '%s', want '%s'", bad_cases[i].file, (int)err,
                     tm_ctx_errmsg(ctx), want);
        assert_null(c.xadj);
        assert_int_equal(c.n, 0);
    }
}

/* ---- robustness: mutated inputs never crash and never yield an invalid
 * graph (run under ASan/UBSan by make test) ------------------------------- */

static const char *const fuzz_seeds[] = {
    "% c\n3 2 011\n1 2 5\n2 1 5 3 7\n3 2 7\n",
    "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 4.5\n3 2 1e3\n",
    "# e\n0 1 10\n1 2\n2 0 3.5\n",
    "0,1,2\n3,0,4\n5,6,0\n",
    "x\n--- Graph Information ---\n0 , 1 = 8.0\n1 , 2 = 4\n----- end\n",
    ("@ MPI Task Assignment : 2 h\nStart Communication Matrix\nSource\tTarget\n0\t1\t5\t1\n"
     "1\t0\t7\t2\nEnd Communication Matrix\n"),
    "0\n3 4\n0 011\n5 1 2 2\n6 2 2 1 3 3\n7 1 3 2\n",
};

static void mutate(tm__rng *r, char *buf, size_t *len, size_t cap)
{
    static const char alphabet[] = "0123456789 ,.-+e\n\r%#:=x\t\0";
    int k = 1 + (int)tm__rng_below(r, 4);
    for (int i = 0; i < k; i++) {
        size_t pos = *len ? (size_t)tm__rng_below(r, *len) : 0;
        char c = alphabet[tm__rng_below(r, sizeof alphabet - 1)];
        switch (tm__rng_below(r, 4)) {
        case 0: /* replace */
            if (*len)
                buf[pos] = c;
            break;
        case 1: /* delete */
            if (*len) {
                memmove(buf + pos, buf + pos + 1, *len - pos - 1);
                (*len)--;
            }
            break;
        case 2: /* insert */
            if (*len + 1 < cap) {
                memmove(buf + pos + 1, buf + pos, *len - pos);
                buf[pos] = c;
                (*len)++;
            }
            break;
        default: /* truncate */
            *len = pos;
        }
    }
}

static void test_fuzz_readers(void **state)
{
    tm__rng r;
    char buf[512];
    (void)state;
    tm__rng_seed(&r, 42, 0);
    for (size_t s = 0; s < sizeof fuzz_seeds / sizeof fuzz_seeds[0]; s++) {
        for (int it = 0; it < 400; it++) {
            size_t len = strlen(fuzz_seeds[s]);
            memcpy(buf, fuzz_seeds[s], len);
            mutate(&r, buf, &len, sizeof buf);
            for (int fmt = TM_COMM_AUTO; fmt <= TM_COMM_SCOTCH; fmt++) {
                tm_comm c;
                FILE *f = fmemopen(buf, len ? len : 1, "r");
                tm_err err;
                assert_non_null(f);
                if (!len)
                    fgetc(f); /* empty input */
                err = tm_comm_read(ctx, f, "fz", (tm_comm_format)fmt, &c);
                fclose(f);
                if (err == TM_EOK) {
                    assert_tm_ok(ctx, tm_comm_check(ctx, &c));
                    tm_comm_release(&c);
                } else if (err != TM_EINPUT || strncmp(tm_ctx_errmsg(ctx), "fz:", 3) != 0) {
                    fail_msg("seed %zu it %d fmt %d: %d '%s'", s, it, fmt, (int)err,
                             tm_ctx_errmsg(ctx));
                }
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_metis_plain),
        cmocka_unit_test(test_metis_fmt_variants),
        cmocka_unit_test(test_mtx),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_dense),
        cmocka_unit_test(test_graphstats),
        cmocka_unit_test(test_mpip),
        cmocka_unit_test(test_scotch),
        cmocka_unit_test(test_sniffing),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_same_graph_every_format),
        cmocka_unit_test(test_real_files),
        cmocka_unit_test(test_large_graphstats),
        cmocka_unit_test(test_real_semantics),
        cmocka_unit_test(test_lulesh_crosscheck),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_fuzz_readers),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
