/* wl_int.h - internals of the workload folder (never installed): the
 * jobs file's ISO 8601 times, and the per-job evaluation engine shared by
 * eval, alloc and replay. */
#ifndef TM_WL_INT_H
#define TM_WL_INT_H

#include "topomap/workload.h"

/* "2024-03-05T10:22:13" (sacct's default format), optionally with a
 * fraction of a second and a zone ("Z", "+01:00", "-0530"): seconds since
 * 1970-01-01 of the time as written, minus the zone's offset.  0 on
 * success, -1 if s is not such a time (or a date that does not exist). */
int tm__iso_time(const char *s, double *out);

/* ---- the evaluation engine (engine.c) -------------------------------------
 * An instance is a job placed on hosts: its matrix, its mapping, its
 * sparse link loads and its figures alone.  eval, alloc and replay make
 * instances and evaluate sets of them. */
typedef struct wl_inst {
    tm_comm comm;
    tm_mapping map;
    int32_t n_loads;
    int32_t *load_link; /* links it loads, ascending */
    double *load_bytes;
    tm_metrics alone;   /* without link loads */
    bool have_alone, have_loads;
} wl_inst;

void wl_inst_init(wl_inst *x);
void wl_inst_release(wl_inst *x);
/* Job j of w on hosts (NULL: its own, else as many as it has, tasks[k]
 * on host k): its matrix and mapping. */
tm_err wl_inst_job(tm_ctx *ctx, const tm_workload *w, int32_t j, const int32_t *hosts,
                   wl_inst *x);
/* A job of n_hosts hosts with tasks[k] tasks on host k and matrix comm
 * (copied). */
tm_err wl_inst_make(tm_ctx *ctx, const tm_comm *comm, int32_t n_hosts, const int32_t *hosts,
                    const int32_t *tasks, wl_inst *x);
/* Its loads, and with alone its figures alone (one evaluation); scratch:
 * n_links zeros, zeros again on return. */
tm_err wl_inst_eval(tm_ctx *ctx, const tm_route *route, const tm_time_opts *topt, bool alone,
                    double *scratch, wl_inst *x);

/* The set's evaluation: rows for the members with row[i] (NULL: all), the
 * fabric figures of the whole set; member i is reported as ids[i]
 * (neighbours ascending by id, group = the lowest id of its group).
 * Every member needs its loads, every row member its figures alone. */
tm_err wl_set_eval(tm_ctx *ctx, const tm_route *route, const tm_time_opts *topt,
                   wl_inst *const *set, const int32_t *ids, int32_t n, const bool *row,
                   int32_t max_shared, bool keep_link_loads, tm_workload_result *out);

#endif
