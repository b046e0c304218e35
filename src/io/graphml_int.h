/* graphml_int.h - what the GraphML validation pass (graphml_check.c)
 * hands to the igraph-based reader (graphml_read.c).  Not installed. */
#ifndef TM_GRAPHML_INT_H
#define TM_GRAPHML_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <libxml/tree.h>

#include "topomap/error.h"

/* The attributes topomap understands, their GraphML domain and type. */
enum { GA_NAME, GA_KIND, GA_SLOTS, GA_TRANSIT, GA_CAPACITY, GA_ENABLED, GA_COUNT };

/* One <node> or <edge> of the document, in document order (which is the
 * vertex / edge order igraph produces). */
typedef struct tm_gml_node {
    long line;
    char *id;         /* owned (xmlFree) */
    bool has_transit; /* transit given by data or by a key default */
} tm_gml_node;
typedef struct tm_gml_edge {
    long line;
    int32_t src, dst; /* indexes into nodes */
    bool has_enabled;
} tm_gml_edge;

typedef struct tm_gml_doc {
    tm_gml_node *nodes;
    int32_t n_nodes;
    tm_gml_edge *edges;
    int32_t n_edges;
} tm_gml_doc;

/* Validates a parsed GraphML document (see docs/graphml.md for the rules);
 * errors are "name:line: what".  On success fills out (release with
 * tm__gml_doc_release; it does not refer into doc, which may be freed
 * before igraph reads the bytes). */
tm_err tm__gml_check(tm_ctx *ctx, xmlDocPtr doc, const char *name, tm_gml_doc *out);
void tm__gml_doc_release(tm_gml_doc *d);

#endif
