/* xml_int.h - the one safe way the library parses XML (GraphML checks, the
 * XML topology spec, hwloc exports), plus small value parsers the XML
 * readers share so GraphML and the XML spec accept exactly the same
 * names, numbers and booleans.  Not installed. */
#ifndef TM_XML_INT_H
#define TM_XML_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "topomap/error.h"

/* Largest XML input accepted (bytes); larger files are TM_EINPUT. */
#define TM_XML_MAX_BYTES (256u * 1024u * 1024u)
/* Deepest element nesting accepted. */
#define TM_XML_MAX_DEPTH 256
/* Longest vertex name accepted (bytes). */
#define TM_XML_MAX_NAME 1024
/* Largest slot count accepted on one host. */
#define TM_XML_MAX_SLOTS 1000000

/* Reads the whole stream (bounded by TM_XML_MAX_BYTES) and parses it with
 * no network access, no external entity or DTD loading, no entity
 * substitution; documents with a DOCTYPE that declares entities, that
 * reference undeclared entities, or that nest deeper than
 * TM_XML_MAX_DEPTH are rejected.  Errors are "name:line: message"
 * (TM_EINPUT), the first error libxml2 reports.  Free the result with
 * xmlFreeDoc(). */
tm_err tm__xml_parse(tm_ctx *ctx, FILE *in, const char *name, xmlDocPtr *out);
/* Same on a buffer already in memory. */
tm_err tm__xml_parse_mem(tm_ctx *ctx, const char *buf, size_t len, const char *name,
                         xmlDocPtr *out);

/* libxml2 reports some errors (input encoding conversion, I/O) through
 * its per-thread global handlers, which print on stderr by default.
 * Between begin and end, such errors go to `fn(data, error)` (NULL: they
 * are dropped); end restores the thread's previous handlers.  Used around
 * every libxml2 parse, including igraph's. */
typedef struct tm__xml_quiet {
    xmlStructuredErrorFunc old_serror;
    void *old_sctx;
    xmlGenericErrorFunc old_generic;
    void *old_gctx;
} tm__xml_quiet;
void tm__xml_quiet_begin(tm__xml_quiet *q, xmlStructuredErrorFunc fn, void *data);
void tm__xml_quiet_end(tm__xml_quiet *q);

/* Around a whole XML reader.  libxml2 reports a failed allocation through
 * those handlers, also in xmlGetProp or xmlNodeGetContent, which then just
 * return NULL as for a missing attribute: our code would call the input
 * malformed.  The guard notes such a report (and keeps it off stderr);
 * tm__xml_guard_end then turns the read's result, even a success, into
 * TM_ENOMEM "name: out of memory (libxml2)", else returns err unchanged
 * (callers free a partly filled output on error anyway). */
typedef struct tm__xml_guard {
    tm__xml_quiet quiet;
    bool nomem;
} tm__xml_guard;
void tm__xml_guard_begin(tm__xml_guard *g);
tm_err tm__xml_guard_end(tm__xml_guard *g, tm_ctx *ctx, const char *name, tm_err err);

/* Source line of an element (exact beyond 65535 too) or of the first
 * non-blank character of a text node. */
long tm__xml_line(const xmlNode *n);
/* Records "name:line: <fmt>" (line of node n, 1 if n is NULL) as a
 * TM_EINPUT error and returns TM_EINPUT. */
tm_err tm__xml_error(tm_ctx *ctx, const char *name, const xmlNode *n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* NULL if s is an acceptable vertex name, else what is wrong with it
 * ("is empty", "contains a control character", ...).  Host names must not
 * contain spaces (they end up in rankfiles and hostfiles); switch names
 * may (InfiniBand switch descriptions often do). */
const char *tm__xml_name_problem(const char *s, bool host);
/* malloc'ed copy of s without leading/trailing XML whitespace; NULL if s
 * is NULL or on allocation failure. */
char *tm__xml_trimmed(const xmlChar *s);
/* "true"/"false" (any case), "1"/"0": 1 or 0; anything else -1. */
int tm__xml_parse_bool(const char *s);
/* Plain decimal number > 0 (no hex, inf, nan): 0, else -1. */
int tm__xml_parse_capacity(const char *s, double *out);
/* Integer-valued decimal ("4", "4.0"): 0; -1 not an integer; -2 negative;
 * -3 larger than TM_XML_MAX_SLOTS. */
int tm__xml_parse_slots(const char *s, int32_t *out);

#endif
