/*
 * comm_entries.c - what the communication-graph readers share: the growable
 * entry list and strict token parsing with "file:line: ..." messages.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "comm_int.h"

void tm__entries_init(tm__entries *e) { memset(e, 0, sizeof *e); }

void tm__entries_release(tm__entries *e)
{
    free(e->src);
    free(e->dst);
    free(e->w);
    memset(e, 0, sizeof *e);
}

int tm__entries_push(tm__entries *e, int32_t s, int32_t d, double w)
{
    if (tm__grow((void **)&e->src, &e->cap_s, e->len + 1, sizeof *e->src) < 0 ||
        tm__grow((void **)&e->dst, &e->cap_d, e->len + 1, sizeof *e->dst) < 0 ||
        tm__grow((void **)&e->w, &e->cap_w, e->len + 1, sizeof *e->w) < 0)
        return -1;
    e->src[e->len] = s;
    e->dst[e->len] = d;
    e->w[e->len] = w;
    e->len++;
    return 0;
}

tm_err tm__entries_add(tm_ctx *ctx, tm__entries *e, int64_t s, int64_t d, double w, int64_t *n)
{
    tm__cover(n, s, d);
    return tm__entries_push(e, (int32_t)s, (int32_t)d, w) < 0 ? tm__nomem(ctx) : TM_EOK;
}

/* An error found only when the CSR is built (volumes whose sum is over
 * TM_COMM_MAX_VOLUME) names the file like every other reader error. */
tm_err tm__entries_finish(tm_ctx *ctx, const char *name, tm__entries *e, int32_t n,
                          tm_comm *out)
{
    tm_err err = tm_comm_from_entries(ctx, n, (int64_t)e->len, e->src, e->dst, e->w, out);
    if (err == TM_EINPUT)
        tm__fail_prefix(ctx, "%s", name ? name : "<input>");
    tm__entries_release(e);
    return err;
}

tm_err tm__reader_end(tm_err err, tm_comm *out, tm__entries *e, tm__lexer *lx)
{
    if (err)
        tm_comm_release(out);
    tm__entries_release(e);
    tm__lex_release(lx);
    return err;
}

int tm__next_token(const char **p, const char **tok, size_t *len)
{
    const char *s = tm__skip_blank(*p), *t = s;
    while (*t && *t != ' ' && *t != '\t' && *t != '\r' && *t != '\v' && *t != '\f')
        t++;
    *tok = s;
    *len = (size_t)(t - s);
    *p = t;
    return t > s;
}

tm_err tm__token_volume(const tm__lexer *lx, const char *tok, size_t len, const char *what,
                        double *out)
{
    const char *p = tok;
    double v;
    if (len == 0)
        return tm__lex_error(lx, "missing %s", what);
    if (tm__parse_double(&p, &v) < 0 || p != tok + len || !isfinite(v)) {
        /* the line buffer is NUL-terminated, but a token may be followed by
         * more text: print exactly the token */
        return tm__lex_error(lx, "%s '%.*s' is not a finite number", what, (int)len, tok);
    }
    if (v < 0)
        return tm__lex_error(lx, "negative %s %.*s", what, (int)len, tok);
    if (v > TM_COMM_MAX_VOLUME) /* keeps every sum and J finite (topomap/comm.h) */
        return tm__lex_error(lx, "%s %.*s is larger than the limit %g", what, (int)len, tok,
                             TM_COMM_MAX_VOLUME);
    *out = v;
    return TM_EOK;
}

tm_err tm__token_int(const tm__lexer *lx, const char *tok, size_t len, const char *what, int64_t lo,
                     int64_t hi, int64_t *out)
{
    const char *p = tok;
    int64_t v;
    if (len == 0)
        return tm__lex_error(lx, "missing %s", what);
    if (tm__parse_i64(&p, &v) < 0 || p != tok + len)
        return tm__lex_error(lx, "%s '%.*s' is not an integer", what, (int)len, tok);
    if (v < lo || v > hi)
        return tm__lex_error(lx, "%s %lld out of range [%lld, %lld]", what, (long long)v,
                             (long long)lo, (long long)hi);
    *out = v;
    return TM_EOK;
}
