/* test_hier.c - tm_hier_parse: valid hierarchies, group sizes, and the
 * bad inputs of the issue (zero/negative level, distance count mismatch,
 * too many PEs, garbage) plus the non-increasing-distances warning. */
#include "test_util.h"

static char warned[1024];
static void grab(void *u, tm_log_level l, const char *m)
{
    (void)u;
    (void)l;
    snprintf(warned, sizeof warned, "%s", m);
}

static void test_valid(void **state)
{
    tm_ctx *ctx;
    tm_hier h;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    tm_ctx_set_log(ctx, grab, NULL);
    warned[0] = '\0';
    assert_tm_ok(ctx, tm_hier_parse(ctx, "4:16:8", "1:10:100", &h));
    assert_int_equal(h.k, 3);
    assert_int_equal(h.n_pe, 512);
    assert_int_equal(h.group[1], 4);
    assert_int_equal(h.group[2], 64);
    assert_true(tm_hier_dist(&h, 0, 3) == 1 && tm_hier_dist(&h, 0, 4) == 10 &&
                tm_hier_dist(&h, 63, 64) == 100 && tm_hier_dist(&h, 5, 5) == 0);
    assert_string_equal(warned, "");
    assert_tm_ok(ctx, tm_hier_parse(ctx, "4:16:128:64", "1:10:100:1000", &h));
    assert_int_equal(h.n_pe, 1 << 19);
    tm_ctx_free(ctx);
}

static void test_bad(void **state)
{
    tm_ctx *ctx;
    tm_hier h;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    tm_ctx_set_log(ctx, grab, NULL);
    assert_tm_error(ctx, tm_hier_parse(ctx, "4:0:8", "1:10:100", &h), TM_EINPUT,
                    "hierarchy '4:0:8': level 2 is 0, must be >= 1");
    assert_tm_error(ctx, tm_hier_parse(ctx, "4:-2", "1:10", &h), TM_EINPUT,
                    "level 2 is -2, must be >= 1");
    assert_tm_error(ctx, tm_hier_parse(ctx, "4:16:8", "1:10", &h), TM_EINPUT,
                    "hierarchy '4:16:8' has 3 levels but distances '1:10' has 2");
    assert_tm_error(ctx, tm_hier_parse(ctx, "4:x", "1:10", &h), TM_EINPUT,
                    "expected integers separated by ':'");
    assert_tm_error(ctx, tm_hier_parse(ctx, "4:16", "1:abc", &h), TM_EINPUT,
                    "expected numbers separated by ':'");
    assert_tm_error(ctx, tm_hier_parse(ctx, "4:16", "1:-5", &h), TM_EINPUT,
                    "distance 2 is negative");
    assert_tm_error(ctx, tm_hier_parse(ctx, "65536:65536", "1:2", &h), TM_EINPUT,
                    "more than 2^31 PEs");
    warned[0] = '\0';
    assert_tm_ok(ctx, tm_hier_parse(ctx, "4:4", "10:1", &h));
    assert_string_equal(warned, "distances '10:1' are not increasing");
    tm_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid),
        cmocka_unit_test(test_bad),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
