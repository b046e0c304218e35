/* record_waits.c - phases cut by MPI_Waitall and MPI_Sendrecv
 * (TOPOMAP_RECORD, docs/mpi.md "Phases"; tests/cli/t62-record.sh):
 *   K times: exchange A, rank r sends 100 bytes to r+1 and to r-1
 *            (MPI_Isend, MPI_Irecv, MPI_Waitall); exchange B, 300 bytes to
 *            r+1 (MPI_Waitall); exchange C, 50 bytes to r+2 (MPI_Sendrecv);
 *            then an MPI_Allreduce of one int.
 * Phases: A, B and C (repeat K each) and the allreduce's pattern (repeat
 * K).  With a second argument `skew`, rank 0 calls one more MPI_Waitall
 * (of no request) before the loop: the processes' cuts no longer line up,
 * and the recorder keeps the collectives' cuts only (A + B + C as one
 * phase, repeat K).
 *   usage: record_waits [K (default 3)] [skew]   (3 to 64 ranks) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    char s[300], r[4][300];
    int me, np, x = 1, y = 0, iters = argc > 1 ? atoi(argv[1]) : 3;
    MPI_Request q[4];
    MPI_Status st[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np < 3 || np > 64) {
        if (me == 0)
            fprintf(stderr, "record_waits: 3 to 64 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(s, 1, sizeof s);
    if (argc > 2 && strcmp(argv[2], "skew") == 0 && me == 0)
        MPI_Waitall(0, q, st);
    for (int it = 0; it < iters; it++) {
        int up = (me + 1) % np, down = (me + np - 1) % np;
        MPI_Irecv(r[0], 100, MPI_BYTE, down, 1, MPI_COMM_WORLD, &q[0]);
        MPI_Irecv(r[1], 100, MPI_BYTE, up, 1, MPI_COMM_WORLD, &q[1]);
        MPI_Isend(s, 100, MPI_BYTE, up, 1, MPI_COMM_WORLD, &q[2]);
        MPI_Isend(s, 100, MPI_BYTE, down, 1, MPI_COMM_WORLD, &q[3]);
        MPI_Waitall(4, q, st);
        MPI_Irecv(r[0], 300, MPI_BYTE, down, 2, MPI_COMM_WORLD, &q[0]);
        MPI_Isend(s, 300, MPI_BYTE, up, 2, MPI_COMM_WORLD, &q[1]);
        MPI_Waitall(2, q, st);
        MPI_Sendrecv(s, 50, MPI_BYTE, (me + 2) % np, 3, r[2], 50, MPI_BYTE, (me + np - 2) % np, 3,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    }
    if (me == 0)
        printf("record_waits: %d ranks done (allreduce %d)\n", np, y);
    MPI_Finalize();
    return 0;
}
