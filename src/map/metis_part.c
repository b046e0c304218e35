/* metis_part.c - graph partitioning with METIS for the network-mode
 * strategies: k blocks of exact sizes (multicore hosts, Sec. 3.4 of Hoefler &
 * Snir) and weighted bisections (recursive mapping, Alg. 2).
 *
 * METIS only guarantees (1+eps)-balance, so for unit vertex weights the
 * result is corrected as the paper does: vertices with the least cumulative
 * edge weight move from over-full to under-full blocks (to the under-full
 * block they are most connected to).
 *
 * METIS re-seeds the process-wide rand() stream and swaps signal handlers on
 * every call, so concurrent calls go through tm__metis_call, which isolates
 * them (src/graph/metis_pool.h, docs/parallel.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <metis.h>

#include "netmap.h"
#include "../graph/metis_pool.h"
#include "../util/util.h"


/* Integer edge weights for METIS: exact when the volumes are integers and
 * their sum fits, otherwise scaled so the total stays far below 2^31. */
static void scale_weights(const tm__sgraph *g, idx_t *out)
{
    int64_t m = g->xadj[g->n];
    double total = 0, scale = 1.0;
    bool integral = true;
    for (int64_t j = 0; j < m; j++) {
        total += g->w[j];
        if (g->w[j] != floor(g->w[j]))
            integral = false;
    }
    if (!integral || total > 5e8)
        scale = total > 0 ? 5e8 / total : 1.0;
    if (integral && total <= 5e8)
        scale = 1.0;
    for (int64_t j = 0; j < m; j++) {
        double x = floor(g->w[j] * scale + 0.5);
        out[j] = x < 1 ? 1 : (idx_t)x;
    }
}

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
    idx_t nv = g->n, ncon = 1, nparts = 0, objval = 0;
    idx_t options[METIS_NOPTIONS];
    idx_t *xadj = NULL, *adjwgt = NULL, *vw = NULL, *mpart = NULL;
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
    xadj = tm__malloc_n((size_t)g->n + 1, sizeof *xadj);
    adjwgt = tm__malloc_n((size_t)m, sizeof *adjwgt);
    mpart = tm__malloc_n((size_t)g->n, sizeof *mpart);
    tp = tm__malloc_n((size_t)nparts, sizeof *tp);
    if (vwgt)
        vw = tm__malloc_n((size_t)g->n, sizeof *vw);
    if (!xadj || !adjwgt || !mpart || !tp || (vwgt && !vw)) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t v = 0; v <= g->n; v++)
        xadj[v] = (idx_t)g->xadj[v];
    scale_weights(g, adjwgt);
    if (vwgt)
        for (int32_t v = 0; v < g->n; v++)
            vw[v] = vwgt[v];
    for (idx_t i = 0; i < nparts; i++)
        tp[i] = (real_t)((double)target[blk[i]] / (double)tsum);
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = (idx_t)(seed & 0x3fffffff);
    options[METIS_OPTION_NUMBERING] = 0;
    /* the adjacency is only read by METIS despite the non-const prototype */
    rc = tm__metis_call(ctx, nparts == 2, &nv, &ncon, xadj, (idx_t *)g->adj, vw, adjwgt, &nparts,
                        tp, options, &objval, mpart);
    if (rc == METIS_ERROR_MEMORY) {
        err = tm__nomem(ctx);
        goto out;
    }
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
    free(xadj);
    free(adjwgt);
    free(vw);
    free(mpart);
    free(tp);
    return err;
}
