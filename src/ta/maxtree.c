/* maxtree.c - tournament tree of doubles (see maxtree.h).  Hand-written:
 * igraph's indexed heap is not usable from worker threads and we need
 * update-in-place of arbitrary leaves, not a priority queue. */
#include <stdlib.h>
#include <string.h>

#include "maxtree.h"
#include "../util/util.h"

tm_err tm__maxtree_init(tm_ctx *ctx, tm__maxtree *t, int32_t n, const double *leaves)
{
    int32_t size = 1;
    while (size < n)
        size *= 2;
    /* on failure the tree stays empty (n == 0), so argmax and release
     * remain safe */
    memset(t, 0, sizeof *t);
    t->v = tm__malloc_n(2 * (size_t)size, sizeof *t->v);
    if (!t->v)
        return tm__nomem(ctx);
    t->n = n;
    t->size = size;
    for (int32_t i = 0; i < size; i++)
        t->v[size + i] = i < n ? leaves[i] : 0.0;
    for (int32_t i = size - 1; i >= 1; i--)
        t->v[i] = t->v[2 * i] > t->v[2 * i + 1] ? t->v[2 * i] : t->v[2 * i + 1];
    return TM_EOK;
}

void tm__maxtree_release(tm__maxtree *t)
{
    free(t->v);
    memset(t, 0, sizeof *t);
}

void tm__maxtree_set(tm__maxtree *t, int32_t i, double x)
{
    int32_t k = t->size + i;
    t->v[k] = x;
    for (k /= 2; k >= 1; k /= 2) {
        double m = t->v[2 * k] > t->v[2 * k + 1] ? t->v[2 * k] : t->v[2 * k + 1];
        if (t->v[k] == m)
            break; /* nothing above changes */
        t->v[k] = m;
    }
}

int32_t tm__maxtree_argmax(const tm__maxtree *t)
{
    int32_t k = 1;
    if (t->n == 0)
        return -1;
    while (k < t->size)
        k = t->v[2 * k] >= t->v[2 * k + 1] ? 2 * k : 2 * k + 1;
    return k - t->size;
}
