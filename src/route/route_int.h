/*
 * route_int.h - the router module's internal interface (never installed).
 *
 * route.c holds the public API and dispatches through a tm__route_ops
 * table; every routing model is one file providing one table (ecmp.c,
 * single.c, dor.c, and the forwarding-table models lft.c, ftree.c and
 * minhop.c, which share fwd.c).  A new model is one more file plus one line
 * in route.c.
 *
 * dag.c is shared by the shortest-path models: a lazily grown BFS
 * shortest-path DAG per source host (dist, sigma = number of minimum-hop
 * paths), cached per workspace in a small LRU, and a level-synchronous
 * backward sweep that visits only the ancestors of the destinations.
 *
 * Link ids: cable c is links 2c (a -> b) and 2c+1 (b -> a) (net.h), so the
 * reverse of link l is l ^ 1; the sweep uses that to turn the CSR out-links
 * of v into the in-links of v.
 */
#ifndef TM_ROUTE_INT_H
#define TM_ROUTE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "topomap/route.h"

typedef struct tm__route_ops {
    const char *name;
    /* Validates the net and precomputes read-only data into r->priv. */
    tm_err (*init)(tm_ctx *ctx, tm_route *r);
    void (*fini)(tm_route *r);
    /* Per-thread state in ws->priv (may stay NULL). */
    tm_err (*ws_init)(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws);
    void (*ws_fini)(tm_route_ws *ws);
    /* Same contract as tm_route_flows; arguments already validated
     * (src and every dst are host ids, dst[i] != src not guaranteed). */
    tm_err (*flows)(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, int32_t src, size_t k,
                    const int32_t *dst, const double *vol, double *load, int32_t *hops);
    int32_t (*hops)(const tm_route *r, tm_route_ws *ws, int32_t src, int32_t dst);
    /* flows() also accepts any vertex as the source, and the paths of a
     * stub host (route_eval.h) are its cable followed by the paths from
     * its switch: true for the minimum-hop DAG models. */
    bool stub_sources;
    /* Paths may be longer than minimum-hop (valiant, ugal): a flow's hops
     * are its longest path, and the mean hops come from the loads. */
    bool nonminimal;
} tm__route_ops;

struct tm_route {
    const tm_net *net;
    const tm_net_csr *g;
    tm_route_kind kind;
    const tm__route_ops *ops;
    void *priv;
    tm_route_opts opts; /* lft_dir and roots are valid during init only */
    bool striped;       /* multi-rail hosts stripe over their rails (rails.c) */
};

struct tm_route_ws {
    const tm_route *r;
    void *priv;
};

extern const tm__route_ops tm__route_ecmp_ops;
extern const tm__route_ops tm__route_single_ops;
extern const tm__route_ops tm__route_dor_ops;
extern const tm__route_ops tm__route_lft_ops;
extern const tm__route_ops tm__route_ftree_ops;
extern const tm__route_ops tm__route_minhop_ops;
extern const tm__route_ops tm__route_updn_ops;
extern const tm__route_ops tm__route_valiant_ops;
extern const tm__route_ops tm__route_ugal_ops;

/* rails.c: multi-rail hosts (docs/routing.md "Multi-rail hosts").
 * Whether r stripes (an ecmp or single router on a net with a multi-rail
 * host), whether source v is striped by r, and the striped flows and hop
 * count of such a source (same contracts as the ops' flows and hops; the
 * destinations may be any vertices; hops = the longest part's). */
bool tm__rails_striped(const tm_route *r);
bool tm__rails_of(const tm_route *r, int32_t v);
tm_err tm__rails_flows(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, int32_t src, size_t k,
                       const int32_t *dst, const double *vol, double *load, int32_t *hops);
int32_t tm__rails_hops(const tm_route *r, tm_route_ws *ws, int32_t src, int32_t dst);

/* valiant.c, for ugal.c: ECMP minimal flows with a valiant/ugal
 * workspace, and the dragonfly group of a vertex. */
tm_err tm__valiant_minimal(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, int32_t src,
                           size_t k, const int32_t *dst, const double *vol, double *load,
                           int32_t *hops);
int32_t tm__valiant_group(const tm_route *r, int32_t v);
int32_t tm__valiant_n_groups(const tm_route *r);
/* The share of a unit flow src -> dst that Valiant sends through group x
 * (1 / the number of its intermediate groups, or nothing if x is not one
 * of them), added to load; *hops: the longest of those paths (0 if none). */
tm_err tm__valiant_via(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, int32_t src, int32_t dst,
                       int32_t x, double *load, int32_t *hops);
/* dfgroups.c: grp[v] = the dragonfly group of every vertex (n entries),
 * from all cables, failed ones too; TM_EUSAGE naming r's model if the net
 * is not a dragonfly of at least 3 groups. */
tm_err tm__dragonfly_groups(tm_ctx *ctx, const tm_route *r, int32_t *grp, int32_t *n_groups);

/* The fat-tree structure (src/net/ftclass.h) an ECMP router found in its
 * net, or NULL (ecmp.c; the class totals of route_eval.c use it). */
struct tm__ftclass;
const struct tm__ftclass *tm__route_ftclass(const tm_route *r);

/* ---- fwd.c: forwarding tables (lft, ftree, minhop) ------------------------
 * One linear forwarding table per switch: out[s * n_lid + lid] is the
 * port switch s forwards destination LID lid to.  A flow follows the
 * tables hop by hop from its source host's cable to the destination's
 * base LID, so it takes exactly one path. */
#define TM__FWD_NONE 0xffffu     /* no entry for this LID */
#define TM__FWD_CONFLICT 0xfffeu /* the table lists the LID twice, differently */
typedef struct tm__fwd {
    int32_t n_sw;
    int32_t *sw_of;      /* vertex -> switch index, -1 */
    int32_t *vertex_of;  /* switch index -> vertex */
    uint32_t n_lid;      /* LIDs 0 .. n_lid - 1 */
    uint16_t *out;       /* n_sw * n_lid */
    int32_t *line;       /* n_sw * n_lid: line of the entry in its file (lft only) */
    char **file;         /* per switch: its table's file, NULL = no table (lft only) */
    bool *has_table;     /* per switch */
    int32_t *port_link;  /* n_sw * 256: directed link out of port p, -1 = no cable */
    int32_t *first_link; /* per vertex: a host's link out of its base LID's port, -1 */
    uint32_t *dlid;      /* per vertex: base LID (0 = none) */
    int32_t *link_port;  /* per directed link: port number at its tail if a switch, else 0 */
    bool synthetic;      /* LIDs and ports made up (net without complete addressing) */
    uint8_t *dlmc;       /* per vertex: LMC of its LID, when flows are spread (else NULL) */
    int32_t *lid_off;    /* per vertex + 1: offsets into lids */
    uint32_t *lids;      /* per host: the base LID of each of its ports, ascending */
} tm__fwd;

/* Allocates the tables of every switch of r->net (all entries NONE) and
 * the port -> link maps; needs LIDs and cable ports in the net. */
tm_err tm__fwd_new(tm_ctx *ctx, const tm_route *r, bool with_lines, tm__fwd **out);
/* For computed tables: the net's LIDs and ports if every host, switch and
 * switch cable has them, else synthetic ones (hosts get LIDs 1..H in
 * vertex order, then switches; a switch's ports are numbered 1.. in its
 * cable order). */
tm_err tm__fwd_new_computed(tm_ctx *ctx, const tm_route *r, tm__fwd **out);
/* Sets switch s's entry for LID lid to the port of its out-link l. */
static inline void tm__fwd_set(tm__fwd *f, int32_t s, uint32_t lid, int32_t l)
{
    f->out[(size_t)s * f->n_lid + lid] = (uint16_t)f->link_port[l];
}
/* sm_common.c: what the emulated subnet managers share.  The hosts whose
 * LID port is cabled to switch vertex t, as t's out-links to them sorted
 * by t's port number (*n of them; out has room for t's degree). */
void tm__sm_leaf_hosts(const tm_route *r, const tm__fwd *f, int32_t t, int32_t *out, int32_t *n);
/* Switch vertices by decreasing number of host cables, ties by GUID, then
 * vertex id (OpenSM's sort_ports_by_switch_load over its GUID-ordered
 * switch table). */
tm_err tm__sm_switch_order(tm_ctx *ctx, const tm_route *r, const tm__fwd *f, int32_t **order);
/* BFS over switches only (hosts never forward) from the n switch vertices
 * src: dist[v] = hops from the nearest source, -1 if unreached; queue has
 * room for every vertex.  The hop tables of minhop and updn and updn's
 * ranks. */
void tm__sm_switch_bfs(const tm_route *r, const tm__fwd *f, const int32_t *src, int32_t n,
                       int32_t *dist, int32_t *queue);
/* OpenSM's table builder (osm_ucast_mgr.c ucast_mgr_process_tbl with
 * osm_switch_recommend_path), shared by minhop and updn, which differ only
 * in their hop tables.  Destination hosts come leaf by leaf in
 * tm__sm_switch_order, port order on each leaf; for each leaf t, hops(ud,
 * t, phop) fills phop[l], for every directed link l out of a switch, with
 * the hop count from l's tail to t through l (TM__SM_NO_PATH if the engine
 * allows none).  Every switch then forwards the host's LID out of the
 * least-hop port that already carries the fewest routes (lowest port on a
 * tie) and counts the route there.  Marks every switch as having a table. */
#define TM__SM_NO_PATH INT32_MAX
typedef void (*tm__sm_hops_fn)(void *ud, int32_t t, int32_t *phop);
tm_err tm__sm_build_tables(tm_ctx *ctx, const tm_route *r, tm__fwd *f, tm__sm_hops_fn hops,
                           void *ud);
void tm__fwd_free(tm__fwd *f);
/* --lmc-spread: keeps every vertex's LMC so that a flow is split over the
 * destination's 2^LMC LIDs (each followed through the tables). */
tm_err tm__fwd_spread(tm_ctx *ctx, const tm_route *r, tm__fwd *f);
/* Ops helpers shared by the table-driven models (r->priv is a tm__fwd). */
void tm__fwd_fini(tm_route *r);
tm_err tm__fwd_flows(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws, int32_t src, size_t k,
                     const int32_t *dst, const double *vol, double *load, int32_t *hops);
int32_t tm__fwd_hops(const tm_route *r, tm_route_ws *ws, int32_t src, int32_t dst);
/* The ops table of a forwarding-table router: only the way its tables are
 * made (init) differs between lft, ftree and minhop. */
#define TM__FWD_OPS(NAME, INIT)                                                                \
    {                                                                                          \
        .name = (NAME), .init = (INIT), .fini = tm__fwd_fini, .ws_init = NULL, .ws_fini = NULL, \
        .flows = tm__fwd_flows, .hops = tm__fwd_hops, .stub_sources = false,                   \
    }
/* lft_read.c: fills f from the ibroute files of a directory / one file. */
tm_err tm__lft_read_dir(tm_ctx *ctx, const tm_route *r, tm__fwd *f, const char *dir);
tm_err tm__lft_read_file(tm_ctx *ctx, const tm_route *r, tm__fwd *f, FILE *in, const char *name);

/* ---- dag.c: cached per-source shortest-path DAGs --------------------------- */

/* BFS state of one source, grown level by level only as far as the
 * destinations asked for so far need (a 7-point stencil on a torus only
 * ever expands level 0).  Invariant: every vertex with dist <= level_done
 * is discovered, has its final dist and sigma, and all vertices with
 * dist < level_done are expanded.
 *
 * The last level is never expanded for a destination: a destination t at
 * distance level_done + 1 is "peeked" instead, i.e. its dist and sigma
 * are taken from its own neighbours at level_done (their sigma is final).
 * That avoids the most expensive expansion (on PERCS, level 2 reaches
 * almost the whole network).  Peeked vertices are kept at the end of
 * order[] (order[n-1], order[n-2], ...) and undone before the next
 * expansion, which then discovers them properly. */
typedef struct tm__dag {
    int32_t src;        /* -1: empty entry */
    int32_t *dist;      /* n; -1 = not discovered */
    double *sigma;      /* n; number of minimum-hop paths from src */
    int32_t *order;     /* discovered vertices in BFS order; peeked ones at the end */
    int32_t n_order;
    int32_t n_peek;
    int32_t n_expanded; /* order[0..n_expanded) expanded */
    int32_t level_done;
    bool exhausted;     /* nothing more can be discovered */
    uint64_t last_use;
} tm__dag;

/* Workspace of the shortest-path routers. */
typedef struct tm__dagws {
    const tm_net_csr *g;
    int n_cache;         /* capacity of the LRU */
    int n_alloc;         /* entries allocated so far (lazily) */
    tm__dag *cache;
    int32_t *entry_of;   /* n: cache entry holding the DAG of a source, -1 */
    uint64_t clock;
    /* sweep scratch */
    double *flow;       /* n, zero between calls */
    uint32_t *stamp;    /* n */
    uint32_t gen;
    int32_t *cur, *next; /* n each: vertex lists of two levels */
    int32_t *idx, *tmp;  /* destination sort scratch */
} tm__dagws;

tm_err tm__dagws_new(tm_ctx *ctx, const tm_net_csr *g, tm__dagws **out);
void tm__dagws_free(tm__dagws *w);
/* The DAG of src (from the cache or a fresh BFS of level 0). */
tm__dag *tm__dag_get(tm__dagws *w, int32_t src);
/* Grows the DAG until dst has its final dist and sigma; returns dist[dst]
 * or -1 if dst cannot be reached through transit vertices. */
int32_t tm__dag_reach(const tm_net_csr *g, tm__dag *d, int32_t dst);
/* Ops-table helpers of the DAG-based models (ws->priv is a tm__dagws). */
tm_err tm__dag_ws_init(tm_ctx *ctx, const tm_route *r, tm_route_ws *ws);
void tm__dag_ws_fini(tm_route_ws *ws);
int32_t tm__dag_hops(const tm_route *r, tm_route_ws *ws, int32_t src, int32_t dst);
/* Fails with TM_EINPUT naming both hosts, or fills hops; grows the DAG. */
tm_err tm__dag_reach_all(tm_ctx *ctx, const tm_route *r, tm__dag *d, size_t k,
                         const int32_t *dst, int32_t *hops);

/* How the backward sweep splits the flow of v over its in-links. */
typedef enum {
    TM__SPLIT_ECMP,  /* in proportion sigma(u) / sigma(v) */
    TM__SPLIT_LOWEST /* all of it over the in-link with the lowest id */
} tm__split;
/* Adds the flows vol[i] src -> dst[i] to load (all dst reached already).
 * Visits only the ancestors of the destinations: O(area of the DAG between
 * src and the destinations). */
void tm__dag_sweep(tm__dagws *w, const tm__dag *d, tm__split split, size_t k, const int32_t *dst,
                   const double *vol, double *load);
/* Lists the DAG ancestors of dst (dst itself first, src last, by
 * non-increasing dist) into out (n entries); returns their count.  Used
 * by the approximate congestion (Hoefler & Snir Algorithm 3). */
int32_t tm__dag_ancestors(tm__dagws *w, const tm__dag *d, int32_t dst, int32_t *out);

/* Is u -> v (CSR out-link j of v reversed) an edge of the DAG of d? */
static inline bool tm__dag_is_pred(const tm_net_csr *g, const tm__dag *d, int32_t u, int32_t dv)
{
    return d->dist[u] == dv - 1 && (u == d->src || g->transit[u]);
}

#endif
