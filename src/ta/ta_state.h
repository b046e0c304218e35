/* ta_state.h - the incremental congestion state of threshold accepting
 * (ta_state.c) used by the search loop (ta.c). */
#ifndef TM_TA_STATE_H
#define TM_TA_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "topomap/map.h"
#include "topomap/route.h"
#include "maxtree.h"

/* Positions are "units": the slots of the allocation, unit u on host
 * unit_host[u] with slot unit_slot[u], occupied by task occ[u] or free
 * (-1), so moves to free slots are swaps with an empty unit. */
typedef struct tm__ta_state {
    tm_ctx *ctx;
    const tm_net_csr *g;
    const tm_comm *c;
    const tm_route *route;
    tm_route_ws *ws;
    bool reverse_ok;      /* ECMP: flow v->x is flow x->v on reversed links */
    int64_t *ixadj;       /* in-adjacency of the comm graph */
    int32_t *iadj;
    double *iw;
    int32_t U, nh;
    bool multi;           /* some host has several units (block moves apply) */
    int32_t *unit_host, *unit_slot, *occ, *unit_of;
    int32_t *hoff;        /* units of allocation index i: [hoff[i], hoff[i+1]) */
    int32_t *aidx;        /* net vertex -> allocation index or -1 */
    int32_t *near;        /* TM__TA_NEAR allocation indices per allocation index */
    tm_mapping cur;       /* host/slot of every task, kept in step */
    double *load;         /* per directed link */
    tm__maxtree tree;     /* congestion per link */
    double sumsq;
    int32_t argmax;       /* a link of maximum congestion */
    bool tree_dirty;      /* the pending move wrote the tree */
    /* move scratch */
    double *sf, *sr, *delta, *newc;
    int32_t *touched, ntouched;
    uint8_t *tmark;
    uint32_t *vstamp, vgen;
    int32_t *stack;
    int32_t *bdst;
    double *bvol;
    /* cache of unit flows per host pair (ta_paths.c): link ids and shares */
    uint64_t *pkey;       /* 0 = empty slot */
    int64_t *poff;
    int32_t *plen;
    size_t pcap, pcount;  /* hash slots (power of two), entries */
    int32_t *plink;
    double *pfrac;
    size_t pn, ppool;     /* pool entries used, allocated */
    int32_t *tlink;       /* one uncached list (n_links) */
    double *tfrac;
} tm__ta_state;

/* Pool budget of the pair cache (entries of 12 bytes): pairs seen once the
 * budget is spent are routed in batches without caching. */
#define TM__TA_POOL_MAX ((size_t)4 << 20)
#define TM__TA_PAIR_MAX_LEN 2048

/* ---- ta_paths.c ---- */
/* Flow of one unit from host src to host dst as (link, share) pairs: from
 * the cache, or routed now and cached (*n < 0: the budget is spent and
 * nothing was routed). */
tm_err tm__ta_pair(tm__ta_state *st, int32_t src, int32_t dst, const int32_t **links,
                   const double **share, int32_t *n);
void tm__ta_paths_release(tm__ta_state *st);
/* Moves the flow in scratch s (routed from src) into out lists; clears s.
 * Returns the number of links. */
int32_t tm__ta_scratch_list(tm__ta_state *st, double *s, int32_t src, int32_t *links,
                            double *share);
/* A fresh visit stamp for one traversal (vstamp[v] == gen: v visited). */
uint32_t tm__ta_next_gen(tm__ta_state *st);

#define TM__TA_NEAR 8

tm_err tm__ta_state_init(tm_ctx *ctx, tm__ta_state *st, const tm_problem *p,
                         const tm_route *route, const tm_mapping *m);
void tm__ta_state_release(tm__ta_state *st);
/* Recomputes loads, tree and sum of squares from scratch. */
tm_err tm__ta_state_full(tm__ta_state *st);
/* Evaluates swapping the occupants of units u1 and u2 (on different
 * hosts): leaves the new congestions of the touched links in the tree and
 * returns the new maximum and sum of squares; then call commit or undo. */
tm_err tm__ta_move_eval(tm__ta_state *st, int32_t u1, int32_t u2, double *new_max,
                        double *new_sumsq);
void tm__ta_move_commit(tm__ta_state *st, int32_t u1, int32_t u2, double new_sumsq);
void tm__ta_move_undo(tm__ta_state *st, int32_t u1, int32_t u2);

#endif
