/*
 * net.c - the host network: vertex and cable storage, name lookup,
 * finalisation into an igraph multigraph plus a CSR snapshot of directed
 * links, and the connectivity check.
 *
 * Invariants after tm_net_finalize():
 *  - csr.off/head/link list, for every vertex, its out-links over enabled
 *    cables, in cable order (deterministic);
 *  - link 2c is a(c) -> b(c), link 2c+1 is b(c) -> a(c);
 *  - transit[v] is the effective transit flag (docs/design.md "Transit").
 */
#include <stdlib.h>
#include <string.h>

#include "net_int.h"
#include "../graph/bfs.h"
#include "../util/util.h"

struct tm_net {
    /* vertices */
    int32_t nv;
    size_t vcap;
    char **name;
    char **desc;
    uint8_t *kind;
    int32_t *slots;
    uint8_t *transit_pol;
    uint64_t *guid;
    tm__strmap names;
    int32_t n_hosts;
    /* cables */
    int32_t nc;
    size_t ccap;
    int32_t *ca, *cb;
    double *capacity;
    uint8_t *enabled;
    tm_net_grid grid;
    tm__net_addr *addr; /* InfiniBand LIDs and port numbers (net_addr.c) */
    /* finalized state */
    bool finalized;
    bool have_graph;
    igraph_t graph;
    int32_t *graph_cable; /* igraph edge -> cable */
    int32_t *part;        /* vertex -> connected part (igraph components) */
    int32_t n_parts;
    tm_net_csr csr;
    int32_t *off, *head, *link, *tail_of, *head_of;
    double *lcap;
    uint8_t *is_host, *transit;
};

tm_err tm_net_new(tm_ctx *ctx, tm_net **out)
{
    tm_net *net = calloc(1, sizeof *net);
    *out = NULL;
    if (!net)
        return tm__nomem(ctx);
    tm__strmap_init(&net->names);
    *out = net;
    return TM_EOK;
}

static void free_snapshot(tm_net *net)
{
    if (net->have_graph)
        igraph_destroy(&net->graph);
    net->have_graph = false;
    free(net->graph_cable);
    free(net->part);
    net->part = NULL;
    net->n_parts = 0;
    free(net->off);
    free(net->head);
    free(net->link);
    free(net->tail_of);
    free(net->head_of);
    free(net->lcap);
    free(net->is_host);
    free(net->transit);
    net->graph_cable = NULL;
    net->off = net->head = net->link = net->tail_of = net->head_of = NULL;
    net->lcap = NULL;
    net->is_host = net->transit = NULL;
    memset(&net->csr, 0, sizeof net->csr);
    net->finalized = false;
}

void tm__net_addr_free(tm__net_addr *a)
{
    if (!a)
        return;
    free(a->port_a);
    free(a->port_b);
    free(a->lid_owner);
    free(a->lid_port);
    free(a->base_lid);
    free(a->lmc);
    free(a);
}

void tm_net_free(tm_net *net)
{
    if (!net)
        return;
    free_snapshot(net);
    for (int32_t v = 0; v < net->nv; v++) {
        free(net->name[v]);
        free(net->desc[v]);
    }
    free(net->name);
    free(net->desc);
    free(net->kind);
    free(net->slots);
    free(net->transit_pol);
    free(net->guid);
    tm__strmap_release(&net->names);
    free(net->ca);
    free(net->cb);
    free(net->capacity);
    free(net->enabled);
    tm__net_addr_free(net->addr);
    free(net);
}

tm__net_addr **tm__net_addr_slot(tm_net *net) { return &net->addr; }
const tm__net_addr *tm__net_addr_get(const tm_net *net) { return net->addr; }

/* GROW(arr, cap): tm__grow of net->arr from capacity cap to need elements,
 * the new capacity in c (0, or -1 on overflow or out of memory).  Every
 * per-vertex (per-cable) array grows from the same capacity to the same new
 * one; after a failure the arrays grown so far keep their larger blocks and
 * the recorded capacity stays the old one. */
#define GROW(arr, cap) (c = (cap), tm__grow((void **)&net->arr, &c, need, sizeof *net->arr))

static int grow_vertices(tm_net *net, size_t need)
{
    size_t c;
    if (need <= net->vcap)
        return 0;
    if (GROW(name, net->vcap) < 0 || GROW(desc, net->vcap) < 0 || GROW(kind, net->vcap) < 0 ||
        GROW(slots, net->vcap) < 0 || GROW(transit_pol, net->vcap) < 0 ||
        GROW(guid, net->vcap) < 0)
        return -1;
    net->vcap = c;
    return 0;
}

static int grow_cables(tm_net *net, size_t need)
{
    size_t c;
    if (need <= net->ccap)
        return 0;
    if (GROW(ca, net->ccap) < 0 || GROW(cb, net->ccap) < 0 || GROW(capacity, net->ccap) < 0 ||
        GROW(enabled, net->ccap) < 0)
        return -1;
    net->ccap = c;
    return 0;
}
#undef GROW

tm_err tm_net_add_vertex(tm_ctx *ctx, tm_net *net, const char *name, tm_vertex_kind kind,
                         int32_t slots, int32_t *id_out)
{
    int32_t old;
    if (!name || !*name)
        return tm__fail(ctx, TM_EINPUT, "empty vertex name");
    if (slots < 0)
        return tm__fail(ctx, TM_EINPUT, "vertex '%s': negative slot count %d", name, slots);
    if (net->nv == INT32_MAX)
        return tm__fail(ctx, TM_EINPUT, "too many vertices");
    if (grow_vertices(net, (size_t)net->nv + 1) < 0)
        return tm__nomem(ctx);
    if (tm__strmap_put(&net->names, name, net->nv, &old) < 0)
        return tm__nomem(ctx);
    if (old >= 0)
        return tm__fail(ctx, TM_EINPUT, "duplicate vertex name '%s'", name);
    net->name[net->nv] = tm__strdup(name);
    if (!net->name[net->nv])
        return tm__nomem(ctx); /* the map entry stays; the net is unusable anyway */
    net->desc[net->nv] = NULL;
    net->kind[net->nv] = (uint8_t)kind;
    net->slots[net->nv] = kind == TM_VERTEX_SWITCH ? 0 : slots;
    net->transit_pol[net->nv] = TM_TRANSIT_DEFAULT;
    net->guid[net->nv] = 0;
    if (kind == TM_VERTEX_HOST)
        net->n_hosts++;
    if (id_out)
        *id_out = net->nv;
    net->nv++;
    net->finalized = false;
    return TM_EOK;
}

/* Also false for NaN. */
static bool capacity_ok(double c)
{
    return c >= TM_NET_MIN_CAPACITY && c <= TM_NET_MAX_CAPACITY;
}

tm_err tm_net_add_cable(tm_ctx *ctx, tm_net *net, int32_t a, int32_t b, double capacity,
                        int32_t *cable_out)
{
    if (a < 0 || b < 0 || a >= net->nv || b >= net->nv)
        return tm__fail(ctx, TM_EINPUT, "cable endpoint out of range");
    if (a == b)
        return tm__fail(ctx, TM_EINPUT, "cable from '%s' to itself", net->name[a]);
    if (!capacity_ok(capacity))
        return tm__fail(ctx, TM_EINPUT, "cable '%s' - '%s': capacity %g is not a number in "
                        "[%g, %g] Gbit/s", net->name[a], net->name[b], capacity,
                        TM_NET_MIN_CAPACITY, TM_NET_MAX_CAPACITY);
    if (net->nc >= INT32_MAX / 2)
        return tm__fail(ctx, TM_EINPUT, "too many cables");
    if (grow_cables(net, (size_t)net->nc + 1) < 0)
        return tm__nomem(ctx);
    net->ca[net->nc] = a;
    net->cb[net->nc] = b;
    net->capacity[net->nc] = capacity;
    net->enabled[net->nc] = 1;
    if (cable_out)
        *cable_out = net->nc;
    net->nc++;
    net->finalized = false;
    return TM_EOK;
}

/* Setters reject what the adders reject (TM_EUSAGE: the caller passed
 * it), so a net never holds a value tm_net_add_* would have refused. */
static tm_err bad_vertex(tm_ctx *ctx, const tm_net *net, int32_t v)
{
    return tm__fail(ctx, TM_EUSAGE, "vertex id %d is not in [0, %d)", v, net->nv);
}

static tm_err bad_cable(tm_ctx *ctx, const tm_net *net, int32_t c)
{
    return tm__fail(ctx, TM_EUSAGE, "cable id %d is not in [0, %d)", c, net->nc);
}

tm_err tm_net_set_transit(tm_ctx *ctx, tm_net *net, int32_t v, tm_transit t)
{
    if (v < 0 || v >= net->nv)
        return bad_vertex(ctx, net, v);
    if (t != TM_TRANSIT_DEFAULT && t != TM_TRANSIT_YES && t != TM_TRANSIT_NO)
        return tm__fail(ctx, TM_EUSAGE, "vertex '%s': unknown transit policy %d",
                        net->name[v], (int)t);
    net->transit_pol[v] = (uint8_t)t;
    net->finalized = false;
    return TM_EOK;
}

tm_err tm_net_set_slots(tm_ctx *ctx, tm_net *net, int32_t v, int32_t slots)
{
    if (v < 0 || v >= net->nv)
        return bad_vertex(ctx, net, v);
    if (slots < 0)
        return tm__fail(ctx, TM_EUSAGE, "vertex '%s': negative slot count %d", net->name[v],
                        slots);
    if (net->kind[v] != TM_VERTEX_HOST && slots != 0)
        return tm__fail(ctx, TM_EUSAGE, "switch '%s' cannot have slots (%d given)",
                        net->name[v], slots);
    net->slots[v] = slots;
    net->finalized = false;
    return TM_EOK;
}

void tm_net_set_guid(tm_net *net, int32_t v, uint64_t guid) { net->guid[v] = guid; }

tm_err tm_net_set_desc(tm_ctx *ctx, tm_net *net, int32_t v, const char *desc)
{
    char *d = desc ? tm__strdup(desc) : NULL;
    if (desc && !d)
        return tm__nomem(ctx);
    free(net->desc[v]);
    net->desc[v] = d;
    return TM_EOK;
}

tm_err tm_net_set_capacity(tm_ctx *ctx, tm_net *net, int32_t cable, double capacity)
{
    if (cable < 0 || cable >= net->nc)
        return bad_cable(ctx, net, cable);
    if (!capacity_ok(capacity)) /* as tm_net_add_cable */
        return tm__fail(ctx, TM_EUSAGE, "cable '%s' - '%s': capacity %g is not a number in "
                        "[%g, %g] Gbit/s", net->name[net->ca[cable]], net->name[net->cb[cable]],
                        capacity, TM_NET_MIN_CAPACITY, TM_NET_MAX_CAPACITY);
    net->capacity[cable] = capacity;
    if (net->lcap) { /* capacities do not change the structure */
        net->lcap[2 * cable] = capacity;
        net->lcap[2 * cable + 1] = capacity;
    }
    return TM_EOK;
}

void tm_net_set_cable_enabled(tm_net *net, int32_t cable, bool enabled)
{
    net->enabled[cable] = enabled ? 1 : 0;
    net->finalized = false;
}

void tm_net_set_grid(tm_net *net, const tm_net_grid *grid) { net->grid = *grid; }

static tm_err build_csr(tm_ctx *ctx, tm_net *net)
{
    int32_t n = net->nv, nl = 2 * net->nc, n_sw = 0;
    int32_t *fill = NULL;
    int64_t deg_total = 0;

    net->off = calloc((size_t)n + 1, sizeof *net->off);
    net->tail_of = tm__malloc_n((size_t)nl, sizeof *net->tail_of);
    net->head_of = tm__malloc_n((size_t)nl, sizeof *net->head_of);
    net->lcap = tm__malloc_n((size_t)nl, sizeof *net->lcap);
    net->is_host = tm__calloc_n((size_t)n, 1);
    net->transit = tm__calloc_n((size_t)n, 1);
    fill = tm__calloc_n((size_t)n + 1, sizeof *fill);
    if (!net->off || !net->tail_of || !net->head_of || !net->lcap || !net->is_host ||
        !net->transit || !fill)
        goto nomem;
    for (int32_t c = 0; c < net->nc; c++) {
        net->tail_of[2 * c] = net->ca[c];
        net->head_of[2 * c] = net->cb[c];
        net->tail_of[2 * c + 1] = net->cb[c];
        net->head_of[2 * c + 1] = net->ca[c];
        net->lcap[2 * c] = net->lcap[2 * c + 1] = net->capacity[c];
        if (net->enabled[c]) {
            net->off[net->ca[c] + 1]++;
            net->off[net->cb[c] + 1]++;
            deg_total += 2;
        }
    }
    for (int32_t v = 0; v < n; v++) {
        net->off[v + 1] += net->off[v];
        net->is_host[v] = net->kind[v] == TM_VERTEX_HOST;
        n_sw += net->kind[v] == TM_VERTEX_SWITCH;
    }
    for (int32_t v = 0; v < n; v++) {
        switch (net->transit_pol[v]) {
        case TM_TRANSIT_YES: net->transit[v] = 1; break;
        case TM_TRANSIT_NO: net->transit[v] = 0; break;
        default: net->transit[v] = net->kind[v] == TM_VERTEX_SWITCH || n_sw == 0; break;
        }
    }
    net->head = tm__malloc_n((size_t)deg_total, sizeof *net->head);
    net->link = tm__malloc_n((size_t)deg_total, sizeof *net->link);
    if (!net->head || !net->link)
        goto nomem;
    for (int32_t c = 0; c < net->nc; c++) {
        int32_t a = net->ca[c], b = net->cb[c], j;
        if (!net->enabled[c])
            continue;
        j = net->off[a] + fill[a]++;
        net->head[j] = b;
        net->link[j] = 2 * c;
        j = net->off[b] + fill[b]++;
        net->head[j] = a;
        net->link[j] = 2 * c + 1;
    }
    free(fill);
    net->csr.n = n;
    net->csr.n_links = nl;
    net->csr.off = net->off;
    net->csr.head = net->head;
    net->csr.link = net->link;
    net->csr.cap = net->lcap;
    net->csr.tail_of = net->tail_of;
    net->csr.head_of = net->head_of;
    net->csr.is_host = net->is_host;
    net->csr.transit = net->transit;
    net->csr.slots = net->slots;
    return TM_EOK;
nomem:
    free(fill);
    return tm__nomem(ctx);
}

static tm_err build_igraph(tm_ctx *ctx, tm_net *net)
{
    igraph_vector_int_t edges;
    tm__igraph_guard guard;
    igraph_error_t rc;
    int32_t m = 0;
    tm_err err = TM_EOK;

    net->graph_cable = tm__malloc_n((size_t)net->nc, sizeof *net->graph_cable);
    if (!net->graph_cable)
        return tm__nomem(ctx);
    tm__igraph_begin(ctx, &guard);
    rc = igraph_vector_int_init(&edges, 2 * (igraph_integer_t)net->nc);
    if (rc) {
        err = tm__igraph_err(ctx, rc, "building the network graph");
        goto out;
    }
    for (int32_t c = 0; c < net->nc; c++) {
        if (!net->enabled[c])
            continue;
        VECTOR(edges)[2 * m] = net->ca[c];
        VECTOR(edges)[2 * m + 1] = net->cb[c];
        net->graph_cable[m++] = c;
    }
    igraph_vector_int_resize(&edges, 2 * (igraph_integer_t)m); /* shrinking cannot fail */
    rc = igraph_create(&net->graph, &edges, net->nv, IGRAPH_UNDIRECTED);
    igraph_vector_int_destroy(&edges);
    if (rc) {
        err = tm__igraph_err(ctx, rc, "building the network graph");
        goto out;
    }
    net->have_graph = true;
out:
    tm__igraph_end(&guard);
    if (!err) {
        net->part = tm__malloc_n((size_t)net->nv + 1, sizeof *net->part);
        err = net->part ? tm__net_components(ctx, &net->graph, net->nv, net->part, &net->n_parts)
                        : tm__nomem(ctx);
    }
    return err;
}

tm_err tm_net_finalize(tm_ctx *ctx, tm_net *net)
{
    tm_err err;
    free_snapshot(net);
    err = build_csr(ctx, net);
    if (!err)
        err = build_igraph(ctx, net);
    if (err) {
        free_snapshot(net);
        return err;
    }
    net->finalized = true;
    return TM_EOK;
}

/* Hosts reached by a search from src (the transit rule of
 * src/graph/bfs.h); b->dist keeps the hop counts. */
static int32_t bfs_hosts(tm__bfs *b, int32_t src)
{
    int32_t reached = 0, n = tm__bfs_from(b, src);
    for (int32_t i = 0; i < n; i++)
        reached += b->g->is_host[b->queue[i]];
    return reached;
}

int32_t tm__csr_stub_of(const tm_net_csr *g, int32_t h)
{
    int32_t w;
    if (g->transit[h] || g->off[h] == g->off[h + 1])
        return h;
    w = g->head[g->off[h]];
    for (int32_t j = g->off[h] + 1; j < g->off[h + 1]; j++)
        if (g->head[j] != w)
            return h;
    return g->transit[w] ? w : h; /* no path continues through a non-transit w */
}

int32_t tm__csr_rails(const tm_net_csr *g, int32_t h)
{
    int32_t rails = 0;
    if (!g->is_host[h] || g->transit[h])
        return 0;
    for (int32_t j = g->off[h]; j < g->off[h + 1]; j++) {
        int32_t w = g->head[j];
        bool seen = false;
        if (!g->transit[w])
            return 0;
        /* a host has a handful of cables: quadratic is cheapest */
        for (int32_t i = g->off[h]; i < j && !seen; i++)
            seen = g->head[i] == w;
        rails += !seen;
    }
    return rails;
}

int32_t tm_net_host_rails(const tm_net *net, int32_t v)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    return g && v >= 0 && v < g->n ? tm__csr_rails(g, v) : 0;
}

/* Largest hop distance between two hosts of one part (part_hosts[p] =
 * hosts in part p), -1 if some host cannot reach another of its part.
 * One BFS per switch with stub hosts instead of one per host:
 * a stub host h of switch w is 1 + d(w, t) from every other host t (16x
 * fewer BFS on a fat-tree, 2.5 s instead of 39 s for 65,536 hosts).
 * dist and queue hold n entries; dist is reused as scratch. */
static int32_t host_diameter(const tm_net_csr *g, const int32_t *part, const int32_t *part_hosts,
                             int32_t *dist, int32_t *queue)
{
    int32_t diam = 0;
    tm__bfs b;
    tm__bfs_init(&b, g, dist, queue);
    for (int32_t v = 0; v < g->n; v++) {
        int32_t far = -1, own = 0, reached = 0, nvis;
        bool any = false;
        /* sources: every non-stub host, and every vertex with stub hosts */
        if (g->is_host[v] && tm__csr_stub_of(g, v) != v)
            continue;
        for (int32_t j = g->off[v]; j < g->off[v + 1] && !any; j++)
            any = g->is_host[g->head[j]] && tm__csr_stub_of(g, g->head[j]) == v;
        if (!g->is_host[v] && !any)
            continue;
        nvis = tm__bfs_from(&b, v);
        for (int32_t i = 0; i < nvis; i++) {
            int32_t u = queue[i];
            if (g->is_host[u]) {
                reached++;
                if (u != v && tm__csr_stub_of(g, u) == v)
                    own++;
                else if (u != v && dist[u] > far)
                    far = dist[u];
            }
        }
        if (reached < part_hosts[part[v]])
            return -1;
        if (g->is_host[v]) {
            diam = far > diam ? far : diam;
        } else {
            /* a stub host: 1 + the farthest other host from its switch
             * (another stub host of v is 2 away) */
            if (far >= 0 && far + 1 > diam)
                diam = far + 1;
            if (own >= 2 && diam < 2)
                diam = 2;
        }
    }
    return diam;
}

/* Names the hosts of part `part` that the BFS from src did not reach. */
static tm_err unreachable_error(tm_ctx *ctx, const tm_net *net, const int32_t *dist, int32_t src,
                                int32_t missing)
{
    char list[512];
    size_t len = 0;
    int32_t shown = 0;
    list[0] = '\0';
    for (int32_t v = 0; v < net->nv && shown < 8; v++) {
        if (net->is_host[v] && dist[v] < 0 && net->part[v] == net->part[src] &&
            len + strlen(net->name[v]) + 3 < sizeof list) {
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", shown ? ", " : "",
                                    net->name[v]);
            shown++;
        }
    }
    return tm__fail(ctx, TM_EINPUT,
                    "%d host(s) cannot be reached from host '%s' (cabled, but only through hosts "
                    "that do not forward traffic): %s%s",
                    missing, net->name[src], list, missing > shown ? ", ..." : "");
}

/* A network may fall into several parts (a failed cable or switch, an
 * isolated CA in a dump): that is reported by topo info and refused only
 * for a job that spans parts.  Inside one part every host must reach
 * every other through transit vertices, else the input is wrong: one BFS
 * from the first host of each part (parts are disjoint, so dist is
 * initialised once). */
tm_err tm_net_check(tm_ctx *ctx, const tm_net *net)
{
    const tm_net_csr *g = &net->csr;
    int32_t *dist = NULL, *queue = NULL, *hosts_in = NULL;
    tm__bfs b;
    tm_err err = TM_EOK;

    if (!net->finalized)
        return tm__fail(ctx, TM_EINTERNAL, "network not finalized");
    if (net->n_hosts == 0)
        return tm__fail(ctx, TM_EINPUT, "the network has no hosts");
    for (int32_t c = 0; c < net->nc; c++)
        if (net->ca[c] == net->cb[c] || !(net->capacity[c] > 0))
            return tm__fail(ctx, TM_EINTERNAL, "cable %d violates invariants", c);
    dist = tm__malloc_n((size_t)g->n, sizeof *dist);
    queue = tm__malloc_n((size_t)g->n, sizeof *queue);
    hosts_in = tm__calloc_n((size_t)net->n_parts + 1, sizeof *hosts_in);
    if (!dist || !queue || !hosts_in) {
        err = tm__nomem(ctx);
        goto out;
    }
    tm__bfs_init(&b, g, dist, queue);
    for (int32_t v = 0; v < g->n; v++)
        hosts_in[net->part[v]] += g->is_host[v];
    for (int32_t v = 0; v < g->n && !err; v++) {
        int32_t reached;
        if (!g->is_host[v] || hosts_in[net->part[v]] < 0)
            continue;
        reached = bfs_hosts(&b, v); /* dist of v's part is valid until the next search */
        if (reached < hosts_in[net->part[v]])
            err = unreachable_error(ctx, net, dist, v, hosts_in[net->part[v]] - reached);
        hosts_in[net->part[v]] = -1; /* part done */
    }
out:
    free(dist);
    free(queue);
    free(hosts_in);
    return err;
}

int32_t tm_net_n_parts(const tm_net *net) { return net->finalized ? net->n_parts : 0; }
int32_t tm_net_part(const tm_net *net, int32_t v) { return net->finalized ? net->part[v] : -1; }

int32_t tm_net_n_vertices(const tm_net *net) { return net->nv; }
int32_t tm_net_n_cables(const tm_net *net) { return net->nc; }
int32_t tm_net_n_hosts(const tm_net *net) { return net->n_hosts; }
int32_t tm_net_n_switches(const tm_net *net) { return net->nv - net->n_hosts; }

int64_t tm_net_total_slots(const tm_net *net)
{
    int64_t s = 0;
    for (int32_t v = 0; v < net->nv; v++)
        s += net->slots[v];
    return s;
}

int32_t tm_net_find(const tm_net *net, const char *name) { return tm__strmap_get(&net->names, name); }

int32_t tm__net_findn(const tm_net *net, const char *name, size_t len)
{
    return tm__strmap_getn(&net->names, name, len);
}
const char *tm_net_name(const tm_net *net, int32_t v) { return net->name[v]; }
const char *tm_net_desc(const tm_net *net, int32_t v) { return net->desc[v]; }
tm_vertex_kind tm_net_kind(const tm_net *net, int32_t v) { return (tm_vertex_kind)net->kind[v]; }
int32_t tm_net_slots(const tm_net *net, int32_t v) { return net->slots[v]; }
uint64_t tm_net_guid(const tm_net *net, int32_t v) { return net->guid[v]; }
tm_transit tm_net_transit_policy(const tm_net *net, int32_t v) { return (tm_transit)net->transit_pol[v]; }
bool tm_net_is_transit(const tm_net *net, int32_t v) { return net->transit && net->transit[v]; }

void tm_net_cable(const tm_net *net, int32_t cable, int32_t *a, int32_t *b)
{
    *a = net->ca[cable];
    *b = net->cb[cable];
}

double tm_net_capacity(const tm_net *net, int32_t cable) { return net->capacity[cable]; }
bool tm_net_cable_enabled(const tm_net *net, int32_t cable) { return net->enabled[cable]; }
const tm_net_grid *tm_net_grid_info(const tm_net *net) { return &net->grid; }
const tm_net_csr *tm_net_csr_get(const tm_net *net) { return net->finalized ? &net->csr : NULL; }
const igraph_t *tm__net_igraph(const tm_net *net) { return net->have_graph ? &net->graph : NULL; }
const int32_t *tm__net_igraph_cable(const tm_net *net) { return net->graph_cable; }

static int cmp_capclass(const void *a, const void *b)
{
    double x = ((const tm_net_capclass *)a)->capacity, y = ((const tm_net_capclass *)b)->capacity;
    return (x > y) - (x < y);
}

static int cmp_part(const void *a, const void *b)
{
    const int32_t *x = a, *y = b; /* (hosts, first host) pairs: larger first, then by host */
    return x[0] != y[0] ? (x[0] < y[0]) - (x[0] > y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* Hosts per part (count[p]) and the parts that hold hosts, largest first. */
static tm_err info_parts(tm_ctx *ctx, const tm_net *net, int32_t *count, tm_net_info *out)
{
    int32_t *pairs = tm__malloc_n(2 * (size_t)net->n_parts + 2, sizeof *pairs), k = 0;
    if (!pairs)
        return tm__nomem(ctx);
    for (int32_t p = 0; p < net->n_parts; p++)
        pairs[2 * p] = 0, pairs[2 * p + 1] = -1;
    for (int32_t v = 0; v < net->nv; v++) {
        int32_t p = net->part[v];
        if (!net->is_host[v])
            continue;
        count[p]++;
        if (pairs[2 * p + 1] < 0)
            pairs[2 * p + 1] = v;
    }
    for (int32_t p = 0; p < net->n_parts; p++)
        if (count[p] > 0)
            pairs[2 * k] = count[p], pairs[2 * k + 1] = pairs[2 * p + 1], k++;
    qsort(pairs, (size_t)k, 2 * sizeof *pairs, cmp_part);
    out->part_hosts = tm__malloc_n((size_t)k + 1, sizeof *out->part_hosts);
    out->part_first_host = tm__malloc_n((size_t)k + 1, sizeof *out->part_first_host);
    if (!out->part_hosts || !out->part_first_host) {
        free(pairs);
        return tm__nomem(ctx);
    }
    for (int32_t i = 0; i < k; i++)
        out->part_hosts[i] = pairs[2 * i], out->part_first_host[i] = pairs[2 * i + 1];
    out->parts = k;
    free(pairs);
    return TM_EOK;
}

static tm_err info_capclasses(tm_ctx *ctx, const tm_net *net, tm_net_info *out)
{
    out->capclasses = tm__calloc_n((size_t)net->nc + 1, sizeof *out->capclasses);
    if (!out->capclasses)
        return tm__nomem(ctx);
    for (int32_t c = 0; c < net->nc; c++) {
        int32_t k = 0;
        if (!net->enabled[c])
            continue;
        while (k < out->n_capclasses && out->capclasses[k].capacity != net->capacity[c])
            k++;
        if (k == out->n_capclasses) {
            out->capclasses[k].capacity = net->capacity[c];
            out->n_capclasses++;
        }
        out->capclasses[k].cables++;
    }
    qsort(out->capclasses, (size_t)out->n_capclasses, sizeof *out->capclasses, cmp_capclass);
    return TM_EOK;
}

tm_err tm_net_info_compute(tm_ctx *ctx, const tm_net *net, bool diameter, tm_net_info *out)
{
    const tm_net_csr *g = &net->csr;
    int32_t *dist = NULL, *queue = NULL, *count = NULL;
    tm_err err = TM_EOK;

    memset(out, 0, sizeof *out);
    if (!net->finalized)
        return tm__fail(ctx, TM_EINTERNAL, "network not finalized");
    out->hosts = net->n_hosts;
    out->switches = net->nv - net->n_hosts;
    out->slots = tm_net_total_slots(net);
    out->diameter = -1;
    for (int32_t c = 0; c < net->nc; c++)
        out->cables += net->enabled[c];
    count = tm__calloc_n((size_t)net->n_parts + 1, sizeof *count);
    if (!count) {
        err = tm__nomem(ctx);
        goto out;
    }
    err = info_capclasses(ctx, net, out);
    if (!err)
        err = info_parts(ctx, net, count, out);
    if (!err)
        err = tm__net_degree_stats(ctx, net->have_graph ? &net->graph : NULL, net->kind, net->nv,
                                   &out->host_degree, &out->switch_degree);
    if (err || !diameter)
        goto out;
    dist = tm__malloc_n((size_t)g->n, sizeof *dist);
    queue = tm__malloc_n((size_t)g->n, sizeof *queue);
    if (!dist || !queue) {
        err = tm__nomem(ctx);
        goto out;
    }
    out->diameter = host_diameter(g, net->part, count, dist, queue);
out:
    free(dist);
    free(queue);
    free(count);
    if (err)
        tm_net_info_release(out);
    return err;
}

void tm_net_info_release(tm_net_info *info)
{
    free(info->capclasses);
    free(info->part_hosts);
    free(info->part_first_host);
    memset(info, 0, sizeof *info);
}
