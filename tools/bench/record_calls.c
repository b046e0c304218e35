/* record_calls.c - the cost of TOPOMAP_RECORD per call (tools/bench/record.sh):
 * one process sends to itself (MPI_Isend + MPI_Recv + MPI_Wait) N times,
 * then calls MPI_Allreduce on one int N times, and prints the time per
 * iteration of each loop in ns (median of 5 repetitions).  Run it with and
 * without the shim: the difference is what recording adds to one call.
 *   usage: record_calls [N (default 200000)] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double send_loop(long n)
{
    int buf[8] = {0}, in[8];
    double t = MPI_Wtime();
    for (long i = 0; i < n; i++) {
        MPI_Request r;
        MPI_Isend(buf, 8, MPI_INT, 0, 1, MPI_COMM_SELF, &r);
        MPI_Recv(in, 8, MPI_INT, 0, 1, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    return (MPI_Wtime() - t) / (double)n * 1e9;
}

static double coll_loop(long n)
{
    int x = 1, y;
    double t = MPI_Wtime();
    for (long i = 0; i < n; i++)
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return (MPI_Wtime() - t) / (double)n * 1e9;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 200000;
    double s[5], c[5];
    MPI_Init(&argc, &argv);
    if (n < 1)
        n = 200000;
    for (int k = 0; k < 5; k++) {
        s[k] = send_loop(n);
        c[k] = coll_loop(n);
    }
    qsort(s, 5, sizeof *s, cmp);
    qsort(c, 5, sizeof *c, cmp);
    printf("record_calls: isend+recv %.1f ns, allreduce %.1f ns\n", s[2], c[2]);
    MPI_Finalize();
    return 0;
}
