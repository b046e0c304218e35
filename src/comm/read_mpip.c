/*
 * read_mpip.c - reader for mpiP reports with the communication-matrix
 * extension of CNCA's patched mpiP (tests/data/PROVENANCE.md, cnca_mpiP_cm): between
 * "Start Communication Matrix" and "End Communication Matrix" come
 * "Statistics of rank: N" subheadings, "Source Target Total Amount Total
 * Count" header lines and tab-separated rows "src dst amount count".
 * Each row is a directed message of `amount` bytes (the count is checked
 * but not used); self-pairs are intra-task and dropped (docs/design.md).
 * The task count is the largest rank of the matrix or of the report's
 * "@ MPI Task Assignment : <rank> <host>" lines, plus one, so ranks that
 * never communicate are still tasks.
 */
#include <string.h>

#include "comm_int.h"

/* "@ MPI Task Assignment      : 12 host" -> 12; -1 if the line is not one. */
static int64_t task_assignment(const char *line)
{
    const char *p = tm__skip_blank(line);
    int64_t v;
    if (*p != '@')
        return -1;
    p = tm__skip_blank(p + 1);
    if (strncmp(p, "MPI Task Assignment", 19) != 0)
        return -1;
    p = strchr(p, ':');
    if (!p)
        return -1;
    p++;
    if (tm__parse_i64(&p, &v) < 0 || v < 0 || v >= TM_COMM_MAX_TASKS)
        return -1;
    return v;
}

static tm_err parse_row(tm__lexer *lx, int64_t *s, int64_t *d, double *w)
{
    const char *p = lx->buf, *tok;
    size_t len;
    int64_t cnt;
    tm_err err;
    tm__next_token(&p, &tok, &len);
    if ((err = tm__token_int(lx, tok, len, "source rank", 0, TM_COMM_MAX_TASKS - 1, s)))
        return err;
    tm__next_token(&p, &tok, &len);
    if ((err = tm__token_int(lx, tok, len, "target rank", 0, TM_COMM_MAX_TASKS - 1, d)))
        return err;
    tm__next_token(&p, &tok, &len);
    if ((err = tm__token_volume(lx, tok, len, "amount", w)))
        return err;
    tm__next_token(&p, &tok, &len);
    if ((err = tm__token_int(lx, tok, len, "count", 0, INT64_MAX, &cnt)))
        return err;
    if (tm__next_token(&p, &tok, &len))
        return tm__lex_error(lx, "unexpected '%.*s' after 'Source Target Amount Count'",
                             (int)len, tok);
    return TM_EOK;
}

tm_err tm_comm_read_mpip(tm_ctx *ctx, FILE *in, const char *name, tm_comm *out)
{
    tm__lexer lx;
    tm__entries e;
    int64_t n = 0, s, d, t;
    long start = 0;
    double w;
    bool ended = false;
    bool line;
    tm_err err = TM_EOK;

    tm_comm_init(out);
    tm__lex_init(&lx, ctx, in, name);
    tm__entries_init(&e);
    while (!(err = tm__lex_next(&lx, &line)) && line) {
        const char *p = tm__skip_blank(lx.buf);
        if (!start) {
            if ((t = task_assignment(lx.buf)) >= 0 && t + 1 > n)
                n = t + 1;
            else if (strstr(lx.buf, "Start Communication Matrix"))
                start = lx.line;
            continue;
        }
        if (strstr(lx.buf, "End Communication Matrix")) {
            ended = true;
            break;
        }
        if (!*p || strncmp(p, "Statistics of rank", 18) == 0 || strncmp(p, "Source", 6) == 0)
            continue;
        if ((err = parse_row(&lx, &s, &d, &w)))
            goto out;
        if ((err = tm__entries_add(ctx, &e, s, d, w, &n)))
            goto out;
    }
    if (err)
        goto out;
    if (!start) {
        if (!lx.line)
            lx.line = 1;
        err = tm__lex_error(&lx, "no 'Start Communication Matrix' block (an mpiP report without "
                            "the communication-matrix extension)");
        goto out;
    }
    if (!ended) {
        err = tm__lex_error(&lx, "communication matrix started on line %ld has no 'End "
                            "Communication Matrix' line (truncated report?)", start);
        goto out;
    }
    if (n == 0) {
        err = tm__lex_error(&lx, "empty communication matrix");
        goto out;
    }
    err = tm__entries_finish(ctx, name, &e, (int32_t)n, out);
out:
    return tm__reader_end(err, out, &e, &lx);
}
