/* netdist_int.h - the hop-distance oracle's layout, so that the hot loops
 * of the QAP engine and of `ta` inline the table lookup.  Not installed.
 *
 * Host i belongs to class cls[i] at offset off[i]: a host all of whose
 * enabled cables go to one transit vertex s (a leaf switch) is in the class
 * of s at offset 1; every other host is its own class at offset 0.  For
 * i != j,
 *     hops(i, j) = off[i] + off[j] + D(cls[i], cls[j])
 * with D the transit distance between class vertices (D(c, c) = 0: two
 * hosts on one leaf switch are 2 hops apart).
 *
 * Three backends (netdist.c explains the choice):
 *  - table: D as an int16 n_cls x n_cls table, looked up inline below;
 *    when D is a function of the lowest level of the detected hierarchy
 *    (tm_net_levels) that two classes share -- every fat-tree, Clos and
 *    tree -- the table is checked against that form and replaced by it:
 *    D(a, b) = lvd[l] for the lowest l with lev[l][a] == lev[l][b]
 *    (levels x classes int32 instead of classes^2 int16: 128 KB instead
 *    of 32 MB on a 65,536-host fat-tree, so the lookups of the QAP local
 *    searches stay in cache);
 *  - grid:  a healthy torus/mesh, hops from the hosts' coordinates;
 *  - rows:  rows of D computed on demand into a bounded cache. */
#ifndef TM_NETDIST_INT_H
#define TM_NETDIST_INT_H

#include <pthread.h>
#include <stdbool.h>

#include "topomap/levels.h"
#include "topomap/netdist.h"
#include "../graph/bfs.h"

typedef enum { TM__ND_TABLE, TM__ND_GRID, TM__ND_ROWS } tm__netdist_kind;

struct tm_netdist {
    int32_t n;           /* hosts */
    tm__netdist_kind kind;
    size_t bytes;        /* memory held (tm_netdist_bytes) */
    /* classes (table and rows) */
    int32_t n_cls;
    int32_t *cls;        /* per host */
    uint8_t *off;        /* per host */
    int32_t *cls_vertex; /* per class: its net vertex */
    int16_t *table;      /* table: n_cls x n_cls, -1 = unreachable; else NULL */
    int n_lev;           /* levels form (table kind, table == NULL): */
    int32_t *lev;        /* n_lev x n_cls group ids */
    int16_t lvd[TM_NET_MAX_LEVELS + 1]; /* D by lowest common level; [n_lev]: none */
    /* grid; also beside a table on a healthy grid (coord != NULL), so
     * that the QAP's oracle can answer from coordinates (tm__qnet.pe_gc) */
    int ndims;
    int32_t dims[TM_GRID_MAX_DIMS];
    bool wrap[TM_GRID_MAX_DIMS];
    int32_t *coord;      /* n x ndims coordinates of the hosts */
    /* rows: a direct-mapped cache of rows of D, and the BFS work arrays,
     * all under mu */
    const tm_net_csr *g;
    int32_t n_slots;
    int32_t *slot_of;    /* cache slot -> class whose row it holds, or -1 */
    int32_t *rows;       /* n_slots x n_cls, -1 = unreachable */
    int32_t *dist, *queue;
    tm__bfs bfs;         /* over dist and queue */
    pthread_mutex_t mu;
    bool have_mu;
};

/* hops(i, j), i != j, for the rows backend (tm__netdist_hops answers the
 * other two inline). */
int32_t tm__netdist_slow_hops(const tm_netdist *d, int32_t i, int32_t j);

/* hops(i, j) on a healthy torus or mesh: the ring (or line) distances of
 * the coordinates.  Inline: the QAP local searches on tori ask it for
 * every gain (a call was 14 % of a default `map` on a 65,536-task torus). */
static inline int32_t tm__netdist_grid_hops(const tm_netdist *d, int32_t i, int32_t j)
{
    const int32_t *a = d->coord + (size_t)i * (size_t)d->ndims;
    const int32_t *b = d->coord + (size_t)j * (size_t)d->ndims;
    int32_t h = 0;
    for (int k = 0; k < d->ndims; k++) {
        int32_t dx = a[k] > b[k] ? a[k] - b[k] : b[k] - a[k];
        if (d->wrap[k] && dx > d->dims[k] - dx)
            dx = d->dims[k] - dx;
        h += dx;
    }
    return h;
}

/* hops(i, j) for valid indices i, j (tm_netdist_hops checks them). */
static inline int32_t tm__netdist_hops(const tm_netdist *d, int32_t i, int32_t j)
{
    int32_t x;
    if (i == j)
        return 0;
    if (d->kind == TM__ND_GRID)
        return tm__netdist_grid_hops(d, i, j);
    if (d->lev) {
        int32_t a = d->cls[i], b = d->cls[j], l = 0;
        if (a == b)
            return d->off[i] + d->off[j];
        while (l < d->n_lev && d->lev[(size_t)l * (size_t)d->n_cls + (size_t)a] !=
                                   d->lev[(size_t)l * (size_t)d->n_cls + (size_t)b])
            l++;
        return d->lvd[l] + d->off[i] + d->off[j];
    }
    if (!d->table)
        return tm__netdist_slow_hops(d, i, j);
    x = d->table[(size_t)d->cls[i] * (size_t)d->n_cls + (size_t)d->cls[j]];
    return x < 0 ? -1 : x + d->off[i] + d->off[j];
}

/* Fewest classes for which the levels form is tried (below, the table is
 * small enough to stay in cache anyway). */
#define TM__NETDIST_LEVELS_MIN 16
/* Default memory budget of the table (and of the row cache in rows mode). */
#define TM__NETDIST_BUDGET ((size_t)512 << 20)
/* On a healthy torus or mesh, a table larger than this is not built: the
 * coordinates answer as fast without it (netdist.c). */
#define TM__NETDIST_GRID_TABLE ((size_t)8 << 20)
/* tm_netdist_new with a budget of max_bytes, so that tests and benchmarks
 * can force the grid (max_bytes = 0 on a healthy torus) or rows backend. */
tm_err tm__netdist_new_budget(tm_ctx *ctx, const tm_net *net, const int32_t *hosts, int32_t n,
                              size_t max_bytes, tm_netdist **out);

#endif
