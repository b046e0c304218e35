/*
 * topomap/mpi.h - topology-aware rank reordering inside an MPI job
 * (libtopomap_mpi, built once per MPI implementation: docs/mpi.md).
 *
 * The functions take the arguments of the MPI calls they replace.  With
 * reorder == 0 they are those calls.  With reorder != 0 the communication
 * graph is gathered on rank 0 (edge lists, never a P x P array), mapped
 * onto the network named by TOPOMAP_TOPOLOGY (hosts from
 * MPI_Get_processor_name or TOPOMAP_HOSTS; with a node hierarchy, the
 * cores the processes are bound to), and the new communicator is
 * built so that new rank v owns graph vertex v: MPI_Dist_graph_neighbors
 * on new rank v returns the lists that old rank v passed (vertex ids are
 * the new ranks).  An identity result is detected and costs nothing more.
 * They never abort the job: on any topomap error the call behaves as with
 * reorder == 0 and rank 0 prints one warning on stderr.  The environment
 * variables (TOPOMAP_TOPOLOGY, TOPOMAP_STRATEGY, ...) are in docs/mpi.md.
 * Rank 0 maps with one thread by default; TOPOMAP_THREADS > 1 makes it fork
 * METIS worker processes inside the MPI process (topomap/error.h,
 * tm_ctx_set_threads: what they are, and why some transports mind).
 *
 * This header is separate from libtopomap.so: include it only when
 * compiling with an MPI compiler wrapper.
 */
#ifndef TOPOMAP_MPI_H
#define TOPOMAP_MPI_H

#include <mpi.h>

#include "topomap/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* MPI_Dist_graph_create_adjacent and MPI_Dist_graph_create with topomap's
 * reordering when reorder != 0 (above); MPI error codes as those calls. */
TM_API int tm_mpi_dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int *sources,
                                             const int *sourceweights, int outdegree,
                                             const int *destinations, const int *destweights,
                                             MPI_Info info, int reorder, MPI_Comm *comm_dist_graph);
TM_API int tm_mpi_dist_graph_create(MPI_Comm comm_old, int n, const int *sources,
                                    const int *degrees, const int *destinations,
                                    const int *weights, MPI_Info info, int reorder,
                                    MPI_Comm *comm_dist_graph);
/* The grid's nearest-neighbour graph (periodic where periods[] says, unit
 * weights) is mapped; the result is a Cartesian communicator whose rank v
 * sits at coordinates v (row-major), as MPI_Cart_create defines. */
TM_API int tm_mpi_cart_create(MPI_Comm comm_old, int ndims, const int *dims, const int *periods,
                              int reorder, MPI_Comm *comm_cart);
/* MPI_Graph_create (the non-distributed graph topology): every process
 * passes the whole graph, so nothing is gathered; new rank v is node v
 * (MPI_Graph_neighbors(v) = node v's edges as given), processes beyond
 * nnodes get MPI_COMM_NULL as with MPI. */
TM_API int tm_mpi_graph_create(MPI_Comm comm_old, int nnodes, const int *index, const int *edges,
                               int reorder, MPI_Comm *comm_graph);

#ifdef __cplusplus
}
#endif
#endif
