/* tm_neighbors.c - checks libtopomap_mpi's communicators (tests/cli/t60-mpi.sh).
 *
 *   tm_neighbors MODE D0 D1 [D2] [--periodic]
 *   MODE: adjacent (weights 10 along dimension 0, 1 otherwise),
 *         adjacent-unw (MPI_UNWEIGHTED), general (MPI_Dist_graph_create), cart,
 *         graph (tm_mpi_graph_create: every process passes the whole grid),
 *         graph-mpi (the same through MPI_Graph_create: the PMPI shim's test)
 *
 * The graph is the grid D0 x D1 x D2 (row-major ranks).  After
 * tm_mpi_*(reorder = 1) every process takes the vertex of its new rank and
 * checks that the communicator's neighbours are that vertex's (in order
 * for the adjacent call, as a set for the general one, by coordinates for
 * Cartesian grids), then every process sends its new rank to each out-
 * neighbour and checks that each in-neighbour sent its own id.  Rank 0
 * prints one line; exit 1 on any error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topomap/mpi.h"

typedef struct grid {
    int nd, dims[3], periodic;
} grid;

/* Neighbours of v in direction order -d0 +d0 -d1 ...; weights in w. */
static int neighbours(const grid *g, int v, int nb[6], int w[6])
{
    int c[3], k = 0, r = v;
    for (int d = g->nd - 1; d >= 0; d--)
        c[d] = r % g->dims[d], r /= g->dims[d];
    for (int d = 0; d < g->nd; d++)
        for (int s = -1; s <= 1; s += 2) {
            int c2[3] = {c[0], c[1], c[2]}, u = 0;
            c2[d] += s;
            if (c2[d] < 0 || c2[d] >= g->dims[d]) {
                if (!g->periodic)
                    continue;
                c2[d] = (c2[d] + g->dims[d]) % g->dims[d];
            }
            for (int e = 0; e < g->nd; e++)
                u = u * g->dims[e] + c2[e];
            w[k] = d == 0 ? 10 : 1;
            nb[k++] = u;
        }
    return k;
}

static int cmp_int(const void *a, const void *b)
{
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* Neighbour lists of the new communicator against vertex `me`, then the
 * id exchange. */
static long check_graph(MPI_Comm comm, const grid *g, int me, int ordered)
{
    int nb[6], w[6], deg = neighbours(g, me, nb, w), in, out, wt, src[6], dst[6], sw[6], dw[6];
    int got[6], ids[6];
    long bad = 0;
    MPI_Dist_graph_neighbors_count(comm, &in, &out, &wt);
    if (in != deg || out != deg)
        return 1;
    MPI_Dist_graph_neighbors(comm, 6, src, sw, 6, dst, dw);
    if (!ordered) {
        qsort(nb, (size_t)deg, sizeof *nb, cmp_int);
        qsort(src, (size_t)in, sizeof *src, cmp_int);
        qsort(dst, (size_t)out, sizeof *dst, cmp_int);
    }
    for (int i = 0; i < deg; i++) {
        bad += src[i] != nb[i] || dst[i] != nb[i];
        ids[i] = me;
        got[i] = -1;
    }
    MPI_Dist_graph_neighbors(comm, 6, src, sw, 6, dst, dw);
    MPI_Neighbor_alltoall(ids, 1, MPI_INT, got, 1, MPI_INT, comm);
    for (int i = 0; i < deg; i++)
        bad += got[i] != src[i];
    return bad;
}

static long check_cart(MPI_Comm comm, const grid *g, int me)
{
    int c[3], src, dst, got, nb[6], w[6];
    long bad = 0;
    MPI_Cart_coords(comm, me, g->nd, c);
    for (int d = 0, r = 0; d <= g->nd; d++) {
        if (d == g->nd) {
            bad += r != me;
            break;
        }
        r = r * g->dims[d] + c[d];
    }
    neighbours(g, me, nb, w); /* nothing to compare when non-periodic edges are absent */
    for (int d = 0; d < g->nd; d++) {
        MPI_Cart_shift(comm, d, 1, &src, &dst);
        got = -2;
        MPI_Sendrecv(&me, 1, MPI_INT, dst, 5, &got, 1, MPI_INT, src, 5, comm, MPI_STATUS_IGNORE);
        bad += src != MPI_PROC_NULL && got != src;
    }
    return bad;
}

/* MPI_Graph_neighbors of vertex `me` in order, then the id exchange. */
static long check_oldgraph(MPI_Comm comm, const grid *g, int me)
{
    int nb[6], w[6], deg = neighbours(g, me, nb, w), n = -1, got_nb[6], ids[6], got[6];
    long bad = 0;
    MPI_Graph_neighbors_count(comm, me, &n);
    if (n != deg)
        return 1;
    MPI_Graph_neighbors(comm, me, 6, got_nb);
    for (int i = 0; i < deg; i++) {
        bad += got_nb[i] != nb[i];
        ids[i] = me;
        got[i] = -1;
    }
    MPI_Neighbor_alltoall(ids, 1, MPI_INT, got, 1, MPI_INT, comm);
    for (int i = 0; i < deg; i++)
        bad += got[i] != nb[i];
    return bad;
}

/* The whole grid as MPI_Graph_create's index/edges. */
static void create_oldgraph(const grid *g, int n, int plain, MPI_Comm *c)
{
    int *index = malloc((size_t)n * sizeof *index), *edges = malloc((size_t)n * 6 * sizeof *edges);
    int w[6];
    for (int v = 0, k = 0; index && edges && v < n; v++) {
        k += neighbours(g, v, edges + k, w);
        index[v] = k;
    }
    if (index && edges && plain)
        MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 1, c);
    else if (index && edges)
        tm_mpi_graph_create(MPI_COMM_WORLD, n, index, edges, 1, c);
    free(index);
    free(edges);
}

static MPI_Comm create(const char *mode, const grid *g, int old)
{
    int nb[6], w[6], deg = neighbours(g, old, nb, w), periods[3];
    MPI_Comm c = MPI_COMM_NULL;
    if (strcmp(mode, "adjacent") == 0)
        tm_mpi_dist_graph_create_adjacent(MPI_COMM_WORLD, deg, nb, w, deg, nb, w, MPI_INFO_NULL,
                                          1, &c);
    else if (strcmp(mode, "adjacent-unw") == 0)
        tm_mpi_dist_graph_create_adjacent(MPI_COMM_WORLD, deg, nb, MPI_UNWEIGHTED, deg, nb,
                                          MPI_UNWEIGHTED, MPI_INFO_NULL, 1, &c);
    else if (strcmp(mode, "general") == 0)
        tm_mpi_dist_graph_create(MPI_COMM_WORLD, 1, &old, &deg, nb, w, MPI_INFO_NULL, 1, &c);
    else if (strncmp(mode, "graph", 5) == 0)
        create_oldgraph(g, g->dims[0] * g->dims[1] * g->dims[2], strcmp(mode, "graph-mpi") == 0,
                        &c);
    else {
        for (int d = 0; d < 3; d++)
            periods[d] = g->periodic;
        tm_mpi_cart_create(MPI_COMM_WORLD, g->nd, g->dims, periods, 1, &c);
    }
    return c;
}

int main(int argc, char **argv)
{
    grid g = {0, {1, 1, 1}, 0};
    int old, size, me = -1;
    long bad = 0, moved;
    const char *mode = argc > 1 ? argv[1] : "adjacent";
    MPI_Comm c;
    MPI_Init(&argc, &argv);
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--periodic") == 0)
            g.periodic = 1;
        else if (g.nd < 3)
            g.dims[g.nd++] = atoi(argv[i]);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &old);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    c = create(mode, &g, old);
    if (c != MPI_COMM_NULL) {
        MPI_Comm_rank(c, &me);
        if (strcmp(mode, "cart") == 0)
            bad = check_cart(c, &g, me);
        else if (strncmp(mode, "graph", 5) == 0)
            bad = check_oldgraph(c, &g, me);
        else
            bad = check_graph(c, &g, me, strcmp(mode, "general") != 0);
        MPI_Comm_free(&c);
    }
    moved = me != old;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &moved, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (old == 0)
        printf("tm_neighbors %s: %d ranks, %ld moved, %ld errors\n", mode, size, moved, bad);
    MPI_Finalize();
    return bad ? 1 : 0;
}
