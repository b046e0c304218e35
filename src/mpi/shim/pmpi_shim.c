/* pmpi_shim.c - libtopomap_pmpi.so: LD_PRELOAD it and an unmodified
 * application's MPI_Dist_graph_create_adjacent, MPI_Dist_graph_create,
 * MPI_Cart_create and MPI_Graph_create go through libtopomap_mpi
 * (docs/mpi.md); with TOPOMAP_RECORD its sends and collectives are also
 * counted (src/mpi/record/pmpi_p2p.c, pmpi_coll.c).  Only the C bindings are intercepted.
 * Everything else is the MPI library's.
 * TM_API: MPICH's mpi.h, unlike Open MPI's, does not mark the MPI_
 * names visible, and the objects are built with -fvisibility=hidden. */
#include "topomap/mpi.h"
#include "../record/pmpi_rec.h"

TM_API int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv), provided = MPI_THREAD_SINGLE;
    if (rc == MPI_SUCCESS) {
        PMPI_Query_thread(&provided);
        tm__rec_init(provided);
    }
    return rc;
}

TM_API int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS)
        tm__rec_init(*provided);
    return rc;
}

TM_API int MPI_Finalize(void)
{
    tm__rec_finalize();
    return PMPI_Finalize();
}

/* topomap's own collectives while it reorders (mpi_*.c call the MPI_
 * names, which resolve to this shim) are not the application's traffic:
 * not recorded.  The communicator it returns is recorded like any other. */

TM_API int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                   const int sourceweights[], int outdegree,
                                   const int destinations[], const int destweights[],
                                   MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
    int rc;
    tm__rec_quiet(1);
    rc = tm_mpi_dist_graph_create_adjacent(comm_old, indegree, sources, sourceweights, outdegree,
                                             destinations, destweights, info, reorder,
                                             comm_dist_graph);
    tm__rec_quiet(0);
    if (rc == MPI_SUCCESS)
        tm__rec_reordered(*comm_dist_graph, "MPI_Dist_graph_create_adjacent");
    return rc;
}

TM_API int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                          const int destinations[], const int weights[], MPI_Info info,
                          int reorder, MPI_Comm *comm_dist_graph)
{
    int rc;
    tm__rec_quiet(1);
    rc = tm_mpi_dist_graph_create(comm_old, n, sources, degrees, destinations, weights, info,
                                    reorder, comm_dist_graph);
    tm__rec_quiet(0);
    if (rc == MPI_SUCCESS)
        tm__rec_reordered(*comm_dist_graph, "MPI_Dist_graph_create");
    return rc;
}

TM_API int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                    int reorder, MPI_Comm *comm_cart)
{
    int rc;
    tm__rec_quiet(1);
    rc = tm_mpi_cart_create(comm_old, ndims, dims, periods, reorder, comm_cart);
    tm__rec_quiet(0);
    if (rc == MPI_SUCCESS)
        tm__rec_reordered(*comm_cart, "MPI_Cart_create");
    return rc;
}

TM_API int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int indx[], const int edges[],
                            int reorder, MPI_Comm *comm_graph)
{
    int rc;
    tm__rec_quiet(1);
    rc = tm_mpi_graph_create(comm_old, nnodes, indx, edges, reorder, comm_graph);
    tm__rec_quiet(0);
    if (rc == MPI_SUCCESS)
        tm__rec_reordered(*comm_graph, "MPI_Graph_create");
    return rc;
}
