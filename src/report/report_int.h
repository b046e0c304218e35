/* report_int.h - pieces of the HTML report (tm_report_write_html) shared
 * inside src/report/: the drawn part of the fabric, its layout, and the
 * SVG/HTML writers.  Everything writes to a FILE; no global state. */
#ifndef TM_REPORT_INT_H
#define TM_REPORT_INT_H

#include <stdio.h>

#include "topomap/report.h"

#define TM_REPORT_MAX_VERTICES 20000
#define TM_REPORT_MAX_CABLES 12000

/* The part of the network that is drawn, and where. */
typedef struct tm__fabric {
    int32_t nv;          /* drawn vertices */
    int32_t *vid;        /* vid[i]: net vertex of drawn vertex i */
    int32_t *idx;        /* idx[v]: drawn index of net vertex v, or -1 (every vertex) */
    uint8_t *job;        /* job[v]: 1 host of the job, 2 switch next to an undrawn job host */
    int32_t nc;          /* drawn cables */
    int32_t *cable;      /* cable[k]: net cable id */
    double *cong;        /* cong[k]: congestion of the cable (larger of its two directions) */
    double *x, *y;       /* layout of drawn vertex i (any scale; normalised when drawn) */
    double max_cong;     /* over every link of the network */
    int32_t job_hosts, job_hosts_drawn;
    int32_t omitted_vertices, omitted_cables;
    char layout[160];    /* how the layout was made, shown on the page */
} tm__fabric;

/* Chooses the drawn vertices and cables (limits in tm_report), fills
 * job, cong and max_cong.  *f is zeroed first; release with
 * tm__fabric_release also on error. */
tm_err tm__fabric_select(tm_ctx *ctx, const tm_report *r, tm__fabric *f);
void tm__fabric_release(tm__fabric *f);

/* Fills f->x, f->y: grid coordinates for tori and meshes, igraph's
 * Sugiyama layout by level for trees, a grouped Fruchterman-Reingold for
 * dragonflies and PERCS, plain Fruchterman-Reingold otherwise. */
tm_err tm__fabric_layout(tm_ctx *ctx, const tm_net *net, tm__fabric *f);
/* The igraph graph of the drawn vertices and cables (layout_igraph.c). */
tm_err tm__layout_sugiyama(tm_ctx *ctx, const tm_net *net, tm__fabric *f, const int32_t *layer);
tm_err tm__layout_fr(tm_ctx *ctx, const tm_net *net, tm__fabric *f, const int32_t *group,
                     int32_t n_groups);

/* SVG of the fabric (fabric_svg.c). */
void tm__svg_fabric(FILE *out, const tm_report *r, const tm__fabric *f);
/* Bar chart of the rows against consecutive (charts.c). */
void tm__svg_bars(FILE *out, const tm_report *r);
/* Histogram and CDF of link congestion (hist.c). */
tm_err tm__svg_hist(tm_ctx *ctx, FILE *out, const tm_report *r);

/* The fabric by job (workload pages, fabric_svg.c): each loaded cable in
 * the colour of the job with the most load on its busier direction, a
 * dashed overlay where several jobs load it, hosts in their job's colour. */
typedef struct tm__jobview {
    const tm_net *net;
    const double *link_load;
    const int32_t *link_job;    /* per directed link, -1: none */
    const int32_t *link_n_jobs;
    const int32_t *host_job;    /* per vertex: the job on it, -1 */
    const char *(*label)(const void *ud, int32_t job);
    const void *ud;
} tm__jobview;
void tm__svg_fabric_jobs(FILE *out, const tm__jobview *jv, const tm__fabric *f);
/* The colour of job i (ten, repeated), grey for -1. */
const char *tm__job_colour(int32_t job);

/* Writes a page through body(ctx, out, arg) atomically (page.c). */
typedef tm_err (*tm__page_fn)(tm_ctx *ctx, FILE *out, const void *arg);
tm_err tm__page_write(tm_ctx *ctx, const char *path, tm__page_fn body, const void *arg);
/* The page's head, style sheet, title and subtitle (page.c). */
void tm__page_begin(FILE *out, const char *title, const char *subtitle);
/* Charts of a replay (timeline.c): the CDF of every policy's slowdowns,
 * and the fabric's max congestion over time per policy (busy nodes
 * shaded behind). */
void tm__svg_slowdown_cdf(FILE *out, const tm_report_workload *r);
void tm__svg_timeline(FILE *out, const tm_report_workload *r);

/* HTML text with & < > " ' escaped (page.c). */
void tm__html_text(FILE *out, const char *s);
/* Colour of a congestion t in [0, 1] of the maximum ("#rrggbb"). */
void tm__load_colour(double t, char out[8]);

#endif
