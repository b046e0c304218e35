/* part_exact.c - graph partitioning with METIS for the network-mode
 * strategies: k blocks of exact sizes (multicore hosts, Sec. 3.4 of Hoefler &
 * Snir) and weighted bisections (recursive mapping, Alg. 2).
 *
 * METIS only guarantees (1+eps)-balance, so for unit vertex weights the
 * result is corrected as the paper does: vertices with the least cumulative
 * edge weight move from over-full to under-full blocks (to the under-full
 * block they are most connected to).
 *
 * The METIS call itself is partition.c's (isolated per call by
 * metis_pool.c, docs/parallel.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "partition.h"
#include "../util/util.h"

typedef struct {
    int32_t v;
    double wdeg;
} vkey;

static int cmp_vkey(const void *a, const void *b)
{
    const vkey *x = a, *y = b;
    if (x->wdeg != y->wdeg)
        return x->wdeg < y->wdeg ? -1 : 1;
    return x->v < y->v ? -1 : x->v > y->v;
}

/* Moves least-cumulative-weight vertices until every block has its target
 * size (unit weights). */
static tm_err rebalance(tm_ctx *ctx, const tm__sgraph *g, int32_t k, const int64_t *target,
                        int32_t *part)
{
    int64_t *size = tm__calloc_n((size_t)k, sizeof *size);
    double *conn = tm__calloc_n((size_t)k, sizeof *conn);
    vkey *keys = tm__malloc_n((size_t)g->n + 1, sizeof *keys);
    int32_t under = 0; /* lowest block that may still be under-full */
    tm_err err = TM_EOK;
    bool bad = false;
    if (!size || !conn || !keys) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t v = 0; v < g->n; v++)
        size[part[v]]++;
    for (int32_t b = 0; b < k; b++)
        if (size[b] != target[b])
            bad = true;
    if (!bad)
        goto out;
    for (int32_t v = 0; v < g->n; v++)
        keys[v] = (vkey){v, tm__sgraph_wdeg(g, v)};
    qsort(keys, (size_t)g->n, sizeof *keys, cmp_vkey);
    for (int32_t i = 0; i < g->n; i++) {
        int32_t v = keys[i].v, from = part[v], best = -1;
        double bestc = 0;
        if (size[from] <= target[from])
            continue;
        for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++)
            conn[part[g->adj[j]]] += g->w[j];
        for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++) {
            int32_t b = part[g->adj[j]];
            if (size[b] < target[b] && (best < 0 || conn[b] > bestc ||
                                        (conn[b] == bestc && b < best))) {
                best = b;
                bestc = conn[b];
            }
        }
        for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++)
            conn[part[g->adj[j]]] = 0;
        if (best < 0) {
            while (under < k && size[under] >= target[under])
                under++;
            if (under == k) {
                err = tm__fail(ctx, TM_EINTERNAL, "partition targets do not sum to the size");
                goto out;
            }
            best = under;
        }
        part[v] = best;
        size[from]--;
        size[best]++;
    }
out:
    free(size);
    free(conn);
    free(keys);
    return err;
}

/* Fills blocks in vertex order (graphs without edges, or METIS failure on a
 * degenerate input where any split is as good). */
static void fill_in_order(int32_t n, const int32_t *vwgt, int32_t k, const int64_t *target,
                          int32_t *part)
{
    int32_t b = 0;
    int64_t used = 0;
    for (int32_t v = 0; v < n; v++) {
        while (b < k - 1 && used >= target[b]) {
            b++;
            used = 0;
        }
        part[v] = b;
        used += vwgt ? vwgt[v] : 1;
    }
}

tm_err tm__metis_part(tm_ctx *ctx, const tm__sgraph *g, const int32_t *vwgt, int32_t k,
                      const int64_t *target, uint64_t seed, int32_t *part)
{
    idx_t nparts = 0;
    idx_t *vw = NULL, *mpart = NULL;
    real_t *tp = NULL;
    int32_t *blk = NULL; /* METIS part -> our block (only blocks with target > 0) */
    int64_t m = g->n ? g->xadj[g->n] : 0, tsum = 0;
    tm_err err = TM_EOK;
    int rc;

    if (g->n == 0)
        return TM_EOK;
    blk = tm__malloc_n((size_t)k, sizeof *blk);
    if (!blk)
        return tm__nomem(ctx);
    for (int32_t b = 0; b < k; b++) {
        if (target[b] > 0)
            blk[nparts++] = b;
        tsum += target[b];
    }
    if (nparts <= 1 || m == 0 || g->n <= nparts) {
        if (nparts == 1) {
            for (int32_t v = 0; v < g->n; v++)
                part[v] = blk[0];
        } else {
            fill_in_order(g->n, vwgt, k, target, part);
        }
        goto balance;
    }
    mpart = tm__malloc_n((size_t)g->n, sizeof *mpart);
    tp = tm__malloc_n((size_t)nparts, sizeof *tp);
    if (vwgt)
        vw = tm__malloc_n((size_t)g->n, sizeof *vw);
    if (!mpart || !tp || (vwgt && !vw)) {
        err = tm__nomem(ctx);
        goto out;
    }
    if (vwgt)
        for (int32_t v = 0; v < g->n; v++)
            vw[v] = vwgt[v];
    for (idx_t i = 0; i < nparts; i++)
        tp[i] = (real_t)((double)target[blk[i]] / (double)tsum);
    err = tm__metis_graph(ctx, g,
                          &(tm__metis_in){.recursive = nparts == 2,
                                          .wpolicy = TM__METIS_W_TOTAL_5E8,
                                          .vwgt = vw,
                                          .nparts = nparts,
                                          .tpwgts = tp,
                                          .seed = seed,
                                          .ufactor = -1,
                                          .ncuts = -1},
                          mpart, &rc);
    if (err)
        goto out;
    if (rc != METIS_OK) {
        fill_in_order(g->n, vwgt, k, target, part);
    } else {
        for (int32_t v = 0; v < g->n; v++)
            part[v] = blk[mpart[v]];
    }
balance:
    if (!vwgt)
        err = rebalance(ctx, g, k, target, part);
out:
    free(blk);
    free(vw);
    free(mpart);
    free(tp);
    return err;
}
