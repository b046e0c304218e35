/* test_levels.c - detected network hierarchy (tm_net_levels_detect): exact
 * groups of small fat-trees, Clos networks, a dragonfly and PERCS checked
 * by hand from the generators' wiring, grids, one-switch networks, the
 * PSMN X5 fabric against the site's Slurm topology.conf, hand-built
 * corner cases, the invariants on every generator and every real dump,
 * generated networks read back from an ibnetdiscover dump, and the
 * detection time on the two large networks of the brief. */
#include <dirent.h>
#include <sys/stat.h>
#include <time.h>

#include "test_fixtures.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A generator spec or a file, finalized and checked. */
static tm_net *load(const char *spec, const char *nodemap)
{
    tm_topo_opts o = TM_TOPO_OPTS_INIT;
    tm_net *net;
    o.node_name_map = nodemap;
    assert_tm_ok(ctx, tm_topology_load(ctx, spec, &o, &net));
    return net;
}

/* Every invariant of levels.h. */
static void check_invariants(const tm_net *net, const tm_net_levels *lv, const char *what)
{
    int32_t n = tm_net_n_vertices(net), hosts = tm_net_n_hosts(net);
    int32_t *up = NULL, *count;
    if (lv->n_levels < 0 || lv->n_levels > TM_NET_MAX_LEVELS || !lv->kind[0])
        fail_msg("%s: bad level count %d or kind", what, lv->n_levels);
    for (int l = 0; l < lv->n_levels; l++) {
        int32_t below = l ? lv->n_groups[l - 1] : hosts;
        if (!lv->group[l] || !lv->name[l][0])
            fail_msg("%s: level %d has no groups or name", what, l);
        if (lv->n_groups[l] < 2 || lv->n_groups[l] >= below)
            fail_msg("%s: level %d has %d groups, %d below", what, l, lv->n_groups[l], below);
        count = calloc((size_t)lv->n_groups[l], sizeof *count);
        up = l ? malloc((size_t)below * sizeof *up) : NULL;
        for (int32_t i = 0; l && i < below; i++)
            up[i] = -1;
        for (int32_t v = 0; v < n; v++) {
            int32_t grp = lv->group[l][v];
            if (tm_net_kind(net, v) == TM_VERTEX_SWITCH) {
                if (grp != -1)
                    fail_msg("%s: switch %s in group %d", what, tm_net_name(net, v), grp);
                continue;
            }
            if (grp < 0 || grp >= lv->n_groups[l])
                fail_msg("%s: host %s has group %d at level %d", what, tm_net_name(net, v), grp, l);
            count[grp]++;
            if (l && up[lv->group[l - 1][v]] < 0)
                up[lv->group[l - 1][v]] = grp;
            else if (l && up[lv->group[l - 1][v]] != grp)
                fail_msg("%s: level %d does not nest in level %d", what, l, l - 1);
        }
        for (int32_t i = 0; i < lv->n_groups[l]; i++)
            if (!count[i])
                fail_msg("%s: level %d group %d is empty", what, l, i);
        free(count);
        free(up);
    }
    for (int l = 0; l <= TM_NET_MAX_LEVELS; l++)
        if ((l > lv->n_levels && lv->hops[l] != -1) || (lv->hops[l] < 0 && lv->hops[l] != -1))
            fail_msg("%s: hops[%d] = %g", what, l, lv->hops[l]);
}

static void detect(const tm_net *net, tm_net_levels *lv, const char *what)
{
    assert_tm_ok(ctx, tm_net_levels_detect(ctx, net, lv));
    check_invariants(net, lv, what);
}

/* Level l puts host vertex v (hosts are vertices 0..H-1 in generated
 * networks) in group v / per; expects `groups` groups. */
static void expect_blocks(const tm_net *net, const tm_net_levels *lv, int l, const char *name,
                          int32_t groups, int32_t per)
{
    assert_true(l < lv->n_levels);
    assert_string_equal(lv->name[l], name);
    assert_int_equal(lv->n_groups[l], groups);
    for (int32_t v = 0; v < tm_net_n_hosts(net); v++)
        if (lv->group[l][v] != v / per)
            fail_msg("level %s: host %d in group %d, want %d", name, v, lv->group[l][v], v / per);
}

static void expect_hops(const tm_net_levels *lv, const double *hops)
{
    for (int l = 0; l <= lv->n_levels; l++)
        if (lv->hops[l] != hops[l])
            fail_msg("hops[%d] = %g, want %g", l, lv->hops[l], hops[l]);
}

static void test_fattree(void **state)
{
    tm_net_levels lv;
    tm_net *net;
    (void)state;
    /* k=2, n=3: leaf j holds hosts 2j, 2j+1; leaves 2i, 2i+1 reach the
     * same two level-2 switches (digit of weight 1 changes): pods of 4 */
    net = load("fattree:k=2,n=3", NULL);
    detect(net, &lv, "fattree:k=2,n=3");
    assert_string_equal(lv.kind, "fat-tree");
    assert_int_equal(lv.n_levels, 2);
    expect_blocks(net, &lv, 0, "leaf", 4, 2);
    expect_blocks(net, &lv, 1, "pod", 2, 4);
    for (int32_t v = 8; v < tm_net_n_vertices(net); v++)
        assert_int_equal(lv.group[1][v], -1);
    expect_hops(&lv, (const double[]){2, 4, 6});
    tm_net_levels_release(&lv);
    tm_net_levels_release(&lv); /* twice is harmless */
    tm_net_free(net);

    /* k=4, n=3 (docs/generators.md): leaf 5 goes up to sw-l2-004..007
     * like leaves 4, 6, 7: 4 pods of 4 leaves = 16 consecutive hosts */
    net = load("fattree:k=4,n=3", NULL);
    detect(net, &lv, "fattree:k=4,n=3");
    assert_int_equal(lv.n_levels, 2);
    expect_blocks(net, &lv, 0, "leaf", 16, 4);
    expect_blocks(net, &lv, 1, "pod", 4, 16);
    expect_hops(&lv, (const double[]){2, 4, 6});
    tm_net_levels_release(&lv);
    tm_net_free(net);

    /* k=4, n=4: three levels below the top */
    net = load("fattree:k=4,n=4", NULL);
    detect(net, &lv, "fattree:k=4,n=4");
    assert_int_equal(lv.n_levels, 3);
    expect_blocks(net, &lv, 0, "leaf", 64, 4);
    expect_blocks(net, &lv, 1, "pod", 16, 16);
    expect_blocks(net, &lv, 2, "superpod", 4, 64);
    expect_hops(&lv, (const double[]){2, 4, 6, 8});
    tm_net_levels_release(&lv);
    tm_net_free(net);

    /* k=2, n=10: nine levels below the top, only the lowest 8 are kept and
     * the 8th level's 4 groups become the top (at 18 or 20 hops: mixed) */
    net = load("fattree:k=2,n=10", NULL);
    detect(net, &lv, "fattree:k=2,n=10");
    assert_int_equal(lv.n_levels, TM_NET_MAX_LEVELS);
    expect_blocks(net, &lv, 0, "leaf", 512, 2);
    expect_blocks(net, &lv, 2, "superpod", 128, 8);
    expect_blocks(net, &lv, 7, "tier8", 4, 256);
    assert_true(lv.hops[7] == 16 && lv.hops[8] == -1);
    tm_net_levels_release(&lv);
    tm_net_free(net);
}

static void test_clos(void **state)
{
    tm_net_levels lv;
    tm_net *net;
    (void)state;
    /* 2 levels, 2 parallel cables from every leaf to every spine, 4:1
     * tapering: every leaf reaches all spines, so one level */
    net = load("clos:leaves=8,hosts_per_leaf=16,spines=4,uplinks=8,hostcap=100,upcap=50", NULL);
    detect(net, &lv, "clos");
    assert_string_equal(lv.kind, "fat-tree");
    assert_int_equal(lv.n_levels, 1);
    expect_blocks(net, &lv, 0, "leaf", 8, 16);
    expect_hops(&lv, (const double[]){2, 4});
    tm_net_levels_release(&lv);
    tm_net_free(net);

    /* 3 levels tapered 3:1 at the leaves (6 hosts, 2 uplinks) and 2:1 at
     * the spines (4 down, 2 up to one super-spine per plane): pods are the
     * 4 leaves of a pod, 24 consecutive hosts */
    net = load("clos3:pods=3,leaves=4,hosts_per_leaf=6,uplinks=2,spines=2,spine_uplinks=2,"
               "supers=1",
               NULL);
    detect(net, &lv, "clos3 tapered");
    assert_int_equal(lv.n_levels, 2);
    expect_blocks(net, &lv, 0, "leaf", 12, 6);
    expect_blocks(net, &lv, 1, "pod", 3, 24);
    expect_hops(&lv, (const double[]){2, 4, 6});
    tm_net_levels_release(&lv);
    tm_net_free(net);

    /* one leaf under the spines: every host on one switch */
    net = load("clos:leaves=1,hosts_per_leaf=5", NULL);
    detect(net, &lv, "clos one leaf");
    assert_string_equal(lv.kind, "flat");
    assert_int_equal(lv.n_levels, 0);
    tm_net_levels_release(&lv);
    tm_net_free(net);
}

static void test_dragonfly(void **state)
{
    tm_net_levels lv;
    tm_net *net;
    (void)state;
    /* h=2: a=4 routers of p=2 hosts per group, g=9 groups */
    net = load("dragonfly:h=2", NULL);
    detect(net, &lv, "dragonfly:h=2");
    assert_string_equal(lv.kind, "dragonfly");
    assert_int_equal(lv.n_levels, 2);
    expect_blocks(net, &lv, 0, "router", 36, 2);
    expect_blocks(net, &lv, 1, "group", 9, 8);
    /* host-router-router-host inside a group; 3 to 5 hops across groups */
    expect_hops(&lv, (const double[]){2, 3, -1});
    tm_net_levels_release(&lv);
    tm_net_free(net);

    /* one host per router: the router level equals single hosts, dropped */
    net = load("dragonfly:a=4,p=1,h=2,g=5", NULL);
    detect(net, &lv, "dragonfly p=1");
    assert_int_equal(lv.n_levels, 1);
    expect_blocks(net, &lv, 0, "group", 5, 4);
    tm_net_levels_release(&lv);
    tm_net_free(net);

    /* two groups of 4 routers joined by 8 global cables */
    net = load("dragonfly:a=4,p=3,h=2,g=2", NULL);
    detect(net, &lv, "dragonfly g=2");
    assert_string_equal(lv.kind, "dragonfly");
    expect_blocks(net, &lv, 1, "group", 2, 12);
    tm_net_levels_release(&lv);
    tm_net_free(net);
}

static void test_percs(void **state)
{
    tm_net_levels lv;
    tm_net *net;
    (void)state;
    /* host i = 32 s + 8 d + j: drawers of 8 (LL, 24), supernodes of 32 */
    net = load("percs:supernodes=4", NULL);
    detect(net, &lv, "percs:supernodes=4");
    assert_string_equal(lv.kind, "percs");
    assert_int_equal(lv.n_levels, 2);
    expect_blocks(net, &lv, 0, "drawer", 16, 8);
    expect_blocks(net, &lv, 1, "supernode", 4, 32);
    expect_hops(&lv, (const double[]){1, 1, -1});
    tm_net_levels_release(&lv);
    tm_net_free(net);

    /* shuffled D links and 2 parallel D links per pair change nothing */
    net = load("percs:supernodes=9,dlinks=1,dseed=7", NULL);
    detect(net, &lv, "percs dseed");
    expect_blocks(net, &lv, 0, "drawer", 36, 8);
    expect_blocks(net, &lv, 1, "supernode", 9, 32);
    tm_net_levels_release(&lv);
    tm_net_free(net);

    /* one capacity for all links: drawers are invisible (a supernode is a
     * complete graph), only supernodes remain */
    net = load("percs:supernodes=3,cap=5", NULL);
    detect(net, &lv, "percs cap=5");
    assert_string_equal(lv.kind, "percs");
    assert_int_equal(lv.n_levels, 1);
    expect_blocks(net, &lv, 0, "supernode", 3, 32);
    tm_net_levels_release(&lv);
    tm_net_free(net);

    /* one supernode: the supernode level is the top */
    net = load("percs:supernodes=1", NULL);
    detect(net, &lv, "percs:supernodes=1");
    assert_int_equal(lv.n_levels, 1);
    expect_blocks(net, &lv, 0, "drawer", 4, 8);
    tm_net_levels_release(&lv);
    tm_net_free(net);
}

static void test_grids_and_stars(void **state)
{
    static const char *grids[] = {"torus:4x4x4", "torus:3x3x3", "torus:8", "mesh:16x16",
                                  "mesh:2x3x4", "hypercube:6", "torus:3x5,slots=4"};
    tm_net_levels lv;
    tm_net *net;
    (void)state;
    for (size_t i = 0; i < sizeof grids / sizeof *grids; i++) {
        net = load(grids[i], NULL);
        detect(net, &lv, grids[i]);
        if (strcmp(lv.kind, "grid") || lv.n_levels)
            fail_msg("%s: kind %s, %d levels", grids[i], lv.kind, lv.n_levels);
        assert_true(lv.hops[0] == -1);
        tm_net_levels_release(&lv);
        tm_net_free(net);
    }
    /* a star (one switch, 3 hosts, parallel cables) and a 1-level k-ary tree */
    net = load(TEST_DATA("cli/star.graphml"), NULL);
    detect(net, &lv, "star");
    assert_string_equal(lv.kind, "flat");
    assert_int_equal(lv.n_levels, 0);
    assert_true(lv.hops[0] == 2);
    tm_net_levels_release(&lv);
    tm_net_free(net);
    net = load("fattree:k=4,n=1", NULL);
    detect(net, &lv, "fattree:k=4,n=1");
    assert_string_equal(lv.kind, "flat");
    tm_net_levels_release(&lv);
    tm_net_free(net);
}

/* Expands a Slurm hostlist "a[1-3,7],b" into NUL-separated names; returns
 * the count. */
static int expand_hostlist(const char *s, char names[][64], int max)
{
    int n = 0;
    while (*s && n < max) {
        const char *open = NULL, *p = s;
        while (*p && *p != ',' && *p != '[')
            p++;
        if (*p == '[')
            open = p;
        if (!open) {
            snprintf(names[n++], 64, "%.*s", (int)(p - s), s);
            s = *p ? p + 1 : p;
            continue;
        }
        for (p = open + 1; *p && *p != ']' && n < max;) {
            long lo = strtol(p, (char **)&p, 10), hi = lo;
            if (*p == '-')
                hi = strtol(p + 1, (char **)&p, 10);
            for (long k = lo; k <= hi && n < max; k++)
                snprintf(names[n++], 64, "%.*s%ld", (int)(open - s), s, k);
            if (*p == ',')
                p++;
        }
        s = *p ? p + 1 : p;
        if (*s == ',')
            s++;
    }
    return n;
}

static void test_psmn_x5(void **state)
{
    static char names[128][64];
    char path[4096], map[4096], line[4096];
    tm_net_levels lv;
    tm_net *net;
    FILE *conf;
    int leaves = 0, hosts = 0;
    (void)state;
    snprintf(path, sizeof path, "%s", TEST_DATA("../../topologies/psmn-x5/X5.topofile"));
    snprintf(map, sizeof map, "%s", TEST_DATA("../../topologies/psmn-x5/X5.map"));
    net = load(path, map);
    detect(net, &lv, "X5");
    /* 6 leaves with hosts; the 5 site "spines" are reached by overlapping
     * up-sets (one leaf sees only 2 of them), so the leaves form one pod,
     * the top */
    assert_string_equal(lv.kind, "fat-tree");
    assert_int_equal(lv.n_levels, 1);
    assert_string_equal(lv.name[0], "leaf");
    assert_int_equal(lv.n_groups[0], 6);
    assert_true(lv.hops[0] == 2 && lv.hops[1] == 4);

    conf = fopen(REAL_DATA("data/ibnetdiscover/psmn_X5/X5.topology.conf"), "r");
    if (!conf) { /* the site's answer is optional */
        tm_net_levels_release(&lv);
        tm_net_free(net);
        return;
    }
    /* every "SwitchName=S Nodes=list" line of the site is one leaf group */
    while (fgets(line, sizeof line, conf)) {
        char sw[64], list[4000];
        int32_t grp = -1, size = 0;
        int n;
        if (sscanf(line, "SwitchName=%63s Nodes=%3999s", sw, list) != 2)
            continue;
        n = expand_hostlist(list, names, 128);
        for (int i = 0; i < n; i++) {
            int32_t v = tm_net_find(net, names[i]);
            if (v < 0)
                fail_msg("%s: no host %s", sw, names[i]);
            if (grp < 0)
                grp = lv.group[0][v];
            else if (lv.group[0][v] != grp)
                fail_msg("%s: %s is not in the leaf group of %s", sw, names[i], names[0]);
        }
        for (int32_t v = 0; v < tm_net_n_vertices(net); v++)
            size += lv.group[0][v] == grp;
        assert_int_equal(size, n);
        leaves++;
        hosts += n;
    }
    fclose(conf);
    assert_int_equal(leaves, 6);
    assert_int_equal(hosts, 89);
    tm_net_levels_release(&lv);
    tm_net_free(net);
}

/* Hand-built networks: a dual-homed host, a host without a switch, no
 * hosts, an unfinalized network. */
static void test_corner_cases(void **state)
{
    static const char *dual =
        "<graphml><key id='k' for='node' attr.name='kind' attr.type='string'/>"
        "<graph edgedefault='undirected'>"
        "<node id='h0'/><node id='h1'/><node id='h2'/><node id='h3'/>"
        "<node id='la'><data key='k'>switch</data></node>"
        "<node id='lb'><data key='k'>switch</data></node>"
        "<node id='sp'><data key='k'>switch</data></node>"
        "<edge source='h0' target='la'/><edge source='h1' target='lb'/>"
        "<edge source='h1' target='la'/><edge source='h2' target='lb'/>"
        "<edge source='h3' target='lb'/><edge source='la' target='sp'/>"
        "<edge source='lb' target='sp'/></graph></graphml>";
    tm_net_levels lv;
    tm_net *net;
    int32_t s, a, b, c, x;
    (void)state;
    /* h1 is cabled to both leaves: it joins the lowest-id one (la) */
    assert_tm_ok(ctx, tm_test_read_net_text(tm_graphml_read, dual, "dual", &net));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    detect(net, &lv, "dual-homed");
    assert_int_equal(lv.n_levels, 1);
    assert_int_equal(lv.group[0][tm_net_find(net, "h1")], lv.group[0][tm_net_find(net, "h0")]);
    assert_int_equal(lv.group[0][tm_net_find(net, "h2")], lv.group[0][tm_net_find(net, "h3")]);
    assert_int_not_equal(lv.group[0][tm_net_find(net, "h0")], lv.group[0][tm_net_find(net, "h2")]);
    tm_net_levels_release(&lv);
    tm_net_free(net);

    /* c hangs off host b: not a switched network any rule knows */
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "s", TM_VERTEX_SWITCH, 0, &s));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "a", TM_VERTEX_HOST, 1, &a));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "b", TM_VERTEX_HOST, 1, &b));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "c", TM_VERTEX_HOST, 1, &c));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s, a, 1, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s, b, 1, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, b, c, 1, NULL));
    /* not finalized yet: a usage error, and *out still safe to release */
    assert_tm_error(ctx, tm_net_levels_detect(ctx, net, &lv), TM_EUSAGE, "finalized");
    tm_net_levels_release(&lv);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    detect(net, &lv, "host behind a host");
    assert_string_equal(lv.kind, "none");
    assert_int_equal(lv.n_levels, 0);
    tm_net_levels_release(&lv);
    tm_net_free(net);

    /* switches only */
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "s", TM_VERTEX_SWITCH, 0, &s));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "t", TM_VERTEX_SWITCH, 0, &x));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s, x, 1, NULL));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    detect(net, &lv, "no hosts");
    assert_string_equal(lv.kind, "none");
    tm_net_levels_release(&lv);
    tm_net_free(net);
    tm_net_levels_release(NULL);
}

/* The invariants on every generator family, with odd shapes too. */
static void test_invariants_generators(void **state)
{
    static const char *specs[] = {
        "fattree:k=3,n=3", "fattree:k=5,n=2", "fattree:k=8,n=3", "fattree:k=2,n=1",
        "clos:leaves=5,hosts_per_leaf=3,uplinks=4,spines=2",
        "clos3:pods=5,leaves=3,hosts_per_leaf=2",
        "clos3:pods=2,leaves=2,hosts_per_leaf=4,spines=4,spine_uplinks=6,supers=3",
        "dragonfly:h=1", "dragonfly:h=3", "dragonfly:a=6,p=2,h=1,g=4", "dragonfly:a=3,p=2,h=3",
        "percs:supernodes=2", "percs:supernodes=17,dlinks=2,dseed=1", "torus:5x4x3",
        "mesh:7", "hypercube:1", "hypercube:9", "torus:2x2x2,slots=2",
    };
    tm_net_levels lv;
    (void)state;
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        tm_net *net = load(specs[i], NULL);
        detect(net, &lv, specs[i]);
        tm_net_levels_release(&lv);
        tm_net_free(net);
    }
}

/* Loads every readable file under dir (recursively) and checks the
 * invariants; returns the number of networks checked. */
static int check_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (!d)
        return 0;
    while ((e = readdir(d))) {
        char path[4096];
        struct stat st;
        tm_topo_opts o = TM_TOPO_OPTS_INIT;
        tm_net_levels lv;
        tm_net *net;
        if (e->d_name[0] == '.')
            continue;
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path ||
            stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            n += check_dir(path);
            continue;
        }
        /* .map, .conf, .spine and the degenerate dump are not networks */
        if (tm_topology_load(ctx, path, &o, &net) != TM_EOK)
            continue;
        detect(net, &lv, path);
        print_message("  %-70s %-9s %d level(s)\n", path, lv.kind, lv.n_levels);
        tm_net_levels_release(&lv);
        tm_net_free(net);
        n++;
    }
    closedir(d);
    return n;
}

static void test_invariants_real_dumps(void **state)
{
    char data[4096];
    DIR *d;
    struct dirent *e;
    int n = 0;
    (void)state;
    snprintf(data, sizeof data, "%s", REAL_DATA("data"));
    d = opendir(data);
    if (!d)
        fail_msg("cannot open %s", data);
    while ((e = readdir(d))) {
        char path[4096];
        if (strncmp(e->d_name, "ibnetdiscover", 13) != 0 ||
            snprintf(path, sizeof path, "%s/%s", data, e->d_name) >= (int)sizeof path)
            continue;
        n += check_dir(path);
    }
    closedir(d);
    /* 4 jabl + X5 + synthetic + 5 ibsim + 3 ports reports (tests/data/real) */
    assert_int_equal(n, 14);
}

/* Real dumps with a known answer (docs/hierarchy.md table). */
static void test_real_dumps(void **state)
{
    static const struct {
        const char *path, *kind;
        int levels;
        int32_t groups[2];
    } cases[] = {
        {"data/ibnetdiscover_p/plafrim/ib-subnet-fe80_0000_0000_0000.txt", "fat-tree", 2, {7, 4}},
        {"data/ibnetdiscover_p/plafrim2/ib-subnet-fe80_0000_0000_0000.txt", "fat-tree", 1, {5}},
        {"data/ibnetdiscover_p/plafrim2/ib-subnet-fe80_0000_0000_0001.txt", "flat", 0, {0}},
        {"data/ibnetdiscover/synthetic/k-4-n-3-Full.topo", "fat-tree", 2, {32, 8}},
        {"data/ibnetdiscover/jabl_ibtopotool/3.topo", "fat-tree", 1, {2}},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        tm_net_levels lv;
        tm_net *net = load(REAL_DATA(cases[i].path), NULL);
        detect(net, &lv, cases[i].path);
        assert_string_equal(lv.kind, cases[i].kind);
        assert_int_equal(lv.n_levels, cases[i].levels);
        for (int l = 0; l < lv.n_levels; l++)
            assert_int_equal(lv.n_groups[l], cases[i].groups[l]);
        tm_net_levels_release(&lv);
        tm_net_free(net);
    }
}

/* Same partition at every level, matching hosts by name (a bijection of
 * group ids, since ids follow host order and orders may differ). */
static void expect_same_levels(const tm_net *a, const tm_net_levels *la, const tm_net *b,
                               const tm_net_levels *lb)
{
    assert_string_equal(la->kind, lb->kind);
    assert_int_equal(la->n_levels, lb->n_levels);
    for (int l = 0; l < la->n_levels; l++) {
        int32_t k = la->n_groups[l], *fwd = malloc((size_t)k * sizeof *fwd);
        int32_t *bwd = malloc((size_t)k * sizeof *bwd);
        assert_int_equal(lb->n_groups[l], k);
        for (int32_t i = 0; i < k; i++)
            fwd[i] = bwd[i] = -1;
        for (int32_t v = 0; v < tm_net_n_vertices(a); v++) {
            int32_t w, x, y;
            if (tm_net_kind(a, v) != TM_VERTEX_HOST)
                continue;
            w = tm_net_find(b, tm_net_name(a, v));
            assert_true(w >= 0);
            x = la->group[l][v];
            y = lb->group[l][w];
            if ((fwd[x] >= 0 && fwd[x] != y) || (bwd[y] >= 0 && bwd[y] != x))
                fail_msg("level %s: host %s moved", la->name[l], tm_net_name(a, v));
            fwd[x] = y;
            bwd[y] = x;
        }
        free(fwd);
        free(bwd);
    }
}

/* Detection needs neither generator metadata nor names: a generated
 * network written as an ibnetdiscover dump and read back (new vertex
 * order, switch names from GUIDs) has the same hierarchy. */
static void test_round_trip(void **state)
{
    static const char *specs[] = {"fattree:k=4,n=3", "dragonfly:h=2",
                                  "clos3:pods=3,leaves=4,hosts_per_leaf=6,uplinks=2,spines=2"};
    (void)state;
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        tm_net *net = load(specs[i], NULL), *back;
        tm_net_levels lv, lb;
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        assert_non_null(f);
        assert_tm_ok(ctx, tm_ibnet_write(ctx, net, f));
        fclose(f);
        assert_tm_ok(ctx, tm_net_new(ctx, &back));
        f = fmemopen(buf, len, "r");
        assert_tm_ok(ctx, tm_ibnet_read(ctx, f, specs[i], NULL, back));
        fclose(f);
        free(buf);
        assert_tm_ok(ctx, tm_net_finalize(ctx, back));
        detect(net, &lv, specs[i]);
        detect(back, &lb, specs[i]);
        expect_same_levels(net, &lv, back, &lb);
        tm_net_levels_release(&lv);
        tm_net_levels_release(&lb);
        tm_net_free(net);
        tm_net_free(back);
    }
}

/* The two large networks of the brief: the levels found (the time is
 * printed, not asserted; the measured times are in docs/hierarchy.md). */
static void test_large(void **state)
{
    static const char *specs[] = {"fattree:k=16,n=4", "percs:supernodes=289"};
    (void)state;
    for (int i = 0; i < 2; i++) {
        tm_net *net = load(specs[i], NULL);
        tm_net_levels lv;
        double t0 = now(), t;
        assert_tm_ok(ctx, tm_net_levels_detect(ctx, net, &lv));
        t = now() - t0;
        print_message("  %-22s %d levels in %.4f s\n", specs[i], lv.n_levels, t);
        assert_int_equal(lv.n_levels, i == 0 ? 3 : 2);
        assert_int_equal(lv.n_groups[lv.n_levels - 1], i == 0 ? 16 : 289);
        tm_net_levels_release(&lv);
        tm_net_free(net);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fattree),
        cmocka_unit_test(test_clos),
        cmocka_unit_test(test_dragonfly),
        cmocka_unit_test(test_percs),
        cmocka_unit_test(test_grids_and_stars),
        cmocka_unit_test(test_psmn_x5),
        cmocka_unit_test(test_corner_cases),
        cmocka_unit_test(test_invariants_generators),
        cmocka_unit_test(test_invariants_real_dumps),
        cmocka_unit_test(test_real_dumps),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_large),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
