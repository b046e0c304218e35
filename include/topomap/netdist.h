/*
 * topomap/netdist.h - exact hop distances between the allocated hosts of a
 * network: the shortest transit path (switches and transit hosts inside a
 * path, any host at its ends), i.e. the hop count every shortest-path
 * router reports.  O(1) per query, thread-safe, and no hosts x hosts table:
 * hosts hanging off one switch share a row, and tori and meshes answer from
 * coordinates (docs/metrics.md, "Hop-distance oracle").
 */
#ifndef TOPOMAP_NETDIST_H
#define TOPOMAP_NETDIST_H

#include <stddef.h>
#include <stdint.h>

#include "topomap/error.h"
#include "topomap/export.h"
#include "topomap/net.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tm_netdist tm_netdist;

/* Hop distances between hosts[0..n-1] (distinct host vertex ids of a
 * finalized net; TM_EUSAGE otherwise).  The net must stay finalized and
 * unchanged while the oracle is used: the "rows" backend reads it. */
TM_API tm_err tm_netdist_new(tm_ctx *ctx, const tm_net *net, const int32_t *hosts, int32_t n,
                             tm_netdist **out);
TM_API void tm_netdist_free(tm_netdist *d);
TM_API int32_t tm_netdist_n(const tm_netdist *d);
/* Hops between hosts[i] and hosts[j]; 0 if i == j; -1 if unreachable (or
 * an index is out of range).  Thread-safe. */
TM_API int32_t tm_netdist_hops(const tm_netdist *d, int32_t i, int32_t j);
/* The backend chosen, for logs: "table" (leaf-switch x leaf-switch table),
 * "levels" (the table replaced by distances per lowest common level of the
 * detected hierarchy, where that reproduces every entry: fat-trees, Clos),
 * "grid" (coordinates of a healthy torus or mesh) or "rows" (rows computed
 * on demand into a bounded cache). */
TM_API const char *tm_netdist_kind(const tm_netdist *d);
/* Memory held, bytes. */
TM_API size_t tm_netdist_bytes(const tm_netdist *d);

#ifdef __cplusplus
}
#endif
#endif
