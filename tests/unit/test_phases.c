/* test_phases.c - a job's communication as phases (docs/time.md "Phases",
 * docs/formats.md "Phases"): the reader on a valid file (comments, blank
 * lines, diagonal entries, duplicates, an empty phase), the writer read
 * back, every malformed input with its "name:line:" error, and est_time_s
 * over phases on hand-computed cases: the sum over phases of repeat x the
 * phase's own time, not the time of the summed matrix. */
#include <math.h>

#include "test_fixtures.h"
#include "comm_fixtures.h"

#define GB 1e9 /* bytes; a cable of 8 Gbit/s carries 1 GB/s */

static void assert_rel(double a, double b, double tol)
{
    if (fabs(a - b) > tol * (1.0 + fabs(b)))
        fail_msg("%.17g != %.17g", a, b);
}

static tm_err read_text(const char *text, tm_comm_phases *out)
{
    FILE *f = *text ? tm_test_memfile(text) : tmpfile();
    tm_err err;
    assert_non_null(f);
    err = tm_comm_phases_read(ctx, f, "t", out);
    fclose(f);
    return err;
}

/* Volume of u -> v in c, 0 if absent. */
static double vol(const tm_comm *c, int32_t u, int32_t v)
{
    for (int64_t e = c->xadj[u]; e < c->xadj[u + 1]; e++)
        if (c->adj[e] == v)
            return c->w[e];
    return 0.0;
}

static void test_read_valid(void **state)
{
    tm_comm_phases p;
    (void)state;
    assert_tm_ok(ctx, read_text("%%TopomapPhases 1\n"
                                "% a comment\n"
                                "\n"
                                "3 3\n"
                                "phase 2 4\n"
                                "1 2 100\n"
                                "1 2 50\n"      /* duplicate: summed */
                                "2 2 7\n"       /* diagonal: ignored */
                                "3 1 1e3\n"
                                "% between phases\n"
                                "phase 1 0\n"   /* no entries */
                                "phase 1000000 1\n"
                                "  2   3   8  \r\n",
                                &p));
    assert_int_equal(p.n_tasks, 3);
    assert_int_equal(p.n_phases, 3);
    assert_int_equal(p.repeat[0], 2);
    assert_int_equal(p.repeat[1], 1);
    assert_int_equal(p.repeat[2], 1000000);
    assert_int_equal(p.phase[0].n, 3);
    assert_int_equal(p.phase[0].nnz, 2);
    assert_rel(vol(&p.phase[0], 0, 1), 150, 0);
    assert_rel(vol(&p.phase[0], 2, 0), 1000, 0);
    assert_int_equal(p.phase[1].nnz, 0);
    assert_rel(vol(&p.phase[2], 1, 2), 8, 0);
    tm_comm_phases_release(&p);
    assert_null(p.phase);
    tm_comm_phases_release(NULL);
}

static void test_write_read_back(void **state)
{
    tm_comm_phases p, q;
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    (void)state;
    assert_tm_ok(ctx, read_text("%%TopomapPhases 1\n4 2\nphase 3 2\n1 4 0.5\n4 1 12345678901\n"
                                "phase 7 1\n2 3 1\n", &p));
    f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_tm_ok(ctx, tm_comm_phases_write(ctx, &p, f));
    fclose(f);
    assert_tm_ok(ctx, read_text(buf, &q));
    assert_int_equal(q.n_tasks, 4);
    assert_int_equal(q.n_phases, 2);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(q.repeat[k], p.repeat[k]);
        assert_int_equal(q.phase[k].nnz, p.phase[k].nnz);
        for (int64_t e = 0; e < p.phase[k].nnz; e++) {
            assert_int_equal(q.phase[k].adj[e], p.phase[k].adj[e]);
            assert_true(q.phase[k].w[e] == p.phase[k].w[e]); /* %.17g: exact */
        }
    }
    free(buf);
    tm_comm_phases_release(&p);
    tm_comm_phases_release(&q);
}

static void test_malformed(void **state)
{
    static const struct { const char *text, *needle; } bad[] = {
        {"", "t:1: empty file"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 0\n", "t:1: missing '%%TopomapPhases"},
        {"%%TopomapPhases 2\n", "t:1: phases format version '2'"},
        {"%%TopomapPhases 1 x\n", "t:1: unexpected 'x' after the banner"},
        {"%%TopomapPhases 1\n% only a comment\n", "missing size line 'tasks phases'"},
        {"%%TopomapPhases 1\n0 1\n", "t:2:"},
        {"%%TopomapPhases 1\n4\n", "t:2:"},
        {"%%TopomapPhases 1\n4 -1\n", "t:2:"},
        {"%%TopomapPhases 1\n4 1 9\n", "t:2: unexpected '9'"},
        {"%%TopomapPhases 1\n99999999999 1\n", "t:2:"},
        {"%%TopomapPhases 1\n4 1\nfoo 1 1\n", "t:3: expected 'phase REPEAT ENTRIES', found 'foo'"},
        {"%%TopomapPhases 1\n4 1\nphase 0 1\n", "t:3:"},
        {"%%TopomapPhases 1\n4 1\nphase 1.5 1\n", "t:3:"},
        {"%%TopomapPhases 1\n4 1\nphase 1 17\n", "t:3:"},  /* more than 4 x 4 entries */
        {"%%TopomapPhases 1\n4 1\nphase 1\n", "t:3:"},
        {"%%TopomapPhases 1\n4 1\nphase 1 1 x\n", "t:3: unexpected 'x'"},
        {"%%TopomapPhases 1\n4 1\nphase 1 2\n1 2 5\n", "file ends after 1 of the 2 entries of phase 1"},
        {"%%TopomapPhases 1\n4 1\nphase 1 1\n5 2 5\n", "t:4:"},
        {"%%TopomapPhases 1\n4 1\nphase 1 1\n1 0 5\n", "t:4:"},
        {"%%TopomapPhases 1\n4 1\nphase 1 1\n1 2 -5\n", "t:4:"},
        {"%%TopomapPhases 1\n4 1\nphase 1 1\n1 2 nan\n", "t:4:"},
        {"%%TopomapPhases 1\n4 1\nphase 1 1\n1 2 inf\n", "t:4:"},
        {"%%TopomapPhases 1\n4 1\nphase 1 1\n1 2\n", "t:4:"},
        {"%%TopomapPhases 1\n4 1\nphase 1 1\n1 2 3 4\n", "t:4: unexpected '4' after the entry"},
        {"%%TopomapPhases 1\n4 1\nphase 1 0\nphase 1 0\n", "t:4: more phases than the 1"},
        {"%%TopomapPhases 1\n4 2\nphase 1 0\n", "file ends after 1 of 2 phases"},
        {"%%TopomapPhases 1\n4 16777216\n", "file ends after 0 of 16777216 phases"},
        {"%%TopomapPhases 1\n16777216 9\nphase 1 0\nphase 1 0\nphase 1 0\nphase 1 0\n",
         "t:6: phase 4: 16777216 tasks x 4 phases is more than"},
        {"%%TopomapPhases 1\n4 1\nphase 1 1\n1 2 1e31\n", "t"},        /* over TM_COMM_MAX_VOLUME */
    };
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tm_comm_phases p;
        tm_err err = read_text(bad[i].text, &p);
        if (err != TM_EINPUT || !strstr(tm_ctx_errmsg(ctx), bad[i].needle))
            fail_msg("case %zu: expected '%s', got %d '%s'", i, bad[i].needle, (int)err,
                     tm_ctx_errmsg(ctx));
        assert_int_equal(p.n_phases, 0); /* left empty */
        assert_null(p.phase);
    }
    {
        tm_comm_phases p;
        assert_tm_error(ctx, tm_comm_phases_read_file(ctx, "/no/such/file.phases", &p), TM_EIO,
                        "/no/such/file.phases");
    }
}

/* h0..h3 on one switch, 8 Gbit/s (1 GB/s) cables; task i on host i. */
static tm_net *star4(void)
{
    tm_net *net;
    int32_t sw, v;
    char name[8];
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    for (int i = 0; i < 4; i++) {
        snprintf(name, sizeof name, "h%d", i);
        assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, name, TM_VERTEX_HOST, 1, &v));
    }
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "sw", TM_VERTEX_SWITCH, 0, &sw));
    for (int i = 0; i < 4; i++)
        assert_tm_ok(ctx, tm_net_add_cable(ctx, net, i, sw, 8, NULL));
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    return net;
}

typedef struct fixture {
    tm_net *net;
    tm_route *route;
    tm_mapping map;
    tm_comm whole;
    tm_comm_phases ph;
} fixture;

/* Phase A: h0 -> h1 1 GB (repeat 1); phase B: h2 -> h3 1 GB (repeat rb).
 * The whole matrix: A + rb x B. */
static void fixture_make(fixture *f, int64_t rb)
{
    static const int32_t ea[1][2] = {{0, 1}}, eb[1][2] = {{2, 3}}, ew[2][2] = {{0, 1}, {2, 3}};
    const double wa[1] = {GB}, ww[2] = {GB, (double)rb * GB};
    f->net = star4();
    assert_tm_ok(ctx, tm_route_new(ctx, f->net, TM_ROUTE_ECMP, &f->route));
    memset(&f->map, 0, sizeof f->map);
    f->map.n = 4;
    f->map.host = calloc(4, sizeof *f->map.host);
    f->map.slot = calloc(4, sizeof *f->map.slot);
    for (int i = 0; i < 4; i++)
        f->map.host[i] = i;
    fx_make_comm(&f->whole, 4, 2, ew, ww);
    f->ph.n_tasks = 4;
    f->ph.n_phases = 2;
    f->ph.phase = calloc(2, sizeof *f->ph.phase);
    f->ph.repeat = calloc(2, sizeof *f->ph.repeat);
    fx_make_comm(&f->ph.phase[0], 4, 1, ea, wa);
    fx_make_comm(&f->ph.phase[1], 4, 1, eb, wa);
    f->ph.repeat[0] = 1;
    f->ph.repeat[1] = rb;
}

static void fixture_free(fixture *f)
{
    for (int k = 0; k < 2; k++)
        fx_free_comm(&f->ph.phase[k]);
    free(f->ph.phase);
    free(f->ph.repeat);
    fx_free_comm(&f->whole);
    free(f->map.host);
    free(f->map.slot);
    tm_route_free(f->route);
    tm_net_free(f->net);
}

static void eval(fixture *f, const tm_time_opts *to, tm_metrics *m)
{
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    o.time = to;
    assert_tm_ok(ctx, tm_metrics_eval(ctx, f->route, &f->whole, &f->map, &o, m));
}

/* The two phases use disjoint links: at once (the whole matrix) they end
 * together, one after the other they add up. */
static void test_time_sum_of_phases(void **state)
{
    fixture f;
    tm_time_opts to = TM_TIME_OPTS_INIT;
    tm_metrics m;
    (void)state;
    to.model = TM_TIME_FLUID;
    to.latency_per_hop_s = 0.0;
    fixture_make(&f, 1);
    eval(&f, &to, &m); /* without phases: 1 GB on each of two disjoint paths, 1 s */
    assert_rel(m.est_time_s, 1.0, 1e-12);
    assert_rel(m.time_lower_bound_s, 1.0, 1e-12);
    tm_metrics_release(&m);
    to.phases = &f.ph; /* 1 s + 1 s */
    eval(&f, &to, &m);
    assert_rel(m.est_time_s, 2.0, 1e-12);
    assert_rel(m.time_lower_bound_s, 2.0, 1e-12);
    assert_int_equal(m.time_flows, 2);
    assert_rel(m.max_congestion, 1e9 / 8, 1e-12); /* the other figures: the whole matrix */
    tm_metrics_release(&m);
    /* latency 1 ms per hop, 2 hops per message: 1.002 s per phase */
    to.latency_per_hop_s = 1e-3;
    eval(&f, &to, &m);
    assert_rel(m.est_time_s, 2.004, 1e-12);
    tm_metrics_release(&m);
    to.phases = NULL;
    eval(&f, &to, &m);
    assert_rel(m.est_time_s, 1.002, 1e-12);
    tm_metrics_release(&m);
    fixture_free(&f);
}

/* Phase B three times: 1 s + 3 x 1 s, against 3 s for the whole matrix
 * (h2 -> h3 3 GB beside h0 -> h1 1 GB); tm_time_eval agrees. */
static void test_time_repeat(void **state)
{
    fixture f;
    tm_time_opts to = TM_TIME_OPTS_INIT;
    tm_metrics m, t;
    (void)state;
    to.model = TM_TIME_FLUID;
    to.latency_per_hop_s = 0.0;
    fixture_make(&f, 3);
    eval(&f, &to, &m);
    assert_rel(m.est_time_s, 3.0, 1e-12);
    tm_metrics_release(&m);
    to.phases = &f.ph;
    eval(&f, &to, &m);
    assert_rel(m.est_time_s, 4.0, 1e-12);
    assert_rel(m.time_lower_bound_s, 4.0, 1e-12);
    tm_metrics_init(&t);
    assert_tm_ok(ctx, tm_time_eval(ctx, f.route, &f.whole, &f.map, &to, &t));
    assert_rel(t.est_time_s, 4.0, 1e-12);
    tm_metrics_release(&m);
    tm_metrics_release(&t);
    /* SMPI's model: each phase's message keeps its own size (1 GB, not
     * 3 GB), so the phases' time is the sum of the one-phase estimates */
    {
        tm_time_opts one = TM_TIME_OPTS_INIT;
        tm_metrics_opts o = TM_METRICS_OPTS_INIT;
        tm_metrics a, b;
        double want;
        o.time = &one;
        assert_tm_ok(ctx, tm_metrics_eval(ctx, f.route, &f.ph.phase[0], &f.map, &o, &a));
        assert_tm_ok(ctx, tm_metrics_eval(ctx, f.route, &f.ph.phase[1], &f.map, &o, &b));
        want = a.est_time_s + 3 * b.est_time_s;
        one.phases = &f.ph;
        assert_tm_ok(ctx, tm_metrics_eval(ctx, f.route, &f.whole, &f.map, &o, &m));
        assert_rel(m.est_time_s, want, 1e-12);
        assert_true(m.time_lower_bound_s <= m.est_time_s);
        tm_metrics_release(&a);
        tm_metrics_release(&b);
        tm_metrics_release(&m);
    }
    fixture_free(&f);
}

static void test_time_tasks_differ(void **state)
{
    fixture f;
    tm_time_opts to = TM_TIME_OPTS_INIT;
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    tm_metrics m;
    (void)state;
    fixture_make(&f, 1);
    f.ph.n_tasks = 5;
    to.phases = &f.ph;
    o.time = &to;
    assert_tm_error(ctx, tm_metrics_eval(ctx, f.route, &f.whole, &f.map, &o, &m), TM_EINPUT,
                    "the phases have 5 tasks but the communication graph has 4");
    f.ph.n_tasks = 4;
    f.ph.phase[1].n = 3;
    assert_tm_error(ctx, tm_metrics_eval(ctx, f.route, &f.whole, &f.map, &o, &m), TM_EINPUT,
                    "phase 2 has 3 tasks, not 4");
    f.ph.phase[1].n = 4;
    fixture_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_valid),
        cmocka_unit_test(test_write_read_back),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_time_sum_of_phases),
        cmocka_unit_test(test_time_repeat),
        cmocka_unit_test(test_time_tasks_differ),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
