/* qap_ptree.h - the PE tree of a network-mode problem: nested groups of
 * the allocation's slots that the Top-Down multisection splits the tasks
 * along (qap_netsection.c).  Not installed.
 *
 * The leaves are single PEs (slots, numbered as in tm__qnet); a host is
 * the node above its slots (with the node-internal levels in between when
 * the problem has them); above the hosts come the groups the network
 * defines: the levels detected by tm_net_levels_detect (leaf switches,
 * pods, dragonfly groups, PERCS drawers and supernodes), a recursive
 * coordinate bisection of the hosts on tori and meshes, or a recursive
 * halving of a breadth-first order of the hosts on anything else.  The
 * tree only guides the construction; J is always measured with the exact
 * distance oracle. */
#ifndef TM_QAP_PTREE_H
#define TM_QAP_PTREE_H

#include "qap_int.h"

typedef struct tm__ptree {
    int32_t n;       /* nodes */
    int32_t root;
    int32_t *kid0;   /* children of v: kids[kid0[v] .. kid0[v] + nkid[v]) */
    int32_t *nkid;
    int32_t *kids;
    int64_t *npe;    /* PEs below v */
    int32_t *pe;     /* leaves: the PE; internal nodes: a representative PE */
    int32_t *leaf0; /* leaves of v in depth-first order: leaves[leaf0[v] .. + nleaf[v]) */
    int32_t *nleaf;
    int32_t *leaves;
    char kind[24];   /* what the levels above the hosts came from */
} tm__ptree;

/* How the host groups are formed.  dimorder: for grids, the priority of
 * the dimensions when two have the same extent (a permutation of 0..ndims-1
 * packed as 4-bit fields, 0 = natural order): the "rotations" tried. */
typedef struct tm__ptree_opts {
    unsigned dimorder;
    bool force_bfs;  /* ignore the detected levels and the grid (tests) */
} tm__ptree_opts;

tm_err tm__ptree_build(tm_ctx *ctx, const tm_problem *p, const tm__qnet *q,
                       const tm__ptree_opts *opts, tm__ptree *t);
void tm__ptree_release(tm__ptree *t);
/* Number of dimension orders worth trying (1 when the net has no grid). */
int tm__ptree_n_orders(const tm_net *net);
unsigned tm__ptree_order(int ndims, int k);

#endif
