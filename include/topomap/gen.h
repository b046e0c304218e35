/*
 * topomap/gen.h - generated networks for what-if studies.
 *
 * Spec strings (also usable as --topology), "<generator>:<items>", items
 * comma separated:
 *   torus:8x8x8                     k-D torus (k <= 8), hosts are the grid points
 *   mesh:16x16                      k-D mesh
 *   hypercube:6                     2^6 hosts
 *   fattree:k=4,n=3                 k-ary n-tree (k^n hosts, n levels of k^(n-1) switches)
 *   clos:leaves=L,hosts_per_leaf=H[,spines=S,uplinks=U]          2-level folded Clos
 *   clos3:pods=P,leaves=L,hosts_per_leaf=H[,spines=,uplinks=,supers=,spine_uplinks=]
 *   percs:supernodes=289[,dlinks=D,dseed=N]   IBM PERCS (Hoefler & Snir 2011, 5.3.2)
 *   dragonfly:h=4[,a=,p=,g=]        dragonfly (Kim et al. 2008), balanced by default
 * Common options after the shape: slots=N (default 1), cap=G (all links;
 * default 1, PERCS 24/5/10), hostfmt=node%04d (default n%04d, wider when
 * needed), plus per-class capacities (hostcap, upcap, topcap, llcap, lrcap,
 * dcap, localcap, globalcap).  Exact grammar, defaults, names and wiring:
 * docs/generators.md; a short overview: tm_gen_help().
 *
 * Tori, meshes and hypercubes (up to 8 dimensions) record their geometry
 * with tm_net_set_grid(): host base + x0 + d0*(x1 + d1*(x2 + ...)).  A
 * dimension of size 2 has ONE cable between its two points and size 1 none,
 * so wrap[i] is true only for torus dimensions of size >= 3.  Hosts of
 * direct networks (torus, mesh, hypercube, PERCS) get TM_TRANSIT_YES.
 */
#ifndef TOPOMAP_GEN_H
#define TOPOMAP_GEN_H

#include <stdbool.h>

#include "topomap/error.h"
#include "topomap/export.h"
#include "topomap/net.h"

#ifdef __cplusplus
extern "C" {
#endif

/* True if s looks like a generator spec ("<known name>:..."). */
TM_API bool tm_gen_is_spec(const char *s);
/* Adds the generated network to net (not finalized).  Vertex names may get
 * a prefix (NULL = none) so an XML spec can combine several generators.
 * Malformed specs are TM_EUSAGE "generator spec '<spec>': <what is wrong>"
 * (or "unknown generator '<name>' (known: ...)"); they are detected before
 * anything is added.  A name clash with vertices already in net is
 * TM_EINPUT; after that or TM_ENOMEM the net holds part of the network and
 * should be discarded.  Time and memory O(size of the generated network);
 * at most 2^24 vertices and 2^25 cables. */
TM_API tm_err tm_gen_build(tm_ctx *ctx, const char *spec, const char *prefix, tm_net *net);
/* Help text for `topo --help`: an example spec per generator with its
 * options, two-space indented, newline-terminated lines under 90 columns. */
TM_API const char *tm_gen_help(void);

#ifdef __cplusplus
}
#endif
#endif
