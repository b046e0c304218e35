/*
 * fuzz_common.h - helpers shared by the libFuzzer targets: a FILE* over the
 * fuzzer's bytes, a NUL-terminated copy for string parsers, and the
 * contract checks every reader must pass (a failure has a message; an
 * input error names the input as "fuzz:...").  A violated check calls
 * abort() so libFuzzer records the input as a crash.
 */
#ifndef TM_FUZZ_COMMON_H
#define TM_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topomap/topomap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Display name every target passes to the reader. */
#define FZ_NAME "fuzz"

/* A read-only stream over the bytes (fmemopen rejects size 0 on some libcs:
 * /dev/null stands in for the empty file). */
static inline FILE *fz_open(const uint8_t *data, size_t size)
{
    FILE *f = size ? fmemopen((void *)data, size, "r") : fopen("/dev/null", "r");
    if (!f)
        abort();
    return f;
}

/* A NUL-terminated copy (string parsers stop at the first NUL anyway). */
static inline char *fz_strdup(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

static inline tm_ctx *fz_ctx(void)
{
    tm_ctx *ctx = NULL;
    if (tm_ctx_new(&ctx) != TM_EOK)
        abort();
    return ctx;
}

static inline void fz_die(const char *what, tm_err err, const tm_ctx *ctx)
{
    fprintf(stderr, "fuzz contract violated: %s (err %d: '%s')\n", what, (int)err,
            ctx ? tm_ctx_errmsg(ctx) : "");
    abort();
}

/* The input cut into files at lines "--8<--" (at most max: the last takes
 * the rest), each a stream (in[i]) named FZ_NAME "<i>" (names[i], 16 bytes
 * each); returns how many.  For readers of several files (a merge). */
static inline int fz_split(const uint8_t *data, size_t size, FILE **in, char (*names)[16],
                           int max)
{
    static const char sep[] = "--8<--\n";
    const size_t sl = sizeof sep - 1;
    size_t start = 0;
    int n = 0;
    while (n < max) {
        const uint8_t *cut = NULL;
        size_t end;
        for (size_t i = start; i + sl <= size; i++)
            if (memcmp(data + i, sep, sl) == 0 && (i == 0 || data[i - 1] == '\n')) {
                cut = data + i;
                break;
            }
        end = cut && n < max - 1 ? (size_t)(cut - data) : size;
        in[n] = fz_open(data + start, end - start);
        snprintf(names[n], 16, FZ_NAME "%d", n);
        n++;
        if (end == size)
            break;
        start = end + sl;
    }
    return n;
}

/* Every failure carries a message; TM_EINPUT from a file reader starts
 * with the display name (docs/design.md: "file:line: what is wrong").  The
 * prefix check is skipped for string parsers (want_prefix = 0). */
static inline void fz_check_err(const tm_ctx *ctx, tm_err err, int want_prefix)
{
    const char *msg;
    if (err == TM_EOK)
        return;
    if ((int)err < 0 || err >= TM_E_COUNT_)
        fz_die("error code out of range", err, ctx);
    msg = tm_ctx_errmsg(ctx);
    if (!msg || !*msg)
        fz_die("error without a message", err, ctx);
    if (want_prefix && err == TM_EINPUT && strncmp(msg, FZ_NAME, strlen(FZ_NAME)) != 0)
        fz_die("input error does not start with the file name", err, ctx);
    /* Nothing a reader meets in a small input is an internal error. */
    if (err == TM_EINTERNAL)
        fz_die("internal error on input", err, ctx);
}

/* The documented invariants of a parsed hierarchy (hier.h). */
static inline void fz_check_hier(const tm_hier *h, const tm_ctx *ctx)
{
    int64_t prod = 1;
    if (h->k < 1 || h->k > TM_HIER_MAX_LEVELS || h->group[0] != 1)
        fz_die("bad level count", TM_EOK, ctx);
    for (int i = 0; i < h->k; i++) {
        if (h->a[i] < 1 || !(h->d[i] >= 0) || h->d[i] > TM_HIER_MAX_DISTANCE)
            fz_die("bad level", TM_EOK, ctx);
        prod *= h->a[i];
        if (h->group[i + 1] != prod)
            fz_die("bad group size", TM_EOK, ctx);
    }
    if (h->n_pe != prod || prod > (INT64_C(1) << 31))
        fz_die("bad PE count", TM_EOK, ctx);
}

#endif
