/* graphml_int.h - what the GraphML validation pass (graphml_check.c)
 * hands to the igraph-based reader (graphml_read.c).  Not installed. */
#ifndef TM_GRAPHML_INT_H
#define TM_GRAPHML_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <libxml/tree.h>

#include "topomap/error.h"
#include "../util/util.h"

#define TM_GRAPHML_NS "http://graphml.graphdrawing.org/xmlns"

/* The attributes topomap understands, their GraphML domain and type. */
enum { GA_NAME, GA_KIND, GA_SLOTS, GA_TRANSIT, GA_GUID, GA_DESC, GA_CAPACITY, GA_ENABLED, GA_COUNT };
enum { TM_GML_NODE = 1, TM_GML_EDGE = 2 };
/* attr.type classes; NONE = attribute missing (igraph ignores the key) */
enum { TM_GML_STRING, TM_GML_NUMBER, TM_GML_BOOL, TM_GML_NONE, TM_GML_OTHER };
typedef struct tm__gml_attr {
    const char *name;
    unsigned dom;
    int type;
} tm__gml_attr;
extern const tm__gml_attr tm__gml_known[GA_COUNT];

/* One <node> or <edge> of the document, in document order (which is the
 * vertex / edge order igraph produces). */
typedef struct tm__gml_node {
    long line;
    char *id;         /* owned (xmlFree) */
    bool has_transit; /* transit given by data or by a key default */
    uint64_t guid;    /* 0 = none */
} tm__gml_node;
typedef struct tm__gml_edge {
    long line;
    int32_t src, dst; /* indexes into nodes */
    bool has_enabled;
} tm__gml_edge;

typedef struct tm__gml_doc {
    tm__gml_node *nodes;
    int32_t n_nodes;
    tm__gml_edge *edges;
    int32_t n_edges;
} tm__gml_doc;

/* ---- state of the validation pass (graphml_check.c, graphml_keys.c) ---- */

struct tm__gml_key {
    const xmlNode *elem;
    unsigned dom;
    int type;      /* TM_GML_* type class */
    int attr;      /* GA_* or -1 */
    char *def;     /* trimmed <default> text or NULL */
    int64_t stamp; /* last element that used this key (duplicate data check) */
};

struct tm__gml_checker {
    tm_ctx *ctx;
    const char *name;
    struct tm__gml_key *keys;
    size_t n_keys, keys_cap;
    tm__strmap key_ids;
    tm__strmap attr_names; /* "domain:attr.name" of every typed key */
    int key_of[GA_COUNT][2]; /* [attr][node 0 / edge 1]: key index or -1 */
    tm__strmap node_ids;
    tm__strmap names;
    size_t nodes_cap, edges_cap;
    int64_t stamp;
};

/* "0x" and 1..16 hex digits: 0 and *out (if out), else -1. */
int tm__gml_parse_guid(const char *s, uint64_t *out);
/* Checks one <key> and appends it to c->keys. */
tm_err tm__gml_check_key(struct tm__gml_checker *c, const xmlNode *k);
/* Checks value v (trimmed) of topomap attribute a (GA_*) given at `at`. */
tm_err tm__gml_check_value(struct tm__gml_checker *c, const xmlNode *at, int a, const char *v);
/* Checks value v of a key topomap does not use, of type class `type`. */
tm_err tm__gml_check_other(struct tm__gml_checker *c, const xmlNode *at, int type,
                           const char *id, const char *v);

/* Validates a parsed GraphML document (see docs/graphml.md for the rules);
 * errors are "name:line: what".  On success fills out (release with
 * tm__gml_doc_release; it does not refer into doc, which may be freed
 * before igraph reads the bytes). */
tm_err tm__gml_check(tm_ctx *ctx, xmlDocPtr doc, const char *name, tm__gml_doc *out);
void tm__gml_doc_release(tm__gml_doc *d);

#endif
