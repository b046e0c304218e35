/* test_hostile_inputs.c - inputs that break parsers in practice, fed to
 * every reader: absurd announced sizes, integer overflow in size
 * arithmetic, lines over the lexer limit, very long names, NUL bytes, CRLF
 * line ends (must read exactly like LF), UTF-8 names, empty files and a
 * directory given as the input stream.  Errors must be the exact
 * "file:line: what is wrong" and nothing may be allocated from an
 * announced size before it is checked (ASan's allocator would abort on a
 * 10^12-element request, and the test runs under ASan in make test). */
#include "test_util.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"
#include "io/xml_int.h"

#define IB_LONGNAME_ERR TM_EOK
#define NODEMAP_LONG_ERR TM_EOK

static tm_ctx *ctx;

static int setup(void **state)
{
    (void)state;
    return tm_ctx_new(&ctx) == TM_EOK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    tm_ctx_free(ctx);
    return 0;
}

/* ---- input builders --------------------------------------------------- */

/* A FILE* over len bytes (which may contain NULs); the buffer must outlive
 * the stream. */
static FILE *mem(const char *buf, size_t len)
{
    FILE *f = len ? fmemopen((void *)buf, len, "r") : fopen("/dev/null", "r");
    assert_non_null(f);
    return f;
}

/* A stream reading a directory: fopen succeeds on Linux, reads fail with
 * EISDIR.  Readers must report an I/O error, not an empty input. */
static FILE *dir_stream(void)
{
    FILE *f = fopen("/", "r");
    assert_non_null(f);
    return f;
}

/* prefix + n copies of c + suffix, malloc'ed (caller frees). */
static char *repeat(const char *prefix, char c, size_t n, const char *suffix, size_t *len)
{
    size_t lp = strlen(prefix), ls = strlen(suffix);
    char *s = malloc(lp + n + ls + 1);
    assert_non_null(s);
    memcpy(s, prefix, lp);
    memset(s + lp, c, n);
    memcpy(s + lp + n, suffix, ls + 1);
    *len = lp + n + ls;
    return s;
}

/* Text with every "\n" turned into "\r\n" (malloc'ed). */
static char *crlf(const char *text)
{
    size_t n = strlen(text), k = 0;
    char *s = malloc(2 * n + 1);
    assert_non_null(s);
    for (size_t i = 0; i < n; i++) {
        if (text[i] == '\n')
            s[k++] = '\r';
        s[k++] = text[i];
    }
    s[k] = '\0';
    return s;
}

/* ---- the shared line lexer and whole-file reader ---------------------- */

static void test_lexer_nul_byte(void **state)
{
    static const char text[] = "a\nb\nc\0d\n";
    tm__lexer lx;
    bool line;
    FILE *f = mem(text, sizeof text - 1);
    (void)state;
    tm__lex_init(&lx, ctx, f, "in.txt");
    assert_tm_ok(ctx, tm__lex_next(&lx, &line));
    assert_true(line);
    assert_tm_ok(ctx, tm__lex_next(&lx, &line));
    assert_true(line);
    assert_int_equal(tm__lex_next(&lx, &line), TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "in.txt:3: NUL byte in text input");
    tm__lex_release(&lx);
    fclose(f);
}

static void test_lexer_crlf_and_utf8(void **state)
{
    static const char text[] = "n\xc5\x93ud-\xc3\xa9t\xc3\xa9\r\n\r\nlast\r";
    tm__lexer lx;
    bool line;
    FILE *f = mem(text, sizeof text - 1);
    (void)state;
    tm__lex_init(&lx, ctx, f, "in.txt");
    assert_tm_ok(ctx, tm__lex_next(&lx, &line));
    assert_true(line);
    assert_string_equal(lx.buf, "n\xc5\x93ud-\xc3\xa9t\xc3\xa9");
    assert_tm_ok(ctx, tm__lex_next(&lx, &line));
    assert_true(line);
    assert_int_equal(lx.len, 0);
    /* a final line without "\n" still counts; its "\r" is stripped */
    assert_tm_ok(ctx, tm__lex_next(&lx, &line));
    assert_true(line);
    assert_string_equal(lx.buf, "last");
    assert_int_equal(lx.line, 3);
    assert_tm_ok(ctx, tm__lex_next(&lx, &line));
    assert_false(line);
    tm__lex_release(&lx);
    fclose(f);
}

static void test_lexer_long_line(void **state)
{
    size_t len;
    char *s = repeat("ok\n", 'x', TM_LEX_MAX_LINE + 1, "\n", &len);
    tm__lexer lx;
    bool line;
    FILE *f = mem(s, len);
    (void)state;
    tm__lex_init(&lx, ctx, f, "in.txt");
    assert_tm_ok(ctx, tm__lex_next(&lx, &line));
    assert_true(line);
    assert_int_equal(tm__lex_next(&lx, &line), TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "in.txt:2: line longer than 16777216 bytes");
    tm__lex_release(&lx);
    fclose(f);
    free(s);
}

static void test_lexer_empty_and_directory(void **state)
{
    tm__lexer lx;
    bool line;
    FILE *f = mem("", 0);
    (void)state;
    tm__lex_init(&lx, ctx, f, "empty.txt");
    assert_tm_ok(ctx, tm__lex_next(&lx, &line));
    assert_false(line);
    tm__lex_release(&lx);
    fclose(f);
    f = dir_stream();
    tm__lex_init(&lx, ctx, f, "somedir");
    assert_int_equal(tm__lex_next(&lx, &line), TM_EIO);
    assert_string_equal(tm_ctx_errmsg(ctx), "somedir:1: read error");
    tm__lex_release(&lx);
    fclose(f);
}

static void test_read_all_bounded(void **state)
{
    char *buf = NULL;
    size_t len = 0;
    static const char text[] = "0123456789";
    FILE *f = mem(text, 10);
    (void)state;
    assert_int_equal(tm__read_all(ctx, f, "big.xml", 9, &buf, &len), TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "big.xml: file larger than 9 bytes");
    assert_null(buf);
    fclose(f);
    f = dir_stream();
    assert_int_equal(tm__read_all(ctx, f, "somedir", 100, &buf, &len), TM_EIO);
    assert_string_equal(tm_ctx_errmsg(ctx), "somedir: read error");
    assert_null(buf);
    fclose(f);
}

/* ---- hierarchy strings ------------------------------------------------ */

static void test_hier_hostile(void **state)
{
    tm_hier h;
    (void)state;
    assert_tm_error(ctx, tm_hier_parse(ctx, "4:99999999999", "1:10", &h), TM_EINPUT,
                    "hierarchy '4:99999999999': more than 2^31 PEs");
    assert_tm_error(ctx, tm_hier_parse(ctx, "65536:65536", "1:10", &h), TM_EINPUT,
                    "hierarchy '65536:65536': more than 2^31 PEs");
    assert_tm_error(ctx, tm_hier_parse(ctx, "99999999999999999999", "1", &h), TM_EINPUT,
                    "expected integers separated by ':'");
    /* the locale-free number parser refuses inf, nan, hex and overflow */
    assert_tm_error(ctx, tm_hier_parse(ctx, "4:4", "1:inf", &h), TM_EINPUT,
                    "distances '1:inf': expected numbers separated by ':'");
    assert_tm_error(ctx, tm_hier_parse(ctx, "4:4", "1:nan", &h), TM_EINPUT,
                    "distances '1:nan': expected numbers separated by ':'");
    assert_tm_error(ctx, tm_hier_parse(ctx, "4:4", "1:1e999", &h), TM_EINPUT,
                    "distances '1:1e999': expected numbers separated by ':'");
    /* finite but huge: J would be infinite (tests/fuzz/regressions/fuzz_hier) */
    assert_tm_error(ctx, tm_hier_parse(ctx, "22", "013E307", &h), TM_EINPUT,
                    "distances '013E307': distance 1 is 1.3e+308, larger than the limit 1e+12");
    assert_tm_error(ctx, tm_hier_parse(ctx, "4:4", "1:1.000001e12", &h), TM_EINPUT,
                    "distance 2 is 1e+12, larger than the limit 1e+12");
    assert_tm_ok(ctx, tm_hier_parse(ctx, "4:4", "1:1e12", &h));
    assert_true(h.d[1] == TM_HIER_MAX_DISTANCE);
    assert_tm_error(ctx, tm_hier_parse(ctx, "", "", &h), TM_EINPUT,
                    "hierarchy '': expected integers separated by ':'");
    assert_tm_error(ctx, tm_hier_parse(ctx, "1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1", "1", &h),
                    TM_EINPUT, "more than 16 levels");
    assert_tm_ok(ctx, tm_hier_parse(ctx, " 2 : 3 ", "1:2", &h));
    assert_int_equal(h.n_pe, 6);
}


/* ---- communication graphs ---------------------------------------------- */

typedef tm_err (*comm_reader)(tm_ctx *, FILE *, const char *, tm_comm *);

/* Reads len bytes with rd; expects err and, when msg is not NULL, exactly
 * that message.  On error the output must be left empty. */
static void comm_case(comm_reader rd, const char *buf, size_t len, tm_err err, const char *msg)
{
    tm_comm c;
    FILE *f = mem(buf, len);
    tm_comm_init(&c);
    tm_ctx_clear_error(ctx);
    tm_err got = rd(ctx, f, "g.in", &c);
    fclose(f);
    if (got != err || (msg && strcmp(tm_ctx_errmsg(ctx), msg) != 0))
        fail_msg("expected %d '%s', got %d '%s'", (int)err, msg ? msg : "", (int)got,
                 tm_ctx_errmsg(ctx));
    if (err != TM_EOK) {
        assert_int_equal(c.n, 0);
        assert_null(c.xadj);
    } else {
        assert_tm_ok(ctx, tm_comm_check(ctx, &c));
    }
    tm_comm_release(&c);
}
#define COMM(rd, lit, err, msg) comm_case(rd, lit, sizeof lit - 1, err, msg)

/* The same graph from LF and CRLF text. */
static void comm_same_crlf(comm_reader rd, const char *text)
{
    tm_comm a, b;
    char *t2 = crlf(text);
    FILE *f1 = mem(text, strlen(text)), *f2 = mem(t2, strlen(t2));
    tm_comm_init(&a);
    tm_comm_init(&b);
    assert_tm_ok(ctx, rd(ctx, f1, "lf", &a));
    assert_tm_ok(ctx, rd(ctx, f2, "crlf", &b));
    assert_int_equal(a.n, b.n);
    assert_int_equal(a.nnz, b.nnz);
    assert_memory_equal(a.xadj, b.xadj, (size_t)(a.n + 1) * sizeof *a.xadj);
    assert_memory_equal(a.adj, b.adj, (size_t)a.nnz * sizeof *a.adj);
    assert_memory_equal(a.w, b.w, (size_t)a.nnz * sizeof *a.w);
    tm_comm_release(&a);
    tm_comm_release(&b);
    fclose(f1);
    fclose(f2);
    free(t2);
}

/* Empty input, a directory, a NUL byte, an over-long line: the same for
 * every comm reader (the shared lexer).  empty_msg is reader-specific. */
static void comm_common(comm_reader rd, const char *empty_msg, const char *nul_text,
                        const char *nul_msg)
{
    size_t len;
    char *s;
    tm_comm c;
    FILE *f;
    comm_case(rd, "", 0, TM_EINPUT, empty_msg);
    comm_case(rd, nul_text, strlen(nul_text) + 4, TM_EINPUT, nul_msg);
    s = repeat("", '1', TM_LEX_MAX_LINE + 10, "\n", &len);
    comm_case(rd, s, len, TM_EINPUT, "g.in:1: line longer than 16777216 bytes");
    free(s);
    tm_comm_init(&c);
    f = dir_stream();
    assert_tm_error(ctx, rd(ctx, f, "adir", &c), TM_EIO, "adir:1: read error");
    assert_int_equal(c.n, 0);
    fclose(f);
}

static void test_metis_hostile(void **state)
{
    (void)state;
    comm_common(tm_comm_read_metis, "g.in:1: empty file: no METIS header 'n m [fmt [ncon]]'",
                "3 2\n2\n1 \0\0\0\0", "g.in:3: NUL byte in text input");
    /* sizes announced in the header are checked before anything is
     * allocated from them */
    COMM(tm_comm_read_metis, "1000000000000 1\n2\n1\n", TM_EINPUT,
         "g.in:1: vertex count 1000000000000 out of range [1, 16777216]");
    COMM(tm_comm_read_metis, "2147483648 1\n", TM_EINPUT,
         "g.in:1: vertex count 2147483648 out of range [1, 16777216]");
    COMM(tm_comm_read_metis, "99999999999999999999999 1\n", TM_EINPUT, NULL);
    COMM(tm_comm_read_metis, "3 4611686018427387904\n2\n1 3\n2\n", TM_EINPUT,
         "g.in:1: edge count 4611686018427387904 out of range [0, 3]");
    COMM(tm_comm_read_metis, "3 -2\n2\n1 3\n2\n", TM_EINPUT,
         "g.in:1: edge count -2 out of range [0, 3]");
    COMM(tm_comm_read_metis, "3 2 011 1000000000\n2\n1 3\n2\n", TM_EINPUT,
         "g.in:1: ncon 1000000000 out of range [1, 1000]");
    COMM(tm_comm_read_metis, "3 2\n2\n1 3\n2\n9\n", TM_EINPUT,
         "g.in:5: more lines than the 3 vertices of the header (line 1)");
    COMM(tm_comm_read_metis, "3 2\n\n\n\n", TM_EINPUT,
         "g.in:1: header says 2 edges, but the vertex lines list 0 (0 adjacency entries)");
    COMM(tm_comm_read_metis, "3 2\n2\n1 3\n2\n", TM_EOK, NULL);
    comm_same_crlf(tm_comm_read_metis, "% c\n3 2 001\n2 5\n1 5 3 7\n2 7\n");
}

static void test_mtx_hostile(void **state)
{
    (void)state;
    comm_common(tm_comm_read_mtx, "g.in:1: empty file: no '%%MatrixMarket' banner",
                "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 \0\0\0\0",
                "g.in:3: NUL byte in text input");
    COMM(tm_comm_read_mtx, "%%MatrixMarket matrix coordinate real general\n"
                           "1000000000 1000000000 1\n1 2 3\n",
         TM_EINPUT, "g.in:2: row count 1000000000 out of range [1, 16777216]");
    COMM(tm_comm_read_mtx, "%%MatrixMarket matrix coordinate real general\n"
                           "3 3 4611686018427387904\n1 2 3\n",
         TM_EINPUT, "g.in:2: entry count 4611686018427387904 out of range [0, 9]");
    COMM(tm_comm_read_mtx, "%%MatrixMarket matrix coordinate real general\n3 3 1\n"
                           "1 2 1e29\n2 1 1e29\n",
         TM_EINPUT, "g.in:4: more entries than the 1 of the size line");
    /* every volume and their sum are bounded (TM_COMM_MAX_VOLUME): summing
     * duplicates cannot overflow to infinity, nor can J or a load */
    COMM(tm_comm_read_mtx, "%%MatrixMarket matrix coordinate real general\n3 3 2\n"
                           "1 2 1e308\n1 2 1e308\n",
         TM_EINPUT, "g.in:3: value 1e308 is larger than the limit 1e+30");
    COMM(tm_comm_read_mtx, "%%MatrixMarket matrix coordinate real general\n3 3 2\n"
                           "1 2 6e29\n1 2 6e29\n",
         TM_EINPUT, "g.in: total volume 1.2e+30 is larger than the limit 1e+30");
    COMM(tm_comm_read_mtx, "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n",
         TM_EINPUT, "g.in:1: format 'array' is not supported (only 'coordinate')");
    comm_same_crlf(tm_comm_read_mtx, "%%MatrixMarket matrix coordinate real symmetric\n"
                                     "% comment\n3 3 2\n2 1 1.5\n3 2 4\n");
}

static void test_edges_hostile(void **state)
{
    (void)state;
    comm_common(tm_comm_read_edges, "g.in:1: no edges (expected 'src dst [volume]' lines)",
                "0 1 5\n1 0 5\n\0\0\0\0", "g.in:3: NUL byte in text input");
    COMM(tm_comm_read_edges, "0 99999999999 5\n", TM_EINPUT,
         "g.in:1: target task 99999999999 out of range [0, 16777215]");
    COMM(tm_comm_read_edges, "0 1 1e308\n0 1 1e308\n", TM_EINPUT,
         "g.in:1: volume 1e308 is larger than the limit 1e+30");
    COMM(tm_comm_read_edges, "0 1 1e30\n1 0 1e30\n", TM_EINPUT,
         "g.in: total volume 2e+30 is larger than the limit 1e+30");
    COMM(tm_comm_read_edges, "0 1 nan\n", TM_EINPUT, "g.in:1: volume 'nan' is not a finite number");
    COMM(tm_comm_read_edges, "0 1 -5\n", TM_EINPUT, "g.in:1: negative volume -5");
    comm_same_crlf(tm_comm_read_edges, "# c\n0 1 5\n1 0 5\n2 0 1.25\n");
}

static void test_dense_hostile(void **state)
{
    char *wide;
    (void)state;
    comm_common(tm_comm_read_dense, "g.in:1: no matrix rows", "0,1\n1,0\n\0\0\0\0",
                "g.in:3: NUL byte in text input");
    /* a first row of 200000 values announces a 200000 x 200000 matrix:
     * nothing of that size may be allocated before the rows exist */
    {
        size_t n = 200000, k = 0;
        wide = malloc(2 * n + 1);
        assert_non_null(wide);
        for (size_t i = 0; i < n; i++) {
            wide[k++] = '0';
            wide[k++] = i + 1 < n ? ',' : '\n';
        }
        comm_case(tm_comm_read_dense, wide, k, TM_EINPUT,
                  "g.in:1: file ends after 1 rows of a 200000 x 200000 matrix");
        free(wide);
    }
    COMM(tm_comm_read_dense, "0;1\n1;0\n", TM_EINPUT, "g.in:1: value '0;1' is not a finite number");
    comm_same_crlf(tm_comm_read_dense, "0,1,2\n3,0,0\n0,4,0\n");
}

static void test_graphstats_mpip_scotch_hostile(void **state)
{
    (void)state;
    comm_common(tm_comm_read_graphstats,
                "g.in:1: no 'Graph Information' heading (not a graphStats file)",
                "--------------- Graph Information----------------\n0 , 1 = 5\n\0\0\0\0",
                "g.in:3: NUL byte in text input");
    COMM(tm_comm_read_graphstats, "--- Graph Information ---\n0 , 99999999999 = 5\n", TM_EINPUT,
         "g.in:2: rank 99999999999 out of range [0, 16777215]");
    comm_same_crlf(tm_comm_read_graphstats,
                   "--------------- Graph Information----------------\n0 , 1 = 5\n1 , 2 = 7.5\n");
    comm_common(tm_comm_read_mpip,
                "g.in:1: no 'Start Communication Matrix' block (an mpiP report without the "
                "communication-matrix extension)",
                "@ mpiP\n\0\0\0\0", "g.in:2: NUL byte in text input");
    COMM(tm_comm_read_mpip, "@--- Start Communication Matrix ---\n0 99999999999 5 5\n", TM_EINPUT,
         "g.in:2: target rank 99999999999 out of range [0, 16777215]");
    comm_common(tm_comm_read_scotch, "g.in:1: file ends before the version number", "0\n3 4\n0 000\n\0\0\0\0",
                "g.in:4: NUL byte in text input");
    COMM(tm_comm_read_scotch, "0\n1000000000000 2\n0 000\n", TM_EINPUT,
         "g.in:2: vertex count 1000000000000 out of range [1, 16777216]");
    COMM(tm_comm_read_scotch, "0\n3 4611686018427387904\n0 000\n", TM_EINPUT,
         "g.in:2: arc count 4611686018427387904 out of range [0, 6]");
}

/* tm_comm_read_file on a directory and on an empty file */
static void test_comm_file_hostile(void **state)
{
    char dir[] = "/tmp/tm_hostile_XXXXXX", path[64];
    tm_comm c;
    FILE *f;
    (void)state;
    assert_non_null(mkdtemp(dir));
    assert_tm_error(ctx, tm_comm_read_file(ctx, dir, TM_COMM_AUTO, &c), TM_EIO, "is a directory");
    assert_true(strncmp(tm_ctx_errmsg(ctx), dir, strlen(dir)) == 0);
    snprintf(path, sizeof path, "%s/empty.graph", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    assert_tm_error(ctx, tm_comm_read_file(ctx, path, TM_COMM_AUTO, &c), TM_EINPUT,
                    "/empty.graph:1: empty file: no METIS header 'n m [fmt [ncon]]'");
    assert_int_equal(c.n, 0);
    unlink(path);
    rmdir(dir);
}

/* ---- topologies --------------------------------------------------------- */

static tm_err ib_read(const char *buf, size_t len, const char *name, tm_net **net)
{
    tm_ibnet_opts o = TM_IBNET_OPTS_INIT;
    FILE *f = mem(buf, len);
    tm_err err;
    assert_tm_ok(ctx, tm_net_new(ctx, net));
    err = tm_ibnet_read(ctx, f, name, &o, *net);
    if (!err)
        err = tm_net_finalize(ctx, *net);
    fclose(f);
    return err;
}

static const char ib_text[] =
    "vendid=0x0\n"
    "switchguid=0x200001(200001)\n"
    "Switch\t8 \"S-0000000000200001\"\t\t# \"leaf1\" base port 0 lid 1 lmc 0\n"
    "[1]\t\"H-0000000000100001\"[1](100001) \t\t# \"node001 mlx5_0\" lid 2 4xEDR\n"
    "[2]\t\"H-0000000000100002\"[1](100002) \t\t# \"NAME2 mlx5_0\" lid 3 4xEDR\n"
    "\n"
    "caguid=0x100001\n"
    "Ca\t1 \"H-0000000000100001\"\t\t# \"node001 mlx5_0\"\n"
    "[1](100001) \t\"S-0000000000200001\"[1]\t\t# lid 2 lmc 0 \"leaf1\" lid 1 4xEDR\n"
    "\n"
    "caguid=0x100002\n"
    "Ca\t1 \"H-0000000000100002\"\t\t# \"NAME2 mlx5_0\"\n"
    "[1](100002) \t\"S-0000000000200001\"[2]\t\t# lid 3 lmc 0 \"leaf1\" lid 1 4xEDR\n";

/* ib_text with NAME2 replaced by name (malloc'ed) */
static char *ib_with_name(const char *name, size_t *len)
{
    size_t n = strlen(ib_text), k = strlen(name);
    char *s = malloc(n + 2 * k + 1), *o = s;
    const char *p = ib_text, *q;
    assert_non_null(s);
    while ((q = strstr(p, "NAME2"))) {
        memcpy(o, p, (size_t)(q - p));
        o += q - p;
        memcpy(o, name, k);
        o += k;
        p = q + 5;
    }
    strcpy(o, p);
    *len = strlen(s);
    return s;
}

static void test_ibnet_hostile(void **state)
{
    tm_net *net;
    size_t len;
    char *s, *t, *longname;
    FILE *f;
    tm_ibnet_opts o = TM_IBNET_OPTS_INIT;
    (void)state;
    /* the sample reads, with host names from the node descriptions */
    s = ib_with_name("node002", &len);
    assert_tm_ok(ctx, ib_read(s, len, "f.topo", &net));
    assert_int_equal(tm_net_n_hosts(net), 2);
    assert_true(tm_net_find(net, "node002") >= 0);
    tm_net_free(net);
    /* CRLF: the same network */
    t = crlf(s);
    assert_tm_ok(ctx, ib_read(t, strlen(t), "f.topo", &net));
    assert_int_equal(tm_net_n_hosts(net), 2);
    assert_int_equal(tm_net_n_cables(net), 2);
    assert_true(tm_net_find(net, "node002") >= 0);
    tm_net_free(net);
    free(t);
    free(s);
    /* UTF-8 host names are kept byte for byte */
    s = ib_with_name("n\xc5\x93ud-\xc3\xa9t\xc3\xa9", &len);
    assert_tm_ok(ctx, ib_read(s, len, "f.topo", &net));
    assert_true(tm_net_find(net, "n\xc5\x93ud-\xc3\xa9t\xc3\xa9") >= 0);
    tm_net_free(net);
    free(s);
    /* a 100000-byte host name */
    longname = repeat("", 'n', 100000, "", &len);
    s = ib_with_name(longname, &len);
    assert_int_equal(ib_read(s, len, "f.topo", &net), IB_LONGNAME_ERR);
    tm_net_free(net);
    free(s);
    free(longname);
    /* NUL byte, empty input, a directory, an over-long line */
    assert_int_equal(ib_read("Switch\t8 \"S-01\"\0\n", 16, "f.topo", &net), TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "f.topo:1: NUL byte in text input");
    tm_net_free(net);
    assert_int_equal(ib_read("", 0, "f.topo", &net), TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "f.topo:1: no InfiniBand nodes found");
    tm_net_free(net);
    s = repeat("#", 'x', TM_LEX_MAX_LINE + 1, "\n", &len);
    assert_int_equal(ib_read(s, len, "f.topo", &net), TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "f.topo:1: line longer than 16777216 bytes");
    tm_net_free(net);
    free(s);
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    f = dir_stream();
    assert_tm_error(ctx, tm_ibnet_read(ctx, f, "adir", &o, net), TM_EIO, "adir:1: read error");
    fclose(f);
    tm_net_free(net);
    /* absurd port counts and port numbers */
    {
        static const char t1[] = "Switch\t99999999999 \"S-0000000000200001\"\t\t# \"x\" base port 0 "
                                 "lid 0 lmc 0\n";
        static const char t2[] = "Switch\t8 \"S-0000000000200001\"\t\t# \"x\" base port 0 lid 0 lmc 0\n"
                                 "[4294967297]\t\"H-0000000000100004\"[1](100005) \t\t# \"n HCA-1\" "
                                 "lid 0 4xSDR\n";
        assert_int_equal(ib_read(t1, sizeof t1 - 1, "f.topo", &net), TM_EINPUT);
        assert_string_equal(tm_ctx_errmsg(ctx), "f.topo:1: bad port count 99999999999 (1-255)");
        tm_net_free(net);
        assert_int_equal(ib_read(t2, sizeof t2 - 1, "f.topo", &net), TM_EINPUT);
        assert_string_equal(tm_ctx_errmsg(ctx), "f.topo:2: bad port number 4294967297 "
                                                "(\"S-0000000000200001\" has ports 1-8)");
        tm_net_free(net);
    }
}

/* Two HCAs of one host (merged by name) cabled to each other: the cable
 * stays inside the host and is dropped (fuzz_ibnet found it refused with
 * "cable from 'nodeX' to itself", without file or line). */
static void test_ibnet_hca_loop(void **state)
{
    static const char text[] =
    "vendid=0x0\n"
    "switchguid=0x200001(200001)\n"
    "Switch\t8 \"S-0000000000200001\"\t\t# \"sw\" base port 0 lid 1 lmc 0\n"
    "[1]\t\"H-000000000010000a\"[1](10000a) \t\t# \"nodeX HCA-1\" lid 2 4xEDR\n"
    "[2]\t\"H-000000000010000b\"[1](10000b) \t\t# \"nodeX HCA-2\" lid 3 4xEDR\n"
    "[3]\t\"H-000000000010000c\"[1](10000c) \t\t# \"nodeY HCA-1\" lid 4 4xEDR\n"
    "\n"
    "caguid=0x10000a\n"
    "Ca\t2 \"H-000000000010000a\"\t\t# \"nodeX HCA-1\"\n"
    "[1](10000a) \t\"S-0000000000200001\"[1]\t\t# lid 2 lmc 0 \"sw\" lid 1 4xEDR\n"
    "[2](10000a) \t\"H-000000000010000b\"[2](10000b) \t\t# lid 2 lmc 0 \"nodeX HCA-2\" lid 3 4xEDR\n"
    "\n"
    "caguid=0x10000b\n"
    "Ca\t2 \"H-000000000010000b\"\t\t# \"nodeX HCA-2\"\n"
    "[1](10000b) \t\"S-0000000000200001\"[2]\t\t# lid 3 lmc 0 \"sw\" lid 1 4xEDR\n"
    "[2](10000b) \t\"H-000000000010000a\"[2](10000a) \t\t# lid 3 lmc 0 \"nodeX HCA-1\" lid 2 4xEDR\n"
    "\n"
    "caguid=0x10000c\n"
    "Ca\t1 \"H-000000000010000c\"\t\t# \"nodeY HCA-1\"\n"
    "[1](10000c) \t\"S-0000000000200001\"[3]\t\t# lid 4 lmc 0 \"sw\" lid 1 4xEDR\n";
    tm_net *net;
    (void)state;
    assert_tm_ok(ctx, ib_read(text, sizeof text - 1, "f.topo", &net));
    assert_int_equal(tm_net_n_hosts(net), 2);
    assert_int_equal(tm_net_n_cables(net), 3);
    tm_net_free(net);
}

static void test_nodemap_hostile(void **state)
{
    tm_nodemap *m = NULL;
    FILE *f;
    size_t len;
    char *s;
    (void)state;
#define NODEMAP(lit, err, msg)                                                    \
    do {                                                                          \
        f = mem(lit, sizeof lit - 1);                                             \
        assert_int_equal(tm_nodemap_read(ctx, f, "m.map", &m), err);              \
        if (msg)                                                                  \
            assert_string_equal(tm_ctx_errmsg(ctx), (const char *)msg);           \
        fclose(f);                                                                \
        tm_nodemap_free(m);                                                       \
        m = NULL;                                                                 \
    } while (0)
    NODEMAP("0x0002c90300001234 \"node1\"\r\n0x0002c90300001235 \"n\xc5\x93ud\"\r\n", TM_EOK, NULL);
    f = mem("0x12 \"a\"\r\n0x13 \"n\xc5\x93ud\"\r\n", 24);
    assert_tm_ok(ctx, tm_nodemap_read(ctx, f, "m.map", &m));
    assert_string_equal(tm_nodemap_get(m, 0x13), "n\xc5\x93ud");
    assert_string_equal(tm_nodemap_get(m, 0x12), "a");
    tm_nodemap_free(m);
    m = NULL;
    fclose(f);
    NODEMAP("0x10000000000000000 \"big\"\n", TM_EINPUT, "m.map:1: bad GUID '0x10000000000000000' (expected 0x<hex> or H-<hex>)");
    NODEMAP("0x12 \"a\0\"\n", TM_EINPUT, "m.map:1: NUL byte in text input");
    NODEMAP("0x12 \"unterminated\n", TM_EINPUT, "m.map:1: unterminated quoted name");
    NODEMAP("0x12 \"a\"\n0x12 \"b\"\n", TM_EINPUT,
            "m.map:2: duplicate GUID 0x0000000000000012 (first at line 1)");
    NODEMAP("", TM_EOK, NULL);
    s = repeat("0x12 \"", 'n', 100000, "\"\n", &len);
    f = mem(s, len);
    assert_int_equal(tm_nodemap_read(ctx, f, "m.map", &m), NODEMAP_LONG_ERR);
    fclose(f);
    tm_nodemap_free(m);
    m = NULL;
    free(s);
#undef NODEMAP
}

static void test_topology_files_hostile(void **state)
{
    char dir[] = "/tmp/tm_hostile_XXXXXX", path[64];
    tm_net *net = NULL;
    FILE *f;
    (void)state;
    assert_non_null(mkdtemp(dir));
    assert_tm_error(ctx, tm_topology_load(ctx, dir, NULL, &net), TM_EIO, "is a directory");
    assert_null(net);
    snprintf(path, sizeof path, "%s/empty.topo", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    assert_tm_error(ctx, tm_topology_load(ctx, path, NULL, &net), TM_EINPUT,
                    "empty.topo:1: no InfiniBand nodes found");
    assert_null(net);
    unlink(path);
    rmdir(dir);
}

/* ---- generator specs ---------------------------------------------------- */

static void test_gen_hostile(void **state)
{
    tm_net *net;
    (void)state;
#define GEN(spec, err, msg)                                                       \
    do {                                                                          \
        assert_tm_ok(ctx, tm_net_new(ctx, &net));                                 \
        assert_int_equal(tm_gen_build(ctx, spec, NULL, net), err);                \
        if (msg)                                                                  \
            assert_string_equal(tm_ctx_errmsg(ctx), (const char *)msg);           \
        tm_net_free(net);                                                         \
    } while (0)
    /* sizes are checked (with int64 saturation) before anything is built */
    GEN("torus:100000x100000x100000", TM_EUSAGE,
        "generator spec 'torus:100000x100000x100000': network too large: 1000000000000000 "
        "vertices (at most 16777216)");
    GEN("torus:9223372036854775807x2", TM_EUSAGE,
        "generator spec 'torus:9223372036854775807x2': dimension 1 is 9223372036854775807 "
        "(at most 16777216)");
    GEN("torus:99999999999999999999999", TM_EUSAGE,
        "generator spec 'torus:99999999999999999999999': bad dimensions "
        "'99999999999999999999999' (expected sizes like 8x8x8)");
    GEN("dragonfly:a=1000000,h=1000000,p=100000", TM_EUSAGE,
        "generator spec 'dragonfly:a=1000000,h=1000000,p=100000': network too large: over 2^63 "
        "vertices (at most 16777216)");
    GEN("hypercube:62", TM_EUSAGE, "generator spec 'hypercube:62': dimension 62 is out of range 1..24");
    GEN("fattree:k=64,n=64", TM_EUSAGE,
        "generator spec 'fattree:k=64,n=64': option n=64 is out of range 1..24");
    GEN("percs:supernodes=999999999", TM_EUSAGE,
        "generator spec 'percs:supernodes=999999999': option supernodes=999999999 is out of "
        "range 1..513");
    GEN("torus:4x4,slots=9999999999", TM_EUSAGE,
        "generator spec 'torus:4x4,slots=9999999999': option slots=9999999999 is out of range "
        "1..1048576");
    GEN("torus:4x4,cap=1e999", TM_EUSAGE,
        "generator spec 'torus:4x4,cap=1e999': option cap=1e999 is not a number");
    GEN("torus:4x4,cap=nan", TM_EUSAGE,
        "generator spec 'torus:4x4,cap=nan': option cap=nan is not a number");
    /* host name formats: exactly one %d, no format-string attacks */
    GEN("torus:4x4,hostfmt=%s%s%s%n", TM_EUSAGE,
        "generator spec 'torus:4x4,hostfmt=%s%s%s%n': hostfmt '%s%s%s%n' must contain exactly "
        "one %d, optionally with a width such as %04d");
    GEN("torus:4x4,hostfmt=%999999999d", TM_EUSAGE,
        "generator spec 'torus:4x4,hostfmt=%999999999d': hostfmt '%999999999d' must contain "
        "exactly one %d, optionally with a width such as %04d");
#undef GEN
}

/* ---- allocations: hostlists and hostfiles ------------------------------- */

static tm_net *alloc_net(void)
{
    tm_net *net;
    int32_t sw, h;
    static const char *hosts[] = {"node1", "node2", "n\xc5\x93ud1", "gpu1.cluster.example"};
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "sw", TM_VERTEX_SWITCH, 0, &sw));
    for (int i = 0; i < 4; i++) {
        assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, hosts[i], TM_VERTEX_HOST, 2, &h));
        assert_tm_ok(ctx, tm_net_add_cable(ctx, net, sw, h, 100, NULL));
    }
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    return net;
}

static void test_hostlist_hostile(void **state)
{
    char **names = NULL;
    size_t n = 0, len;
    char *s;
    (void)state;
#define HL(expr, msg)                                                             \
    do {                                                                          \
        assert_int_equal(tm_hostlist_expand(ctx, expr, "--alloc", &names, &n), TM_EINPUT); \
        assert_string_equal(tm_ctx_errmsg(ctx), (const char *)msg);               \
    } while (0)
    /* products are bounded before anything is allocated */
    HL("n[0-99999999]", "--alloc: hostlist term 'n[0-99999999]' expands to more than 10000000 names");
    HL("n[0-9999][0-9999]",
       "--alloc: hostlist term 'n[0-9999][0-9999]' expands to more than 10000000 names");
    HL("n[1-99999999999999999999]", "--alloc: hostlist term 'n[1-99999999999999999999]': range "
                                    "needs two numbers of at most 18 digits, got "
                                    "'1-99999999999999999999'");
    HL("n[1-3", "--alloc: hostlist term 'n[1-3': unclosed '['");
    HL("", "--alloc: empty hostlist");
#undef HL
    assert_tm_ok(ctx, tm_hostlist_expand(ctx, "n\xc5\x93ud[1-2]", "x", &names, &n));
    assert_int_equal(n, 2);
    assert_string_equal(names[1], "n\xc5\x93ud2");
    tm_hostlist_free(names, n);
    s = repeat("", 'n', 100000, "[1-2]", &len);
    assert_tm_ok(ctx, tm_hostlist_expand(ctx, s, "x", &names, &n));
    assert_int_equal(n, 2);
    assert_int_equal(strlen(names[0]), 100001);
    tm_hostlist_free(names, n);
    free(s);
}

static void test_hostfile_hostile(void **state)
{
    tm_net *net = alloc_net();
    tm_alloc a;
    FILE *f;
    size_t len;
    char *s, *t;
    (void)state;
    tm_alloc_init(&a);
#define HF(lit, err, msg)                                                         \
    do {                                                                          \
        f = mem(lit, sizeof lit - 1);                                             \
        assert_int_equal(tm_alloc_read_hostfile(ctx, net, f, "h.txt", &a), err);  \
        if (msg)                                                                  \
            assert_string_equal(tm_ctx_errmsg(ctx), (const char *)msg);           \
        fclose(f);                                                                \
        tm_alloc_release(&a);                                                     \
    } while (0)
    HF("", TM_EINPUT, "h.txt:1: no hosts in the hostfile");
    HF("node1 slots=99999999999999999999\n", TM_EINPUT,
       "h.txt:1: 'slots=99999999999999999999': value must be a positive integer");
    /* a host listed twice adds its slots: the sum must not overflow */
    HF("node1 slots=2\nnode1 slots=2147483647\n", TM_EINPUT,
       "h.txt:2: host 'node1' has 2 slots in the topology, the hostfile asks for 2147483649");
    HF("node1\0\n", TM_EINPUT, "h.txt:1: NUL byte in text input");
    HF("n\xc5\x93ud1 slots=1\r\nnode2\r\n", TM_EOK, NULL);
    s = repeat("", 'n', 100000, " slots=1\n", &len);
    f = mem(s, len);
    assert_int_equal(tm_alloc_read_hostfile(ctx, net, f, "h.txt", &a), TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "h.txt:1: host name longer than 1023 bytes");
    fclose(f);
    tm_alloc_release(&a);
    free(s);
    /* CRLF reads like LF */
    t = crlf("node1 slots=1\ngpu1 slots=2\n");
    f = mem(t, strlen(t));
    assert_tm_ok(ctx, tm_alloc_read_hostfile(ctx, net, f, "h.txt", &a));
    assert_int_equal(a.n, 2);
    assert_int_equal(tm_alloc_total_slots(&a), 3);
    fclose(f);
    tm_alloc_release(&a);
    free(t);
    f = dir_stream();
    assert_tm_error(ctx, tm_alloc_read_hostfile(ctx, net, f, "adir", &a), TM_EIO,
                    "adir:1: read error");
    fclose(f);
    tm_alloc_release(&a);
#undef HF
    tm_net_free(net);
}

/* ---- mappings: rankfiles and plain files -------------------------------- */

static void test_mapping_hostile(void **state)
{
    tm_net *net = alloc_net();
    tm_mapping m;
    FILE *f;
    size_t len;
    char *s, *t;
    (void)state;
    tm_mapping_init(&m);
#define MAP(lit, nt, err, msg)                                                    \
    do {                                                                          \
        f = mem(lit, sizeof lit - 1);                                             \
        assert_int_equal(tm_mapping_read(ctx, net, 0, f, "r.txt", nt, &m), err);  \
        if (msg)                                                                  \
            assert_string_equal(tm_ctx_errmsg(ctx), (const char *)msg);           \
        fclose(f);                                                                \
        tm_mapping_release(&m);                                                   \
    } while (0)
    MAP("", -1, TM_EINPUT, "r.txt:1: no ranks in the mapping file");
    MAP("rank 99999999999=node1 slot=0\n", -1, TM_EINPUT,
        "r.txt:1: rank 99999999999 out of range: the file lists 1 ranks, so they must be 0..0");
    MAP("rank 2147483647=node1 slot=0\n", -1, TM_EINPUT,
        "r.txt:1: rank 2147483647 out of range: the file lists 1 ranks, so they must be 0..0");
    MAP("rank 0=node1 slot=99999999999\n", -1, TM_EINPUT,
        "r.txt:1: slot=99999999999: slot number too large");
    /* a Hydra run "host:n" is bounded before it is expanded (this used to
     * allocate 2e9 records) */
    MAP("node1:2000000000\n", -1, TM_EINPUT,
        "r.txt:1: 'node1:2000000000': more tasks than the 8 slots of the topology");
    MAP("node1:2000000000\n", 4, TM_EINPUT,
        "r.txt:1: 'node1:2000000000': more tasks than the 8 slots of the topology");
    MAP("rank 0=node1 slot=0\0\n", -1, TM_EINPUT, "r.txt:1: NUL byte in text input");
    MAP("rank 0=n\xc5\x93ud1 slot=1\nrank 1=gpu1 slot=0\n", -1, TM_EOK, NULL);
    s = repeat("rank 0=", 'n', 100000, " slot=0\n", &len);
    f = mem(s, len);
    assert_int_equal(tm_mapping_read(ctx, net, 0, f, "r.txt", -1, &m), TM_EINPUT);
    assert_true(strncmp(tm_ctx_errmsg(ctx), "r.txt:1: unknown host 'nnnn", 27) == 0);
    fclose(f);
    tm_mapping_release(&m);
    free(s);
    t = crlf("rank 1=node2 slot=1\nrank 0=node1 slot=0\n");
    f = mem(t, strlen(t));
    assert_tm_ok(ctx, tm_mapping_read(ctx, net, 0, f, "r.txt", -1, &m));
    assert_int_equal(m.n, 2);
    assert_int_equal(m.slot[1], 1);
    fclose(f);
    tm_mapping_release(&m);
    free(t);
    /* hierarchy mode */
    f = mem("0\n99999999999999\n", 17);
    assert_int_equal(tm_mapping_read(ctx, NULL, 16, f, "pe.txt", -1, &m), TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "pe.txt:2: PE 99999999999999 out of range [0, 16)");
    fclose(f);
    tm_mapping_release(&m);
    f = dir_stream();
    assert_tm_error(ctx, tm_mapping_read(ctx, net, 0, f, "adir", -1, &m), TM_EIO, "read error");
    fclose(f);
    tm_mapping_release(&m);
#undef MAP
    tm_net_free(net);
}

/* ---- hwloc exports ---------------------------------------------------------- */

static void test_hwloc_hostile(void **state)
{
    static const char nocore[] = "<?xml version=\"1.0\"?>\n<topology><object type=\"Machine\" "
                                 "os_index=\"0\"><object type=\"Package\" os_index=\"0\"/>"
                                 "</object></topology>\n";
    tm_hier h, h2;
    FILE *f;
    char *text = NULL, *t;
    size_t len = 0;
    (void)state;
    f = mem("", 0);
    assert_int_equal(tm_hier_from_hwloc(ctx, f, "n.xml", &h), TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "n.xml:1: empty file");
    fclose(f);
    f = dir_stream();
    assert_int_equal(tm_hier_from_hwloc(ctx, f, "adir", &h), TM_EIO);
    assert_string_equal(tm_ctx_errmsg(ctx), "adir: read error");
    fclose(f);
    f = mem(nocore, sizeof nocore - 1);
    assert_int_equal(tm_hier_from_hwloc(ctx, f, "n.xml", &h), TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "n.xml: no cores: the topology has no PU");
    fclose(f);
    /* CRLF reads like LF */
    f = fopen(REAL_DATA("docs/samples/hwloc-v2-2pkg-4core-2pu.xml"), "r");
    assert_non_null(f);
    assert_tm_ok(ctx, tm__read_all(ctx, f, "x", 1 << 20, &text, &len));
    fclose(f);
    f = mem(text, len);
    assert_tm_ok(ctx, tm_hier_from_hwloc(ctx, f, "lf.xml", &h));
    fclose(f);
    t = crlf(text);
    f = mem(t, strlen(t));
    assert_tm_ok(ctx, tm_hier_from_hwloc(ctx, f, "crlf.xml", &h2));
    fclose(f);
    assert_int_equal(h.k, h2.k);
    assert_int_equal(h.n_pe, h2.n_pe);
    assert_int_equal(h.n_pe, 8);
    free(t);
    free(text);
}

/* ---- the library never prints ------------------------------------------ */

/* libxml2 reports some errors (encoding conversion, I/O) through its
 * process-wide generic handler, which prints to stderr by default: every
 * XML reader must silence it.  stderr is redirected to a file around the
 * calls and must stay empty. */
static void test_xml_never_prints(void **state)
{
    static const char *docs[] = {
        "<?xml version=\"1.0\" encoding=\"EUC-JP\"?>\n<t a=\"\xcc\x6e=\"/>\n",
        "<?xml version=\"1.0\" encoding=\"GB2312\"?>\n<graphml>\xcc\x6e</graphml>\n",
        "<?xml version=\"1.0\" encoding=\"NO-SUCH-ENCODING\"?>\n<t/>\n",
        "<?xml\xff?><t/>",
        "<graphml><graph><node id=\"a\"/></graph>",
        "<!DOCTYPE t SYSTEM \"http://example.invalid/t.dtd\"><t>&ext;</t>",
        "\xef\xbb\xbf<topology><host name=\"\xc3\x28\"/></topology>",
    };
    char path[] = "/tmp/tm_stderr_XXXXXX";
    int fd = mkstemp(path), saved;
    struct stat st;
    (void)state;
    assert_true(fd >= 0);
    fflush(stderr);
    saved = dup(2);
    assert_true(saved >= 0);
    assert_true(dup2(fd, 2) >= 0);
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        tm_net *net = NULL;
        xmlDocPtr doc = NULL;
        FILE *f;
        (void)tm__xml_parse_mem(ctx, docs[i], strlen(docs[i]), "x.xml", &doc);
        xmlFreeDoc(doc);
        if (tm_net_new(ctx, &net) == TM_EOK) {
            f = mem(docs[i], strlen(docs[i]));
            (void)tm_graphml_read(ctx, f, "x.graphml", net);
            fclose(f);
            tm_net_free(net);
        }
        if (tm_net_new(ctx, &net) == TM_EOK) {
            f = mem(docs[i], strlen(docs[i]));
            (void)tm_xmlspec_read(ctx, f, "x.xml", net);
            fclose(f);
            tm_net_free(net);
        }
        {
            tm_hier h;
            f = mem(docs[i], strlen(docs[i]));
            (void)tm_hier_from_hwloc(ctx, f, "x.xml", &h);
            fclose(f);
        }
    }
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    assert_int_equal(fstat(fd, &st), 0);
    close(fd);
    if (st.st_size != 0) {
        char buf[512] = {0};
        FILE *f = fopen(path, "r");
        if (f) {
            size_t n = fread(buf, 1, sizeof buf - 1, f);
            buf[n] = '\0';
            fclose(f);
        }
        unlink(path);
        fail_msg("the library printed %lld bytes to stderr: %s", (long long)st.st_size, buf);
    }
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lexer_nul_byte),
        cmocka_unit_test(test_lexer_crlf_and_utf8),
        cmocka_unit_test(test_lexer_long_line),
        cmocka_unit_test(test_lexer_empty_and_directory),
        cmocka_unit_test(test_read_all_bounded),
        cmocka_unit_test(test_hier_hostile),
        cmocka_unit_test(test_metis_hostile),
        cmocka_unit_test(test_mtx_hostile),
        cmocka_unit_test(test_edges_hostile),
        cmocka_unit_test(test_dense_hostile),
        cmocka_unit_test(test_graphstats_mpip_scotch_hostile),
        cmocka_unit_test(test_comm_file_hostile),
        cmocka_unit_test(test_ibnet_hostile),
        cmocka_unit_test(test_ibnet_hca_loop),
        cmocka_unit_test(test_nodemap_hostile),
        cmocka_unit_test(test_topology_files_hostile),
        cmocka_unit_test(test_gen_hostile),
        cmocka_unit_test(test_hostlist_hostile),
        cmocka_unit_test(test_hostfile_hostile),
        cmocka_unit_test(test_mapping_hostile),
        cmocka_unit_test(test_hwloc_hostile),
        cmocka_unit_test(test_xml_never_prints),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
