/*
 * topomap/io.h - topology readers and writers, and atomic output files.
 *
 * Readers fill an existing, not yet finalized tm_net (so an XML spec can
 * combine several sources); tm_topology_load() does the whole job for the
 * CLI: detect the input kind, read or generate, finalize, check.
 */
#ifndef TOPOMAP_IO_H
#define TOPOMAP_IO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "topomap/error.h"
#include "topomap/export.h"
#include "topomap/net.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tm_topo_opts {
    const char *node_name_map;  /* ibnetdiscover: GUID -> hostname map file, or NULL */
    bool keep_hcas_separate;    /* ibnetdiscover: one host vertex per HCA */
    int32_t slots;              /* > 0: slots of every host (overrides files); 0 = keep */
} tm_topo_opts;
#define TM_TOPO_OPTS_INIT {NULL, false, 0}

/* Loads `spec`: a generator spec ("torus:8x8x8", see gen.h) or a file
 * (.graphml; .xml topology spec; anything else is read as an ibnetdiscover
 * dump, plain or -p format).  The result is finalized and checked. */
TM_API tm_err tm_topology_load(tm_ctx *ctx, const char *spec, const tm_topo_opts *opts,
                               tm_net **out);

/* ---- ibnetdiscover -------------------------------------------------------- */

/* GUID -> name map in ibnetdiscover's --node-name-map format:
 * "0x<guid> \"name\"" per line, '#' comments. */
typedef struct tm_nodemap tm_nodemap;
TM_API tm_err tm_nodemap_read(tm_ctx *ctx, FILE *in, const char *name, tm_nodemap **out);
TM_API void tm_nodemap_free(tm_nodemap *m);
/* Name for a GUID, or NULL. */
TM_API const char *tm_nodemap_get(const tm_nodemap *m, uint64_t guid);

typedef struct tm_ibnet_opts {
    const tm_nodemap *nodemap;  /* optional */
    bool keep_hcas_separate;
    int32_t slots;              /* slots per host (default 1 when 0) */
} tm_ibnet_opts;
#define TM_IBNET_OPTS_INIT {NULL, false, 0}

/* Reads an ibnetdiscover dump (default topology format, -g grouping, or the
 * -p ports report; detected by content) into net. */
TM_API tm_err tm_ibnet_read(tm_ctx *ctx, FILE *in, const char *name, const tm_ibnet_opts *opts,
                            tm_net *net);
/* Writes net as an ibnetdiscover topology dump that tm_ibnet_read (and
 * ibsim) read back: switches, then CAs; capacities as width x speed. */
TM_API tm_err tm_ibnet_write(tm_ctx *ctx, const tm_net *net, FILE *out);

/* ---- GraphML, XML spec, DOT ----------------------------------------------- */

/* GraphML with node attributes name, kind (host|switch), slots, transit
 * and edge attribute capacity.  Reads through igraph (main thread only). */
TM_API tm_err tm_graphml_read(tm_ctx *ctx, FILE *in, const char *name, tm_net *net);
/* link_load (n_links entries) may be NULL; if given, edges carry load and
 * congestion of both directions. */
TM_API tm_err tm_graphml_write(tm_ctx *ctx, const tm_net *net, const double *link_load, FILE *out);
/* topomap XML topology spec (schema in docs/xml-spec.md). */
TM_API tm_err tm_xmlspec_read(tm_ctx *ctx, FILE *in, const char *name, tm_net *net);
TM_API tm_err tm_dot_write(tm_ctx *ctx, const tm_net *net, const double *link_load, FILE *out);
/* The loads of a mapping as CSV, for plotting: the header
 * "from,to,capacity,load,congestion", then one line per directed link of
 * the CSR snapshot with a load > 0, in link order: the names of its ends,
 * its capacity, its load and load / capacity (%.17g, C locale; names as
 * they are).  link_load: the n_links loads of tm_metrics (docs/metrics.md);
 * the net must be finalized.  GraphML and DOT (above) draw the same loads
 * on the whole network. */
TM_API tm_err tm_loads_csv_write(tm_ctx *ctx, const tm_net *net, const double *link_load,
                                 FILE *out);

/* Opens path for reading; TM_EIO "path: cannot open: reason" or "path: is
 * a directory" otherwise. */
TM_API tm_err tm_open_input(tm_ctx *ctx, const char *path, FILE **out);

/* ---- atomic output files -------------------------------------------------
 * Every file topomap writes goes through this: data goes to a temporary
 * file in the target's directory; commit fsyncs and renames it over the
 * target, abort removes it.  A failed run never leaves a partial file and
 * never touches an existing target.  Path "-" writes to stdout. */
typedef struct tm_ofile {
    FILE *fp;
    char *path;
    char *tmp;
    bool is_stdout;
} tm_ofile;
/* open creates the temporary file (TM_EIO naming the path if it cannot);
 * write to of->fp, then commit (TM_EIO on a write, fsync or rename
 * failure, the temporary removed) or abort.  Both leave *of empty. */
TM_API tm_err tm_ofile_open(tm_ctx *ctx, const char *path, tm_ofile *of);
TM_API tm_err tm_ofile_commit(tm_ctx *ctx, tm_ofile *of);
TM_API void tm_ofile_abort(tm_ofile *of);

#ifdef __cplusplus
}
#endif
#endif
