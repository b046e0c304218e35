/* test_qap_common.h - helpers for the QAP unit tests: random symmetric
 * communication graphs built directly as CSR (no reader needed), problems
 * and mapping checks. */
#ifndef TEST_QAP_COMMON_H
#define TEST_QAP_COMMON_H

#include <math.h>

#include "test_util.h"
#include "qap/qap_int.h"

/* Random sparse symmetric graph: each task talks to `deg` random others
 * (plus a ring so it is connected), integer volumes 1..9. */
static inline void qt_random_comm(tm_comm *c, int32_t n, int deg, uint64_t seed, bool weights)
{
    double *dense = calloc((size_t)n * n, sizeof *dense);
    tm__rng r;
    int64_t k = 0;
    tm__rng_seed(&r, seed, 1);
    for (int32_t u = 0; u < n; u++) {
        for (int i = 0; i < deg; i++) {
            int32_t v = (int32_t)tm__rng_below(&r, (uint64_t)n);
            double w = 1 + (double)tm__rng_below(&r, 9);
            if (v == u)
                continue;
            dense[(size_t)u * n + v] = dense[(size_t)v * n + u] = w;
        }
        if (n > 1) {
            int32_t v = (u + 1) % n;
            if (v != u && dense[(size_t)u * n + v] == 0)
                dense[(size_t)u * n + v] = dense[(size_t)v * n + u] = 1;
        }
    }
    memset(c, 0, sizeof *c);
    c->n = n;
    c->xadj = calloc((size_t)n + 1, sizeof *c->xadj);
    for (int32_t u = 0; u < n; u++)
        for (int32_t v = 0; v < n; v++)
            if (dense[(size_t)u * n + v] > 0)
                k++;
    c->nnz = k;
    c->adj = malloc((size_t)(k ? k : 1) * sizeof *c->adj);
    c->w = malloc((size_t)(k ? k : 1) * sizeof *c->w);
    k = 0;
    for (int32_t u = 0; u < n; u++) {
        c->xadj[u] = k;
        for (int32_t v = 0; v < n; v++)
            if (dense[(size_t)u * n + v] > 0) {
                c->adj[k] = v;
                c->w[k++] = dense[(size_t)u * n + v];
            }
    }
    c->xadj[n] = k;
    if (weights) {
        c->vwgt = malloc((size_t)n * sizeof *c->vwgt);
        for (int32_t u = 0; u < n; u++)
            c->vwgt[u] = 1;
    }
    free(dense);
}

static inline void qt_free_comm(tm_comm *c)
{
    free(c->xadj);
    free(c->adj);
    free(c->w);
    free(c->vwgt);
    memset(c, 0, sizeof *c);
}

/* Asserts that pe[] is injective into [0, n_pe). */
static inline void qt_assert_injective(const tm_mapping *m, const tm_hier *h)
{
    char *used = calloc((size_t)h->n_pe, 1);
    for (int32_t u = 0; u < m->n; u++) {
        assert_true(m->pe[u] >= 0 && m->pe[u] < h->n_pe);
        assert_false(used[m->pe[u]]);
        used[m->pe[u]] = 1;
    }
    free(used);
}

static inline tm_hier qt_hier(const char *a, const char *d)
{
    tm_hier h;
    tm_ctx *ctx;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    assert_tm_ok(ctx, tm_hier_parse(ctx, a, d, &h));
    tm_ctx_free(ctx);
    return h;
}

#endif
