/*
 * read_phases.c - a job's communication as phases (docs/formats.md
 * "Phases", docs/time.md "Phases"): the reader, the writer, init/release.
 *
 *   %%TopomapPhases 1
 *   % comments ('%' lines) and blank lines anywhere
 *   TASKS PHASES
 *   phase REPEAT ENTRIES      (PHASES times)
 *   i j bytes                 (ENTRIES times, 1-based, as Matrix Market)
 *
 * Entry (i, j) of a phase is the bytes task i-1 sends to task j-1 in one run
 * of the phase; the phase runs REPEAT times.  Diagonal entries are a task's
 * messages to itself and are ignored (as in Matrix Market files);
 * duplicates are summed.  Phases are read one at a time: nothing is
 * allocated from a count in the header before the entries that fill it
 * have been read.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "comm_int.h"
#include "topomap/io.h"

/* Largest number of phases a file may declare. */
#define MAX_PHASES (INT64_C(1) << 24)
/* Largest tasks x phases: every phase is a CSR with tasks + 1 offsets, so
 * a small file naming 2^24 tasks must not make thousands of them (2^26
 * offsets: 512 MiB; e.g. 65,536 tasks x 1,024 distinct phases). */
#ifndef TM_PHASES_MAX_TASK_ROWS
#define TM_PHASES_MAX_TASK_ROWS (INT64_C(1) << 26) /* the fuzz build lowers it (Makefile) */
#endif
#define MAX_TASK_ROWS TM_PHASES_MAX_TASK_ROWS

void tm_comm_phases_init(tm_comm_phases *p)
{
    memset(p, 0, sizeof *p);
}

void tm_comm_phases_release(tm_comm_phases *p)
{
    if (!p)
        return;
    for (int32_t i = 0; i < p->n_phases; i++)
        tm_comm_release(&p->phase[i]);
    free(p->phase);
    free(p->repeat);
    tm_comm_phases_init(p);
}

/* Next line that is not a comment or blank; *line is false at the end. */
static tm_err next_data(tm__lexer *lx, bool *line)
{
    tm_err err;
    while (!(err = tm__lex_next(lx, line)) && *line) {
        const char *s = tm__skip_blank(lx->buf);
        if (*s && *s != '%')
            break;
    }
    return err;
}

/* The words of a line must end here. */
static tm_err line_end(tm__lexer *lx, const char *p, const char *what)
{
    const char *tok;
    size_t len;
    if (tm__next_token(&p, &tok, &len))
        return tm__lex_error(lx, "unexpected '%.*s' after the %s", (int)len, tok, what);
    return TM_EOK;
}

static tm_err parse_banner(tm__lexer *lx)
{
    const char *p = lx->buf, *tok;
    size_t len;
    tm__next_token(&p, &tok, &len);
    if (len != 15 || strncmp(tok, "%%TopomapPhases", 15) != 0)
        return tm__lex_error(lx, "missing '%%%%TopomapPhases 1' banner");
    tm__next_token(&p, &tok, &len);
    if (len != 1 || *tok != '1')
        return tm__lex_error(lx, "phases format version '%.*s' is not supported (only 1)",
                             (int)len, tok);
    return line_end(lx, p, "banner");
}

/* "TASKS PHASES" */
static tm_err parse_size(tm__lexer *lx, int64_t *n, int64_t *k)
{
    const char *p = lx->buf, *tok;
    size_t len;
    tm_err err;
    tm__next_token(&p, &tok, &len);
    if ((err = tm__token_int(lx, tok, len, "task count", 1, TM_COMM_MAX_TASKS, n)))
        return err;
    tm__next_token(&p, &tok, &len);
    if ((err = tm__token_int(lx, tok, len, "phase count", 0, MAX_PHASES, k)))
        return err;
    return line_end(lx, p, "size line 'tasks phases'");
}

/* "phase REPEAT ENTRIES" */
static tm_err parse_phase(tm__lexer *lx, int64_t n, int64_t *rep, int64_t *m)
{
    const char *p = lx->buf, *tok;
    size_t len;
    tm_err err;
    tm__next_token(&p, &tok, &len);
    if (len != 5 || strncmp(tok, "phase", 5) != 0)
        return tm__lex_error(lx, "expected 'phase REPEAT ENTRIES', found '%.*s'", (int)len, tok);
    tm__next_token(&p, &tok, &len);
    if ((err = tm__token_int(lx, tok, len, "repeat count", 1, TM_COMM_PHASE_MAX_REPEAT, rep)))
        return err;
    tm__next_token(&p, &tok, &len);
    if ((err = tm__token_int(lx, tok, len, "entry count", 0, n * n, m)))
        return err;
    return line_end(lx, p, "phase line");
}

static tm_err parse_entry(tm__lexer *lx, int64_t n, int64_t *i, int64_t *j, double *w)
{
    const char *p = lx->buf, *tok;
    size_t len;
    tm_err err;
    tm__next_token(&p, &tok, &len);
    if ((err = tm__token_int(lx, tok, len, "row index", 1, n, i)))
        return err;
    tm__next_token(&p, &tok, &len);
    if ((err = tm__token_int(lx, tok, len, "column index", 1, n, j)))
        return err;
    tm__next_token(&p, &tok, &len);
    if ((err = tm__token_volume(lx, tok, len, "bytes", w)))
        return err;
    return line_end(lx, p, "entry");
}

/* Room for one more phase in *out. */
static int grow(tm_comm_phases *out, int32_t *cap)
{
    if (out->n_phases < *cap)
        return 0;
    int32_t c = *cap ? *cap * 2 : 4;
    tm_comm *ph = realloc(out->phase, (size_t)c * sizeof *ph);
    if (!ph)
        return -1;
    out->phase = ph;
    int64_t *rp = realloc(out->repeat, (size_t)c * sizeof *rp);
    if (!rp)
        return -1;
    out->repeat = rp;
    *cap = c;
    return 0;
}

/* One phase: its "phase" line is in lx->buf; reads its entries. */
static tm_err read_one(tm__lexer *lx, const char *name, int64_t n, tm_comm_phases *out,
                       int32_t *cap)
{
    tm__entries e;
    int64_t rep, m, i, j;
    double w;
    bool line;
    tm_err err = parse_phase(lx, n, &rep, &m);
    if (err)
        return err;
    if ((int64_t)(out->n_phases + 1) * (n + 1) > MAX_TASK_ROWS)
        return tm__lex_error(lx, "phase %d: %lld tasks x %d phases is more than the %lld task "
                             "rows the phases may hold in all", out->n_phases + 1, (long long)n,
                             out->n_phases + 1, (long long)MAX_TASK_ROWS);
    tm__entries_init(&e);
    for (int64_t k = 0; k < m && !err; k++) {
        if ((err = next_data(lx, &line)) || !line) {
            err = err ? err
                      : tm__lex_error(lx, "file ends after %lld of the %lld entries of phase %d",
                                      (long long)k, (long long)m, out->n_phases + 1);
        } else if ((err = parse_entry(lx, n, &i, &j, &w)) == TM_EOK && i != j &&
                   tm__entries_push(&e, (int32_t)(i - 1), (int32_t)(j - 1), w) < 0) {
            err = tm__nomem(lx->ctx);
        }
    }
    if (!err && grow(out, cap) < 0)
        err = tm__nomem(lx->ctx);
    if (err) {
        tm__entries_release(&e);
        return err;
    }
    err = tm__entries_finish(lx->ctx, name, &e, (int32_t)n, &out->phase[out->n_phases]);
    if (err)
        return err;
    out->repeat[out->n_phases++] = rep;
    return TM_EOK;
}

tm_err tm_comm_phases_read(tm_ctx *ctx, FILE *in, const char *name, tm_comm_phases *out)
{
    tm__lexer lx;
    int64_t n = 0, k = 0;
    int32_t cap = 0;
    bool line;
    tm_err err;
    tm_comm_phases_init(out);
    tm__lex_init(&lx, ctx, in, name);
    if ((err = tm__lex_next(&lx, &line)))
        goto out;
    if (!line) {
        lx.line = 1;
        err = tm__lex_error(&lx, "empty file: no '%%%%TopomapPhases 1' banner");
        goto out;
    }
    if ((err = parse_banner(&lx)))
        goto out;
    if ((err = next_data(&lx, &line)) || !line) {
        err = err ? err : tm__lex_error(&lx, "missing size line 'tasks phases'");
        goto out;
    }
    if ((err = parse_size(&lx, &n, &k)))
        goto out;
    out->n_tasks = (int32_t)n;
    for (int64_t p = 0; p < k && !err; p++) {
        if ((err = next_data(&lx, &line)) || !line)
            err = err ? err
                      : tm__lex_error(&lx, "file ends after %lld of %lld phases", (long long)p,
                                      (long long)k);
        else
            err = read_one(&lx, name, n, out, &cap);
    }
    if (!err && !(err = next_data(&lx, &line)) && line)
        err = tm__lex_error(&lx, "more phases than the %lld of the size line", (long long)k);
out:
    if (err)
        tm_comm_phases_release(out);
    tm__lex_release(&lx);
    return err;
}

tm_err tm_comm_phases_read_file(tm_ctx *ctx, const char *path, tm_comm_phases *out)
{
    FILE *in;
    tm_err err;
    tm_comm_phases_init(out);
    err = tm_open_input(ctx, path, &in);
    if (err)
        return err;
    err = tm_comm_phases_read(ctx, in, path, out);
    fclose(in);
    return err;
}

tm_err tm_comm_phases_write(tm_ctx *ctx, const tm_comm_phases *p, FILE *out)
{
    fprintf(out, "%%%%TopomapPhases 1\n%% phase r runs r times; entry i j: bytes from task i-1 "
                 "to task j-1 in one run\n%d %d\n", p->n_tasks, p->n_phases);
    for (int32_t k = 0; k < p->n_phases; k++) {
        const tm_comm *c = &p->phase[k];
        fprintf(out, "phase %" PRId64 " %" PRId64 "\n", p->repeat[k], c->nnz);
        for (int32_t u = 0; u < c->n; u++)
            for (int64_t e = c->xadj[u]; e < c->xadj[u + 1]; e++)
                fprintf(out, "%d %d %.17g\n", u + 1, c->adj[e] + 1, c->w[e]);
    }
    if (ferror(out))
        return tm_ctx_fail(ctx, TM_EIO, "cannot write the phases");
    return TM_EOK;
}
