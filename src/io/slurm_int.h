/* slurm_int.h - the switch tree shared by the Slurm topology writers
 * (slurm_tree.c, slurm_write.c; never installed). */
#ifndef TM_SLURM_INT_H
#define TM_SLURM_INT_H

#include "topomap/io.h"

typedef struct tm__slurm_tree {
    int32_t n;                  /* vertices of the net */
    int32_t *level;             /* per vertex: switch level, -1 for hosts and unreached switches */
    int32_t *order;             /* the n_switches written switches, by level then id */
    int32_t n_switches;         /* switches with a level */
    int32_t n_levels;
    int32_t leaves;             /* level-0 switches */
    int32_t hosts;              /* hosts cabled to a switch */
    int32_t hosts_off_switch;   /* hosts cabled to no switch (not written) */
    int32_t unreached_switches; /* switches that reach no host (not written) */
} tm__slurm_tree;

/* Levels of a finalized net (rules in slurm_tree.c).  TM_EINFEASIBLE when
 * the net has no switches or no switch is cabled to a host. */
tm_err tm__slurm_tree_build(tm_ctx *ctx, const tm_net *net, tm__slurm_tree *t);
void tm__slurm_tree_release(tm__slurm_tree *t);
/* Whether neighbour v of switch parent is one of its children. */
bool tm__slurm_is_child(const tm_net *net, const tm__slurm_tree *t, int32_t parent, int32_t v);
/* *has_root: some switch has every leaf switch below it (1 also when the
 * check gave up on a huge fabric). */
tm_err tm__slurm_tree_has_root(tm_ctx *ctx, const tm_net *net, const tm__slurm_tree *t,
                               int *has_root);

#endif
