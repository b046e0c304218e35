/* recursive.c - the `recursive` strategy: Algorithm 2 of Hoefler & Snir 2011
 * (recursive bisection mapping).  H (hosts with their free slots as vertex
 * weights, switches and transit hosts with weight 0, cable capacity as edge
 * weight) and G are bisected with METIS and the halves are matched and
 * mapped recursively until a part of H holds a single host with slots.
 *
 * Generalised as the issue asks: H's halves have capacities C1, C2 whose sum
 * may exceed the tasks (more slots than tasks) and hosts may have different
 * slot counts, so G is bisected into exactly n1 = round(n C1 / (C1 + C2))
 * (clamped so both halves fit) and n - n1 tasks; METIS's imbalance is
 * corrected by moving least-cumulative-weight vertices (src/graph/part_exact.c), which
 * makes the paper's "if sum C1 == |G1|" matching hold by construction.
 * Non-transit hosts without slots can carry no traffic and are dropped from H. */
#include <stdlib.h>
#include <string.h>

#include "netmap.h"
#include "../mapping/strategies.h"
#include "../util/util.h"

/* H as an undirected graph: kept vertices only, parallel cables merged
 * (capacities summed). */
static tm_err host_graph(tm_ctx *ctx, const tm__placeprob *pp, const int32_t *capv,
                         int32_t *keep_ids, int32_t *nkeep, int32_t *local, tm__sgraph *out)
{
    const tm_net_csr *g = pp->net;
    int32_t k = 0;
    int32_t *mark = NULL;
    int64_t *pos = NULL, m = 0;
    memset(out, 0, sizeof *out);
    for (int32_t v = 0; v < g->n; v++) {
        local[v] = -1;
        if (capv[v] > 0 || g->transit[v]) {
            local[v] = k;
            keep_ids[k++] = v;
        }
    }
    *nkeep = k;
    mark = tm__malloc_n((size_t)g->n, sizeof *mark);
    pos = tm__malloc_n((size_t)g->n, sizeof *pos);
    out->n = k;
    out->xadj = tm__malloc_n((size_t)k + 1, sizeof *out->xadj);
    out->adj = tm__malloc_n((size_t)g->off[g->n] + 1, sizeof *out->adj);
    out->w = tm__malloc_n((size_t)g->off[g->n] + 1, sizeof *out->w);
    if (!mark || !pos || !out->xadj || !out->adj || !out->w) {
        free(mark);
        free(pos);
        tm__sgraph_release(out);
        return tm__nomem(ctx);
    }
    for (int32_t v = 0; v < g->n; v++)
        mark[v] = -1;
    out->xadj[0] = 0;
    for (int32_t i = 0; i < k; i++) {
        int32_t v = keep_ids[i];
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t h = g->head[j];
            if (local[h] < 0 || h == v)
                continue;
            if (mark[h] == i) {
                out->w[pos[h]] += g->cap[g->link[j]];
                continue;
            }
            mark[h] = i;
            pos[h] = m;
            out->adj[m] = local[h];
            out->w[m++] = g->cap[g->link[j]];
        }
        out->xadj[i + 1] = m;
    }
    for (int32_t v = 0; v < g->n; v++)
        local[v] = -1;
    free(mark);
    free(pos);
    return TM_EOK;
}

typedef struct {
    int32_t t_lo, t_hi; /* range of tasks[] */
    int32_t h_lo, h_hi; /* range of hv[] (indices into the kept H vertices) */
    int32_t id;         /* item id: tasks[t_lo..t_hi) have itemof == id */
} work;

#define NLANDMARKS 16

typedef struct {
    const tm__placeprob *pp;
    const tm__sgraph *H;
    const int32_t *hcap;   /* per kept H vertex */
    const int32_t *haidx;  /* per kept H vertex: allocation index or -1 */
    int32_t *tasks, *hv, *tmp, *glocal, *hlocal, *part;
    int32_t *wcap;         /* vertex weights of an H subgraph */
    /* orientation of the halves (see orient()) */
    int32_t nl;            /* landmarks */
    float *lmd;            /* lmd[l * nh + a]: hops from landmark l to allocated host a */
    int32_t *itemof;       /* task -> id of the work item holding it */
    float *iprof;          /* per item id: nl average landmark distances of its hosts */
    size_t iprof_cap;      /* items the array holds */
    int32_t nitems;
} rstate;

/* Average landmark distances of the hosts with slots in hv[lo..hi). */
static void profile(const rstate *rs, int32_t lo, int32_t hi, float *out)
{
    double acc[NLANDMARKS] = {0}, wsum = 0;
    for (int32_t i = lo; i < hi; i++) {
        int32_t k = rs->hv[i], a = rs->haidx[k];
        if (rs->hcap[k] <= 0)
            continue;
        wsum += rs->hcap[k];
        for (int32_t l = 0; l < rs->nl; l++)
            acc[l] += (double)rs->hcap[k] * rs->lmd[(size_t)l * (size_t)rs->pp->nh + (size_t)a];
    }
    for (int32_t l = 0; l < rs->nl; l++)
        out[l] = wsum > 0 ? (float)(acc[l] / wsum) : 0.0f;
}

static double lm_dist(const float *x, const float *y, int32_t nl)
{
    double d = 0;
    for (int32_t l = 0; l < nl; l++) {
        double e = x[l] > y[l] ? x[l] - y[l] : y[l] - x[l];
        d = e > d ? e : d;
    }
    return d;
}

/* Orientation, the one choice Algorithm 2 leaves open: the G half bound for
 * H1 may as well go to H2 when the sizes allow.  Tasks outside the current
 * item are already placed or belong to a pending item; their traffic pulls
 * each G half towards the H half nearer to them (distances estimated from
 * landmark profiles).  Returns true if the halves should be exchanged. */
static bool orient(const rstate *rs, work w, const int32_t *part, const float *p0,
                   const float *p1, const int32_t *place)
{
    const tm__sgraph *g = rs->pp->g;
    const float *ph[2] = {p0, p1};
    double same = 0, swap = 0;
    int32_t nh = rs->pp->nh;
    float loc[NLANDMARKS];
    for (int32_t i = w.t_lo; i < w.t_hi; i++) {
        int32_t t = rs->tasks[i], side = part[i - w.t_lo];
        for (int64_t j = g->xadj[t]; j < g->xadj[t + 1]; j++) {
            int32_t u = g->adj[j];
            const float *lu;
            if (rs->itemof[u] == w.id)
                continue;
            if (place[u] >= 0) {
                for (int32_t l = 0; l < rs->nl; l++)
                    loc[l] = rs->lmd[(size_t)l * (size_t)nh + (size_t)place[u]];
                lu = loc;
            } else {
                lu = rs->iprof + (size_t)rs->itemof[u] * (size_t)rs->nl;
            }
            same += g->w[j] * lm_dist(ph[side], lu, rs->nl);
            swap += g->w[j] * lm_dist(ph[1 - side], lu, rs->nl);
        }
    }
    return swap < same * (1 - 1e-9);
}

/* Records the profile of a new item and returns its id. */
static int32_t new_item(tm_ctx *ctx, rstate *rs, const float *prof, tm_err *err)
{
    int32_t id = rs->nitems;
    size_t cap = rs->iprof_cap;
    if (tm__grow((void **)&rs->iprof, &cap, ((size_t)id + 1) * (size_t)rs->nl,
                 sizeof *rs->iprof)) {
        *err = tm__nomem(ctx);
        return -1;
    }
    rs->iprof_cap = cap;
    memcpy(rs->iprof + (size_t)id * (size_t)rs->nl, prof, (size_t)rs->nl * sizeof *prof);
    rs->nitems++;
    return id;
}

/* Splits range [lo, hi) of arr by side[] (0 first), stable; returns the
 * first index of side 1. */
static int32_t split_range(int32_t *arr, int32_t lo, int32_t hi, const int32_t *side,
                           int32_t *tmp)
{
    int32_t a = lo, b = 0;
    for (int32_t i = lo; i < hi; i++) {
        if (side[i - lo] == 0)
            arr[a++] = arr[i];
        else
            tmp[b++] = arr[i];
    }
    memcpy(arr + a, tmp, (size_t)b * sizeof *arr);
    return a;
}

/* Bisects the hosts of w (METIS on their graph, weights = slots, halves of
 * W slots) into halves[].h_*, with the halves' landmark profiles; *c1_out
 * is the slots of the first half. */
static tm_err split_hosts(tm_ctx *ctx, rstate *rs, work w, int64_t W, int32_t with_cap,
                          uint64_t seed, work *halves, float *p0, float *p1, int64_t *c1_out)
{
    int32_t nh = w.h_hi - w.h_lo, split;
    int64_t c1 = 0, tg[2] = {W / 2, W - W / 2};
    tm__sgraph hs = {0};
    tm_err err = tm__sgraph_induced(ctx, rs->H, rs->hv + w.h_lo, nh, rs->hlocal, &hs);
    if (err)
        return err;
    for (int32_t i = 0; i < nh; i++)
        rs->wcap[i] = rs->hcap[rs->hv[w.h_lo + i]];
    err = tm__metis_part(ctx, &hs, rs->wcap, 2, tg, seed, rs->part);
    tm__sgraph_release(&hs);
    if (err)
        return err;
    for (int32_t i = 0; i < nh; i++)
        if (rs->part[i] == 0)
            c1 += rs->wcap[i];
    if (c1 == 0 || c1 == W) {
        /* METIS put every slot on one side (tiny or odd weights): split the
         * hosts with slots in their order instead */
        int32_t seen = 0;
        for (int32_t i = 0; i < nh; i++) {
            rs->part[i] = seen >= (with_cap + 1) / 2;
            seen += rs->wcap[i] > 0;
        }
        c1 = 0;
        for (int32_t i = 0; i < nh; i++)
            if (rs->part[i] == 0)
                c1 += rs->wcap[i];
    }
    split = split_range(rs->hv, w.h_lo, w.h_hi, rs->part, rs->tmp);
    halves[0].h_lo = w.h_lo;
    halves[0].h_hi = split;
    halves[1].h_lo = split;
    halves[1].h_hi = w.h_hi;
    profile(rs, w.h_lo, split, p0);
    profile(rs, split, w.h_hi, p1);
    *c1_out = c1;
    return TM_EOK;
}

/* Bisects the tasks of w into n1 and nt - n1 (METIS on their graph),
 * turned toward the host half they talk to when the sizes allow (c1, c2:
 * the halves' slots), into halves[].t_*. */
static tm_err split_tasks(tm_ctx *ctx, rstate *rs, work w, int64_t n1, int64_t c1, int64_t c2,
                          uint64_t seed, const float *p0, const float *p1, const int32_t *place,
                          work *halves)
{
    int32_t nt = w.t_hi - w.t_lo, split;
    int64_t tg[2] = {n1, nt - n1};
    tm__sgraph gs = {0};
    tm_err err = tm__sgraph_induced(ctx, rs->pp->g, rs->tasks + w.t_lo, nt, rs->glocal, &gs);
    if (!err)
        err = tm__metis_part(ctx, &gs, NULL, 2, tg, seed + 1, rs->part);
    tm__sgraph_release(&gs);
    if (err)
        return err;
    if (nt - n1 <= c1 && n1 <= c2 && orient(rs, w, rs->part, p0, p1, place))
        for (int32_t i = 0; i < nt; i++)
            rs->part[i] ^= 1;
    split = split_range(rs->tasks, w.t_lo, w.t_hi, rs->part, rs->tmp);
    halves[0].t_lo = w.t_lo;
    halves[0].t_hi = split;
    halves[1].t_lo = split;
    halves[1].t_hi = w.t_hi;
    return TM_EOK;
}

/* One step: bisect H and G of work item w and push the halves. */
static tm_err step(tm_ctx *ctx, rstate *rs, work w, uint64_t seed, work *halves, int *nhalves,
                   int32_t *place)
{
    int32_t nt = w.t_hi - w.t_lo, with_cap = 0, last = -1;
    int64_t W = 0, c1, c2, n1;
    float p0[NLANDMARKS], p1[NLANDMARKS];
    tm_err err;
    *nhalves = 0;
    for (int32_t i = w.h_lo; i < w.h_hi; i++) {
        if (rs->hcap[rs->hv[i]] > 0) {
            with_cap++;
            last = rs->hv[i];
            W += rs->hcap[rs->hv[i]];
        }
    }
    if (nt == 0)
        return TM_EOK;
    if (with_cap <= 1) {
        for (int32_t i = w.t_lo; i < w.t_hi; i++)
            place[rs->tasks[i]] = rs->haidx[last];
        return TM_EOK;
    }
    err = split_hosts(ctx, rs, w, W, with_cap, seed, halves, p0, p1, &c1);
    if (err)
        return err;
    c2 = W - c1;
    n1 = (int64_t)((double)nt * (double)c1 / (double)W + 0.5);
    if (n1 > c1)
        n1 = c1;
    if (nt - n1 > c2)
        n1 = nt - c2;
    err = split_tasks(ctx, rs, w, n1, c1, c2, seed, p0, p1, place, halves);
    if (err)
        return err;
    halves[0].id = new_item(ctx, rs, p0, &err);
    if (!err)
        halves[1].id = new_item(ctx, rs, p1, &err);
    if (err)
        return err;
    for (int h = 0; h < 2; h++)
        for (int32_t i = halves[h].t_lo; i < halves[h].t_hi; i++)
            rs->itemof[rs->tasks[i]] = halves[h].id;
    *nhalves = 2;
    return TM_EOK;
}

static void rstate_release(rstate *rs)
{
    free((void *)rs->hcap);
    free((void *)rs->haidx);
    free(rs->tasks);
    free(rs->hv);
    free(rs->tmp);
    free(rs->glocal);
    free(rs->hlocal);
    free(rs->part);
    free(rs->wcap);
    free(rs->lmd);
    free(rs->itemof);
    free(rs->iprof);
}

/* The host graph H of the hosts worth keeping (host_graph) into *H, and
 * per kept vertex its slots and allocation index into rs. */
static tm_err rstate_hosts(tm_ctx *ctx, const tm__placeprob *pp, rstate *rs, tm__sgraph *H,
                           int32_t *nkeep)
{
    int32_t nv = pp->net->n;
    int32_t *capv = tm__calloc_n((size_t)nv, sizeof *capv);
    int32_t *aidxv = tm__malloc_n((size_t)nv, sizeof *aidxv);
    int32_t *keep = tm__malloc_n((size_t)nv, sizeof *keep);
    int32_t *hcap = tm__malloc_n((size_t)nv, sizeof *hcap);
    int32_t *haidx = tm__malloc_n((size_t)nv, sizeof *haidx);
    tm_err err = TM_EOK;
    rs->hcap = hcap;
    rs->haidx = haidx;
    if (!capv || !aidxv || !keep || !hcap || !haidx) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t v = 0; v < nv; v++)
        aidxv[v] = -1;
    for (int32_t i = 0; i < pp->nh; i++) {
        capv[pp->host[i]] = pp->cap[i];
        aidxv[pp->host[i]] = i;
    }
    err = host_graph(ctx, pp, capv, keep, nkeep, rs->hlocal, H);
    if (err)
        goto out;
    for (int32_t i = 0; i < *nkeep; i++) {
        hcap[i] = capv[keep[i]];
        haidx[i] = aidxv[keep[i]];
        rs->hv[i] = i;
        rs->hlocal[i] = -1;
    }
out:
    free(capv);
    free(aidxv);
    free(keep);
    return err;
}

tm_err tm__recursive_core(tm_ctx *ctx, const tm__placeprob *pp, uint64_t seed, int32_t *place)
{
    int32_t n = pp->g->n, nv = pp->net->n, nkeep = 0, top = 0;
    work *stack = NULL;
    tm__sgraph H = {0};
    rstate rs = {0};
    size_t big = (size_t)(nv > n ? nv : n) + 1;
    tm_err err;
    uint64_t steps = 0;

    rs.tasks = tm__malloc_n((size_t)n + 1, sizeof *rs.tasks);
    rs.hv = tm__malloc_n((size_t)nv + 1, sizeof *rs.hv);
    rs.tmp = tm__malloc_n(big, sizeof *rs.tmp);
    rs.glocal = tm__malloc_n((size_t)n + 1, sizeof *rs.glocal);
    rs.hlocal = tm__malloc_n((size_t)nv + 1, sizeof *rs.hlocal);
    rs.part = tm__malloc_n(big, sizeof *rs.part);
    rs.wcap = tm__malloc_n((size_t)nv + 1, sizeof *rs.wcap);
    /* the work stack never holds more than one pending item per level of a
     * binary recursion of depth <= n + nv */
    stack = tm__malloc_n(big + 2, sizeof *stack);
    if (!rs.tasks || !rs.hv || !rs.tmp || !rs.glocal || !rs.hlocal || !rs.part || !rs.wcap ||
        !stack) {
        err = tm__nomem(ctx);
        goto out;
    }
    err = rstate_hosts(ctx, pp, &rs, &H, &nkeep);
    if (err)
        goto out;
    for (int32_t t = 0; t < n; t++) {
        rs.tasks[t] = t;
        rs.glocal[t] = -1;
        place[t] = -1;
    }
    rs.pp = pp;
    rs.H = &H;
    rs.nl = pp->nh < NLANDMARKS ? pp->nh : NLANDMARKS;
    rs.lmd = tm__malloc_n((size_t)rs.nl * (size_t)pp->nh + 1, sizeof *rs.lmd);
    rs.itemof = tm__calloc_n((size_t)n + 1, sizeof *rs.itemof);
    if (!rs.lmd || !rs.itemof) {
        err = tm__nomem(ctx);
        goto out;
    }
    err = tm__landmarks(ctx, pp->net, pp->host, pp->nh, rs.nl, rs.lmd);
    if (err)
        goto out;
    {
        float root[NLANDMARKS];
        for (int32_t i = 0; i < nkeep; i++)
            rs.hv[i] = i;
        profile(&rs, 0, nkeep, root);
        new_item(ctx, &rs, root, &err);
        if (err)
            goto out;
    }
    stack[top++] = (work){0, n, 0, nkeep, 0};
    while (top > 0) {
        work w = stack[--top], halves[2];
        int nhalves;
        err = step(ctx, &rs, w, seed * 1000003u + steps++, halves, &nhalves, place);
        if (err)
            goto out;
        for (int i = nhalves - 1; i >= 0; i--)
            if (halves[i].t_hi > halves[i].t_lo)
                stack[top++] = halves[i];
    }
out:
    tm__sgraph_release(&H);
    rstate_release(&rs);
    free(stack);
    return err;
}

tm_err tm__strategy_recursive(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out)
{
    return tm__map_network(ctx, p, seed, tm__recursive_core, out);
}
