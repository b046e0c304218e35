/* net_int.h - declarations shared inside the library about tm_net (not
 * installed): access to the igraph graph and the igraph glue. */
#ifndef TM_NET_INT_H
#define TM_NET_INT_H

#include <igraph.h>

#include "topomap/net.h"

/* The igraph multigraph of enabled cables (edge i of the igraph graph is
 * cable tm__net_igraph_cable(net)[i]); NULL before finalize.  Call igraph
 * from the main thread only (Debian's igraph is not thread-safe). */
const igraph_t *tm__net_igraph(const tm_net *net);
const int32_t *tm__net_igraph_cable(const tm_net *net);

/* igraph analyses of a graph (net_igraph.c, below net.c).  Parts: comp[v]
 * for every vertex, numbered by smallest vertex.  Degrees: of the hosts
 * and of the switches, kind[v] the tm_vertex_kind of each of the nv
 * vertices. */
tm_err tm__net_components(tm_ctx *ctx, const igraph_t *graph, int32_t nv, int32_t *comp,
                          int32_t *n_comp);
tm_err tm__net_degree_stats(tm_ctx *ctx, const igraph_t *graph, const uint8_t *kind, int32_t nv,
                            tm_net_degrees *hosts, tm_net_degrees *switches);

/* Vertex id of the first len bytes of name, or -1: tm_net_find without a
 * NUL-terminated copy (so lookups of a prefix cannot fail for memory). */
int32_t tm__net_findn(const tm_net *net, const char *name, size_t len);

/* igraph glue: route igraph errors into ctx instead of abort(), and quiet
 * warnings.  Pair every begin with end on the same thread. */
typedef struct tm__igraph_guard {
    igraph_error_handler_t *old_err;
    igraph_warning_handler_t *old_warn;
    tm_ctx *old_ctx;
} tm__igraph_guard;
void tm__igraph_begin(tm_ctx *ctx, tm__igraph_guard *g);
void tm__igraph_end(tm__igraph_guard *g);
/* Converts an igraph return code to tm_err, recording what igraph said. */
tm_err tm__igraph_err(tm_ctx *ctx, igraph_error_t rc, const char *what);

/* The switch of a stub host (not transit, every cable to one transit
 * vertex), else the host itself: its minimum-hop paths are one of its
 * cables and a path from that switch (src/route/route_eval.h), so stub
 * hosts of one switch are at the same hop distance from every other host.
 * The one definition for the router, the diameter and the strategies. */
int32_t tm__csr_stub_of(const tm_net_csr *g, int32_t h);
/* The rails of host h: the number of distinct switches (transit vertices)
 * its cables go to, when h is not transit and all its cables go to
 * transit vertices; else 0 (a transit host, a host cabled to a host, a
 * host without cables).  A host with 2 or more rails is a multi-rail host
 * (docs/routing.md "Multi-rail hosts"); 1 rail is a stub host. */
int32_t tm__csr_rails(const tm_net_csr *g, int32_t h);

/* InfiniBand addressing (net_addr.c), allocated on first use: the port
 * number of each cable end and the owner of each unicast LID.  Routers
 * that follow forwarding tables need both; other code ignores them. */
#define TM__LID_END 0xC000 /* unicast LIDs are 1 .. 0xBFFF */
typedef struct tm__net_addr {
    uint8_t *port_a, *port_b; /* per cable; 0 = unknown */
    size_t ccap;
    int32_t *lid_owner;       /* per LID: vertex, -1 = nobody */
    uint8_t *lid_port;        /* per LID: port number of the owner */
    uint32_t *base_lid;       /* per vertex: lowest LID, 0 = none */
    uint8_t *lmc;             /* per vertex: LMC of that LID */
    size_t vcap;
} tm__net_addr;
tm__net_addr **tm__net_addr_slot(tm_net *net);
const tm__net_addr *tm__net_addr_get(const tm_net *net);
/* (net.c, which frees the record with the net) */
void tm__net_addr_free(tm__net_addr *a);

#endif
