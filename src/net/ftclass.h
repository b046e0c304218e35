/*
 * ftclass.h - the classes of regular fat-trees, in which ECMP is a per-level
 * even split (internal; OpenSM's Up/Down routing is src/route/updn.c).
 *
 * The structure is the network's (src/net/: netdist takes its levels from
 * it); the ECMP router detects it once per router (tm__route_ftclass,
 * src/route/) and the exact evaluation sums class totals over it.
 *
 * Under ECMP (traffic split evenly over all minimum-hop paths) the exact
 * evaluation routes one shortest-path DAG per source switch.  On a
 * fat-tree with destinations everywhere each DAG covers the whole network:
 * 4,096 sweeps of 600,000 links on a 65,536-host tree, hours on a
 * 262,144-host one.  On the trees described below the same loads follow
 * from class totals, in O(messages x levels + links):
 *
 * Levels: hosts 0; switches 1 + their hop distance to the nearest switch
 * with hosts (the leaves); every switch cable joins adjacent levels; every
 * host is a stub (not transit, all cables to one leaf), every switch is
 * transit.  Classes: at level 1 each leaf is its own class; at level l+1
 * the switches are grouped by the level-l classes below them (union-find),
 * and A(c) is the set of level-l switches of class c.  The tree qualifies
 * when, at every level:
 *   (laminar) every switch of level l+1 has children in every level-l class
 *             of its group, so all leaves of a class have exactly A(c) as
 *             their ancestors at level l;
 *   (regular) the switches of A(c) all have the same number u(c) of up
 *             links, and every switch of the parent group has the same
 *             number of links down into A(c).
 * Then between leaves s and d whose classes first meet at level L, the
 * minimum-hop paths are exactly the up-then-down paths through A(L), each
 * leaf reaches every switch of A(l) by equally many up-paths, and so ECMP
 * sends the same share, 1 / (|A(c)| u(c)), of every flow that leaves class
 * c upward over each up link of A(c), and of every flow that enters c over
 * each link down into A(c) (docs/performance.md derives it).  Every k-ary
 * n-tree, XGFT and Clos built by the generators qualifies, with tapered
 * capacities too (loads do not depend on capacities); a fabric with a
 * missing or extra cable usually does not, and keeps the DAG evaluation.
 */
#ifndef TM_NET_FTCLASS_H
#define TM_NET_FTCLASS_H

#include <stdint.h>

#include "topomap/net.h"

typedef struct tm__ftclass {
    int n_lev;          /* switch levels 1 .. n_lev */
    int32_t n_leaf;
    int32_t *level;     /* per vertex: 0 host, 1.. switch */
    int32_t *leaf_of;   /* per vertex: leaf index of a leaf switch, else -1 */
    /* cls[(l - 1) * n_leaf + i]: class (global id) of leaf i at level l */
    int32_t *cls;
    int32_t *vcls;      /* per switch vertex: its class at its own level, else -1 */
    int32_t n_cls;
    double *den;        /* per class: |A(c)| u(c), the links up out of A(c) (0 at the top) */
} tm__ftclass;

/* The structure of g if it qualifies (*out NULL if not); TM_ENOMEM only. */
tm_err tm__ftclass_detect(tm_ctx *ctx, const tm_net_csr *g, tm__ftclass **out);
void tm__ftclass_free(tm__ftclass *u);
/* Level at which the classes of leaves a and b first meet (1 when a == b). */
static inline int tm__ftclass_meet(const tm__ftclass *u, int32_t a, int32_t b)
{
    int l = 1;
    while (l < u->n_lev && u->cls[(size_t)(l - 1) * (size_t)u->n_leaf + (size_t)a] !=
                               u->cls[(size_t)(l - 1) * (size_t)u->n_leaf + (size_t)b])
        l++;
    return l;
}

#endif
