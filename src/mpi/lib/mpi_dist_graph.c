/* mpi_dist_graph.c - tm_mpi_dist_graph_create_adjacent and
 * tm_mpi_dist_graph_create (include/topomap/mpi.h; tm_mpi_cart_create is
 * mpi_cart.c, tm_mpi_graph_create mpi_graph_create.c).
 *
 * The MPI calls themselves go through their PMPI_ names, so that the PMPI
 * shim (src/mpi/shim/pmpi_shim.c), which defines the MPI_ names, does not
 * call itself. */
#include <stdlib.h>
#include <string.h>

#include "topomap/mpi.h"
#include "mpi_int.h"

#define TM__MPI_TAG 7391

/* Whether to try at all: reorder requested on an intracommunicator, and
 * rank 0's environment says so.  Collective when it returns a mode. */
static int wanted(MPI_Comm comm, int reorder, tm__mpi_cfg *cfg, tm__mpi_mode *mode)
{
    int rank, size;
    if (!tm__mpi_can_reorder(comm, reorder, &rank, &size))
        return 0;
    *mode = tm__mpi_mode_get(comm, rank, cfg);
    return 1;
}

/* Edges src -> dst[i] with weights w (MPI_UNWEIGHTED: 1). m = -1 when out
 * of memory or n < 0 (every rank then keeps its old rank). */
static void edges_add(tm__mpi_edges *e, int src, int n, const int *dst, const int *w, int unw)
{
    int *pair;
    double *wt;
    if (n < 0 || e->m < 0) { /* an erroneous call: MPI reports it after the fallback */
        e->m = -1;
        return;
    }
    pair = realloc(e->pair, (size_t)(2 * (e->m + n) + 2) * sizeof *pair);
    wt = pair ? realloc(e->w, (size_t)(e->m + n + 1) * sizeof *wt) : NULL;
    if (pair)
        e->pair = pair;
    if (!pair || !wt) {
        e->m = -1;
        return;
    }
    e->w = wt;
    for (int i = 0; i < n; i++, e->m++) {
        e->pair[2 * e->m] = src;
        e->pair[2 * e->m + 1] = dst[i];
        e->w[e->m] = unw ? 1.0 : (double)w[i];
    }
}

static void edges_free(tm__mpi_edges *e)
{
    free(e->pair);
    free(e->w);
    memset(e, 0, sizeof *e);
}

/* Weight arrays travel with a flag: 0 MPI_UNWEIGHTED, 1 weights, 2
 * MPI_WEIGHTS_EMPTY (both MPIs define these as special addresses). */
static int wflag(const int *w)
{
    return w == MPI_UNWEIGHTED ? 0 : w == MPI_WEIGHTS_EMPTY ? 2 : 1;
}

static const int *wptr(int flag, const int *w)
{
    return flag == 0 ? MPI_UNWEIGHTED : flag == 2 ? MPI_WEIGHTS_EMPTY : w;
}

/* [indeg, outdeg, in flag, out flag, sources, source weights,
 *  destinations, destination weights] */
static int *pack(int indeg, const int src[], const int sw[], int outdeg, const int dst[],
                 const int dw[], int *len)
{
    int fi = wflag(sw), fo = wflag(dw), *b, k = 4;
    if (indeg < 0 || outdeg < 0)
        return NULL;
    *len = 4 + indeg * (fi == 1 ? 2 : 1) + outdeg * (fo == 1 ? 2 : 1);
    b = malloc((size_t)*len * sizeof *b);
    if (!b)
        return NULL;
    b[0] = indeg, b[1] = outdeg, b[2] = fi, b[3] = fo;
    memcpy(b + k, src, (size_t)indeg * sizeof *b), k += indeg;
    if (fi == 1)
        memcpy(b + k, sw, (size_t)indeg * sizeof *b), k += indeg;
    memcpy(b + k, dst, (size_t)outdeg * sizeof *b), k += outdeg;
    if (fo == 1)
        memcpy(b + k, dw, (size_t)outdeg * sizeof *b);
    return b;
}

/* On the new communicator, this process sends its lists to new rank
 * (its old rank), i.e. to the process that now owns its vertex, receives
 * the lists of the vertex it owns, and creates the graph with them. */
static int adjacent_moved(MPI_Comm newc, const int *mine, int len, int myold, MPI_Info info,
                          MPI_Comm *out)
{
    MPI_Request req;
    MPI_Status st;
    int n = 0, rc, *b, k = 4;
    MPI_Isend(mine, len, MPI_INT, myold, TM__MPI_TAG, newc, &req);
    MPI_Probe(MPI_ANY_SOURCE, TM__MPI_TAG, newc, &st);
    MPI_Get_count(&st, MPI_INT, &n);
    b = malloc((size_t)(n > 0 ? n : 1) * sizeof *b);
    if (!b) {
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        return MPI_ERR_OTHER;
    }
    MPI_Recv(b, n, MPI_INT, st.MPI_SOURCE, TM__MPI_TAG, newc, MPI_STATUS_IGNORE);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    {
        const int *src = b + k, *sw = b + k + b[0];
        const int *dst = sw + (b[2] == 1 ? b[0] : 0), *dw = dst + b[1];
        rc = PMPI_Dist_graph_create_adjacent(newc, b[0], src, wptr(b[2], sw), b[1], dst,
                                             wptr(b[3], dw), info, 0, out);
    }
    free(b);
    return rc;
}

int tm_mpi_dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int *sources,
                                      const int *sourceweights, int outdegree,
                                      const int *destinations, const int *destweights,
                                      MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
    tm__mpi_cfg cfg;
    tm__mpi_mode mode;
    tm__mpi_edges mine = {0};
    tm__mpi_plan plan;
    MPI_Comm newc;
    int rank, size, len = 0, rc, *packed;
    if (!wanted(comm_old, reorder, &cfg, &mode) || mode != TM__MPI_RUN)
        return PMPI_Dist_graph_create_adjacent(comm_old, indegree, sources, sourceweights,
                                               outdegree, destinations, destweights, info,
                                               reorder, comm_dist_graph);
    MPI_Comm_rank(comm_old, &rank);
    MPI_Comm_size(comm_old, &size);
    packed = pack(indegree, sources, sourceweights, outdegree, destinations, destweights, &len);
    edges_add(&mine, rank, outdegree, destinations, destweights, wflag(destweights) != 1);
    if (!packed)
        mine.m = -1;
    tm__mpi_plan_make(comm_old, &cfg, &mine, size, "MPI_Dist_graph_create_adjacent", &plan);
    edges_free(&mine);
    if (!plan.reorder) {
        free(packed);
        return PMPI_Dist_graph_create_adjacent(comm_old, indegree, sources, sourceweights,
                                               outdegree, destinations, destweights, info, 0,
                                               comm_dist_graph);
    }
    rc = tm__mpi_split(comm_old, &plan, &newc);
    if (rc == MPI_SUCCESS) {
        rc = adjacent_moved(newc, packed, len, rank, info, comm_dist_graph);
        MPI_Comm_free(&newc);
    }
    free(packed);
    return rc;
}

typedef struct dist_args {
    int n;
    const int *sources, *degrees, *destinations, *weights;
    MPI_Info info;
    MPI_Comm *out;
} dist_args;

static int dist_on(MPI_Comm comm, void *arg)
{
    const dist_args *a = arg;
    return PMPI_Dist_graph_create(comm, a->n, a->sources, a->degrees, a->destinations,
                                  a->weights, a->info, 0, a->out);
}

int tm_mpi_dist_graph_create(MPI_Comm comm_old, int n, const int *sources, const int *degrees,
                             const int *destinations, const int *weights, MPI_Info info,
                             int reorder, MPI_Comm *comm_dist_graph)
{
    tm__mpi_cfg cfg;
    tm__mpi_mode mode;
    tm__mpi_edges mine = {0};
    dist_args args = {n, sources, degrees, destinations, weights, info, comm_dist_graph};
    int size, unw = wflag(weights) != 1;
    if (!wanted(comm_old, reorder, &cfg, &mode) || mode != TM__MPI_RUN)
        return PMPI_Dist_graph_create(comm_old, n, sources, degrees, destinations, weights, info,
                                      reorder, comm_dist_graph);
    MPI_Comm_size(comm_old, &size);
    for (int i = 0, k = 0; i < n && mine.m >= 0; k += degrees[i], i++)
        edges_add(&mine, sources[i], degrees[i], destinations + k, unw ? NULL : weights + k, unw);
    return tm__mpi_finish(comm_old, &cfg, &mine, size, "MPI_Dist_graph_create", dist_on, &args);
}
