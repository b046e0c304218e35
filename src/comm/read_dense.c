/*
 * read_dense.c - reader for dense N x N matrices, one row per line, values
 * separated by commas (CSV as MapLib writes) or by blanks (as netloc's
 * app.mat, with its trailing space).  Entry (i,j) is the volume from task i
 * to task j; zeros and the diagonal are dropped (docs/design.md).  N is the number
 * of values in the first row; blank lines and '#' lines are skipped; a
 * single trailing comma is tolerated.  Rows are streamed, so only the
 * nonzeros are stored.
 */
#include <string.h>

#include "comm_int.h"

/* Next field of a row: in CSV mode up to the next ',' (trimmed), otherwise
 * the next blank-separated token.  Returns 0 at the end of the row. */
static int next_field(const char **p, bool csv, const char **tok, size_t *len, bool *empty)
{
    const char *s = tm__skip_blank(*p), *t;
    *empty = false;
    if (!csv)
        return tm__next_token(p, tok, len);
    if (!*s)
        return 0;
    t = s;
    while (*t && *t != ',')
        t++;
    *tok = s;
    *len = (size_t)(t - s);
    while (*len && (s[*len - 1] == ' ' || s[*len - 1] == '\t'))
        (*len)--;
    *empty = *len == 0;
    if (*t == ',') {
        t++;
        /* "a,b," : the trailing comma ends the row */
        if (!*tm__skip_blank(t))
            t = tm__skip_blank(t);
    }
    *p = t;
    return 1;
}

tm_err tm_comm_read_dense(tm_ctx *ctx, FILE *in, const char *name, tm_comm *out)
{
    tm__lexer lx;
    tm__entries e;
    int64_t n = -1, row = 0, col;
    bool line;
    tm_err err = TM_EOK;

    tm_comm_init(out);
    tm__lex_init(&lx, ctx, in, name);
    tm__entries_init(&e);
    while (!(err = tm__lex_next(&lx, &line)) && line) {
        const char *p = tm__skip_blank(lx.buf), *tok;
        size_t len;
        bool csv = strchr(lx.buf, ',') != NULL, empty;
        double w;
        if (!*p || *p == '#')
            continue;
        if (n >= 0 && row == n) {
            err = tm__lex_error(&lx, "more than %lld rows in a %lld x %lld matrix",
                                (long long)n, (long long)n, (long long)n);
            goto out;
        }
        for (col = 0; next_field(&p, csv, &tok, &len, &empty); col++) {
            if (empty) {
                err = tm__lex_error(&lx, "row %lld: empty field in column %lld",
                                    (long long)row + 1, (long long)col + 1);
                goto out;
            }
            if (n >= 0 && col == n) {
                err = tm__lex_error(&lx, "row %lld has more than %lld values", (long long)row + 1,
                                    (long long)n);
                goto out;
            }
            if (col >= TM_COMM_MAX_TASKS) {
                err = tm__lex_error(&lx, "more than %lld columns", (long long)TM_COMM_MAX_TASKS);
                goto out;
            }
            if ((err = tm__token_volume(&lx, tok, len, "value", &w)))
                goto out;
            if (w > 0 && col != row && tm__entries_push(&e, (int32_t)row, (int32_t)col, w) < 0) {
                err = tm__nomem(ctx);
                goto out;
            }
        }
        if (n < 0)
            n = col;
        else if (col != n) {
            err = tm__lex_error(&lx, "row %lld has %lld values, expected %lld", (long long)row + 1,
                                (long long)col, (long long)n);
            goto out;
        }
        row++;
    }
    if (err)
        goto out;
    if (n < 0) {
        if (!lx.line)
            lx.line = 1;
        err = tm__lex_error(&lx, "no matrix rows");
        goto out;
    }
    if (row < n) {
        err = tm__lex_error(&lx, "file ends after %lld rows of a %lld x %lld matrix",
                            (long long)row, (long long)n, (long long)n);
        goto out;
    }
    err = tm__entries_finish(ctx, name, &e, (int32_t)n, out);
out:
    return tm__reader_end(err, out, &e, &lx);
}
