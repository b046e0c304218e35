/* record_phases.c - a program with known phases for TOPOMAP_RECORD's
 * FILE.phases (docs/mpi.md "Phases"; tests/cli/t62-record.sh,
 * tests/mpi/record_phases.py):
 *   K times: a ring, rank r sends 1000 bytes to r+1 (MPI_Isend), then an
 *            MPI_Allreduce of one int on MPI_COMM_WORLD;
 *   then an MPI_Alltoall of 16 bytes per block on MPI_COMM_WORLD;
 *   then rank r sends 500 bytes to r-1 (MPI_Send).
 * Phases: the ring (repeat K), the allreduce's pattern (repeat K), the
 * all-to-all (repeat 1), the last sends (repeat 1).
 *   usage: record_phases [K (default 3)]   (2 to 64 ranks) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    char sbuf[1000], rbuf[1000], a2a_s[16 * 64], a2a_r[16 * 64];
    int me, np, x = 1, y = 0, iters = argc > 1 ? atoi(argv[1]) : 3;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np < 2 || np > 64) {
        if (me == 0)
            fprintf(stderr, "record_phases: 2 to 64 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(sbuf, 1, sizeof sbuf);
    memset(a2a_s, 2, sizeof a2a_s);
    for (int it = 0; it < iters; it++) {
        MPI_Isend(sbuf, 1000, MPI_BYTE, (me + 1) % np, 7, MPI_COMM_WORLD, &req);
        MPI_Recv(rbuf, 1000, MPI_BYTE, (me + np - 1) % np, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    }
    MPI_Alltoall(a2a_s, 16, MPI_BYTE, a2a_r, 16, MPI_BYTE, MPI_COMM_WORLD);
    MPI_Sendrecv(sbuf, 500, MPI_BYTE, (me + np - 1) % np, 8, rbuf, 500, MPI_BYTE, (me + 1) % np,
                 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (me == 0)
        printf("record_phases: %d ranks done (allreduce %d)\n", np, y);
    MPI_Finalize();
    return 0;
}
