/* test_alloc.c - hostlist expansion (the cases of reference.md §2), host
 * name resolution, allocations from all hosts, hostlists and hostfiles. */
#include <unistd.h>

#include "test_fixtures.h"
#include "util/util.h"

/* Expands expr and compares with the blank-separated expected names. */
static void expect_hosts(const char *expr, const char *expected)
{
    char **names;
    size_t count, i = 0;
    char buf[4096], *save = NULL, *tok;
    assert_tm_ok(ctx, tm_hostlist_expand(ctx, expr, "test", &names, &count));
    snprintf(buf, sizeof buf, "%s", expected);
    for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save), i++) {
        if (i >= count)
            fail_msg("'%s': only %zu names, expected more ('%s')", expr, count, tok);
        if (strcmp(names[i], tok) != 0)
            fail_msg("'%s': name %zu is '%s', expected '%s'", expr, i, names[i], tok);
    }
    if (i != count)
        fail_msg("'%s': %zu names, expected %zu", expr, count, i);
    tm_hostlist_free(names, count);
}

static void expect_hostlist_error(const char *expr, const char *msg)
{
    char **names = (char **)1;
    size_t count = 7;
    assert_tm_error(ctx, tm_hostlist_expand(ctx, expr, "--alloc", &names, &count), TM_EINPUT, msg);
    assert_null(names);
    assert_int_equal(count, 0);
}

static void test_hostlist(void **state)
{
    (void)state;
    /* reference.md §2, checked with scontrol show hostnames */
    expect_hosts("node[001-004,010],gpu[1-2]", "node001 node002 node003 node004 node010 gpu1 gpu2");
    expect_hosts("n[08-11]", "n08 n09 n10 n11");
    expect_hosts("n[8-011]", "n8 n9 n10 n11");
    expect_hosts("r[1-2]-n[01-03]", "r1-n01 r1-n02 r1-n03 r2-n01 r2-n02 r2-n03");
    /* separators, duplicates kept, single values, plain names */
    expect_hosts("a b,\tc", "a b c");
    expect_hosts("a,a,n[1,1]", "a a n1 n1");
    expect_hosts("n[007]", "n007");
    expect_hosts(" , x.dom.org ,, ", "x.dom.org");
    expect_hosts("n[98-101]", "n98 n99 n100 n101");
    expect_hosts("[1-2]x[3]", "1x3 2x3");
    expect_hosts("c[0-1]n[0-1]s[5-6]", "c0n0s5 c0n0s6 c0n1s5 c0n1s6 c1n0s5 c1n0s6 c1n1s5 c1n1s6");
}

static void test_hostlist_large(void **state)
{
    char **names;
    size_t count;
    (void)state;
    assert_tm_ok(ctx, tm_hostlist_expand(ctx, "n[000001-100000]", NULL, &names, &count));
    assert_int_equal(count, 100000);
    assert_string_equal(names[99999], "n100000");
    tm_hostlist_free(names, count);
}

static void test_hostlist_errors(void **state)
{
    (void)state;
    expect_hostlist_error("x[1-3]y", "--alloc: hostlist term 'x[1-3]y': text after the last ']' "
                                     "is not allowed: 'y'");
    expect_hostlist_error("a[3-1]", "--alloc: hostlist term 'a[3-1]': descending range '3-1'");
    expect_hostlist_error("a[1-3", "--alloc: hostlist term 'a[1-3': unclosed '['");
    expect_hostlist_error("a]", "--alloc: hostlist term 'a]': ']' without '['");
    expect_hostlist_error("a[]", "--alloc: hostlist term 'a[]': empty brackets");
    expect_hostlist_error("a[1,]", "--alloc: hostlist term 'a[1,]': empty item in brackets");
    expect_hostlist_error("a[1-]", "--alloc: hostlist term 'a[1-]': range needs two numbers of "
                                   "at most 18 digits, got '1-'");
    expect_hostlist_error("a[x]", "--alloc: hostlist term 'a[x]': not a number of at most 18 "
                                  "digits: 'x'");
    expect_hostlist_error("a[[1]]", "nested '['");
    expect_hostlist_error("a[1 - 2]", "range needs two numbers");
    expect_hostlist_error("a[-1]", "range needs two numbers");
    expect_hostlist_error("n[0-99999999]", "--alloc: hostlist term 'n[0-99999999]' expands to "
                                           "more than 10000000 names");
    expect_hostlist_error("r[1-10000]-n[1-10000]", "expands to more than 10000000 names");
    expect_hostlist_error("a[1-6000000],b[1-6000000]",
                          "--alloc: hostlist expands to more than 10000000 names");
    expect_hostlist_error("n[1234567890123456789]", "not a number of at most 18 digits");
    expect_hostlist_error("", "--alloc: empty hostlist");
    expect_hostlist_error(" ,, ", "--alloc: empty hostlist");
}

/* sw -- n01.cluster (4 slots), n02 (2), n03.cluster (2), x1.a, x1.b */
static tm_net *make_net(void)
{
    tm_net *net;
    int32_t sw, h;
    const char *hosts[] = {"n01.cluster", "n02", "n03.cluster", "x1.a", "x1.b"};
    const int32_t slots[] = {4, 2, 2, 1, 1};
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "sw", TM_VERTEX_SWITCH, 0, &sw));
    for (int i = 0; i < 5; i++) {
        assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, hosts[i], TM_VERTEX_HOST, slots[i], &h));
        assert_tm_ok(ctx, tm_net_add_cable(ctx, net, sw, h, 100, NULL));
    }
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    return net;
}

static void test_resolve(void **state)
{
    tm_net *net = make_net();
    (void)state;
    assert_int_equal(tm_alloc_resolve_host(net, "n02"), 2);
    assert_int_equal(tm_alloc_resolve_host(net, "n01.cluster"), 1);
    assert_int_equal(tm_alloc_resolve_host(net, "n01"), 1);            /* short of the net's */
    assert_int_equal(tm_alloc_resolve_host(net, "n02.cluster.org"), 2); /* short of ours */
    assert_int_equal(tm_alloc_resolve_host(net, "n03.other"), 3);      /* both short */
    assert_int_equal(tm_alloc_resolve_host(net, "x1"), -1);            /* ambiguous */
    assert_int_equal(tm_alloc_resolve_host(net, "x1.b"), 5);
    assert_int_equal(tm_alloc_resolve_host(net, "n0"), -1);
    assert_int_equal(tm_alloc_resolve_host(net, "sw"), 0); /* exact: any vertex */
    assert_int_equal(tm_alloc_resolve_host(net, ""), -1);
    assert_int_equal(tm_alloc_resolve_host(net, ".x"), -1);
    tm_net_free(net);
}

static void test_alloc_all_and_hostlist(void **state)
{
    tm_net *net = make_net();
    tm_alloc a;
    (void)state;
    assert_tm_ok(ctx, tm_alloc_all(ctx, net, &a));
    assert_int_equal(a.n, 5);
    assert_int_equal(a.host[0], 1);
    assert_int_equal(a.slots[0], 4);
    assert_int_equal(tm_alloc_total_slots(&a), 10);
    tm_alloc_release(&a);
    assert_tm_ok(ctx, tm_alloc_from_hostlist(ctx, net, "n[03,01],n02.cluster", &a));
    assert_int_equal(a.n, 3);
    assert_int_equal(a.host[0], 3);
    assert_int_equal(a.host[1], 1);
    assert_int_equal(a.host[2], 2);
    assert_int_equal(tm_alloc_total_slots(&a), 8);
    tm_alloc_release(&a);
    assert_tm_error(ctx, tm_alloc_from_hostlist(ctx, net, "n[01-09]", &a), TM_EINPUT,
                    "hostlist: unknown host 'n04' (not in the topology, whose 5 hosts are named n02,n01.cluster,n03.cluster,x1.a,x1.b)");
    assert_int_equal(a.n, 0);
    assert_tm_error(ctx, tm_alloc_from_hostlist(ctx, net, "n02,sw", &a), TM_EINPUT,
                    "hostlist: 'sw' is a switch, not a host");
    assert_tm_error(ctx, tm_alloc_from_hostlist(ctx, net, "n01,n02,n01.cluster", &a), TM_EINPUT,
                    "hostlist: host 'n01.cluster' is listed twice");
    assert_tm_error(ctx, tm_alloc_from_hostlist(ctx, net, "n01,x1", &a), TM_EINPUT,
                    "hostlist: host name 'x1' is ambiguous ('x1.a' and 'x1.b'); use the full name");
    assert_tm_error(ctx, tm_alloc_from_hostlist(ctx, net, "n[2-1]", &a), TM_EINPUT,
                    "hostlist: hostlist term 'n[2-1]': descending range '2-1'");
    tm_net_free(net);
}

static void test_hostfile(void **state)
{
    tm_net *net = make_net();
    tm_alloc a;
    FILE *f;
    (void)state;
    f = fopen(TEST_DATA("alloc/hostfile.txt"), "r");
    assert_non_null(f);
    assert_tm_ok(ctx, tm_alloc_read_hostfile(ctx, net, f, "hostfile.txt", &a));
    fclose(f);
    /* a host listed twice adds its slots (Open MPI); no slots= takes the net's */
    assert_int_equal(a.n, 3);
    assert_int_equal(a.host[0], 2);
    assert_int_equal(a.slots[0], 2);
    assert_int_equal(a.host[1], 1);
    assert_int_equal(a.slots[1], 4);
    assert_int_equal(a.host[2], 3);
    assert_int_equal(a.slots[2], 2);
    tm_alloc_release(&a);
    /* tm_alloc_parse: a file is a hostfile, anything else a hostlist, NULL all */
    assert_tm_ok(ctx, tm_alloc_parse(ctx, net, TEST_DATA("alloc/hostfile.txt"), &a));
    assert_int_equal(a.n, 3);
    tm_alloc_release(&a);
    assert_tm_ok(ctx, tm_alloc_parse(ctx, net, "x1.a,n02", &a));
    assert_int_equal(a.n, 2);
    assert_int_equal(a.host[0], 4);
    tm_alloc_release(&a);
    assert_tm_ok(ctx, tm_alloc_parse(ctx, net, NULL, &a));
    assert_int_equal(a.n, 5);
    tm_alloc_release(&a);
    assert_tm_error(ctx, tm_alloc_parse(ctx, net, "/nonexistent/hosts", &a), TM_EINPUT,
                    "hostlist: unknown host '/nonexistent/hosts'");
    tm_net_free(net);
}

typedef struct bad_case {
    const char *file;
    const char *msg;
} bad_case;

static const bad_case bad_hostfiles[] = {
    {"unknown_option.hosts", ":1: unknown hostfile option 'cpus=4' (slots=N or max_slots=N)"},
    {"bad_slots.hosts", ":2: 'slots=x': value must be a positive integer"},
    {"zero_slots.hosts", ":1: 'slots=0': value must be a positive integer"},
    {"too_many_slots.hosts", ":1: host 'n02' has 2 slots in the topology, the hostfile asks for 3"},
    {"accumulated.hosts", ":3: host 'n02' has 2 slots in the topology, the hostfile asks for 3"},
    {"unknown_host.hosts", ":2: unknown host 'zz' (not in the topology, whose 5 hosts are named n02,n01.cluster,n03.cluster,x1.a,x1.b)"},
    {"switch.hosts", ":1: 'sw' is a switch, not a host"},
    {"empty.hosts", ":1: no hosts in the hostfile"},
    {"comments_only.hosts", ":2: no hosts in the hostfile"},
    {"max_lt_slots.hosts", ":1: max_slots=2 is less than slots=3"},
    {"no_value.hosts", ":1: option 'slots' needs '=N'"},
    {"ambiguous.hosts", ":1: host name 'x1' is ambiguous ('x1.a' and 'x1.b'); use the full name"},
    {"negative.hosts", ":1: 'slots=-2': value must be a positive integer"},
};

static void test_hostfile_errors(void **state)
{
    tm_net *net = make_net();
    (void)state;
    for (size_t i = 0; i < sizeof bad_hostfiles / sizeof bad_hostfiles[0]; i++) {
        char rel[256], want[4400];
        tm_alloc a;
        tm_err err;
        snprintf(rel, sizeof rel, "bad/alloc/%s", bad_hostfiles[i].file);
        snprintf(want, sizeof want, "%s%s", TEST_DATA(rel), bad_hostfiles[i].msg);
        err = tm_alloc_parse(ctx, net, TEST_DATA(rel), &a);
        if (err != TM_EINPUT || strcmp(tm_ctx_errmsg(ctx), want) != 0)
            fail_msg("%s: got %d '%s', want '%s'", bad_hostfiles[i].file, (int)err,
                     tm_ctx_errmsg(ctx), want);
        assert_int_equal(a.n, 0);
        assert_null(a.host);
    }
    tm_net_free(net);
}

/* Random expressions never crash; results respect the bound. */
static void test_hostlist_fuzz(void **state)
{
    static const char alphabet[] = "n01239[]-, .x";
    tm__rng r;
    char expr[24];
    (void)state;
    tm__rng_seed(&r, 7, 0);
    for (int it = 0; it < 20000; it++) {
        size_t len = (size_t)tm__rng_below(&r, sizeof expr);
        char **names;
        size_t count;
        tm_err err;
        for (size_t i = 0; i < len; i++)
            expr[i] = alphabet[tm__rng_below(&r, sizeof alphabet - 1)];
        expr[len] = '\0';
        err = tm_hostlist_expand(ctx, expr, "fz", &names, &count);
        if (err == TM_EOK) {
            assert_true(count >= 1 && count <= 10000000);
            for (size_t i = 0; i < count; i++)
                assert_null(strpbrk(names[i], "[], "));
            tm_hostlist_free(names, count);
        } else if (err != TM_EINPUT || strncmp(tm_ctx_errmsg(ctx), "fz: ", 4) != 0) {
            fail_msg("'%s': %d '%s'", expr, (int)err, tm_ctx_errmsg(ctx));
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hostlist),
        cmocka_unit_test(test_hostlist_large),
        cmocka_unit_test(test_hostlist_errors),
        cmocka_unit_test(test_resolve),
        cmocka_unit_test(test_alloc_all_and_hostlist),
        cmocka_unit_test(test_hostfile),
        cmocka_unit_test(test_hostfile_errors),
        cmocka_unit_test(test_hostlist_fuzz),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
