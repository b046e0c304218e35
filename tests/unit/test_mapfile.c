/* test_mapfile.c - mapping files: the four writers (exact text), the
 * readers (rankfile, plain, machinefile, Slurm hostfile, PE lists),
 * round trips, and malformed files with their exact messages. */
#include "test_fixtures.h"
#include "util/util.h"

/* sw -- n01.cluster (4 slots), n02 (2), n03.cluster (2) [, a.x, a.y] */
static tm_net *make_net(bool twins)
{
    tm_net *net;
    int32_t sw, h;
    const char *hosts[] = {"n01.cluster", "n02", "n03.cluster", "a.x", "a.y"};
    const int32_t slots[] = {4, 2, 2, 1, 1};
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "sw", TM_VERTEX_SWITCH, 0, &sw));
    for (int i = 0; i < (twins ? 5 : 3); i++) {
        assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, hosts[i], TM_VERTEX_HOST, slots[i], &h));
        assert_tm_ok(ctx, tm_net_add_cable(ctx, net, sw, h, 100, NULL));
    }
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    return net;
}

/* Writes m in fmt into a string (caller frees). */
static char *write_str(const tm_net *net, const tm_mapping *m, tm_mapfmt fmt, bool full)
{
    char *buf = NULL;
    size_t len = 0;
    tm_mapwrite_opts o = TM_MAPWRITE_OPTS_INIT;
    FILE *f = open_memstream(&buf, &len);
    o.full_hostnames = full;
    assert_non_null(f);
    assert_tm_ok(ctx, tm_mapping_write(ctx, net, m, fmt, &o, f));
    fclose(f);
    return buf;
}

static void read_str(const tm_net *net, int64_t n_pe, const char *text, int32_t n_tasks,
                     tm_mapping *m)
{
    FILE *f = tm_test_memfile(text);
    assert_non_null(f);
    assert_tm_ok(ctx, tm_mapping_read(ctx, net, n_pe, f, "m", n_tasks, m));
    fclose(f);
}

/* 5 tasks: n01/0, n02/1, n01/2, n01/3, n03/0 */
static void sample(tm_mapping *m)
{
    const int32_t host[] = {1, 2, 1, 1, 3}, slot[] = {0, 1, 2, 3, 0};
    assert_tm_ok(ctx, tm_mapping_alloc(ctx, m, 5, false));
    memcpy(m->host, host, sizeof host);
    memcpy(m->slot, slot, sizeof slot);
}

static void test_fmt_parse(void **state)
{
    (void)state;
    assert_int_equal(tm_mapfmt_parse("openmpi"), TM_MAPFMT_OPENMPI);
    assert_int_equal(tm_mapfmt_parse("rankfile"), TM_MAPFMT_OPENMPI);
    assert_int_equal(tm_mapfmt_parse("mpich"), TM_MAPFMT_MPICH);
    assert_int_equal(tm_mapfmt_parse("slurm"), TM_MAPFMT_SLURM);
    assert_int_equal(tm_mapfmt_parse("plain"), TM_MAPFMT_PLAIN);
    assert_int_equal(tm_mapfmt_parse("intel"), -1);
    assert_int_equal(tm_mapfmt_parse(NULL), -1);
}

static void test_write(void **state)
{
    tm_net *net = make_net(false);
    tm_mapping m;
    char *s;
    (void)state;
    tm_mapping_init(&m);
    sample(&m);
    s = write_str(net, &m, TM_MAPFMT_OPENMPI, false);
    assert_string_equal(s, "rank 0=n01 slot=0\nrank 1=n02 slot=1\nrank 2=n01 slot=2\n"
                           "rank 3=n01 slot=3\nrank 4=n03 slot=0\n");
    free(s);
    s = write_str(net, &m, TM_MAPFMT_OPENMPI, true);
    assert_string_equal(s, "rank 0=n01.cluster slot=0\nrank 1=n02 slot=1\n"
                           "rank 2=n01.cluster slot=2\nrank 3=n01.cluster slot=3\n"
                           "rank 4=n03.cluster slot=0\n");
    free(s);
    /* Hydra fills in file order: h1,h2,h1 needs three lines */
    s = write_str(net, &m, TM_MAPFMT_MPICH, false);
    assert_string_equal(s, "n01:1\nn02:1\nn01:2\nn03:1\n");
    free(s);
    s = write_str(net, &m, TM_MAPFMT_SLURM, false);
    assert_string_equal(s, "n01\nn02\nn01\nn01\nn03\n");
    free(s);
    s = write_str(net, &m, TM_MAPFMT_PLAIN, false);
    assert_string_equal(s, "n01 0\nn02 1\nn01 2\nn01 3\nn03 0\n");
    free(s);
    tm_mapping_release(&m);
    tm_net_free(net);
}

static void test_write_errors(void **state)
{
    tm_net *net = make_net(true);
    tm_mapping m, h;
    char *s;
    (void)state;
    tm_mapping_init(&m);
    tm_mapping_init(&h);
    sample(&m);
    m.host[1] = 4; /* a.x */
    m.host[4] = 5; /* a.y */
    assert_tm_error(ctx, tm_mapping_write(ctx, net, &m, TM_MAPFMT_OPENMPI, NULL, stdout), TM_EUSAGE,
                    "hosts 'a.x' and 'a.y' have the same short name 'a'; write full host names");
    s = write_str(net, &m, TM_MAPFMT_SLURM, true);
    assert_string_equal(s, "n01.cluster\na.x\nn01.cluster\nn01.cluster\na.y\n");
    free(s);
    m.host[2] = 0; /* the switch */
    assert_tm_error(ctx, tm_mapping_write(ctx, net, &m, TM_MAPFMT_PLAIN, NULL, stdout), TM_EINPUT,
                    "task 2 is not mapped to a host");
    m.host[2] = 1;
    m.slot[3] = -1;
    assert_tm_error(ctx, tm_mapping_write(ctx, net, &m, TM_MAPFMT_PLAIN, NULL, stdout), TM_EINPUT,
                    "task 3 has a negative slot -1");
    assert_tm_error(ctx, tm_mapping_write(ctx, net, &m, (tm_mapfmt)9, NULL, stdout), TM_EUSAGE,
                    "unknown mapping format 9");
    /* hierarchy mode: PE per line, plain only */
    assert_tm_ok(ctx, tm_mapping_alloc(ctx, &h, 3, true));
    h.pe[0] = 3, h.pe[1] = 0, h.pe[2] = 7;
    s = write_str(NULL, &h, TM_MAPFMT_PLAIN, false);
    assert_string_equal(s, "3\n0\n7\n");
    free(s);
    assert_tm_error(ctx, tm_mapping_write(ctx, NULL, &h, TM_MAPFMT_OPENMPI, NULL, stdout),
                    TM_EUSAGE, "can only be written as 'plain', not 'openmpi'");
    tm_mapping_release(&m);
    tm_mapping_release(&h);
    tm_net_free(net);
}

static void test_read(void **state)
{
    tm_net *net = make_net(false);
    tm_mapping m;
    FILE *f;
    (void)state;
    /* comments, blank lines, CRLF, spaces around '=', domains, slot lists */
    f = fopen(TEST_DATA("map/example.rankfile"), "r");
    assert_non_null(f);
    assert_tm_ok(ctx, tm_mapping_read(ctx, net, 0, f, "example.rankfile", -1, &m));
    fclose(f);
    assert_int_equal(m.n, 4);
    const int32_t host[] = {1, 1, 2, 3}, slot[] = {0, 2, 1, 1};
    assert_memory_equal(m.host, host, sizeof host);
    assert_memory_equal(m.slot, slot, sizeof slot);
    assert_tm_ok(ctx, tm_mapping_check(ctx, net, NULL, &m));
    tm_mapping_release(&m);
    /* Hydra machinefile runs */
    f = fopen(TEST_DATA("map/example.machinefile"), "r");
    assert_tm_ok(ctx, tm_mapping_read(ctx, net, 0, f, "example.machinefile", 4, &m));
    fclose(f);
    const int32_t host2[] = {1, 1, 2, 1}, slot2[] = {0, 1, 0, 2};
    assert_memory_equal(m.host, host2, sizeof host2);
    assert_memory_equal(m.slot, slot2, sizeof slot2);
    tm_mapping_release(&m);
    /* plain, explicit and implicit slots; the lowest free slot is taken */
    read_str(net, 0, "n02 1\nn02\nn01.cluster 3\nn01\n", -1, &m);
    const int32_t host3[] = {2, 2, 1, 1}, slot3[] = {1, 0, 3, 0};
    assert_memory_equal(m.host, host3, sizeof host3);
    assert_memory_equal(m.slot, slot3, sizeof slot3);
    tm_mapping_release(&m);
    /* hierarchy mode */
    read_str(NULL, 16, "# pe per task\n15\n0\n\n3\n", 3, &m);
    assert_int_equal(m.n, 3);
    assert_null(m.host);
    assert_int_equal(m.pe[0], 15);
    assert_int_equal(m.pe[2], 3);
    tm_mapping_release(&m);
    tm_net_free(net);
}

/* Every format written from a consecutive placement reads back equal. */
static void test_round_trips(void **state)
{
    tm_net *net = make_net(false);
    tm_alloc a;
    tm_mapping m, back;
    (void)state;
    tm_mapping_init(&m);
    assert_tm_ok(ctx, tm_alloc_from_hostlist(ctx, net, "n03,n01,n02", &a));
    assert_tm_ok(ctx, tm_mapping_consecutive(ctx, &a, 7, &m));
    for (int fmt = TM_MAPFMT_OPENMPI; fmt <= TM_MAPFMT_PLAIN; fmt++) {
        for (int full = 0; full < 2; full++) {
            char *s = write_str(net, &m, (tm_mapfmt)fmt, full);
            read_str(net, 0, s, 7, &back);
            assert_int_equal(back.n, 7);
            assert_memory_equal(back.host, m.host, 7 * sizeof *m.host);
            assert_memory_equal(back.slot, m.slot, 7 * sizeof *m.slot);
            tm_mapping_release(&back);
            free(s);
        }
    }
    /* an arbitrary mapping round-trips exactly through rankfile and plain */
    tm_mapping_release(&m);
    sample(&m);
    for (int fmt = TM_MAPFMT_OPENMPI; fmt <= TM_MAPFMT_PLAIN; fmt += 3) {
        char *s = write_str(net, &m, (tm_mapfmt)fmt, false);
        read_str(net, 0, s, -1, &back);
        assert_memory_equal(back.host, m.host, 5 * sizeof *m.host);
        assert_memory_equal(back.slot, m.slot, 5 * sizeof *m.slot);
        tm_mapping_release(&back);
        free(s);
    }
    tm_mapping_release(&m);
    tm_alloc_release(&a);
    tm_net_free(net);
}

typedef struct bad_case {
    const char *file;
    int32_t n_tasks;
    int64_t n_pe; /* > 0: hierarchy mode */
    const char *msg;
} bad_case;

static const bad_case bad_cases[] = {
    {"unknown_host.rankfile", -1, 0, ":2: unknown host 'zz' (not in the topology, whose 3 hosts are named n02,n01.cluster,n03.cluster)"},
    {"switch.rankfile", -1, 0, ":1: 'sw' is a switch, not a host"},
    {"dup_rank.rankfile", -1, 0, ":2: rank 0 listed twice (first on line 1)"},
    {"gap.rankfile", -1, 0, ":2: rank 2 out of range: the file lists 2 ranks, so they must be 0..1"},
    {"oversub.rankfile", -1, 0, ":6: rank 5: slot 0 of host 'n01.cluster' already used by rank 2"},
    {"slot_range.rankfile", -1, 0, ":1: rank 0: slot 2 does not exist on host 'n02' (2 slots)"},
    {"socket_core.rankfile", -1, 0, ":1: slot=1:0-2: socket:core slots are not supported"},
    {"relative.rankfile", -1, 0, ":1: rank 0: relative host '+n1' is not supported"},
    {"no_slot.rankfile", -1, 0, ":1: rank 0: missing slot="},
    {"bad_slot.rankfile", -1, 0, ":1: slot=abc is not a slot number, range or list"},
    {"no_equals.rankfile", -1, 0, ":1: expected '=' after 'rank 0'"},
    {"mixed.rankfile", -1, 0, ":2: expected 'rank N=host slot=S' (the file is a rankfile)"},
    {"extra_token.rankfile", -1, 0, ":1: rank 0: unexpected 'foo' (expected slot=S)"},
    {"neg_rank.rankfile", -1, 0, ":1: expected 'rank N=host slot=S'"},
    {"out_of_range.rankfile", 2, 0, ":3: rank 2 out of range (2 tasks)"},
    {"missing.rankfile", 3, 0, ":2: rank 2 is not listed (3 tasks)"},
    {"empty.rankfile", -1, 0, ":1: no ranks in the mapping file"},
    {"no_host.rankfile", -1, 0, ":1: rank 0: missing host name"},
    {"slot_missing_host.plain", -1, 0, ":1: rank 0: slot 9 does not exist on host 'n01.cluster' (4 slots)"},
    {"full_host.plain", -1, 0, ":3: rank 2: no free slot left on host 'n02' (2 slots)"},
    {"bad_slot.plain", -1, 0, ":1: slot 'x' is not a non-negative integer"},
    {"bad_run.plain", -1, 0, ":1: 'n01:0': expected host:n with n >= 1"},
    {"run_extra.plain", -1, 0, ":1: unexpected '1' after host:n"},
    {"too_many.plain", 1, 0, ":2: more lines than the 1 tasks"},
    {"unknown.plain", -1, 0, ":2: unknown host 'n09' (not in the topology, whose 3 hosts are named n02,n01.cluster,n03.cluster)"},
    {"oversub.plain", -1, 0, ":2: rank 1: slot 1 of host 'n02' already used by rank 0"},
    {"pe_range.pe", -1, 8, ":2: PE 9 out of range [0, 8)"},
    {"pe_text.pe", -1, 8, ":2: 'x' is not a PE index (one integer per line)"},
    {"pe_short.pe", 3, 8, ":2: only 2 PE lines for 3 tasks"},
    {"pe_long.pe", 1, 8, ":2: more lines than the 1 tasks"},
    {"pe_empty.pe", -1, 8, ":1: no PE lines in the mapping file"},
    {"pe_rankfile.pe", -1, 8, ":1: 'rank 0=n01 slot=0' is not a PE index (one integer per line)"},
};

static void test_malformed(void **state)
{
    tm_net *net = make_net(false);
    (void)state;
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *bc = &bad_cases[i];
        char rel[256], want[4400];
        tm_mapping m;
        tm_err err;
        FILE *f;
        snprintf(rel, sizeof rel, "bad/map/%s", bc->file);
        snprintf(want, sizeof want, "%s%s", bc->file, bc->msg);
        f = fopen(TEST_DATA(rel), "r");
        assert_non_null(f);
        err = tm_mapping_read(ctx, bc->n_pe > 0 ? NULL : net, bc->n_pe, f, bc->file, bc->n_tasks,
                              &m);
        fclose(f);
        if (err != TM_EINPUT || strncmp(tm_ctx_errmsg(ctx), want, strlen(want)) != 0)
            fail_msg("%s: got %d '%s', want '%s'", bc->file, (int)err, tm_ctx_errmsg(ctx), want);
        assert_null(m.host);
        assert_null(m.pe);
    }
    tm_net_free(net);
}

/* Mutated mapping files never crash and never yield an invalid mapping. */
static void test_fuzz_read(void **state)
{
    static const char *const seeds[] = {
        "rank 0=n01 slot=0\nrank 2=n02.x slot=1\n# c\nrank 1=n01 slot=2-3\n",
        "n01 1\nn02\nn01:2\nn03.cluster 0\n",
        "3\n0\n# pe\n7\n",
    };
    static const char alphabet[] = "0123456789 =-,:+#\nranksltn.";
    tm_net *net = make_net(false);
    tm__rng r;
    char buf[256];
    (void)state;
    tm__rng_seed(&r, 3, 0);
    for (size_t s = 0; s < 3; s++) {
        for (int it = 0; it < 3000; it++) {
            size_t len = strlen(seeds[s]);
            int k = 1 + (int)tm__rng_below(&r, 3);
            memcpy(buf, seeds[s], len);
            for (int i = 0; i < k && len; i++) {
                size_t pos = (size_t)tm__rng_below(&r, len);
                if (tm__rng_below(&r, 2))
                    buf[pos] = alphabet[tm__rng_below(&r, sizeof alphabet - 1)];
                else
                    memmove(buf + pos, buf + pos + 1, --len - pos);
            }
            for (int hier = 0; hier < 2; hier++) {
                tm_mapping m;
                FILE *f = fmemopen(buf, len ? len : 1, "r");
                int32_t n_tasks = (int32_t)tm__rng_below(&r, 6) - 1;
                tm_err err;
                if (!len)
                    fgetc(f);
                err = tm_mapping_read(ctx, hier ? NULL : net, 8, f, "fz", n_tasks, &m);
                fclose(f);
                if (err == TM_EOK) {
                    assert_true(n_tasks < 0 || m.n == n_tasks);
                    if (!hier)
                        assert_tm_ok(ctx, tm_mapping_check(ctx, net, NULL, &m));
                    tm_mapping_release(&m);
                } else if (err != TM_EINPUT || strncmp(tm_ctx_errmsg(ctx), "fz:", 3) != 0) {
                    fail_msg("seed %zu it %d: %d '%s'", s, it, (int)err, tm_ctx_errmsg(ctx));
                }
            }
        }
    }
    tm_net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fmt_parse),
        cmocka_unit_test(test_write),
        cmocka_unit_test(test_write_errors),
        cmocka_unit_test(test_read),
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_fuzz_read),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
