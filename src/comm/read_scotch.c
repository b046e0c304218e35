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

/* Next token; returns 0 at end of file, <0 (-(tm_err)) on a read error. */
static int next_tok(tokens *t, const char **tok, size_t *len)
{
    while (!t->eof) {
        if (t->p && tm__next_token(&t->p, tok, len))
            return 1;
        int r = tm__lex_next(&t->lx);
        if (r < 0)
            return r;
        if (r == 0) {
            t->eof = true;
            break;
        }
        t->p = t->lx.buf;
    }
    return 0;
}

/* Reads an integer in [lo, hi] described by `what`. */
static tm_err read_int(tokens *t, const char *what, int64_t lo, int64_t hi, int64_t *v)
{
    const char *tok;
    size_t len;
    int r = next_tok(t, &tok, &len);
    if (r < 0)
        return (tm_err)-r;
    if (r == 0) {
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
    int r = next_tok(t, &tok, &len);
    if (r < 0)
        return (tm_err)-r;
    if (r == 0)
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

tm_err tm_comm_read_scotch(tm_ctx *ctx, FILE *in, const char *name, tm_comm *out)
{
    tokens t;
    tm__entries e;
    int64_t ver, n, m, base, flags, deg, x, *end = NULL;
    long *lines = NULL, *arc_line = NULL, hdr_line;
    double *vw = NULL, w;
    label *lab = NULL;
    size_t cap_end = 0, cap_al = 0;
    bool labels, eload, vload;
    tm_err err;

    tm_comm_init(out);
    memset(&t, 0, sizeof t);
    tm__lex_init(&t.lx, ctx, in, name);
    tm__entries_init(&e);
    if ((err = read_int(&t, "version number", 0, 0, &ver)) ||
        (err = read_int(&t, "vertex count", 1, TM_COMM_MAX_TASKS, &n)) ||
        (err = read_int(&t, "arc count", 0, n * (n - 1), &m)))
        goto out;
    hdr_line = t.lx.line; /* of the arc count */
    if ((err = read_int(&t, "base value", 0, 1, &base)) ||
        (err = read_int(&t, "flags", 0, 111, &flags)))
        goto out;
    if (flags % 10 > 1 || flags / 10 % 10 > 1) {
        err = tm__lex_error(&t.lx, "flags %03lld must be three digits 0/1 (labels, edge loads, "
                            "vertex loads)", (long long)flags);
        goto out;
    }
    labels = flags / 100 == 1;
    eload = flags / 10 % 10 == 1;
    vload = flags % 10 == 1;
    /* vertex arrays: n is bounded and every vertex needs at least one token */
    lines = tm__malloc_n((size_t)n, sizeof *lines);
    vw = tm__malloc_n((size_t)n, sizeof *vw);
    lab = labels ? tm__malloc_n((size_t)n, sizeof *lab) : NULL;
    if (!lines || !vw || (labels && !lab)) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t u = 0; u < n; u++) {
        int64_t arcs_left = m - (int64_t)e.len;
        vw[u] = 1;
        if (labels && (err = read_int(&t, "vertex label", 0, INT64_MAX, &lab[u].label)))
            goto out;
        lines[u] = t.lx.line;
        if (labels)
            lab[u].v = u;
        if (vload && (err = read_num(&t, "vertex load", &vw[u])))
            goto out;
        if ((err = read_int(&t, "vertex degree", 0, n - 1, &deg)))
            goto out;
        if (!labels)
            lines[u] = t.lx.line;
        if (deg > arcs_left) {
            err = tm__lex_error(&t.lx, "vertex %lld: degree %lld exceeds the %lld arcs left of "
                                "the header's %lld", (long long)(u + base), (long long)deg,
                                (long long)arcs_left, (long long)m);
            goto out;
        }
        for (int64_t j = 0; j < deg; j++) {
            w = 1;
            if (eload && (err = read_num(&t, "edge load", &w)))
                goto out;
            if ((err = read_int(&t, "arc end", labels ? 0 : base,
                                labels ? INT64_MAX : base + n - 1, &x)))
                goto out;
            if (!labels && x - base == u) {
                err = tm__lex_error(&t.lx, "vertex %lld has an arc to itself (self loop)",
                                    (long long)x);
                goto out;
            }
            if (tm__entries_push(&e, u, labels ? 0 : (int32_t)(x - base), w) < 0 ||
                (labels && (tm__grow((void **)&end, &cap_end, e.len, sizeof *end) < 0 ||
                            tm__grow((void **)&arc_line, &cap_al, e.len, sizeof *arc_line) < 0))) {
                err = tm__nomem(ctx);
                goto out;
            }
            if (labels) {
                end[e.len - 1] = x;
                arc_line[e.len - 1] = t.lx.line;
            }
        }
    }
    {
        const char *tok;
        size_t len;
        int r = next_tok(&t, &tok, &len);
        if (r < 0) {
            err = (tm_err)-r;
            goto out;
        }
        if (r > 0) {
            err = tm__lex_error(&t.lx, "unexpected '%.*s' after the last of the %lld vertices",
                                (int)len, tok, (long long)n);
            goto out;
        }
    }
    if ((int64_t)e.len != m) {
        t.lx.line = hdr_line;
        err = tm__lex_error(&t.lx, "header says %lld arcs, but the vertices list %zu",
                            (long long)m, e.len);
        goto out;
    }
    if (labels && (err = relabel(&t, lab, (int32_t)n, &e, end, arc_line, lines)))
        goto out;
    if ((err = tm__check_symmetric(&t.lx, (int32_t)n, &e, lines, labels ? 0 : (int)base)))
        goto out;
    if ((err = tm__entries_finish(ctx, name, &e, (int32_t)n, out)))
        goto out;
    if (vload) {
        out->vwgt = vw;
        vw = NULL;
    }
out:
    err = tm__reader_end(err, out, &e, &t.lx);
    free(lines);
    free(vw);
    free(lab);
    free(end);
    free(arc_line);
    return err;
}
