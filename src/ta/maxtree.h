/* maxtree.h - a tournament tree over link congestions (src/ta/): O(log L)
 * update of one leaf and O(1) maximum, so threshold accepting never scans
 * all links per move. */
#ifndef TM_MAXTREE_H
#define TM_MAXTREE_H

#include <stdint.h>

#include "topomap/error.h"

typedef struct tm__maxtree {
    int32_t n;    /* leaves */
    int32_t size; /* power of two >= n */
    double *v;    /* 2*size: v[size + i] leaf i, v[1] the maximum */
} tm__maxtree;

tm_err tm__maxtree_init(tm_ctx *ctx, tm__maxtree *t, int32_t n, const double *leaves);
void tm__maxtree_release(tm__maxtree *t);
void tm__maxtree_set(tm__maxtree *t, int32_t i, double x);
static inline double tm__maxtree_max(const tm__maxtree *t) { return t->n ? t->v[1] : 0.0; }
/* A leaf holding the maximum (O(log n)). */
int32_t tm__maxtree_argmax(const tm__maxtree *t);
static inline double tm__maxtree_get(const tm__maxtree *t, int32_t i) { return t->v[t->size + i]; }

#endif
