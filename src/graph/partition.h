/* partition.h - graph partitioning with METIS for every strategy (not
 * installed).  partition.c owns the conversion of a tm__sgraph to METIS's
 * arrays and the call, which always goes through tm__metis_call
 * (metis_pool.h: METIS re-seeds the process-wide rand() stream and swaps
 * signal handlers, so concurrent calls are isolated there).  On top of it
 * two balance contracts, because METIS only promises its (1+eps)
 * imbalance approximately:
 *   - tm__metis_part (part_exact.c): k blocks of exact sizes, for the
 *     network-mode strategies (multicore hosts, Sec. 3.4 of Hoefler & Snir,
 *     and the weighted bisections of `recursive`);
 *   - tm__metis_part_caps (part_caps.c): blocks under hard weight caps, for
 *     the QAP multisection strategies (Top-Down needs exactly a_i PEs'
 *     worth per block, general mapping the adaptive caps of SharedMap). */
#ifndef TM_GRAPH_PARTITION_H
#define TM_GRAPH_PARTITION_H

#include <stdbool.h>
#include <stdint.h>

#include <metis.h>

#include "sgraph.h"

/* How double weights become METIS's integers.  Both keep integral
 * weights exact while their total is small and scale otherwise (minimum
 * 1); they differ in the limit, and since the integers change METIS's
 * partitions each contract keeps the policy it always had. */
typedef enum {
    /* exact if integral and total <= 5e8, else scaled to a total of 5e8 */
    TM__METIS_W_TOTAL_5E8,
    /* exact if integral and total <= 2^28, else scaled to a total of
     * 2^28, at most x1000 for non-integral weights */
    TM__METIS_W_TOTAL_2P28,
} tm__metis_wpolicy;

typedef struct tm__metis_in {
    bool recursive;        /* recursive bisection, else k-way */
    tm__metis_wpolicy wpolicy; /* for the edge weights */
    idx_t *vwgt;           /* vertex weights or NULL (unit) */
    idx_t nparts;
    real_t *tpwgts;        /* nparts target fractions */
    uint64_t seed;
    int ufactor;           /* METIS_OPTION_UFACTOR, or -1: METIS's default */
    int ncuts;             /* METIS_OPTION_NCUTS, or -1: METIS's default */
} tm__metis_in;

/* Converts w[0..m) to METIS integers under policy p. */
void tm__metis_weights(const double *w, int64_t m, tm__metis_wpolicy p, idx_t *out);
/* Partitions g (g->n >= 1) with METIS into part[0..g->n).  TM_EOK with
 * *rc = METIS's return code, which the caller judges (METIS_OK or an
 * error it may work around); TM_ENOMEM on a failed allocation here or
 * METIS_ERROR_MEMORY; TM_EINFEASIBLE when g is too large for idx_t. */
tm_err tm__metis_graph(tm_ctx *ctx, const tm__sgraph *g, const tm__metis_in *in, idx_t *part,
                       int *rc);

/* Partitions g into k blocks with exact sizes target[0..k-1] (sum = g->n):
 * METIS k-way (or recursive bisection for k == 2), then METIS's (1+eps)
 * imbalance is corrected by moving the vertices of least cumulative edge
 * weight from over-full to under-full blocks.  vwgt may be NULL (unit
 * weights; then sizes are exact); with vwgt the targets are weights and
 * no correction is made.  Edge weights: TM__METIS_W_TOTAL_5E8. */
tm_err tm__metis_part(tm_ctx *ctx, const tm__sgraph *g, const int32_t *vwgt, int32_t k,
                      const int64_t *target, uint64_t seed, int32_t *part);

/* Partitions g (vertex weights g->vw required) into nparts blocks with
 * block j's weight at most cap[j]: METIS recursive bisection with ncuts
 * tries, then a greedy correction that moves the best-gain vertices out
 * of overloaded blocks (first-fit decreasing when single moves cannot).
 * TM_EINFEASIBLE when the caps cannot be met.  Weights:
 * TM__METIS_W_TOTAL_2P28. */
tm_err tm__metis_part_caps(tm_ctx *ctx, const tm__sgraph *g, int32_t nparts, const double *cap,
                           int ncuts, uint64_t seed, int32_t *part);

/* The least weighted cut of g (at most 20 vertices, unit tasks) with
 * exactly c0 vertices in block 0 (part[i] = 0) and the rest in block 1,
 * over every such subset (ties: the lowest bit mask).  Cheaper than a
 * METIS call up to about 12 vertices (at most 924 subsets), and exact. */
void tm__bisect_exact(const tm__sgraph *g, int32_t c0, int32_t *part);

#endif
