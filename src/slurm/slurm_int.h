/* slurm_int.h - the switch tree shared by the Slurm topology writers
 * (swtree.c: the relations; swtree_build.c: levels and children;
 * swtree_order.c: line order and the top switch; conf_write.c: the files;
 * never installed).  Calls go one way: conf_write -> block_write ->
 * swtree_order, swtree_build -> swtree; names from every writer. */
#ifndef TM_SLURM_INT_H
#define TM_SLURM_INT_H

#include "topomap/slurm.h"

/* A line of the file is an item: a switch v (0 <= v < n), the virtual
 * leaf holding the hosts of switch v (n + v), or the virtual root (2n). */
typedef struct tm__slurm_tree {
    int32_t n;                  /* vertices of the net */
    int32_t *level;             /* per vertex: hops from the nearest switch with hosts, -1 hosts
                                 * and switches that reach no host */
    int32_t *depth;             /* per level-0 switch: BFS depth below the root of its group of
                                 * cabled switches with hosts (0: root or alone), else -1 */
    int32_t *slevel;            /* per written switch: the level Slurm gives its line, else -1 */
    char **vname;               /* per vertex: name of its virtual leaf, NULL = none */
    char *root_name;            /* the virtual root's name, NULL = none */
    bool *listed;               /* with a root, per vertex: some other line lists it */
    int32_t *order;             /* the n_items lines, in file order */
    int32_t n_items;
    int32_t n_switches;         /* real switches written */
    int32_t n_levels;           /* Slurm levels of the file */
    int32_t leaves;             /* lines with Nodes= (virtual leaves included) */
    int32_t virtual_leaves;
    int32_t hosts;              /* hosts cabled to a switch */
    int32_t hosts_off_switch;   /* hosts cabled to no switch (not written) */
    int32_t unreached_switches; /* switches that reach no host (not written) */
    bool spanning;              /* the file's first top-level line reaches every host */
} tm__slurm_tree;

/* The tree of a finalized net, levels and virtual leaves (rules in
 * swtree_build.c; the line order is tm__slurm_tree_top's).
 * TM_EINFEASIBLE when the net has no switches or no switch is cabled to
 * a host. */
tm_err tm__slurm_tree_build(tm_ctx *ctx, const tm_net *net, tm__slurm_tree *t);
void tm__slurm_tree_release(tm__slurm_tree *t);
/* Whether neighbour v of written switch parent is listed on its line
 * (hosts of a switch with a virtual leaf are listed on that leaf). */
bool tm__slurm_is_child(const tm_net *net, const tm__slurm_tree *t, int32_t parent, int32_t v);
/* Whether h is a host listed below switch s: its home switch, the cabled
 * switch of lowest id (a multi-rail host is listed once, on the leaf of
 * its first rail: Slurm warns "Multiple leaf switches contain nodes"). */
bool tm__slurm_home(const tm_net *net, int32_t s, int32_t h);
/* Orders the lines of a built tree (swtree_order.c): by Slurm level, a switch that reaches
 * every host first among the top ones; without one, on a connected
 * fabric, a virtual root above the switches no line lists. */
tm_err tm__slurm_tree_top(tm_ctx *ctx, const tm_net *net, tm__slurm_tree *t);

/* names.c: TM_EINFEASIBLE for a name of vertex v that Slurm's parsers
 * would split or cut; a YAML scalar, quoted when YAML would read it as
 * something other than a string. */
tm_err tm__slurm_check_name(tm_ctx *ctx, const tm_net *net, int32_t v);
void tm__slurm_yaml_scalar(FILE *out, const char *s);

/* block_write.c: the blocks of a built and ordered tree at a level (0: the
 * leaf lines; L: the hosts below each switch of Slurm level L), disjoint,
 * in the order of a walk from the top; TM_EINFEASIBLE when the level's
 * switches hold overlapping sets of hosts. */
typedef struct tm__slurm_blocks {
    int32_t n;
    char **name;        /* not owned */
    char **hosts;       /* per block: its hosts, hostlist-compressed (owned) */
    int32_t *count;     /* per block: its hosts */
    int32_t level;
    int32_t uncovered;  /* hosts in no block */
    int32_t *sizes;     /* BlockSizes */
    int32_t n_sizes;
} tm__slurm_blocks;
tm_err tm__slurm_blocks_of(tm_ctx *ctx, const tm_net *net, const tm__slurm_tree *t,
                           const tm_slurm_opts *o, int32_t level, tm__slurm_blocks *b);
void tm__slurm_blocks_release(tm__slurm_blocks *b);
/* The blocks as topology.conf lines, or as a topology.yaml block: section. */
void tm__slurm_blocks_write(FILE *out, const tm__slurm_blocks *b, bool yaml);

#endif
