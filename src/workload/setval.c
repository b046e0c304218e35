/*
 * setval.c - a set of jobs that run together (wl_set_eval): the sum of
 * their loads gives the fabric's congestion, each job's congestion over
 * the links it loads and the links they share; tm_time_eval_shared gives
 * each row job's time with the others' flows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wl_int.h"
#include "../util/util.h"

#define DEFAULT_MAX_SHARED 64

void tm_workload_result_init(tm_workload_result *r)
{
    memset(r, 0, sizeof *r);
    r->max_link = -1;
}

void tm_workload_result_release(tm_workload_result *r)
{
    if (!r)
        return;
    for (int32_t i = 0; r->rows && i < r->n_rows; i++)
        free(r->rows[i].neighbours);
    free(r->rows);
    for (int32_t i = 0; r->shared && i < r->n_shared; i++) {
        free(r->shared[i].jobs);
        free(r->shared[i].load);
    }
    free(r->shared);
    free(r->link_load);
    free(r->link_job);
    free(r->link_n_jobs);
    tm_workload_result_init(r);
}

/* The links two or more members load: CSR by shared link (sh[l]: its
 * index, -1 for others) of (member, load). */
typedef struct sharing {
    int32_t n;        /* shared links */
    int32_t *link;    /* n: their ids, ascending */
    int32_t *off;     /* n + 1 */
    int32_t *member;
    double *load;
    int32_t *sh;      /* per link */
} sharing;

static void sharing_free(sharing *s)
{
    free(s->link);
    free(s->off);
    free(s->member);
    free(s->load);
    free(s->sh);
}

static tm_err sharing_make(tm_ctx *ctx, wl_inst *const *set, int32_t n, const int32_t *cnt,
                           int32_t n_links, sharing *s)
{
    int64_t total = 0;
    int32_t k = 0;
    memset(s, 0, sizeof *s);
    for (int32_t l = 0; l < n_links; l++)
        if (cnt[l] >= 2) {
            s->n++;
            total += cnt[l];
        }
    s->link = tm__malloc_n((size_t)s->n + 1, sizeof *s->link);
    s->off = tm__calloc_n((size_t)s->n + 2, sizeof *s->off);
    s->member = tm__malloc_n((size_t)total + 1, sizeof *s->member);
    s->load = tm__malloc_n((size_t)total + 1, sizeof *s->load);
    s->sh = tm__malloc_n((size_t)n_links + 1, sizeof *s->sh);
    if (!s->link || !s->off || !s->member || !s->load || !s->sh)
        return tm__nomem(ctx);
    for (int32_t l = 0; l < n_links; l++) {
        s->sh[l] = cnt[l] >= 2 ? k : -1;
        if (cnt[l] >= 2) {
            s->link[k] = l;
            s->off[k + 1] = s->off[k] + cnt[l];
            k++;
        }
    }
    /* fill in member order: each link's list is by member, then sorted */
    {
        int32_t *at = tm__malloc_n((size_t)s->n + 1, sizeof *at);
        if (!at)
            return tm__nomem(ctx);
        memcpy(at, s->off, (size_t)s->n * sizeof *at);
        for (int32_t i = 0; i < n; i++)
            for (int32_t q = 0; q < set[i]->n_loads; q++) {
                int32_t x = s->sh[set[i]->load_link[q]];
                if (x < 0)
                    continue;
                s->member[at[x]] = i;
                s->load[at[x]++] = set[i]->load_bytes[q];
            }
        free(at);
    }
    return TM_EOK;
}

static tm_job_figures figures(const tm_metrics *m)
{
    tm_job_figures f;
    f.max_congestion = m->max_congestion;
    f.avg_dilation = m->avg_dilation;
    f.qap_J = m->qap_J;
    f.est_time_s = m->est_time_s;
    f.time_approximate = m->time_approximate;
    return f;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Row member i: congestion over its links, shared links, neighbours. */
static tm_err row_loads(tm_ctx *ctx, const tm_net_csr *g, wl_inst *const *set, const int32_t *ids,
                        int32_t i, const double *L, const int32_t *cnt, const sharing *s,
                        int32_t *stamp, tm_job_result *r)
{
    const wl_inst *x = set[i];
    int32_t nb = 0, cap = 0;
    r->alone = figures(&x->alone);
    r->shared = r->alone;
    r->shared.max_congestion = 0.0;
    r->links_used = x->n_loads;
    for (int32_t q = 0; q < x->n_loads; q++) {
        int32_t l = x->load_link[q], k = s->sh[l];
        double c = L[l] / g->cap[l];
        if (c > r->shared.max_congestion)
            r->shared.max_congestion = c;
        if (cnt[l] < 2)
            continue;
        r->links_shared++;
        for (int32_t e = s->off[k]; e < s->off[k + 1]; e++) {
            int32_t m = s->member[e];
            if (m == i || stamp[m] == i)
                continue;
            stamp[m] = i;
            if (nb >= cap) {
                size_t c2 = (size_t)cap;
                if (tm__grow((void **)&r->neighbours, &c2, (size_t)nb + 1, sizeof *r->neighbours))
                    return tm__nomem(ctx);
                cap = (int32_t)c2;
            }
            r->neighbours[nb++] = ids[m];
        }
    }
    r->n_neighbours = nb;
    if (nb > 1)
        qsort(r->neighbours, (size_t)nb, sizeof *r->neighbours, cmp_i32);
    return TM_EOK;
}

/* Each row's shared time from one simulation of the set's flows. */
static tm_err row_times(tm_ctx *ctx, const tm_route *route, const tm_time_opts *topt,
                        wl_inst *const *set, const int32_t *ids, int32_t n, const bool *row,
                        tm_workload_result *out)
{
    tm_time_job *tj = tm__calloc_n((size_t)n + 1, sizeof *tj);
    tm_time_shared *sh = tm__calloc_n((size_t)n + 1, sizeof *sh);
    int32_t *gmin = tm__malloc_n((size_t)n + 1, sizeof *gmin);
    bool *want = tm__calloc_n((size_t)n + 1, sizeof *want);
    tm_err err = TM_EOK;
    if (!tj || !sh || !gmin || !want) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t i = 0; i < n; i++) {
        tj[i] = wl_inst_time_job(set[i]);
        want[i] = !row || row[i];
        gmin[i] = INT32_MAX;
    }
    err = tm_time_eval_shared(ctx, route, tj, n, topt, want, sh);
    if (err)
        goto out;
    for (int32_t i = 0; i < n; i++)
        if (want[i] && ids[i] < gmin[sh[i].group])
            gmin[sh[i].group] = ids[i];
    /* a group is simulated whole when one of its jobs is wanted, so every
     * member's group id is set; the lowest id of the group is among them */
    for (int32_t i = 0; i < n; i++)
        if (!want[i] && sh[i].group >= 0 && ids[i] < gmin[sh[i].group])
            gmin[sh[i].group] = ids[i];
    for (int32_t i = 0, k = 0; i < n; i++) {
        tm_job_result *r;
        double den;
        if (!want[i])
            continue;
        r = &out->rows[k++];
        r->shared.est_time_s = sh[i].est_time_s;
        r->shared.time_approximate = sh[i].approximate;
        r->group = gmin[sh[i].group];
        den = sh[i].alone_est_time_s > 0 ? sh[i].alone_est_time_s : r->alone.est_time_s;
        r->slowdown = den > 0 ? sh[i].est_time_s / den : 1.0;
    }
out:
    free(tj);
    free(sh);
    free(gmin);
    free(want);
    return err;
}

/* The shared links, most congested first, up to max. */
typedef struct shkey {
    double c;
    int32_t k;
} shkey;

static int cmp_shkey(const void *a, const void *b)
{
    const shkey *x = a, *y = b;
    if (x->c != y->c)
        return x->c > y->c ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

typedef struct mload {
    double load;
    int32_t id;
} mload;

static int cmp_mload(const void *a, const void *b)
{
    const mload *x = a, *y = b;
    if (x->load != y->load)
        return x->load > y->load ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

static tm_err list_shared(tm_ctx *ctx, const tm_net_csr *g, const int32_t *ids, const double *L,
                          const sharing *s, int32_t max, tm_workload_result *out)
{
    shkey *key = tm__malloc_n((size_t)s->n + 1, sizeof *key);
    int32_t take;
    if (!key)
        return tm__nomem(ctx);
    for (int32_t k = 0; k < s->n; k++)
        key[k] = (shkey){L[s->link[k]] / g->cap[s->link[k]], k};
    qsort(key, (size_t)s->n, sizeof *key, cmp_shkey);
    take = s->n < max ? s->n : max;
    out->shared = tm__calloc_n((size_t)take + 1, sizeof *out->shared);
    if (!out->shared) {
        free(key);
        return tm__nomem(ctx);
    }
    for (int32_t t = 0; t < take; t++) {
        int32_t k = key[t].k, m = s->off[k + 1] - s->off[k];
        tm_link_share *ls = &out->shared[out->n_shared++];
        mload *ml = tm__malloc_n((size_t)m, sizeof *ml);
        ls->link = s->link[k];
        ls->congestion = key[t].c;
        ls->jobs = tm__malloc_n((size_t)m, sizeof *ls->jobs);
        ls->load = tm__malloc_n((size_t)m, sizeof *ls->load);
        if (!ml || !ls->jobs || !ls->load) {
            free(ml);
            free(key);
            return tm__nomem(ctx);
        }
        for (int32_t e = 0; e < m; e++)
            ml[e] = (mload){s->load[s->off[k] + e], ids[s->member[s->off[k] + e]]};
        qsort(ml, (size_t)m, sizeof *ml, cmp_mload);
        for (int32_t e = 0; e < m; e++) {
            ls->jobs[e] = ml[e].id;
            ls->load[e] = ml[e].load;
        }
        ls->n_jobs = m;
        free(ml);
    }
    free(key);
    return TM_EOK;
}

/* keep_link_loads: the total and the largest job per link. */
static tm_err keep_loads(tm_ctx *ctx, int32_t n_links, wl_inst *const *set, const int32_t *ids,
                         int32_t n, double **L, int32_t **cnt, tm_workload_result *out)
{
    double *best = tm__calloc_n((size_t)n_links + 1, sizeof *best);
    out->link_job = tm__malloc_n((size_t)n_links + 1, sizeof *out->link_job);
    if (!best || !out->link_job) {
        free(best);
        return tm__nomem(ctx);
    }
    for (int32_t l = 0; l < n_links; l++)
        out->link_job[l] = -1;
    for (int32_t i = 0; i < n; i++)
        for (int32_t q = 0; q < set[i]->n_loads; q++) {
            int32_t l = set[i]->load_link[q];
            double b = set[i]->load_bytes[q];
            if (b > best[l] || (b == best[l] && ids[i] < out->link_job[l])) {
                best[l] = b;
                out->link_job[l] = ids[i];
            }
        }
    free(best);
    out->n_links = n_links;
    out->link_load = *L;
    out->link_n_jobs = *cnt;
    *L = NULL;
    *cnt = NULL;
    return TM_EOK;
}

tm_err wl_set_eval(tm_ctx *ctx, const tm_route *route, const tm_time_opts *topt,
                   wl_inst *const *set, const int32_t *ids, int32_t n, const bool *row,
                   int32_t max_shared, bool keep_link_loads, tm_workload_result *out)
{
    const tm_net_csr *g = tm_net_csr_get(tm_route_net(route));
    double *L = tm__calloc_n((size_t)g->n_links + 1, sizeof *L);
    int32_t *cnt = tm__calloc_n((size_t)g->n_links + 1, sizeof *cnt);
    int32_t *stamp = tm__malloc_n((size_t)n + 1, sizeof *stamp), nrows = 0;
    sharing s = {0};
    tm_err err = TM_EOK;

    tm_workload_result_init(out);
    if (!L || !cnt || !stamp) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t i = 0; i < n; i++) {
        stamp[i] = -1;
        nrows += !row || row[i];
        for (int32_t q = 0; q < set[i]->n_loads; q++) {
            L[set[i]->load_link[q]] += set[i]->load_bytes[q];
            cnt[set[i]->load_link[q]]++;
        }
    }
    for (int32_t l = 0; l < g->n_links; l++) {
        double c = L[l] / g->cap[l];
        out->links_used += cnt[l] > 0;
        out->links_shared += cnt[l] >= 2;
        if (L[l] > 0 && c > out->max_congestion) {
            out->max_congestion = c;
            out->max_link = l;
        }
    }
    if ((err = sharing_make(ctx, set, n, cnt, g->n_links, &s)))
        goto out;
    out->rows = tm__calloc_n((size_t)nrows + 1, sizeof *out->rows);
    if (!out->rows) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t i = 0; i < n && !err; i++) {
        if (row && !row[i])
            continue;
        out->rows[out->n_rows].job = ids[i];
        err = row_loads(ctx, g, set, ids, i, L, cnt, &s, stamp, &out->rows[out->n_rows]);
        out->n_rows++;
    }
    if (!err)
        err = row_times(ctx, route, topt, set, ids, n, row, out);
    if (!err && max_shared >= 0)
        err = list_shared(ctx, g, ids, L, &s, max_shared ? max_shared : DEFAULT_MAX_SHARED, out);
    if (!err && keep_link_loads)
        err = keep_loads(ctx, g->n_links, set, ids, n, &L, &cnt, out);
out:
    if (err)
        tm_workload_result_release(out);
    sharing_free(&s);
    free(L);
    free(cnt);
    free(stamp);
    return err;
}
