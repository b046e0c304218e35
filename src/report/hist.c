/* hist.c - the distribution of link congestion (load / capacity) over the
 * directed links that carry traffic: a histogram (links per bin) and the
 * CDF (fraction of those links at or below a congestion), for the drawn
 * mapping and, when given, the consecutive placement. */
#include <stdlib.h>

#include "report_int.h"
#include "../util/util.h"

#define H_BINS 20
#define H_CDF_POINTS 200
#define H_W 520.0
#define H_H 240.0
#define H_L 64.0   /* left margin (axis labels) */
#define H_B 40.0   /* bottom margin */
#define H_T 24.0   /* top of the plot (the y label above it) */

typedef struct series {
    double *v;     /* congestion of every used link, sorted */
    int32_t n;
} series;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static tm_err collect(tm_ctx *ctx, const tm_net_csr *g, const double *load, series *s)
{
    s->n = 0;
    s->v = NULL;
    if (!load)
        return TM_EOK;
    s->v = tm__malloc_n((size_t)g->n_links + 1, sizeof *s->v);
    if (!s->v)
        return tm__nomem(ctx);
    for (int32_t l = 0; l < g->n_links; l++)
        if (load[l] > 0)
            s->v[s->n++] = load[l] / g->cap[l];
    qsort(s->v, (size_t)s->n, sizeof *s->v, cmp_double);
    return TM_EOK;
}

static void axes(FILE *out, double x0, double xmax, const char *xlab, const char *ylab, double ymax)
{
    fprintf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" class=\"ax\"/>"
                 "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" class=\"ax\"/>\n",
            x0 + H_L, H_H - H_B, x0 + H_W - 10, H_H - H_B, x0 + H_L, H_T, x0 + H_L, H_H - H_B);
    for (int s = 0; s <= 2; s++)
        fprintf(out, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"%s\">%.3g</text>",
                x0 + H_L + s * (H_W - 10 - H_L) / 2, H_H - H_B + 14,
                s == 0 ? "start" : s == 1 ? "middle" : "end", xmax * s / 2);
    fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%.3g</text>"
                 "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">0</text>\n",
            x0 + H_L - 4, H_T + 4, ymax, x0 + H_L - 4, H_H - H_B);
    fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\" class=\"head\">%s</text>"
                 "<text x=\"%.0f\" y=\"%.0f\" class=\"head\">%s</text>\n",
            x0 + (H_W + H_L) / 2, H_H - 8, xlab, x0 + H_L - 30, 12.0, ylab);
}

static void histogram(FILE *out, const series s[2], double xmax)
{
    int64_t cnt[2][H_BINS] = {{0}};
    int64_t top = 1;
    double bw = (H_W - 10 - H_L) / H_BINS, ph = H_H - H_B - H_T;
    for (int k = 0; k < 2; k++)
        for (int32_t i = 0; i < s[k].n; i++) {
            int b = xmax > 0 ? (int)(s[k].v[i] / xmax * H_BINS) : 0;
            b = b >= H_BINS ? H_BINS - 1 : b;
            if (++cnt[k][b] > top)
                top = cnt[k][b];
        }
    axes(out, 0, xmax, "congestion (load / capacity)", "links", (double)top);
    for (int k = 0; k < 2; k++)
        for (int b = 0; b < H_BINS; b++) {
            double h = ph * (double)cnt[k][b] / (double)top;
            if (cnt[k][b] == 0)
                continue;
            fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"%s\">"
                         "<title>%lld links</title></rect>\n",
                    H_L + b * bw + (k == 0 ? bw / 2 : 0), H_H - H_B - h, bw / 2 - 1, h,
                    k == 0 ? "res" : "base", (long long)cnt[k][b]);
        }
}

/* CDF sampled at H_CDF_POINTS congestions: the page size does not grow
 * with the number of links. */
static void cdf(FILE *out, const series s[2], double xmax)
{
    double x0 = H_W + 20, pw = H_W - 10 - H_L, ph = H_H - H_B - H_T;
    axes(out, x0, xmax, "congestion (load / capacity)", "fraction of used links", 1.0);
    for (int k = 0; k < 2; k++) {
        int32_t below = 0;
        if (s[k].n == 0)
            continue;
        fprintf(out, "<polyline class=\"%s\" points=\"", k == 0 ? "cdf res" : "cdf base");
        for (int p = 0; p <= H_CDF_POINTS; p++) {
            double x = xmax * p / H_CDF_POINTS;
            while (below < s[k].n && s[k].v[below] <= x * (1 + 1e-12))
                below++;
            fprintf(out, "%.1f,%.1f ", x0 + H_L + pw * p / H_CDF_POINTS,
                    H_H - H_B - ph * below / (double)s[k].n);
        }
        fputs("\"/>\n", out);
    }
}

tm_err tm__svg_hist(tm_ctx *ctx, FILE *out, const tm_report *r)
{
    const tm_net_csr *g = tm_net_csr_get(r->net);
    series s[2] = {{NULL, 0}, {NULL, 0}};
    double xmax = 0;
    tm_err err = collect(ctx, g, r->link_load, &s[0]);
    if (!err)
        err = collect(ctx, g, r->base_link_load, &s[1]);
    if (!err) {
        for (int k = 0; k < 2; k++)
            if (s[k].n && s[k].v[s[k].n - 1] > xmax)
                xmax = s[k].v[s[k].n - 1];
        fprintf(out, "<svg class=\"hist\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
                     "role=\"img\" aria-label=\"congestion histogram and CDF\">\n",
                2 * H_W + 20, H_H, 2 * H_W + 20, H_H);
        histogram(out, s, xmax);
        cdf(out, s, xmax);
        fputs("</svg>\n", out);
    }
    free(s[0].v);
    free(s[1].v);
    return err;
}
