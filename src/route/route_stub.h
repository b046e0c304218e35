/*
 * route_stub.h - routing from a host's switch (internal, never installed).
 *
 * A stub host is a host that cannot be crossed (not transit) and whose
 * cables all go to one vertex w, its switch: every host of a fat-tree or of
 * a real InfiniBand fabric.  Its minimum-hop paths are one of its cables to
 * w followed by a minimum-hop path from w (no path can come back through
 * it).  Under ECMP the traffic is therefore split evenly over its cables
 * and then exactly as traffic that starts at w, and under single-path
 * routing it takes the lowest link id and then w's path.  The exact
 * metrics use this to route the messages of all hosts of one switch in one
 * sweep from the switch: on a fat-tree with 16 hosts per leaf, 16 times
 * fewer DAGs and sweeps, with the same link loads.
 */
#ifndef TM_ROUTE_STUB_H
#define TM_ROUTE_STUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "topomap/route.h"

/* True when the router's flows from a stub host may be split as above. */
bool tm__route_stub_ok(const tm_route *r);
/* The switch of host h if h is a stub host, else h itself. */
int32_t tm__route_stub_of(const tm_route *r, int32_t h);
/* Adds vol on the first hop of stub host h (its cables to its switch). */
void tm__route_stub_hop(const tm_route *r, int32_t h, double vol, double *load);
/* Adds vol on the last hop into stub host h (its switch's cables to it):
 * the paths into a stub host are the paths to its switch and one of its
 * cables, split evenly under ECMP (each cable ends as many minimum-hop
 * paths), the lowest link id under single-path routing (the sweep's rule).
 * The exact metrics route the messages to all hosts of one switch as one
 * flow to the switch: the DAG then stops a level before the hosts. */
void tm__route_stub_last_hop(const tm_route *r, int32_t h, double vol, double *load);
/* tm_route_flows with any vertex v as the source (tm__route_stub_ok
 * routers only) and any vertices as destinations (not checked). */
tm_err tm__route_flows_from(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, int32_t v, size_t k,
                            const int32_t *dst, const double *vol, double *load, int32_t *hops);

/* The fat-tree structure (src/net/updown.h) an ECMP router found in its
 * net, or NULL. */
struct tm__updown;
const struct tm__updown *tm__route_updown(const tm_route *r);

#endif
