/* commstat.h - what the example MPI programs report about their
 * communication, shared by halo3d.c, spmv.c and fft2d.c:
 *   comm_time_print  the communication time, max over ranks (under SMPI
 *                    with smpi/simulate-computation:no, simulated seconds);
 *   comm_matrix_write  with TM_COMM_MATRIX=FILE in the environment, rank 0
 *                    writes the bytes every rank sent to every other one
 *                    (MPI_COMM_WORLD ranks) as a Matrix Market coordinate
 *                    file, which `topomap map --comm FILE` reads.
 * Header-only (static functions) so each example stays one compile line. */
#ifndef COMMSTAT_H
#define COMMSTAT_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void comm_time_print(const char *prog, double t)
{
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0)
        printf("%s: communication time %.9g s (max over ranks)\n", prog, t);
}

/* bytes[i]: bytes this rank sent to world rank dst[i] over the run
 * (k entries, a destination may repeat). */
static void comm_matrix_write(int k, const int *dst, const double *bytes)
{
    const char *path = getenv("TM_COMM_MATRIX");
    int me, np, total = 0;
    double *row = NULL, *all = NULL;
    if (!path || !*path)
        return;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    row = calloc((size_t)np, sizeof *row); /* one row per rank: examples are small */
    if (!row)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (int i = 0; i < k; i++)
        row[dst[i]] += bytes[i];
    if (me == 0) {
        all = malloc((size_t)np * np * sizeof *all);
        if (!all)
            MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Gather(row, np, MPI_DOUBLE, all, np, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (me == 0) {
        FILE *f = fopen(path, "w");
        if (!f)
            MPI_Abort(MPI_COMM_WORLD, 2);
        for (long i = 0; i < (long)np * np; i++)
            total += all[i] > 0 && i / np != i % np;
        fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n"
                   "%% bytes sent from rank i-1 to rank j-1\n%d %d %d\n", np, np, total);
        for (long i = 0; i < (long)np * np; i++)
            if (all[i] > 0 && i / np != i % np)
                fprintf(f, "%ld %ld %.17g\n", i / np + 1, i % np + 1, all[i]);
        if (fclose(f) != 0)
            MPI_Abort(MPI_COMM_WORLD, 2);
    }
    free(all);
    free(row);
}

#endif
