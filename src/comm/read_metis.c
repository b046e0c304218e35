/*
 * read_metis.c - reader for the METIS graph format (METIS 5.1 manual,
 * Sec. 4.1.1): header "n m [fmt [ncon]]", then one line per vertex with
 * [size] [ncon weights] and "neighbour [edge weight]" pairs, 1-based.
 * Lines starting with '%' are comments; an empty line is a vertex without
 * neighbours.  Each listed neighbour is one directed entry, so an edge {u,v}
 * (listed on both lines, as METIS requires) means w from u to v and w from v
 * to u (docs/design.md).  With ncon > 1 only the first vertex weight is kept.
 * Edge weights may be non-integers (METIS itself only reads integers).
 */
#include <stdlib.h>
#include <string.h>

#include "comm_int.h"

typedef struct metis_hdr {
    int64_t n, m;
    bool has_size, has_vwgt, has_ewgt;
    int64_t ncon;
    long line;
} metis_hdr;


static bool is_comment(const char *s) { return *tm__skip_blank(s) == '%'; }

static tm_err parse_header(tm__lexer *lx, metis_hdr *h)
{
    const char *p = lx->buf, *tok;
    size_t len;
    int64_t v;
    tm_err err;
    memset(h, 0, sizeof *h);
    h->line = lx->line;
    h->ncon = 1;
    tm__next_token(&p, &tok, &len);
    if ((err = tm__token_int(lx, tok, len, "vertex count", 1, TM_COMM_MAX_TASKS, &h->n)))
        return err;
    if (!tm__next_token(&p, &tok, &len))
        return tm__lex_error(lx, "header needs at least 'n m' (vertices and edges)");
    if ((err = tm__token_int(lx, tok, len, "edge count", 0, h->n * (h->n - 1) / 2, &h->m)))
        return err;
    if (tm__next_token(&p, &tok, &len)) {
        if (len > 3 || strspn(tok, "01") < len)
            return tm__lex_error(lx, "fmt '%.*s' must be up to three digits 0/1 (e.g. 011)",
                                 (int)len, tok);
        v = 0;
        for (size_t i = 0; i < len; i++)
            v = v * 10 + (tok[i] - '0');
        h->has_size = v / 100 == 1;
        h->has_vwgt = v / 10 % 10 == 1;
        h->has_ewgt = v % 10 == 1;
        if (tm__next_token(&p, &tok, &len)) {
            if ((err = tm__token_int(lx, tok, len, "ncon", 1, 1000, &h->ncon)))
                return err;
            if (!h->has_vwgt)
                return tm__lex_error(lx, "ncon given but fmt %03lld has no vertex weights",
                                     (long long)v);
        }
    }
    if (tm__next_token(&p, &tok, &len))
        return tm__lex_error(lx, "unexpected '%.*s' after the header fields", (int)len, tok);
    return TM_EOK;
}

/* Parses the line of vertex u (0-based). */
static tm_err parse_vertex(tm__lexer *lx, const metis_hdr *h, int32_t u, tm__entries *e,
                           double *vw)
{
    const char *p = lx->buf, *tok;
    size_t len;
    int64_t v;
    double w, x;
    tm_err err;
    if (h->has_size) {
        if (!tm__next_token(&p, &tok, &len))
            return tm__lex_error(lx, "vertex %d: missing vertex size", u + 1);
        if ((err = tm__token_volume(lx, tok, len, "vertex size", &x)))
            return err;
    }
    for (int64_t c = 0; h->has_vwgt && c < h->ncon; c++) {
        if (!tm__next_token(&p, &tok, &len))
            return tm__lex_error(lx, "vertex %d: missing vertex weight %lld of %lld", u + 1,
                                 (long long)c + 1, (long long)h->ncon);
        if ((err = tm__token_volume(lx, tok, len, "vertex weight", &x)))
            return err;
        if (c == 0)
            *vw = x;
    }
    while (tm__next_token(&p, &tok, &len)) {
        if ((err = tm__token_int(lx, tok, len, "neighbour", 1, h->n, &v)))
            return err;
        if (v == u + 1)
            return tm__lex_error(lx, "vertex %d lists itself (self loop)", u + 1);
        w = 1;
        if (h->has_ewgt) {
            if (!tm__next_token(&p, &tok, &len))
                return tm__lex_error(lx, "vertex %d: neighbour %lld has no edge weight", u + 1,
                                     (long long)v);
            if ((err = tm__token_volume(lx, tok, len, "edge weight", &w)))
                return err;
        }
        if (tm__entries_push(e, u, (int32_t)(v - 1), w) < 0)
            return tm__nomem(lx->ctx);
    }
    return TM_EOK;
}

/* The h.n vertex lines into e, with each one's line number (*lines) and
 * weight (*vw, 1 by default).  The arrays grow with the lines actually
 * present, so a header announcing millions of vertices costs nothing by
 * itself. */
static tm_err read_vertices(tm__lexer *lx, const metis_hdr *h, tm__entries *e, long **lines,
                            double **vw)
{
    size_t cap_l = 0, cap_w = 0;
    int32_t nv = 0;
    bool line = true;
    tm_err err = TM_EOK;
    while (nv < h->n && !(err = tm__lex_next(lx, &line)) && line) {
        if (is_comment(lx->buf))
            continue;
        if (tm__grow((void **)lines, &cap_l, (size_t)nv + 1, sizeof **lines) < 0 ||
            tm__grow((void **)vw, &cap_w, (size_t)nv + 1, sizeof **vw) < 0)
            return tm__nomem(lx->ctx);
        (*lines)[nv] = lx->line;
        (*vw)[nv] = 1;
        if ((err = parse_vertex(lx, h, nv, e, &(*vw)[nv])))
            return err;
        nv++;
    }
    if (err)
        return err;
    if (nv < h->n)
        return tm__lex_error(lx, "file ends after %d of %lld vertex lines", nv, (long long)h->n);
    /* after them: only comments and blank lines */
    while (!(err = tm__lex_next(lx, &line)) && line)
        if (!is_comment(lx->buf) && *tm__skip_blank(lx->buf))
            return tm__lex_error(lx, "more lines than the %lld vertices of the header (line %ld)",
                                 (long long)h->n, h->line);
    return err;
}

tm_err tm_comm_read_metis(tm_ctx *ctx, FILE *in, const char *name, tm_comm *out)
{
    tm__lexer lx;
    tm__entries e;
    metis_hdr h = {0};
    long *lines = NULL;
    double *vw = NULL;
    bool line;
    tm_err err = TM_EOK;

    tm_comm_init(out);
    tm__lex_init(&lx, ctx, in, name);
    tm__entries_init(&e);
    /* header: the first line that is neither a comment nor blank */
    while (!(err = tm__lex_next(&lx, &line)) && line &&
           (is_comment(lx.buf) || !*tm__skip_blank(lx.buf)))
        ;
    if (err)
        goto out;
    if (!line) {
        err = tm__lex_error(&lx, "empty file: no METIS header 'n m [fmt [ncon]]'");
        goto out;
    }
    if ((err = parse_header(&lx, &h)) || (err = read_vertices(&lx, &h, &e, &lines, &vw)))
        goto out;
    if ((err = tm__check_symmetric(&lx, (int32_t)h.n, &e, lines, 1)))
        goto out;
    if ((int64_t)e.len != 2 * h.m) {
        lx.line = h.line;
        err = tm__lex_error(&lx, "header says %lld edges, but the vertex lines list %lld "
                            "(%zu adjacency entries)", (long long)h.m, (long long)(e.len / 2),
                            e.len);
        goto out;
    }
    if ((err = tm__entries_finish(ctx, name, &e, (int32_t)h.n, out)))
        goto out;
    if (h.has_vwgt) {
        out->vwgt = vw;
        vw = NULL;
    }
out:
    err = tm__reader_end(err, out, &e, &lx);
    free(lines);
    free(vw);
    return err;
}
