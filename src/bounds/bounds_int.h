/* bounds_int.h - the parts of the lower bounds (src/bounds/, docs/bounds.md),
 * not installed.
 *
 * The files call one another one way only:
 *   tcut.c   the task graph's side: rows of volumes sorted, the degree
 *            bound on the cut of a set of k tasks, Gilmore-Lawler products
 *   flow.c   the flow certificate of the task graph's cuts (uses tcut's rows)
 *   grid.c   a task graph that is a torus or mesh, recognised, and the
 *            isoperimetric (Loomis-Whitney) bound of its sets
 *   phi.c    the cut bounds combined: Phi(k) for one set, the crossing
 *            volume of a partition (tcut, flow, grid)
 *   ncut.c   the network's side: host and group capacities, cuts (levels,
 *            grid slabs), least distances, the ball profile
 *   cong.c   the congestion bounds (phi, ncut's structures)
 *   dist.c   the dilation and J bounds (phi, tcut, ncut's structures)
 *   bounds.c the public API (all of the above)
 */
#ifndef TM_BOUNDS_INT_H
#define TM_BOUNDS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "topomap/bounds.h"
#include "topomap/levels.h"
#include "../graph/sgraph.h"

/* The methods (tm_bound_method.name in this order). */
enum { TM__M_INJECTION, TM__M_LEVELS, TM__M_SLABS, TM__M_VOLUME, TM__M_PROFILE, TM__M_N };
extern const char *const tm__bound_method_name[TM__M_N];

/* Directions of a task's volumes: what it sends, what it receives, both
 * (the symmetric weight w(u->v) + w(v->u)). */
enum { TM__OUT, TM__IN, TM__SYM, TM__NX };

/* Default work limits (elementary steps), sized on the bench instances so
 * that the bounds cost less than the default `map` (docs/bounds.md "Cost"). */
#define TM__BOUNDS_WORK_DEG 40000000LL   /* degree tables: k x tasks */
#define TM__BOUNDS_WORK_FLOW 20000000LL  /* flow certificate: sources x entries */
#define TM__BOUNDS_WORK_NET 40000000LL   /* breadth-first searches of the network */

/* ---- tcut.c --------------------------------------------------------------- */
/* A task graph recognised as a torus or mesh (grid.c). */
typedef struct tm__tgrid {
    int d;                       /* dimensions; 0: no grid */
    int32_t L[TM_GRID_MAX_DIMS]; /* lengths */
    bool cyc[TM_GRID_MAX_DIMS];  /* a cycle (else a path) */
    double w[TM_GRID_MAX_DIMS];  /* the least volume of a message along the dimension */
    double *memo;                /* tm__tgrid_out by k, NAN: not computed yet */
} tm__tgrid;

typedef struct tm__tcut {
    int32_t n;
    double W;                /* total directed volume */
    tm__sgraph sg;           /* the symmetric task graph (positive entries) */
    int64_t *x[TM__NX];      /* per direction: row offsets (n + 1); x[SYM] is sg's */
    double *pre[TM__NX];     /* prefix sums of each row's volumes sorted decreasing:
                              * pre[x[u] + j] = the sum of its j + 1 largest */
    double *deg[TM__NX];     /* the whole row's volume */
    int32_t maxlen;          /* the longest row of any direction */
    /* The degree bound for sets of k = 1..K tasks, index k (0 unused):
     * phi = the sum of the k smallest r_v(k) (docs/bounds.md), lo = the sum
     * of the k - 1 smallest, th = the (k - 1)-th smallest (-1 when k = 1). */
    int32_t K;
    double *phi[TM__NX], *lo[TM__NX], *th[TM__NX];
    /* flow.c: the certificate (rho = 0: none) */
    double rho;              /* max over task edges of load / weight */
    int32_t r;               /* sources routed from */
    int32_t *src_comp;       /* per source: the size of its component */
    int32_t n_big, n_iso;    /* one component of n_big tasks and n_iso isolated ones,
                              * or n_big = 0 (several components: no single-set bound) */
    tm__tgrid grid;          /* grid.c: the grid the task graph is, if any */
} tm__tcut;

/* Builds the rows and the degree tables up to min(kmax, what the work
 * limit allows). */
tm_err tm__tcut_init(tm_ctx *ctx, const tm_comm *c, int64_t kmax, int64_t work, tm__tcut *out);
void tm__tcut_release(tm__tcut *t);
/* r_v(k): v's volume in direction x that leaves any set of k tasks holding
 * v (its row minus its k - 1 largest entries). */
double tm__tcut_r(const tm__tcut *t, int x, int32_t v, int64_t k);
/* The degree bound on the volume in direction x leaving a set of k tasks
 * (0 beyond the tables). */
double tm__tcut_phi(const tm__tcut *t, int x, int64_t k);
/* The same for a set of k tasks that holds task u. */
double tm__tcut_phi_u(const tm__tcut *t, int x, int32_t u, int64_t k);
/* Sum over tasks of the row's volumes in direction x, sorted decreasing,
 * times prof[0], prof[1], ... (nondecreasing, np entries; entries beyond np
 * count prof[np - 1]): the Gilmore-Lawler product. */
double tm__tcut_gl(const tm__tcut *t, int x, const double *prof, int32_t np);
/* Sum over tasks of r_v(c) in direction x (parts of at most c tasks). */
double tm__tcut_rsum(const tm__tcut *t, int x, int64_t c);

/* ---- flow.c --------------------------------------------------------------- */
/* Routes one unit from every source (all tasks of components of 2 or more
 * when the work limit allows, else an even sample) to every task of its
 * component over the task graph's shortest paths (split evenly) and sets
 * t->rho, t->r, t->src_comp, t->n_big, t->n_iso. */
tm_err tm__flow_certificate(tm_ctx *ctx, tm__tcut *t, int64_t work);
/* The flow bound on the symmetric cut of a set of k tasks (0: none). */
double tm__flow_phi(const tm__tcut *t, int64_t k);
/* The flow bound on the volume crossing a partition into parts of at most
 * c tasks (0: none). */
double tm__flow_part(const tm__tcut *t, int64_t c);

/* ---- grid.c --------------------------------------------------------------- */
/* Recognises the task graph of c (t's symmetric graph) as a torus or mesh,
 * checked edge by edge, into t->grid (d = 0 when it is not one). */
tm_err tm__tgrid_detect(tm_ctx *ctx, const tm_comm *c, tm__tcut *t);
/* The isoperimetric bound on the volume leaving (or entering) a set of k
 * tasks of the grid (0 without a grid). */
double tm__tgrid_out(const tm__tcut *t, int64_t k);
/* ... on the volume between the parts of a partition into parts of at most
 * c tasks. */
double tm__tgrid_part(const tm__tcut *t, int64_t c);

/* ---- phi.c ---------------------------------------------------------------- */
/* Lower bounds on the volume leaving (TM__OUT), entering (TM__IN) or
 * crossing both ways (TM__SYM) a set of k tasks, by every method (degree
 * bound of the set and of its complement, flow certificate). */
double tm__phi(const tm__tcut *t, int x, int64_t k);
/* The same for a set holding task u. */
double tm__phi_u(const tm__tcut *t, int x, int32_t u, int64_t k);
/* Lower bound on the directed volume between parts of a partition of the
 * tasks into parts of at most c tasks. */
double tm__phi_part(const tm__tcut *t, int64_t c);
/* The least congestion a set of k tasks forces on a cut of out / in
 * capacity cout / cin (INFINITY when a capacity is 0 and its volume not). */
double tm__phi_need(const tm__tcut *t, int64_t k, double cout, double cin);
/* The least of tm__phi_need over k in [lo, hi] (a valid lower bound; exact
 * on short ranges, the methods' minima taken apart on long ones). */
double tm__phi_need_min(const tm__tcut *t, int64_t lo, int64_t hi, double cout, double cin);
/* The least of tm__phi(TM__SYM) over k in [lo, hi], likewise. */
double tm__phi_sym_min(const tm__tcut *t, int64_t lo, int64_t hi);

/* ---- ncut.c --------------------------------------------------------------- */
/* A class of groups with the same task capacity and cut capacities. */
typedef struct tm__ngroup {
    int64_t cap;          /* tasks the group's hosts hold at most */
    double cout, cin;     /* capacity of the links leaving / entering it */
    int64_t mult;         /* groups of the class */
} tm__ngroup;
/* A partition of the allocated hosts into groups (hosts, a detected level). */
typedef struct tm__npart {
    int method;           /* TM__M_INJECTION (hosts) or TM__M_LEVELS */
    char name[16];        /* "host" or the level's name */
    double coef;          /* its coefficient in the sum of volume x hops */
    int64_t maxcap;       /* the largest group's capacity */
    int n;
    tm__ngroup *g;
} tm__npart;
/* A cut of the network: a grid slab (torus or mesh planes). */
typedef struct tm__nset {
    int64_t lo, hi;       /* tasks its side holds at least / at most */
    double cout, cin;
    double coef;          /* its coefficient in the sum of volume x hops */
} tm__nset;
typedef struct tm__ncut {
    int64_t n_tasks, total_cap;
    int nparts;
    tm__npart part[TM_NET_MAX_LEVELS + 1];
    int64_t nsets;
    tm__nset *set;        /* grid slabs; NULL when the grid does not qualify */
    double *prof;         /* the ball profile: prof[i - 1] = least hops to the i-th
                           * nearest other task position; NULL: not computed */
    int32_t nprof;
    double link_cap;      /* capacity of all enabled directed links */
} tm__ncut;
/* The network's side of problem p: caps = slots x tasks_per_slot (at most
 * n) per allocated host; positions = how much of the ball profile to
 * compute (the longest task row). */
tm_err tm__ncut_build(tm_ctx *ctx, const tm_problem *p, int32_t tasks_per_slot,
                      int32_t positions, int64_t work, tm__ncut *out);
void tm__ncut_release(tm__ncut *nc);

/* ---- cong.c --------------------------------------------------------------- */
/* Congestion bounds by method: out[TM__M_INJECTION], [LEVELS], [SLABS]
 * (NAN when the method does not apply); the volume bound is added by the
 * caller from the distance bound. */
void tm__cong_bounds(const tm__tcut *t, const tm__ncut *nc, double out[TM__M_N]);

/* ---- dist.c --------------------------------------------------------------- */
/* Network mode: lower bounds on the sum of volume x hops by method
 * (out[TM__M_PROFILE], [LEVELS], [SLABS]; NAN: not applicable). */
void tm__dist_sum_bounds(const tm__tcut *t, const tm__ncut *nc, double out[TM__M_N]);
/* Network mode with a node hierarchy: the lower bound on the part of J its
 * levels add (docs/design.md "QAP cost J"). */
double tm__dist_node_J(const tm__tcut *t, const tm_hier *h, int32_t max_slots,
                       int32_t tasks_per_slot);
/* Hierarchy mode: J bounds by method (out[TM__M_PROFILE], [LEVELS]). */
tm_err tm__dist_hier_J(tm_ctx *ctx, const tm__tcut *t, const tm_hier *h, int32_t tasks_per_pe,
                       double out[TM__M_N]);

#endif
