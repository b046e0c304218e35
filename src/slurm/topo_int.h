/* topo_int.h - the records of a Slurm topology file, as the readers of
 * topology.conf (tree_read.c) and topology.yaml (yaml_read.c) hand them to
 * the builders of Slurm's view (tree_read.c: switches; block_build.c:
 * blocks); never installed.  Calls go one way: topo_read -> yaml_read ->
 * tree_read -> block_build. */
#ifndef TM_TOPO_INT_H
#define TM_TOPO_INT_H

#include "sltree.h"

typedef struct tm__swline {
    char *name, *nodes, *switches; /* nodes or switches: hostlists, NULL when absent */
    long line;
} tm__swline;

typedef struct tm__blockline {
    char *name, *nodes;            /* nodes NULL when absent */
    long line;
} tm__blockline;

/* Every host of net in Slurm's node order (t->order, t->rank, t->n_nodes). */
tm_err tm__slurm_node_order(tm_ctx *ctx, const tm_net *net, tm_slurm_tree *t);
/* topology.conf (SwitchName= or BlockName= lines) into t, whose node
 * order is set: TM_EINPUT "name:line: ..." for what slurmctld refuses. */
tm_err tm__slurm_conf_read(tm_ctx *ctx, const tm_net *net, FILE *in, const char *name,
                           tm_slurm_tree *t);
/* The same from text (len bytes). */
tm_err tm__slurm_conf_text(tm_ctx *ctx, const tm_net *net, const char *text, size_t len,
                           const char *name, tm_slurm_tree *t);
/* Slurm's tree from its switch records (in file order). */
tm_err tm__slurm_tree_records(tm_ctx *ctx, const tm_net *net, const char *name,
                              tm__swline *sw, size_t n, tm_slurm_tree *t);
/* Slurm's blocks from its block records and BlockSizes (the comma list as
 * written, NULL when absent; sizes_line its line, 0 for YAML's). */
tm_err tm__slurm_blocks_records(tm_ctx *ctx, const tm_net *net, const char *name,
                                const tm__blockline *bl, size_t n, const char *sizes,
                                long sizes_line, tm_slurm_tree *t);
/* topology.yaml: the topology named topo (NULL: the first with
 * cluster_default: true, else the first) into t. */
tm_err tm__slurm_yaml_read(tm_ctx *ctx, const tm_net *net, const char *text, size_t len,
                           const char *name, const char *topo, tm_slurm_tree *t);

/* topology/block's choice of n nodes among the free ones (avail: ranks),
 * into chosen (per rank); TM_EINFEASIBLE when the job would stay pending
 * (block_pick.c). */
tm_err tm__slurm_block_pick(tm_ctx *ctx, const tm_slurm_tree *t, const uint64_t *avail, int32_t n,
                            uint8_t *chosen);

#endif
