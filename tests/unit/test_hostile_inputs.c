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
static __attribute__((unused)) char *crlf(const char *text)
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
    tm_lexer lx;
    FILE *f = mem(text, sizeof text - 1);
    (void)state;
    tm__lex_init(&lx, ctx, f, "in.txt");
    assert_int_equal(tm__lex_next(&lx), 1);
    assert_int_equal(tm__lex_next(&lx), 1);
    assert_int_equal(tm__lex_next(&lx), -(int)TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "in.txt:3: NUL byte in text input");
    tm__lex_release(&lx);
    fclose(f);
}

static void test_lexer_crlf_and_utf8(void **state)
{
    static const char text[] = "n\xc5\x93ud-\xc3\xa9t\xc3\xa9\r\n\r\nlast\r";
    tm_lexer lx;
    FILE *f = mem(text, sizeof text - 1);
    (void)state;
    tm__lex_init(&lx, ctx, f, "in.txt");
    assert_int_equal(tm__lex_next(&lx), 1);
    assert_string_equal(lx.buf, "n\xc5\x93ud-\xc3\xa9t\xc3\xa9");
    assert_int_equal(tm__lex_next(&lx), 1);
    assert_int_equal(lx.len, 0);
    /* a final line without "\n" still counts; its "\r" is stripped */
    assert_int_equal(tm__lex_next(&lx), 1);
    assert_string_equal(lx.buf, "last");
    assert_int_equal(lx.line, 3);
    assert_int_equal(tm__lex_next(&lx), 0);
    tm__lex_release(&lx);
    fclose(f);
}

static void test_lexer_long_line(void **state)
{
    size_t len;
    char *s = repeat("ok\n", 'x', TM_LEX_MAX_LINE + 1, "\n", &len);
    tm_lexer lx;
    FILE *f = mem(s, len);
    (void)state;
    tm__lex_init(&lx, ctx, f, "in.txt");
    assert_int_equal(tm__lex_next(&lx), 1);
    assert_int_equal(tm__lex_next(&lx), -(int)TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "in.txt:2: line longer than 16777216 bytes");
    tm__lex_release(&lx);
    fclose(f);
    free(s);
}

static void test_lexer_empty_and_directory(void **state)
{
    tm_lexer lx;
    FILE *f = mem("", 0);
    (void)state;
    tm__lex_init(&lx, ctx, f, "empty.txt");
    assert_int_equal(tm__lex_next(&lx), 0);
    tm__lex_release(&lx);
    fclose(f);
    f = dir_stream();
    tm__lex_init(&lx, ctx, f, "somedir");
    assert_int_equal(tm__lex_next(&lx), -(int)TM_EIO);
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
    assert_tm_error(ctx, tm_hier_parse(ctx, "4:99999999999", "1:10", &h), TM_EUSAGE,
                    "hierarchy '4:99999999999': more than 2^31 PEs");
    assert_tm_error(ctx, tm_hier_parse(ctx, "65536:65536", "1:10", &h), TM_EUSAGE,
                    "hierarchy '65536:65536': more than 2^31 PEs");
    assert_tm_error(ctx, tm_hier_parse(ctx, "99999999999999999999", "1", &h), TM_EUSAGE,
                    "expected integers separated by ':'");
    /* the locale-free number parser refuses inf, nan, hex and overflow */
    assert_tm_error(ctx, tm_hier_parse(ctx, "4:4", "1:inf", &h), TM_EUSAGE,
                    "distances '1:inf': expected numbers separated by ':'");
    assert_tm_error(ctx, tm_hier_parse(ctx, "4:4", "1:nan", &h), TM_EUSAGE,
                    "distances '1:nan': expected numbers separated by ':'");
    assert_tm_error(ctx, tm_hier_parse(ctx, "4:4", "1:1e999", &h), TM_EUSAGE,
                    "distances '1:1e999': expected numbers separated by ':'");
    assert_tm_error(ctx, tm_hier_parse(ctx, "", "", &h), TM_EUSAGE,
                    "hierarchy '': expected integers separated by ':'");
    assert_tm_error(ctx, tm_hier_parse(ctx, "1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1", "1", &h),
                    TM_EUSAGE, "more than 16 levels");
    assert_tm_ok(ctx, tm_hier_parse(ctx, " 2 : 3 ", "1:2", &h));
    assert_int_equal(h.n_pe, 6);
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
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
