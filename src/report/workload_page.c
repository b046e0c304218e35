/* workload_page.c - the page of `workload eval --report` and `workload
 * replay --report` (tm_report_write_workload, docs/report.md
 * "Workloads"): the jobs alone and shared, the fabric coloured by load
 * and by job; for a replay, every policy's slowdowns and the fabric's
 * load over time.  Self-contained like every report page. */
#include <stdlib.h>
#include <string.h>

#include "report_int.h"
#include "topomap/io.h"
#include "topomap/workload.h"
#include "../util/util.h"

#define MAX_TABLE_ROWS 2000

static const char *job_label(const void *ud, int32_t job)
{
    const tm_report_workload *r = ud;
    return job >= 0 && job < r->n_jobs && r->jobs[job].label ? r->jobs[job].label : "?";
}

static void jobs_table(FILE *out, const tm_report_workload *r)
{
    bool policy = r->n_jobs && r->jobs[0].policy;
    fprintf(out, "<table class=\"jobs\"><tr>%s<th>job</th><th>nodes</th><th>tasks</th>"
                 "<th>max congestion alone</th><th>shared</th><th>est. time alone (s)</th>"
                 "<th>shared</th><th>slowdown</th></tr>\n", policy ? "<th>policy</th>" : "");
    for (int32_t i = 0; i < r->n_jobs && i < MAX_TABLE_ROWS; i++) {
        const tm_report_job *j = &r->jobs[i];
        fputs("<tr>", out);
        if (policy) {
            fputs("<td>", out);
            tm__html_text(out, j->policy);
            fputs("</td>", out);
        }
        fprintf(out, "<td><span style=\"color:%s\">\xe2\x96\xa0</span> ",
                r->net ? tm__job_colour(i) : "#222");
        tm__html_text(out, j->label);
        fprintf(out, "</td><td>%d</td><td>%d</td><td>%.6g</td><td>%.6g</td><td>%.6g</td>"
                     "<td>%.6g</td><td%s>%.3fx</td></tr>\n", j->n_hosts, j->n_tasks,
                j->alone_congestion, j->shared_congestion, j->alone_time_s, j->shared_time_s,
                j->slowdown > TM_SLOWED ? " class=\"slow\"" : "", j->slowdown);
    }
    fputs("</table>\n", out);
    if (r->n_jobs > MAX_TABLE_ROWS)
        fprintf(out, "<p class=\"note\">The first %d of %d rows (the JSON and CSV outputs have "
                     "them all).</p>\n", MAX_TABLE_ROWS, r->n_jobs);
}

/* The union of the jobs' hosts as a mapping, so the fabric picture
 * highlights them; host_job[v]: the first job on host v. */
static tm_err job_hosts(tm_ctx *ctx, const tm_report_workload *r, tm_mapping *m,
                        int32_t *host_job)
{
    int32_t n = 0, nv = tm_net_n_vertices(r->net);
    tm_err err;
    for (int32_t v = 0; v < nv; v++)
        host_job[v] = -1;
    for (int32_t i = 0; i < r->n_jobs; i++)
        n += r->jobs[i].hosts ? r->jobs[i].n_hosts : 0;
    err = tm_mapping_alloc(ctx, m, n, false);
    n = 0;
    for (int32_t i = 0; !err && i < r->n_jobs; i++)
        for (int32_t k = 0; r->jobs[i].hosts && k < r->jobs[i].n_hosts; k++) {
            int32_t v = r->jobs[i].hosts[k];
            m->host[n] = v;
            m->slot[n++] = 0;
            if (v >= 0 && v < nv && host_job[v] < 0)
                host_job[v] = i;
        }
    return err;
}

static tm_err fabric_part(tm_ctx *ctx, FILE *out, const tm_report_workload *r)
{
    tm_report rep;
    tm__fabric f;
    tm__jobview jv;
    tm_mapping m;
    int32_t *host_job = tm__malloc_n((size_t)tm_net_n_vertices(r->net) + 1, sizeof *host_job);
    tm_err err;
    tm_mapping_init(&m);
    memset(&f, 0, sizeof f);
    if (!host_job)
        return tm__nomem(ctx);
    err = job_hosts(ctx, r, &m, host_job);
    memset(&rep, 0, sizeof rep);
    rep.net = r->net;
    rep.mapping = &m;
    rep.mapping_label = "every job";
    rep.link_load = r->link_load;
    rep.max_vertices = r->max_vertices;
    rep.max_cables = r->max_cables;
    if (!err)
        err = tm__fabric_select(ctx, &rep, &f);
    if (!err)
        err = tm__fabric_layout(ctx, r->net, &f);
    if (!err) {
        fputs("<h2>Fabric load: every job's traffic</h2>\n<p class=\"note\">Layout: ", out);
        tm__html_text(out, f.layout);
        fprintf(out, ". Drawn: %d of %d vertices, %d of %d cables. Cable colour and width: "
                     "congestion (load / capacity, the larger direction) of all jobs together; "
                     "hosts of the jobs in blue.</p>\n", f.nv, tm_net_n_vertices(r->net), f.nc,
                tm_net_n_cables(r->net));
        tm__svg_fabric(out, &rep, &f);
        fputs("<h2>Fabric by job</h2>\n<p class=\"note\">Each loaded cable in the colour of the "
              "job with the most load on it (its busier direction), dashed black where two or "
              "more jobs load it; hosts in their job's colour (the job table gives the "
              "colours; ten colours, repeated); width: congestion.</p>\n", out);
        jv.net = r->net;
        jv.link_load = r->link_load;
        jv.link_job = r->link_job;
        jv.link_n_jobs = r->link_n_jobs;
        jv.host_job = host_job;
        jv.label = job_label;
        jv.ud = r;
        tm__svg_fabric_jobs(out, &jv, &f);
    }
    tm__fabric_release(&f);
    tm_mapping_release(&m);
    free(host_job);
    return err;
}

static tm_err policies_part(tm_ctx *ctx, FILE *out, const tm_report_workload *r)
{
    fputs("<h2>Slowdowns by policy</h2>\n<p class=\"note\">Each job's slowdown is its estimated "
          "time with the jobs running beside it over the time-weighted intervals of its run, "
          "over its time alone (docs/workload.md).</p>\n<table class=\"policies\"><tr>"
          "<th>policy</th><th>jobs</th><th>mean</th><th>median</th><th>p90</th><th>p99</th>"
          "<th>max</th><th>slowed &gt; 5%</th></tr>\n", out);
    for (int32_t p = 0; p < r->n_policies; p++) {
        tm_slowdown_stats st;
        tm_err err = tm_slowdown_stats_compute(ctx, r->slowdowns[p], r->n_slowdowns[p], &st);
        if (err)
            return err;
        fprintf(out, "<tr><td><span style=\"color:%s\">\xe2\x96\xa0</span> ", tm__job_colour(p));
        tm__html_text(out, r->policies[p]);
        fprintf(out, "</td><td>%d</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%.3f</td>"
                     "<td>%.3f</td><td>%d</td></tr>\n", st.n, st.mean, st.median, st.p90, st.p99,
                st.max, st.slowed);
    }
    fputs("</table>\n", out);
    tm__svg_slowdown_cdf(out, r);
    fputs("<h2>Fabric load over time</h2>\n<p class=\"note\">The fabric's max congestion (every "
          "running job's load / capacity) of each policy while the trace runs; the largest "
          "value within each sample is drawn, so short peaks show. Grey: busy nodes.</p>\n",
          out);
    tm__svg_timeline(out, r);
    return TM_EOK;
}

static tm_err write_page(tm_ctx *ctx, FILE *out, const void *arg)
{
    const tm_report_workload *r = arg;
    tm_err err = TM_EOK;
    tm__page_begin(out, r->title ? r->title : "topomap workload", r->subtitle);
    if (r->n_policies > 0)
        err = policies_part(ctx, out, r);
    if (!err) {
        fputs("<h2>Jobs alone and together</h2>\n", out);
        jobs_table(out, r);
    }
    if (!err && r->net)
        err = fabric_part(ctx, out, r);
    fputs("</body></html>\n", out);
    return err;
}

tm_err tm_report_write_workload(tm_ctx *ctx, const tm_report_workload *r, const char *path)
{
    if (!r || !path)
        return tm__fail(ctx, TM_EUSAGE, "report: no report or no path");
    if (r->net && (!tm_net_csr_get(r->net) || !r->link_load || !r->link_job || !r->link_n_jobs))
        return tm__fail(ctx, TM_EUSAGE, "report: the network must be finalized and the links' "
                                        "loads and jobs given");
    if ((r->n_jobs > 0 && !r->jobs) ||
        (r->n_policies > 0 && (!r->policies || !r->slowdowns || !r->n_slowdowns ||
                               !r->congestion)))
        return tm__fail(ctx, TM_EUSAGE, "report: rows or policies missing");
    return tm__page_write(ctx, path, write_page, r);
}
