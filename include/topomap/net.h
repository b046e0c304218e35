/*
 * topomap/net.h - the host network H: hosts and switches joined by cables.
 *
 * A tm_net is built in two phases.  First vertices and cables are added
 * (readers and generators do this); then tm_net_finalize() builds the
 * igraph multigraph and a read-only CSR snapshot of directed links that
 * routing, metrics and mapping use (from any thread).  A finalized network
 * can be modified (capacity changes, failed cables, more vertices) and
 * finalized again, which makes what-if studies cheap.
 *
 * Cable c joins endpoints a(c), b(c).  It is two directed links:
 * link 2c goes a -> b and link 2c+1 goes b -> a, each with the cable's
 * capacity (Gbit/s per direction).  Parallel cables are distinct cables.
 */
#ifndef TOPOMAP_NET_H
#define TOPOMAP_NET_H

#include <stdbool.h>
#include <stdint.h>

#include "topomap/error.h"
#include "topomap/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { TM_VERTEX_HOST = 0, TM_VERTEX_SWITCH = 1 } tm_vertex_kind;

/* Transit policy of a vertex (docs/design.md "Transit"). */
typedef enum {
    TM_TRANSIT_DEFAULT = 0, /* switches: yes; hosts: yes iff the net has no switches */
    TM_TRANSIT_YES = 1,
    TM_TRANSIT_NO = 2
} tm_transit;

typedef struct tm_net tm_net;

/* Read-only CSR view of the finalized network.  Only enabled cables appear
 * in the adjacency; link ids of disabled cables stay valid but unused. */
typedef struct tm_net_csr {
    int32_t n;              /* vertices */
    int32_t n_links;        /* directed link ids: 2 * cables */
    const int32_t *off;     /* n+1 offsets into head/link */
    const int32_t *head;    /* head[j]: target vertex of out-link j of a vertex */
    const int32_t *link;    /* link[j]: directed link id of that out-link */
    const double *cap;      /* cap[l]: capacity of directed link l */
    const int32_t *tail_of; /* tail_of[l]: source vertex of link l */
    const int32_t *head_of; /* head_of[l]: target vertex of link l */
    const uint8_t *is_host; /* per vertex */
    const uint8_t *transit; /* per vertex: may appear inside a path */
    const int32_t *slots;   /* per vertex (0 for switches) */
} tm_net_csr;

/* Torus/mesh geometry recorded by generators, used by dimension-order
 * routing.  Vertex base + x0 + d0*(x1 + d1*(x2 + ...)) is at (x0, x1, ...). */
#define TM_GRID_MAX_DIMS 8
typedef struct tm_net_grid {
    int ndims;              /* 0: no grid */
    int32_t base;
    int32_t dims[TM_GRID_MAX_DIMS];
    bool wrap[TM_GRID_MAX_DIMS];
} tm_net_grid;

/* An empty network (TM_ENOMEM without memory); free releases it and
 * everything it holds (NULL is allowed). */
TM_API tm_err tm_net_new(tm_ctx *ctx, tm_net **out);
TM_API void tm_net_free(tm_net *net);

/* Adds a vertex.  Names must be unique and non-empty (TM_EINPUT otherwise,
 * message without file position: readers that know the line check
 * tm_net_find() first).  slots >= 0; switches have 0. */
TM_API tm_err tm_net_add_vertex(tm_ctx *ctx, tm_net *net, const char *name, tm_vertex_kind kind,
                                int32_t slots, int32_t *id_out);
/* Capacities (Gbit/s per direction) are numbers in [TM_NET_MIN_CAPACITY,
 * TM_NET_MAX_CAPACITY]: with volumes bounded by TM_COMM_MAX_VOLUME, every
 * congestion (load / capacity) and every sum of them stays finite. */
#define TM_NET_MIN_CAPACITY 1e-6
#define TM_NET_MAX_CAPACITY 1e15

/* Adds a cable between distinct vertices a and b with a capacity in
 * [TM_NET_MIN_CAPACITY, TM_NET_MAX_CAPACITY] (else TM_EINPUT).
 * Self-loops are rejected with TM_EINPUT. */
TM_API tm_err tm_net_add_cable(tm_ctx *ctx, tm_net *net, int32_t a, int32_t b, double capacity,
                               int32_t *cable_out);

/* Setters that can reject a value take a context: an id out of range, an
 * unknown transit policy, negative slots or slots on a switch, and a
 * capacity tm_net_add_cable would refuse are TM_EUSAGE, and the net is
 * left unchanged. */
TM_API tm_err tm_net_set_transit(tm_ctx *ctx, tm_net *net, int32_t v, tm_transit t);
TM_API tm_err tm_net_set_slots(tm_ctx *ctx, tm_net *net, int32_t v, int32_t slots);
/* Optional 64-bit id (InfiniBand node GUID); 0 = none. */
TM_API void tm_net_set_guid(tm_net *net, int32_t v, uint64_t guid);
/* Optional free-text description (e.g. the IB node description). */
TM_API tm_err tm_net_set_desc(tm_ctx *ctx, tm_net *net, int32_t v, const char *desc);
TM_API tm_err tm_net_set_capacity(tm_ctx *ctx, tm_net *net, int32_t cable, double capacity);
/* A disabled (failed) cable keeps its id but carries no traffic. */
TM_API void tm_net_set_cable_enabled(tm_net *net, int32_t cable, bool enabled);
TM_API void tm_net_set_grid(tm_net *net, const tm_net_grid *grid);

/* InfiniBand addressing (optional; the ibnetdiscover reader fills it and
 * forwarding-table routing needs it).  Port numbers are 1-255 (0 =
 * unknown); a switch's LID is on its port 0.  A LID with LMC l covers
 * lid .. lid + 2^l - 1.  Adding a LID that another vertex owns, or a
 * LID outside the unicast range 1-0xBFFF, is TM_EINPUT. */
TM_API tm_err tm_net_set_cable_ports(tm_ctx *ctx, tm_net *net, int32_t cable, int32_t port_a,
                                     int32_t port_b);
/* Port numbers of a cable's ends a and b (0 = unknown). */
TM_API void tm_net_cable_ports(const tm_net *net, int32_t cable, int32_t *port_a,
                               int32_t *port_b);
TM_API tm_err tm_net_add_lid(tm_ctx *ctx, tm_net *net, int32_t v, int32_t port, uint32_t lid,
                             int lmc);
/* The vertex owning a LID (and its port if port is not NULL), or -1. */
TM_API int32_t tm_net_lid_owner(const tm_net *net, uint32_t lid, int32_t *port);
/* A vertex's lowest LID and its LMC (0 if the vertex has no LID). */
TM_API uint32_t tm_net_lid(const tm_net *net, int32_t v, int *lmc);

/* Builds the igraph graph and the CSR snapshot.  Must be called after the
 * last modification and before routing, metrics or mapping use the net. */
TM_API tm_err tm_net_finalize(tm_ctx *ctx, tm_net *net);
/* Checks invariants and that, inside each connected part, all hosts can
 * reach each other through transit vertices; unreachable hosts are named in
 * the message (TM_EINPUT).  Several parts are accepted.  The network must be
 * finalized. */
TM_API tm_err tm_net_check(tm_ctx *ctx, const tm_net *net);

/* Connected parts of a finalized network: the connected components of the
 * graph of enabled cables (igraph_connected_components), numbered
 * 0..tm_net_n_parts(net)-1 by their smallest vertex.  A failed cable or
 * switch (tm_net_set_cable_enabled) can split a network into parts; hosts
 * of different parts cannot communicate.  -1 / 0 before finalize. */
TM_API int32_t tm_net_n_parts(const tm_net *net);
TM_API int32_t tm_net_part(const tm_net *net, int32_t v);

/* Queries (valid ids only). */
TM_API int32_t tm_net_n_vertices(const tm_net *net);
TM_API int32_t tm_net_n_cables(const tm_net *net);
TM_API int32_t tm_net_n_hosts(const tm_net *net);
TM_API int32_t tm_net_n_switches(const tm_net *net);
TM_API int64_t tm_net_total_slots(const tm_net *net);
/* Vertex id of a name, or -1. */
TM_API int32_t tm_net_find(const tm_net *net, const char *name);
TM_API const char *tm_net_name(const tm_net *net, int32_t v);
TM_API const char *tm_net_desc(const tm_net *net, int32_t v); /* NULL if none */
TM_API tm_vertex_kind tm_net_kind(const tm_net *net, int32_t v);
TM_API int32_t tm_net_slots(const tm_net *net, int32_t v);
TM_API uint64_t tm_net_guid(const tm_net *net, int32_t v);
TM_API tm_transit tm_net_transit_policy(const tm_net *net, int32_t v);
/* Effective transit flag (after finalize). */
TM_API bool tm_net_is_transit(const tm_net *net, int32_t v);
TM_API void tm_net_cable(const tm_net *net, int32_t cable, int32_t *a, int32_t *b);
TM_API double tm_net_capacity(const tm_net *net, int32_t cable);
TM_API bool tm_net_cable_enabled(const tm_net *net, int32_t cable);
TM_API const tm_net_grid *tm_net_grid_info(const tm_net *net);
/* The CSR snapshot; NULL before tm_net_finalize(). */
TM_API const tm_net_csr *tm_net_csr_get(const tm_net *net);
/* Rails of host v after finalize: the number of distinct switches its
 * cables go to (one per HCA on its own leaf or plane), 0 for a transit
 * host (torus node), a host cabled to another host, a switch or before
 * finalize.  Hosts with 2 or more rails stripe their traffic over their
 * cables under ecmp and single routing (docs/routing.md "Multi-rail
 * hosts"). */
TM_API int32_t tm_net_host_rails(const tm_net *net, int32_t v);

/* Summary for `topo info`: hop diameter between hosts of one part (over
 * transit paths; -1 if some hosts of a part are unreachable), capacity
 * classes, degrees, parts. */
typedef struct tm_net_capclass {
    double capacity;
    int64_t cables;
} tm_net_capclass;
/* Cables per vertex of one kind (a parallel cable counts once per cable). */
typedef struct tm_net_degrees {
    int32_t count, min, max;
    double mean;
} tm_net_degrees;
typedef struct tm_net_info {
    int32_t hosts, switches, cables;
    int64_t slots;
    int32_t diameter; /* largest hop distance between two hosts of one part */
    int32_t n_capclasses;
    tm_net_capclass *capclasses; /* sorted by capacity, owned */
    tm_net_degrees host_degree, switch_degree;
    int32_t parts;              /* connected parts that contain hosts */
    int32_t *part_hosts;        /* hosts per such part, largest first (parts entries), owned */
    int32_t *part_first_host;   /* a host of each part (same order), owned */
} tm_net_info;
/* Computes the info (BFS from every host: O(hosts * links); use
 * diameter=false to skip that on huge networks).  Degrees and parts come
 * from igraph (see tm_net_part). */
TM_API tm_err tm_net_info_compute(tm_ctx *ctx, const tm_net *net, bool diameter, tm_net_info *out);
TM_API void tm_net_info_release(tm_net_info *info);

#ifdef __cplusplus
}
#endif
#endif
