/* gridbox.c - ECMP on a healthy torus or mesh, one box per message
 * (gridbox.h explains why it is exact). */
#include <stdlib.h>
#include <string.h>

#include "gridbox.h"
#include "../util/util.h"

void tm__gridbox_free(tm__gridbox *b)
{
    if (b) {
        free(b->link);
        free(b->coord);
    }
    free(b);
}

/* Fills b->link from the cables of grid vertex i; false when a cable is
 * not a single cable to a grid neighbour, or a neighbour has none. */
static bool vertex_links(const tm_net_csr *g, tm__gridbox *b, int32_t i)
{
    int32_t v = b->base + i, want = 0;
    int32_t *slot = b->link + (size_t)i * (size_t)b->nd * 2;
    for (int d = 0; d < b->nd; d++) {
        int32_t x = tm__gridbox_x(b, i, d);
        want += (b->wrap[d] || x + 1 < b->dims[d]) + (b->wrap[d] || x > 0);
    }
    if (g->off[v + 1] - g->off[v] != want)
        return false;
    for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
        int32_t w = g->head[j] - b->base, ndiff = 0, dd = -1, dir = -1;
        if (w < 0 || w >= b->n)
            return false;
        for (int d = 0; d < b->nd; d++) {
            int32_t x = tm__gridbox_x(b, i, d), y = tm__gridbox_x(b, w, d);
            if (x == y)
                continue;
            ndiff++;
            dd = d;
            if (y == x + 1 || (b->wrap[d] && x == b->dims[d] - 1 && y == 0))
                dir = 0;
            else if (y == x - 1 || (b->wrap[d] && x == 0 && y == b->dims[d] - 1))
                dir = 1;
        }
        if (ndiff != 1 || dir < 0 || slot[dd * 2 + dir] >= 0)
            return false;
        slot[dd * 2 + dir] = g->link[j];
    }
    return true;
}

tm_err tm__gridbox_detect(tm_ctx *ctx, const tm_net *net, tm__gridbox **out)
{
    const tm_net_grid *gr = tm_net_grid_info(net);
    const tm_net_csr *g = tm_net_csr_get(net);
    tm__gridbox *b;
    int64_t n = 1;
    *out = NULL;
    if (!gr || !g || gr->ndims <= 0 || gr->ndims > TM_GRID_MAX_DIMS || gr->base < 0)
        return TM_EOK;
    for (int d = 0; d < gr->ndims; d++) {
        if (gr->dims[d] < 1 || (gr->wrap[d] && gr->dims[d] == 2))
            return TM_EOK; /* a ring of 2: both ways are one neighbour */
        n *= gr->dims[d];
        if (n > (int64_t)g->n - gr->base)
            return TM_EOK;
    }
    if (!(b = calloc(1, sizeof *b)) ||
        !(b->link = tm__malloc_n((size_t)n * (size_t)gr->ndims * 2, sizeof *b->link)) ||
        !(b->coord = tm__malloc_n((size_t)n * (size_t)gr->ndims, sizeof *b->coord))) {
        tm__gridbox_free(b);
        return tm__nomem(ctx);
    }
    b->nd = gr->ndims;
    b->base = gr->base;
    b->n = (int32_t)n;
    for (int d = 0, s = 1; d < b->nd; s *= gr->dims[d], d++) {
        b->dims[d] = gr->dims[d];
        b->wrap[d] = gr->wrap[d] && gr->dims[d] > 1;
        b->stride[d] = s;
        b->max_steps += b->wrap[d] ? b->dims[d] / 2 : b->dims[d] - 1;
    }
    memset(b->link, 0xff, (size_t)n * (size_t)b->nd * 2 * sizeof *b->link);
    for (int32_t i = 0; i < b->n; i++)
        for (int d = 0; d < b->nd; d++)
            b->coord[(size_t)i * (size_t)b->nd + (size_t)d] = i / b->stride[d] % b->dims[d];
    for (int32_t i = 0; i < b->n; i++)
        if (!g->is_host[b->base + i] || !g->transit[b->base + i] || !vertex_links(g, b, i)) {
            tm__gridbox_free(b);
            return TM_EOK;
        }
    *out = b;
    return TM_EOK;
}

/* Steps and direction of dimension d from coordinate x to y: *tie when a
 * ring's two ways are equally short (then dir 0 is one of them). */
static int32_t steps(const tm__gridbox *b, int d, int32_t x, int32_t y, int *dir, bool *tie)
{
    int32_t fwd = y - x, len = b->dims[d];
    *tie = false;
    if (!b->wrap[d]) {
        *dir = fwd < 0;
        return fwd < 0 ? -fwd : fwd;
    }
    fwd = (fwd % len + len) % len;
    *dir = fwd > len - fwd;
    *tie = fwd != 0 && fwd == len - fwd;
    return *dir ? len - fwd : fwd;
}

int tm__gridbox_shape(const tm__gridbox *b, int32_t s, int32_t t, int32_t *n, int *dir,
                      int *tied)
{
    int nt = 0;
    for (int d = 0; d < b->nd; d++) {
        bool tie;
        n[d] = steps(b, d, tm__gridbox_x(b, s, d), tm__gridbox_x(b, t, d), &dir[d], &tie);
        if (tie)
            tied[nt++] = d;
    }
    return nt;
}

int64_t tm__gridbox_cost(const tm__gridbox *b, int32_t src, int32_t dst)
{
    int32_t s = src - b->base, t = dst - b->base;
    int64_t vol = 1;
    if (!tm__gridbox_on(b, src) || !tm__gridbox_on(b, dst))
        return -1;
    for (int d = 0; d < b->nd; d++) {
        int dir;
        bool tie;
        vol *= steps(b, d, tm__gridbox_x(b, s, d), tm__gridbox_x(b, t, d), &dir, &tie) + 1;
    }
    return vol;
}

int64_t tm__gridbox_boxes(const tm__gridbox *b, int32_t src, size_t k, const int32_t *dst,
                          int64_t limit, int64_t *max)
{
    int64_t total = 0;
    *max = 0;
    for (size_t i = 0; i < k; i++) {
        int64_t c = tm__gridbox_cost(b, src, dst[i]);
        if (c < 0 || (total += c) > limit)
            return -1;
        if (c > *max)
            *max = c;
    }
    return total;
}

int32_t tm__gridbox_hops(const tm__gridbox *b, int32_t src, int32_t dst)
{
    int32_t s = src - b->base, t = dst - b->base, h = 0;
    for (int d = 0; d < b->nd; d++) {
        int dir;
        bool tie;
        h += steps(b, d, tm__gridbox_x(b, s, d), tm__gridbox_x(b, t, d), &dir, &tie);
    }
    return h;
}

/* One box: w from grid vertex s, n[d] steps in direction dir[d].  The
 * position k, its grid vertex v and the steps still to go r follow each
 * step incrementally (no division or modulo per vertex of the box). */
static void route_box(const tm__gridbox *b, int32_t s, const int32_t *n, const int *dir, double w,
                      double *load, double *buf)
{
    int nd = b->nd;
    int32_t k[TM_GRID_MAX_DIMS] = {0}, x[TM_GRID_MAX_DIMS], x0[TM_GRID_MAX_DIMS];
    int32_t bstr[TM_GRID_MAX_DIMS], v = s, r = 0;
    int64_t vol = 1;
    for (int d = 0; d < nd; d++) {
        x0[d] = x[d] = tm__gridbox_x(b, s, d);
        bstr[d] = (int32_t)vol;
        vol *= n[d] + 1;
        r += n[d];
    }
    memset(buf, 0, (size_t)vol * sizeof *buf);
    buf[0] = w;
    /* positions in increasing box index: every predecessor comes first */
    for (int64_t p = 0; p < vol; p++) {
        double f = buf[p];
        if (r > 0 && f != 0.0) {
            const int32_t *lk = b->link + (size_t)v * (size_t)nd * 2;
            double fr = f / (double)r;
            for (int d = 0; d < nd; d++) {
                double share;
                if (k[d] == n[d])
                    continue;
                share = fr * (double)(n[d] - k[d]);
                load[lk[d * 2 + dir[d]]] += share;
                buf[p + bstr[d]] += share;
            }
        }
        for (int d = 0; d < nd; d++) { /* next position: a step in d, or back to 0 and carry */
            int32_t step = dir[d] ? -1 : 1;
            if (k[d] < n[d]) {
                k[d]++;
                r--;
                x[d] += step;
                v += step * b->stride[d];
                if (x[d] == b->dims[d] || x[d] < 0) { /* round the ring */
                    int32_t back = x[d] < 0 ? b->dims[d] : -b->dims[d];
                    x[d] += back;
                    v += back * b->stride[d];
                }
                break;
            }
            r += k[d];
            v += (x0[d] - x[d]) * b->stride[d];
            x[d] = x0[d];
            k[d] = 0;
        }
    }
}

void tm__gridbox_route(const tm__gridbox *b, int32_t src, int32_t dst, double w, double *load,
                       double *buf)
{
    int32_t s = src - b->base, n[TM_GRID_MAX_DIMS];
    int dir[TM_GRID_MAX_DIMS], tied[TM_GRID_MAX_DIMS];
    int nt = tm__gridbox_shape(b, s, dst - b->base, n, dir, tied);
    for (uint32_t m = 0; m < (1u << nt); m++) {
        tm__gridbox_way(tied, nt, m, dir);
        route_box(b, s, n, dir, w / (double)(1u << nt), load, buf);
    }
}
