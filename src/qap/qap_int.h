/* qap_int.h - internals of the hierarchical QAP mapper (src/qap/): the
 * fast distance oracle and the network PE space.  The strategy/refiner
 * entry points registered in src/pipeline/registry.c are declared in
 * src/mapping/strategies.h.  The task graph (src/graph/sgraph.h) and the
 * METIS partitioning under caps (src/graph/partition.h) are src/graph's.
 * Not installed. */
#ifndef TM_QAP_INT_H
#define TM_QAP_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "topomap/map.h"
#include "topomap/netdist.h"
#include "../graph/partition.h" /* tm__metis_part_caps */
#include "../graph/sgraph.h"
#include "../mapping/strategies.h"
#include "../net/netdist_int.h"
#include "../util/util.h"

/* The task graph is src/graph/sgraph.h, built with vertex weights
 * (TM__SG_VERTEX_WEIGHTS: vw[u] = task weight, 1 if G has none);
 * quotients are contracted with unsorted rows.  J(G) = 0.5 * sum over
 * entries of w * dist. */

/* Network-mode PE space (qap_net.c): the PEs are the slots of the
 * allocated hosts, numbered host by host in allocation order (PE =
 * host_pe0[i] + slot), and the distance is the network-mode J of
 * docs/qap.md: d_node(slots) on one host, d_top + c_hop * hops between
 * hosts, hops from the exact hop-distance oracle (src/net/netdist.c). */
#define TM__QGRID_DIMS 4

typedef struct tm__qnet {
    const tm_netdist *hd;   /* hops between allocation indices */
    tm_netdist *own_hd;     /* hd when built here (freed by tm__qnet_release) */
    int32_t n_hosts;        /* allocation size */
    int64_t n_pe;           /* total slots */
    int32_t *pe_host;       /* PE -> allocation index */
    int32_t *pe_slot;       /* PE -> slot on its host */
    int64_t *host_pe0;      /* allocation index -> first PE (n_hosts + 1) */
    int32_t *aidx;          /* net vertex -> allocation index or -1 */
    const int32_t *host_vertex; /* allocation index -> net vertex (the alloc's array) */
    const tm_hier *node;    /* node-internal levels or NULL */
    double d_top, c_hop;
    /* The hops obey the triangle inequality: every allocated host is a
     * transit vertex or hangs off one vertex only (a dual-homed host that
     * does not forward could be a shortcut no path may take). */
    bool hops_metric;
    /* At most the distance of any two distinct PEs (INFINITY: one PE):
     * exact on tori and trees of one-slot hosts, for the lower bound of
     * J that tm__qap_at_lower_bound checks. */
    double d_min;
    /* On a healthy torus or mesh of at most TM__QGRID_DIMS dimensions: the
     * grid coordinates of every PE, TM__QGRID_DIMS int16 each (unused ones
     * 0), and per dimension the ring length (a large number on a line),
     * else NULL.  tm__qd answers from them: the gains of the local
     * searches ask a distance per neighbour, and the host, class and table
     * lookups of the oracle were a third of a default `map` of 1,728 tasks
     * on torus:12x12x12 (the table, 6 MB, misses the cache). */
    int16_t *pe_gc;
    int32_t gc_ring[TM__QGRID_DIMS];
} tm__qnet;

/* Distance oracle.  Hierarchy mode: when every level fan-out is a power
 * of two the level of two PEs is the highest differing bit of p ^ q (one
 * clz instead of k divisions); otherwise it falls back to tm_hier_dist.
 * Network mode (net != NULL): tm__qnet_d. */
typedef struct tm__qdist {
    const tm_hier *h;
    const tm__qnet *net;
    bool pow2;
    double bitd[64]; /* distance by highest differing bit */
    int64_t n_pe;
    int64_t group1;  /* hierarchy mode: PEs per lowest-level group */
    double d_min;    /* at most the distance of two distinct PEs (tm__qnet.d_min) */
    /* network mode on a grid: tm__qnet.pe_gc, gc_ring, d_top, c_hop, copied
     * here because the local searches keep the oracle by value (tm__ls.o)
     * and tm__qd then reads them without going through net */
    const int16_t *gc;
    int32_t gc_ring[TM__QGRID_DIMS];
    double d_top, c_hop;
    bool gc_hops;    /* d_top == 0 and c_hop == 1: the distance is the hops */
} tm__qdist;

void tm__qdist_init(tm__qdist *o, const tm_hier *h);
void tm__qdist_init_net(tm__qdist *o, const tm__qnet *q);

static inline double tm__qnet_d(const tm__qnet *q, int32_t p, int32_t r)
{
    int32_t hp = q->pe_host[p], hr = q->pe_host[r];
    if (hp == hr)
        return q->node ? tm_hier_dist(q->node, q->pe_slot[p], q->pe_slot[r]) : 0.0;
    return q->d_top + q->c_hop * (double)tm__netdist_hops(q->hd, hp, hr);
}

/* The ring (or line: ring is large) distance of two coordinates, without
 * a branch. */
static inline int32_t tm__qgrid_1d(int32_t a, int32_t b, int32_t ring)
{
    int32_t dx = a > b ? a - b : b - a, alt = ring - dx;
    return alt < dx ? alt : dx;
}

/* Always inlined: in the hot loops of the local searches a call costs more
 * than the grid distance itself (perf: 22 % of a default `map` of 1,728
 * tasks on torus:12x12x12 in the out-of-line copy GCC chose). */
__attribute__((always_inline)) static inline double tm__qd(const tm__qdist *o, int32_t p,
                                                           int32_t q)
{
    if (p == q)
        return 0.0;
    if (o->gc) {
        /* two PEs of one host have the same coordinates: the host's
         * levels below answer (as tm__qnet_d, whose figures these are) */
        const int16_t *a = o->gc + (size_t)p * TM__QGRID_DIMS;
        const int16_t *b = o->gc + (size_t)q * TM__QGRID_DIMS;
        int32_t h = tm__qgrid_1d(a[0], b[0], o->gc_ring[0]) +
                    tm__qgrid_1d(a[1], b[1], o->gc_ring[1]) +
                    tm__qgrid_1d(a[2], b[2], o->gc_ring[2]) +
                    tm__qgrid_1d(a[3], b[3], o->gc_ring[3]);
        if (h > 0) /* hop units (no node levels): the same double */
            return o->gc_hops ? (double)h : o->d_top + o->c_hop * (double)h;
    }
    if (o->net)
        return tm__qnet_d(o->net, p, q);
    if (o->pow2)
        return o->bitd[31 - __builtin_clz((uint32_t)(p ^ q))];
    return tm_hier_dist(o->h, p, q);
}

/* True when a one-to-one swap between PEs p and q cannot change J: same
 * lowest-level group (network mode: same host and same lowest node group,
 * or same host when there are no node levels). */
static inline bool tm__qsame(const tm__qdist *o, int32_t p, int32_t q)
{
    if (o->net) {
        const tm__qnet *n = o->net;
        if (n->pe_host[p] != n->pe_host[q])
            return false;
        return !n->node || n->pe_slot[p] / n->node->group[1] == n->pe_slot[q] / n->node->group[1];
    }
    return p / o->group1 == q / o->group1;
}

/* Builds the PE space of a network-mode problem (p->net, p->alloc, node
 * levels p->hier, hop distance p->hop_distance as in tm_metrics_opts).  The
 * hop oracle is p->dist when given, else built here. */
tm_err tm__qnet_build(tm_ctx *ctx, const tm_problem *p, tm__qnet *q);
void tm__qnet_release(tm__qnet *q);
/* What every network-mode entry point sets up: the PE space, the task
 * graph with unit task weights (one task per slot) and a PE array. */
typedef struct tm__qnet_job {
    tm__qnet q;
    tm__sgraph g;
    tm__qdist o;
    int32_t *pe;
} tm__qnet_job;
tm_err tm__qnet_job_init(tm_ctx *ctx, const tm_problem *p, tm__qnet_job *j);
void tm__qnet_job_release(tm__qnet_job *j);

/* Mapping conversions (one-to-one: distinct slots). */
tm_err tm__qnet_to_pe(tm_ctx *ctx, const tm__qnet *q, const tm_mapping *m, int32_t *pe);
void tm__qnet_from_pe(const tm__qnet *q, const int32_t *pe, tm_mapping *m);

/* J = sum over directed entries of G of w * dist(pe[u], pe[v]). */
double tm__qap_eval(const tm_comm *c, const tm_hier *h, const int32_t *pe);
/* Same on the symmetric view (equal to the above). */
double tm__qap_eval_sym(const tm__sgraph *g, const tm__qdist *o, const int32_t *pe);
/* The least distance of two PEs under one parent in h (INFINITY: one PE). */
double tm__hier_dmin(const tm_hier *h);
/* True when every task's partners are at o->d_min, the least distance
 * two PEs can have (c[u], when not NULL, is task u's sum of weight x
 * distance): J is then at its lower bound, d_min times the volume, and
 * no swap or move can lower it. */
bool tm__qap_at_lower_bound(const tm__sgraph *g, const tm__qdist *o, const int32_t *pe,
                            const double *c);

/* Multisection along the hierarchy (Top-Down, one-to-one and general):
 * pe[u] for every task; bound = max weight per PE.  One-to-one, the top
 * split is the lowest-cut of top_tries METIS runs (<= 1: one). */
tm_err tm__qap_multisection(tm_ctx *ctx, const tm__sgraph *g, const tm_hier *h, double bound,
                            int top_tries, uint64_t seed, int32_t *pe);
/* Largest task weight one PE may carry, or a negative number when the
 * problem is one-to-one (then 1 per PE). */
double tm__qap_bound(const tm__sgraph *g, const tm_hier *h, double eps);
/* The same for n_pe PEs (network mode: the allocation's slots). */
double tm__qap_bound_pes(const tm__sgraph *g, int64_t n_pe, double eps);

/* Checks tasks vs PEs; sets *general when a many-to-one mapping is needed
 * and allowed (tasks > PEs and p->imbalance >= 0). */
tm_err tm__qap_check_problem(tm_ctx *ctx, const tm_problem *p, bool can_general, bool *general);

/* Swap local search on J; nbh "nc" (arg = depth D), "np" (arg = block
 * size), "n2".  pe[] is improved in place; never worse. */
tm_err tm__qap_local_search(tm_ctx *ctx, const tm__sgraph *g, const tm__qdist *o, double bound,
                            const char *nbh, int depth, uint64_t seed, int32_t *pe,
                            double *j_out);
/* The same with ils's number of kicks per task after nc:depth (< 0: the
 * default TM__ILS_KICKS; ignored by the other neighbourhoods). */
tm_err tm__qap_local_search_k(tm_ctx *ctx, const tm__sgraph *g, const tm__qdist *o, double bound,
                              const char *nbh, int depth, double kicks, uint64_t seed,
                              int32_t *pe, double *j_out);

/* Change of J if tasks u and v exchanged their PEs (the fast gain). */
double tm__qap_swap_delta(const tm__sgraph *g, const tm__qdist *o, const int32_t *pe, int32_t u,
                          int32_t v);

/* Network mode: Top-Down multisection along the network's PE tree
 * (qap_ptree.c, qap_netsection.c): one task per slot (bound < 0), or,
 * general mapping, task weight at most `bound` per slot (g->vw needed;
 * each child's cap is bound x its PEs; TM_EINFEASIBLE if METIS cannot
 * meet a cap). */
struct tm__ptree;
tm_err tm__qap_netsection(tm_ctx *ctx, const tm__sgraph *g, const struct tm__ptree *t,
                          const tm__qdist *o, double bound, uint64_t seed, int32_t *pe);
/* General mapping on a network: g (with task weights) cut into one block
 * per slot of p->alloc, block = slot index in allocation order, by the
 * multisection above (one trial per grid orientation, the best J kept). */
tm_err tm__qap_netsection_general(tm_ctx *ctx, const tm_problem *p, const tm__sgraph *g,
                                  double bound, uint64_t seed, int32_t *block);
tm_err tm__strategy_topdown_net(tm_ctx *ctx, const tm_problem *p, uint64_t seed, bool ils,
                                tm_mapping *out);
/* The path of topdown's trials on a grid: by size (big grids share their
 * splits, qap_secmemo.h, and run on the task graph renumbered), or, for
 * the tests, shared whatever the size, renumbered or in place (the
 * reference the renumbering must reproduce). */
typedef enum { TM__TD_AUTO, TM__TD_SHARED, TM__TD_SHARED_IN_PLACE } tm__td_path;
tm_err tm__topdown_net_path(tm_ctx *ctx, const tm_problem *p, uint64_t seed, bool ils,
                            tm__td_path path, tm_mapping *out);
/* Trial k of topdown alone (the auto pipeline runs them as rows of their
 * own, src/pipeline/run_auto.c): the multisection with seed + k x the
 * golden ratio and, on grids, the k-th rotation of the dimension
 * priorities.  Where topdown's trials share their splits (big grids),
 * trial 0 runs all of them, as topdown does, and the others leave *out
 * empty (n 0), as does a k beyond topdown's number of trials. */
tm_err tm__topdown_net_trial(tm_ctx *ctx, const tm_problem *p, uint64_t seed, int k,
                             tm_mapping *out);
/* grow's starts: how many the strategy runs (16; 2 above 8,192 tasks),
 * and the starts [first, first + count) alone, the best J kept (the
 * auto pipeline's grow rows; *out left empty when first is beyond them). */
int tm__grow_n_starts(const tm_problem *p);
tm_err tm__grow_starts(tm_ctx *ctx, const tm_problem *p, uint64_t seed, int first, int count,
                       tm_mapping *out);
/* grow's starts [first, first + count) on the job's skeleton, its heavy
 * edges (qap_skeleton.c); *out left empty when the job has no skeleton
 * lighter than itself, or when first is beyond grow's starts. */
tm_err tm__skeleton_starts(tm_ctx *ctx, const tm_problem *p, uint64_t seed, int first, int count,
                           tm_mapping *out);

#endif
