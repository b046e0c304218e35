/* study_report.c - `study --report F.html`: the rows of a study on one page
 * (tm_report_write_html, docs/report.md).  Each OK row is one bar group,
 * the scenario's consecutive placement beside the strategy's mapping, in
 * grid order, so the chart reads as each figure against the swept values;
 * its label names only the axes that vary.  Rows that did not run
 * (disconnected, unroutable, infeasible) are listed in the subtitle, not
 * drawn.  No fabric picture: a study has one network per scenario. */
#include <stdlib.h>
#include <string.h>

#include "topomap/report.h"
#include "study_cli.h"

#define LABEL_MAX 200

static void add(char *buf, size_t *len, const char *fmt, const char *v)
{
    if (*len < LABEL_MAX)
        *len += (size_t)snprintf(buf + *len, LABEL_MAX - *len, fmt, *len ? " | " : "", v);
}

/* "capacity 2=0.5 | topdown": the values of the axes with several values. */
static void row_label(const study_grid *g, const tm_study_row *r, char *buf)
{
    const tm_study_spec *s = g->s;
    char tmp[400];
    size_t len = 0;
    buf[0] = 0;
    if (s->n_topologies > 1)
        add(buf, &len, "%s%s", s->topologies[r->topology]);
    if (s->n_comms > 1)
        add(buf, &len, "%s%s", g->comm_names[r->comm]);
    if (s->n_routings > 1)
        add(buf, &len, "%s%s", tm_route_kind_name(s->routings[r->routing]));
    if (s->n_slots > 1) {
        snprintf(tmp, sizeof tmp, "%d", (int)s->slots[r->slots]);
        add(buf, &len, "%sslots %s", s->slots[r->slots] ? tmp : "as topology");
    }
    if (s->n_scales > 1)
        add(buf, &len, "%scapacity %s", study_scale_label(s, r->scale));
    if (s->n_failures > 1) {
        study_fail_label(s, r->failure, tmp, sizeof tmp);
        add(buf, &len, "%sfailure %s", tmp);
        if (r->stat != TM_STUDY_RUN)
            add(buf, &len, "%s%s", tm_study_stat_name(r->stat));
        else if (r->sample) {
            snprintf(tmp, sizeof tmp, "sample %d", r->sample);
            add(buf, &len, "%s%s", tmp);
        }
    }
    if (s->n_strategies > 1 || len == 0)
        add(buf, &len, "%s%s", s->strategies[r->strategy]);
}

tm_err study_write_report(tm_ctx *ctx, const char *path, const study_grid *g,
                          const tm_study_result *res)
{
    tm_report rp;
    tm_report_row *rows = calloc((size_t)res->n_rows + 1, sizeof *rows);
    char *labels = malloc(((size_t)res->n_rows + 1) * LABEL_MAX), sub[160];
    int n = 0, skipped = 0;
    tm_err err;
    if (!rows || !labels) {
        free(rows);
        free(labels);
        return tm_ctx_fail(ctx, TM_ENOMEM, "out of memory");
    }
    for (int i = 0; i < res->n_rows; i++) {
        const tm_study_row *r = &res->rows[i];
        if (r->status != TM_STUDY_OK) {
            skipped++;
            continue;
        }
        row_label(g, r, labels + (size_t)n * LABEL_MAX);
        rows[n].label = labels + (size_t)n * LABEL_MAX;
        rows[n].base_congestion = r->base_congestion;
        rows[n].base_dilation = r->base_dilation;
        rows[n].base_J = r->base_J;
        rows[n].base_time_s = r->base_est_time_s;
        rows[n].est_time_s = r->est_time_s;
        rows[n].max_congestion = r->max_congestion;
        rows[n].avg_dilation = r->avg_dilation;
        rows[n].bound_congestion = r->bound_congestion;
        rows[n].bound_dilation = r->bound_dilation;
        rows[n].bound_J = r->bound_J;
        rows[n++].qap_J = r->qap_J;
    }
    snprintf(sub, sizeof sub, "%d rows in grid order, each against the consecutive placement of "
             "its scenario; %d rows that did not run are not drawn (see the table or CSV)",
             n, skipped);
    memset(&rp, 0, sizeof rp);
    rp.title = "topomap study";
    rp.subtitle = sub;
    rp.rows = rows;
    rp.n_rows = n;
    err = tm_report_write_html(ctx, &rp, path);
    free(rows);
    free(labels);
    return err;
}
