/* comm_fixtures.h - communication graphs built by hand from directed
 * entries, independent of the comm module (test_metrics.c, test_time.c);
 * everything is static. */
#ifndef TM_TEST_COMM_FIXTURES_H
#define TM_TEST_COMM_FIXTURES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "topomap/comm.h"

/* A CSR graph from m directed entries e[i] = {from, to} of weight w[i] (1
 * when w is NULL), sorted by source then destination; no duplicates. */
static inline void fx_make_comm(tm_comm *c, int32_t n, int32_t m, const int32_t (*e)[2],
                                const double *w)
{
    memset(c, 0, sizeof *c);
    c->n = n;
    c->xadj = calloc((size_t)n + 1, sizeof *c->xadj);
    c->adj = malloc(((size_t)m + 1) * sizeof *c->adj);
    c->w = malloc(((size_t)m + 1) * sizeof *c->w);
    for (int32_t u = 0; u < n; u++)
        for (int32_t v = 0; v < n; v++)
            for (int32_t i = 0; i < m; i++)
                if (e[i][0] == u && e[i][1] == v) {
                    c->adj[c->nnz] = v;
                    c->w[c->nnz++] = w ? w[i] : 1.0;
                }
    for (int32_t i = 0; i < m; i++)
        c->xadj[e[i][0] + 1]++;
    for (int32_t u = 0; u < n; u++)
        c->xadj[u + 1] += c->xadj[u];
}

static inline void fx_free_comm(tm_comm *c)
{
    free(c->xadj);
    free(c->adj);
    free(c->w);
    free(c->vwgt);
}

#endif
