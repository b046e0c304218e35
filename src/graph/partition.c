/* partition.c - a tm__sgraph into METIS's arrays and through the one
 * METIS entry point of the library, tm__metis_call (partition.h). */
#include <math.h>
#include <stdlib.h>

#include "partition.h"
#include "metis_pool.h"
#include "../util/util.h"

/* The adjacency goes to METIS as is (no copy). */
_Static_assert(sizeof(idx_t) == sizeof(int32_t), "METIS built with 32-bit idx_t expected");

void tm__metis_weights(const double *w, int64_t m, tm__metis_wpolicy p, idx_t *out)
{
    double limit = p == TM__METIS_W_TOTAL_5E8 ? 5e8 : (double)(1 << 28);
    double sum = 0.0, scale = 1.0;
    bool integral = true;
    for (int64_t i = 0; i < m; i++) {
        sum += w[i];
        if (w[i] != floor(w[i]))
            integral = false;
    }
    if (!integral || sum > limit)
        scale = sum > 0 ? limit / sum : 1.0;
    if (p == TM__METIS_W_TOTAL_2P28 && !integral && scale > 1000.0)
        scale = 1000.0;
    for (int64_t i = 0; i < m; i++) {
        double x = floor(w[i] * scale + 0.5);
        out[i] = x < 1 ? 1 : (idx_t)x;
    }
}

tm_err tm__metis_graph(tm_ctx *ctx, const tm__sgraph *g, const tm__metis_in *in, idx_t *part,
                       int *rc)
{
    idx_t nv = g->n, ncon = 1, np = in->nparts, objval = 0, options[METIS_NOPTIONS];
    int64_t m = g->xadj[g->n];
    idx_t *xadj = NULL, *ew = NULL;
    tm_err err = TM_EOK;
    *rc = METIS_ERROR;
    if (m > INT32_MAX)
        return tm__fail(ctx, TM_EINFEASIBLE, "task graph too large for METIS (%lld entries)",
                        (long long)m);
    xadj = tm__malloc_n((size_t)nv + 1, sizeof *xadj);
    ew = tm__malloc_n((size_t)(m ? m : 1), sizeof *ew);
    if (!xadj || !ew) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (idx_t i = 0; i <= nv; i++)
        xadj[i] = (idx_t)g->xadj[i];
    tm__metis_weights(g->w, m, in->wpolicy, ew);
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_NUMBERING] = 0;
    options[METIS_OPTION_SEED] = (idx_t)(in->seed & 0x3fffffff);
    if (in->ufactor >= 0)
        options[METIS_OPTION_UFACTOR] = in->ufactor;
    if (in->ncuts >= 0)
        options[METIS_OPTION_NCUTS] = in->ncuts;
    /* the adjacency is only read by METIS despite the non-const prototype */
    *rc = tm__metis_call(ctx, in->recursive, &nv, &ncon, xadj, (idx_t *)g->adj, in->vwgt, ew, &np,
                         in->tpwgts, options, &objval, part);
    if (*rc == METIS_ERROR_MEMORY)
        err = tm__nomem(ctx);
out:
    free(xadj);
    free(ew);
    return err;
}
