/*
 * read_graphstats.c - reader for the graphStats.txt files of CNCA's
 * comm-patterns-clustering (tests/data/PROVENANCE.md, cnca_mpiP_cm): after a line
 * containing "Graph Information" come lines "i , j = w" (0-based ranks, one
 * line per unordered pair) up to a line starting with '-' ("Graph info end");
 * the statistics after it are ignored.
 *
 * Directed split: the file's w is Amount[i][j] + Amount[j][i] of the mpiP
 * run it was derived from, and the direction is lost.  We store w/2 from i
 * to j and w/2 from j to i: the total volume then equals the mpiP total
 * without the diagonal, and the symmetrised graph equals the symmetrised
 * mpiP graph exactly (tests/unit/test_comm_readers.c checks lulesh_64).
 * The task count is the largest rank + 1 (the file does not state it).
 */
#include <string.h>

#include "comm_int.h"

static tm_err expect_char(tm__lexer *lx, const char **p, char c, const char *after)
{
    *p = tm__skip_blank(*p);
    if (**p != c)
        return tm__lex_error(lx, "expected '%c' after %s (line format 'i , j = w')", c, after);
    (*p)++;
    return TM_EOK;
}

/* A rank token ends at a blank, ',' or '='. */
static tm_err parse_rank(tm__lexer *lx, const char **p, int64_t *v)
{
    const char *tok = tm__skip_blank(*p);
    size_t len = strcspn(tok, " \t,=");
    *p = tok + len;
    return tm__token_int(lx, tok, len, "rank", 0, TM_COMM_MAX_TASKS - 1, v);
}

static tm_err parse_pair(tm__lexer *lx, int64_t *i, int64_t *j, double *w)
{
    const char *p = lx->buf, *tok;
    size_t len;
    tm_err err;
    if ((err = parse_rank(lx, &p, i)) || (err = expect_char(lx, &p, ',', "the first rank")) ||
        (err = parse_rank(lx, &p, j)) || (err = expect_char(lx, &p, '=', "the second rank")))
        return err;
    if (!tm__next_token(&p, &tok, &len))
        return tm__lex_error(lx, "missing weight after '='");
    if ((err = tm__token_volume(lx, tok, len, "weight", w)))
        return err;
    if (tm__next_token(&p, &tok, &len))
        return tm__lex_error(lx, "unexpected '%.*s' after the weight", (int)len, tok);
    return TM_EOK;
}

tm_err tm_comm_read_graphstats(tm_ctx *ctx, FILE *in, const char *name, tm_comm *out)
{
    tm__lexer lx;
    tm__entries e;
    int64_t n = 0, i, j;
    double w;
    bool in_block = false, ended = false, line;
    tm_err err = TM_EOK;

    tm_comm_init(out);
    tm__lex_init(&lx, ctx, in, name);
    tm__entries_init(&e);
    while (!ended && !(err = tm__lex_next(&lx, &line)) && line) {
        const char *s = tm__skip_blank(lx.buf);
        if (!in_block) {
            in_block = strstr(lx.buf, "Graph Information") != NULL;
            continue;
        }
        if (!*s)
            continue;
        if (*s == '-' && !(s[1] >= '0' && s[1] <= '9')) { /* "----Graph info end---" */
            ended = true;
            break;
        }
        if ((err = parse_pair(&lx, &i, &j, &w)))
            goto out;
        tm__cover(&n, i, j);
        if (i != j && (tm__entries_push(&e, (int32_t)i, (int32_t)j, w / 2) < 0 ||
                       tm__entries_push(&e, (int32_t)j, (int32_t)i, w / 2) < 0)) {
            err = tm__nomem(ctx);
            goto out;
        }
    }
    if (err)
        goto out;
    if (!in_block) {
        if (!lx.line)
            lx.line = 1;
        err = tm__lex_error(&lx, "no 'Graph Information' heading (not a graphStats file)");
        goto out;
    }
    if (n == 0) {
        err = tm__lex_error(&lx, "no 'i , j = w' lines after the 'Graph Information' heading");
        goto out;
    }
    err = tm__entries_finish(ctx, name, &e, (int32_t)n, out);
out:
    return tm__reader_end(err, out, &e, &lx);
}
