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

/* Which plugin's description: topology/tree (switches) or topology/block
 * (blocks of nodes; Slurm 23.11 and later, BlockSizes from 24.05). */
typedef enum { TM_SLURM_TREE = 0, TM_SLURM_BLOCK = 1 } tm_slurm_plugin;

typedef struct tm_slurm_opts {
    bool yaml;            /* topology.yaml instead of topology.conf */
    bool link_speed;      /* topology.conf, tree: LinkSpeed= per switch line */
    const char *topology; /* topology.yaml: the topology's name (NULL: "default") */
    tm_slurm_plugin plugin;        /* topology.conf / the one topology: tree or block */
    int32_t block_level;           /* block: blocks are the hosts below the switches of this
                                    * level of the tree (0: the leaf switches) */
    const int32_t *block_sizes;    /* block: BlockSizes in nodes (NULL: the base block, the
                                    * smallest block's hosts, and every power of two of it up
                                    * to all blocks) */
    int32_t n_block_sizes;
    /* topology.yaml with several topologies (Slurm 25.05 and later; a partition
     * chooses one with Topology= in slurm.conf): "NAME=tree", "NAME=block[:LEVEL]",
     * "NAME=flat", comma-separated, the first the cluster_default; NULL: one
     * topology as plugin says */
    const char *topologies;
} tm_slurm_opts;
#define TM_SLURM_OPTS_INIT {false, false, NULL, TM_SLURM_TREE, 0, NULL, 0, NULL}

/* Writes a finalized net for Slurm's topology plugins (docs/slurm.md).
 * topology/tree: one "SwitchName=S Nodes=<hosts>" line per switch cabled to
 * hosts (level 0), one "SwitchName=S Switches=<switches>" line per upper
 * switch, listing its neighbours one level down (level = switch hops to the
 * nearest switch with hosts).  topology/block: one "BlockName=B
 * Nodes=<hosts>" line per block (the hosts below a leaf switch, or below a
 * switch of block_level; blocks near in the tree are written next to each
 * other, since Slurm joins neighbouring blocks into bigger ones) and
 * "BlockSizes=".  Names hostlist-compressed.  Or the same as topology.yaml,
 * with several topologies.  TM_EINFEASIBLE for a net without switches (both
 * plugins need them), names Slurm cannot read, or a level whose switches do
 * not split the hosts into disjoint blocks; TM_EUSAGE for bad options. */
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
/* Slurm's view from a topology file: topology.conf with "SwitchName=S
 * Nodes=H" / "Switches=H" lines (topology/tree) or "BlockName=B Nodes=H"
 * lines and BlockSizes= (topology/block), or topology.yaml (read when name
 * ends in .yaml or .yml, or the text starts with '-' or "---"): the
 * topology named topo (NULL: the first with cluster_default: true, else the
 * first), a tree, a block or a flat one (no plugin).  TM_EINPUT
 * "name:line: ..." for what slurmctld refuses too; node names the net
 * lacks are warned about and ignored, as Slurm does. */
TM_API tm_err tm_slurm_topology_read(tm_ctx *ctx, const tm_net *net, FILE *in, const char *name,
                                     const char *topo, tm_slurm_tree **out);
/* tm_slurm_topology_read of the default topology. */
TM_API tm_err tm_slurm_tree_read(tm_ctx *ctx, const tm_net *net, FILE *in, const char *name,
                                 tm_slurm_tree **out);
/* Slurm's view of topomap's own export of the net (tm_slurm_topology_write
 * with opts, NULL: the tree; YAML and several topologies ignored); a net
 * without switches gives one without switches (Slurm without a topology
 * plugin). */
TM_API tm_err tm_slurm_topology_from_net(tm_ctx *ctx, const tm_net *net,
                                         const tm_slurm_opts *opts, tm_slurm_tree **out);
/* tm_slurm_topology_from_net of the tree. */
TM_API tm_err tm_slurm_tree_from_net(tm_ctx *ctx, const tm_net *net, tm_slurm_tree **out);
TM_API void tm_slurm_tree_free(tm_slurm_tree *t);
/* Its switches (0: none), its blocks (0: none; topology/block). */
TM_API int32_t tm_slurm_tree_switches(const tm_slurm_tree *t);
TM_API int32_t tm_slurm_tree_blocks(const tm_slurm_tree *t);
/* The n nodes Slurm would give a job of n nodes among the free hosts
 * free[0..n_free), into out[0..n) in Slurm's node order: topology/tree as
 * above; topology/block as Slurm 25.11's eval_nodes_block (the same in
 * 26.05) chooses for a job that asks only for a node count (docs/slurm.md
 * "Slurm's node choice, emulated"); without either, Slurm's choice without
 * a topology plugin.  TM_EINFEASIBLE when Slurm would not start it (fewer
 * free nodes, or no switch or block holding n of them). */
TM_API tm_err tm_slurm_pick(tm_ctx *ctx, const tm_slurm_tree *t, const int32_t *free,
                            int32_t n_free, int32_t n, int32_t *out);

/* ---- the cluster's state (docs/slurm.md "Live state") ----------------------
 * The free nodes and the jobs as the controller reports them: `sinfo
 * --json` (Slurm 22.05; `scontrol --json show nodes` from 23.02 on, read
 * too), `squeue --json` and the job steps of `squeue -s -o %i|%A|%N`, read
 * from the controller itself (tm_slurm_state_query) or from saved copies in
 * a folder (tm_slurm_state_read_dir: nodes.json, jobs.json, steps.txt, as
 * tm_slurm_state_save writes them for the submit hook and for offline
 * what-ifs). */
typedef struct tm_slurm_node {
    char *name;
    char *state;       /* the base state and its flags, lower case, '+'-joined: "idle+drain" */
    bool free;         /* a new job may have it now: idle, and none of the flags drain, down,
                        * fail, maint, reserved, planned, completing, not_responding,
                        * powering_down, reboot_requested, reboot_issued */
    char *partitions;  /* comma-separated ("" when none) */
} tm_slurm_node;

typedef struct tm_slurm_job {
    char *id;            /* "123", "123_4" (array task), "123+1" (heterogeneous component) */
    char *state;         /* as reported, upper case: RUNNING, CONFIGURING, PENDING, ... */
    bool running;        /* RUNNING or CONFIGURING: it holds its nodes (and sends, or will) */
    char *nodes;         /* its nodes as a hostlist ("" when none) */
    int64_t tasks, tasks_per_node, cpus; /* as reported; 0 when not */
    int64_t step_tasks;  /* the largest TASKS of its numbered steps (123.0, ...); 0: none */
    char *step_nodes;    /* that step's nodes (NULL: no numbered step) */
    double start;        /* seconds since 1970-01-01 UTC; NAN when not started */
    char *comment, *partition, *cwd; /* "" when not reported */
    int32_t index;       /* its position in the jobs file's list (for messages) */
} tm_slurm_job;

typedef struct tm_slurm_state {
    int32_t n_nodes;
    tm_slurm_node *node;  /* as listed */
    int32_t n_jobs;
    tm_slurm_job *job;    /* as listed, every state */
    int32_t n_steps;      /* numbered step lines read */
    char *release;        /* Slurm's release from the JSON's meta ("22.05.8"), NULL if absent */
} tm_slurm_state;

/* An empty state; release frees it and leaves it empty (NULL allowed). */
TM_API void tm_slurm_state_init(tm_slurm_state *s);
TM_API void tm_slurm_state_release(tm_slurm_state *s);
/* Reads the three copies: the nodes (a JSON object with a "nodes" list:
 * sinfo --json of 22.05, scontrol --json show nodes of later releases),
 * the jobs (squeue --json: a "jobs" list) and, when steps is not NULL, the
 * steps (`squeue -s -o "%i|%A|%N"`: the header STEPID|TASKS|NODELIST, then
 * one step per line).  Numbers may be plain or as later releases write
 * them ({"set": true, "number": N}), a state a string or a list.  Errors:
 * TM_EINPUT "name:line: what is wrong" for JSON syntax and the steps,
 * "name: jobs[i]: what is wrong" for a member of the wrong type; *out is
 * left empty. */
TM_API tm_err tm_slurm_state_read(tm_ctx *ctx, FILE *nodes, const char *nodes_name, FILE *jobs,
                                  const char *jobs_name, FILE *steps, const char *steps_name,
                                  tm_slurm_state *out);
/* The same from dir/nodes.json, dir/jobs.json and dir/steps.txt (the
 * steps may be missing: no steps). */
TM_API tm_err tm_slurm_state_read_dir(tm_ctx *ctx, const char *dir, tm_slurm_state *out);
/* Runs the commands (sinfo or scontrol, squeue; SLURM_CONF and PATH from
 * the environment), each within timeout_s seconds, and reads their output.
 * TM_EIO naming the command and its first line on stderr when one fails or
 * times out. */
TM_API tm_err tm_slurm_state_query(tm_ctx *ctx, double timeout_s, tm_slurm_state *out);
/* Runs the commands as tm_slurm_state_query, checks that their output
 * reads, and writes it to dir/nodes.json, dir/jobs.json, dir/steps.txt,
 * each atomically (dir must exist); nothing is written when anything
 * fails.  The snapshot of the submit hook (contrib/slurm). */
TM_API tm_err tm_slurm_state_save(tm_ctx *ctx, const char *dir, double timeout_s);
/* The free nodes of st (tm_slurm_node.free) that are hosts of net, and
 * with partition (not NULL) only those of that partition: vertex ids in
 * *hosts (malloc'ed, *n of them, each once).  Nodes the net lacks are
 * left out. */
TM_API tm_err tm_slurm_free_hosts(tm_ctx *ctx, const tm_net *net, const tm_slurm_state *st,
                                  const char *partition, int32_t **hosts, int32_t *n);
/* The communication tag of a job's comment: the word after "topomap:"
 * (at the start, or after a blank or ','), up to the next blank or ','
 * ("topomap:ring:4MiB", "topomap:/home/u/app.mtx"); *len its length.
 * NULL when the comment has none. */
TM_API const char *tm_slurm_comm_tag(const char *comment, size_t *len);

#ifdef __cplusplus
}
#endif
#endif
