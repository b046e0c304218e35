/* tcut.c - the task graph's side of the lower bounds (docs/bounds.md):
 * each task's volumes sorted, and the degree bound on the cut of a set.
 *
 * A set K of k tasks that holds task v keeps at most k - 1 of v's partners
 * inside, so at least r_v(k) = (v's volume) - (its k - 1 largest entries)
 * of what v sends leaves K; summed over K, the volume leaving K is at least
 * the sum of the k smallest r_v(k) over all tasks (any K: phi), or r_u(k)
 * plus the k - 1 smallest of the others (a K that holds u: phi_u).  The
 * same holds for what a task receives and for both directions together. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bounds_int.h"
#include "../util/util.h"

static int cmp_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

/* Rows of direction x from offsets and values (sorted here, then made
 * prefix sums in place). */
static void finish_rows(tm__tcut *t, int x)
{
    int32_t n = t->n;
    for (int32_t u = 0; u < n; u++) {
        int64_t a = t->x[x][u], b = t->x[x][u + 1];
        double s = 0;
        if (b - a > 1)
            qsort(t->pre[x] + a, (size_t)(b - a), sizeof(double), cmp_desc);
        for (int64_t e = a; e < b; e++) {
            s += t->pre[x][e];
            t->pre[x][e] = s;
        }
        t->deg[x][u] = s;
        if (b - a > t->maxlen)
            t->maxlen = (int32_t)(b - a);
    }
}

/* The out rows (the comm's own) and the in rows (its transpose). */
static tm_err build_rows(tm_ctx *ctx, const tm_comm *c, tm__tcut *t)
{
    int32_t n = c->n;
    int64_t m = c->nnz, *fill;
    for (int x = 0; x < TM__NX; x++) {
        if (x != TM__SYM && !(t->x[x] = tm__calloc_n((size_t)n + 1, sizeof(int64_t))))
            return tm__nomem(ctx);
        t->deg[x] = tm__calloc_n((size_t)n + 1, sizeof(double));
        if (!t->deg[x])
            return tm__nomem(ctx);
    }
    t->pre[TM__OUT] = tm__malloc_n((size_t)m + 1, sizeof(double));
    t->pre[TM__IN] = tm__malloc_n((size_t)m + 1, sizeof(double));
    t->pre[TM__SYM] = tm__malloc_n((size_t)t->sg.xadj[n] + 1, sizeof(double));
    fill = tm__calloc_n((size_t)n + 1, sizeof *fill);
    if (!t->pre[TM__OUT] || !t->pre[TM__IN] || !t->pre[TM__SYM] || !fill) {
        free(fill);
        return tm__nomem(ctx);
    }
    memcpy(t->x[TM__OUT], c->xadj, ((size_t)n + 1) * sizeof(int64_t));
    memcpy(t->pre[TM__OUT], c->w, (size_t)m * sizeof(double));
    for (int64_t e = 0; e < m; e++)
        t->x[TM__IN][c->adj[e] + 1]++;
    for (int32_t v = 0; v < n; v++)
        t->x[TM__IN][v + 1] += t->x[TM__IN][v];
    for (int32_t u = 0; u < n; u++)
        for (int64_t e = c->xadj[u]; e < c->xadj[u + 1]; e++) {
            int32_t v = c->adj[e];
            t->pre[TM__IN][t->x[TM__IN][v] + fill[v]++] = c->w[e];
        }
    free(fill);
    t->x[TM__SYM] = t->sg.xadj;
    memcpy(t->pre[TM__SYM], t->sg.w, (size_t)t->sg.xadj[n] * sizeof(double));
    for (int x = 0; x < TM__NX; x++)
        finish_rows(t, x);
    return TM_EOK;
}

double tm__tcut_r(const tm__tcut *t, int x, int32_t v, int64_t k)
{
    int64_t len = t->x[x][v + 1] - t->x[x][v], j = k - 1 < len ? k - 1 : len;
    double r = t->deg[x][v] - (j > 0 ? t->pre[x][t->x[x][v] + j - 1] : 0.0);
    return r > 0 ? r : 0.0; /* rounding of the prefix sums */
}

/* Swaps a[i], a[j]. */
static void swap_d(double *a, int64_t i, int64_t j)
{
    double s = a[i];
    a[i] = a[j];
    a[j] = s;
}

/* Moves the k-th smallest (0-based) of a[0..n) to a[k], the smaller ones
 * before it (quickselect, median of three). */
static void select_k(double *a, int64_t n, int64_t k)
{
    int64_t lo = 0, hi = n - 1;
    while (hi > lo) {
        int64_t mid = lo + (hi - lo) / 2, i = lo, j = hi;
        double p;
        if (a[mid] < a[lo])
            swap_d(a, mid, lo);
        if (a[hi] < a[lo])
            swap_d(a, hi, lo);
        if (a[hi] < a[mid])
            swap_d(a, hi, mid);
        p = a[mid];
        while (i <= j) {
            while (a[i] < p)
                i++;
            while (a[j] > p)
                j--;
            if (i <= j)
                swap_d(a, i++, j--);
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return;
    }
}

/* The tables of direction x for k = 1..K: the k smallest r_v(k) among the
 * tasks whose row has at least k entries, the others' being 0. */
static void tables(tm__tcut *t, int x, double *vals)
{
    int32_t n = t->n;
    int64_t *shorter = tm__calloc_n((size_t)t->K + 2, sizeof *shorter);
    for (int32_t v = 0; shorter && v < n; v++) {
        int64_t len = t->x[x][v + 1] - t->x[x][v];
        if (len + 1 <= t->K)
            shorter[len + 1]++; /* r_v(k) = 0 from k = len + 1 on */
    }
    for (int64_t k = 1, z = 0; k <= t->K; k++) {
        int64_t m = 0, need;
        double s = 0, top = -1;
        z += shorter ? shorter[k] : 0;
        t->th[x][k] = k == 1 ? -1.0 : 0.0;
        if (!shorter || z >= k)
            continue; /* k tasks with nothing to send out (or no memory: 0 is valid) */
        for (int32_t v = 0; v < n; v++)
            if (t->x[x][v + 1] - t->x[x][v] >= k)
                vals[m++] = tm__tcut_r(t, x, v, k);
        need = k - z; /* the smallest positive ones after the z zeros */
        select_k(vals, m, need - 1);
        for (int64_t i = 0; i < need - 1; i++) {
            s += vals[i];
            top = vals[i] > top ? vals[i] : top;
        }
        t->lo[x][k] = s;
        t->phi[x][k] = s + vals[need - 1];
        /* the (k-1)-th smallest: among the zeros when z >= k - 1 */
        t->th[x][k] = k == 1 ? -1.0 : need - 1 > 0 ? top : 0.0;
    }
    free(shorter);
}

tm_err tm__tcut_init(tm_ctx *ctx, const tm_comm *c, int64_t kmax, int64_t work, tm__tcut *out)
{
    tm_err err;
    double *vals = NULL;
    memset(out, 0, sizeof *out);
    out->n = c->n;
    out->W = tm_comm_total_volume(c);
    err = tm__sgraph_from_comm(ctx, c, TM__SG_POSITIVE, &out->sg);
    if (!err)
        err = build_rows(ctx, c, out);
    if (err)
        goto fail;
    /* no row is longer than maxlen: beyond k = maxlen + 1 every r_v is 0 */
    out->K = (int32_t)(kmax < out->maxlen + 1 ? kmax : out->maxlen + 1);
    if (out->K > c->n)
        out->K = c->n;
    if (out->K > 1 && (int64_t)out->K * (c->n + 1) > work)
        out->K = (int32_t)(work / (c->n + 1) > 1 ? work / (c->n + 1) : 1);
    if (out->K < 0)
        out->K = 0;
    vals = tm__malloc_n((size_t)c->n + 1, sizeof *vals);
    if (!vals) {
        err = tm__nomem(ctx);
        goto fail;
    }
    for (int x = 0; x < TM__NX; x++) {
        out->phi[x] = tm__calloc_n((size_t)out->K + 2, sizeof(double));
        out->lo[x] = tm__calloc_n((size_t)out->K + 2, sizeof(double));
        out->th[x] = tm__calloc_n((size_t)out->K + 2, sizeof(double));
        if (!out->phi[x] || !out->lo[x] || !out->th[x]) {
            err = tm__nomem(ctx);
            goto fail;
        }
        tables(out, x, vals);
    }
    free(vals);
    return TM_EOK;
fail:
    free(vals);
    tm__tcut_release(out);
    return err;
}

void tm__tcut_release(tm__tcut *t)
{
    for (int x = 0; x < TM__NX; x++) {
        if (x != TM__SYM)
            free(t->x[x]);
        free(t->pre[x]);
        free(t->deg[x]);
        free(t->phi[x]);
        free(t->lo[x]);
        free(t->th[x]);
    }
    free(t->src_comp);
    free(t->grid.memo);
    tm__sgraph_release(&t->sg);
    memset(t, 0, sizeof *t);
}

double tm__tcut_phi(const tm__tcut *t, int x, int64_t k)
{
    return k >= 1 && k <= t->K ? t->phi[x][k] : 0.0;
}

double tm__tcut_phi_u(const tm__tcut *t, int x, int32_t u, int64_t k)
{
    double r;
    if (k < 1)
        return 0.0;
    r = tm__tcut_r(t, x, u, k);
    if (k > t->K)
        return r; /* u's own share: always valid */
    /* the k - 1 smallest of the others: u is among the k - 1 smallest
     * overall when r <= th (then the k smallest less r) */
    return r + (r <= t->th[x][k] ? t->phi[x][k] - r : t->lo[x][k]);
}

double tm__tcut_gl(const tm__tcut *t, int x, const double *prof, int32_t np)
{
    double sum = 0;
    if (np <= 0)
        return 0.0;
    for (int32_t u = 0; u < t->n; u++) {
        double prev = 0;
        for (int64_t e = t->x[x][u], i = 0; e < t->x[x][u + 1]; e++, i++) {
            sum += (t->pre[x][e] - prev) * prof[i < np ? i : np - 1];
            prev = t->pre[x][e];
        }
    }
    return sum;
}

double tm__tcut_rsum(const tm__tcut *t, int x, int64_t c)
{
    double s = 0;
    for (int32_t v = 0; v < t->n; v++)
        s += tm__tcut_r(t, x, v, c);
    return s;
}
