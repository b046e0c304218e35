/* pq.c - a plain binary max-heap used by the greedy strategy (task and edge
 * queues), the intra-host ordering and RCM.  Stale entries are skipped by the
 * callers (lazy deletion), which keeps each operation O(log n) without an
 * index.  Hand-written: igraph's heaps hold doubles only and are not meant to
 * be used outside igraph. */
#include <stdlib.h>

#include "netmap.h"
#include "../util/util.h"

void tm__pq_init(tm__pq *q)
{
    q->a = NULL;
    q->n = q->cap = 0;
}

void tm__pq_release(tm__pq *q)
{
    free(q->a);
    tm__pq_init(q);
}

static bool above(const tm__pq_item *x, const tm__pq_item *y)
{
    if (x->key != y->key)
        return x->key > y->key;
    if (x->tie != y->tie)
        return x->tie < y->tie;
    return x->id < y->id;
}

int tm__pq_push(tm__pq *q, tm__pq_item it)
{
    size_t i;
    if (tm__grow((void **)&q->a, &q->cap, q->n + 1, sizeof *q->a))
        return -1;
    i = q->n++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!above(&it, &q->a[p]))
            break;
        q->a[i] = q->a[p];
        i = p;
    }
    q->a[i] = it;
    return 0;
}

bool tm__pq_pop(tm__pq *q, tm__pq_item *it)
{
    tm__pq_item last;
    size_t i = 0;
    if (q->n == 0)
        return false;
    *it = q->a[0];
    last = q->a[--q->n];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= q->n)
            break;
        if (c + 1 < q->n && above(&q->a[c + 1], &q->a[c]))
            c++;
        if (!above(&q->a[c], &last))
            break;
        q->a[i] = q->a[c];
        i = c;
    }
    if (q->n > 0)
        q->a[i] = last;
    return true;
}
