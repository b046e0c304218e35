/* qap_bottomup.c - the Bottom-Up construction of VieM Sec. 3.1: partition
 * G into n_pe/a1 blocks of at most a1 tasks (perfectly balanced, exact
 * correction), contract the blocks into a quotient graph, partition that
 * into blocks of at most a2 vertices, and so on up the hierarchy; the
 * nested blocks then give every task its PE.  One-to-one only. */
#include <stdlib.h>
#include <string.h>

#include "qap_int.h"

tm_err tm__strategy_bottomup(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out)
{
    const tm_hier *h = p->hier;
    tm__sgraph lv[TM_HIER_MAX_LEVELS + 1];
    int32_t *part[TM_HIER_MAX_LEVELS + 1], *sib[TM_HIER_MAX_LEVELS + 1];
    int32_t *counter = NULL;
    double *cap = NULL;
    bool general;
    tm_err err = tm__qap_check_problem(ctx, p, false, &general);
    if (err)
        return err;
    memset(lv, 0, sizeof lv);
    memset(part, 0, sizeof part);
    memset(sib, 0, sizeof sib);
    err = tm__sgraph_from_comm(ctx, p->comm, TM__SG_VERTEX_WEIGHTS, &lv[0]);
    if (err)
        return err;
    for (int32_t u = 0; u < lv[0].n; u++)
        lv[0].vw[u] = 1.0;
    lv[0].total_vw = lv[0].n;
    /* level l: items of lv[l-1] into n_pe/group[l] blocks of <= a_l items */
    for (int l = 1; l <= h->k; l++) {
        int32_t nb = (int32_t)(h->n_pe / h->group[l]), ni = lv[l - 1].n;
        part[l] = tm__malloc_n((size_t)(ni ? ni : 1), sizeof *part[l]);
        sib[l] = tm__malloc_n((size_t)(ni ? ni : 1), sizeof *sib[l]);
        free(cap);
        cap = tm__malloc_n((size_t)nb, sizeof *cap);
        if (!part[l] || !sib[l] || !cap) {
            err = tm__nomem(ctx);
            goto out;
        }
        for (int32_t b = 0; b < nb; b++)
            cap[b] = h->a[l - 1];
        err = tm__metis_part_caps(ctx, &lv[l - 1], nb, cap, 1, seed + (uint64_t)l, part[l]);
        if (err)
            goto out;
        free(counter);
        counter = tm__calloc_n((size_t)nb, sizeof *counter);
        if (!counter) {
            err = tm__nomem(ctx);
            goto out;
        }
        for (int32_t i = 0; i < ni; i++)
            sib[l][i] = counter[part[l][i]]++;
        if (l < h->k) {
            err = tm__sgraph_contract(ctx, &lv[l - 1], part[l], nb, 0, &lv[l]);
            /* each block takes one slot of the next level */
            for (int32_t b = 0; !err && b < nb; b++)
                lv[l].vw[b] = 1.0;
            lv[l].total_vw = nb;
            if (err)
                goto out;
        }
    }
    err = tm_mapping_alloc(ctx, out, lv[0].n, true);
    if (err)
        goto out;
    for (int32_t t = 0; t < lv[0].n; t++) {
        int64_t pe = 0;
        int32_t x = t;
        for (int l = 1; l <= h->k; l++) {
            pe += (int64_t)sib[l][x] * h->group[l - 1];
            x = part[l][x];
        }
        out->pe[t] = (int32_t)pe;
    }
out:
    for (int l = 0; l <= h->k; l++) {
        tm__sgraph_release(&lv[l]);
        free(part[l]);
        free(sib[l]);
    }
    free(counter);
    free(cap);
    return err;
}
