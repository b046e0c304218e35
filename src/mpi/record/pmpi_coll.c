/* pmpi_coll.c - the shim's collectives under TOPOMAP_RECORD (docs/mpi.md):
 * each forwards to its PMPI_ name and, when that succeeded and recording
 * is on, records the call and its pattern (pmpi_rec_coll.c).  The sizes:
 * bytes = count x MPI_Type_size of the side that is defined on this
 * process (MPI_IN_PLACE, root or not).
 * TM_API: the MPI names must be visible (see ../shim/pmpi_shim.c). */
#include <stdlib.h>

#include "topomap/export.h"
#include "pmpi_rec.h"

typedef tm__rec_coll_args cargs;

/* Ranks an alltoallv/w's count arrays cover (the remote group of an
 * intercommunicator). */
static int nranks(MPI_Comm comm)
{
    int inter = 0, n = 0;
    PMPI_Comm_test_inter(comm, &inter);
    if (inter)
        PMPI_Comm_remote_size(comm, &n);
    else
        PMPI_Comm_size(comm, &n);
    return n;
}

/* Ranks a reduce_scatter's counts cover: the local group. */
static int lsize(MPI_Comm comm)
{
    int n = 0;
    PMPI_Comm_size(comm, &n);
    return n;
}

static int is_root(MPI_Comm comm, int root)
{
    int r = -1;
    PMPI_Comm_rank(comm, &r);
    return r == root || root == MPI_ROOT;
}

static uint64_t sum_bytes(const int *counts, int n, uint64_t tsize)
{
    uint64_t s = 0;
    for (int i = 0; i < n; i++)
        s += counts[i] > 0 ? (uint64_t)counts[i] * tsize : 0;
    return s;
}

/* An expression worth rc: records the call first when rc is MPI_SUCCESS and
 * recording is on (the arguments are evaluated only then: a shim that is
 * not recording tests one flag per call). */
#define REC(rc, KIND, COMM, ...)                                                                \
    ((rc) == MPI_SUCCESS && tm__rec_on()                                                        \
         ? (tm__rec_coll(KIND, COMM, &(cargs){__VA_ARGS__}), (rc))                              \
         : (rc))

/* ---- rooted ------------------------------------------------------------------ */

TM_API int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    int rc = PMPI_Bcast(buf, count, type, root, comm);
    return REC(rc, TM__REC_BCAST, comm, .root = root, .n = tm__rec_bytes(count, type));
}

TM_API int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
                      MPI_Request *req)
{
    int rc = PMPI_Ibcast(buf, count, type, root, comm, req);
    return REC(rc, TM__REC_IBCAST, comm, .root = root, .n = tm__rec_bytes(count, type));
}

TM_API int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                      int root, MPI_Comm comm)
{
    int rc = PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm);
    return REC(rc, TM__REC_REDUCE, comm, .root = root, .n = tm__rec_bytes(count, type));
}

TM_API int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                       int root, MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Ireduce(sbuf, rbuf, count, type, op, root, comm, req);
    return REC(rc, TM__REC_IREDUCE, comm, .root = root, .n = tm__rec_bytes(count, type));
}

/* Gather: the block every process contributes. */
static uint64_t gather_block(MPI_Comm comm, int root, const void *sbuf, int scount,
                             MPI_Datatype stype, int rcount, MPI_Datatype rtype)
{
    return is_root(comm, root) ? tm__rec_bytes(rcount, rtype) : tm__rec_bytes(scount, stype);
}

TM_API int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                      MPI_Datatype rtype, int root, MPI_Comm comm)
{
    int rc = PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    return REC(rc, TM__REC_GATHER, comm, .root = root,
        .n = gather_block(comm, root, sbuf, scount, stype, rcount, rtype));
}

TM_API int MPI_Igather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                       MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Igather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req);
    return REC(rc, TM__REC_IGATHER, comm, .root = root,
        .n = gather_block(comm, root, sbuf, scount, stype, rcount, rtype));
}

static uint64_t gatherv_block(MPI_Comm comm, int root, const void *sbuf, int scount,
                              MPI_Datatype stype, const int *rcounts, MPI_Datatype rtype)
{
    int r = 0;
    PMPI_Comm_rank(comm, &r);
    if (sbuf == MPI_IN_PLACE && r == root)
        return tm__rec_bytes(rcounts[r], rtype);
    return tm__rec_bytes(scount, stype);
}

TM_API int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                       const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                       MPI_Comm comm)
{
    int rc = PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm);
    return REC(rc, TM__REC_GATHERV, comm, .root = root,
        .n = gatherv_block(comm, root, sbuf, scount, stype, rcounts, rtype));
}

TM_API int MPI_Igatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                        const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                        MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Igatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, req);
    return REC(rc, TM__REC_IGATHERV, comm, .root = root,
        .n = gatherv_block(comm, root, sbuf, scount, stype, rcounts, rtype));
}

TM_API int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                       MPI_Datatype rtype, int root, MPI_Comm comm)
{
    int rc = PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    return REC(rc, TM__REC_SCATTER, comm, .root = root,
        .n = gather_block(comm, root, rbuf, rcount, rtype, scount, stype));
}

TM_API int MPI_Iscatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                        MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Iscatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req);
    return REC(rc, TM__REC_ISCATTER, comm, .root = root,
        .n = gather_block(comm, root, rbuf, rcount, rtype, scount, stype));
}

/* Scatterv: the root's counts; n = this process's block. */
#define SCATTERV_ARGS                                                                           \
    .root = root, .counts = scounts, .tsize = tm__rec_bytes(1, stype),                          \
    .n = gatherv_block(comm, root, rbuf, rcount, rtype, scounts, stype)

TM_API int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[],
                        MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                        MPI_Comm comm)
{
    int rc = PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm);
    return REC(rc, TM__REC_SCATTERV, comm, SCATTERV_ARGS);
}

TM_API int MPI_Iscatterv(const void *sbuf, const int scounts[], const int displs[],
                         MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                         MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Iscatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, req);
    return REC(rc, TM__REC_ISCATTERV, comm, SCATTERV_ARGS);
}

/* ---- all to all ---------------------------------------------------------------- */

TM_API int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                         MPI_Comm comm)
{
    int rc = PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);
    return REC(rc, TM__REC_ALLREDUCE, comm, .n = tm__rec_bytes(count, type),
               .tsize = tm__rec_bytes(1, type));
}

TM_API int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                          MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Iallreduce(sbuf, rbuf, count, type, op, comm, req);
    return REC(rc, TM__REC_IALLREDUCE, comm, .n = tm__rec_bytes(count, type),
        .tsize = tm__rec_bytes(1, type));
}

TM_API int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype, MPI_Comm comm)
{
    int rc = PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    return REC(rc, TM__REC_ALLGATHER, comm, .n = tm__rec_bytes(rcount, rtype));
}

TM_API int MPI_Iallgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                          int rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Iallgather(sbuf, scount, stype, rbuf, rcount, rtype, comm, req);
    return REC(rc, TM__REC_IALLGATHER, comm, .n = tm__rec_bytes(rcount, rtype));
}

TM_API int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                          const int rcounts[], const int displs[], MPI_Datatype rtype,
                          MPI_Comm comm)
{
    int rc = PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
    return REC(rc, TM__REC_ALLGATHERV, comm, .counts = rcounts, .tsize = tm__rec_bytes(1, rtype),
        .n = tm__rec_bytes(rcounts[0], rtype));
}

TM_API int MPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                           const int rcounts[], const int displs[], MPI_Datatype rtype,
                           MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Iallgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req);
    return REC(rc, TM__REC_IALLGATHERV, comm, .counts = rcounts, .tsize = tm__rec_bytes(1, rtype),
        .n = tm__rec_bytes(rcounts[0], rtype));
}

/* Alltoall: bytes per block (the receive side under MPI_IN_PLACE). */
#define A2A_N (sbuf == MPI_IN_PLACE ? tm__rec_bytes(rcount, rtype) : tm__rec_bytes(scount, stype))

TM_API int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                        MPI_Datatype rtype, MPI_Comm comm)
{
    int rc = PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    return REC(rc, TM__REC_ALLTOALL, comm, .n = A2A_N);
}

TM_API int MPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Ialltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm, req);
    return REC(rc, TM__REC_IALLTOALL, comm, .n = A2A_N);
}

static void a2av(tm__rec_kind kind, MPI_Comm comm, const void *sbuf, const int *scounts,
                 MPI_Datatype stype, const int *rcounts, MPI_Datatype rtype)
{
    int in_place = sbuf == MPI_IN_PLACE;
    uint64_t tsize = tm__rec_bytes(1, in_place ? rtype : stype);
    const int *counts = in_place ? rcounts : scounts;
    cargs a = {.counts = counts, .tsize = tsize, .n = sum_bytes(counts, nranks(comm), tsize)};
    tm__rec_coll(kind, comm, &a);
}

TM_API int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                         MPI_Datatype stype, void *rbuf, const int rcounts[], const int rdispls[],
                         MPI_Datatype rtype, MPI_Comm comm)
{
    int rc = PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm);
    if (rc == MPI_SUCCESS && tm__rec_on())
        a2av(TM__REC_ALLTOALLV, comm, sbuf, scounts, stype, rcounts, rtype);
    return rc;
}

TM_API int MPI_Ialltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                          MPI_Datatype stype, void *rbuf, const int rcounts[],
                          const int rdispls[], MPI_Datatype rtype, MPI_Comm comm,
                          MPI_Request *req)
{
    int rc = PMPI_Ialltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm,
                             req);
    if (rc == MPI_SUCCESS && tm__rec_on())
        a2av(TM__REC_IALLTOALLV, comm, sbuf, scounts, stype, rcounts, rtype);
    return rc;
}

static void a2aw(tm__rec_kind kind, MPI_Comm comm, const void *sbuf, const int *scounts,
                 const MPI_Datatype *stypes, const int *rcounts, const MPI_Datatype *rtypes)
{
    int n = nranks(comm), in_place = sbuf == MPI_IN_PLACE;
    uint64_t *w = malloc((size_t)(n ? n : 1) * sizeof *w), total = 0;
    cargs a = {0};
    if (!w) {
        tm__rec_lock();
        tm__rec_lost();
        tm__rec_unlock();
        return;
    }
    for (int i = 0; i < n; i++)
        total += w[i] = in_place ? tm__rec_bytes(rcounts[i], rtypes[i])
                                 : tm__rec_bytes(scounts[i], stypes[i]);
    a.wbytes = w;
    a.n = total;
    tm__rec_coll(kind, comm, &a);
    free(w);
}

TM_API int MPI_Alltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                         const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                         const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm)
{
    int rc = PMPI_Alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm);
    if (rc == MPI_SUCCESS && tm__rec_on())
        a2aw(TM__REC_ALLTOALLW, comm, sbuf, scounts, stypes, rcounts, rtypes);
    return rc;
}

TM_API int MPI_Ialltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                          const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                          const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm,
                          MPI_Request *req)
{
    int rc = PMPI_Ialltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes,
                             comm, req);
    if (rc == MPI_SUCCESS && tm__rec_on())
        a2aw(TM__REC_IALLTOALLW, comm, sbuf, scounts, stypes, rcounts, rtypes);
    return rc;
}

#define RS_ARGS                                                                                 \
    .counts = rcounts, .tsize = tm__rec_bytes(1, type),                                         \
    .n = sum_bytes(rcounts, lsize(comm), tm__rec_bytes(1, type))

TM_API int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
                              MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    int rc = PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm);
    return REC(rc, TM__REC_REDUCE_SCATTER, comm, RS_ARGS);
}

TM_API int MPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
                               MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Ireduce_scatter(sbuf, rbuf, rcounts, type, op, comm, req);
    return REC(rc, TM__REC_IREDUCE_SCATTER, comm, RS_ARGS);
}

TM_API int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                                    MPI_Op op, MPI_Comm comm)
{
    int rc = PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, type, op, comm);
    return REC(rc, TM__REC_REDUCE_SCATTER_BLOCK, comm, .n = tm__rec_bytes(rcount, type));
}

TM_API int MPI_Ireduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                                     MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Ireduce_scatter_block(sbuf, rbuf, rcount, type, op, comm, req);
    return REC(rc, TM__REC_IREDUCE_SCATTER_BLOCK, comm, .n = tm__rec_bytes(rcount, type));
}

TM_API int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                    MPI_Comm comm)
{
    int rc = PMPI_Scan(sbuf, rbuf, count, type, op, comm);
    return REC(rc, TM__REC_SCAN, comm, .n = tm__rec_bytes(count, type));
}

TM_API int MPI_Iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                     MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Iscan(sbuf, rbuf, count, type, op, comm, req);
    return REC(rc, TM__REC_ISCAN, comm, .n = tm__rec_bytes(count, type));
}

TM_API int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                      MPI_Comm comm)
{
    int rc = PMPI_Exscan(sbuf, rbuf, count, type, op, comm);
    return REC(rc, TM__REC_EXSCAN, comm, .n = tm__rec_bytes(count, type));
}

TM_API int MPI_Iexscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Iexscan(sbuf, rbuf, count, type, op, comm, req);
    return REC(rc, TM__REC_IEXSCAN, comm, .n = tm__rec_bytes(count, type));
}

TM_API int MPI_Barrier(MPI_Comm comm)
{
    int rc = PMPI_Barrier(comm);
    return REC(rc, TM__REC_BARRIER, comm, .n = 0);
}

TM_API int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Ibarrier(comm, req);
    return REC(rc, TM__REC_IBARRIER, comm, .n = 0);
}

/* ---- neighbourhood collectives: what goes to each out-neighbour ----------------- */

/* An expression worth rc, as REC. */
#define NB(rc, KIND, N, COUNTS, TYPES, TYPE)                                                    \
    ((rc) == MPI_SUCCESS && tm__rec_on()                                                        \
         ? (tm__rec_neighbor(KIND, comm, N, COUNTS, TYPES, TYPE), (rc))                         \
         : (rc))

TM_API int MPI_Neighbor_allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                  int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    int rc = PMPI_Neighbor_allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    return NB(rc, TM__REC_NB_ALLGATHER, tm__rec_bytes(scount, stype), NULL, NULL, stype);
}

TM_API int MPI_Ineighbor_allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                   int rcount, MPI_Datatype rtype, MPI_Comm comm,
                                   MPI_Request *req)
{
    int rc = PMPI_Ineighbor_allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm, req);
    return NB(rc, TM__REC_INB_ALLGATHER, tm__rec_bytes(scount, stype), NULL, NULL, stype);
}

TM_API int MPI_Neighbor_allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                   const int rcounts[], const int displs[], MPI_Datatype rtype,
                                   MPI_Comm comm)
{
    int rc = PMPI_Neighbor_allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
    return NB(rc, TM__REC_NB_ALLGATHERV, tm__rec_bytes(scount, stype), NULL, NULL, stype);
}

TM_API int MPI_Ineighbor_allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                    const int rcounts[], const int displs[], MPI_Datatype rtype,
                                    MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Ineighbor_allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm,
                                       req);
    return NB(rc, TM__REC_INB_ALLGATHERV, tm__rec_bytes(scount, stype), NULL, NULL, stype);
}

TM_API int MPI_Neighbor_alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                 int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    int rc = PMPI_Neighbor_alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    return NB(rc, TM__REC_NB_ALLTOALL, tm__rec_bytes(scount, stype), NULL, NULL, stype);
}

TM_API int MPI_Ineighbor_alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                  int rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Ineighbor_alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm, req);
    return NB(rc, TM__REC_INB_ALLTOALL, tm__rec_bytes(scount, stype), NULL, NULL, stype);
}

TM_API int MPI_Neighbor_alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                                  MPI_Datatype stype, void *rbuf, const int rcounts[],
                                  const int rdispls[], MPI_Datatype rtype, MPI_Comm comm)
{
    int rc = PMPI_Neighbor_alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype,
                                     comm);
    return NB(rc, TM__REC_NB_ALLTOALLV, 0, scounts, NULL, stype);
}

TM_API int MPI_Ineighbor_alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                                   MPI_Datatype stype, void *rbuf, const int rcounts[],
                                   const int rdispls[], MPI_Datatype rtype, MPI_Comm comm,
                                   MPI_Request *req)
{
    int rc = PMPI_Ineighbor_alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls,
                                      rtype, comm, req);
    return NB(rc, TM__REC_INB_ALLTOALLV, 0, scounts, NULL, stype);
}

TM_API int MPI_Neighbor_alltoallw(const void *sbuf, const int scounts[], const MPI_Aint sdispls[],
                                  const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                                  const MPI_Aint rdispls[], const MPI_Datatype rtypes[],
                                  MPI_Comm comm)
{
    int rc = PMPI_Neighbor_alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls,
                                     rtypes, comm);
    return NB(rc, TM__REC_NB_ALLTOALLW, 0, scounts, stypes, MPI_DATATYPE_NULL);
}

TM_API int MPI_Ineighbor_alltoallw(const void *sbuf, const int scounts[],
                                   const MPI_Aint sdispls[], const MPI_Datatype stypes[],
                                   void *rbuf, const int rcounts[], const MPI_Aint rdispls[],
                                   const MPI_Datatype rtypes[], MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Ineighbor_alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls,
                                      rtypes, comm, req);
    return NB(rc, TM__REC_INB_ALLTOALLW, 0, scounts, stypes, MPI_DATATYPE_NULL);
}
