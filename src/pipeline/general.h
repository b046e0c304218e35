/* general.h - general process mapping in network mode (general.c): more
 * tasks than slots, by partition, one-to-one mapping of the quotient and
 * expansion.  Internal. */
#ifndef TM_MAP_GENERAL_H
#define TM_MAP_GENERAL_H

#include "topomap/comm.h"
#include "topomap/map.h"

typedef struct tm__general {
    int32_t n_blocks;   /* = the allocation's slots */
    int32_t *block;     /* task -> block */
    tm_comm q;          /* quotient: one task per block, vwgt = block weights */
    double bound;       /* cap on a block's weight */
    double weight_max;  /* heaviest block */
} tm__general;

/* Partitions p->comm into as many blocks as p->alloc has slots, each of
 * weight at most ceil((1 + p->imbalance) W / S), and builds the quotient. */
tm_err tm__general_build(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm__general *gm);
void tm__general_release(tm__general *gm);
/* Task u -> the host and slot of block u in bm (a mapping of the quotient). */
tm_err tm__general_expand(tm_ctx *ctx, const tm__general *gm, const tm_mapping *bm, int32_t n,
                          tm_mapping *out);
#endif
