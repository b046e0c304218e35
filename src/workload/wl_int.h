/* wl_int.h - internals of the workload folder (never installed): the
 * jobs file's ISO 8601 times, and the per-job evaluation engine shared by
 * eval, alloc and replay. */
#ifndef TM_WL_INT_H
#define TM_WL_INT_H

#include "topomap/workload.h"
#include "../slurm/sltree.h"

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
    tm_time_prep *prep; /* its messages for the time model (wl_inst_prep) */
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

/* Lists its messages for the time model once (x->prep). */
tm_err wl_inst_prep(tm_ctx *ctx, const tm_time_opts *topt, wl_inst *x);
/* The time model's view of it (prep, when made). */
tm_time_job wl_inst_time_job(const wl_inst *x);

/* The set's evaluation: rows for the members with row[i] (NULL: all), the
 * fabric figures of the whole set; member i is reported as ids[i]
 * (neighbours ascending by id, group = the lowest id of its group).
 * Every member needs its loads, every row member its figures alone. */
tm_err wl_set_eval(tm_ctx *ctx, const tm_route *route, const tm_time_opts *topt,
                   wl_inst *const *set, const int32_t *ids, int32_t n, const bool *row,
                   int32_t max_shared, bool keep_link_loads, tm_workload_result *out);

/* ---- the background of a node choice and the choice (pick.c) ---------------- */
typedef struct wl_bg {
    wl_inst *const *inst; /* the running jobs (with their loads) */
    int32_t n;
    double *B;            /* per link: their loads summed */
    int32_t *par;         /* union-find: jobs whose loads share a link (either way) */
    int32_t *owner;       /* per link: a job loading it or its reverse, -1 */
} wl_bg;
tm_err wl_bg_make(tm_ctx *ctx, int32_t n_links, wl_inst *const *inst, int32_t n, wl_bg *bg);
void wl_bg_release(wl_bg *bg);
/* The pick of n nodes (tasks[k] ranks on the k-th, Slurm's order) for a
 * job with matrix comm among the free hosts, with bg's traffic (NULL:
 * none, allowed without figures for slurm-tree and random); figures:
 * also its figures with bg (else only hosts and tasks are set). */
tm_err wl_pick(tm_ctx *ctx, const tm_route *route, const tm_time_opts *topt,
               const tm_slurm_tree *t, const wl_bg *bg, const tm_comm *comm, int32_t n,
               const int32_t *tasks, const int32_t *free_hosts, int32_t n_free,
               tm_pick_policy policy, uint64_t seed, bool figures, tm_pick *out);

#endif
