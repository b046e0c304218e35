/* netmap.h - internals shared by the network-mode strategies (greedy,
 * recursive, rcm), the multicore partitioning step and the `all` pipeline:
 * the "placement problem" a strategy core solves (unit vertices onto
 * allocated hosts with capacities).  The task graph (src/graph/sgraph.h,
 * without vertex weights, positive volumes only), the METIS partitioning
 * (src/graph/partition.h) and the heap (src/graph/heap.h) are src/graph's. */
#ifndef TM_NETMAP_H
#define TM_NETMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "topomap/map.h"
#include "topomap/net.h"
#include "../graph/heap.h"      /* tm__pq */
#include "../graph/partition.h" /* tm__metis_part */
#include "../graph/sgraph.h"    /* tm__sgraph */

/* What a strategy core solves: place the n unit vertices of g onto the
 * nh allocated hosts, at most cap[i] on host i (sum cap >= g->n).  place[v]
 * receives the allocation index (0..nh-1). */
typedef struct tm__placeprob {
    const tm_net_csr *net;
    int32_t nh;
    const int32_t *host; /* net vertex of allocation index i */
    const int32_t *cap;  /* capacity of allocation index i */
    const tm__sgraph *g;
} tm__placeprob;

typedef tm_err (*tm__core_fn)(tm_ctx *ctx, const tm__placeprob *pp, uint64_t seed,
                              int32_t *place);

/* Runs a core on a network-mode problem: checks feasibility, partitions G
 * into one block per host when hosts have several (equal) slots, maps the
 * quotient graph, then orders tasks inside each host. */
tm_err tm__map_network(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm__core_fn core,
                       tm_mapping *out);

/* Cores (greedy.c, recursive.c, rcm.c).  greedy's start host is
 * start % nh when start >= 0, otherwise derived from the seed. */
tm_err tm__greedy_core(tm_ctx *ctx, const tm__placeprob *pp, uint64_t seed, int32_t *place);
tm_err tm__greedy_core_from(tm_ctx *ctx, const tm__placeprob *pp, int64_t start, int32_t *place);
/* Tests: greedy from start with every free-host search checked against a
 * plain Dijkstra (TM_EINTERNAL when the two disagree). */
tm_err tm__greedy_core_checked(tm_ctx *ctx, const tm__placeprob *pp, int64_t start,
                               int32_t *place);
tm_err tm__recursive_core(tm_ctx *ctx, const tm__placeprob *pp, uint64_t seed, int32_t *place);
tm_err tm__rcm_core(tm_ctx *ctx, const tm__placeprob *pp, uint64_t seed, int32_t *place);

/* RCM order of a graph given as CSR (rcm.c). Only vertices with
 * expand[v] != 0 (or NULL: all) are expanded beyond; order receives all n
 * vertices. */
tm_err tm__rcm_order(tm_ctx *ctx, int32_t n, const int64_t *xadj, const int32_t *adj,
                     const uint8_t *expand, int32_t *order);

/* Hop distances from nl landmarks (farthest-point sampling among the
 * candidate vertices, starting at cand[0]) to every candidate:
 * out[l * ncand + i] (landmarks.c). */
tm_err tm__landmarks(tm_ctx *ctx, const tm_net_csr *g, const int32_t *cand, int32_t ncand,
                     int32_t nl, float *out);

#endif
