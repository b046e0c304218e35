/*
 * gridbox.h - ECMP on a healthy torus or mesh without a DAG (internal).
 *
 * On a grid whose vertices are transit hosts joined exactly to their grid
 * neighbours (one cable each, rings of at least 3), the minimum-hop paths
 * from s to t move only in the shorter direction of each dimension (both,
 * in separate paths, when a ring's two ways tie), so they are the
 * monotone lattice paths of a box with n_d steps in dimension d.  ECMP
 * splits a flow evenly over all of them: every tie combination of
 * directions gets the same share (its box has the same number of paths),
 * and inside a box the share of a vertex's flow that takes a step in
 * dimension d is r_d / R, the steps still to go in d over all steps still
 * to go (the fraction of the remaining paths that start that way).  One
 * message costs its box's volume instead of a shortest-path DAG from its
 * source, which for a source whose partners are spread over the torus is
 * most of the network.  tests/unit/test_route.c compares it with every
 * minimum-hop path enumerated one by one.
 */
#ifndef TM_ROUTE_GRIDBOX_H
#define TM_ROUTE_GRIDBOX_H

#include <stdint.h>

#include "topomap/net.h"
#include "route_eval.h"

typedef struct tm__gridbox {
    int nd;
    int32_t base, n;                 /* grid vertices base .. base + n - 1 */
    int32_t dims[TM_GRID_MAX_DIMS];
    bool wrap[TM_GRID_MAX_DIMS];
    int32_t stride[TM_GRID_MAX_DIMS];
    int32_t *link;                   /* (i * nd + d) * 2 + dir: the link from grid vertex i
                                      * one step in dimension d (dir 0: +, 1: -), or -1 */
    int32_t max_steps;               /* the most hops between two grid vertices */
    int32_t *coord;                  /* i * nd + d: coordinate d of grid vertex i */
} tm__gridbox;

/* Coordinate d of grid vertex i (a table: no division per use). */
static inline int32_t tm__gridbox_x(const tm__gridbox *b, int32_t i, int d)
{
    return b->coord[(size_t)i * (size_t)b->nd + (size_t)d];
}

/* Whether net vertex v is a grid vertex. */
static inline bool tm__gridbox_on(const tm__gridbox *b, int32_t v)
{
    return v >= b->base && v - b->base < b->n;
}

/* The grid of net if it is healthy as above (*out NULL if not); TM_ENOMEM only. */
tm_err tm__gridbox_detect(tm_ctx *ctx, const tm_net *net, tm__gridbox **out);
void tm__gridbox_free(tm__gridbox *b);
/* Doubles tm__gridbox_route needs for src -> dst (the box volume), or -1
 * when a vertex is not a grid vertex. */
int64_t tm__gridbox_cost(const tm__gridbox *b, int32_t src, int32_t dst);
/* The boxes of src's k destinations together (tm__gridbox_cost), with
 * the largest in *max; -1 when a vertex is not on the grid or the total
 * passes limit. */
int64_t tm__gridbox_boxes(const tm__gridbox *b, int32_t src, size_t k, const int32_t *dst,
                          int64_t limit, int64_t *max);
/* Hops from src to dst (both grid vertices). */
int32_t tm__gridbox_hops(const tm__gridbox *b, int32_t src, int32_t dst);
/* Adds w, split evenly over all minimum-hop paths from src to dst, to
 * load; buf holds tm__gridbox_cost(src, dst) doubles. */
void tm__gridbox_route(const tm__gridbox *b, int32_t src, int32_t dst, double w, double *load,
                       double *buf);
/* The box from grid vertex s to t (offsets from base): n[d] steps in
 * direction dir[d] (0: +, 1: -) per dimension, and the dimensions whose
 * ring's two ways are equally short (dir 0 there) in tied[], in
 * increasing order.  Returns their number. */
int tm__gridbox_shape(const tm__gridbox *b, int32_t s, int32_t t, int32_t *n, int *dir,
                      int *tied);
/* Way m (0 .. 2^nt - 1) round the tied rings: bit i of m is the direction
 * of dimension tied[i].  Every way has as many paths, so an equal share. */
static inline void tm__gridbox_way(const int *tied, int nt, uint32_t m, int *dir)
{
    for (int i = 0; i < nt; i++)
        dir[tied[i]] = (int)((m >> i) & 1u);
}

/*
 * Many messages at once, for the exact evaluation (gridbatch.c).  A
 * uniformly random minimum-hop path of a box with n_d steps in dimension
 * d (C in all) passes the vertex k steps in (K = sum k_d) with
 * probability prod_d binom(n_d, k_d) / binom(C, K) (multivariate
 * hypergeometric) and leaves it in dimension d with probability
 * (n_d - k_d) / (C - K), so a row of the box along dimension 0 is a
 * product of per-box tables: a few vector operations with no dependence
 * between vertices, where route_box's recurrence has one.
 */
/* tm__gridmsg: route_eval.h (the exact evaluation fills them). */
/* Closed-form binomials fit a double up to this many hops. */
#define TM__GRIDBOX_CLOSED_MAX 1000
/* Adds the ECMP loads of the m messages (each (src, dst) at most once,
 * src != dst) to load, with the context's threads: the same sums in the
 * same order for any thread count.  Needs b->max_steps <=
 * TM__GRIDBOX_CLOSED_MAX; TM_ENOMEM only. */
tm_err tm__gridbox_batch(tm_ctx *ctx, const tm__gridbox *b, const tm__gridmsg *msg, size_t m,
                         double *load);

/* The grid an ECMP router found in its net, or NULL (ecmp.c). */
struct tm_route;
const tm__gridbox *tm__route_gridbox(const struct tm_route *r);

#endif
