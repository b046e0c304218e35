/* report_html.c - `--report F.html` of eval and map: evaluates the shown
 * mapping and the consecutive placement exactly with per-link loads (the
 * same options as the printed figures), and hands them with the result
 * rows to tm_report_write_html (docs/report.md). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Exact figures of m with per-link loads, as eval/map compute them. */
static tm_err eval_loads(tm_ctx *ctx, const cli_network *nw, const cli_inputs *in,
                         const tm_comm *comm, const tm_mapping *m, tm_metrics *out)
{
    tm_metrics_opts mo = TM_METRICS_OPTS_INIT;
    tm_time_opts to = cli_time_opts(in);
    mo.keep_link_loads = true;
    mo.node_hier = nw->have_node_hier ? &nw->node_hier : NULL;
    mo.hop_distance = in->hop_distance;
    mo.time = &to;
    return tm_metrics_eval(ctx, nw->route, comm, m, &mo, out);
}

static void fill_row(tm_report_row *row, const char *label, const tm_metrics *m,
                     const tm_metrics *base, const tm_bounds *b)
{
    if (b) {
        row->bound_congestion = b->max_congestion;
        row->bound_dilation = b->avg_dilation;
        row->bound_J = b->qap_J;
    }
    row->label = label;
    row->max_congestion = m->max_congestion;
    row->avg_dilation = m->avg_dilation;
    row->qap_J = m->qap_J;
    row->base_congestion = base->max_congestion;
    row->base_dilation = base->avg_dilation;
    row->base_J = base->qap_J;
    row->est_time_s = m->est_time_s;
    row->base_time_s = base->est_time_s;
}

static void subtitle(char *buf, size_t n, const cli_report_args *ra)
{
    const cli_inputs *in = ra->in;
    snprintf(buf, n, "topology %s, communication %s, allocation %s, routing %s", in->topology,
             in->comm, ra->alloc_label ? ra->alloc_label : in->alloc ? in->alloc : "all hosts",
             tm_route_kind_name(tm_route_kind_of(ra->nw->route)));
}

tm_err cli_write_report(tm_ctx *ctx, const cli_report_args *ra)
{
    tm_metrics met, base;
    const tm_metrics *shown, *cbase;
    tm_mapping cons;
    tm_report rep;
    tm_report_row one;
    char sub[1024];
    tm_err err;

    tm_metrics_init(&met);
    tm_metrics_init(&base);
    tm_mapping_init(&cons);
    err = tm_mapping_consecutive(ctx, &ra->nw->alloc, ra->comm->n, &cons);
    if (!err && !ra->met)
        err = eval_loads(ctx, ra->nw, ra->in, ra->comm, ra->map, &met);
    if (!err && !ra->map_is_consecutive)
        err = eval_loads(ctx, ra->nw, ra->in, ra->comm, &cons, &base);
    if (err)
        goto out;
    /* figures the caller already has (exact, with loads) are not computed twice */
    shown = ra->met ? ra->met : &met;
    cbase = ra->map_is_consecutive ? shown : &base;
    memset(&rep, 0, sizeof rep);
    subtitle(sub, sizeof sub, ra);
    rep.title = ra->title;
    rep.subtitle = sub;
    rep.net = ra->nw->net;
    rep.mapping = ra->map;
    rep.mapping_label = ra->map_label;
    rep.link_load = shown->link_load;
    rep.base_link_load = cbase->link_load;
    rep.rows = ra->rows;
    rep.n_rows = ra->n_rows;
    if (!ra->rows) {
        memset(&one, 0, sizeof one);
        fill_row(&one, ra->map_label, shown, cbase, ra->bounds);
        rep.rows = &one;
        rep.n_rows = 1;
    }
    err = tm_report_write_html(ctx, &rep, ra->path);
out:
    tm_metrics_release(&met);
    tm_metrics_release(&base);
    tm_mapping_release(&cons);
    return err;
}

tm_report_row *cli_report_rows(const tm_map_result *res, const tm_bounds *bounds,
                               char (*labels)[128])
{
    tm_report_row *rows = calloc((size_t)res->n_rows + 1, sizeof *rows);
    if (!rows || !res->consecutive)
        return rows;
    for (int32_t i = 0; i < res->n_rows; i++) {
        const tm_map_row *r = &res->rows[i];
        snprintf(labels[i], sizeof labels[i], "%s%s%s%s", r->name, r->refine[0] ? " + " : "",
                 r->refine, i == res->best ? " (chosen)" : "");
        fill_row(&rows[i], labels[i], r->metrics, res->consecutive, bounds);
    }
    return rows;
}
