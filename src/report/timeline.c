/* timeline.c - the charts of a replay page: the CDF of the slowdowns of
 * every policy (one line each), and the fabric's max congestion over
 * time per policy as step lines, with the busy nodes shaded behind on
 * their own scale.  Lines are sampled at a bounded number of points, so
 * a long trace does not make a page of megabytes. */
#include <math.h>
#include <stdlib.h>

#include "report_int.h"

#define C_W 1060.0
#define C_H 300.0
#define C_L 70.0  /* left margin */
#define C_R 60.0  /* right margin (the busy nodes' scale) */
#define C_B 40.0
#define C_T 24.0
#define C_POINTS 400

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void legend(FILE *out, const tm_report_workload *r, double y)
{
    for (int32_t p = 0; p < r->n_policies; p++) {
        double x = C_L + 170.0 * p;
        fprintf(out, "<rect x=\"%.0f\" y=\"%.0f\" width=\"14\" height=\"4\" fill=\"%s\"/>"
                     "<text x=\"%.0f\" y=\"%.0f\">", x, y - 4, tm__job_colour(p), x + 18, y);
        tm__html_text(out, r->policies[p]);
        fputs("</text>\n", out);
    }
}

static void frame(FILE *out, double xmin, double xmax, const char *xlab, double ymax,
                  const char *ylab)
{
    double pw = C_W - C_L - C_R;
    fprintf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" class=\"ax\"/>"
                 "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" class=\"ax\"/>\n",
            C_L, C_H - C_B, C_W - C_R, C_H - C_B, C_L, C_T, C_L, C_H - C_B);
    for (int s = 0; s <= 4; s++)
        fprintf(out, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%.4g</text>",
                C_L + pw * s / 4, C_H - C_B + 14, xmin + (xmax - xmin) * s / 4);
    fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%.4g</text>"
                 "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">0</text>\n",
            C_L - 4, C_T + 4, ymax, C_L - 4, C_H - C_B);
    fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\" class=\"head\">%s</text>"
                 "<text x=\"%.0f\" y=\"%.0f\" class=\"head\">%s</text>\n",
            C_L + pw / 2, C_H - 6, xlab, C_L - 40, 14.0, ylab);
}

void tm__svg_slowdown_cdf(FILE *out, const tm_report_workload *r)
{
    double xmin = 1.0, xmax = 1.0, pw = C_W - C_L - C_R, ph = C_H - C_B - C_T;
    for (int32_t p = 0; p < r->n_policies; p++)
        for (int32_t i = 0; i < r->n_slowdowns[p]; i++) {
            xmax = fmax(xmax, r->slowdowns[p][i]);
            xmin = fmin(xmin, r->slowdowns[p][i]);
        }
    if (xmax <= xmin)
        xmax = xmin + 1;
    fprintf(out, "<svg class=\"cdf\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
                 "role=\"img\" aria-label=\"slowdowns by policy\">\n", C_W, C_H + 20, C_W,
            C_H + 20);
    frame(out, xmin, xmax, "slowdown (shared / alone est. time)", 1.0, "fraction of jobs");
    for (int32_t p = 0; p < r->n_policies; p++) {
        int32_t n = r->n_slowdowns[p], below = 0;
        double *v = malloc(((size_t)n + 1) * sizeof *v);
        if (!v || !n) {
            free(v);
            continue;
        }
        for (int32_t i = 0; i < n; i++)
            v[i] = r->slowdowns[p][i];
        qsort(v, (size_t)n, sizeof *v, cmp_double);
        fprintf(out, "<polyline class=\"series\" stroke=\"%s\" points=\"", tm__job_colour(p));
        for (int s = 0; s <= C_POINTS; s++) {
            double x = xmin + (xmax - xmin) * s / C_POINTS;
            while (below < n && v[below] <= x * (1 + 1e-12))
                below++;
            fprintf(out, "%.1f,%.1f ", C_L + pw * s / C_POINTS, C_H - C_B - ph * below / n);
        }
        fputs("\"><title>", out);
        tm__html_text(out, r->policies[p]);
        fputs("</title></polyline>\n", out);
        free(v);
    }
    legend(out, r, C_H + 14);
    fputs("</svg>\n", out);
}

/* The largest value a step series takes in [t0, t1) (so a spike shorter
 * than a sample still shows); *i is the step at t0, advanced. */
static double bin_max(const tm_report_series *s, double t0, double t1, int32_t *i)
{
    double v = 0.0;
    while (*i + 1 < s->n && s->t[*i + 1] <= t0)
        ++*i;
    for (int32_t k = *i; k < s->n && s->t[k] < t1; k++)
        v = fmax(v, s->value[k]);
    return v;
}

void tm__svg_timeline(FILE *out, const tm_report_workload *r)
{
    double ymax = 0, bmax = 0, T = r->t_end > 0 ? r->t_end : 1, pw = C_W - C_L - C_R;
    double ph = C_H - C_B - C_T;
    for (int32_t p = 0; p < r->n_policies; p++)
        for (int32_t i = 0; i < r->congestion[p].n; i++)
            ymax = fmax(ymax, r->congestion[p].value[i]);
    for (int32_t i = 0; r->busy && i < r->busy->n; i++)
        bmax = fmax(bmax, r->busy->value[i]);
    ymax = ymax > 0 ? ymax : 1;
    fprintf(out, "<svg class=\"timeline\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
                 "role=\"img\" aria-label=\"fabric load over time\">\n", C_W, C_H + 20, C_W,
            C_H + 20);
    if (r->busy && bmax > 0) {
        int32_t i = 0;
        fprintf(out, "<polygon class=\"area\" points=\"%.1f,%.1f ", C_L, C_H - C_B);
        for (int s = 0; s <= C_POINTS; s++) {
            double t = T * s / C_POINTS;
            fprintf(out, "%.1f,%.1f ", C_L + pw * s / C_POINTS,
                    C_H - C_B - ph * bin_max(r->busy, t, t + T / C_POINTS, &i) / bmax);
        }
        fprintf(out, "%.1f,%.1f\"><title>busy nodes</title></polygon>\n", C_W - C_R, C_H - C_B);
        fprintf(out, "<text x=\"%.0f\" y=\"%.0f\">%.0f</text><text x=\"%.0f\" y=\"%.0f\">busy "
                     "nodes (grey)</text>\n", C_W - C_R + 4, C_T + 4, bmax, C_W - C_R - 110,
                C_T - 6);
    }
    frame(out, 0.0, T, "seconds since the first start", ymax, "fabric max congestion");
    for (int32_t p = 0; p < r->n_policies; p++) {
        const tm_report_series *s = &r->congestion[p];
        int32_t i = 0;
        double prev = 0;
        fprintf(out, "<polyline class=\"series\" stroke=\"%s\" points=\"", tm__job_colour(p));
        for (int k = 0; k <= C_POINTS; k++) {
            double t = T * k / C_POINTS, v = bin_max(s, t, t + T / C_POINTS, &i);
            double x = C_L + pw * k / C_POINTS;
            if (k > 0 && v != prev) /* a vertical step */
                fprintf(out, "%.1f,%.1f ", x, C_H - C_B - ph * prev / ymax);
            fprintf(out, "%.1f,%.1f ", x, C_H - C_B - ph * v / ymax);
            prev = v;
        }
        fputs("\"><title>", out);
        tm__html_text(out, s->label);
        fputs("</title></polyline>\n", out);
    }
    legend(out, r, C_H + 14);
    fputs("</svg>\n", out);
}
