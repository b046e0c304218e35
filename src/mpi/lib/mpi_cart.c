/* mpi_cart.c - tm_mpi_cart_create: the grid's nearest-neighbour graph
 * (unit weights, wrap-around where periods[] says) mapped like any other
 * graph; the result is an ordinary Cartesian communicator on the
 * reordered processes (reorder = 0 there: rank v has coordinates v). */
#include <stdlib.h>
#include <string.h>

#include "topomap/mpi.h"
#include "mpi_int.h"

/* Grid vertices, or -1 when the call is erroneous or too large (MPI then
 * reports the error itself, or the grid is left as MPI builds it). */
static long long grid_size(int ndims, const int *dims)
{
    long long n = 1;
    if (ndims <= 0)
        return -1;
    for (int d = 0; d < ndims; d++) {
        if (dims[d] <= 0)
            return -1;
        n *= dims[d];
        if (n > 0x7fffffffLL)
            return -1;
    }
    return n;
}

/* The up-to-2*ndims neighbours of vertex v (row-major, last dimension
 * fastest, as MPI_Cart_rank numbers them). */
static int neighbours(int v, int ndims, const int *dims, const int *periods, int *out)
{
    int k = 0;
    long long stride = 1;
    for (int d = ndims - 1; d >= 0; stride *= dims[d], d--) {
        int c = (int)((v / stride) % dims[d]);
        for (int s = -1; s <= 1; s += 2) {
            int c2 = c + s;
            if (c2 < 0 || c2 >= dims[d]) {
                if (!periods[d])
                    continue;
                c2 = (c2 + dims[d]) % dims[d];
            }
            if (c2 != c)
                out[k++] = (int)(v + (c2 - c) * stride);
        }
    }
    return k;
}

typedef struct cart_args {
    int ndims;
    const int *dims, *periods;
    MPI_Comm *out;
} cart_args;

static int cart_on(MPI_Comm comm, void *arg)
{
    const cart_args *a = arg;
    return PMPI_Cart_create(comm, a->ndims, a->dims, a->periods, 0, a->out);
}

int tm_mpi_cart_create(MPI_Comm comm_old, int ndims, const int *dims, const int *periods,
                       int reorder, MPI_Comm *comm_cart)
{
    tm__mpi_cfg cfg;
    tm__mpi_edges mine = {0};
    cart_args args = {ndims, dims, periods, comm_cart};
    int rank, size, *nb = NULL, k = 0;
    long long n = grid_size(ndims, dims);
    /* every rank computes the same n: all skip or none */
    if (!tm__mpi_can_reorder(comm_old, reorder, &rank, &size) || n < 0 || n > size ||
        tm__mpi_mode_get(comm_old, rank, &cfg) != TM__MPI_RUN)
        return PMPI_Cart_create(comm_old, ndims, dims, periods, reorder, comm_cart);
    nb = malloc((size_t)(2 * ndims + 1) * sizeof *nb);
    if (!nb)
        mine.m = -1;
    else if (rank < n) {
        k = neighbours(rank, ndims, dims, periods, nb);
        mine.pair = malloc((size_t)(2 * k + 2) * sizeof *mine.pair);
        mine.w = malloc((size_t)(k + 1) * sizeof *mine.w);
        mine.m = mine.pair && mine.w ? k : -1;
        for (int i = 0; mine.m >= 0 && i < k; i++)
            mine.pair[2 * i] = rank, mine.pair[2 * i + 1] = nb[i], mine.w[i] = 1.0;
    }
    free(nb);
    return tm__mpi_finish(comm_old, &cfg, &mine, (int)n, "MPI_Cart_create", cart_on, &args);
}
