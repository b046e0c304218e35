/* mpi_consumer.c - a program built against an installed libtopomap_mpi
 * (pkg-config topomap-mpi-<mpi>, CMake topomap::mpi: tests/cli/t70-install.sh).
 * Builds a ring with tm_mpi_cart_create (reorder 0: MPI_Cart_create itself,
 * no topology needed) and checks each rank's neighbours. */
#include <stdio.h>

#include <topomap/mpi.h>

int main(int argc, char **argv)
{
    int size, rank, left, right, dims[1], periods[1] = {1}, bad = 0, any;
    MPI_Comm ring;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    dims[0] = size;
    if (tm_mpi_cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring) != MPI_SUCCESS) {
        fprintf(stderr, "mpi_consumer: tm_mpi_cart_create failed\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm_rank(ring, &rank);
    MPI_Cart_shift(ring, 0, 1, &left, &right);
    bad = left != (rank + size - 1) % size || right != (rank + 1) % size;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, ring);
    if (rank == 0)
        printf("ring of %d: %s\n", size, any ? "wrong neighbours" : "ok");
    MPI_Comm_free(&ring);
    MPI_Finalize();
    return any;
}
