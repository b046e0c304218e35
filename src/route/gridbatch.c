/*
 * gridbatch.c - the ECMP loads of many messages on a healthy torus or mesh
 * at once (gridbox.h), for the exact evaluation.  What makes it fast
 * (measured in docs/performance.md, item 15):
 *
 * - A row of a box along dimension 0 is a product of per-box tables (the
 *   closed form in gridbox.h): no division and no dependence between its
 *   vertices, and one fused pass adds the row's links of three dimensions.
 * - The loads are kept per cable position (grid vertex p and dimension d:
 *   the cable between p and p + e_d) in planes in grid order.  The paths
 *   b -> a are those of a -> b reversed, so a message and its reverse
 *   share one box: the volume they have in common goes once to a plane
 *   of both ways, only the rest to the plane of one way.  A row of a
 *   plane is contiguous, and the row loop adds four vertices per vector
 *   operation.
 * - Rows are padded by half a ring, so a row that goes round the ring is
 *   still one contiguous run; fold() adds the part past the end.
 * - On grids of up to three dimensions (add_box3) a row's set-up is a few
 *   operations; it was a third of the time in the generic odometer
 *   (box_layer and box_row), which grids of 4 to 8 dimensions keep.
 *
 * Threads: one slab of consecutive last coordinates per member.  Every
 * member walks all boxes and writes only the rows of its slab, so each
 * load is the same sum in the same order for any thread count, with no
 * reduction and no second copy of the loads.
 */
#include <math.h>
#include <stdlib.h>

#include "gridbox.h"
#include "../util/util.h"

typedef struct pair {
    int32_t a, b;   /* vertex ids, a < b */
    double wf, wb;  /* a -> b and b -> a */
    int32_t zlo, zn; /* the rows it touches: last coordinates zlo .. zlo + zn, round the ring */
} pair;

/* One box of a pair, with its tables (scratch of the thread). */
typedef struct box {
    int32_t x0[TM_GRID_MAX_DIMS], n[TM_GRID_MAX_DIMS], C, lo;
    int dir[TM_GRID_MAX_DIMS];
    double *bin[TM_GRID_MAX_DIMS], *g, *m0;
    int plane[TM_GRID_MAX_DIMS]; /* the plane of its links per dimension */
    double w;                    /* its volume */
} box;

typedef struct batch {
    const tm__gridbox *b;
    const pair *p;
    size_t np;
    double *planes;   /* plane x `plane` + grid row x width + position: planes d (both
                       * ways), then nd + 2 d + side (one way) */
    int32_t rows, width; /* grid rows (n / dims[0]); padded row length */
    size_t plane;        /* doubles from one plane to the next (plane_stride) */
    int32_t rstride[TM_GRID_MAX_DIMS]; /* grid rows per step in dimension d >= 1 */
    double **scratch; /* per member */
    double *inv;      /* inv[i] = 1 / i, i = 1 .. max_steps */
    int members;
    int32_t slab, n_slabs; /* last coordinates per slab, slabs */
} batch;

/* ---- the box of one pair ------------------------------------------------ */

/* out[k] = binom(n, k): exact up to rounding (about k ulp), below 2^n;
 * inv[i] = 1 / i. */
static void binoms(int32_t n, const double *inv, double *out)
{
    out[0] = 1.0;
    for (int32_t k = 0; k < n; k++)
        out[k + 1] = out[k] * (double)(n - k) * inv[k + 1];
}

/* The tables of bx in scratch sp: binom(n_d, .) per dimension; g[K] =
 * 1 / (binom(C, K) (C - K)), so that a vertex's probability times
 * (n_d - k_d) is the share leaving it in dimension d (mirrored when
 * dimension 0 goes down, to follow the row's absolute order); m0, the
 * steps still to go in dimension 0 along the row. */
static void box_tables(box *bx, int nd, const double *inv, double *sp)
{
    int32_t C = bx->C, n0 = bx->n[0];
    double ib = 1.0; /* 1 / binom(C, K) */
    for (int d = 0; d < nd; d++) {
        bx->bin[d] = sp;
        binoms(bx->n[d], inv, sp);
        sp += bx->n[d] + 1;
    }
    bx->g = sp;
    for (int32_t K = 0; K < C; K++) {
        sp[K] = ib * inv[C - K];
        ib *= (double)(K + 1) * inv[C - K];
    }
    sp[C] = 0.0;
    if (bx->dir[0])
        for (int32_t i = 0, j = C; i < j; i++, j--) {
            double x = sp[i];
            sp[i] = sp[j];
            sp[j] = x;
        }
    bx->m0 = sp += C + 1;
    for (int32_t j = 0; j <= n0; j++)
        bx->m0[j] = (double)(bx->dir[0] ? j : n0 - j);
}

/* Doubles of a member's scratch: the tables of the longest box, then the
 * three sink rows where a row's unused planes go. */
static size_t tables_len(const tm__gridbox *b)
{
    return 3 * (size_t)b->max_steps + (size_t)b->nd + 8;
}

static size_t scratch_len(const tm__gridbox *b)
{
    return tables_len(b) + 3 * ((size_t)b->max_steps + 2);
}

/* Four doubles as one vector, unaligned: GCC and Clang vector extensions
 * rather than intrinsics.  GCC's -O2 does not vectorise loops of unknown
 * length; by hand, and with a clone of the row loop for x86-64-v3 (AVX2)
 * picked at load time, a test loop of rows of 17 at random places of the
 * planes ran 2.38 -> 0.83 ns per vertex.  No clone under the sanitizers,
 * whose start-up the clone's resolver would run before.  The clones do
 * the same operations in the same order (C11 mode: no contraction into
 * fused multiply-adds), so the sums are the same on every machine. */
typedef double v4 __attribute__((vector_size(32), aligned(8), may_alias));
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define TM__ROW_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define TM__ROW_CLONES
#endif

/* A row of the box, fused: vertex j's share v, its links of dimension 0
 * (v times the steps still to go, m0) into x and of two more dimensions
 * into y and z, times a, b and c.  One pass, no dependence between
 * iterations, four vertices at a time. */
TM__ROW_CLONES
static void row_fused(int32_t len, double p, const double *restrict bin, const double *restrict g,
                      const double *restrict m0, double *restrict x, double *restrict y,
                      double *restrict z, double a, double b, double c)
{
    int32_t j = 0;
    for (; j + 3 < len; j += 4) {
        v4 v = p * *(const v4 *)(bin + j) * *(const v4 *)(g + j);
        *(v4 *)(x + j) += a * (v * *(const v4 *)(m0 + j));
        *(v4 *)(y + j) += b * v;
        *(v4 *)(z + j) += c * v;
    }
    for (; j < len; j++) {
        double v = p * bin[j] * g[j];
        x[j] += a * (v * m0[j]);
        y[j] += b * v;
        z[j] += c * v;
    }
}

/* The links of a fourth and further dimension (grids of 4 to 8). */
static void row_more(int32_t len, double p, const double *restrict bin, const double *restrict g,
                     double *restrict y, double b)
{
    for (int32_t j = 0; j < len; j++)
        y[j] += b * (p * bin[j] * g[j]);
}

/* The next coordinate from x in direction dir (1: down) round a ring of L. */
static int32_t ring_step(int32_t x, int dir, int32_t L)
{
    return dir ? (x == 0 ? L - 1 : x - 1) : (x + 1 == L ? 0 : x + 1);
}

/* The position row of the links leaving grid row `row` one step in
 * dimension d down (coordinate x there): the row below, round the ring. */
static int32_t row_below(const batch *bt, int d, int32_t row, int32_t x)
{
    return row + (ring_step(x, 1, bt->b->dims[d]) - x) * bt->rstride[d];
}

/* Padded position q of grid row `row` in plane pl. */
static double *plane_at(const batch *bt, int pl, int32_t row, int32_t q)
{
    return bt->planes + (size_t)pl * bt->plane + (size_t)row * (size_t)bt->width + (size_t)q;
}

/* One row of the box (outer steps k, K0 in all; grid row `row` at
 * coordinates x): the links of every dimension but the last if `own`,
 * those of the last if `own_last`.  Its vertices are padded positions
 * lo + 1 .. lo + 1 + n0; going down dimension 0, vertex j's link is at
 * position j - 1 (vertex 0, the end, adds nothing there). */
static void box_row(const batch *bt, box *bx, const int32_t *k, int32_t K0, int32_t row,
                    const int32_t *x, bool own, bool own_last, double *sink)
{
    const tm__gridbox *b = bt->b;
    int32_t n0 = bx->n[0], len = n0 + 1;
    double p = 1.0, *pl[3], ab[3] = {0.0, 0.0, 0.0};
    const double *gp = bx->dir[0] ? bx->g + (bx->C - K0 - n0) : bx->g + K0;
    for (int d = 1; d < b->nd; d++)
        p *= bx->bin[d][k[d]];
    for (int d = 0; d < 3; d++)
        pl[d] = sink + (size_t)d * (size_t)(bt->b->max_steps + 2);
    for (int d = 0; d < b->nd; d++) {
        bool on = d == 0 ? own && n0 > 0 : k[d] < bx->n[d] && (d < b->nd - 1 ? own : own_last);
        double w = (d == 0 ? 1.0 : (double)(bx->n[d] - k[d])) * bx->w, *at;
        if (!on)
            continue;
        at = plane_at(bt, bx->plane[d], d > 0 && bx->dir[d] ? row_below(bt, d, row, x[d]) : row,
                      bx->lo + 1 - (d == 0 ? bx->dir[0] : 0));
        if (d < 3) {
            pl[d] = at;
            ab[d] = w;
        } else {
            row_more(len, p, bx->bin[0], gp, at, w);
        }
    }
    row_fused(len, p, bx->bin[0], gp, bx->m0, pl[0], pl[1], pl[2], ab[0], ab[1], ab[2]);
}

/* One step of x[d] in the box's direction, round the ring; the grid row
 * follows. */
static void step(const batch *bt, const box *bx, int d, int32_t *x, int32_t *row)
{
    int32_t nx = ring_step(x[d], bx->dir[d], bt->b->dims[d]);
    *row += (nx - x[d]) * bt->rstride[d];
    x[d] = nx;
}

/* The rows of the box whose last coordinate is x[last] (k[last] steps in):
 * an odometer over the dimensions between 0 and the last. */
static void box_layer(const batch *bt, box *bx, int32_t *k, int32_t *x, int32_t K0, int32_t row,
                      bool own, bool own_last, double *sink)
{
    const tm__gridbox *b = bt->b;
    int last = b->nd - 1, d;
    for (;;) {
        box_row(bt, bx, k, K0, row, x, own, own_last, sink);
        for (d = 1; d < last; d++) {
            if (k[d] < bx->n[d]) {
                step(bt, bx, d, x, &row);
                k[d]++;
                K0++;
                break;
            }
            row += (bx->x0[d] - x[d]) * bt->rstride[d];
            x[d] = bx->x0[d];
            K0 -= k[d];
            k[d] = 0;
        }
        if (d >= last)
            return;
    }
}

/* add_box on a grid of up to three dimensions, the common case (a
 * missing dimension has one coordinate and no steps), with the row set-up
 * of box_row and the odometer of box_layer unrolled: a row costs the
 * fused pass and a few operations (measured: docs/performance.md). */
static void add_box3(const batch *bt, const box *bx, int32_t slab, double *sink)
{
    static const double one = 1.0;
    const tm__gridbox *b = bt->b;
    /* y is dimension 1 of three, z the last (slabs are along it) */
    int iy = b->nd == 3 ? 1 : -1, iz = b->nd > 1 ? b->nd - 1 : -1;
    int32_t n0 = bx->n[0], n1 = iy > 0 ? bx->n[iy] : 0, n2 = iz > 0 ? bx->n[iz] : 0;
    int32_t L1 = iy > 0 ? b->dims[iy] : 1, L2 = iz > 0 ? b->dims[iz] : 1, S = bt->slab;
    int d1 = iy > 0 && bx->dir[iy], d2 = iz > 0 && bx->dir[iz];
    int32_t y0 = iy > 0 ? bx->x0[iy] : 0, z = iz > 0 ? bx->x0[iz] : 0;
    size_t wd = (size_t)bt->width, rs1 = iy > 0 ? (size_t)bt->rstride[iy] : 0;
    size_t rs2 = iz > 0 ? (size_t)bt->rstride[iz] : 0;
    const double *bin1 = iy > 0 ? bx->bin[iy] : &one, *bin2 = iz > 0 ? bx->bin[iz] : &one;
    double *px = plane_at(bt, bx->plane[0], 0, bx->lo + 1 - bx->dir[0]);
    double *py = n1 > 0 ? plane_at(bt, bx->plane[iy], 0, bx->lo + 1) : NULL;
    double *pz = n2 > 0 ? plane_at(bt, bx->plane[iz], 0, bx->lo + 1) : NULL;
    double *sy = sink + (size_t)(b->max_steps + 2), *sz = sy + (size_t)(b->max_steps + 2);
    for (int32_t k2 = 0; k2 <= n2; k2++, z = ring_step(z, d2, L2)) {
        /* the z links leave from this layer, or from the one below going down */
        int32_t zb = d2 ? ring_step(z, 1, L2) : z, y = y0;
        bool own = z / S == slab, own_z = k2 < n2 && zb / S == slab;
        double c = own_z ? (double)(n2 - k2) * bx->w : 0.0;
        if (!own && !own_z)
            continue;
        for (int32_t k1 = 0; k1 <= n1; k1++, y = ring_step(y, d1, L1)) {
            int32_t yb = d1 ? ring_step(y, 1, L1) : y, K0 = k1 + k2;
            const double *gp = bx->dir[0] ? bx->g + (bx->C - K0 - n0) : bx->g + K0;
            bool on_y = own && k1 < n1;
            row_fused(n0 + 1, bin1[k1] * bin2[k2], bx->bin[0], gp, bx->m0,
                      own && n0 > 0 ? px + wd * ((size_t)y * rs1 + (size_t)z * rs2) : sink,
                      on_y ? py + wd * ((size_t)yb * rs1 + (size_t)z * rs2) : sy,
                      own_z ? pz + wd * ((size_t)y * rs1 + (size_t)zb * rs2) : sz,
                      own ? bx->w : 0.0, on_y ? (double)(n1 - k1) * bx->w : 0.0, c);
        }
    }
}

static void add_box(const batch *bt, box *bx, int me, int32_t slab)
{
    const tm__gridbox *b = bt->b;
    int nd = b->nd, last = nd - 1;
    int32_t S = bt->slab;
    int32_t k[TM_GRID_MAX_DIMS] = {0}, x[TM_GRID_MAX_DIMS] = {0}, row = 0;
    double *sink = bt->scratch[me] + tables_len(b);
    box_tables(bx, nd, bt->inv, bt->scratch[me]);
    bx->lo = bx->dir[0] ? bx->x0[0] - bx->n[0] : bx->x0[0];
    if (bx->lo < 0)
        bx->lo += b->dims[0];
    if (nd <= 3) {
        add_box3(bt, bx, slab, sink);
        return;
    }
    for (int d = 1; d < nd; d++) {
        x[d] = bx->x0[d];
        row += x[d] * bt->rstride[d];
    }
    for (;;) {
        int32_t xl = x[last];
        /* the last dimension's links leave from the row, or from the row
         * below when they go down */
        bool own = xl / S == slab;
        bool own_last = k[last] < bx->n[last] &&
                        (bx->dir[last] ? ring_step(xl, 1, b->dims[last]) / S == slab : own);
        if (own || own_last)
            box_layer(bt, bx, k, x, k[last], row, own, own_last, sink);
        if (k[last] == bx->n[last])
            return;
        step(bt, bx, last, x, &row);
        k[last]++;
    }
}

static void add_pair(const batch *bt, const pair *pr, int me, int32_t slab)
{
    const tm__gridbox *b = bt->b;
    int32_t s = pr->a - b->base;
    int tied[TM_GRID_MAX_DIMS], nt;
    box bx;
    double f;
    nt = tm__gridbox_shape(b, s, pr->b - b->base, bx.n, bx.dir, tied);
    bx.C = 0;
    for (int d = 0; d < b->nd; d++) {
        bx.x0[d] = tm__gridbox_x(b, s, d);
        bx.C += bx.n[d];
    }
    f = 1.0 / (double)(1u << nt);
    for (uint32_t m = 0; m < (1u << nt); m++) {
        tm__gridbox_way(tied, nt, m, bx.dir);
        /* the volume both ways to the planes of both ways, the rest one way:
         * side 0 holds the link up, which a -> b takes where its box goes up */
        if ((bx.w = (pr->wf < pr->wb ? pr->wf : pr->wb) * f) > 0.0) {
            for (int d = 0; d < b->nd; d++)
                bx.plane[d] = d;
            add_box(bt, &bx, me, slab);
        }
        if ((bx.w = fabs(pr->wf - pr->wb) * f) > 0.0) {
            for (int d = 0; d < b->nd; d++)
                bx.plane[d] = b->nd + 2 * d + (bx.dir[d] ^ (pr->wf < pr->wb));
            add_box(bt, &bx, me, slab);
        }
    }
}

/* Whether pr touches a row of the slab (ring offsets: a range that goes
 * round the ring, or a slab inside the range). */
static bool touches(const batch *bt, const pair *pr, int32_t slab)
{
    int32_t L = bt->b->dims[bt->b->nd - 1], z0 = slab * bt->slab;
    int32_t len = z0 + bt->slab <= L ? bt->slab : L - z0;
    return (z0 - pr->zlo + L) % L <= pr->zn || (pr->zlo - z0 + L) % L < len;
}

/* Each member its slabs (slabs()): every pair that touches one. */
static void member_run(void *arg, int me)
{
    const batch *bt = arg;
    for (int32_t sl = me; sl < bt->n_slabs; sl += bt->members)
        for (size_t i = 0; i < bt->np; i++)
            if (touches(bt, &bt->p[i], sl))
                add_pair(bt, &bt->p[i], me, sl);
}

/* ---- pairs in box order ------------------------------------------------- */

/* The low corner of the box of s -> t (grid offsets), the same for t -> s:
 * on a tied ring the lower of the two coordinates.  The range of the last
 * coordinate goes to *zlo .. *zlo + *zn (a tied ring: all of it). */
static int32_t low_corner(const tm__gridbox *b, int32_t s, int32_t t, int32_t *zlo, int32_t *zn)
{
    int32_t lo = 0, n[TM_GRID_MAX_DIMS];
    int dir[TM_GRID_MAX_DIMS], tied[TM_GRID_MAX_DIMS], nt = tm__gridbox_shape(b, s, t, n, dir, tied);
    for (int d = 0, i = 0; d < b->nd; d++) {
        int32_t xs = tm__gridbox_x(b, s, d), xt = tm__gridbox_x(b, t, d), x;
        bool tie = i < nt && tied[i] == d;
        i += tie;
        x = tie ? (xs < xt ? xs : xt) : dir[d] ? xs - n[d] : xs;
        x = x < 0 ? x + b->dims[d] : x;
        lo += x * b->stride[d];
        *zlo = x;
        *zn = tie ? b->dims[d] : n[d];
    }
    return lo;
}

/* Stable counting sort of in[0..m) by key[in[i]] (< nk) into out; cnt has
 * nk + 1 entries. */
static void csort(const int32_t *key, int32_t nk, size_t m, const size_t *in, size_t *out,
                  size_t *cnt)
{
    for (int32_t i = 0; i <= nk; i++)
        cnt[i] = 0;
    for (size_t i = 0; i < m; i++)
        cnt[key[in[i]] + 1]++;
    for (int32_t i = 0; i < nk; i++)
        cnt[i + 1] += cnt[i];
    for (size_t i = 0; i < m; i++)
        out[cnt[key[in[i]]]++] = in[i];
}

/* The messages as pairs of hosts, ordered by (low corner, a, b): a
 * message and its reverse become one pair.  Returns the number of pairs
 * in *pp, or -1 when out of memory. */
static int64_t make_pairs(const tm__gridbox *b, const tm__gridmsg *msg, size_t m, pair **pp)
{
    int32_t *ka = tm__malloc_n(m + 1, sizeof *ka), *kb = tm__malloc_n(m + 1, sizeof *kb);
    int32_t *kl = tm__malloc_n(m + 1, sizeof *kl), *kz = tm__malloc_n(2 * (m + 1), sizeof *kz);
    size_t *i1 = tm__malloc_n(m + 1, sizeof *i1), *i2 = tm__malloc_n(m + 1, sizeof *i2);
    size_t *cnt = tm__malloc_n((size_t)b->n + 1, sizeof *cnt);
    pair *p = tm__malloc_n(m + 1, sizeof *p);
    int64_t np = -1;
    if (!ka || !kb || !kl || !kz || !i1 || !i2 || !cnt || !p)
        goto out;
    for (size_t i = 0; i < m; i++) {
        int32_t s = msg[i].src - b->base, t = msg[i].dst - b->base;
        ka[i] = s < t ? s : t;
        kb[i] = s < t ? t : s;
        kl[i] = low_corner(b, s, t, &kz[2 * i], &kz[2 * i + 1]);
        i1[i] = i;
    }
    csort(kb, b->n, m, i1, i2, cnt);
    csort(ka, b->n, m, i2, i1, cnt);
    csort(kl, b->n, m, i1, i2, cnt);
    np = 0;
    for (size_t i = 0; i < m; i++) {
        const tm__gridmsg *e = &msg[i2[i]];
        bool fwd = e->src < e->dst;
        if (np == 0 || p[np - 1].a != (fwd ? e->src : e->dst) ||
            p[np - 1].b != (fwd ? e->dst : e->src)) {
            p[np].zlo = kz[2 * i2[i]];
            p[np].zn = kz[2 * i2[i] + 1];
            p[np].a = fwd ? e->src : e->dst;
            p[np].b = fwd ? e->dst : e->src;
            p[np].wf = p[np].wb = 0.0;
            np++;
        }
        *(fwd ? &p[np - 1].wf : &p[np - 1].wb) += e->w;
    }
out:
    free(ka);
    free(kb);
    free(kl);
    free(kz);
    free(i1);
    free(i2);
    free(cnt);
    if (np < 0)
        free(p);
    else
        *pp = p;
    return np;
}

/* The planes' loads onto the links.  The position of vertex p in
 * dimension d stands for the link p -> p + e_d (planes of both ways and
 * nd + 2 d) and the link back (both ways and nd + 2 d + 1); padded
 * position q of a row is vertex q - 1 of it, round the ring. */
static void fold(const batch *bt, double *load)
{
    const tm__gridbox *b = bt->b;
    int nd = b->nd;
    int32_t L0 = b->dims[0];
    for (int d = 0; d < nd; d++)
        for (int32_t r = 0; r < bt->rows; r++)
            for (int32_t q = 1; q < bt->width; q++) {
                double both = *plane_at(bt, d, r, q);
                double fwd = *plane_at(bt, nd + 2 * d, r, q), bwd = *plane_at(bt, nd + 2 * d + 1, r, q);
                int32_t p = r * L0 + (q - 1 < L0 ? q - 1 : q - 1 - L0), x, up, nb;
                up = b->link[((size_t)p * (size_t)nd + (size_t)d) * 2];
                if (up < 0)
                    continue; /* the end of a mesh: no link, and nothing added */
                x = tm__gridbox_x(b, p, d);
                nb = x + 1 == b->dims[d] ? p - x * b->stride[d] : p + b->stride[d];
                load[up] += both + fwd;
                load[b->link[((size_t)nb * (size_t)nd + (size_t)d) * 2 + 1]] += both + bwd;
            }
}

/* Doubles from one plane to the next: rows x width, padded so that the
 * planes are not a multiple of 4 KiB apart.  rows x width x 8 bytes is one
 * whenever the rows are a multiple of 512 (64^3: 776 pages), and then the
 * three rows a fused pass loads and stores (x, y and z, same offset in
 * their planes) alias in the low 12 address bits: the CPU takes each load
 * for one that may depend on the stores just before it and waits (4K
 * aliasing).  Measured on 262,144 random ranks on torus:64x64x64, one
 * thread: 7.4 -> 6.0 s median (docs/performance.md).  A third of a page
 * (21 cache lines) keeps any two of the 3 nd planes (at most 24) apart. */
static size_t plane_stride(int32_t rows, int32_t width)
{
    size_t n = (size_t)rows * (size_t)width, off = (n * sizeof(double)) % 4096;
    return n + (1344 + 4096 - off) % 4096 / sizeof(double);
}

/* One slab of consecutive last coordinates per member (all of a grid of
 * one dimension to one): a box is walked by each member whose slab it
 * touches, so more slabs cost tables and row setups, and buy nothing in
 * cache (measured: slabs of 2 layers that fit L2 ran no faster than 32). */
static void slabs(batch *bt)
{
    const tm__gridbox *b = bt->b;
    int32_t L = b->dims[b->nd - 1];
    bt->slab = b->nd == 1 ? L : (L + bt->members - 1) / bt->members;
    bt->n_slabs = (L + bt->slab - 1) / bt->slab;
}

tm_err tm__gridbox_batch(tm_ctx *ctx, const tm__gridbox *b, const tm__gridmsg *msg, size_t m,
                         double *load)
{
    batch bt = {.b = b};
    tm__team *team = NULL;
    pair *p = NULL;
    int64_t np;
    tm_err err = TM_EOK;
    if (b->max_steps > TM__GRIDBOX_CLOSED_MAX)
        return tm__fail(ctx, TM_EINTERNAL, "gridbox: a box too long for the closed form");
    if ((np = make_pairs(b, msg, m, &p)) < 0)
        return tm__nomem(ctx);
    bt.p = p;
    bt.np = (size_t)np;
    if ((err = tm__team_new(ctx, tm_ctx_threads(ctx), &team)) != TM_EOK)
        goto out;
    bt.members = tm__team_size(team);
    slabs(&bt);
    /* rows padded by one position before (a link going down from the
     * row's first vertex adds nothing there) and, on a ring, by half a
     * ring after: a box's row is contiguous, and fold() adds the part
     * that went round */
    bt.rows = b->n / b->dims[0];
    for (int d = 1; d < b->nd; d++)
        bt.rstride[d] = b->stride[d] / b->dims[0];
    bt.width = b->dims[0] + 1 + (b->wrap[0] ? b->dims[0] / 2 : 0);
    bt.plane = plane_stride(bt.rows, bt.width);
    bt.planes = tm__calloc_n(3 * (size_t)b->nd * bt.plane, sizeof *bt.planes);
    bt.scratch = tm__calloc_n((size_t)bt.members, sizeof *bt.scratch);
    bt.inv = tm__malloc_n((size_t)b->max_steps + 2, sizeof *bt.inv);
    if (!bt.planes || !bt.scratch || !bt.inv) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int i = 0; i < bt.members; i++)
        if (!(bt.scratch[i] = tm__malloc_n(scratch_len(b), sizeof **bt.scratch))) {
            err = tm__nomem(ctx);
            goto out;
        }
    for (int32_t i = 1; i <= b->max_steps + 1; i++)
        bt.inv[i] = 1.0 / (double)i;
    tm__team_run(team, member_run, &bt);
    fold(&bt, load);
out:
    for (int i = 0; bt.scratch && i < bt.members; i++)
        free(bt.scratch[i]);
    free(bt.scratch);
    free(bt.planes);
    free(bt.inv);
    free(p);
    tm__team_free(team);
    return err;
}
