/* commstat.h - what the example MPI programs report about their
 * communication, shared by halo3d.c, spmv.c and fft2d.c:
 *   comm_time_print  the communication time, max over ranks (under SMPI
 *                    with smpi/simulate-computation:no, simulated seconds);
 *   comm_matrix_write  with TM_COMM_MATRIX=FILE in the environment, rank 0
 *                    writes the bytes every rank sent to every other one
 *                    (MPI_COMM_WORLD ranks) as a Matrix Market coordinate
 *                    file, which `topomap map --comm FILE` reads.
 * Header-only (static functions) so each example stays one compile line;
 * sparse (entries per rank, no n x n array). */
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

static int commstat_cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* bytes[i]: bytes this rank sent to world rank dst[i] over the run
 * (k entries, a destination may repeat).  Sparse: rank 0 gathers the
 * entries (MPI_Gatherv), never an n x n array. */
static void comm_matrix_write(int k, const int *dst, const double *bytes)
{
    const char *path = getenv("TM_COMM_MATRIX");
    int me, np, m = 0, *cnt = NULL, *off = NULL, *idx, *alld = NULL, *dd;
    double *vv, *allv = NULL;
    if (!path || !*path)
        return;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    /* this rank's row: destinations sorted, repeats summed, itself left out */
    idx = malloc((size_t)(k + 1) * sizeof *idx);
    dd = malloc((size_t)(k + 1) * sizeof *dd);
    vv = malloc((size_t)(k + 1) * sizeof *vv);
    if (!idx || !dd || !vv)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (int i = 0; i < k; i++)
        idx[i] = dst[i];
    qsort(idx, (size_t)k, sizeof *idx, commstat_cmp_int);
    for (int i = 0; i < k; i++)
        if (idx[i] != me && (m == 0 || dd[m - 1] != idx[i]))
            dd[m] = idx[i], vv[m++] = 0;
    for (int i = 0; i < k; i++)
        for (int j = 0; j < m; j++)
            if (dd[j] == dst[i])
                vv[j] += bytes[i];
    if (me == 0) {
        cnt = malloc((size_t)np * sizeof *cnt);
        off = malloc((size_t)(np + 1) * sizeof *off);
        if (!cnt || !off)
            MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Gather(&m, 1, MPI_INT, cnt, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (me == 0) {
        off[0] = 0;
        for (int r = 0; r < np; r++)
            off[r + 1] = off[r] + cnt[r];
        alld = malloc((size_t)(off[np] + 1) * sizeof *alld);
        allv = malloc((size_t)(off[np] + 1) * sizeof *allv);
        if (!alld || !allv)
            MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Gatherv(dd, m, MPI_INT, alld, cnt, off, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Gatherv(vv, m, MPI_DOUBLE, allv, cnt, off, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (me == 0) {
        FILE *f = fopen(path, "w");
        if (!f)
            MPI_Abort(MPI_COMM_WORLD, 2);
        fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n"
                   "%% bytes sent from rank i-1 to rank j-1\n%d %d %d\n", np, np, off[np]);
        for (int r = 0; r < np; r++)
            for (int i = off[r]; i < off[r + 1]; i++)
                fprintf(f, "%d %d %.17g\n", r + 1, alld[i] + 1, allv[i]);
        if (fclose(f) != 0)
            MPI_Abort(MPI_COMM_WORLD, 2);
    }
    free(allv);
    free(alld);
    free(off);
    free(cnt);
    free(vv);
    free(dd);
    free(idx);
}

#endif
