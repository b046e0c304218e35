/* mpi_int.h - internals of libtopomap_mpi (docs/mpi.md). */
#ifndef TOPOMAP_MPI_INT_H
#define TOPOMAP_MPI_INT_H

#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

#include "mpi_hosts.h"
/* Most ranks that map in a search across ranks (TOPOMAP_SEARCH). */
#define TM__MPI_MAX_SEARCH 64

/* Configuration from the environment of rank 0 (mpi_env.c). */
typedef struct tm__mpi_cfg {
    const char *topology;  /* TOPOMAP_TOPOLOGY: file or generator spec, NULL: none */
    const char *strategy;  /* TOPOMAP_STRATEGY (default "all"), may be a list "a,b" */
    bool strategy_given;   /* TOPOMAP_STRATEGY was set */
    const char *refine;    /* TOPOMAP_REFINE (default "auto", "none": none), may be a list */
    int effort;            /* TOPOMAP_EFFORT: auto's level, TM_EFFORT_AUTO by default */
    const char *node_hierarchy, *node_distances; /* TOPOMAP_NODE_HIERARCHY/_DISTANCES */
    const char *hwloc;     /* TOPOMAP_HWLOC: node hierarchy from an hwloc XML export */
    double time_limit;     /* TOPOMAP_TIME_LIMIT seconds, < 0: none */
    int threads;           /* TOPOMAP_THREADS (default 1: rank 0 shares its host) */
    long seed;             /* TOPOMAP_SEED (default 1) */
    const char *report;    /* TOPOMAP_REPORT: JSON file written by rank 0, or NULL */
    int search;            /* TOPOMAP_SEARCH: ranks that map (default 1: rank 0) */
    bool cores;            /* core-level placement asked for (a node hierarchy is given) */
} tm__mpi_cfg;

/* What one searcher runs (mpi_sched.c). */
typedef struct tm__mpi_run {
    char strategy[48];
    char refine[96];       /* "" : none */
    long seed;
} tm__mpi_run;

/* Searcher i of k: strategies cycle fastest (TOPOMAP_STRATEGY's list, or
 * when unset and k > 1 the network strategies of `all`), then the
 * refinements of TOPOMAP_REFINE's list, then the seed (TOPOMAP_SEED + the
 * number of completed cycles).  Depends on cfg, i and k only. */
void tm__mpi_schedule(const tm__mpi_cfg *cfg, int i, int k, tm__mpi_run *run);
/* Rank 0's cfg as bytes (malloc'ed, NULL when out of memory), and back:
 * the unpacked strings point into b. */
char *tm__mpi_cfg_pack(const tm__mpi_cfg *cfg, size_t *len);
void tm__mpi_cfg_unpack(char *b, tm__mpi_cfg *cfg);

/* What rank 0 decided, known to every rank (mpi_env.c). */
typedef enum { TM__MPI_RUN = 0, TM__MPI_PASS, TM__MPI_OFF } tm__mpi_mode;

/* The edges this process contributes: src -> dst with weight w. */
typedef struct tm__mpi_edges {
    int64_t m;
    int *pair;    /* 2 m ints: src, dst */
    double *w;    /* m */
} tm__mpi_edges;

/* Everything rank 0 needs to map (gathered by mpi_gather.c). */
typedef struct tm__mpi_job {
    int P;               /* processes */
    int nnodes;          /* graph vertices (<= P) */
    const char *call;    /* "MPI_Dist_graph_create_adjacent", ... */
    char *hosts;         /* P records of TM__MPI_HOSTLEN */
    int *cores;          /* P: logical core of each process, -1: not bound to one core */
    int64_t m;
    int *pair;           /* 2 m */
    double *w;           /* m */
} tm__mpi_job;

/* The outcome for one process. */
typedef struct tm__mpi_plan {
    bool reorder;        /* false: create with reorder = 0 on comm_old */
    int key;             /* new rank (vertex) of this process; >= nnodes: none */
    int owner_of_mine;   /* process that takes over this process's vertex lists */
} tm__mpi_plan;

/* Whether topomap may reorder at all: reorder requested on an
 * intracommunicator (local, no communication); sets *rank and *size. */
int tm__mpi_can_reorder(MPI_Comm comm, int reorder, int *rank, int *size);

/* Rank 0's decision and cfg->search, broadcast. */
tm__mpi_mode tm__mpi_mode_get(MPI_Comm comm, int rank, tm__mpi_cfg *cfg);
void tm__mpi_warn(int rank, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Gathers hosts and edges on rank 0 of comm and decides the plan of every
 * process (collective over comm). */
void tm__mpi_plan_make(MPI_Comm comm, const tm__mpi_cfg *cfg, const tm__mpi_edges *mine,
                       int nnodes, const char *call, tm__mpi_plan *plan);

/* Rank 0 (and the other searchers, collectively over `search` unless it is
 * MPI_COMM_NULL): maps the job; owner[v] = process that gets vertex v.
 * Returns 0 (owner filled, *identity set), or -1 with a message in err. */
int tm__mpi_map(const tm__mpi_cfg *cfg, const tm__mpi_job *job, MPI_Comm search, int *owner,
                bool *identity, char *err, size_t errlen);

/* Local host name: line (world rank + 1) of TOPOMAP_HOSTS, or
 * MPI_Get_processor_name.  -1 with a message in err. */
int tm__mpi_host(char host[TM__MPI_HOSTLEN], char *err, size_t errlen);

/* Local logical core: line (world rank + 1) of TOPOMAP_CORES (-1: not
 * bound), or the core of sched_getaffinity's CPUs (-1 when they span
 * several cores, i.e. the process is not bound to one).  -1 with a
 * message in err only for a bad TOPOMAP_CORES. */
int tm__mpi_core(int *core, char *err, size_t errlen);

/* Splits comm by plan->key (new rank = key). */
int tm__mpi_split(MPI_Comm comm, const tm__mpi_plan *plan, MPI_Comm *out);

/* Creates the topology on comm with reorder = 0 (the MPI call's own
 * arguments are in arg). */
typedef int (*tm__mpi_create_fn)(MPI_Comm comm, void *arg);
/* The rest of a call whose arguments are in vertex ids (all but the
 * adjacent one): plans from `mine` (released here), then create() on
 * comm_old when the ranks stay, else on the reordered communicator, where
 * the same arguments describe the same graph (new rank v = vertex v). */
int tm__mpi_finish(MPI_Comm comm_old, const tm__mpi_cfg *cfg, tm__mpi_edges *mine, int nnodes,
                   const char *call, tm__mpi_create_fn create, void *arg);


#endif
