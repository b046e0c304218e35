/* test_shard.c - sharding (src/shard/, src/study/ with --shard): "K/N",
 * the assignment (deterministic, every shard used, balanced, no axis
 * aligned with the shards), the identity, the shard files read back (both
 * formats, quoting, every check of a set), and a sharded study engine
 * whose shards' rows are the unsharded rows, bit for bit, for any split
 * and thread count (the merge's byte-identical files: t43-study-shard.sh). */
#include <math.h>
#include <unistd.h>

#include "test_util.h"

#include "shard/shard.h"
#include "study/study.h"

static void test_parse(void **state)
{
    tm_ctx *ctx;
    tm_shard s;
    static const char *const bad[] = {"", "3", "3/3", "-1/3", "1/0", "a/b", "1/", "/4", "1 /4",
                                      "1/4x", "+1/4", "1/100001", "99999999999999999999/1"};
    (void)state;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    assert_tm_ok(ctx, tm_shard_parse(ctx, "0/1", &s));
    assert_true(s.k == 0 && s.n == 1);
    assert_tm_ok(ctx, tm_shard_parse(ctx, "7/8", &s));
    assert_true(s.k == 7 && s.n == 8);
    assert_tm_ok(ctx, tm_shard_parse(ctx, "99999/100000", &s));
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(tm_shard_parse(ctx, bad[i], &s), TM_EUSAGE);
    assert_tm_error(ctx, tm_shard_parse(ctx, "4/4", &s), TM_EUSAGE, "K must be from 0 to N-1 = 3");
    tm_ctx_free(ctx);
}

/* Equal costs: every shard gets floor or ceil of n/N items; a function of
 * the input alone; two "strategies" of equal cost alternating along the
 * items do not land one per shard (the hashed order of ties). */
static void test_assign_equal(void **state)
{
    enum { N_ITEMS = 200 };
    tm_ctx *ctx;
    int64_t cost[N_ITEMS];
    int32_t a[N_ITEMS], b[N_ITEMS];
    (void)state;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    for (int i = 0; i < N_ITEMS; i++)
        cost[i] = 5;
    for (int32_t n = 1; n <= N_ITEMS; n += n < 10 ? 1 : 37) {
        int count[N_ITEMS] = {0}, even[N_ITEMS] = {0};
        assert_tm_ok(ctx, tm_shard_assign(ctx, cost, N_ITEMS, n, a));
        assert_tm_ok(ctx, tm_shard_assign(ctx, cost, N_ITEMS, n, b));
        assert_memory_equal(a, b, sizeof a);
        for (int i = 0; i < N_ITEMS; i++) {
            assert_true(a[i] >= 0 && a[i] < n);
            count[a[i]]++;
            even[a[i]] += i % 2 == 0;
        }
        for (int32_t k = 0; k < n; k++) {
            assert_true(count[k] == N_ITEMS / n || count[k] == (N_ITEMS + n - 1) / n);
            /* round-robin in index order would give shard 0 only even items */
            if (n == 2)
                assert_true(even[k] > 30 && even[k] < 70);
        }
    }
    tm_ctx_free(ctx);
}

/* Unequal costs: longest first onto the least loaded shard, so the loads
 * differ by at most the largest cost, and every shard gets an item. */
static void test_assign_costs(void **state)
{
    enum { N_ITEMS = 97 };
    tm_ctx *ctx;
    int64_t cost[N_ITEMS], load[16], big = 0;
    int32_t own[N_ITEMS];
    (void)state;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    for (int i = 0; i < N_ITEMS; i++) {
        cost[i] = i % 7 == 0 ? 7000 : 10 + (i * 37) % 100;
        big = cost[i] > big ? cost[i] : big;
    }
    for (int32_t n = 1; n <= 16; n++) {
        int64_t lo = INT64_MAX, hi = 0;
        memset(load, 0, sizeof load);
        assert_tm_ok(ctx, tm_shard_assign(ctx, cost, N_ITEMS, n, own));
        for (int i = 0; i < N_ITEMS; i++)
            load[own[i]] += cost[i];
        for (int32_t k = 0; k < n; k++) {
            lo = load[k] < lo ? load[k] : lo;
            hi = load[k] > hi ? load[k] : hi;
        }
        assert_true(lo > 0);
        assert_true(hi - lo <= big);
    }
    /* zero costs still spread: one item per shard */
    memset(cost, 0, sizeof cost);
    assert_tm_ok(ctx, tm_shard_assign(ctx, cost, 4, 4, own));
    assert_int_equal((1 << own[0]) | (1 << own[1]) | (1 << own[2]) | (1 << own[3]), 15);
    tm_ctx_free(ctx);
}

static void test_identity(void **state)
{
    tm_ctx *ctx;
    tm_shard_id a, b, c;
    char ha[TM_SHARD_ID_LEN + 1], hb[TM_SHARD_ID_LEN + 1], path[] = "/tmp/test_shard_XXXXXX";
    int fd;
    FILE *f;
    (void)state;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    tm_shard_id_init(&a, "study");
    tm_shard_id_init(&b, "study");
    tm_shard_id_add(&a, "seed", "1");
    tm_shard_id_add(&b, "seed", "1");
    assert_true(a.h == b.h);
    tm_shard_id_hex(&a, ha);
    assert_int_equal(strlen(ha), TM_SHARD_ID_LEN);
    /* the pairs cannot run together */
    tm_shard_id_init(&a, "study");
    tm_shard_id_init(&b, "study");
    tm_shard_id_add(&a, "ab", "c");
    tm_shard_id_add(&b, "a", "bc");
    assert_true(a.h != b.h);
    /* a file's bytes count, a missing file is its name */
    fd = mkstemp(path);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    fputs("0 1 5\n", f);
    fclose(f);
    tm_shard_id_init(&a, "study");
    tm_shard_id_init(&b, "study");
    tm_shard_id_init(&c, "study");
    assert_tm_ok(ctx, tm_shard_id_add_input(ctx, &a, "comm", path));
    assert_tm_ok(ctx, tm_shard_id_add_input(ctx, &c, "comm", "torus:4x4"));
    f = fopen(path, "w");
    fputs("0 1 6\n", f);
    fclose(f);
    assert_tm_ok(ctx, tm_shard_id_add_input(ctx, &b, "comm", path));
    tm_shard_id_hex(&a, ha);
    tm_shard_id_hex(&b, hb);
    assert_string_not_equal(ha, hb);
    unlink(path);
    tm_ctx_free(ctx);
}

/* ---- reading shard files ----------------------------------------------------- */

static const char *const VARY[] = {"count_here", NULL};
static const tm__shard_kind KIND = {"toy", "items", VARY, "name,value"};
static const tm__shard_field F_NAME = {"name", "name"}, F_VALUE = {"v.x", "value"};

/* Reads the texts as files f0, f1, ...; returns the first error (the set
 * in *out on success). */
static tm_err read_set(tm_ctx *ctx, const char *const *texts, int n, tm__shard_set **out)
{
    tm_err err = tm__shard_set_new(ctx, &KIND, out);
    for (int i = 0; !err && i < n; i++) {
        char name[16];
        FILE *f = tm_test_memfile(texts[i]);
        snprintf(name, sizeof name, "f%d", i);
        err = tm__shard_set_add(ctx, *out, f, name);
        fclose(f);
    }
    if (!err)
        err = tm__shard_set_finish(ctx, *out);
    if (err) {
        tm__shard_set_free(*out);
        *out = NULL;
    }
    return err;
}

#define J_HEAD(k, n, id) "{\"g\": 1, \"shard\": {\"index\": " #k ", \"count\": " #n ", \"id\": \"" id "\", \"rows_total\": 4, "
#define ID1 "00112233aabbccdd"
#define ID2 "00112233aabbccde"

static void test_read_json(void **state)
{
    tm_ctx *ctx;
    tm__shard_set *s;
    const tm__shard_row *r;
    const char *str;
    double v;
    int64_t k;
    const char *ok[] = {
        J_HEAD(0, 2, ID1) "\"rows\": [2, 0]}, \"count_here\": 2, \"items\": [{\"name\": \"c\", "
                          "\"v\": {\"x\": 2.5}}, {\"name\": \"a\", \"v\": {\"x\": null}}]}",
        J_HEAD(1, 2, ID1) "\"rows\": [3]}, \"count_here\": 1, \"items\": [{\"name\": \"d\", "
                          "\"v\": {\"x\": 4}}]}"};
    (void)state;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    assert_tm_ok(ctx, read_set(ctx, ok, 2, &s));
    assert_int_equal(tm__shard_set_format(s), TM__SHARD_JSON);
    assert_int_equal(tm__shard_set_count(s), 2);
    assert_int_equal(tm__shard_set_total(s), 4);
    assert_int_equal(tm__shard_set_n_rows(s), 3);
    assert_null(tm__shard_set_row(s, 1));
    r = tm__shard_set_row(s, 0);
    assert_non_null(r);
    assert_tm_ok(ctx, tm__shard_get_str(ctx, s, r, F_NAME, &str));
    assert_string_equal(str, "a");
    assert_tm_ok(ctx, tm__shard_get_num(ctx, s, r, F_VALUE, &v));
    assert_true(isnan(v));
    assert_tm_ok(ctx, tm__shard_get_num(ctx, s, tm__shard_set_row(s, 3), F_VALUE, &v));
    assert_true(v == 4);
    assert_tm_error(ctx, tm__shard_get_str(ctx, s, r, F_VALUE, &str), TM_EINPUT,
                    "f0: items[1]: key 'v.x' is not a string");
    assert_tm_error(ctx, tm__shard_get_int(ctx, s, tm__shard_set_row(s, 2), F_VALUE, 0, 9, &k),
                    TM_EINPUT, "not an integer");
    assert_tm_ok(ctx, tm__shard_meta_int(ctx, s, "g", 0, 5, &k));
    assert_int_equal(k, 1);
    tm__shard_set_free(s);

    /* every check, with the file it names */
    struct { const char *text[2]; int n; const char *msg; } bad[] = {
        {{"{\"shard\": 1"}, 1, "f0:1: "},
        {{"[1]"}, 1, "f0: not a JSON object"},
        {{"{\"g\": 1}"}, 1, "f0: no 'shard' object"},
        {{ok[0], ok[0]}, 2, "f1: shard 0/2 is also f0"},
        {{ok[0]}, 1, "f0: 1 of its 2 shards missing (1; given: 1 file)"},
        {{ok[0], J_HEAD(1, 3, ID1) "\"rows\": [3]}, \"items\": [{}]}"}, 2, "not the same split"},
        {{ok[0], J_HEAD(1, 2, ID2) "\"rows\": [3]}, \"items\": [{}]}"}, 2,
         "f1: shard id " ID2 ", but f0 has " ID1 ": not the same toy"},
        {{ok[0], "{\"g\": 2, \"shard\": {\"index\": 1, \"count\": 2, \"id\": \"" ID1 "\", "
                 "\"rows_total\": 4, \"rows\": [3]}, \"items\": [{}]}"}, 2,
         "f1: 'g' differs from that of f0"},
        {{ok[0], "{\"shard\": {\"index\": 1, \"count\": 2, \"id\": \"" ID1 "\", "
                 "\"rows_total\": 4, \"rows\": [3]}, \"items\": [{}]}"}, 2, "'g' is missing"},
        {{ok[0], J_HEAD(1, 2, ID1) "\"rows\": [0]}, \"items\": [{}]}"}, 2,
         "f1: items[0]: row 0 again (also f0: items[1])"},
        {{J_HEAD(0, 1, ID1) "\"rows\": [4]}, \"items\": [{}]}"}, 1, "not a position in [0, 4)"},
        {{J_HEAD(0, 1, ID1) "\"rows\": [1, 2]}, \"items\": [{}]}"}, 1, "2 positions in shard.rows for 1 items"},
        {{J_HEAD(0, 1, "xyz") "\"rows\": [1]}, \"items\": [{}]}"}, 1, "is not 16 hex digits"},
        {{J_HEAD(0, 1, ID1) "\"rows\": [1]}, \"items\": [1]}"}, 1, "items[0] is not an object"},
        {{"{\"shard\": {\"index\": 0, \"count\": 1, \"id\": \"" ID1 "\", \"rows_total\": 1, "
          "\"rows\": [0], \"rows\": [0]}}"}, 1, "duplicate object key"},
        {{ok[0], "name,value,shard,shard_id,shard_row,shard_rows_total\nq,1,1/2," ID1 ",3,4\n"}, 2,
         "f1: CSV, but f0 is JSON"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        s = NULL;
        assert_tm_error(ctx, read_set(ctx, bad[i].text, bad[i].n, &s), TM_EINPUT, bad[i].msg);
        assert_null(s);
    }
    tm_ctx_free(ctx);
}

#define C_HEAD "name,value,shard,shard_id,shard_row,shard_rows_total\n"

static void test_read_csv(void **state)
{
    tm_ctx *ctx;
    tm__shard_set *s;
    const char *str;
    double v;
    const char *ok[] = {
        C_HEAD "\"a,\"\"b\"\"\nc\",1e-3,0/2," ID1 ",1,4\nplain,nan,0/2," ID1 ",3,4\n",
        C_HEAD ",inf,1/2," ID1 ",0,4\r\n"};
    (void)state;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    assert_tm_ok(ctx, read_set(ctx, ok, 2, &s));
    assert_int_equal(tm__shard_set_format(s), TM__SHARD_CSV);
    assert_tm_ok(ctx, tm__shard_get_str(ctx, s, tm__shard_set_row(s, 1), F_NAME, &str));
    assert_string_equal(str, "a,\"b\"\nc");
    assert_tm_ok(ctx, tm__shard_get_num(ctx, s, tm__shard_set_row(s, 1), F_VALUE, &v));
    assert_true(v == 1e-3);
    assert_tm_ok(ctx, tm__shard_get_num(ctx, s, tm__shard_set_row(s, 3), F_VALUE, &v));
    assert_true(isnan(v));
    assert_tm_ok(ctx, tm__shard_get_num(ctx, s, tm__shard_set_row(s, 0), F_VALUE, &v));
    assert_true(isinf(v));
    assert_false(tm__shard_has(s, tm__shard_set_row(s, 0), F_NAME));
    assert_tm_error(ctx, tm__shard_get_num(ctx, s, tm__shard_set_row(s, 3), F_NAME, &v), TM_EINPUT,
                    "f0:4: column 'name': 'plain' is not a number");
    assert_tm_error(ctx, tm__shard_meta_str(ctx, s, "g", &str), TM_EUSAGE, "only in JSON");
    tm__shard_set_free(s);

    struct { const char *text[2]; int n; const char *msg; } bad[] = {
        {{""}, 1, "f0: empty file"},
        {{"name,val,shard,shard_id,shard_row,shard_rows_total\n"}, 1,
         "f0:1: column 2 is 'val', expected 'value'"},
        {{"name,value\n"}, 1, "f0:1: 2 columns, expected 6"},
        {{C_HEAD}, 1, "a header and no row"},
        {{C_HEAD "a,1,0/1," ID1 ",0\n"}, 1, "f0:2: 5 fields, expected 6"},
        {{C_HEAD "a,1,0-1," ID1 ",0,1\n"}, 1, "f0:2: column 'shard': '0-1' is not K/N"},
        {{C_HEAD "a,1,0/1," ID1 ",x,1\n"}, 1, "f0:2: column 'shard_row': 'x' is not an integer"},
        {{C_HEAD "a,1,0/1," ID1 ",0,1\nb,2,0/2," ID1 ",0,1\n"}, 1, "f0:3: shard 0/2, but f0 is a shard of 1"},
        {{C_HEAD "\"a,1,0/1," ID1 ",0,1\n"}, 1, "opened on line 2 is not closed"},
        {{C_HEAD "\"a\"x,1,0/1," ID1 ",0,1\n"}, 1, "f0:2: 'x' after the closing quote of field 1"},
        {{C_HEAD "a\"b,1,0/1," ID1 ",0,1\n"}, 1, "f0:2: a quote inside unquoted field 1"},
        {{C_HEAD "a,1,0/1," ID1 ",0,1\n", C_HEAD "b,1,0/1," ID1 ",0,1\n"}, 2, "f1: shard 0/1 is also f0"},
        {{C_HEAD "a,1,1/2," ID1 ",0,2\nb,1,0/2," ID1 ",1,2\n"}, 1, "f0:3: shard 0/2 in a file of shard 1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        s = NULL;
        assert_tm_error(ctx, read_set(ctx, bad[i].text, bad[i].n, &s), TM_EINPUT, bad[i].msg);
    }
    tm_ctx_free(ctx);
}

/* ---- a sharded study --------------------------------------------------------- */

/* Two topologies x two capacities x (no failure + 3 samples of a random
 * failure of half the cables, some of them disconnected) x two strategies:
 * 32 runs. */
static void spec_of(tm_study_spec *s, const tm_comm *const *sc)
{
    static const char *const topo[] = {"fattree:k=2,n=2,hostcap=100", "torus:2x2"};
    static const char *const strat[] = {"identity", "greedy"};
    static const char *const scales[] = {NULL, "all=0.5"};
    static const int32_t slots[] = {0};
    static const tm_route_kind routing[] = {TM_ROUTE_ECMP};
    static const tm_study_failure fails[] = {{TM_STUDY_FAIL_NONE, 0, NULL},
                                             {TM_STUDY_FAIL_RANDOM, 50, NULL}};
    memset(s, 0, sizeof *s);
    s->topologies = topo, s->n_topologies = 2;
    s->slots = slots, s->n_slots = 1;
    s->scales = scales, s->n_scales = 2;
    s->failures = fails, s->n_failures = 2;
    s->samples = 3;
    s->routings = routing, s->n_routings = 1;
    s->comms = sc, s->n_comms = 1;
    s->strategies = strat, s->n_strategies = 2;
    s->objective = TM_OBJ_PARETO;
}

static void run_sharded(int threads, int32_t k, int32_t n, tm_study_result *res)
{
    tm_ctx *ctx;
    tm_comm comm;
    const tm_comm *sc = &comm;
    tm_study_spec s;
    FILE *f = tm_test_memfile("0 2 8\n1 3 4\n");
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    tm_comm_init(&comm);
    assert_tm_ok(ctx, tm_comm_read(ctx, f, "one", TM_COMM_EDGES, &comm));
    fclose(f);
    spec_of(&s, &sc);
    s.shard_index = k, s.shard_count = n;
    assert_tm_ok(ctx, tm_ctx_set_threads(ctx, threads));
    assert_tm_ok(ctx, tm_study_run(ctx, &s, res));
    tm_comm_release(&comm);
    tm_ctx_free(ctx);
}

/* Every row of every shard is the unsharded row at its position, bit for
 * bit; each run once; no summary row in a shard. */
static void test_study_shards(void **state)
{
    tm_study_result full, part;
    (void)state;
    run_sharded(1, 0, 0, &full);
    assert_int_equal(full.total_runs, 2 * 2 * (1 + 3) * 2);
    assert_int_equal(full.n_rows, full.total_rows);
    for (int32_t n = 1; n <= 5; n += 2) {
        int seen[64] = {0};
        for (int32_t k = 0; k < n; k++) {
            run_sharded(1 + k % 3, k, n, &part);
            assert_int_equal(part.total_rows, full.n_rows);
            assert_int_equal(part.n_rows, part.n_runs);
            assert_true(part.n_rows > 0);
            for (int i = 0; i < part.n_rows; i++) {
                const tm_study_row *r = &part.rows[i];
                assert_int_equal(r->stat, TM_STUDY_RUN);
                assert_true(i == 0 || r->position > part.rows[i - 1].position);
                assert_memory_equal(r, &full.rows[r->position], sizeof *r);
                seen[r->position]++;
            }
            tm_study_result_release(&part);
        }
        for (int i = 0; i < full.n_rows; i++)
            assert_int_equal(seen[i], full.rows[i].stat == TM_STUDY_RUN);
    }
    tm_study_result_release(&full);
}

/* More shards than runs is a usage error (a shard would run nothing), and
 * so is a shard that is not one of the count. */
static void test_study_too_many(void **state)
{
    tm_ctx *ctx;
    tm_comm comm;
    const tm_comm *sc = &comm;
    tm_study_spec s;
    tm_study_result res;
    FILE *f = tm_test_memfile("0 2 8\n");
    (void)state;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    tm_comm_init(&comm);
    assert_tm_ok(ctx, tm_comm_read(ctx, f, "one", TM_COMM_EDGES, &comm));
    fclose(f);
    spec_of(&s, &sc);
    s.shard_index = 0, s.shard_count = 33;
    assert_tm_error(ctx, tm_study_run(ctx, &s, &res), TM_EUSAGE, "the study has 32 runs");
    /* a shard outside [0, count) is refused before anything runs */
    s.shard_index = 2, s.shard_count = 2;
    assert_tm_error(ctx, tm_study_run(ctx, &s, &res), TM_EUSAGE, "not a shard");
    s.shard_index = -1, s.shard_count = 2;
    assert_tm_error(ctx, tm_study_run(ctx, &s, &res), TM_EUSAGE, "not a shard");
    tm_comm_release(&comm);
    tm_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),          cmocka_unit_test(test_assign_equal),
        cmocka_unit_test(test_assign_costs),   cmocka_unit_test(test_identity),
        cmocka_unit_test(test_read_json),      cmocka_unit_test(test_read_csv),
        cmocka_unit_test(test_study_shards),   cmocka_unit_test(test_study_too_many),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
