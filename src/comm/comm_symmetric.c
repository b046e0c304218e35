/*
 * comm_symmetric.c - the undirectedness check of the METIS and Scotch graph
 * readers: every listed (u, v, w) needs (v, u, w) on v's line, and no
 * neighbour may be listed twice.  Messages name both vertices (numbered
 * from `base`, as in the file) and both lines.
 */
#include <stdlib.h>

#include "comm_int.h"

typedef struct nbr {
    int32_t v;
    double w;
} nbr;

static int cmp_nbr(const void *a, const void *b)
{
    const nbr *x = a, *y = b;
    return (x->v > y->v) - (x->v < y->v);
}

static const nbr *find_nbr(const nbr *row, int64_t len, int32_t v)
{
    nbr key = {v, 0};
    return bsearch(&key, row, (size_t)len, sizeof *row, cmp_nbr);
}

tm_err tm__check_symmetric(tm__lexer *lx, int32_t n, const tm__entries *e, const long *lines,
                           int base)
{
    int64_t *off = tm__calloc_n((size_t)n + 1, sizeof *off);
    nbr *a = tm__malloc_n(e->len + 1, sizeof *a);
    tm_err err = TM_EOK;
    if (!off || !a) {
        err = tm__nomem(lx->ctx);
        goto out;
    }
    for (size_t k = 0; k < e->len; k++) {
        off[e->src[k] + 1]++;
        a[k].v = e->dst[k];
        a[k].w = e->w[k];
    }
    for (int32_t u = 0; u < n; u++)
        off[u + 1] += off[u];
    for (int32_t u = 0; u < n; u++) {
        qsort(a + off[u], (size_t)(off[u + 1] - off[u]), sizeof *a, cmp_nbr);
        for (int64_t j = off[u] + 1; j < off[u + 1]; j++) {
            if (a[j].v == a[j - 1].v) {
                lx->line = lines[u];
                err = tm__lex_error(lx, "vertex %d lists neighbour %d twice", u + base,
                                    a[j].v + base);
                goto out;
            }
        }
    }
    for (int32_t u = 0; u < n; u++) {
        for (int64_t j = off[u]; j < off[u + 1]; j++) {
            int32_t v = a[j].v;
            const nbr *r = find_nbr(a + off[v], off[v + 1] - off[v], u);
            lx->line = lines[u];
            if (!r) {
                err = tm__lex_error(lx, "asymmetric graph: vertex %d lists %d, but vertex %d "
                                    "(line %ld) does not list %d", u + base, v + base, v + base,
                                    lines[v], u + base);
                goto out;
            }
            if (r->w != a[j].w) {
                err = tm__lex_error(lx, "asymmetric graph: edge %d-%d has weight %g here but %g "
                                    "on the line of vertex %d (line %ld)", u + base, v + base,
                                    a[j].w, r->w, v + base, lines[v]);
                goto out;
            }
        }
    }
out:
    free(off);
    free(a);
    return err;
}
