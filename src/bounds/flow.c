/* flow.c - the flow certificate of the task graph's cuts (docs/bounds.md
 * "Flow certificate").
 *
 * Route one unit from each source s to every other task of its component
 * along the shortest paths of the symmetric task graph, split evenly over
 * them (Brandes' dependency accumulation, one breadth-first search per
 * source), and let rho be the largest load / weight over the task edges.
 * A set K of k tasks is then crossed by at least min(k, n - k) units per
 * source (one direction or the other), all of it over K's cut edges, so
 * the cut's weight is at least r min(k, n - k) / rho; a partition into
 * parts of at most c tasks is crossed by at least n - c units per source.
 * With every task a source this is the uniform multicommodity flow, exact
 * on the bisections of tori and grids (Bezrukov et al., TCS 2004); with a
 * sample it stays valid, only weaker (the edges next to a source carry
 * much of its flow).  Any routing of the demand gives a certificate: when
 * the weights differ, the units also go along the tree of shortest paths
 * by lengths 1 / weight (heavy edges short), which proves 6x more on the
 * parts of a random geometric graph, and the better of the two is kept.
 * Hand-written: igraph's edge betweenness has no source sample and must
 * not run in worker threads (docs/design.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bounds_int.h"
#include "../graph/heap.h"
#include "../util/util.h"

typedef struct fwork {
    const tm__sgraph *g;
    int32_t *dist, *order;
    double *sigma, *delta, *load;
    double *len;       /* weighted: distances by 1 / weight */
    int64_t *pred;     /* weighted: the entry each task is reached by */
    int32_t *par;      /* weighted: the task it is reached from */
} fwork;

/* Dijkstra's queue: the nearer task first, then the lower id. */
typedef struct ditem {
    double d;
    int32_t v;
} ditem;
static inline bool ditem_first(const ditem *a, const ditem *b)
{
    return a->d < b->d || (a->d == b->d && a->v < b->v);
}
TM__HEAP_DEFINE(dheap, ditem, ditem_first)

/* One source: BFS with path counts, then the dependencies backwards; adds
 * the loads of every directed entry.  Returns the tasks reached. */
static int32_t route_from(fwork *f, int32_t s)
{
    const tm__sgraph *g = f->g;
    int32_t head = 0, tail = 0;
    f->order[tail++] = s;
    f->dist[s] = 0;
    f->sigma[s] = 1;
    while (head < tail) {
        int32_t v = f->order[head++];
        for (int64_t e = g->xadj[v]; e < g->xadj[v + 1]; e++) {
            int32_t w = g->adj[e];
            if (f->dist[w] < 0) {
                f->dist[w] = f->dist[v] + 1;
                f->order[tail++] = w;
            }
            if (f->dist[w] == f->dist[v] + 1)
                f->sigma[w] += f->sigma[v];
        }
    }
    for (int32_t i = tail - 1; i >= 0; i--) {
        int32_t w = f->order[i];
        double pass = 1.0 + f->delta[w]; /* w's own unit and what goes beyond it */
        if (w == s)
            continue;
        for (int64_t e = g->xadj[w]; e < g->xadj[w + 1]; e++) {
            int32_t v = g->adj[e];
            if (f->dist[v] == f->dist[w] - 1) {
                double share = f->sigma[v] / f->sigma[w] * pass;
                f->delta[v] += share;
                f->load[e] += share; /* the entry w -> v carries v -> w's flow: the
                                      * edge is what counts, in either direction */
            }
        }
    }
    for (int32_t i = 0; i < tail; i++) {
        int32_t v = f->order[i];
        f->dist[v] = -1;
        f->sigma[v] = 0;
        f->delta[v] = 0;
    }
    return tail;
}

/* One source over the weighted task graph: the tree of shortest paths by
 * lengths 1 / weight (the heavy edges are short: they carry the flow, the
 * light ones little), each task's unit along its path.  Returns the tasks
 * reached, -1 without memory. */
static int32_t route_weighted(fwork *f, dheap *q, int32_t s)
{
    const tm__sgraph *g = f->g;
    int32_t tail = 0;
    dheap_clear(q);
    f->len[s] = 0;
    f->pred[s] = -1;
    if (dheap_push(q, (ditem){0, s}))
        return -1;
    while (q->n > 0) {
        ditem it;
        dheap_pop(q, &it);
        if (f->dist[it.v] >= 0 || it.d > f->len[it.v])
            continue; /* done, or stale */
        f->dist[it.v] = tail;
        f->order[tail++] = it.v;
        for (int64_t e = g->xadj[it.v]; e < g->xadj[it.v + 1]; e++) {
            int32_t u = g->adj[e];
            double d = it.d + 1.0 / g->w[e];
            if (f->dist[u] < 0 && d < f->len[u]) {
                f->len[u] = d;
                f->pred[u] = e; /* the entry it.v -> u */
                f->par[u] = it.v;
                if (dheap_push(q, (ditem){d, u}))
                    return -1;
            }
        }
    }
    /* leaves first: each task's unit and all it passes on go to its parent */
    for (int32_t i = tail - 1; i > 0; i--) {
        int32_t v = f->order[i];
        double pass = 1.0 + f->delta[v];
        f->load[f->pred[v]] += pass;
        f->delta[f->par[v]] += pass;
    }
    for (int32_t i = 0; i < tail; i++) {
        int32_t v = f->order[i];
        f->dist[v] = -1;
        f->len[v] = INFINITY;
        f->delta[v] = 0;
    }
    return tail;
}

/* Components of the task graph: comp[v] its id, size[id] its size; the
 * number of components. */
static int32_t components(const tm__sgraph *g, int32_t *comp, int32_t *size, int32_t *queue)
{
    int32_t nc = 0;
    for (int32_t v = 0; v < g->n; v++)
        comp[v] = -1;
    for (int32_t s = 0; s < g->n; s++) {
        int32_t head = 0, tail = 0;
        if (comp[s] >= 0)
            continue;
        comp[s] = nc;
        queue[tail++] = s;
        while (head < tail) {
            int32_t v = queue[head++];
            for (int64_t e = g->xadj[v]; e < g->xadj[v + 1]; e++)
                if (comp[g->adj[e]] < 0) {
                    comp[g->adj[e]] = nc;
                    queue[tail++] = g->adj[e];
                }
        }
        size[nc++] = tail;
    }
    return nc;
}

/* rho = the largest load / weight over the edges, each edge's load being
 * that of both its entries (rows are sorted: the reverse entry by binary
 * search). */
static double max_ratio(const tm__sgraph *g, const double *load)
{
    double rho = 0;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++) {
            int32_t v = g->adj[e];
            int64_t lo = g->xadj[v], hi = g->xadj[v + 1] - 1;
            double l;
            if (v < u)
                continue;
            while (lo < hi) {
                int64_t mid = lo + (hi - lo) / 2;
                if (g->adj[mid] < u)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            l = load[e] + (g->adj[lo] == u ? load[lo] : 0.0);
            if (g->w[e] > 0 && l / g->w[e] > rho)
                rho = l / g->w[e];
        }
    return rho;
}

/* Every task's weights equal: the weighted tree routes as the hops do. */
static bool uniform(const tm__sgraph *g)
{
    for (int64_t e = 1; e < g->xadj[g->n]; e++)
        if (g->w[e] != g->w[0])
            return false;
    return true;
}

/* Routes from r sources (every task of a component of 2 or more, or an
 * even sample: every (cand / r)-th of them in task order) by hops or by
 * the weighted tree, and keeps the certificate in t when it proves more
 * (r / rho larger) than the one there. */
static tm_err certify(tm_ctx *ctx, tm__tcut *t, fwork *f, const int32_t *comp,
                      const int32_t *size, int64_t cand, int64_t r, bool weighted)
{
    const tm__sgraph *g = f->g;
    int32_t n = g->n, *srcs, *sc;
    int64_t m = g->xadj[n];
    double rho;
    dheap q;
    tm_err err = TM_EOK;
    if (r > cand)
        r = cand;
    if (r < 1)
        return TM_EOK;
    srcs = tm__malloc_n((size_t)r, sizeof *srcs);
    sc = tm__malloc_n((size_t)r, sizeof *sc);
    if (!srcs || !sc) {
        free(srcs);
        free(sc);
        return tm__nomem(ctx);
    }
    dheap_init(&q);
    memset(f->load, 0, (size_t)m * sizeof *f->load);
    for (int32_t v = 0; v < n; v++) {
        f->dist[v] = -1;
        f->len[v] = INFINITY;
    }
    for (int64_t i = 0, seen = 0, taken = 0; taken < r && i < n; i++) {
        if (size[comp[i]] < 2)
            continue;
        if (seen++ == taken * cand / r)
            srcs[taken++] = (int32_t)i;
    }
    for (int64_t i = 0; i < r && !err; i++) {
        if (weighted ? route_weighted(f, &q, srcs[i]) < 0 : route_from(f, srcs[i]) < 0)
            err = tm__nomem(ctx);
        sc[i] = size[comp[srcs[i]]];
    }
    rho = err ? 0 : max_ratio(g, f->load);
    if (rho > 0 && (t->r == 0 || (double)r / rho > (double)t->r / t->rho)) {
        free(t->src_comp);
        t->src_comp = sc;
        sc = NULL;
        t->rho = rho;
        t->r = (int32_t)r;
    }
    free(srcs);
    free(sc);
    dheap_release(&q);
    return err;
}

tm_err tm__flow_certificate(tm_ctx *ctx, tm__tcut *t, int64_t work)
{
    const tm__sgraph *g = &t->sg;
    int32_t n = g->n, nc, big = 0, *comp = NULL, *size = NULL;
    int64_t m = g->xadj[n], cand = 0;
    fwork f = {g, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    tm_err err = TM_EOK;
    t->rho = 0;
    t->r = 0;
    if (n < 2 || m == 0)
        return TM_EOK;
    comp = tm__malloc_n((size_t)n, sizeof *comp);
    size = tm__malloc_n((size_t)n, sizeof *size);
    f.dist = tm__malloc_n((size_t)n, sizeof *f.dist);
    f.order = tm__malloc_n((size_t)n, sizeof *f.order);
    f.sigma = tm__calloc_n((size_t)n, sizeof *f.sigma);
    f.delta = tm__calloc_n((size_t)n, sizeof *f.delta);
    f.load = tm__calloc_n((size_t)m, sizeof *f.load);
    f.len = tm__malloc_n((size_t)n, sizeof *f.len);
    f.pred = tm__malloc_n((size_t)n, sizeof *f.pred);
    f.par = tm__malloc_n((size_t)n, sizeof *f.par);
    if (!comp || !size || !f.dist || !f.order || !f.sigma || !f.delta || !f.load || !f.len ||
        !f.pred || !f.par) {
        err = tm__nomem(ctx);
        goto out;
    }
    nc = components(g, comp, size, f.order);
    t->n_iso = 0;
    for (int32_t c = 0; c < nc; c++) {
        if (size[c] >= 2) {
            cand += size[c];
            big = big ? -1 : c + 1; /* -1: two components of 2 or more */
        } else {
            t->n_iso++;
        }
    }
    t->n_big = big > 0 ? size[big - 1] : 0;
    /* the routing by hops, split evenly; then, when the weights differ,
     * the weighted tree; the better certificate (more sources per rho) */
    err = certify(ctx, t, &f, comp, size, cand, work / (2 * m + n), false);
    if (!err && !uniform(g) && !tm__stopped(ctx))
        err = certify(ctx, t, &f, comp, size, cand, work / (8 * m + 2 * n), true);
out:
    free(comp);
    free(size);
    free(f.dist);
    free(f.len);
    free(f.pred);
    free(f.par);
    free(f.order);
    free(f.sigma);
    free(f.delta);
    free(f.load);
    return err;
}

double tm__flow_phi(const tm__tcut *t, int64_t k)
{
    int64_t lo, hi, nb = t->n_big;
    double a, b;
    if (t->r <= 0 || nb <= 0)
        return 0.0;
    /* k_C of the set's tasks in the big component: [k - n_iso, k] within
     * [0, n_big]; each source is crossed by min(k_C, n_big - k_C) units, a
     * concave function of k_C: the least at an end of the range */
    lo = k - t->n_iso > 0 ? k - t->n_iso : 0;
    hi = k < nb ? k : nb;
    if (lo > hi)
        return 0.0;
    a = (double)(lo < nb - lo ? lo : nb - lo);
    b = (double)(hi < nb - hi ? hi : nb - hi);
    return (double)t->r * (a < b ? a : b) / t->rho;
}

double tm__flow_part(const tm__tcut *t, int64_t c)
{
    double d = 0;
    if (t->r <= 0)
        return 0.0;
    for (int32_t i = 0; i < t->r; i++)
        d += t->src_comp[i] > c ? (double)(t->src_comp[i] - c) : 0.0;
    return d / t->rho;
}
