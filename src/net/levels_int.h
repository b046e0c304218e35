/*
 * levels_int.h - shared state of the hierarchy detection (not installed).
 *
 * levels_store.c  level storage with the nesting and drop rules
 * levels_cliques.c the clique partition (PERCS supernodes, dragonfly groups)
 * levels_tree.c   networks with switches: flat, dragonfly, tree rule
 * levels_direct.c networks without switches: PERCS, grids
 * levels.c        public API, dispatch, hop sampling
 */
#ifndef TM_LEVELS_INT_H
#define TM_LEVELS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "topomap/levels.h"
#include "../util/util.h"

typedef struct tm__lv {
    tm_ctx *ctx;
    const tm_net_csr *g;
    tm_net_levels *out;
    int32_t n_hosts;
    int32_t below;  /* groups of the last level kept (n_hosts before any) */
    bool top;       /* one group reached or no room left: later levels are ignored */
    int32_t *remap; /* n: scratch for tm__lv_push, all -1 between calls */
} tm__lv;

/* The level store (levels_store.c).  Sets out->kind. */
void tm__lv_kind(tm__lv *s, const char *kind);
/* Offers a level whose group of host v is key[v] (any value in [0, n), the
 * same value = the same group; switches ignored).  The level is dropped if
 * it has as many groups as the one below, not stored but ends detection
 * (s->top) if it has one group, and must nest in the level below
 * (TM_EINTERNAL otherwise: a bug in a rule, never an input problem). */
tm_err tm__lv_push(tm__lv *s, const char *name, const int32_t *key);

/* levels_tree.c: a network with switches. */
tm_err tm__lv_indirect(tm__lv *s);
/* levels_direct.c: a network without switches. */
tm_err tm__lv_direct(tm__lv *s);

/* Greedy partition of the vertices with in[v] != 0 into cliques of the
 * subgraph they induce (levels_cliques.c: PERCS supernodes, dragonfly
 * groups).
 * cl[v] gets the clique id (0, 1, ... in order of the lowest member) or -1
 * for vertices not in.  *ok is true iff every clique has the same size
 * *size >= min_size (min_size >= 3); the partition stops at the first
 * clique that breaks this, so non-clique networks are rejected in
 * O(degree^2).  *n_cl gets the number of cliques when *ok. */
tm_err tm__lv_cliques(tm__lv *s, const uint8_t *in, int32_t min_size, int32_t *cl,
                      int32_t *n_cl, int32_t *size, bool *ok);

#endif
