/* rcm.c - the `rcm` strategy (Hoefler & Snir Sec. 3.3, graph similarity):
 * reverse Cuthill-McKee orders of G and of H, then pi = piH o piG^-1: the
 * i-th task in G's order takes the i-th free slot in H's order.
 *
 * RCM is written here because igraph 0.10 has none and METIS only offers
 * nested dissection.  Each component starts at a pseudo-peripheral vertex
 * (George-Liu: repeated BFS from a minimum-degree vertex of the last level
 * while the eccentricity grows); BFS visits neighbours by increasing degree.
 *
 * Difference from the paper: it removes the vertices without slots from H
 * before ordering, which disconnects indirect networks (a fat-tree without
 * its switches has no edges) and partial torus allocations.  We order the
 * whole host graph - switches and unallocated transit hosts included, with
 * non-transit vertices as leaves (paths cannot pass them) - and then keep
 * the allocated hosts in that order, so proximity through switches counts. */
#include <stdlib.h>
#include <string.h>

#include "netmap.h"
#include "../mapping/strategies.h"
#include "../util/util.h"

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

typedef struct {
    int32_t n;
    const int64_t *xadj;
    const int32_t *adj;
    const uint8_t *expand;
    int32_t *deg;
    int32_t *mark; /* BFS stamp */
    int32_t stamp;
    int64_t *key;  /* scratch for sorting neighbours */
} rcm_ctx;

static bool expands(const rcm_ctx *r, int32_t v, int32_t root)
{
    return v == root || !r->expand || r->expand[v];
}

/* Plain BFS from root into q (visited vertices get the current stamp);
 * returns the count and the start of the last level.  done[] excludes
 * vertices already ordered. */
static int32_t bfs_levels(rcm_ctx *r, int32_t root, int32_t *q, int32_t *last_start,
                          int32_t *height)
{
    int32_t head = 0, tail = 0, level_end = 1, lvl = 0;
    r->stamp++;
    q[tail++] = root;
    r->mark[root] = r->stamp;
    *last_start = 0;
    while (head < tail) {
        int32_t v = q[head++];
        if (expands(r, v, root)) {
            for (int64_t j = r->xadj[v]; j < r->xadj[v + 1]; j++) {
                int32_t u = r->adj[j];
                if (r->mark[u] != r->stamp && r->mark[u] >= 0) {
                    r->mark[u] = r->stamp;
                    q[tail++] = u;
                }
            }
        }
        if (head == level_end && head < tail) {
            *last_start = head;
            level_end = tail;
            lvl++;
        }
    }
    *height = lvl;
    return tail;
}

static int32_t pseudo_peripheral(rcm_ctx *r, int32_t root, int32_t *q)
{
    int32_t last, height, best_h = -1;
    for (int iter = 0; iter < 16; iter++) {
        int32_t cnt = bfs_levels(r, root, q, &last, &height), cand = -1;
        if (height <= best_h)
            break;
        best_h = height;
        for (int32_t i = last; i < cnt; i++)
            if (cand < 0 || r->deg[q[i]] < r->deg[cand] ||
                (r->deg[q[i]] == r->deg[cand] && q[i] < cand))
                cand = q[i];
        if (cand < 0 || cand == root)
            break;
        root = cand;
    }
    return root;
}

tm_err tm__rcm_order(tm_ctx *ctx, int32_t n, const int64_t *xadj, const int32_t *adj,
                     const uint8_t *expand, int32_t *order)
{
    rcm_ctx r = {n, xadj, adj, expand, NULL, NULL, 0, NULL};
    int64_t *byd = tm__malloc_n((size_t)n + 1, sizeof *byd);
    int32_t *q = tm__malloc_n((size_t)n + 1, sizeof *q);
    int32_t cnt = 0, maxdeg = 0;
    tm_err err = TM_EOK;
    r.deg = tm__malloc_n((size_t)n + 1, sizeof *r.deg);
    r.mark = tm__calloc_n((size_t)n + 1, sizeof *r.mark);
    if (!byd || !q || !r.deg || !r.mark) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t v = 0; v < n; v++) {
        r.deg[v] = (int32_t)(xadj[v + 1] - xadj[v]);
        if (r.deg[v] > maxdeg)
            maxdeg = r.deg[v];
        byd[v] = ((int64_t)r.deg[v] << 32) | v;
    }
    r.key = tm__malloc_n((size_t)maxdeg + 1, sizeof *r.key);
    if (!r.key) {
        err = tm__nomem(ctx);
        goto out;
    }
    qsort(byd, (size_t)n, sizeof *byd, cmp_i64);
    /* mark < 0: already ordered (order[] doubles as the Cuthill-McKee queue) */
    for (int32_t i = 0; i < n; i++) {
        int32_t root = (int32_t)(byd[i] & 0xffffffff), head = cnt;
        if (r.mark[root] < 0)
            continue;
        root = pseudo_peripheral(&r, root, q);
        order[cnt++] = root;
        r.mark[root] = -1;
        while (head < cnt) {
            int32_t v = order[head++], k = 0;
            if (!expands(&r, v, root))
                continue;
            for (int64_t j = xadj[v]; j < xadj[v + 1]; j++) {
                int32_t u = adj[j];
                if (r.mark[u] >= 0) {
                    r.mark[u] = -1;
                    r.key[k++] = ((int64_t)r.deg[u] << 32) | u;
                }
            }
            qsort(r.key, (size_t)k, sizeof *r.key, cmp_i64);
            for (int32_t j = 0; j < k; j++)
                order[cnt++] = (int32_t)(r.key[j] & 0xffffffff);
        }
    }
    /* reverse: Cuthill-McKee -> reverse Cuthill-McKee */
    for (int32_t i = 0; i < n / 2; i++) {
        int32_t t = order[i];
        order[i] = order[n - 1 - i];
        order[n - 1 - i] = t;
    }
out:
    free(byd);
    free(q);
    free(r.deg);
    free(r.mark);
    free(r.key);
    return err;
}

tm_err tm__rcm_core(tm_ctx *ctx, const tm__placeprob *pp, uint64_t seed, int32_t *place)
{
    const tm_net_csr *net = pp->net;
    const tm__sgraph *G = pp->g;
    int32_t nv = net->n, unit = 0;
    int64_t *hx = tm__malloc_n((size_t)nv + 1, sizeof *hx);
    int32_t *horder = tm__malloc_n((size_t)nv + 1, sizeof *horder);
    int32_t *gorder = tm__malloc_n((size_t)G->n + 1, sizeof *gorder);
    int32_t *aidx = tm__malloc_n((size_t)nv + 1, sizeof *aidx);
    tm_err err;
    (void)seed;
    if (!hx || !horder || !gorder || !aidx) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t v = 0; v <= nv; v++)
        hx[v] = net->off[v];
    for (int32_t v = 0; v < nv; v++)
        aidx[v] = -1;
    for (int32_t i = 0; i < pp->nh; i++)
        aidx[pp->host[i]] = i;
    err = tm__rcm_order(ctx, nv, hx, net->head, net->transit, horder);
    if (!err)
        err = tm__rcm_order(ctx, G->n, G->xadj, G->adj, NULL, gorder);
    if (err)
        goto out;
    /* the i-th task of G's order takes the i-th slot of H's order */
    for (int32_t i = 0; i < nv && unit < G->n; i++) {
        int32_t a = aidx[horder[i]];
        if (a < 0)
            continue;
        for (int32_t s = 0; s < pp->cap[a] && unit < G->n; s++)
            place[gorder[unit++]] = a;
    }
    if (unit < G->n)
        err = tm__fail(ctx, TM_EINTERNAL, "rcm: allocated hosts missing from the host order");
out:
    free(hx);
    free(horder);
    free(gorder);
    free(aidx);
    return err;
}

tm_err tm__strategy_rcm(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out)
{
    return tm__map_network(ctx, p, seed, tm__rcm_core, out);
}
