/*
 * pick.c - the nodes of a new job (docs/workload.md "alloc"): Slurm's
 * choice (src/slurm/tree_pick.c), a seeded random one, and topomap's: the node
 * set with the least predicted time with the running jobs' traffic.
 *
 * topomap's candidates are compact sets: Slurm's own pick, the nearest
 * free hosts around each leaf switch (a BFS from a free host of the leaf:
 * its leaf first, then the leaves it reaches in fewest hops), and the
 * leaves whose uplinks carry the least background load, filled in that
 * order.  Every candidate is scored cheaply from its link loads alone:
 * the congestion its links would have with the background's loads on
 * them, then its total load (volume x hops, which orders candidates as
 * avg dilation does).  The best few, and Slurm's pick always, are then
 * timed with the background flows that share their links (one max-min
 * simulation each, tm_time_eval_shared), and the least est_time_s wins:
 * the result is never predicted slower than Slurm's pick.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wl_int.h"
#include "../graph/bfs.h"
#include "../util/util.h"

#define MAX_SEEDS 48 /* leaves (or hosts) a BFS starts from */
#define FINALISTS 4  /* candidates timed besides Slurm's pick */

static const tm__name_val policy_names[] = {
    {"topomap", TM_PICK_TOPOMAP}, {"slurm-tree", TM_PICK_SLURM_TREE}, {"random", TM_PICK_RANDOM},
    {"slurm-block", TM_PICK_SLURM_BLOCK}};

int tm_pick_policy_parse(const char *s)
{
    return tm__name_lookup(policy_names, sizeof policy_names / sizeof *policy_names, s);
}

const char *tm_pick_policy_name(tm_pick_policy p)
{
    for (size_t i = 0; i < sizeof policy_names / sizeof *policy_names; i++)
        if (policy_names[i].val == (int)p)
            return policy_names[i].name;
    return "?";
}

void tm_pick_init(tm_pick *p)
{
    memset(p, 0, sizeof *p);
}

void tm_pick_release(tm_pick *p)
{
    if (!p)
        return;
    free(p->hosts);
    free(p->tasks);
    tm_pick_init(p);
}

/* ---- the background -------------------------------------------------------- */

void wl_bg_release(wl_bg *bg)
{
    free(bg->B);
    free(bg->par);
    free(bg->owner);
    memset(bg, 0, sizeof *bg);
}

static int32_t uf_find(int32_t *par, int32_t a)
{
    while (par[a] != a)
        a = par[a] = par[par[a]];
    return a;
}

tm_err wl_bg_make(tm_ctx *ctx, int32_t n_links, wl_inst *const *inst, int32_t n, wl_bg *bg)
{
    memset(bg, 0, sizeof *bg);
    bg->inst = inst;
    bg->n = n;
    bg->B = tm__calloc_n((size_t)n_links + 1, sizeof *bg->B);
    bg->owner = tm__malloc_n((size_t)n_links + 1, sizeof *bg->owner);
    bg->par = tm__malloc_n((size_t)n + 1, sizeof *bg->par);
    if (!bg->B || !bg->owner || !bg->par) {
        wl_bg_release(bg);
        return tm__nomem(ctx);
    }
    for (int32_t l = 0; l < n_links; l++)
        bg->owner[l] = -1;
    for (int32_t j = 0; j < n; j++)
        bg->par[j] = j;
    for (int32_t j = 0; j < n; j++)
        for (int32_t k = 0; k < inst[j]->n_loads; k++) {
            int32_t l = inst[j]->load_link[k];
            bg->B[l] += inst[j]->load_bytes[k];
            for (int d = 0; d < 2; d++, l ^= 1) {
                if (bg->owner[l] < 0) {
                    bg->owner[l] = j;
                } else {
                    int32_t a = uf_find(bg->par, bg->owner[l]), b = uf_find(bg->par, j);
                    if (a != b)
                        bg->par[a > b ? a : b] = a < b ? a : b;
                }
            }
        }
    return TM_EOK;
}

/* ---- a candidate: hosts in rank order, its cheap score ----------------------- */

typedef struct cand {
    int32_t *hosts;
    double cong, total;
    bool slurm;
} cand;

typedef struct picker {
    tm_ctx *ctx;
    const tm_route *route;
    const tm_net_csr *g;
    const tm_time_opts *topt;
    const tm_slurm_tree *t;
    const wl_bg *bg;
    const tm_comm *comm;
    int32_t n;             /* nodes */
    const int32_t *tasks;  /* per node position */
    const int32_t *free;
    int32_t n_free;
    double *scratch;       /* n_links zeros */
    uint8_t *mine;         /* n_links zeros: the links of the candidate timed */
    cand *c;
    int32_t n_c, cap_c;
} picker;

static int cmp_rank(const void *a, const void *b, void *t)
{
    const int32_t *rank = ((const tm_slurm_tree *)t)->rank;
    int32_t x = rank[*(const int32_t *)a], y = rank[*(const int32_t *)b];
    return (x > y) - (x < y);
}

static void sort_hosts(const tm_slurm_tree *t, int32_t *h, int32_t n)
{
    qsort_r(h, (size_t)n, sizeof *h, cmp_rank, (void *)t);
}

/* Adds a candidate (hosts copied and sorted) unless it is already there. */
static tm_err add_cand(picker *p, const int32_t *hosts, bool slurm)
{
    int32_t *h = tm__malloc_n((size_t)p->n + 1, sizeof *h);
    if (!h)
        return tm__nomem(p->ctx);
    memcpy(h, hosts, (size_t)p->n * sizeof *h);
    sort_hosts(p->t, h, p->n);
    for (int32_t i = 0; i < p->n_c; i++)
        if (memcmp(p->c[i].hosts, h, (size_t)p->n * sizeof *h) == 0) {
            p->c[i].slurm |= slurm;
            free(h);
            return TM_EOK;
        }
    if (p->n_c >= p->cap_c) {
        size_t cap = (size_t)p->cap_c;
        if (tm__grow((void **)&p->c, &cap, (size_t)p->n_c + 1, sizeof *p->c) < 0) {
            free(h);
            return tm__nomem(p->ctx);
        }
        p->cap_c = (int32_t)cap;
    }
    p->c[p->n_c++] = (cand){h, 0.0, 0.0, slurm};
    return TM_EOK;
}

/* Its mapping: tasks[k] ranks on its k-th host. */
static tm_err cand_mapping(const picker *p, const int32_t *hosts, tm_mapping *m)
{
    return tm_job_mapping(p->ctx, p->n, hosts, p->tasks, m);
}

/* The cheap score: congestion of its links with the background's loads,
 * and its total load. */
static tm_err score(picker *p, cand *c)
{
    tm_mapping m;
    tm_err err = cand_mapping(p, c->hosts, &m);
    if (!err)
        err = tm_metrics_link_loads(p->ctx, p->route, p->comm, &m, p->scratch, NULL);
    c->cong = c->total = 0.0;
    for (int32_t l = 0; l < p->g->n_links; l++) {
        double x = p->scratch[l];
        if (x > 0) {
            double cg = (x + p->bg->B[l]) / p->g->cap[l];
            c->cong = cg > c->cong ? cg : c->cong;
            c->total += x;
        }
        p->scratch[l] = 0.0;
    }
    tm_mapping_release(&m);
    return err;
}

/* ---- candidates -------------------------------------------------------------- */

/* The switch a host hangs from (lowest id; -1 for a host cabled to none). */
static int32_t leaf_of(const tm_net_csr *g, int32_t h)
{
    int32_t best = -1;
    for (int32_t j = g->off[h]; j < g->off[h + 1]; j++)
        if (!g->is_host[g->head[j]] && (best < 0 || g->head[j] < best))
            best = g->head[j];
    return best;
}

typedef struct dh {
    int32_t dist, rank, host;
} dh;

static int cmp_dh(const void *a, const void *b)
{
    const dh *x = a, *y = b;
    if (x->dist != y->dist)
        return x->dist < y->dist ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The n free hosts nearest seed (hops, then Slurm's order). */
static tm_err ball(picker *p, tm__bfs *b, dh *buf, int32_t seed)
{
    int32_t *h = tm__malloc_n((size_t)p->n + 1, sizeof *h), k = 0;
    tm_err err;
    if (!h)
        return tm__nomem(p->ctx);
    tm__bfs_from(b, seed);
    for (int32_t i = 0; i < p->n_free; i++) {
        int32_t v = p->free[i];
        buf[k++] = (dh){b->dist[v] < 0 ? INT32_MAX : b->dist[v], p->t->rank[v], v};
    }
    qsort(buf, (size_t)k, sizeof *buf, cmp_dh);
    for (int32_t i = 0; i < p->n; i++)
        h[i] = buf[i].host;
    err = buf[p->n - 1].dist == INT32_MAX ? TM_EOK : add_cand(p, h, false);
    free(h);
    return err;
}

/* Seeds: one free host per leaf switch (the first in Slurm's order), or
 * on a network without switches hosts spread over the free ones; at most
 * MAX_SEEDS, spread evenly. */
static int32_t seeds(const picker *p, int32_t *seed, int32_t *leaf_seen)
{
    int32_t n = 0, *sorted = tm__malloc_n((size_t)p->n_free + 1, sizeof *sorted), out = 0;
    if (!sorted)
        return -1;
    memcpy(sorted, p->free, (size_t)p->n_free * sizeof *sorted);
    sort_hosts(p->t, sorted, p->n_free);
    for (int32_t i = 0; i < p->n_free; i++) {
        int32_t lf = leaf_of(p->g, sorted[i]);
        if (lf < 0) {
            if (i % (p->n_free / MAX_SEEDS + 1) == 0)
                seed[n++] = sorted[i];
            continue;
        }
        if (!leaf_seen[lf]) {
            leaf_seen[lf] = 1;
            seed[n++] = sorted[i];
        }
    }
    for (int32_t i = 0; i < p->n_free; i++) {
        int32_t lf = leaf_of(p->g, sorted[i]);
        if (lf >= 0)
            leaf_seen[lf] = 0;
    }
    free(sorted);
    /* evenly spread when there are too many */
    for (int32_t i = 0; i < (n < MAX_SEEDS ? n : MAX_SEEDS); i++)
        seed[out++] = seed[n <= MAX_SEEDS ? i : (int32_t)((int64_t)i * n / MAX_SEEDS)];
    return out;
}

typedef struct leafkey {
    double load;
    int32_t free_hosts, leaf;
} leafkey;

static int cmp_leafkey(const void *a, const void *b)
{
    const leafkey *x = a, *y = b;
    if (x->load != y->load)
        return x->load < y->load ? -1 : 1;
    if (x->free_hosts != y->free_hosts)
        return x->free_hosts > y->free_hosts ? -1 : 1;
    return (x->leaf > y->leaf) - (x->leaf < y->leaf);
}

/* The leaves whose links to other switches carry the least background
 * (congestion, either way), the fullest first among equals, filled in
 * that order (hosts in Slurm's order). */
static tm_err quiet_leaves(picker *p, int32_t *count)
{
    const tm_net_csr *g = p->g;
    leafkey *k = tm__malloc_n((size_t)g->n + 1, sizeof *k);
    int32_t nk = 0, *h = tm__malloc_n((size_t)p->n + 1, sizeof *h), got = 0;
    int32_t *sorted = tm__malloc_n((size_t)p->n_free + 1, sizeof *sorted);
    tm_err err = TM_EOK;
    if (!k || !h || !sorted) {
        err = tm__nomem(p->ctx);
        goto out;
    }
    for (int32_t i = 0; i < p->n_free; i++) {
        int32_t lf = leaf_of(g, p->free[i]);
        if (lf >= 0)
            count[lf]++;
    }
    for (int32_t v = 0; v < g->n; v++) {
        double load = 0;
        if (!count[v])
            continue;
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++)
            if (!g->is_host[g->head[j]]) {
                int32_t l = g->link[j];
                load = fmax(load, fmax(p->bg->B[l] / g->cap[l], p->bg->B[l ^ 1] / g->cap[l]));
            }
        k[nk++] = (leafkey){load, count[v], v};
    }
    qsort(k, (size_t)nk, sizeof *k, cmp_leafkey);
    memcpy(sorted, p->free, (size_t)p->n_free * sizeof *sorted);
    sort_hosts(p->t, sorted, p->n_free);
    for (int32_t i = 0; i < nk && got < p->n; i++)
        for (int32_t q = 0; q < p->n_free && got < p->n; q++)
            if (leaf_of(g, sorted[q]) == k[i].leaf)
                h[got++] = sorted[q];
    if (got == p->n)
        err = add_cand(p, h, false);
out:
    for (int32_t i = 0; count && i < p->n_free; i++) {
        int32_t lf = leaf_of(g, p->free[i]);
        if (lf >= 0)
            count[lf] = 0;
    }
    free(k);
    free(h);
    free(sorted);
    return err;
}

static tm_err candidates(picker *p)
{
    int32_t *seed = tm__malloc_n((size_t)p->n_free + 1, sizeof *seed), ns;
    int32_t *mark = tm__calloc_n((size_t)p->g->n + 1, sizeof *mark);
    int32_t *dist = tm__malloc_n((size_t)p->g->n + 1, sizeof *dist);
    int32_t *queue = tm__malloc_n((size_t)p->g->n + 1, sizeof *queue);
    int32_t *sp = tm__malloc_n((size_t)p->n + 1, sizeof *sp);
    dh *buf = tm__malloc_n((size_t)p->n_free + 1, sizeof *buf);
    tm__bfs b;
    tm_err err = TM_EOK;
    if (!seed || !mark || !dist || !queue || !sp || !buf) {
        err = tm__nomem(p->ctx);
        goto out;
    }
    /* Slurm's own pick is always a candidate (when Slurm would start it) */
    err = tm_slurm_pick(p->ctx, p->t, p->free, p->n_free, p->n, sp);
    if (err == TM_EINFEASIBLE) {
        tm_ctx_clear_error(p->ctx);
        err = TM_EOK;
    } else if (!err) {
        err = add_cand(p, sp, true);
    }
    if (!err && (ns = seeds(p, seed, mark)) < 0)
        err = tm__nomem(p->ctx);
    tm__bfs_init(&b, p->g, dist, queue);
    for (int32_t i = 0; !err && i < ns; i++)
        err = ball(p, &b, buf, seed[i]);
    if (!err)
        err = quiet_leaves(p, mark);
out:
    free(seed);
    free(mark);
    free(dist);
    free(queue);
    free(sp);
    free(buf);
    return err;
}

/* ---- timing with the background ----------------------------------------------- */

/* The candidate's figures: alone (tm_metrics_eval) and with the running
 * jobs whose loads touch its links (transitively); with harm, also the
 * largest slowdown it causes among them. */
typedef struct timed {
    tm_metrics alone;
    double shared_time, shared_cong, slowdown, harm;
    bool approx;
    int32_t n_neighbours;
} timed;

static tm_err time_cand(picker *p, const int32_t *hosts, bool harm, timed *out)
{
    const wl_bg *bg = p->bg;
    wl_inst self;
    tm_time_job *tj = NULL;
    tm_time_shared *sh = NULL;
    bool *touched = NULL, *want = NULL, *nb = NULL;
    int32_t m = 1;
    tm_err err;

    memset(out, 0, sizeof *out);
    wl_inst_init(&self);
    err = cand_mapping(p, hosts, &self.map);
    if (!err)
        err = tm_comm_copy(p->ctx, p->comm, &self.comm);
    if (!err)
        err = wl_inst_eval(p->ctx, p->route, p->topt, true, p->scratch, &self);
    if (err)
        goto out;
    out->alone = self.alone;
    out->alone.link_load = NULL;
    tm_metrics_init(&self.alone);
    tj = tm__calloc_n((size_t)bg->n + 2, sizeof *tj);
    sh = tm__calloc_n((size_t)bg->n + 2, sizeof *sh);
    touched = tm__calloc_n((size_t)bg->n + 1, sizeof *touched);
    nb = tm__calloc_n((size_t)bg->n + 1, sizeof *nb);
    want = tm__calloc_n((size_t)bg->n + 2, sizeof *want);
    if (!tj || !sh || !touched || !want || !nb) {
        err = tm__nomem(p->ctx);
        goto out;
    }
    for (int32_t k = 0; k < self.n_loads; k++) {
        int32_t l = self.load_link[k];
        double cg = (self.load_bytes[k] + bg->B[l]) / p->g->cap[l];
        out->shared_cong = cg > out->shared_cong ? cg : out->shared_cong;
        p->mine[l] = 1;
        for (int d = 0; d < 2; d++, l ^= 1)
            if (bg->owner[l] >= 0)
                touched[uf_find(bg->par, bg->owner[l])] = true;
    }
    tj[0] = wl_inst_time_job(&self);
    tj[0].max_dilation = out->alone.max_dilation;
    want[0] = true;
    for (int32_t j = 0; j < bg->n; j++) {
        const wl_inst *x = bg->inst[j];
        if (!touched[uf_find(bg->par, j)])
            continue;
        /* a neighbour: a running job on one of its links */
        for (int32_t k = 0; !nb[j] && k < x->n_loads; k++)
            nb[j] = p->mine[x->load_link[k]];
        out->n_neighbours += nb[j];
        tj[m++] = wl_inst_time_job(x);
    }
    if (harm)
        for (int32_t i = 1; i < m; i++)
            want[i] = true;
    err = tm_time_eval_shared(p->ctx, p->route, tj, m, p->topt, want, sh);
    if (err)
        goto out;
    out->shared_time = sh[0].est_time_s;
    out->approx = sh[0].approximate;
    {
        double den = sh[0].alone_est_time_s > 0 ? sh[0].alone_est_time_s : out->alone.est_time_s;
        out->slowdown = den > 0 ? out->shared_time / den : 1.0;
    }
    out->harm = 1.0;
    if (harm && m > 1) {
        /* the running jobs' times without it: the same simulation, one job less */
        tm_time_shared *without = tm__calloc_n((size_t)m, sizeof *without);
        if (!without) {
            err = tm__nomem(p->ctx);
            goto out;
        }
        err = tm_time_eval_shared(p->ctx, p->route, tj + 1, m - 1, p->topt, NULL, without);
        for (int32_t i = 1; !err && i < m; i++)
            if (without[i - 1].est_time_s > 0)
                out->harm = fmax(out->harm, sh[i].est_time_s / without[i - 1].est_time_s);
        free(without);
    }
out:
    for (int32_t k = 0; k < self.n_loads; k++)
        p->mine[self.load_link[k]] = 0;
    if (err)
        tm_metrics_release(&out->alone);
    wl_inst_release(&self);
    free(tj);
    free(sh);
    free(touched);
    free(want);
    free(nb);
    return err;
}

static int cmp_score(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->cong != y->cong)
        return x->cong < y->cong ? -1 : 1;
    if (x->total != y->total)
        return x->total < y->total ? -1 : 1;
    return 0;
}

/* topomap's pick: score every candidate, time the best few and Slurm's. */
static tm_err best(picker *p, int32_t **hosts, int32_t *scored)
{
    int32_t chosen = -1;
    double best_t = 0, best_c = 0, best_a = 0;
    tm_err err = candidates(p);
    for (int32_t i = 0; !err && i < p->n_c; i++)
        err = score(p, &p->c[i]);
    if (err)
        return err;
    if (!p->n_c)
        return tm__fail(p->ctx, TM_EINFEASIBLE, "alloc: no %d free nodes reach each other",
                        p->n);
    /* stable: candidates in generation order among equal scores */
    for (int32_t i = 1; i < p->n_c; i++)
        for (int32_t k = i; k > 0 && cmp_score(&p->c[k], &p->c[k - 1]) < 0; k--) {
            cand x = p->c[k];
            p->c[k] = p->c[k - 1];
            p->c[k - 1] = x;
        }
    *scored = p->n_c;
    for (int32_t i = 0; !err && i < p->n_c; i++) {
        timed tm;
        if (i >= FINALISTS && !p->c[i].slurm)
            continue;
        err = time_cand(p, p->c[i].hosts, false, &tm);
        if (err)
            break;
        if (chosen < 0 || tm.shared_time < best_t ||
            (tm.shared_time == best_t &&
             (tm.shared_cong < best_c || (tm.shared_cong == best_c &&
                                          tm.alone.est_time_s < best_a)))) {
            chosen = i;
            best_t = tm.shared_time, best_c = tm.shared_cong, best_a = tm.alone.est_time_s;
        }
        tm_metrics_release(&tm.alone);
    }
    if (!err) {
        *hosts = p->c[chosen].hosts;
        p->c[chosen].hosts = NULL;
    }
    return err;
}

static tm_err random_pick(picker *p, uint64_t seed, int32_t **hosts)
{
    int32_t *h = tm__malloc_n((size_t)p->n_free + 1, sizeof *h);
    tm__rng rng;
    if (!h)
        return tm__nomem(p->ctx);
    memcpy(h, p->free, (size_t)p->n_free * sizeof *h);
    /* Slurm's order first, so the draw does not depend on how free was listed */
    sort_hosts(p->t, h, p->n_free);
    tm__rng_seed(&rng, seed, 0x7069636bULL);
    for (int32_t i = 0; i < p->n; i++) {
        int32_t j = i + (int32_t)tm__rng_below(&rng, (uint64_t)(p->n_free - i)), x = h[i];
        h[i] = h[j];
        h[j] = x;
    }
    sort_hosts(p->t, h, p->n);
    *hosts = h;
    return TM_EOK;
}

tm_err wl_pick(tm_ctx *ctx, const tm_route *route, const tm_time_opts *topt,
               const tm_slurm_tree *t, const wl_bg *bg, const tm_comm *comm, int32_t n,
               const int32_t *tasks, const int32_t *free_hosts, int32_t n_free,
               tm_pick_policy policy, uint64_t seed, bool figures, tm_pick *out)
{
    picker p;
    int32_t *hosts = NULL;
    timed tm;
    tm_err err = TM_EOK;

    tm_pick_init(out);
    memset(&p, 0, sizeof p);
    p.ctx = ctx;
    p.route = route;
    p.g = tm_net_csr_get(tm_route_net(route));
    p.topt = topt;
    p.t = t;
    p.bg = bg;
    p.comm = comm;
    p.n = n;
    p.tasks = tasks;
    p.free = free_hosts;
    p.n_free = n_free;
    if (n < 1 || n > n_free)
        return tm__fail(ctx, TM_EINFEASIBLE, "alloc: %d nodes asked, %d free", n, n_free);
    if (!bg && (figures || policy == TM_PICK_TOPOMAP))
        return tm__fail(ctx, TM_EUSAGE, "alloc: no background for the figures");
    p.scratch = tm__calloc_n((size_t)p.g->n_links + 1, sizeof *p.scratch);
    p.mine = tm__calloc_n((size_t)p.g->n_links + 1, 1);
    if (!p.scratch || !p.mine) {
        free(p.scratch);
        free(p.mine);
        return tm__nomem(ctx);
    }
    if (policy == TM_PICK_SLURM_TREE || policy == TM_PICK_SLURM_BLOCK) {
        if (!(hosts = tm__malloc_n((size_t)n + 1, sizeof *hosts)))
            err = tm__nomem(ctx);
        else
            err = tm_slurm_pick(ctx, t, free_hosts, n_free, n, hosts);
    } else if (policy == TM_PICK_RANDOM) {
        err = random_pick(&p, seed, &hosts);
    } else {
        err = best(&p, &hosts, &out->candidates);
    }
    if (!err && figures)
        err = time_cand(&p, hosts, true, &tm);
    if (!err && !figures) {
        out->policy = policy;
        out->n_hosts = n;
        out->hosts = hosts;
        hosts = NULL;
    } else if (!err) {
        out->policy = policy;
        out->n_hosts = n;
        out->hosts = hosts;
        hosts = NULL;
        out->tasks = tm__malloc_n((size_t)n + 1, sizeof *out->tasks);
        if (!out->tasks)
            err = tm__nomem(ctx);
        else
            memcpy(out->tasks, tasks, (size_t)n * sizeof *tasks);
        out->alone = (tm_job_figures){tm.alone.max_congestion, tm.alone.avg_dilation,
                                      tm.alone.qap_J, tm.alone.est_time_s,
                                      tm.alone.time_approximate};
        out->shared = out->alone;
        out->shared.max_congestion = tm.shared_cong;
        out->shared.est_time_s = tm.shared_time;
        out->shared.time_approximate = tm.approx;
        out->slowdown = tm.slowdown;
        out->n_neighbours = tm.n_neighbours;
        out->neighbours_slowdown = tm.harm;
        tm_metrics_release(&tm.alone);
    }
    if (err)
        tm_pick_release(out);
    for (int32_t i = 0; i < p.n_c; i++)
        free(p.c[i].hosts);
    free(p.c);
    free(p.scratch);
    free(p.mine);
    free(hosts);
    return err;
}

/* ---- the public call ------------------------------------------------------------- */

/* The running jobs of the request, placed and with their loads. */
static tm_err background(tm_ctx *ctx, const tm_route *route, const tm_pick_request *req,
                         wl_inst **inst, wl_inst ***ptr, int32_t *n)
{
    const tm_workload *w = req->running;
    double *scratch;
    tm_err err = TM_EOK;
    *n = !w ? 0 : req->set ? req->n_set : w->n_jobs;
    *inst = tm__calloc_n((size_t)*n + 1, sizeof **inst);
    *ptr = tm__malloc_n((size_t)*n + 1, sizeof **ptr);
    scratch = tm__calloc_n((size_t)tm_net_csr_get(tm_route_net(route))->n_links + 1,
                           sizeof *scratch);
    if (!*inst || !*ptr || !scratch) {
        free(scratch);
        return tm__nomem(ctx);
    }
    for (int32_t i = 0; i < *n; i++)
        wl_inst_init(&(*inst)[i]);
    for (int32_t i = 0; i < *n && !err; i++) {
        int32_t j = req->set ? req->set[i] : i;
        if (j < 0 || j >= w->n_jobs) {
            err = tm__fail(ctx, TM_EUSAGE, "alloc: running job %d of %d", j, w->n_jobs);
            break;
        }
        (*ptr)[i] = &(*inst)[i];
        err = wl_inst_job(ctx, w, j, req->hosts ? req->hosts[j] : NULL, &(*inst)[i]);
        if (!err)
            err = wl_inst_eval(ctx, route, req->time, false, scratch, &(*inst)[i]);
        if (!err) /* listed once for the several simulations of the pick */
            err = wl_inst_prep(ctx, req->time, &(*inst)[i]);
        if (err)
            tm__fail_prefix(ctx, "running job %s", w->job[j].id);
    }
    free(scratch);
    return err;
}

tm_err tm_pick_nodes(tm_ctx *ctx, const tm_route *route, const tm_pick_request *req,
                     tm_pick_policy policy, tm_pick *out)
{
    const tm_net *net = tm_route_net(route);
    tm_slurm_tree *own = NULL;
    const tm_slurm_tree *t = req->tree;
    wl_inst *inst = NULL, **ptr = NULL;
    wl_bg bg;
    int32_t n_bg = 0, *tasks = NULL, total = 0;
    tm_comm pat;
    const tm_comm *comm = req->comm;
    tm_err err = TM_EOK;

    tm_pick_init(out);
    tm_comm_init(&pat);
    memset(&bg, 0, sizeof bg);
    if (req->n_nodes < 1 || (!req->tasks && req->ppn < 1) ||
        tm_pick_policy_name(policy)[0] == '?')
        return tm__fail(ctx, TM_EUSAGE, "alloc: %d nodes of %d tasks, policy %d", req->n_nodes,
                        req->ppn, (int)policy);
    if (!(tasks = tm__malloc_n((size_t)req->n_nodes + 1, sizeof *tasks)))
        return tm__nomem(ctx);
    for (int32_t k = 0; k < req->n_nodes; k++)
        total += tasks[k] = req->tasks ? req->tasks[k] : req->ppn;
    if (policy == TM_PICK_SLURM_BLOCK) { /* Slurm's blocks stand for its tree */
        tm_slurm_opts bo = TM_SLURM_OPTS_INIT;
        bo.plugin = TM_SLURM_BLOCK;
        t = req->blocks;
        if (!t && !(err = tm_slurm_topology_from_net(ctx, net, &bo, &own)))
            t = own;
    } else if (!t && !(err = tm_slurm_tree_from_net(ctx, net, &own))) {
        t = own;
    }
    if (!err && !comm) {
        err = tm_pattern_comm(ctx, req->pattern ? req->pattern : TM_PATTERN_STENCIL3D, total,
                              req->pattern_bytes > 0 ? req->pattern_bytes
                                                     : TM_PATTERN_BYTES_DEFAULT, &pat);
        comm = &pat;
    }
    if (!err && comm->n != total)
        err = tm__fail(ctx, TM_EINPUT, "alloc: the matrix has %d tasks, %d nodes x their tasks "
                       "make %d", comm->n, req->n_nodes, total);
    for (int32_t i = 0; !err && i < req->n_free; i++)
        if (req->free[i] < 0 || req->free[i] >= tm_net_n_vertices(net) ||
            tm_net_kind(net, req->free[i]) != TM_VERTEX_HOST)
            err = tm__fail(ctx, TM_EUSAGE, "alloc: free vertex %d is not a host", req->free[i]);
    if (!err)
        err = background(ctx, route, req, &inst, &ptr, &n_bg);
    if (!err)
        err = wl_bg_make(ctx, tm_net_csr_get(net)->n_links, ptr, n_bg, &bg);
    if (!err)
        err = wl_pick(ctx, route, req->time, t, &bg, comm, req->n_nodes, tasks, req->free,
                      req->n_free, policy, req->seed, true, out);
    wl_bg_release(&bg);
    for (int32_t i = 0; inst && i < n_bg; i++)
        wl_inst_release(&inst[i]);
    free(inst);
    free(ptr);
    free(tasks);
    tm_comm_release(&pat);
    tm_slurm_tree_free(own);
    return err;
}
