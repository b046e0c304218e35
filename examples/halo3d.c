/* halo3d.c - a 3D halo exchange that lets MPI reorder its ranks.
 *
 * Every process owns an n x n x n block of a global grid (blocks on a
 * non-periodic px x py x pz process grid from MPI_Dims_create).  It builds
 * its communicator with MPI_Dist_graph_create_adjacent(reorder = 1), so
 * its block is the one of its NEW rank; it checks that
 * MPI_Dist_graph_neighbors returns the neighbours of that block, exchanges
 * the six faces with MPI_Neighbor_alltoall and checks every received value
 * (cell (x, y, z) holds x * 1e6 + y * 1e3 + z, exact in a double).
 *
 * Plain MPI: run it as is, or with LD_PRELOAD=libtopomap_pmpi.so to let
 * topomap choose the ranks (docs/mpi.md).
 *
 * Built with -DHALO3D_NO_DIST_GRAPH (SimGrid's SMPI 3.32 aborts on
 * MPI_Dist_graph_create_adjacent), it keeps MPI_COMM_WORLD's ranks (the
 * placement is then the launcher's: smpirun -hostfile) and exchanges the
 * faces with MPI_Irecv/MPI_Isend to the same neighbours, same volumes.
 * Either way it prints the communication time of the exchange loop (max
 * over ranks) and, with TM_COMM_MATRIX=FILE, writes the bytes sent per
 * pair of ranks for `topomap map --comm FILE`, and with TM_COMM_PHASES=FILE
 * its phases (one exchange, once per iteration; commstat.h).
 *   usage: halo3d [n (default 8)] [iterations (default 3)]
 * Exit 0 when every value is right, 1 otherwise. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "commstat.h"

typedef struct grid {
    int dims[3], me[3], n;
    int nb[6], deg; /* neighbour ranks in direction order -x +x -y +y -z +z */
    int dir[6];     /* the direction (0..5) of each neighbour */
} grid;

static void coords(const grid *g, int r, int c[3])
{
    c[2] = r % g->dims[2];
    c[1] = (r / g->dims[2]) % g->dims[1];
    c[0] = r / (g->dims[2] * g->dims[1]);
}

static int rank_of(const grid *g, const int c[3])
{
    return (c[0] * g->dims[1] + c[1]) * g->dims[2] + c[2];
}

/* The block of rank r and its existing neighbours. */
static void place(grid *g, int r)
{
    coords(g, r, g->me);
    g->deg = 0;
    for (int d = 0; d < 6; d++) {
        int c[3] = {g->me[0], g->me[1], g->me[2]};
        c[d / 2] += d % 2 ? 1 : -1;
        if (c[d / 2] < 0 || c[d / 2] >= g->dims[d / 2])
            continue;
        g->dir[g->deg] = d;
        g->nb[g->deg++] = rank_of(g, c);
    }
}

static double value(const int gc[3])
{
    return gc[0] * 1e6 + gc[1] * 1e3 + gc[2];
}

/* Face cell k (0..n*n-1) of direction d: the global coordinates of the
 * cell this block sends (inside) or expects (one step outside). */
static void face_cell(const grid *g, int d, int k, int outside, int gc[3])
{
    int a = d / 2, u = (a + 1) % 3, v = (a + 2) % 3, n = g->n;
    gc[a] = g->me[a] * n + (d % 2 ? n - 1 : 0) + (outside ? (d % 2 ? 1 : -1) : 0);
    gc[u] = g->me[u] * n + k / n;
    gc[v] = g->me[v] * n + k % n;
}

static long check_neighbours(MPI_Comm comm, const grid *g)
{
    int indeg, outdeg, weighted, src[6], dst[6], sw[6], dw[6];
    long bad = 0;
    MPI_Dist_graph_neighbors_count(comm, &indeg, &outdeg, &weighted);
    if (indeg != g->deg || outdeg != g->deg)
        return 1;
    MPI_Dist_graph_neighbors(comm, 6, src, sw, 6, dst, dw);
    for (int i = 0; i < g->deg; i++)
        bad += src[i] != g->nb[i] || dst[i] != g->nb[i];
    return bad;
}

static long exchange(MPI_Comm comm, const grid *g, double *sbuf, double *rbuf)
{
    int nn = g->n * g->n, gc[3];
    long bad = 0;
    for (int i = 0; i < g->deg; i++)
        for (int k = 0; k < nn; k++) {
            face_cell(g, g->dir[i], k, 0, gc);
            sbuf[(size_t)i * nn + k] = value(gc);
            rbuf[(size_t)i * nn + k] = -1;
        }
#ifdef HALO3D_NO_DIST_GRAPH
    {
        MPI_Request req[12];
        for (int i = 0; i < g->deg; i++)
            MPI_Irecv(rbuf + (size_t)i * nn, nn, MPI_DOUBLE, g->nb[i], 0, comm, &req[i]);
        for (int i = 0; i < g->deg; i++)
            MPI_Isend(sbuf + (size_t)i * nn, nn, MPI_DOUBLE, g->nb[i], 0, comm, &req[g->deg + i]);
        MPI_Waitall(2 * g->deg, req, MPI_STATUSES_IGNORE);
    }
#else
    MPI_Neighbor_alltoall(sbuf, nn, MPI_DOUBLE, rbuf, nn, MPI_DOUBLE, comm);
#endif
    for (int i = 0; i < g->deg; i++)
        for (int k = 0; k < nn; k++) {
            face_cell(g, g->dir[i], k, 1, gc);
            bad += rbuf[(size_t)i * nn + k] != value(gc);
        }
    return bad;
}

int main(int argc, char **argv)
{
    grid g = {{0, 0, 0}, {0, 0, 0}, 8, {0}, 0, {0}};
    int old, size, now, iters = 3, w[6], wnb[6];
    long bad = 0, moved, checked;
    double t, sent[6];
    MPI_Comm comm;
    double *sbuf, *rbuf;
    MPI_Init(&argc, &argv);
    if (argc > 1)
        g.n = atoi(argv[1]);
    if (argc > 2)
        iters = atoi(argv[2]);
    if (g.n < 1 || g.n > 256 || iters < 1)
        g.n = 8, iters = 3;
    MPI_Comm_rank(MPI_COMM_WORLD, &old);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 3, g.dims);
    place(&g, old);
    for (int i = 0; i < 6; i++)
        w[i] = g.n * g.n; /* bytes per exchange scale with the face */
#ifdef HALO3D_NO_DIST_GRAPH
    (void)w;
    (void)check_neighbours;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    now = old;
#else
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, g.deg, g.nb, w, g.deg, g.nb, w, MPI_INFO_NULL,
                                   1, &comm);
    MPI_Comm_rank(comm, &now);
    place(&g, now); /* the block of the new rank */
    bad += check_neighbours(comm, &g);
#endif
    sbuf = malloc((size_t)6 * g.n * g.n * sizeof *sbuf);
    rbuf = malloc((size_t)6 * g.n * g.n * sizeof *rbuf);
    if (!sbuf || !rbuf)
        MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Barrier(comm);
    t = MPI_Wtime();
    for (int it = 0; it < iters; it++)
        bad += exchange(comm, &g, sbuf, rbuf);
    t = MPI_Wtime() - t;
    {
        /* neighbours as world ranks (reordered or not) for the matrix */
        MPI_Group gc, gw;
        MPI_Comm_group(comm, &gc);
        MPI_Comm_group(MPI_COMM_WORLD, &gw);
        MPI_Group_translate_ranks(gc, g.deg, g.nb, gw, wnb);
        MPI_Group_free(&gc);
        MPI_Group_free(&gw);
        for (int i = 0; i < g.deg; i++)
            sent[i] = (double)iters * g.n * g.n * sizeof(double);
    }
    moved = now != old;
    checked = (long)iters * g.deg * g.n * g.n;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_LONG, MPI_SUM, comm);
    MPI_Allreduce(MPI_IN_PLACE, &moved, 1, MPI_LONG, MPI_SUM, comm);
    MPI_Allreduce(MPI_IN_PLACE, &checked, 1, MPI_LONG, MPI_SUM, comm);
    if (now == 0)
        printf("halo3d: %d ranks, %dx%dx%d blocks of %d^3, %ld ranks moved, %ld halo values "
               "checked, %ld wrong\n", size, g.dims[0], g.dims[1], g.dims[2], g.n, moved, checked,
               bad);
    comm_time_print("halo3d", t);
    comm_matrix_write(g.deg, wnb, sent);
    {
        /* one phase: the halo exchange, once per iteration */
        long rep = iters;
        for (int i = 0; i < g.deg; i++)
            sent[i] = (double)g.n * g.n * sizeof(double);
        comm_phases_write(1, &g.deg, wnb, sent, &rep);
    }
    free(sbuf);
    free(rbuf);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return bad ? 1 : 0;
}
