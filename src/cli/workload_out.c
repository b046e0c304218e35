/* workload_out.c - the rows of workload eval and replay: a table on
 * stdout, JSON, CSV (keys and columns in docs/workload.md "Output").  A
 * row depends only on its job and the jobs that ran with it, so rows of
 * shards can be concatenated and sorted by `index`. */
#include <stdlib.h>
#include <string.h>

#include "workload_cli.h"

static const int32_t *row_hosts(const wl_rows *x, int32_t i)
{
    return x->rr ? x->rr[i].hosts : x->w->job[x->r->rows[i].job].host;
}

static void json_figures(json_w *j, const char *key, const tm_job_figures *f)
{
    json_obj_begin(j, key);
    json_num(j, "max_congestion", f->max_congestion);
    json_num(j, "avg_dilation", f->avg_dilation);
    json_num(j, "qap_J", f->qap_J);
    json_num(j, "est_time_s", f->est_time_s);
    json_bool(j, "time_approximate", f->time_approximate);
    json_obj_end(j);
}

void wl_json_row(json_w *j, const wl_rows *x, int32_t i)
{
    const tm_job_result *r = &x->r->rows[i];
    const tm_job *job = &x->w->job[r->job];
    const int32_t *hosts = row_hosts(x, i);
    char buf[4096], *nodes = hosts ? wl_hostlist(x->net, hosts, job->n_hosts) : NULL;
    json_obj_begin(j, NULL);
    if (x->policy)
        json_str(j, "policy", x->policy);
    json_str(j, "job", job->id);
    json_int(j, "index", r->job);
    json_int(j, "line", job->line);
    json_str(j, "nodes", nodes ? nodes : "");
    json_int(j, "n_nodes", job->n_hosts);
    json_int(j, "n_tasks", job->n_tasks);
    wl_comm_label(x->w, job, buf, sizeof buf);
    json_str(j, "comm", buf);
    if (x->w->has_times) {
        wl_time_str(job->start, buf, sizeof buf);
        json_str(j, "start", buf);
        wl_time_str(job->end, buf, sizeof buf);
        json_str(j, "end", buf);
    }
    if (x->rr) {
        json_bool(j, "placed", x->rr[i].placed);
        if (!x->rr[i].placed) {
            json_obj_end(j);
            free(nodes);
            return;
        }
    }
    json_figures(j, "alone", &r->alone);
    json_figures(j, "shared", &r->shared);
    json_num(j, "slowdown", r->slowdown);
    if (x->rr) {
        json_num(j, "worst_slowdown", x->rr[i].worst_slowdown);
        json_num(j, "worst_max_congestion", x->rr[i].worst_max_congestion);
        json_int(j, "intervals", x->rr[i].intervals);
    }
    if (r->group >= 0)
        json_str(j, "group", x->w->job[r->group].id);
    json_int(j, "links_used", r->links_used);
    json_int(j, "links_shared", r->links_shared);
    json_arr_begin(j, "shares_with");
    for (int32_t k = 0; k < r->n_neighbours; k++)
        json_str(j, NULL, x->w->job[r->neighbours[k]].id);
    json_arr_end(j);
    json_obj_end(j);
    free(nodes);
}

static void link_ends(const tm_net *net, int32_t link, const char **a, const char **b)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    *a = tm_net_name(net, g->tail_of[link]);
    *b = tm_net_name(net, g->head_of[link]);
}

void wl_json_fabric(json_w *j, const wl_rows *x)
{
    const tm_workload_result *r = x->r;
    const char *a, *b;
    json_obj_begin(j, "fabric");
    json_num(j, "max_congestion", r->max_congestion);
    if (r->max_link >= 0) {
        link_ends(x->net, r->max_link, &a, &b);
        json_arr_begin(j, "max_congestion_link");
        json_str(j, NULL, a);
        json_str(j, NULL, b);
        json_arr_end(j);
    }
    json_int(j, "links_used", r->links_used);
    json_int(j, "links_shared", r->links_shared);
    json_arr_begin(j, "shared_links");
    for (int32_t i = 0; i < r->n_shared; i++) {
        const tm_link_share *s = &r->shared[i];
        double tot = 0;
        for (int32_t k = 0; k < s->n_jobs; k++)
            tot += s->load[k];
        link_ends(x->net, s->link, &a, &b);
        json_obj_begin(j, NULL);
        json_str(j, "from", a);
        json_str(j, "to", b);
        json_num(j, "congestion", s->congestion);
        json_arr_begin(j, "jobs");
        for (int32_t k = 0; k < s->n_jobs; k++) {
            json_obj_begin(j, NULL);
            json_str(j, "job", x->w->job[s->jobs[k]].id);
            json_num(j, "load", s->load[k]);
            json_num(j, "share", tot > 0 ? s->load[k] / tot : 0);
            json_obj_end(j);
        }
        json_arr_end(j);
        json_obj_end(j);
    }
    json_arr_end(j);
    json_obj_end(j);
}

void wl_json_stats(json_w *j, const char *key, const tm_slowdown_stats *s)
{
    json_obj_begin(j, key);
    json_int(j, "jobs", s->n);
    json_num(j, "mean", s->mean);
    json_num(j, "min", s->min);
    json_num(j, "median", s->median);
    json_num(j, "p90", s->p90);
    json_num(j, "p99", s->p99);
    json_num(j, "max", s->max);
    json_int(j, "slowed", s->slowed);
    json_obj_end(j);
}

/* A CSV field, quoted when it holds a comma, a quote or a line break. */
static void csv_str(FILE *out, const char *s, bool last)
{
    if (strpbrk(s, ",\"\n\r")) {
        fputc('"', out);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', out);
            fputc(*s, out);
        }
        fputc('"', out);
    } else {
        fputs(s, out);
    }
    fputc(last ? '\n' : ',', out);
}

void wl_csv_header(FILE *out, bool replay)
{
    fprintf(out, "%sjob,index,line,nodes,n_nodes,n_tasks,comm,start,end,"
                 "alone_max_congestion,alone_avg_dilation,alone_qap_J,alone_est_time_s,"
                 "shared_max_congestion,shared_est_time_s,slowdown,time_approximate,group,"
                 "links_used,links_shared,shares_with%s\n", replay ? "policy," : "",
            replay ? ",placed,worst_slowdown,worst_max_congestion,intervals" : "");
}

void wl_csv_row(FILE *out, const wl_rows *x, int32_t i)
{
    const tm_job_result *r = &x->r->rows[i];
    const tm_job *job = &x->w->job[r->job];
    const int32_t *hosts = row_hosts(x, i);
    char buf[4096], *nodes = hosts ? wl_hostlist(x->net, hosts, job->n_hosts) : NULL;
    bool placed = !x->rr || x->rr[i].placed;
    size_t len = 0;
    if (x->policy)
        csv_str(out, x->policy, false);
    csv_str(out, job->id, false);
    fprintf(out, "%d,%lld,", r->job, (long long)job->line);
    csv_str(out, nodes ? nodes : "", false);
    fprintf(out, "%d,%d,", job->n_hosts, job->n_tasks);
    wl_comm_label(x->w, job, buf, sizeof buf);
    csv_str(out, buf, false);
    wl_time_str(job->start, buf, sizeof buf);
    fprintf(out, "%s,", x->w->has_times ? buf : "");
    wl_time_str(job->end, buf, sizeof buf);
    fprintf(out, "%s,", x->w->has_times ? buf : "");
    if (placed)
        fprintf(out, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%s,", r->alone.max_congestion,
                r->alone.avg_dilation, r->alone.qap_J, r->alone.est_time_s,
                r->shared.max_congestion, r->shared.est_time_s, r->slowdown,
                r->shared.time_approximate || r->alone.time_approximate ? "true" : "false");
    else
        fputs(",,,,,,,,", out);
    csv_str(out, r->group >= 0 ? x->w->job[r->group].id : "", false);
    fprintf(out, "%d,%d,", r->links_used, r->links_shared);
    buf[0] = '\0';
    for (int32_t k = 0; k < r->n_neighbours && len + 2 < sizeof buf; k++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", k ? " " : "",
                                x->w->job[r->neighbours[k]].id);
    csv_str(out, buf, !x->rr);
    if (x->rr && placed)
        fprintf(out, "true,%.17g,%.17g,%d\n", x->rr[i].worst_slowdown,
                x->rr[i].worst_max_congestion, x->rr[i].intervals);
    else if (x->rr)
        fputs("false,,,\n", out);
    free(nodes);
}

void wl_print_rows(FILE *out, const wl_rows *x)
{
    fprintf(out, "%-12s %5s %6s  %-16s %12s %9s %13s %12s %13s %9s  %s\n", "job", "nodes",
            "tasks", "comm", "cong alone", "dil alone", "time alone", "cong shared",
            "time shared", "slowdown", "shares links with");
    for (int32_t i = 0; i < x->r->n_rows; i++) {
        const tm_job_result *r = &x->r->rows[i];
        const tm_job *job = &x->w->job[r->job];
        char comm[4096], with[200];
        const char *base;
        size_t len = 0;
        wl_comm_label(x->w, job, comm, sizeof comm);
        base = job->matrix >= 0 && strrchr(comm, '/') ? strrchr(comm, '/') + 1 : comm;
        with[0] = '\0';
        for (int32_t k = 0; k < r->n_neighbours && len + 8 < sizeof with; k++)
            len += (size_t)snprintf(with + len, sizeof with - len, "%s%s", k ? "," : "",
                                    x->w->job[r->neighbours[k]].id);
        if (!r->n_neighbours)
            snprintf(with, sizeof with, "-");
        fprintf(out, "%-12s %5d %6d  %-16.16s %12.6g %9.4f %13.6g %12.6g %13.6g %8.3fx  %s%s\n",
                job->id, job->n_hosts, job->n_tasks, base, r->alone.max_congestion,
                r->alone.avg_dilation, r->alone.est_time_s, r->shared.max_congestion,
                r->shared.est_time_s, r->slowdown, with,
                r->shared.time_approximate ? " (time approximate)" : "");
    }
}

void wl_print_shared(FILE *out, const wl_rows *x)
{
    const tm_workload_result *r = x->r;
    const char *a, *b;
    fprintf(out, "fabric       max congestion %.6g", r->max_congestion);
    if (r->max_link >= 0) {
        link_ends(x->net, r->max_link, &a, &b);
        fprintf(out, " (%s -> %s)", a, b);
    }
    fprintf(out, "; %d directed links used, %d of them by two or more jobs\n", r->links_used,
            r->links_shared);
    if (!r->n_shared)
        return;
    fprintf(out, "links shared by jobs, most congested first%s:\n",
            r->n_shared < r->links_shared ? " (the first ones)" : "");
    for (int32_t i = 0, shown = 0; i < r->n_shared && shown < 10; shown++) {
        const tm_link_share *s = &r->shared[i];
        const char *a2, *b2;
        double tot = 0;
        int32_t same = 1;
        link_ends(x->net, s->link, &a, &b);
        /* parallel cables with the same load: one line */
        while (i + same < r->n_shared && r->shared[i + same].congestion == s->congestion &&
               (link_ends(x->net, r->shared[i + same].link, &a2, &b2), 1) &&
               strcmp(a, a2) == 0 && strcmp(b, b2) == 0)
            same++;
        for (int32_t k = 0; k < s->n_jobs; k++)
            tot += s->load[k];
        fprintf(out, "  %s -> %s", a, b);
        if (same > 1)
            fprintf(out, " (x%d parallel cables)", same);
        fprintf(out, "  congestion %.6g:", s->congestion);
        for (int32_t k = 0; k < s->n_jobs && k < 6; k++) {
            double pct = 100.0 * s->load[k] / tot;
            fprintf(out, pct < 1 ? " %s <1%%" : " %s %.0f%%", x->w->job[s->jobs[k]].id, pct);
        }
        fprintf(out, "%s\n", s->n_jobs > 6 ? " ..." : "");
        i += same;
        if (shown == 9 && i < r->links_shared)
            fprintf(out, "  ... %d more links (--json lists %d)\n", r->links_shared - i,
                    r->n_shared);
    }
}
