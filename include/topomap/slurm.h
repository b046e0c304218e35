/*
 * topomap/slurm.h - everything Slurm (docs/slurm.md): the topology files
 * Slurm's topology plugins read (topology.conf, topology.yaml: written
 * from a network and read back), the node choice of Slurm's topology/tree
 * plugin emulated, and the cluster's state (free nodes, running jobs) as
 * the controller reports it.  The code is in src/slurm/.
 */
#ifndef TOPOMAP_SLURM_H
#define TOPOMAP_SLURM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "topomap/error.h"
#include "topomap/export.h"
#include "topomap/net.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- topology files ---------------------------------------------------------- */

typedef struct tm_slurm_opts {
    bool yaml;            /* topology.yaml (tree form) instead of topology.conf */
    bool link_speed;      /* topology.conf: LinkSpeed= per switch line */
    const char *topology; /* topology.yaml: the topology's name (NULL: "default") */
} tm_slurm_opts;
#define TM_SLURM_OPTS_INIT {false, false, NULL}

/* Writes a finalized net for Slurm's topology/tree plugin: one
 * "SwitchName=S Nodes=<hosts>" line per switch cabled to hosts (level 0),
 * one "SwitchName=S Switches=<switches>" line per upper switch, listing
 * its neighbours one level down (level = switch hops to the nearest switch
 * with hosts); names hostlist-compressed.  Or the same tree as
 * topology.yaml.  TM_EINFEASIBLE for a net without switches (Slurm's tree
 * needs them) or with names Slurm cannot read.  docs/slurm.md. */
TM_API tm_err tm_slurm_topology_write(tm_ctx *ctx, const tm_net *net, const tm_slurm_opts *opts,
                                      FILE *out);

/* ---- Slurm's node choice, emulated (docs/workload.md "slurm-tree") -------
 * Slurm 22.05's select/cons_tres with the topology/tree plugin (the
 * version the tests run, Debian 12's slurmctld): the highest-level switch
 * that holds enough free nodes (the last such in topology.conf order),
 * then leaf switches one by one, best fit (the fewest free nodes that
 * still fit, else the most), nearest the leaves taken, nodes in Slurm's
 * order within a leaf.  Without switches (a torus), Slurm's choice
 * without a topology plugin: the smallest run of consecutive free nodes
 * that fits, else the largest runs.  Nodes are numbered in the natural
 * order of their names (node2 before node10: slurm.conf's order when it
 * lists sorted hostlists). */
typedef struct tm_slurm_tree tm_slurm_tree;
/* Slurm's tree from a topology.conf ("SwitchName=S Nodes=H" / "Switches=H"
 * lines): TM_EINPUT "name:line: ..." for what slurmctld refuses too; node
 * names the net lacks are warned about and ignored, as Slurm does. */
TM_API tm_err tm_slurm_tree_read(tm_ctx *ctx, const tm_net *net, FILE *in, const char *name,
                                 tm_slurm_tree **out);
/* The tree of topomap's own export of the net (tm_slurm_topology_write);
 * a net without switches gives a tree without switches (Slurm without a
 * topology plugin). */
TM_API tm_err tm_slurm_tree_from_net(tm_ctx *ctx, const tm_net *net, tm_slurm_tree **out);
TM_API void tm_slurm_tree_free(tm_slurm_tree *t);
/* Its switches (0: none). */
TM_API int32_t tm_slurm_tree_switches(const tm_slurm_tree *t);
/* The n nodes Slurm would give a job of n nodes among the free hosts
 * free[0..n_free), into out[0..n) in Slurm's node order.  TM_EINFEASIBLE
 * when Slurm would not start it (fewer free nodes, or no switch holding
 * n of them). */
TM_API tm_err tm_slurm_pick(tm_ctx *ctx, const tm_slurm_tree *t, const int32_t *free,
                            int32_t n_free, int32_t n, int32_t *out);

#ifdef __cplusplus
}
#endif
#endif
