/* commstat.h - what the example MPI programs report about their
 * communication, shared by halo3d.c, spmv.c and fft2d.c:
 *   comm_time_print  the communication time, max over ranks (under SMPI
 *                    with smpi/simulate-computation:no, simulated seconds);
 *   comm_matrix_write  with TM_COMM_MATRIX=FILE in the environment, rank 0
 *                    writes the bytes every rank sent to every other one
 *                    (MPI_COMM_WORLD ranks) as a Matrix Market coordinate
 *                    file, which `topomap map --comm FILE` reads;
 *   comm_phases_write  with TM_COMM_PHASES=FILE, rank 0 writes the run's
 *                    phases (the exchanges that run one after the other,
 *                    each with its repeat count), which `topomap eval/map
 *                    --comm-phases FILE` reads.
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

/* This rank's row of a matrix, gathered on rank 0: bytes[i] to world rank
 * dst[i] (k entries, a destination may repeat; repeats summed, the rank
 * itself left out).  On rank 0 *off (np + 1 offsets), *alld and *allv hold
 * every rank's entries; elsewhere they stay NULL.  Sparse: one
 * MPI_Gatherv, never an n x n array. */
static void commstat_gather(int k, const int *dst, const double *bytes, int **off, int **alld,
                            double **allv)
{
    int me, np, m = 0, *cnt = NULL, *idx, *dd;
    double *vv;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    *off = *alld = NULL;
    *allv = NULL;
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
        *off = malloc((size_t)(np + 1) * sizeof **off);
        if (!cnt || !*off)
            MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Gather(&m, 1, MPI_INT, cnt, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (me == 0) {
        (*off)[0] = 0;
        for (int r = 0; r < np; r++)
            (*off)[r + 1] = (*off)[r] + cnt[r];
        *alld = malloc((size_t)((*off)[np] + 1) * sizeof **alld);
        *allv = malloc((size_t)((*off)[np] + 1) * sizeof **allv);
        if (!*alld || !*allv)
            MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Gatherv(dd, m, MPI_INT, *alld, cnt, *off, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Gatherv(vv, m, MPI_DOUBLE, *allv, cnt, *off, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    free(cnt);
    free(vv);
    free(dd);
    free(idx);
}

/* Rank 0 writes the gathered entries as 1-based "i j bytes" lines. */
static void commstat_entries(FILE *f, int np, const int *off, const int *alld,
                             const double *allv)
{
    for (int r = 0; r < np; r++)
        for (int i = off[r]; i < off[r + 1]; i++)
            fprintf(f, "%d %d %.17g\n", r + 1, alld[i] + 1, allv[i]);
}

/* bytes[i]: bytes this rank sent to world rank dst[i] over the run
 * (k entries, a destination may repeat): with TM_COMM_MATRIX=FILE rank 0
 * writes the matrix as Matrix Market. */
static void comm_matrix_write(int k, const int *dst, const double *bytes)
{
    const char *path = getenv("TM_COMM_MATRIX");
    int me, np, *off, *alld;
    double *allv;
    if (!path || !*path)
        return;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    commstat_gather(k, dst, bytes, &off, &alld, &allv);
    if (me == 0) {
        FILE *f = fopen(path, "w");
        if (!f)
            MPI_Abort(MPI_COMM_WORLD, 2);
        fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n"
                   "%% bytes sent from rank i-1 to rank j-1\n%d %d %d\n", np, np, off[np]);
        commstat_entries(f, np, off, alld, allv);
        if (fclose(f) != 0)
            MPI_Abort(MPI_COMM_WORLD, 2);
    }
    free(allv);
    free(alld);
    free(off);
}

/* The run's communication as phases (topomap's phases format, docs/time.md
 * "Phases"): phase p is the exchange this rank's entries k[p] (destinations
 * and bytes of one run of the phase, concatenated over the phases in
 * dst/bytes) describe, run repeat[p] times one after the other (the same
 * nph and repeat on every rank).  With TM_COMM_PHASES=FILE rank 0 writes
 * them; `topomap eval/map --comm-phases FILE` reads them. */
static void comm_phases_write(int nph, const int *k, const int *dst, const double *bytes,
                              const long *repeat)
{
    const char *path = getenv("TM_COMM_PHASES");
    int me, np, at = 0;
    FILE *f = NULL;
    if (!path || !*path)
        return;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (me == 0) {
        if (!(f = fopen(path, "w")))
            MPI_Abort(MPI_COMM_WORLD, 2);
        fprintf(f, "%%%%TopomapPhases 1\n%% phase r runs r times; entry i j: bytes from rank "
                   "i-1 to rank j-1 in one run\n%d %d\n", np, nph);
    }
    for (int p = 0; p < nph; p++) {
        int *off, *alld;
        double *allv;
        commstat_gather(k[p], dst + at, bytes + at, &off, &alld, &allv);
        at += k[p];
        if (me == 0) {
            fprintf(f, "phase %ld %d\n", repeat[p], off[np]);
            commstat_entries(f, np, off, alld, allv);
        }
        free(allv);
        free(alld);
        free(off);
    }
    if (me == 0 && fclose(f) != 0)
        MPI_Abort(MPI_COMM_WORLD, 2);
}

#endif
