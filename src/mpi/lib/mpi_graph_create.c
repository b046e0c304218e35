/* mpi_graph_create.c - tm_mpi_graph_create: MPI_Graph_create, the old
 * non-distributed graph topology, reordered like the other calls.
 *
 * Every process passes the whole graph (MPI requires the same arguments
 * on all of them), so nothing needs gathering: rank 0 contributes every
 * edge and the other processes none.  The result is MPI_Graph_create with
 * reorder = 0 on the reordered communicator: new rank v is graph node v,
 * so MPI_Graph_neighbors(v) lists node v's edges as the caller gave them. */
#include <stdlib.h>

#include "topomap/mpi.h"
#include "mpi_int.h"

/* Whether (nnodes, index, edges) is a graph MPI accepts on `size`
 * processes; every process computes the same answer from the same
 * arguments, so all reorder or none.  An erroneous call goes to MPI
 * unchanged, which reports it. */
static int graph_valid(int nnodes, const int *index, const int *edges, int size)
{
    if (nnodes <= 0 || nnodes > size || !index || index[0] < 0)
        return 0;
    for (int i = 1; i < nnodes; i++)
        if (index[i] < index[i - 1])
            return 0;
    if (index[nnodes - 1] > 0 && !edges)
        return 0;
    for (int k = 0; k < index[nnodes - 1]; k++)
        if (edges[k] < 0 || edges[k] >= nnodes)
            return 0;
    return 1;
}

/* Node i's edges are edges[index[i-1] .. index[i]) (index[-1] = 0), unit
 * weights.  m = -1 when out of memory (the plan then keeps the old ranks). */
static void graph_edges(int nnodes, const int *index, const int *edges, tm__mpi_edges *e)
{
    int m = index[nnodes - 1];
    e->pair = malloc((size_t)(2 * m + 2) * sizeof *e->pair);
    e->w = malloc((size_t)(m + 1) * sizeof *e->w);
    if (!e->pair || !e->w) {
        e->m = -1;
        return;
    }
    for (int i = 0, k = 0; i < nnodes; i++)
        for (; k < index[i]; k++) {
            e->pair[2 * k] = i;
            e->pair[2 * k + 1] = edges[k];
            e->w[k] = 1.0;
        }
    e->m = m;
}

typedef struct graph_args {
    int nnodes;
    const int *index, *edges;
    MPI_Comm *out;
} graph_args;

/* processes beyond nnodes get MPI_COMM_NULL, as with MPI */
static int graph_on(MPI_Comm comm, void *arg)
{
    const graph_args *a = arg;
    return PMPI_Graph_create(comm, a->nnodes, a->index, a->edges, 0, a->out);
}

int tm_mpi_graph_create(MPI_Comm comm_old, int nnodes, const int *index, const int *edges,
                        int reorder, MPI_Comm *comm_graph)
{
    tm__mpi_cfg cfg;
    tm__mpi_edges mine = {0};
    graph_args args = {nnodes, index, edges, comm_graph};
    int rank, size;
    if (!tm__mpi_can_reorder(comm_old, reorder, &rank, &size) ||
        !graph_valid(nnodes, index, edges, size) ||
        tm__mpi_mode_get(comm_old, rank, &cfg) != TM__MPI_RUN)
        return PMPI_Graph_create(comm_old, nnodes, index, edges, reorder, comm_graph);
    if (rank == 0)
        graph_edges(nnodes, index, edges, &mine);
    return tm__mpi_finish(comm_old, &cfg, &mine, nnodes, "MPI_Graph_create", graph_on, &args);
}
