/*
 * lex.c - the line lexer every text reader uses, and a bounded whole-file
 * reader.  Lines are counted from 1 so errors read "file:line: ...".
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void tm__lex_init(tm__lexer *lx, tm_ctx *ctx, FILE *in, const char *name)
{
    memset(lx, 0, sizeof *lx);
    lx->ctx = ctx;
    lx->in = in;
    lx->name = name ? name : "<input>";
}

void tm__lex_release(tm__lexer *lx)
{
    free(lx->buf);
    lx->buf = NULL;
    lx->cap = 0;
}

tm_err tm__lex_error(const tm__lexer *lx, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* An error before the first line (an empty file) is reported at
     * line 1: "file:0:" is not a position editors understand. */
    return tm__fail(lx->ctx, TM_EINPUT, "%s:%ld: %s", lx->name, lx->line > 0 ? lx->line : 1, msg);
}

tm_err tm__lex_next(tm__lexer *lx, bool *line)
{
    size_t len = 0;
    int c;
    *line = false;
    if (!lx->in)
        return TM_EOK;
    /* getc_unlocked (POSIX): the lexer is the stream's only reader, and getc's lock per
     * byte was 2 % of a default map of a 4 MB trace (AMG2013 1,000) */
    while ((c = getc_unlocked(lx->in)) != EOF) {
        if (c == '\n')
            break;
        if (c == '\0') {
            lx->line++;
            return tm__lex_error(lx, "NUL byte in text input");
        }
        if (len + 2 > lx->cap && tm__grow((void **)&lx->buf, &lx->cap, len + 2, 1) < 0)
            return tm__nomem(lx->ctx);
        if (len >= TM_LEX_MAX_LINE) {
            lx->line++;
            return tm__lex_error(lx, "line longer than %u bytes", TM_LEX_MAX_LINE);
        }
        lx->buf[len++] = (char)c;
    }
    if (ferror(lx->in))
        return tm__fail(lx->ctx, TM_EIO, "%s:%ld: read error", lx->name, lx->line + 1);
    if (c == EOF && len == 0)
        return TM_EOK;
    if (!lx->buf && tm__grow((void **)&lx->buf, &lx->cap, 1, 1) < 0)
        return tm__nomem(lx->ctx);
    if (len && lx->buf[len - 1] == '\r')
        len--;
    lx->buf[len] = '\0';
    lx->len = len;
    lx->line++;
    *line = true;
    return TM_EOK;
}

tm_err tm__read_all(tm_ctx *ctx, FILE *in, const char *name, size_t max, char **out, size_t *olen)
{
    char *buf = NULL;
    size_t cap = 0, len = 0, got;
    *out = NULL;
    for (;;) {
        if (tm__grow((void **)&buf, &cap, len + 65536 + 1, 1) < 0) {
            free(buf);
            return tm__nomem(ctx);
        }
        got = fread(buf + len, 1, cap - len - 1, in);
        len += got;
        if (len > max) {
            free(buf);
            return tm__fail(ctx, TM_EINPUT, "%s: file larger than %zu bytes", name, max);
        }
        if (got == 0)
            break;
    }
    if (ferror(in)) {
        free(buf);
        return tm__fail(ctx, TM_EIO, "%s: read error", name);
    }
    buf[len] = '\0';
    *out = buf;
    if (olen)
        *olen = len;
    return TM_EOK;
}
