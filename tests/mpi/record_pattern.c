/* record_pattern.c - a known communication pattern for TOPOMAP_RECORD
 * (tests/cli/t62-record.sh, docs/mpi.md).  Every kind of point-to-point
 * send on MPI_COMM_WORLD, on a sub-communicator whose ranks run in reverse
 * world order, on an intercommunicator, persistent requests,
 * neighbourhood collectives on dist-graph, Cartesian and graph
 * communicators, and every collective on MPI_COMM_WORLD and the
 * sub-communicator.  tests/mpi/record_expect.py computes, independently,
 * the matrix this program must produce under each collective algorithm:
 * change one and the other together.
 *   usage: record_pattern          (2 ranks or more)
 * Plain MPI: the data is checked only where a wrong count would hang or
 * fail anyway; the point is what is sent. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int P, W; /* world size and rank */

#define TO(k) ((W + (k)) % P)
#define FROM(k) ((W - (k) % P + P) % P)

/* Blocking-send kinds: post the receive, send, wait. */
typedef int (*send_fn)(const void *, int, MPI_Datatype, int, int, MPI_Comm);

static void pair(send_fn f, int k, int count, MPI_Datatype t, int ready)
{
    MPI_Status sts[64];
    char in[4096], out[4096] = {0};
    MPI_Request r;
    MPI_Irecv(in, count, t, FROM(k), 7, MPI_COMM_WORLD, &r);
    if (ready)
        MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted */
    f(out, count, t, TO(k), 7, MPI_COMM_WORLD);
    MPI_Wait(&r, sts);
}

typedef int (*isend_fn)(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);

static void ipair(isend_fn f, int k, int count, MPI_Datatype t, int ready)
{
    MPI_Status sts[64];
    char in[4096], out[4096] = {0};
    MPI_Request r[2];
    MPI_Irecv(in, count, t, FROM(k), 8, MPI_COMM_WORLD, &r[0]);
    if (ready)
        MPI_Barrier(MPI_COMM_WORLD);
    f(out, count, t, TO(k), 8, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, sts);
}

static void world_p2p(MPI_Datatype t3d)
{
    MPI_Status sts[64];
    char in[4096], out[4096] = {0};
    MPI_Request r[4], p[4];
    pair(MPI_Send, 1, 10, MPI_INT, 0);
    pair(MPI_Bsend, 2, 3, MPI_DOUBLE, 0);
    pair(MPI_Ssend, 3, 7, MPI_CHAR, 0);
    pair(MPI_Rsend, 1, 5, MPI_INT, 1);
    ipair(MPI_Isend, 2, 11, MPI_CHAR, 0);
    ipair(MPI_Ibsend, 1, 2, t3d, 0);
    ipair(MPI_Issend, 3, 1, MPI_DOUBLE, 0);
    ipair(MPI_Irsend, 2, 4, MPI_INT, 1);
    MPI_Sendrecv(out, 6, MPI_DOUBLE, TO(1), 9, in, 6, MPI_DOUBLE, FROM(1), 9, MPI_COMM_WORLD,
                 sts);
    MPI_Sendrecv_replace(out, 9, MPI_INT, TO(2), 9, FROM(2), 9, MPI_COMM_WORLD,
                         sts);
    MPI_Send(out, 100, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD); /* not counted */
    pair(MPI_Send, 1, 0, MPI_INT, 0);                              /* 0 bytes, 1 message */
    /* persistent: Send_init started 3 times, Bsend_init + Ssend_init by
     * Startall twice, Rsend_init once, a Recv_init (not a send) */
    MPI_Send_init(out, 13, MPI_CHAR, TO(1), 10, MPI_COMM_WORLD, &p[0]);
    MPI_Bsend_init(out, 1, MPI_DOUBLE, TO(2), 11, MPI_COMM_WORLD, &p[1]);
    MPI_Ssend_init(out, 2, MPI_INT, TO(3), 12, MPI_COMM_WORLD, &p[2]);
    MPI_Rsend_init(out, 3, MPI_CHAR, TO(1), 13, MPI_COMM_WORLD, &p[3]);
    for (int i = 0; i < 3; i++) {
        MPI_Irecv(in, 13, MPI_CHAR, FROM(1), 10, MPI_COMM_WORLD, &r[0]);
        MPI_Start(&p[0]);
        MPI_Wait(&p[0], sts);
        MPI_Wait(&r[0], sts);
    }
    for (int i = 0; i < 2; i++) {
        MPI_Irecv(in, 1, MPI_DOUBLE, FROM(2), 11, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(in + 64, 2, MPI_INT, FROM(3), 12, MPI_COMM_WORLD, &r[1]);
        MPI_Startall(2, &p[1]);
        MPI_Waitall(2, &p[1], sts);
        MPI_Waitall(2, r, sts);
    }
    MPI_Irecv(in, 3, MPI_CHAR, FROM(1), 13, MPI_COMM_WORLD, &r[0]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Start(&p[3]);
    MPI_Wait(&p[3], sts);
    MPI_Wait(&r[0], sts);
    MPI_Recv_init(in, 1, MPI_INT, FROM(1), 14, MPI_COMM_WORLD, &r[0]);
    MPI_Start(&r[0]);
    MPI_Send(out, 1, MPI_INT, TO(1), 14, MPI_COMM_WORLD);
    MPI_Wait(&r[0], sts);
    MPI_Request_free(&r[0]);
    for (int i = 0; i < 4; i++)
        MPI_Request_free(&p[i]);
}

/* Ring sends on a sub-communicator: blocking and non-blocking. */
static void sub_p2p(MPI_Comm sub)
{
    MPI_Status sts[64];
    int r, q;
    char in[256], out[256] = {0};
    MPI_Request rq[2];
    MPI_Comm_rank(sub, &r);
    MPI_Comm_size(sub, &q);
    MPI_Irecv(in, 8, MPI_INT, (r - 1 + q) % q, 1, sub, &rq[0]);
    MPI_Send(out, 8, MPI_INT, (r + 1) % q, 1, sub);
    MPI_Wait(&rq[0], sts);
    MPI_Irecv(in, 3, MPI_DOUBLE, (r + 1) % q, 2, sub, &rq[0]);
    MPI_Isend(out, 3, MPI_DOUBLE, (r - 1 + q) % q, 2, sub, &rq[1]);
    MPI_Waitall(2, rq, sts);
}

/* Even and odd world ranks: each sends 5 doubles to remote rank r mod
 * (remote size); one barrier on the intercommunicator. */
static void inter_p2p(MPI_Comm sub)
{
    MPI_Status sts[64];
    MPI_Comm inter;
    int r, q, rq, other = 1 - W % 2, expect = 0;
    /* the other group's leader: its highest world rank (its sub rank 0) */
    int leader = (P - 1) % 2 == other ? P - 1 : P - 2;
    double in[8], out[8] = {0};
    MPI_Request req[64];
    MPI_Intercomm_create(sub, 0, MPI_COMM_WORLD, leader, 20, &inter);
    MPI_Comm_rank(inter, &r);
    MPI_Comm_size(inter, &q);
    MPI_Comm_remote_size(inter, &rq);
    for (int x = 0; x < rq; x++)
        if (x % q == r)
            MPI_Irecv(in, 5, MPI_DOUBLE, x, 21, inter, &req[expect++]);
    MPI_Send(out, 5, MPI_DOUBLE, r % rq, 21, inter);
    MPI_Waitall(expect, req, sts);
    MPI_Barrier(inter);
    MPI_Comm_free(&inter);
}

static void neighbours(void)
{
    MPI_Status sts[64];
    int out[2] = {TO(1), TO(3)}, in[2] = {FROM(1), FROM(3)}, dims[2] = {0, 0}, per[2] = {1, 0};
    int sc[2] = {1, 4}, sd[2] = {0, 8}, wc[2] = {2, 1}, rc[4] = {2, 2, 2, 2}, rd[4] = {0, 2, 4, 6};
    int ones[2] = {1, 1};
    MPI_Aint wd[2] = {0, 64}, wrd[2] = {0, 512};
    MPI_Datatype wt[2] = {MPI_CHAR, MPI_DOUBLE};
    int *index = malloc((size_t)P * sizeof *index), *edges = malloc((size_t)2 * P * sizeof *edges);
    double sbuf[64] = {0}, rbuf[256];
    MPI_Comm dg, cart, graph;
    MPI_Request req;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, in, ones, 2, out, ones,
                                   MPI_INFO_NULL, 0, &dg);
    MPI_Neighbor_allgather(sbuf, 3, MPI_INT, rbuf, 3, MPI_INT, dg);
    MPI_Neighbor_alltoall(sbuf, 2, MPI_DOUBLE, rbuf, 2, MPI_DOUBLE, dg);
    MPI_Neighbor_alltoallv(sbuf, sc, sd, MPI_INT, rbuf, sc, sd, MPI_INT, dg); /* in: same */
    MPI_Neighbor_alltoallw(sbuf, wc, wd, wt, rbuf, wc, wrd, wt, dg);
    MPI_Ineighbor_alltoall(sbuf, 5, MPI_CHAR, rbuf, 5, MPI_CHAR, dg, &req);
    MPI_Wait(&req, sts);
    MPI_Ineighbor_allgather(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, dg, &req);
    MPI_Wait(&req, sts);
    MPI_Comm_free(&dg);
    MPI_Dims_create(P, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 0, &cart);
    MPI_Neighbor_alltoall(sbuf, 3, MPI_INT, rbuf, 3, MPI_INT, cart);
    MPI_Comm_free(&cart);
    for (int i = 0; i < P; i++) { /* ring: i+1 then i-1 */
        index[i] = 2 * (i + 1);
        edges[2 * i] = (i + 1) % P;
        edges[2 * i + 1] = (i - 1 + P) % P;
    }
    MPI_Graph_create(MPI_COMM_WORLD, P, index, edges, 0, &graph);
    MPI_Neighbor_allgatherv(sbuf, 2, MPI_DOUBLE, rbuf, rc, rd, MPI_DOUBLE, graph);
    MPI_Comm_free(&graph);
    free(index);
    free(edges);
}

/* Every collective; the sizes depend on the rank only where a v-variant
 * allows it. */
static void collectives(MPI_Comm c)
{
    MPI_Status sts[64];
    int r, p, root;
    static double s[4096], d[4096];
    int *cnt, *cnt2, *dsp, *dsp2;
    MPI_Datatype *ty, *ty2;
    MPI_Request q;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &p);
    root = 1 % p;
    cnt = malloc((size_t)p * sizeof *cnt);
    cnt2 = malloc((size_t)p * sizeof *cnt2);
    dsp = malloc((size_t)p * sizeof *dsp);
    dsp2 = malloc((size_t)p * sizeof *dsp2);
    ty = malloc((size_t)p * sizeof *ty);
    ty2 = malloc((size_t)p * sizeof *ty2);
    MPI_Bcast(s, 10, MPI_INT, root, c);
    MPI_Reduce(s, d, 3, MPI_DOUBLE, MPI_SUM, root, c);
    MPI_Allreduce(s, d, 7, MPI_INT, MPI_SUM, c);
    MPI_Allreduce(MPI_IN_PLACE, d, 2, MPI_INT, MPI_SUM, c);
    MPI_Gather(s, 2, MPI_INT, d, 2, MPI_INT, root, c);
    for (int i = 0; i < p; i++)
        cnt[i] = i + 1, dsp[i] = 64 * i;
    MPI_Gatherv(s, r + 1, MPI_CHAR, d, cnt, dsp, MPI_CHAR, root, c);
    MPI_Scatter(s, 3, MPI_CHAR, d, 3, MPI_CHAR, root, c);
    for (int i = 0; i < p; i++)
        cnt[i] = i + 2, dsp[i] = 64 * i;
    MPI_Scatterv(s, cnt, dsp, MPI_INT, d, r + 2, MPI_INT, root, c);
    MPI_Allgather(s, 1, MPI_DOUBLE, d, 1, MPI_DOUBLE, c);
    for (int i = 0; i < p; i++)
        cnt[i] = i % 3 + 1, dsp[i] = 64 * i;
    MPI_Allgatherv(s, r % 3 + 1, MPI_INT, d, cnt, dsp, MPI_INT, c);
    MPI_Alltoall(s, 2, MPI_INT, d, 2, MPI_INT, c);
    for (int i = 0; i < p; i++) {
        cnt[i] = (r + i) % 4 + 1; /* to i; from i the same formula */
        dsp[i] = 8 * i;
    }
    MPI_Alltoallv(s, cnt, dsp, MPI_CHAR, d, cnt, dsp, MPI_CHAR, c);
    for (int i = 0; i < p; i++) {
        cnt[i] = i % 2 ? 3 : 1; /* to i: by i's parity */
        ty[i] = i % 2 ? MPI_CHAR : MPI_DOUBLE;
        cnt2[i] = r % 2 ? 3 : 1; /* from i: by mine */
        ty2[i] = r % 2 ? MPI_CHAR : MPI_DOUBLE;
        dsp[i] = dsp2[i] = 8 * i;
    }
    MPI_Alltoallw(s, cnt, dsp, ty, d, cnt2, dsp2, ty2, c);
    for (int i = 0; i < p; i++)
        cnt[i] = i % 2 + 1;
    MPI_Reduce_scatter(s, d, cnt, MPI_INT, MPI_SUM, c);
    MPI_Reduce_scatter_block(s, d, 2, MPI_DOUBLE, MPI_SUM, c);
    MPI_Scan(s, d, 4, MPI_INT, MPI_SUM, c);
    MPI_Exscan(s, d, 2, MPI_DOUBLE, MPI_SUM, c);
    MPI_Barrier(c);
    MPI_Iallreduce(s, d, 5, MPI_DOUBLE, MPI_SUM, c, &q);
    MPI_Wait(&q, sts);
    MPI_Ibcast(s, 3, MPI_CHAR, root, c, &q);
    MPI_Wait(&q, sts);
    MPI_Ialltoall(s, 1, MPI_INT, d, 1, MPI_INT, c, &q);
    MPI_Wait(&q, sts);
    MPI_Iallgather(s, 2, MPI_CHAR, d, 2, MPI_CHAR, c, &q);
    MPI_Wait(&q, sts);
    MPI_Iscan(s, d, 1, MPI_DOUBLE, MPI_SUM, c, &q);
    MPI_Wait(&q, sts);
    MPI_Ibarrier(c, &q);
    MPI_Wait(&q, sts);
    free(cnt);
    free(cnt2);
    free(dsp);
    free(dsp2);
    free(ty);
    free(ty2);
}

int main(int argc, char **argv)
{
    MPI_Datatype t3d;
    MPI_Comm sub;
    static char bsend_buf[1 << 16];
    void *b;
    int bs;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &W);
    if (P < 2) {
        fprintf(stderr, "record_pattern: needs 2 ranks or more\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Buffer_attach(bsend_buf, sizeof bsend_buf);
    MPI_Type_contiguous(3, MPI_DOUBLE, &t3d);
    MPI_Type_commit(&t3d);
    world_p2p(t3d);
    MPI_Comm_split(MPI_COMM_WORLD, W % 2, -W, &sub); /* reversed world order */
    sub_p2p(sub);
    inter_p2p(sub);
    neighbours();
    collectives(MPI_COMM_WORLD);
    collectives(sub);
    MPI_Comm_free(&sub);
    MPI_Type_free(&t3d);
    MPI_Buffer_detach(&b, &bs);
    if (W == 0)
        printf("record_pattern: %d ranks done\n", P);
    MPI_Finalize();
    return 0;
}
