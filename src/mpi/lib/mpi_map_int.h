/* mpi_map_int.h - rank 0's mapping state, shared by mpi_map.c and the
 * report writer (mpi_report.c). */
#ifndef TOPOMAP_MPI_MAP_INT_H
#define TOPOMAP_MPI_MAP_INT_H

#include "topomap/topomap.h"
#include "mpi_int.h"

typedef struct tm__mpi_state {
    tm_net *net;
    tm_route *route;
    tm_alloc alloc;
    tm_comm comm;
    int32_t *aof;    /* net vertex -> allocation index, -1: not allocated */
    int32_t *hv;     /* P: allocation index of each process's host */
    int32_t *procs;  /* P: old ranks grouped by host */
    int32_t *first;  /* alloc.n + 1: start of each host's group in procs */
    tm_hier hier;    /* node-internal levels (TOPOMAP_NODE_HIERARCHY or TOPOMAP_HWLOC) */
    bool core_level; /* slot s of a host = logical core s (procs ordered by core) */
    char why[200];   /* why not, when a node hierarchy was given */
    tm_mapping cur;  /* baseline: vertex v on old rank v */
    tm_map_result res;
    tm_metrics mc, mm; /* baseline and mapped, evaluated the same way */
    bool applied;    /* the mapping beat the baseline */
    tm__mpi_run run; /* what this searcher ran */
    double t0, time_s;
} tm__mpi_state;

/* The mapping the job applies: this process's own, or the best of the
 * searching ranks (mpi_search.c). */
typedef struct tm__mpi_pick {
    bool applied;          /* better than the baseline (else the old ranks) */
    double mapped[3];      /* congestion, dilation, J of what is applied */
    double found[3];       /* the winner's best mapping, applied or not */
    char best[48];         /* its tm_map_run row */
    int winner, searchers; /* search rank of the winner, number of searchers */
    double all[4 * TM__MPI_MAX_SEARCH]; /* per searcher: mapped[3], ok */
} tm__mpi_pick;

/* Collective over `search`: every searcher contributes what it would apply
 * (ok = it has a mapping); the lexicographically best (congestion,
 * dilation, J; lowest search rank on ties) wins and broadcasts its owner[]
 * and pick.  Returns 0, or -1 when no searcher has a mapping. */
int tm__mpi_search_pick(MPI_Comm search, const tm__mpi_job *job, bool ok, int *owner,
                        tm__mpi_pick *pick);

/* Rank 0 writes TOPOMAP_REPORT (when set); failures are warnings. */
void tm__mpi_report(const tm__mpi_cfg *cfg, const tm__mpi_job *job, const tm__mpi_state *s,
                    const int *owner, bool identity, const tm__mpi_pick *pick);
void tm__mpi_report_error(const tm__mpi_cfg *cfg, const tm__mpi_job *job, const char *msg);

#endif
