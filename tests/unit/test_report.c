/* test_report.c - the HTML report writer (tm_report_write_html): the page
 * of a hand-made load on a small torus (colours, job hosts, escaping of
 * every input text), the picture limits on a fat-tree, usage errors that
 * leave no file, and byte-identical pages from run to run. */
#include <unistd.h>

#include "test_fixtures.h"
#include "report/report_int.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    buf = malloc((size_t)n + 1);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static int count(const char *hay, const char *needle)
{
    int k = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        k++;
    return k;
}

/* A two-task mapping on hosts a and b. */
static void two_tasks(tm_mapping *m, int32_t a, int32_t b)
{
    tm_mapping_init(m);
    assert_tm_ok(ctx, tm_mapping_alloc(ctx, m, 2, false));
    m->host[0] = a, m->host[1] = b;
    m->slot[0] = m->slot[1] = 0;
}

static void test_colour_scale(void **state)
{
    char c[8];
    (void)state;
    tm__load_colour(0, c);
    assert_string_equal(c, "#ffd976");
    tm__load_colour(1, c);
    assert_string_equal(c, "#bd0026");
    tm__load_colour(7, c); /* clamped */
    assert_string_equal(c, "#bd0026");
}

static void test_torus_page(void **state)
{
    tm_net *net = tm_test_gen_net("torus:3x3", 0);
    const tm_net_csr *g = tm_net_csr_get(net);
    double *load = calloc((size_t)g->n_links, sizeof *load);
    tm_report_row row = {"<b>greedy</b> & co", 2, 1.5, 30, 4, 2, 60, 0.25, 0.5, 1, 1.5, 0};
    tm_report r = {0};
    tm_mapping m;
    char *page;
    (void)state;
    two_tasks(&m, 0, 1);
    load[0] = 2 * g->cap[0];      /* the most congested link: 2 */
    load[3] = 0.5 * g->cap[3];    /* a quarter of it */
    r.title = "t<i>\"'";
    r.net = net, r.mapping = &m, r.mapping_label = "m&m", r.link_load = load;
    r.rows = &row, r.n_rows = 1;
    assert_tm_ok(ctx, tm_report_write_html(ctx, &r, "report-torus.html"));
    page = slurp("report-torus.html");
    assert_non_null(strstr(page, "<title>t&lt;i&gt;&quot;&#39;</title>"));
    assert_non_null(strstr(page, "&lt;b&gt;greedy&lt;/b&gt; &amp; co"));
    assert_non_null(strstr(page, "of m&amp;m;"));
    assert_null(strstr(page, "<b>"));
    assert_non_null(strstr(page, "grid coordinates of the 2-D torus"));
    assert_non_null(strstr(page, "Drawn: 9 of 9 vertices, 18 of 18 cables"));
    assert_int_equal(count(page, "stroke=\"#bd0026\""), 1);   /* only the maximum is dark red */
    assert_int_equal(count(page, "</title></line>"), 2);      /* two loaded cables */
    assert_int_equal(count(page, "class=\"hj\""), 2);
    assert_int_equal(count(page, "class=\"e0\""), 16);
    assert_non_null(strstr(page, "<td>-50.0%</td>"));          /* congestion 2 against 4 */
    assert_non_null(strstr(page, "<th>est. time (s)</th>"));   /* time 0.25 against 0.5 */
    assert_non_null(strstr(page, "<td>0.25</td>"));
    assert_int_equal(count(page, "<td>-50.0%</td>"), 3);     /* congestion, J and time */
    /* the lower bounds and the gaps: 2 / 1, 1.5 / 1.5, J without a bound */
    assert_non_null(strstr(page, "<th>lower bound: congestion</th>"));
    assert_non_null(strstr(page, "<td>2.000</td><td>1.000</td><td>-</td>"));
    assert_int_equal(count(page, "class=\"bound\""), 2 + 1); /* two marks and the legend */
    free(page);
    unlink("report-torus.html");
    tm_mapping_release(&m);
    free(load);
    tm_net_free(net);
}

/* Limits: all switches, then the job's two hosts (they fit), not the
 * other hosts (they do not); the most loaded cables first. */
static void test_limits(void **state)
{
    tm_net *net = tm_test_gen_net("fattree:k=4,n=3", 0);
    const tm_net_csr *g = tm_net_csr_get(net);
    double *load = calloc((size_t)g->n_links, sizeof *load);
    int32_t sw = tm_net_n_switches(net), host0 = -1, host1 = -1;
    tm_report r = {0};
    tm_mapping m;
    char want[128], *page;
    (void)state;
    for (int32_t v = 0; v < g->n; v++)
        if (g->is_host[v])
            host0 < 0 ? (host0 = v) : host1 < 0 ? (host1 = v) : 0;
    two_tasks(&m, host0, host1);
    for (int32_t l = 0; l < g->n_links; l++)
        load[l] = l % 7 == 0 ? (double)l : 0;
    r.net = net, r.mapping = &m, r.link_load = load;
    r.max_vertices = sw + 3, r.max_cables = 5;
    assert_tm_ok(ctx, tm_report_write_html(ctx, &r, "report-limits.html"));
    page = slurp("report-limits.html");
    snprintf(want, sizeof want, "Drawn: %d of %d vertices, 5 of %d cables", sw + 2, g->n,
             tm_net_n_cables(net));
    assert_non_null(strstr(page, want));
    assert_non_null(strstr(page, "Hosts of the job (blue): 2, 2 drawn"));
    assert_non_null(strstr(page, "igraph_layout_sugiyama"));
    assert_int_equal(count(page, "class=\"e0\""), 0);  /* 5 slots, more loaded cables than that */
    assert_int_equal(count(page, "<circle"), 2);
    free(page);
    unlink("report-limits.html");
    tm_mapping_release(&m);
    free(load);
    tm_net_free(net);
}

static void test_errors(void **state)
{
    tm_net *net;
    tm_report r = {0};
    double load[64] = {0};
    (void)state;
    assert_tm_ok(ctx, tm_net_new(ctx, &net));
    assert_tm_ok(ctx, tm_gen_build(ctx, "torus:2x2", NULL, net));
    r.net = net, r.link_load = load;
    assert_tm_error(ctx, tm_report_write_html(ctx, &r, "report-err.html"), TM_EUSAGE, "finalized");
    assert_tm_ok(ctx, tm_net_finalize(ctx, net));
    r.link_load = NULL;
    assert_tm_error(ctx, tm_report_write_html(ctx, &r, "report-err.html"), TM_EUSAGE, "link loads");
    r.link_load = load, r.n_rows = 2;
    assert_tm_error(ctx, tm_report_write_html(ctx, &r, "report-err.html"), TM_EUSAGE, "rows");
    assert_int_equal(access("report-err.html", F_OK), -1);
    r.n_rows = 0;
    assert_int_not_equal(tm_report_write_html(ctx, &r, "no-such-dir/report.html"), TM_EOK);
    assert_int_equal(access("no-such-dir", F_OK), -1);
    tm_net_free(net);
}

/* Layouts that use igraph's RNG (grouped Fruchterman-Reingold) give the
 * same page every time. */
static void test_deterministic(void **state)
{
    tm_net *net = tm_test_gen_net("dragonfly:h=2", 0);
    const tm_net_csr *g = tm_net_csr_get(net);
    double *load = calloc((size_t)g->n_links, sizeof *load);
    tm_report r = {0};
    char *a, *b;
    (void)state;
    load[5] = 1;
    r.net = net, r.link_load = load;
    assert_tm_ok(ctx, tm_report_write_html(ctx, &r, "report-a.html"));
    assert_tm_ok(ctx, tm_report_write_html(ctx, &r, "report-b.html"));
    a = slurp("report-a.html");
    b = slurp("report-b.html");
    assert_non_null(strstr(a, "one box per group"));
    assert_string_equal(a, b);
    free(a);
    free(b);
    unlink("report-a.html");
    unlink("report-b.html");
    free(load);
    tm_net_free(net);
}

int main(void)
{
    /* pages are written into a private directory, removed at the end */
    char dir[] = "/tmp/tm-test-report-XXXXXX";
    int rc;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_colour_scale),
        cmocka_unit_test(test_torus_page),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_deterministic),
    };
    if (!mkdtemp(dir) || chdir(dir) != 0)
        return 1;
    rc = cmocka_run_group_tests(tests, setup, teardown);
    if (chdir("/") == 0)
        rmdir(dir); /* fails, and leaves the evidence, if a test left a page */
    return rc;
}
