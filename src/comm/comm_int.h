/*
 * comm_int.h - helpers shared by the communication-graph readers: a growable
 * list of directed entries (collected while reading, turned into a CSR by
 * tm_comm_from_entries at the end) and the size bound every reader applies.
 */
#ifndef TM_COMM_INT_H
#define TM_COMM_INT_H

#include <stdint.h>

#include "topomap/comm.h"
#include "../util/util.h"

/* Largest task count a reader accepts.  Headers are checked against it
 * before anything is allocated, so a file announcing 10^12 rows is an error,
 * not a multi-gigabyte allocation.  2^24 = 16.7 M tasks is far beyond the
 * largest MPI jobs and keeps the CSR offsets of an empty graph at 128 MiB. */
#define TM_COMM_MAX_TASKS (INT64_C(1) << 24)

/* Directed entries in reading order. */
typedef struct tm__entries {
    int32_t *src;
    int32_t *dst;
    double *w;
    size_t len, cap_s, cap_d, cap_w;
} tm__entries;

void tm__entries_init(tm__entries *e);
void tm__entries_release(tm__entries *e);
/* Appends (s -> d, w); -1 on allocation failure. */
int tm__entries_push(tm__entries *e, int32_t s, int32_t d, double w);
/* Raises the task count *n so that tasks a and b exist. */
static inline void tm__cover(int64_t *n, int64_t a, int64_t b)
{
    if (a + 1 > *n)
        *n = a + 1;
    if (b + 1 > *n)
        *n = b + 1;
}
/* Appends (s -> d, w) and raises *n to cover both ends (ids already
 * range-checked by the reader); TM_ENOMEM on allocation failure. */
tm_err tm__entries_add(tm_ctx *ctx, tm__entries *e, int64_t s, int64_t d, double w, int64_t *n);
/* Builds the CSR (n tasks) and releases the entries. */
tm_err tm__entries_finish(tm_ctx *ctx, const char *name, tm__entries *e, int32_t n,
                          tm_comm *out);

/* Common exit of the readers: on error *out is released; the entries and
 * the lexer always are.  Returns err. */
tm_err tm__reader_end(tm_err err, tm_comm *out, tm__entries *e, tm__lexer *lx);

/* Token helpers on a line: skip blanks; read the next whitespace-delimited
 * token into [*tok, *tok + *len); returns 0 if there is none. */
int tm__next_token(const char **p, const char **tok, size_t *len);
/* Parses a whole token as a non-negative volume ("file:line: ..." errors
 * name `what`).  Rejects signs other than a leading '+' or '-' followed by a
 * number (then "negative"), nan/inf and trailing garbage. */
tm_err tm__token_volume(const tm__lexer *lx, const char *tok, size_t len, const char *what,
                        double *out);
/* Parses a whole token as an integer in [lo, hi]. */
tm_err tm__token_int(const tm__lexer *lx, const char *tok, size_t len, const char *what, int64_t lo,
                     int64_t hi, int64_t *out);

/* Checks that the entries (grouped by source in reading order; lines[u] is
 * the line of vertex u) form an undirected graph; see comm_symmetric.c. */
tm_err tm__check_symmetric(tm__lexer *lx, int32_t n, const tm__entries *e, const long *lines,
                           int base);

#endif
