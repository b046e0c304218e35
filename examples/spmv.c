/* spmv.c - the halo exchange of a distributed sparse matrix-vector product
 * with an irregular pattern.
 *
 * The matrix is the adjacency of a random geometric graph: n points per
 * rank, uniform in the unit square (a fixed seed: every run and every rank
 * builds the same graph), each joined to every point closer than the
 * radius that gives about `degree` neighbours, plus one long-range edge
 * for one point in 1024 (a random other point).  Points are numbered along
 * a Morton curve and block-distributed, so each rank owns a compact but
 * irregular patch: neighbour counts and volumes differ from rank to rank,
 * and the long edges add sparse far traffic.
 *
 * Each iteration sends to every rank that needs them the x entries of its
 * own points (8 bytes each, MPI_Irecv/MPI_Isend/MPI_Waitall) and checks
 * every received value (x[i] = i + 0.5, exact).  It prints the
 * communication time (max over ranks) and, with TM_COMM_MATRIX=FILE, writes
 * the bytes per pair of ranks, and with TM_COMM_PHASES=FILE its phases
 * (one exchange, once per iteration; commstat.h).
 *   usage: spmv [points per rank (default 2000)] [iterations (default 3)]
 *               [mean degree (default 8)]
 * Exit 0 when every value is right, 1 otherwise. */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commstat.h"

typedef struct pt {
    double x, y;
    uint32_t key; /* Morton code */
    int id;       /* generation order */
} pt;

static uint64_t rnd(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double unit(uint64_t *s)
{
    return (double)(rnd(s) >> 11) / 9007199254740992.0;
}

static uint32_t spread(uint32_t v) /* 16 bits to the even bits of 32 */
{
    v &= 0xffff;
    v = (v | (v << 8)) & 0x00ff00ff;
    v = (v | (v << 4)) & 0x0f0f0f0f;
    v = (v | (v << 2)) & 0x33333333;
    return (v | (v << 1)) & 0x55555555;
}

static int cmp_key(const void *a, const void *b)
{
    const pt *p = a, *q = b;
    return p->key != q->key ? (p->key < q->key ? -1 : 1) : (p->id > q->id) - (p->id < q->id);
}

/* What this rank receives (the distinct points of other ranks adjacent to
 * one of its own, grouped by owner, increasing) and sends (its points that
 * each other rank needs). */
typedef struct plan {
    int np;
    int *cnt;  /* cnt[q]: how many of rank q's points I need */
    int *off;  /* into idx */
    int *idx;  /* global point indices, grouped by owner */
    int *scnt; /* scnt[q]: how many of my points rank q needs */
    int *soff;
    int *sidx;
} plan;

static int owner(long i, long n, int np)
{
    return (int)(i / n < np ? i / n : np - 1);
}

/* Builds the graph (the same on every rank) and the lists of this rank. */
static void build(plan *p, int me, int np, long n, double degree)
{
    long N = n * np, gcells;
    uint64_t seed = 12345;
    double r = sqrt(degree / (M_PI * (double)N));
    pt *pts = malloc((size_t)N * sizeof *pts);
    int *cell_start, *order, *mark = calloc((size_t)N, sizeof *mark);
    if (!pts || !mark)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (long i = 0; i < N; i++) {
        pts[i].x = unit(&seed);
        pts[i].y = unit(&seed);
        pts[i].key = spread((uint32_t)(pts[i].x * 65535)) | spread((uint32_t)(pts[i].y * 65535)) << 1;
        pts[i].id = (int)i;
    }
    qsort(pts, (size_t)N, sizeof *pts, cmp_key); /* point i is now pts[i] */
    /* buckets of side >= r: neighbours are in the 3x3 cells around */
    long g = (long)(1 / r);
    g = g < 1 ? 1 : g;
    gcells = g * g;
    cell_start = calloc((size_t)gcells + 1, sizeof *cell_start);
    order = malloc((size_t)N * sizeof *order);
    if (!cell_start || !order)
        MPI_Abort(MPI_COMM_WORLD, 2);
#define CELL(i) ((long)(pts[i].y * g < g ? pts[i].y * g : g - 1) * g + \
                 (long)(pts[i].x * g < g ? pts[i].x * g : g - 1))
    for (long i = 0; i < N; i++)
        cell_start[CELL(i) + 1]++;
    for (long c = 0; c < gcells; c++)
        cell_start[c + 1] += cell_start[c];
    {
        int *fill = malloc((size_t)gcells * sizeof *fill);
        if (!fill)
            MPI_Abort(MPI_COMM_WORLD, 2);
        memcpy(fill, cell_start, (size_t)gcells * sizeof *fill);
        for (long i = 0; i < N; i++)
            order[fill[CELL(i)]++] = (int)i;
        free(fill);
    }
    /* mark[j] = 1: j (not mine) is a neighbour of one of my points; the
     * long edges are drawn for every point so that both ends agree */
    uint64_t lseed = 777;
    long *far = malloc((size_t)N * sizeof *far);
    if (!far)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (long i = 0; i < N; i++) {
        far[i] = -1;
        if (rnd(&lseed) % 1024 == 0)
            far[i] = (long)(rnd(&lseed) % (uint64_t)N);
    }
    for (long i = (long)me * n; i < (long)(me + 1) * n; i++) {
        long cx = CELL(i) % g, cy = CELL(i) / g;
        for (long dy = -1; dy <= 1; dy++)
            for (long dx = -1; dx <= 1; dx++) {
                long x = cx + dx, y = cy + dy;
                if (x < 0 || y < 0 || x >= g || y >= g)
                    continue;
                for (int k = cell_start[y * g + x]; k < cell_start[y * g + x + 1]; k++) {
                    long j = order[k];
                    double ddx = pts[i].x - pts[j].x, ddy = pts[i].y - pts[j].y;
                    if (j != i && ddx * ddx + ddy * ddy < r * r)
                        mark[j] = 1;
                }
            }
    }
    for (long i = 0; i < N; i++)
        if (far[i] >= 0 && far[i] != i) {
            if (owner(i, n, np) == me)
                mark[far[i]] = 1;
            if (owner(far[i], n, np) == me)
                mark[i] = 1;
        }
#undef CELL
    p->np = np;
    p->cnt = calloc((size_t)np, sizeof *p->cnt);
    p->off = calloc((size_t)np + 1, sizeof *p->off);
    p->scnt = calloc((size_t)np, sizeof *p->scnt);
    p->soff = calloc((size_t)np + 1, sizeof *p->soff);
    if (!p->cnt || !p->off || !p->scnt || !p->soff)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (long j = 0; j < N; j++)
        if (mark[j] && owner(j, n, np) != me)
            p->cnt[owner(j, n, np)]++;
    for (int q = 0; q < np; q++)
        p->off[q + 1] = p->off[q] + p->cnt[q];
    p->idx = malloc((size_t)p->off[np] * sizeof *p->idx + 1);
    if (!p->idx)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (long j = 0, k = 0; j < N; j++) /* owners in increasing order: grouped */
        if (mark[j] && owner(j, n, np) != me)
            p->idx[k++] = (int)j;
    free(far);
    free(order);
    free(cell_start);
    free(mark);
    free(pts);
}

/* Tells every owner which of its points I need (setup, not timed). */
static void exchange_lists(plan *p)
{
    int np = p->np;
    MPI_Alltoall(p->cnt, 1, MPI_INT, p->scnt, 1, MPI_INT, MPI_COMM_WORLD);
    for (int q = 0; q < np; q++)
        p->soff[q + 1] = p->soff[q] + p->scnt[q];
    p->sidx = malloc((size_t)p->soff[np] * sizeof *p->sidx + 1);
    if (!p->sidx)
        MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Alltoallv(p->idx, p->cnt, p->off, MPI_INT, p->sidx, p->scnt, p->soff, MPI_INT,
                  MPI_COMM_WORLD);
}

static long halo(const plan *p, double *sbuf, double *rbuf, MPI_Request *req, double *t)
{
    int np = p->np, k = 0;
    long bad = 0;
    double t0;
    for (int i = 0; i < p->soff[np]; i++)
        sbuf[i] = p->sidx[i] + 0.5; /* my x entries */
    for (int i = 0; i < p->off[np]; i++)
        rbuf[i] = -1;
    t0 = MPI_Wtime();
    for (int q = 0; q < np; q++)
        if (p->cnt[q])
            MPI_Irecv(rbuf + p->off[q], p->cnt[q], MPI_DOUBLE, q, 1, MPI_COMM_WORLD, &req[k++]);
    for (int q = 0; q < np; q++)
        if (p->scnt[q])
            MPI_Isend(sbuf + p->soff[q], p->scnt[q], MPI_DOUBLE, q, 1, MPI_COMM_WORLD, &req[k++]);
    MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
    *t += MPI_Wtime() - t0;
    for (int i = 0; i < p->off[np]; i++)
        bad += rbuf[i] != p->idx[i] + 0.5;
    return bad;
}

int main(int argc, char **argv)
{
    int me, np, iters = 3, k = 0, *dst;
    long n = 2000, bad = 0, pairs = 0;
    double degree = 8, t = 0, *sbuf, *rbuf, *bytes;
    plan p;
    MPI_Request *req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc > 1)
        n = atol(argv[1]);
    if (argc > 2)
        iters = atoi(argv[2]);
    if (argc > 3)
        degree = atof(argv[3]);
    if (n < 1 || n > 1000000 || iters < 1 || !(degree > 0 && degree < 1000))
        n = 2000, iters = 3, degree = 8;
    build(&p, me, np, n, degree);
    exchange_lists(&p);
    sbuf = malloc((size_t)p.soff[np] * sizeof *sbuf + 1);
    rbuf = malloc((size_t)p.off[np] * sizeof *rbuf + 1);
    req = malloc((size_t)2 * np * sizeof *req);
    dst = malloc((size_t)np * sizeof *dst);
    bytes = malloc((size_t)np * sizeof *bytes);
    if (!sbuf || !rbuf || !req || !dst || !bytes)
        MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int it = 0; it < iters; it++)
        bad += halo(&p, sbuf, rbuf, req, &t);
    for (int q = 0; q < np; q++)
        if (p.scnt[q]) {
            dst[k] = q;
            bytes[k++] = (double)iters * p.scnt[q] * sizeof(double);
        }
    pairs = k;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &pairs, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0)
        printf("spmv: %d ranks, %ld points each, mean degree %g, %ld communicating pairs, "
               "%ld wrong\n", np, n, degree, pairs, bad);
    comm_time_print("spmv", t);
    comm_matrix_write(k, dst, bytes);
    {
        /* one phase: the halo of one product, once per iteration */
        long rep = iters;
        for (int i = 0; i < k; i++)
            bytes[i] /= iters;
        comm_phases_write(1, &k, dst, bytes, &rep);
    }
    free(bytes);
    free(dst);
    free(req);
    free(sbuf);
    free(rbuf);
    free(p.cnt);
    free(p.off);
    free(p.idx);
    free(p.scnt);
    free(p.soff);
    free(p.sidx);
    MPI_Finalize();
    return bad ? 1 : 0;
}
