/* record_threads.c - TOPOMAP_RECORD under MPI_THREAD_MULTIPLE
 * (tests/cli/t62-record.sh): T threads per process each send K messages of
 * (t + 1) ints to world rank + 1 (tag t) and receive as many from rank - 1,
 * at the same time.  The recorded matrix must hold exactly T x K messages
 * and K x 4 x T(T+1)/2 bytes per pair (w, w+1): no update lost.
 *   usage: record_threads [T (default 4)] [K (default 500)]
 * Exit 3 when the MPI does not provide MPI_THREAD_MULTIPLE. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int P, W, K = 500;

static void *worker(void *arg)
{
    int t = (int)(long)arg, buf[64] = {0};
    MPI_Status st;
    for (int i = 0; i < K; i++) {
        MPI_Request r;
        MPI_Irecv(buf + 32, t + 1, MPI_INT, (W - 1 + P) % P, t, MPI_COMM_WORLD, &r);
        MPI_Send(buf, t + 1, MPI_INT, (W + 1) % P, t, MPI_COMM_WORLD);
        MPI_Wait(&r, &st);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, T = argc > 1 ? atoi(argv[1]) : 4;
    pthread_t th[16];
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (argc > 2)
        K = atoi(argv[2]);
    if (T < 1 || T > 16 || K < 1)
        T = 4, K = 500;
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &W);
    if (provided != MPI_THREAD_MULTIPLE) {
        if (W == 0)
            fprintf(stderr, "record_threads: MPI_THREAD_MULTIPLE not provided (%d)\n", provided);
        MPI_Finalize();
        return 3;
    }
    for (int t = 0; t < T; t++)
        pthread_create(&th[t], NULL, worker, (void *)(long)t);
    for (int t = 0; t < T; t++)
        pthread_join(th[t], NULL);
    if (W == 0)
        printf("record_threads: %d ranks x %d threads x %d messages done\n", P, T, K);
    MPI_Finalize();
    return 0;
}
