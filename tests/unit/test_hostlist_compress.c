/* test_hostlist_compress.c - Slurm hostlist compression (tm_hostlist_compress,
 * src/alloc/hostlist_compress.c): hand-checked names, padding and prefix
 * order, and random name sets that expand back (tm_hostlist_expand) to the
 * same set.  The expansion alone: test_alloc.c. */
#include "test_fixtures.h"
#include "util/util.h"

static void expect_compress(const char *const *names, size_t n, const char *want)
{
    char *got = NULL;
    assert_tm_ok(ctx, tm_hostlist_compress(ctx, names, n, &got));
    if (strcmp(got, want) != 0)
        fail_msg("compressed to '%s', expected '%s'", got, want);
    free(got);
}

#define COMPRESS(want, ...)                                                            \
    do {                                                                               \
        const char *const names_[] = {__VA_ARGS__};                                    \
        expect_compress(names_, sizeof names_ / sizeof *names_, want);                 \
    } while (0)

static void test_compress(void **state)
{
    (void)state;
    COMPRESS("node[001-004]", "node003", "node001", "node004", "node002");
    COMPRESS("sl390lin[1-5,7-11]", "sl390lin1", "sl390lin2", "sl390lin3", "sl390lin4",
             "sl390lin5", "sl390lin7", "sl390lin8", "sl390lin9", "sl390lin10", "sl390lin11");
    COMPRESS("n7", "n7");                               /* one name: no brackets */
    COMPRESS("alpha,login", "login", "alpha");          /* no numeric suffix */
    COMPRESS("a[9-10],b[1-2]", "b2", "a10", "a9", "b1", "a9"); /* duplicates dropped */
    /* padding: kept, and joined only where the width prints the names back */
    COMPRESS("n[08-11]", "n10", "n08", "n11", "n09");
    COMPRESS("n[9-10]", "n10", "n9");
    COMPRESS("n[99-100]", "n99", "n100");
    COMPRESS("n[1-2,01-02]", "n02", "n1", "n01", "n2");
    COMPRESS("n[1,010]", "n010", "n1");
    /* prefixes in natural order, names without a suffix first */
    COMPRESS("r9n[1-2],r10n1", "r10n1", "r9n2", "r9n1");
    COMPRESS("node,node1", "node1", "node");
    COMPRESS("a01b1,a1b[1-2]", "a1b2", "a01b1", "a1b1");
    COMPRESS("S-0002c[90200417670,90200417672]", "S-0002c90200417672", "S-0002c90200417670");
    /* more than 18 digits: not a number tm_hostlist_expand reads back */
    COMPRESS("x1234567890123456789", "x1234567890123456789");
    COMPRESS("x1,y", "y", "x1");
    {
        char *got = NULL;
        assert_tm_ok(ctx, tm_hostlist_compress(ctx, NULL, 0, &got));
        assert_string_equal(got, "");
        free(got);
        const char *const bad[] = {"n1", "n[2]"};
        assert_tm_error(ctx, tm_hostlist_compress(ctx, bad, 2, &got), TM_EINPUT, "'n[2]'");
        assert_null(got);
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Random name sets (prefixes, padding, gaps, duplicates) compress to an
 * expression that expands back to the same set. */
static void test_compress_roundtrip(void **state)
{
    static const char *const prefixes[] = {"n", "node", "r1n", "r10n", "gpu-", "x"};
    tm__rng r;
    (void)state;
    tm__rng_seed(&r, 14, 3);
    for (int iter = 0; iter < 300; iter++) {
        size_t n = 1 + (size_t)tm__rng_below(&r, 40), count, uniq = 0;
        char *names[40], **back, *expr;
        for (size_t i = 0; i < n; i++) {
            char buf[64];
            const char *p = prefixes[tm__rng_below(&r, 6)];
            int width = (int)tm__rng_below(&r, 4); /* 0: no padding */
            unsigned v = (unsigned)tm__rng_below(&r, 120);
            if (tm__rng_below(&r, 10) == 0)
                snprintf(buf, sizeof buf, "%sname", p);
            else
                snprintf(buf, sizeof buf, "%s%0*u", p, width, v);
            names[i] = strdup(buf);
        }
        assert_tm_ok(ctx, tm_hostlist_compress(ctx, (const char *const *)names, n, &expr));
        assert_tm_ok(ctx, tm_hostlist_expand(ctx, expr, "rt", &back, &count));
        qsort(names, n, sizeof *names, cmp_str);
        for (size_t i = 0; i < n; i++)
            if (uniq == 0 || strcmp(names[i], names[uniq - 1]) != 0)
                names[uniq++] = names[i];
            else
                free(names[i]);
        qsort(back, count, sizeof *back, cmp_str);
        if (count != uniq) {
            for (size_t i = 0; i < uniq; i++)
                fprintf(stderr, "%s ", names[i]);
            fail_msg("'%s' expands to %zu names, expected %zu", expr, count, uniq);
        }
        for (size_t i = 0; i < uniq; i++)
            if (strcmp(names[i], back[i]) != 0)
                fail_msg("'%s': '%s' != '%s'", expr, back[i], names[i]);
        for (size_t i = 0; i < uniq; i++)
            free(names[i]);
        tm_hostlist_free(back, count);
        free(expr);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compress),
        cmocka_unit_test(test_compress_roundtrip),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
