/* map_int.h - strategy and refinement entry points registered in
 * registry.c (one file per strategy, one signature). */
#ifndef TM_MAP_INT_H
#define TM_MAP_INT_H

#include "topomap/map.h"

tm_err tm__strategy_identity(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out);
tm_err tm__strategy_greedy(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out);
tm_err tm__strategy_recursive(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out);
tm_err tm__refine_ta(tm_ctx *ctx, const tm_problem *p, const char *arg, uint64_t seed,
                     tm_mapping *m);
tm_err tm__strategy_rcm(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out);

#endif
