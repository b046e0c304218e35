/* test_simgrid.c - the SimGrid platform writer (tm_simgrid_write): every
 * route of the platform is the path the router gives (single, dor, ftree,
 * forwarding tables, minhop, updn; ECMP as single's path; a splitting
 * router refused), parallel cables become one link of their summed
 * bandwidth, each host has its loopback, and a failing export leaves an
 * existing output file untouched; map --format smpi writes one full host
 * name per rank.  SimGrid itself loads the platform in
 * tests/cli/t35-simgrid.sh. */
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "test_fixtures.h"
#include "topomap/sim.h"

/* The platform as parsed: links by id (ends, bandwidth text), routes. */
typedef struct plat {
    xmlDocPtr doc;
    xmlNodePtr zone;
} plat;

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

static plat parse(const char *text)
{
    plat p;
    p.doc = xmlReadMemory(text, (int)strlen(text), "platform.xml", NULL, XML_PARSE_NONET);
    assert_non_null(p.doc);
    xmlNodePtr root = xmlDocGetRootElement(p.doc);
    assert_string_equal((const char *)root->name, "platform");
    for (p.zone = root->children; p.zone && p.zone->type != XML_ELEMENT_NODE; p.zone = p.zone->next)
        ;
    assert_non_null(p.zone);
    return p;
}

static char *attr(xmlNodePtr n, const char *name)
{
    return (char *)xmlGetProp(n, BAD_CAST name);
}

static bool is(xmlNodePtr n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* The link element with that id, or NULL. */
static xmlNodePtr find_link(const plat *p, const char *id)
{
    for (xmlNodePtr n = p->zone->children; n; n = n->next) {
        if (!is(n, "link"))
            continue;
        char *v = attr(n, "id");
        bool hit = strcmp(v, id) == 0;
        xmlFree(v);
        if (hit)
            return n;
    }
    return NULL;
}

/* The (lo, hi) vertex ids of a cable link (its "ends" prop). */
static void link_ends(xmlNodePtr l, int *lo, int *hi)
{
    for (xmlNodePtr c = l->children; c; c = c->next)
        if (is(c, "prop")) {
            char *v = attr(c, "value");
            assert_int_equal(sscanf(v, "%d %d", lo, hi), 2);
            xmlFree(v);
            return;
        }
    fail_msg("link without ends");
}

/* The route src -> dst as directed (from, to) vertex pairs in order; n of them. */
static int route_of(const plat *p, const tm_net *net, int32_t src, int32_t dst, int (*hop)[2])
{
    for (xmlNodePtr n = p->zone->children; n; n = n->next) {
        if (!is(n, "route"))
            continue;
        char *s = attr(n, "src"), *d = attr(n, "dst");
        bool hit = strcmp(s, tm_net_name(net, src)) == 0 && strcmp(d, tm_net_name(net, dst)) == 0;
        xmlFree(s);
        xmlFree(d);
        if (!hit)
            continue;
        int k = 0;
        for (xmlNodePtr c = n->children; c; c = c->next) {
            if (!is(c, "link_ctn"))
                continue;
            char *id = attr(c, "id"), *dir = attr(c, "direction");
            int lo, hi;
            xmlNodePtr l = find_link(p, id);
            assert_non_null(l);
            link_ends(l, &lo, &hi);
            bool up = strcmp(dir, "UP") == 0;
            hop[k][0] = up ? lo : hi;
            hop[k][1] = up ? hi : lo;
            k++;
            xmlFree(id);
            xmlFree(dir);
        }
        return k;
    }
    fail_msg("no route %s -> %s", tm_net_name(net, src), tm_net_name(net, dst));
    return -1;
}

/* Every route of the platform written for router r equals, link by link
 * and in path order, the path of router `want` (r itself except for ECMP,
 * whose platform follows `single`). */
static void check_router(const char *spec, const tm_net *net, const tm_route *r,
                         const tm_route *want)
{
    tm_route_kind kind = tm_route_kind_of(r);
    tm_route_ws *ws;
    assert_tm_ok(ctx, tm_route_ws_new(ctx, want, &ws));
    char *text = write_text(r, NULL);
    plat p = parse(text);
    const tm_net_csr *g = tm_net_csr_get(net);
    double *load = calloc((size_t)g->n_links, sizeof *load);
    int (*hop)[2] = malloc((size_t)g->n * sizeof *hop);
    int32_t nv = tm_net_n_vertices(net), pairs = 0;
    for (int32_t s = 0; s < nv; s++)
        for (int32_t d = 0; d < nv; d++) {
            if (s == d || !g->is_host[s] || !g->is_host[d])
                continue;
            double one = 1;
            int32_t hops;
            memset(load, 0, (size_t)g->n_links * sizeof *load);
            assert_tm_ok(ctx, tm_route_flows(ctx, want, ws, s, 1, &d, &one, load, &hops));
            int k = route_of(&p, net, s, d, hop);
            assert_int_equal(k, hops);
            assert_int_equal(hop[0][0], s);
            assert_int_equal(hop[k - 1][1], d);
            for (int i = 0; i < k; i++) {
                bool found = false; /* the router loads a link from hop[i][0] to hop[i][1] */
                for (int32_t j = g->off[hop[i][0]]; j < g->off[hop[i][0] + 1]; j++)
                    found |= g->head[j] == hop[i][1] && load[g->link[j]] > 0;
                if (!found)
                    fail_msg("%s %s: route %d -> %d hop %d (%d -> %d) not on the router's path",
                             spec, tm_route_kind_name(kind), s, d, i, hop[i][0], hop[i][1]);
                if (i + 1 < k)
                    assert_int_equal(hop[i][1], hop[i + 1][0]);
            }
            pairs++;
        }
    assert_true(pairs > 0);
    free(load);
    free(hop);
    xmlFreeDoc(p.doc);
    free(text);
    tm_route_ws_free(ws);
}

static void check_routes(const char *spec, tm_route_kind kind, tm_route_kind want_kind)
{
    tm_net *net;
    tm_route *r, *want;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_gen_build(ctx, spec, NULL, net));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_route_new(ctx, net, kind, &r));
    assert_tm_ok(ctx, tm_route_new(ctx, net, want_kind, &want));
    check_router(spec, net, r, want);
    tm_route_free(want);
    tm_route_free(r);
    tm_net_free(net);
}

static tm_net *load_fabric(const char *path)
{
    tm_net *net;
    tm_topo_opts o = TM_TOPO_OPTS_INIT;
    assert_tm_ok(ctx, tm_topology_load(ctx, path, &o, &net));
    return net;
}

/* Forwarding tables (tests/data/route/lft2, as test_lft reads them) and the
 * emulated OpenSM engines on that fabric; a router that splits a flow over
 * two paths (LMC spreading, tests/data/route/lmc1) is refused. */
static void test_routes_ib(void **state)
{
    tm_net *net = load_fabric(TEST_DATA("route/lft2/fabric.txt"));
    tm_route_opts o = TM_ROUTE_OPTS_INIT;
    tm_route *r;
    (void)state;
    assert_tm_ok(ctx, tm_route_new_lft(ctx, net, TEST_DATA("route/lft2/tables"), &r));
    check_router("lft2", net, r, r);
    tm_route_free(r);
    for (int k = TM_ROUTE_MINHOP; k <= TM_ROUTE_UPDN; k++) {
        assert_tm_ok(ctx, tm_route_new(ctx, net, (tm_route_kind)k, &r));
        check_router("lft2", net, r, r);
        tm_route_free(r);
    }
    tm_net_free(net);
    net = load_fabric(TEST_DATA("route/lmc1/fabric.txt"));
    o.lft_dir = TEST_DATA("route/lmc1/tables");
    o.lmc_spread = true;
    assert_tm_ok(ctx, tm_route_new_opts(ctx, net, TM_ROUTE_LFT, &o, &r));
    FILE *sink = fopen("/dev/null", "w"); /* the part written before the refusal */
    assert_non_null(sink);
    assert_tm_error(ctx, tm_simgrid_write(ctx, r, NULL, sink), TM_EUSAGE, "splits the flow");
    fclose(sink);
    tm_route_free(r);
    tm_net_free(net);
}

static void test_routes(void **state)
{
    (void)state;
    check_routes("torus:4x3", TM_ROUTE_SINGLE, TM_ROUTE_SINGLE);
    check_routes("torus:4x3x2", TM_ROUTE_DOR, TM_ROUTE_DOR);
    check_routes("mesh:3x4", TM_ROUTE_DOR, TM_ROUTE_DOR);
    check_routes("fattree:k=4,n=2", TM_ROUTE_FTREE, TM_ROUTE_FTREE);
    check_routes("fattree:k=4,n=3", TM_ROUTE_FTREE, TM_ROUTE_FTREE);
    check_routes("fattree:k=4,n=2", TM_ROUTE_ECMP, TM_ROUTE_SINGLE);
    check_routes("torus:4x4", TM_ROUTE_ECMP, TM_ROUTE_SINGLE);
}

/* h0 =(10+20)= s0 -(5)- h1, h1 with 4 slots: one link of 30 Gbit/s, cores,
 * loopbacks with plain numbers, and the route's directions. */
static void test_parallel_and_loopback(void **state)
{
    tm_net *net;
    tm_route *r;
    int32_t h0, h1, s0, c;
    tm_simgrid_opts o = TM_SIMGRID_OPTS_INIT;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "s0", TM_VERTEX_SWITCH, 0, &s0));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "h0", TM_VERTEX_HOST, 1, &h0));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "h1", TM_VERTEX_HOST, 4, &h1));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, h0, s0, 10, &c));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s0, h0, 20, &c));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s0, h1, 5, &c));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &r));
    o.latency_s = 2.5e-6;
    o.loopback_gbps = 80;
    char *text = write_text(r, &o);
    plat p = parse(text);
    int links = 0, lo_links = 0;
    for (xmlNodePtr n = p.zone->children; n; n = n->next) {
        if (!is(n, "link"))
            continue;
        char *pol = attr(n, "sharing_policy"), *bw = attr(n, "bandwidth"), *lat = attr(n, "latency");
        if (strcmp(pol, "SPLITDUPLEX") == 0) {
            int lo, hi;
            link_ends(n, &lo, &hi);
            assert_string_equal(bw, lo == s0 && hi == h0 ? "30Gbps" : "5Gbps");
            assert_string_equal(lat, "2.5e-06s");
            links++;
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
    assert_int_equal(links, 2);
    assert_int_equal(lo_links, 2);
    assert_non_null(strstr(text, "<host id=\"h1\" speed=\"1e+09f\" core=\"4\"/>"));
    assert_non_null(strstr(text, "<router id=\"s0\"/>"));
    assert_non_null(strstr(text, "<route src=\"h1\" dst=\"h1\">\n   <link_ctn id=\"lo2\"/>"));
    int hop[4][2];
    assert_int_equal(route_of(&p, net, h0, h1, hop), 2);
    assert_true(hop[0][0] == h0 && hop[0][1] == s0 && hop[1][0] == s0 && hop[1][1] == h1);
    assert_int_equal(route_of(&p, net, h1, h0, hop), 2);
    assert_true(hop[0][0] == h1 && hop[0][1] == s0 && hop[1][0] == s0 && hop[1][1] == h0);
    xmlFreeDoc(p.doc);
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
        cmocka_unit_test(test_routes),
        cmocka_unit_test(test_routes_ib),
        cmocka_unit_test(test_parallel_and_loopback),
        cmocka_unit_test(test_errors_atomic),
        cmocka_unit_test(test_smpi_hostfile),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
