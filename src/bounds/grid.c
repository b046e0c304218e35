/* grid.c - the isoperimetric bound of a task graph that is a grid
 * (docs/bounds.md "Stencils: the grid's isoperimetry").
 *
 * A stencil's task graph is a torus or a mesh (a Cartesian product of
 * cycles and paths) under any numbering of its ranks.  It is recognised
 * from the graph alone and checked edge by edge:
 *  1. the edges fall into classes, opposite edges of every 4-cycle in one
 *     class (union-find over the squares: in a product they are the
 *     dimensions);
 *  2. for each class, the components of the graph without its edges are
 *     the layers across that dimension; the class's edges must join them
 *     in one cycle or one path, whose order gives every task a coordinate;
 *  3. the coordinates must be a bijection onto the box, every edge must
 *     step one along its own dimension and the edge count must be the
 *     grid's; every message must have its reverse.  Volumes may differ (a
 *     real trace's): each dimension counts its least message volume.
 * Step 1 also joins the two edges of a task that lie on no common square
 * (in a product, edges of two factors always span one): the edges of one
 * line.  A ring of 4 is a square itself, and is found as two dimensions of
 * length 2 (C4 = P2 x P2, the same graph).  Anything else (a wrong class,
 * a missing edge, unequal volumes) fails a check and leaves no grid bound:
 * the other bounds stand.
 *
 * For a set K of k tasks in such a grid, Loomis-Whitney gives
 * k^(d-1) <= prod_i p_i, p_i the lines of dimension i that meet K; a line
 * meeting K but not inside it has at least 2 boundary edges on a cycle
 * (1 on a path), and at most floor(k / L_i) lines lie inside K; each line
 * holds at most L_i tasks; each boundary edge of dimension i carries at
 * least w_i (its least message volume) each way.  So the volume leaving K is at least the least
 * sum_i c_i w_i max(0, p_i - floor(k / L_i)) under those constraints;
 * relaxed to real p_i (a smaller least value, still a bound) it is solved
 * per set of "active" dimensions in closed form (equal c_i w_i p_i, clipped
 * to the box).  Exact for cubes of a big torus (8 tasks: 24 edges). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bounds_int.h"
#include "../util/util.h"

/* Parts larger than this get no grid bound (the least over k <= c costs c
 * evaluations). */
#define GRID_PART_MAX 16384

static int32_t uf_find(int32_t *p, int32_t x)
{
    while (p[x] != x) {
        p[x] = p[p[x]];
        x = p[x];
    }
    return x;
}

static void uf_union(int32_t *p, int32_t a, int32_t b)
{
    a = uf_find(p, a);
    b = uf_find(p, b);
    if (a != b)
        p[a < b ? b : a] = a < b ? a : b;
}

/* The entry of v's row that points to u (rows are sorted), or -1. */
static int64_t entry(const tm__sgraph *g, int32_t v, int32_t u)
{
    int64_t lo = g->xadj[v], hi = g->xadj[v + 1] - 1;
    while (lo <= hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (g->adj[mid] == u)
            return mid;
        if (g->adj[mid] < u)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* Every message has a reverse (of any volume): the job's rows are then the
 * symmetric graph's, entry for entry. */
static bool symmetric(const tm_comm *c, const tm__sgraph *g)
{
    if (c->nnz != g->xadj[g->n])
        return false;
    for (int32_t u = 0; u <= c->n; u++)
        if (c->xadj[u] != g->xadj[u])
            return false;
    for (int64_t e = 0; e < c->nnz; e++)
        if (c->adj[e] != g->adj[e])
            return false;
    return true;
}

/* Step 1: class[e] of every entry (class ids 0..d-1); d, or -1. */
static int classes(const tm__sgraph *g, int32_t *uf, int32_t *mark, int32_t *cls)
{
    int64_t m = g->xadj[g->n];
    int d = 0;
    for (int64_t e = 0; e < m; e++)
        uf[e] = (int32_t)e;
    for (int32_t v = 0; v < g->n; v++)
        mark[v] = -1;
    for (int32_t v = 0; v < g->n; v++) {
        for (int64_t ea = g->xadj[v]; ea < g->xadj[v + 1]; ea++) {
            int32_t a = g->adj[ea];
            uf_union(uf, (int32_t)ea, (int32_t)entry(g, a, v)); /* an edge's two entries */
            for (int64_t ex = g->xadj[a]; ex < g->xadj[a + 1]; ex++)
                mark[g->adj[ex]] = (int32_t)ex; /* x -> the entry a -> x */
            for (int64_t eb = ea + 1; eb < g->xadj[v + 1]; eb++) {
                int32_t b = g->adj[eb];
                bool square = false;
                for (int64_t ey = g->xadj[b]; ey < g->xadj[b + 1]; ey++) {
                    int32_t x = g->adj[ey];
                    if (x == v || mark[x] < 0 || x == a)
                        continue;
                    /* the square v-a-x-b: v-a ~ b-x, v-b ~ a-x */
                    uf_union(uf, (int32_t)ea, (int32_t)ey);
                    uf_union(uf, (int32_t)eb, mark[x]);
                    square = true;
                }
                /* two edges of v on no common square: one dimension (in a
                 * product, edges of two factors always span a square) */
                if (!square)
                    uf_union(uf, (int32_t)ea, (int32_t)eb);
            }
            for (int64_t ex = g->xadj[a]; ex < g->xadj[a + 1]; ex++)
                mark[g->adj[ex]] = -1;
        }
    }
    for (int64_t e = 0; e < m; e++)
        uf[e] = uf_find(uf, (int32_t)e);
    for (int64_t e = 0; e < m; e++)
        if (uf[e] == (int32_t)e) {
            if (d == TM_GRID_MAX_DIMS)
                return -1;
            cls[e] = d++;
        }
    for (int64_t e = 0; e < m; e++)
        cls[e] = cls[uf[e]];
    return d;
}

/* Step 2 for class i: x[v] = v's coordinate along it, *L the length,
 * *cyc a cycle (else a path).  False when the layers do not form one. */
static bool layers(const tm__sgraph *g, const int32_t *cls, int i, int32_t *lay, int32_t *queue,
                   int32_t *x, int32_t *L, bool *cyc)
{
    int32_t n = g->n, nl = 0, ends = 0, *nb = NULL, start = 0;
    bool ok = true;
    for (int32_t v = 0; v < n; v++)
        lay[v] = -1;
    for (int32_t s = 0; s < n; s++) { /* components without class i's edges */
        int32_t head = 0, tail = 0;
        if (lay[s] >= 0)
            continue;
        lay[s] = nl;
        queue[tail++] = s;
        while (head < tail) {
            int32_t v = queue[head++];
            for (int64_t e = g->xadj[v]; e < g->xadj[v + 1]; e++)
                if (cls[e] != i && lay[g->adj[e]] < 0) {
                    lay[g->adj[e]] = nl;
                    queue[tail++] = g->adj[e];
                }
        }
        nl++;
    }
    nb = malloc((size_t)nl * 2 * sizeof *nb);
    if (!nb || nl < 2)
        goto fail;
    for (int32_t l = 0; l < 2 * nl; l++)
        nb[l] = -1;
    for (int32_t v = 0; v < n && ok; v++)
        for (int64_t e = g->xadj[v]; e < g->xadj[v + 1] && ok; e++) {
            int32_t a = lay[v], b = lay[g->adj[e]];
            if (cls[e] != i)
                continue;
            if (a == b || (nb[2 * a] >= 0 && nb[2 * a] != b && nb[2 * a + 1] >= 0 &&
                           nb[2 * a + 1] != b))
                ok = false; /* a class edge inside a layer, or a third neighbour layer */
            else if (nb[2 * a] < 0)
                nb[2 * a] = b;
            else if (nb[2 * a] != b)
                nb[2 * a + 1] = b;
        }
    for (int32_t l = 0; ok && l < nl; l++) {
        if (nb[2 * l] < 0)
            ok = false;
        else if (nb[2 * l + 1] < 0)
            ends++, start = l;
    }
    ok = ok && (ends == 0 || ends == 2);
    if (ok) { /* walk the cycle or path from its start, numbering the layers */
        int32_t prev = -1, cur = ends ? start : lay[0], k = 0;
        for (int32_t l = 0; l < nl; l++)
            queue[l] = -1;
        while (cur >= 0 && queue[cur] < 0) {
            int32_t next = nb[2 * cur] != prev ? nb[2 * cur] : nb[2 * cur + 1];
            queue[cur] = k++;
            if (nb[2 * cur] == nb[2 * cur + 1]) /* two layers: one neighbour twice */
                next = -1;
            prev = cur;
            cur = next;
        }
        ok = k == nl;
        for (int32_t v = 0; ok && v < n; v++)
            x[v] = queue[lay[v]];
    }
    *L = nl;
    *cyc = ends == 0 && nl >= 3;
    free(nb);
    return ok;
fail:
    free(nb);
    return false;
}

/* Step 3: the coordinates are a bijection onto the box, every edge steps
 * one along its class and the edge count is the grid's; w[i] becomes the
 * least volume of a message along dimension i (c: the job's entries, in
 * the symmetric graph's order). */
static bool verify(const tm__sgraph *g, const tm_comm *c, const int32_t *cls, int d,
                   int32_t *const *x, tm__tgrid *gr)
{
    int32_t n = g->n;
    int64_t box = 1, want = 0;
    uint8_t *seen;
    bool ok = true;
    for (int i = 0; i < d; i++) {
        box *= gr->L[i];
        gr->w[i] = -1;
    }
    if (box != n)
        return false;
    for (int i = 0; i < d; i++)
        want += gr->cyc[i] ? n : (int64_t)n / gr->L[i] * (gr->L[i] - 1);
    if (2 * want != g->xadj[n] || !(seen = calloc((size_t)n, 1)))
        return false;
    for (int32_t v = 0; v < n && ok; v++) {
        int64_t idx = 0;
        for (int i = d - 1; i >= 0; i--)
            idx = idx * gr->L[i] + x[i][v];
        ok = !seen[idx];
        seen[idx] = 1;
        for (int64_t e = g->xadj[v]; e < g->xadj[v + 1] && ok; e++) {
            int32_t u = g->adj[e];
            int k = cls[e];
            for (int i = 0; i < d && ok; i++) {
                int32_t dx = abs(x[i][v] - x[i][u]);
                ok = i == k ? dx == 1 || (gr->cyc[i] && dx == gr->L[i] - 1) : dx == 0;
            }
            if (gr->w[k] < 0 || c->w[e] < gr->w[k])
                gr->w[k] = c->w[e];
        }
    }
    free(seen);
    return ok;
}

tm_err tm__tgrid_detect(tm_ctx *ctx, const tm_comm *c, tm__tcut *t)
{
    const tm__sgraph *g = &t->sg;
    int32_t n = g->n, *uf = NULL, *cls = NULL, *mark = NULL, *lay = NULL, *queue = NULL;
    int32_t *x[TM_GRID_MAX_DIMS] = {0};
    int64_t m = g->xadj[n];
    int d = 0;
    bool ok;
    tm__tgrid *gr = &t->grid;
    memset(gr, 0, sizeof *gr);
    /* a grid: symmetric, at most 2 x TM_GRID_MAX_DIMS partners a task */
    if (n < 2 || m == 0 || m > INT32_MAX || t->maxlen > 2 * TM_GRID_MAX_DIMS || !symmetric(c, g))
        return TM_EOK;
    uf = tm__malloc_n((size_t)m, sizeof *uf);
    cls = tm__malloc_n((size_t)m, sizeof *cls);
    mark = tm__malloc_n((size_t)n, sizeof *mark);
    lay = tm__malloc_n((size_t)n, sizeof *lay);
    queue = tm__malloc_n((size_t)n, sizeof *queue);
    ok = uf && cls && mark && lay && queue;
    if (ok)
        d = classes(g, uf, mark, cls);
    ok = ok && d >= 1;
    for (int i = 0; ok && i < d; i++) {
        ok = (x[i] = tm__malloc_n((size_t)n, sizeof **x)) != NULL &&
             layers(g, cls, i, lay, queue, x[i], &gr->L[i], &gr->cyc[i]);
    }
    gr->d = d;
    ok = ok && verify(g, c, cls, d, x, gr);
    if (ok) {
        gr->memo = tm__malloc_n((size_t)n + 1, sizeof *gr->memo);
        ok = gr->memo != NULL;
        for (int32_t k = 0; ok && k <= n; k++)
            gr->memo[k] = NAN;
    }
    if (!ok)
        gr->d = 0;
    for (int i = 0; i < TM_GRID_MAX_DIMS; i++)
        free(x[i]);
    free(uf);
    free(cls);
    free(mark);
    free(lay);
    free(queue);
    return !uf || !cls || !mark || !lay || !queue ? tm__nomem(ctx) : TM_EOK;
}

/* The least of sum a_i (p_i - f_i) over active dims S with every p_i in
 * [lo_i, hi_i] and sum of log p_i >= R (INFINITY when none). */
static double active_min(const double *a, const double *f, const double *lo, const double *hi,
                         unsigned S, int d, double R)
{
    double lmin = 0, lmax = 0, lam_lo, lam_hi, cost = 0;
    for (int i = 0; i < d; i++)
        if (S >> i & 1) {
            lmin += log(lo[i]);
            lmax += log(hi[i]);
        }
    if (lmax < R - 1e-12)
        return INFINITY;
    if (lmin < R) { /* p_i = clip(lam / a_i): the sum of logs grows with lam */
        lam_lo = 0, lam_hi = 0;
        for (int i = 0; i < d; i++)
            if (S >> i & 1)
                lam_hi = fmax(lam_hi, a[i] * hi[i]);
        for (int it = 0; it < 64; it++) {
            double lam = (lam_lo + lam_hi) / 2, s = 0;
            for (int i = 0; i < d; i++)
                if (S >> i & 1)
                    s += log(fmin(hi[i], fmax(lo[i], lam / a[i])));
            if (s >= R)
                lam_hi = lam;
            else
                lam_lo = lam;
        }
        /* lam_lo: the product just below R, so the cost just below the least */
        for (int i = 0; i < d; i++)
            if (S >> i & 1)
                cost += a[i] * (fmin(hi[i], fmax(lo[i], lam_lo / a[i])) - f[i]);
        return cost;
    }
    for (int i = 0; i < d; i++)
        if (S >> i & 1)
            cost += a[i] * (lo[i] - f[i]);
    return cost;
}

/* Dimensions up to which full lines are coupled to the others (3^d cases
 * per k); beyond, the lines are relaxed apart (2^d cases). */
#define COUPLED_DIMS 6

/* The bound on the volume leaving a set of k tasks: the least over U (the
 * dimensions with a line inside the set: then every other dimension meets
 * at least L_i lines, those of that line's points) and over which of U's
 * dimensions have every line they meet inside (p_i <= f_i: no boundary). */
static double iso(const tm__tgrid *gr, int32_t n, int64_t k)
{
    int d = gr->d, coupled = d <= COUPLED_DIMS;
    double a[TM_GRID_MAX_DIMS], f[TM_GRID_MAX_DIMS], lo0[TM_GRID_MAX_DIMS], hi[TM_GRID_MAX_DIMS];
    double best = INFINITY, R = (d - 1) * log((double)k);
    for (int i = 0; i < d; i++) {
        a[i] = (gr->cyc[i] ? 2.0 : 1.0) * gr->w[i];
        f[i] = floor((double)k / gr->L[i]);
        lo0[i] = fmax(1.0, ceil((double)k / gr->L[i]));
        hi[i] = fmin((double)n / gr->L[i], (double)k);
    }
    for (unsigned U = 0; U < 1u << d; U++) {
        double lo[TM_GRID_MAX_DIMS], fu[TM_GRID_MAX_DIMS];
        bool ok = true;
        if (!coupled && U != (1u << d) - 1)
            continue; /* uncoupled: every dimension may have full lines */
        for (int i = 0; i < d && ok; i++) {
            lo[i] = lo0[i];
            fu[i] = U >> i & 1 ? f[i] : 0; /* no line of i inside: p_i all boundary */
            ok = !(U >> i & 1) || f[i] >= 1;
            for (int j = 0; coupled && j < d; j++)
                if (j != i && (U >> j & 1)) {
                    lo[i] = fmax(lo[i], gr->L[j]);
                    /* lines of two dimensions share at most one point */
                    ok = ok && (!(U >> i & 1) || gr->L[i] + gr->L[j] - 1 <= k);
                }
            ok = ok && lo[i] <= hi[i];
        }
        if (!ok)
            continue;
        /* S: U's dimensions whose lines all lie inside (p_i = min(f_i, hi_i)) */
        for (unsigned S = U;; S = (S - 1) & U) {
            double rest = R, v, lo_a[TM_GRID_MAX_DIMS];
            bool fine = true;
            unsigned A = ((1u << d) - 1) & ~S;
            for (int i = 0; i < d && fine; i++) {
                lo_a[i] = fmax(lo[i], fu[i]);
                if (S >> i & 1) {
                    fine = lo[i] <= fmin(f[i], hi[i]);
                    rest -= log(fmin(f[i], hi[i]));
                }
            }
            if (fine) {
                v = A == 0 ? (rest <= 1e-12 ? 0.0 : INFINITY)
                           : active_min(a, fu, lo_a, hi, A, d, rest);
                best = v < best ? v : best;
            }
            if (S == 0)
                break;
        }
    }
    return isfinite(best) && best > 0 ? best : 0.0;
}

double tm__tgrid_out(const tm__tcut *t, int64_t k)
{
    const tm__tgrid *gr = &t->grid;
    double v;
    if (gr->d == 0 || k <= 0 || k >= t->n)
        return 0.0;
    if (!isnan(gr->memo[k]))
        return gr->memo[k];
    /* the complement has the same boundary */
    v = fmax(iso(gr, t->n, k), iso(gr, t->n, t->n - k));
    gr->memo[k] = v;
    return v;
}

double tm__tgrid_part(const tm__tcut *t, int64_t c)
{
    double best = INFINITY;
    if (t->grid.d == 0 || c >= t->n || c > GRID_PART_MAX)
        return 0.0; /* beyond: the work; 0 is a bound */
    /* parts of k_p <= c tasks: sum_p out(K_p) >= sum_p k_p (g(k_p) / k_p) */
    for (int64_t k = 1; k <= c; k++) {
        double r = tm__tgrid_out(t, k) / (double)k;
        best = r < best ? r : best;
    }
    return isfinite(best) ? best * t->n : 0.0;
}
