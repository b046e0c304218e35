/*
 * topomap/levels.h - the nested groups of hosts that a network's structure
 * defines (hosts of one leaf switch, pods, dragonfly groups, PERCS drawers
 * and supernodes), detected from the graph alone.
 *
 * The mapping engine's top-down multisection splits the tasks among these
 * groups recursively.  Detection never looks at vertex names or at
 * generator metadata (real ibnetdiscover dumps have neither); the rules,
 * what `topo info` prints and the results on real fabrics are in
 * docs/hierarchy.md.
 *
 * Invariants of a detected hierarchy (tests/unit/test_levels.c checks them
 * on every generator and real dump):
 *  - every host has a group at every level, switches have -1;
 *  - levels are strictly nested: two hosts in one group at level l are in
 *    one group at every level above;
 *  - n_groups strictly decreases with l, n_groups[0] < hosts, and the last
 *    level has more than one group (the implicit top level, all hosts, is
 *    never stored; a level equal to the one below is dropped).
 */
#ifndef TOPOMAP_LEVELS_H
#define TOPOMAP_LEVELS_H

#include <stdint.h>

#include "topomap/error.h"
#include "topomap/export.h"
#include "topomap/net.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TM_NET_MAX_LEVELS 8

typedef struct tm_net_levels {
    /* "fat-tree" (trees, fat-trees, k-ary n-trees, Clos), "dragonfly",
     * "percs", "grid", "flat" (all hosts on one switch), "none" */
    char kind[24];
    /* nested grouping levels above single hosts, bottom first (the implicit
     * top = all hosts is not counted) */
    int n_levels;
    /* e.g. "leaf", "pod", "router", "group", "drawer", "supernode" */
    char name[TM_NET_MAX_LEVELS][16];
    int32_t n_groups[TM_NET_MAX_LEVELS];
    /* group[l][v] for every net vertex v: group id (0..n_groups[l]-1) of
     * host v at level l, -1 for switches.  Ids follow the lowest host id of
     * each group, so group 0 holds the first host. */
    int32_t *group[TM_NET_MAX_LEVELS];
    /* hops[l]: hop distance between two hosts whose lowest common level is
     * l (l = 0: same bottom group; l = n_levels: different top-level
     * groups) when it is uniform, else -1.  Informational: measured by BFS
     * from a few sampled hosts to all others, so a non-uniform distance may
     * go unnoticed; -1 also when no sampled pair has that common level. */
    double hops[TM_NET_MAX_LEVELS + 1];
} tm_net_levels;

/* Empty result (kind "none", no levels); safe to release. */
TM_API void tm_net_levels_init(tm_net_levels *l);
/* Frees the group arrays and re-initialises; NULL does nothing. */
TM_API void tm_net_levels_release(tm_net_levels *l);
/* Detects the hierarchy of a finalized network (TM_EUSAGE if it is not
 * finalized).  An unrecognised structure is not an error: kind "none",
 * 0 levels.  Time O(vertices + cables) for trees and fat-trees (plus a few
 * BFS for hops); *out is initialised first and left initialised on error. */
TM_API tm_err tm_net_levels_detect(tm_ctx *ctx, const tm_net *net, tm_net_levels *out);

#ifdef __cplusplus
}
#endif
#endif
