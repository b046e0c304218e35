/* pmpi_rec.h - TOPOMAP_RECORD in the PMPI shim (docs/mpi.md, "Recording a
 * job's communication"): every process counts the bytes and messages it
 * sends to each MPI_COMM_WORLD rank; at MPI_Finalize rank 0 gathers the
 * sparse rows and writes the matrix and its JSON account.
 *
 * Shim only (pmpi_*.c are not part of libtopomap_mpi.so).  The recorder's
 * state is process-wide by nature: the MPI calls that feed it carry no
 * context of ours. */
#ifndef TOPOMAP_PMPI_REC_H
#define TOPOMAP_PMPI_REC_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "topomap/topomap.h"

/* Every call the recorder counts, by its MPI name (X(enum, "name")). */
#define TM__REC_KINDS(X) \
    X(SEND, "MPI_Send") X(BSEND, "MPI_Bsend") X(SSEND, "MPI_Ssend") X(RSEND, "MPI_Rsend") \
    X(ISEND, "MPI_Isend") X(IBSEND, "MPI_Ibsend") X(ISSEND, "MPI_Issend") \
    X(IRSEND, "MPI_Irsend") X(SENDRECV, "MPI_Sendrecv") \
    X(SENDRECV_REPLACE, "MPI_Sendrecv_replace") X(SEND_INIT, "MPI_Send_init") \
    X(BSEND_INIT, "MPI_Bsend_init") X(SSEND_INIT, "MPI_Ssend_init") \
    X(RSEND_INIT, "MPI_Rsend_init") \
    X(NB_ALLGATHER, "MPI_Neighbor_allgather") X(NB_ALLGATHERV, "MPI_Neighbor_allgatherv") \
    X(NB_ALLTOALL, "MPI_Neighbor_alltoall") X(NB_ALLTOALLV, "MPI_Neighbor_alltoallv") \
    X(NB_ALLTOALLW, "MPI_Neighbor_alltoallw") \
    X(INB_ALLGATHER, "MPI_Ineighbor_allgather") X(INB_ALLGATHERV, "MPI_Ineighbor_allgatherv") \
    X(INB_ALLTOALL, "MPI_Ineighbor_alltoall") X(INB_ALLTOALLV, "MPI_Ineighbor_alltoallv") \
    X(INB_ALLTOALLW, "MPI_Ineighbor_alltoallw") \
    X(BCAST, "MPI_Bcast") X(IBCAST, "MPI_Ibcast") X(REDUCE, "MPI_Reduce") \
    X(IREDUCE, "MPI_Ireduce") X(ALLREDUCE, "MPI_Allreduce") X(IALLREDUCE, "MPI_Iallreduce") \
    X(GATHER, "MPI_Gather") X(IGATHER, "MPI_Igather") X(GATHERV, "MPI_Gatherv") \
    X(IGATHERV, "MPI_Igatherv") X(SCATTER, "MPI_Scatter") X(ISCATTER, "MPI_Iscatter") \
    X(SCATTERV, "MPI_Scatterv") X(ISCATTERV, "MPI_Iscatterv") X(ALLGATHER, "MPI_Allgather") \
    X(IALLGATHER, "MPI_Iallgather") X(ALLGATHERV, "MPI_Allgatherv") \
    X(IALLGATHERV, "MPI_Iallgatherv") X(ALLTOALL, "MPI_Alltoall") \
    X(IALLTOALL, "MPI_Ialltoall") X(ALLTOALLV, "MPI_Alltoallv") \
    X(IALLTOALLV, "MPI_Ialltoallv") X(ALLTOALLW, "MPI_Alltoallw") \
    X(IALLTOALLW, "MPI_Ialltoallw") X(REDUCE_SCATTER, "MPI_Reduce_scatter") \
    X(IREDUCE_SCATTER, "MPI_Ireduce_scatter") \
    X(REDUCE_SCATTER_BLOCK, "MPI_Reduce_scatter_block") \
    X(IREDUCE_SCATTER_BLOCK, "MPI_Ireduce_scatter_block") X(SCAN, "MPI_Scan") \
    X(ISCAN, "MPI_Iscan") X(EXSCAN, "MPI_Exscan") X(IEXSCAN, "MPI_Iexscan") \
    X(BARRIER, "MPI_Barrier") X(IBARRIER, "MPI_Ibarrier")

#define TM__REC_ENUM(e, name) TM__REC_##e,
typedef enum { TM__REC_KINDS(TM__REC_ENUM) TM__REC_NKINDS } tm__rec_kind;
#undef TM__REC_ENUM
#define TM__REC_FIRST_COLL TM__REC_BCAST

extern const char *const tm__rec_kind_name[TM__REC_NKINDS];

/* TOPOMAP_RECORD_COLLECTIVES. */
typedef enum {
    TM__REC_AUTO = 0, TM__REC_SKIP, TM__REC_RING, TM__REC_RD, TM__REC_BINOMIAL, TM__REC_NALGOS
} tm__rec_algo;
extern const char *const tm__rec_algo_name[TM__REC_NALGOS];

/* What a communicator's ranks are in MPI_COMM_WORLD (cached on the
 * communicator as an attribute; MPI_COMM_WORLD's own is static). */
typedef struct tm__rec_comm {
    int rank, size;      /* in the local group */
    int inter;           /* intercommunicator: point-to-point ranks are remote */
    int *world;          /* local rank -> world rank, NULL: the identity */
    int rsize, *rworld;  /* remote group -> world (intercommunicators) */
    int nout, *out;      /* out-neighbours (world ranks, -1: MPI_PROC_NULL); nout < 0: not yet */
} tm__rec_comm;

/* The MPI_Init wrappers call this after PMPI_Init*: reads rank 0's
 * environment and broadcasts it (one MPI_Bcast on MPI_COMM_WORLD). */
void tm__rec_init(int provided);
/* The MPI_Finalize wrapper, before PMPI_Finalize: gathers and writes
 * (pmpi_rec_end.c). */
void tm__rec_finalize(void);
/* Nonzero while recording on this thread (off inside topomap's own calls). */
int tm__rec_on(void);
/* Brackets topomap's own MPI traffic (the reordering calls): not recorded. */
void tm__rec_quiet(int on);

/* A topology call of the shim returned newcomm (call: its MPI name): the
 * first one that spans MPI_COMM_WORLD with other ranks gives the task
 * numbering (TOPOMAP_RECORD_RANKS=task, the default). */
void tm__rec_reordered(MPI_Comm newcomm, const char *call);

/* Point-to-point: count elements of type to dest of comm (MPI_PROC_NULL
 * skipped), one call of kind. */
void tm__rec_p2p(tm__rec_kind kind, MPI_Comm comm, int dest, int count, MPI_Datatype type);
/* Persistent sends: remember request (after *_init), count one message on
 * every start, forget it when freed. */
void tm__rec_persist(tm__rec_kind kind, MPI_Comm comm, int dest, int count, MPI_Datatype type,
                     MPI_Request req);
void tm__rec_start(MPI_Request req);
void tm__rec_forget(MPI_Request req);

/* Bytes of count elements of type (0 when MPI cannot say). */
uint64_t tm__rec_bytes(int count, MPI_Datatype type);

/* A collective call (pmpi_rec_coll.c).  n: bytes of this process's block
 * (the per-process size of a regular call); counts/tsize: the v-variants'
 * counts (bytes = counts[i] x tsize); wbytes: alltoallw's bytes per rank. */
typedef struct tm__rec_coll_args {
    int root;
    uint64_t n;
    const int *counts;
    uint64_t tsize;
    const uint64_t *wbytes;
} tm__rec_coll_args;
void tm__rec_coll(tm__rec_kind kind, MPI_Comm comm, const tm__rec_coll_args *a);
/* Neighbourhood collectives: bytes[i] to out-neighbour i (NULL: n to each). */
void tm__rec_neighbor(tm__rec_kind kind, MPI_Comm comm, uint64_t n, const int *counts,
                      const MPI_Datatype *types, MPI_Datatype type);

/* ---- inside the recorder ---------------------------------------------- */
/* The lock (held only under MPI_THREAD_MULTIPLE) and the cache. */
void tm__rec_lock(void);
void tm__rec_unlock(void);
tm__rec_comm *tm__rec_comm_of(MPI_Comm comm);
/* Adds one pattern message of kind to world rank wdst (lock held). */
void tm__rec_add(tm__rec_kind kind, int wdst, uint64_t bytes);
/* Out of memory while recording: no file at MPI_Finalize, one warning. */
void tm__rec_lost(void);
/* One call of kind on this process (lock held). */
void tm__rec_count_call(tm__rec_kind kind);
/* One collective operation for the statistics (lock held). */
void tm__rec_coll_stat(tm__rec_kind kind, int csize, uint64_t bytes, bool expanded);
tm__rec_algo tm__rec_algo_get(void);
/* The pattern an algorithm setting gives for a collective kind. */
const char *tm__rec_pattern_name(tm__rec_kind kind, tm__rec_algo algo);

/* Phases (pmpi_rec_phase.c, docs/mpi.md "Phases"; lock held): the bytes of
 * a message to world rank wdst go to the current phase; a collective call
 * closes the current phase before its expansion and again after it. */
void tm__rec_phase_add(int wdst, uint64_t bytes);
void tm__rec_phase_close(void);
/* MPI_Waitall / MPI_Sendrecv (lock held): closes the current phase as a
 * wait cut, which is kept only if every process made the same cuts. */
void tm__rec_phase_cut(void);
/* At MPI_Finalize, every process, before tm__rec_phase_gather: 1 if every
 * process's sequence of cuts is the same (the wait cuts are kept), else 0
 * after merging each process's wait-cut phases into the next phase. */
int tm__rec_phase_align(void);
/* The MPI_Waitall / MPI_Sendrecv wrappers: tm__rec_phase_cut under the
 * lock when recording. */
void tm__rec_wait_cut(void);
/* At MPI_Finalize, every process: rank 0 gets the distinct phases (P tasks,
 * numbered by task when set) in *out and 0; -1 when they cannot be made
 * (out of memory, more than 2^31 - 1 values to gather), *out left empty.
 * ctx: rank 0's context (NULL elsewhere). */
int tm__rec_phase_gather(tm_ctx *ctx, int rank, int P, const int *task, tm_comm_phases *out);
/* Whether memory ran out while the phases were recorded (the recorder's
 * counts are then lost too: no file). */
int tm__rec_phase_lost(void);
void tm__rec_phase_free(void);

/* Gathered data at MPI_Finalize (pmpi_rec_write.c). */
typedef struct tm__rec_cell {
    int dst;
    uint64_t bytes, msgs;
} tm__rec_cell;
typedef struct tm__rec_cstat {
    uint64_t kind, csize, bytes, calls, expanded;
} tm__rec_cstat;
typedef struct tm__rec_out {
    const char *path;
    tm__rec_algo algo;
    int provided;            /* thread level */
    double wall_s;           /* this process, MPI_Init to MPI_Finalize */
    tm__rec_cell *cells;     /* this process's row, sorted by dst */
    int ncells;
    uint64_t kinds[TM__REC_NKINDS][3]; /* calls, messages, bytes */
    tm__rec_cstat *cstats;
    int ncstats;
    const int *task;         /* world rank -> task (rank in the reordered
                              * communicator); NULL: world numbering */
    const char *task_call;   /* the call that made it */
    int reorderings;         /* world-spanning communicators the shim reordered */
    int phase_waits;         /* MPI_Waitall / MPI_Sendrecv cut the phases too
                              * (tm__rec_phase_align) */
} tm__rec_out;
void tm__rec_write(const tm__rec_out *o);
/* At MPI_Finalize (pmpi_rec_end.c): stops recording and hands this
 * process's counts over in *o (they stay the recorder's until
 * tm__rec_free), its world rank, and whether memory ran out; 0 when the
 * recorder was off. */
int tm__rec_take(tm__rec_out *o, int *rank, int *lost);
void tm__rec_free(void);

#endif
