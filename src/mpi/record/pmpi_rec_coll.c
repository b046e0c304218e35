/* pmpi_rec_coll.c - collectives as point-to-point patterns
 * (TOPOMAP_RECORD_COLLECTIVES, the table in docs/mpi.md).  Every process
 * records only the messages it sends in the pattern, computed from its own
 * rank and the call's arguments: no communication.  Ranks below are ranks
 * of the communicator; vr = (rank - root) mod p is the rank relative to
 * the root. */
#include <stdlib.h>

#include "pmpi_rec.h"

typedef enum { P_SKIP, P_BINOMIAL, P_RING, P_RD, P_LINEAR, P_DIRECT } pattern;

typedef struct ex {
    const tm__rec_comm *c;
    tm__rec_kind kind;
    int r, p;
} ex;

static void put(const ex *e, int to, uint64_t bytes)
{
    tm__rec_add(e->kind, e->c->world ? e->c->world[to] : to, bytes);
}

/* The blocking call of an I- variant (the kinds alternate). */
static tm__rec_kind base_of(tm__rec_kind k)
{
    return (tm__rec_kind)(TM__REC_FIRST_COLL + ((k - TM__REC_FIRST_COLL) & ~1));
}

static pattern resolve(tm__rec_kind k, tm__rec_algo algo)
{
    if (algo == TM__REC_SKIP)
        return P_SKIP;
    switch (k) {
    case TM__REC_GATHERV: case TM__REC_SCATTERV:
        return P_LINEAR;
    case TM__REC_ALLTOALL: case TM__REC_ALLTOALLV: case TM__REC_ALLTOALLW:
        return P_DIRECT;
    case TM__REC_BCAST: case TM__REC_REDUCE: case TM__REC_GATHER: case TM__REC_SCATTER:
        return algo == TM__REC_RING ? P_RING : P_BINOMIAL;
    case TM__REC_ALLGATHER: case TM__REC_ALLGATHERV:
        return algo == TM__REC_AUTO ? P_RING : algo == TM__REC_RD ? P_RD
             : algo == TM__REC_RING ? P_RING : P_BINOMIAL;
    case TM__REC_SCAN: case TM__REC_EXSCAN:
        return algo == TM__REC_RING ? P_RING : P_RD;
    default: /* allreduce, reduce_scatter(_block), barrier */
        return algo == TM__REC_AUTO ? P_RD : algo == TM__REC_RD ? P_RD
             : algo == TM__REC_RING ? P_RING : P_BINOMIAL;
    }
}

const char *tm__rec_pattern_name(tm__rec_kind kind, tm__rec_algo algo)
{
    tm__rec_kind k = base_of(kind);
    switch (resolve(k, algo)) {
    case P_SKIP: return "skip";
    case P_BINOMIAL: return "binomial";
    case P_LINEAR: return "linear";
    case P_DIRECT: return "direct";
    case P_RING:
        return k == TM__REC_BCAST || k == TM__REC_REDUCE || k == TM__REC_GATHER ||
               k == TM__REC_SCATTER || k == TM__REC_SCAN || k == TM__REC_EXSCAN ? "chain" : "ring";
    case P_RD:
        return k == TM__REC_ALLGATHER || k == TM__REC_ALLGATHERV || k == TM__REC_REDUCE_SCATTER ||
               k == TM__REC_REDUCE_SCATTER_BLOCK ? "recursive-doubling (ring unless the size is a power of two)"
             : k == TM__REC_BARRIER ? "dissemination" : "recursive-doubling";
    }
    return "skip";
}

/* ---- binomial trees ---------------------------------------------------------
 * Lowest set bit of vr; for vr = 0 the first power of two >= p. */
static int low_mask(int vr, int p)
{
    int m = 1;
    while (m < p && !(vr & m))
        m <<= 1;
    return m;
}

static int imin(int a, int b)
{
    return a < b ? a : b;
}

/* Parent to children: unit bytes, times the child's subtree size if sub. */
static void bin_down(const ex *e, int root, uint64_t unit, int sub)
{
    int p = e->p, vr = (e->r - root + p) % p;
    for (int m = low_mask(vr, p) >> 1; m > 0; m >>= 1)
        if (vr + m < p)
            put(e, (vr + m + root) % p, unit * (uint64_t)(sub ? imin(m, p - vr - m) : 1));
}

/* Child to parent: unit bytes, times its own subtree size if sub. */
static void bin_up(const ex *e, int root, uint64_t unit, int sub)
{
    int p = e->p, vr = (e->r - root + p) % p, m;
    if (vr == 0)
        return;
    m = low_mask(vr, p);
    put(e, (vr - m + root) % p, unit * (uint64_t)(sub ? imin(m, p - vr) : 1));
}

static uint64_t sum_counts(const int *counts, int lo, int hi, uint64_t tsize)
{
    uint64_t s = 0;
    for (int i = lo; i < hi; i++)
        s += counts[i] > 0 ? (uint64_t)counts[i] : 0;
    return s * tsize;
}

/* Bytes of blocks lo..hi-1: counts[i] x tsize, or per each without counts. */
static uint64_t span(const int *counts, int lo, int hi, uint64_t tsize, uint64_t per)
{
    return counts ? sum_counts(counts, lo, hi, tsize) : per * (uint64_t)(hi - lo);
}

/* Binomial gather to rank 0 of per-rank blocks counts[i] x tsize. */
static void bin_up_v(const ex *e, const int *counts, uint64_t tsize)
{
    int m;
    if (e->r == 0)
        return;
    m = low_mask(e->r, e->p);
    put(e, e->r - m, sum_counts(counts, e->r, e->r + imin(m, e->p - e->r), tsize));
}

/* ---- chains, rings, recursive doubling -------------------------------------- */

/* Root towards the last rank (down) or back (up); acc: the data of every
 * rank beyond the sender (scatter) or of the sender and beyond (gather). */
static void chain(const ex *e, int root, uint64_t unit, int down, int acc)
{
    int p = e->p, vr = (e->r - root + p) % p;
    if (down && vr + 1 < p)
        put(e, (vr + 1 + root) % p, unit * (uint64_t)(acc ? p - vr - 1 : 1));
    else if (!down && vr > 0)
        put(e, (vr - 1 + root) % p, unit * (uint64_t)(acc ? p - vr : 1));
}

/* Ring step s = 0..p-2 sends block (r - first - s) mod p to r + 1. */
static void ring_blocks(const ex *e, int first, const int *counts, uint64_t per, uint64_t tsize)
{
    int p = e->p;
    for (int s = 0; s + 1 < p; s++) {
        int b = ((e->r - first - s) % p + 2 * p) % p;
        put(e, (e->r + 1) % p, counts ? (counts[b] > 0 ? (uint64_t)counts[b] : 0) * tsize : per);
    }
}

static int pow2(int p)
{
    return p > 0 && (p & (p - 1)) == 0;
}

static void rd_allreduce(const ex *e, uint64_t n)
{
    int p = e->p, r = e->r, pof2 = 1, rem, nr;
    while (2 * pof2 <= p)
        pof2 *= 2;
    rem = p - pof2;
    if (r < 2 * rem && r % 2 == 0)
        put(e, r + 1, n); /* folds into its odd neighbour */
    nr = r < 2 * rem ? (r % 2 ? r / 2 : -1) : r - rem;
    for (int m = 1; nr >= 0 && m < pof2; m <<= 1) {
        int np = nr ^ m;
        put(e, np < rem ? 2 * np + 1 : np + rem, n);
    }
    if (r < 2 * rem && r % 2)
        put(e, r - 1, n); /* the result back */
}

/* Allgather(v): per-rank blocks, counts NULL: n each. */
static void allgather(const ex *e, pattern pat, uint64_t n, const int *counts, uint64_t tsize)
{
    int p = e->p;
    uint64_t total = counts ? sum_counts(counts, 0, p, tsize) : n * (uint64_t)p;
    if (pat == P_RD && pow2(p)) {
        for (int m = 1; m < p; m <<= 1) {
            int base = e->r & ~(m - 1);
            put(e, e->r ^ m, counts ? sum_counts(counts, base, base + m, tsize) : n * (uint64_t)m);
        }
    } else if (pat == P_RD || pat == P_RING) {
        ring_blocks(e, 0, counts, n, tsize);
    } else {
        if (counts)
            bin_up_v(e, counts, tsize);
        else
            bin_up(e, 0, n, 1);
        bin_down(e, 0, total, 0);
    }
}

/* Reduce_scatter(_block): block i (counts[i] x tsize, or per) ends on
 * rank i. */
static void reduce_scatter(const ex *e, pattern pat, const int *counts, uint64_t tsize,
                           uint64_t per)
{
    int p = e->p;
    if (pat == P_RD && pow2(p)) {
        for (int m = p / 2; m >= 1; m >>= 1) {
            int partner = e->r ^ m, lo = (e->r & ~(2 * m - 1)) + (partner & m);
            put(e, partner, span(counts, lo, lo + m, tsize, per));
        }
    } else if (pat == P_RD || pat == P_RING) {
        ring_blocks(e, 1, counts, per, tsize);
    } else {
        bin_up(e, 0, span(counts, 0, p, tsize, per), 0);
        if (e->r == 0)
            for (int i = 1; i < p; i++)
                put(e, i, span(counts, i, i + 1, tsize, per));
    }
}

static void allreduce(const ex *e, pattern pat, uint64_t n, uint64_t tsize)
{
    int p = e->p, *blk;
    if (pat == P_RD) {
        rd_allreduce(e, n);
    } else if (pat == P_RING) {
        uint64_t count = tsize ? n / tsize : 0;
        if (p < 2)
            return;
        if (!(blk = malloc((size_t)p * sizeof *blk))) {
            tm__rec_lost();
            return;
        }
        for (int b = 0; b < p; b++)
            blk[b] = (int)(count / (uint64_t)p + ((uint64_t)b < count % (uint64_t)p));
        ring_blocks(e, 1, blk, 0, tsize); /* reduce-scatter: all blocks but r */
        ring_blocks(e, 0, blk, 0, tsize); /* allgather: all blocks but r + 1 */
        free(blk);
    } else {
        bin_up(e, 0, n, 0);
        bin_down(e, 0, n, 0);
    }
}

static void rooted(const ex *e, tm__rec_kind k, pattern pat, const tm__rec_coll_args *a)
{
    int sub = k == TM__REC_GATHER || k == TM__REC_SCATTER;
    int down = k == TM__REC_BCAST || k == TM__REC_SCATTER;
    if (pat == P_RING)
        chain(e, a->root, a->n, down, sub);
    else if (down)
        bin_down(e, a->root, a->n, sub);
    else
        bin_up(e, a->root, a->n, sub);
}

static void expand(const ex *e, tm__rec_kind k, pattern pat, const tm__rec_coll_args *a)
{
    int p = e->p, r = e->r;
    switch (k) {
    case TM__REC_BCAST: case TM__REC_REDUCE: case TM__REC_GATHER: case TM__REC_SCATTER:
        rooted(e, k, pat, a);
        break;
    case TM__REC_GATHERV:
        if (r != a->root)
            put(e, a->root, a->n);
        break;
    case TM__REC_SCATTERV:
        for (int i = 0; r == a->root && i < p; i++)
            if (i != r)
                put(e, i, sum_counts(a->counts, i, i + 1, a->tsize));
        break;
    case TM__REC_ALLTOALL: case TM__REC_ALLTOALLV: case TM__REC_ALLTOALLW:
        for (int i = 0; i < p; i++)
            if (i != r)
                put(e, i, a->wbytes ? a->wbytes[i]
                          : a->counts ? sum_counts(a->counts, i, i + 1, a->tsize) : a->n);
        break;
    case TM__REC_ALLGATHER: case TM__REC_ALLGATHERV:
        allgather(e, pat, a->n, a->counts, a->tsize);
        break;
    case TM__REC_REDUCE_SCATTER: case TM__REC_REDUCE_SCATTER_BLOCK:
        reduce_scatter(e, pat, a->counts, a->tsize, a->n);
        break;
    case TM__REC_ALLREDUCE:
        allreduce(e, pat, a->n, a->tsize);
        break;
    case TM__REC_SCAN: case TM__REC_EXSCAN:
        for (int m = 1; pat == P_RD && m < p; m <<= 1)
            if ((r ^ m) < p)
                put(e, r ^ m, a->n);
        if (pat == P_RING && r + 1 < p)
            put(e, r + 1, a->n);
        break;
    default: /* barrier: zero bytes */
        if (pat == P_RD) {
            for (int m = 1; m < p; m <<= 1)
                put(e, (r + m) % p, 0);
        } else if (pat == P_RING && p > 1) {
            put(e, (r + 1) % p, 0);
            put(e, (r + 1) % p, 0);
        } else if (pat == P_BINOMIAL) {
            bin_up(e, 0, 0, 0);
            bin_down(e, 0, 0, 0);
        }
    }
}

void tm__rec_coll(tm__rec_kind kind, MPI_Comm comm, const tm__rec_coll_args *a)
{
    tm__rec_comm *c;
    tm__rec_kind k = base_of(kind);
    pattern pat;
    if (!tm__rec_on())
        return;
    tm__rec_lock();
    tm__rec_count_call(kind);
    if (!(c = tm__rec_comm_of(comm)))
        goto out;
    pat = c->inter ? P_SKIP : resolve(k, tm__rec_algo_get());
    if (c->rank == 0)
        tm__rec_coll_stat(kind, c->size, a->n, pat != P_SKIP);
    tm__rec_phase_close(); /* the point-to-point phase before it */
    if (pat != P_SKIP && c->size > 1) {
        ex e = {c, kind, c->rank, c->size};
        expand(&e, k, pat, a);
    }
    tm__rec_phase_close(); /* its own phase */
out:
    tm__rec_unlock();
}

/* ---- neighbourhood collectives ------------------------------------------------ */

static void out_neighbours(MPI_Comm comm, tm__rec_comm *c)
{
    int status = MPI_UNDEFINED, n = 0, *nb = NULL;
    PMPI_Topo_test(comm, &status);
    if (status == MPI_GRAPH) {
        PMPI_Graph_neighbors_count(comm, c->rank, &n);
        if ((nb = malloc((size_t)(n ? n : 1) * sizeof *nb)))
            PMPI_Graph_neighbors(comm, c->rank, n, nb);
    } else if (status == MPI_CART) {
        int nd = 0;
        PMPI_Cartdim_get(comm, &nd);
        n = 2 * nd;
        if ((nb = malloc((size_t)(n ? n : 1) * sizeof *nb)))
            for (int d = 0; d < nd; d++)
                PMPI_Cart_shift(comm, d, 1, &nb[2 * d], &nb[2 * d + 1]);
    } else if (status == MPI_DIST_GRAPH) {
        int in = 0, w = 0, *src, *sw, *dw;
        PMPI_Dist_graph_neighbors_count(comm, &in, &n, &w);
        nb = malloc((size_t)(n ? n : 1) * sizeof *nb);
        src = malloc((size_t)(in ? in : 1) * sizeof *src);
        sw = malloc((size_t)(in ? in : 1) * sizeof *sw);
        dw = malloc((size_t)(n ? n : 1) * sizeof *dw);
        if (nb && src && sw && dw)
            PMPI_Dist_graph_neighbors(comm, in, src, sw, n, nb, dw);
        else
            free(nb), nb = NULL;
        free(src);
        free(sw);
        free(dw);
    }
    if (n && !nb) {
        tm__rec_lost(); /* out of memory: the matrix would be wrong */
        return;
    }
    for (int i = 0; i < n; i++)
        nb[i] = nb[i] == MPI_PROC_NULL || nb[i] < 0 || nb[i] >= c->size ? -1
              : c->world ? c->world[nb[i]] : nb[i];
    c->out = nb;
    c->nout = n;
}

void tm__rec_neighbor(tm__rec_kind kind, MPI_Comm comm, uint64_t n, const int *counts,
                      const MPI_Datatype *types, MPI_Datatype type)
{
    tm__rec_comm *c;
    if (!tm__rec_on())
        return;
    tm__rec_lock();
    tm__rec_count_call(kind);
    if (!(c = tm__rec_comm_of(comm)))
        goto out;
    if (c->nout < 0)
        out_neighbours(comm, c);
    tm__rec_phase_close(); /* the point-to-point phase before it */
    for (int i = 0; i < c->nout; i++)
        if (c->out[i] >= 0)
            tm__rec_add(kind, c->out[i],
                        counts ? tm__rec_bytes(counts[i], types ? types[i] : type) : n);
    tm__rec_phase_close(); /* its own phase */
out:
    tm__rec_unlock();
}
