/* sgraph.c - building the symmetric task graph, induced subgraphs and
 * quotient graphs (sgraph.h).  Rows are built by bucketing entries per
 * vertex, so every sum of parallel entries runs in a fixed order (vertex
 * order, then row order) that does not depend on the sort routine; sorted
 * comm rows are merged in linear time (merge_sorted). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sgraph.h"
#include "../util/util.h"

void tm__sgraph_release(tm__sgraph *g)
{
    free(g->xadj);
    free(g->adj);
    free(g->w);
    free(g->vw);
    memset(g, 0, sizeof *g);
}

void tm__comm_drop(tm_comm *c)
{
    free(c->xadj);
    free(c->adj);
    free(c->w);
    free(c->vwgt);
    memset(c, 0, sizeof *c);
}

double tm__sgraph_wdeg(const tm__sgraph *g, int32_t v)
{
    double s = 0;
    for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++)
        s += g->w[j];
    return s;
}

typedef struct { int32_t v; double w; } ent;

static int ent_cmp(const void *a, const void *b)
{
    const ent *x = a, *y = b;
    return (x->v > y->v) - (x->v < y->v);
}

static bool keep(const tm_comm *c, int32_t u, int64_t i, unsigned flags)
{
    return c->adj[i] != u && (!(flags & TM__SG_POSITIVE) || c->w[i] > 0);
}

/* Sorts row by row (stable merge of equal targets in bucket order) and
 * sums parallel entries into out->adj/w. */
static tm_err merge_rows(tm_ctx *ctx, int32_t n, const int64_t *pos, const int64_t *end, ent *e,
                         tm__sgraph *out)
{
    int64_t k = 0;
    for (int32_t u = 0; u < n; u++) {
        int64_t b = pos[u], en = end[u];
        /* each target at most twice in a checked comm (u->v and v->u),
         * so the order of equal targets cannot change the sum */
        qsort(e + b, (size_t)(en - b), sizeof *e, ent_cmp);
        out->xadj[u] = k;
        for (int64_t i = b; i < en; i++) {
            if (k > out->xadj[u] && out->adj[k - 1] == e[i].v) {
                out->w[k - 1] += e[i].w;
                if (!isfinite(out->w[k - 1]))
                    return tm__fail(ctx, TM_EINPUT, "volume between tasks %d and %d overflows",
                                    u, e[i].v);
            } else {
                out->adj[k] = e[i].v;
                out->w[k] = e[i].w;
                k++;
            }
        }
    }
    out->xadj[n] = k;
    return TM_EOK;
}

/* Rows strictly increasing by target, as tm_comm_check wants them: then
 * a row of the symmetric graph is a merge of two sorted lists. */
static bool rows_sorted(const tm_comm *c)
{
    for (int32_t u = 0; u < c->n; u++)
        for (int64_t i = c->xadj[u] + 1; i < c->xadj[u + 1]; i++)
            if (c->adj[i] <= c->adj[i - 1])
                return false;
    return true;
}

/* Appends (v, w) to out's current row, summing it into an equal last
 * target; -1 when the sum overflows. */
static int put(tm__sgraph *out, int64_t *k, int64_t row, int32_t v, double w)
{
    if (*k > row && out->adj[*k - 1] == v) {
        out->w[*k - 1] += w;
        return isfinite(out->w[*k - 1]) ? 0 : -1;
    }
    out->adj[*k] = v;
    out->w[(*k)++] = w;
    return 0;
}

/* The rows of sorted comm rows in linear time: row u merges u's own row
 * (sorted) with the entries x -> u, bucketed under u in increasing x
 * (in[pos[u]..pos[u+1])).  Sorting each bucket instead was a sixth of
 * the default map's time on AMG2013 1,000 (450 entries a row), rebuilt
 * for every row of the pipeline.  A target met twice (u -> v and v -> u)
 * sums two numbers, which is the same in either order. */
static tm_err merge_sorted(tm_ctx *ctx, const tm_comm *c, unsigned flags, const int64_t *pos,
                           const ent *in, tm__sgraph *out)
{
    int64_t k = 0;
    for (int32_t u = 0; u < c->n; u++) {
        int64_t i = c->xadj[u], ie = c->xadj[u + 1], j = pos[u], je = pos[u + 1];
        out->xadj[u] = k;
        for (;;) {
            int rc;
            while (i < ie && !keep(c, u, i, flags))
                i++;
            if (i >= ie && j >= je)
                break;
            if (j >= je || (i < ie && c->adj[i] <= in[j].v)) {
                rc = put(out, &k, out->xadj[u], c->adj[i], c->w[i]);
                i++;
            } else {
                rc = put(out, &k, out->xadj[u], in[j].v, in[j].w);
                j++;
            }
            if (rc)
                return tm__fail(ctx, TM_EINPUT, "volume between tasks %d and %d overflows", u,
                                out->adj[k - 1]);
        }
    }
    out->xadj[c->n] = k;
    return TM_EOK;
}

/* Counts per vertex in fill[0..n) -> bucket starts pos[0..n] (pos[n] the
 * total), and fill reset to the starts (the next free place of each). */
static void offsets(int32_t n, int64_t *fill, int64_t *pos)
{
    pos[0] = 0;
    for (int32_t u = 0; u < n; u++)
        pos[u + 1] = pos[u] + fill[u];
    memcpy(fill, pos, ((size_t)n + 1) * sizeof *fill);
}

tm_err tm__sgraph_from_comm(tm_ctx *ctx, const tm_comm *c, unsigned flags, tm__sgraph *out)
{
    int32_t n = c->n;
    int64_t *fill = NULL, *pos = NULL, m2 = 2 * c->nnz;
    ent *e = NULL;
    tm_err err;
    memset(out, 0, sizeof *out);
    out->n = n;
    fill = tm__calloc_n((size_t)n + 1, sizeof *fill);
    pos = tm__malloc_n((size_t)n + 1, sizeof *pos);
    e = tm__malloc_n((size_t)(m2 ? m2 : 1), sizeof *e);
    out->xadj = tm__calloc_n((size_t)n + 1, sizeof *out->xadj);
    out->adj = tm__malloc_n((size_t)(m2 ? m2 : 1), sizeof *out->adj);
    out->w = tm__malloc_n((size_t)(m2 ? m2 : 1), sizeof *out->w);
    if (flags & TM__SG_VERTEX_WEIGHTS)
        out->vw = tm__malloc_n((size_t)(n ? n : 1), sizeof *out->vw);
    if (!fill || !pos || !e || !out->xadj || !out->adj || !out->w ||
        ((flags & TM__SG_VERTEX_WEIGHTS) && !out->vw)) {
        err = tm__nomem(ctx);
        goto out;
    }
    if (rows_sorted(c)) {
        /* the entries x -> u under u, in increasing x */
        for (int32_t u = 0; u < n; u++)
            for (int64_t i = c->xadj[u]; i < c->xadj[u + 1]; i++)
                fill[c->adj[i]] += keep(c, u, i, flags);
        offsets(n, fill, pos);
        for (int32_t u = 0; u < n; u++)
            for (int64_t i = c->xadj[u]; i < c->xadj[u + 1]; i++)
                if (keep(c, u, i, flags))
                    e[fill[c->adj[i]]++] = (ent){u, c->w[i]};
        err = merge_sorted(ctx, c, flags, pos, e, out);
    } else {
        /* every kept entry under both ends, in vertex then row order */
        for (int32_t u = 0; u < n; u++)
            for (int64_t i = c->xadj[u]; i < c->xadj[u + 1]; i++)
                if (keep(c, u, i, flags)) {
                    fill[u]++;
                    fill[c->adj[i]]++;
                }
        offsets(n, fill, pos);
        for (int32_t u = 0; u < n; u++)
            for (int64_t i = c->xadj[u]; i < c->xadj[u + 1]; i++)
                if (keep(c, u, i, flags)) {
                    int32_t v = c->adj[i];
                    e[fill[u]++] = (ent){v, c->w[i]};
                    e[fill[v]++] = (ent){u, c->w[i]};
                }
        err = merge_rows(ctx, n, pos, fill, e, out);
    }
    if (err)
        goto out;
    if (out->vw)
        for (int32_t u = 0; u < n; u++) {
            out->vw[u] = c->vwgt ? c->vwgt[u] : 1.0;
            out->total_vw += out->vw[u];
        }
out:
    free(fill);
    free(pos);
    free(e);
    if (err)
        tm__sgraph_release(out);
    return err;
}

tm_err tm__sgraph_induced(tm_ctx *ctx, const tm__sgraph *g, const int32_t *verts, int32_t cnt,
                          int32_t *local, tm__sgraph *out)
{
    int64_t m = 0, k = 0;
    memset(out, 0, sizeof *out);
    out->n = cnt;
    for (int32_t i = 0; i < cnt; i++)
        local[verts[i]] = i;
    for (int32_t i = 0; i < cnt; i++)
        for (int64_t j = g->xadj[verts[i]]; j < g->xadj[verts[i] + 1]; j++)
            m += local[g->adj[j]] >= 0;
    out->xadj = tm__malloc_n((size_t)cnt + 1, sizeof *out->xadj);
    out->adj = tm__malloc_n((size_t)(m ? m : 1), sizeof *out->adj);
    out->w = tm__malloc_n((size_t)(m ? m : 1), sizeof *out->w);
    if (g->vw)
        out->vw = tm__malloc_n((size_t)(cnt ? cnt : 1), sizeof *out->vw);
    if (!out->xadj || !out->adj || !out->w || (g->vw && !out->vw)) {
        for (int32_t i = 0; i < cnt; i++)
            local[verts[i]] = -1;
        tm__sgraph_release(out);
        return tm__nomem(ctx);
    }
    for (int32_t i = 0; i < cnt; i++) {
        int32_t u = verts[i];
        out->xadj[i] = k;
        for (int64_t j = g->xadj[u]; j < g->xadj[u + 1]; j++) {
            int32_t t = local[g->adj[j]];
            if (t >= 0) {
                out->adj[k] = t;
                out->w[k++] = g->w[j];
            }
        }
        if (g->vw) {
            out->vw[i] = g->vw[u];
            out->total_vw += g->vw[u];
        }
    }
    out->xadj[cnt] = k;
    /* callers reuse local: restore the "not in the subgraph" marks */
    for (int32_t i = 0; i < cnt; i++)
        local[verts[i]] = -1;
    return TM_EOK;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

tm_err tm__sgraph_contract(tm_ctx *ctx, const tm__sgraph *g, const int32_t *part, int32_t k,
                           unsigned flags, tm__sgraph *q)
{
    int64_t *start = tm__calloc_n((size_t)k + 1, sizeof *start);
    int32_t *mem = tm__malloc_n((size_t)(g->n ? g->n : 1), sizeof *mem);
    double *acc = tm__calloc_n((size_t)(k ? k : 1), sizeof *acc);
    int32_t *touched = tm__malloc_n((size_t)(k ? k : 1), sizeof *touched);
    size_t cap = 0, capw = 0;
    int64_t m = 0;
    tm_err err = TM_EOK;
    memset(q, 0, sizeof *q);
    q->n = k;
    q->xadj = tm__malloc_n((size_t)k + 1, sizeof *q->xadj);
    if (g->vw)
        q->vw = tm__calloc_n((size_t)(k ? k : 1), sizeof *q->vw);
    if (!start || !mem || !acc || !touched || !q->xadj || (g->vw && !q->vw))
        goto nomem;
    /* members of each block in vertex order (a counting sort) */
    for (int32_t u = 0; u < g->n; u++) {
        start[part[u] + 1]++;
        if (g->vw)
            q->vw[part[u]] += g->vw[u];
    }
    for (int32_t b = 0; b < k; b++)
        start[b + 1] += start[b];
    for (int32_t u = 0; u < g->n; u++)
        mem[start[part[u]]++] = u;
    for (int32_t b = k; b > 0; b--)
        start[b] = start[b - 1];
    start[0] = 0;
    for (int32_t b = 0; b < k; b++) {
        int32_t nt = 0;
        q->xadj[b] = m;
        if (g->vw)
            q->total_vw += q->vw[b];
        for (int64_t i = start[b]; i < start[b + 1]; i++) {
            int32_t u = mem[i];
            for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++) {
                int32_t c = part[g->adj[e]];
                if (c == b)
                    continue;
                if (acc[c] == 0)
                    touched[nt++] = c;
                acc[c] += g->w[e];
            }
        }
        if (tm__grow((void **)&q->adj, &cap, (size_t)(m + nt), sizeof *q->adj) < 0 ||
            tm__grow((void **)&q->w, &capw, (size_t)(m + nt), sizeof *q->w) < 0)
            goto nomem;
        if (flags & TM__SG_SORTED_ROWS)
            qsort(touched, (size_t)nt, sizeof *touched, cmp_i32);
        for (int32_t i = 0; i < nt; i++) {
            q->adj[m] = touched[i];
            q->w[m++] = acc[touched[i]];
            acc[touched[i]] = 0;
        }
    }
    q->xadj[k] = m;
    goto out;
nomem:
    err = tm__nomem(ctx);
    tm__sgraph_release(q);
out:
    free(start);
    free(mem);
    free(acc);
    free(touched);
    return err;
}
