/*
 * levels_cliques.c - the greedy partition of a vertex set into cliques
 * (tm__lv_cliques, levels_int.h), which the PERCS rule (levels_direct.c)
 * and the dragonfly rule (levels_tree.c) both use to find supernodes and
 * groups.
 */
#include <stdlib.h>

#include "levels_int.h"

typedef struct cand {
    int32_t t, v; /* common neighbours with the seed, vertex */
} cand;

static int cmp_cand(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->t != y->t)
        return x->t > y->t ? -1 : 1;
    return (x->v > y->v) - (x->v < y->v);
}

typedef struct clq {
    const tm_net_csr *g;
    const uint8_t *in;
    int32_t *mark, *seen, *kmark; /* stamp arrays */
    int32_t su, ss, sk;           /* current stamps */
    cand *c;
    int32_t *members;
} clq;

/* Distinct neighbours w of v (w != skip, in) with stamp[w] == st. */
static int32_t count_marked(clq *q, int32_t v, int32_t skip, const int32_t *stamp, int32_t st)
{
    const tm_net_csr *g = q->g;
    int32_t n = 0, sv = ++q->ss;
    for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
        int32_t w = g->head[j];
        if (w != skip && w != v && q->in[w] && stamp[w] == st && q->seen[w] != sv) {
            q->seen[w] = sv;
            n++;
        }
    }
    return n;
}

/* Grows the clique of seed u greedily from its unassigned neighbours with
 * the most common neighbours (members of u's true clique share the most);
 * returns its size, members in q->members. */
static int32_t grow_clique(clq *q, const int32_t *cl, int32_t u, int32_t min_size)
{
    const tm_net_csr *g = q->g;
    int32_t nc = 0, k = 1, su = ++q->su, sk = ++q->sk;

    q->mark[u] = su;
    for (int32_t j = g->off[u]; j < g->off[u + 1]; j++) {
        int32_t v = g->head[j];
        if (q->in[v] && q->mark[v] != su) {
            q->mark[v] = su;
            if (cl[v] < 0)
                q->c[nc++].v = v;
        }
    }
    for (int32_t i = 0; i < nc; i++)
        q->c[i].t = count_marked(q, q->c[i].v, u, q->mark, su);
    qsort(q->c, (size_t)nc, sizeof *q->c, cmp_cand);
    q->kmark[u] = sk;
    q->members[0] = u;
    /* in a clique of size >= min_size every member shares min_size - 2
     * neighbours with u; the sort puts all such candidates first */
    for (int32_t i = 0; i < nc && q->c[i].t >= min_size - 2; i++) {
        int32_t v = q->c[i].v;
        if (count_marked(q, v, -1, q->kmark, sk) == k) {
            q->kmark[v] = sk;
            q->members[k++] = v;
        }
    }
    return k;
}

tm_err tm__lv_cliques(tm__lv *s, const uint8_t *in, int32_t min_size, int32_t *cl,
                      int32_t *n_cl, int32_t *size, bool *ok)
{
    const tm_net_csr *g = s->g;
    size_t n = (size_t)g->n;
    clq q = {.g = g, .in = in};
    tm_err err = TM_EOK;

    *ok = false;
    *n_cl = *size = 0;
    q.mark = tm__calloc_n(n, sizeof *q.mark);
    q.seen = tm__calloc_n(n, sizeof *q.seen);
    q.kmark = tm__calloc_n(n, sizeof *q.kmark);
    q.members = tm__malloc_n(n, sizeof *q.members);
    q.c = tm__malloc_n(n, sizeof *q.c);
    if (!q.mark || !q.seen || !q.kmark || !q.members || !q.c) {
        err = tm__nomem(s->ctx);
        goto out;
    }
    for (int32_t v = 0; v < g->n; v++)
        cl[v] = -1;
    for (int32_t u = 0; u < g->n; u++) {
        int32_t k;
        if (!in[u] || cl[u] >= 0)
            continue;
        k = grow_clique(&q, cl, u, min_size);
        if (k < min_size || (*size && k != *size))
            goto out; /* not a network of equal cliques: stop early */
        *size = k;
        for (int32_t i = 0; i < k; i++)
            cl[q.members[i]] = *n_cl;
        (*n_cl)++;
    }
    *ok = *n_cl > 0;
out:
    if (!*ok)
        *n_cl = 0;
    free(q.mark);
    free(q.seen);
    free(q.kmark);
    free(q.members);
    free(q.c);
    return err;
}
