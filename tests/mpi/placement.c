/* placement.c - where did the launcher put each rank?  Every rank reports
 * (gathered, printed by rank 0 in rank order): its world rank, host name,
 * the smallest world rank of its MPI_COMM_TYPE_SHARED group and that
 * group's size, and its CPU affinity (sched_getaffinity) as a list.
 * Used by tests/cli/t61-launchers.sh and docs/mpi.md. */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define LINE 512

static void affinity(char *buf, size_t len)
{
    cpu_set_t set;
    size_t k = 0;
    buf[0] = '\0';
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return;
    for (int c = 0; c < CPU_SETSIZE && k + 8 < len; c++)
        if (CPU_ISSET(c, &set))
            k += (size_t)snprintf(buf + k, len - k, "%s%d", k ? "," : "", c);
}

int main(int argc, char **argv)
{
    int rank, size, ssize, leader;
    char host[256], cpus[LINE - 300], line[LINE];
    static char all[4096 * LINE];
    MPI_Comm shm;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm);
    MPI_Comm_size(shm, &ssize);
    leader = rank;
    MPI_Allreduce(MPI_IN_PLACE, &leader, 1, MPI_INT, MPI_MIN, shm);
    gethostname(host, sizeof host);
    host[sizeof host - 1] = '\0';
    affinity(cpus, sizeof cpus);
    memset(line, 0, sizeof line);
    snprintf(line, sizeof line, "rank %d host %s shared_group %d size %d cpus %s", rank, host,
             leader, ssize, cpus);
    if (size > 4096)
        MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Gather(line, LINE, MPI_CHAR, all, LINE, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (int r = 0; r < size; r++)
            printf("%s\n", all + (size_t)r * LINE);
    MPI_Comm_free(&shm);
    MPI_Finalize();
    return 0;
}
