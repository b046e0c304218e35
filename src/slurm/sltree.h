/* sltree.h - the interface of src/slurm/ to the folders above it: Slurm's
 * view of the fabric as its topology/tree plugin builds it (tree_read.c)
 * and chooses nodes in it (tree_pick.c).  Higher folders read the node
 * order (order, rank) to list hosts as Slurm does. */
#ifndef TM_SLTREE_H
#define TM_SLTREE_H

#include "topomap/slurm.h"

struct tm_slurm_tree {
    int32_t n_sw;          /* switch records in topology.conf order; 0: no tree */
    char **name;
    int32_t *level;        /* 0 for leaves */
    int32_t *parent;       /* the last switch listing it as a child, else 0 */
    int32_t *adj_off, *adj; /* child links, both ways (CSR) */
    int32_t words;         /* 64-bit words of a node set */
    uint64_t *bits;        /* n_sw node sets (ranks) */
    int32_t n_nodes;       /* hosts of the net, in Slurm's node order: */
    int32_t *order;        /* rank -> net vertex */
    int32_t *rank;         /* net vertex -> rank, -1 for switches */
    int32_t nv;            /* vertices of the net */
};

/* "node2" < "node10": digit runs compare as numbers, the rest byte by
 * byte (Slurm's node order when slurm.conf lists sorted hostlists). */
int tm__slurm_natural_cmp(const char *a, const char *b);

#endif
