/* test_workload.c - jobs files (sacct output included), patterns and
 * the ISO 8601 times of tm_workload_read (docs/workload.md). */
#include <math.h>

#include "test_fixtures.h"
#include "workload/wl_int.h"

/* clos: 2 leaves of 4 hosts (n0000-n0007), 1 spine, 2 slots per host. */
static tm_net *small_net(void)
{
    return tm_test_gen_net("clos:leaves=2,hosts_per_leaf=4,spines=1", 2);
}

static tm_err read_text(const tm_net *net, const char *text, tm_workload *w)
{
    tm_workload_read_opts o = TM_WORKLOAD_READ_OPTS_INIT;
    FILE *f = tm_test_memfile(text);
    tm_err err;
    o.base_dir = TEST_DATA("comm");
    err = tm_workload_read(ctx, net, f, "jobs.txt", &o, w);
    fclose(f);
    return err;
}

static void test_iso_time(void **state)
{
    double t;
    (void)state;
    assert_int_equal(tm__iso_time("1970-01-01T00:00:00", &t), 0);
    assert_true(t == 0.0);
    assert_int_equal(tm__iso_time("2024-03-05T10:22:13", &t), 0);
    assert_true(t == 1709634133.0);
    assert_int_equal(tm__iso_time("2000-02-29T23:59:59", &t), 0);
    assert_true(t == 951868799.0);
    assert_int_equal(tm__iso_time("2024-03-05T10:22:13Z", &t), 0);
    assert_true(t == 1709634133.0);
    assert_int_equal(tm__iso_time("2024-03-05T11:22:13+01:00", &t), 0);
    assert_true(t == 1709634133.0);
    assert_int_equal(tm__iso_time("2024-03-05T04:52:13-0530", &t), 0);
    assert_true(t == 1709634133.0);
    assert_int_equal(tm__iso_time("2024-03-05 10:22:13.5", &t), 0);
    assert_true(t == 1709634133.5);
    const char *bad[] = {"", "Unknown", "2024-02-30T00:00:00", "2023-02-29T00:00:00",
                         "2024-13-01T00:00:00", "2024-03-05T24:00:00", "2024-03-05T10:22",
                         "2024-03-05", "2024-03-05T10:22:13+", "2024-03-05T10:22:13x",
                         "24-03-05T10:22:13", "2024-03-05T10:22:13."};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(tm__iso_time(bad[i], &t), -1);
}

static void test_patterns(void **state)
{
    tm_comm c;
    tm_pattern k;
    double b;
    const char *why;
    (void)state;
    assert_int_equal(tm_pattern_parse("ring", &k, &b, &why), 1);
    assert_int_equal(k, TM_PATTERN_RING);
    assert_true(b == TM_PATTERN_BYTES_DEFAULT);
    assert_int_equal(tm_pattern_parse("alltoall:64KiB", &k, &b, &why), 1);
    assert_true(k == TM_PATTERN_ALLTOALL && b == 65536.0);
    assert_int_equal(tm_pattern_parse("stencil3d:2MB", &k, &b, &why), 1);
    assert_true(k == TM_PATTERN_STENCIL3D && b == 2e6);
    assert_int_equal(tm_pattern_parse("ring:1.5Gi", &k, &b, &why), 1);
    assert_true(b == 1.5 * 1073741824.0);
    assert_int_equal(tm_pattern_parse("ring:0", &k, &b, &why), -1);
    assert_int_equal(tm_pattern_parse("ring:12XB", &k, &b, &why), -1);
    assert_int_equal(tm_pattern_parse("ring:", &k, &b, &why), -1);
    assert_int_equal(tm_pattern_parse("app.mtx", &k, &b, &why), 0);
    assert_int_equal(tm_pattern_parse("rings", &k, &b, &why), 0);

    /* ring of 5: 2 neighbours each; of 2: one; of 1: none */
    assert_tm_ok(ctx, tm_pattern_comm(ctx, TM_PATTERN_RING, 5, 10.0, &c));
    assert_int_equal(c.nnz, 10);
    assert_tm_ok(ctx, tm_comm_check(ctx, &c));
    assert_int_equal(c.adj[0], 1);
    assert_int_equal(c.adj[1], 4);
    assert_true(tm_comm_total_volume(&c) == 100.0);
    tm_comm_release(&c);
    assert_tm_ok(ctx, tm_pattern_comm(ctx, TM_PATTERN_RING, 2, 1.0, &c));
    assert_int_equal(c.nnz, 2);
    tm_comm_release(&c);
    assert_tm_ok(ctx, tm_pattern_comm(ctx, TM_PATTERN_RING, 1, 1.0, &c));
    assert_int_equal(c.nnz, 0);
    tm_comm_release(&c);
    /* all-to-all: n (n - 1) */
    assert_tm_ok(ctx, tm_pattern_comm(ctx, TM_PATTERN_ALLTOALL, 7, 1.0, &c));
    assert_int_equal(c.nnz, 42);
    assert_tm_ok(ctx, tm_comm_check(ctx, &c));
    tm_comm_release(&c);
    /* 64 = 4 x 4 x 4: 3 * 2 * 4 * 4 * 3 = 288 directed faces; 12 = 3 x 2 x 2 */
    assert_tm_ok(ctx, tm_pattern_comm(ctx, TM_PATTERN_STENCIL3D, 64, 1.0, &c));
    assert_int_equal(c.nnz, 288);
    assert_tm_ok(ctx, tm_comm_check(ctx, &c));
    tm_comm_release(&c);
    assert_tm_ok(ctx, tm_pattern_comm(ctx, TM_PATTERN_STENCIL3D, 12, 1.0, &c));
    /* 3x2x2: pairs along d0: 2*2*2 = 8, d1: 3*1*2 = 6, d2: 3*2*1 = 6 -> 20 pairs */
    assert_int_equal(c.nnz, 40);
    /* rank 0 = (0,0,0): neighbours 1 (d2), 2 (d1), 4 (d0) */
    assert_int_equal(c.xadj[1], 3);
    assert_int_equal(c.adj[0], 1);
    assert_int_equal(c.adj[1], 2);
    assert_int_equal(c.adj[2], 4);
    tm_comm_release(&c);
    /* a prime: a line */
    assert_tm_ok(ctx, tm_pattern_comm(ctx, TM_PATTERN_STENCIL3D, 7, 1.0, &c));
    assert_int_equal(c.nnz, 12);
    tm_comm_release(&c);
    assert_tm_error(ctx, tm_pattern_comm(ctx, TM_PATTERN_ALLTOALL, 1 << 20, 1.0, &c), TM_EINPUT,
                    "more than");
}

static void test_read_own_format(void **state)
{
    tm_net *net = small_net();
    tm_workload w;
    tm_comm c;
    (void)state;
    assert_tm_ok(ctx, read_text(net,
                                "# a comment\n"
                                "JobID|NodeList|NTasksPerNode|Comm|Start|End\n"
                                "1|n[0000-0001]|2|ring.mtx|2024-03-05T10:00:00|2024-03-05T11:00:00\n"
                                " 2 | n[0004,0002] | 1 | alltoall:1KiB | 2024-03-05T10:30:00 | Unknown\n"
                                "3|n0003|2||2024-03-05T10:00:00|2024-03-05T10:00:00\n",
                                &w));
    assert_int_equal(w.n_jobs, 3);
    assert_true(w.has_times);
    assert_string_equal(w.job[0].id, "1");
    assert_int_equal(w.job[0].n_tasks, 4);
    assert_int_equal(w.job[0].matrix, 0);
    assert_int_equal(w.n_matrices, 1);
    assert_true(w.job[0].end - w.job[0].start == 3600.0);
    assert_string_equal(w.job[1].id, "2");
    assert_int_equal(w.job[1].line, 4);
    assert_string_equal(tm_net_name(net, w.job[1].host[0]), "n0004");
    assert_string_equal(tm_net_name(net, w.job[1].host[1]), "n0002");
    assert_int_equal(w.job[1].pattern, TM_PATTERN_ALLTOALL);
    assert_true(w.job[1].pattern_bytes == 1024.0);
    assert_true(isinf(w.job[1].end));
    assert_int_equal(w.job[2].pattern, TM_PATTERN_STENCIL3D);
    assert_tm_ok(ctx, tm_workload_job_comm(ctx, &w, 1, &c));
    assert_int_equal(c.n, 2);
    assert_int_equal(c.nnz, 2);
    tm_comm_release(&c);
    assert_tm_ok(ctx, tm_workload_job_comm(ctx, &w, 0, &c));
    assert_int_equal(c.n, 4);
    tm_comm_release(&c);
    tm_workload_release(&w);
    /* no times; the matrix gives the tasks, spread 2 + 2 */
    assert_tm_ok(ctx, read_text(net, "nodelist|JOBID|comm\nn[0000-0001]|7|ring.mtx\n", &w));
    assert_false(w.has_times);
    assert_int_equal(w.job[0].tasks[0], 2);
    assert_true(isnan(w.job[0].start));
    tm_workload_release(&w);
    tm_net_free(net);
}

/* What `sacct -P -o JobID,NodeList,NTasks,Start,End,State` prints, steps,
 * pending jobs and all; and the -p form with its trailing '|'. */
static void test_read_sacct(void **state)
{
    tm_net *net = small_net();
    tm_workload w;
    (void)state;
    assert_tm_ok(ctx, read_text(net,
                                "JobID|NodeList|NTasks|Start|End|State\n"
                                "100|n[0000-0002]||2024-03-05T10:00:00|2024-03-05T12:00:00|COMPLETED\n"
                                "100.batch|n0000|1|2024-03-05T10:00:00|2024-03-05T12:00:00|COMPLETED\n"
                                "100.extern|n[0000-0002]|3|2024-03-05T10:00:00|2024-03-05T12:00:00|COMPLETED\n"
                                "100.0|n[0000-0002]|5|2024-03-05T10:00:01|2024-03-05T11:00:00|COMPLETED\n"
                                "100.1|n[0000-0002]|4|2024-03-05T11:00:01|2024-03-05T12:00:00|COMPLETED\n"
                                "101_3|n[0004-0005]||2024-03-05T10:10:00|Unknown|RUNNING\n"
                                "102|None assigned||Unknown|Unknown|PENDING\n"
                                "103|n0006||None|None|CANCELLED by 0\n"
                                "sacct: error: something the tool said\n",
                                &w));
    assert_int_equal(w.n_jobs, 2);
    assert_int_equal(w.skipped_steps, 4);
    assert_int_equal(w.skipped_not_started, 2);
    /* 5 tasks (the largest numbered step) on 3 nodes: 2, 2, 1 */
    assert_int_equal(w.job[0].n_tasks, 5);
    assert_int_equal(w.job[0].tasks[0], 2);
    assert_int_equal(w.job[0].tasks[2], 1);
    assert_int_equal(w.job[0].pattern, TM_PATTERN_STENCIL3D);
    /* no task count anywhere: the nodes' slots (2 each) */
    assert_string_equal(w.job[1].id, "101_3");
    assert_int_equal(w.job[1].n_tasks, 4);
    tm_workload_release(&w);
    assert_tm_ok(ctx, read_text(net,
                                "JobID|NodeList|AllocCPUS|Start|End|\n"
                                "5|n[0000-0001]|3|2024-03-05T10:00:00|2024-03-05T12:00:00|\n",
                                &w));
    assert_int_equal(w.job[0].n_tasks, 3);
    assert_int_equal(w.job[0].tasks[0], 2);
    tm_workload_release(&w);
    tm_net_free(net);
}

static void test_read_errors(void **state)
{
    static const struct {
        const char *text, *needle;
        tm_err err;
    } bad[] = {
        {"", "jobs.txt:1: no header line", TM_EINPUT},
        {"# nothing\n\n", "no header line", TM_EINPUT},
        {"JobID|JobName|State\n1|x|RUNNING\n", "jobs.txt:1: the header line must name", TM_EINPUT},
        {"100|n0000||x|y\n", "jobs.txt:1: the header line must name", TM_EINPUT},
        {"JobID|NodeList|JobID\n", "jobs.txt:1: column JobID given twice", TM_EINPUT},
        {"JobID|NodeList|Start\n", "column Start without End", TM_EINPUT},
        {"JobID|NodeList\n1|n0000|x\n", "jobs.txt:2: 3 fields, but the header has 2", TM_EINPUT},
        {"JobID|NodeList|Comm\n1\n", "jobs.txt:2: 1 fields", TM_EINPUT},
        {"JobID|NodeList\n|n0000\n", "jobs.txt:2: empty JobID", TM_EINPUT},
        {"JobID|NodeList\n1|n9999\n", "jobs.txt:2: job 1: unknown host 'n9999'", TM_EINPUT},
        {"JobID|NodeList\n1|sw-l1-000\n", "jobs.txt:2: job 1: 'sw-l1-000' is a switch", TM_EINPUT},
        {"JobID|NodeList\n1|n[0000,0000]\n", "jobs.txt:2: job 1: host 'n0000' is listed twice",
         TM_EINPUT},
        {"JobID|NodeList\n1|n[0003-0001]\n", "jobs.txt:2: job 1: NodeList: hostlist term",
         TM_EINPUT},
        {"JobID|NodeList|NTasksPerNode\n1|n0000|0\n", "jobs.txt:2: NTasksPerNode '0' is not",
         TM_EINPUT},
        {"JobID|NodeList|NTasksPerNode\n1|n0000|x\n", "NTasksPerNode 'x'", TM_EINPUT},
        {"JobID|NodeList|NTasks\n1|n0000|-3\n", "NTasks '-3'", TM_EINPUT},
        {"JobID|NodeList|NTasksPerNode|NTasks\n1|n[0000-0001]|2|3\n",
         "jobs.txt:2: job 1: NTasksPerNode 2 on 2 nodes is 4 tasks, but NTasks says 3", TM_EINPUT},
        {"JobID|NodeList|Start|End\n1|n0000|2024-03-05|Unknown\n",
         "jobs.txt:2: Start '2024-03-05' is not a time", TM_EINPUT},
        {"JobID|NodeList|Start|End\n1|n0000|2024-03-05T10:00:00|yesterday\n",
         "End 'yesterday'", TM_EINPUT},
        {"JobID|NodeList|Start|End\n1|n0000|2024-03-05T10:00:00|2024-03-05T09:00:00\n",
         "jobs.txt:2: job 1 ends (2024-03-05T09:00:00) before it starts", TM_EINPUT},
        {"JobID|NodeList|Comm\n1|n0000|ring:-5\n", "jobs.txt:2: job 1: Comm 'ring:-5'", TM_EINPUT},
        {"JobID|NodeList|Comm\n1|n0000|missing.mtx\n", "jobs.txt:2: job 1: ", TM_EIO},
        {"JobID|NodeList|NTasksPerNode|Comm\n1|n0000|3|ring.mtx\n",
         "jobs.txt:2: job 1 has 3 tasks (from NTasksPerNode), but its matrix", TM_EINPUT},
    };
    tm_net *net = small_net();
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        tm_workload w;
        assert_tm_error(ctx, read_text(net, bad[i].text, &w), bad[i].err, bad[i].needle);
        assert_int_equal(w.n_jobs, 0);
        assert_null(w.job);
    }
    tm_net_free(net);
}

static void test_job_mapping(void **state)
{
    int32_t host[3] = {7, 3, 5}, tasks[3] = {2, 0, 1};
    tm_mapping m;
    (void)state;
    assert_tm_ok(ctx, tm_job_mapping(ctx, 3, host, tasks, &m));
    assert_int_equal(m.n, 3);
    assert_int_equal(m.host[0], 7);
    assert_int_equal(m.slot[1], 1);
    assert_int_equal(m.host[2], 5);
    assert_int_equal(m.slot[2], 0);
    tm_mapping_release(&m);
}

/* Two switches joined by one 10 Gbit/s cable, hosts a1, b1 on s1 and a2,
 * b2 on s2 on 100 Gbit/s cables. */
static tm_net *two_switch_net(void)
{
    tm_net *net;
    int32_t s1, s2, h;
    const char *names[4] = {"a1", "b1", "a2", "b2"};
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "s1", TM_VERTEX_SWITCH, 0, &s1));
    assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, "s2", TM_VERTEX_SWITCH, 0, &s2));
    assert_tm_ok(ctx, tm_net_add_cable(ctx, net, s1, s2, 10.0, NULL));
    for (int i = 0; i < 4; i++) {
        assert_tm_ok(ctx, tm_net_add_vertex(ctx, net, names[i], TM_VERTEX_HOST, 1, &h));
        assert_tm_ok(ctx, tm_net_add_cable(ctx, net, i < 2 ? s1 : s2, h, 100.0, NULL));
    }
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    return net;
}

static bool near(double a, double b, double rel)
{
    return fabs(a - b) <= rel * fmax(fabs(a), fabs(b)) + 1e-300;
}

/* Hand-computed: two jobs whose only path is the one s1-s2 cable.  Each
 * sends 1.25e9 bytes each way (a 2-task ring): alone the cable carries
 * 1.25e9 bytes per direction, congestion 1.25e9 / 10 = 1.25e8, and the
 * plain fluid model needs 1.25e9 B / 1.25e9 B/s = 1 s.  Together the cable
 * carries both jobs' bytes: congestion 2.5e8 (the sum), each job's flows
 * get half the cable, 2 s, slowdown 2.  Under SMPI's model every flow also
 * loads 5 % on the way back, the same for all: the slowdown stays 2. */
static void test_shared_cable(void **state)
{
    tm_net *net = two_switch_net();
    tm_route *route;
    tm_workload w;
    tm_workload_result r;
    tm_workload_eval_opts o = TM_WORKLOAD_EVAL_OPTS_INIT;
    tm_time_opts fluid = TM_TIME_OPTS_INIT;
    (void)state;
    fluid.model = TM_TIME_FLUID;
    fluid.latency_per_hop_s = 0;
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &route));
    assert_tm_ok(ctx, read_text(net, "JobID|NodeList|NTasksPerNode|Comm\n"
                                     "A|a1,a2|1|ring:1.25e9\nB|b1,b2|1|ring:1.25e9\n", &w));
    o.time = &fluid;
    assert_tm_ok(ctx, tm_workload_eval(ctx, route, &w, &o, &r));
    assert_int_equal(r.n_rows, 2);
    for (int i = 0; i < 2; i++) {
        const tm_job_result *x = &r.rows[i];
        assert_int_equal(x->job, i);
        assert_true(near(x->alone.max_congestion, 1.25e8, 1e-12));
        assert_true(near(x->shared.max_congestion, 2.5e8, 1e-12));
        assert_true(near(x->alone.est_time_s, 1.0, 1e-9));
        assert_true(near(x->shared.est_time_s, 2.0, 1e-9));
        assert_true(near(x->slowdown, 2.0, 1e-9));
        assert_true(x->alone.avg_dilation == 3.0 && x->shared.avg_dilation == 3.0);
        assert_int_equal(x->links_used, 6);   /* 3 links each way */
        assert_int_equal(x->links_shared, 2); /* the cable, both ways */
        assert_int_equal(x->n_neighbours, 1);
        assert_int_equal(x->neighbours[0], 1 - i);
        assert_int_equal(x->group, 0);
        assert_false(x->shared.time_approximate);
    }
    assert_true(near(r.max_congestion, 2.5e8, 1e-12));
    assert_int_equal(r.links_used, 10);
    assert_int_equal(r.links_shared, 2);
    assert_int_equal(r.n_shared, 2);
    assert_int_equal(r.shared[0].n_jobs, 2);
    tm_workload_result_release(&r);
    /* the default (SMPI) model: the same ratio */
    o.time = NULL;
    assert_tm_ok(ctx, tm_workload_eval(ctx, route, &w, &o, &r));
    /* (the latency, 1.75e-5 s of 1.1 s, is paid once either way) */
    assert_true(near(r.rows[0].slowdown, 2.0, 1e-4));
    assert_true(r.rows[0].shared.est_time_s > r.rows[0].alone.est_time_s);
    tm_workload_result_release(&r);
    /* the approximation (time-exact-max 0): the same ratio too */
    fluid.exact_max_flows = 0;
    o.time = &fluid;
    assert_tm_ok(ctx, tm_workload_eval(ctx, route, &w, &o, &r));
    assert_true(r.rows[0].shared.time_approximate);
    assert_true(near(r.rows[0].slowdown, 2.0, 1e-6));
    tm_workload_result_release(&r);
    /* rows for one job only: the same figures (a shard) */
    {
        int32_t one = 1;
        fluid.exact_max_flows = TM_TIME_EXACT_MAX_FLOWS_DEFAULT;
        o.rows = &one;
        o.n_rows = 1;
        assert_tm_ok(ctx, tm_workload_eval(ctx, route, &w, &o, &r));
        assert_int_equal(r.n_rows, 1);
        assert_int_equal(r.rows[0].job, 1);
        assert_true(near(r.rows[0].slowdown, 2.0, 1e-9));
        assert_true(near(r.max_congestion, 2.5e8, 1e-12));
        tm_workload_result_release(&r);
    }
    tm_workload_release(&w);
    tm_route_free(route);
    tm_net_free(net);
}

/* A job alone is `topomap eval` of the job: tm_metrics_eval of its matrix
 * on its hosts, under every model tier; a job that shares no link is
 * alone (slowdown exactly 1), even with others in the set. */
static void test_alone_is_eval(void **state)
{
    tm_net *net = tm_test_gen_net("fattree:k=4,n=3", 4);
    tm_route *route;
    tm_workload w;
    tm_workload_result r;
    tm_workload_eval_opts o = TM_WORKLOAD_EVAL_OPTS_INIT;
    tm_time_opts topt = TM_TIME_OPTS_INIT;
    (void)state;
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &route));
    /* J1 and J2 in pod 0 and pod 1 (disjoint links), J3 across pods 2 and 3 */
    assert_tm_ok(ctx, read_text(net, "JobID|NodeList|NTasksPerNode|Comm\n"
                                     "J1|n[0000-0003]|4|stencil3d:64KiB\n"
                                     "J2|n[0004-0007]|4|alltoall:8KiB\n"
                                     "J3|n[0008-0009,0012-0013]|1|ring.mtx\n", &w));
    for (int tier = 0; tier < 2; tier++) {
        topt.exact_max_flows = tier ? 0 : TM_TIME_EXACT_MAX_FLOWS_DEFAULT;
        o.time = &topt;
        assert_tm_ok(ctx, tm_workload_eval(ctx, route, &w, &o, &r));
        for (int j = 0; j < 3; j++) {
            tm_comm c;
            tm_mapping m;
            tm_metrics met;
            tm_metrics_opts mo = TM_METRICS_OPTS_INIT;
            mo.time = &topt;
            assert_tm_ok(ctx, tm_workload_job_comm(ctx, &w, j, &c));
            assert_tm_ok(ctx, tm_job_mapping(ctx, w.job[j].n_hosts, w.job[j].host, w.job[j].tasks,
                                             &m));
            assert_tm_ok(ctx, tm_metrics_eval(ctx, route, &c, &m, &mo, &met));
            assert_true(r.rows[j].alone.max_congestion == met.max_congestion);
            assert_true(r.rows[j].alone.avg_dilation == met.avg_dilation);
            assert_true(r.rows[j].alone.qap_J == met.qap_J);
            assert_true(r.rows[j].alone.est_time_s == met.est_time_s);
            /* no shared link: the shared figures are the alone ones, exactly */
            assert_int_equal(r.rows[j].n_neighbours, 0);
            assert_true(r.rows[j].shared.max_congestion == met.max_congestion);
            assert_true(r.rows[j].shared.est_time_s == met.est_time_s);
            assert_true(r.rows[j].slowdown == 1.0);
            assert_int_equal(r.rows[j].group, j);
            tm_metrics_release(&met);
            tm_mapping_release(&m);
            tm_comm_release(&c);
        }
        tm_workload_result_release(&r);
    }
    tm_workload_release(&w);
    tm_route_free(route);
    tm_net_free(net);
}

/* The jobs' union as one matrix on the union of their hosts, evaluated
 * once: its max congestion is the fabric's, and (one group of jobs, exact)
 * its est_time_s is the latest job's shared est_time_s. */
static void test_union(void **state)
{
    static const char *const routes[] = {"ecmp", "single", "ftree"};
    tm_net *net = tm_test_gen_net("fattree:k=4,n=3", 4);
    (void)state;
    for (int ri = 0; ri < 3; ri++) {
        tm_route *route;
        tm_workload w;
        tm_workload_result r;
        tm_workload_eval_opts o = TM_WORKLOAD_EVAL_OPTS_INIT;
        int32_t *src = NULL, *dst = NULL, off = 0, n = 0;
        double *vol = NULL, latest = 0;
        int64_t m = 0, cap = 0;
        tm_comm u;
        tm_mapping um;
        tm_metrics met;
        assert_tm_ok(ctx, tm_route_new(ctx, net, (tm_route_kind)tm_route_kind_parse(routes[ri]),
                                       &route));
        /* three jobs scattered over the pods: they share uplinks */
        assert_tm_ok(ctx, read_text(net, "JobID|NodeList|NTasksPerNode|Comm\n"
                                         "J1|n[0000,0005,0010,0015]|2|stencil3d:64KiB\n"
                                         "J2|n[0001,0006,0011,0012]|2|ring:1MiB\n"
                                         "J3|n[0002,0007,0008,0013]|3|alltoall:256KiB\n", &w));
        assert_tm_ok(ctx, tm_workload_eval(ctx, route, &w, &o, &r));
        for (int32_t j = 0; j < w.n_jobs; j++)
            n += w.job[j].n_tasks;
        tm_mapping_init(&um);
        assert_tm_ok(ctx, tm_mapping_alloc(ctx, &um, n, false));
        for (int32_t j = 0; j < w.n_jobs; j++) {
            tm_comm c;
            tm_mapping jm;
            assert_tm_ok(ctx, tm_workload_job_comm(ctx, &w, j, &c));
            assert_tm_ok(ctx, tm_job_mapping(ctx, w.job[j].n_hosts, w.job[j].host, w.job[j].tasks,
                                             &jm));
            for (int32_t t = 0; t < c.n; t++) {
                um.host[off + t] = jm.host[t];
                um.slot[off + t] = jm.slot[t];
                for (int64_t e = c.xadj[t]; e < c.xadj[t + 1]; e++) {
                    if (m >= cap) {
                        cap = cap ? 2 * cap : 1024;
                        src = realloc(src, (size_t)cap * sizeof *src);
                        dst = realloc(dst, (size_t)cap * sizeof *dst);
                        vol = realloc(vol, (size_t)cap * sizeof *vol);
                    }
                    src[m] = off + t, dst[m] = off + c.adj[e], vol[m++] = c.w[e];
                }
            }
            off += c.n;
            tm_mapping_release(&jm);
            tm_comm_release(&c);
            latest = fmax(latest, r.rows[j].shared.est_time_s);
            assert_int_equal(r.rows[j].group, 0);
        }
        assert_tm_ok(ctx, tm_comm_from_entries(ctx, n, m, src, dst, vol, &u));
        assert_tm_ok(ctx, tm_metrics_eval(ctx, route, &u, &um, NULL, &met));
        assert_true(near(r.max_congestion, met.max_congestion, 1e-12));
        assert_false(met.time_approximate);
        assert_true(near(latest, met.est_time_s, 1e-9));
        /* the jobs do slow each other down */
        assert_true(r.links_shared > 0);
        tm_metrics_release(&met);
        tm_comm_release(&u);
        tm_mapping_release(&um);
        free(src);
        free(dst);
        free(vol);
        tm_workload_result_release(&r);
        tm_workload_release(&w);
        tm_route_free(route);
    }
    tm_net_free(net);
}

/* Jobs on the same hosts (Slurm's shared nodes), under the approximation:
 * their host links carry both, one simulation; and prepared jobs give the
 * same figures call after call. */
static void test_shared_hosts_and_preps(void **state)
{
    tm_net *net = two_switch_net();
    tm_route *route;
    tm_workload w;
    tm_workload_result r;
    tm_workload_eval_opts o = TM_WORKLOAD_EVAL_OPTS_INIT;
    tm_time_opts t = TM_TIME_OPTS_INIT;
    (void)state;
    t.model = TM_TIME_FLUID;
    t.latency_per_hop_s = 0;
    t.exact_max_flows = 0;
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &route));
    assert_tm_ok(ctx, read_text(net, "JobID|NodeList|NTasksPerNode|Comm\n"
                                     "A|a1,a2|1|ring:1.25e9\nB|a1,a2|1|ring:1.25e9\n", &w));
    o.time = &t;
    assert_tm_ok(ctx, tm_workload_eval(ctx, route, &w, &o, &r));
    for (int i = 0; i < 2; i++) {
        assert_true(r.rows[i].shared.time_approximate);
        assert_true(near(r.rows[i].slowdown, 2.0, 1e-9));
        assert_true(near(r.rows[i].shared.max_congestion, 2.5e8, 1e-12));
    }
    tm_workload_result_release(&r);
    /* preps: twice the same */
    {
        tm_comm c[2];
        tm_mapping m[2];
        tm_time_job tj[2];
        tm_time_shared a[2], b[2];
        double *load[2];
        const tm_net_csr *g = tm_net_csr_get(net);
        int32_t *ll[2];
        double *lb[2];
        t.exact_max_flows = TM_TIME_EXACT_MAX_FLOWS_DEFAULT;
        for (int j = 0; j < 2; j++) {
            int32_t k = 0;
            assert_tm_ok(ctx, tm_workload_job_comm(ctx, &w, j, &c[j]));
            assert_tm_ok(ctx, tm_job_mapping(ctx, 2, w.job[j].host, w.job[j].tasks, &m[j]));
            load[j] = calloc((size_t)g->n_links, sizeof *load[j]);
            ll[j] = calloc((size_t)g->n_links, sizeof *ll[j]);
            lb[j] = calloc((size_t)g->n_links, sizeof *lb[j]);
            assert_tm_ok(ctx, tm_metrics_link_loads(ctx, route, &c[j], &m[j], load[j], NULL));
            for (int32_t l = 0; l < g->n_links; l++)
                if (load[j][l] > 0)
                    ll[j][k] = l, lb[j][k++] = load[j][l];
            tj[j] = (tm_time_job){&c[j], &m[j], ll[j], lb[j], k, 3, NULL};
            assert_tm_ok(ctx, tm_time_prep_new(ctx, &c[j], &m[j], &t, &tj[j].prep));
        }
        assert_tm_ok(ctx, tm_time_eval_shared(ctx, route, tj, 2, &t, NULL, a));
        assert_tm_ok(ctx, tm_time_eval_shared(ctx, route, tj, 2, &t, NULL, b));
        assert_true(a[0].est_time_s == b[0].est_time_s && a[1].est_time_s == b[1].est_time_s);
        assert_true(near(a[0].est_time_s, 2.0, 1e-9));
        /* a prep made with other options is refused */
        {
            tm_time_opts t2 = TM_TIME_OPTS_INIT;
            assert_tm_error(ctx, tm_time_eval_shared(ctx, route, tj, 2, &t2, NULL, a), TM_EUSAGE,
                            "other time options");
        }
        for (int j = 0; j < 2; j++) {
            tm_time_prep_free(tj[j].prep);
            free(load[j]);
            free(ll[j]);
            free(lb[j]);
            tm_mapping_release(&m[j]);
            tm_comm_release(&c[j]);
        }
    }
    tm_workload_release(&w);
    tm_route_free(route);
    tm_net_free(net);
}

/* Hand-computed replay on the two-switch net (fluid model, no latency):
 * A [0,100) and B [50,150) each alone take 1 s and 2 s together on the
 * cable, so each is slowed 2x half of its run: 1.5x on average; C is a
 * job of no length at 60 s on A's hosts: three jobs on the cable, 3x. */
static void test_replay_hand(void **state)
{
    tm_net *net = two_switch_net();
    tm_route *route;
    tm_workload w;
    tm_replay_result r;
    tm_replay_opts o = TM_REPLAY_OPTS_INIT;
    tm_time_opts t = TM_TIME_OPTS_INIT;
    (void)state;
    t.model = TM_TIME_FLUID;
    t.latency_per_hop_s = 0;
    o.time = &t;
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &route));
    assert_tm_ok(ctx, read_text(net, "JobID|NodeList|NTasksPerNode|Comm|Start|End\n"
                                     "A|a1,a2|1|ring:1.25e9|2024-01-01T00:00:00|2024-01-01T00:01:40\n"
                                     "B|b1,b2|1|ring:1.25e9|2024-01-01T00:00:50|2024-01-01T00:02:30\n"
                                     "C|a1,a2|1|ring:1.25e9|2024-01-01T00:01:00|2024-01-01T00:01:00\n",
                                &w));
    assert_tm_ok(ctx, tm_replay(ctx, route, &w, TM_REPLAY_RECORDED, &o, &r));
    assert_int_equal(r.n_rows, 3);
    assert_true(r.rows[0].placed && r.rows[1].placed && r.rows[2].placed);
    assert_true(near(r.rows[0].r.slowdown, 1.5, 1e-9));
    assert_true(near(r.rows[0].r.shared.est_time_s, 1.5, 1e-9));
    assert_true(near(r.rows[0].worst_slowdown, 2.0, 1e-9));
    assert_true(near(r.rows[1].r.slowdown, 1.5, 1e-9));
    assert_true(near(r.rows[0].r.shared.max_congestion, (1.25e8 + 2.5e8) / 2, 1e-9));
    assert_true(near(r.rows[2].r.slowdown, 3.0, 1e-9));
    assert_int_equal(r.rows[2].intervals, 1);
    assert_int_equal(r.rows[0].r.n_neighbours, 1); /* B (C has no length: only its own row sees A) */
    assert_int_equal(r.rows[2].r.n_neighbours, 2);
    /* the fabric over time: alone, together (C's start at 60 s splits it),
     * alone */
    assert_int_equal(r.n_intervals, 4);
    assert_true(r.intervals[2].t0 == 60 && r.intervals[2].t1 == 100);
    assert_true(near(r.intervals[2].max_congestion, 2.5e8, 1e-12));
    assert_true(near(r.intervals[3].max_congestion, 1.25e8, 1e-12));
    assert_true(r.intervals[0].t0 == 0 && r.intervals[0].t1 == 50);
    assert_true(near(r.intervals[0].max_congestion, 1.25e8, 1e-12));
    assert_true(near(r.intervals[1].max_congestion, 2.5e8, 1e-12));
    assert_int_equal(r.intervals[1].running, 2);
    assert_int_equal(r.intervals[1].busy_nodes, 4);
    assert_true(r.end - r.start == 150);
    tm_replay_result_release(&r);
    /* a shard: B's row alone is the same */
    {
        int32_t one = 1;
        o.rows = &one;
        o.n_rows = 1;
        assert_tm_ok(ctx, tm_replay(ctx, route, &w, TM_REPLAY_RECORDED, &o, &r));
        assert_int_equal(r.n_rows, 1);
        assert_int_equal(r.rows[0].r.job, 1);
        assert_true(near(r.rows[0].r.slowdown, 1.5, 1e-9));
        /* and the fabric over time is every shard's */
        assert_int_equal(r.n_intervals, 4);
        assert_true(near(r.intervals[1].max_congestion, 2.5e8, 1e-12));
        assert_true(near(r.intervals[2].max_congestion, 2.5e8, 1e-12));
        assert_int_equal(r.intervals[1].busy_nodes, 4);
        tm_replay_result_release(&r);
        assert_tm_error(ctx, tm_replay(ctx, route, &w, TM_REPLAY_TOPOMAP, &o, &r), TM_EUSAGE,
                        "only as-recorded");
        o.rows = NULL;
        o.n_rows = 0;
    }
    /* topomap keeps each two-node ring on one switch: nobody crosses the cable */
    assert_tm_ok(ctx, tm_replay(ctx, route, &w, TM_REPLAY_TOPOMAP, &o, &r));
    for (int i = 0; i < 2; i++) {
        assert_true(r.rows[i].placed);
        assert_true(r.rows[i].r.slowdown == 1.0);
        assert_true(r.rows[i].r.alone.avg_dilation == 2.0);
    }
    /* C finds no two free nodes at 60 s (A and B hold all four) */
    assert_false(r.rows[2].placed);
    assert_int_equal(r.not_placed, 1);
    tm_replay_result_release(&r);
    /* slurm-tree and random place both too; a partition of two nodes
     * leaves B without room */
    assert_tm_ok(ctx, tm_replay(ctx, route, &w, TM_REPLAY_SLURM_TREE, &o, &r));
    assert_true(r.rows[0].placed && r.rows[1].placed);
    tm_replay_result_release(&r);
    assert_tm_ok(ctx, tm_replay(ctx, route, &w, TM_REPLAY_RANDOM, &o, &r));
    assert_true(r.rows[0].placed && r.rows[1].placed);
    tm_replay_result_release(&r);
    {
        int32_t part[2] = {tm_net_find(net, "a1"), tm_net_find(net, "a2")};
        o.partition = part;
        o.n_partition = 2;
        assert_tm_ok(ctx, tm_replay(ctx, route, &w, TM_REPLAY_SLURM_TREE, &o, &r));
        assert_true(r.rows[0].placed);
        assert_false(r.rows[1].placed);
        tm_replay_result_release(&r);
    }
    tm_workload_release(&w);
    /* a trace without times */
    assert_tm_ok(ctx, read_text(net, "JobID|NodeList\nA|a1\n", &w));
    assert_tm_error(ctx, tm_replay(ctx, route, &w, TM_REPLAY_RECORDED, NULL, &r), TM_EUSAGE,
                    "no Start and End");
    tm_workload_release(&w);
    tm_route_free(route);
    tm_net_free(net);
}

static void test_shared_time_api(void **state)
{
    tm_net *net = two_switch_net();
    tm_route *route;
    tm_time_shared out[2];
    (void)state;
    assert_tm_ok(ctx, tm_route_new(ctx, net, TM_ROUTE_ECMP, &route));
    /* no jobs: nothing to do */
    assert_tm_ok(ctx, tm_time_eval_shared(ctx, route, NULL, 0, NULL, NULL, out));
    {
        tm_comm_phases ph;
        tm_time_opts t = TM_TIME_OPTS_INIT;
        tm_comm_phases_init(&ph);
        t.phases = &ph;
        assert_tm_error(ctx, tm_time_eval_shared(ctx, route, NULL, 0, &t, NULL, out), TM_EUSAGE,
                        "phases");
    }
    tm_route_free(route);
    /* ugal is refused by the loads */
    tm_net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_iso_time),
        cmocka_unit_test(test_patterns),
        cmocka_unit_test(test_read_own_format),
        cmocka_unit_test(test_read_sacct),
        cmocka_unit_test(test_read_errors),
        cmocka_unit_test(test_job_mapping),
        cmocka_unit_test(test_shared_cable),
        cmocka_unit_test(test_alone_is_eval),
        cmocka_unit_test(test_union),
        cmocka_unit_test(test_shared_hosts_and_preps),
        cmocka_unit_test(test_replay_hand),
        cmocka_unit_test(test_shared_time_api),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
