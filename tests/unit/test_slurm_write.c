/* test_slurm_write.c - the Slurm topology writer (tm_slurm_topology_write,
 * src/slurm/conf_write.c: topology.conf and topology.yaml) on hand-checked
 * networks.  The comparison with a real site's topology.conf (PSMN X5) is
 * in tests/cli/t05-topo-slurm.sh; hostlist compression, which it uses:
 * test_hostlist_compress.c. */
#include "test_fixtures.h"
/* The writer's output as a string (caller frees). */
static char *slurm_text(tm_net *net, bool yaml, bool link_speed)
{
    tm_slurm_opts o = TM_SLURM_OPTS_INIT;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    o.yaml = yaml;
    o.link_speed = link_speed;
    assert_tm_ok(ctx, tm_slurm_topology_write(ctx, net, &o, f));
    fclose(f);
    return buf;
}

/* The lines that are not comments. */
static void expect_body(const char *text, const char *want)
{
    char body[4096] = "";
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p + 1) : strlen(p);
        if (*p != '#')
            strncat(body, p, n);
        p += n;
    }
    if (strcmp(body, want) != 0)
        fail_msg("got:\n%s\nexpected:\n%s", body, want);
}

static void test_fattree(void **state)
{
    tm_net *net;
    char *s;
    (void)state;
    /* 2-level 2-ary tree: two leaf switches of two hosts, two spines */
    assert_tm_ok(ctx, tm_topology_load(ctx, "fattree:k=2,n=2", NULL, &net));
    s = slurm_text(net, false, false);
    expect_body(s, "SwitchName=sw-l1-000 Nodes=n[0000-0001]\n"
                   "SwitchName=sw-l1-001 Nodes=n[0002-0003]\n"
                   "SwitchName=sw-l2-000 Switches=sw-l1-[000-001]\n"
                   "SwitchName=sw-l2-001 Switches=sw-l1-[000-001]\n");
    assert_non_null(strstr(s, "# 4 switches on 2 levels (2 leaf switches"));
    free(s);
    s = slurm_text(net, true, false);
    expect_body(s, "- topology: default\n"
                   "  cluster_default: true\n"
                   "  tree:\n"
                   "    switches:\n"
                   "      - switch: sw-l1-000\n        nodes: n[0000-0001]\n"
                   "      - switch: sw-l1-001\n        nodes: n[0002-0003]\n"
                   "      - switch: sw-l2-000\n        children: sw-l1-[000-001]\n"
                   "      - switch: sw-l2-001\n        children: sw-l1-[000-001]\n");
    free(s);
    tm_net_free(net);
}

static int32_t vtx(tm_net *net, const char *name, tm_vertex_kind kind)
{
    int32_t id;
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, name, kind, kind == TM_VERTEX_HOST, &id));
    return id;
}

static int32_t cable(tm_net *net, const char *a, const char *b, double cap)
{
    int32_t c;
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, tm_net_find(net, a), tm_net_find(net, b), cap, &c));
    return c;
}

/* Three leaves, two middle switches joined by a cable of their own, a top
 * switch, an isolated switch pair and a host hanging off another host. */
static tm_net *irregular_tree(int32_t *l3_m2)
{
    static const char *const hosts[] = {"a1", "a2", "a3", "b01", "b02", "c", "h9"};
    static const char *const sws[] = {"L1", "L2", "L3", "M1", "M2", "T", "X1", "X2"};
    tm_net *net;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    for (size_t i = 0; i < 7; i++)
        vtx(net, hosts[i], TM_VERTEX_HOST);
    for (size_t i = 0; i < 8; i++)
        vtx(net, sws[i], TM_VERTEX_SWITCH);
    cable(net, "a1", "L1", 10);
    cable(net, "a2", "L1", 10);
    cable(net, "a3", "L1", 10);
    cable(net, "L1", "a3", 5); /* parallel, slower: LinkSpeed 5 */
    cable(net, "b01", "L2", 25);
    cable(net, "b02", "L2", 25);
    cable(net, "c", "L3", 12.5);
    cable(net, "L1", "M1", 100);
    cable(net, "L1", "M2", 100);
    cable(net, "L2", "M1", 100);
    cable(net, "L2", "M2", 100);
    *l3_m2 = cable(net, "M2", "L3", 40);
    cable(net, "M1", "M2", 100); /* same level: not a tree edge */
    cable(net, "M1", "T", 200);
    cable(net, "T", "M2", 200);
    cable(net, "M2", "T", 200);
    cable(net, "X1", "X2", 1);
    cable(net, "h9", "a1", 1);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    return net;
}

static void test_irregular(void **state)
{
    int32_t l3_m2;
    tm_net *net = irregular_tree(&l3_m2);
    char *s;
    (void)state;
    s = slurm_text(net, false, true);
    expect_body(s, "SwitchName=L1 Nodes=a[1-3] LinkSpeed=5\n"
                   "SwitchName=L2 Nodes=b[01-02] LinkSpeed=25\n"
                   "SwitchName=L3 Nodes=c LinkSpeed=13\n"
                   "SwitchName=M1 Switches=L[1-2] LinkSpeed=100\n"
                   "SwitchName=M2 Switches=L[1-3] LinkSpeed=40\n"
                   "SwitchName=T Switches=M[1-2] LinkSpeed=200\n");
    assert_non_null(strstr(s, "# 6 switches on 3 levels (3 leaf switches"));
    assert_non_null(strstr(s, "), 6 hosts.\n"));
    assert_non_null(strstr(s, "# Not written: 1 hosts cabled to no switch.\n"));
    assert_non_null(strstr(s, "# Not written: 2 switches that reach no host.\n"));
    assert_null(strstr(s, "in parts"));
    free(s);
    /* a failed cable: L3 hangs off no upper switch any more */
    tm_net_set_cable_enabled(net, l3_m2, false);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    s = slurm_text(net, false, false);
    expect_body(s, "SwitchName=L1 Nodes=a[1-3]\n"
                   "SwitchName=L2 Nodes=b[01-02]\n"
                   "SwitchName=L3 Nodes=c\n"
                   "SwitchName=M1 Switches=L[1-2]\n"
                   "SwitchName=M2 Switches=L[1-2]\n"
                   "SwitchName=T Switches=M[1-2]\n");
    assert_non_null(strstr(s, "# The fabric is in parts: no switch reaches every host.\n"));
    free(s);
    tm_net_free(net);
}

/* Switches that all carry hosts (a dragonfly's routers) hang from the
 * most central one (lowest id on a tie), whose hosts go on a virtual
 * leaf. */
static void test_all_leaves(void **state)
{
    tm_net *net;
    char *s;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    vtx(net, "h1", TM_VERTEX_HOST);
    vtx(net, "h2", TM_VERTEX_HOST);
    vtx(net, "r1", TM_VERTEX_SWITCH);
    vtx(net, "r2", TM_VERTEX_SWITCH);
    cable(net, "h1", "r1", 1);
    cable(net, "h2", "r2", 1);
    cable(net, "r1", "r2", 1);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    s = slurm_text(net, false, false);
    expect_body(s, "SwitchName=r1-hosts Nodes=h1\nSwitchName=r2 Nodes=h2\n"
                   "SwitchName=r1 Switches=r2,r1-hosts\n");
    assert_non_null(strstr(s, "# 1 virtual leaf switch (<switch>-hosts, not in the fabric)"));
    assert_null(strstr(s, "in parts"));
    free(s);
    tm_net_free(net);
}

/* A net of hosts h<i> on switches; cables given as "a-b" pairs. */
static tm_net *small_net(const char *const *hosts, size_t nh, const char *const *sws, size_t ns,
                         const char *const (*cables)[2], size_t nc)
{
    tm_net *net;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    for (size_t i = 0; i < nh; i++)
        vtx(net, hosts[i], TM_VERTEX_HOST);
    for (size_t i = 0; i < ns; i++)
        vtx(net, sws[i], TM_VERTEX_SWITCH);
    for (size_t i = 0; i < nc; i++)
        cable(net, cables[i][0], cables[i][1], 1);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    return net;
}

/* Slurm takes the first switch of the highest level that holds a
 * requested node: a core switch with hosts goes above its leaves (hosts
 * on a virtual leaf); of two top switches, the one that reaches every
 * host comes first; when no top switch does (PSMN X5's shape), a virtual
 * root lists the switches no line lists. */
static void test_top_rule(void **state)
{
    static const char *const h6[] = {"c1", "c2", "login", "h1", "h2", "h3"};
    static const char *const core_sw[] = {"L1", "L2", "core"};
    static const char *const core_cab[][2] = {{"c1", "L1"}, {"c2", "L2"}, {"login", "core"},
                                               {"L1", "core"}, {"L2", "core"}};
    static const char *const span_sw[] = {"L1", "L2", "S1", "S2"};
    static const char *const span_cab[][2] = {{"h1", "L1"}, {"h2", "L2"}, {"L1", "S1"},
                                               {"L1", "S2"}, {"L2", "S2"}};
    static const char *const x5_sw[] = {"L1", "L2", "L3", "A", "C", "E"};
    static const char *const x5_cab[][2] = {{"h1", "L1"}, {"h2", "L2"}, {"h3", "L3"},
                                             {"A", "L1"}, {"A", "L2"}, {"A", "L3"}, {"C", "L1"},
                                             {"C", "L2"}, {"E", "C"}};
    tm_net *net;
    char *s;
    (void)state;
    net = small_net(h6, 3, core_sw, 3, core_cab, 5);
    s = slurm_text(net, false, false);
    expect_body(s, "SwitchName=L1 Nodes=c1\nSwitchName=L2 Nodes=c2\n"
                   "SwitchName=core-hosts Nodes=login\n"
                   "SwitchName=core Switches=L[1-2],core-hosts\n");
    free(s);
    tm_net_free(net);
    net = small_net(h6 + 3, 2, span_sw, 4, span_cab, 5);
    s = slurm_text(net, false, false);
    expect_body(s, "SwitchName=L1 Nodes=h1\nSwitchName=L2 Nodes=h2\n"
                   "SwitchName=S2 Switches=L[1-2]\nSwitchName=S1 Switches=L1\n");
    free(s);
    tm_net_free(net);
    net = small_net(h6 + 3, 3, x5_sw, 6, x5_cab, 9);
    s = slurm_text(net, false, false);
    expect_body(s, "SwitchName=L1 Nodes=h1\nSwitchName=L2 Nodes=h2\nSwitchName=L3 Nodes=h3\n"
                   "SwitchName=A Switches=L[1-3]\nSwitchName=C Switches=L[1-2]\n"
                   "SwitchName=E Switches=C\nSwitchName=topomap-root Switches=A,E\n");
    assert_non_null(strstr(s, "# topomap-root is not in the fabric"));
    free(s);
    s = slurm_text(net, true, false);
    assert_non_null(strstr(s, "      - switch: topomap-root\n        children: A,E\n"));
    free(s);
    tm_net_free(net);
}

static void expect_write_error(tm_net *net, tm_err err, const char *msg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_tm_error(ctx, tm_slurm_topology_write(ctx, net, NULL, f), err, msg);
    fclose(f);
    assert_int_equal(len, 0); /* nothing written before the error */
    free(buf);
}

static void test_errors(void **state)
{
    tm_net *net;
    char longname[80];
    (void)state;
    /* a torus has no switches: Slurm's tree cannot describe it */
    assert_tm_ok(ctx, tm_topology_load(ctx, "torus:3x3", NULL, &net));
    expect_write_error(net, TM_EINFEASIBLE, "the network has no switches: Slurm's topology/tree");
    tm_net_free(net);

    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    vtx(net, "h1", TM_VERTEX_HOST);
    vtx(net, "sw#1", TM_VERTEX_SWITCH);
    cable(net, "h1", "sw#1", 1);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    expect_write_error(net, TM_EINFEASIBLE, "switch name 'sw#1' cannot be written");
    tm_net_free(net);

    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    vtx(net, "h 1", TM_VERTEX_HOST);
    memset(longname, 's', 65);
    longname[65] = '\0';
    vtx(net, longname, TM_VERTEX_SWITCH);
    cable(net, "h 1", longname, 1);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    expect_write_error(net, TM_EINFEASIBLE, "longer than Slurm's limit of 64 characters");
    tm_net_free(net);

    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    vtx(net, "h 1", TM_VERTEX_HOST);
    vtx(net, "s1", TM_VERTEX_SWITCH);
    cable(net, "h 1", "s1", 1);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    expect_write_error(net, TM_EINFEASIBLE, "host name 'h 1' cannot be written");
    tm_net_free(net);
}

/* YAML scalars that would read as something else are quoted. */
static void test_yaml_quoting(void **state)
{
    tm_net *net;
    char *s;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    vtx(net, "yes", TM_VERTEX_HOST);
    vtx(net, "1sw", TM_VERTEX_SWITCH);
    cable(net, "yes", "1sw", 1);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    s = slurm_text(net, true, false);
    assert_non_null(strstr(s, "      - switch: \"1sw\"\n        nodes: \"yes\"\n"));
    free(s);
    tm_net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fattree),
        cmocka_unit_test(test_top_rule),
        cmocka_unit_test(test_irregular),
        cmocka_unit_test(test_all_leaves),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_yaml_quoting),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
