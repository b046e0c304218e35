/*
 * levels_direct.c - hierarchy of networks without switches
 * (docs/hierarchy.md).
 *
 *  - percs: the hosts split into equal cliques of >= 4 (supernodes: 32
 *    hosts joined all-to-all by LL and LR links).  Inside a supernode the
 *    drawers (8 hosts, LL links) are invisible to structure, since the
 *    supernode is a complete graph, so they are taken from capacities: the
 *    intra-supernode capacity class whose cables form equal cliques smaller
 *    than the supernode.  Levels "drawer" (when found) and "supernode".
 *  - grid (tori, meshes, hypercubes): every host has 1..24 neighbours and
 *    few triangles (at most one per dimension: only a ring of 3 closes
 *    one).  No levels: the engine uses coordinates on grids.
 *  - anything else: "none".
 */
#include <stdlib.h>

#include "levels_int.h"

#define PERCS_MIN_CLIQUE 4   /* a torus with rings of 3 has triangles, never K4 */
#define GRID_MAX_DEGREE 24   /* hypercube:24; an 8-D torus has 16 */
#define GRID_SAMPLES 4096    /* hosts whose triangles are counted */
#define MAX_CAP_CLASSES 8    /* capacity classes tried for drawers */

static int32_t uf_find(int32_t *parent, int32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* Whether the cables of capacity cap inside supernodes form equal cliques
 * of size 2..sn_size-1; then drawer[v] = a representative of v's clique.
 * stamp[] (zeroed, n) and cnt[] (n) are scratch. */
static bool drawers_of_class(const tm_net_csr *g, const int32_t *sn, int32_t sn_size, double cap,
                             int32_t *drawer, int32_t *cnt, int32_t *stamp)
{
    int32_t d = 0;
    for (int32_t v = 0; v < g->n; v++) {
        drawer[v] = v;
        cnt[v] = 0;
    }
    for (int32_t v = 0; v < g->n; v++)
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t w = g->head[j], a, b;
            if (sn[w] != sn[v] || g->cap[g->link[j]] != cap)
                continue;
            a = uf_find(drawer, v);
            b = uf_find(drawer, w);
            if (a != b)
                drawer[a > b ? a : b] = a < b ? a : b;
        }
    for (int32_t v = 0; v < g->n; v++)
        cnt[uf_find(drawer, v)]++;
    for (int32_t v = 0; v < g->n; v++) {
        int32_t r = uf_find(drawer, v), deg = 0;
        if (cnt[r] < 2 || cnt[r] >= sn_size || (d && cnt[r] != d))
            return false;
        d = cnt[r];
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) { /* a clique: d-1 distinct peers */
            int32_t w = g->head[j];
            if (w != v && stamp[w] != v + 1 && g->cap[g->link[j]] == cap &&
                uf_find(drawer, w) == r) {
                stamp[w] = v + 1;
                deg++;
            }
        }
        if (deg != d - 1)
            return false;
    }
    for (int32_t v = 0; v < g->n; v++)
        drawer[v] = uf_find(drawer, v);
    return true;
}

/* Drawers from the capacity classes of intra-supernode cables. */
static tm_err find_drawers(tm__lv *s, const int32_t *sn, int32_t sn_size, int32_t *drawer,
                           bool *found)
{
    const tm_net_csr *g = s->g;
    double caps[MAX_CAP_CLASSES];
    int n_caps = 0;
    int32_t *cnt, *stamp;

    *found = false;
    for (int32_t v = 0; v < g->n; v++)
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            double c = g->cap[g->link[j]];
            int k = 0;
            if (sn[g->head[j]] != sn[v])
                continue;
            while (k < n_caps && caps[k] != c)
                k++;
            if (k == MAX_CAP_CLASSES)
                return TM_EOK; /* too many classes to mean anything */
            if (k == n_caps)
                caps[n_caps++] = c;
        }
    if (n_caps < 2)
        return TM_EOK;
    cnt = tm__malloc_n((size_t)g->n, sizeof *cnt);
    stamp = tm__calloc_n((size_t)g->n, sizeof *stamp);
    if (!cnt || !stamp) {
        free(cnt);
        free(stamp);
        return tm__nomem(s->ctx);
    }
    for (int k = 0; k < n_caps && !*found; k++) {
        for (int32_t v = 0; v < g->n; v++)
            stamp[v] = 0;
        *found = drawers_of_class(g, sn, sn_size, caps[k], drawer, cnt, stamp);
    }
    free(cnt);
    free(stamp);
    return TM_EOK;
}

/* Distinct neighbours of v; marks them with stamp sv in mark[]. */
static int32_t mark_neighbours(const tm_net_csr *g, int32_t v, int32_t *mark, int32_t sv)
{
    int32_t deg = 0;
    for (int32_t j = g->off[v]; j < g->off[v + 1]; j++)
        if (g->head[j] != v && mark[g->head[j]] != sv) {
            mark[g->head[j]] = sv;
            deg++;
        }
    return deg;
}

/* Twice the number of triangles at v, whose neighbours carry stamp sv in
 * mark[]: for each distinct neighbour w, its distinct neighbours in N(v). */
static int64_t triangle_pairs(const tm_net_csr *g, int32_t v, const int32_t *mark, int32_t sv,
                              int32_t *wseen, int32_t *xseen, int32_t *sx)
{
    int64_t pairs = 0;
    for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
        int32_t w = g->head[j], sw = ++*sx;
        if (w == v || wseen[w] == sv)
            continue; /* a parallel cable to a neighbour already counted */
        wseen[w] = sv;
        for (int32_t i = g->off[w]; i < g->off[w + 1]; i++) {
            int32_t x = g->head[i];
            if (x != v && x != w && mark[x] == sv && xseen[x] != sw) {
                xseen[x] = sw;
                pairs++;
            }
        }
    }
    return pairs;
}

/* Few triangles and small degrees everywhere (triangles counted on a
 * sample of hosts so that hypercube:24 stays fast). */
static tm_err grid_like(tm__lv *s, bool *yes)
{
    const tm_net_csr *g = s->g;
    int32_t *mark = tm__calloc_n((size_t)g->n, sizeof *mark);
    int32_t *wseen = tm__calloc_n((size_t)g->n, sizeof *wseen);
    int32_t *xseen = tm__calloc_n((size_t)g->n, sizeof *xseen);
    int32_t stride = g->n / GRID_SAMPLES + 1, sx = 0;
    tm_err err = TM_EOK;

    *yes = false;
    if (!mark || !wseen || !xseen) {
        err = tm__nomem(s->ctx);
        goto out;
    }
    *yes = true;
    for (int32_t v = 0; v < g->n && *yes; v++) {
        int32_t deg = mark_neighbours(g, v, mark, v + 1);
        if (deg > GRID_MAX_DEGREE || (deg == 0 && g->n > 1))
            *yes = false;
        else if (v % stride == 0 && triangle_pairs(g, v, mark, v + 1, wseen, xseen, &sx) > deg)
            *yes = false; /* more than deg/2 triangles */
    }
out:
    free(mark);
    free(wseen);
    free(xseen);
    return err;
}

tm_err tm__lv_direct(tm__lv *s)
{
    const tm_net_csr *g = s->g;
    size_t n = (size_t)g->n;
    uint8_t *in = tm__malloc_n(n, 1);
    int32_t *sn = tm__malloc_n(n, sizeof *sn), *drawer = tm__malloc_n(n, sizeof *drawer);
    int32_t n_sn, size;
    bool ok, found, grid;
    tm_err err;

    if (!in || !sn || !drawer) {
        err = tm__nomem(s->ctx);
        goto out;
    }
    for (int32_t v = 0; v < g->n; v++)
        in[v] = 1;
    if ((err = tm__lv_cliques(s, in, PERCS_MIN_CLIQUE, sn, &n_sn, &size, &ok)))
        goto out;
    if (ok) {
        tm__lv_kind(s, "percs");
        if ((err = find_drawers(s, sn, size, drawer, &found)) ||
            (found && (err = tm__lv_push(s, "drawer", drawer))))
            goto out;
        err = tm__lv_push(s, "supernode", sn);
        goto out;
    }
    if ((err = grid_like(s, &grid)) == TM_EOK && grid)
        tm__lv_kind(s, "grid");
out:
    free(in);
    free(sn);
    free(drawer);
    return err;
}
