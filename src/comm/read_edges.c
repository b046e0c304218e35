/*
 * read_edges.c - reader for plain edge lists: one directed message
 * "src dst [volume]" per line, 0-based task ids, volume 1 when omitted,
 * '#' starts a comment.  The task count is the largest id + 1.  Repeated
 * pairs add up; "u u w" is intra-task traffic and ignored (docs/design.md).
 */
#include <string.h>

#include "comm_int.h"

tm_err tm_comm_read_edges(tm_ctx *ctx, FILE *in, const char *name, tm_comm *out)
{
    tm__lexer lx;
    tm__entries e;
    int64_t n = 0, s, d;
    double w;
    bool line;
    tm_err err = TM_EOK;

    tm_comm_init(out);
    tm__lex_init(&lx, ctx, in, name);
    tm__entries_init(&e);
    while (!(err = tm__lex_next(&lx, &line)) && line) {
        char *hash = strchr(lx.buf, '#');
        const char *p = lx.buf, *tok;
        size_t len;
        if (hash)
            *hash = '\0';
        if (!tm__next_token(&p, &tok, &len))
            continue;
        if ((err = tm__token_int(&lx, tok, len, "source task", 0, TM_COMM_MAX_TASKS - 1, &s)))
            goto out;
        if (!tm__next_token(&p, &tok, &len)) {
            err = tm__lex_error(&lx, "missing target task (expected 'src dst [volume]')");
            goto out;
        }
        if ((err = tm__token_int(&lx, tok, len, "target task", 0, TM_COMM_MAX_TASKS - 1, &d)))
            goto out;
        w = 1;
        if (tm__next_token(&p, &tok, &len) &&
            (err = tm__token_volume(&lx, tok, len, "volume", &w)))
            goto out;
        if (tm__next_token(&p, &tok, &len)) {
            err = tm__lex_error(&lx, "unexpected '%.*s' after 'src dst volume'", (int)len, tok);
            goto out;
        }
        if ((err = tm__entries_add(ctx, &e, s, d, w, &n)))
            goto out;
    }
    if (err)
        goto out;
    if (n == 0) {
        if (!lx.line)
            lx.line = 1;
        err = tm__lex_error(&lx, "no edges (expected 'src dst [volume]' lines)");
        goto out;
    }
    err = tm__entries_finish(ctx, name, &e, (int32_t)n, out);
out:
    return tm__reader_end(err, out, &e, &lx);
}
