/* test_xmlspec.c - the XML topology spec: explicit hosts/switches/links,
 * name patterns, generators with prefixes, the shipped examples, and
 * malformed specs with their exact messages. */
#include "test_fixtures.h"

static tm_err read_text(const char *text, const char *name, tm_net **out)
{
    return tm_test_read_net_text(tm_xmlspec_read, text, name, out);
}

static tm_err read_path(const char *path, const char *name, tm_net **out)
{
    return tm_test_read_net_path(tm_xmlspec_read, path, name, out);
}

/* Number of cables between the named vertices (either orientation). */
static int cables_between(const tm_net *net, const char *a, const char *b, double *cap)
{
    int32_t va = tm_net_find(net, a), vb = tm_net_find(net, b), n = 0;
    assert_true(va >= 0 && vb >= 0);
    for (int32_t c = 0; c < tm_net_n_cables(net); c++) {
        int32_t x, y;
        tm_net_cable(net, c, &x, &y);
        if ((x == va && y == vb) || (x == vb && y == va)) {
            n++;
            if (cap)
                *cap = tm_net_capacity(net, c);
        }
    }
    return n;
}

static void test_explicit(void **state)
{
    tm_net *net;
    double cap = 0;
    (void)state;
    assert_tm_ok(ctx, read_path(TEST_DATA("xml/explicit.xml"), "explicit.xml", &net));
    assert_int_equal(tm_net_n_switches(net), 3);
    assert_int_equal(tm_net_n_hosts(net), 9);
    assert_int_equal(tm_net_n_cables(net), 14);
    assert_int_equal(tm_net_total_slots(net), 4 * 4 + 4 * 8 + 4);
    assert_int_equal(tm_net_slots(net, tm_net_find(net, "n02")), 4);
    assert_int_equal(tm_net_slots(net, tm_net_find(net, "n08")), 8);
    assert_int_equal(tm_net_transit_policy(net, tm_net_find(net, "stor")), TM_TRANSIT_NO);
    assert_int_equal(tm_net_transit_policy(net, tm_net_find(net, "n01")), TM_TRANSIT_DEFAULT);
    assert_int_equal(cables_between(net, "leaf1", "n03", &cap), 1);
    assert_true(cap == 100);
    assert_int_equal(cables_between(net, "leaf1", "n05", NULL), 0);
    assert_int_equal(cables_between(net, "leaf2", "spine", &cap), 2);
    assert_true(cap == 200);
    assert_int_equal(cables_between(net, "stor", "leaf2", &cap), 1);
    assert_true(cap == 50);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_net_check(ctx, net));
    tm_net_free(net);
}

/* Defaults (capacity 1, 1 slot), links before the vertices they join,
 * CRLF line ends, UTF-8 names, spaced switch names, comments. */
static void test_defaults_crlf_utf8(void **state)
{
    tm_net *net;
    double cap = 0;
    (void)state;
    assert_tm_ok(ctx, read_text("<?xml version='1.0' encoding='UTF-8'?>\r\n"
                                "<topology>\r\n"
                                "  <link a='n\xc3\xb8" "de1' b='Core switch A'/>\r\n"
                                "  <!-- comment -->\r\n"
                                "  <host name='n\xc3\xb8" "de1'/>\r\n"
                                "  <switch name=' Core switch A '/>\r\n"
                                "</topology>\r\n",
                                "crlf", &net));
    assert_int_equal(tm_net_n_vertices(net), 2);
    assert_int_equal(tm_net_slots(net, 0), 1);
    assert_string_equal(tm_net_name(net, 1), "Core switch A");
    assert_int_equal(cables_between(net, "n\xc3\xb8" "de1", "Core switch A", &cap), 1);
    assert_true(cap == 1);
    tm_net_free(net);
    /* errors in CRLF files still carry the right line */
    assert_int_equal(read_text("<topology>\r\n<host name='a'/>\r\n\r\n<link a='a' b='x'/>\r\n"
                               "</topology>\r\n",
                               "crlf", &net),
                     TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "crlf:4: link to unknown vertex 'x'");
}

/* names= is always a hostlist (blank or comma separated, products);
 * link ends only when they contain '[' or ','. */
static void test_name_lists(void **state)
{
    tm_net *net;
    (void)state;
    assert_tm_ok(ctx, read_text("<topology>\n<host names='a b,r[1-2]-n[1-2]'/>\n"
                                "<switch name='big sw'/>\n"
                                "<link a='big sw' b='a,b'/>\n</topology>",
                                "nl", &net));
    assert_int_equal(tm_net_n_hosts(net), 6);
    assert_true(tm_net_find(net, "r2-n1") >= 0);
    tm_net_free(net);
    /* a list is a hostlist expression: blanks separate names there */
    assert_int_equal(read_text("<topology>\n<host names='a b'/>\n<switch name='big sw'/>\n"
                               "<link a='big sw' b='a' capacity='2'/>\n"
                               "<link a='b' b='big sw,a'/>\n</topology>",
                               "nl", &net),
                     TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "nl:5: link to unknown vertex 'big'");
}

/* The reader adds to an existing net and refuses its names. */
static void test_existing_net(void **state)
{
    tm_net *net;
    FILE *f;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "old", TM_VERTEX_HOST, 1, NULL));
    f = tm_test_memfile("<topology>\n<host name='new'/>\n<link a='old' b='new'/>\n</topology>");
    assert_tm_ok(ctx, tm_xmlspec_read(ctx, f, "x", net));
    fclose(f);
    assert_int_equal(cables_between(net, "old", "new", NULL), 1);
    f = tm_test_memfile("<topology>\n<host names='x,old'/>\n</topology>");
    assert_int_equal(tm_xmlspec_read(ctx, f, "y", net), TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "y:2: name 'old' is already in the network");
    fclose(f);
    tm_net_free(net);
}

/* ---- generators (tm_gen_build) ------------------------------------------ */

static void test_generate(void **state)
{
    tm_net *net, *plain;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &plain));
    assert_tm_ok(ctx, tm_gen_build(ctx, "fattree:k=4,n=2", NULL, plain));
    assert_tm_ok(ctx, read_text("<topology>\n"
                                "  <generate spec='fattree:k=4,n=2' prefix='a-'/>\n"
                                "  <generate spec='fattree:k=4,n=2' prefix='b-'/>\n"
                                "  <switch name='bridge'/>\n"
                                "  <host name='login' slots='2'/>\n"
                                "  <link a='login' b='bridge' capacity='10'/>\n"
                                "</topology>\n",
                                "gen", &net));
    assert_int_equal(tm_net_n_hosts(net), 2 * tm_net_n_hosts(plain) + 1);
    assert_int_equal(tm_net_n_switches(net), 2 * tm_net_n_switches(plain) + 1);
    assert_int_equal(tm_net_n_cables(net), 2 * tm_net_n_cables(plain) + 1);
    assert_int_equal(tm_net_n_hosts(plain), 16);
    for (int32_t v = 0; v < tm_net_n_vertices(plain); v++) {
        char want[512];
        snprintf(want, sizeof want, "b-%s", tm_net_name(plain, v));
        assert_true(tm_net_find(net, want) >= 0);
    }
    tm_net_free(plain);
    tm_net_free(net);
}

static void test_generate_errors(void **state)
{
    tm_net *net;
    const char *msg;
    (void)state;
    assert_int_equal(read_text("<topology>\n\n<generate spec='torus:0x4'/>\n</topology>", "g1",
                               &net),
                     TM_EINPUT);
    msg = tm_ctx_errmsg(ctx);
    if (strncmp(msg, "g1:3: ", 6) != 0 || strlen(msg) < 8)
        fail_msg("unexpected message '%s'", msg);
    assert_int_equal(read_text("<topology>\n<generate spec='mesh:2x2' prefix='a'/>\n"
                               "<generate spec='mesh:2x2' prefix='a'/>\n</topology>",
                               "g2", &net),
                     TM_EINPUT);
    msg = tm_ctx_errmsg(ctx);
    if (strncmp(msg, "g2:3: ", 6) != 0 || !strstr(msg, "duplicate"))
        fail_msg("unexpected message '%s'", msg);
}

/* The shipped examples load, finalize and pass the connectivity check. */
static void test_examples(void **state)
{
    static const char *const files[] = {"topologies/examples/small-cluster.xml",
                                        "topologies/examples/two-islands.xml"};
    (void)state;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        tm_net *net;
        char path[512];
        const char *root = getenv("TM_TEST_DATA");
        snprintf(path, sizeof path, "%s/../../%s", root ? root : "tests/data", files[i]);
        assert_tm_ok(ctx, read_path(path, files[i], &net));
        assert_true(tm_net_n_hosts(net) > 0);
        assert_tm_ok(ctx, tm_net_finalize(ctx, net));
        assert_tm_ok(ctx, tm_net_check(ctx, net));
        tm_net_free(net);
    }
}

/* ---- malformed specs ----------------------------------------------------- */

static const struct {
    const char *file, *msg;
} bad[] = {
    {"both-names", "5: <host> needs exactly one of name and names"},
    {"capacity-text", "5: capacity '100G' is not a number in [1e-06, 1e+15] (Gbit/s)"},
    {"capacity-zero", "5: capacity '0' is not a number in [1e-06, 1e+15] (Gbit/s)"},
    {"child", "6: <host> may not contain <slots>"},
    {"count-huge", "5: count '5000' is not an integer in 1..1024"},
    {"count-zero", "5: count '0' is not an integer in 1..1024"},
    {"dup-in-list", "5: name 'b' already defined at line 5"},
    {"dup-name", "6: name 'b' already defined at line 5"},
    {"empty", "2: <topology> declares no vertices"},
    {"generate-bad", "5: generator spec 'torus:0x4': dimension 1 is 0 (must be at least 1)"},
    {"generate-clash", "6: generator spec 'torus:2x2': duplicate vertex name 'an0000'"},
    {"generate-no-spec", "5: <generate> needs a spec attribute"},
    {"generate-prefix", "5: prefix 'rack 1-' contains a space (host names go into rankfiles)"},
    {"generate-unknown", "5: unknown generator 'moebius:3'"},
    {"link-no-b", "5: <link> needs attributes a and b"},
    {"link-self", "5: link joins 'a' to itself"},
    {"link-too-many", "5: <link> would create more than 10000000 cables"},
    {"link-unknown", "5: link to unknown vertex 'zz'"},
    {"mismatched-tag", "5: Opening and ending tag mismatch: host line 5 and switch"},
    {"name-empty", "5: host name '' is empty"},
    {"name-space", "5: host name 'my host' contains a space (host names go into rankfiles)"},
    {"no-name", "5: <host> needs exactly one of name and names"},
    {"nul-byte", "5: NUL byte in XML input"},
    {"root-attr", "2: unknown attribute 'size' on <topology>"},
    {"root-capacity", "2: capacity 'fast' is not a number in [1e-06, 1e+15] (Gbit/s)"},
    {"root-slots", "2: negative slots '-1'"},
    {"root", "2: root element is <graphml>, expected <topology>"},
    {"slots-negative", "5: negative slots '-4'"},
    {"slots-text", "5: slots 'lots' is not an integer"},
    {"slots-overflow", "5: slots '1e66' is not an integer"},
    {"slots-zero", "5: a host needs at least 1 slot"},
    {"switch-slots", "5: unknown attribute 'slots' on <switch>"},
    {"text", "5: unexpected text inside <topology>"},
    {"transit-bad", "5: transit 'sometimes' is not true or false"},
    {"unknown-attr", "5: unknown attribute 'speed' on <host>"},
    {"unknown-element", "5: unknown element <router> (expected generate, host, switch or link)"},
    {"version", "2: unsupported version '2' (expected 1)"},
};

static void test_malformed(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        tm_test_expect_bad_net(tm_xmlspec_read, "bad/xml/spec", ".xml", bad[i].file, bad[i].msg);
}

/* hwloc exports also have a <topology> root: recognised and named. */
static void test_hwloc_file(void **state)
{
    tm_net *net;
    (void)state;
    assert_int_equal(read_path(REAL_DATA("docs/samples/hwloc-v2-2pkg-4core-2pu.xml"), "hw.xml",
                               &net),
                     TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "hw.xml:4: this is an hwloc topology (the hardware of "
                                            "one node), not a topomap network spec "
                                            "(docs/xml-spec.md)");
}

/* A bad name pattern is reported with the file and line. */
static void test_bad_pattern(void **state)
{
    tm_net *net;
    (void)state;
    assert_int_equal(read_text("<topology>\n<host names='n[5-'/>\n</topology>", "bp", &net),
                     TM_EINPUT);
    if (strncmp(tm_ctx_errmsg(ctx), "bp:2: ", 6) != 0)
        fail_msg("unexpected message '%s'", tm_ctx_errmsg(ctx));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_explicit),
        cmocka_unit_test(test_defaults_crlf_utf8),
        cmocka_unit_test(test_name_lists),
        cmocka_unit_test(test_existing_net),
        cmocka_unit_test(test_generate),
        cmocka_unit_test(test_generate_errors),
        cmocka_unit_test(test_examples),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_bad_pattern),
        cmocka_unit_test(test_hwloc_file),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
