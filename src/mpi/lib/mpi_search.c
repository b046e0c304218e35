/* mpi_search.c - search across ranks: the first TOPOMAP_SEARCH ranks each
 * map the same job with their own seed (TOPOMAP_SEED + search rank) and the
 * best result is chosen by one MPI_Allgather of three figures per searcher.
 *
 * Why not MPI_Allreduce(MINLOC): the objective is lexicographic
 * (congestion, then dilation, then J) and MINLOC compares one double; the
 * gathered figures (4 doubles per searcher) give every searcher the same
 * winner, lowest search rank on ties, so the result depends only on the
 * seed and the number of searchers, never on timing (without a time
 * limit). */
#include <string.h>

#include "mpi_map_int.h"

static int pick_winner(const double *all, int k)
{
    int w = -1;
    for (int i = 0; i < k; i++) {
        const double *a = all + 4 * i, *b = w < 0 ? NULL : all + 4 * w;
        if (a[3] == 0)
            continue;
        if (!b || a[0] < b[0] || (a[0] == b[0] && (a[1] < b[1] || (a[1] == b[1] && a[2] < b[2]))))
            w = i;
    }
    return w;
}

/* The winner's pick travels as bytes: it is a plain struct of the same
 * layout on every searcher (one executable). */
typedef struct wire {
    double mapped[3], found[3];
    int applied;
    char best[48];
} wire;

int tm__mpi_search_pick(MPI_Comm search, const tm__mpi_job *job, bool ok, int *owner,
                        tm__mpi_pick *pick)
{
    double mine[4];
    wire w;
    int me, k;
    MPI_Comm_rank(search, &me);
    MPI_Comm_size(search, &k);
    memcpy(mine, pick->mapped, sizeof pick->mapped);
    mine[3] = ok ? 1 : 0;
    MPI_Allgather(mine, 4, MPI_DOUBLE, pick->all, 4, MPI_DOUBLE, search);
    pick->searchers = k;
    pick->winner = pick_winner(pick->all, k);
    if (pick->winner < 0)
        return -1;
    memset(&w, 0, sizeof w);
    if (me == pick->winner) {
        memcpy(w.mapped, pick->mapped, sizeof w.mapped);
        memcpy(w.found, pick->found, sizeof w.found);
        w.applied = pick->applied;
        memcpy(w.best, pick->best, sizeof w.best);
    }
    MPI_Bcast(&w, (int)sizeof w, MPI_BYTE, pick->winner, search);
    MPI_Bcast(owner, job->nnodes, MPI_INT, pick->winner, search);
    memcpy(pick->mapped, w.mapped, sizeof w.mapped);
    memcpy(pick->found, w.found, sizeof w.found);
    pick->applied = w.applied != 0;
    memcpy(pick->best, w.best, sizeof w.best);
    return 0;
}
