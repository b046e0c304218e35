/* sltree.h - the interface of src/slurm/ to the folders above it: Slurm's
 * view of the fabric as its topology/tree or topology/block plugin builds
 * it (tree_read.c, block_build.c) and chooses nodes in it (tree_pick.c,
 * block_pick.c).  Higher folders read the node
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
    /* topology/block (block_build.c): the base blocks in file order */
    int32_t n_blocks;      /* 0: not a block topology */
    char **block_name;
    uint64_t *block_bits;  /* n_blocks node sets (ranks) */
    int32_t bblock_nodes;  /* the base block size in nodes (BlockSizes' first, else the
                            * node count of the first block with nodes) */
    uint32_t block_levels; /* bit l: aggregated blocks of 2^l base blocks are enforced */
    char *topology;        /* topology.yaml: the name of the topology read; NULL otherwise */
};

/* "node2" < "node10": digit runs compare as numbers, the rest byte by
 * byte (Slurm's node order when slurm.conf lists sorted hostlists). */
int tm__slurm_natural_cmp(const char *a, const char *b);

#endif
