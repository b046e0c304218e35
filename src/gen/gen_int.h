/*
 * gen_int.h - declarations shared by the network generators (not
 * installed): the parsed spec, option accessors, size planning with
 * overflow-safe arithmetic, and vertex/cable helpers that apply the name
 * prefix, the host name pattern, slots and the transit policy.
 *
 * Life cycle of one tm_gen_build() call (spec.c; the accessors: option.c):
 *   parse "<name>:<items>" -> check every key against the generator's
 *   table -> generator reads its options (tm__gen_int/cap) -> computes its
 *   exact vertex and cable counts with saturating arithmetic ->
 *   tm__gen_plan() rejects oversized networks before anything is added ->
 *   vertices and cables are added.
 */
#ifndef TM_GEN_INT_H
#define TM_GEN_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "topomap/gen.h"
#include "../util/util.h"

/* Upper bounds on one generated network, checked before allocating.
 * 2^24 vertices and 2^25 cables need ~1.5 GB once finalized: anything
 * bigger is a typo, not a study. */
/* The fuzz build (Makefile, SAN=fuzz) lowers the first two so that specs
 * near the cap build within the fuzzer's time limit; the checks are the
 * same code. */
#ifndef TM_GEN_MAX_VERTICES
#define TM_GEN_MAX_VERTICES (INT64_C(1) << 24)
#endif
#ifndef TM_GEN_MAX_CABLES
#define TM_GEN_MAX_CABLES (INT64_C(1) << 25)
#endif
#define TM_GEN_MAX_SLOTS (INT64_C(1) << 20)
#define TM_GEN_MAX_CAP 1e9
#define TM_GEN_MAX_ITEMS 32
#define TM_GEN_MAX_NAME 256

typedef struct tm__gen_item {
    const char *key; /* NUL-terminated, inside tm__gen.buf */
    const char *val;
} tm__gen_item;

/* The validated host name pattern: pre + integer (width, zero-padded) + post. */
typedef struct tm__gen_hostfmt {
    char pre[TM_GEN_MAX_NAME / 2];
    char post[TM_GEN_MAX_NAME / 2];
    int width; /* minimum digits; -1: default (computed by tm__gen_plan) */
    bool zero;
} tm__gen_hostfmt;

typedef struct tm__gen {
    tm_ctx *ctx;
    tm_net *net;
    const char *spec;   /* whole spec, for messages */
    const char *gname;  /* generator name as listed in the table */
    const char *prefix; /* "" if none */
    char *buf;          /* copy of the parameter text, split in place */
    const char *shape;  /* positional first item (torus/mesh/hypercube), or NULL */
    int n_items;
    tm__gen_item items[TM_GEN_MAX_ITEMS];
    /* common options */
    int32_t slots;
    tm__gen_hostfmt hostfmt;
    bool direct; /* hosts forward traffic (torus, mesh, hypercube, PERCS) */
    /* plan */
    int64_t plan_vertices, plan_cables;
} tm__gen;

/* ---- spec access (option.c) --------------------------------------------- */

/* Records TM_EUSAGE "generator spec '<spec>': <message>". */
tm_err tm__gen_fail(tm__gen *g, const char *fmt, ...) TM_PRINTF(2, 3);
/* Value text of option key, or NULL if not given. */
const char *tm__gen_opt(const tm__gen *g, const char *key);
/* Integer option in [min, max]; *out = dflt if absent.  required: absence
 * is an error.  *given (may be NULL) tells whether it was present. */
tm_err tm__gen_int(tm__gen *g, const char *key, int64_t min, int64_t max, int64_t dflt,
                   bool required, int64_t *out, bool *given);
/* Capacity option (finite, > 0, <= TM_GEN_MAX_CAP); *out = dflt if absent. */
tm_err tm__gen_cap(tm__gen *g, const char *key, double dflt, double *out);
/* Checks the planned size against the limits and fixes the default host
 * name width (at least 4 digits, enough for n_hosts - 1). */
tm_err tm__gen_plan(tm__gen *g, int64_t n_vertices, int64_t n_cables, int64_t n_hosts);

/* ---- building (build.c) ------------------------------------------------- */

/* Adds host number `index` named by the host pattern (with the prefix). */
tm_err tm__gen_host(tm__gen *g, int64_t index, int32_t *id);
/* Adds a switch named prefix + printf(fmt, ...). */
tm_err tm__gen_switch(tm__gen *g, int32_t *id, const char *fmt, ...) TM_PRINTF(3, 4);
tm_err tm__gen_cable(tm__gen *g, int32_t a, int32_t b, double cap);
/* Number of decimal digits of v >= 0, at least min (option.c). */
int tm__gen_digits(int64_t v, int min);

/* ---- saturating arithmetic for size planning ---------------------------- */

static inline int64_t tm__gen_mul(int64_t a, int64_t b)
{
    if (a <= 0 || b <= 0)
        return a < 0 || b < 0 ? INT64_MAX : 0; /* sizes are never negative */
    return a > INT64_MAX / b ? INT64_MAX : a * b;
}
static inline int64_t tm__gen_add(int64_t a, int64_t b)
{
    return a > INT64_MAX - b ? INT64_MAX : a + b;
}
static inline int64_t tm__gen_pow(int64_t base, int64_t exp)
{
    int64_t r = 1;
    while (exp-- > 0)
        r = tm__gen_mul(r, base);
    return r;
}

/* ---- generators (one file per family) ----------------------------------- */

tm_err tm__gen_torus(tm__gen *g);    /* grid.c */
tm_err tm__gen_mesh(tm__gen *g);     /* grid.c */
tm_err tm__gen_hypercube(tm__gen *g); /* grid.c */
tm_err tm__gen_fattree(tm__gen *g);  /* fattree.c */
tm_err tm__gen_clos2(tm__gen *g);    /* clos.c */
tm_err tm__gen_clos3(tm__gen *g);    /* clos.c */
tm_err tm__gen_percs(tm__gen *g);    /* percs.c */
tm_err tm__gen_dragonfly(tm__gen *g); /* dragonfly.c */

#endif
