/*
 * grid.c - k-ary n-cubes: k-D torus, k-D mesh and the binary hypercube.
 *
 * Hosts are the grid points and forward traffic (direct networks).  Host i
 * (vertex base + i) sits at coordinates (x0, x1, ...) with
 * i = x0 + d0*(x1 + d1*(x2 + ...)), the layout tm_net_grid records for
 * dimension-order routing.  Cables join neighbours along each dimension;
 * a torus adds the wrap-around cable only when a dimension has at least 3
 * points: with 2 points both neighbours are the same vertex, so there is
 * exactly one cable (as in the hypercube, the 2-ary n-cube), and a
 * dimension of size 1 has none.  The recorded wrap flag is therefore true
 * only for torus dimensions of size >= 3.
 */
#include <string.h>

#include "gen_int.h"

#define MAX_DIMS 24 /* hypercube:24 has 2^24 vertices, the generator limit */

/* Cables along one line of a dimension of size d. */
static int64_t line_cables(int64_t d, bool torus)
{
    if (d <= 1)
        return 0;
    if (d == 2)
        return 1;
    return torus ? d : d - 1;
}

static tm_err parse_dims(tm__gen *g, int *ndims, int64_t dims[TM_GRID_MAX_DIMS])
{
    char piece[64];
    const char *p = g->shape;
    int n = 0;
    for (;;) {
        const char *x = strchr(p, 'x');
        size_t len = x ? (size_t)(x - p) : strlen(p);
        int64_t d;
        if (n == TM_GRID_MAX_DIMS)
            return tm__gen_fail(g, "more than %d dimensions", TM_GRID_MAX_DIMS);
        if (len == 0 || len >= sizeof piece)
            return tm__gen_fail(g, "bad dimensions '%s' (expected sizes like 8x8x8)", g->shape);
        memcpy(piece, p, len);
        piece[len] = '\0';
        if (tm__str_to_i64(piece, &d) < 0)
            return tm__gen_fail(g, "bad dimensions '%s' (expected sizes like 8x8x8)", g->shape);
        if (d < 1)
            return tm__gen_fail(g, "dimension %d is %lld (must be at least 1)", n + 1,
                                (long long)d);
        if (d > TM_GEN_MAX_VERTICES)
            return tm__gen_fail(g, "dimension %d is %lld (at most %lld)", n + 1, (long long)d,
                                (long long)TM_GEN_MAX_VERTICES);
        dims[n++] = d;
        if (!x)
            break;
        p = x + 1;
    }
    *ndims = n;
    return TM_EOK;
}

/* Adds the hosts and cables of a grid with the given sizes (up to
 * MAX_DIMS of them) and records its geometry if it fits tm_net_grid (a
 * hypercube may have more dimensions; then no grid is recorded and the
 * one of an earlier generator, if any, stays).  O(V * ndims). */
static tm_err build_grid(tm__gen *g, int ndims, const int64_t *dims, bool torus)
{
    tm_net_grid grid;
    int64_t n_v = 1, n_c = 0, stride[MAX_DIMS];
    int32_t base = tm_net_n_vertices(g->net);
    double cap;
    tm_err err;

    g->direct = true;
    if ((err = tm__gen_cap(g, "cap", 1.0, &cap)))
        return err;
    for (int i = 0; i < ndims; i++) {
        stride[i] = n_v;
        n_v = tm__gen_mul(n_v, dims[i]);
    }
    for (int i = 0; i < ndims; i++) /* n_v / dims[i] is exact when n_v did not saturate */
        n_c = tm__gen_add(n_c, tm__gen_mul(n_v == INT64_MAX ? INT64_MAX : n_v / dims[i],
                                           line_cables(dims[i], torus)));
    if ((err = tm__gen_plan(g, n_v, n_c, n_v)))
        return err;
    for (int64_t v = 0; v < n_v; v++)
        if ((err = tm__gen_host(g, v, NULL)))
            return err;
    for (int64_t v = 0; v < n_v; v++) {
        for (int i = 0; i < ndims; i++) {
            int64_t x = (v / stride[i]) % dims[i], w;
            if (x + 1 < dims[i])
                w = v + stride[i];
            else if (torus && dims[i] >= 3)
                w = v - (dims[i] - 1) * stride[i];
            else
                continue;
            if ((err = tm__gen_cable(g, base + (int32_t)v, base + (int32_t)w, cap)))
                return err;
        }
    }
    if (ndims > TM_GRID_MAX_DIMS)
        return TM_EOK;
    memset(&grid, 0, sizeof grid);
    grid.ndims = ndims;
    grid.base = base;
    for (int i = 0; i < ndims; i++) {
        grid.dims[i] = (int32_t)dims[i];
        grid.wrap[i] = torus && dims[i] >= 3;
    }
    tm_net_set_grid(g->net, &grid);
    return TM_EOK;
}

tm_err tm__gen_torus(tm__gen *g)
{
    int64_t dims[TM_GRID_MAX_DIMS];
    int nd;
    tm_err err = parse_dims(g, &nd, dims);
    return err ? err : build_grid(g, nd, dims, true);
}

tm_err tm__gen_mesh(tm__gen *g)
{
    int64_t dims[TM_GRID_MAX_DIMS];
    int nd;
    tm_err err = parse_dims(g, &nd, dims);
    return err ? err : build_grid(g, nd, dims, false);
}

/* hypercube:d is the 2-ary d-cube, i.e. mesh:2x2x...x2. */
tm_err tm__gen_hypercube(tm__gen *g)
{
    int64_t d, dims[MAX_DIMS];
    if (tm__str_to_i64(g->shape, &d) < 0)
        return tm__gen_fail(g, "bad dimension '%s' (expected hypercube:d, 1 <= d <= 24)",
                            g->shape);
    if (d < 1 || d > MAX_DIMS)
        return tm__gen_fail(g, "dimension %lld is out of range 1..%d", (long long)d, MAX_DIMS);
    for (int i = 0; i < d; i++)
        dims[i] = 2;
    return build_grid(g, (int)d, dims, false);
}
