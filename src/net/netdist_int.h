/* netdist_int.h - the hop-distance oracle's layout, so that the hot loops
 * of the QAP engine and of `ta` inline the table lookup.  Not installed.
 *
 * Host i belongs to class cls[i] at offset off[i]: a non-transit host all
 * of whose cables go to one switch s is in the class of s at offset 1;
 * every other host is its own class at offset 0.  For i != j,
 *     hops(i, j) = off[i] + off[j] + D(cls[i], cls[j])
 * with D the transit distance between class vertices (D(c, c) = 0: two
 * hosts on one leaf switch are 2 hops apart). */
#ifndef TM_NETDIST_INT_H
#define TM_NETDIST_INT_H

#include <pthread.h>

#include "topomap/netdist.h"

struct tm_netdist {
    int32_t n;          /* hosts */
    int32_t n_cls;      /* classes */
    int32_t *cls;       /* per host */
    uint8_t *off;       /* per host */
    int32_t *cls_vertex; /* per class: its net vertex */
    int16_t *table;     /* n_cls x n_cls, -1 = unreachable; NULL in rows mode */
    /* rows mode: rows computed on demand, kept in a direct-mapped cache */
    const tm_net *net;
    int32_t *vcls;      /* net vertex -> class or -1 */
    int32_t n_slots;
    int32_t *slot_of;   /* cache slot -> class held, -1 */
    int16_t *rows;      /* n_slots x n_cls */
    pthread_mutex_t mu;
};

int32_t tm__netdist_row_hops(const tm_netdist *d, int32_t ci, int32_t cj);

static inline int32_t tm__netdist_hops(const tm_netdist *d, int32_t i, int32_t j)
{
    int32_t ci, cj, x;
    if (i == j)
        return 0;
    ci = d->cls[i];
    cj = d->cls[j];
    x = d->table ? d->table[(size_t)ci * (size_t)d->n_cls + (size_t)cj]
                 : tm__netdist_row_hops(d, ci, cj);
    return x < 0 ? -1 : x + d->off[i] + d->off[j];
}

/* Memory budget of the table (and of the row cache in rows mode). */
#define TM__NETDIST_BUDGET ((size_t)512 << 20)
tm_err tm__netdist_new_budget(tm_ctx *ctx, const tm_net *net, const int32_t *hosts, int32_t n,
                              size_t max_bytes, tm_netdist **out);

#endif
