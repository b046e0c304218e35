/* qap_ls_run.c - the swap local searches run (qap_ls.c's comment says
 * what they do): N_C^D rounds over dirty tasks (nc), iterated local search
 * (ils: nc, then kicks), the PE blocks of np and n2, and their entry point
 * tm__qap_local_search.  Above the swaps and gains (qap_ls.c), the kicks
 * (qap_ils.c) and their runs with a team of threads (qap_lspar.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qap_int.h"
#include "qap_ls_int.h"

static void shuffle(int32_t *a, int32_t n, tm__rng *r)
{
    for (int32_t i = n - 1; i > 0; i--) {
        int32_t j = (int32_t)tm__rng_below(r, (uint64_t)i + 1), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* N_C^D.  After the first round only "dirty" tasks are searched from: a
 * swap (u, v) changes its gain only if u, v or one of their neighbours
 * moved, and then u or v is dirty and the pair is met from its side (the
 * ball relation is symmetric), so no improving pair is missed.  With a
 * team (one-to-one only) each round runs in qap_lspar.c, same swaps. */
tm_err tm__ls_run_nc(tm_ctx *ctx, tm__ls *L, int depth, tm__rng *r)
{
    const tm__sgraph *g = L->g;
    int32_t n = g->n > 0 ? g->n : 0;
    int32_t *order = tm__malloc_n((size_t)(n ? n : 1), sizeof *order);
    uint8_t *dirty = tm__malloc_n((size_t)(n ? n : 1), 1), *next = tm__calloc_n((size_t)(n ? n : 1), 1);
    tm__ls_ws w;
    tm_err err = tm__ls_ws_init(ctx, &w, n);
    if (!err && (!order || !dirty || !next))
        err = tm__nomem(ctx);
    if (err)
        goto out;
    memset(dirty, 1, (size_t)n);
    for (int32_t i = 0; i < n; i++)
        order[i] = i;
    for (int round = 0;; round++) {
        int improved = 0;
        bool stopped = false;
        shuffle(order, n, r);
        if (L->load && tm__ls_move_pass(L, order) > 0) {
            improved++;
            memset(next, 1, (size_t)n);
        }
        if (L->team && !L->load) {
            err = tm__ls_par_nc_round(ctx, L, &w, order, dirty, next, depth, &improved, &stopped);
            if (err || stopped)
                goto out;
        } else {
            for (int32_t i = 0; i < n; i++) {
                int32_t u = order[i];
                if (dirty[u])
                    improved += tm__ls_nc_visit(L, &w, u, depth, next);
                if ((i & 255) == 0 && tm__ls_out_of_time(L))
                    goto out;
            }
        }
        if (!improved)
            break;
        {
            uint8_t *t = dirty;
            dirty = next;
            next = t;
            memset(next, 0, (size_t)n);
        }
    }
out:
    tm__ls_ws_free(&w);
    free(order), free(dirty), free(next);
    return err;
}

/* np (block >= 1) and n2 (block = n): pairs inside blocks of the tasks
 * ordered by PE. */
static tm_err run_blocks(tm_ctx *ctx, tm__ls *L, int64_t block, tm__rng *r)
{
    int32_t n = L->g->n;
    int64_t n_pe = L->o.n_pe;
    int32_t *byp = tm__malloc_n((size_t)n, sizeof *byp);
    int32_t *order = tm__malloc_n((size_t)n, sizeof *order);
    int64_t *cnt = tm__calloc_n((size_t)n_pe + 1, sizeof *cnt);
    bool one_to_one = L->load == NULL;
    if (!byp || !order || !cnt) {
        free(byp), free(order), free(cnt);
        return tm__nomem(ctx);
    }
    for (;;) {
        int improved = 0;
        /* tasks sorted by PE (counting sort); recomputed each round since
         * swaps move tasks between blocks */
        memset(cnt, 0, ((size_t)n_pe + 1) * sizeof *cnt);
        for (int32_t u = 0; u < n; u++)
            cnt[L->pe[u] + 1]++;
        for (int64_t p = 0; p < n_pe; p++)
            cnt[p + 1] += cnt[p];
        for (int32_t u = 0; u < n; u++)
            byp[cnt[L->pe[u]]++] = u;
        for (int32_t i = 0; i < n; i++)
            order[i] = i;
        shuffle(order, n, r);
        for (int32_t ii = 0; ii < n; ii++) {
            int32_t i = order[ii], u = byp[i];
            int64_t b0 = (i / block) * block, b1 = b0 + block;
            if (b1 > n)
                b1 = n;
            for (int64_t j = b0; j < b1; j++) {
                int32_t v = byp[j];
                if (j == i)
                    continue;
                if (one_to_one && tm__qsame(&L->o, L->pe[u], L->pe[v]))
                    continue;
                improved += tm__ls_try_swap(L, u, v);
            }
            if ((ii & 63) == 0 && tm__ls_out_of_time(L))
                goto done;
        }
        if (!improved)
            break;
    }
done:
    free(byp), free(order), free(cnt);
    return TM_EOK;
}

/* Whether every weight is non-negative and the oracle obeys the triangle
 * inequality, so that tm__ls_gain may skip far pairs.  Hierarchy mode: an
 * ultrametric when the distances do not decrease with the level.  Network
 * mode: hop counts of shortest paths plus d_top between hosts, when no
 * host is a shortcut (tm__qnet.hops_metric); inside a host the node levels
 * must not decrease and stay within two host-to-host distances (d_top +
 * c_hop at least). */
static bool far_bound_holds(const tm__sgraph *g, const tm__qdist *o)
{
    const tm_hier *h = o->net ? o->net->node : o->h;
    for (int64_t e = 0; e < g->xadj[g->n]; e++)
        if (!(g->w[e] >= 0))
            return false;
    for (int i = 1; h && i < h->k; i++)
        if (h->d[i] < h->d[i - 1])
            return false;
    if (o->net) {
        const tm__qnet *q = o->net;
        if (!q->hops_metric || !(q->d_top >= 0 && q->c_hop >= 0))
            return false;
        if (h && h->k > 0 && h->d[h->k - 1] > 2.0 * (q->d_top + q->c_hop))
            return false;
    }
    return true;
}

static double *weighted_degrees(const tm__sgraph *g)
{
    double *wd = tm__malloc_n((size_t)(g->n ? g->n : 1), sizeof *wd);
    for (int32_t u = 0; wd && u < g->n; u++) {
        wd[u] = 0.0;
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
            wd[u] += g->w[e];
    }
    return wd;
}

/* Smallest one-to-one problem searched with a team of threads: below, a
 * round is too short to share out. */
#define TM__LSPAR_MIN 2048

tm_err tm__qap_local_search(tm_ctx *ctx, const tm__sgraph *g, const tm__qdist *o, double bound,
                            const char *nbh, int depth, uint64_t seed, int32_t *pe,
                            double *j_out)
{
    return tm__qap_local_search_k(ctx, g, o, bound, nbh, depth, -1.0, seed, pe, j_out);
}

/* The search itself on gain graph g and search graph sg (the partners
 * tried), from pe; *j_out: J on g. */
static tm_err search(tm_ctx *ctx, const tm__sgraph *g, const tm__sgraph *sg, const tm__qdist *o,
                     double bound, const char *nbh, int depth, double kicks, uint64_t seed,
                     int32_t *pe, double *j_out)
{
    tm__ls L;
    tm__rng r;
    tm_err err = TM_EOK;
    double tl = tm_ctx_time_limit(ctx), *wdeg = NULL;
    bool nc = strcmp(nbh, "nc") == 0, ils = strcmp(nbh, "ils") == 0;
    memset(&L, 0, sizeof L);
    L.g = g;
    L.sg = sg;
    L.pe = pe;
    L.bound = bound;
    L.o = *o;
    L.t_end = tl >= 0 ? tm__now() + tl : -1.0;
    L.kicks = kicks;
    L.ctx = ctx;
    tm__rng_seed(&r, seed, 0x5157);
    if (bound >= 0) {
        L.load = tm__calloc_n((size_t)o->n_pe, sizeof *L.load);
        if (!L.load) {
            err = tm__nomem(ctx);
            goto out;
        }
        for (int32_t u = 0; u < g->n; u++)
            L.load[pe[u]] += g->vw[u];
    }
    L.c = tm__malloc_n((size_t)(g->n ? g->n : 1), sizeof *L.c);
    if (!L.c) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t u = 0; u < g->n; u++)
        L.c[u] = tm__ls_contrib(&L, u);
    if (far_bound_holds(g, o) && !(wdeg = weighted_degrees(g))) {
        err = tm__nomem(ctx);
        goto out;
    }
    L.wdeg = wdeg;
    L.j = tm__qap_eval_sym(g, &L.o, pe);
    L.eps = -1e-9 * (1.0 + fabs(L.j) * 1e-6);
    /* J at its lower bound (every task's partners at the least distance
     * two PEs can have: a stencil in natural order on its torus): every
     * step of these searches must lower J, so none exists, and skipping
     * them gives the same answer (ils:10 on 65,536 such tasks: 6 s) */
    if (tm__qap_at_lower_bound(g, &L.o, pe, L.c)) {
        tm__log(ctx, TM_LOG_INFO, "%s: J is at its lower bound, nothing to refine", nbh);
        goto out;
    }
    /* the results do not depend on the team's size (qap_lspar.c) */
    if ((nc || ils) && !L.load && g->n >= TM__LSPAR_MIN && tm_ctx_threads(ctx) > 1 &&
        (err = tm__team_new(ctx, tm_ctx_threads(ctx), &L.team)) != TM_EOK)
        goto out;
    if (nc)
        err = tm__ls_run_nc(ctx, &L, depth, &r);
    else if (ils)
        err = tm__ls_run_ils(ctx, &L, depth, &r);
    else if (strcmp(nbh, "np") == 0)
        err = run_blocks(ctx, &L, depth, &r);
    else
        err = run_blocks(ctx, &L, g->n > 0 ? g->n : 1, &r);
out:
    if (j_out)
        *j_out = L.j;
    tm__team_free(L.team);
    free(wdeg);
    free(L.load);
    free(L.c);
    return err;
}

/* nc and ils search on the heavy edges (TM__SEARCH_RATIO): the partners
 * always, and the gains too when the light edges carry at most
 * TM__LIGHT_WEIGHT of the volume (on AMG2013 1,000, 2e-3 of it on 207,000
 * of its 225,000 edges, where exact gains cost 900 oracle calls each).
 * Then J is the exact one of g, and a search whose answer is worse on it
 * than its start (J on the heavy edges fell, on all of them rose) returns
 * the start: never worse by J. */
tm_err tm__qap_local_search_k(tm_ctx *ctx, const tm__sgraph *g, const tm__qdist *o, double bound,
                              const char *nbh, int depth, double kicks, uint64_t seed,
                              int32_t *pe, double *j_out)
{
    tm__sgraph heavy = {0};
    tm__heavy_share kept = {1.0, 1.0};
    int32_t *start = NULL;
    double j0, j1;
    bool light;
    tm_err err;
    if ((strcmp(nbh, "nc") != 0 && strcmp(nbh, "ils") != 0))
        return search(ctx, g, g, o, bound, nbh, depth, kicks, seed, pe, j_out);
    if (tm__sgraph_heavy(ctx, g, TM__SEARCH_RATIO, &heavy, &kept) != TM_EOK)
        return tm__nomem(ctx);
    if (kept.edges >= 1.0) {
        tm__sgraph_release(&heavy);
        return search(ctx, g, g, o, bound, nbh, depth, kicks, seed, pe, j_out);
    }
    light = tm__heavy_suffices(&kept);
    if (!light) {
        err = search(ctx, g, &heavy, o, bound, nbh, depth, kicks, seed, pe, j_out);
        tm__sgraph_release(&heavy);
        return err;
    }
    if (!(start = tm__malloc_n((size_t)(g->n ? g->n : 1), sizeof *start))) {
        tm__sgraph_release(&heavy);
        return tm__nomem(ctx);
    }
    memcpy(start, pe, (size_t)g->n * sizeof *pe);
    j0 = tm__qap_eval_sym(g, o, pe);
    err = search(ctx, &heavy, &heavy, o, bound, nbh, depth, kicks, seed, pe, NULL);
    j1 = tm__qap_eval_sym(g, o, pe);
    if (!err && j1 > j0) {
        memcpy(pe, start, (size_t)g->n * sizeof *pe);
        j1 = j0;
    }
    if (j_out)
        *j_out = j1;
    free(start);
    tm__sgraph_release(&heavy);
    return err;
}

static bool load_ok(const tm__ls *L, int32_t u, int32_t v)
{
    double du;
    if (!L->load)
        return true;
    du = L->g->vw[v] - L->g->vw[u];
    return du == 0 || (L->load[L->pe[u]] + du <= L->bound * (1 + 1e-12) &&
                       L->load[L->pe[v]] - du <= L->bound * (1 + 1e-12));
}

/* The kicks one after the other. */
static tm_err seq_kicks(tm_ctx *ctx, tm__ls *L, tm__rng *r, int64_t kicks)
{
    const tm__sgraph *g = L->g;
    tm__ls_undo ul = {0};
    tm__ls_kick_log k;
    tm_err err = tm__ls_kick_init(ctx, &k, g->n);
    bool kept = false;
    for (int64_t it = 0; !err && (it < kicks || L->t_end >= 0); it++) {
        int32_t u, v;
        if (tm__ls_kicks_futile(L, it, kept))
            break;
        if ((it & 63) == 0 && tm__ls_out_of_time(L))
            break;
        if (L->t_end >= 0 && it >= kicks * 64)
            break;
        if (!tm__ls_kick_draw(L->sg, r, &u, &v) || v == u || L->pe[u] == L->pe[v] ||
            !load_ok(L, u, v))
            continue;
        bool this_kept;
        if (tm__ls_kick_run(L, &k, &ul, u, v, &this_kept) < 0)
            err = tm__nomem(ctx);
        else if (this_kept)
            kept = true;
    }
    free(ul.at);
    free(ul.old);
    tm__ls_kick_free(&k);
    return err;
}

tm_err tm__ls_run_ils(tm_ctx *ctx, tm__ls *L, int depth, tm__rng *r)
{
    int32_t n = L->g->n;
    int64_t kicks;
    tm_err err = tm__ls_run_nc(ctx, L, depth, r);
    if (err || n < 3)
        return err;
    kicks = (int64_t)ceil((double)n * (L->kicks >= 0 ? L->kicks : TM__ILS_KICKS));
    if (kicks <= 0)
        return TM_EOK;
    if (L->team && !L->load)
        return tm__ls_par_kicks(ctx, L, r, kicks);
    return seq_kicks(ctx, L, r, kicks);
}
