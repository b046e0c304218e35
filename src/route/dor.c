/*
 * dor.c - dimension-order routing on tori and meshes that carry grid
 * geometry (tm_net_grid_info, recorded by the generators).
 *
 * A message from (s0, s1, ...) to (t0, t1, ...) first corrects dimension 0,
 * then 1, and so on (x, y, z order).  In a dimension with wrap-around (a
 * ring of size d) it goes the shorter way; when both ways are equally long
 * (d even, |t - s| = d/2) it goes in the positive direction, as MapLib and
 * BlueGene-style routing do.  In a dimension without wrap it goes straight.
 * If several enabled cables join the same two neighbours (e.g. the two
 * cables of a ring of size 2), the traffic of that hop is split equally
 * over them.  Cables that are not grid-neighbour cables are never used.
 * A missing or disabled grid cable on the route, or a non-transit vertex
 * inside it, makes the pair unreachable (DOR does not route around
 * failures).  The route is minimal on a healthy grid, so hops equal the
 * shortest-path distance there.
 */
#include <stdlib.h>

#include "route_int.h"
#include "../util/util.h"

typedef struct dor_data {
    tm_net_grid grid;
    int32_t n_grid;    /* vertices base .. base + n_grid - 1 */
    int32_t *off;      /* (n_grid * 2 * ndims) + 1 offsets into links */
    int32_t *links;    /* grid-neighbour links, by (vertex, dim, direction) */
    bool healthy;      /* every vertex transit, every hop a route can take has a cable:
                          no route breaks (healthy_grid) */
} dor_data;

static void coords_of(const tm_net_grid *gr, int32_t idx, int32_t *x)
{
    for (int i = 0; i < gr->ndims; i++) {
        x[i] = idx % gr->dims[i];
        idx /= gr->dims[i];
    }
}

/* Slot of (grid index, dim, dir): dir 0 = positive, 1 = negative. */
static int64_t slot_of(const dor_data *dd, int32_t idx, int dim, int dir)
{
    return ((int64_t)idx * dd->grid.ndims + dim) * 2 + dir;
}

/* Visits every (slot, link) pair of grid-neighbour links: one pass
 * counts, the second fills, so both passes agree by construction. */
static void scan_links(const tm_net_csr *g, dor_data *dd, bool fill, int32_t *pos)
{
    const tm_net_grid *gr = &dd->grid;
    int32_t xv[TM_GRID_MAX_DIMS], xw[TM_GRID_MAX_DIMS];
    for (int32_t iv = 0; iv < dd->n_grid; iv++) {
        int32_t v = gr->base + iv;
        coords_of(gr, iv, xv);
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t w = g->head[j], iw = w - gr->base, dim = -1, ndiff = 0;
            if (iw < 0 || iw >= dd->n_grid)
                continue;
            coords_of(gr, iw, xw);
            for (int i = 0; i < gr->ndims; i++)
                if (xv[i] != xw[i]) {
                    dim = i;
                    ndiff++;
                }
            if (ndiff != 1)
                continue;
            for (int dir = 0; dir < 2; dir++) {
                int32_t d = gr->dims[dim], step = dir == 0 ? 1 : -1, want = xv[dim] + step;
                if (gr->wrap[dim])
                    want = (want + d) % d;
                if (want != xw[dim])
                    continue;
                if (fill)
                    dd->links[pos[slot_of(dd, iv, dim, dir)]++] = g->link[j];
                else
                    dd->off[slot_of(dd, iv, dim, dir) + 1]++;
            }
        }
    }
}

/* No route can break: every grid vertex is transit and every step a
 * route can take (both ways round a ring, inwards on a mesh's line) has
 * a cable.  Then dor_flows walks each route once instead of checking
 * all of them first (half its time on a torus; a route's links depend on
 * the network only, fixed at init). */
static bool healthy_grid(const tm_net_csr *g, const dor_data *dd)
{
    const tm_net_grid *gr = &dd->grid;
    int32_t x[TM_GRID_MAX_DIMS];
    for (int32_t iv = 0; iv < dd->n_grid; iv++) {
        if (!g->transit[gr->base + iv])
            return false;
        coords_of(gr, iv, x);
        for (int i = 0; i < gr->ndims; i++)
            for (int dir = 0; dir < 2; dir++) {
                int64_t sl = slot_of(dd, iv, i, dir);
                bool used = gr->dims[i] > 1 &&
                            (gr->wrap[i] || (dir == 0 ? x[i] < gr->dims[i] - 1 : x[i] > 0));
                if (used && dd->off[sl] == dd->off[sl + 1])
                    return false;
            }
    }
    return true;
}

static void dor_fini(tm_route *r)
{
    dor_data *dd = r->priv;
    if (!dd)
        return;
    free(dd->off);
    free(dd->links);
    free(dd);
    r->priv = NULL;
}

static tm_err dor_init(tm_ctx *ctx, tm_route *r)
{
    const tm_net_grid *gr = tm_net_grid_info(r->net);
    dor_data *dd = NULL;
    int32_t *pos = NULL;
    int64_t n_grid = 1, n_slots;
    tm_err err = TM_EOK;

    if (!gr || gr->ndims <= 0)
        return tm__fail(ctx, TM_EUSAGE,
                        "dimension-order routing needs a torus or mesh with grid geometry "
                        "(made by a generator); this network has none");
    if (gr->ndims > TM_GRID_MAX_DIMS)
        return tm__fail(ctx, TM_EUSAGE, "grid with %d dimensions (at most %d)", gr->ndims,
                        TM_GRID_MAX_DIMS);
    for (int i = 0; i < gr->ndims; i++) {
        if (gr->dims[i] < 1)
            return tm__fail(ctx, TM_EUSAGE, "grid dimension %d has size %d", i, (int)gr->dims[i]);
        n_grid *= gr->dims[i];
        if (n_grid > r->g->n)
            break;
    }
    if (gr->base < 0 || n_grid > (int64_t)r->g->n - gr->base)
        return tm__fail(ctx, TM_EUSAGE, "grid geometry does not fit the network's %d vertices",
                        (int)r->g->n);
    dd = calloc(1, sizeof *dd);
    if (!dd)
        return tm__nomem(ctx);
    dd->grid = *gr;
    dd->n_grid = (int32_t)n_grid;
    n_slots = n_grid * gr->ndims * 2;
    dd->off = tm__calloc_n((size_t)n_slots + 1, sizeof *dd->off);
    pos = tm__malloc_n((size_t)n_slots + 1, sizeof *pos);
    if (!dd->off || !pos)
        goto nomem;
    scan_links(r->g, dd, false, NULL);
    for (int64_t s = 0; s < n_slots; s++)
        dd->off[s + 1] += dd->off[s];
    dd->links = tm__malloc_n((size_t)dd->off[n_slots] + 1, sizeof *dd->links);
    if (!dd->links)
        goto nomem;
    for (int64_t s = 0; s <= n_slots; s++)
        pos[s] = dd->off[s];
    scan_links(r->g, dd, true, pos);
    dd->healthy = healthy_grid(r->g, dd);
    r->priv = dd;
    dd = NULL;
    goto out;
nomem:
    err = tm__nomem(ctx);
out:
    free(pos);
    if (dd) {
        free(dd->off);
        free(dd->links);
        free(dd);
    }
    return err;
}

/* The way along dimension i from coordinate x to xt: the direction (0 positive, 1 negative)
 * into *dir, the number of hops returned.  A ring goes the shorter way, the positive one on
 * a tie; a line goes straight. */
static int32_t dim_steps(const tm_net_grid *gr, int i, int32_t x, int32_t xt, int *dir)
{
    int32_t d = gr->dims[i];
    if (gr->wrap[i]) {
        int32_t fwd = xt >= x ? xt - x : xt - x + d;
        *dir = fwd <= d - fwd ? 0 : 1;
        return *dir == 0 ? fwd : d - fwd;
    }
    *dir = xt > x ? 0 : 1;
    return *dir == 0 ? xt - x : x - xt;
}

/* Walks the DOR path src -> dst, adding vol to the links if load != NULL.
 * Returns the hop count, or -1 with *where = the vertex where the route
 * breaks (-2: src or dst is not on the grid). */
static int32_t walk(const tm_route *r, const dor_data *dd, int32_t src, int32_t dst, double vol,
                    double *load, int32_t *where)
{
    const tm_net_grid *gr = &dd->grid;
    int32_t is = src - gr->base, it = dst - gr->base, hops = 0, cur;
    int32_t xs[TM_GRID_MAX_DIMS], xt[TM_GRID_MAX_DIMS], stride = 1;
    if (is < 0 || is >= dd->n_grid || it < 0 || it >= dd->n_grid) {
        *where = -2;
        return -1;
    }
    coords_of(gr, is, xs);
    coords_of(gr, it, xt);
    cur = is;
    for (int i = 0; i < gr->ndims; stride *= gr->dims[i], i++) {
        int32_t d = gr->dims[i], steps, x = xs[i];
        int dir;
        if (xs[i] == xt[i])
            continue;
        steps = dim_steps(gr, i, xs[i], xt[i], &dir);
        for (int32_t s = 0; s < steps; s++) {
            int64_t sl = slot_of(dd, cur, i, dir);
            int32_t a = dd->off[sl], b = dd->off[sl + 1], nx;
            if (cur != is && !r->g->transit[gr->base + cur]) {
                *where = gr->base + cur;
                return -1;
            }
            if (a == b) {
                *where = gr->base + cur;
                return -1;
            }
            if (load)
                for (int32_t j = a; j < b; j++)
                    load[dd->links[j]] += vol / (double)(b - a);
            nx = dir == 0 ? x + 1 : x - 1;
            if (gr->wrap[i])
                nx = (nx + d) % d;
            cur += (nx - x) * stride;
            x = nx;
            hops++;
        }
    }
    return hops;
}

/* walk() on a healthy grid (dd->healthy: no route breaks, so no check per hop), from grid
 * index is with coordinates xs (the caller's, once per source) to grid index it.  Without
 * load only the hop count is computed.  The same links in the same order get the same
 * additions as from walk() (a hop over one cable adds vol, which is vol / 1.0): the loads
 * are identical.  On AMG2013 1,000's 450,000 messages the walks were a quarter of the
 * default map's time, mostly the checks, the modulo and the slot of every hop. */
static int32_t walk_healthy(const dor_data *dd, int32_t is, const int32_t *xs, int32_t it,
                            double vol, double *load)
{
    const tm_net_grid *gr = &dd->grid;
    int32_t xt[TM_GRID_MAX_DIMS], cur = is, stride = 1, hops = 0;
    coords_of(gr, it, xt);
    for (int i = 0; i < gr->ndims; stride *= gr->dims[i], i++) {
        int32_t d = gr->dims[i], x = xs[i], steps;
        int dir;
        const int32_t *off;
        if (x == xt[i])
            continue;
        steps = dim_steps(gr, i, x, xt[i], &dir);
        hops += steps;
        if (!load) {
            cur += (xt[i] - x) * stride;
            continue;
        }
        off = dd->off + dir;
        for (int32_t s = 0; s < steps; s++) {
            int64_t sl = ((int64_t)cur * gr->ndims + i) * 2; /* slot_of(dd, cur, i, 0) */
            int32_t a = off[sl], b = off[sl + 1];
            if (b - a == 1) {
                load[dd->links[a]] += vol;
            } else {
                double share = vol / (double)(b - a);
                for (int32_t j = a; j < b; j++)
                    load[dd->links[j]] += share;
            }
            if (dir == 0) {
                cur += ++x == d ? -(d - 1) * stride : stride;
                x = x == d ? 0 : x;
            } else {
                cur += x-- == 0 ? (d - 1) * stride : -stride;
                x = x < 0 ? d - 1 : x;
            }
        }
    }
    return hops;
}

static bool on_grid(const dor_data *dd, int32_t v)
{
    return v >= dd->grid.base && v - dd->grid.base < dd->n_grid;
}

static tm_err broken(tm_ctx *ctx, const tm_route *r, int32_t src, int32_t dst, int32_t where)
{
    if (where == -2)
        return tm__fail(ctx, TM_EINPUT,
                        "dimension-order routing: host '%s' or '%s' is not part of the grid",
                        tm_net_name(r->net, src), tm_net_name(r->net, dst));
    return tm__fail(ctx, TM_EINPUT,
                    "host '%s' cannot reach host '%s' by dimension-order routing "
                    "(route breaks at '%s': missing link or non-transit vertex)",
                    tm_net_name(r->net, src), tm_net_name(r->net, dst),
                    tm_net_name(r->net, where));
}

static tm_err dor_flows(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, int32_t src, size_t k,
                        const int32_t *dst, const double *vol, double *load, int32_t *hops)
{
    const dor_data *dd = r->priv;
    if (dd->healthy) { /* only an end off the grid breaks a route: checked first */
        for (size_t i = 0; i < k; i++)
            if (dst[i] != src && (!on_grid(dd, src) || !on_grid(dd, dst[i])))
                return broken(ctx, r, src, dst[i], -2);
        int32_t xs[TM_GRID_MAX_DIMS], is = src - dd->grid.base;
        if (k > 0 && on_grid(dd, src))
            coords_of(&dd->grid, is, xs);
        for (size_t i = 0; i < k; i++) {
            int32_t h = 0;
            if (dst[i] != src)
                h = walk_healthy(dd, is, xs, dst[i] - dd->grid.base, vol[i],
                                 vol[i] != 0 ? load : NULL);
            if (hops)
                hops[i] = h;
        }
        return TM_EOK;
    }
    /* Check every route first so that an error leaves load untouched. */
    for (size_t i = 0; i < k; i++) {
        int32_t where = -1, h = dst[i] == src ? 0 : walk(r, dd, src, dst[i], 0, NULL, &where);
        if (h < 0)
            return broken(ctx, r, src, dst[i], where);
        if (hops)
            hops[i] = h;
    }
    for (size_t i = 0; i < k; i++) {
        int32_t where;
        if (dst[i] != src && vol[i] != 0)
            walk(r, dd, src, dst[i], vol[i], load, &where);
    }
    return TM_EOK;
}

static int32_t dor_hops(const tm_route *r, tm_route_ws *ws, int32_t src, int32_t dst)
{
    int32_t where;
    return walk(r, r->priv, src, dst, 0, NULL, &where);
}

const tm__route_ops tm__route_dor_ops = {
    .name = "dor",
    .init = dor_init,
    .fini = dor_fini,
    .ws_init = NULL,
    .ws_fini = NULL,
    .flows = dor_flows,
    .hops = dor_hops,
};
