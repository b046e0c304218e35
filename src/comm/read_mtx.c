/*
 * read_mtx.c - reader for Matrix Market coordinate files (NIST MM format):
 * "%%MatrixMarket matrix coordinate real|integer|pattern general|symmetric",
 * '%' comments, the size line "rows cols entries", then 1-based "i j [v]"
 * lines.  Entry (i,j) is the volume from task i-1 to task j-1; a symmetric
 * file's off-diagonal entry counts in both directions; pattern means 1;
 * diagonal entries are ignored (docs/design.md).  Skew-symmetric, hermitian,
 * complex and dense "array" files are rejected: they do not describe
 * non-negative volumes.  A symmetric file may store either triangle, but
 * not both (that would count each pair twice).
 */
#include <string.h>
#include <strings.h>

#include "comm_int.h"

typedef struct mtx_hdr {
    bool pattern, symmetric;
    int64_t n, nnz;
} mtx_hdr;

static bool word_is(const char *tok, size_t len, const char *w)
{
    return len == strlen(w) && strncasecmp(tok, w, len) == 0;
}

static tm_err parse_banner(tm__lexer *lx, mtx_hdr *h)
{
    const char *p = lx->buf, *tok;
    size_t len;
    tm__next_token(&p, &tok, &len);
    if (!word_is(tok, len, "%%MatrixMarket"))
        return tm__lex_error(lx, "missing '%%%%MatrixMarket' banner");
    tm__next_token(&p, &tok, &len);
    if (!word_is(tok, len, "matrix"))
        return tm__lex_error(lx, "object '%.*s' is not supported (only 'matrix')", (int)len, tok);
    tm__next_token(&p, &tok, &len);
    if (!word_is(tok, len, "coordinate"))
        return tm__lex_error(lx, "format '%.*s' is not supported (only 'coordinate')", (int)len,
                             tok);
    tm__next_token(&p, &tok, &len);
    if (word_is(tok, len, "pattern"))
        h->pattern = true;
    else if (!word_is(tok, len, "real") && !word_is(tok, len, "integer"))
        return tm__lex_error(lx, "field '%.*s' is not supported (real, integer or pattern)",
                             (int)len, tok);
    tm__next_token(&p, &tok, &len);
    if (word_is(tok, len, "symmetric"))
        h->symmetric = true;
    else if (!word_is(tok, len, "general"))
        return tm__lex_error(lx, "symmetry '%.*s' is not supported (general or symmetric; "
                             "volumes cannot be skew-symmetric)", (int)len, tok);
    if (tm__next_token(&p, &tok, &len))
        return tm__lex_error(lx, "unexpected '%.*s' after the banner", (int)len, tok);
    return TM_EOK;
}

static tm_err parse_size(tm__lexer *lx, mtx_hdr *h)
{
    const char *p = lx->buf, *tok;
    size_t len;
    int64_t rows, cols;
    tm_err err;
    tm__next_token(&p, &tok, &len);
    if ((err = tm__token_int(lx, tok, len, "row count", 1, TM_COMM_MAX_TASKS, &rows)))
        return err;
    tm__next_token(&p, &tok, &len);
    if ((err = tm__token_int(lx, tok, len, "column count", 1, TM_COMM_MAX_TASKS, &cols)))
        return err;
    if (rows != cols)
        return tm__lex_error(lx, "matrix is %lld x %lld; a communication matrix must be square",
                             (long long)rows, (long long)cols);
    tm__next_token(&p, &tok, &len);
    if ((err = tm__token_int(lx, tok, len, "entry count", 0, rows * rows, &h->nnz)))
        return err;
    if (tm__next_token(&p, &tok, &len))
        return tm__lex_error(lx, "unexpected '%.*s' after the size line", (int)len, tok);
    h->n = rows;
    return TM_EOK;
}

static tm_err parse_entry(tm__lexer *lx, const mtx_hdr *h, int64_t *i, int64_t *j, double *w)
{
    const char *p = lx->buf, *tok;
    size_t len;
    tm_err err;
    tm__next_token(&p, &tok, &len);
    if ((err = tm__token_int(lx, tok, len, "row index", 1, h->n, i)))
        return err;
    tm__next_token(&p, &tok, &len);
    if ((err = tm__token_int(lx, tok, len, "column index", 1, h->n, j)))
        return err;
    *w = 1;
    if (!h->pattern) {
        tm__next_token(&p, &tok, &len);
        if ((err = tm__token_volume(lx, tok, len, "value", w)))
            return err;
    }
    if (tm__next_token(&p, &tok, &len))
        return tm__lex_error(lx, "unexpected '%.*s' after the entry", (int)len, tok);
    return TM_EOK;
}

tm_err tm_comm_read_mtx(tm_ctx *ctx, FILE *in, const char *name, tm_comm *out)
{
    tm__lexer lx;
    tm__entries e;
    mtx_hdr h = {0};
    int64_t seen = 0, i, j;
    long lower_line = 0, upper_line = 0;
    double w;
    bool line, have_size = false;
    tm_err err = TM_EOK;

    tm_comm_init(out);
    tm__lex_init(&lx, ctx, in, name);
    tm__entries_init(&e);
    if ((err = tm__lex_next(&lx, &line)))
        goto out;
    if (!line) {
        lx.line = 1; /* "file:1:" rather than "file:0:" for an empty file */
        err = tm__lex_error(&lx, "empty file: no '%%%%MatrixMarket' banner");
        goto out;
    }
    if ((err = parse_banner(&lx, &h)))
        goto out;
    while (!(err = tm__lex_next(&lx, &line)) && line) {
        const char *s = tm__skip_blank(lx.buf);
        if (*s == '%' || !*s)
            continue;
        if (!have_size) {
            if ((err = parse_size(&lx, &h)))
                goto out;
            have_size = true;
            continue;
        }
        if (seen == h.nnz) {
            err = tm__lex_error(&lx, "more entries than the %lld of the size line",
                                (long long)h.nnz);
            goto out;
        }
        if ((err = parse_entry(&lx, &h, &i, &j, &w)))
            goto out;
        seen++;
        if (i == j)
            continue; /* intra-task traffic */
        if (h.symmetric) {
            long *first = i > j ? &lower_line : &upper_line;
            if (!*first)
                *first = lx.line;
            if (lower_line && upper_line) {
                err = tm__lex_error(&lx, "symmetric matrix stores entries on both sides of the "
                                    "diagonal (lines %ld and %ld); store one triangle",
                                    lower_line, upper_line);
                goto out;
            }
        }
        if (tm__entries_push(&e, (int32_t)(i - 1), (int32_t)(j - 1), w) < 0 ||
            (h.symmetric && tm__entries_push(&e, (int32_t)(j - 1), (int32_t)(i - 1), w) < 0)) {
            err = tm__nomem(ctx);
            goto out;
        }
    }
    if (err)
        goto out;
    if (!have_size) {
        err = tm__lex_error(&lx, "missing size line 'rows cols entries'");
        goto out;
    }
    if (seen < h.nnz) {
        err = tm__lex_error(&lx, "file ends after %lld of %lld entries", (long long)seen,
                            (long long)h.nnz);
        goto out;
    }
    err = tm__entries_finish(ctx, name, &e, (int32_t)h.n, out);
out:
    return tm__reader_end(err, out, &e, &lx);
}
