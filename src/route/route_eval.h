/*
 * route_eval.h - what routing offers the evaluation (internal, never
 * installed): beside topomap/route.h, the one src/route/ header other
 * folders include (docs/design.md "Layers").  The exact and approximate
 * metrics (src/metrics/) add flows through it, one call per kind of
 * routing shortcut; the structures behind each (shortest-path DAGs, the
 * fat-tree classes of src/net/ftclass.h, the grid boxes of gridbox.h) stay
 * private to src/route/.
 */
#ifndef TM_ROUTE_EVAL_H
#define TM_ROUTE_EVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "topomap/route.h"

/* ---- non-minimal routers (route.c) ---------------------------------------
 * True for routers whose flows may take longer than minimum-hop paths
 * (valiant): the hop count tm_route_flows gives is then the longest path
 * of the flow (its dilation), and the exact sum of volume x hops is the
 * sum of all link loads (every unit of volume on a path of h hops adds h
 * link traversals).  The approximate congestion models minimum-hop paths
 * only and refuses them. */
bool tm__route_nonminimal(const tm_route *r);
/* True for ecmp and single routers on a net with multi-rail hosts: they
 * stripe those hosts' messages over their rails (rails.c), whose parts
 * may differ in length, so they count as non-minimal above. */
bool tm__route_striped(const tm_route *r);

/* ---- UGAL on the whole traffic matrix (ugal.c) -----------------------------
 * True for ugal routers: their choice per flow depends on all flows, so
 * the exact evaluation hands them the whole matrix at once. */
bool tm__route_is_ugal(const tm_route *r);
/* Routes the m flows vol[i] host src[i] -> host dst[i] (distinct pairs,
 * src != dst, in the caller's order, which is the order of the choices)
 * by UGAL-G (docs/routing.md), adds them to load and stores each flow's
 * longest path in hops[i] and 1 if it went Valiant (else 0) in valiant[i]
 * (may be NULL).  *passes: the passes made. */
tm_err tm__route_ugal_loads(tm_ctx *ctx, const tm_route *r, size_t m, const int32_t *src,
                            const int32_t *dst, const double *vol, double *load, int32_t *hops,
                            unsigned char *valiant, int *passes);

/* ---- stub hosts (route.c) ------------------------------------------------
 * A stub host is a host that cannot be crossed (not transit) and whose
 * cables all go to one vertex w, its switch: every host of a fat-tree or of
 * a real InfiniBand fabric.  Its minimum-hop paths are one of its cables to
 * w followed by a minimum-hop path from w (no path can come back through
 * it).  Under ECMP the traffic is therefore split evenly over its cables
 * and then exactly as traffic that starts at w, and under single-path
 * routing it takes the lowest link id and then w's path.  The exact
 * metrics use this to route the messages of all hosts of one switch in one
 * sweep from the switch: on a fat-tree with 16 hosts per leaf, 16 times
 * fewer DAGs and sweeps, with the same link loads. */

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

/* ---- regular fat-trees under ECMP: class totals (route_eval.c) -----------
 * On the fat-trees of src/net/ftclass.h ECMP sends the same share of every
 * flow that leaves a class of leaves upward over each up link of the
 * class, and of every flow that enters it over each link down into it, so
 * the loads of any set of flows follow from per-class totals in
 * O(flows x levels + links). */
typedef struct tm__route_classes tm__route_classes;

/* True when r is an ECMP router on such a fat-tree. */
bool tm__route_has_classes(const tm_route *r);
/* Zeroed totals for r (*out NULL when r has no classes); TM_ENOMEM only. */
tm_err tm__route_classes_new(tm_ctx *ctx, const tm_route *r, tm__route_classes **out);
/* Adds a flow of volume w from the stub hosts of leaf switch s to those of
 * leaf switch d (vertices); returns its hop count between the hosts. */
int32_t tm__route_classes_add(tm__route_classes *c, int32_t s, int32_t d, double w);
/* Adds every switch link's share of the totals to load (the stub hops are
 * the caller's: tm__route_stub_hop / tm__route_stub_last_hop). */
void tm__route_classes_load(const tm__route_classes *c, double *load);
void tm__route_classes_free(tm__route_classes *c);

/* ---- healthy tori and meshes under ECMP: grid boxes (route_eval.c) --------
 * The minimum-hop paths of a message are the lattice paths of one box
 * (gridbox.h), and the exact evaluation routes all messages whose boxes
 * pay in one batch from a closed form (gridbatch.c). */
typedef struct tm__gridmsg {
    int32_t src, dst; /* grid vertices (net vertex ids) */
    double w;
} tm__gridmsg;

/* True when r is an ECMP router on such a grid, small enough for the
 * batch's closed form. */
bool tm__route_grid_batch_ok(const tm_route *r);
/* Whether vertex v is a grid vertex of r (tm__route_grid_batch_ok routers). */
bool tm__route_grid_on(const tm_route *r, int32_t v);
/* -1 if vertex v is not a grid vertex of r or if the boxes of its k
 * messages to dst hold more than `limit` vertices in all; else that
 * number, and *max the largest box (tm__route_grid_batch_ok routers). */
int64_t tm__route_grid_boxes(const tm_route *r, int32_t v, size_t k, const int32_t *dst,
                             int64_t limit, int64_t *max);
/* Hops between grid vertices s and t. */
int32_t tm__route_grid_hops(const tm_route *r, int32_t s, int32_t t);
/* Adds the ECMP loads of the m messages (each (src, dst) at most once,
 * src != dst) to load, with the context's threads: the same sums in the
 * same order for any thread count.  TM_ENOMEM only. */
tm_err tm__route_grid_batch(tm_ctx *ctx, const tm_route *r, const tm__gridmsg *msg, size_t m,
                            double *load);

/* ---- least-congested minimum-hop paths (adaptive.c) -----------------------
 * Hoefler & Snir's approximate congestion (Algorithm 3): every flow takes,
 * among the minimum-hop paths of its pair, the one whose links have the
 * least sum of congestion so far, and adds its volume there. */
typedef struct tm__route_adaptive tm__route_adaptive;

tm_err tm__route_adaptive_new(tm_ctx *ctx, const tm_route *r, tm__route_adaptive **out);
/* Routes w from host src to host dst (src != dst) and adds it to load
 * along the path chosen; *hops its hop count.  TM_EINPUT, naming both
 * hosts, when dst cannot be reached. */
tm_err tm__route_adaptive_flow(tm_ctx *ctx, tm__route_adaptive *a, int32_t src, int32_t dst,
                               double w, double *load, int32_t *hops);
void tm__route_adaptive_free(tm__route_adaptive *a);

#endif
