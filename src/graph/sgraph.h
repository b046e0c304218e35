/* sgraph.h - the symmetric weighted task graph every strategy works on
 * (not installed): the undirected view of a communication graph, its
 * induced subgraphs and its quotient graphs under a partition.  One type
 * for the network-mode strategies (src/construct/) and the QAP strategies
 * (src/qap/).
 *
 * CSR with both directions stored, no self-loops, no duplicate entries;
 * rows sorted by target unless built by an unsorted contraction.
 * w(u,v) = w(u->v) + w(v->u) of the communication graph.  Vertex weights
 * are optional: vw == NULL means "not kept" (a graph built without
 * TM__SG_VERTEX_WEIGHTS, or derived from one); then total_vw is 0.
 *
 * Why not tm_comm_symmetrize (public, src/comm/comm.c): it validates an
 * arbitrary caller-built tm_comm entry by entry and returns exact-size
 * public arrays without task weights as doubles, induced subgraphs or
 * quotients; the builders here assume a checked tm_comm (tm_map and the
 * readers check it) and add what the strategies need. */
#ifndef TM_GRAPH_SGRAPH_H
#define TM_GRAPH_SGRAPH_H

#include <stdbool.h>
#include <stdint.h>

#include "topomap/comm.h"

typedef struct tm__sgraph {
    int32_t n;
    int64_t *xadj; /* n+1 */
    int32_t *adj;
    double *w;
    double *vw;      /* n vertex weights, or NULL */
    double total_vw; /* sum of vw (0 without vw) */
} tm__sgraph;

/* Options of tm__sgraph_from_comm and tm__sgraph_contract. */
enum {
    /* from_comm: keep vw (the comm's task weights, 1 when it has none);
     * the QAP strategies balance weights, the network strategies place
     * unit tasks and do without */
    TM__SG_VERTEX_WEIGHTS = 1,
    /* from_comm: drop entries whose volume is not > 0 (they carry nothing
     * between hosts; the network strategies never see them, the QAP
     * strategies keep them as zero-weight edges, which METIS sees) */
    TM__SG_POSITIVE = 2,
    /* contract: rows sorted by block id, as the network strategies' METIS
     * input always was; without it rows list the blocks in the order they
     * are first reached (members in vertex order, their rows in order),
     * which is what the QAP strategies always gave METIS.  The row order
     * changes METIS's partitions, so each keeps its own. */
    TM__SG_SORTED_ROWS = 4,
};

void tm__sgraph_release(tm__sgraph *g);
/* The undirected view of c: rows sorted, parallel entries summed in the
 * order they are met (vertex order, then row order).  flags:
 * TM__SG_VERTEX_WEIGHTS, TM__SG_POSITIVE.  TM_EINPUT when a summed volume
 * overflows. */
tm_err tm__sgraph_from_comm(tm_ctx *ctx, const tm_comm *c, unsigned flags, tm__sgraph *out);
/* Subgraph of g induced by verts[0..cnt-1] (local ids = positions), rows
 * in g's order, vw kept when g has it.  local[] is scratch of g->n
 * entries, all -1 on entry and on return. */
tm_err tm__sgraph_induced(tm_ctx *ctx, const tm__sgraph *g, const int32_t *verts, int32_t cnt,
                          int32_t *local, tm__sgraph *out);
/* Quotient graph of g under part[] (k blocks): internal edges dropped,
 * the weights between two blocks summed in vertex order, vertex weights
 * summed when g has them.  flags: TM__SG_SORTED_ROWS. */
tm_err tm__sgraph_contract(tm_ctx *ctx, const tm__sgraph *g, const int32_t *part, int32_t k,
                           unsigned flags, tm__sgraph *out);
/* Frees a communication graph built here (tm__comm_heavy,
 * tm__comm_permute) and leaves it empty, as tm_comm_release does (this
 * layer does not call src/comm). */
void tm__comm_drop(tm_comm *c);
/* Sum of the weights at v (its "cumulative edge weight"). */
double tm__sgraph_wdeg(const tm__sgraph *g, int32_t v);
/* The search graph of the local searches (src/qap/qap_ls_int.h), of grow's
 * structure and of threshold accepting (src/ta/): the task graph's edges
 * of at least this share of the heaviest weight at the lighter endpoint
 * (tm__sgraph_heavy).  On the real traces of
 * ../shared/data/commmatrix/ the collectives are 1e-5 to 1e-9 of a rank's
 * heaviest message and go (AMG2013 1,000: 451 partners a rank on average,
 * 18 kept); a 3D code's edge neighbours (LULESH: 2e-2) and the lightest
 * neighbours of an SpMV (1e-2) stay, its corners (5e-4) are still met two
 * steps away; a job without light classes keeps all its edges. */
#define TM__SEARCH_RATIO 1e-3
/* The local searches compute their gains on the heavy edges too, and
 * threshold accepting its loads, when the light ones carry at most this
 * share of the volume (qap_ls_run.c, ta.c; tm__heavy_suffices); the answer is
 * checked on the whole job.  The traces' light edges carry 0 to 2.4e-3 of it. */
#define TM__LIGHT_WEIGHT 0.01
typedef struct tm__heavy_share {
    double edges, weight;
} tm__heavy_share;
/* Some edges were dropped, and they carry at most TM__LIGHT_WEIGHT of the
 * volume: a search may compute on the heavy edges alone. */
static inline bool tm__heavy_suffices(const tm__heavy_share *kept)
{
    return kept->edges < 1.0 && kept->weight >= 1.0 - TM__LIGHT_WEIGHT;
}
/* The heavy edges of g (sgraph_heavy.c): {u, v} is kept when its weight
 * is at least ratio x the heaviest weight at u or at v (the lighter of the
 * two endpoints' heaviest), so the relation stays symmetric and every
 * vertex keeps its heaviest edges.  Which edges are kept depends on the
 * weights only, never on the vertex numbering.  Rows in g's order, vw
 * copied.  The kept share of g's edges and of its total weight (each 1
 * when g has none). */
tm_err tm__sgraph_heavy(tm_ctx *ctx, const tm__sgraph *g, double ratio, tm__sgraph *out,
                        tm__heavy_share *kept);
/* The entries of communication graph c whose edge (both directions
 * summed) is heavy as above, each with its own direction and volume;
 * *kept as above (of c's undirected edges and volume). */
tm_err tm__comm_heavy(tm_ctx *ctx, const tm_comm *c, double ratio, tm_comm *out,
                      tm__heavy_share *kept);

#endif
