/* test_graphml.c - GraphML reader (validation + igraph), writer round
 * trips, DOT output, the link loads as CSV; malformed inputs with their
 * exact messages. */
#include <igraph.h>
#include <locale.h>

#include "test_fixtures.h"

static tm_err read_text(const char *text, const char *name, tm_net **out)
{
    return tm_test_read_net_text(tm_graphml_read, text, name, out);
}

static tm_err read_path(const char *path, const char *name, tm_net **out)
{
    return tm_test_read_net_path(tm_graphml_read, path, name, out);
}

static void check_cable(const tm_net *net, int32_t c, const char *a, const char *b, double cap)
{
    int32_t x, y;
    tm_net_cable(net, c, &x, &y);
    assert_string_equal(tm_net_name(net, x), a);
    assert_string_equal(tm_net_name(net, y), b);
    assert_true(tm_net_capacity(net, c) == cap);
}

/* The file igraph itself wrote: numbers typed double, node ids n0.., an
 * unknown boolean attribute, two parallel cables. */
static void test_igraph_written(void **state)
{
    tm_net *net;
    (void)state;
    assert_tm_ok(ctx, read_path(REAL_DATA("docs/samples/igraph-written.graphml"), "iw", &net));
    assert_int_equal(tm_net_n_vertices(net), 3);
    assert_int_equal(tm_net_n_switches(net), 1);
    assert_int_equal(tm_net_n_cables(net), 3);
    assert_int_equal(tm_net_kind(net, 0), TM_VERTEX_SWITCH);
    assert_string_equal(tm_net_name(net, 0), "leaf1");
    assert_int_equal(tm_net_slots(net, 0), 0);
    assert_string_equal(tm_net_name(net, 1), "node001");
    assert_int_equal(tm_net_slots(net, 1), 4);
    assert_int_equal(tm_net_slots(net, 2), 8);
    assert_int_equal(tm_net_transit_policy(net, 1), TM_TRANSIT_DEFAULT);
    check_cable(net, 0, "leaf1", "node001", 100);
    check_cable(net, 1, "leaf1", "node001", 100);
    check_cable(net, 2, "leaf1", "node002", 56);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    assert_tm_ok(ctx, tm_net_check(ctx, net));
    tm_net_free(net);
}

/* The hand-written sample has a self-loop b-b on line 15: rejected. */
static void test_handwritten_selfloop(void **state)
{
    tm_net *net;
    (void)state;
    assert_int_equal(read_path(REAL_DATA("docs/samples/handwritten-multigraph.graphml"),
                               "hw.graphml", &net),
                     TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "hw.graphml:15: self-loop on node 'b'");
}

/* Same file without the loop: key defaults (kind host, slots 1, capacity
 * 100), an unknown long attribute, edge b -> sw kept in file order. */
static void test_handwritten_defaults(void **state)
{
    tm_net *net;
    (void)state;
    assert_tm_ok(ctx, read_path(TEST_DATA("xml/multigraph.graphml"), "mg", &net));
    assert_int_equal(tm_net_n_vertices(net), 3);
    assert_int_equal(tm_net_kind(net, 0), TM_VERTEX_SWITCH);
    assert_int_equal(tm_net_kind(net, 1), TM_VERTEX_HOST);
    assert_int_equal(tm_net_slots(net, 1), 1);
    assert_int_equal(tm_net_slots(net, 2), 8);
    assert_int_equal(tm_net_n_cables(net), 3);
    check_cable(net, 0, "leaf1", "node001", 100);
    check_cable(net, 1, "leaf1", "node001", 200);
    check_cable(net, 2, "node002", "leaf1", 56);
    tm_net_free(net);
}

/* No keys at all: name = id, host, 1 slot, capacity 1; edges may come
 * before the nodes they join; whitespace around values is ignored. */
static void test_no_keys(void **state)
{
    tm_net *net;
    (void)state;
    assert_tm_ok(ctx, read_text("<graphml>\r\n<graph edgedefault='undirected'>\r\n"
                                "<edge source='x' target='y'/>\r\n<node id='x'/><node id='y'/>"
                                "</graph></graphml>",
                                "nk", &net));
    assert_int_equal(tm_net_n_vertices(net), 2);
    assert_string_equal(tm_net_name(net, 0), "x");
    assert_int_equal(tm_net_kind(net, 0), TM_VERTEX_HOST);
    assert_int_equal(tm_net_slots(net, 1), 1);
    check_cable(net, 0, "x", "y", 1);
    tm_net_free(net);
}

/* A prefixed GraphML namespace is GraphML; elements of other namespaces
 * are ignored, as igraph does. */
static void test_namespaces(void **state)
{
    tm_net *net;
    (void)state;
    assert_tm_ok(ctx, read_text("<g:graphml xmlns:g='http://graphml.graphdrawing.org/xmlns' "
                                "xmlns:y='urn:yed'>\n<g:graph edgedefault='undirected'>"
                                "<g:node id='a'/><y:node id='b'/><g:node id='c'/>"
                                "<g:edge source='a' target='c'/></g:graph></g:graphml>",
                                "ns", &net));
    assert_int_equal(tm_net_n_vertices(net), 2);
    assert_string_equal(tm_net_name(net, 1), "c");
    tm_net_free(net);
}

static const char *attrs_doc =
    "<?xml version='1.0'?>\n"
    "<graphml xmlns='http://graphml.graphdrawing.org/xmlns'>\n"
    "<key id='t' for='node' attr.name='transit' attr.type='boolean'/>\n"
    "<key id='k' for='node' attr.name='kind' attr.type='string'/>\n"
    "<key id='s' for='node' attr.name='slots' attr.type='long'/>\n"
    "<key id='x' for='all' attr.name='extra' attr.type='string'/>\n"
    "<key id='n' for='node' attr.name='name' attr.type='string'/>\n"
    "<key id='e' for='edge' attr.name='enabled' attr.type='boolean'><default>true</default></key>\n"
    "<key id='c' for='edge' attr.name='capacity' attr.type='float'/>\n"
    "<graph edgedefault='undirected'>\n"
    "<node id='0'><data key='n'>\n  edge switch 1  \n</data><data key='k'>switch</data></node>\n"
    "<node id='1'><data key='n'>h\xc3\xa9te</data><data key='t'>TRUE</data><data key='s'>4.0</data><data key='x'>?</data></node>\n"
    "<node id='2'><data key='n'>h2</data><data key='t'>0</data></node>\n"
    "<edge source='0' target='1'><data key='c'> 13.64 </data></edge>\n"
    "<edge source='2' target='0'><data key='e'>false</data><data key='c'>2.5e1</data></edge>\n"
    "</graph></graphml>\n";

/* transit, enabled, for="all", float types, UTF-8 and spaced switch names. */
static void test_attributes(void **state)
{
    tm_net *net;
    (void)state;
    assert_tm_ok(ctx, read_text(attrs_doc, "attrs", &net));
    assert_string_equal(tm_net_name(net, 0), "edge switch 1");
    assert_int_equal(tm_net_slots(net, 0), 0);
    assert_string_equal(tm_net_name(net, 1), "h\xc3\xa9te");
    assert_int_equal(tm_net_slots(net, 1), 4);
    assert_int_equal(tm_net_transit_policy(net, 0), TM_TRANSIT_DEFAULT);
    assert_int_equal(tm_net_transit_policy(net, 1), TM_TRANSIT_YES);
    assert_int_equal(tm_net_transit_policy(net, 2), TM_TRANSIT_NO);
    assert_true(tm_net_capacity(net, 0) == 13.64);
    assert_true(tm_net_cable_enabled(net, 0));
    assert_false(tm_net_cable_enabled(net, 1));
    assert_true(tm_net_capacity(net, 1) == 25);
    tm_net_free(net);
}

/* The reader adds to a net that already has vertices. */
static void test_existing_net(void **state)
{
    tm_net *net;
    FILE *f;
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "old", TM_VERTEX_HOST, 1, NULL));
    f = tm_test_memfile("<graphml><graph edgedefault='undirected'><node id='a'/><node id='b'/>"
                        "<edge source='b' target='a'/></graph></graphml>");
    assert_tm_ok(ctx, tm_graphml_read(ctx, f, "x", net));
    fclose(f);
    assert_int_equal(tm_net_n_vertices(net), 3);
    check_cable(net, 0, "b", "a", 1);
    f = tm_test_memfile("<graphml>\n<graph edgedefault='undirected'>\n<node id='old'/>"
                        "</graph></graphml>");
    assert_int_equal(tm_graphml_read(ctx, f, "y", net), TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "y:3: node name 'old' is already in the network");
    fclose(f);
    tm_net_free(net);
}

/* igraph's attribute table is process-wide: the reader must restore it. */
static void test_attribute_table_restored(void **state)
{
    tm_net *net;
    (void)state;
    igraph_set_attribute_table(NULL);
    assert_tm_ok(ctx, read_text(attrs_doc, "attrs", &net));
    tm_net_free(net);
    assert_null(igraph_set_attribute_table(NULL));
    assert_int_equal(read_text("<graphml><graph edgedefault='undirected'><node id='a'/>"
                               "<edge source='a' target='q'/></graph></graphml>",
                               "u", &net),
                     TM_EINPUT);
    assert_null(igraph_set_attribute_table(NULL));
}

static const struct {
    const char *file, *msg;
} bad[] = {
    {"capacity-hex", "13: capacity '0x10' is not a number in [1e-06, 1e+15] (Gbit/s)"},
    {"capacity-inf", "13: capacity 'inf' is not a number in [1e-06, 1e+15] (Gbit/s)"},
    {"capacity-negative", "13: capacity '-100' is not a number in [1e-06, 1e+15] (Gbit/s)"},
    {"capacity-text", "13: capacity 'fast' is not a number in [1e-06, 1e+15] (Gbit/s)"},
    {"capacity-zero", "13: capacity '0' is not a number in [1e-06, 1e+15] (Gbit/s)"},
    {"data-domain", "13: key 'cap' is not declared for nodes"},
    {"data-no-key", "13: <data> without key"},
    {"data-twice", "13: key 'slots' given twice"},
    {"data-undeclared", "13: undeclared key 'k9'"},
    {"directed", "8: <graph> needs edgedefault=\"undirected\" (cables are undirected)"},
    {"edge-directed", "13: directed edges are not supported (cables are undirected)"},
    {"edge-no-target", "13: <edge> without target"},
    {"edge-undeclared", "13: edge to undeclared node id 'zz'"},
    {"hyperedge", "13: hyperedges are not supported"},
    {"key-bad-for", "8: key 'x': unknown for=\"vertex\""},
    {"key-default", "5: kind 'router' is not host or switch"},
    {"key-dup-id", "8: duplicate key id 'kind'"},
    {"key-for-all", "8: key 'en': attribute 'enabled' needs for=\"edge\" (for=\"all\" is not "
                    "supported)"},
    {"key-no-id", "8: <key> without id"},
    {"key-no-type", "8: key 'nm': attribute 'name' must have attr.type=\"string\""},
    {"other-number", "14: value '4x' of key 'lanes' is not a number"},
    {"other-bool", "14: value 'T' of key 'up' is not a boolean"},
    {"other-type", "8: key 'lanes': unknown attr.type \"integer\""},
    {"graph-data", "14: value 'last year' of key 'gd' is not a number"},
    {"key-twice", "8: key 'name2': attribute 'name' declared twice for node"},
    {"key-attr-twice", "9: key 'l2': attribute 'lanes' declared twice for edge"},
    {"key-id-as-name", "8: key 'enabled': attribute 'enabled' must have attr.type=\"boolean\""},
    {"key-type", "5: key 'slots': attribute 'slots' must have a numeric attr.type"},
    {"kind-empty", "13: kind '' is not host or switch"},
    {"kind-unknown", "13: kind 'router' is not host or switch"},
    {"mismatched-tag", "13: Opening and ending tag mismatch: node line 13 and edge"},
    {"namespace", "2: <graphml> in namespace 'urn:not-graphml', expected none or "
                  "http://graphml.graphdrawing.org/xmlns"},
    {"name-control", "13: xmlParseCharRef: invalid xmlChar value 1"},
    {"name-dup", "13: duplicate node name 'a' (node 'a' at line 10)"},
    {"name-empty", "13: host name '' is empty"},
    {"name-space", "13: host name 'node 1' contains a space (host names go into rankfiles)"},
    {"nested-graph", "14: nested graphs are not supported"},
    {"no-edgedefault", "8: <graph> needs edgedefault=\"undirected\""},
    {"no-graph", "2: no <graph> element"},
    {"node-dup-id", "13: duplicate node id 'a' (first at line 10)"},
    {"node-no-id", "13: <node> without id"},
    {"root", "2: root element is <graph>, expected <graphml>"},
    {"self-loop", "13: self-loop on node 'a'"},
    {"slots-fraction", "13: slots '2.5' is not an integer"},
    {"slots-huge", "13: slots '99999999999' larger than 1000000"},
    {"slots-negative", "13: negative slots '-2'"},
    {"slots-switch", "13: switch 'c' with 4 slots (switches have 0)"},
    {"slots-text", "13: slots 'many' is not an integer"},
    {"slots-zero", "13: host 'c' with 0 slots (hosts need at least 1)"},
    {"transit-bad", "13: transit 'maybe' is not true or false"},
    {"guid-bad", "14: guid '0x12345678901234567' is not 0x and 1 to 16 hex digits"},
    {"truncated-lines", "14: Premature end of data in tag graph line 8"},
    {"truncated", "13: AttValue: ' expected"},
    {"two-graphs", "15: more than one <graph> (topomap reads one network per file)"},
};

static void test_malformed(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        tm_test_expect_bad_net(tm_graphml_read, "bad/xml/graphml", ".graphml", bad[i].file, bad[i].msg);
}

/* ---- writer ------------------------------------------------------------- */

static tm_net *sample_net(void)
{
    tm_net *net;
    int32_t sw, h0, h1, c;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "core <1> & \"q\" 'x'", TM_VERTEX_SWITCH, 0, &sw));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "h\xc3\xb6st0", TM_VERTEX_HOST, 4, &h0));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "h1", TM_VERTEX_HOST, 2, &h1));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, sw, h0, 13.64, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, h1, sw, 100, NULL));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, h1, sw, 0.1, &c));
    tm_net_set_cable_enabled(net, c, false);
    assert_tm_ok(ctx, tm_net_set_transit(ctx, net, h1, TM_TRANSIT_YES));
    assert_tm_ok(ctx, tm_net_set_transit(ctx, net, sw, TM_TRANSIT_NO));
    tm_net_set_guid(net, sw, 0x0002c90300a1b2c3ULL);
    tm_net_set_guid(net, h1, 0xffffffffffffffffULL);
    assert_tm_ok(ctx, tm_net_set_desc(ctx, net, sw, "  MF0;core-sw:SX6036/U1 <a&b>\tx\r\ny  "));
    return net;
}

static void assert_same_net(const tm_net *a, const tm_net *b)
{
    assert_int_equal(tm_net_n_vertices(a), tm_net_n_vertices(b));
    assert_int_equal(tm_net_n_cables(a), tm_net_n_cables(b));
    for (int32_t v = 0; v < tm_net_n_vertices(a); v++) {
        assert_string_equal(tm_net_name(a, v), tm_net_name(b, v));
        assert_int_equal(tm_net_kind(a, v), tm_net_kind(b, v));
        assert_int_equal(tm_net_slots(a, v), tm_net_slots(b, v));
        assert_int_equal(tm_net_transit_policy(a, v), tm_net_transit_policy(b, v));
        assert_true(tm_net_guid(a, v) == tm_net_guid(b, v));
        if (tm_net_desc(a, v))
            assert_string_equal(tm_net_desc(a, v), tm_net_desc(b, v));
        else
            assert_null(tm_net_desc(b, v));
    }
    for (int32_t c = 0; c < tm_net_n_cables(a); c++) {
        int32_t x0, y0, x1, y1;
        tm_net_cable(a, c, &x0, &y0);
        tm_net_cable(b, c, &x1, &y1);
        assert_int_equal(x0, x1);
        assert_int_equal(y0, y1);
        assert_true(tm_net_capacity(a, c) == tm_net_capacity(b, c));
        assert_int_equal(tm_net_cable_enabled(a, c), tm_net_cable_enabled(b, c));
    }
}

/* Writes net to a memory buffer (malloc'ed, NUL-terminated). */
static char *write_mem(tm_net *net, const double *load, bool dot)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    if (dot)
        assert_tm_ok(ctx, tm_dot_write(ctx, net, load, f));
    else
        assert_tm_ok(ctx, tm_graphml_write(ctx, net, load, f));
    fclose(f);
    return buf;
}

/* tm_loads_csv_write: the used directed links in CSR order with the names
 * of their ends, capacity, load and congestion; nothing for unused or
 * disabled links; a network that is not finalized is a usage error. */
static void test_loads_csv(void **state)
{
    tm_net *net = sample_net();
    const tm_net_csr *g;
    double *load;
    char *buf = NULL, want[256];
    size_t len = 0;
    FILE *f;
    (void)state;
    f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_tm_error(ctx, tm_loads_csv_write(ctx, net, (double[6]){0}, f), TM_EUSAGE,
                    "not finalized");
    fclose(f);
    free(buf);
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    g = tm_net_csr_get(net);
    load = calloc((size_t)g->n_links, sizeof *load);
    assert_non_null(load);
    /* sw -> h0 carries 3, the first link h1 -> sw (of the 100 Gbit/s cable) 25 */
    for (int32_t l = 0, done = 0; l < g->n_links; l++)
        if (g->tail_of[l] == 0 && g->head_of[l] == 1)
            load[l] = 3;
        else if (g->tail_of[l] == 2 && g->head_of[l] == 0 && !done++)
            load[l] = 25;
    snprintf(want, sizeof want, "from,to,capacity,load,congestion\n"
             "core <1> & \"q\" 'x',h\xc3\xb6st0,%.17g,3,%.17g\n"
             "h1,core <1> & \"q\" 'x',100,25,0.25\n", 13.64, 3 / 13.64);
    buf = NULL;
    f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_tm_ok(ctx, tm_loads_csv_write(ctx, net, load, f));
    fclose(f);
    assert_string_equal(buf, want);
    free(buf);
    free(load);
    tm_net_free(net);
}

static void test_round_trip(void **state)
{
    tm_net *net = sample_net(), *back;
    double load[6] = {1, 2, 50, 0, 0, 0};
    char *text;
    (void)state;
    text = write_mem(net, NULL, false);
    assert_non_null(strstr(text, "<data key=\"name\">core &lt;1&gt; &amp; &quot;q&quot; &apos;x&apos;"));
    assert_non_null(strstr(text, "<data key=\"capacity\">13.64</data>"));
    assert_non_null(strstr(text, "<data key=\"slots\">4</data>"));
    assert_non_null(strstr(text, "<data key=\"guid\">0x0002c90300a1b2c3</data>"));
    assert_non_null(strstr(text, "<data key=\"desc\">  MF0;core-sw:SX6036/U1 &lt;a&amp;b&gt;"
                                 "&#9;x&#13;&#10;y  </data>"));
    assert_tm_ok(ctx, read_text(text, "rt", &back));
    assert_same_net(net, back);
    tm_net_free(back);
    free(text);

    text = write_mem(net, load, false);
    assert_non_null(strstr(text, "<data key=\"load_ab\">1</data><data key=\"load_ba\">2</data>"
                                 "<data key=\"congestion_ab\">0.07331378299120234</data>"));
    assert_non_null(strstr(text, "<data key=\"load_ab\">50</data><data key=\"load_ba\">0</data>"
                                 "<data key=\"congestion_ab\">0.5</data>"));
    assert_tm_ok(ctx, read_text(text, "rt2", &back));
    assert_same_net(net, back);
    tm_net_free(back);
    free(text);
    tm_net_free(net);
}

/* Real InfiniBand fabrics (switch descriptions with spaces, GUIDs) survive
 * GraphML: ibnetdiscover dump -> tm_net -> GraphML -> tm_net. */
static void test_ibnet_round_trip(void **state)
{
    static const char *const dumps[] = {"docs/samples/ibnetdiscover-ibsim.txt",
                                        "data/ibnetdiscover/psmn_X5/X5.topofile",
                                        "data/ibnetdiscover/jabl_ibtopotool/1.topo"};
    (void)state;
    for (size_t i = 0; i < sizeof dumps / sizeof dumps[0]; i++) {
        tm_ibnet_opts io = TM_IBNET_OPTS_INIT;
        FILE *f = fopen(REAL_DATA(dumps[i]), "r");
        tm_net *net, *back;
        char *text;
        if (!f)
            fail_msg("cannot open %s", dumps[i]);
        assert_tm_ok(ctx, tm_net_new(ctx, &net));
        assert_tm_ok(ctx, tm_ibnet_read(ctx, f, dumps[i], &io, net));
        fclose(f);
        text = write_mem(net, NULL, false);
        assert_tm_ok(ctx, read_text(text, dumps[i], &back));
        assert_same_net(net, back);
        tm_net_free(back);
        free(text);
        tm_net_free(net);
    }
}

/* A decimal-comma locale must not change what is written or read. */
static void test_locale(void **state)
{
    tm_net *net = sample_net(), *back;
    char *text;
    (void)state;
    if (!setlocale(LC_NUMERIC, "de_DE.UTF-8") && !setlocale(LC_NUMERIC, "fr_FR.UTF-8")) {
        tm_net_free(net);
        skip();
    }
    text = write_mem(net, NULL, false);
    assert_non_null(strstr(text, ">13.64<"));
    assert_tm_ok(ctx, read_text(text, "loc", &back));
    assert_true(tm_net_capacity(back, 0) == 13.64);
    setlocale(LC_NUMERIC, "C");
    tm_net_free(back);
    free(text);
    tm_net_free(net);
}

static void test_write_rejects_bad_names(void **state)
{
    tm_net *net;
    FILE *f = fopen("/dev/null", "w");
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "node 1", TM_VERTEX_HOST, 1, NULL));
    assert_int_equal(tm_graphml_write(ctx, net, NULL, f), TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "cannot write vertex name 'node 1' as GraphML: "
                                            "contains a space (host names go into rankfiles)");
    tm_net_free(net);
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "a\x01", TM_VERTEX_SWITCH, 0, NULL));
    assert_int_equal(tm_graphml_write(ctx, net, NULL, f), TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "cannot write vertex name 'a\x01' as GraphML: "
                                            "contains a control character");
    tm_net_free(net);
    fclose(f);
}

static void test_dot(void **state)
{
    tm_net *net = sample_net();
    double load[6] = {1, 2, 50, 0, 0, 0};
    char *text;
    (void)state;
    text = write_mem(net, NULL, true);
    assert_non_null(strstr(text, "graph topology {\n"));
    assert_non_null(strstr(text, "  \"core <1> & \\\"q\\\" 'x'\" [shape=ellipse];\n"));
    assert_non_null(strstr(text, "  \"h1\" [shape=box, tooltip=\"2 slots\"];\n"));
    assert_non_null(strstr(text, "  \"core <1> & \\\"q\\\" 'x'\" -- \"h\xc3\xb6st0\" [label=\"13.64\"];\n"));
    assert_non_null(strstr(text, " [label=\"0.1 (down)\", style=dashed, color=gray];\n"));
    free(text);
    /* congestion: cable 0 max(1,2)/13.64 = 0.1466, cable 1 50/100 = 0.5 (max) */
    text = write_mem(net, load, true);
    assert_non_null(strstr(text, "\"h1\" -- \"core <1> & \\\"q\\\" 'x'\" [label=\"100\\nc=0.5\", "
                                 "color=\"0.000 0.85 0.85\", penwidth=5.00];\n"));
    assert_non_null(strstr(text, "[label=\"13.64\\nc=0.1466\", color=\"0.235 0.85 0.85\", "
                                 "penwidth=2.17];\n"));
    assert_non_null(strstr(text, "}\n"));
    free(text);
    tm_net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_igraph_written),
        cmocka_unit_test(test_handwritten_selfloop),
        cmocka_unit_test(test_handwritten_defaults),
        cmocka_unit_test(test_no_keys),
        cmocka_unit_test(test_attributes),
        cmocka_unit_test(test_namespaces),
        cmocka_unit_test(test_existing_net),
        cmocka_unit_test(test_attribute_table_restored),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_loads_csv),
        cmocka_unit_test(test_ibnet_round_trip),
        cmocka_unit_test(test_locale),
        cmocka_unit_test(test_write_rejects_bad_names),
        cmocka_unit_test(test_dot),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
