/* test_lft_formats.c - the forwarding-table dump formats besides ibroute's
 * one file per switch (lft_read.c, lft_fdbs.c): dump_lfts.sh (directed-
 * route headers, `-n` rows without destination), OpenSM's
 * opensm-lfts.dump, and the dump_ucast_routes format of opensm.fdbs /
 * ibdiagnet2.fdbs.  The hand-made fabric's tables in every format route
 * every pair exactly as the ibroute files do; the real plafrim tables,
 * converted here from their ibroute files into each format (written to a
 * temporary directory, not committed), give the same loads for every
 * source; every malformed file fails with file:line. */
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_fixtures.h"
#include "route_fixtures.h"

#define PLAFRIM "data/ibnetdiscover_p/plafrim/ib-subnet-fe80_0000_0000_0000.txt"

/* For every source host, the loads of its flows to every host (host t
 * gets volume t + 1, so that two different paths cannot cancel out) and
 * their hop counts; the same under router b, or the test fails. */
static void same_routes(const tm_route *a, const tm_route *b)
{
    const tm_net *net = tm_route_net(a);
    size_t nl = (size_t)tm_net_csr_get(net)->n_links;
    int32_t n = tm_net_n_hosts(net), *dst = malloc((size_t)n * sizeof *dst);
    int32_t *ha = malloc((size_t)n * sizeof *ha), *hb = malloc((size_t)n * sizeof *hb);
    double *vol = malloc((size_t)n * sizeof *vol), *la = malloc(nl * sizeof *la);
    double *lb = malloc(nl * sizeof *lb);
    tm_route_ws *wa, *wb;
    assert_tm_ok(ctx, tm_route_ws_new(ctx, a, &wa));
    assert_tm_ok(ctx, tm_route_ws_new(ctx, b, &wb));
    for (int32_t t = 0; t < n; t++) {
        dst[t] = t;
        vol[t] = t + 1;
    }
    for (int32_t s = 0; s < n; s++) {
        memset(la, 0, nl * sizeof *la);
        memset(lb, 0, nl * sizeof *lb);
        assert_tm_ok(ctx, tm_route_flows(ctx, a, wa, s, (size_t)n, dst, vol, la, ha));
        assert_tm_ok(ctx, tm_route_flows(ctx, b, wb, s, (size_t)n, dst, vol, lb, hb));
        assert_memory_equal(ha, hb, (size_t)n * sizeof *ha);
        assert_memory_equal(la, lb, nl * sizeof *la);
    }
    tm_route_ws_free(wa);
    tm_route_ws_free(wb);
    free(dst);
    free(ha);
    free(hb);
    free(vol);
    free(la);
    free(lb);
}

static tm_route *lft(const tm_net *net, const char *dir)
{
    tm_route *r;
    assert_tm_ok(ctx, tm_route_new_lft(ctx, net, dir, &r));
    return r;
}

static void test_lft2_formats(void **state)
{
    static const char *const dirs[] = {"route/lft2/dump", "route/lft2/osm", "route/lft2/fdbs"};
    tm_net *net = load(TEST_DATA("route/lft2/fabric.txt"));
    tm_route *ref = lft(net, TEST_DATA("route/lft2/tables"));
    (void)state;
    for (int i = 0; i < 3; i++) {
        tm_route *r = lft(net, tm_test_path("", dirs[i]));
        same_routes(ref, r);
        tm_route_free(r);
    }
    tm_route_free(ref);
    tm_net_free(net);
}

static void test_format_errors(void **state)
{
    static const char *const cases[][2] = {
        {"same-switch", "x.txt:13: second table for switch 'leaf1' (first in "},
        {"not-ibroute", "x.txt:1: not a line of a forwarding-table dump"},
        {"multicast", "x.txt:2: multicast forwarding tables (OpenSM's opensm.mcfdbs or ibroute -M)"},
        {"fdbs-header", "x.fdbs:1: malformed header: expected 'dump_ucast_routes: Switch 0xGUID'"},
        {"fdbs-row", "x.fdbs:5: malformed entry: expected '0xLID : PORT : HOPS : ...'"},
        {"fdbs-plft", "x.fdbs:1: private LFT 1 (PLFT_NUM): only the linear forwarding table"},
        {"mixed", "x.txt:13: a 'dump_ucast_routes: Switch' (opensm.fdbs, ibdiagnet2.fdbs) "
                  "header in a file of 'Unicast lids'"},
        {"empty", "x.txt:1: no switch header"},
        {"stopped-short", "x.txt:12: the tool stopped ('/usr/sbin/ibroute: iberror: failed: dump "
                          "tables: linear forwarding table get failed') before the table of "
                          "switch 'leaf1' reached the end of its range [0x0-0x4f] (last LID "
                          "listed 0x15): dump it again"},
        {"subnget-block", "x.txt:12: the tool could not read LFT block 0 (LIDs 0x0-0x3f) of "
                          "switch 'leaf1'"},
        {"diag-only", "x.txt:1: the tool printed diagnostics but no table"},
        {"subnget-dump-fts", "x.txt:8: the tool could not read an LFT block ('SubnGet(LFT) "
                             "failed on switch 'leaf1' DR path"},
        {"after-stop", "x.txt:13: entry after the tool's error line ended the table"},
    };
    tm_net *net = load(TEST_DATA("route/lft2/fabric.txt"));
    char dir[4096];
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tm_route *r = NULL;
        snprintf(dir, sizeof dir, "%s%s", TEST_DATA("bad/lft/"), cases[i][0]);
        assert_tm_error(ctx, tm_route_new_lft(ctx, net, dir, &r), TM_EINPUT, cases[i][1]);
        assert_null(r);
    }
    tm_net_free(net);
}

/* ---- tool diagnostics (lft_diag.c) ------------------------------------------ */

typedef struct warnings {
    int n;
    char first[512];
} warnings;

static void count_warning(void *ud, tm_log_level level, const char *msg)
{
    warnings *w = ud;
    if (level != TM_LOG_WARN)
        return;
    if (!w->n++)
        snprintf(w->first, sizeof w->first, "%s", msg);
}

/* lft2's ibroute files as older ibroute prints them: each table complete,
 * then "iberror: failed: ... linear forwarding table get failed" (plain
 * and -d forms) and an ibwarn line before one header: the same routes as
 * the clean files, one warning per diagnostic naming its file and line. */
static void test_lft2_iberror(void **state)
{
    tm_net *net = load(TEST_DATA("route/lft2/fabric.txt"));
    tm_route *ref = lft(net, TEST_DATA("route/lft2/tables")), *r;
    warnings w = {0};
    (void)state;
    tm_ctx_set_log(ctx, count_warning, &w);
    r = lft(net, TEST_DATA("route/lft2/iberror"));
    tm_ctx_set_log(ctx, NULL, NULL);
    assert_int_equal(w.n, 5);
    assert_non_null(strstr(w.first, "ibroute-10.txt:12: tool diagnostic ignored: "
                           "'/usr/sbin/ibroute: iberror: failed: dump tables: linear forwarding "
                           "table get failed' (the table of switch 'leaf1' covers its range "
                           "[0x0-0x15])"));
    same_routes(ref, r);
    tm_route_free(r);
    tm_route_free(ref);
    tm_net_free(net);
}

/* ---- plafrim's ibroute files converted into the other formats ------------ */

typedef struct conv {
    FILE *dump, *osm, *fdbs;
    const char *iberror; /* directory of the ibroute files ending with iberror */
} conv;

/* One ibroute file into the three other formats: dump_lfts.sh (a
 * directed-route header), opensm-lfts.dump, opensm.fdbs.  ibroute lists
 * valid entries only, so the fdbs block lists the others UNREACHABLE. */
static void convert(const char *path, conv *c, int idx)
{
    FILE *in = fopen(path, "r");
    char line[1024];
    unsigned lo, hi, lid, port, top = 0;
    unsigned long long guid;
    unsigned short port_of[0x10000];
    char out[4300];
    FILE *ibe;
    snprintf(out, sizeof out, "%s/ibroute-%d.txt", c->iberror, idx);
    ibe = fopen(out, "w");
    assert_non_null(ibe);
    assert_non_null(in);
    memset(port_of, 0xff, sizeof port_of);
    while (fgets(line, sizeof line, in)) {
        char *rest = strstr(line, " guid ");
        /* older ibroute: the whole range, then one LFT block too many */
        fputs(strstr(line, "valid lids dumped") ? "/usr/sbin/ibroute: iberror: failed: dump "
              "tables: linear forwarding table get failed\n" : line, ibe);
        if (sscanf(line, "Unicast lids [0x%x-0x%x] of switch Lid %u", &lo, &hi, &lid) == 3) {
            assert_non_null(rest);
            assert_int_equal(sscanf(rest, " guid 0x%llx", &guid), 1);
            fprintf(c->dump, "Unicast lids [0x%x-0x%x] of switch DR path slid 0; dlid 0; 0,%d%s",
                    lo, hi, idx, rest);
            fprintf(c->osm, "Unicast lids [%u-%u] of switch Lid %u guid 0x%016llx ('sw'):\n", lo,
                    hi, lid, guid);
            fprintf(c->fdbs, "osm_ucast_mgr_dump_ucast_routes: Switch 0x%016llx\n"
                    "LID    : Port : Hops : Optimal\n", guid);
            top = hi;
        } else if (sscanf(line, "0x%x %u", &lid, &port) == 2) {
            fputs(line, c->dump);
            fprintf(c->osm, "0x%04x %03u # x\n", lid, port);
            port_of[lid] = (unsigned short)port;
        } else {
            fputs(line, c->dump);
        }
    }
    for (unsigned l = 1; l <= top; l++)
        if (port_of[l] == 0xffff)
            fprintf(c->fdbs, "0x%04X : UNREACHABLE\n", l);
        else
            fprintf(c->fdbs, "0x%04X : %03u  : 01   : yes\n", l, port_of[l]);
    fprintf(c->osm, "%u lids dumped\n", top);
    fclose(in);
    fclose(ibe);
}

static FILE *create(char *path, size_t sz, const char *dir, const char *sub, const char *name)
{
    FILE *f;
    snprintf(path, sz, "%s/%s", dir, sub);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sz, "%s/%s/%s", dir, sub, name);
    f = fopen(path, "w");
    assert_non_null(f);
    return f;
}

static void test_plafrim_converted(void **state)
{
    static const char *const subs[] = {"dump", "osm", "fdbs"};
    char topo[4096], src[4096], tmp[] = "/tmp/tm_lft_formatsXXXXXX", p[3][4200], path[8192];
    char ibe[4200];
    warnings w = {0};
    conv c;
    tm_net *net;
    tm_route *ref;
    (void)state;
    snprintf(topo, sizeof topo, "%s", REAL_DATA(PLAFRIM));
    snprintf(src, sizeof src, "%s", REAL_DATA("data/ibroute_lft/plafrim"));
    assert_non_null(mkdtemp(tmp));
    c.dump = create(p[0], sizeof p[0], tmp, subs[0], "dump_lfts.out");
    c.osm = create(p[1], sizeof p[1], tmp, subs[1], "opensm-lfts.dump");
    c.fdbs = create(p[2], sizeof p[2], tmp, subs[2], "ibdiagnet2.fdbs");
    snprintf(ibe, sizeof ibe, "%s/iberror", tmp);
    assert_int_equal(mkdir(ibe, 0700), 0);
    c.iberror = ibe;
    {
        DIR *d = opendir(src);
        struct dirent *e;
        int idx = 0;
        assert_non_null(d);
        while ((e = readdir(d)))
            if (e->d_name[0] != '.') {
                snprintf(path, sizeof path, "%s/%s", src, e->d_name);
                convert(path, &c, idx++);
            }
        closedir(d);
        assert_int_equal(idx, 9); /* one table per switch */
    }
    fclose(c.dump);
    fclose(c.osm);
    fclose(c.fdbs);
    net = load(topo);
    ref = lft(net, src);
    for (int i = 0; i < 3; i++) {
        tm_route *r;
        snprintf(path, sizeof path, "%s/%s", tmp, subs[i]);
        r = lft(net, path);
        same_routes(ref, r);
        tm_route_free(r);
        assert_int_equal(unlink(p[i]), 0);
        assert_int_equal(rmdir(path), 0);
    }
    /* every file ends with the iberror line: one warning each, same routes */
    {
        tm_route *r;
        tm_ctx_set_log(ctx, count_warning, &w);
        r = lft(net, ibe);
        tm_ctx_set_log(ctx, NULL, NULL);
        assert_int_equal(w.n, 9);
        assert_non_null(strstr(w.first, ".txt:"));
        assert_non_null(strstr(w.first, "iberror: failed: dump tables: linear forwarding table "
                               "get failed' (the table of switch '"));
        same_routes(ref, r);
        tm_route_free(r);
        for (int i = 0; i < 9; i++) {
            snprintf(path, sizeof path, "%s/ibroute-%d.txt", ibe, i);
            assert_int_equal(unlink(path), 0);
        }
        assert_int_equal(rmdir(ibe), 0);
    }
    assert_int_equal(rmdir(tmp), 0);
    tm_route_free(ref);
    tm_net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_errors),
        cmocka_unit_test(test_lft2_formats),
        cmocka_unit_test(test_lft2_iberror),
        cmocka_unit_test(test_plafrim_converted),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
