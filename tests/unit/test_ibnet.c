/* test_ibnet.c - InfiniBand readers and writer: every real dump of
 * tests/data/real (counts checked against tests/data/PROVENANCE.md), the PSMN X5 fabric
 * against the site's Slurm topology.conf, plain / -g / -p / ibsim forms of
 * one fabric, hand-written quirks, node-name maps, writer round trips,
 * malformed inputs with their exact messages, and the load time of a
 * generated 4,000-host fat-tree dump. */
#include <ctype.h>
#include <time.h>

#include "test_util.h"

static tm_ctx *ctx;
static char warnings[16384];
static char write_warnings[4096]; /* warnings of the last round_trip() write */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void capture(void *ud, tm_log_level level, const char *msg)
{
    size_t n = strlen(warnings);
    (void)ud;
    if (level == TM_LOG_WARN && n + strlen(msg) + 2 < sizeof warnings)
        sprintf(warnings + n, "%s\n", msg);
}

static int setup(void **state)
{
    (void)state;
    if (tm_ctx_new(&ctx) != TM_EOK)
        return -1;
    tm_ctx_set_log(ctx, capture, NULL);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tm_ctx_free(ctx);
    return 0;
}

static tm_err try_read(const char *path, const tm_ibnet_opts *o, tm_net **out)
{
    FILE *f = fopen(path, "r");
    tm_net *net;
    tm_err err;
    *out = NULL;
    if (!f)
        fail_msg("cannot open %s", path);
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    warnings[0] = '\0';
    err = tm_ibnet_read(ctx, f, path, o, net);
    fclose(f);
    if (err)
        tm_net_free(net);
    else
        *out = net;
    return err;
}

static tm_net *read_ok(const char *path, const tm_ibnet_opts *o)
{
    tm_net *net;
    assert_tm_ok(ctx, try_read(path, o, &net));
    return net;
}

static tm_net *read_text(const char *text, const tm_ibnet_opts *o, tm_err expect, const char *msg)
{
    FILE *f = tm_test_memfile(text);
    tm_net *net;
    tm_err err;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    warnings[0] = '\0';
    err = tm_ibnet_read(ctx, f, "mem", o, net);
    fclose(f);
    if (err != expect || (msg && strcmp(tm_ctx_errmsg(ctx), msg) != 0))
        fail_msg("expected %d '%s', got %d '%s'", (int)expect, msg ? msg : "", (int)err,
                 tm_ctx_errmsg(ctx));
    if (err) {
        tm_net_free(net);
        return NULL;
    }
    return net;
}

/* "cap:count ..." of the capacity classes. */
static void classes(const tm_net *net, char *buf, size_t sz)
{
    tm_net_info info;
    size_t n = 0;
    buf[0] = '\0';
    assert_tm_ok(ctx, tm_net_info_compute(ctx, net, false, &info));
    for (int i = 0; i < info.n_capclasses; i++)
        n += (size_t)snprintf(buf + n, sz - n, "%s%g:%lld", i ? " " : "", info.capclasses[i].capacity,
                              (long long)info.capclasses[i].cables);
    tm_net_info_release(&info);
}

static void check_net(tm_net *net, int hosts, int switches, int cables, const char *caps)
{
    char buf[256];
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_net_check(ctx, net));
    assert_int_equal(tm_net_n_hosts(net), hosts);
    assert_int_equal(tm_net_n_switches(net), switches);
    assert_int_equal(tm_net_n_cables(net), cables);
    classes(net, buf, sizeof buf);
    assert_string_equal(buf, caps);
}

static int32_t find(const tm_net *net, const char *name)
{
    int32_t v = tm_net_find(net, name);
    if (v < 0)
        fail_msg("no vertex '%s'", name);
    return v;
}

/* Number of cables between two named vertices. */
static int cables_between(const tm_net *net, const char *x, const char *y, double cap)
{
    int32_t a = find(net, x), b = find(net, y), n = 0;
    for (int32_t c = 0; c < tm_net_n_cables(net); c++) {
        int32_t p, q;
        tm_net_cable(net, c, &p, &q);
        if (((p == a && q == b) || (p == b && q == a)) && (cap == 0 || tm_net_capacity(net, c) == cap))
            n++;
    }
    return n;
}

/* Same vertices (names, kinds, slots, in order) and cables (in order). */
static void assert_same_net(const tm_net *x, const tm_net *y)
{
    assert_int_equal(tm_net_n_vertices(x), tm_net_n_vertices(y));
    assert_int_equal(tm_net_n_cables(x), tm_net_n_cables(y));
    for (int32_t v = 0; v < tm_net_n_vertices(x); v++) {
        assert_string_equal(tm_net_name(x, v), tm_net_name(y, v));
        assert_int_equal(tm_net_kind(x, v), tm_net_kind(y, v));
        assert_int_equal(tm_net_slots(x, v), tm_net_slots(y, v));
    }
    for (int32_t c = 0; c < tm_net_n_cables(x); c++) {
        int32_t a, b, p, q;
        tm_net_cable(x, c, &a, &b);
        tm_net_cable(y, c, &p, &q);
        assert_int_equal(a, p);
        assert_int_equal(b, q);
        assert_true(tm_net_capacity(x, c) == tm_net_capacity(y, c));
    }
}

/* ---- real dumps ---------------------------------------------------------- */

static void test_jabl_dumps(void **state)
{
    tm_net *net;
    (void)state;
    /* 1.topo: 2 switches, 4 generic CAs (named by GUID, with warnings),
     * 12 4xSDR + 2 1xSDR port lines; the 2-port CA has both ports cabled */
    net = read_ok(REAL_DATA("data/ibnetdiscover/jabl_ibtopotool/1.topo"), NULL);
    assert_non_null(strstr(warnings, "1.topo:50: CA \"H-0008f10403960558\" has no hostname"));
    check_net(net, 4, 2, 7, "2:2 8:5");
    assert_int_equal(cables_between(net, "H-0008f10403960558", "S-005442ba00003080", 0), 2);
    assert_int_equal(cables_between(net, "S-005442ba00003080", "S-0008f10400410015", 0), 2);
    assert_int_equal(tm_net_guid(net, find(net, "H-0008f10403960558")), 0x0008f10403960558ULL);
    assert_string_equal(tm_net_desc(net, find(net, "S-0008f10400410015")), "SW-6IB4 Voltaire");
    tm_net_free(net);

    net = read_ok(REAL_DATA("data/ibnetdiscover/jabl_ibtopotool/2.topo"), NULL);
    check_net(net, 2, 1, 2, "8:2");
    tm_net_free(net);

    /* 3.topo: stderr line 1, single spaces, 3 self-loop cables dropped,
     * r-ufm101 has 2 HCAs -> one host with 2 cables */
    net = read_ok(REAL_DATA("data/ibnetdiscover/jabl_ibtopotool/3.topo"), NULL);
    check_net(net, 5, 2, 7, "8:1 32:2 54.56:3 100:1");
    assert_int_equal(cables_between(net, "r-ufm101", "switch-de779e", 32), 2);
    assert_int_equal(cables_between(net, "S-e41d2d030003e470", "switch-de779e", 54.56), 1);
    assert_int_equal(tm_net_find(net, "r-ufm101"), 2); /* r-ufm96 < r-ufm100 < r-ufm101 */
    tm_net_free(net);

    net = read_ok(REAL_DATA("data/ibnetdiscover/jabl_ibtopotool/4.topo"), NULL);
    check_net(net, 1, 1, 1, "32:1");
    assert_int_equal(find(net, "nsn33-43"), 0);
    tm_net_free(net);
}

static void test_synthetic_fat_tree(void **state)
{
    tm_net *net;
    tm_net_info info;
    (void)state;
    net = read_ok(REAL_DATA("data/ibnetdiscover/synthetic/k-4-n-3-Full.topo"), NULL);
    check_net(net, 128, 80, 384, "100:384");
    assert_string_equal(tm_net_name(net, 0), "Hca0");
    assert_string_equal(tm_net_name(net, 127), "Hca127");
    assert_string_equal(tm_net_name(net, 128), "Switch0");
    assert_tm_ok(ctx, tm_net_info_compute(ctx, net, true, &info));
    assert_int_equal(info.diameter, 6); /* 4-ary 3-tree: up 3, down 3 */
    tm_net_info_release(&info);
    tm_net_free(net);
}

static void test_ports_reports(void **state)
{
    tm_net *net;
    (void)state;
    /* plafrim: 9 switches, 125 CA ports with hostnames; QDR 326 / DDR 64 /
     * SDR 12 port lines, i.e. 163 / 32 / 6 cables */
    net = read_ok(REAL_DATA("data/ibnetdiscover_p/plafrim/ib-subnet-fe80_0000_0000_0000.txt"), NULL);
    check_net(net, 125, 9, 201, "8:6 16:32 32:163");
    assert_int_equal(cables_between(net, "mirage001", "S-0008f10500108c9e", 32), 1);
    assert_int_equal(cables_between(net, "dancharia", "S-0008f10500108c9e", 16), 1);
    tm_net_free(net);
    /* plafrim2 subnet 0: 7 switches, 96 CA ports ('<host> qib0'), all QDR */
    net = read_ok(REAL_DATA("data/ibnetdiscover_p/plafrim2/ib-subnet-fe80_0000_0000_0000.txt"), NULL);
    check_net(net, 96, 7, 155, "32:155");
    assert_true(tm_net_find(net, "miriel063") >= 0);
    assert_true(tm_net_find(net, "ibcore01") >= 0); /* one-word switch description */
    tm_net_free(net);
    /* plafrim2 subnet 1: 1 switch, 23 CA ports, 21 of them generic */
    net = read_ok(REAL_DATA("data/ibnetdiscover_p/plafrim2/ib-subnet-fe80_0000_0000_0001.txt"), NULL);
    check_net(net, 23, 1, 23, "8:1 32:22");
    assert_true(tm_net_find(net, "switchIB-MLX01") >= 0);
    assert_true(tm_net_find(net, "H-f4521403007a6d21") >= 0); /* by port GUID */
    assert_non_null(strstr(warnings, "named H-f4521403007a6d21"));
    tm_net_free(net);
}

static void test_ibsim_net_files(void **state)
{
    static const struct { const char *file; int h, s, c; } cases[] = {
        {"net", 2, 2, 4}, {"net.1", 2, 1, 2}, {"net.2sw2path", 2, 2, 4},
        {"net.2sw2path4hca", 4, 2, 6}, {"net.2sw2path4hca2port", 2, 2, 6}};
    char path[256];
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tm_net *net;
        char caps[32];
        snprintf(path, sizeof path, "data/ibnetdiscover/ibsim_net/%s", cases[i].file);
        net = read_ok(REAL_DATA(path), NULL);
        snprintf(caps, sizeof caps, "8:%d", cases[i].c); /* ibsim default 4xSDR */
        check_net(net, cases[i].h, cases[i].s, cases[i].c, caps);
        assert_true(tm_net_find(net, "Hca1") >= 0);
        assert_true(tm_net_find(net, "Switch1") >= 0);
        tm_net_free(net);
    }
}

/* The same ibsim fabric: its net file, ibnetdiscover plain, -g and -p. */
static void test_sample_forms_agree(void **state)
{
    static const char *forms[] = {"ibnetdiscover-g-ibsim.txt", "ibnetdiscover-p-ibsim.txt",
                                  "ibsim-2level.net"};
    char path[256];
    tm_net *ref;
    (void)state;
    ref = read_ok(REAL_DATA("docs/samples/ibnetdiscover-ibsim.txt"), NULL);
    check_net(ref, 4, 3, 7, "8:6 24:1");
    assert_string_equal(tm_net_name(ref, 0), "node001");
    assert_string_equal(tm_net_name(ref, 4), "leaf1");
    assert_int_equal(cables_between(ref, "leaf1", "spine1", 0), 2);
    assert_int_equal(cables_between(ref, "leaf1", "spine1", 24), 1); /* 12xSDR */
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        tm_net *net;
        snprintf(path, sizeof path, "docs/samples/%s", forms[i]);
        net = read_ok(REAL_DATA(path), NULL);
        assert_same_net(ref, net);
        tm_net_free(net);
    }
    tm_net_free(ref);
}

/* ---- PSMN X5 against the site's topology.conf ------------------------------ */

/* Expands "a[1-3,5],b" into names separated by '\n' (test-only helper). */
static void expand_hostlist(const char *s, char *out, size_t sz)
{
    size_t n = 0;
    out[0] = '\0';
    while (*s) {
        char prefix[128];
        size_t pl = 0;
        while (*s && *s != ',' && *s != '[')
            prefix[pl++] = *s++;
        prefix[pl] = '\0';
        if (*s == '[') {
            s++;
            while (*s && *s != ']') {
                long lo = strtol(s, (char **)&s, 10), hi = lo;
                if (*s == '-')
                    hi = strtol(s + 1, (char **)&s, 10);
                for (long k = lo; k <= hi; k++)
                    n += (size_t)snprintf(out + n, sz - n, "%s%ld\n", prefix, k);
                if (*s == ',')
                    s++;
            }
            s++;
        } else {
            n += (size_t)snprintf(out + n, sz - n, "%s\n", prefix);
        }
        if (*s == ',')
            s++;
    }
}

static void test_psmn_x5(void **state)
{
    FILE *mf = fopen(REAL_DATA("data/ibnetdiscover/psmn_X5/X5.map"), "r"), *conf;
    tm_nodemap *map;
    tm_ibnet_opts o = TM_IBNET_OPTS_INIT;
    tm_net *net, *plain;
    char line[4096], expect[16384];
    int leaves = 0, hosts_seen = 0;
    (void)state;
    assert_non_null(mf);
    assert_tm_ok(ctx, tm_nodemap_read(ctx, mf, "X5.map", &map));
    fclose(mf);
    assert_string_equal(tm_nodemap_get(map, 0x0002c90300080e84ULL), "r510gluster1");
    assert_null(tm_nodemap_get(map, 0x1234));
    o.nodemap = map;
    o.slots = 16;
    net = read_ok(REAL_DATA("data/ibnetdiscover/psmn_X5/X5.topofile"), &o);
    /* 11 switches, 89 CAs, 4xQDR 272 + 4xDDR 46 port lines */
    check_net(net, 89, 11, 159, "16:23 32:136");
    assert_int_equal(tm_net_slots(net, find(net, "sl390lin1")), 16);
    /* three CAs are missing from X5.map: named by GUID, as the site did */
    assert_non_null(strstr(warnings, "named H-78e7d1030024535c"));
    plain = read_ok(REAL_DATA("data/ibnetdiscover/psmn_X5/X5.topofile"), NULL);
    check_net(plain, 89, 11, 159, "16:23 32:136");
    tm_net_free(plain);

    conf = fopen(REAL_DATA("data/ibnetdiscover/psmn_X5/X5.topology.conf"), "r");
    assert_non_null(conf);
    while (fgets(line, sizeof line, conf)) {
        char sw[64], list[4000], *nl;
        const char *kind;
        int32_t s, want = 0, got = 0;
        if (line[0] == '#' || sscanf(line, "SwitchName=%63s %3999s", sw, list) != 2)
            continue;
        if ((nl = strchr(list, '\n')))
            *nl = '\0';
        kind = !strncmp(list, "Nodes=", 6) ? "Nodes" : "Switches";
        expand_hostlist(strchr(list, '=') + 1, expect, sizeof expect);
        s = find(net, sw);
        assert_int_equal(tm_net_kind(net, s), TM_VERTEX_SWITCH);
        /* every listed neighbour is cabled to s ... */
        for (char *name = strtok(expect, "\n"); name; name = strtok(NULL, "\n")) {
            int32_t v = find(net, name);
            assert_int_equal(tm_net_kind(net, v), kind[0] == 'N' ? TM_VERTEX_HOST : TM_VERTEX_SWITCH);
            if (!cables_between(net, sw, name, 0))
                fail_msg("%s: %s not attached", sw, name);
            want++;
        }
        /* ... and s has no other neighbour of that kind */
        {
            const tm_net_csr *g = tm_net_csr_get(net);
            uint8_t *seen = calloc((size_t)g->n, 1);
            for (int32_t j = g->off[s]; j < g->off[s + 1]; j++) {
                int32_t v = g->head[j];
                if (!seen[v] && (tm_net_kind(net, v) == TM_VERTEX_HOST) == (kind[0] == 'N')) {
                    seen[v] = 1;
                    got++;
                }
            }
            free(seen);
        }
        assert_int_equal(got, want);
        if (kind[0] == 'N') {
            leaves++;
            hosts_seen += want;
        }
    }
    fclose(conf);
    assert_int_equal(leaves, 6);
    assert_int_equal(hosts_seen, 89);
    tm_net_free(net);
    tm_nodemap_free(map);
}

/* ---- hand-written quirks ------------------------------------------------- */

static void test_quirks(void **state)
{
    tm_net *net;
    tm_ibnet_opts o = TM_IBNET_OPTS_INIT;
    (void)state;
    net = read_ok(TEST_DATA("ib/quirks.topo"), NULL);
    check_net(net, 5, 3, 10, "25:1 40:1 54.56:1 96:1 100:4 200:2");
    static const char *order[] = {"H-0000000000000d01", "node01", "node02", "node03", "node04",
                                  "S-0000000000000a02", "leaf01", "router1"};
    for (int v = 0; v < 8; v++)
        assert_string_equal(tm_net_name(net, v), order[v]);
    assert_int_equal(cables_between(net, "node01", "leaf01", 200), 2);   /* 4xHDR + 2xNDR merged */
    assert_int_equal(cables_between(net, "H-0000000000000d01", "leaf01", 40), 1); /* 4xFDR10 */
    assert_int_equal(cables_between(net, "leaf01", "S-0000000000000a02", 96), 1); /* 12xQDR, [ext] */
    assert_int_equal(cables_between(net, "leaf01", "S-0000000000000a02", 54.56), 1);
    assert_int_equal(cables_between(net, "node03", "node04", 100), 1);  /* CA-CA */
    assert_int_equal(cables_between(net, "node04", "S-0000000000000a02", 25), 1);
    assert_int_equal(tm_net_kind(net, find(net, "router1")), TM_VERTEX_SWITCH);
    assert_int_equal(tm_net_find(net, "H-0000000000000e01"), -1); /* SHARP: not a host */
    assert_int_equal(tm_net_slots(net, find(net, "node01")), 1);
    assert_int_equal(tm_net_guid(net, find(net, "node01")), 0xb01);
    assert_int_equal(tm_net_guid(net, find(net, "leaf01")), 0xa01);
    assert_string_equal(tm_net_desc(net, find(net, "leaf01")), "MF0;leaf01:MQM8700/U1");
    assert_string_equal(tm_net_desc(net, find(net, "S-0000000000000a02")), "Voltaire 4036 # spine");
    assert_non_null(strstr(warnings, "quirks.topo:51: CA \"H-0000000000000d01\" has no hostname in "
                                     "its description \"MT4123 ConnectX6   Mellanox Technologies\"; "
                                     "named H-0000000000000d01"));
    tm_net_free(net);

    o.keep_hcas_separate = true;
    o.slots = 4;
    net = read_ok(TEST_DATA("ib/quirks.topo"), &o);
    check_net(net, 6, 3, 10, "25:1 40:1 54.56:1 96:1 100:4 200:2");
    assert_int_equal(cables_between(net, "node01/mlx5_0", "leaf01", 200), 1);
    assert_int_equal(cables_between(net, "node01/mlx5_1", "leaf01", 200), 1);
    assert_true(tm_net_find(net, "node02/HCA-1") >= 0);
    assert_int_equal(tm_net_slots(net, find(net, "node02/HCA-1")), 4);
    tm_net_free(net);
}

static void test_nodemap_lookup(void **state)
{
    /* by node GUID for one CA, by port GUID for another; map names are
     * node descriptions, so the hostname is their first word */
    static const char map_text[] = "# comment\n"
                                   "0x0000000000000d02 \"gpu07 mlx5_0\"   # by port GUID\n"
                                   "\n"
                                   "0xc01 renamed02\n"
                                   "S-0000000000000a02 \"MF0;spine01:QM9700/U1\"\n";
    FILE *f = tm_test_memfile(map_text);
    tm_nodemap *map;
    tm_ibnet_opts o = TM_IBNET_OPTS_INIT;
    tm_net *net;
    (void)state;
    assert_tm_ok(ctx, tm_nodemap_read(ctx, f, "map", &map));
    fclose(f);
    assert_string_equal(tm_nodemap_get(map, 0xd02), "gpu07 mlx5_0");
    o.nodemap = map;
    net = read_ok(TEST_DATA("ib/quirks.topo"), &o);
    check_net(net, 5, 3, 10, "25:1 40:1 54.56:1 96:1 100:4 200:2");
    assert_int_equal(cables_between(net, "gpu07", "leaf01", 40), 1);
    assert_int_equal(cables_between(net, "renamed02", "leaf01", 100), 1);
    assert_int_equal(cables_between(net, "spine01", "router1", 100), 1);
    assert_null(strstr(warnings, "no hostname"));
    tm_net_free(net);
    tm_nodemap_free(map);
    tm_nodemap_free(NULL);
    assert_null(tm_nodemap_get(NULL, 1));
}

static void test_nodemap_errors(void **state)
{
    static const struct { const char *text, *msg; } cases[] = {
        {"0xzz \"a\"\n", "map:1: bad GUID '0xzz' (expected 0x<hex> or H-<hex>)"},
        {"# x\n1234 a\n", "map:2: bad GUID '1234' (expected 0x<hex> or H-<hex>)"},
        {"0x1 \"a\"\n0x01 b\n", "map:2: duplicate GUID 0x0000000000000001 (first at line 1)"},
        {"0x1 \"a b\n", "map:1: unterminated quoted name"},
        {"0x1 a b\n", "map:1: unexpected text after the name: 'b' (quote names with spaces)"},
        {"0x1\n", "map:1: missing name for GUID 0x0000000000000001"},
        {"0x12345678901234567 a\n", "map:1: bad GUID '0x12345678901234567' (expected 0x<hex> or H-<hex>)"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FILE *f = tm_test_memfile(cases[i].text);
        tm_nodemap *map = (tm_nodemap *)1;
        tm_err err = tm_nodemap_read(ctx, f, "map", &map);
        fclose(f);
        assert_int_equal(err, TM_EINPUT);
        assert_null(map);
        assert_string_equal(tm_ctx_errmsg(ctx), cases[i].msg);
    }
}

static void test_speed_tokens(void **state)
{
    /* every width and speed, plus -f raw codes after the token */
    static const struct { const char *tok; double cap; } cases[] = {
        {"1xSDR", 2}, {"4xDDR", 16}, {"4xQDR", 32}, {"4xFDR10", 40}, {"4xFDR", 54.56},
        {"4xEDR", 100}, {"2xHDR", 100}, {"4xHDR", 200}, {"2xNDR", 200}, {"4xNDR", 400},
        {"8xNDR", 800}, {"12xQDR", 96}, {"4xXDR", 800}, {"1xEDR", 25}};
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        tm_net *net;
        snprintf(text, sizeof text,
                 "Switch\t8 \"S-0000000000000001\"\t\t# \"sw\" enhanced port 0 lid 1 lmc 0\n"
                 "[1]\t\"H-0000000000000002\"[1](3) \t\t# \"h1 mlx5_0\" lid 2 %s s=1 w=2 v=3\n"
                 "\n"
                 "Ca\t1 \"H-0000000000000002\"\t\t# \"h1 mlx5_0\"\n"
                 "[1](3) \t\"S-0000000000000001\"[1]\t\t# lid 2 lmc 0 \"sw\" lid 1 %s\n",
                 cases[i].tok, cases[i].tok);
        net = read_text(text, NULL, TM_EOK, NULL);
        assert_int_equal(tm_net_n_cables(net), 1);
        if (tm_net_capacity(net, 0) != cases[i].cap)
            fail_msg("%s: %g", cases[i].tok, tm_net_capacity(net, 0));
        tm_net_free(net);
    }
}

static void test_missing_tokens(void **state)
{
    tm_net *net;
    (void)state;
    net = read_ok(TEST_DATA("ib/notoken.topo"), NULL);
    check_net(net, 2, 1, 2, "1:2");
    assert_non_null(strstr(warnings, "notoken.topo: no link has a width x speed token (old dump?): "
                                     "every cable gets capacity 1"));
    tm_net_free(net);
    net = read_ok(TEST_DATA("ib/mixed-tokens.topo"), NULL);
    check_net(net, 2, 1, 2, "100:2");
    assert_non_null(strstr(warnings, "mixed-tokens.topo:11: 1 link(s) without a width x speed "
                                     "token get capacity 100, the most common one of this dump"));
    tm_net_free(net);
}

static void test_ibsim_syntax(void **state)
{
    tm_net *net;
    (void)state;
    net = read_text("# ibsim\n"
                    "Switch 8 \"sw\"\n"
                    "[1] \"h1\" w=2 s=4\n"      /* peer port defaults to 1; 4xQDR */
                    "[2]\t\"h2\"[1]\n"          /* ibsim default 4xSDR */
                    "[3] \"h2\"[2] w=8\n"       /* 12xSDR */
                    "\n"
                    "Hca 1 \"h1\" # \"host1 mlx4_0\"\n"
                    "[1] \"sw\"[1] s=4 w=2\n"
                    "\n"
                    "Hca\t2 \"h2\"\n"
                    "[1] \"sw\"[2]\n"
                    "[2] \"sw\"[3] w=8\n",
                    NULL, TM_EOK, NULL);
    check_net(net, 2, 1, 3, "8:1 24:1 32:1");
    assert_int_equal(cables_between(net, "host1", "sw", 32), 1);
    assert_int_equal(cables_between(net, "h2", "sw", 0), 2);
    assert_int_equal(tm_net_guid(net, find(net, "sw")), 0);
    tm_net_free(net);
}

static void test_names_and_clashes(void **state)
{
    static const char two_leaves[] =
        "Switch\t8 \"S-00000000000000a1\"\t\t# \"MF0;leaf:MQM8700/U1\" enhanced port 0 lid 1 lmc 0\n"
        "[1]\t\"H-00000000000000b1\"[1](b2) \t\t# \"n1 mlx5_0\" lid 2 4xEDR\n"
        "[2]\t\"S-00000000000000a2\"[2]\t\t# \"MF0;leaf:MQM8700/U1\" lid 3 4xEDR\n"
        "Switch\t8 \"S-00000000000000a2\"\t\t# \"MF0;leaf:MQM8700/U1\" enhanced port 0 lid 3 lmc 0\n"
        "[1]\t\"H-00000000000000c1\"[1](c2) \t\t# \"n1\" lid 4 4xEDR\n"
        "[2]\t\"S-00000000000000a1\"[2]\t\t# \"MF0;leaf:MQM8700/U1\" lid 1 4xEDR\n"
        "Ca\t1 \"H-00000000000000b1\"\t\t# \"n1 mlx5_0\"\n"
        "[1](b2) \t\"S-00000000000000a1\"[1]\t\t# lid 2 lmc 0 \"MF0;leaf:MQM8700/U1\" lid 1 4xEDR\n"
        "Ca\t1 \"H-00000000000000c1\"\t\t# \"n1\"\n"
        "[1](c2) \t\"S-00000000000000a2\"[1]\t\t# lid 4 lmc 0 \"MF0;leaf:MQM8700/U1\" lid 3 4xEDR\n";
    tm_net *net;
    tm_ibnet_opts o = TM_IBNET_OPTS_INIT;
    int32_t v;
    (void)state;
    /* two switches called "leaf": both fall back to their GUID ids; two
     * HCAs of n1 on different switches make one host with 2 cables */
    net = read_text(two_leaves, NULL, TM_EOK, NULL);
    check_net(net, 1, 2, 3, "100:3");
    assert_int_equal(cables_between(net, "n1", "S-00000000000000a1", 0), 1);
    assert_int_equal(cables_between(net, "n1", "S-00000000000000a2", 0), 1);
    tm_net_free(net);
    /* separate HCAs: "n1/mlx5_0" and "n1/H-00000000000000c1" (no 2nd word) */
    o.keep_hcas_separate = true;
    net = read_text(two_leaves, &o, TM_EOK, NULL);
    assert_true(tm_net_find(net, "n1/mlx5_0") >= 0);
    assert_true(tm_net_find(net, "n1/H-00000000000000c1") >= 0);
    tm_net_free(net);
    /* a vertex that already exists in the net */
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "n1", TM_VERTEX_HOST, 1, &v));
    {
        FILE *f = tm_test_memfile(two_leaves);
        assert_tm_error(ctx, tm_ibnet_read(ctx, f, "mem", NULL, net), TM_EINPUT,
                        "mem:7: vertex name \"n1\" already exists in the network");
        fclose(f);
    }
    tm_net_free(net);
}

/* ---- malformed inputs ----------------------------------------------------- */

static void test_malformed(void **state)
{
    static const struct { const char *file, *msg; } cases[] = {
        {"empty.topo", "1: no InfiniBand nodes found"},
        {"noise.topo", "3: no InfiniBand nodes found"},
        {"truncated.topo", "11: port 2 of \"S-0000000000000a01\": peer GUID 0x0000000000000c01 is "
                           "not defined (truncated dump?)"},
        {"oneend.topo", "11: link \"S-0000000000000a01\"[2] - \"H-0000000000000c01\"[1] is listed "
                        "from one end only (\"H-0000000000000c01\" does not list port 1: truncated "
                        "dump?)"},
        {"badspeed.topo", "10: unknown link speed '4xZZZ'"},
        {"qspeed.topo", "17: unknown link speed '4x?\?\?'"},
        {"dupguid.topo", "22: duplicate node GUID 0x0000000000000b01 (first defined at line 16)"},
        {"dupguid2.topo", "16: duplicate node GUID 0x0000000000000a01 (first defined at line 9)"},
        {"badport.topo", "11: bad port number 9 (\"S-0000000000000a01\" has ports 1-8)"},
        {"badpeerport.topo", "10: bad port number 3 for peer \"H-0000000000000b01\" (it has ports 1-1)"},
        {"inconsistent.topo", "23: inconsistent peers: \"H-0000000000000c01\"[1] -> "
                              "\"S-0000000000000a01\"[1] here, but line 11 says "
                              "\"S-0000000000000a01\"[2] -> \"H-0000000000000c01\"[1]"},
        {"twice.topo", "12: port 2 of \"S-0000000000000a01\" listed twice with different peers (line 11)"},
        {"outside.topo", "6: port line outside a node block"},
        {"badheader.topo", "9: malformed node header: expected a quoted node id"},
        {"badcount.topo", "9: bad port count 300 (1-255)"},
        {"badguid.topo", "8: bad GUID 'zz(a01)'"},
        {"mixed.topo", "13: -p ports report line in a topology dump"},
        {"p-badspeed.txt", "1: unknown link speed '4x ?\?\?'"},
        {"p-truncated.txt", "2: port 1 of \"H-0000000000000b02\": peer GUID 0x0000000000000a01 is not "
                            "defined (truncated dump?)"},
        {"ibsim-badmask.net", "2: unknown link speed: bad ibsim width/speed mask w=99 s=0"},
    };
    char rel[128], path[4096], want[8192];
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tm_net *net;
        tm_err err;
        snprintf(rel, sizeof rel, "bad/ib/%s", cases[i].file);
        snprintf(path, sizeof path, "%s", TEST_DATA(rel));
        err = try_read(path, NULL, &net);
        snprintf(want, sizeof want, "%s:%s", path, cases[i].msg);
        if (err != TM_EINPUT || strcmp(tm_ctx_errmsg(ctx), want) != 0)
            fail_msg("%s: got %d '%s'\n  want '%s'", cases[i].file, (int)err, tm_ctx_errmsg(ctx), want);
        assert_null(net);
    }
}

static void test_degenerate_example(void **state)
{
    const char *path = REAL_DATA("data/ibnetdiscover/topograph/example-bad.out");
    char p[4096], want[8192];
    tm_net *net;
    (void)state;
    snprintf(p, sizeof p, "%s", path);
    assert_int_equal(try_read(p, NULL, &net), TM_EINPUT);
    snprintf(want, sizeof want, "%s:10: no InfiniBand links found (Ca \"H-b8e92403009ca838\" "
                                "\"dgx-gb200-n01-c1 HCA-1\" has no connected port)", p);
    assert_string_equal(tm_ctx_errmsg(ctx), want);
}

static void test_inline_errors(void **state)
{
    (void)state;
    read_text("Switch 8 \"sw\"\n[1] \"h\"[1] q=3\nHca 1 \"h\"\n[1] \"sw\"[1]\n", NULL, TM_EINPUT,
              "mem:2: malformed port line: unexpected text 'q=3'");
    read_text("Switch 8 \"sw\"\n[x] \"h\"[1]\n", NULL, TM_EINPUT,
              "mem:2: malformed port line: expected [port]");
    read_text("Switch 8 \"sw\"\n[1] h[1]\n", NULL, TM_EINPUT,
              "mem:2: malformed port line: expected a quoted peer id");
    read_text("Switch 8 \"sw\"\n[1] \"h\"[0]\n", NULL, TM_EINPUT,
              "mem:2: bad port number 0 for peer \"h\"");
    read_text("Switch 8 \"sw\" # \"unterminated\n", NULL, TM_EINPUT,
              "mem:1: malformed node header: unterminated description");
    read_text("Switch 8 \"sw\" junk\n", NULL, TM_EINPUT,
              "mem:1: malformed node header: unexpected text 'junk'");
    read_text("Switch 8 \"sw\"\n[1] \"sw\"[2]\n[2] \"sw\"[1]\n", NULL, TM_EINPUT,
              "mem:3: no InfiniBand links found (only switch self-loops and links to SHARP nodes)");
    read_text("Switch 8 \"sw\"\n[1] \"h\"[1]\n[1] \"h\"[1]\nHca 1 \"h\"\n[1] \"sw\"[1]\n", NULL,
              TM_EINPUT, "mem:3: port 1 of \"sw\" listed twice (also at line 2)");
    read_text("SW 1 1 0x0000000000000001 4x EDR - CA 2 1 0x0000000000000002 ( 'sw' - 'h' )\n"
              "CA 2 1 0x0000000000000001 4x EDR - SW 1 1 0x0000000000000001 ( 'h' - 'sw' )\n",
              NULL, TM_EINPUT, "mem:2: GUID 0x0000000000000001 is a CA here but a switch at line 1");
    read_text("SW 1 1 0x0000000000000001 4x EDR - CA 2 1 0x0000000000000002 ( 'sw'\n", NULL,
              TM_EINPUT, "mem:1: malformed -p ports line: expected ( 'desc' - 'peer desc' )");
}

/* A CA without links in a dump that has links (a host whose cable is
 * down): read, accepted, and a part of its own. */
static void test_isolated_ca(void **state)
{
    tm_net *net;
    (void)state;
    net = read_text("Switch 8 \"sw\"\n[1] \"h1\"[1]\n[2] \"h2\"[1]\n"
                    "Ca 1 \"h1\"\n[1] \"sw\"[1]\nCa 1 \"h2\"\n[1] \"sw\"[2]\n"
                    "Ca 2 \"lonely\" # \"node9 HCA-1\"\n",
                    NULL, TM_EOK, NULL);
    assert_int_equal(tm_net_n_hosts(net), 3);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_net_check(ctx, net));
    assert_int_equal(tm_net_n_parts(net), 2);
    assert_int_not_equal(tm_net_part(net, tm_net_find(net, "h1")),
                         tm_net_part(net, tm_net_find(net, "node9")));
    tm_net_free(net);
}

/* -p: an unconnected CA port (here of a second HCA without hostname) is
 * only a port, not an isolated host. */
static void test_ports_unconnected_ca(void **state)
{
    tm_net *net;
    (void)state;
    net = read_text("CA     1  1 0x0000000000000b02 4x EDR - SW     2  1 0x0000000000000a01 "
                    "( 'n1 HCA-1' - 'MF0;sw1:X/U1' )\n"
                    "CA     0  1 0x0000000000000c02 4x ???                                    "
                    "'MT4123 ConnectX6 Mellanox Technologies'\n"
                    "SW     2  2 0x0000000000000a01 4x SDR                                    "
                    "'MF0;sw1:X/U1'\n"
                    "SW     2  1 0x0000000000000a01 4x EDR - CA     1  1 0x0000000000000b02 "
                    "( 'MF0;sw1:X/U1' - 'n1 HCA-1' )\n",
                    NULL, TM_EOK, NULL);
    check_net(net, 1, 1, 1, "100:1");
    assert_int_equal(cables_between(net, "n1", "sw1", 100), 1);
    assert_null(strstr(warnings, "no hostname"));
    tm_net_free(net);
}

/* Deterministic byte mutations of a valid dump: the reader must either
 * succeed or fail with TM_EINPUT, never crash (run under ASan by make test). */
static void test_mutations(void **state)
{
    char *orig, *buf;
    size_t len;
    FILE *f = fopen(TEST_DATA("ib/quirks.topo"), "r");
    uint64_t x = 88172645463325252ULL;
    static const char alphabet[] = "[]()\"#\t\n x0123456789abcdefSHCaRt-=?";
    (void)state;
    assert_non_null(f);
    orig = calloc(1, 65536);
    len = fread(orig, 1, 65535, f);
    fclose(f);
    buf = malloc(len + 1);
    for (int iter = 0; iter < 2000; iter++) {
        tm_net *net;
        tm_err err;
        FILE *m;
        memcpy(buf, orig, len + 1);
        for (int k = 0; k < 1 + iter % 6; k++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            buf[x % len] = alphabet[(x >> 32) % (sizeof alphabet - 1)];
        }
        m = fmemopen(buf, len, "r");
        assert_tm_ok(ctx, tm_net_new(ctx, &net));
        err = tm_ibnet_read(ctx, m, "mut", NULL, net);
        fclose(m);
        if (err != TM_EOK && err != TM_EINPUT)
            fail_msg("iteration %d: error %d: %s", iter, (int)err, tm_ctx_errmsg(ctx));
        if (err)
            assert_non_null(strstr(tm_ctx_errmsg(ctx), "mut:"));
        tm_net_free(net);
    }
    free(buf);
    free(orig);
}

/* ---- writer ---------------------------------------------------------------- */

static tm_net *round_trip(const tm_net *net, const tm_ibnet_opts *o, char **text)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    tm_net *back;
    warnings[0] = '\0';
    assert_tm_ok(ctx, tm_ibnet_write(ctx, net, f));
    fclose(f);
    snprintf(write_warnings, sizeof write_warnings, "%s", warnings);
    back = read_text(buf, o, TM_EOK, NULL);
    if (text)
        *text = buf;
    else
        free(buf);
    return back;
}

static void test_round_trip_real(void **state)
{
    static const char *files[] = {
        "data/ibnetdiscover/jabl_ibtopotool/1.topo", "data/ibnetdiscover/jabl_ibtopotool/3.topo",
        "data/ibnetdiscover/synthetic/k-4-n-3-Full.topo", "data/ibnetdiscover/psmn_X5/X5.topofile",
        "data/ibnetdiscover_p/plafrim/ib-subnet-fe80_0000_0000_0000.txt",
        "data/ibnetdiscover_p/plafrim2/ib-subnet-fe80_0000_0000_0001.txt",
        "docs/samples/ibsim-2level.net"};
    (void)state;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        tm_net *net = read_ok(REAL_DATA(files[i]), NULL), *back = round_trip(net, NULL, NULL);
        assert_same_net(net, back);
        for (int32_t v = 0; v < tm_net_n_vertices(net); v++)
            if (tm_net_guid(net, v))
                assert_int_equal(tm_net_guid(net, v), tm_net_guid(back, v));
        tm_net_free(back);
        tm_net_free(net);
    }
    {   /* quirks: descriptions, GUIDs, CA-CA link, router as a switch */
        tm_net *net = read_ok(TEST_DATA("ib/quirks.topo"), NULL), *back;
        char *text;
        back = round_trip(net, NULL, &text);
        assert_same_net(net, back);
        assert_non_null(strstr(text, "Switch\t1 \"S-0000000000000f01\"\t\t# \"router1\""));
        assert_non_null(strstr(text, "\"MF0;leaf01:MQM8700/U1\" lid 0 12xQDR"));
        assert_string_equal(tm_net_desc(back, find(back, "S-0000000000000a02")), "Voltaire 4036 # spine");
        free(text);
        tm_net_free(back);
        tm_net_free(net);
    }
    {   /* a dump without tokens stays without tokens (capacity 1) */
        tm_net *net = read_ok(TEST_DATA("ib/notoken.topo"), NULL), *back;
        char *text;
        back = round_trip(net, NULL, &text);
        assert_same_net(net, back);
        assert_null(strstr(text, "SDR"));
        free(text);
        tm_net_free(back);
        tm_net_free(net);
    }
}

static void test_writer_built_net(void **state)
{
    tm_net *net, *back;
    int32_t sw, s2, a, b, c;
    char *text;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "node2", TM_VERTEX_HOST, 1, &b));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "node10", TM_VERTEX_HOST, 1, &a));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "top", TM_VERTEX_SWITCH, 0, &s2));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "edge", TM_VERTEX_SWITCH, 0, &sw));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, a, sw, 56, NULL));  /* no exact token */
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, b, sw, 100, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, sw, s2, 400, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, sw, s2, 400, &c));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, sw, s2, 8, NULL));
    tm_net_set_cable_enabled(net, c, false); /* failed cables are not written */
    warnings[0] = '\0';
    back = round_trip(net, NULL, &text);
    assert_non_null(strstr(write_warnings, "capacity 56 has no InfiniBand width x speed; written as 4xFDR (54.56)"));
    assert_non_null(strstr(text, "switchguid=0x7000000000000400(7000000000000400)"));
    assert_non_null(strstr(text, "Ca\t1 \"H-7000000000000100\"\t\t# \"node2 HCA-1\""));
    assert_non_null(strstr(text, "lid 0 4xNDR"));
    assert_non_null(strstr(text, "lid 0 4xSDR"));
    check_net(back, 2, 2, 4, "8:1 54.56:1 100:1 400:1");
    /* read back in natural order: node2 before node10, edge before top */
    assert_string_equal(tm_net_name(back, 0), "node2");
    assert_string_equal(tm_net_name(back, 1), "node10");
    assert_string_equal(tm_net_name(back, 2), "edge");
    free(text);
    tm_net_free(back);
    tm_net_free(net);

    /* names that a dump cannot carry; too many ports */
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "my host", TM_VERTEX_HOST, 1, &a));
    {
        FILE *f = fopen("/dev/null", "w");
        assert_tm_error(ctx, tm_ibnet_write(ctx, net, f), TM_EINPUT,
                        "vertex 'my host' cannot be written to an ibnetdiscover dump");
        fclose(f);
    }
    tm_net_free(net);
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "big", TM_VERTEX_SWITCH, 0, &sw));
    for (int i = 0; i < 256; i++) {
        char name[16];
        snprintf(name, sizeof name, "h%d", i);
        assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, name, TM_VERTEX_HOST, 1, &a));
        assert_tm_ok(ctx, tm_net_add_cable(ctx, net, a, sw, 100, NULL));
    }
    {
        FILE *f = fopen("/dev/null", "w");
        assert_tm_error(ctx, tm_ibnet_write(ctx, net, f), TM_EINPUT,
                        "vertex 'big' has 256 cables; an InfiniBand node has at most 255 ports");
        fclose(f);
    }
    tm_net_free(net);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Same vertices by name and kind, same multiset of cables (names, capacity),
 * whatever the order. */
static void assert_equiv_net(const tm_net *x, const tm_net *y)
{
    int32_t nc = tm_net_n_cables(x);
    char **cx = calloc((size_t)nc + 1, sizeof *cx), **cy = calloc((size_t)nc + 1, sizeof *cy);
    assert_int_equal(tm_net_n_vertices(x), tm_net_n_vertices(y));
    assert_int_equal(nc, tm_net_n_cables(y));
    for (int32_t v = 0; v < tm_net_n_vertices(x); v++)
        assert_int_equal(tm_net_kind(x, v), tm_net_kind(y, find(y, tm_net_name(x, v))));
    for (int k = 0; k < 2; k++) {
        const tm_net *n = k ? y : x;
        char **out = k ? cy : cx;
        for (int32_t c = 0; c < nc; c++) {
            int32_t a, b;
            const char *p, *q;
            tm_net_cable(n, c, &a, &b);
            p = tm_net_name(n, a);
            q = tm_net_name(n, b);
            if (strcmp(p, q) > 0) {
                const char *t = p;
                p = q;
                q = t;
            }
            out[c] = malloc(strlen(p) + strlen(q) + 40);
            sprintf(out[c], "%s|%s|%.6g", p, q, tm_net_capacity(n, c));
        }
        qsort(out, (size_t)nc, sizeof *out, cmp_str);
    }
    for (int32_t c = 0; c < nc; c++) {
        assert_string_equal(cx[c], cy[c]);
        free(cx[c]);
        free(cy[c]);
    }
    free(cx);
    free(cy);
}

/* Generated networks written as dumps and read back (fat-trees are fed
 * back to topomap that way); direct networks become CA-CA links. */
static void test_round_trip_generated(void **state)
{
    static const char *specs[] = {
        "fattree:k=4,n=3", "clos:leaves=4,hosts_per_leaf=8,spines=2,uplinks=2,cap=200",
        "clos3:pods=2,leaves=2,hosts_per_leaf=4,cap=100", "torus:4x4x3,cap=100", "hypercube:4,cap=25",
        "dragonfly:h=2,cap=100"};
    (void)state;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        tm_net *net, *back;
        assert_tm_ok(ctx, tm_net_new(ctx, &net));
        assert_tm_ok(ctx, tm_gen_build(ctx, specs[i], NULL, net));
        back = round_trip(net, NULL, NULL);
        assert_equiv_net(net, back);
        assert_tm_ok(ctx, tm_net_finalize(ctx, back));
        assert_tm_ok(ctx, tm_net_check(ctx, back));
        tm_net_free(back);
        tm_net_free(net);
    }
}

/* A two-level fat-tree: 100 leaves x 40 hosts, 40 spines, one cable per
 * leaf-spine pair (4,000 hosts, 8,000 cables), written as a dump and read
 * back; prints the load time (the target is < 0.3 s, not asserted here:
 * sanitizer builds are several times slower). */
static void test_large_dump(void **state)
{
    enum { LEAVES = 100, PER_LEAF = 40, SPINES = 40 };
    tm_net *net;
    int32_t spine0, leaf0, h;
    char name[32], *buf = NULL;
    size_t len = 0;
    FILE *f;
    double best = 1e9;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    for (int s = 0; s < SPINES; s++) {
        snprintf(name, sizeof name, "spine%02d", s);
        assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, name, TM_VERTEX_SWITCH, 0, s ? NULL : &spine0));
    }
    for (int l = 0; l < LEAVES; l++) {
        snprintf(name, sizeof name, "leaf%03d", l);
        assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, name, TM_VERTEX_SWITCH, 0, &leaf0));
        for (int s = 0; s < SPINES; s++)
            assert_tm_ok(ctx, tm_net_add_cable(ctx, net, leaf0, spine0 + s, 200, NULL));
        for (int k = 0; k < PER_LEAF; k++) {
            snprintf(name, sizeof name, "cn%04d", l * PER_LEAF + k + 1);
            assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, name, TM_VERTEX_HOST, 1, &h));
            assert_tm_ok(ctx, tm_net_add_cable(ctx, net, h, leaf0, 200, NULL));
        }
    }
    f = open_memstream(&buf, &len);
    assert_tm_ok(ctx, tm_ibnet_write(ctx, net, f));
    fclose(f);
    tm_net_free(net);
    for (int rep = 0; rep < 3; rep++) {
        double t0 = now();
        f = tm_test_memfile(buf);
        assert_tm_ok(ctx, tm_net_new(ctx, &net));
        assert_tm_ok(ctx, tm_ibnet_read(ctx, f, "fat-tree", NULL, net));
        fclose(f);
        t0 = now() - t0;
        if (t0 < best)
            best = t0;
        if (rep == 2) {
            check_net(net, LEAVES * PER_LEAF, LEAVES + SPINES, LEAVES * (PER_LEAF + SPINES), "200:8000");
            assert_string_equal(tm_net_name(net, 0), "cn0001");
        }
        tm_net_free(net);
    }
    printf("# 4,000-host fat-tree dump (%zu bytes): best load time %.3f s\n", len, best);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jabl_dumps),
        cmocka_unit_test(test_synthetic_fat_tree),
        cmocka_unit_test(test_ports_reports),
        cmocka_unit_test(test_ibsim_net_files),
        cmocka_unit_test(test_sample_forms_agree),
        cmocka_unit_test(test_psmn_x5),
        cmocka_unit_test(test_quirks),
        cmocka_unit_test(test_nodemap_lookup),
        cmocka_unit_test(test_nodemap_errors),
        cmocka_unit_test(test_speed_tokens),
        cmocka_unit_test(test_missing_tokens),
        cmocka_unit_test(test_ibsim_syntax),
        cmocka_unit_test(test_names_and_clashes),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_degenerate_example),
        cmocka_unit_test(test_inline_errors),
        cmocka_unit_test(test_isolated_ca),
        cmocka_unit_test(test_ports_unconnected_ca),
        cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_round_trip_real),
        cmocka_unit_test(test_round_trip_generated),
        cmocka_unit_test(test_writer_built_net),
        cmocka_unit_test(test_large_dump),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
