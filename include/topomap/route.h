/*
 * topomap/route.h - routing: how traffic between two hosts spreads over the
 * directed links of the network.  A router is a pluggable module behind one
 * interface (ECMP over minimum-hop paths, a single deterministic shortest
 * path, dimension order on tori/meshes, InfiniBand forwarding tables read
 * from ibroute and other LFT dumps or computed as OpenSM's ftree / min-hop /
 * up-down engines would;
 * docs/routing.md), so the metrics and the refinement never know which
 * model is in use.
 *
 * A tm_route is bound to a finalized tm_net and is read-only after
 * creation, so threads may share it; each thread uses its own
 * tm_route_ws workspace (which may cache per-source shortest-path DAGs).
 */
#ifndef TOPOMAP_ROUTE_H
#define TOPOMAP_ROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "topomap/error.h"
#include "topomap/export.h"
#include "topomap/net.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exact semantics and costs: docs/metrics.md "Routing models".  All
 * models respect the transit flags (only switches and transit hosts may
 * lie inside a path). */
typedef enum {
    TM_ROUTE_ECMP = 0, /* uniform over all minimum-hop paths, parallel
                        * cables being distinct paths (default) */
    TM_ROUTE_SINGLE,   /* one deterministic shortest path: backwards from
                        * the destination, the lowest-id DAG in-link */
    TM_ROUTE_DOR,      /* dimension order (x, then y, ...) on nets with grid
                        * geometry; shorter way round a ring, ties in the
                        * positive direction; no detours around failures */
    TM_ROUTE_LFT,      /* InfiniBand forwarding tables read from ibroute
                        * dumps (tm_route_new_lft); one path per pair */
    TM_ROUTE_FTREE,    /* OpenSM's fat-tree routing (D-mod-k), emulated */
    TM_ROUTE_MINHOP,   /* OpenSM's min-hop routing, emulated */
    TM_ROUTE_UPDN      /* OpenSM's up-down routing (no down -> up turn), emulated */
} tm_route_kind;

typedef struct tm_route tm_route;
typedef struct tm_route_ws tm_route_ws;

/* "ecmp", "single", "dor", "lft", "ftree", "minhop", "updn" -> kind; -1
 * if unknown. */
TM_API int tm_route_kind_parse(const char *s);
TM_API const char *tm_route_kind_name(tm_route_kind kind);

/* Creates a router for a finalized net.  DOR on a net without grid
 * geometry is TM_EUSAGE.  The router reads the net's CSR snapshot:
 * re-finalizing the net invalidates it (make a new one). */
TM_API tm_err tm_route_new(tm_ctx *ctx, const tm_net *net, tm_route_kind kind, tm_route **out);
/* Forwarding-table routing (TM_ROUTE_LFT) from the dumps in dir: ibroute
 * files (one per switch), dump_lfts.sh, opensm-lfts.dump, opensm.fdbs or
 * ibdiagnet2.fdbs, recognised per file (docs/routing.md).  The net needs LIDs and port numbers
 * (tm_net_add_lid, tm_net_set_cable_ports: the ibnetdiscover reader sets
 * them).  Malformed files are TM_EINPUT "file:line: ..."; a flow that the
 * tables cannot deliver fails in tm_route_flows with the file and line of
 * the entry at fault. */
TM_API tm_err tm_route_new_lft(tm_ctx *ctx, const tm_net *net, const char *dir, tm_route **out);
/* Options of tm_route_new_opts; start from TM_ROUTE_OPTS_INIT. */
typedef struct tm_route_opts {
    const char *lft_dir;  /* TM_ROUTE_LFT: the table directory (required) */
    bool lmc_spread;      /* TM_ROUTE_LFT: a flow to a host whose LID has LMC m is split
                           * evenly over its 2^m LIDs, each followed through the tables
                           * (MPI libraries striping over path bits; docs/routing.md);
                           * false: every flow goes to the base LID */
    const int32_t *roots; /* TM_ROUTE_UPDN: root switches (vertex ids); NULL: found as
                           * OpenSM does when it has no root GUID file */
    int32_t n_roots;
} tm_route_opts;
#define TM_ROUTE_OPTS_INIT {NULL, false, NULL, 0}
/* A router of any kind with options: lmc_spread with another kind than
 * TM_ROUTE_LFT, or roots with another kind than TM_ROUTE_UPDN, is
 * TM_EUSAGE (they would be silently ignored otherwise). */
TM_API tm_err tm_route_new_opts(tm_ctx *ctx, const tm_net *net, tm_route_kind kind,
                                const tm_route_opts *opts, tm_route **out);
TM_API void tm_route_free(tm_route *r);
TM_API tm_route_kind tm_route_kind_of(const tm_route *r);
TM_API const tm_net *tm_route_net(const tm_route *r);

/* Per-thread workspace (O(vertices + links) memory plus any cache). */
TM_API tm_err tm_route_ws_new(tm_ctx *ctx, const tm_route *r, tm_route_ws **out);
TM_API void tm_route_ws_free(tm_route_ws *ws);

/* Routes k flows from host src: vol[i] from src to dst[i].  Adds the
 * traffic of each flow to load[l] for every directed link l it uses (load
 * has n_links entries; vol may be negative to remove a flow) and, if hops
 * is not NULL, stores the hop count of dst[i] in hops[i].  dst[i] == src
 * loads nothing and has 0 hops.  An unreachable destination is TM_EINPUT
 * naming both hosts.  Cost: O(links) for the shortest-path DAG of src
 * (cached in ws) plus the DAG area between src and each dst. */
TM_API tm_err tm_route_flows(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, int32_t src, size_t k,
                             const int32_t *dst, const double *vol, double *load, int32_t *hops);

/* Hop distance from host src to host dst (-1 if unreachable). */
TM_API int32_t tm_route_hops(const tm_route *r, tm_route_ws *ws, int32_t src, int32_t dst);

/* ---- the links of one pair of hosts (src/route/pair_links.c) -------------
 * What tm_route_flows does with one unit of traffic from src to dst, as a
 * list: the directed links the pair's traffic crosses and the fraction of
 * it on each (1 on every link of a single-path routing; under ECMP the
 * fractions of the links of any cut between src and dst sum to 1).  Used by
 * the time model (docs/time.md), which needs every flow's links.  A
 * tm_route_pairs is one thread's: it owns a route workspace and an
 * n_links scratch array that is zero between calls. */
typedef struct tm_route_pairs tm_route_pairs;
TM_API tm_err tm_route_pairs_new(tm_ctx *ctx, const tm_route *r, tm_route_pairs **out);
TM_API void tm_route_pairs_free(tm_route_pairs *p);
/* The links of src -> dst (hosts): *n of them, in breadth-first order from
 * src, in *links with their fractions in *frac; both arrays belong to p and
 * stay valid until the next call.  src == dst gives *n = 0.  Errors as
 * tm_route_flows (an unreachable pair is TM_EINPUT).  Cost: one
 * tm_route_flows call plus the out-links of the vertices on the paths. */
TM_API tm_err tm_route_pair_links(tm_ctx *ctx, tm_route_pairs *p, int32_t src, int32_t dst,
                                  int32_t *n, const int32_t **links, const double **frac);

#ifdef __cplusplus
}
#endif
#endif
