/* qap_contract.c - the `topdown-c` strategy: general process mapping of a
 * huge task graph through graph contraction (Ponnusamy et al., SeC): each
 * round visits the vertices lightest first and merges every unpaired
 * vertex with the unpaired neighbour it shares the heaviest edge with;
 * rounds repeat until about CONTRACT_PER_PE vertices per PE remain (or a
 * round stops shrinking the graph).  The contracted graph is mapped with
 * the Top-Down multisection (weights honoured) and every task inherits its
 * supervertex's PE.  A supervertex never exceeds an eighth of what a PE
 * may carry; the coarse mapping may overfill a PE by one supervertex and
 * a J-aware rebalancing of single tasks restores the bound.  docs/qap.md
 * has the time/quality trade-off. */
#include <stdlib.h>
#include <string.h>

#include "qap_int.h"

#define CONTRACT_PER_PE 8

typedef struct ord { const double *vw, *key; } ord;
static int by_weight(const void *a, const void *b, void *arg)
{
    const ord *o = arg;
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    if (o->vw[x] != o->vw[y])
        return o->vw[x] < o->vw[y] ? -1 : 1;
    return (o->key[x] > o->key[y]) - (o->key[x] < o->key[y]);
}

/* One SeC round: part[u] = supervertex of u; returns the count (-1 OOM). */
static int32_t sec_round(const tm__sgraph *g, double maxw, tm__rng *r, int32_t *part)
{
    int32_t *order = tm__malloc_n((size_t)(g->n ? g->n : 1), sizeof *order);
    double *key = tm__malloc_n((size_t)(g->n ? g->n : 1), sizeof *key);
    int32_t nc = 0;
    if (!order || !key) {
        free(order);
        free(key);
        return -1;
    }
    for (int32_t u = 0; u < g->n; u++) {
        order[u] = u;
        key[u] = tm__rng_unit(r);
        part[u] = -1;
    }
    qsort_r(order, (size_t)g->n, sizeof *order, by_weight, &(ord){g->vw, key});
    for (int32_t i = 0; i < g->n; i++) {
        int32_t u = order[i], best = -1;
        double bw = 0;
        if (part[u] >= 0)
            continue;
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++) {
            int32_t v = g->adj[e];
            if (part[v] < 0 && v != u && g->w[e] > bw && g->vw[u] + g->vw[v] <= maxw) {
                bw = g->w[e];
                best = v;
            }
        }
        part[u] = nc;
        if (best >= 0)
            part[best] = nc;
        nc++;
    }
    free(order);
    free(key);
    return nc;
}

/* rebalance's state: the PE loads and, per PE, the tasks it had after
 * expansion (on[start[p] .. start[p + 1]); a task moved away since is
 * skipped). */
typedef struct rebal {
    const tm__sgraph *g;
    const tm_hier *h;
    double cap; /* bound * (1 + 1e-12) */
    int32_t *pe;
    double *load;
    int64_t *start;
    int32_t *on;
    tm__qdist o;
} rebal;

/* The task of PE p and the PE of one of its neighbours with room whose
 * move increases J least (*bu < 0: none has room). */
static void neighbour_move(const rebal *b, int64_t p, int32_t *bu, int32_t *bq)
{
    const tm__sgraph *g = b->g;
    const int32_t *pe = b->pe;
    double bd = 0;
    for (int64_t i = b->start[p]; i < b->start[p + 1]; i++) {
        int32_t u = b->on[i];
        if (pe[u] != p)
            continue;
        for (int64_t f = g->xadj[u]; f < g->xadj[u + 1]; f++) {
            int32_t q = pe[g->adj[f]];
            double d = 0;
            if (q == p || b->load[q] + g->vw[u] > b->cap)
                continue;
            for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
                d += g->w[e] * (tm__qd(&b->o, q, pe[g->adj[e]]) -
                                tm__qd(&b->o, (int32_t)p, pe[g->adj[e]]));
            if (*bu < 0 || d < bd) {
                *bu = u;
                *bq = q;
                bd = d;
            }
        }
    }
}

/* No neighbour PE has room: the lightest task of PE p to the nearest PE
 * with room (*bq < 0: none). */
static void nearest_move(const rebal *b, int64_t p, int32_t *bu, int32_t *bq)
{
    const tm__sgraph *g = b->g;
    const tm_hier *h = b->h;
    for (int64_t i = b->start[p]; i < b->start[p + 1]; i++)
        if (b->pe[b->on[i]] == p && (*bu < 0 || g->vw[b->on[i]] < g->vw[*bu]))
            *bu = b->on[i];
    for (int l = 1; l <= h->k && *bq < 0; l++) {
        int64_t g0 = p / h->group[l] * h->group[l];
        for (int64_t q = g0; q < g0 + h->group[l]; q++)
            if (q != p && b->load[q] + g->vw[*bu] <= b->cap) {
                *bq = (int32_t)q;
                break;
            }
    }
}

/* After expansion: moves tasks off PEs above `bound`, each time the task
 * and target with the smallest increase of J among the PEs of the task's
 * neighbours that have room, else the nearest PE with room. */
static tm_err rebalance(tm_ctx *ctx, const tm__sgraph *g, const tm_hier *h, double bound,
                        int32_t *pe)
{
    rebal b = {g, h, bound * (1 + 1e-12), pe, NULL, NULL, NULL, {0}};
    int64_t *fill = tm__malloc_n((size_t)h->n_pe + 1, sizeof *fill);
    tm_err err = TM_EOK;
    b.load = tm__calloc_n((size_t)h->n_pe, sizeof *b.load);
    b.start = tm__calloc_n((size_t)h->n_pe + 1, sizeof *b.start);
    b.on = tm__malloc_n((size_t)(g->n ? g->n : 1), sizeof *b.on);
    if (!b.load || !b.start || !b.on || !fill) {
        err = tm__nomem(ctx);
        goto out;
    }
    tm__qdist_init(&b.o, h);
    for (int32_t u = 0; u < g->n; u++) {
        b.load[pe[u]] += g->vw[u];
        b.start[pe[u] + 1]++;
    }
    for (int64_t q = 0; q < h->n_pe; q++)
        b.start[q + 1] += b.start[q];
    memcpy(fill, b.start, (size_t)h->n_pe * sizeof *fill);
    for (int32_t u = 0; u < g->n; u++)
        b.on[fill[pe[u]]++] = u;
    for (int64_t p = 0; p < h->n_pe; p++) {
        while (b.load[p] > b.cap) {
            int32_t bu = -1, bq = -1;
            neighbour_move(&b, p, &bu, &bq);
            if (bu < 0)
                nearest_move(&b, p, &bu, &bq);
            if (bq < 0) {
                err = tm__fail(ctx, TM_EINFEASIBLE,
                               "topdown-c: no PE has room for task %d (weight %g)", bu,
                               g->vw[bu]);
                goto out;
            }
            pe[bu] = bq;
            b.load[p] -= g->vw[bu];
            b.load[bq] += g->vw[bu];
        }
    }
out:
    free(b.load);
    free(b.start);
    free(b.on);
    free(fill);
    return err;
}

/* Contracts cur by SeC rounds (task u of p becomes supervertex map[u])
 * until at most CONTRACT_PER_PE supervertices per PE are left, or a round
 * makes less than 5% progress. */
static tm_err contract(tm_ctx *ctx, const tm_problem *p, double bound, tm__rng *r,
                       tm__sgraph *cur, int32_t *map, int32_t *part)
{
    tm__sgraph next;
    tm_err err = TM_EOK;
    memset(&next, 0, sizeof next);
    while ((int64_t)cur->n > CONTRACT_PER_PE * p->hier->n_pe) {
        int32_t nc = sec_round(cur, bound / 8, r, part);
        if (nc < 0) {
            err = tm__nomem(ctx);
            break;
        }
        if (nc > cur->n - cur->n / 20)
            break; /* less than 5% progress: the weights block further merging */
        err = tm__sgraph_contract(ctx, cur, part, nc, 0, &next);
        if (err)
            break;
        for (int32_t u = 0; u < p->comm->n; u++)
            map[u] = part[map[u]];
        tm__sgraph_release(cur);
        *cur = next;
        memset(&next, 0, sizeof next);
    }
    tm__sgraph_release(&next);
    return err;
}

tm_err tm__strategy_topdown_contract(tm_ctx *ctx, const tm_problem *p, uint64_t seed,
                                     tm_mapping *out)
{
    const tm_hier *h = p->hier;
    tm__sgraph cur;
    int32_t *map = NULL, *part = NULL, *cpe = NULL;
    double bound;
    bool general;
    tm__rng r;
    tm_err err = tm__qap_check_problem(ctx, p, true, &general);
    if (err)
        return err;
    if (!general)
        return tm__strategy_topdown(ctx, p, seed, out);
    err = tm__sgraph_from_comm(ctx, p->comm, TM__SG_VERTEX_WEIGHTS, &cur);
    if (err)
        return err;
    bound = tm__qap_bound(&cur, h, p->imbalance);
    tm__rng_seed(&r, seed, 0xc0c0);
    map = tm__malloc_n((size_t)(cur.n ? cur.n : 1), sizeof *map);
    part = tm__malloc_n((size_t)(cur.n ? cur.n : 1), sizeof *part);
    if (!map || !part) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t u = 0; u < cur.n; u++)
        map[u] = u;
    if ((err = contract(ctx, p, bound, &r, &cur, map, part)) != TM_EOK)
        goto out;
    tm__log(ctx, TM_LOG_INFO, "topdown-c: %d tasks contracted to %d", p->comm->n, cur.n);
    cpe = tm__malloc_n((size_t)(cur.n ? cur.n : 1), sizeof *cpe);
    if (!cpe) {
        err = tm__nomem(ctx);
        goto out;
    }
    {
        /* supervertices make exact packing hard: map the coarse graph
         * with room for one more supervertex per PE, then rebalance the
         * expanded mapping task by task */
        double maxw = 0;
        for (int32_t c = 0; c < cur.n; c++)
            maxw = cur.vw[c] > maxw ? cur.vw[c] : maxw;
        err = tm__qap_multisection(ctx, &cur, h, bound + maxw, 1, seed, cpe);
    }
    if (err)
        goto out;
    err = tm_mapping_alloc(ctx, out, p->comm->n, true);
    if (err)
        goto out;
    for (int32_t u = 0; u < p->comm->n; u++)
        out->pe[u] = cpe[map[u]];
    tm__sgraph_release(&cur);
    err = tm__sgraph_from_comm(ctx, p->comm, TM__SG_VERTEX_WEIGHTS, &cur);
    if (!err)
        err = rebalance(ctx, &cur, h, bound, out->pe);
    if (err)
        tm_mapping_release(out);
out:
    tm__sgraph_release(&cur);
    free(map);
    free(part);
    free(cpe);
    return err;
}
