/*
 * topomap/comm.h - the communication graph G of an application.
 *
 * Tasks 0..n-1.  Every directed adjacency entry (u -> v, w) is a message of
 * volume w from u to v (docs/design.md "Communication graph").  In memory G is a
 * plain CSR: for task u, entries xadj[u]..xadj[u+1]-1 of adj/w, sorted by
 * target, without duplicates, without self-loops (intra-task traffic is
 * ignored) and with w > 0 and finite.  tm_comm_check() verifies this.
 */
#ifndef TOPOMAP_COMM_H
#define TOPOMAP_COMM_H

#include <stdint.h>
#include <stdio.h>

#include "topomap/error.h"
#include "topomap/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tm_comm {
    int32_t n;       /* tasks */
    int64_t nnz;     /* directed entries */
    int64_t *xadj;   /* n+1 */
    int32_t *adj;    /* nnz targets */
    double *w;       /* nnz volumes */
    double *vwgt;    /* n task weights (METIS vertex weights) or NULL = all 1 */
} tm_comm;

typedef enum {
    TM_COMM_AUTO = 0,   /* by file extension, then by content */
    TM_COMM_METIS,      /* METIS graph format, all fmt variants; .graph .metis */
    TM_COMM_MTX,        /* Matrix Market coordinate; .mtx */
    TM_COMM_EDGES,      /* "src dst volume" per line (0-based); .edges .el .txt */
    TM_COMM_DENSE,      /* N x N matrix, comma or whitespace separated; .csv .mat */
    TM_COMM_GRAPHSTATS, /* "i , j = w" lines (undirected pairs) as in graphStats.txt */
    TM_COMM_MPIP,       /* mpiP report with a communication-matrix block; .mpiP */
    TM_COMM_SCOTCH      /* Scotch source graph; .grf .src */
} tm_comm_format;

/* Largest volume (or task weight) one entry may have, and largest sum of
 * all volumes of a graph.  Bounded so that every figure built from them
 * stays finite: J <= TM_COMM_MAX_VOLUME * TM_HIER_MAX_DISTANCE * hops, and
 * congestion <= TM_COMM_MAX_VOLUME / TM_NET_MIN_CAPACITY. */
#define TM_COMM_MAX_VOLUME 1e30

/* An empty graph (n = 0, no arrays); release frees the arrays and leaves
 * it empty again (NULL is allowed). */
TM_API void tm_comm_init(tm_comm *c);
TM_API void tm_comm_release(tm_comm *c);

/* Builds a valid CSR from a list of m directed entries: diagonal entries
 * and zero volumes are dropped, duplicates summed, entries sorted.
 * Negative or non-finite volumes, a volume or a sum of all volumes over
 * TM_COMM_MAX_VOLUME and ids outside [0, n) are TM_EINPUT. */
TM_API tm_err tm_comm_from_entries(tm_ctx *ctx, int32_t n, int64_t m, const int32_t *src,
                                   const int32_t *dst, const double *w, tm_comm *out);
/* Verifies the invariants above (TM_EINPUT with the offending entry). */
TM_API tm_err tm_comm_check(tm_ctx *ctx, const tm_comm *c);
/* Sum of all directed volumes. */
TM_API double tm_comm_total_volume(const tm_comm *c);
/* Undirected view: w'(u,v) = w(u,v) + w(v,u), both directions present
 * (what METIS and symmetric algorithms need). */
TM_API tm_err tm_comm_symmetrize(tm_ctx *ctx, const tm_comm *c, tm_comm *out);
TM_API tm_err tm_comm_copy(tm_ctx *ctx, const tm_comm *c, tm_comm *out);

/* Readers.  `name` is the display name used in "name:line: ..." errors.
 * On error *out is left released (empty). */
TM_API tm_err tm_comm_read(tm_ctx *ctx, FILE *in, const char *name, tm_comm_format fmt,
                           tm_comm *out);
TM_API tm_err tm_comm_read_file(tm_ctx *ctx, const char *path, tm_comm_format fmt, tm_comm *out);
TM_API tm_err tm_comm_read_metis(tm_ctx *ctx, FILE *in, const char *name, tm_comm *out);
TM_API tm_err tm_comm_read_mtx(tm_ctx *ctx, FILE *in, const char *name, tm_comm *out);
TM_API tm_err tm_comm_read_edges(tm_ctx *ctx, FILE *in, const char *name, tm_comm *out);
TM_API tm_err tm_comm_read_dense(tm_ctx *ctx, FILE *in, const char *name, tm_comm *out);
TM_API tm_err tm_comm_read_graphstats(tm_ctx *ctx, FILE *in, const char *name, tm_comm *out);
TM_API tm_err tm_comm_read_mpip(tm_ctx *ctx, FILE *in, const char *name, tm_comm *out);
TM_API tm_err tm_comm_read_scotch(tm_ctx *ctx, FILE *in, const char *name, tm_comm *out);
/* Parses a format name ("metis", "mtx", "edges", "dense", "graphstats",
 * "mpip", "scotch", "auto"); -1 if unknown. */
TM_API int tm_comm_format_parse(const char *s);

/* Writes G in METIS format (undirected: requires a symmetric graph; volumes
 * rounded to integers >= 1) or as an edge list "u v w" of directed entries. */
TM_API tm_err tm_comm_write_metis(tm_ctx *ctx, const tm_comm *c, FILE *out);
TM_API tm_err tm_comm_write_edges(tm_ctx *ctx, const tm_comm *c, FILE *out);

/* A job's communication as phases (docs/time.md "Phases"): distinct
 * communication matrices, each exchanged `repeat` times one after the
 * other (e.g. the four all-to-alls of a transpose FFT, or one halo
 * exchange repeated every iteration).  The whole matrix of the job is the
 * sum over phases of repeat x phase.  Every phase has the same n_tasks. */
typedef struct tm_comm_phases {
    int32_t n_tasks;  /* tasks of every phase */
    int32_t n_phases; /* distinct phases */
    tm_comm *phase;   /* n_phases graphs, volumes in bytes of one run of the phase */
    int64_t *repeat;  /* n_phases: how often each phase runs (>= 1) */
} tm_comm_phases;
/* Largest repeat count of one phase. */
#define TM_COMM_PHASE_MAX_REPEAT INT64_C(1000000000000000)
/* Empty (no phases); release frees the phases and leaves it empty again
 * (NULL is allowed). */
TM_API void tm_comm_phases_init(tm_comm_phases *p);
TM_API void tm_comm_phases_release(tm_comm_phases *p);
/* Reads the phases format (docs/formats.md "Phases": a "%%TopomapPhases 1"
 * banner, "tasks phases", then per phase "phase REPEAT ENTRIES" and its
 * 1-based "i j bytes" lines), as written by the recorder next to
 * TOPOMAP_RECORD's FILE (FILE.phases).  Errors are "name:line: ..."
 * (TM_EINPUT); on error *out is left empty. */
TM_API tm_err tm_comm_phases_read(tm_ctx *ctx, FILE *in, const char *name, tm_comm_phases *out);
TM_API tm_err tm_comm_phases_read_file(tm_ctx *ctx, const char *path, tm_comm_phases *out);
/* Writes the phases in that format (each phase's entries in CSR order). */
TM_API tm_err tm_comm_phases_write(tm_ctx *ctx, const tm_comm_phases *p, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
