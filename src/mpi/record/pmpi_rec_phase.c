/* pmpi_rec_phase.c - the phases of a recorded job (docs/mpi.md "Phases"):
 * FILE.phases, next to TOPOMAP_RECORD's FILE.
 *
 * A process's k-th collective call (one of the intercepted collectives,
 * blocking or not, or a neighbourhood collective, on any communicator)
 * closes its phase 2k (the point-to-point bytes it sent since the previous
 * collective) and its own expansion is phase 2k + 1.  Phase j of the job is
 * the union over processes of their phase j: in an SPMD program every
 * process makes the same collective calls in the same order, so phase j is
 * one step of the program on every process.  MPI_Waitall, MPI_Sendrecv and
 * MPI_Sendrecv_replace also close the current phase (the exchanges of one
 * step between two collectives run one after the other: LULESH's three
 * per iteration), but no MPI rule makes every process call them equally
 * often: at MPI_Finalize the processes compare their sequences of closes,
 * and unless all are the same, every process merges the phases those calls
 * closed into the next one (the cuts of the collectives alone).  Phases without bytes are left
 * out, identical phases are written once with their repeat count, so a
 * loop of 1000 identical iterations is one phase with repeat 1000.  The sum
 * over phases of repeat x phase is FILE (its off-diagonal entries).
 *
 * Memory per process: its distinct rows (a row: the destinations and bytes
 * of one phase) and one int per phase (2 per collective call); rank 0
 * gathers every process's phase sequence (P x phases ints) and distinct
 * rows at MPI_Finalize.  Process-wide state, like the rest of the recorder
 * (pmpi_rec.h); the lock of the recorder is held by every caller. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "topomap/topomap.h"
#include "pmpi_rec.h"
#include "../lib/mpi_int.h"

typedef struct prow {
    uint64_t hash;
    int64_t off; /* first (dst, bytes) pair in pool */
    int n;       /* pairs */
} prow;

static struct {
    /* the phase being recorded: dst -> bytes, open addressing (dst -1:
     * empty), and the slots in use (to clear them in O(used)) */
    int *dst;
    uint64_t *bytes;
    size_t cap, n, *used;
    /* the distinct rows: pairs (dst, bytes) sorted by dst in pool */
    prow *rows;
    int nrows;
    int64_t caprows;
    uint64_t *pool;
    int64_t npool, cappool;
    int *rix; /* row ids by hash, open addressing (-1: empty) */
    size_t caprix;
    /* row id (-1: nothing sent) of every phase so far, and what closed it
     * (1: MPI_Waitall / MPI_Sendrecv, 0: a collective or MPI_Finalize) */
    int *seq;
    uint8_t *waitcut;
    int64_t nseq, capseq, capcut;
    int lost; /* out of memory: the phases are incomplete (tm__rec_phase_lost) */
} ph;

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static int grow_any(void **p, int64_t *cap, int64_t need, size_t size)
{
    int64_t c = *cap ? *cap : 16;
    void *q;
    if (need <= *cap)
        return 0;
    while (c < need)
        c *= 2;
    if (!(q = realloc(*p, (size_t)c * size)))
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

static int cur_grow(void)
{
    size_t cap = ph.cap ? 2 * ph.cap : 64, m = 0;
    int *d = malloc(cap * sizeof *d);
    uint64_t *b = malloc(cap * sizeof *b);
    size_t *u = malloc(cap * sizeof *u);
    if (!d || !b || !u) {
        free(d), free(b), free(u);
        return -1;
    }
    for (size_t i = 0; i < cap; i++)
        d[i] = -1;
    for (size_t k = 0; k < ph.n; k++) {
        size_t i = ph.used[k], h;
        for (h = mix((uint64_t)ph.dst[i]) & (cap - 1); d[h] >= 0; h = (h + 1) & (cap - 1))
            ;
        d[h] = ph.dst[i];
        b[h] = ph.bytes[i];
        u[m++] = h;
    }
    free(ph.dst), free(ph.bytes), free(ph.used);
    ph.dst = d, ph.bytes = b, ph.used = u, ph.cap = cap;
    return 0;
}

void tm__rec_phase_add(int wdst, uint64_t bytes)
{
    size_t h;
    if (wdst < 0 || bytes == 0)
        return;
    if (2 * (ph.n + 1) > ph.cap && cur_grow()) {
        ph.lost = 1;
        return;
    }
    for (h = mix((uint64_t)wdst) & (ph.cap - 1); ph.dst[h] >= 0 && ph.dst[h] != wdst;
         h = (h + 1) & (ph.cap - 1))
        ;
    if (ph.dst[h] < 0) {
        ph.dst[h] = wdst;
        ph.bytes[h] = 0;
        ph.used[ph.n++] = h;
    }
    ph.bytes[h] += bytes;
}

static int pair_cmp(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

static int rix_grow(void)
{
    size_t cap = ph.caprix ? 2 * ph.caprix : 64;
    int *r = malloc(cap * sizeof *r);
    if (!r)
        return -1;
    for (size_t i = 0; i < cap; i++)
        r[i] = -1;
    for (int id = 0; id < ph.nrows; id++) {
        size_t h;
        for (h = ph.rows[id].hash & (cap - 1); r[h] >= 0; h = (h + 1) & (cap - 1))
            ;
        r[h] = id;
    }
    free(ph.rix);
    ph.rix = r;
    ph.caprix = cap;
    return 0;
}

static uint64_t row_hash(const uint64_t *p, int n)
{
    uint64_t hash = (uint64_t)n;
    for (int i = 0; i < 2 * n; i++)
        hash = mix(hash ^ p[i]) + (uint64_t)i;
    return hash;
}

/* The id of the row at the end of the pool (npool .. npool + 2n, sorted):
 * an equal row's, else it becomes a new row; -1 when out of memory. */
static int row_id(int n)
{
    uint64_t *p = ph.pool + ph.npool, hash = row_hash(p, n);
    size_t h;
    int id;
    if (2 * ((size_t)ph.nrows + 1) > ph.caprix && rix_grow())
        return -1;
    for (h = hash & (ph.caprix - 1); ph.rix[h] >= 0; h = (h + 1) & (ph.caprix - 1)) {
        const prow *r = &ph.rows[ph.rix[h]];
        if (r->hash == hash && r->n == n &&
            memcmp(ph.pool + r->off, p, (size_t)(2 * n) * sizeof *p) == 0)
            return ph.rix[h];
    }
    if (grow_any((void **)&ph.rows, &ph.caprows, ph.nrows + 1, sizeof *ph.rows))
        return -1;
    id = ph.nrows++;
    ph.rows[id].hash = hash;
    ph.rows[id].n = n;
    ph.rows[id].off = ph.npool;
    ph.rix[h] = id;
    ph.npool += 2 * n; /* the pairs stay in the pool */
    return id;
}

/* Closes the current phase as row id *id (-1 if empty); -1 if out of memory. */
static int close_row(int *id)
{
    int n = (int)ph.n;
    *id = -1;
    if (grow_any((void **)&ph.pool, &ph.cappool, ph.npool + 2 * (int64_t)n, sizeof *ph.pool))
        return -1;
    if (n) {
        uint64_t *p = ph.pool + ph.npool;
        for (int k = 0; k < n; k++) {
            size_t i = ph.used[k];
            p[2 * k] = (uint64_t)ph.dst[i];
            p[2 * k + 1] = ph.bytes[i];
            ph.dst[i] = -1;
        }
        qsort(p, (size_t)n, 2 * sizeof *p, pair_cmp);
        ph.n = 0;
        if ((*id = row_id(n)) < 0)
            return -1;
    }
    return 0;
}

static void close_as(uint8_t waitcut)
{
    int id;
    if (grow_any((void **)&ph.seq, &ph.capseq, ph.nseq + 1, sizeof *ph.seq) ||
        grow_any((void **)&ph.waitcut, &ph.capcut, ph.nseq + 1, sizeof *ph.waitcut) ||
        close_row(&id)) {
        ph.lost = 1;
        return;
    }
    ph.waitcut[ph.nseq] = waitcut;
    ph.seq[ph.nseq++] = id;
}

void tm__rec_phase_close(void)
{
    close_as(0);
}

void tm__rec_phase_cut(void)
{
    close_as(1);
}

/* Every process's sequence of closes (which phases a wait closed, and how
 * many phases) is the same: a hash of it, compared by MIN and MAX. */
static int cuts_line_up(void)
{
    uint64_t h = mix((uint64_t)ph.nseq), lo = 0, hi = 0;
    for (int64_t j = 0; j < ph.nseq; j++)
        h = mix(h ^ ((uint64_t)j << 1 | ph.waitcut[j]));
    PMPI_Allreduce(&h, &lo, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
    PMPI_Allreduce(&h, &hi, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    return lo == hi;
}

/* Merges every phase a wait closed into the phase after it, so that only
 * the collectives cut: the process's rows are summed again through the
 * current-phase table.  0, or -1 if out of memory. */
static int merge_wait_cuts(void)
{
    int64_t k = 0;
    for (int64_t j = 0; j < ph.nseq; j++) {
        int id = ph.seq[j];
        if (id >= 0) {
            const uint64_t *p = ph.pool + ph.rows[id].off;
            for (int i = 0; i < ph.rows[id].n; i++)
                tm__rec_phase_add((int)p[2 * i], p[2 * i + 1]);
        }
        if (ph.waitcut[j] && j + 1 < ph.nseq)
            continue;
        if (close_row(&id))
            return -1;
        ph.waitcut[k] = 0;
        ph.seq[k++] = id;
    }
    ph.nseq = k;
    return 0;
}

int tm__rec_phase_align(void)
{
    int ok;
    if (cuts_line_up())
        return 1;
    ok = merge_wait_cuts() == 0;
    if (!ok)
        ph.lost = 1;
    return 0;
}

int tm__rec_phase_lost(void)
{
    return ph.lost;
}

void tm__rec_phase_free(void)
{
    free(ph.dst), free(ph.bytes), free(ph.used), free(ph.rows), free(ph.pool), free(ph.rix);
    free(ph.seq), free(ph.waitcut);
    memset(&ph, 0, sizeof ph);
}

/* Every process: ok on all of them. */
static int agree(int ok)
{
    int all = 0;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

/* What rank 0 gathered: every process's phase sequence (K each) and its
 * distinct rows (lens, pairs). */
typedef struct pgath {
    int P;
    int64_t K;
    int *seq;        /* P x K */
    int *nrows;      /* P */
    int *lens;       /* the rows' pair counts, process after process */
    int64_t *first;  /* P + 1: index of each process's first row in lens / rowoff */
    int64_t *rowoff; /* each row's first pair in pairs */
    uint64_t *pairs;
} pgath;

static void pgath_free(pgath *g)
{
    free(g->seq), free(g->nrows), free(g->lens), free(g->first), free(g->rowoff), free(g->pairs);
}

/* Gathers n ints (or pairs of uint64 when pairs) per process on rank 0
 * into *out; counts on rank 0 in cnt (P).  Every process calls it, with ok
 * = 0 when it cannot take part.  0, or -1 on every process. */
static int gatherv(const void *mine, int64_t n, int pairs, int rank, int P, const int *cnt,
                   void **out, int ok)
{
    int *c2 = NULL, *disp = NULL, w = pairs ? 2 : 1;
    int64_t t = 0;
    size_t size = pairs ? sizeof(uint64_t) : sizeof(int);
    ok = ok && n * w <= INT_MAX;
    if (rank == 0 && ok) {
        ok = (c2 = malloc((size_t)P * sizeof *c2)) && (disp = malloc((size_t)P * sizeof *disp));
        for (int r = 0; ok && r < P; r++) {
            disp[r] = (int)t;
            c2[r] = cnt[r] * w;
            t += c2[r];
            ok = t <= INT_MAX;
        }
        ok = ok && (*out = malloc((size_t)(t ? t : 1) * size));
    }
    if (agree(ok))
        PMPI_Gatherv(mine, (int)(n * w), pairs ? MPI_UINT64_T : MPI_INT, rank == 0 ? *out : NULL, c2,
                     disp, pairs ? MPI_UINT64_T : MPI_INT, 0, MPI_COMM_WORLD);
    else
        ok = 0;
    free(c2);
    free(disp);
    return ok ? 0 : -1;
}

static int gather_phases(int rank, int P, pgath *g)
{
    int64_t mine = ph.nseq;
    int ok, n = ph.nrows, *lens = malloc((size_t)(n ? n : 1) * sizeof *lens);
    g->P = P;
    PMPI_Allreduce(&mine, &g->K, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    ok = lens && g->K * P <= INT_MAX &&
         !grow_any((void **)&ph.seq, &ph.capseq, g->K ? g->K : 1, sizeof *ph.seq);
    for (int64_t j = ph.nseq; ok && j < g->K; j++)
        ph.seq[j] = -1; /* a process that made fewer calls: nothing there */
    if (rank == 0)
        ok = ok && (g->seq = malloc((size_t)(g->K * P + 1) * sizeof *g->seq)) &&
             (g->nrows = malloc((size_t)P * sizeof *g->nrows));
    if (!agree(ok)) {
        free(lens);
        return -1;
    }
    PMPI_Gather(ph.seq, (int)g->K, MPI_INT, g->seq, (int)g->K, MPI_INT, 0, MPI_COMM_WORLD);
    PMPI_Gather(&n, 1, MPI_INT, g->nrows, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int i = 0; i < n; i++)
        lens[i] = ph.rows[i].n;
    ok = gatherv(lens, n, 0, rank, P, g->nrows, (void **)&g->lens, 1) == 0;
    free(lens);
    if (!ok)
        return -1;
    if (rank == 0) {
        int *pc = malloc((size_t)P * sizeof *pc);
        int64_t k = 0;
        ok = pc && (g->first = malloc((size_t)(P + 1) * sizeof *g->first));
        for (int r = 0; ok && r < P; r++) {
            g->first[r] = k;
            pc[r] = 0;
            for (int i = 0; i < g->nrows[r]; i++, k++)
                pc[r] += g->lens[k];
        }
        if (ok) {
            g->first[P] = k;
            ok = (g->rowoff = malloc((size_t)(k + 1) * sizeof *g->rowoff)) != NULL;
            for (int64_t i = 0, at = 0; ok && i < k; at += g->lens[i++])
                g->rowoff[i] = at;
        }
        ok = gatherv(ph.pool, ph.npool / 2, 1, rank, P, pc, (void **)&g->pairs, ok) == 0;
        free(pc);
        return ok ? 0 : -1;
    }
    return gatherv(ph.pool, ph.npool / 2, 1, rank, P, NULL, NULL, 1);
}

/* Column j of the gathered sequences: the row of every process in phase j. */
static int col_eq(const pgath *g, int64_t a, int64_t b)
{
    for (int r = 0; r < g->P; r++)
        if (g->seq[r * g->K + a] != g->seq[r * g->K + b])
            return 0;
    return 1;
}

/* The distinct nonempty phases (their first index, in order of first
 * occurrence) and how often each ran; -1 when out of memory. */
static int distinct(const pgath *g, int64_t **first, int64_t **count, int64_t *nd)
{
    size_t cap = 64;
    int64_t *tab, n = 0;
    while (cap < 2 * (size_t)g->K + 2)
        cap *= 2;
    tab = malloc(cap * sizeof *tab);
    *first = malloc((size_t)(g->K + 1) * sizeof **first);
    *count = malloc((size_t)(g->K + 1) * sizeof **count);
    if (!tab || !*first || !*count) {
        free(tab);
        return -1;
    }
    for (size_t i = 0; i < cap; i++)
        tab[i] = -1;
    for (int64_t j = 0; j < g->K; j++) {
        uint64_t hash = 0;
        int any = 0;
        size_t h;
        for (int r = 0; r < g->P; r++) {
            int id = g->seq[r * g->K + j];
            any |= id >= 0;
            hash = mix(hash ^ (uint64_t)(int64_t)id) + (uint64_t)r;
        }
        if (!any)
            continue;
        for (h = hash & (cap - 1); tab[h] >= 0 && !col_eq(g, (*first)[tab[h]], j);
             h = (h + 1) & (cap - 1))
            ;
        if (tab[h] < 0) {
            tab[h] = n;
            (*first)[n] = j;
            (*count)[n++] = 0;
        }
        (*count)[tab[h]]++;
    }
    free(tab);
    *nd = n;
    return 0;
}

/* Phase j as a communication graph (tasks numbered by task when set). */
static tm_err phase_comm(tm_ctx *ctx, const pgath *g, int64_t j, const int *task, tm_comm *out)
{
    int64_t m = 0, k = 0;
    int32_t *src, *dst;
    double *w;
    tm_err err = TM_ENOMEM;
    for (int r = 0; r < g->P; r++) {
        int id = g->seq[r * g->K + j];
        m += id >= 0 ? g->lens[g->first[r] + id] : 0;
    }
    src = malloc((size_t)(m + 1) * sizeof *src);
    dst = malloc((size_t)(m + 1) * sizeof *dst);
    w = malloc((size_t)(m + 1) * sizeof *w);
    if (src && dst && w) {
        for (int r = 0; r < g->P; r++) {
            int id = g->seq[r * g->K + j];
            if (id < 0)
                continue;
            const uint64_t *p = g->pairs + 2 * g->rowoff[g->first[r] + id];
            for (int i = 0; i < g->lens[g->first[r] + id]; i++, k++) {
                src[k] = task ? task[r] : r;
                dst[k] = task ? task[p[2 * i]] : (int32_t)p[2 * i];
                w[k] = (double)p[2 * i + 1];
            }
        }
        err = tm_comm_from_entries(ctx, g->P, m, src, dst, w, out);
    }
    free(src), free(dst), free(w);
    return err;
}

int tm__rec_phase_gather(tm_ctx *ctx, int rank, int P, const int *task, tm_comm_phases *out)
{
    pgath g;
    int64_t *first = NULL, *count = NULL, nd = 0;
    int rc = -1;
    memset(&g, 0, sizeof g);
    tm_comm_phases_init(out);
    if (gather_phases(rank, P, &g) == 0 && rank == 0 && ctx &&
        distinct(&g, &first, &count, &nd) == 0 && nd <= INT32_MAX &&
        (out->phase = calloc((size_t)(nd ? nd : 1), sizeof *out->phase)) &&
        (out->repeat = malloc((size_t)(nd ? nd : 1) * sizeof *out->repeat))) {
        out->n_tasks = P;
        rc = 0;
        for (int64_t d = 0; d < nd && rc == 0; d++) {
            tm_comm *c = &out->phase[out->n_phases];
            rc = phase_comm(ctx, &g, first[d], task, c) ? -1 : 0;
            if (rc == 0 && c->nnz == 0) {
                tm_comm_release(c); /* only messages to itself */
                continue;
            }
            out->repeat[out->n_phases] = count[d];
            out->n_phases += rc == 0;
        }
    }
    if (rc)
        tm_comm_phases_release(out);
    free(first);
    free(count);
    pgath_free(&g);
    return rc;
}
