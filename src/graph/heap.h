/* heap.h - the one binary heap of the library (not installed), for the
 * queues with lazy deletion of the mapping strategies: the greedy
 * strategy's task/edge queue and its (hops, load) shortest-path search
 * (src/construct/greedy.c), the intra-host task order (src/construct/netmap.c) and the
 * task queue of `grow` (src/qap/qap_grow.c).  Stale entries are skipped by
 * the callers, which keeps each operation O(log n) without an index.
 *
 * One sift-up / sift-down, instantiated per item type and order with
 * TM__HEAP_DEFINE(name, item_type, first) where first(&x, &y) is true when
 * x must leave the heap before y (a max-heap on a key: x.key > y.key).  The
 * order need not be total: items that are not ordered either way leave in
 * an order fixed by the push/pop sequence, which is deterministic, so a
 * user whose results depend on that order keeps it by keeping its
 * comparison (qap_grow.c compares keys only).  Generated per instance
 * (static inline) rather than with a comparison callback: the greedy
 * search pops millions of items and an indirect call per comparison costs.
 * Hand-written: igraph's heaps hold doubles only and igraph must not be
 * used from worker threads.
 *
 * Generated: name (struct {item *a; size_t n, cap;}), name_init,
 * name_release, name_clear, name_push (0 ok, -1 out of memory) and
 * name_pop (false when empty).
 *
 * tm__pq below is the instance for (key, tie, id, aux) items, larger key
 * first, then smaller tie, then smaller id: a total order. */
#ifndef TM_GRAPH_HEAP_H
#define TM_GRAPH_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../util/util.h"

#define TM__HEAP_DEFINE(name, item_t, first)                                                  \
    typedef struct name {                                                                     \
        item_t *a;                                                                            \
        size_t n, cap;                                                                        \
    } name;                                                                                   \
    static inline void name##_init(name *h)                                                   \
    {                                                                                         \
        h->a = NULL;                                                                          \
        h->n = h->cap = 0;                                                                    \
    }                                                                                         \
    static inline void name##_release(name *h)                                                \
    {                                                                                         \
        free(h->a);                                                                           \
        name##_init(h);                                                                       \
    }                                                                                         \
    static inline void name##_clear(name *h) { h->n = 0; }                                    \
    static inline int name##_push(name *h, item_t it)                                         \
    {                                                                                         \
        size_t i;                                                                             \
        if (tm__grow((void **)&h->a, &h->cap, h->n + 1, sizeof *h->a))                        \
            return -1;                                                                        \
        i = h->n++;                                                                           \
        while (i > 0 && first(&it, &h->a[(i - 1) / 2])) {                                     \
            h->a[i] = h->a[(i - 1) / 2];                                                      \
            i = (i - 1) / 2;                                                                  \
        }                                                                                     \
        h->a[i] = it;                                                                         \
        return 0;                                                                             \
    }                                                                                         \
    static inline bool name##_pop(name *h, item_t *out)                                       \
    {                                                                                         \
        item_t last;                                                                          \
        size_t i = 0;                                                                         \
        if (h->n == 0)                                                                        \
            return false;                                                                     \
        *out = h->a[0];                                                                       \
        last = h->a[--h->n];                                                                  \
        for (;;) {                                                                            \
            size_t c = 2 * i + 1;                                                             \
            if (c >= h->n)                                                                    \
                break;                                                                        \
            if (c + 1 < h->n && first(&h->a[c + 1], &h->a[c]))                                \
                c++;                                                                          \
            if (!first(&h->a[c], &last))                                                      \
                break;                                                                        \
            h->a[i] = h->a[c];                                                                \
            i = c;                                                                            \
        }                                                                                     \
        if (h->n > 0)                                                                         \
            h->a[i] = last;                                                                   \
        return true;                                                                          \
    }

/* (key, tie, id, aux): larger key first; equal keys: smaller tie, then
 * smaller id, so every order is deterministic.  aux is payload. */
typedef struct tm__pq_item {
    double key;
    int64_t tie;
    int32_t id;
    int32_t aux;
} tm__pq_item;

static inline bool tm__pq_first(const tm__pq_item *x, const tm__pq_item *y)
{
    if (x->key != y->key)
        return x->key > y->key;
    if (x->tie != y->tie)
        return x->tie < y->tie;
    return x->id < y->id;
}

TM__HEAP_DEFINE(tm__pq, tm__pq_item, tm__pq_first)

#endif
