/* html.c - the mapping's report page (tm_report_write_html): the results
 * against the consecutive placement, the fabric, the congestion charts, on
 * the page frame of page.c. */
#include <string.h>

#include "report_int.h"
#include "../util/util.h"

static double pct(double base, double v)
{
    return base > 0 ? 100.0 * (v - base) / base : 0.0;
}

/* value / bound as the table shows it ("-" over a bound of 0). */
static void gap_cell(FILE *out, double v, double b)
{
    if (!(v > 0))
        fputs("<td>1</td>", out);
    else if (b > 0)
        fprintf(out, "<td>%.3f</td>", v / b);
    else
        fputs("<td>-</td>", out);
}

static void rows_table(FILE *out, const tm_report *r)
{
    bool time = false, bound = false;
    for (int32_t i = 0; i < r->n_rows; i++) {
        const tm_report_row *w = &r->rows[i];
        time |= w->est_time_s > 0 || w->base_time_s > 0;
        bound |= w->bound_congestion > 0 || w->bound_dilation > 0 || w->bound_J > 0;
    }
    fputs("<table class=\"rows\"><tr><th>result</th><th>max congestion</th><th>avg dilation</th>"
          "<th>QAP J</th>", out);
    if (time)
        fputs("<th>est. time (s)</th>", out);
    fputs("<th>consecutive: congestion</th><th>dilation</th><th>J</th>", out);
    if (time)
        fputs("<th>time (s)</th>", out);
    fputs("<th>change: congestion</th><th>dilation</th><th>J</th>", out);
    if (time)
        fputs("<th>time</th>", out);
    if (bound)
        fputs("<th>lower bound: congestion</th><th>dilation</th><th>J</th>"
              "<th>gap: congestion</th><th>dilation</th><th>J</th>", out);
    fputs("</tr>\n", out);
    for (int32_t i = 0; i < r->n_rows; i++) {
        const tm_report_row *w = &r->rows[i];
        fputs("<tr><td>", out);
        tm__html_text(out, w->label ? w->label : "");
        fprintf(out, "</td><td>%.6g</td><td>%.4f</td><td>%.10g</td>", w->max_congestion,
                w->avg_dilation, w->qap_J);
        if (time)
            fprintf(out, "<td>%.6g</td>", w->est_time_s);
        fprintf(out, "<td>%.6g</td><td>%.4f</td><td>%.10g</td>", w->base_congestion,
                w->base_dilation, w->base_J);
        if (time)
            fprintf(out, "<td>%.6g</td>", w->base_time_s);
        fprintf(out, "<td>%+.1f%%</td><td>%+.1f%%</td><td>%+.1f%%</td>",
                pct(w->base_congestion, w->max_congestion), pct(w->base_dilation, w->avg_dilation),
                pct(w->base_J, w->qap_J));
        if (time)
            fprintf(out, "<td>%+.1f%%</td>", pct(w->base_time_s, w->est_time_s));
        if (bound) {
            fprintf(out, "<td>%.6g</td><td>%.4f</td><td>%.10g</td>", w->bound_congestion,
                    w->bound_dilation, w->bound_J);
            gap_cell(out, w->max_congestion, w->bound_congestion);
            gap_cell(out, w->avg_dilation, w->bound_dilation);
            gap_cell(out, w->qap_J, w->bound_J);
        }
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
}

static void fabric_note(FILE *out, const tm_report *r, const tm__fabric *f)
{
    fputs("<p class=\"note\">Layout: ", out);
    tm__html_text(out, f->layout);
    fprintf(out, ". Drawn: %d of %d vertices, %d of %d cables", f->nv,
            tm_net_n_vertices(r->net), f->nc, tm_net_n_cables(r->net));
    if (f->omitted_vertices)
        fprintf(out, " (over the limit of the picture: switches are kept first, then the %d "
                     "hosts of the job if they all fit, then the other hosts if they all fit)",
                f->job_hosts);
    if (f->omitted_cables)
        fprintf(out, " (%d cables between drawn vertices left out, the least loaded)",
                f->omitted_cables);
    fprintf(out, ". Hosts of the job (blue): %d, %d drawn%s. Cable colour and width: "
                 "congestion (load / capacity, the larger direction) of ",
            f->job_hosts, f->job_hosts_drawn,
            f->job_hosts_drawn < f->job_hosts ? "; switches next to the others have a blue edge" : "");
    tm__html_text(out, r->mapping_label ? r->mapping_label : "the mapping");
    fputs("; grey: no traffic.</p>\n", out);
}

static tm_err network_part(tm_ctx *ctx, FILE *out, const tm_report *r)
{
    tm__fabric f;
    tm_err err = tm__fabric_select(ctx, r, &f);
    if (!err)
        err = tm__fabric_layout(ctx, r->net, &f);
    if (!err) {
        fputs("<h2>Fabric and link loads</h2>\n", out);
        fabric_note(out, r, &f);
        tm__svg_fabric(out, r, &f);
        fputs("<h2>Congestion of the used links: histogram and CDF</h2>\n<p class=\"note\">Blue: ",
              out);
        tm__html_text(out, r->mapping_label ? r->mapping_label : "the mapping");
        fputs("; grey: the consecutive placement (when given). Directed links with traffic only."
              "</p>\n", out);
        err = tm__svg_hist(ctx, out, r);
    }
    tm__fabric_release(&f);
    return err;
}

static tm_err write_page(tm_ctx *ctx, FILE *out, const void *arg)
{
    const tm_report *r = arg;
    tm_err err = TM_EOK;
    tm__page_begin(out, r->title, r->subtitle);
    if (r->n_rows > 0) {
        fputs("<h2>Results against the consecutive placement</h2>\n", out);
        rows_table(out, r);
        tm__svg_bars(out, r);
    }
    if (r->net)
        err = network_part(ctx, out, r);
    fputs("</body></html>\n", out);
    return err;
}

tm_err tm_report_write_html(tm_ctx *ctx, const tm_report *r, const char *path)
{
    if (!r || !path)
        return tm__fail(ctx, TM_EUSAGE, "report: no report or no path");
    if (r->net && (!tm_net_csr_get(r->net) || !r->link_load))
        return tm__fail(ctx, TM_EUSAGE, "report: the network must be finalized and the "
                                        "link loads given");
    if (r->n_rows > 0 && !r->rows)
        return tm__fail(ctx, TM_EUSAGE, "report: %d rows but no row array", r->n_rows);
    return tm__page_write(ctx, path, write_page, r);
}
