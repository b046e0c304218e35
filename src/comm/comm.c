/*
 * comm.c - the communication graph's CSR: life cycle, construction from a
 * list of directed entries, the invariant check, symmetrisation, copying and
 * the format-name table.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "comm_int.h"

void tm_comm_init(tm_comm *c) { memset(c, 0, sizeof *c); }

void tm_comm_release(tm_comm *c)
{
    if (!c)
        return;
    free(c->xadj);
    free(c->adj);
    free(c->w);
    free(c->vwgt);
    memset(c, 0, sizeof *c);
}

/* Allocates the arrays of a CSR with n tasks and nnz entries (xadj zeroed). */
static tm_err comm_alloc(tm_ctx *ctx, tm_comm *c, int32_t n, int64_t nnz)
{
    tm_comm_init(c);
    c->n = n;
    c->nnz = nnz;
    c->xadj = tm__calloc_n((size_t)n + 1, sizeof *c->xadj);
    /* +1: malloc(0) may return NULL, which would look like a failure. */
    c->adj = tm__malloc_n((size_t)nnz + 1, sizeof *c->adj);
    c->w = tm__malloc_n((size_t)nnz + 1, sizeof *c->w);
    if (!c->xadj || !c->adj || !c->w) {
        tm_comm_release(c);
        return tm__nomem(ctx);
    }
    return TM_EOK;
}

/* The entries' ids and volumes; *keep: the entries that stay (not on the
 * diagonal, volume > 0). */
static tm_err check_entries(tm_ctx *ctx, int32_t n, int64_t m, const int32_t *src,
                            const int32_t *dst, const double *w, int64_t *keep_out)
{
    int64_t keep = 0;
    double total = 0;
    if (n < 0 || m < 0)
        return tm__fail(ctx, TM_EINPUT, "negative task or entry count (%d, %lld)", n, (long long)m);
    for (int64_t i = 0; i < m; i++) {
        if (src[i] < 0 || src[i] >= n || dst[i] < 0 || dst[i] >= n)
            return tm__fail(ctx, TM_EINPUT, "entry %lld: task id (%d -> %d) outside [0, %d)",
                            (long long)i, src[i], dst[i], n);
        if (!isfinite(w[i]) || w[i] < 0)
            return tm__fail(ctx, TM_EINPUT, "entry %lld (%d -> %d): volume %g is not a finite "
                            "non-negative number", (long long)i, src[i], dst[i], w[i]);
        if (src[i] != dst[i] && w[i] > 0) {
            keep++;
            total += w[i]; /* an overflow to inf fails the test below too */
        }
    }
    /* Bounding the total bounds every merged entry, and every J and load
     * made from them (TM_COMM_MAX_VOLUME). */
    if (total > TM_COMM_MAX_VOLUME)
        return tm__fail(ctx, TM_EINPUT, "total volume %g is larger than the limit %g",
                        total, TM_COMM_MAX_VOLUME);
    *keep_out = keep;
    return TM_EOK;
}

/* Sums the duplicates of out's rows (adjacent: rows are sorted, cnt[u] the
 * first entry of row u) in place and sets xadj and nnz. */
static void merge_rows(tm_comm *out, int32_t n, const int64_t *cnt)
{
    int64_t nnz = 0;
    for (int32_t u = 0; u < n; u++) {
        int64_t row = nnz;
        out->xadj[u] = nnz;
        for (int64_t j = cnt[u]; j < cnt[u + 1]; j++) {
            if (nnz > row && out->adj[nnz - 1] == out->adj[j]) {
                out->w[nnz - 1] += out->w[j];
            } else {
                out->adj[nnz] = out->adj[j];
                out->w[nnz] = out->w[j];
                nnz++;
            }
        }
    }
    out->xadj[n] = nnz;
    out->nnz = nnz;
}

tm_err tm_comm_from_entries(tm_ctx *ctx, int32_t n, int64_t m, const int32_t *src,
                            const int32_t *dst, const double *w, tm_comm *out)
{
    int64_t *cnt = NULL, keep = 0;
    int32_t *tmp_s = NULL, *tmp_d = NULL;
    double *tmp_w = NULL;
    int64_t *pos = NULL;
    tm_err err;

    tm_comm_init(out);
    err = check_entries(ctx, n, m, src, dst, w, &keep);
    if (err)
        return err;
    /* Two stable counting sorts (by target, then by source) give rows sorted
     * by target in O(n + m) without comparison sorting. */
    cnt = tm__calloc_n((size_t)n + 1, sizeof *cnt);
    pos = tm__malloc_n((size_t)n + 1, sizeof *pos);
    tmp_s = tm__malloc_n((size_t)keep + 1, sizeof *tmp_s);
    tmp_d = tm__malloc_n((size_t)keep + 1, sizeof *tmp_d);
    tmp_w = tm__malloc_n((size_t)keep + 1, sizeof *tmp_w);
    if (!cnt || !pos || !tmp_s || !tmp_d || !tmp_w)
        goto nomem;
    for (int64_t i = 0; i < m; i++)
        if (src[i] != dst[i] && w[i] > 0)
            cnt[dst[i] + 1]++;
    for (int32_t v = 0; v < n; v++)
        cnt[v + 1] += cnt[v];
    memcpy(pos, cnt, ((size_t)n + 1) * sizeof *pos);
    for (int64_t i = 0; i < m; i++) {
        if (src[i] == dst[i] || !(w[i] > 0))
            continue;
        int64_t k = pos[dst[i]]++;
        tmp_s[k] = src[i];
        tmp_d[k] = dst[i];
        tmp_w[k] = w[i];
    }
    err = comm_alloc(ctx, out, n, keep);
    if (err)
        goto out;
    memset(cnt, 0, ((size_t)n + 1) * sizeof *cnt);
    for (int64_t k = 0; k < keep; k++)
        cnt[tmp_s[k] + 1]++;
    for (int32_t v = 0; v < n; v++)
        cnt[v + 1] += cnt[v];
    memcpy(pos, cnt, ((size_t)n + 1) * sizeof *pos);
    for (int64_t k = 0; k < keep; k++) {
        int64_t j = pos[tmp_s[k]]++;
        out->adj[j] = tmp_d[k];
        out->w[j] = tmp_w[k];
    }
    merge_rows(out, n, cnt);
    goto out;
nomem:
    err = tm__nomem(ctx);
out:
    free(cnt);
    free(pos);
    free(tmp_s);
    free(tmp_d);
    free(tmp_w);
    return err;
}

tm_err tm_comm_check(tm_ctx *ctx, const tm_comm *c)
{
    double total = 0;
    if (c->n < 0 || c->nnz < 0)
        return tm__fail(ctx, TM_EINPUT, "comm: negative size (n=%d, nnz=%lld)", c->n,
                        (long long)c->nnz);
    if (c->n > 0 && !c->xadj)
        return tm__fail(ctx, TM_EINPUT, "comm: no offsets");
    if (c->nnz > 0 && (!c->adj || !c->w))
        return tm__fail(ctx, TM_EINPUT, "comm: no adjacency arrays");
    if (c->xadj && (c->xadj[0] != 0 || c->xadj[c->n] != c->nnz))
        return tm__fail(ctx, TM_EINPUT, "comm: offsets do not span 0..%lld", (long long)c->nnz);
    for (int32_t u = 0; u < c->n; u++) {
        if (c->xadj[u + 1] < c->xadj[u])
            return tm__fail(ctx, TM_EINPUT, "comm: offsets of task %d decrease", u);
        for (int64_t j = c->xadj[u]; j < c->xadj[u + 1]; j++) {
            int32_t v = c->adj[j];
            if (v < 0 || v >= c->n)
                return tm__fail(ctx, TM_EINPUT, "comm: entry %d -> %d: target outside [0, %d)",
                                u, v, c->n);
            if (v == u)
                return tm__fail(ctx, TM_EINPUT, "comm: self-loop on task %d", u);
            if (j > c->xadj[u] && c->adj[j - 1] >= v)
                return tm__fail(ctx, TM_EINPUT, "comm: entries of task %d not sorted or "
                                "duplicated at target %d", u, v);
            if (!isfinite(c->w[j]) || !(c->w[j] > 0))
                return tm__fail(ctx, TM_EINPUT, "comm: entry %d -> %d: volume %g is not positive "
                                "and finite", u, v, c->w[j]);
            total += c->w[j];
        }
        if (c->vwgt && (!isfinite(c->vwgt[u]) || c->vwgt[u] < 0))
            return tm__fail(ctx, TM_EINPUT, "comm: task %d: weight %g is negative or not finite",
                            u, c->vwgt[u]);
        if (c->vwgt && c->vwgt[u] > TM_COMM_MAX_VOLUME)
            return tm__fail(ctx, TM_EINPUT, "comm: task %d: weight %g is larger than the limit %g",
                            u, c->vwgt[u], TM_COMM_MAX_VOLUME);
    }
    if (total > TM_COMM_MAX_VOLUME)
        return tm__fail(ctx, TM_EINPUT, "comm: total volume %g is larger than the limit %g", total,
                        TM_COMM_MAX_VOLUME);
    return TM_EOK;
}

double tm_comm_total_volume(const tm_comm *c)
{
    double s = 0;
    for (int64_t j = 0; j < c->nnz; j++)
        s += c->w[j];
    return s;
}

tm_err tm_comm_copy(tm_ctx *ctx, const tm_comm *c, tm_comm *out)
{
    tm_err err = comm_alloc(ctx, out, c->n, c->nnz);
    if (err)
        return err;
    memcpy(out->xadj, c->xadj, ((size_t)c->n + 1) * sizeof *c->xadj);
    if (c->nnz) {
        memcpy(out->adj, c->adj, (size_t)c->nnz * sizeof *c->adj);
        memcpy(out->w, c->w, (size_t)c->nnz * sizeof *c->w);
    }
    if (c->vwgt) {
        out->vwgt = tm__malloc_n((size_t)c->n + 1, sizeof *out->vwgt);
        if (!out->vwgt) {
            tm_comm_release(out);
            return tm__nomem(ctx);
        }
        memcpy(out->vwgt, c->vwgt, (size_t)c->n * sizeof *c->vwgt);
    }
    return TM_EOK;
}

/* Not built on the strategies' symmetric graph (src/graph/sgraph.h),
 * although the rows come out the same: this is public API on any
 * caller-built tm_comm (unsorted rows, duplicates, bad ids, negative or
 * non-finite volumes are all possible here), so it goes through
 * tm_comm_from_entries, the comm module's validating constructor, and
 * returns exact-size public arrays; sgraph assumes a checked tm_comm. */
tm_err tm_comm_symmetrize(tm_ctx *ctx, const tm_comm *c, tm_comm *out)
{
    int64_t m = 2 * c->nnz;
    int32_t *s = tm__malloc_n((size_t)m + 1, sizeof *s);
    int32_t *d = tm__malloc_n((size_t)m + 1, sizeof *d);
    double *w = tm__malloc_n((size_t)m + 1, sizeof *w);
    tm_err err;
    tm_comm_init(out);
    if (!s || !d || !w) {
        err = tm__nomem(ctx);
        goto out;
    }
    /* Every entry once as given and once reversed; from_entries sums the
     * pairs, so w'(u,v) = w(u,v) + w(v,u) in both directions. */
    int64_t k = 0;
    for (int32_t u = 0; u < c->n; u++) {
        for (int64_t j = c->xadj[u]; j < c->xadj[u + 1]; j++, k += 2) {
            s[k] = u, d[k] = c->adj[j], w[k] = c->w[j];
            s[k + 1] = c->adj[j], d[k + 1] = u, w[k + 1] = c->w[j];
        }
    }
    err = tm_comm_from_entries(ctx, c->n, m, s, d, w, out);
    if (!err && c->vwgt) {
        out->vwgt = tm__malloc_n((size_t)c->n + 1, sizeof *out->vwgt);
        if (!out->vwgt) {
            tm_comm_release(out);
            err = tm__nomem(ctx);
            goto out;
        }
        memcpy(out->vwgt, c->vwgt, (size_t)c->n * sizeof *c->vwgt);
    }
out:
    free(s);
    free(d);
    free(w);
    return err;
}

int tm_comm_format_parse(const char *s)
{
    static const tm__name_val names[] = {
        {"auto", TM_COMM_AUTO},   {"metis", TM_COMM_METIS},
        {"graph", TM_COMM_METIS}, {"mtx", TM_COMM_MTX},
        {"edges", TM_COMM_EDGES}, {"edgelist", TM_COMM_EDGES},
        {"dense", TM_COMM_DENSE}, {"csv", TM_COMM_DENSE},
        {"graphstats", TM_COMM_GRAPHSTATS}, {"mpip", TM_COMM_MPIP},
        {"scotch", TM_COMM_SCOTCH},
    };
    return tm__name_lookup(names, sizeof names / sizeof names[0], s);
}
