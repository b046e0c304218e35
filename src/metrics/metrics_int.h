/*
 * metrics_int.h - shared internals of the metrics folder (never installed):
 * the mapping grouped by host, the per-chunk partial sums, and the three
 * stages metrics.c strings together (group -> route -> summarise).
 */
#ifndef TM_METRICS_INT_H
#define TM_METRICS_INT_H

#include <stdint.h>

#include "topomap/metrics.h"

/* Tasks grouped by host: host h_i = hosts[i] (ascending vertex id) runs
 * tasks[off[i] .. off[i+1]), each run in increasing task order. */
typedef struct tm__bygroup {
    int32_t n_hosts;
    int32_t *hosts;
    int32_t *off;
    int32_t *tasks;
} tm__bygroup;

tm_err tm__group_by_host(tm_ctx *ctx, const tm_net *net, const tm_mapping *map,
                         tm__bygroup *out);
void tm__group_release(tm__bygroup *b);

/* Partial sums of one chunk of source hosts (reduced in chunk order). */
typedef struct tm__msum {
    int64_t messages;
    double total_volume;
    double inter_host_volume;
    double sum_w_hops;
    double j_node;       /* node-internal part of J (node_part() in metrics.c) */
    int32_t max_dilation;
} tm__msum;

/* Exact loads of every directed link under the router (exact.c), using
 * tm_ctx_threads(ctx) threads; bit-identical for any thread count. */
tm_err tm__metrics_exact(tm_ctx *ctx, const tm_route *route, const tm_comm *comm,
                         const tm_mapping *map, const tm_metrics_opts *opts,
                         const tm__bygroup *by, double *load, tm__msum *sum);

/* Exact loads under UGAL routing (ugal_eval.c): the whole matrix at once. */
tm_err tm__metrics_ugal(tm_ctx *ctx, const tm_route *route, const tm_comm *comm,
                        const tm_mapping *map, double *load, tm__msum *sum);

/* Hoefler & Snir 2011 Algorithm 3 (approx.c): sequential, one
 * congestion-aware minimum-hop path per message. */
tm_err tm__metrics_approx(tm_ctx *ctx, const tm_route *route, const tm_comm *comm,
                          const tm_mapping *map, double *load, tm__msum *sum);

#endif
