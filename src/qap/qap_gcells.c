/* qap_gcells.c - free slots per group of the levels form (qap_gcells.h). */
#include <stdlib.h>
#include <string.h>

#include "qap_gcells.h"

void tm__gcells_release(tm__gcells *c)
{
    free(c->parent), free(c->kid0), free(c->kids), free(c->host0), free(c->hosts);
    free(c->nfree), free(c->stamp);
    memset(c, 0, sizeof *c);
}

typedef struct gkey { int32_t g, c; } gkey;

static int cmp_gkey(const void *x, const void *y)
{
    const gkey *a = x, *b = y;
    if (a->g != b->g)
        return (a->g > b->g) - (a->g < b->g);
    return (a->c > b->c) - (a->c < b->c);
}

/* Dense node ids of the groups of level l (node[c]: class c's group),
 * numbered from *next. */
static void level_nodes(const tm_netdist *d, int l, gkey *k, int32_t *node, int32_t *next)
{
    int32_t nc = d->n_cls;
    for (int32_t c = 0; c < nc; c++)
        k[c] = (gkey){d->lev[(size_t)l * (size_t)nc + (size_t)c], c};
    qsort(k, (size_t)nc, sizeof *k, cmp_gkey);
    for (int32_t i = 0; i < nc; i++) {
        if (i == 0 || k[i].g != k[i - 1].g)
            (*next)++;
        node[k[i].c] = *next - 1;
    }
}

/* parent[] from the levels; false when a group's classes disagree on the
 * group above (not nested). */
static bool link_levels(tm__gcells *c, const tm_netdist *d, gkey *k, int32_t *below,
                        int32_t *above)
{
    int32_t next = d->n_cls;
    for (int32_t x = 0; x < d->n_cls; x++)
        below[x] = x;
    for (int l = 0; l <= d->n_lev; l++) {
        if (l < d->n_lev)
            level_nodes(d, l, k, above, &next);
        else
            for (int32_t x = 0; x < d->n_cls; x++)
                above[x] = next; /* the root */
        for (int32_t x = 0; x < d->n_cls; x++) {
            int32_t *p = &c->parent[below[x]];
            if (*p >= 0 && *p != above[x])
                return false;
            *p = above[x];
        }
        memcpy(below, above, (size_t)d->n_cls * sizeof *below);
    }
    c->n = next + 1;
    return true;
}

static tm_err csr_fill(tm__gcells *c, const tm__qnet *q)
{
    const tm_netdist *d = q->hd;
    c->kid0 = calloc((size_t)c->n + 1, sizeof *c->kid0);
    c->kids = malloc((size_t)c->n * sizeof *c->kids);
    c->host0 = calloc((size_t)c->nc + 1, sizeof *c->host0);
    c->hosts = malloc((size_t)(q->n_hosts ? q->n_hosts : 1) * sizeof *c->hosts);
    c->nfree = calloc((size_t)c->n, sizeof *c->nfree);
    c->stamp = calloc((size_t)c->n, sizeof *c->stamp);
    if (!c->kid0 || !c->kids || !c->host0 || !c->hosts || !c->nfree || !c->stamp)
        return TM_ENOMEM;
    for (int32_t v = 0; v < c->n; v++)
        if (c->parent[v] >= 0)
            c->kid0[c->parent[v] + 1]++;
    for (int32_t v = 0; v < c->n; v++)
        c->kid0[v + 1] += c->kid0[v];
    for (int32_t v = 0, *at = c->stamp; v < c->n; v++) /* stamp as a cursor */
        if (c->parent[v] >= 0)
            c->kids[c->kid0[c->parent[v]] + at[c->parent[v]]++] = v;
    for (int32_t a = 0; a < q->n_hosts; a++)
        c->host0[d->cls[a] + 1]++;
    for (int32_t x = 0; x < c->nc; x++)
        c->host0[x + 1] += c->host0[x];
    memset(c->stamp, 0, (size_t)c->n * sizeof *c->stamp);
    for (int32_t a = 0; a < q->n_hosts; a++)
        c->hosts[c->host0[d->cls[a]] + c->stamp[d->cls[a]]++] = a;
    memset(c->stamp, 0, (size_t)c->n * sizeof *c->stamp);
    return TM_EOK;
}

tm_err tm__gcells_build(tm_ctx *ctx, const tm__qnet *q, tm__gcells *c, bool *ok)
{
    const tm_netdist *d = q->hd;
    int32_t nc, nmax, *below = NULL, *above = NULL;
    gkey *k = NULL;
    tm_err err = TM_EOK;
    memset(c, 0, sizeof *c);
    *ok = false;
    if (!d || d->kind != TM__ND_TABLE || !d->lev || d->table || d->n_cls < 1)
        return TM_EOK;
    for (int32_t a = 1; a < q->n_hosts; a++)
        if (d->off[a] != d->off[0])
            return TM_EOK; /* hosts of a cell would differ by their offsets */
    nc = c->nc = d->n_cls;
    nmax = nc * (d->n_lev + 1) + 1;
    c->parent = malloc((size_t)nmax * sizeof *c->parent);
    k = malloc((size_t)nc * sizeof *k);
    below = malloc((size_t)nc * sizeof *below);
    above = malloc((size_t)nc * sizeof *above);
    if (!c->parent || !k || !below || !above) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t v = 0; v < nmax; v++)
        c->parent[v] = -1;
    if (!link_levels(c, d, k, below, above))
        goto out;
    if (csr_fill(c, q) != TM_EOK) {
        err = tm__nomem(ctx);
        goto out;
    }
    *ok = true;
out:
    free(k), free(below), free(above);
    if (!*ok)
        tm__gcells_release(c);
    return err;
}

void tm__gcells_reset(tm__gcells *c, const tm__qnet *q, const int32_t *free_n)
{
    memset(c->nfree, 0, (size_t)c->n * sizeof *c->nfree);
    for (int32_t a = 0; a < q->n_hosts; a++)
        for (int32_t v = q->hd->cls[a]; v >= 0; v = c->parent[v])
            c->nfree[v] += free_n[a];
}

void tm__gcells_take(tm__gcells *c, const tm__qnet *q, int32_t a)
{
    for (int32_t v = q->hd->cls[a]; v >= 0; v = c->parent[v])
        c->nfree[v]--;
}

int32_t tm__gcells_cells(tm__gcells *c, const tm__qnet *q, const int32_t *part, int32_t np,
                         const int32_t *free_n, int32_t *out)
{
    int32_t n = 0, mark = ++c->cur, seen;
    c->cur++;
    seen = c->cur; /* cells already listed */
    for (int32_t i = 0; i < np; i++)
        for (int32_t v = q->hd->cls[part[i]]; v >= 0; v = c->parent[v])
            c->stamp[v] = mark;
    for (int32_t i = 0; i < np; i++) {
        int32_t x = q->hd->cls[part[i]];
        if (c->nfree[x] > 0 && c->stamp[x] == mark) {
            /* a partner's own class: its hosts differ (a partner's own host
             * is at distance 0 from it), so each free host is listed */
            c->stamp[x] = seen;
            for (int32_t h = c->host0[x]; h < c->host0[x + 1]; h++)
                if (free_n[c->hosts[h]] > 0)
                    out[n++] = -1 - c->hosts[h];
        }
        for (int32_t v = c->parent[x]; v >= 0; v = c->parent[v])
            for (int32_t j = c->kid0[v]; j < c->kid0[v + 1]; j++) {
                int32_t w = c->kids[j];
                if (c->stamp[w] == mark || c->stamp[w] == seen || c->nfree[w] <= 0)
                    continue;
                c->stamp[w] = seen;
                out[n++] = w;
            }
    }
    return n;
}

int32_t tm__gcells_host(const tm__gcells *c, int32_t v, const int32_t *free_n)
{
    if (v < 0)
        return -1 - v;
    while (v >= c->nc) {
        int32_t j = c->kid0[v];
        while (c->nfree[c->kids[j]] <= 0)
            j++;
        v = c->kids[j];
    }
    for (int32_t i = c->host0[v];; i++)
        if (free_n[c->hosts[i]] > 0)
            return c->hosts[i];
}
