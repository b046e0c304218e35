/* qap_ptree.c - builds the PE tree of a network-mode problem (see
 * qap_ptree.h): slots under hosts (node-internal levels in between), hosts
 * under the network's groups.  Three sources for the groups, in order:
 *   1. the levels detected from the graph (tm_net_levels_detect: fat-trees
 *      and Clos, dragonflies, PERCS), exact groups of equal distance;
 *   2. on tori and meshes, recursive coordinate bisection of the hosts
 *      (split the longest extent at the slot-weighted median; ties between
 *      dimensions follow `dimorder`, the rotations the strategy tries);
 *   3. otherwise recursive halving of the hosts ordered by hop distance
 *      from a peripheral host (a breadth-first order, from the oracle). */
#include <stdlib.h>
#include <string.h>

#include "topomap/levels.h"
#include "qap_ptree.h"

typedef struct builder {
    tm_ctx *ctx;
    tm__ptree *t;
    size_t cap_nodes, cap_kids;
    int32_t nkids_used;
    const tm__qnet *q;
    const tm_hier *node;
    /* grids */
    const tm_net_grid *grid;
    int32_t *coord;  /* n_hosts x ndims */
    int prio[TM_GRID_MAX_DIMS];
    int32_t *tmp;    /* n_hosts: the counting sort's output */
    int32_t *cnt;    /* largest extent + 1: its counts */
} builder;

void tm__ptree_release(tm__ptree *t)
{
    free(t->kid0);
    free(t->nkid);
    free(t->kids);
    free(t->npe);
    free(t->pe);
    free(t->leaf0);
    free(t->nleaf);
    free(t->leaves);
    memset(t, 0, sizeof *t);
}

static int32_t new_node(builder *b, int32_t pe)
{
    tm__ptree *t = b->t;
    size_t c = b->cap_nodes;
    if (tm__grow((void **)&t->kid0, &c, (size_t)t->n + 1, sizeof *t->kid0) < 0)
        return -1;
    c = b->cap_nodes;
    if (tm__grow((void **)&t->nkid, &c, (size_t)t->n + 1, sizeof *t->nkid) < 0)
        return -1;
    c = b->cap_nodes;
    if (tm__grow((void **)&t->npe, &c, (size_t)t->n + 1, sizeof *t->npe) < 0)
        return -1;
    if (tm__grow((void **)&t->pe, &b->cap_nodes, (size_t)t->n + 1, sizeof *t->pe) < 0)
        return -1;
    t->kid0[t->n] = 0;
    t->nkid[t->n] = 0;
    t->npe[t->n] = pe >= 0 ? 1 : 0;
    t->pe[t->n] = pe;
    return t->n++;
}

/* A node over `n` existing nodes (one child: that child itself). */
static int32_t group_node(builder *b, const int32_t *kids, int32_t n)
{
    tm__ptree *t = b->t;
    int32_t v;
    if (n == 1)
        return kids[0];
    v = new_node(b, -1);
    if (v < 0 || tm__grow((void **)&t->kids, &b->cap_kids, (size_t)b->nkids_used + (size_t)n,
                          sizeof *t->kids) < 0)
        return -1;
    t->kid0[v] = b->nkids_used;
    t->nkid[v] = n;
    for (int32_t i = 0; i < n; i++) {
        t->kids[b->nkids_used++] = kids[i];
        t->npe[v] += t->npe[kids[i]];
    }
    t->pe[v] = t->pe[kids[0]];
    return v;
}

/* Slots [lo, hi) of host i grouped by the node levels below `level`. */
static int32_t slot_node(builder *b, int32_t i, int32_t lo, int32_t hi, int level)
{
    int32_t kids[64], nk = 0, *many = NULL, v;
    int64_t step;
    if (hi - lo == 1)
        return new_node(b, (int32_t)(b->q->host_pe0[i] + lo));
    step = b->node && level > 0 ? b->node->group[level - 1] : 1;
    if ((hi - lo + step - 1) / step > 64) {
        many = tm__malloc_n((size_t)((hi - lo + step - 1) / step), sizeof *many);
        if (!many)
            return -1;
    }
    for (int64_t c = lo; c < hi; c += step) {
        int32_t k = slot_node(b, i, (int32_t)c, (int32_t)(c + step < hi ? c + step : hi),
                              level - 1);
        if (k < 0) {
            free(many);
            return -1;
        }
        (many ? many : kids)[nk++] = k;
    }
    v = group_node(b, many ? many : kids, nk);
    free(many);
    return v;
}

static int32_t host_node(builder *b, int32_t i)
{
    int32_t s = (int32_t)(b->q->host_pe0[i + 1] - b->q->host_pe0[i]);
    return slot_node(b, i, 0, s, b->node ? b->node->k : 1);
}

/* ---- groups from the detected levels ---------------------------------- */

static int cmp_triple(const void *x, const void *y)
{
    const int32_t *a = x, *b = y;
    for (int k = 0; k < 3; k++)
        if (a[k] != b[k])
            return (a[k] > b[k]) - (a[k] < b[k]);
    return 0;
}

/* cur[i] = top node of host i so far; replaced by the node of its group
 * (group == NULL: one group of all hosts).  Sorting (group, child, host)
 * makes the hosts of one child adjacent, and children keep the order of
 * their node ids, i.e. of their first host. */
static tm_err level_up(builder *b, const int32_t *group, int32_t *cur, int32_t nh)
{
    int32_t *tr = tm__malloc_n((size_t)nh * 3, sizeof *tr);
    int32_t *kids = tm__malloc_n((size_t)nh, sizeof *kids);
    tm_err err = TM_EOK;
    if (!tr || !kids) {
        err = tm__nomem(b->ctx);
        goto out;
    }
    for (int32_t i = 0; i < nh; i++) {
        tr[3 * i] = group ? group[b->q->host_vertex[i]] : 0;
        tr[3 * i + 1] = cur[i];
        tr[3 * i + 2] = i;
    }
    qsort(tr, (size_t)nh, 3 * sizeof *tr, cmp_triple);
    for (int32_t s = 0, e; s < nh; s = e) {
        int32_t nk = 0, v;
        for (e = s; e < nh && tr[3 * e] == tr[3 * s]; e++)
            if (nk == 0 || kids[nk - 1] != tr[3 * e + 1])
                kids[nk++] = tr[3 * e + 1];
        v = group_node(b, kids, nk);
        if (v < 0) {
            err = tm__nomem(b->ctx);
            goto out;
        }
        for (int32_t k = s; k < e; k++)
            cur[tr[3 * k + 2]] = v;
    }
out:
    free(tr);
    free(kids);
    return err;
}

static tm_err from_levels(builder *b, const tm_net_levels *lv, int32_t *cur)
{
    int32_t nh = b->q->n_hosts;
    tm_err err = TM_EOK;
    for (int l = 0; l < lv->n_levels && !err; l++)
        err = level_up(b, lv->group[l], cur, nh);
    if (!err)
        err = level_up(b, NULL, cur, nh);
    if (!err)
        b->t->root = cur[0];
    return err;
}

/* ---- recursive coordinate bisection (grids) --------------------------- */

static int rcb_dim(const builder *b, const int32_t *h, int32_t n)
{
    const tm_net_grid *gr = b->grid;
    int best = -1;
    int32_t best_ext = -1;
    for (int pi = 0; pi < gr->ndims; pi++) {
        int d = b->prio[pi];
        int32_t lo = INT32_MAX, hi = -1, ext;
        for (int32_t i = 0; i < n; i++) {
            int32_t x = b->coord[(size_t)h[i] * (size_t)gr->ndims + (size_t)d];
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
        ext = hi - lo + 1;
        if (ext > best_ext) {
            best_ext = ext;
            best = d;
        }
    }
    return best;
}

typedef struct rcb_key { const builder *b; int d; } rcb_key;
static int cmp_coord(const void *x, const void *y, void *arg)
{
    const rcb_key *rk = arg;
    int32_t a = *(const int32_t *)x, c = *(const int32_t *)y;
    int nd = rk->b->grid->ndims;
    int32_t xa = rk->b->coord[(size_t)a * (size_t)nd + (size_t)rk->d];
    int32_t xc = rk->b->coord[(size_t)c * (size_t)nd + (size_t)rk->d];
    if (xa != xc)
        return (xa > xc) - (xa < xc);
    return (a > c) - (a < c);
}

/* h[0..n) by coordinate d, stably: a counting sort, since coordinates are
 * below the extent (a comparison sort at every level was n log^2 n over
 * the tree, run again for every trial of topdown). */
static void sort_by_coord(builder *b, int32_t *h, int32_t n, int d)
{
    int nd = b->grid->ndims;
    int32_t ext = b->grid->dims[d], *cnt = b->cnt;
    const int32_t *co = b->coord + d;
    for (int32_t x = 0; x <= ext; x++)
        cnt[x] = 0;
    for (int32_t i = 0; i < n; i++)
        cnt[co[(size_t)h[i] * (size_t)nd] + 1]++;
    for (int32_t x = 0; x < ext; x++)
        cnt[x + 1] += cnt[x];
    for (int32_t i = 0; i < n; i++)
        b->tmp[cnt[co[(size_t)h[i] * (size_t)nd]]++] = h[i];
    memcpy(h, b->tmp, (size_t)n * sizeof *h);
}

/* Hosts h[0..k) go to the first half: the shortest prefix, in the order
 * of (coordinate d, host id), that holds half of the PEs, and at most
 * n - 1 hosts, so that both halves have one (hosts of unequal slots: one
 * host may hold more than half).  Only the hosts of the coordinate where
 * the half is reached need the tie order by id; the other groups just
 * have to be on their side, since every level sorts again. */
static int32_t rcb_split(builder *b, int32_t *h, int32_t n, const int32_t *hostnode, int d)
{
    int nd = b->grid->ndims;
    int64_t total = 0, acc = 0;
    for (int32_t i = 0; i < n; i++)
        total += b->t->npe[hostnode[h[i]]];
    for (int32_t i = 0, j; i < n - 1; i = j) {
        int32_t x = b->coord[(size_t)h[i] * (size_t)nd + (size_t)d];
        int64_t w = 0;
        for (j = i; j < n && b->coord[(size_t)h[j] * (size_t)nd + (size_t)d] == x; j++)
            w += b->t->npe[hostnode[h[j]]];
        if (2 * (acc + w) >= total || j >= n - 1) {
            rcb_key rk = {b, d};
            qsort_r(h + i, (size_t)(j - i), sizeof *h, cmp_coord, &rk);
            for (int32_t k = i; k < n - 1; k++) {
                acc += b->t->npe[hostnode[h[k]]];
                if (2 * acc >= total)
                    return k + 1;
            }
            return n - 1;
        }
        acc += w;
    }
    return n - 1;
}

static int32_t rcb(builder *b, int32_t *h, int32_t n, const int32_t *hostnode)
{
    int32_t k, kids[2];
    int d;
    if (n == 1)
        return hostnode[h[0]];
    d = rcb_dim(b, h, n);
    sort_by_coord(b, h, n, d);
    k = rcb_split(b, h, n, hostnode, d);
    kids[0] = rcb(b, h, k, hostnode);
    kids[1] = kids[0] < 0 ? -1 : rcb(b, h + k, n - k, hostnode);
    return kids[1] < 0 ? -1 : group_node(b, kids, 2);
}

static int32_t ext_max(const tm_net_grid *gr)
{
    int32_t m = 1;
    for (int d = 0; d < gr->ndims; d++)
        m = gr->dims[d] > m ? gr->dims[d] : m;
    return m;
}

/* Sets *ok if every host has grid coordinates.  Out of memory is an
 * error, not "no grid": falling back to the BFS order would silently give
 * a different mapping. */
static tm_err grid_coords(builder *b, const tm_net *net, bool *ok)
{
    const tm_net_grid *gr = tm_net_grid_info(net);
    int32_t nh = b->q->n_hosts;
    int64_t size = 1;
    *ok = false;
    if (!gr || gr->ndims <= 0)
        return TM_EOK;
    for (int d = 0; d < gr->ndims; d++)
        size *= gr->dims[d];
    b->coord = tm__malloc_n((size_t)nh * (size_t)gr->ndims, sizeof *b->coord);
    b->tmp = tm__malloc_n((size_t)nh, sizeof *b->tmp);
    b->cnt = tm__malloc_n((size_t)ext_max(gr) + 1, sizeof *b->cnt);
    if (!b->coord || !b->tmp || !b->cnt)
        return tm__nomem(b->ctx);
    for (int32_t i = 0; i < nh; i++) {
        int64_t x = (int64_t)b->q->host_vertex[i] - gr->base;
        if (x < 0 || x >= size)
            return TM_EOK;
        for (int d = 0; d < gr->ndims; d++) {
            b->coord[(size_t)i * (size_t)gr->ndims + (size_t)d] = (int32_t)(x % gr->dims[d]);
            x /= gr->dims[d];
        }
    }
    b->grid = gr;
    *ok = true;
    return TM_EOK;
}

/* ---- breadth-first order (anything else) ------------------------------ */

static int32_t halve(builder *b, const int32_t *h, int32_t n, const int32_t *hostnode)
{
    int32_t kids[2], k = n / 2;
    if (n == 1)
        return hostnode[h[0]];
    kids[0] = halve(b, h, k, hostnode);
    kids[1] = kids[0] < 0 ? -1 : halve(b, h + k, n - k, hostnode);
    return kids[1] < 0 ? -1 : group_node(b, kids, 2);
}

static int cmp_bfs(const void *x, const void *y, void *arg)
{
    const int64_t *bk = arg;
    int32_t a = *(const int32_t *)x, c = *(const int32_t *)y;
    if (bk[a] != bk[c])
        return (bk[a] > bk[c]) - (bk[a] < bk[c]);
    return (a > c) - (a < c);
}

static tm_err bfs_order(builder *b, int32_t *h)
{
    int32_t nh = b->q->n_hosts, far = 0;
    int64_t *key = tm__malloc_n((size_t)nh, sizeof *key);
    if (!key)
        return tm__nomem(b->ctx);
    for (int32_t i = 0; i < nh; i++)
        if (tm__netdist_hops(b->q->hd, 0, i) > tm__netdist_hops(b->q->hd, 0, far))
            far = i;
    for (int32_t i = 0; i < nh; i++) {
        h[i] = i;
        key[i] = tm__netdist_hops(b->q->hd, far, i);
    }
    qsort_r(h, (size_t)nh, sizeof *h, cmp_bfs, key);
    free(key);
    return TM_EOK;
}

/* ---- leaves in depth-first order -------------------------------------- */

static tm_err index_leaves(tm_ctx *ctx, tm__ptree *t)
{
    int32_t *stack = tm__malloc_n((size_t)t->n * 2 + 2, sizeof *stack), sp = 0, nl = 0;
    t->leaf0 = tm__malloc_n((size_t)t->n, sizeof *t->leaf0);
    t->nleaf = tm__calloc_n((size_t)t->n, sizeof *t->nleaf);
    t->leaves = tm__malloc_n((size_t)t->n, sizeof *t->leaves);
    if (!stack || !t->leaf0 || !t->nleaf || !t->leaves) {
        free(stack);
        return tm__nomem(ctx);
    }
    /* iterative post-order: (node, 0) = enter, (node, 1) = leave */
    stack[sp++] = t->root;
    stack[sp++] = 0;
    while (sp > 0) {
        int32_t phase = stack[--sp], v = stack[--sp];
        if (phase == 0) {
            t->leaf0[v] = nl;
            if (t->nkid[v] == 0) {
                t->leaves[nl++] = v;
                t->nleaf[v] = 1;
                continue;
            }
            stack[sp++] = v;
            stack[sp++] = 1;
            for (int32_t k = t->nkid[v] - 1; k >= 0; k--) {
                stack[sp++] = t->kids[t->kid0[v] + k];
                stack[sp++] = 0;
            }
        } else {
            t->nleaf[v] = nl - t->leaf0[v];
        }
    }
    free(stack);
    return TM_EOK;
}

int tm__ptree_n_orders(const tm_net *net)
{
    const tm_net_grid *gr = tm_net_grid_info(net);
    int n = gr ? gr->ndims : 0;
    return n >= 3 ? 6 : n == 2 ? 2 : 1;
}

/* k-th rotation: dims 0..2 permuted (6 orders), the rest in natural order. */
unsigned tm__ptree_order(int ndims, int k)
{
    static const unsigned char perm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1},
                                             {0, 2, 1}, {1, 0, 2}, {2, 1, 0}};
    unsigned o = 0;
    int m = ndims < 3 ? ndims : 3;
    for (int d = ndims - 1; d >= 0; d--) {
        unsigned v = (unsigned)d;
        if (d < m)
            v = m == 3 ? perm[k % 6][d] : (unsigned)((d + k) % m);
        o = (o << 4) | v;
    }
    return o;
}

static tm_err build_groups(builder *b, const tm_problem *p, const tm__ptree_opts *opts,
                           int32_t *hostnode)
{
    tm_net_levels lv;
    int32_t nh = b->q->n_hosts, *h = NULL, *cur = NULL;
    bool grid = false;
    tm_err err = TM_EOK;
    tm_net_levels_init(&lv);
    if (!opts->force_bfs) {
        err = tm_net_levels_detect(b->ctx, p->net, &lv);
        if (err)
            return err;
    }
    h = tm__malloc_n((size_t)nh, sizeof *h);
    cur = tm__malloc_n((size_t)nh, sizeof *cur);
    if (!h || !cur) {
        err = tm__nomem(b->ctx);
        goto out;
    }
    memcpy(cur, hostnode, (size_t)nh * sizeof *cur);
    for (int32_t i = 0; i < nh; i++)
        h[i] = i;
    if (!opts->force_bfs && lv.n_levels == 0) {
        err = grid_coords(b, p->net, &grid);
        if (err)
            goto out;
    }
    if (!opts->force_bfs && lv.n_levels > 0) {
        snprintf(b->t->kind, sizeof b->t->kind, "%s", lv.kind);
        err = from_levels(b, &lv, cur);
    } else if (!opts->force_bfs && grid) {
        snprintf(b->t->kind, sizeof b->t->kind, "grid");
        for (int d = 0; d < b->grid->ndims; d++)
            b->prio[d] = (int)((opts->dimorder >> (4 * d)) & 15u) % b->grid->ndims;
        b->t->root = rcb(b, h, nh, hostnode);
    } else if (!opts->force_bfs && strcmp(lv.kind, "flat") == 0) {
        snprintf(b->t->kind, sizeof b->t->kind, "flat");
        err = level_up(b, NULL, cur, nh);
        b->t->root = cur[0];
    } else {
        snprintf(b->t->kind, sizeof b->t->kind, "bfs");
        err = bfs_order(b, h);
        if (!err)
            b->t->root = halve(b, h, nh, hostnode);
    }
    if (!err && b->t->root < 0)
        err = tm__nomem(b->ctx);
out:
    tm_net_levels_release(&lv);
    free(h);
    free(cur);
    return err;
}

/* Grids: the representative PE of a group is the member host nearest to
 * the mean of the members' coordinates (RCB boxes never wrap below the
 * first split, so the mean is the box centre), which is what block
 * orientation measures distances from. */
static void grid_reps(const builder *b)
{
    tm__ptree *t = b->t;
    int nd = b->grid->ndims;
    for (int32_t v = 0; v < t->n; v++) {
        double mean[TM_GRID_MAX_DIMS] = {0}, best = -1;
        if (t->nkid[v] == 0)
            continue;
        for (int32_t k = 0; k < t->nleaf[v]; k++) {
            int32_t h = b->q->pe_host[t->pe[t->leaves[t->leaf0[v] + k]]];
            for (int d = 0; d < nd; d++)
                mean[d] += b->coord[(size_t)h * (size_t)nd + (size_t)d];
        }
        for (int d = 0; d < nd; d++)
            mean[d] /= t->nleaf[v];
        for (int32_t k = 0; k < t->nleaf[v]; k++) {
            int32_t pe = t->pe[t->leaves[t->leaf0[v] + k]], h = b->q->pe_host[pe];
            double dist = 0;
            for (int d = 0; d < nd; d++) {
                double x = b->coord[(size_t)h * (size_t)nd + (size_t)d] - mean[d];
                dist += x < 0 ? -x : x;
            }
            if (best < 0 || dist < best) {
                best = dist;
                t->pe[v] = pe;
            }
        }
    }
}

tm_err tm__ptree_build(tm_ctx *ctx, const tm_problem *p, const tm__qnet *q,
                       const tm__ptree_opts *opts, tm__ptree *t)
{
    builder b;
    int32_t *hostnode = NULL;
    tm_err err = TM_EOK;
    memset(t, 0, sizeof *t);
    memset(&b, 0, sizeof b);
    b.ctx = ctx;
    b.t = t;
    b.q = q;
    b.node = q->node;
    if (q->n_hosts <= 0 || q->n_pe <= 0)
        return tm__fail(ctx, TM_EINPUT, "empty allocation");
    hostnode = tm__malloc_n((size_t)q->n_hosts, sizeof *hostnode);
    if (!hostnode)
        return tm__nomem(ctx);
    for (int32_t i = 0; i < q->n_hosts && !err; i++) {
        hostnode[i] = host_node(&b, i);
        if (hostnode[i] < 0)
            err = tm__nomem(ctx);
    }
    if (!err)
        err = build_groups(&b, p, opts, hostnode);
    if (!err)
        err = index_leaves(ctx, t);
    if (!err && b.grid)
        grid_reps(&b);
    free(hostnode);
    free(b.coord), free(b.tmp), free(b.cnt);
    if (err)
        tm__ptree_release(t);
    return err;
}
