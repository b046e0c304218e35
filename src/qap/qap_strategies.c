/* qap_strategies.c - registry glue of the hierarchy-mode strategies and
 * refiners: problem checks (tasks vs PEs, one-to-one vs general process
 * mapping), the symmetric graph, and the `topdown`, `random`, `nc`, `np`,
 * `n2` entry points.  p->imbalance < 0 means one-to-one (VieM): tasks must
 * equal PEs.  p->imbalance >= 0 allows general process mapping (tasks >
 * PEs, topdown and random only, at most ceil((1+eps) W / PEs) per PE) and
 * fewer tasks than PEs (every strategy; then the mapping is injective). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qap_int.h"

tm_err tm__qap_check_problem(tm_ctx *ctx, const tm_problem *p, bool can_general, bool *general)
{
    *general = false;
    if (!p->hier || !p->comm)
        return tm__fail(ctx, TM_EUSAGE, "this strategy needs a hierarchy and a communication graph");
    if (p->hier->n_pe > INT32_MAX)
        return tm__fail(ctx, TM_EUSAGE, "hierarchy has %lld PEs, at most %d supported",
                        (long long)p->hier->n_pe, INT32_MAX);
    if (p->comm->n > p->hier->n_pe) {
        if (!can_general || p->imbalance < 0)
            return tm__fail(ctx, TM_EINFEASIBLE,
                            "%d tasks but only %lld PEs (general process mapping needs "
                            "an imbalance and strategy topdown or random)",
                            p->comm->n, (long long)p->hier->n_pe);
        *general = true;
    } else if (p->comm->n < p->hier->n_pe && p->imbalance < 0) {
        /* VieM's one-to-one model: the hierarchy must describe exactly
         * the PEs needed (with --imbalance fewer tasks are fine) */
        return tm__fail(ctx, TM_EINPUT,
                        "the hierarchy has %lld PEs but the communication graph has %d tasks "
                        "(one-to-one mapping needs equal numbers; an imbalance allows "
                        "fewer tasks)",
                        (long long)p->hier->n_pe, p->comm->n);
    }
    return TM_EOK;
}

/* One-to-one problems ignore task weights: each task takes one PE. */
static tm_err build_graph(tm_ctx *ctx, const tm_problem *p, bool general, tm__sgraph *g)
{
    tm_err err = tm__sgraph_from_comm(ctx, p->comm, TM__SG_VERTEX_WEIGHTS, g);
    if (err || general)
        return err;
    for (int32_t u = 0; u < g->n; u++)
        g->vw[u] = 1.0;
    g->total_vw = g->n;
    return TM_EOK;
}

static double problem_bound(const tm_problem *p, const tm__sgraph *g, bool general)
{
    return general ? tm__qap_bound(g, p->hier, p->imbalance) : 1.0;
}

/* The construction's METIS budget.  Two levers: independent
 * multisections with different seeds (trials, the best J kept: about
 * 2^19 adjacency entries in all, 1..4 trials, at least 2 for general
 * mapping, where J varies by ~3% between seeds), and, one-to-one, whole
 * tries of the top split inside each (the lowest cut kept,
 * qap_multisection.c): 2^18 / (trials x size), 1..4.  The tries pay on
 * the graphs of up to a few thousand tasks, where the top cut varies most
 * between seeds (rgg16_k1024: 16-way cut 2,774-3,072): topdown+nc:10
 * 859,530 -> 839,478 (2.3% lower J), grid64_k1024 -0.6%, for 1.5-2x the
 * time; larger graphs keep one try (the same results and time as
 * before), and trials are kept, not traded for tries: on a 4-level
 * hierarchy (rgg16_k2048 on 4:8:8:8) one trial of 8 tries gave a 1.7%
 * higher J than 4 trials, whose lower levels vary between seeds.  With
 * two levels the top split is the whole mapping (the lowest level is void
 * one-to-one) and the trials already vary it: one try (rgg16_k512 on
 * 4:128: 4 tries gave a 0.3% higher J in 4x the time). */
typedef struct td_budget {
    int trials, tries;
} td_budget;

static td_budget topdown_budget(const tm__sgraph *g, const tm_hier *h, bool general, int ntrials)
{
    int64_t size = g->n + g->xadj[g->n], t;
    td_budget b = {1, 1};
    if (size < 1)
        size = 1;
    t = ((int64_t)1 << 19) / size;
    b.trials = t < (general ? 2 : 1) ? (general ? 2 : 1) : t > 4 ? 4 : (int)t;
    if (ntrials > 0)
        b.trials = ntrials;
    if (!general && h->k >= 3) {
        t = ((int64_t)1 << 18) / ((int64_t)b.trials * size);
        b.tries = t < 1 ? 1 : t > 4 ? 4 : (int)t;
    }
    return b;
}

/* The skeleton both `topdown` strategies share: check the problem, build
 * the graph, then `ntrials` (0: the size-based budget of topdown_budget)
 * trials with seeds seed + t * golden ratio, the best J kept (the first on
 * ties).  With `ils` each multisection is followed by ils:10 whose J
 * counts; without, the J of the multisection itself. */
static tm_err topdown_best(tm_ctx *ctx, const tm_problem *p, uint64_t seed, int ntrials,
                           bool ils, tm_mapping *out)
{
    tm__sgraph g;
    tm__qdist o;
    int32_t *trial = NULL;
    double best = 0, bound;
    bool general;
    td_budget b;
    tm_err err = tm__qap_check_problem(ctx, p, true, &general);
    if (err)
        return err;
    err = build_graph(ctx, p, general, &g);
    if (err)
        return err;
    bound = problem_bound(p, &g, general);
    err = tm_mapping_alloc(ctx, out, p->comm->n, true);
    if (err)
        goto out;
    trial = tm__malloc_n((size_t)(g.n ? g.n : 1), sizeof *trial);
    if (!trial) {
        err = tm__nomem(ctx);
        goto out;
    }
    tm__qdist_init(&o, p->hier);
    b = topdown_budget(&g, p->hier, general, ntrials);
    /* a stop request (the caller's, or the end of a time budget's
     * construction window) ends the trials after the first */
    for (int t = 0; t < b.trials && !(t > 0 && tm__stopped(ctx)); t++) {
        uint64_t s = seed + (uint64_t)t * 0x9e3779b97f4a7c15ULL;
        double j = 0;
        err = tm__qap_multisection(ctx, &g, p->hier, bound, b.tries, s, trial);
        if (!err && ils)
            err = tm__qap_local_search(ctx, &g, &o, general ? bound : -1.0, "ils", 10, s,
                                       trial, &j);
        if (err)
            goto out;
        if (!ils)
            j = tm__qap_eval_sym(&g, &o, trial);
        if (t == 0 || j < best) {
            best = j;
            memcpy(out->pe, trial, (size_t)g.n * sizeof *trial);
        }
    }
out:
    if (err)
        tm_mapping_release(out);
    free(trial);
    tm__sgraph_release(&g);
    return err;
}

tm_err tm__strategy_topdown(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out)
{
    if (p->net)
        return tm__strategy_topdown_net(ctx, p, seed, false, out);
    return topdown_best(ctx, p, seed, 0, false, out);
}

/* `topdown-ms`: MS_STARTS independent runs of one multisection followed
 * by ils:10, the best J kept.  On the benchmark instances the final J
 * depends more on the METIS seed than on longer local search (docs/qap.md),
 * so several short pipelines beat one long one. */
#define MS_STARTS 4

tm_err tm__strategy_topdown_ms(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out)
{
    if (p->net)
        return tm__strategy_topdown_net(ctx, p, seed, true, out);
    return topdown_best(ctx, p, seed, MS_STARTS, true, out);
}

typedef struct wk { const double *w, *key; } wk;
static int by_weight_desc(const void *a, const void *b, void *arg)
{
    const wk *k = arg;
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    if (k->w[x] != k->w[y])
        return k->w[x] < k->w[y] ? 1 : -1;
    return (k->key[x] > k->key[y]) - (k->key[x] < k->key[y]);
}

tm_err tm__strategy_random(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out)
{
    const tm_hier *h = p->hier;
    tm__sgraph g;
    tm__rng r;
    int32_t *perm = NULL, *order = NULL;
    double *load = NULL, *key = NULL, bound;
    bool general;
    tm_err err = tm__qap_check_problem(ctx, p, true, &general);
    if (err)
        return err;
    memset(&g, 0, sizeof g);
    err = build_graph(ctx, p, general, &g);
    if (err)
        return err;
    bound = problem_bound(p, &g, general);
    tm__rng_seed(&r, seed, 0x7a4d);
    perm = tm__malloc_n((size_t)h->n_pe, sizeof *perm);
    load = tm__calloc_n((size_t)h->n_pe, sizeof *load);
    order = tm__malloc_n((size_t)(g.n ? g.n : 1), sizeof *order);
    key = tm__malloc_n((size_t)(g.n ? g.n : 1), sizeof *key);
    if (!perm || !load || !order || !key) {
        err = tm__nomem(ctx);
        goto out;
    }
    err = tm_mapping_alloc(ctx, out, p->comm->n, true);
    if (err)
        goto out;
    for (int64_t i = 0; i < h->n_pe; i++)
        perm[i] = (int32_t)i;
    for (int64_t i = h->n_pe - 1; i > 0; i--) {
        int64_t j = (int64_t)tm__rng_below(&r, (uint64_t)i + 1);
        int32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    /* heaviest tasks first (random order among equals), each on the next
     * PE of a random round robin, or on the least loaded PE when that one
     * is full: a random injection for one-to-one problems, a random
     * balanced assignment otherwise */
    for (int32_t u = 0; u < g.n; u++) {
        order[u] = u;
        key[u] = tm__rng_unit(&r);
    }
    qsort_r(order, (size_t)g.n, sizeof *order, by_weight_desc, &(wk){g.vw, key});
    for (int32_t i = 0, at = 0; i < g.n; i++) {
        int32_t u = order[i];
        int64_t q = perm[at];
        at = (int32_t)((at + 1) % h->n_pe);
        if (load[q] + g.vw[u] > bound * (1 + 1e-12)) {
            q = 0;
            for (int64_t x = 1; x < h->n_pe; x++)
                if (load[x] < load[q])
                    q = x;
            if (load[q] + g.vw[u] > bound * (1 + 1e-12)) {
                err = tm__fail(ctx, TM_EINFEASIBLE, "random: no PE has room for task %d", u);
                tm_mapping_release(out);
                goto out;
            }
        }
        out->pe[u] = (int32_t)q;
        load[q] += g.vw[u];
    }
out:
    free(perm);
    free(load);
    free(order);
    free(key);
    tm__sgraph_release(&g);
    return err;
}

/* Network mode: the mapping's slots are PEs of the allocation's PE space
 * (one task per slot), and the search runs on the network-mode J. */
static tm_err refine_net(tm_ctx *ctx, const tm_problem *p, const char *nbh, int depth,
                         double kicks, uint64_t seed, tm_mapping *m)
{
    tm__qnet_job j;
    double j0, j1 = 0;
    tm_err err;
    if (!m->host || m->n != p->comm->n)
        return tm__fail(ctx, TM_EINTERNAL, "refinement %s: mapping is not a network mapping",
                        nbh);
    err = tm__qnet_job_init(ctx, p, &j);
    if (err)
        return err;
    err = tm__qnet_to_pe(ctx, &j.q, m, j.pe);
    if (!err) {
        j0 = tm__qap_eval_sym(&j.g, &j.o, j.pe);
        err = tm__qap_local_search_k(ctx, &j.g, &j.o, -1.0, nbh, depth, kicks, seed, j.pe,
                                     &j1);
        if (!err) {
            tm__qnet_from_pe(&j.q, j.pe, m);
            tm__log(ctx, TM_LOG_INFO, "refine %s (network): J %.6g -> %.6g", nbh, j0, j1);
        }
    }
    tm__qnet_job_release(&j);
    return err;
}

static tm_err refine(tm_ctx *ctx, const tm_problem *p, const char *nbh, int depth, double kicks,
                     uint64_t seed, tm_mapping *m)
{
    tm__sgraph g;
    bool general = false;
    double bound = -1.0, j0 = 0, j1 = 0;
    uint8_t *used = NULL;
    tm__qdist o;
    tm_err err;
    if (p->net && p->comm)
        return refine_net(ctx, p, nbh, depth, kicks, seed, m);
    if (!p->hier || !p->comm)
        return tm__fail(ctx, TM_EUSAGE, "refinement %s needs a hierarchy and a communication graph", nbh);
    if (!m->pe || m->n != p->comm->n)
        return tm__fail(ctx, TM_EINTERNAL, "refinement %s: mapping is not a PE mapping", nbh);
    for (int32_t u = 0; u < m->n; u++)
        if (m->pe[u] < 0 || m->pe[u] >= p->hier->n_pe)
            return tm__fail(ctx, TM_EINPUT, "task %d is on PE %d, outside [0, %lld)", u,
                            m->pe[u], (long long)p->hier->n_pe);
    used = tm__calloc_n((size_t)p->hier->n_pe, 1);
    if (!used)
        return tm__nomem(ctx);
    for (int32_t u = 0; u < m->n; u++) {
        if (used[m->pe[u]])
            general = true;
        used[m->pe[u]] = 1;
    }
    free(used);
    err = tm__sgraph_from_comm(ctx, p->comm, TM__SG_VERTEX_WEIGHTS, &g);
    if (err)
        return err;
    if (general) {
        /* keep the balance the mapping has, or the requested one */
        double *load = tm__calloc_n((size_t)p->hier->n_pe, sizeof *load), mx = 0;
        if (!load) {
            err = tm__nomem(ctx);
            goto out;
        }
        for (int32_t u = 0; u < g.n; u++)
            load[m->pe[u]] += g.vw[u];
        for (int64_t q = 0; q < p->hier->n_pe; q++)
            mx = load[q] > mx ? load[q] : mx;
        free(load);
        bound = tm__qap_bound(&g, p->hier, p->imbalance >= 0 ? p->imbalance : 0.03);
        if (mx > bound)
            bound = mx;
    }
    tm__qdist_init(&o, p->hier);
    j0 = tm__qap_eval_sym(&g, &o, m->pe);
    err = tm__qap_local_search_k(ctx, &g, &o, bound, nbh, depth, kicks, seed, m->pe, &j1);
    if (!err)
        tm__log(ctx, TM_LOG_INFO, "refine %s: J %.0f -> %.0f", nbh, j0, j1);
out:
    tm__sgraph_release(&g);
    return err;
}

static tm_err parse_arg(tm_ctx *ctx, const char *name, const char *arg, int def, int *out)
{
    int64_t v;
    *out = def;
    if (!arg || !*arg)
        return TM_EOK;
    if (tm__str_to_i64(arg, &v) < 0 || v < 1 || v > INT32_MAX)
        return tm__fail(ctx, TM_EUSAGE, "refinement %s:%s: expected a positive integer", name,
                        arg);
    *out = (int)v;
    return TM_EOK;
}

tm_err tm__refine_nc(tm_ctx *ctx, const tm_problem *p, const char *arg, uint64_t seed,
                     tm_mapping *m)
{
    int d;
    tm_err err = parse_arg(ctx, "nc", arg, 1, &d);
    return err ? err : refine(ctx, p, "nc", d, -1.0, seed, m);
}

tm_err tm__refine_np(tm_ctx *ctx, const tm_problem *p, const char *arg, uint64_t seed,
                     tm_mapping *m)
{
    int b;
    tm_err err = parse_arg(ctx, "np", arg, 128, &b);
    return err ? err : refine(ctx, p, "np", b, -1.0, seed, m);
}

/* "ils", "ils:D", "ils:D,kicks=K" or "ils:kicks=K" (K kicks per task,
 * a number >= 0; default TM__ILS_KICKS). */
tm_err tm__refine_ils(tm_ctx *ctx, const tm_problem *p, const char *arg, uint64_t seed,
                      tm_mapping *m)
{
    char depth[32] = "";
    const char *k = arg ? strstr(arg, "kicks=") : NULL;
    double kicks = -1.0;
    int d;
    tm_err err;
    if (k) {
        size_t n = (size_t)(k - arg);
        if ((n > 0 && arg[n - 1] != ',') || n >= sizeof depth ||
            tm__str_to_double(k + 6, &kicks) < 0 || !(kicks >= 0) || kicks > 1e6)
            return tm__fail(ctx, TM_EUSAGE, "refinement ils:%s: expected ils:D, ils:D,kicks=K "
                            "or ils:kicks=K (D a positive integer, K kicks per task in "
                            "[0, 1e6])", arg);
        memcpy(depth, arg, n ? n - 1 : 0);
        arg = depth;
    }
    err = parse_arg(ctx, "ils", arg, 10, &d);
    return err ? err : refine(ctx, p, "ils", d, kicks, seed, m);
}

tm_err tm__refine_n2(tm_ctx *ctx, const tm_problem *p, const char *arg, uint64_t seed,
                     tm_mapping *m)
{
    if (arg && *arg)
        return tm__fail(ctx, TM_EUSAGE, "refinement n2 takes no argument");
    return refine(ctx, p, "n2", 0, -1.0, seed, m);
}
