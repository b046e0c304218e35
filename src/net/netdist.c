/* netdist.c - the hop-distance oracle (netdist_int.h has the layout).
 *
 * Exact hops between allocated hosts: the shortest path whose inner
 * vertices are all transit (switches, hosts of direct networks), which is
 * what bfs_hosts in net.c and every shortest-path router count.  Hosts are
 * first grouped into classes (netdist_int.h), so that a fat-tree's distances
 * are a leaf x leaf table.  Then one of three backends, in this order:
 *
 *  - table: when classes^2 int16 fit the budget (512 MiB, ~16k classes).
 *    On a healthy grid only while small (TM__NETDIST_GRID_TABLE, 8 MiB):
 *    coordinates give the same numbers with no memory and no build time,
 *    and a lookup only beats them while the table stays in cache (4-6 ns
 *    against 7-8 ns a query; 24-31 ns for a 32 MiB table, docs/metrics.md).
 *  - grid: the net carries torus/mesh geometry that its cables match
 *    exactly (checked cable by cable, O(cables), no search) and the
 *    allocated hosts are grid vertices; hops are the sum over dimensions
 *    of the ring or line distance.  A 32x32x32 torus needs no 2 GiB table.
 *  - levels without a table: too many classes for the table, but the net
 *    is one of the fat-trees of net/ftclass.h (laminar and regular: every
 *    k-ary n-tree, XGFT and Clos the generators build, at any size).  There
 *    a path between leaves whose classes first meet at level L must climb
 *    to L (below it the classes are the connected parts), and the up-down
 *    paths through L exist, so D = 2 (L - 1) with no search at all
 *    (tm__ftclass_detect, O(links)).
 *  - rows: anything else too big for a table (> ~16k classes and no grid,
 *    e.g. a huge random network of transit hosts), or with a distance
 *    beyond int16 (a chain of 32,768 switches).  Rows of D (int32) are computed
 *    on demand by one BFS each and kept in a bounded direct-mapped cache.
 *    The cache is mutated by queries, so a mutex guards it: the oracle is
 *    shared read-only by the portfolio's threads, and this backend is rare
 *    enough that the lock is not worth avoiding.
 *
 * The table is filled by a bit-parallel breadth-first search: 64 class
 * vertices at once, one uint64_t of "reached from source s" bits per
 * vertex, frontiers propagated level by level out of transit vertices
 * (and out of each source itself, which may be a non-transit host).  A
 * batch costs about diameter x links word operations instead of 64 x links.
 * Hand-written: igraph_distances has no notion of vertices that may end a
 * path but not lie inside one, and on the graph that encodes the rule for
 * it (a sink copy of every non-transit host) it is 1.4-6.8x slower than a
 * plain CSR BFS for 256 rows in one call (a dense double matrix) and 5-39x
 * one row per call (tools/bench/bench_igraph_bfs.c, docs/performance.md:
 * 65,536-host fat-tree 0.87 s vs 0.13 s); the bit-parallel BFS here is
 * faster still. */
#include <stdlib.h>
#include <string.h>

#include "netdist_int.h"
#include "ftclass.h"
#include "../util/util.h"

/* ---- classes ------------------------------------------------------------ */

/* The vertex whose class host h joins at offset 1, or -1 if h is its own
 * class.  Every path from h starts h -> s when all of h's cables end at s,
 * and no shortest path passes through h (it would enter and leave through
 * s), so hops(h, x) = 1 + D(s, x) whether h is transit or not.  s must be
 * transit, or h -> s -> x would not be a path at all. */
static int32_t leaf_vertex(const tm_net_csr *g, int32_t h)
{
    int32_t s;
    if (g->off[h] == g->off[h + 1])
        return -1;
    s = g->head[g->off[h]];
    if (!g->transit[s])
        return -1;
    for (int32_t e = g->off[h] + 1; e < g->off[h + 1]; e++)
        if (g->head[e] != s)
            return -1;
    return s;
}

static tm_err make_classes(tm_ctx *ctx, tm_netdist *d, const tm_net *net, const tm_net_csr *g,
                           const int32_t *hosts)
{
    size_t m = (size_t)d->n;
    int32_t *vcls = tm__malloc_n((size_t)g->n, sizeof *vcls); /* vertex -> class */
    uint8_t *used = tm__calloc_n((size_t)g->n, 1);
    tm_err err = TM_EOK;

    d->cls = tm__malloc_n(m, sizeof *d->cls);
    d->off = tm__malloc_n(m, sizeof *d->off);
    d->cls_vertex = tm__malloc_n(m, sizeof *d->cls_vertex);
    if (!vcls || !used || !d->cls || !d->off || !d->cls_vertex) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t v = 0; v < g->n; v++)
        vcls[v] = -1;
    for (int32_t i = 0; i < d->n; i++) {
        int32_t h = hosts[i], s, c;
        if (h < 0 || h >= g->n || !g->is_host[h]) {
            err = tm__fail(ctx, TM_EUSAGE, "hop oracle: vertex %d is not a host", h);
            goto out;
        }
        if (used[h]++) {
            /* two indices of one host would be 2 hops apart on a leaf */
            err = tm__fail(ctx, TM_EUSAGE, "hop oracle: host '%s' is listed twice",
                           tm_net_name(net, h));
            goto out;
        }
        s = leaf_vertex(g, h);
        c = s >= 0 ? s : h;
        if (vcls[c] < 0) {
            vcls[c] = d->n_cls;
            d->cls_vertex[d->n_cls++] = c;
        }
        d->cls[i] = vcls[c];
        d->off[i] = s >= 0 ? 1 : 0;
    }
out:
    free(vcls);
    free(used);
    return err;
}

/* ---- table: bit-parallel BFS ---------------------------------------------- */

/* The part of the net the table's search walks: transit vertices, class
 * vertices and the cables between them.  A non-transit vertex that is not
 * a class vertex can neither carry nor end a path between class vertices,
 * so on a fat-tree the search runs over the switches only. */
typedef struct core {
    int32_t n;
    int32_t *off, *head;
    uint8_t *transit;
    int32_t *cls;    /* core vertex -> class or -1 */
    int32_t *of_cls; /* class -> core vertex */
} core;

static void core_free(core *cg)
{
    free(cg->off), free(cg->head), free(cg->transit), free(cg->cls), free(cg->of_cls);
}

static int core_build(core *cg, const tm_net_csr *g, const tm_netdist *d)
{
    int32_t *map = tm__malloc_n((size_t)g->n, sizeof *map); /* vertex -> core vertex */
    int64_t m = 0;
    int rc = -1;

    memset(cg, 0, sizeof *cg);
    cg->of_cls = tm__malloc_n((size_t)d->n_cls, sizeof *cg->of_cls);
    if (!map || !cg->of_cls)
        goto out;
    for (int32_t v = 0; v < g->n; v++)
        map[v] = g->transit[v];
    for (int32_t c = 0; c < d->n_cls; c++)
        map[d->cls_vertex[c]] = 1;
    for (int32_t v = 0; v < g->n; v++)
        map[v] = map[v] ? cg->n++ : -1;
    cg->off = tm__calloc_n((size_t)cg->n + 1, sizeof *cg->off);
    cg->transit = tm__malloc_n((size_t)cg->n, 1);
    cg->cls = tm__malloc_n((size_t)cg->n, sizeof *cg->cls);
    if (!cg->off || !cg->transit || !cg->cls)
        goto out;
    for (int32_t v = 0; v < g->n; v++)
        for (int32_t e = g->off[v]; map[v] >= 0 && e < g->off[v + 1]; e++)
            m += map[g->head[e]] >= 0;
    cg->head = tm__malloc_n((size_t)m, sizeof *cg->head);
    if (!cg->head)
        goto out;
    for (int32_t v = 0; v < g->n; v++) {
        int32_t u = map[v];
        if (u < 0)
            continue;
        cg->off[u + 1] = cg->off[u];
        cg->transit[u] = g->transit[v];
        cg->cls[u] = -1;
        for (int32_t e = g->off[v]; e < g->off[v + 1]; e++)
            if (map[g->head[e]] >= 0)
                cg->head[cg->off[u + 1]++] = map[g->head[e]];
    }
    for (int32_t c = 0; c < d->n_cls; c++) {
        cg->of_cls[c] = map[d->cls_vertex[c]];
        cg->cls[cg->of_cls[c]] = c;
    }
    rc = 0;
out:
    free(map);
    return rc;
}

/* Search state over the core: per vertex the sources that reached it
 * (seen), that reached it at the current level (front) and at the next
 * (next, kept all zero between levels); and the current frontier and the
 * vertices touched for the next level as lists, so that a level costs the
 * links out of its frontier rather than a scan of every vertex (a long
 * chain of switches would otherwise cost vertices x levels). */
typedef struct bits {
    uint64_t *seen, *front, *next;
    int32_t *cur, *touched;
} bits;

/* Records level for the sources nw at class vertex c of out (rows of
 * n_cls).  Returns the number of (source, class) pairs recorded. */
static int record(int16_t *out, int32_t n_cls, int32_t c, uint64_t nw, int32_t level)
{
    int k = __builtin_popcountll(nw);
    for (; nw; nw &= nw - 1)
        out[(size_t)__builtin_ctzll(nw) * (size_t)n_cls + (size_t)c] = (int16_t)level;
    return k;
}

/* Rows c0 .. c0+k-1 (k <= 64) of D into out[s * n_cls + c].  Returns false
 * when a distance exceeds INT16_MAX (only possible with more than 32,767
 * vertices in the core). */
static bool bfs64_batch(const core *cg, bits *b, int32_t c0, int k, int32_t n_cls, int16_t *out)
{
    int64_t left = (int64_t)k * n_cls; /* (source, class) pairs not reached yet */
    int32_t nf = 0;
    memset(b->seen, 0, (size_t)cg->n * sizeof *b->seen);
    for (size_t x = 0; x < (size_t)k * (size_t)n_cls; x++)
        out[x] = -1;
    for (int s = 0; s < k; s++) {
        int32_t v = cg->of_cls[c0 + s];
        b->seen[v] = b->front[v] = 1ULL << s;
        b->cur[nf++] = v;
        out[(size_t)s * (size_t)n_cls + (size_t)(c0 + s)] = 0;
        left--;
    }
    for (int32_t level = 1; left > 0 && nf > 0; level++) {
        int32_t nt = 0;
        /* push the frontier (level - 1); a non-transit vertex only starts
         * its own paths, at level 0 */
        for (int32_t i = 0; i < nf; i++) {
            int32_t v = b->cur[i];
            uint64_t f = b->front[v];
            b->front[v] = 0;
            if (level > 1 && !cg->transit[v])
                continue;
            for (int32_t e = cg->off[v]; e < cg->off[v + 1]; e++) {
                int32_t w = cg->head[e];
                if (!b->next[w])
                    b->touched[nt++] = w;
                b->next[w] |= f;
            }
        }
        nf = 0;
        for (int32_t i = 0; i < nt; i++) {
            int32_t w = b->touched[i];
            uint64_t nw = b->next[w] & ~b->seen[w];
            b->next[w] = 0;
            if (!nw)
                continue;
            b->seen[w] |= nw;
            b->front[w] = nw;
            b->cur[nf++] = w;
            if (cg->cls[w] < 0)
                continue;
            if (level > INT16_MAX)
                return false;
            left -= record(out, n_cls, cg->cls[w], nw, level);
        }
    }
    /* an early stop leaves the frontier's bits behind */
    for (int32_t i = 0; i < nf; i++)
        b->front[b->cur[i]] = 0;
    return true;
}

/* Fills d->table; leaves it NULL if some distance does not fit int16. */
static tm_err fill_table(tm_ctx *ctx, tm_netdist *d, const tm_net_csr *g)
{
    core cg = {0};
    bits b = {0};
    tm_err err = TM_EOK;
    bool fits = true;

    d->table = tm__malloc_n((size_t)d->n_cls * (size_t)d->n_cls, sizeof *d->table);
    if (!d->table || core_build(&cg, g, d) < 0) {
        err = tm__nomem(ctx);
        goto out;
    }
    b.seen = tm__malloc_n((size_t)cg.n, sizeof *b.seen);
    b.front = tm__calloc_n((size_t)cg.n, sizeof *b.front);
    b.next = tm__calloc_n((size_t)cg.n, sizeof *b.next);
    b.cur = tm__malloc_n((size_t)cg.n, sizeof *b.cur);
    b.touched = tm__malloc_n((size_t)cg.n, sizeof *b.touched);
    if (!b.seen || !b.front || !b.next || !b.cur || !b.touched) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t c0 = 0; fits && c0 < d->n_cls; c0 += 64) {
        int k = d->n_cls - c0 < 64 ? (int)(d->n_cls - c0) : 64;
        fits = bfs64_batch(&cg, &b, c0, k, d->n_cls, d->table + (size_t)c0 * (size_t)d->n_cls);
    }
out:
    if (err || !fits) {
        free(d->table);
        d->table = NULL;
    }
    core_free(&cg);
    free(b.seen), free(b.front), free(b.next), free(b.cur), free(b.touched);
    return err;
}

/* ---- levels form of the table --------------------------------------------- */

/* lev[l][c] = group at level l of class c's hosts; false if the hosts of
 * one class disagree (then the form does not apply). */
static bool class_groups(tm_netdist *d, const tm_net_levels *lv, const int32_t *hosts)
{
    size_t nc = (size_t)d->n_cls;
    for (int l = 0; l < lv->n_levels; l++)
        for (size_t c = 0; c < nc; c++)
            d->lev[(size_t)l * nc + c] = -1;
    for (int32_t i = 0; i < d->n; i++)
        for (int l = 0; l < lv->n_levels; l++) {
            int32_t *at = &d->lev[(size_t)l * nc + (size_t)d->cls[i]];
            int32_t grp = lv->group[l][hosts[i]];
            if (grp < 0 || (*at >= 0 && *at != grp))
                return false;
            *at = grp;
        }
    return true;
}

/* True when every table entry is lvd[lowest common level] (lvd filled
 * from the first pair of each level). */
static bool table_is_levels(tm_netdist *d)
{
    size_t nc = (size_t)d->n_cls;
    for (int l = 0; l <= d->n_lev; l++)
        d->lvd[l] = -1;
    for (size_t a = 0; a < nc; a++)
        for (size_t b = 0; b < nc; b++) {
            int16_t x = d->table[a * nc + b];
            int l = 0;
            if (a == b)
                continue;
            while (l < d->n_lev && d->lev[(size_t)l * nc + a] != d->lev[(size_t)l * nc + b])
                l++;
            if (x < 0 || (d->lvd[l] >= 0 && d->lvd[l] != x))
                return false;
            d->lvd[l] = x;
        }
    return true;
}

/* Replaces the table by the levels form when the detected hierarchy
 * explains every entry (checked entry by entry, so never approximate). */
static tm_err try_levels(tm_ctx *ctx, tm_netdist *d, const tm_net *net, const int32_t *hosts)
{
    tm_net_levels lv;
    tm_err err;
    if (d->n_cls < TM__NETDIST_LEVELS_MIN)
        return TM_EOK;
    err = tm_net_levels_detect(ctx, net, &lv);
    if (err || lv.n_levels < 1) {
        tm_net_levels_release(&lv);
        return err;
    }
    d->n_lev = lv.n_levels;
    d->lev = tm__malloc_n((size_t)d->n_lev * (size_t)d->n_cls, sizeof *d->lev);
    if (!d->lev) {
        tm_net_levels_release(&lv);
        return tm__nomem(ctx);
    }
    if (class_groups(d, &lv, hosts) && table_is_levels(d)) {
        free(d->table);
        d->table = NULL;
    } else {
        free(d->lev);
        d->lev = NULL;
        d->n_lev = 0;
    }
    tm_net_levels_release(&lv);
    return TM_EOK;
}

/* The levels form from the fat-tree structure of net/ftclass.h, when the
 * net has it, every class is a leaf switch and the form fits max_bytes.
 * Level l of the form groups the leaves by their class at tree level l + 1
 * (level 0: the leaf itself), so two classes first agree at l = L - 1 and
 * lvd[l] = 2 l. */
static tm_err try_ftclass(tm_ctx *ctx, tm_netdist *d, const tm_net_csr *g, size_t max_bytes)
{
    tm__ftclass *u = NULL;
    size_t nc = (size_t)d->n_cls;
    int nl;
    tm_err err = tm__ftclass_detect(ctx, g, &u);
    if (err || !u)
        return err;
    nl = u->n_lev - 1;
    if (nl < 1 || nl > TM_NET_MAX_LEVELS || (size_t)nl * nc * sizeof *d->lev > max_bytes)
        goto out;
    for (int32_t i = 0; i < d->n; i++)
        if (d->off[i] != 1)
            goto out; /* a host that is its own class: no leaf */
    for (size_t c = 0; c < nc; c++)
        if (u->leaf_of[d->cls_vertex[c]] < 0)
            goto out;
    if (!(d->lev = tm__malloc_n((size_t)nl * nc, sizeof *d->lev))) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int l = 0; l < nl; l++)
        for (size_t c = 0; c < nc; c++)
            d->lev[(size_t)l * nc + c] =
                u->cls[(size_t)l * (size_t)u->n_leaf + (size_t)u->leaf_of[d->cls_vertex[c]]];
    for (int l = 0; l <= nl; l++)
        d->lvd[l] = (int16_t)(2 * l);
    d->n_lev = nl;
    d->kind = TM__ND_TABLE;
out:
    tm__ftclass_free(u);
    return err;
}

/* ---- grid ---------------------------------------------------------------- */

/* True if grid vertex iv (coordinates x) has cables to exactly its grid
 * neighbours: every enabled cable ends at one, and each has one (parallel
 * cables allowed).  A torus dimension of size 2 has one neighbour (both
 * directions), size 1 none. */
static bool grid_vertex_ok(const tm_net_csr *g, const tm_net_grid *gr, const int64_t *stride,
                           int64_t iv, const int32_t *x)
{
    int64_t want[2 * TM_GRID_MAX_DIMS];
    int nw = 0;
    uint32_t found = 0;
    int32_t v = gr->base + (int32_t)iv;

    for (int i = 0; i < gr->ndims; i++)
        for (int dir = -1; dir <= 1; dir += 2) {
            int64_t y = (int64_t)x[i] + dir, w;
            bool dup = false;
            if (gr->wrap[i])
                y = (y + gr->dims[i]) % gr->dims[i];
            else if (y < 0 || y >= gr->dims[i])
                continue;
            if (y == x[i])
                continue;
            w = iv + (y - x[i]) * stride[i];
            for (int k = 0; k < nw; k++)
                dup |= want[k] == w;
            if (!dup)
                want[nw++] = w;
        }
    for (int32_t e = g->off[v]; e < g->off[v + 1]; e++) {
        int64_t iw = (int64_t)g->head[e] - gr->base;
        int k = 0;
        while (k < nw && want[k] != iw)
            k++;
        if (k == nw)
            return false;
        found |= 1u << k;
    }
    return found == (1u << nw) - 1;
}

/* True when the hops between the allocated hosts are the sum of ring/line
 * distances of their coordinates: the net has grid geometry, no failed
 * cable, the hosts are grid vertices, every grid vertex is transit and
 * the cables are exactly the grid's (so no path leaves the grid or takes
 * a shortcut).  O(vertices x dims + cables). */
static bool grid_usable(const tm_net *net, const tm_net_csr *g, const int32_t *hosts, int32_t n)
{
    const tm_net_grid *gr = tm_net_grid_info(net);
    int64_t nv = 1, stride[TM_GRID_MAX_DIMS];
    int32_t x[TM_GRID_MAX_DIMS] = {0};

    if (gr->ndims < 1 || gr->ndims > TM_GRID_MAX_DIMS || gr->base < 0)
        return false;
    for (int i = 0; i < gr->ndims; i++) {
        if (gr->dims[i] < 1)
            return false;
        stride[i] = nv;
        nv *= gr->dims[i];
        if (nv > (int64_t)g->n - gr->base)
            return false;
    }
    for (int32_t c = 0; c < tm_net_n_cables(net); c++)
        if (!tm_net_cable_enabled(net, c))
            return false;
    for (int32_t i = 0; i < n; i++)
        if (hosts[i] < gr->base || hosts[i] - gr->base >= nv)
            return false;
    for (int64_t iv = 0; iv < nv; iv++) {
        if (!g->transit[gr->base + iv] || !grid_vertex_ok(g, gr, stride, iv, x))
            return false;
        for (int i = 0; i < gr->ndims && ++x[i] == gr->dims[i]; i++)
            x[i] = 0; /* odometer: next coordinates */
    }
    return true;
}

/* The hosts' grid coordinates (grid_usable holds): the grid backend's
 * answers, kept beside a table too for the QAP's per-PE coordinates
 * (tm__qnet.pe_gc). */
static tm_err grid_coords(tm_ctx *ctx, tm_netdist *d, const tm_net *net, const int32_t *hosts)
{
    const tm_net_grid *gr = tm_net_grid_info(net);
    d->ndims = gr->ndims;
    memcpy(d->dims, gr->dims, sizeof d->dims);
    memcpy(d->wrap, gr->wrap, sizeof d->wrap);
    d->coord = tm__malloc_n((size_t)d->n * (size_t)d->ndims, sizeof *d->coord);
    if (!d->coord)
        return tm__nomem(ctx);
    for (int32_t i = 0; i < d->n; i++) {
        int32_t iv = hosts[i] - gr->base;
        for (int k = 0; k < d->ndims; k++) {
            d->coord[(size_t)i * (size_t)d->ndims + (size_t)k] = iv % gr->dims[k];
            iv /= gr->dims[k];
        }
    }
    return TM_EOK;
}

/* The grid backend: coordinates per host; the classes are not needed. */
static tm_err make_grid(tm_ctx *ctx, tm_netdist *d, const tm_net *net, const int32_t *hosts)
{
    d->kind = TM__ND_GRID;
    free(d->cls), free(d->off), free(d->cls_vertex);
    d->cls = NULL, d->off = NULL, d->cls_vertex = NULL;
    d->n_cls = 0;
    return grid_coords(ctx, d, net, hosts);
}

/* ---- rows ----------------------------------------------------------------- */

static tm_err make_rows(tm_ctx *ctx, tm_netdist *d, const tm_net_csr *g, size_t max_bytes)
{
    size_t row = (size_t)d->n_cls * sizeof *d->rows, slots = row ? max_bytes / row : 1;
    d->kind = TM__ND_ROWS;
    d->g = g;
    /* as many rows as the budget holds, at least one, at most all */
    if (slots > (size_t)d->n_cls)
        slots = (size_t)d->n_cls;
    d->n_slots = slots < 1 ? 1 : (int32_t)slots;
    d->slot_of = tm__malloc_n((size_t)d->n_slots, sizeof *d->slot_of);
    d->rows = tm__malloc_n((size_t)d->n_slots * (size_t)d->n_cls, sizeof *d->rows);
    d->dist = tm__malloc_n((size_t)g->n, sizeof *d->dist);
    d->queue = tm__malloc_n((size_t)g->n, sizeof *d->queue);
    if (!d->slot_of || !d->rows || !d->dist || !d->queue)
        return tm__nomem(ctx);
    if (pthread_mutex_init(&d->mu, NULL) != 0)
        return tm__fail(ctx, TM_EINTERNAL, "hop oracle: cannot create a mutex");
    d->have_mu = true;
    for (int32_t s = 0; s < d->n_slots; s++)
        d->slot_of[s] = -1;
    tm__bfs_init(&d->bfs, g, d->dist, d->queue);
    return TM_EOK;
}

/* Row ci of D into row[], by one BFS from the class vertex (the
 * transit rule of src/graph/bfs.h, as every router counts hops); a
 * search costs the area it visits, not a reset of all vertices. */
static void bfs_row(tm_netdist *d, int32_t ci, int32_t *row)
{
    tm__bfs_from(&d->bfs, d->cls_vertex[ci]);
    for (int32_t c = 0; c < d->n_cls; c++)
        row[c] = d->dist[d->cls_vertex[c]];
}

/* D(ci, cj) from the cache, computing row ci on a miss.  D is symmetric
 * (cables are undirected and reversing a path keeps its inner vertices),
 * so a cached row cj answers too. */
static int32_t row_hops(tm_netdist *d, int32_t ci, int32_t cj)
{
    int32_t si = ci % d->n_slots, sj = cj % d->n_slots, x;
    pthread_mutex_lock(&d->mu);
    if (d->slot_of[si] != ci && d->slot_of[sj] == cj) {
        x = d->rows[(size_t)sj * (size_t)d->n_cls + (size_t)ci];
    } else {
        if (d->slot_of[si] != ci) {
            bfs_row(d, ci, d->rows + (size_t)si * (size_t)d->n_cls);
            d->slot_of[si] = ci;
        }
        x = d->rows[(size_t)si * (size_t)d->n_cls + (size_t)cj];
    }
    pthread_mutex_unlock(&d->mu);
    return x;
}

int32_t tm__netdist_slow_hops(const tm_netdist *d, int32_t i, int32_t j)
{
    int32_t x;
    /* the row cache is the only part a query changes (under d->mu) */
    x = row_hops((tm_netdist *)d, d->cls[i], d->cls[j]);
    return x < 0 ? -1 : x + d->off[i] + d->off[j];
}

/* ---- construction and queries ---------------------------------------------- */

static size_t held_bytes(const tm_netdist *d)
{
    size_t b = sizeof *d, n = (size_t)d->n, c = (size_t)d->n_cls;
    if (d->cls)
        b += n * (sizeof *d->cls + sizeof *d->off) + c * sizeof *d->cls_vertex;
    if (d->table)
        b += c * c * sizeof *d->table;
    if (d->lev)
        b += (size_t)d->n_lev * c * sizeof *d->lev;
    if (d->coord)
        b += n * (size_t)d->ndims * sizeof *d->coord;
    if (d->rows)
        b += (size_t)d->n_slots * (c * sizeof *d->rows + sizeof *d->slot_of) +
             (size_t)d->g->n * (sizeof *d->dist + sizeof *d->queue);
    return b;
}

tm_err tm__netdist_new_budget(tm_ctx *ctx, const tm_net *net, const int32_t *hosts, int32_t n,
                              size_t max_bytes, tm_netdist **out)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    tm_netdist *d = NULL;
    size_t table_bytes;
    bool grid;
    tm_err err;

    *out = NULL;
    if (!g)
        return tm__fail(ctx, TM_EUSAGE, "hop oracle: the network is not finalized");
    if (n < 0 || (n > 0 && !hosts))
        return tm__fail(ctx, TM_EUSAGE, "hop oracle: bad host list (%d hosts)", n);
    d = calloc(1, sizeof *d);
    if (!d)
        return tm__nomem(ctx);
    d->n = n;
    err = make_classes(ctx, d, net, g, hosts);
    if (err)
        goto out;
    table_bytes = (size_t)d->n_cls * (size_t)d->n_cls * sizeof *d->table;
    grid = grid_usable(net, g, hosts, n);
    if (table_bytes <= max_bytes && (!grid || table_bytes <= TM__NETDIST_GRID_TABLE)) {
        d->kind = TM__ND_TABLE;
        err = fill_table(ctx, d, g);
        if (!err && d->table)
            err = try_levels(ctx, d, net, hosts);
        if (!err && d->table && grid)
            err = grid_coords(ctx, d, net, hosts);
        if (err || d->table || d->lev)
            goto out;
        /* a distance beyond int16: the rows (int32) take over */
    }
    if (!grid && (err = try_ftclass(ctx, d, g, max_bytes)) == TM_EOK && d->lev)
        goto out;
    if (!err)
        err = grid ? make_grid(ctx, d, net, hosts) : make_rows(ctx, d, g, max_bytes);
out:
    if (err) {
        tm_netdist_free(d);
        return err;
    }
    d->bytes = held_bytes(d);
    *out = d;
    return TM_EOK;
}

tm_err tm_netdist_new(tm_ctx *ctx, const tm_net *net, const int32_t *hosts, int32_t n,
                      tm_netdist **out)
{
    return tm__netdist_new_budget(ctx, net, hosts, n, TM__NETDIST_BUDGET, out);
}

void tm_netdist_free(tm_netdist *d)
{
    if (!d)
        return;
    free(d->cls), free(d->off), free(d->cls_vertex), free(d->table), free(d->coord), free(d->lev);
    free(d->slot_of), free(d->rows), free(d->dist), free(d->queue);
    if (d->have_mu)
        pthread_mutex_destroy(&d->mu);
    free(d);
}

int32_t tm_netdist_n(const tm_netdist *d) { return d->n; }

int32_t tm_netdist_hops(const tm_netdist *d, int32_t i, int32_t j)
{
    if (i < 0 || j < 0 || i >= d->n || j >= d->n)
        return -1;
    return tm__netdist_hops(d, i, j);
}

const char *tm_netdist_kind(const tm_netdist *d)
{
    switch (d->kind) {
    case TM__ND_GRID: return "grid";
    case TM__ND_ROWS: return "rows";
    default: return d->lev ? "levels" : "table";
    }
}

size_t tm_netdist_bytes(const tm_netdist *d) { return d->bytes; }
