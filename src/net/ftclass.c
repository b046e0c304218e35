/* ftclass.c - recognising the fat-trees of ftclass.h.  Everything is checked
 * on the CSR snapshot in O(vertices + links x levels); a net that fails any
 * check simply has no structure (the exact evaluation then sweeps DAGs). */
#include <stdlib.h>
#include <string.h>

#include "ftclass.h"
#include "../util/util.h"

typedef struct scratch {
    int32_t *queue, *parent, *stamp, *mref, *uref, *size, *newc, *ncount;
} scratch;

static int32_t uf_find(int32_t *p, int32_t x)
{
    while (p[x] != x) {
        p[x] = p[p[x]];
        x = p[x];
    }
    return x;
}

/* The one vertex all cables of host h go to, or -1. */
static int32_t host_switch(const tm_net_csr *g, int32_t h)
{
    int32_t w = -1;
    for (int32_t j = g->off[h]; j < g->off[h + 1]; j++) {
        if (w >= 0 && g->head[j] != w)
            return -1;
        w = g->head[j];
    }
    return w >= 0 && !g->is_host[w] ? w : -1;
}

/* Levels by BFS from the switches with hosts; false if the net is not
 * levelled (see ftclass.h). */
static bool make_levels(const tm_net_csr *g, tm__ftclass *u, int32_t *queue)
{
    int32_t qh = 0, qt = 0;
    for (int32_t v = 0; v < g->n; v++)
        u->level[v] = -1;
    for (int32_t h = 0; h < g->n; h++) {
        int32_t w;
        if (!g->is_host[h])
            continue;
        if (g->transit[h] || (w = host_switch(g, h)) < 0 || !g->transit[w])
            return false;
        u->level[h] = 0;
        if (u->level[w] < 0) {
            u->level[w] = 1;
            u->leaf_of[w] = u->n_leaf++;
            queue[qt++] = w;
        }
    }
    while (qh < qt) {
        int32_t v = queue[qh++];
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t w = g->head[j];
            if (g->is_host[w])
                continue;
            if (u->level[w] < 0) {
                if (!g->transit[w])
                    return false;
                u->level[w] = u->level[v] + 1;
                queue[qt++] = w;
            } else if (u->level[w] != u->level[v] + 1 && u->level[w] != u->level[v] - 1) {
                return false;
            }
        }
        if (u->level[v] > u->n_lev)
            u->n_lev = u->level[v];
    }
    for (int32_t v = 0; v < g->n; v++)
        if (u->level[v] < 0)
            return false; /* a switch no host reaches */
    return u->n_leaf > 0;
}

/* The classes of level l + 1: the level-l classes (global ids base .. base
 * + nc - 1) under one switch of level l + 1 are merged (union-find), and
 * the merged groups numbered from base + nc in order of their lowest old
 * class (s->newc: old class -> new id, s->ncount: old classes per new
 * one); the per-class scratch of next_level's checks starts empty.
 * Returns the number of new classes. */
static int32_t merge_classes(const tm_net_csr *g, const tm__ftclass *u, scratch *s, int l,
                             int32_t base, int32_t nc)
{
    int32_t ncomp = 0, nb = base + nc;
    for (int32_t c = 0; c < nc; c++) {
        s->parent[c] = c;
        s->mref[c] = s->uref[c] = -1;
        s->stamp[c] = -1;
        s->ncount[c] = 0;
    }
    for (int32_t v = 0; v < g->n; v++) { /* union the classes under each switch */
        int32_t first = -1;
        if (u->level[v] != l + 1)
            continue;
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t w = g->head[j], c;
            if (u->level[w] != l)
                continue;
            c = uf_find(s->parent, u->vcls[w] - base);
            if (first < 0)
                first = c;
            else if (c != first)
                s->parent[c] = first;
        }
    }
    for (int32_t c = 0; c < nc; c++) /* new ids in order of the lowest old class */
        if (uf_find(s->parent, c) == c)
            s->newc[c] = nb + ncomp++;
    for (int32_t c = 0; c < nc; c++) {
        s->newc[c] = s->newc[uf_find(s->parent, c)];
        s->ncount[s->newc[c] - nb]++;
    }
    return ncomp;
}

/* Classes of level l + 1 from those of level l (global ids base .. base +
 * nc - 1); the laminar and regular checks of ftclass.h.  Returns the number
 * of new classes, or -1 when the tree does not qualify. */
static int32_t next_level(const tm_net_csr *g, tm__ftclass *u, scratch *s, int l, int32_t base,
                          int32_t nc)
{
    int32_t ncomp = merge_classes(g, u, s, l, base, nc), nb = base + nc;
    for (int32_t v = 0; v < g->n; v++) {
        int32_t kids = 0, up = 0;
        if (u->level[v] != l + 1 && u->level[v] != l)
            continue;
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t w = g->head[j];
            if (u->level[v] == l) {
                up += u->level[w] == l + 1;
                continue;
            }
            if (u->level[w] != l)
                continue;
            int32_t c = u->vcls[w] - base;
            if (s->stamp[c] != v) { /* first link from v into A(c): count them all */
                int32_t m = 0;
                s->stamp[c] = v;
                kids++;
                for (int32_t i = g->off[v]; i < g->off[v + 1]; i++)
                    m += u->level[g->head[i]] == l && u->vcls[g->head[i]] == c + base;
                if (s->mref[c] >= 0 && s->mref[c] != m)
                    return -1; /* not regular */
                s->mref[c] = m;
            }
        }
        if (u->level[v] == l) {
            int32_t c = u->vcls[v] - base;
            if (s->uref[c] >= 0 && s->uref[c] != up)
                return -1; /* not regular */
            s->uref[c] = up;
            continue;
        }
        u->vcls[v] = -1; /* the class of its children (it has one: its BFS parent) */
        for (int32_t j = g->off[v]; j < g->off[v + 1] && u->vcls[v] < 0; j++)
            if (u->level[g->head[j]] == l)
                u->vcls[v] = s->newc[u->vcls[g->head[j]] - base];
        if (u->vcls[v] < 0 || kids != s->ncount[u->vcls[v] - nb])
            return -1; /* not laminar */
    }
    for (int32_t c = 0; c < nc; c++)
        u->den[base + c] = (double)s->size[c] * (double)s->uref[c];
    for (int32_t c = 0; c < ncomp; c++)
        s->size[c] = 0;
    for (int32_t v = 0; v < g->n; v++)
        if (u->level[v] == l + 1)
            s->size[u->vcls[v] - nb]++;
    for (int32_t i = 0; i < u->n_leaf; i++) {
        size_t at = (size_t)(l - 1) * (size_t)u->n_leaf + (size_t)i;
        u->cls[at + (size_t)u->n_leaf] = s->newc[u->cls[at] - base];
    }
    return ncomp;
}

static tm_err build(tm_ctx *ctx, const tm_net_csr *g, tm__ftclass *u, scratch *s, bool *ok)
{
    size_t n = (size_t)g->n + 1;
    int32_t base = 0, nc;
    *ok = false;
    if (!make_levels(g, u, s->queue))
        return TM_EOK;
    u->cls = tm__malloc_n((size_t)u->n_lev * (size_t)u->n_leaf + 1, sizeof *u->cls);
    u->den = tm__calloc_n(n, sizeof *u->den); /* classes <= switches */
    if (!u->cls || !u->den)
        return tm__nomem(ctx);
    for (int32_t v = 0; v < g->n; v++) {
        u->vcls[v] = u->leaf_of[v];
        if (u->leaf_of[v] >= 0)
            u->cls[u->leaf_of[v]] = u->leaf_of[v];
    }
    nc = u->n_leaf;
    for (int32_t i = 0; i < nc; i++)
        s->size[i] = 1;
    for (int l = 1; l < u->n_lev; l++) {
        int32_t next = next_level(g, u, s, l, base, nc);
        if (next < 0)
            return TM_EOK;
        base += nc;
        nc = next;
    }
    if (nc != 1)
        return TM_EOK; /* more than one tree */
    u->n_cls = base + nc;
    *ok = true;
    return TM_EOK;
}

tm_err tm__ftclass_detect(tm_ctx *ctx, const tm_net_csr *g, tm__ftclass **out)
{
    size_t n = (size_t)g->n + 1;
    tm__ftclass *u = calloc(1, sizeof *u);
    scratch s;
    bool ok = false;
    tm_err err;
    *out = NULL;
    memset(&s, 0, sizeof s);
    if (!u)
        return tm__nomem(ctx);
    u->level = tm__malloc_n(n, sizeof *u->level);
    u->leaf_of = tm__malloc_n(n, sizeof *u->leaf_of);
    u->vcls = tm__malloc_n(n, sizeof *u->vcls);
    s.queue = tm__malloc_n(n, sizeof *s.queue);
    s.parent = tm__malloc_n(n, sizeof *s.parent);
    s.stamp = tm__malloc_n(n, sizeof *s.stamp);
    s.mref = tm__malloc_n(n, sizeof *s.mref);
    s.uref = tm__malloc_n(n, sizeof *s.uref);
    s.size = tm__malloc_n(n, sizeof *s.size);
    s.newc = tm__malloc_n(n, sizeof *s.newc);
    s.ncount = tm__malloc_n(n, sizeof *s.ncount);
    if (!u->level || !u->leaf_of || !u->vcls || !s.queue || !s.parent || !s.stamp || !s.mref ||
        !s.uref || !s.size || !s.newc || !s.ncount) {
        err = tm__nomem(ctx);
        goto cleanup;
    }
    for (int32_t v = 0; v < g->n; v++)
        u->leaf_of[v] = -1;
    err = build(ctx, g, u, &s, &ok);
cleanup:
    free(s.queue), free(s.parent), free(s.stamp), free(s.mref), free(s.uref), free(s.size);
    free(s.newc), free(s.ncount);
    if (err || !ok)
        tm__ftclass_free(u);
    else
        *out = u;
    return err;
}

void tm__ftclass_free(tm__ftclass *u)
{
    if (!u)
        return;
    free(u->level), free(u->leaf_of), free(u->cls), free(u->vcls), free(u->den);
    free(u);
}
