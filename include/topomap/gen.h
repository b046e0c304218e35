/*
 * topomap/gen.h - generated networks for what-if studies.
 *
 * Spec strings (also usable as --topology):
 *   torus:8x8x8            k-D torus (hosts are the grid vertices)
 *   mesh:16x16             k-D mesh
 *   hypercube:6            2^6 hosts
 *   fattree:k=4,n=3        k-ary n-tree (k^n hosts)
 *   clos:...               2/3-level folded Clos with oversubscription
 *   percs:...              IBM PERCS (drawers, supernodes, D links)
 *   dragonfly:...          dragonfly
 * Common options after the shape, comma separated:
 *   slots=N  cap=G (all links)  hostfmt=node%04d  (per-generator extras)
 * Exact grammar: docs/generators.md and `topomap topo --help`.
 */
#ifndef TOPOMAP_GEN_H
#define TOPOMAP_GEN_H

#include <stdbool.h>

#include "topomap/error.h"
#include "topomap/net.h"

#ifdef __cplusplus
extern "C" {
#endif

/* True if s looks like a generator spec ("<known name>:..."). */
bool tm_gen_is_spec(const char *s);
/* Adds the generated network to net (not finalized).  Vertex names may get
 * a prefix (NULL = none) so an XML spec can combine several generators.
 * Malformed specs are TM_EUSAGE with what is wrong. */
tm_err tm_gen_build(tm_ctx *ctx, const char *spec, const char *prefix, tm_net *net);
/* One help line per generator, for `topo --help`. */
const char *tm_gen_help(void);

#ifdef __cplusplus
}
#endif
#endif
