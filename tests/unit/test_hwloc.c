/* test_hwloc.c - tm_hier_from_hwloc on every real hwloc export of
 * tests/data/real (v1, 2.x, 3.0-dev, restricted jobs), on restricted variants of
 * the v2 sample, and on malformed inputs (exact messages). */
#include "test_util.h"

static char logbuf[4096];
static void grab_log(void *u, tm_log_level l, const char *m)
{
    (void)u;
    (void)l;
    snprintf(logbuf + strlen(logbuf), sizeof logbuf - strlen(logbuf), "%s\n", m);
}

static tm_err load_file(tm_ctx *ctx, const char *path, tm_hier *h)
{
    FILE *f = fopen(path, "r");
    tm_err err;
    if (!f)
        fail_msg("cannot open %s", path);
    err = tm_hier_from_hwloc(ctx, f, path, h);
    fclose(f);
    return err;
}

static void expect(const char *rel, const char *levels, const char *dists, bool restricted)
{
    tm_ctx *ctx;
    tm_hier h, want;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    tm_ctx_set_log(ctx, grab_log, NULL);
    logbuf[0] = '\0';
    assert_tm_ok(ctx, load_file(ctx, REAL_DATA(rel), &h));
    assert_tm_ok(ctx, tm_hier_parse(ctx, levels, dists, &want));
    if (h.k != want.k || h.n_pe != want.n_pe)
        fail_msg("%s: got %d levels / %lld PEs", rel, h.k, (long long)h.n_pe);
    for (int i = 0; i < h.k; i++) {
        assert_int_equal(h.a[i], want.a[i]);
        assert_true(h.d[i] == want.d[i]);
        assert_int_equal(h.group[i + 1], want.group[i + 1]);
    }
    if (restricted)
        assert_non_null(strstr(logbuf, "restricted export (allowed_cpuset)"));
    else
        assert_null(strstr(logbuf, "restricted"));
    tm_ctx_free(ctx);
}

static void test_real_exports(void **state)
{
    /* 2.x */
    expect("data/hwloc/hwloc_tests/192em64t-24n8c2t.xml", "8:24", "2:20", false);
    expect("data/hwloc/hwloc_tests/24em64t-2n6c2t-pci.xml", "6:2", "2:20", false);
    expect("data/hwloc/hwloc_tests/32em64t-2n8c2t-pci-normalio.xml", "8:2", "2:20", false);
    expect("data/hwloc/hwloc_tests/96em64t-4n4d3ca2co-pci.xml", "2:3:4:4", "1:2:11:20", false);
    expect("data/hwloc/hwloc_tests/nvidiaDGX2.xml", "2:2", "2:20", false);
    expect("data/hwloc/hwloc_tests/power8gpudistances.xml", "4:2", "10:20", false);
    expect("docs/samples/hwloc-v2-2pkg-4core-2pu.xml", "4:2", "2:20", false);
    /* 3.0-dev: same machine as the 2.x file */
    expect("data/hwloc/hwloc_tests/24em64t-2n6c2t-pci.v3.xml", "6:2", "2:20", false);
    /* v1: Socket, generic Cache with depth, NUMANode as a parent */
    expect("data/hwloc/plafrim2_nodes/devel11.xml", "6:2:2", "2:10:20", false);
    expect("docs/samples/hwloc-v1-2pkg-4core-2pu.xml", "4:2", "10:20", false);
    /* exports taken inside restricted jobs */
    expect("data/hwloc/plafrim2_nodes/miriel063.xml", "1", "1", true);
    expect("data/hwloc/plafrim2_nodes/miriel063.v2-master.xml", "1", "1", true);
    expect("data/hwloc/plafrim2_nodes/mirage01.xml", "1", "1", true);
    expect("data/hwloc/plafrim2_nodes/sirocco01.xml", "1", "1", true);
    expect("data/hwloc/plafrim2_nodes/souris.xml", "1", "1", true);
}

/* The v2 sample with another allowed_cpuset. */
static tm_err load_variant(tm_ctx *ctx, const char *allowed, tm_hier *h)
{
    FILE *f = fopen(REAL_DATA("docs/samples/hwloc-v2-2pkg-4core-2pu.xml"), "r");
    static char buf[65536], out[65536];
    size_t n;
    char *p;
    FILE *m;
    tm_err err;
    assert_non_null(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    p = strstr(buf, "allowed_cpuset=\"0x0000ffff\"");
    assert_non_null(p);
    snprintf(out, sizeof out, "%.*sallowed_cpuset=\"%s\"%s", (int)(p - buf), buf, allowed,
             p + strlen("allowed_cpuset=\"0x0000ffff\""));
    m = tm_test_memfile(out);
    err = tm_hier_from_hwloc(ctx, m, "v2.xml", h);
    fclose(m);
    return err;
}

static void test_restricted_variants(void **state)
{
    tm_ctx *ctx;
    tm_hier h;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    tm_ctx_set_log(ctx, grab_log, NULL);
    logbuf[0] = '\0';
    /* PUs 0-3 and 8-11: two cores on each package */
    assert_tm_ok(ctx, load_variant(ctx, "0x00000f0f", &h));
    assert_int_equal(h.k, 2);
    assert_int_equal(h.a[0], 2);
    assert_int_equal(h.a[1], 2);
    assert_true(h.d[0] == 2 && h.d[1] == 20);
    assert_non_null(strstr(logbuf, "v2.xml: restricted export (allowed_cpuset): using the 8 "
                                   "allowed of 16 PUs"));
    /* one PU of a core is enough for the core */
    assert_tm_ok(ctx, load_variant(ctx, "0x00005555", &h));
    assert_int_equal(h.n_pe, 8);
    /* two cores on package 0, one on package 1: not a uniform hierarchy */
    assert_tm_error(ctx, load_variant(ctx, "0x0000030f", &h), TM_EINPUT,
                    "non-uniform hierarchy: the cores are not all at one depth");
    assert_tm_error(ctx, load_variant(ctx, "0x0", &h), TM_EINPUT,
                    "v2.xml: no cores: no PU is in the allowed_cpuset");
    assert_tm_error(ctx, load_variant(ctx, "0xzz", &h), TM_EINPUT,
                    "v2.xml:4: malformed allowed_cpuset '0xzz'");
    tm_ctx_free(ctx);
}

static void bad(const char *text, const char *needle)
{
    tm_ctx *ctx;
    tm_hier h;
    FILE *f = tm_test_memfile(text);
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    assert_tm_error(ctx, tm_hier_from_hwloc(ctx, f, "bad.xml", &h), TM_EINPUT, needle);
    assert_int_equal(h.k, 0);
    fclose(f);
    tm_ctx_free(ctx);
}

static void test_malformed(void **state)
{
    bad("<topology version=\"2.0\">\n<object type=\"Machine\">\n</topology>\n", "bad.xml:3: Opening and ending tag mismatch");
    bad("<graphml>\n</graphml>\n", "bad.xml:1: not an hwloc topology (root element <graphml>)");
    bad("<topology version=\"2.0\">\n</topology>\n", "bad.xml:1: no <object> in the topology");
    bad("<topology version=\"2.0\">\n<object type=\"Machine\" os_index=\"0\">\n"
        "<object type=\"Package\"/>\n</object>\n</topology>\n",
        "bad.xml: no cores: the topology has no PU");
    bad("<topology>\n<object type=\"Machine\">\n<object os_index=\"1\"/>\n</object>\n"
        "</topology>\n",
        "bad.xml:3: <object> without a type");
    bad("<topology>\n<object type=\"Machine\">\n<object type=\"PU\" os_index=\"x\"/>\n"
        "</object>\n</topology>\n",
        "bad.xml:3: PU without a valid os_index");
    bad("", "bad.xml");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_exports),
        cmocka_unit_test(test_restricted_variants),
        cmocka_unit_test(test_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
