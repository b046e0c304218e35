/* test_simgrid.c - the SimGrid platform writer (tm_simgrid_write): one
 * link per cable (parallel cables apart, each its capacity and ends); every
 * route of a single-path routing is the router's path cable for cable
 * (single, dor, ftree, forwarding tables, minhop, updn; generated fabrics
 * with parallel cables, PlaFRIM with its real tables, PSMN X5); a router
 * that splits pairs (ECMP, LMC spreading, multi-rail striping) gets one of
 * its paths per pair, drawn as it splits; valiant refused; each host has
 * its loopback, and a failing export leaves an existing output file
 * untouched; map --format smpi writes one full host name per rank.
 * SimGrid itself loads the platform in tests/cli/t35-simgrid.sh. */
#include <dirent.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "test_fixtures.h"
#include "topomap/sim.h"

/* The platform as parsed and indexed: its cable links checked against the
 * net (one per enabled cable, its capacity and ends), routes by host pair. */
typedef struct plat {
    xmlDocPtr doc;
    xmlNodePtr zone;
    const tm_net *net;
    int32_t nv;
    xmlNodePtr *route; /* [src * nv + dst] */
    int32_t n_cable_links;
} plat;

static char *attr(xmlNodePtr n, const char *name)
{
    return (char *)xmlGetProp(n, BAD_CAST name);
}

static bool is(xmlNodePtr n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* The cable of a link id "L<c>" (-1 if not one). */
static int32_t cable_of(const char *id)
{
    int c, len = 0;
    if (sscanf(id, "L%d%n", &c, &len) != 1 || id[len] != '\0')
        return -1;
    return c;
}

/* A cable link: its ends prop names the cable's vertices in order, its
 * bandwidth is the cable's capacity. */
static void check_cable_link(const tm_net *net, xmlNodePtr l, int32_t c)
{
    int32_t a, b;
    int pa = -1, pb = -1;
    char *bw = attr(l, "bandwidth"), *end = NULL;
    assert_true(c >= 0 && c < tm_net_n_cables(net) && tm_net_cable_enabled(net, c));
    tm_net_cable(net, c, &a, &b);
    for (xmlNodePtr ch = l->children; ch; ch = ch->next)
        if (is(ch, "prop")) {
            char *v = attr(ch, "value");
            assert_int_equal(sscanf(v, "%d %d", &pa, &pb), 2);
            xmlFree(v);
        }
    assert_int_equal(pa, a);
    assert_int_equal(pb, b);
    assert_true(strtod(bw, &end) == tm_net_capacity(net, c));
    assert_string_equal(end, "Gbps");
    xmlFree(bw);
}

static plat parse(const tm_net *net, const char *text)
{
    plat p = {0};
    int32_t nc = tm_net_n_cables(net);
    uint8_t *seen = calloc((size_t)nc + 1, 1);
    p.net = net;
    p.nv = tm_net_n_vertices(net);
    p.route = calloc((size_t)p.nv * (size_t)p.nv, sizeof *p.route);
    p.doc = xmlReadMemory(text, (int)strlen(text), "platform.xml", NULL, XML_PARSE_NONET);
    assert_non_null(p.doc);
    xmlNodePtr root = xmlDocGetRootElement(p.doc);
    assert_string_equal((const char *)root->name, "platform");
    for (p.zone = root->children; p.zone && p.zone->type != XML_ELEMENT_NODE; p.zone = p.zone->next)
        ;
    assert_non_null(p.zone);
    for (xmlNodePtr n = p.zone->children; n; n = n->next) {
        if (is(n, "link")) {
            char *id = attr(n, "id"), *pol = attr(n, "sharing_policy");
            if (strcmp(pol, "SPLITDUPLEX") == 0) {
                int32_t c = cable_of(id);
                check_cable_link(net, n, c);
                assert_false(seen[c]); /* one link per cable */
                seen[c] = 1;
                p.n_cable_links++;
            }
            xmlFree(id);
            xmlFree(pol);
        } else if (is(n, "route")) {
            char *s = attr(n, "src"), *d = attr(n, "dst");
            int32_t vs = tm_net_find(net, s), vd = tm_net_find(net, d);
            assert_true(vs >= 0 && vd >= 0);
            assert_null(p.route[(size_t)vs * p.nv + vd]);
            p.route[(size_t)vs * p.nv + vd] = n;
            xmlFree(s);
            xmlFree(d);
        }
    }
    for (int32_t c = 0; c < nc; c++) /* every enabled cable has its link */
        assert_int_equal(seen[c], tm_net_cable_enabled(net, c));
    free(seen);
    return p;
}

static void plat_free(plat *p)
{
    xmlFreeDoc(p->doc);
    free(p->route);
}

/* The route src -> dst as directed links of the net (2c: the cable's first
 * end to its second, UP; 2c + 1: DOWN), in order; returns their count. */
static int route_links(const plat *p, int32_t src, int32_t dst, int32_t *dl, int max)
{
    xmlNodePtr n = p->route[(size_t)src * p->nv + dst];
    int k = 0;
    if (!n)
        fail_msg("no route %s -> %s", tm_net_name(p->net, src), tm_net_name(p->net, dst));
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (!is(c, "link_ctn"))
            continue;
        char *id = attr(c, "id"), *dir = attr(c, "direction");
        int32_t cab = cable_of(id);
        assert_true(cab >= 0 && k < max);
        assert_true(strcmp(dir, "UP") == 0 || strcmp(dir, "DOWN") == 0);
        dl[k++] = 2 * cab + (strcmp(dir, "DOWN") == 0);
        xmlFree(id);
        xmlFree(dir);
    }
    return k;
}

static int32_t tail_of(const tm_net *net, int32_t l)
{
    int32_t a, b;
    tm_net_cable(net, l / 2, &a, &b);
    return l % 2 ? b : a;
}

static int32_t head_of(const tm_net *net, int32_t l)
{
    int32_t a, b;
    tm_net_cable(net, l / 2, &a, &b);
    return l % 2 ? a : b;
}

/* The router's fraction of the pair on directed link l (0 if none). */
static double frac_on(int32_t n, const int32_t *links, const double *frac, int32_t l)
{
    for (int32_t i = 0; i < n; i++)
        if (links[i] == l)
            return frac[i];
    return 0;
}

/* Every route between the hosts (all hosts if hosts is NULL) against the
 * router `want`: a walk from src to dst over cables the router loads for
 * that pair.  exact: the route is the router's path, cable for cable (the
 * same links, each with the pair's whole traffic).  Otherwise (a router
 * that splits pairs) the route is one of its paths, and over all pairs the
 * number of routes on each directed link is within 4 standard deviations
 * (binomial, + 2) of the sum of the router's fractions on it: the draw
 * follows the split (a draw that always took the first cable would put
 * twice the routes on it, or none).
 * Returns how many pairs the router splits. */
static int32_t check_against(const char *what, const tm_net *net, const char *text,
                             const tm_route *want, const int32_t *hosts, int32_t nh, bool exact)
{
    plat p = parse(net, text);
    const tm_net_csr *g = tm_net_csr_get(net);
    tm_route_pairs *pairs;
    int32_t *all = NULL, *dl = malloc((size_t)g->n * sizeof *dl), split = 0;
    double *drawn = calloc((size_t)g->n_links, sizeof *drawn);
    double *expect = calloc((size_t)g->n_links, sizeof *expect);
    assert_tm_ok(ctx, tm_route_pairs_new(ctx, want, &pairs));
    if (!hosts) {
        all = malloc((size_t)p.nv * sizeof *all);
        nh = 0;
        for (int32_t v = 0; v < p.nv; v++)
            if (tm_net_kind(net, v) == TM_VERTEX_HOST)
                all[nh++] = v;
        hosts = all;
    }
    assert_int_equal(p.n_cable_links, g->n_links / 2);
    for (int32_t i = 0; i < nh; i++)
        for (int32_t j = 0; j < nh; j++) {
            int32_t s = hosts[i], d = hosts[j], n;
            const int32_t *links;
            const double *frac;
            if (s == d)
                continue;
            assert_tm_ok(ctx, tm_route_pair_links(ctx, pairs, s, d, &n, &links, &frac));
            int k = route_links(&p, s, d, dl, g->n);
            assert_true(k > 0);
            assert_int_equal(tail_of(net, dl[0]), s);
            assert_int_equal(head_of(net, dl[k - 1]), d);
            bool one_path = true;
            for (int32_t e = 0; e < n; e++)
                one_path &= frac[e] > 1 - 1e-12;
            split += !one_path;
            if (exact && !one_path)
                fail_msg("%s: the router splits %s -> %s", what, tm_net_name(net, s),
                         tm_net_name(net, d));
            if (exact)
                assert_int_equal(k, n);
            for (int e = 0; e < k; e++) {
                if (!(frac_on(n, links, frac, dl[e]) > 0))
                    fail_msg("%s: route %s -> %s: hop %d (cable %d %s) is not the router's",
                             what, tm_net_name(net, s), tm_net_name(net, d), e, dl[e] / 2,
                             dl[e] % 2 ? "DOWN" : "UP");
                if (e + 1 < k)
                    assert_int_equal(head_of(net, dl[e]), tail_of(net, dl[e + 1]));
                drawn[dl[e]] += 1;
            }
            for (int32_t e = 0; e < n; e++)
                expect[links[e]] += frac[e];
        }
    for (int32_t l = 0; l < g->n_links; l++) {
        double tol = 4 * sqrt(expect[l]) + 2;
        if (exact)
            assert_true(drawn[l] == expect[l]);
        else if (!(drawn[l] >= expect[l] - tol && drawn[l] <= expect[l] + tol))
            fail_msg("%s: %g routes on link %d against the router's %g", what, drawn[l],
                     (int)l, expect[l]);
    }
    tm_route_pairs_free(pairs);
    free(all);
    free(dl);
    free(drawn);
    free(expect);
    plat_free(&p);
    return split;
}

static char *write_text(const tm_route *r, const tm_simgrid_opts *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_tm_ok(ctx, tm_simgrid_write(ctx, r, o, f));
    fclose(f);
    return buf;
}

/* Writes r's platform (between hosts, or all) and checks it against r;
 * the writer's count of drawn routes equals the pairs the router splits. */
static void check_router(const char *what, const tm_route *r, const int32_t *hosts, int32_t nh,
                         bool exact)
{
    tm_simgrid_opts o = TM_SIMGRID_OPTS_INIT;
    int64_t drawn = -1;
    o.hosts = hosts;
    o.n_hosts = nh;
    o.split_pairs = &drawn;
    char *text = write_text(r, &o);
    int32_t split = check_against(what, tm_route_net(r), text, r, hosts, nh, exact);
    assert_int_equal(drawn, split);
    if (!exact)
        assert_true(split > 0);
    free(text);
}

static void check_spec(const char *spec, tm_route_kind kind, bool exact)
{
    tm_net *net = tm_test_gen_net(spec, 0);
    tm_route *r;
    char what[128];
    snprintf(what, sizeof what, "%s %s", spec, tm_route_kind_name(kind));
    assert_tm_ok(ctx, tm_route_new(ctx, net, kind, &r));
    check_router(what, r, NULL, 0, exact);
    tm_route_free(r);
    tm_net_free(net);
}

static tm_net *load_fabric(const char *path, const char *map)
{
    tm_net *net;
    tm_topo_opts o = TM_TOPO_OPTS_INIT;
    o.node_name_map = map;
    assert_tm_ok(ctx, tm_topology_load(ctx, path, &o, &net));
    return net;
}

/* Tori and meshes without parallel cables: single and dimension order. */
static void test_routes_grids(void **state)
{
    (void)state;
    check_spec("torus:4x3", TM_ROUTE_SINGLE, true);
    check_spec("torus:4x3x2", TM_ROUTE_DOR, true);
    check_spec("mesh:3x4", TM_ROUTE_DOR, true);
    check_spec("fattree:k=4,n=2", TM_ROUTE_FTREE, true);
    check_spec("fattree:k=4,n=3", TM_ROUTE_FTREE, true);
}

/* A Clos with two parallel cables between every leaf and every spine:
 * every single-path routing's route names the very cable it loads; ECMP
 * (which splits every pair across spines and the two cables) gets one
 * drawn path per pair, spread over the cables as its split is. */
#define CLOS_PAR "clos:leaves=8,hosts_per_leaf=8,spines=4,uplinks=8"
static void test_routes_parallel(void **state)
{
    (void)state;
    check_spec(CLOS_PAR, TM_ROUTE_SINGLE, true);
    check_spec(CLOS_PAR, TM_ROUTE_FTREE, true);
    check_spec(CLOS_PAR, TM_ROUTE_MINHOP, true);
    check_spec(CLOS_PAR, TM_ROUTE_UPDN, true);
    check_spec(CLOS_PAR, TM_ROUTE_ECMP, false);
    check_spec("fattree:k=4,n=2", TM_ROUTE_ECMP, false);
    check_spec("torus:4x4", TM_ROUTE_ECMP, false);
}

/* Real fabrics with parallel cables: PlaFRIM with its own forwarding
 * tables (9 switch pairs joined by 2 to 9 cables), PSMN X5 (40 switch pairs
 * with several cables) under single, minhop and updn, the job's 40 hosts
 * of each. */
static void test_routes_real(void **state)
{
    tm_net *net = load_fabric(REAL_DATA("data/ibnetdiscover_p/plafrim/"
                                        "ib-subnet-fe80_0000_0000_0000.txt"), NULL);
    tm_route *r;
    int32_t hosts[40], nh = 0;
    (void)state;
    for (int32_t v = 0; v < tm_net_n_vertices(net) && nh < 40; v += 3)
        if (tm_net_kind(net, v) == TM_VERTEX_HOST)
            hosts[nh++] = v;
    assert_tm_ok(ctx, tm_route_new_lft(ctx, net, REAL_DATA("data/ibroute_lft/plafrim"), &r));
    check_router("plafrim lft", r, hosts, nh, true);
    tm_route_free(r);
    tm_net_free(net);
    char map[4096]; /* REAL_DATA's buffer is reused by the next call */
    snprintf(map, sizeof map, "%s", REAL_DATA("data/ibnetdiscover/psmn_X5/X5.map"));
    net = load_fabric(REAL_DATA("data/ibnetdiscover/psmn_X5/X5.topofile"), map);
    nh = 0;
    for (int32_t v = 0; v < tm_net_n_vertices(net) && nh < 40; v += 2)
        if (tm_net_kind(net, v) == TM_VERTEX_HOST)
            hosts[nh++] = v;
    tm_route_kind kinds[] = {TM_ROUTE_SINGLE, TM_ROUTE_MINHOP, TM_ROUTE_UPDN};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        assert_tm_ok(ctx, tm_route_new(ctx, net, kinds[k], &r));
        check_router(tm_route_kind_name(kinds[k]), r, hosts, nh, true);
        tm_route_free(r);
    }
    tm_net_free(net);
}

/* Forwarding tables (tests/data/route/lft2, as test_lft reads them) and the
 * emulated OpenSM engines on that fabric; LMC spreading (tests/data/route/
 * lmc1) and a dual-rail host striping under ECMP get one drawn path per
 * pair; valiant is refused. */
static void test_routes_ib(void **state)
{
    tm_net *net = load_fabric(TEST_DATA("route/lft2/fabric.txt"), NULL);
    tm_route_opts o = TM_ROUTE_OPTS_INIT;
    tm_route *r;
    (void)state;
    assert_tm_ok(ctx, tm_route_new_lft(ctx, net, TEST_DATA("route/lft2/tables"), &r));
    check_router("lft2", r, NULL, 0, true);
    tm_route_free(r);
    for (int k = TM_ROUTE_MINHOP; k <= TM_ROUTE_UPDN; k++) {
        assert_tm_ok(ctx, tm_route_new(ctx, net, (tm_route_kind)k, &r));
        check_router("lft2", r, NULL, 0, true);
        tm_route_free(r);
    }
    tm_net_free(net);
    net = load_fabric(TEST_DATA("route/lmc1/fabric.txt"), NULL);
    o.lft_dir = TEST_DATA("route/lmc1/tables");
    o.lmc_spread = true;
    assert_tm_ok(ctx, tm_route_new_opts(ctx, net, TM_ROUTE_LFT, &o, &r));
    {
        tm_simgrid_opts so = TM_SIMGRID_OPTS_INIT;
        int64_t drawn = 0;
        so.split_pairs = &drawn;
        char *text = write_text(r, &so);
        assert_true(drawn > 0);
        plat p = parse(net, text); /* still one link per cable */
        plat_free(&p);
        free(text);
    }
    tm_route_free(r);
    tm_net_free(net);
    net = tm_test_gen_net("fattree:k=2,n=2,rails=2", 0);
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_SINGLE, &r));
    {
        tm_simgrid_opts so = TM_SIMGRID_OPTS_INIT;
        int64_t drawn = 0;
        so.split_pairs = &drawn;
        char *text = write_text(r, &so); /* the rails' striping: drawn */
        assert_true(drawn > 0);
        assert_int_equal(check_against("rails single", net, text, r, NULL, 0, false), drawn);
        free(text);
    }
    tm_route_free(r);
    tm_net_free(net);
    net = tm_test_gen_net("dragonfly:h=2", 0);
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_VALIANT, &r));
    assert_tm_error(ctx, tm_simgrid_write(ctx, r, NULL, stdout), TM_EUSAGE, "non-minimal");
    tm_route_free(r);
    tm_net_free(net);
}

/* The text of route src -> dst: "L0 UP, L2 UP" (cable link ids, directions). */
static void route_text(const plat *p, int32_t src, int32_t dst, char *buf, size_t n)
{
    int32_t dl[8];
    int k = route_links(p, src, dst, dl, 8);
    buf[0] = '\0';
    for (int i = 0; i < k; i++)
        snprintf(buf + strlen(buf), n - strlen(buf), "%sL%d %s", i ? ", " : "", (int)(dl[i] / 2),
                 dl[i] % 2 ? "DOWN" : "UP");
}

/* h0 =(10, 20)= s0 -(5)- h1, h1 with 4 slots: three links (the parallel
 * cables apart, each its own capacity), cores, loopbacks with plain
 * numbers; under `single` the routes name the cable it loads (the lowest
 * link id walking back from the destination: cable 0 both ways), with
 * their directions; under ECMP each direction takes one of the two. */
static void test_parallel_and_loopback(void **state)
{
    tm_net *net;
    tm_route *r;
    int32_t h0, h1, s0, c;
    tm_simgrid_opts o = TM_SIMGRID_OPTS_INIT;
    char buf[128];
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "s0", TM_VERTEX_SWITCH, 0, &s0));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "h0", TM_VERTEX_HOST, 1, &h0));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "h1", TM_VERTEX_HOST, 4, &h1));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, h0, s0, 10, &c));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s0, h0, 20, &c));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s0, h1, 5, &c));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_SINGLE, &r));
    o.latency_s = 2.5e-6;
    o.loopback_gbps = 80;
    char *text = write_text(r, &o);
    plat p = parse(net, text);
    int lo_links = 0;
    for (xmlNodePtr n = p.zone->children; n; n = n->next) {
        if (!is(n, "link"))
            continue;
        char *pol = attr(n, "sharing_policy"), *bw = attr(n, "bandwidth"), *lat = attr(n, "latency");
        if (strcmp(pol, "SPLITDUPLEX") == 0) {
            assert_string_equal(lat, "2.5e-06s");
        } else {
            assert_string_equal(pol, "FATPIPE");
            assert_string_equal(bw, "1e+10"); /* 80 Gbit/s in bytes/s, no unit */
            assert_string_equal(lat, "0");
            lo_links++;
        }
        xmlFree(pol);
        xmlFree(bw);
        xmlFree(lat);
    }
    assert_int_equal(p.n_cable_links, 3);
    assert_int_equal(lo_links, 2);
    assert_non_null(strstr(text, "<link id=\"L1\" bandwidth=\"20Gbps\" latency=\"2.5e-06s\" "
                                 "sharing_policy=\"SPLITDUPLEX\">\n   <prop id=\"ends\" "
                                 "value=\"0 1\"/>"));
    assert_non_null(strstr(text, "<host id=\"h1\" speed=\"1e+09f\" core=\"4\"/>"));
    assert_non_null(strstr(text, "<router id=\"s0\"/>"));
    assert_non_null(strstr(text, "<route src=\"h1\" dst=\"h1\">\n   <link_ctn id=\"lo2\"/>"));
    route_text(&p, h0, h1, buf, sizeof buf);
    assert_string_equal(buf, "L0 UP, L2 UP");
    route_text(&p, h1, h0, buf, sizeof buf);
    assert_string_equal(buf, "L2 DOWN, L0 DOWN");
    plat_free(&p);
    free(text);
    /* only the selected hosts get routes and loopbacks */
    o.hosts = &h1;
    o.n_hosts = 1;
    text = write_text(r, &o);
    assert_null(strstr(text, "src=\"h0\""));
    assert_non_null(strstr(text, "src=\"h1\" dst=\"h1\""));
    assert_non_null(strstr(text, "<host id=\"h0\"")); /* still declared */
    free(text);
    tm_route_free(r);
    /* ECMP splits both pairs over the two cables: each route takes one */
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &r));
    o = (tm_simgrid_opts)TM_SIMGRID_OPTS_INIT;
    text = write_text(r, &o);
    p = parse(net, text);
    route_text(&p, h0, h1, buf, sizeof buf);
    assert_true(strcmp(buf, "L0 UP, L2 UP") == 0 || strcmp(buf, "L1 DOWN, L2 UP") == 0);
    assert_non_null(strstr(text, "<!-- 2 of 2 routes: one path drawn"));
    plat_free(&p);
    free(text);
    tm_route_free(r);
    tm_net_free(net);
}

static int count_dir(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* Bad options and hosts are refused; an export that fails half-way leaves
 * the previous file as it was and no temporary behind. */
static void test_errors_atomic(void **state)
{
    tm_net *net;
    tm_route *r;
    tm_simgrid_opts o = TM_SIMGRID_OPTS_INIT;
    int32_t sw = -1, hosts[2] = {0, 0};
    char dir[256], path[300], buf[64] = {0};
    tm_ofile of;
    FILE *f;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_gen_build(ctx, "fattree:k=4,n=2", NULL, net));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_FTREE, &r));
    for (int32_t v = 0; v < tm_net_n_vertices(net) && sw < 0; v++)
        if (tm_net_kind(net, v) == TM_VERTEX_SWITCH)
            sw = v;
    o.latency_s = -1;
    assert_tm_error(ctx, tm_simgrid_write(ctx, r, &o, stdout), TM_EUSAGE, "latencies");
    o.latency_s = 1e-7;
    o.hosts = hosts;
    o.n_hosts = 2; /* a host twice */
    assert_tm_error(ctx, tm_simgrid_write(ctx, r, &o, stdout), TM_EUSAGE, "listed twice");

    snprintf(dir, sizeof dir, "%s/tm_simgrid_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/p.xml", dir);
    f = fopen(path, "w");
    fputs("previous\n", f);
    fclose(f);
    hosts[1] = sw;
    assert_tm_error(ctx, tm_simgrid_write(ctx, r, &o, stdout), TM_EUSAGE, "not a host");
    tm_route_free(r);
    tm_net_free(net);
    /* two parts: the routes between them fail after much has been written */
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    for (int i = 0; i < 2; i++) {
        int32_t s, a, b, c;
        char name[8];
        snprintf(name, sizeof name, "s%d", i);
        assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, name, TM_VERTEX_SWITCH, 0, &s));
        snprintf(name, sizeof name, "a%d", i);
        assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, name, TM_VERTEX_HOST, 1, &a));
        snprintf(name, sizeof name, "b%d", i);
        assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, name, TM_VERTEX_HOST, 1, &b));
        assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s, a, 1, &c));
        assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s, b, 1, &c));
    }
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_SINGLE, &r));
    assert_tm_ok(ctx, tm_ofile_open(ctx, path, &of));
    assert_tm_error(ctx, tm_simgrid_write(ctx, r, NULL, of.fp), TM_EINPUT, "a0");
    {
        struct stat st; /* the half-written platform is in the temporary only */
        assert_int_equal(fflush(of.fp), 0);
        assert_int_equal(stat(of.tmp, &st), 0);
        assert_true(st.st_size > 100);
    }
    tm_ofile_abort(&of);
    f = fopen(path, "r");
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_string_equal(buf, "previous\n");
    assert_int_equal(count_dir(dir), 1); /* no temporary left */
    unlink(path);
    rmdir(dir);
    tm_route_free(r);
    tm_net_free(net);
}

/* map --format smpi: one full host name per rank, in rank order (the
 * platform's host ids), whatever --hostnames says. */
static void test_smpi_hostfile(void **state)
{
    tm_net *net;
    tm_mapping m;
    tm_mapwrite_opts wo = TM_MAPWRITE_OPTS_INIT; /* short names requested: ignored */
    int32_t a, b, c;
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    (void)state;
    assert_int_equal(tm_mapfmt_parse("smpi"), TM_MAPFMT_SMPI);
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "a.dom", TM_VERTEX_HOST, 2, &a));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "b.dom", TM_VERTEX_HOST, 2, &b));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, a, b, 1, &c));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    tm_mapping_init(&m);
    assert_tm_ok(ctx, tm_mapping_alloc(ctx, &m, 4, false));
    int32_t hosts[4] = {b, a, a, b}, slots[4] = {0, 1, 0, 1};
    memcpy(m.host, hosts, sizeof hosts);
    memcpy(m.slot, slots, sizeof slots);
    f = open_memstream(&buf, &len);
    assert_tm_ok(ctx, tm_mapping_write(ctx, net, &m, TM_MAPFMT_SMPI, &wo, f));
    fclose(f);
    assert_string_equal(buf, "b.dom\na.dom\na.dom\nb.dom\n");
    free(buf);
    tm_mapping_release(&m);
    tm_net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_routes_grids),
        cmocka_unit_test(test_routes_parallel),
        cmocka_unit_test(test_routes_real),
        cmocka_unit_test(test_routes_ib),
        cmocka_unit_test(test_parallel_and_loopback),
        cmocka_unit_test(test_errors_atomic),
        cmocka_unit_test(test_smpi_hostfile),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
