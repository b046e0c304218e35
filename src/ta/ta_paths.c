/* ta_paths.c - a cache of routed unit flows per host pair for threshold
 * accepting.  Local moves meet the same host pairs again and again, so the
 * links and shares of the flow src -> dst are kept (open-addressing hash on
 * the pair, one pool of (link, share) entries) and a move then costs a few
 * lookups and additions per message instead of a DAG search and sweep.
 * The pool has a fixed budget; pairs beyond it are routed uncached.  A
 * routed flow's links are listed by a walk from its source (below the
 * state of ta_state.c, which walks the same way). */
#include <stdlib.h>
#include <string.h>

#include "ta_state.h"
#include "../util/util.h"

/* A fresh visit stamp for one traversal (vstamp[v] == gen: v visited);
 * on wrap-around the stamps are cleared. */
uint32_t tm__ta_next_gen(tm__ta_state *st)
{
    uint32_t gen = ++st->vgen;
    if (gen == 0) {
        memset(st->vstamp, 0, (size_t)st->g->n * sizeof *st->vstamp);
        gen = st->vgen = 1;
    }
    return gen;
}

int32_t tm__ta_scratch_list(tm__ta_state *st, double *s, int32_t src, int32_t *links,
                            double *share)
{
    const tm_net_csr *g = st->g;
    int32_t top = 0, n = 0;
    uint32_t gen = tm__ta_next_gen(st);
    st->stack[top++] = src;
    st->vstamp[src] = gen;
    while (top > 0) {
        int32_t v = st->stack[--top];
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t l = g->link[j];
            if (s[l] == 0)
                continue;
            links[n] = l;
            share[n++] = s[l];
            s[l] = 0;
            if (st->vstamp[g->head[j]] != gen) {
                st->vstamp[g->head[j]] = gen;
                st->stack[top++] = g->head[j];
            }
        }
    }
    return n;
}

static uint64_t pair_key(int32_t src, int32_t dst)
{
    return ((uint64_t)(uint32_t)(src + 1) << 32) | (uint32_t)dst;
}

static size_t slot_of(uint64_t key, size_t cap)
{
    key ^= key >> 31;
    key *= 0x9e3779b97f4a7c15ULL;
    return (size_t)(key >> 17) & (cap - 1);
}

void tm__ta_paths_release(tm__ta_state *st)
{
    free(st->pkey);
    free(st->poff);
    free(st->plen);
    free(st->plink);
    free(st->pfrac);
    free(st->tlink);
    free(st->tfrac);
    st->tlink = NULL;
    st->tfrac = NULL;
    st->pkey = NULL;
    st->poff = NULL;
    st->plen = NULL;
    st->plink = NULL;
    st->pfrac = NULL;
    st->pcap = st->pcount = st->pn = st->ppool = 0;
}

/* Doubles the hash table (load factor stays below 1/2). */
static int rehash(tm__ta_state *st)
{
    size_t ncap = st->pcap ? 2 * st->pcap : 1024;
    uint64_t *k = calloc(ncap, sizeof *k);
    int64_t *o = malloc(ncap * sizeof *o);
    int32_t *l = malloc(ncap * sizeof *l);
    if (!k || !o || !l) {
        free(k);
        free(o);
        free(l);
        return -1;
    }
    for (size_t i = 0; i < st->pcap; i++) {
        size_t j;
        if (!st->pkey[i])
            continue;
        for (j = slot_of(st->pkey[i], ncap); k[j]; j = (j + 1) & (ncap - 1))
            ;
        k[j] = st->pkey[i];
        o[j] = st->poff[i];
        l[j] = st->plen[i];
    }
    free(st->pkey);
    free(st->poff);
    free(st->plen);
    st->pkey = k;
    st->poff = o;
    st->plen = l;
    st->pcap = ncap;
    return 0;
}

tm_err tm__ta_pair(tm__ta_state *st, int32_t src, int32_t dst, const int32_t **links,
                   const double **share, int32_t *n)
{
    uint64_t key = pair_key(src, dst);
    size_t j = 0;
    const double one = 1.0;
    int32_t cnt;
    tm_err err;
    if (st->pcap) {
        for (j = slot_of(key, st->pcap); st->pkey[j]; j = (j + 1) & (st->pcap - 1)) {
            if (st->pkey[j] == key) {
                *links = st->plink + st->poff[j];
                *share = st->pfrac + st->poff[j];
                *n = st->plen[j];
                return TM_EOK;
            }
        }
    }
    *n = -1;
    if (st->pn >= TM__TA_POOL_MAX)
        return TM_EOK; /* budget spent: the caller batches */
    err = tm_route_flows(st->ctx, st->route, st->ws, src, 1, &dst, &one, st->sf, NULL);
    if (err)
        return err;
    cnt = tm__ta_scratch_list(st, st->sf, src, st->tlink, st->tfrac);
    *links = st->tlink;
    *share = st->tfrac;
    *n = cnt;
    /* long flows (far pairs, met mostly by random moves) would crowd out
     * the short ones local moves meet again; they stay uncached */
    if (cnt > TM__TA_PAIR_MAX_LEN || st->pn + (size_t)cnt > TM__TA_POOL_MAX)
        return TM_EOK;
    if (st->pn + (size_t)cnt > st->ppool) {
        size_t cap = st->ppool, cap2 = st->ppool;
        if (tm__grow((void **)&st->plink, &cap, st->pn + (size_t)cnt, sizeof *st->plink) ||
            tm__grow((void **)&st->pfrac, &cap2, st->pn + (size_t)cnt, sizeof *st->pfrac))
            return tm__nomem(st->ctx);
        st->ppool = cap < cap2 ? cap : cap2;
    }
    if (2 * (st->pcount + 1) > st->pcap && rehash(st))
        return tm__nomem(st->ctx);
    memcpy(st->plink + st->pn, st->tlink, (size_t)cnt * sizeof *st->plink);
    memcpy(st->pfrac + st->pn, st->tfrac, (size_t)cnt * sizeof *st->pfrac);
    for (j = slot_of(key, st->pcap); st->pkey[j]; j = (j + 1) & (st->pcap - 1))
        ;
    st->pkey[j] = key;
    st->poff[j] = (int64_t)st->pn;
    st->plen[j] = cnt;
    st->pcount++;
    st->pn += (size_t)cnt;
    return TM_EOK;
}
