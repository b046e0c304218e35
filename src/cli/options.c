/* options.c - the one option table of `topo`, `eval`, `map` and `study`:
 * getopt_long's entries, the option lists of every --help and the value
 * checks of the options they share (--routing, --threads, --slots, the
 * inputs) all come from here, so a subcommand cannot accept a value
 * another refuses, and no option is missing from its --help (man pages
 * and shell completion are generated from --help). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

#define T CLI_TOPO
#define E CLI_EVAL
#define M CLI_MAP
#define S CLI_STUDY
#define SM CLI_STUDY_MERGE
#define W CLI_WEVAL
#define R CLI_WREPLAY
#define A CLI_ALLOC
#define WM CLI_WMERGE

/* In --help order.  An option whose value or meaning differs between
 * subcommands has one entry per meaning (disjoint masks).  Help: the first
 * line says what the option does; '\n' starts a continuation line. */
static const cli_opt table[] = {
    {"topology", OPT_TOPOLOGY, "T", T | E | M,
     "ibnetdiscover dump, .graphml, .xml spec or generator spec\n"
     "('topomap topo --help' lists the generators)"},
    {"topology", OPT_TOPOLOGY, "T", S,
     "file or generator spec (as for eval); repeat for several topologies"},
    {"node-name-map", OPT_NODEMAP, "F", T | E | M | S,
     "host names for the GUIDs of an ibnetdiscover dump (lines '0x<GUID>\n"
     "\"hostname\"'; without it a CA with no hostname is H-<GUID>)"},
    {"separate-hcas", OPT_SEPARATE_HCAS, NULL, T | E | M | S,
     "ibnetdiscover: one vertex per HCA (default: a host's HCAs are one)"},
    {"slots", OPT_SLOTS, "N", T | E | M,
     "slots (processes) per host, overriding the input (an ibnetdiscover\n"
     "dump knows no cores: 1 per host)"},
    {"slots", OPT_SLOTS, "N,..", S,
     "slots of every host, one scenario per value (default: as the\n"
     "topology says)"},
    {"hierarchy", OPT_HIERARCHY, "a1:..:ak", E | M,
     "hierarchy mode (no network): a1 PEs per lowest group, a2 of those\n"
     "groups per next level, ... (VieM's model, docs/qap.md)"},
    {"distances", OPT_DISTANCES, "d1:..:dk", E | M,
     "hierarchy mode: distance of two PEs whose lowest common level is i\n"
     "(numbers in [0, 1e12])"},
    {"comm", OPT_COMM, "G", E | M,
     "communication graph: METIS, .mtx, edge list, dense matrix, graphStats,\n"
     "mpiP or Scotch (docs/formats.md)"},
    {"comm", OPT_COMM, "G", S,
     "communication graph (as for eval); repeat for several applications"},
    {"comm-format", OPT_COMM_FORMAT, "F", E | M | S,
     "force the format of G: metis, mtx, edges, dense, graphstats, mpip,\n"
     "scotch"},
    {"alloc", OPT_ALLOC, "A", E | M | S,
     "hostlist expression (node[001-064]) or hostfile: the job's hosts in\n"
     "their order, the consecutive baseline; default: all hosts (eval with\n"
     "a mapping: the mapping's hosts in name order)"},
    {"mapping", OPT_MAPPING, "M", E,
     "Open MPI rankfile or plain mapping ('host [slot]' per line; hierarchy\n"
     "mode: one PE index per line); default: the consecutive placement"},
    {"strategy", OPT_STRATEGY, "S", M,
     "mapping strategy (listed below); 'all' (default) runs every strategy\n"
     "in parallel threads and keeps the best by --objective"},
    {"strategy", OPT_STRATEGY, "S,..", S,
     "map strategies (default: all; 'topomap map --help' lists them)"},
    {"refine", OPT_REFINE, "R", M,
     "refinement chain applied to every strategy run instead of the default\n"
     "pipeline (listed below); several joined by '+' run in order (e.g.\n"
     "ils:10+ta).  Default in network mode: 'auto', the pipeline of --effort\n"
     "(docs/mapping.md \"Effort and time\"); in hierarchy mode: none.  'none'\n"
     "keeps the construction"},
    {"refine", OPT_REFINE, "R", S,
     "refinement chain of every run instead of the default pipeline\n"
     "(default auto, as map; 'none' keeps the constructions)"},
    {"effort", OPT_EFFORT, "E", M | S,
     "work of the default pipeline, counted in iterations (the same mapping\n"
     "on every machine and thread count): 0 (constructions and a short probe\n"
     "of each), 1 (and one level of refinement of the best two), ... up to 12\n"
     "(each level doubles the kicks and refines one more row), or 'exhaustive'\n"
     "(every construction refined by " CLI_NET_PIPELINE "). Default: 3 up to\n"
     "128 tasks, 2 up to 256, else 1, and the levels stop once the answer is\n"
     "within 1% of the lower bounds. Up to 128 tasks the whole schedule runs\n"
     "2 or 4 times on renamings of the job (restarts); docs/mapping.md\n"
     "\"Effort and time\""},
    {"objective", OPT_OBJECTIVE, "O", M | S,
     "how 'all' picks the best: pareto (default: the non-dominated row\n"
     "nearest the ideal point, docs/mapping.md), or congestion, dilation,\n"
     "qap (lexicographic, the other figures break ties), or time (network\n"
     "mode: est_time_s under --routing first; a refinement predicted slower\n"
     "is undone, and the result is the consecutive placement unless predicted\n"
     "faster by more than the time model's error, 10%: docs/time.md\n"
     "\"Mapping for time\")"},
    /* --routing's models are listed from the library (cli_print_options) */
    {"routing", OPT_ROUTING, "R", E | M, "routing model (docs/routing.md), one of:"},
    {"routing", OPT_ROUTING, "R,..", S,
     "routing models, one scenario per value (computed routes), of:"},
    {"lmc-spread", OPT_LMC_SPREAD, NULL, E | M,
     "(lft) split each flow evenly over the destination's 2^LMC LIDs, as MPI\n"
     "libraries striping over path bits do; default: base LID only"},
    {"root", OPT_ROOT, "S[,S2..]", E | M,
     "(updn) the root switches; default: found by OpenSM's rule"},
    {"compare-routing", OPT_COMPARE_ROUTING, NULL, E,
     "also evaluate the mapping under ECMP and print both side by side\n"
     "(how optimistic the ECMP idealisation is for this routing)"},
    {"approx", OPT_APPROX, NULL, E,
     "congestion by Hoefler & Snir's Algorithm 3 (approximate)"},
    {"hwloc", OPT_HWLOC, "F", E | M,
     "node-internal levels of every host from an hwloc XML export: J then\n"
     "counts d_node within a host and d_top + C * hops between hosts"},
    {"node-hierarchy", OPT_NODE_HIERARCHY, "a:b:..", E | M,
     "the same levels as a spec instead of --hwloc (with --node-distances)"},
    {"node-distances", OPT_NODE_DISTANCES, "d1:d2:..", E | M,
     "distances of the --node-hierarchy levels (numbers in [0, 1e12])"},
    {"hop-distance", OPT_HOP_DISTANCE, "C", E | M,
     "J distance of one hop (default 1; 50 with a node hierarchy; <= 1e12)"},
    {"time-model", OPT_TIME_MODEL, "M", E | M | S,
     "the model of est_time_s (one exchange of the matrix, volumes in bytes,\n"
     "docs/time.md): smpi (default: SimGrid 3.32's SMPI factors) or fluid\n"
     "(plain max-min sharing)"},
    {"latency-per-hop", OPT_LATENCY_PER_HOP, "S", E | M | S,
     "latency of one link in seconds (default 5e-7)"},
    {"message-overhead", OPT_MESSAGE_OVERHEAD, "S", E | M | S,
     "seconds added once per message (default 0)"},
    {"host-bandwidth", OPT_HOST_BANDWIDTH, "G", E | M | S,
     "Gbit/s of a message between two tasks of one host (default 80)"},
    {"time-exact-max", OPT_TIME_EXACT, "N", E | M | S,
     "simulate up to N messages exactly, approximate above (default 4096)"},
    {"comm-phases", OPT_COMM_PHASES, "F", E | M | S,
     "the job's phases (FILE.phases of TOPOMAP_RECORD, docs/time.md):\n"
     "est_time_s = sum over phases of repeat x the time of the phase's\n"
     "matrix; mapping and the other figures use G (study: one --comm)"},
    {"imbalance", OPT_IMBALANCE, "EPS", M,
     "general process mapping (more tasks than PEs or slots): at most\n"
     "ceil((1+EPS) * weight / PEs) per PE (e.g. 0.03)"},
    {"scale-capacity", OPT_SCALE_CAPACITY, "L=F[,..]", S,
     "one capacity scenario: cables of level L get F times their capacity\n"
     "(level 1 = cables at the hosts, 2 = leaf uplinks, 3 = the next stage;\n"
     "'all' = every cable); repeat for several scenarios"},
    {"fail-links", OPT_FAIL_LINKS, "P%,..", S,
     "random failure scenarios: P% of the switch-switch cables (every cable\n"
     "of a direct network) fail, --seeds samples each"},
    {"seeds", OPT_SEEDS, "N", S,
     "samples per random failure (default 1); with N > 1 a mean and a worst\n"
     "row follow the samples"},
    {"fail-link", OPT_FAIL_LINK, "A:B,..", S,
     "one scenario: the cables between A and B (and C and D ...) fail"},
    {"fail-switch", OPT_FAIL_SWITCH, "S,..", S,
     "one scenario: every cable of switch S (and S2 ...) fails"},
    {"seed", OPT_SEED, "N", M, "seed of every randomised step (default 1)"},
    {"seed", OPT_SEED, "N", S, "seed of the failure samples and of the mapping (default 1)"},
    {"time-limit", OPT_TIME_LIMIT, "SEC", M,
     "a cap on the whole command, reading included: without --effort the\n"
     "levels go on until the answer stops improving or SEC; a longer SEC\n"
     "never gives a worse answer (the one option whose answer depends on\n"
     "the machine; docs/mapping.md \"Effort and time\")"},
    {"threads", OPT_THREADS, "N", E,
     "threads (default: all cores; the results do not depend on it)"},
    {"threads", OPT_THREADS, "N", M,
     "threads (default: all cores; without --time-limit the result does not\n"
     "depend on it)"},
    {"threads", OPT_THREADS, "N", S,
     "scenarios run in N threads (default: all cores; the results do not\n"
     "depend on it)"},
    {"export-loads", OPT_EXPORT_LOADS, "F", E, "write per-link loads: F.csv, F.graphml or F.dot"},
    {"format", OPT_FORMAT, "F", T,
     "export format: graphml, dot, ibnetdiscover, slurm, slurm-block,\n"
     "slurm-yaml, simgrid (below)"},
    {"format", OPT_FORMAT, "F", M,
     "openmpi (rankfile, default), mpich (Hydra machinefile), slurm\n"
     "(SLURM_HOSTFILE for --distribution=arbitrary), plain, smpi (SimGrid's\n"
     "smpirun -hostfile, full names; docs/time.md)"},
    {"hostnames", OPT_HOSTNAMES, "H", M,
     "full keeps domain names; short (default) cuts them"},
    {"out", OPT_OUT, "F", T | M, "output file, written atomically (default: stdout)"},
    {"out", OPT_OUT, "F", S, "write the rows to F.csv or F.json (atomically; may be repeated)"},
    {"block-level", OPT_BLOCK_LEVEL, "L", T,
     "slurm-block (and block topologies of slurm-yaml): blocks are the hosts\n"
     "below each switch of Slurm level L of the tree (default 0: the leaf\n"
     "switches); the switches of L must hold disjoint sets of hosts"},
    {"block-sizes", OPT_BLOCK_SIZES, "N[,N..]", T,
     "slurm-block: BlockSizes= in nodes, the base block first (default: the\n"
     "smallest block's hosts and each power of two of it up to every block)"},
    {"slurm-topologies", OPT_SLURM_TOPOLOGIES, "SPEC", T,
     "slurm-yaml: several topologies (Slurm 25.05 and later), NAME=tree,\n"
     "NAME=block[:LEVEL] or NAME=flat, comma-separated, the first the\n"
     "cluster_default (a partition takes another with Topology=NAME)"},
    {"link-speed", OPT_LINK_SPEED, NULL, T,
     "slurm: LinkSpeed= on each line (smallest capacity of the listed\n"
     "cables, whole Gbit/s; Slurm documents it as unused)"},
    {"routing", OPT_ROUTING, "R", T,
     "simgrid: the routes written, cable by cable (where the routing splits a\n"
     "pair, as ecmp does, one path drawn from its split; valiant and ugal are\n"
     "refused), one of:"},
    {"alloc", OPT_ALLOC, "A", T,
     "simgrid: routes between these hosts only (hostfile or hostlist)"},
    {"latency-per-hop", OPT_LATENCY_PER_HOP, "S", T,
     "simgrid: latency of every cable in seconds (default 5e-7, as the time\n"
     "model's)"},
    {"host-bandwidth", OPT_HOST_BANDWIDTH, "G", T,
     "simgrid: each host's loopback (ranks on one host) in Gbit/s (default 80,\n"
     "as the time model's)"},
    {"no-diameter", OPT_NO_DIAMETER, NULL, T, "skip the all-hosts BFS (large networks)"},
    {"json", OPT_JSON, NULL, T, "machine-readable output (info)"},
    {"json", OPT_JSON, NULL, E, "one JSON object (keys in docs/design.md)"},
    {"json", OPT_JSON, NULL, M, "print metrics as JSON on stdout (mapping only to --out)"},
    {"report", OPT_REPORT, "F.html", E,
     "one self-contained HTML page: the fabric with its links coloured by\n"
     "congestion (load / capacity) under this mapping, the job's hosts, the\n"
     "mapping against consecutive, the congestion histogram and CDF (exact\n"
     "evaluation; docs/report.md)"},
    {"report", OPT_REPORT, "F.html", M,
     "one self-contained HTML page: the fabric with its links coloured by\n"
     "congestion (load / capacity) under the chosen mapping, the job's\n"
     "hosts, every strategy row against consecutive, the congestion\n"
     "histogram and CDF (network mode; docs/report.md)"},
    {"report", OPT_REPORT, "F.html", S,
     "the rows as one self-contained HTML page: a bar chart of each\n"
     "scenario's consecutive placement and mapping, in grid order\n"
     "(docs/report.md)"},
    {"shard", OPT_SHARD, "K/N", S,
     "run only shard K of N (K = 0..N-1, as SLURM_ARRAY_TASK_ID) of the\n"
     "runs, balanced by estimated cost; --out then holds those runs' rows for\n"
     "'topomap study merge' (docs/study.md \"Shards\", docs/slurm.md)"},
    {"out", OPT_OUT, "F", SM,
     "write the merged rows to F.csv or F.json (atomically; may be repeated;\n"
     "F.json needs JSON shards): the unsharded study's file, byte for byte"},
    {"report", OPT_REPORT, "F.html", SM, "the merged rows as the study's HTML page"},
    {"quiet", OPT_QUIET, NULL, M, "no progress line (shown on stderr when it is a terminal)"},
    {"quiet", OPT_QUIET, NULL, S, "no progress bar (shown on stderr only when it is a terminal)"},
    {"help", OPT_HELP, NULL, T | E | M | S | SM, "this text"},
    /* ---- workload eval (W), workload replay (R), alloc (A): docs/workload.md */
    {"topology", OPT_TOPOLOGY, "T", W | R | A,
     "the fabric: ibnetdiscover dump, .graphml, .xml spec or generator spec"},
    {"node-name-map", OPT_NODEMAP, "F", W | R | A,
     "host names for the GUIDs of an ibnetdiscover dump"},
    {"separate-hcas", OPT_SEPARATE_HCAS, NULL, W | R | A,
     "ibnetdiscover: one vertex per HCA (default: a host's HCAs are one)"},
    {"slots", OPT_SLOTS, "N", W | R | A,
     "slots of every host: the tasks of a job no column gives a count"},
    {"jobs", OPT_JOBS, "F", W,
     "the jobs: JobID|NodeList|NTasksPerNode|Comm[|Start|End], '|'-separated\n"
     "with a header, as sacct -P prints it (also sacct -X -P -o\n"
     "JobID,NodeList,NTasks,Start,End output; docs/workload.md)"},
    {"jobs", OPT_JOBS, "F", A,
     "the running jobs (a jobs file): their traffic is the background"},
    {"trace", OPT_TRACE, "F", R, "the trace: a jobs file with Start and End columns"},
    {"default-comm", OPT_DEFAULT_COMM, "P", W | R | A,
     "Comm of a job without one: ring, alltoall, stencil3d (default), each\n"
     "with an optional :BYTES per message (default 1MiB), or a matrix file"},
    {"comm-format", OPT_COMM_FORMAT, "F", W | R | A,
     "force the format of the matrix files: metis, mtx, edges, dense,\n"
     "graphstats, mpip, scotch"},
    {"at", OPT_AT, "TIME", W | A,
     "only the jobs running at TIME (YYYY-MM-DDTHH:MM:SS; Start <= TIME < End)"},
    {"slurm", OPT_SLURM, NULL, W | A,
     "the running jobs (and, alloc, the free nodes) from the Slurm controller\n"
     "itself: sinfo/scontrol and squeue in JSON (SLURM_CONF from the environment)"},
    {"slurm-state", OPT_SLURM_STATE, "DIR", W | A,
     "the same from saved copies: DIR/nodes.json, jobs.json, steps.txt, as\n"
     "'topomap slurm snapshot DIR' writes them (docs/workload.md \"Live state\")"},
    {"slurm-state-max-age", OPT_SLURM_MAX_AGE, "S", A,
     "with --slurm-state: refuse (exit 2) a snapshot whose jobs.json is older\n"
     "than S seconds (the submit hook's guard against a stopped cron job)"},
    {"slurm-partition", OPT_SLURM_PARTITION, "P", A,
     "with --slurm or --slurm-state: only the free nodes of Slurm partition P"},
    {"free", OPT_FREE, "HOSTLIST", A,
     "the nodes to choose from (default: every host); those a running job of\n"
     "--jobs uses are left out"},
    {"exclude", OPT_EXCLUDE, "HOSTLIST", A,
     "nodes not to choose (the submit hook's picks since its snapshot)"},
    {"nodes", OPT_NODES, "N", A, "nodes of the new job (required)"},
    {"ppn", OPT_PPN, "N", A, "tasks per node (default: the nodes' slots)"},
    {"comm", OPT_COMM, "M", A,
     "the new job's communication: a matrix file (any format --comm of\n"
     "eval reads) or a pattern as --default-comm (default stencil3d)"},
    {"policy", OPT_POLICY, "P", A,
     "the pick printed: topomap (default: least predicted time with the\n"
     "running jobs' traffic), slurm-tree (Slurm 22.05's topology/tree best fit,\n"
     "emulated), slurm-block (Slurm 25.11's topology/block, emulated) or\n"
     "random; --json gives all four"},
    {"policy", OPT_POLICY, "P[,P2..]", R,
     "node-choice policies, each replayed on its own history: as-recorded\n"
     "(the trace's nodes), slurm-tree, random, topomap; 'all' (default)"},
    {"partition", OPT_PARTITION, "HOSTLIST", R,
     "the nodes the policies may choose (default: every host of the topology)"},
    {"slurm-topology", OPT_SLURM_TOPOLOGY, "F", R | A,
     "the topology.conf or topology.yaml slurm-tree (and, alloc, slurm-block)\n"
     "emulate (default: what 'topomap topo export --format slurm' (slurm-block)\n"
     "writes for the fabric)"},
    {"slurm-topology-name", OPT_SLURM_TOPOLOGY_NAME, "N", R | A,
     "the topology of --slurm-topology's topology.yaml to use (default: its\n"
     "cluster_default)"},
    {"seed", OPT_SEED, "N", R | A, "seed of the random policy (default 1)"},
    {"routing", OPT_ROUTING, "R", W | R | A, "routing model (docs/routing.md; not ugal), one of:"},
    {"lmc-spread", OPT_LMC_SPREAD, NULL, W | R | A,
     "(lft) split each flow over the destination's 2^LMC LIDs"},
    {"root", OPT_ROOT, "S[,S2..]", W | R | A, "(updn) the root switches"},
    {"time-model", OPT_TIME_MODEL, "M", W | R | A,
     "the model of est_time_s: smpi (default) or fluid (docs/time.md)"},
    {"latency-per-hop", OPT_LATENCY_PER_HOP, "S", W | R | A,
     "latency of one link in seconds (default 5e-7)"},
    {"message-overhead", OPT_MESSAGE_OVERHEAD, "S", W | R | A,
     "seconds added once per message (default 0)"},
    {"host-bandwidth", OPT_HOST_BANDWIDTH, "G", W | R | A,
     "Gbit/s of a message between two tasks of one host (default 80)"},
    {"time-exact-max", OPT_TIME_EXACT, "N", W | R | A,
     "simulate a group of interacting jobs exactly up to N messages in all,\n"
     "approximate above (default 4096)"},
    {"threads", OPT_THREADS, "N", W | R | A,
     "threads (default: all cores; the results do not depend on it)"},
    {"out", OPT_OUT, "F", W | R,
     "write one row per job to F.csv or F.json (atomically; may be repeated)"},
    {"report", OPT_REPORT, "F.html", W,
     "one self-contained HTML page: the fabric's links coloured by load and\n"
     "by job, every job alone and shared (docs/report.md)"},
    {"report", OPT_REPORT, "F.html", R,
     "one self-contained HTML page: the slowdowns of every policy and the\n"
     "fabric's load over time (docs/report.md)"},
    {"shard", OPT_SHARD, "K/N", W,
     "evaluate only shard K of N (K = 0..N-1, as SLURM_ARRAY_TASK_ID) of the\n"
     "jobs' rows, balanced by estimated cost, each with every job's traffic;\n"
     "--out then holds those rows for 'topomap workload merge'\n"
     "(docs/workload.md \"Shards\", docs/slurm.md)"},
    {"shard", OPT_SHARD, "K/N", R,
     "with --policy as-recorded: replay only shard K of N (K = 0..N-1) of the\n"
     "jobs' rows, a run of jobs in start order balanced by estimated cost;\n"
     "--out then holds those rows for 'topomap workload merge'"},
    {"json", OPT_JSON, NULL, W | R | A, "one JSON object on stdout (keys in docs/workload.md)"},
    {"out", OPT_OUT, "F", WM,
     "write the merged rows to F.csv or F.json (atomically; may be repeated;\n"
     "F.json needs JSON shards): the unsharded command's file, byte for byte"},
    {"json", OPT_JSON, NULL, WM, "the merged result as one JSON object on stdout (JSON shards)"},
    {"report", OPT_REPORT, "F.html", WM,
     "a replay's HTML page, as 'workload replay --report' writes it (JSON\n"
     "shards; an eval's page needs every link's load: not from shards)"},
    {"help", OPT_HELP, NULL, W | R | A | WM, "this text"},
    /* ---- slurm snapshot: docs/slurm.md "Live state" */
    {"timeout", OPT_TIMEOUT, "S", CLI_SLURM,
     "give up (exit 2, nothing written) when a command has not answered\n"
     "within S seconds (default 30)"},
    {"help", OPT_HELP, NULL, CLI_SLURM, "this text"},
};

#undef T
#undef E
#undef M
#undef S
#undef SM
#undef W
#undef R
#undef A
#undef WM

#define N_TABLE (sizeof table / sizeof *table)
#define HELP_COL 24 /* column of the descriptions */

/* What a routing model does, by kind (the names come from the library). */
static const char *const route_help[] = {
    [TM_ROUTE_ECMP] = "traffic split evenly over all minimum-hop paths (default)",
    [TM_ROUTE_SINGLE] = "one deterministic shortest path",
    [TM_ROUTE_DOR] = "dimension order (tori and meshes)",
    [TM_ROUTE_LFT] = "the fabric's forwarding tables in directory DIR: ibroute\n"
                     "files, dump_lfts.sh, opensm-lfts.dump, opensm.fdbs or\n"
                     "ibdiagnet2.fdbs dumps (an ibnetdiscover topology with LIDs)",
    [TM_ROUTE_FTREE] = "OpenSM's fat-tree routing (D-mod-k), emulated",
    [TM_ROUTE_MINHOP] = "OpenSM's min-hop routing, emulated",
    [TM_ROUTE_UPDN] = "OpenSM's up-down routing, emulated (--root: its roots)",
    [TM_ROUTE_VALIANT] = "dragonflies: every flow between groups split evenly over\n"
                         "all other groups (minimal paths to and from them)",
    [TM_ROUTE_UGAL] = "dragonflies: minimal or valiant per flow, whichever the\n"
                      "loads of the whole matrix make cheaper (UGAL-G)",
};

/* Every routing kind the library knows, in its order. */
static int n_route_kinds(void)
{
    int k = 0;
    while (tm_route_kind_parse(tm_route_kind_name((tm_route_kind)k)) == k)
        k++;
    return k;
}

/* A kind as a --routing value: lft takes its tables' directory. */
static void route_value(int kind, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s", tm_route_kind_name((tm_route_kind)kind),
             kind == TM_ROUTE_LFT ? ":DIR" : "");
}

/* The values --routing takes (tables: lft:DIR is one of them). */
static void route_values(bool tables, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int k = 0; k < n_route_kinds() && n < size; k++) {
        char v[32];
        if (k == TM_ROUTE_LFT && !tables)
            continue;
        route_value(k, v, sizeof v);
        n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", v);
    }
}

tm_err cli_parse_routing(const char *cmd, const char *v, bool tables, cli_routing *out)
{
    const char *lft = tm_route_kind_name(TM_ROUTE_LFT);
    size_t ll = strlen(lft);
    char names[160];
    int k;
    route_values(tables, names, sizeof names);
    if (strncmp(v, lft, ll) == 0 && (v[ll] == ':' || v[ll] == '\0')) {
        if (!tables)
            return cli_usage_error(cmd, "--routing '%s': forwarding tables are not a study "
                                        "routing (study computes the routes: %s)", v, names),
                   TM_EUSAGE;
        if (v[ll] == '\0' || v[ll + 1] == '\0')
            return cli_usage_error(cmd, "--routing %s needs the tables' directory: %s:DIR", lft,
                                   lft), TM_EUSAGE;
        out->kind = TM_ROUTE_LFT;
        out->lft_dir = v + ll + 1;
        return TM_EOK;
    }
    if ((k = tm_route_kind_parse(v)) < 0)
        return cli_usage_error(cmd, "unknown --routing '%s' (%s)", v, names), TM_EUSAGE;
    out->kind = (tm_route_kind)k;
    out->lft_dir = NULL;
    return TM_EOK;
}

tm_err cli_parse_threads(const char *cmd, const char *v, long *out)
{
    return cli_parse_int(cmd, "--threads", v, 0, TM_CTX_MAX_THREADS, out);
}

tm_err cli_parse_slots(const char *cmd, const char *v, long *out)
{
    return cli_parse_int(cmd, "--slots", v, 1, CLI_MAX_SLOTS, out);
}

/* The time model's options (bit i of time_set: the i-th of cli_time_opts);
 * as cli_input_option. */
static tm_err cli_time_option(const char *cmd, cli_inputs *in, int c, const char *arg)
{
    switch (c) {
    case OPT_LATENCY_PER_HOP:
        in->time_set |= 1u;
        return cli_parse_double(cmd, "--latency-per-hop", arg, 0, 1, &in->time_lat);
    case OPT_MESSAGE_OVERHEAD:
        in->time_set |= 2u;
        return cli_parse_double(cmd, "--message-overhead", arg, 0, 1, &in->time_overhead);
    case OPT_HOST_BANDWIDTH:
        in->time_set |= 4u;
        return cli_parse_double(cmd, "--host-bandwidth", arg, 1e-6, 1e9, &in->time_host_bw);
    case OPT_TIME_MODEL:
        if (strcmp(arg, "smpi") != 0 && strcmp(arg, "fluid") != 0)
            return cli_usage_error(cmd, "unknown --time-model '%s' (smpi, fluid)", arg),
                   TM_EUSAGE;
        in->time_set |= 8u;
        in->time_model = strcmp(arg, "fluid") == 0 ? TM_TIME_FLUID : TM_TIME_SMPI;
        return TM_EOK;
    case OPT_TIME_EXACT:
        in->time_set |= 16u;
        return cli_parse_int(cmd, "--time-exact-max", arg, 0, 1L << 40, &in->time_exact);
    default: return TM_EINTERNAL; /* not an input option */
    }
}

tm_err cli_input_option(const char *cmd, cli_inputs *in, int c, const char *arg)
{
    long v;
    switch (c) {
    case OPT_TOPOLOGY: in->topology = arg; return TM_EOK;
    case OPT_NODEMAP: in->node_name_map = arg; return TM_EOK;
    case OPT_SEPARATE_HCAS: in->separate_hcas = true; return TM_EOK;
    case OPT_SLOTS:
        if (cli_parse_slots(cmd, arg, &v))
            return TM_EUSAGE;
        in->slots = (int)v;
        return TM_EOK;
    case OPT_COMM: in->comm = arg; return TM_EOK;
    case OPT_COMM_PHASES: in->comm_phases = arg; return TM_EOK;
    case OPT_COMM_FORMAT:
        if (tm_comm_format_parse(arg) < 0)
            return cli_usage_error(cmd, "unknown --comm-format '%s' (metis, mtx, edges, dense, "
                                        "graphstats, mpip, scotch, auto)", arg), TM_EUSAGE;
        in->comm_format = arg;
        return TM_EOK;
    case OPT_ALLOC: in->alloc = arg; return TM_EOK;
    case OPT_ROUTING:
        if (cli_parse_routing(cmd, arg, true, &in->route))
            return TM_EUSAGE;
        in->routing = arg;
        return TM_EOK;
    case OPT_LMC_SPREAD: in->lmc_spread = true; return TM_EOK;
    case OPT_ROOT: in->roots = arg; return TM_EOK;
    case OPT_HIERARCHY: in->hierarchy = arg; return TM_EOK;
    case OPT_DISTANCES: in->distances = arg; return TM_EOK;
    case OPT_NODE_HIERARCHY: in->node_hierarchy = arg; return TM_EOK;
    case OPT_NODE_DISTANCES: in->node_distances = arg; return TM_EOK;
    case OPT_HWLOC: in->hwloc = arg; return TM_EOK;
    case OPT_HOP_DISTANCE:
        return cli_parse_double(cmd, "--hop-distance", arg, 1e-9, TM_HIER_MAX_DISTANCE,
                                &in->hop_distance);
    case OPT_THREADS: return cli_parse_threads(cmd, arg, &in->threads);
    default: return cli_time_option(cmd, in, c, arg);
    }
}

/* Prints text from column col, continuation lines (after '\n') too; the
 * cursor is at column `at` (a new line first if that leaves < 2 blanks). */
static void print_wrapped(FILE *out, const char *text, int col, int at)
{
    if (at > col - 2) {
        fputc('\n', out);
        at = 0;
    }
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        int len = nl ? (int)(nl - p) : (int)strlen(p);
        fprintf(out, "%*s%.*s\n", col > at ? col - at : 0, "", len, p);
        at = 0;
        p += len + (nl != NULL);
    }
}

static void print_routing_models(FILE *out, unsigned cmd)
{
    int nk = n_route_kinds();
    for (int k = 0; k < nk; k++) {
        char v[32];
        int at;
        if (k == TM_ROUTE_LFT && cmd == CLI_STUDY)
            continue;
        route_value(k, v, sizeof v);
        at = fprintf(out, "%*s%s", HELP_COL + 2, "", v);
        if (k < (int)(sizeof route_help / sizeof *route_help) && route_help[k])
            print_wrapped(out, route_help[k], HELP_COL + 12, at);
        else
            fputc('\n', out);
    }
}

void cli_print_options(FILE *out, unsigned cmd)
{
    for (size_t i = 0; i < N_TABLE; i++) {
        const cli_opt *o = &table[i];
        int at;
        if (!(o->cmds & cmd))
            continue;
        at = fprintf(out, "  --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        print_wrapped(out, o->help, HELP_COL, at);
        if (o->id == OPT_ROUTING)
            print_routing_models(out, cmd);
    }
}

const cli_opt *cli_options(size_t *n)
{
    *n = N_TABLE;
    return table;
}

/* '--hierarchy' given to study: say whose option it is rather than
 * "unknown".  True if printed. */
static bool other_command(const char *cmd, unsigned mask, const char *given)
{
    static const char *const names[] = {"topo",          "eval",          "map",
                                        "study",         "study merge",   "workload eval",
                                        "workload replay", "alloc",       "workload merge",
                                        "slurm snapshot"};
    char list[160] = "";
    size_t len, n = 0;
    unsigned whose = 0;
    if (strncmp(given, "--", 2) != 0)
        return false;
    given += 2;
    len = strcspn(given, "=");
    for (size_t i = 0; i < N_TABLE; i++)
        if (strlen(table[i].name) == len && strncmp(table[i].name, given, len) == 0)
            whose |= table[i].cmds;
    if (!whose || (whose & mask))
        return false;
    for (int b = 0; b < (int)(sizeof names / sizeof *names); b++)
        if (whose & (1u << b))
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", n ? ", " : "", names[b]);
    cli_usage_error(cmd, "'--%.*s' is not an option of '%s' (only of: %s)", (int)len, given, cmd,
                    list);
    return true;
}

bool cli_parse_options(const char *cmd, unsigned mask, int argc, char **argv, cli_option_fn fn,
                       void *ud, void (*usage)(FILE *), int *rc)
{
    int first = argc;
    if (!cli_parse_options_args(cmd, mask, argc, argv, fn, ud, usage, &first, rc))
        return false;
    if (first < argc) {
        *rc = cli_usage_error(cmd, "unexpected argument '%s'", argv[first]);
        return false;
    }
    return true;
}

bool cli_parse_options_args(const char *cmd, unsigned mask, int argc, char **argv,
                            cli_option_fn fn, void *ud, void (*usage)(FILE *), int *first,
                            int *rc)
{
    struct option opts[N_TABLE + 1];
    int n = 0, c;
    for (size_t i = 0; i < N_TABLE; i++)
        if (table[i].cmds & mask)
            opts[n++] = (struct option){table[i].name, table[i].arg ? required_argument : no_argument,
                                        NULL, table[i].id};
    opts[n] = (struct option){NULL, 0, NULL, 0};
    optind = 1;
    opterr = 0;
    *rc = TM_EXIT_USAGE;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        tm_err r;
        if (c == '?' && optind > 0 && other_command(cmd, mask, argv[optind - 1]))
            return false;
        if (c == '?' || c == ':') {
            *rc = cli_getopt_error(cmd, c, argv);
            return false;
        }
        if (c == OPT_HELP) {
            usage(stdout);
            *rc = TM_EXIT_OK;
            return false;
        }
        r = fn(ud, c, optarg);
        if (r == TM_EINTERNAL) /* an entry of the table the subcommand does not handle */
            *rc = cli_usage_error(cmd, "option '%s' is not handled (internal error)",
                                  argv[optind - 1]);
        if (r)
            return false;
    }
    *first = optind;
    *rc = TM_EXIT_OK;
    return true;
}
