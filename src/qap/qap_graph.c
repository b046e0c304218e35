/* qap_graph.c - the symmetric task graph the QAP algorithms work on, its
 * induced subgraphs, and the distance oracle.  Why not tm_comm_symmetrize:
 * the QAP code also needs task weights as doubles and induced subgraphs
 * for every multisection step, so one small private CSR type serves all. */
#include <stdlib.h>
#include <string.h>

#include "qap_int.h"

void tm__qgraph_release(tm__qgraph *g)
{
    free(g->xadj);
    free(g->adj);
    free(g->w);
    free(g->vw);
    memset(g, 0, sizeof *g);
}

/* Sorts one row by target (insertion sort for short rows, qsort else). */
typedef struct { int32_t v; double w; } qent;
static int qent_cmp(const void *a, const void *b)
{
    const qent *x = a, *y = b;
    return (x->v > y->v) - (x->v < y->v);
}

tm_err tm__qgraph_build(tm_ctx *ctx, const tm_comm *c, tm__qgraph *g)
{
    int32_t n = c->n;
    int64_t *deg = NULL, *pos = NULL;
    qent *e = NULL;
    int64_t m2 = 2 * c->nnz, k = 0;
    memset(g, 0, sizeof *g);
    g->n = n;
    deg = tm__calloc_n((size_t)n + 1, sizeof *deg);
    pos = tm__malloc_n((size_t)n + 1, sizeof *pos);
    e = tm__malloc_n((size_t)(m2 ? m2 : 1), sizeof *e);
    g->xadj = tm__calloc_n((size_t)n + 1, sizeof *g->xadj);
    g->vw = tm__malloc_n((size_t)(n ? n : 1), sizeof *g->vw);
    if (!deg || !pos || !e || !g->xadj || !g->vw)
        goto nomem;
    for (int32_t u = 0; u < n; u++)
        for (int64_t i = c->xadj[u]; i < c->xadj[u + 1]; i++) {
            deg[u]++;
            deg[c->adj[i]]++;
        }
    pos[0] = 0;
    for (int32_t u = 0; u < n; u++)
        pos[u + 1] = pos[u] + deg[u];
    memcpy(deg, pos, ((size_t)n + 1) * sizeof *deg);
    for (int32_t u = 0; u < n; u++)
        for (int64_t i = c->xadj[u]; i < c->xadj[u + 1]; i++) {
            int32_t v = c->adj[i];
            if (v == u)
                continue;
            e[deg[u]++] = (qent){v, c->w[i]};
            e[deg[v]++] = (qent){u, c->w[i]};
        }
    /* sort rows, merge duplicates (u->v and v->u both present) */
    g->adj = tm__malloc_n((size_t)(m2 ? m2 : 1), sizeof *g->adj);
    g->w = tm__malloc_n((size_t)(m2 ? m2 : 1), sizeof *g->w);
    if (!g->adj || !g->w)
        goto nomem;
    for (int32_t u = 0; u < n; u++) {
        int64_t b = pos[u], en = deg[u];
        qsort(e + b, (size_t)(en - b), sizeof *e, qent_cmp);
        g->xadj[u] = k;
        for (int64_t i = b; i < en; i++) {
            if (k > g->xadj[u] && g->adj[k - 1] == e[i].v) {
                g->w[k - 1] += e[i].w;
            } else {
                g->adj[k] = e[i].v;
                g->w[k] = e[i].w;
                k++;
            }
        }
    }
    g->xadj[n] = k;
    g->total_vw = 0;
    for (int32_t u = 0; u < n; u++) {
        g->vw[u] = c->vwgt ? c->vwgt[u] : 1.0;
        g->total_vw += g->vw[u];
    }
    free(deg);
    free(pos);
    free(e);
    return TM_EOK;
nomem:
    free(deg);
    free(pos);
    free(e);
    tm__qgraph_release(g);
    return tm__nomem(ctx);
}

tm_err tm__qgraph_induced(tm_ctx *ctx, const tm__qgraph *g, const int32_t *verts, int32_t nv,
                          int32_t *map, tm__qgraph *out)
{
    int64_t m = 0, k = 0;
    memset(out, 0, sizeof *out);
    out->n = nv;
    for (int32_t i = 0; i < nv; i++)
        map[verts[i]] = i;
    for (int32_t i = 0; i < nv; i++) {
        int32_t u = verts[i];
        for (int64_t j = g->xadj[u]; j < g->xadj[u + 1]; j++)
            if (map[g->adj[j]] >= 0)
                m++;
    }
    out->xadj = tm__malloc_n((size_t)nv + 1, sizeof *out->xadj);
    out->adj = tm__malloc_n((size_t)(m ? m : 1), sizeof *out->adj);
    out->w = tm__malloc_n((size_t)(m ? m : 1), sizeof *out->w);
    out->vw = tm__malloc_n((size_t)(nv ? nv : 1), sizeof *out->vw);
    if (!out->xadj || !out->adj || !out->w || !out->vw) {
        for (int32_t i = 0; i < nv; i++)
            map[verts[i]] = -1;
        tm__qgraph_release(out);
        return tm__nomem(ctx);
    }
    for (int32_t i = 0; i < nv; i++) {
        int32_t u = verts[i];
        out->xadj[i] = k;
        for (int64_t j = g->xadj[u]; j < g->xadj[u + 1]; j++) {
            int32_t t = map[g->adj[j]];
            if (t >= 0) {
                out->adj[k] = t;
                out->w[k++] = g->w[j];
            }
        }
        out->vw[i] = g->vw[u];
        out->total_vw += g->vw[u];
    }
    out->xadj[nv] = k;
    /* callers reuse map: restore the "not in the subgraph" marks */
    for (int32_t i = 0; i < nv; i++)
        map[verts[i]] = -1;
    return TM_EOK;
}

void tm__qdist_init(tm__qdist *o, const tm_hier *h)
{
    int bits[TM_HIER_MAX_LEVELS + 1];
    o->h = h;
    o->net = NULL;
    o->n_pe = h->n_pe;
    o->group1 = h->group[1];
    o->pow2 = true;
    bits[0] = 0;
    for (int i = 0; i < h->k; i++) {
        int32_t a = h->a[i];
        if (a & (a - 1)) {
            o->pow2 = false;
            return;
        }
        bits[i + 1] = bits[i] + __builtin_ctz((unsigned)a);
    }
    /* highest differing bit b: same group at level i iff b < bits[i] */
    for (int b = 0; b < 64; b++) {
        o->bitd[b] = h->d[h->k - 1];
        for (int i = 1; i <= h->k; i++)
            if (b < bits[i]) {
                o->bitd[b] = h->d[i - 1];
                break;
            }
    }
}

tm_err tm__qgraph_contract(tm_ctx *ctx, const tm__qgraph *g, const int32_t *part, int32_t nparts,
                           tm__qgraph *q)
{
    int64_t *start = tm__calloc_n((size_t)nparts + 1, sizeof *start);
    int32_t *mem = tm__malloc_n((size_t)(g->n ? g->n : 1), sizeof *mem);
    double *acc = tm__calloc_n((size_t)nparts, sizeof *acc);
    int32_t *touched = tm__malloc_n((size_t)nparts, sizeof *touched);
    size_t cap = 0, capw = 0;
    int64_t k = 0;
    tm_err err = TM_EOK;
    memset(q, 0, sizeof *q);
    q->n = nparts;
    q->xadj = tm__malloc_n((size_t)nparts + 1, sizeof *q->xadj);
    q->vw = tm__calloc_n((size_t)nparts, sizeof *q->vw);
    if (!start || !mem || !acc || !touched || !q->xadj || !q->vw)
        goto nomem;
    for (int32_t u = 0; u < g->n; u++) {
        start[part[u] + 1]++;
        q->vw[part[u]] += g->vw[u];
    }
    for (int32_t b = 0; b < nparts; b++)
        start[b + 1] += start[b];
    for (int32_t u = 0; u < g->n; u++)
        mem[start[part[u]]++] = u;
    for (int32_t b = nparts; b > 0; b--)
        start[b] = start[b - 1];
    start[0] = 0;
    for (int32_t b = 0; b < nparts; b++) {
        int32_t nt = 0;
        q->xadj[b] = k;
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
        if (tm__grow((void **)&q->adj, &cap, (size_t)(k + nt), sizeof *q->adj) < 0 ||
            tm__grow((void **)&q->w, &capw, (size_t)(k + nt), sizeof *q->w) < 0)
            goto nomem;
        for (int32_t i = 0; i < nt; i++) {
            q->adj[k] = touched[i];
            q->w[k++] = acc[touched[i]];
            acc[touched[i]] = 0;
        }
    }
    q->xadj[nparts] = k;
    goto out;
nomem:
    err = tm__nomem(ctx);
    tm__qgraph_release(q);
out:
    free(start);
    free(mem);
    free(acc);
    free(touched);
    return err;
}
