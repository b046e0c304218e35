/* fabric_svg.c - the fabric picture: cables coloured by congestion
 * (load / capacity, the larger of the two directions), hosts of the job
 * highlighted, a legend of the colour scale.  Coordinates from layout.c
 * are scaled into the picture here. */
#include <math.h>

#include "report_int.h"

#define FAB_W 1100.0
#define FAB_MARGIN 16.0

/* ColorBrewer YlOrRd, 5 classes: light yellow (lightly loaded) to dark
 * red (the most congested link). */
static const unsigned char palette[5][3] = {
    {0xff, 0xd9, 0x76}, {0xfe, 0xb2, 0x4c}, {0xfd, 0x8d, 0x3c}, {0xf0, 0x3b, 0x20}, {0xbd, 0x00, 0x26}};

void tm__load_colour(double t, char out[8])
{
    double p = (t < 0 ? 0 : t > 1 ? 1 : t) * 4;
    int i = p >= 4 ? 3 : (int)p;
    double u = p - i;
    unsigned c[3];
    for (int k = 0; k < 3; k++)
        c[k] = (unsigned)lround(palette[i][k] * (1 - u) + palette[i + 1][k] * u);
    snprintf(out, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}

/* The transform from layout coordinates to the picture. */
typedef struct fab_view {
    double x0, y0, sx, sy, w, h, r;
} fab_view;

static fab_view make_view(const tm__fabric *f)
{
    fab_view v = {0, 0, 1, 1, FAB_W, 300, 4};
    double x1 = 0, y1 = 0;
    for (int32_t i = 0; i < f->nv; i++) {
        if (i == 0 || f->x[i] < v.x0) v.x0 = f->x[i];
        if (i == 0 || f->y[i] < v.y0) v.y0 = f->y[i];
        if (i == 0 || f->x[i] > x1) x1 = f->x[i];
        if (i == 0 || f->y[i] > y1) y1 = f->y[i];
    }
    double dx = x1 - v.x0 > 0 ? x1 - v.x0 : 1, dy = y1 - v.y0 > 0 ? y1 - v.y0 : 1;
    v.h = fmin(fmax(FAB_W * dy / dx, 260.0), 900.0);
    v.sx = (v.w - 2 * FAB_MARGIN) / dx;
    v.sy = (v.h - 2 * FAB_MARGIN) / dy;
    v.r = f->nv <= 64 ? 6 : f->nv <= 512 ? 4 : f->nv <= 4096 ? 2.5 : 1.5;
    return v;
}

static double px(const fab_view *v, double x) { return FAB_MARGIN + (x - v->x0) * v->sx; }
static double py(const fab_view *v, double y) { return FAB_MARGIN + (y - v->y0) * v->sy; }

/* The start of a cable's <line> element (its two ends in *a and *b). */
static void line_open(FILE *out, const tm_net *net, const tm__fabric *f, const fab_view *v,
                      int32_t cable, int32_t *a, int32_t *b)
{
    int32_t ia, ib;
    tm_net_cable(net, cable, a, b);
    ia = f->idx[*a], ib = f->idx[*b];
    fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"", px(v, f->x[ia]),
            py(v, f->y[ia]), px(v, f->x[ib]), py(v, f->y[ib]));
}

/* Unloaded cables first (thin, grey), loaded ones over them. */
static void draw_cables(FILE *out, const tm_net *net, const tm__fabric *f, const fab_view *v)
{
    for (int pass = 0; pass < 2; pass++)
        for (int32_t k = 0; k < f->nc; k++) {
            int32_t a, b;
            double t = f->max_cong > 0 ? f->cong[k] / f->max_cong : 0;
            char col[8];
            if ((pass == 0) != (f->cong[k] <= 0))
                continue;
            line_open(out, net, f, v, f->cable[k], &a, &b);
            if (pass == 0) {
                fputs(" class=\"e0\"/>\n", out);
                continue;
            }
            tm__load_colour(t, col);
            fprintf(out, " stroke=\"%s\" stroke-width=\"%.2f\"><title>", col, 1.0 + 3.0 * t);
            tm__html_text(out, tm_net_name(net, a));
            fputs(" \xe2\x80\x94 ", out);
            tm__html_text(out, tm_net_name(net, b));
            fprintf(out, ": congestion %.4g</title></line>\n", f->cong[k]);
        }
}

static void draw_vertices(FILE *out, const tm_net *net, const tm__fabric *f, const fab_view *v)
{
    for (int32_t i = 0; i < f->nv; i++) {
        int32_t id = f->vid[i];
        double x = px(v, f->x[i]), y = py(v, f->y[i]);
        if (tm_net_kind(net, id) == TM_VERTEX_SWITCH)
            fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"%s\">",
                    x - v->r, y - v->r, 2 * v->r, 2 * v->r, f->job[id] == 2 ? "sj" : "sw");
        else
            fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" class=\"%s\">", x, y,
                    f->job[id] ? v->r * 1.4 : v->r, f->job[id] ? "hj" : "h");
        fputs("<title>", out);
        tm__html_text(out, tm_net_name(net, id));
        fputs(tm_net_kind(net, id) == TM_VERTEX_SWITCH ? "</title></rect>\n" : "</title></circle>\n",
              out);
    }
}

/* Colour scale: 0 .. the maximum congestion of the drawn mapping. */
static void draw_legend(FILE *out, double max_cong)
{
    fputs("<svg class=\"legend\" width=\"640\" height=\"46\" role=\"img\" "
          "aria-label=\"colour scale\"><defs><linearGradient id=\"loadscale\">", out);
    for (int s = 0; s <= 4; s++) {
        char col[8];
        tm__load_colour(s / 4.0, col);
        fprintf(out, "<stop offset=\"%d%%\" stop-color=\"%s\"/>", s * 25, col);
    }
    fputs("</linearGradient></defs>"
          "<rect x=\"10\" y=\"4\" width=\"300\" height=\"14\" fill=\"url(#loadscale)\"/>", out);
    for (int s = 0; s <= 2; s++)
        fprintf(out, "<text x=\"%d\" y=\"34\" text-anchor=\"middle\">%.4g</text>", 10 + s * 150,
                max_cong * s / 2);
    fputs("<text x=\"320\" y=\"16\">congestion = load / capacity</text></svg>\n", out);
}

void tm__svg_fabric(FILE *out, const tm_report *r, const tm__fabric *f)
{
    fab_view v = make_view(f);
    fprintf(out, "<svg class=\"fabric\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
                 "role=\"img\" aria-label=\"fabric\">\n", v.w, v.h, v.w, v.h);
    draw_cables(out, r->net, f, &v);
    draw_vertices(out, r->net, f, &v);
    fputs("</svg>\n", out);
    draw_legend(out, f->max_cong);
}

/* ---- the fabric by job (workload pages) ---------------------------------- */

/* Tableau 10: distinct for ten jobs, repeated after. */
static const char *const job_palette[10] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                            "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
                                            "#9c755f", "#bab0ac"};

const char *tm__job_colour(int32_t job)
{
    return job < 0 ? "#c8c8c8" : job_palette[job % 10];
}

/* A cable's direction that carries more (relative to capacity). */
static int32_t busier_link(const tm_net_csr *g, const double *load, int32_t c)
{
    return load[2 * c + 1] / g->cap[2 * c + 1] > load[2 * c] / g->cap[2 * c] ? 2 * c + 1 : 2 * c;
}

static void draw_job_cables(FILE *out, const tm__jobview *jv, const tm__fabric *f,
                            const fab_view *v)
{
    const tm_net_csr *g = tm_net_csr_get(jv->net);
    for (int pass = 0; pass < 3; pass++)
        for (int32_t k = 0; k < f->nc; k++) {
            int32_t a, b, c = f->cable[k], l = busier_link(g, jv->link_load, c);
            int32_t nj = jv->link_n_jobs[2 * c] > jv->link_n_jobs[2 * c + 1]
                             ? jv->link_n_jobs[2 * c] : jv->link_n_jobs[2 * c + 1];
            double t = f->max_cong > 0 ? f->cong[k] / f->max_cong : 0;
            /* pass 0: unloaded; 1: loaded, the job's colour; 2: a dashed
             * overlay on cables that several jobs load */
            if ((pass == 0) != (f->cong[k] <= 0) || (pass == 2 && nj < 2))
                continue;
            line_open(out, jv->net, f, v, c, &a, &b);
            if (pass == 0) {
                fputs(" class=\"e0\"/>\n", out);
                continue;
            }
            if (pass == 2) {
                fputs(" class=\"shared\"/>\n", out);
                continue;
            }
            fprintf(out, " stroke=\"%s\" stroke-width=\"%.2f\"><title>",
                    tm__job_colour(jv->link_job[l]), 1.5 + 3.0 * t);
            tm__html_text(out, tm_net_name(jv->net, a));
            fputs(" \xe2\x80\x94 ", out);
            tm__html_text(out, tm_net_name(jv->net, b));
            fputs(": most load from job ", out);
            tm__html_text(out, jv->link_job[l] >= 0 ? jv->label(jv->ud, jv->link_job[l]) : "-");
            fprintf(out, " (%d job%s on it), congestion %.4g</title></line>\n", nj,
                    nj == 1 ? "" : "s", f->cong[k]);
        }
}

static void draw_job_vertices(FILE *out, const tm__jobview *jv, const tm__fabric *f,
                              const fab_view *v)
{
    for (int32_t i = 0; i < f->nv; i++) {
        int32_t id = f->vid[i], job = jv->host_job[id];
        double x = px(v, f->x[i]), y = py(v, f->y[i]);
        if (tm_net_kind(jv->net, id) == TM_VERTEX_SWITCH)
            fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"sw\">",
                    x - v->r, y - v->r, 2 * v->r, 2 * v->r);
        else
            fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\">", x, y,
                    job >= 0 ? v->r * 1.4 : v->r, tm__job_colour(job));
        fputs("<title>", out);
        tm__html_text(out, tm_net_name(jv->net, id));
        if (job >= 0) {
            fputs(": job ", out);
            tm__html_text(out, jv->label(jv->ud, job));
        }
        fputs(tm_net_kind(jv->net, id) == TM_VERTEX_SWITCH ? "</title></rect>\n"
                                                            : "</title></circle>\n",
              out);
    }
}

void tm__svg_fabric_jobs(FILE *out, const tm__jobview *jv, const tm__fabric *f)
{
    fab_view v = make_view(f);
    fprintf(out, "<svg class=\"fabric jobs\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" "
                 "height=\"%.0f\" role=\"img\" aria-label=\"fabric by job\">\n",
            v.w, v.h, v.w, v.h);
    draw_job_cables(out, jv, f, &v);
    draw_job_vertices(out, jv, f, &v);
    fputs("</svg>\n", out);
}
