/*
 * topomap/hier.h - a processing-element hierarchy a1:a2:...:ak with
 * distances d1:...:dk (VieM semantics, docs/design.md "QAP cost J"): PEs are
 * numbered 0..prod(a)-1 and distinct PEs p, q are at distance d_i for the
 * smallest i with p / (a1*...*ai) == q / (a1*...*ai).  Distances come from
 * an O(k) oracle; no PE x PE matrix exists anywhere.
 */
#ifndef TOPOMAP_HIER_H
#define TOPOMAP_HIER_H

#include <stdint.h>
#include <stdio.h>

#include "topomap/error.h"
#include "topomap/export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TM_HIER_MAX_LEVELS 16
/* Largest distance of a level (and of --hop-distance): with volumes up to
 * TM_COMM_MAX_VOLUME, every J stays finite (tm_hier_parse refuses more). */
#define TM_HIER_MAX_DISTANCE 1e12

typedef struct tm_hier {
    int k;                               /* levels */
    int32_t a[TM_HIER_MAX_LEVELS];       /* fan-out per level, bottom first */
    double d[TM_HIER_MAX_LEVELS];        /* distance per level */
    int64_t group[TM_HIER_MAX_LEVELS + 1]; /* group[i] = a1*...*ai, group[0] = 1 */
    int64_t n_pe;                        /* group[k] */
} tm_hier;

/* Parses "4:16:8" and "1:10:100".  Errors (TM_EINPUT): a zero or negative
 * level, a negative distance or one over TM_HIER_MAX_DISTANCE, a number of
 * distances different from the number of levels, a product over 2^31, more
 * than TM_HIER_MAX_LEVELS levels.  Non-increasing
 * distances are allowed (a warning is logged). */
TM_API tm_err tm_hier_parse(tm_ctx *ctx, const char *levels, const char *distances, tm_hier *out);

/* Node-internal hierarchy from an hwloc XML export (v1, 2.x, 3.0-dev):
 * PEs are the cores holding an allowed PU, in document order; levels are
 * the shared caches / dies / groups / NUMA nodes / packages that group
 * them, with default distances by type (docs/qap.md).  A restricted
 * export (allowed_cpuset smaller than the machine) uses the allowed PUs
 * and logs a warning.  Malformed XML, no cores, a non-uniform tree:
 * TM_EINPUT "name:line: ...". */
TM_API tm_err tm_hier_from_hwloc(tm_ctx *ctx, FILE *in, const char *name, tm_hier *out);

/* Distance between PEs p and q (0 if p == q). */
static inline double tm_hier_dist(const tm_hier *h, int64_t p, int64_t q)
{
    if (p == q)
        return 0.0;
    for (int i = 1; i <= h->k; i++)
        if (p / h->group[i] == q / h->group[i])
            return h->d[i - 1];
    return h->d[h->k - 1];
}

#ifdef __cplusplus
}
#endif
#endif
