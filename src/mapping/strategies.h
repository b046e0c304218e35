/* strategies.h - every mapping strategy and refinement entry point
 * (internal).  One signature each (tm_strategy_fn, tm_refine_fn of
 * topomap/map.h); the registry (src/pipeline/registry.c) lists them with
 * their names and modes.  The definitions live one layer up, in the
 * strategy folders: src/construct/ (constructions on the network), src/qap/
 * (QAP constructions and swap local searches), src/ta/ (threshold
 * accepting).  The header sits here, below all three, so that each
 * strategy includes it without including another strategy's folder. */
#ifndef TM_MAPPING_STRATEGIES_H
#define TM_MAPPING_STRATEGIES_H

#include "topomap/map.h"

/* Constructions: fill `out` (initialised by the caller) with a complete
 * mapping of p. */
/* src/construct/ */
tm_err tm__strategy_identity(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out);
tm_err tm__strategy_greedy(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out);
tm_err tm__strategy_recursive(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out);
tm_err tm__strategy_rcm(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out);
/* src/qap/ */
tm_err tm__strategy_mm(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out);
tm_err tm__strategy_allc(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out);
tm_err tm__strategy_topdown(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out);
tm_err tm__strategy_bottomup(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out);
tm_err tm__strategy_topdown_contract(tm_ctx *ctx, const tm_problem *p, uint64_t seed,
                                     tm_mapping *out);
tm_err tm__strategy_topdown_ms(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out);
tm_err tm__strategy_random(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out);
tm_err tm__strategy_grow(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out);
tm_err tm__strategy_skeleton(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out);

/* Refinements: improve m in place (never worse by their own objective);
 * `arg` is the text after "name:" in the refinement spec, or NULL. */
/* src/qap/ */
tm_err tm__refine_nc(tm_ctx *ctx, const tm_problem *p, const char *arg, uint64_t seed,
                     tm_mapping *m);
tm_err tm__refine_np(tm_ctx *ctx, const tm_problem *p, const char *arg, uint64_t seed,
                     tm_mapping *m);
tm_err tm__refine_ils(tm_ctx *ctx, const tm_problem *p, const char *arg, uint64_t seed,
                      tm_mapping *m);
tm_err tm__refine_n2(tm_ctx *ctx, const tm_problem *p, const char *arg, uint64_t seed,
                     tm_mapping *m);
/* src/ta/ */
tm_err tm__refine_ta(tm_ctx *ctx, const tm_problem *p, const char *arg, uint64_t seed,
                     tm_mapping *m);

#endif
