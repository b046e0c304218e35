/* ncut.c - the network's side of the lower bounds (docs/bounds.md): which
 * cuts of the network the bounds use, how many tasks each side can hold,
 * the capacity of their links, and least hop distances.
 *
 *  - hosts: every allocated host is a cut (its own links); its capacity in
 *    tasks is slots x tasks per slot;
 *  - the detected levels (docs/hierarchy.md: leaves, pods, dragonfly
 *    groups, PERCS supernodes): a group's hosts with the switches below
 *    them (every host a switch reaches going down through lower tiers is
 *    in the group), so that its cut is the group's up-links;
 *  - grid slabs on tori and meshes whose cables all join grid neighbours:
 *    every run of consecutive planes of a dimension;
 *  - least distances: between two allocated hosts (mu_host), between
 *    allocated hosts of different groups of a level (the levels' cut
 *    decomposition of the hop distance), and the ball profile (how many
 *    task positions lie within r hops of a host, at most).
 * Every breadth-first search follows the transit rule (src/graph/bfs.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bounds_int.h"
#include "topomap/levels.h"
#include "../graph/bfs.h"
#include "../util/util.h"

typedef struct nb {
    tm_ctx *ctx;
    const tm_net *net;
    const tm_net_csr *g;
    const tm_alloc *al;
    int64_t *capv;    /* per vertex: tasks it holds at most (0: not allocated) */
    int64_t n;        /* tasks */
    int64_t work;     /* what is left of the work limit */
    tm__bfs bfs;
    int32_t *dist, *queue;
} nb;

/* ---- classes of groups ---------------------------------------------------- */

static int cmp_group(const void *a, const void *b)
{
    const tm__ngroup *x = a, *y = b;
    if (x->cap != y->cap)
        return x->cap < y->cap ? -1 : 1;
    if (x->cout != y->cout)
        return x->cout < y->cout ? -1 : 1;
    return (x->cin > y->cin) - (x->cin < y->cin);
}

/* Sorts g[0..n) and merges equal groups (mult summed) into *part. */
static void make_classes(tm__npart *part, tm__ngroup *g, int n)
{
    int m = 0;
    qsort(g, (size_t)n, sizeof *g, cmp_group);
    part->maxcap = 0;
    for (int i = 0; i < n; i++) {
        if (m > 0 && cmp_group(&g[m - 1], &g[i]) == 0) {
            g[m - 1].mult += g[i].mult;
            continue;
        }
        g[m++] = g[i];
        if (g[i].cap > part->maxcap)
            part->maxcap = g[i].cap;
    }
    part->g = g;
    part->n = m;
}

/* ---- least distances ------------------------------------------------------ */

/* Breadth-first search from src[0..ns) until a vertex with cap > 0 and
 * (label NULL) any or (else) a label other than mine; its distance, or -1
 * (none reached, or out of work: *out_of_work). */
static int32_t nearest(nb *b, const int32_t *src, int32_t ns, const int32_t *label, int32_t mine,
                       bool *out_of_work)
{
    tm__bfs_start(&b->bfs, src, ns);
    for (int32_t lev = 1;; lev++) {
        int32_t from = b->bfs.tail, got = tm__bfs_level(&b->bfs);
        b->work -= got + 1;
        if (got == 0)
            return -1;
        for (int32_t i = from; i < b->bfs.tail; i++) {
            int32_t v = b->queue[i];
            if (b->capv[v] > 0 && (!label || label[v] != mine))
                return lev;
        }
        if (b->work < 0) {
            *out_of_work = true;
            return -1;
        }
    }
}

/* The least hop distance between two distinct allocated hosts (1 when the
 * work runs out: any two hosts are at least 1 apart); 0 with one host. */
static int32_t mu_hosts(nb *b)
{
    int32_t mu = -1;
    bool oow = false;
    if (b->al->n < 2)
        return 0;
    for (int32_t i = 0; i < b->al->n && !oow; i++) {
        int32_t h = b->al->host[i], d = nearest(b, &h, 1, NULL, 0, &oow);
        if (d > 0 && (mu < 0 || d < mu))
            mu = d;
        if (mu == 1)
            break;
    }
    return oow || mu < 1 ? 1 : mu;
}

/* ---- hosts ---------------------------------------------------------------- */

/* Capacity of v's enabled out-links and in-links. */
static void vertex_caps(const tm_net_csr *g, int32_t v, double *cout, double *cin)
{
    *cout = *cin = 0;
    for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
        *cout += g->cap[g->link[j]];
        *cin += g->cap[g->link[j] ^ 1]; /* link 2c + 1 is 2c reversed */
    }
}

static tm_err host_part(nb *b, tm__npart *part)
{
    tm__ngroup *gr = tm__malloc_n((size_t)b->al->n + 1, sizeof *gr);
    if (!gr)
        return tm__nomem(b->ctx);
    for (int32_t i = 0; i < b->al->n; i++) {
        int32_t h = b->al->host[i];
        gr[i].cap = b->capv[h];
        gr[i].mult = 1;
        vertex_caps(b->g, h, &gr[i].cout, &gr[i].cin);
    }
    part->method = TM__M_INJECTION;
    snprintf(part->name, sizeof part->name, "host");
    make_classes(part, gr, b->al->n);
    part->coef = mu_hosts(b);
    return TM_EOK;
}

/* ---- detected levels ------------------------------------------------------ */

/* tier[v]: hops from the nearest host through switches (hosts 0, -1 not
 * reached); order[]: the vertices by tier.  Returns how many. */
static int32_t tiers(const tm_net_csr *g, int32_t *tier, int32_t *order)
{
    int32_t head = 0, tail = 0;
    for (int32_t v = 0; v < g->n; v++) {
        tier[v] = g->is_host[v] ? 0 : -1;
        if (g->is_host[v])
            order[tail++] = v;
    }
    while (head < tail) {
        int32_t v = order[head++];
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t w = g->head[j];
            if (tier[w] < 0 && !g->is_host[w]) {
                tier[w] = tier[v] + 1;
                order[tail++] = w;
            }
        }
    }
    return tail;
}

/* label[v] of level l: a host's group; a switch's when every vertex below
 * it (lower tier) has that one label, else -1. */
static void labels(const tm_net_csr *g, const tm_net_levels *lv, int l, const int32_t *tier,
                   const int32_t *order, int32_t no, int32_t *label)
{
    for (int32_t v = 0; v < g->n; v++)
        label[v] = g->is_host[v] ? lv->group[l][v] : -1;
    for (int32_t i = 0; i < no; i++) {
        int32_t v = order[i], lab = -2;
        if (g->is_host[v])
            continue;
        for (int32_t j = g->off[v]; j < g->off[v + 1] && lab != -1; j++) {
            int32_t w = g->head[j];
            if (tier[w] < 0 || tier[w] >= tier[v])
                continue;
            lab = lab == -2 || lab == label[w] ? label[w] : -1;
        }
        label[v] = lab >= 0 ? lab : -1;
    }
}

/* The least hop distance from the allocated hosts of one group to an
 * allocated host of another group of the level; 0 when one group holds
 * them all (the level cuts nothing), -1 when out of work or memory. */
static int32_t mu_level(nb *b, const int32_t *label, int32_t ngroups)
{
    int32_t *by = tm__malloc_n((size_t)b->al->n + 1, sizeof *by);
    int32_t *start = tm__calloc_n((size_t)ngroups + 2, sizeof *start);
    int32_t *pos = tm__malloc_n((size_t)ngroups + 2, sizeof *pos);
    int32_t mu = -1, used = 0;
    bool oow = false;
    if (!by || !start || !pos) {
        oow = true;
        goto out;
    }
    for (int32_t i = 0; i < b->al->n; i++)
        start[label[b->al->host[i]] + 1]++;
    for (int32_t gi = 0; gi < ngroups; gi++) {
        used += start[gi + 1] > 0;
        start[gi + 1] += start[gi];
    }
    memcpy(pos, start, ((size_t)ngroups + 1) * sizeof *pos);
    for (int32_t i = 0; i < b->al->n; i++)
        by[pos[label[b->al->host[i]]]++] = b->al->host[i];
    /* group gi's hosts: by[start[gi] .. start[gi + 1]) */
    for (int32_t gi = 0; used > 1 && gi < ngroups && !oow; gi++) {
        int32_t ns = start[gi + 1] - start[gi], d;
        if (ns == 0)
            continue;
        d = nearest(b, by + start[gi], ns, label, gi, &oow);
        if (d >= 0 && (mu < 0 || d < mu))
            mu = d;
    }
out:
    free(by);
    free(start);
    free(pos);
    return oow ? -1 : used > 1 ? mu : 0;
}

static tm_err level_parts(nb *b, tm__ncut *nc)
{
    const tm_net_csr *g = b->g;
    tm_net_levels lv;
    int32_t *tier = NULL, *order = NULL, *label = NULL, no;
    double prev = nc->part[0].coef; /* M_{l-1}: mu_host, then the levels' running max */
    tm_err err;
    tm_net_levels_init(&lv);
    err = tm_net_levels_detect(b->ctx, b->net, &lv);
    if (err || lv.n_levels == 0)
        goto out;
    tier = tm__malloc_n((size_t)g->n, sizeof *tier);
    order = tm__malloc_n((size_t)g->n, sizeof *order);
    label = tm__malloc_n((size_t)g->n, sizeof *label);
    if (!tier || !order || !label) {
        err = tm__nomem(b->ctx);
        goto out;
    }
    no = tiers(g, tier, order);
    for (int l = 0; l < lv.n_levels; l++) {
        int32_t ng = lv.n_groups[l], mu;
        tm__npart *part = &nc->part[nc->nparts];
        tm__ngroup *gr = tm__calloc_n((size_t)ng + 1, sizeof *gr);
        if (!gr) {
            err = tm__nomem(b->ctx);
            goto out;
        }
        labels(g, &lv, l, tier, order, no, label);
        for (int32_t gi = 0; gi < ng; gi++)
            gr[gi].mult = 1;
        for (int32_t i = 0; i < b->al->n; i++)
            gr[label[b->al->host[i]]].cap += b->capv[b->al->host[i]];
        for (int32_t v = 0; v < g->n; v++)
            for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
                int32_t w = g->head[j];
                double c = g->cap[g->link[j]];
                if (label[v] == label[w])
                    continue;
                if (label[v] >= 0)
                    gr[label[v]].cout += c;
                if (label[w] >= 0)
                    gr[label[w]].cin += c;
            }
        for (int32_t gi = 0; gi < ng; gi++)
            if (gr[gi].cap > b->n)
                gr[gi].cap = b->n;
        part->method = TM__M_LEVELS;
        snprintf(part->name, sizeof part->name, "%s", lv.name[l]);
        make_classes(part, gr, ng);
        nc->nparts++;
        /* the cut decomposition's coefficient: pairs of hosts in different
         * groups of this level are at least max(M_{l-1}, mu_l) apart */
        mu = mu_level(b, label, ng);
        part->coef = mu > prev ? mu - prev : 0;
        prev = mu > prev ? mu : prev;
    }
out:
    free(tier);
    free(order);
    free(label);
    tm_net_levels_release(&lv);
    return err;
}

/* ---- grid slabs ----------------------------------------------------------- */

/* Coordinate of grid vertex v (offset from the base) in dimension d. */
static int32_t coord(const tm_net_grid *gr, int32_t v, int d)
{
    int64_t x = v - gr->base;
    for (int k = 0; k < d; k++)
        x /= gr->dims[k];
    return (int32_t)(x % gr->dims[d]);
}

/* The dimension a cable between grid vertices a and b steps along and the
 * boundary it crosses (between planes j and j + 1, mod L); -1 when it does
 * not join grid neighbours. */
static int cable_dim(const tm_net_grid *gr, int32_t a, int32_t b, int32_t *j)
{
    int dim = -1;
    for (int d = 0; d < gr->ndims; d++) {
        int32_t x = coord(gr, a, d), y = coord(gr, b, d), L = gr->dims[d];
        if (x == y)
            continue;
        if (dim >= 0)
            return -1;
        dim = d;
        if (y == x + 1)
            *j = x;
        else if (x == y + 1)
            *j = y;
        else if (gr->wrap[d] && L >= 3 && ((x == L - 1 && y == 0) || (y == L - 1 && x == 0)))
            *j = L - 1;
        else
            return -1;
    }
    return dim;
}

static tm_err add_set(nb *b, tm__ncut *nc, int64_t *cap, int64_t capS, double c, double coef)
{
    tm__nset *s;
    int64_t lo = b->n - (nc->total_cap - capS), hi = capS < b->n ? capS : b->n;
    if (lo < 1 && !(coef > 0))
        return TM_EOK; /* no task forced onto the side: no congestion bound */
    if ((int64_t)nc->nsets == *cap) {
        size_t sc = (size_t)*cap;
        if (tm__grow((void **)&nc->set, &sc, (size_t)nc->nsets + 1, sizeof *nc->set) < 0)
            return tm__nomem(b->ctx);
        *cap = (int64_t)sc;
    }
    s = &nc->set[nc->nsets++];
    s->lo = lo > 0 ? lo : 0;
    s->hi = hi;
    s->cout = s->cin = c;
    s->coef = coef;
    return TM_EOK;
}

/* The slabs of one dimension of length L: bc[j] the capacity (per
 * direction) across the boundary after plane j, cp[j] the tasks plane j
 * holds at most. */
static tm_err dim_slabs(nb *b, tm__ncut *nc, int64_t *cap, int32_t L, bool wrap,
                        const double *bc, const int64_t *cp)
{
    tm_err err = TM_EOK;
    if (wrap && L >= 3) {
        for (int32_t a = 0; a < L && !err; a++)
            for (int32_t t = 1; t < L && !err; t++) {
                double c = bc[(a - 1 + L) % L] + bc[(a + t - 1) % L];
                int64_t cs = 0;
                for (int32_t k = 0; k < t; k++)
                    cs += cp[(a + k) % L];
                /* a ring's distance: half the arcs of floor(L/2) planes that
                 * separate the two ends (docs/bounds.md "Tori") */
                err = add_set(b, nc, cap, cs, c, t == L / 2 ? 0.5 : 0.0);
            }
        return err;
    }
    for (int32_t a = 0; a < L && !err; a++) {
        int64_t cs = 0;
        for (int32_t e = a + 1; e <= L && !err; e++) {
            double c = (a > 0 ? bc[a - 1] : 0) + (e < L ? bc[e - 1] : 0);
            cs += cp[e - 1];
            if (a == 0 && e == L)
                break;
            /* a line's distance: the thresholds [0, t) between the ends */
            err = add_set(b, nc, cap, cs, c, a == 0 ? 1.0 : 0.0);
        }
    }
    return err;
}

/* Slabs when the network is a grid whose cables all join grid neighbours
 * (then no path is shorter than the grid distance, and a slab's cut is the
 * cables across its two boundary planes). */
static tm_err grid_slabs(nb *b, tm__ncut *nc)
{
    const tm_net_grid *gr = tm_net_grid_info(b->net);
    int64_t prod = 1, setcap = 0;
    int32_t ncab = tm_net_n_cables(b->net), *cdim = NULL, *cj = NULL;
    double *bc = NULL;
    int64_t *cp = NULL;
    tm_err err = TM_EOK;
    if (!gr || gr->ndims <= 0)
        return TM_EOK;
    for (int d = 0; d < gr->ndims; d++)
        prod *= gr->dims[d];
    for (int32_t i = 0; i < b->al->n; i++)
        if (b->al->host[i] < gr->base || b->al->host[i] >= gr->base + prod)
            return TM_EOK;
    cdim = tm__malloc_n((size_t)ncab + 1, sizeof *cdim);
    cj = tm__malloc_n((size_t)ncab + 1, sizeof *cj);
    if (!cdim || !cj) {
        err = tm__nomem(b->ctx);
        goto out;
    }
    for (int32_t c = 0; c < ncab; c++) {
        int32_t a, z;
        tm_net_cable(b->net, c, &a, &z);
        if (a < gr->base || a >= gr->base + prod || z < gr->base || z >= gr->base + prod ||
            (cdim[c] = cable_dim(gr, a, z, &cj[c])) < 0)
            goto out; /* a shortcut or a switch: the grid distance is no bound */
    }
    for (int d = 0; d < gr->ndims && !err; d++) {
        int32_t L = gr->dims[d];
        if (L < 2)
            continue;
        bc = tm__calloc_n((size_t)L, sizeof *bc);
        cp = tm__calloc_n((size_t)L, sizeof *cp);
        if (!bc || !cp) {
            err = tm__nomem(b->ctx);
            break;
        }
        for (int32_t c = 0; c < ncab; c++)
            if (cdim[c] == d && tm_net_cable_enabled(b->net, c))
                bc[cj[c]] += tm_net_capacity(b->net, c);
        for (int32_t i = 0; i < b->al->n; i++)
            cp[coord(gr, b->al->host[i], d)] += b->capv[b->al->host[i]];
        err = dim_slabs(b, nc, &setcap, L, gr->wrap[d], bc, cp);
        free(bc);
        free(cp);
        bc = NULL;
        cp = NULL;
    }
    if (!err && !nc->set)
        nc->set = tm__malloc_n(1, sizeof *nc->set); /* slabs apply, none forces a task */
    if (!err && !nc->set)
        err = tm__nomem(b->ctx);
out:
    free(cdim);
    free(cj);
    free(bc);
    free(cp);
    return err;
}

/* ---- the ball profile ----------------------------------------------------- */

/* The vertex a host's distances run through: the one transit vertex all
 * its enabled cables go to (a leaf switch), else the host itself. */
static int32_t class_vertex(const tm_net_csr *g, int32_t h)
{
    int32_t s = -1;
    for (int32_t j = g->off[h]; j < g->off[h + 1]; j++) {
        if (s >= 0 && g->head[j] != s)
            return h;
        s = g->head[j];
    }
    return s >= 0 && g->transit[s] ? s : h;
}

typedef struct keyed {
    int32_t key, host;
} keyed;

static int cmp_keyed(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    return x->key != y->key ? (x->key > y->key) - (x->key < y->key)
                            : (x->host > y->host) - (x->host < y->host);
}

/* B(r), the most task positions within r hops of a host of the class
 * (via: hosts whose one neighbour is s, then B(0) = the class's largest
 * capacity, B(1) = that + s's, B(r) = T(r - 1) for r >= 2; else the host
 * s itself, B(r) = T(r); T(r) = the capacity within r hops of s), into the
 * envelope N, and its last value into tail[R]: it holds for every radius
 * from R on (it reached need = positions + 1, or the search ended).
 * False when the work runs out. */
static bool class_ball(nb *b, int32_t s, bool via, int64_t capmax, int64_t need, int64_t *N,
                       int64_t *tail, int32_t *rmax)
{
    int64_t T, B;
    int32_t r = 0;
    tm__bfs_start(&b->bfs, &s, 1);
    T = b->capv[s];
    B = via ? capmax : T;
    for (;;) {
        int32_t from, got;
        if (N[r] < B)
            N[r] = B;
        if (r > *rmax)
            *rmax = r;
        if (B >= need)
            break;
        if (via && r == 0) {
            B = capmax + b->capv[s];
            r++;
            continue;
        }
        from = b->bfs.tail;
        got = tm__bfs_level(&b->bfs);
        b->work -= got + 1;
        if (got == 0)
            break;
        for (int32_t i = from; i < b->bfs.tail; i++)
            T += b->capv[b->queue[i]];
        B = T;
        r++;
        if (b->work < 0)
            return false;
    }
    if (tail[r] < B)
        tail[r] = B;
    return true;
}

static tm_err ball_profile(nb *b, tm__ncut *nc, int32_t positions)
{
    const tm_net_csr *g = b->g;
    int32_t nh = b->al->n, rmax = 0;
    keyed *k = tm__malloc_n((size_t)nh + 1, sizeof *k);
    int64_t *N = tm__calloc_n((size_t)g->n + 3, sizeof *N);
    int64_t *tail = tm__calloc_n((size_t)g->n + 3, sizeof *tail);
    bool ok = true;
    tm_err err = TM_EOK;
    if (!k || !N || !tail) {
        err = tm__nomem(b->ctx);
        goto out;
    }
    for (int32_t i = 0; i < nh; i++) {
        k[i].host = b->al->host[i];
        k[i].key = class_vertex(g, k[i].host);
    }
    qsort(k, (size_t)nh, sizeof *k, cmp_keyed);
    for (int32_t i = 0; i < nh && ok;) {
        int32_t j = i;
        int64_t capmax = 0;
        for (; j < nh && k[j].key == k[i].key; j++)
            capmax = b->capv[k[j].host] > capmax ? b->capv[k[j].host] : capmax;
        ok = class_ball(b, k[i].key, k[i].key != k[i].host, capmax, (int64_t)positions + 1, N,
                        tail, &rmax);
        i = j;
    }
    if (!ok)
        goto out; /* out of work: no profile */
    nc->prof = tm__malloc_n((size_t)positions + 1, sizeof *nc->prof);
    if (!nc->prof) {
        err = tm__nomem(b->ctx);
        goto out;
    }
    nc->nprof = positions;
    /* N'(r) = max(N(r), the tails of classes ended at or before r); the
     * i-th nearest other position is at least prof[i - 1] hops away */
    for (int32_t r = 0, i = 1; i <= positions; r++) {
        int64_t have;
        if (r > 0 && tail[r - 1] > tail[r])
            tail[r] = tail[r - 1];
        have = N[r] > tail[r] ? N[r] : tail[r];
        while (i <= positions && have - 1 >= i)
            nc->prof[i++ - 1] = r;
        if (r >= rmax)
            while (i <= positions) /* positions no host reaches: vacuous */
                nc->prof[i++ - 1] = r;
    }
out:
    free(k);
    free(N);
    free(tail);
    return err;
}

/* ---- the whole ------------------------------------------------------------ */

tm_err tm__ncut_build(tm_ctx *ctx, const tm_problem *p, int32_t tasks_per_slot,
                      int32_t positions, int64_t work, tm__ncut *out)
{
    nb b = {0};
    tm_err err;
    memset(out, 0, sizeof *out);
    b.ctx = ctx;
    b.net = p->net;
    b.g = tm_net_csr_get(p->net);
    b.al = p->alloc;
    b.n = p->comm->n;
    b.work = work;
    out->n_tasks = b.n;
    b.capv = tm__calloc_n((size_t)b.g->n + 1, sizeof *b.capv);
    b.dist = tm__malloc_n((size_t)b.g->n + 1, sizeof *b.dist);
    b.queue = tm__malloc_n((size_t)b.g->n + 1, sizeof *b.queue);
    if (!b.capv || !b.dist || !b.queue) {
        err = tm__nomem(ctx);
        goto out;
    }
    tm__bfs_init(&b.bfs, b.g, b.dist, b.queue);
    for (int32_t i = 0; i < b.al->n; i++) {
        int64_t c = (int64_t)b.al->slots[i] * tasks_per_slot;
        b.capv[b.al->host[i]] = c < b.n ? c : b.n;
        out->total_cap += b.capv[b.al->host[i]];
    }
    for (int32_t v = 0; v < b.g->n; v++)
        for (int32_t j = b.g->off[v]; j < b.g->off[v + 1]; j++)
            out->link_cap += b.g->cap[b.g->link[j]];
    err = host_part(&b, &out->part[0]);
    if (err)
        goto out;
    out->nparts = 1;
    err = level_parts(&b, out);
    if (!err)
        err = grid_slabs(&b, out);
    if (!err && positions > 0)
        err = ball_profile(&b, out, positions);
out:
    free(b.capv);
    free(b.dist);
    free(b.queue);
    if (err)
        tm__ncut_release(out);
    return err;
}

void tm__ncut_release(tm__ncut *nc)
{
    for (int i = 0; i < nc->nparts; i++)
        free(nc->part[i].g);
    free(nc->set);
    free(nc->prof);
    memset(nc, 0, sizeof *nc);
}
