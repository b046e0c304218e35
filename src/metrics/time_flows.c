/*
 * time_flows.c - the links each flow of the time model loads (time_int.h).
 *
 * Full paths come from tm_route_pair_links, once per ordered pair of hosts
 * (a pair's messages share them): a small open-addressing table maps the
 * pair to its links in a pool.  The reverse route of a message carries
 * SimGrid's cross-traffic (the acknowledgements: 5 % of the rate on every
 * link of the route back, docs/time.md).
 */
#include <stdlib.h>
#include <string.h>

#include "time_int.h"
#include "../util/util.h"

void tm__tflows_release(tm__tflows *t)
{
    free(t->cap);
    free(t->vol);
    free(t->weight);
    free(t->bound);
    free(t->start);
    free(t->hops);
    free(t->inv_bw);
    free(t->off);
    free(t->ent_link);
    free(t->ent_coef);
    memset(t, 0, sizeof *t);
}

int tm__tflows_push(tm__tflows *t, int32_t l, double c)
{
    if (t->n_ent >= t->cap_ent) {
        size_t c1 = (size_t)t->cap_ent, c2 = (size_t)t->cap_ent;
        if (tm__grow((void **)&t->ent_link, &c1, (size_t)t->n_ent + 1, sizeof *t->ent_link) < 0 ||
            tm__grow((void **)&t->ent_coef, &c2, (size_t)t->n_ent + 1, sizeof *t->ent_coef) < 0)
            return -1;
        t->cap_ent = (int64_t)(c1 < c2 ? c1 : c2);
    }
    t->ent_link[t->n_ent] = l;
    t->ent_coef[t->n_ent] = c;
    t->n_ent++;
    return 0;
}

/* The simulation's per-resource scratch is then sized by the links the
 * flows load, not by the network: under the approximation a fat-tree's
 * flows load only their hosts' cables (262,144 of 3.1 million links for
 * 131,072 tasks on fattree:k=8,n=6), a torus's none.  Ids only index, so
 * every sum and comparison of the simulation is the same. */
int tm__tflows_compact(tm__tflows *t, const tm_net_csr *g)
{
    int32_t *res = tm__malloc_n((size_t)g->n_links + 1, sizeof *res);
    if (!res)
        return -1;
    for (int32_t l = 0; l < g->n_links; l++)
        res[l] = -1;
    t->n_res = 0;
    for (int64_t e = 0; e < t->n_ent; e++) {
        int32_t l = t->ent_link[e];
        if (res[l] < 0)
            res[l] = t->n_res++;
        t->ent_link[e] = res[l];
    }
    free(t->cap);
    t->cap = tm__malloc_n((size_t)t->n_res + 1, sizeof *t->cap);
    for (int32_t l = 0; t->cap && l < g->n_links; l++)
        if (res[l] >= 0)
            t->cap[res[l]] = tm__link_Bps(g, l);
    free(res);
    return t->cap ? 0 : -1;
}

/* ---- the pairs' links, computed once per ordered pair ------------------- */

typedef struct pairtab {
    uint64_t *key;   /* (src << 32 | dst) + 1; 0 = empty */
    int64_t *at;     /* offset in the pool */
    int32_t *len;
    size_t mask;
    size_t used;
    int32_t *links;  /* pool */
    double *frac;
    size_t n_pool, cap_pool;
} pairtab;

static void pairtab_free(pairtab *p)
{
    free(p->key);
    free(p->at);
    free(p->len);
    free(p->links);
    free(p->frac);
}

static int pairtab_init(pairtab *p, size_t expect)
{
    size_t sz = 16;
    memset(p, 0, sizeof *p);
    while (sz < 2 * expect + 16)
        sz *= 2;
    p->key = tm__calloc_n(sz, sizeof *p->key);
    p->at = tm__malloc_n(sz, sizeof *p->at);
    p->len = tm__malloc_n(sz, sizeof *p->len);
    p->mask = sz - 1;
    return p->key && p->at && p->len ? 0 : -1;
}

static size_t slot_of(const pairtab *p, uint64_t key)
{
    uint64_t h = key * 0x9e3779b97f4a7c15ull;
    size_t i = (size_t)(h >> 20) & p->mask;
    while (p->key[i] && p->key[i] != key)
        i = (i + 1) & p->mask;
    return i;
}

/* The links of src -> dst (computed on first use); *i is their slot. */
static tm_err pair_get(tm_ctx *ctx, pairtab *p, tm_route_pairs *rp, int32_t src, int32_t dst,
                       size_t *i)
{
    uint64_t key = ((uint64_t)(uint32_t)src << 32 | (uint32_t)dst) + 1;
    const int32_t *links;
    const double *frac;
    int32_t n;
    tm_err err;
    *i = slot_of(p, key);
    if (p->key[*i])
        return TM_EOK;
    err = tm_route_pair_links(ctx, rp, src, dst, &n, &links, &frac);
    if (err)
        return err;
    if (tm__grow((void **)&p->links, &p->cap_pool, p->n_pool + (size_t)n + 1, sizeof *p->links) <
        0)
        return tm__nomem(ctx);
    {
        size_t c = p->cap_pool;
        double *f = tm__realloc_n(p->frac, c, sizeof *f);
        if (!f)
            return tm__nomem(ctx);
        p->frac = f;
    }
    memcpy(p->links + p->n_pool, links, (size_t)n * sizeof *links);
    memcpy(p->frac + p->n_pool, frac, (size_t)n * sizeof *frac);
    p->key[*i] = key;
    p->at[*i] = (int64_t)p->n_pool;
    p->len[*i] = n;
    p->n_pool += (size_t)n;
    p->used++;
    return TM_EOK;
}

static tm_err full_paths(tm_ctx *ctx, const tm_route *route, const tm__tmsg *msg, int64_t n,
                         double xt, int64_t max_ent, tm__tflows *t, bool *too_big)
{
    const tm_net_csr *g = tm_net_csr_get(tm_route_net(route));
    tm_route_pairs *rp = NULL;
    pairtab p;
    tm_err err;
    if (pairtab_init(&p, (size_t)n * 2) < 0) {
        pairtab_free(&p);
        return tm__nomem(ctx);
    }
    err = tm_route_pairs_new(ctx, route, &rp);
    for (int64_t f = 0; !err && f < n; f++) {
        size_t fw, bk = 0;
        double h = 0.0;
        err = pair_get(ctx, &p, rp, msg[f].src_host, msg[f].dst_host, &fw);
        if (!err && xt > 0)
            err = pair_get(ctx, &p, rp, msg[f].dst_host, msg[f].src_host, &bk);
        if (err)
            break;
        if (max_ent > 0 && t->n_ent + p.len[fw] + (xt > 0 ? p.len[bk] : 0) > max_ent) {
            *too_big = true;
            break;
        }
        t->inv_bw[f] = 0.0;
        for (int32_t e = 0; e < p.len[fw] && !err; e++) {
            h += p.frac[p.at[fw] + e];
            t->inv_bw[f] += p.frac[p.at[fw] + e] / tm__link_Bps(g, p.links[p.at[fw] + e]);
            if (tm__tflows_push(t, p.links[p.at[fw] + e], p.frac[p.at[fw] + e]) < 0)
                err = tm__nomem(ctx);
        }
        for (int32_t e = 0; xt > 0 && e < p.len[bk] && !err; e++)
            if (tm__tflows_push(t, p.links[p.at[bk] + e], xt * p.frac[p.at[bk] + e]) < 0)
                err = tm__nomem(ctx);
        t->hops[f] = h;
        t->off[f + 1] = t->n_ent;
    }
    tm_route_pairs_free(rp);
    pairtab_free(&p);
    return err;
}

/* The host's own links: out-links (dir 0) or in-links (dir 1), split
 * evenly, with coefficient c.  None for a transit host (a torus node):
 * its links are the network's, which the loads cover. */
static int host_links(const tm_net_csr *g, int32_t h, int dir, double c, tm__tflows *t)
{
    int32_t deg = g->off[h + 1] - g->off[h];
    if (g->transit[h])
        return 0;
    for (int32_t j = g->off[h]; j < g->off[h + 1]; j++)
        if (tm__tflows_push(t, dir ? g->link[j] ^ 1 : g->link[j], c / deg) < 0)
            return -1;
    return 0;
}

tm_err tm__time_paths(tm_ctx *ctx, const tm_route *route, const tm__tmsg *msg, int64_t n,
                      bool full, double xt, int64_t max_ent, tm__tflows *t, bool *too_big)
{
    const tm_net_csr *g = tm_net_csr_get(tm_route_net(route));
    *too_big = false;
    t->n_ent = 0;
    t->off[0] = 0;
    if (full)
        return full_paths(ctx, route, msg, n, xt, max_ent, t, too_big);
    for (int64_t f = 0; f < n; f++) {
        if (host_links(g, msg[f].src_host, 0, 1.0, t) < 0 ||
            host_links(g, msg[f].dst_host, 1, 1.0, t) < 0 ||
            (xt > 0 && (host_links(g, msg[f].dst_host, 0, xt, t) < 0 ||
                        host_links(g, msg[f].src_host, 1, xt, t) < 0)))
            return tm__nomem(ctx);
        t->hops[f] = 0.0;
        t->inv_bw[f] = (1.0 / tm__link_Bps(g, g->link[g->off[msg[f].src_host]]) +
                        1.0 / tm__link_Bps(g, g->link[g->off[msg[f].dst_host]] ^ 1)) / 2;
        t->off[f + 1] = t->n_ent;
    }
    return TM_EOK;
}
