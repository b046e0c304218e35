/* test_xml_hostile.c - hostile XML against both XML readers (GraphML,
 * which also runs igraph's parser on the bytes, and the XML topology
 * spec): entity expansion, external entities and DTDs (proved not opened
 * with inotify, not fetched with a listening socket), nesting depth, size
 * limits, NUL bytes, every truncation of a valid document, garbage,
 * encodings, line numbers beyond 65535.  Every rejection must be
 * TM_EINPUT with "name:line: ..." and nothing may be printed on stderr. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_fixtures.h"
#include "io/xml_int.h"

enum { GRAPHML, SPEC };

/* Runs one reader on len bytes with stderr captured; fails if anything
 * was printed there. */
static tm_err run(int which, const char *buf, size_t len, const char *name)
{
    FILE *f = fmemopen((void *)buf, len, "r"), *cap = tmpfile();
    int saved = dup(2);
    tm_net *net;
    tm_err err;
    struct stat st;

    assert_non_null(f);
    assert_non_null(cap);
    assert_true(saved >= 0);
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    fflush(stderr);
    dup2(fileno(cap), 2);
    tm_ctx_clear_error(ctx);
    err = which == GRAPHML ? tm_graphml_read(ctx, f, name, net) : tm_xmlspec_read(ctx, f, name, net);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    fclose(f);
    tm_net_free(net);
    assert_int_equal(fstat(fileno(cap), &st), 0);
    if (st.st_size != 0) {
        char out[512] = "";
        rewind(cap);
        out[fread(out, 1, sizeof out - 1, cap)] = '\0';
        fail_msg("%s printed on stderr: %s", name, out);
    }
    fclose(cap);
    return err;
}

static tm_err run_str(int which, const char *text, const char *name)
{
    return run(which, text, strlen(text), name);
}

/* Both readers reject text with exactly "name:" want. */
static void expect_both(const char *text, const char *want)
{
    static const char *const names[] = {"h.graphml", "h.xml"};
    for (int w = GRAPHML; w <= SPEC; w++) {
        char full[512];
        snprintf(full, sizeof full, "%s:%s", names[w], want);
        tm_err err = run_str(w, text, names[w]);
        if (err != TM_EINPUT || strcmp(tm_ctx_errmsg(ctx), full) != 0)
            fail_msg("got %d '%s', want '%s'", (int)err, tm_ctx_errmsg(ctx), full);
    }
}

static const char *graphml_ok =
    "<?xml version='1.0' encoding='UTF-8'?>\n"
    "<graphml xmlns='http://graphml.graphdrawing.org/xmlns'>\n"
    "  <key id='k' for='node' attr.name='kind' attr.type='string'/>\n"
    "  <key id='c' for='edge' attr.name='capacity' attr.type='double'/>\n"
    "  <graph edgedefault='undirected'>\n"
    "    <node id='s'><data key='k'>switch</data></node>\n"
    "    <node id='a'/><node id='b'/>\n"
    "    <edge source='s' target='a'><data key='c'>100</data></edge>\n"
    "    <edge source='s' target='b'><data key='c'>100</data></edge>\n"
    "  </graph>\n"
    "</graphml>\n";

static const char *spec_ok = "<?xml version='1.0' encoding='UTF-8'?>\n"
                             "<topology capacity='100'>\n"
                             "  <switch name='s'/>\n"
                             "  <host names='a,b' slots='2'/>\n"
                             "  <link a='s' b='a,b'/>\n"
                             "</topology>\n";

static void test_billion_laughs(void **state)
{
    char doc[4096];
    size_t n;
    (void)state;
    n = (size_t)snprintf(doc, sizeof doc, "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n"
                                          " <!ENTITY lol \"lol\">\n");
    for (int i = 1; i <= 9; i++) {
        n += (size_t)snprintf(doc + n, sizeof doc - n, " <!ENTITY lol%d \"", i);
        for (int j = 0; j < 10; j++)
            n += (size_t)snprintf(doc + n, sizeof doc - n, i == 1 ? "&lol;" : "&lol%d;", i - 1);
        n += (size_t)snprintf(doc + n, sizeof doc - n, "\">\n");
    }
    snprintf(doc + n, sizeof doc - n, "]>\n<topology>\n<host name=\"&lol9;\"/>\n</topology>\n");
    /* libxml2 itself stops the expansion; the reference is on line 15 */
    expect_both(doc, "15: Detected an entity reference loop");
    /* declared but unused entities are refused too */
    expect_both("<?xml version='1.0'?>\n<!DOCTYPE t [\n<!ENTITY a 'aaaa'>\n]>\n<t/>\n",
                "3: DOCTYPE with entity declarations is not accepted");
}

static void test_external_entity(void **state)
{
    (void)state;
    /* in an attribute libxml2 refuses it itself, in content we do */
    expect_both("<?xml version='1.0'?>\n<!DOCTYPE topology [\n"
                "  <!ENTITY xxe SYSTEM 'file:///etc/passwd'>\n]>\n"
                "<topology><host name='&xxe;'/></topology>\n",
                "5: Attribute references external entity 'xxe'");
    expect_both("<?xml version='1.0'?>\n<!DOCTYPE topology [\n"
                "  <!ENTITY xxe SYSTEM 'file:///etc/passwd'>\n]>\n"
                "<topology><host name='a'>&xxe;</host></topology>\n",
                "3: DOCTYPE with entity declarations is not accepted");
    expect_both("<?xml version='1.0'?>\n<!DOCTYPE topology [\n"
                "  <!ENTITY % p SYSTEM 'file:///etc/passwd'>\n  %p;\n]>\n<topology/>\n",
                "3: DOCTYPE with entity declarations is not accepted");
    /* an entity that would come from an external DTD is never defined */
    expect_both("<?xml version='1.0'?>\n<!DOCTYPE topology SYSTEM 'file:///etc/passwd'>\n"
                "<topology>\n<host name='a&ent;'/>\n</topology>\n",
                "4: Entity 'ent' not defined");
}

/* An external DTD on disk is not even opened: inotify sees no access. */
static void test_external_dtd_file_not_opened(void **state)
{
    char dir[] = "/tmp/tm-hostile-XXXXXX", dtd[256], doc[1024], ev[4096];
    int in;
    FILE *f;
    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(dtd, sizeof dtd, "%s/x.dtd", dir);
    f = fopen(dtd, "w");
    assert_non_null(f);
    fputs("<!ENTITY secret \"LEAKED\">\n", f);
    fclose(f);
    in = inotify_init1(IN_NONBLOCK);
    if (in < 0 || inotify_add_watch(in, dtd, IN_OPEN | IN_ACCESS) < 0) {
        unlink(dtd);
        rmdir(dir);
        skip();
    }
    snprintf(doc, sizeof doc, "<?xml version='1.0'?>\n<!DOCTYPE topology SYSTEM 'file://%s'>\n"
                              "<topology>\n  <host name='a'/>\n</topology>\n",
             dtd);
    assert_tm_ok(ctx, run_str(SPEC, doc, "d.xml"));
    snprintf(doc, sizeof doc, "<?xml version='1.0'?>\n<!DOCTYPE graphml SYSTEM '%s'>\n%s", dtd,
             strstr(graphml_ok, "<graphml"));
    assert_tm_ok(ctx, run_str(GRAPHML, doc, "d.graphml"));
    snprintf(doc, sizeof doc, "<?xml version='1.0'?>\n<!DOCTYPE topology SYSTEM '%s'>\n"
                              "<topology>\n  <host name='a&secret;'/>\n</topology>\n",
             dtd);
    assert_int_equal(run_str(SPEC, doc, "d.xml"), TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "d.xml:4: Entity 'secret' not defined");
    errno = 0;
    assert_int_equal(read(in, ev, sizeof ev), -1);
    assert_int_equal(errno, EAGAIN);
    close(in);
    unlink(dtd);
    rmdir(dir);
}

/* A DTD on the network is not fetched: a listening socket sees no
 * connection attempt. */
static void test_external_dtd_no_network(void **state)
{
    struct sockaddr_in sa = {0};
    socklen_t sl = sizeof sa;
    char doc[1024];
    int s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    (void)state;
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (s < 0 || bind(s, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(s, 4) != 0 ||
        getsockname(s, (struct sockaddr *)&sa, &sl) != 0) {
        if (s >= 0)
            close(s);
        skip();
    }
    snprintf(doc, sizeof doc, "<?xml version='1.0'?>\n"
                              "<!DOCTYPE topology SYSTEM 'http://127.0.0.1:%d/x.dtd'>\n"
                              "<topology>\n  <host name='a'/>\n</topology>\n",
             (int)ntohs(sa.sin_port));
    assert_tm_ok(ctx, run_str(SPEC, doc, "n.xml"));
    snprintf(doc, sizeof doc, "<?xml version='1.0'?>\n"
                              "<!DOCTYPE graphml PUBLIC '-//x//y' 'http://127.0.0.1:%d/g.dtd'>\n%s",
             (int)ntohs(sa.sin_port), strstr(graphml_ok, "<graphml"));
    assert_tm_ok(ctx, run_str(GRAPHML, doc, "n.graphml"));
    errno = 0;
    assert_int_equal(accept(s, NULL, NULL), -1);
    assert_true(errno == EAGAIN || errno == EWOULDBLOCK);
    close(s);
}

static void test_deep_nesting(void **state)
{
    static const int depths[] = {257, 300, 100000};
    (void)state;
    for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++) {
        int d = depths[i];
        size_t cap = (size_t)d * 8 + 64, n = 0;
        char *doc = malloc(cap);
        assert_non_null(doc);
        n += (size_t)sprintf(doc + n, "<topology>\n");
        for (int j = 1; j < d; j++)
            n += (size_t)sprintf(doc + n, "<a>");
        for (int j = 1; j < d; j++)
            n += (size_t)sprintf(doc + n, "</a>");
        sprintf(doc + n, "\n</topology>\n");
        expect_both(doc, "2: elements nested deeper than 256");
        free(doc);
    }
}

/* Streams `left` bytes of '<a>' filler without holding them in memory. */
static ssize_t filler_read(void *cookie, char *buf, size_t size)
{
    size_t *left = cookie, n = size < *left ? size : *left;
    memset(buf, ' ', n);
    *left -= n;
    return (ssize_t)n;
}

static void test_oversized(void **state)
{
    size_t left = (size_t)TM_XML_MAX_BYTES + 1;
    cookie_io_functions_t io = {filler_read, NULL, NULL, NULL};
    xmlDocPtr doc;
    tm_net *net;
    FILE *f;
    char msg[256];
    (void)state;
    /* the in-memory entry refuses before looking at the bytes */
    assert_int_equal(tm__xml_parse_mem(ctx, "<a/>", (size_t)TM_XML_MAX_BYTES + 1, "big", &doc),
                     TM_EINPUT);
    snprintf(msg, sizeof msg, "big: XML file larger than %u bytes", TM_XML_MAX_BYTES);
    assert_string_equal(tm_ctx_errmsg(ctx), msg);
    assert_null(doc);
    /* the stream readers stop reading at the limit */
    f = fopencookie(&left, "r", io);
    assert_non_null(f);
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_int_equal(tm_graphml_read(ctx, f, "big.graphml", net), TM_EINPUT);
    snprintf(msg, sizeof msg, "big.graphml: file larger than %u bytes", TM_XML_MAX_BYTES);
    assert_string_equal(tm_ctx_errmsg(ctx), msg);
    fclose(f);
    tm_net_free(net);
}

static void test_long_name(void **state)
{
    size_t n = TM_XML_MAX_NAME + 10;
    char *doc = malloc(n + 64), *p;
    (void)state;
    assert_non_null(doc);
    p = doc + sprintf(doc, "<topology>\n<host name='");
    memset(p, 'x', n);
    strcpy(p + n, "'/>\n</topology>\n");
    assert_int_equal(run_str(SPEC, doc, "l.xml"), TM_EINPUT);
    assert_non_null(strstr(tm_ctx_errmsg(ctx), "l.xml:2: host name 'xxxx"));
    assert_non_null(strstr(tm_ctx_errmsg(ctx), "' is too long"));
    free(doc);
}

static void test_nul_and_empty(void **state)
{
    static const char with_nul[] = "<topology>\n<host name='a'/>\n\0<host name='b'/>\n</topology>";
    (void)state;
    for (int w = GRAPHML; w <= SPEC; w++) {
        assert_int_equal(run(w, with_nul, sizeof with_nul - 1, "z"), TM_EINPUT);
        assert_string_equal(tm_ctx_errmsg(ctx), "z:3: NUL byte in XML input");
        assert_int_equal(run(w, "", 0, "e"), TM_EINPUT);
        assert_string_equal(tm_ctx_errmsg(ctx), "e:1: empty file");
    }
    expect_both("   \n\n", "3: Start tag expected, '<' not found");
}

/* Every proper prefix of a valid document is rejected cleanly (or, when
 * only trailing whitespace is cut, accepted). */
static void test_truncated(void **state)
{
    const char *docs[2] = {graphml_ok, spec_ok};
    (void)state;
    for (int w = GRAPHML; w <= SPEC; w++) {
        size_t len = strlen(docs[w]);
        assert_tm_ok(ctx, run(w, docs[w], len, "full"));
        for (size_t n = 1; n < len; n++) {
            tm_err err = run(w, docs[w], n, "cut");
            const char *end = strstr(docs[w], w == GRAPHML ? "</graphml>" : "</topology>");
            bool complete = docs[w] + n >= strchr(end, '>') + 1;
            if (complete ? err != TM_EOK : err != TM_EINPUT)
                fail_msg("prefix %zu of %d: %d '%s'", n, w, (int)err, tm_ctx_errmsg(ctx));
            if (err && strncmp(tm_ctx_errmsg(ctx), "cut:", 4) != 0)
                fail_msg("prefix %zu: message '%s'", n, tm_ctx_errmsg(ctx));
        }
    }
}

static void test_garbage(void **state)
{
    static const char *const junk[] = {
        "hello world\n",
        "{\"topology\": [1, 2, 3]}\n",
        "# Topology file: generated on Mon\nSwitch 36 \"S-0002c903\"\n",
        "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        "<topology><host name='a'/></topology><topology/>",
        "<<<>>>",
        "<?xml version='1.0' encoding='EBCDIC-XYZ'?><topology/>",
        "<topology>\n<host name='a' name='b'/>\n</topology>",
    };
    uint64_t x = 88172645463325252ULL;
    char rnd[2048];
    (void)state;
    for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++)
        for (int w = GRAPHML; w <= SPEC; w++) {
            size_t len = i == 3 ? 16 : strlen(junk[i]);
            assert_int_equal(run(w, junk[i], len, "junk"), TM_EINPUT);
            if (strncmp(tm_ctx_errmsg(ctx), "junk:", 5) != 0)
                fail_msg("junk %zu: '%s'", i, tm_ctx_errmsg(ctx));
        }
    /* random bytes and random bytes after a valid prolog */
    for (int round = 0; round < 200; round++) {
        for (size_t i = 0; i < sizeof rnd; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            rnd[i] = (char)(x >> 32);
        }
        if (round % 2)
            memcpy(rnd, "<topology>", 10);
        for (int w = GRAPHML; w <= SPEC; w++)
            assert_int_equal(run(w, rnd, sizeof rnd, "rnd"), TM_EINPUT);
    }
}

static void test_encodings(void **state)
{
    tm_net *net;
    FILE *f;
    (void)state;
    /* invalid UTF-8 in a name */
    expect_both("<topology>\n<host name='a\xff'/>\n</topology>\n",
                "2: Input is not proper UTF-8, indicate encoding !");
    /* bytes invalid in the declared encoding: libxml2 reports this through
     * its global handler (printed on stderr unless redirected) */
    expect_both("<?xml version='1.0' encoding='ISO-2022-JP'?>\n"
                "<topology><host name='a\xff\xff\xff\xff'/></topology>\n",
                "1: input conversion failed due to input error, bytes 0xFF 0xFF 0xFF 0xFF");
    /* a declared Latin-1 document is converted to UTF-8 */
    f = tm_test_memfile("<?xml version='1.0' encoding='ISO-8859-1'?>\n"
                        "<topology><host name='n\xf8'/></topology>\n");
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_xmlspec_read(ctx, f, "l1", net));
    assert_string_equal(tm_net_name(net, 0), "n\xc3\xb8");
    fclose(f);
    tm_net_free(net);
    /* CRLF GraphML keeps line numbers */
    assert_int_equal(run_str(GRAPHML,
                             "<graphml>\r\n<graph edgedefault='undirected'>\r\n<node id='a'/>\r\n"
                             "<edge source='a' target='a'/>\r\n</graph>\r\n</graphml>\r\n",
                             "crlf"),
                     TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "crlf:4: self-loop on node 'a'");
}

/* Line numbers beyond 65535 are exact (XML_PARSE_BIG_LINES), both for
 * libxml2's own errors and for the readers' semantic ones. */
static void test_big_line_numbers(void **state)
{
    size_t blank = 70000;
    char *doc = malloc(blank + 512), *p;
    (void)state;
    assert_non_null(doc);
    p = doc + sprintf(doc, "<topology>\n<host name='a'/>");
    memset(p, '\n', blank);
    strcpy(p + blank, "<link a='a' b='q'/>\n</topology>\n");
    assert_int_equal(run_str(SPEC, doc, "big.xml"), TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "big.xml:70002: link to unknown vertex 'q'");
    p = doc + sprintf(doc, "<graphml>\n<graph edgedefault='undirected'>\n<node id='a'/>");
    memset(p, '\n', blank);
    strcpy(p + blank, "<edge source='a' target='q'/>\n</graph></graphml>\n");
    assert_int_equal(run_str(GRAPHML, doc, "big.graphml"), TM_EINPUT);
    assert_string_equal(tm_ctx_errmsg(ctx), "big.graphml:70003: edge to undeclared node id 'q'");
    strcpy(p + blank, "<edge source='a' target='q'>\n</graph></graphml>\n");
    expect_both(doc, "70004: Opening and ending tag mismatch: edge line 70003 and graph");
    free(doc);
}

/* The hardening must not refuse legitimate files: hwloc exports carry a
 * DOCTYPE with an external DTD that is never loaded. */
static void test_hwloc_files_accepted(void **state)
{
    static const char *const files[] = {
        "docs/samples/hwloc-v1-2pkg-4core-2pu.xml",
        "docs/samples/hwloc-v2-2pkg-4core-2pu.xml",
        "data/hwloc/hwloc_tests/192em64t-24n8c2t.xml",
        "data/hwloc/hwloc_tests/nvidiaDGX2.xml",
        "data/hwloc/plafrim2_nodes/miriel063.xml",
        "data/hwloc/plafrim2_nodes/miriel063.v2-master.xml",
    };
    (void)state;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        FILE *f = fopen(REAL_DATA(files[i]), "r");
        xmlDocPtr doc;
        if (!f)
            fail_msg("cannot open %s", files[i]);
        assert_tm_ok(ctx, tm__xml_parse(ctx, f, files[i], &doc));
        assert_string_equal((const char *)xmlDocGetRootElement(doc)->name, "topology");
        xmlFreeDoc(doc);
        fclose(f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_billion_laughs),
        cmocka_unit_test(test_external_entity),
        cmocka_unit_test(test_external_dtd_file_not_opened),
        cmocka_unit_test(test_external_dtd_no_network),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_oversized),
        cmocka_unit_test(test_long_name),
        cmocka_unit_test(test_nul_and_empty),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_encodings),
        cmocka_unit_test(test_big_line_numbers),
        cmocka_unit_test(test_hwloc_files_accepted),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
