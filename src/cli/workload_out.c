/* workload_out.c - the results of workload eval and replay (and of their
 * merge) as a table on stdout, JSON or CSV (keys and columns in
 * docs/workload.md "Output"), printed from a tm_workload_doc: whatever made the
 * doc, the same doc prints the same bytes.  A row depends only on its job
 * and the jobs that ran with it, so the rows of shards joined by position
 * make the unsharded doc. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workload_cli.h"

/* ---- JSON ------------------------------------------------------------------- */

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

static void json_row(json_w *j, const tm_workload_row *x)
{
    json_obj_begin(j, NULL);
    if (x->policy)
        json_str(j, "policy", x->policy);
    json_str(j, "job", x->job);
    json_int(j, "index", x->index);
    json_int(j, "line", x->line);
    json_str(j, "nodes", x->nodes);
    json_int(j, "n_nodes", x->n_nodes);
    json_int(j, "n_tasks", x->n_tasks);
    json_str(j, "comm", x->comm);
    if (x->start) {
        json_str(j, "start", x->start);
        json_str(j, "end", x->end);
    }
    if (x->policy) {
        json_bool(j, "placed", x->placed);
        if (!x->placed) {
            json_obj_end(j);
            return;
        }
    }
    json_figures(j, "alone", &x->alone);
    json_figures(j, "shared", &x->shared);
    json_num(j, "slowdown", x->slowdown);
    if (x->policy) {
        json_num(j, "worst_slowdown", x->worst_slowdown);
        json_num(j, "worst_max_congestion", x->worst_max_congestion);
        json_int(j, "intervals", x->intervals);
    }
    if (x->group)
        json_str(j, "group", x->group);
    json_int(j, "links_used", x->links_used);
    json_int(j, "links_shared", x->links_shared);
    json_arr_begin(j, "shares_with");
    for (int32_t k = 0; k < x->n_shares; k++)
        json_str(j, NULL, x->shares_with[k]);
    json_arr_end(j);
    json_obj_end(j);
}

static void json_fabric(json_w *j, const tm_workload_fabric *f)
{
    json_obj_begin(j, "fabric");
    json_num(j, "max_congestion", f->max_congestion);
    if (f->max_from) {
        json_arr_begin(j, "max_congestion_link");
        json_str(j, NULL, f->max_from);
        json_str(j, NULL, f->max_to);
        json_arr_end(j);
    }
    json_int(j, "links_used", f->links_used);
    json_int(j, "links_shared", f->links_shared);
    json_arr_begin(j, "shared_links");
    for (int32_t i = 0; i < f->n_shared; i++) {
        const tm_workload_share *s = &f->shared[i];
        json_obj_begin(j, NULL);
        json_str(j, "from", s->from);
        json_str(j, "to", s->to);
        json_num(j, "congestion", s->congestion);
        json_arr_begin(j, "jobs");
        for (int32_t k = 0; k < s->n_jobs; k++) {
            json_obj_begin(j, NULL);
            json_str(j, "job", s->jobs[k].job);
            json_num(j, "load", s->jobs[k].load);
            json_num(j, "share", s->jobs[k].share);
            json_obj_end(j);
        }
        json_arr_end(j);
        json_obj_end(j);
    }
    json_arr_end(j);
    json_obj_end(j);
}

static void json_stats(json_w *j, const char *key, const tm_slowdown_stats *s)
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

static void json_rows(json_w *j, const tm_workload_doc *d)
{
    json_arr_begin(j, "jobs");
    for (int32_t i = 0; i < d->n_rows; i++)
        json_row(j, &d->rows[i]);
    json_arr_end(j);
}

static void json_eval(json_w *j, const tm_workload_doc *d)
{
    json_str(j, "topology", d->topology);
    json_str(j, "jobs_file", d->input);
    json_str(j, "routing", d->routing);
    json_str(j, "at", d->at); /* null without --at */
    json_int(j, "n_jobs", d->n_jobs);
    json_int(j, "n_running", d->n_running);
    json_int(j, "skipped_steps", d->skipped_steps);
    json_int(j, "skipped_not_started", d->skipped_not_started);
    json_rows(j, d);
    json_fabric(j, &d->fabric);
    if (d->summarized)
        json_stats(j, "slowdown", &d->slowdown);
}

static void json_replay(json_w *j, const tm_workload_doc *d)
{
    json_str(j, "topology", d->topology);
    json_str(j, "trace", d->input);
    json_str(j, "routing", d->routing);
    json_int(j, "n_jobs", d->n_jobs);
    json_str(j, "start", d->start);
    json_str(j, "end", d->end);
    json_num(j, "duration_s", d->duration_s);
    json_arr_begin(j, "policies");
    for (int32_t p = 0; p < d->n_policies; p++)
        json_str(j, NULL, d->policies[p]);
    json_arr_end(j);
    if (d->summarized) {
        json_arr_begin(j, "summary");
        for (int32_t p = 0; p < d->n_policies; p++) {
            const tm_workload_summary *s = &d->summary[p];
            json_obj_begin(j, NULL);
            json_str(j, "policy", s->policy);
            json_int(j, "jobs", s->jobs);
            json_int(j, "not_placed", s->not_placed);
            json_stats(j, "slowdown", &s->slowdown);
            json_num(j, "max_congestion_peak", s->peak);
            json_num(j, "max_congestion_mean", s->mean);
            json_obj_end(j);
        }
        json_arr_end(j);
    }
    json_rows(j, d);
    json_arr_begin(j, "timeline");
    for (int32_t i = 0; i < d->n_intervals; i++) {
        const tm_workload_interval *iv = &d->timeline[i];
        json_obj_begin(j, NULL);
        json_str(j, "policy", iv->policy);
        json_num(j, "t0", iv->t0);
        json_num(j, "t1", iv->t1);
        json_int(j, "running", iv->running);
        json_int(j, "busy_nodes", iv->busy_nodes);
        json_num(j, "max_congestion", iv->max_congestion);
        json_obj_end(j);
    }
    json_arr_end(j);
}

void wl_write_json(FILE *out, const tm_workload_doc *d, const wl_shard_out *sh, double time_s)
{
    json_w j;
    json_begin(&j, out);
    json_obj_begin(&j, NULL);
    if (d->replay)
        json_replay(&j, d);
    else
        json_eval(&j, d);
    if (sh)
        cli_shard_json(&j, &sh->sh, sh->id, sh->total, sh->pos, d->n_rows);
    if (isfinite(time_s))
        json_num(&j, "time_s", time_s);
    json_obj_end(&j);
    json_end(&j);
}

/* ---- CSV ---------------------------------------------------------------------- */

static bool csv_special(const char *s) { return strpbrk(s, ",\"\n\r") != NULL; }

/* s inside a quoted field: its quotes doubled. */
static void csv_quoted(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
}

/* A field and its comma (none after the last), quoted when it holds a
 * comma, a quote or a line break. */
static void csv_str(FILE *out, const char *s, bool last)
{
    if (csv_special(s)) {
        fputc('"', out);
        csv_quoted(out, s);
        fputc('"', out);
    } else {
        fputs(s, out);
    }
    if (!last)
        fputc(',', out);
}

/* The ids separated by blanks, as one field (quoted as that field). */
static void csv_ids(FILE *out, const char *const *ids, int32_t n, bool last)
{
    bool quote = false;
    for (int32_t k = 0; k < n && !quote; k++)
        quote = csv_special(ids[k]);
    if (quote)
        fputc('"', out);
    for (int32_t k = 0; k < n; k++) {
        if (k)
            fputc(' ', out);
        if (quote)
            csv_quoted(out, ids[k]);
        else
            fputs(ids[k], out);
    }
    if (quote)
        fputc('"', out);
    if (!last)
        fputc(',', out);
}

static void csv_row(FILE *out, const tm_workload_row *x)
{
    if (x->policy)
        csv_str(out, x->policy, false);
    csv_str(out, x->job, false);
    fprintf(out, "%lld,%lld,", (long long)x->index, (long long)x->line);
    csv_str(out, x->nodes, false);
    fprintf(out, "%d,%d,", x->n_nodes, x->n_tasks);
    csv_str(out, x->comm, false);
    fprintf(out, "%s,%s,", x->start ? x->start : "", x->end ? x->end : "");
    if (x->placed)
        fprintf(out, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%s,", x->alone.max_congestion,
                x->alone.avg_dilation, x->alone.qap_J, x->alone.est_time_s,
                x->shared.max_congestion, x->shared.est_time_s, x->slowdown,
                x->shared.time_approximate || x->alone.time_approximate ? "true" : "false");
    else
        fputs(",,,,,,,,", out);
    csv_str(out, x->group ? x->group : "", false);
    fprintf(out, "%d,%d,", x->links_used, x->links_shared);
    csv_ids(out, x->shares_with, x->n_shares, !x->policy);
    if (x->policy && x->placed)
        fprintf(out, "true,%.17g,%.17g,%d", x->worst_slowdown, x->worst_max_congestion,
                x->intervals);
    else if (x->policy)
        fputs("false,,,", out);
}

void wl_write_csv(FILE *out, const tm_workload_doc *d, const wl_shard_out *sh)
{
    fputs(d->replay ? TM_WORKLOAD_REPLAY_CSV_HEADER : TM_WORKLOAD_EVAL_CSV_HEADER, out);
    fputs(sh ? "," TM_SHARD_CSV_COLUMNS "\n" : "\n", out);
    for (int32_t i = 0; i < d->n_rows; i++) {
        csv_row(out, &d->rows[i]);
        if (sh)
            cli_shard_csv(out, &sh->sh, sh->id, sh->pos[i], sh->total);
        fputc('\n', out);
    }
}

tm_err wl_write_outs(tm_ctx *ctx, const char *const *outs, int n_out, const tm_workload_doc *d,
                     const wl_shard_out *sh)
{
    for (int i = 0; i < n_out; i++) {
        tm_ofile of;
        tm_err err = tm_ofile_open(ctx, outs[i], &of);
        if (err)
            return err;
        if (strstr(outs[i], ".json"))
            wl_write_json(of.fp, d, sh, NAN); /* a file is the inputs' alone: no run time */
        else
            wl_write_csv(of.fp, d, sh);
        if ((err = tm_ofile_commit(ctx, &of)))
            return err;
    }
    return TM_EOK;
}

/* ---- tables -------------------------------------------------------------------- */

static void print_rows(FILE *out, const tm_workload_doc *d)
{
    fprintf(out, "%-12s %5s %6s  %-16s %12s %9s %13s %12s %13s %9s  %s\n", "job", "nodes",
            "tasks", "comm", "cong alone", "dil alone", "time alone", "cong shared",
            "time shared", "slowdown", "shares links with");
    for (int32_t i = 0; i < d->n_rows; i++) {
        const tm_workload_row *r = &d->rows[i];
        const char *base = strrchr(r->comm, '/') ? strrchr(r->comm, '/') + 1 : r->comm;
        char with[200];
        size_t len = 0;
        with[0] = '\0';
        for (int32_t k = 0; k < r->n_shares && len + 8 < sizeof with; k++)
            len += (size_t)snprintf(with + len, sizeof with - len, "%s%s", k ? "," : "",
                                    r->shares_with[k]);
        if (!r->n_shares)
            snprintf(with, sizeof with, "-");
        fprintf(out, "%-12s %5d %6d  %-16.16s %12.6g %9.4f %13.6g %12.6g %13.6g %8.3fx  %s%s\n",
                r->job, r->n_nodes, r->n_tasks, base, r->alone.max_congestion,
                r->alone.avg_dilation, r->alone.est_time_s, r->shared.max_congestion,
                r->shared.est_time_s, r->slowdown, with,
                r->shared.time_approximate ? " (time approximate)" : "");
    }
}

static void print_shared(FILE *out, const tm_workload_fabric *f)
{
    fprintf(out, "fabric       max congestion %.6g", f->max_congestion);
    if (f->max_from)
        fprintf(out, " (%s -> %s)", f->max_from, f->max_to);
    fprintf(out, "; %lld directed links used, %lld of them by two or more jobs\n",
            (long long)f->links_used, (long long)f->links_shared);
    if (!f->n_shared)
        return;
    fprintf(out, "links shared by jobs, most congested first%s:\n",
            f->n_shared < f->links_shared ? " (the first ones)" : "");
    for (int32_t i = 0, shown = 0; i < f->n_shared && shown < 10; shown++) {
        const tm_workload_share *s = &f->shared[i];
        double tot = 0;
        int32_t same = 1;
        /* parallel cables with the same load: one line */
        while (i + same < f->n_shared && f->shared[i + same].congestion == s->congestion &&
               strcmp(s->from, f->shared[i + same].from) == 0 &&
               strcmp(s->to, f->shared[i + same].to) == 0)
            same++;
        for (int32_t k = 0; k < s->n_jobs; k++)
            tot += s->jobs[k].load;
        fprintf(out, "  %s -> %s", s->from, s->to);
        if (same > 1)
            fprintf(out, " (x%d parallel cables)", same);
        fprintf(out, "  congestion %.6g:", s->congestion);
        for (int32_t k = 0; k < s->n_jobs && k < 6; k++) {
            double pct = 100.0 * s->jobs[k].load / tot;
            fprintf(out, pct < 1 ? " %s <1%%" : " %s %.0f%%", s->jobs[k].job, pct);
        }
        fprintf(out, "%s\n", s->n_jobs > 6 ? " ..." : "");
        i += same;
        if (shown == 9 && i < f->links_shared)
            fprintf(out, "  ... %lld more links (--json lists %d)\n",
                    (long long)(f->links_shared - i), f->n_shared);
    }
}

void wl_print_eval(FILE *out, const tm_workload_doc *d)
{
    const tm_slowdown_stats *st = &d->slowdown;
    print_rows(out, d);
    fputc('\n', out);
    if (d->has_head)
        print_shared(out, &d->fabric);
    if (d->summarized && st->n)
        fprintf(out, "slowdown     mean %.3fx, median %.3fx, max %.3fx; %d of %d jobs slowed by "
                     "more than %.0f%%\n", st->mean, st->median, st->max, st->slowed, st->n,
                100 * (TM_SLOWED - 1));
}

void wl_print_replay(FILE *out, const tm_workload_doc *d)
{
    int32_t per = d->n_policies ? d->n_rows / d->n_policies : 0;
    if (d->summarized) {
        fprintf(out, "%-12s %6s %6s %9s %9s %9s %9s %9s %7s %14s %14s\n", "policy", "jobs",
                "unplaced", "mean", "median", "p90", "p99", "max", "slowed", "cong peak",
                "cong mean");
        for (int32_t p = 0; p < d->n_policies; p++) {
            const tm_workload_summary *s = &d->summary[p];
            const tm_slowdown_stats *st = &s->slowdown;
            fprintf(out, "%-12s %6d %6d %8.3fx %8.3fx %8.3fx %8.3fx %8.3fx %7d %14.6g %14.6g\n",
                    s->policy, s->jobs, s->not_placed, st->mean, st->median, st->p90, st->p99,
                    st->max, st->slowed, s->peak, s->mean);
        }
        fprintf(out, "\n(slowdown: each job's est. time with the jobs running beside it over "
                     "its time alone,\n time-weighted over its run; slowed: above %.2fx; cong: "
                     "the fabric's max congestion\n over time%s)\n", TM_SLOWED,
                d->has_head ? "" : "; not in CSV shards: 0");
    }
    if (per > 40 || !per)
        return;
    fprintf(out, "\n%-12s %5s", "job", "nodes");
    for (int32_t p = 0; p < d->n_policies; p++)
        fprintf(out, " %12.12s", d->policies[p]);
    fprintf(out, "   (slowdown by policy)\n");
    for (int32_t i = 0; i < per; i++) {
        fprintf(out, "%-12s %5d", d->rows[i].job, d->rows[i].n_nodes);
        for (int32_t p = 0; p < d->n_policies; p++) {
            const tm_workload_row *r = &d->rows[(size_t)p * per + i];
            if (r->placed)
                fprintf(out, " %11.3fx", r->slowdown);
            else
                fprintf(out, " %12s", "unplaced");
        }
        fputc('\n', out);
    }
}
