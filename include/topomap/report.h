/*
 * topomap/report.h - one self-contained HTML page (inline SVG and CSS, no
 * script, no network access) that shows a mapping: the fabric drawn with
 * an igraph layout and its links coloured by congestion, the hosts of the
 * job highlighted, a bar chart of every result against the consecutive
 * placement, and the histogram and CDF of link congestion.
 *
 * `eval --report` and `map --report` fill a tm_report; any other caller (a
 * what-if study) does the same with its own rows.  What is drawn, how the
 * layout is chosen and the limits on big networks: docs/report.md.
 */
#ifndef TOPOMAP_REPORT_H
#define TOPOMAP_REPORT_H

#include <stdint.h>

#include "topomap/error.h"
#include "topomap/export.h"
#include "topomap/map.h"
#include "topomap/net.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One bar group of the chart: a result and the consecutive placement it
 * is compared with (for a study: the consecutive placement of the same
 * scenario). */
typedef struct tm_report_row {
    const char *label;          /* strategy, scenario, ...; HTML-escaped on output */
    double max_congestion, avg_dilation, qap_J;
    double base_congestion, base_dilation, base_J;
    double est_time_s, base_time_s; /* the time model (docs/time.md); both 0: column left out */
    /* lower bounds on every mapping of the row's problem (topomap/bounds.h);
     * all 0: no bound (the columns and the chart's marks left out) */
    double bound_congestion, bound_dilation, bound_J;
} tm_report_row;

typedef struct tm_report {
    const char *title;          /* page heading (escaped) */
    const char *subtitle;       /* a line under it, e.g. the inputs (escaped); may be NULL */
    /* The fabric picture and the congestion histogram/CDF (skipped when
     * net is NULL): a finalized network, the drawn mapping (its hosts are
     * highlighted; may be NULL), and the per-directed-link loads of that
     * mapping (tm_metrics.link_load, n_links entries).  base_link_load,
     * optional, gives the consecutive placement's loads for comparison. */
    const tm_net *net;
    const tm_mapping *mapping;
    const char *mapping_label;  /* e.g. "topdown + ils:10+ta" (escaped) */
    const double *link_load;
    const double *base_link_load;
    const tm_report_row *rows;  /* bar chart and table; n_rows may be 0 */
    int32_t n_rows;
    /* Size limits of the fabric picture (0: defaults 20000 and 12000,
     * a page of a few MB): switches are taken first (id order), then the
     * hosts of the job if they all fit, then the other hosts if they all
     * fit; cables between drawn vertices, the most loaded first. */
    int32_t max_vertices, max_cables;
} tm_report;

/* Writes the page to path atomically (temporary file + rename).  Calls
 * igraph (layouts): call it from one thread only, like tm_net_finalize.
 * TM_EUSAGE for an unfinalized network or a missing link_load, TM_EIO
 * when the file cannot be written. */
TM_API tm_err tm_report_write_html(tm_ctx *ctx, const tm_report *r, const char *path);

/* ---- many jobs on one fabric (docs/report.md "Workloads") ----------------
 * `workload eval --report` and `workload replay --report`: a table of the
 * jobs alone and shared, the fabric coloured by load and by job, and for
 * a replay the slowdowns of every policy and the fabric's load over time. */

/* One job: its hosts and figures (docs/workload.md). */
typedef struct tm_report_job {
    const char *label;            /* job id (escaped) */
    const char *policy;           /* replay: the policy of the row, else NULL */
    const int32_t *hosts;
    int32_t n_hosts, n_tasks;
    double alone_congestion, shared_congestion;
    double alone_time_s, shared_time_s, slowdown;
} tm_report_job;

/* A step function over time: value[i] from t[i] to t[i + 1] (the last
 * until t_end of its tm_report_workload). */
typedef struct tm_report_series {
    const char *label; /* the policy (escaped) */
    int32_t n;
    const double *t;   /* seconds since the start of the trace, ascending */
    const double *value;
} tm_report_series;

typedef struct tm_report_workload {
    const char *title, *subtitle;  /* escaped */
    const tm_report_job *jobs;     /* table rows */
    int32_t n_jobs;
    /* The fabric (skipped when net is NULL): per directed link the jobs'
     * total load, the job (index into jobs) with the largest load on it
     * (-1: none) and how many jobs load it; hosts of the jobs in jobs. */
    const tm_net *net;
    const double *link_load;
    const int32_t *link_job;
    const int32_t *link_n_jobs;
    /* A replay: per policy (series label) the slowdowns of its jobs
     * (n_policies slowdown arrays) and, over time, the fabric's max
     * congestion and the busy nodes. */
    int32_t n_policies;
    const char *const *policies;
    const double *const *slowdowns;
    const int32_t *n_slowdowns;
    const tm_report_series *congestion; /* n_policies series */
    const tm_report_series *busy;       /* one series (NULL: none) */
    double t_end;
    int32_t max_vertices, max_cables;   /* as in tm_report; 0: defaults */
} tm_report_workload;

/* Writes the page to path atomically; igraph layouts, one thread at a
 * time (as tm_report_write_html). */
TM_API tm_err tm_report_write_workload(tm_ctx *ctx, const tm_report_workload *r, const char *path);

#ifdef __cplusplus
}
#endif
#endif
