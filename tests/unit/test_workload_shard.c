/* test_workload_shard.c - workload eval and replay in shards
 * (src/workload/wl_shard.h, docs/workload.md "Shards"): how a replay's jobs
 * are dealt (runs in start order, every shard a job, a function of the
 * trace alone), what the costs follow, the shards' rows against the whole
 * run's, bit for bit (the merge's byte-identical files:
 * t48-workload-shard.sh), which kind of output a file is, and the
 * getters of src/shard the merge reads with. */
#include <math.h>
#include <string.h>

#include "test_fixtures.h"
#include "workload/wl_shard.h"

/* clos: 4 leaves of 8 hosts (n0000-n0031), 2 spines, 4 slots per host. */
static tm_net *clos_net(void)
{
    return tm_test_gen_net("clos:leaves=4,hosts_per_leaf=8,spines=2", 4);
}

static tm_err read_text(const tm_net *net, const char *text, tm_workload *w)
{
    tm_workload_read_opts o = TM_WORKLOAD_READ_OPTS_INIT;
    FILE *f = tm_test_memfile(text);
    tm_err err = tm_workload_read(ctx, net, f, "trace.txt", &o, w);
    fclose(f);
    return err;
}

/* A trace of n jobs (a fixed LCG): 2-5 scattered hosts each, starts a few
 * minutes apart, runs of 5 minutes to 2 hours (some of no length, some
 * still running), rings, stencils and all-to-alls. */
static char *trace_text(int n)
{
    static const char *const pat[] = {"ring:1MiB", "stencil3d:256KiB", "alltoall:64KiB"};
    size_t cap = 128 + (size_t)n * 160, len = 0;
    char *s = malloc(cap);
    uint64_t x = 12345;
    long t = 0;
    assert_non_null(s);
    len += (size_t)snprintf(s, cap, "JobID|NodeList|NTasksPerNode|Comm|Start|End\n");
    for (int j = 0; j < n; j++) {
        int hosts = 2, first;
        long run;
        char st[64], en[64];
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        hosts += (int)((x >> 33) % 4);
        first = (int)((x >> 40) % 24);
        t += 60 + (long)((x >> 20) % 600);
        run = j % 11 == 5 ? 0 : 300 + (long)((x >> 10) % 7200);
        snprintf(st, sizeof st, "2024-01-01T%02ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
        snprintf(en, sizeof en, "2024-01-01T%02ld:%02ld:%02ld", (t + run) / 3600,
                 (t + run) / 60 % 60, (t + run) % 60);
        len += (size_t)snprintf(s + len, cap - len, "J%d|n[%04d-%04d]|2|%s|%s|%s\n", j, first,
                                first + hosts - 1, pat[j % 3], st, j % 13 == 7 ? "Unknown" : en);
    }
    return s;
}

/* Jobs in start order (ties by index). */
static void start_order(const tm_workload *w, int32_t *order)
{
    for (int32_t i = 0; i < w->n_jobs; i++)
        order[i] = i;
    for (int32_t i = 1; i < w->n_jobs; i++)
        for (int32_t k = i; k > 0; k--) {
            int32_t a = order[k - 1], b = order[k];
            if (w->job[a].start < w->job[b].start ||
                (w->job[a].start == w->job[b].start && a < b))
                break;
            order[k - 1] = b;
            order[k] = a;
        }
}

static void test_replay_owners(void **state)
{
    tm_net *net = clos_net();
    tm_workload w;
    char *text = trace_text(60);
    int32_t owner[60], again[60], order[60];
    (void)state;
    tm_workload_init(&w);
    assert_tm_ok(ctx, read_text(net, text, &w));
    assert_int_equal(w.n_jobs, 60);
    start_order(&w, order);
    for (int32_t n = 1; n <= 60; n += n < 8 ? 1 : 13) {
        int used[60] = {0};
        assert_tm_ok(ctx, tm_replay_shard_owners(ctx, &w, NULL, n, owner));
        assert_tm_ok(ctx, tm_replay_shard_owners(ctx, &w, NULL, n, again));
        assert_memory_equal(owner, again, sizeof owner);
        /* runs in start order: shard 0 first, each shard one run, none empty */
        for (int32_t i = 0; i < 60; i++) {
            int32_t k = owner[order[i]];
            assert_true(k >= 0 && k < n);
            assert_true(i == 0 ? k == 0 : k == owner[order[i - 1]] || k == owner[order[i - 1]] + 1);
            used[k]++;
        }
        for (int32_t k = 0; k < n; k++)
            assert_true(used[k] > 0);
    }
    assert_tm_error(ctx, tm_replay_shard_owners(ctx, &w, NULL, 61, owner), TM_EUSAGE, "61 shards");
    assert_tm_error(ctx, tm_replay_shard_owners(ctx, &w, NULL, 0, owner), TM_EUSAGE, "0 shards");
    tm_workload_release(&w);
    free(text);
    tm_net_free(net);
}

/* Twelve identical jobs one after the other, none overlapping: the runs
 * are as even as the jobs allow (4 shards: 3 jobs each). */
static void test_replay_owners_even(void **state)
{
    tm_net *net = clos_net();
    tm_workload w;
    char text[2048];
    size_t len = 0;
    int32_t owner[12];
    (void)state;
    len += (size_t)snprintf(text, sizeof text, "JobID|NodeList|NTasksPerNode|Comm|Start|End\n");
    for (int j = 0; j < 12; j++)
        len += (size_t)snprintf(text + len, sizeof text - len,
                                "E%d|n[0000,0009,0018]|2|ring:1MiB|2024-01-01T%02d:00:00|"
                                "2024-01-01T%02d:30:00\n", j, j, j);
    tm_workload_init(&w);
    assert_tm_ok(ctx, read_text(net, text, &w));
    assert_tm_ok(ctx, tm_replay_shard_owners(ctx, &w, NULL, 4, owner));
    for (int j = 0; j < 12; j++)
        assert_int_equal(owner[j], j / 3);
    tm_workload_release(&w);
    tm_net_free(net);
}

/* Eval's costs follow the jobs' traffic: an all-to-all over more than a
 * ring of the same tasks, more hosts more; the same every time. */
static void test_eval_costs(void **state)
{
    tm_net *net = clos_net();
    tm_workload w;
    int32_t rows[4] = {0, 1, 2, 3};
    int64_t c[4], c2[4];
    (void)state;
    tm_workload_init(&w);
    assert_tm_ok(ctx, read_text(net, "JobID|NodeList|NTasksPerNode|Comm\n"
                                     "r|n[0000-0003]|4|ring:1MiB\n"
                                     "a|n[0004-0007]|4|alltoall:1MiB\n"
                                     "A|n[0008-0023]|4|alltoall:1MiB\n"
                                     "s|n[0024-0025]|1|stencil3d:1MiB\n",
                                &w));
    tm_workload_eval_costs(ctx, &w, NULL, rows, 4, c);
    tm_workload_eval_costs(ctx, &w, NULL, rows, 4, c2);
    assert_memory_equal(c, c2, sizeof c);
    assert_true(c[0] > 0 && c[3] > 0);
    assert_true(c[1] > c[0]);
    assert_true(c[2] > c[1]);
    tm_workload_release(&w);
    tm_net_free(net);
}

static bool same_figures(const tm_job_figures *a, const tm_job_figures *b)
{
    return memcmp(&a->max_congestion, &b->max_congestion, sizeof(double)) == 0 &&
           memcmp(&a->avg_dilation, &b->avg_dilation, sizeof(double)) == 0 &&
           memcmp(&a->qap_J, &b->qap_J, sizeof(double)) == 0 &&
           memcmp(&a->est_time_s, &b->est_time_s, sizeof(double)) == 0 &&
           a->time_approximate == b->time_approximate;
}

/* Every shard's rows are the whole replay's, bit for bit, and so is the
 * timeline; together the shards have every row once. */
static void test_replay_shards_rows(void **state)
{
    tm_net *net = clos_net();
    tm_route *route;
    tm_workload w;
    tm_replay_result whole;
    char *text = trace_text(40);
    int32_t owner[40];
    (void)state;
    tm_workload_init(&w);
    assert_tm_ok(ctx, read_text(net, text, &w));
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &route));
    assert_tm_ok(ctx, tm_replay(ctx, route, &w, TM_REPLAY_RECORDED, NULL, &whole));
    assert_int_equal(whole.n_rows, 40);
    for (int32_t n = 2; n <= 7; n += 5) {
        int seen[40] = {0};
        assert_tm_ok(ctx, tm_replay_shard_owners(ctx, &w, NULL, n, owner));
        for (int32_t k = 0; k < n; k++) {
            tm_replay_opts o = TM_REPLAY_OPTS_INIT;
            tm_replay_result part;
            int32_t rows[40], nr = 0;
            for (int32_t j = 0; j < 40; j++)
                if (owner[j] == k)
                    rows[nr++] = j;
            o.rows = rows;
            o.n_rows = nr;
            assert_tm_ok(ctx, tm_replay(ctx, route, &w, TM_REPLAY_RECORDED, &o, &part));
            assert_int_equal(part.n_rows, nr);
            for (int32_t i = 0; i < part.n_rows; i++) {
                const tm_replay_row *p = &part.rows[i], *q = &whole.rows[p->r.job];
                seen[p->r.job]++;
                assert_true(same_figures(&p->r.alone, &q->r.alone));
                assert_true(same_figures(&p->r.shared, &q->r.shared));
                assert_memory_equal(&p->r.slowdown, &q->r.slowdown, sizeof(double));
                assert_memory_equal(&p->worst_slowdown, &q->worst_slowdown, sizeof(double));
                assert_int_equal(p->intervals, q->intervals);
                assert_int_equal(p->r.n_neighbours, q->r.n_neighbours);
                if (p->r.n_neighbours)
                    assert_memory_equal(p->r.neighbours, q->r.neighbours,
                                        (size_t)p->r.n_neighbours * sizeof(int32_t));
            }
            assert_int_equal(part.n_intervals, whole.n_intervals);
            assert_memory_equal(part.intervals, whole.intervals,
                                (size_t)whole.n_intervals * sizeof *whole.intervals);
            tm_replay_result_release(&part);
        }
        for (int j = 0; j < 40; j++)
            assert_int_equal(seen[j], 1);
    }
    tm_replay_result_release(&whole);
    tm_route_free(route);
    tm_workload_release(&w);
    free(text);
    tm_net_free(net);
}

static void test_sniff(void **state)
{
    static const char eval_json[] = "{\"topology\": \"t\", \"jobs_file\": \"j\", \"jobs\": []}";
    static const char replay_json[] = " \n{\"topology\": \"t\", \"trace\": \"j\"}";
    static const char replay_csv[] = "policy,job,index\nas-recorded,1,0\n";
    static const char eval_csv[] = "job,index,line\n1,0,2\n";
    (void)state;
    assert_false(tm__shard_sniff(eval_json, strlen(eval_json), "trace"));
    assert_true(tm__shard_sniff(eval_json, strlen(eval_json), "jobs_file"));
    assert_true(tm__shard_sniff(replay_json, strlen(replay_json), "trace"));
    assert_true(tm__shard_sniff(replay_csv, strlen(replay_csv), "policy"));
    assert_false(tm__shard_sniff(eval_csv, strlen(eval_csv), "policy"));
    assert_true(tm__shard_sniff(eval_csv, strlen(eval_csv), "line"));
    assert_false(tm__shard_sniff(eval_csv, strlen(eval_csv), "lin"));
    /* not JSON after all, a column only in a row, nothing */
    assert_false(tm__shard_sniff("{\"trace\": ", 10, "trace"));
    assert_false(tm__shard_sniff(eval_csv, strlen(eval_csv), "0"));
    assert_false(tm__shard_sniff("", 0, "policy"));
}

/* The getters the workload merge added to src/shard: booleans, lists of
 * strings in a row, numbers and list items by index in a member. */
static void test_shard_getters(void **state)
{
    static const tm__shard_kind kind = {"thing", "rows", NULL, "ok,ids"};
    static const char json[] =
        "{\"meta\": {\"list\": [{\"x\": 1.5}, {\"x\": null}], \"n\": 3},\n"
        " \"rows\": [{\"ok\": true, \"ids\": [\"p\", \"q\"], \"bad\": [1]}],\n"
        " \"shard\": {\"index\": 0, \"count\": 1, \"id\": \"0123456789abcdef\", "
        "\"rows_total\": 1, \"rows\": [0]}}\n";
    static const char csv[] = "ok,ids,shard,shard_id,shard_row,shard_rows_total\n"
                              "maybe,p q,0/1,0123456789abcdef,0,1\n";
    const tm__shard_field ok = {"ok", "ok"}, ids = {"ids", "ids"}, bad = {"bad", "bad"};
    tm__shard_set *s;
    const tm__shard_row *r;
    FILE *f = tm_test_memfile(json);
    int64_t n;
    bool b;
    double x;
    (void)state;
    assert_tm_ok(ctx, tm__shard_set_new(ctx, &kind, &s));
    assert_tm_ok(ctx, tm__shard_set_add(ctx, s, f, "t.json"));
    fclose(f);
    assert_tm_ok(ctx, tm__shard_set_finish(ctx, s));
    assert_non_null(r = tm__shard_set_row(s, 0));
    assert_tm_ok(ctx, tm__shard_get_bool(ctx, s, r, ok, &b));
    assert_true(b);
    assert_tm_ok(ctx, tm__shard_get_list(ctx, s, r, ids, &n));
    assert_int_equal(n, 2);
    assert_string_equal(tm__shard_row_item(s, r, ids, 1), "q");
    assert_null(tm__shard_row_item(s, r, ids, 2));
    assert_tm_error(ctx, tm__shard_get_list(ctx, s, r, bad, &n), TM_EINPUT,
                    "t.json: rows[0]: key 'bad' item 0 is not a string");
    assert_tm_error(ctx, tm__shard_get_bool(ctx, s, r, ids, &b), TM_EINPUT, "is not true or false");
    assert_tm_ok(ctx, tm__shard_meta_num(ctx, s, "meta.list.0.x", &x));
    assert_true(x == 1.5);
    assert_tm_ok(ctx, tm__shard_meta_num(ctx, s, "meta.list.1.x", &x));
    assert_true(isnan(x));
    assert_true(tm__shard_meta_has(s, "meta.list.0"));
    assert_false(tm__shard_meta_has(s, "meta.list.1.x"));
    assert_false(tm__shard_meta_has(s, "meta.list.2"));
    assert_false(tm__shard_meta_has(s, "meta.n.0"));
    assert_tm_error(ctx, tm__shard_meta_num(ctx, s, "meta.list", &x), TM_EINPUT, "is not a number");
    tm__shard_set_free(s);
    /* CSV: booleans are the words, lists are not there */
    f = tm_test_memfile(csv);
    assert_tm_ok(ctx, tm__shard_set_new(ctx, &kind, &s));
    assert_tm_ok(ctx, tm__shard_set_add(ctx, s, f, "t.csv"));
    fclose(f);
    assert_tm_ok(ctx, tm__shard_set_finish(ctx, s));
    r = tm__shard_set_row(s, 0);
    assert_tm_error(ctx, tm__shard_get_bool(ctx, s, r, ok, &b), TM_EINPUT,
                    "t.csv:2: column 'ok': 'maybe' is not true or false");
    assert_int_equal(tm__shard_get_list(ctx, s, r, ids, &n), TM_EUSAGE);
    tm__shard_set_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replay_owners),      cmocka_unit_test(test_replay_owners_even),
        cmocka_unit_test(test_eval_costs),         cmocka_unit_test(test_replay_shards_rows),
        cmocka_unit_test(test_sniff),              cmocka_unit_test(test_shard_getters),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
