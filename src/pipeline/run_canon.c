/* run_canon.c - the default pipeline on the job's canonical numbering
 * (src/graph/canon.h): the constructions, probes and levels see the job
 * renumbered from its matrix alone, so the answer is the same whatever
 * the ranks were called (up to ties colour refinement cannot break;
 * docs/mapping.md "Numbering").  The consecutive placement stays that of
 * the numbering given: it is the baseline, and the identity row, so the
 * answer is never worse than it. */
#include <stdlib.h>
#include <string.h>

#include "run_auto.h"
#include "../graph/canon.h"

tm_err tm__auto_canon_begin(tm_ctx *ctx, autorun *a)
{
    tm__runner *rn = a->rn;
    const tm_problem *p = rn->p;
    tm__sgraph g;
    tm_err err;
    tm_comm_init(&a->canon_c);
    if (!p->net || rn->gen || p->comm->n < 2)
        return TM_EOK;
    if (!(a->perm = tm__malloc_n((size_t)p->comm->n, sizeof *a->perm)))
        return tm__nomem(ctx);
    err = tm__sgraph_from_comm(ctx, p->comm, TM__SG_POSITIVE, &g);
    if (err)
        return err;
    err = tm__canon_order(ctx, &g, a->perm);
    tm__sgraph_release(&g);
    if (!err)
        err = tm__comm_permute(ctx, p->comm, a->perm, &a->canon_c);
    if (err)
        return err;
    a->given = p;
    a->canon_p = *p;
    a->canon_p.comm = &a->canon_c;
    rn->p = &a->canon_p;
    return TM_EOK;
}

/* out[perm[t]] = in[t] (to the rows' numbering) or out[t] = in[perm[t]]
 * (back), host and slot. */
static void move(const int32_t *perm, const tm_mapping *in, tm_mapping *out, bool back)
{
    for (int32_t t = 0; t < in->n; t++) {
        int32_t from = back ? perm[t] : t, to = back ? t : perm[t];
        out->host[to] = in->host[from];
        out->slot[to] = in->slot[from];
    }
}

tm_err tm__auto_canon_consecutive(tm_ctx *ctx, const autorun *a, tm_mapping *out)
{
    tm_mapping cons;
    tm_err err;
    tm_mapping_init(&cons);
    err = tm_mapping_consecutive(ctx, a->given->alloc, a->given->comm->n, &cons);
    if (!err)
        err = tm_mapping_alloc(ctx, out, cons.n, false);
    if (!err)
        move(a->perm, &cons, out, false);
    tm_mapping_release(&cons);
    return err;
}

tm_err tm__auto_canon_end(tm_ctx *ctx, autorun *a, tm_mapping *m)
{
    tm_mapping back;
    tm_err err = TM_EOK;
    if (!a->perm)
        return TM_EOK;
    a->rn->p = a->given;
    tm_mapping_init(&back);
    if (m->n > 0 && (err = tm_mapping_alloc(ctx, &back, m->n, false)) == TM_EOK) {
        move(a->perm, m, &back, true);
        tm_mapping_release(m);
        *m = back;
    }
    return err;
}

/* The stream of the restarts' permutations (any constant apart from the
 * rows' own streams). */
#define RESTART_STREAM 0x5245535441525453ULL

tm_err tm__auto_canon_restart(tm_ctx *ctx, const autorun *a, autorun *b, int32_t *q)
{
    int32_t n = a->given->comm->n;
    tm__rng r;
    tm_err err;
    tm__rng_seed(&r, tm_ctx_seed(a->rn->parent) + (uint64_t)b->restart, RESTART_STREAM);
    for (int32_t i = 0; i < n; i++)
        q[i] = i;
    for (int32_t i = n - 1; i > 0; i--) { /* Fisher-Yates */
        int32_t j = (int32_t)tm__rng_below(&r, (uint64_t)i + 1), t = q[i];
        q[i] = q[j];
        q[j] = t;
    }
    tm_comm_init(&b->canon_c);
    if (!(b->perm = tm__malloc_n((size_t)n, sizeof *b->perm)))
        return tm__nomem(ctx);
    for (int32_t t = 0; t < n; t++)
        b->perm[t] = q[a->perm[t]];
    if ((err = tm__comm_permute(ctx, a->given->comm, b->perm, &b->canon_c)) != TM_EOK)
        return err;
    b->given = a->given;
    b->canon_p = *a->given;
    b->canon_p.comm = &b->canon_c;
    b->rn->p = &b->canon_p;
    return TM_EOK;
}

void tm__auto_canon_release(autorun *a)
{
    if (a->perm && a->given)
        a->rn->p = a->given;
    free(a->perm);
    a->perm = NULL;
    tm_comm_release(&a->canon_c);
}
