/*
 * topomap/alloc.h - the job's allocation: which hosts, in which order, with
 * how many slots.  The order defines the consecutive (batch-system)
 * placement.
 */
#ifndef TOPOMAP_ALLOC_H
#define TOPOMAP_ALLOC_H

#include <stdint.h>
#include <stdio.h>

#include "topomap/error.h"
#include "topomap/export.h"
#include "topomap/net.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tm_alloc {
    int32_t n;       /* allocated hosts */
    int32_t *host;   /* net vertex ids, in allocation order, distinct */
    int32_t *slots;  /* slots usable on each */
} tm_alloc;

/* An empty allocation; release frees its arrays and leaves it empty again
 * (NULL is allowed); total_slots is the sum of slots[] over the hosts. */
TM_API void tm_alloc_init(tm_alloc *a);
TM_API void tm_alloc_release(tm_alloc *a);
TM_API int64_t tm_alloc_total_slots(const tm_alloc *a);

/* Expands a Slurm-style hostlist ("node[001-004,010],gpu[1-2]") into names
 * (padding follows the lower bound, brackets form a product, duplicates are
 * kept).  *names is an array of *count malloc'ed strings; free with
 * tm_hostlist_free.  `name` is the display name for errors. */
TM_API tm_err tm_hostlist_expand(tm_ctx *ctx, const char *expr, const char *name, char ***names,
                                 size_t *count);
TM_API void tm_hostlist_free(char **names, size_t count);
/* The inverse: count names as one hostlist expression in Slurm's compressed
 * form ("sl390lin[1-5,7-11],node[001-004],login"), sorted and without
 * duplicates as `scontrol show hostlistsorted` prints it (rules in
 * src/alloc/hostlist_compress.c).  *out is malloc'ed ("" for no names).
 * A name that is empty or contains brackets, commas or blanks is
 * TM_EINPUT. */
TM_API tm_err tm_hostlist_compress(tm_ctx *ctx, const char *const *names, size_t count, char **out);

/* Resolves a host name against the net: exact match first, then the short
 * name (up to the first '.') of either side.  -1 if not found. */
TM_API int32_t tm_alloc_resolve_host(const tm_net *net, const char *name);

/* All hosts of the net in vertex order with their slots. */
TM_API tm_err tm_alloc_all(tm_ctx *ctx, const tm_net *net, tm_alloc *out);
/* From a hostlist expression; unknown or non-host names and duplicates are
 * TM_EINPUT. */
TM_API tm_err tm_alloc_from_hostlist(tm_ctx *ctx, const tm_net *net, const char *expr,
                                     tm_alloc *out);
/* From a hostfile: "host [slots=N] [max_slots=M]" per line, '#' comments;
 * a host listed twice adds its slots (Open MPI semantics).  Without slots=
 * the host's slot count in the net is used. */
TM_API tm_err tm_alloc_read_hostfile(tm_ctx *ctx, const tm_net *net, FILE *in, const char *name,
                                     tm_alloc *out);
/* The CLI's --alloc argument: an existing file is a hostfile, anything
 * else a hostlist expression; NULL means all hosts. */
TM_API tm_err tm_alloc_parse(tm_ctx *ctx, const tm_net *net, const char *arg, tm_alloc *out);

#ifdef __cplusplus
}
#endif
#endif
