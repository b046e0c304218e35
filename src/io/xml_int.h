/* xml_int.h - the one safe way the library parses XML (GraphML checks, the
 * XML topology spec, hwloc exports).  Not installed. */
#ifndef TM_XML_INT_H
#define TM_XML_INT_H

#include <stdio.h>
#include <libxml/tree.h>

#include "topomap/error.h"

/* Largest XML input accepted (bytes); larger files are TM_EINPUT. */
#define TM_XML_MAX_BYTES (256u * 1024u * 1024u)
/* Deepest element nesting accepted. */
#define TM_XML_MAX_DEPTH 256

/* Reads the whole stream (bounded by TM_XML_MAX_BYTES) and parses it with
 * no network access, no external entity or DTD loading, no entity
 * substitution; documents with a DOCTYPE that declares entities, or deeper
 * than TM_XML_MAX_DEPTH, are rejected.  Errors are "name:line: message"
 * (TM_EINPUT).  Free the result with xmlFreeDoc(). */
tm_err tm__xml_parse(tm_ctx *ctx, FILE *in, const char *name, xmlDocPtr *out);
/* Same on a buffer already in memory. */
tm_err tm__xml_parse_mem(tm_ctx *ctx, const char *buf, size_t len, const char *name,
                         xmlDocPtr *out);

#endif
