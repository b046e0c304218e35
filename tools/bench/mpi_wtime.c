/* mpi_wtime.c - a timing preload for tools/bench/record.sh: on rank 0, the
 * seconds from MPI_Init to the call of MPI_Finalize (the run) and those
 * MPI_Finalize takes (TOPOMAP_RECORD gathers and writes its files there),
 * printed as `bench_wtime: RUN FINALIZE` on stderr.
 * It forwards MPI_Init/MPI_Init_thread/MPI_Finalize to the next definition
 * (RTLD_NEXT): put it first in LD_PRELOAD, before libtopomap_pmpi.so. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static double t0;
static int rank0;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void started(void)
{
    int r = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &r);
    rank0 = r == 0;
    PMPI_Barrier(MPI_COMM_WORLD);
    t0 = now();
}

int MPI_Init(int *argc, char ***argv)
{
    int (*next)(int *, char ***) = (int (*)(int *, char ***))dlsym(RTLD_NEXT, "MPI_Init");
    int rc = next(argc, argv);
    started();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int req, int *prov)
{
    int (*next)(int *, char ***, int, int *) =
        (int (*)(int *, char ***, int, int *))dlsym(RTLD_NEXT, "MPI_Init_thread");
    int rc = next(argc, argv, req, prov);
    started();
    return rc;
}

int MPI_Finalize(void)
{
    int (*next)(void) = (int (*)(void))dlsym(RTLD_NEXT, "MPI_Finalize");
    int rc;
    double t1;
    PMPI_Barrier(MPI_COMM_WORLD);
    t1 = now();
    rc = next();
    if (rank0)
        fprintf(stderr, "bench_wtime: %.6f %.6f\n", t1 - t0, now() - t1);
    return rc;
}
