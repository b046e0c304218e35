/* test_fixtures.h - the fixture most unit test files share: one tm_ctx per
 * group (`ctx`, made by setup, freed by teardown), and reading a net with
 * one of the FILE*-based readers from a string or a path.  Include it
 * instead of test_util.h; everything here is static so each test file
 * gets its own copy. */
#ifndef TM_TEST_FIXTURES_H
#define TM_TEST_FIXTURES_H

#include "test_util.h"

static tm_ctx *ctx;

static inline int setup(void **state)
{
    (void)state;
    return tm_ctx_new(&ctx) == TM_EOK ? 0 : -1;
}

static inline int teardown(void **state)
{
    (void)state;
    tm_ctx_free(ctx);
    return 0;
}

/* A generated network (tm_gen_build spec), finalized; slots > 0 sets every
 * host's slots, else the generator's stay. */
static inline tm_net *tm_test_gen_net(const char *spec, int32_t slots)
{
    tm_net *net;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_gen_build(ctx, spec, NULL, net));
    for (int32_t v = 0; slots > 0 && v < tm_net_n_vertices(net); v++)
        if (tm_net_kind(net, v) == TM_VERTEX_HOST)
            assert_tm_ok(ctx, tm_net_set_slots(ctx, net, v, slots));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    return net;
}

/* A reader with the signature of tm_graphml_read / tm_xmlspec_read. */
typedef tm_err (*tm_test_net_reader)(tm_ctx *, FILE *, const char *, tm_net *);

/* Reads f (closed here) with `read`; returns the error, *out the net (or
 * NULL on error). */
static inline tm_err tm_test_read_net(tm_test_net_reader read, FILE *f, const char *name,
                                      tm_net **out)
{
    tm_net *net;
    tm_err err;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    err = read(ctx, f, name, net);
    fclose(f);
    if (err) {
        tm_net_free(net);
        net = NULL;
    }
    *out = net;
    return err;
}

/* The same over a string literal. */
static inline tm_err tm_test_read_net_text(tm_test_net_reader read, const char *text,
                                           const char *name, tm_net **out)
{
    FILE *f = tm_test_memfile(text);
    assert_non_null(f);
    return tm_test_read_net(read, f, name, out);
}

/* The same over a file; fails the test if it cannot be opened. */
static inline tm_err tm_test_read_net_path(tm_test_net_reader read, const char *path,
                                           const char *name, tm_net **out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    return tm_test_read_net(read, f, name, out);
}

/* Reads TEST_DATA(dir/file ext) with `read` and checks that it fails with
 * TM_EINPUT and exactly the message "file ext:msg" (msg starts with the
 * line number). */
static inline void tm_test_expect_bad_net(tm_test_net_reader read, const char *dir,
                                          const char *ext, const char *file, const char *msg)
{
    char rel[256], name[256], want[512];
    tm_net *net;
    tm_err err;
    snprintf(rel, sizeof rel, "%s/%s%s", dir, file, ext);
    snprintf(name, sizeof name, "%s%s", file, ext);
    snprintf(want, sizeof want, "%s:%s", name, msg);
    tm_ctx_clear_error(ctx);
    err = tm_test_read_net_path(read, TEST_DATA(rel), name, &net);
    if (err != TM_EINPUT || strcmp(tm_ctx_errmsg(ctx), want) != 0)
        fail_msg("%s: got %d '%s', want '%s'", rel, (int)err, tm_ctx_errmsg(ctx), want);
}

#endif
