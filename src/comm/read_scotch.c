/*
 * read_scotch.c - reader for Scotch source graphs (.grf/.src, Scotch user's
 * guide "Source graph files"): "0" (version), "vertnbr arcnbr",
 * "baseval flags" where flags has three digits (vertex labels, edge loads,
 * vertex loads), then per vertex [label] [load] degree and per arc
 * [edge load] end.  Scotch reads whitespace-separated numbers regardless of
 * line breaks, and so does this reader (each vertex is usually on its own
 * line, which messages name).  Like METIS graphs, Scotch graphs are
 * undirected: every arc is a directed entry and its reverse arc must be
 * listed with the same load.  Vertex loads become tm_comm.vwgt.
 */
#include <stdlib.h>
#include <string.h>

#include "comm_int.h"

/* Whitespace-separated tokens across lines. */
typedef struct tokens {
    tm__lexer lx;
    const char *p;
    bool eof;
} tokens;

/* Next token in *tok; *got is false at the end of the file. */
static tm_err next_tok(tokens *t, const char **tok, size_t *len, bool *got)
{
    *got = false;
    while (!t->eof) {
        bool line;
        tm_err err;
        if (t->p && tm__next_token(&t->p, tok, len)) {
            *got = true;
            break;
        }
        if ((err = tm__lex_next(&t->lx, &line)))
            return err;
        t->eof = !line;
        t->p = t->lx.buf;
    }
    return TM_EOK;
}

/* Reads an integer in [lo, hi] described by `what`. */
static tm_err read_int(tokens *t, const char *what, int64_t lo, int64_t hi, int64_t *v)
{
    const char *tok;
    size_t len;
    bool got;
    tm_err err = next_tok(t, &tok, &len, &got);
    if (err)
        return err;
    if (!got) {
        if (!t->lx.line)
            t->lx.line = 1;
        return tm__lex_error(&t->lx, "file ends before the %s", what);
    }
    return tm__token_int(&t->lx, tok, len, what, lo, hi, v);
}

static tm_err read_num(tokens *t, const char *what, double *v)
{
    const char *tok;
    size_t len;
    bool got;
    tm_err err = next_tok(t, &tok, &len, &got);
    if (err)
        return err;
    if (!got)
        return tm__lex_error(&t->lx, "file ends before the %s", what);
    return tm__token_volume(&t->lx, tok, len, what, v);
}

typedef struct label {
    int64_t label;
    int32_t v;
} label;

static int cmp_label(const void *a, const void *b)
{
    const label *x = a, *y = b;
    return (x->label > y->label) - (x->label < y->label);
}

/* Replaces arc ends given as labels by vertex indices. */
static tm_err relabel(tokens *t, label *lab, int32_t n, tm__entries *e, const int64_t *end,
                      const long *arc_line, const long *lines)
{
    qsort(lab, (size_t)n, sizeof *lab, cmp_label);
    for (int32_t i = 1; i < n; i++) {
        if (lab[i].label == lab[i - 1].label) {
            t->lx.line = lines[lab[i].v];
            return tm__lex_error(&t->lx, "vertex label %lld used twice (also on line %ld)",
                                 (long long)lab[i].label, lines[lab[i - 1].v]);
        }
    }
    for (size_t k = 0; k < e->len; k++) {
        label key = {end[k], 0};
        const label *hit = bsearch(&key, lab, (size_t)n, sizeof *lab, cmp_label);
        if (!hit) {
            t->lx.line = arc_line[k];
            return tm__lex_error(&t->lx, "arc to unknown vertex label %lld", (long long)end[k]);
        }
        if (hit->v == e->src[k]) {
            t->lx.line = arc_line[k];
            return tm__lex_error(&t->lx, "vertex label %lld has an arc to itself (self loop)",
                                 (long long)end[k]);
        }
        e->dst[k] = hit->v;
    }
    return TM_EOK;
}

/* The reader's state: the header, the entries read so far and, per vertex
 * and arc, what the messages and the relabelling need. */
typedef struct grf {
    tokens t;
    tm__entries e;
    int64_t n, m, base;
    long hdr_line;       /* line of the arc count */
    bool labels, eload, vload;
    long *lines;         /* line of each vertex */
    double *vw;          /* vertex loads */
    label *lab;          /* vertex labels (labels only) */
    int64_t *end;        /* arc ends as labels (labels only) */
    long *arc_line;      /* line of each arc (labels only) */
    size_t cap_end, cap_al;
} grf;

/* "version vertnbr arcnbr baseval flags" and the vertex arrays. */
static tm_err read_header(grf *g)
{
    int64_t ver, flags;
    tm_err err;
    if ((err = read_int(&g->t, "version number", 0, 0, &ver)) ||
        (err = read_int(&g->t, "vertex count", 1, TM_COMM_MAX_TASKS, &g->n)) ||
        (err = read_int(&g->t, "arc count", 0, g->n * (g->n - 1), &g->m)))
        return err;
    g->hdr_line = g->t.lx.line;
    if ((err = read_int(&g->t, "base value", 0, 1, &g->base)) ||
        (err = read_int(&g->t, "flags", 0, 111, &flags)))
        return err;
    if (flags % 10 > 1 || flags / 10 % 10 > 1)
        return tm__lex_error(&g->t.lx, "flags %03lld must be three digits 0/1 (labels, edge "
                             "loads, vertex loads)", (long long)flags);
    g->labels = flags / 100 == 1;
    g->eload = flags / 10 % 10 == 1;
    g->vload = flags % 10 == 1;
    /* n is bounded and every vertex needs at least one token */
    g->lines = tm__malloc_n((size_t)g->n, sizeof *g->lines);
    g->vw = tm__malloc_n((size_t)g->n, sizeof *g->vw);
    g->lab = g->labels ? tm__malloc_n((size_t)g->n, sizeof *g->lab) : NULL;
    if (!g->lines || !g->vw || (g->labels && !g->lab))
        return tm__nomem(g->t.lx.ctx);
    return TM_EOK;
}

/* One arc "[load] end" of vertex u. */
static tm_err read_arc(grf *g, int32_t u)
{
    int64_t x;
    double w = 1;
    tm_err err;
    if (g->eload && (err = read_num(&g->t, "edge load", &w)))
        return err;
    if ((err = read_int(&g->t, "arc end", g->labels ? 0 : g->base,
                        g->labels ? INT64_MAX : g->base + g->n - 1, &x)))
        return err;
    if (!g->labels && x - g->base == u)
        return tm__lex_error(&g->t.lx, "vertex %lld has an arc to itself (self loop)",
                             (long long)x);
    if (tm__entries_push(&g->e, u, g->labels ? 0 : (int32_t)(x - g->base), w) < 0 ||
        (g->labels &&
         (tm__grow((void **)&g->end, &g->cap_end, g->e.len, sizeof *g->end) < 0 ||
          tm__grow((void **)&g->arc_line, &g->cap_al, g->e.len, sizeof *g->arc_line) < 0)))
        return tm__nomem(g->t.lx.ctx);
    if (g->labels) {
        g->end[g->e.len - 1] = x;
        g->arc_line[g->e.len - 1] = g->t.lx.line;
    }
    return TM_EOK;
}

/* Vertex u: "[label] [load] degree" and its arcs. */
static tm_err read_vertex(grf *g, int32_t u)
{
    int64_t arcs_left = g->m - (int64_t)g->e.len, deg;
    tm_err err;
    g->vw[u] = 1;
    if (g->labels && (err = read_int(&g->t, "vertex label", 0, INT64_MAX, &g->lab[u].label)))
        return err;
    g->lines[u] = g->t.lx.line;
    if (g->labels)
        g->lab[u].v = u;
    if (g->vload && (err = read_num(&g->t, "vertex load", &g->vw[u])))
        return err;
    if ((err = read_int(&g->t, "vertex degree", 0, g->n - 1, &deg)))
        return err;
    if (!g->labels)
        g->lines[u] = g->t.lx.line;
    if (deg > arcs_left)
        return tm__lex_error(&g->t.lx, "vertex %lld: degree %lld exceeds the %lld arcs left of "
                             "the header's %lld", (long long)(u + g->base), (long long)deg,
                             (long long)arcs_left, (long long)g->m);
    for (int64_t j = 0; j < deg; j++)
        if ((err = read_arc(g, u)))
            return err;
    return TM_EOK;
}

/* Nothing may follow the last vertex, and the arcs must add up. */
static tm_err check_end(grf *g)
{
    const char *tok;
    size_t len;
    bool got;
    tm_err err = next_tok(&g->t, &tok, &len, &got);
    if (err)
        return err;
    if (got)
        return tm__lex_error(&g->t.lx, "unexpected '%.*s' after the last of the %lld vertices",
                             (int)len, tok, (long long)g->n);
    if ((int64_t)g->e.len != g->m) {
        g->t.lx.line = g->hdr_line;
        return tm__lex_error(&g->t.lx, "header says %lld arcs, but the vertices list %zu",
                             (long long)g->m, g->e.len);
    }
    return TM_EOK;
}

tm_err tm_comm_read_scotch(tm_ctx *ctx, FILE *in, const char *name, tm_comm *out)
{
    grf g;
    tm_err err;

    tm_comm_init(out);
    memset(&g, 0, sizeof g);
    tm__lex_init(&g.t.lx, ctx, in, name);
    tm__entries_init(&g.e);
    err = read_header(&g);
    for (int32_t u = 0; !err && u < g.n; u++)
        err = read_vertex(&g, u);
    if (!err)
        err = check_end(&g);
    if (!err && g.labels)
        err = relabel(&g.t, g.lab, (int32_t)g.n, &g.e, g.end, g.arc_line, g.lines);
    if (!err)
        err = tm__check_symmetric(&g.t.lx, (int32_t)g.n, &g.e, g.lines, g.labels ? 0 : (int)g.base);
    if (!err)
        err = tm__entries_finish(ctx, name, &g.e, (int32_t)g.n, out);
    if (!err && g.vload) {
        out->vwgt = g.vw;
        g.vw = NULL;
    }
    err = tm__reader_end(err, out, &g.e, &g.t.lx);
    free(g.lines);
    free(g.vw);
    free(g.lab);
    free(g.end);
    free(g.arc_line);
    return err;
}
