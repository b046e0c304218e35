/* general.c - general process mapping in network mode: more tasks than
 * the allocated slots (`map --imbalance EPS`), and with it the contraction
 * of huge task graphs.
 *
 * Partition, then map the partition (LibTopoMap's flow), with the
 * partition made along the network as Scotch's dual recursive
 * bipartitioning does: the task graph is cut by the network multisection
 * (qap_netsection.c: leaf switches, pods, coordinate bisection of tori)
 * into S blocks, S = the allocation's slots, block b on slot b, each of
 * weight at most B = ceil((1 + EPS) W / S); a flat METIS partition under
 * the same caps (tm__metis_part_caps) if a cap cannot be met deep in the
 * tree.  The quotient graph (one task per block, the directed volume
 * between blocks) is then mapped one-to-one by the normal pipeline --
 * every strategy, every refinement, the pick -- so `identity` keeps the
 * multisection's placement and the others may find better ones; each task
 * goes to its block's slot.  The figures of every row are those of the
 * expanded mapping evaluated on the original graph (run.c), never the
 * quotient's: the volume inside a block stays on one slot, so congestion
 * and J are the same, but it counts in the total volume and so in the
 * average dilation.
 *
 * What is lost against a task-level search: tasks never move between
 * blocks after the partition (docs/mapping.md, "More tasks than slots").
 * The baseline of a general mapping is the block distribution
 * (tm_mapping_blocks). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "topomap/alloc.h"
#include "topomap/map.h"
#include "general.h"
#include "../graph/partition.h"
#include "../graph/sgraph.h"
#include "../qap/qap_int.h"
#include "../util/util.h"

void tm__general_release(tm__general *gm)
{
    free(gm->block);
    tm_comm_release(&gm->q);
    memset(gm, 0, sizeof *gm);
}

/* B = (1 + eps) W / S as in hierarchy mode (tm__qap_bound_pes: rounded up
 * when every weight is integral, so eps = 0 with unit weights means exactly
 * ceil(n / S)), and never less than the heaviest task, which may sit alone
 * in a block. */
static double block_bound(const tm__sgraph *g, int32_t s, double eps)
{
    double b = tm__qap_bound_pes(g, s, eps);
    for (int32_t u = 0; u < g->n; u++)
        b = g->vw[u] > b ? g->vw[u] : b;
    return b;
}

static tm_err partition(tm_ctx *ctx, const tm_problem *p, int32_t s, uint64_t seed,
                        tm__general *gm)
{
    const tm_comm *comm = p->comm;
    tm__sgraph g;
    double *cap = NULL;
    tm_err err = tm__sgraph_from_comm(ctx, comm, TM__SG_VERTEX_WEIGHTS, &g);
    if (err)
        return err;
    gm->bound = block_bound(&g, s, p->imbalance);
    cap = tm__malloc_n((size_t)s, sizeof *cap);
    if (!cap) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t b = 0; b < s; b++)
        cap[b] = gm->bound;
    if (s == 1) {
        memset(gm->block, 0, (size_t)comm->n * sizeof *gm->block);
    } else {
        err = tm__qap_netsection_general(ctx, p, &g, gm->bound, seed, gm->block);
        if (err == TM_EINFEASIBLE) { /* a cap METIS could not meet deep in the tree */
            tm__log(ctx, TM_LOG_INFO, "general mapping: multisection missed a cap, "
                    "partitioning flat");
            err = tm__metis_part_caps(ctx, &g, s, cap, 1, seed, gm->block);
        }
    }
    /* cap[b] becomes what is left of block b's cap */
    for (int32_t u = 0; !err && u < g.n; u++)
        cap[gm->block[u]] -= g.vw[u];
    for (int32_t b = 0; !err && b < s; b++)
        gm->weight_max = fmax(gm->weight_max, gm->bound - cap[b]);
out:
    free(cap);
    tm__sgraph_release(&g);
    return err;
}

/* The directed volume between blocks, and the block weights. */
static tm_err quotient(tm_ctx *ctx, const tm_comm *comm, int32_t s, tm__general *gm)
{
    int64_t m = 0;
    int32_t *src = tm__malloc_n((size_t)(comm->nnz ? comm->nnz : 1), sizeof *src);
    int32_t *dst = tm__malloc_n((size_t)(comm->nnz ? comm->nnz : 1), sizeof *dst);
    double *w = tm__malloc_n((size_t)(comm->nnz ? comm->nnz : 1), sizeof *w);
    double *vw = tm__calloc_n((size_t)s, sizeof *vw);
    tm_err err = TM_EOK;
    if (!src || !dst || !w || !vw) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t u = 0; u < comm->n; u++) {
        vw[gm->block[u]] += comm->vwgt ? comm->vwgt[u] : 1.0;
        for (int64_t e = comm->xadj[u]; e < comm->xadj[u + 1]; e++) {
            int32_t a = gm->block[u], b = gm->block[comm->adj[e]];
            if (a == b)
                continue;
            src[m] = a;
            dst[m] = b;
            w[m++] = comm->w[e];
        }
    }
    err = tm_comm_from_entries(ctx, s, m, src, dst, w, &gm->q);
    if (!err) {
        gm->q.vwgt = vw;
        vw = NULL;
    }
out:
    free(src);
    free(dst);
    free(w);
    free(vw);
    return err;
}

tm_err tm__general_build(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm__general *gm)
{
    int64_t slots = tm_alloc_total_slots(p->alloc);
    tm_err err;
    memset(gm, 0, sizeof *gm);
    tm_comm_init(&gm->q);
    if (slots < 1 || slots > INT32_MAX)
        return tm__fail(ctx, TM_EINFEASIBLE, "general mapping needs 1 to %d slots, not %lld",
                        INT32_MAX, (long long)slots);
    gm->n_blocks = (int32_t)slots;
    gm->block = tm__malloc_n((size_t)p->comm->n, sizeof *gm->block);
    if (!gm->block)
        return tm__nomem(ctx);
    err = partition(ctx, p, gm->n_blocks, seed, gm);
    if (!err)
        err = quotient(ctx, p->comm, gm->n_blocks, gm);
    if (err)
        tm__general_release(gm);
    return err;
}

tm_err tm__general_expand(tm_ctx *ctx, const tm__general *gm, const tm_mapping *bm, int32_t n,
                          tm_mapping *out)
{
    tm_err err = tm_mapping_alloc(ctx, out, n, false);
    if (err)
        return err;
    for (int32_t u = 0; u < n; u++) {
        out->host[u] = bm->host[gm->block[u]];
        out->slot[u] = bm->slot[gm->block[u]];
    }
    return TM_EOK;
}
