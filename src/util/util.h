/*
 * util.h - small helpers shared by every folder of the library (never
 * installed): error recording, overflow-checked allocation, a seeded PRNG,
 * growable arrays, a string hash map, locale-independent number parsing and
 * the line lexer all readers use.
 */
#ifndef TM_UTIL_H
#define TM_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "topomap/error.h"

#if defined(__GNUC__)
#define TM_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TM_PRINTF(a, b)
#endif

/* ---- errors and logging (ctx.c) ---------------------------------------- */

/* Records a formatted message in ctx and returns err, so callers can write
 * `err = tm__fail(ctx, TM_EINPUT, "%s:%ld: ...", ...); goto out;`.
 * ctx may be NULL (the message is dropped). */
tm_err tm__fail(tm_ctx *ctx, tm_err err, const char *fmt, ...) TM_PRINTF(3, 4);
/* Prefixes the current message with "prefix: " (used to add context). */
void tm__fail_prefix(tm_ctx *ctx, const char *fmt, ...) TM_PRINTF(2, 3);
/* Sends a message to the log callback if level is enabled. */
void tm__log(tm_ctx *ctx, tm_log_level level, const char *fmt, ...) TM_PRINTF(3, 4);
#define tm__warn(ctx, ...) tm__log((ctx), TM_LOG_WARN, __VA_ARGS__)
/* TM_ENOMEM with a generic message. */
tm_err tm__nomem(tm_ctx *ctx);
/* The caller's stop predicate (tm_ctx_set_stop) says stop: refinements
 * return their best mapping so far, constructions finish normally. */
bool tm__stopped(const tm_ctx *ctx);
/* Reports figures to the caller's progress callback (tm_ctx_set_progress). */
void tm__progress(tm_ctx *ctx, const char *what, double congestion, double dilation, double J);
/* The context's shared pool (the METIS worker pool of
 * src/graph/metis_pool.c, which calls this with its constructor and
 * destructor): created by make() on first use and freed with the context
 * that created it; NULL when out of memory. */
void *tm__ctx_shared_pool(tm_ctx *ctx, void *(*make)(void), void (*drop)(void *));
/* A per-job context takes the parent's stop predicate, progress callback,
 * METIS pool and memo. */
void tm__ctx_inherit(tm_ctx *child, tm_ctx *parent);

/* ---- a memo of one call's shared results (memo.c) ------------------------
 * int32 arrays by a 128-bit key made from what they depend on (contents,
 * not addresses: tm__memo_hash); a few entries, thread-safe.  A context
 * carries one for the jobs of a call (tm__ctx_set_memo, inherited); NULL:
 * nothing is kept. */
typedef struct tm__memo tm__memo;
tm_err tm__memo_new(tm_ctx *ctx, tm__memo **out);
void tm__memo_free(tm__memo *m);
bool tm__memo_get_i32(tm__memo *m, const uint64_t key[2], int32_t *out, size_t n);
void tm__memo_put_i32(tm__memo *m, const uint64_t key[2], const int32_t *v, size_t n);
uint64_t tm__memo_hash(uint64_t h, const void *data, size_t len);
void tm__ctx_set_memo(tm_ctx *ctx, tm__memo *m);
tm__memo *tm__ctx_memo(const tm_ctx *ctx);

/* ---- a team of threads (team.c) ----------------------------------------
 * n members, the caller being member 0 (fewer if threads cannot start:
 * callers must give the same results for any size).  tm__team_run calls
 * fn(arg, member) in every member and returns when all have returned. */
typedef struct tm__team tm__team;
tm_err tm__team_new(tm_ctx *ctx, int n, tm__team **out);
int tm__team_size(const tm__team *t);
void tm__team_run(tm__team *t, void (*fn)(void *arg, int member), void *arg);
void tm__team_free(tm__team *t);
/* The one-shot forms, for every other threaded loop of the library (no
 * hand-written pthread_create elsewhere).  tm__team_once calls fn(arg,
 * member) once in each of up to n members, the caller being member 0, and
 * returns, when all have returned, how many ran (fewer than n when threads
 * cannot start: callers must give the same results for any number).
 * tm__parallel_for calls fn(arg, i, member) for every i in [0, n), on up
 * to `threads` members: items go out in increasing order, one at a time,
 * to whichever member is free. */
int tm__team_once(int n, void (*fn)(void *arg, int member), void *arg);
void tm__parallel_for(int threads, int n, void (*fn)(void *arg, int i, int member), void *arg);

/* ---- memory ------------------------------------------------------------- */

/* malloc/calloc/realloc of n elements of size sz with overflow check;
 * NULL on overflow or failure. */
void *tm__malloc_n(size_t n, size_t sz);
void *tm__calloc_n(size_t n, size_t sz);
void *tm__realloc_n(void *p, size_t n, size_t sz);
/* Grows *p (with *cap elements of size sz) to hold at least need elements,
 * doubling.  Returns 0 on success, -1 on overflow or allocation failure
 * (then *p is unchanged). */
int tm__grow(void **p, size_t *cap, size_t need, size_t sz);
char *tm__strdup(const char *s);
char *tm__strndup(const char *s, size_t n);

/* ---- deterministic PRNG (xoshiro256**, seeded by splitmix64) ------------
 * One generator per thread or task; never rand(): METIS re-seeds the
 * process-wide rand() stream on every call. */
typedef struct tm__rng { uint64_t s[4]; } tm__rng;
void tm__rng_seed(tm__rng *r, uint64_t seed, uint64_t stream);
uint64_t tm__rng_next(tm__rng *r);
/* Uniform in [0, n) without modulo bias; n > 0. */
uint64_t tm__rng_below(tm__rng *r, uint64_t n);
/* Uniform double in [0, 1). */
double tm__rng_unit(tm__rng *r);

/* ---- string -> int32 hash map (open addressing, FNV-1a) ----------------
 * Keys are copied into the map.  Why hand-written: igraph has no string
 * map and a dependency on GLib for one table is not worth it. */
typedef struct tm__strmap {
    char **keys;
    int32_t *vals;
    size_t cap;   /* power of two or 0 */
    size_t count;
} tm__strmap;
void tm__strmap_init(tm__strmap *m);
void tm__strmap_release(tm__strmap *m);
/* Inserts key -> val (val >= 0: an absent key reads as -1) unless the key
 * is there, which changes nothing.  *old (when old != NULL) is the value
 * the key had, or -1 when it was inserted.  0, or -1 out of memory. */
int tm__strmap_put(tm__strmap *m, const char *key, int32_t val, int32_t *old);
/* Value of key, or -1 if absent. */
int32_t tm__strmap_get(const tm__strmap *m, const char *key);
int32_t tm__strmap_getn(const tm__strmap *m, const char *key, size_t len);

/* ---- name tables (CLI words -> enum values) ----------------------------- */
typedef struct tm__name_val {
    const char *name;
    int val;
} tm__name_val;
/* Value of name s in the table of n entries, or -1 (also for s == NULL). */
int tm__name_lookup(const tm__name_val *table, size_t n, const char *s);

/* ---- numbers (locale-independent) -------------------------------------- */

/* Parses a decimal integer at *p (optional sign), skipping leading blanks;
 * advances *p.  Returns 0 on success, -1 if there is no number or it
 * overflows int64. */
int tm__parse_i64(const char **p, int64_t *out);
/* Parses a floating-point number at *p in the C locale (strtod_l). */
int tm__parse_double(const char **p, double *out);
/* Whole-string variants: the string must contain exactly one number
 * (surrounding blanks allowed). */
int tm__str_to_i64(const char *s, int64_t *out);
int tm__str_to_double(const char *s, double *out);
const char *tm__skip_blank(const char *p);

/* Runs write(arg, out) with the C numeric locale in this thread only (a '.'
 * decimal point whatever LC_NUMERIC the process set, for an MPI
 * application that embeds the library), then flushes out.  Returns
 * write's error, TM_ENOMEM, or TM_EIO "write error" (" while writing
 * <what>" when what is not NULL) when a write failed. */
tm_err tm__write_c_locale(tm_ctx *ctx, FILE *out, const char *what,
                          tm_err (*write)(void *arg, FILE *out), void *arg);

/* ---- line lexer shared by all text readers -----------------------------
 * Reads a FILE* line by line, counts lines, strips "\n" and "\r\n",
 * rejects NUL bytes and lines longer than TM_LEX_MAX_LINE with a
 * "name:line: ..." error. */
#define TM_LEX_MAX_LINE (16u * 1024u * 1024u)
typedef struct tm__lexer {
    tm_ctx *ctx;
    FILE *in;
    const char *name;  /* display name for errors */
    long line;         /* number of the line last returned (1-based) */
    char *buf;
    size_t cap;
    size_t len;
} tm__lexer;
void tm__lex_init(tm__lexer *lx, tm_ctx *ctx, FILE *in, const char *name);
void tm__lex_release(tm__lexer *lx);
/* Next line into lx->buf (NUL-terminated, lx->len bytes); *line is false
 * at the end of the file.  The error (recorded) on a NUL byte, a line over
 * the limit, a read error or no memory. */
tm_err tm__lex_next(tm__lexer *lx, bool *line);
/* Records "name:line: <fmt>" as a TM_EINPUT error and returns TM_EINPUT. */
tm_err tm__lex_error(const tm__lexer *lx, const char *fmt, ...) TM_PRINTF(2, 3);

/* Reads a whole stream into a NUL-terminated buffer, at most max bytes
 * (TM_EINPUT "name: file larger than N bytes" beyond). */
tm_err tm__read_all(tm_ctx *ctx, FILE *in, const char *name, size_t max, char **out, size_t *len);

/* Monotonic wall-clock seconds. */
double tm__now(void);

/* ---- JSON (json.c) -----------------------------------------------------
 * Writes s as a JSON string: quotes and backslashes escaped, \n \r \t as
 * such, other control characters as \u00XX, every other byte (UTF-8) as
 * it is.  The one escaper of every JSON topomap writes. */
void tm__json_str(FILE *out, const char *s);

#endif
