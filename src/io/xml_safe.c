/*
 * xml_safe.c - hardened libxml2 parsing shared by every XML reader.
 *
 * libxml2 2.9 expands nothing external without XML_PARSE_NOENT / DTDLOAD,
 * refuses entity loops and caps text nodes unless XML_PARSE_HUGE is given;
 * on top of that we read through a bounded buffer (no file or URL access by
 * libxml2 at all), forbid the network, reject documents that declare
 * entities (no legitimate topology, GraphML or hwloc file does; hwloc's
 * DOCTYPE without an internal subset is fine) and bound the nesting depth.
 * XML_PARSE_NOERROR/NOWARNING silence libxml2's default printing; the
 * parser context's last error becomes the "name:line: message" in ctx.
 */
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#include "xml_int.h"
#include "../util/util.h"

struct err_sink {
    tm_ctx *ctx;
    const char *name;
    bool failed;
};

static void record_error(struct err_sink *s, xmlErrorPtr e)
{
    char msg[512];
    size_t n;
    if (s->failed || !e || e->level < XML_ERR_ERROR)
        return;
    snprintf(msg, sizeof msg, "%s", e->message ? e->message : "XML error");
    n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r'))
        msg[--n] = '\0';
    tm__fail(s->ctx, TM_EINPUT, "%s:%d: %s", s->name, e->line, msg);
    s->failed = true;
}

static int max_depth(xmlNodePtr n, int depth)
{
    int best = depth;
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (depth + 1 > TM_XML_MAX_DEPTH)
            return depth + 1;
        int d = max_depth(c, depth + 1);
        if (d > best)
            best = d;
        if (best > TM_XML_MAX_DEPTH)
            break;
    }
    return best;
}

tm_err tm__xml_parse_mem(tm_ctx *ctx, const char *buf, size_t len, const char *name,
                         xmlDocPtr *out)
{
    struct err_sink sink = {ctx, name, false};
    xmlParserCtxtPtr pc = NULL;
    xmlDocPtr doc = NULL;
    tm_err err = TM_EOK;

    *out = NULL;
    if (len > TM_XML_MAX_BYTES)
        return tm__fail(ctx, TM_EINPUT, "%s: XML file larger than %u bytes", name, TM_XML_MAX_BYTES);
    if (len > INT32_MAX)
        return tm__fail(ctx, TM_EINPUT, "%s: XML file too large", name);
    pc = xmlNewParserCtxt();
    if (!pc)
        return tm__nomem(ctx);
    /* The structured handler is per parser context (no global state). */
    doc = xmlCtxtReadMemory(pc, buf, (int)len, name, NULL,
                            XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                                XML_PARSE_NOCDATA);
    if (!doc || !pc->wellFormed || sink.failed) {
        if (!sink.failed) {
            xmlErrorPtr e = xmlCtxtGetLastError(pc);
            if (e)
                record_error(&sink, e);
            else
                tm__fail(ctx, TM_EINPUT, "%s: not well-formed XML", name);
        }
        err = TM_EINPUT;
        goto out;
    }
    if (doc->intSubset && (doc->intSubset->entities || doc->intSubset->pentities)) {
        err = tm__fail(ctx, TM_EINPUT, "%s: DOCTYPE with entity declarations is not accepted",
                       name);
        goto out;
    }
    if (!xmlDocGetRootElement(doc)) {
        err = tm__fail(ctx, TM_EINPUT, "%s: empty XML document", name);
        goto out;
    }
    if (max_depth(xmlDocGetRootElement(doc), 1) > TM_XML_MAX_DEPTH) {
        err = tm__fail(ctx, TM_EINPUT, "%s: elements nested deeper than %d", name, TM_XML_MAX_DEPTH);
        goto out;
    }
out:
    if (err && doc) {
        xmlFreeDoc(doc);
        doc = NULL;
    }
    xmlFreeParserCtxt(pc);
    *out = doc;
    return err;
}

tm_err tm__xml_parse(tm_ctx *ctx, FILE *in, const char *name, xmlDocPtr *out)
{
    char *buf = NULL;
    size_t len = 0;
    tm_err err;
    *out = NULL;
    err = tm__read_all(ctx, in, name, TM_XML_MAX_BYTES, &buf, &len);
    if (err)
        return err;
    err = tm__xml_parse_mem(ctx, buf, len, name, out);
    free(buf);
    return err;
}
