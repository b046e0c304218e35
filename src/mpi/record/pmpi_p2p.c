/* pmpi_p2p.c - the shim's point-to-point sends under TOPOMAP_RECORD
 * (docs/mpi.md): each forwards to its PMPI_ name and, when that succeeded
 * and recording is on, counts the send (pmpi_rec.c).  Receives are not
 * intercepted: every message is counted once, by its sender.  MPI_Waitall
 * and the MPI_Sendrecv calls also close the current phase.
 * TM_API: the MPI names must be visible (see ../shim/pmpi_shim.c). */
#include "topomap/export.h"
#include "pmpi_rec.h"

#define SEND(NAME, KIND)                                                                        \
    TM_API int MPI_##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag,    \
                          MPI_Comm comm)                                                        \
    {                                                                                           \
        int rc = PMPI_##NAME(buf, count, type, dest, tag, comm);                                \
        if (rc == MPI_SUCCESS)                                                                  \
            tm__rec_p2p(TM__REC_##KIND, comm, dest, count, type);                               \
        return rc;                                                                              \
    }
SEND(Send, SEND)
SEND(Bsend, BSEND)
SEND(Ssend, SSEND)
SEND(Rsend, RSEND)

#define ISEND(NAME, KIND)                                                                       \
    TM_API int MPI_##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag,    \
                          MPI_Comm comm, MPI_Request *req)                                      \
    {                                                                                           \
        int rc = PMPI_##NAME(buf, count, type, dest, tag, comm, req);                           \
        if (rc == MPI_SUCCESS)                                                                  \
            tm__rec_p2p(TM__REC_##KIND, comm, dest, count, type);                               \
        return rc;                                                                              \
    }
ISEND(Isend, ISEND)
ISEND(Ibsend, IBSEND)
ISEND(Issend, ISSEND)
ISEND(Irsend, IRSEND)

/* Persistent sends: counted at every MPI_Start / MPI_Startall. */
#define PSEND(NAME, KIND)                                                                       \
    TM_API int MPI_##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag,    \
                          MPI_Comm comm, MPI_Request *req)                                      \
    {                                                                                           \
        int rc = PMPI_##NAME(buf, count, type, dest, tag, comm, req);                           \
        if (rc == MPI_SUCCESS)                                                                  \
            tm__rec_persist(TM__REC_##KIND, comm, dest, count, type, *req);                     \
        return rc;                                                                              \
    }
PSEND(Send_init, SEND_INIT)
PSEND(Bsend_init, BSEND_INIT)
PSEND(Ssend_init, SSEND_INIT)
PSEND(Rsend_init, RSEND_INIT)

TM_API int MPI_Start(MPI_Request *req)
{
    MPI_Request r = *req;
    int rc = PMPI_Start(req);
    if (rc == MPI_SUCCESS)
        tm__rec_start(r);
    return rc;
}

TM_API int MPI_Startall(int n, MPI_Request reqs[])
{
    int rc = PMPI_Startall(n, reqs);
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++)
        tm__rec_start(reqs[i]);
    return rc;
}

TM_API int MPI_Request_free(MPI_Request *req)
{
    tm__rec_forget(*req);
    return PMPI_Request_free(req);
}

TM_API int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag,
                        void *rbuf, int rcount, MPI_Datatype rtype, int source, int rtag,
                        MPI_Comm comm, MPI_Status *status)
{
    int rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag,
                           comm, status);
    if (rc == MPI_SUCCESS)
        tm__rec_p2p(TM__REC_SENDRECV, comm, dest, scount, stype);
    tm__rec_wait_cut();
    return rc;
}

TM_API int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int stag,
                                int source, int rtag, MPI_Comm comm, MPI_Status *status)
{
    int rc = PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, comm, status);
    if (rc == MPI_SUCCESS)
        tm__rec_p2p(TM__REC_SENDRECV_REPLACE, comm, dest, count, type);
    tm__rec_wait_cut();
    return rc;
}

/* Completes a step of point-to-point exchanges: closes the phase (docs/mpi.md
 * "Phases"); nothing is counted. */
TM_API int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status sts[])
{
    int rc = PMPI_Waitall(n, reqs, sts);
    tm__rec_wait_cut();
    return rc;
}
