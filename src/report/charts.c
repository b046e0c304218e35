/* charts.c - the bar chart of the report: for every row (strategy or
 * scenario) and every figure (max congestion, avg dilation, J), the
 * result's bar under the consecutive placement's, one scale per figure,
 * and the row's lower bound (docs/bounds.md) as a dashed mark across both. */
#include "report_int.h"

#define BAR_LABEL_W 170
#define BAR_PANEL_W 300
#define BAR_ROW_H 30
#define BAR_TOP 40

static double row_value(const tm_report_row *row, int fig, bool base)
{
    if (fig == 0)
        return base ? row->base_congestion : row->max_congestion;
    if (fig == 1)
        return base ? row->base_dilation : row->avg_dilation;
    return base ? row->base_J : row->qap_J;
}

static double row_bound(const tm_report_row *row, int fig)
{
    return fig == 0 ? row->bound_congestion : fig == 1 ? row->bound_dilation : row->bound_J;
}

static double figure_max(const tm_report *r, int fig)
{
    double m = 0;
    for (int32_t i = 0; i < r->n_rows; i++)
        for (int b = 0; b < 2; b++)
            if (row_value(&r->rows[i], fig, b) > m)
                m = row_value(&r->rows[i], fig, b);
    return m;
}

static void bar(FILE *out, double x, double y, double len, const char *cls, double val)
{
    fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"11\" class=\"%s\"/>", x, y,
            len, cls);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"val\">%.4g</text>\n", x + len + 3, y + 10,
            val);
}

static void panel(FILE *out, const tm_report *r, int fig)
{
    static const char *const name[3] = {"max congestion", "avg dilation", "QAP J"};
    double x0 = BAR_LABEL_W + fig * BAR_PANEL_W, span = BAR_PANEL_W - 70;
    double m = figure_max(r, fig), scale = m > 0 ? span / m : 0;
    fprintf(out, "<text x=\"%.0f\" y=\"20\" class=\"head\">%s</text>\n", x0, name[fig]);
    for (int32_t i = 0; i < r->n_rows; i++) {
        double y = BAR_TOP + i * BAR_ROW_H;
        bar(out, x0, y, row_value(&r->rows[i], fig, true) * scale, "base",
            row_value(&r->rows[i], fig, true));
        bar(out, x0, y + 12, row_value(&r->rows[i], fig, false) * scale, "res",
            row_value(&r->rows[i], fig, false));
        if (row_bound(&r->rows[i], fig) > 0) {
            double bx = x0 + row_bound(&r->rows[i], fig) * scale;
            fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                         "class=\"bound\"/>\n", bx, y - 2, bx, y + 25);
        }
    }
}

void tm__svg_bars(FILE *out, const tm_report *r)
{
    double h = BAR_TOP + r->n_rows * BAR_ROW_H + 30;
    double w = BAR_LABEL_W + 3 * BAR_PANEL_W;
    fprintf(out, "<svg class=\"bars\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
                 "role=\"img\" aria-label=\"strategies against consecutive\">\n", w, h, w, h);
    for (int32_t i = 0; i < r->n_rows; i++) {
        fprintf(out, "<text x=\"4\" y=\"%d\" class=\"lab\">", BAR_TOP + i * BAR_ROW_H + 17);
        tm__html_text(out, r->rows[i].label ? r->rows[i].label : "");
        fputs("</text>\n", out);
    }
    for (int fig = 0; fig < 3; fig++)
        panel(out, r, fig);
    fprintf(out, "<rect x=\"4\" y=\"%.0f\" width=\"12\" height=\"11\" class=\"base\"/>"
                 "<text x=\"20\" y=\"%.0f\">consecutive</text>"
                 "<rect x=\"130\" y=\"%.0f\" width=\"12\" height=\"11\" class=\"res\"/>"
                 "<text x=\"146\" y=\"%.0f\">result</text>\n",
            h - 20, h - 10, h - 20, h - 10);
    for (int32_t i = 0; i < r->n_rows; i++)
        if (row_bound(&r->rows[i], 0) > 0 || row_bound(&r->rows[i], 1) > 0 ||
            row_bound(&r->rows[i], 2) > 0) {
            fprintf(out, "<line x1=\"230\" y1=\"%.0f\" x2=\"230\" y2=\"%.0f\" "
                         "class=\"bound\"/><text x=\"238\" y=\"%.0f\">lower bound</text>\n",
                    h - 21, h - 8, h - 10);
            break;
        }
    fputs("</svg>\n", out);
}
