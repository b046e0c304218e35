/*
 * xml_safe.c - hardened libxml2 parsing shared by every XML reader.
 *
 * libxml2 2.9 expands nothing external without XML_PARSE_NOENT / DTDLOAD,
 * refuses entity loops and caps text nodes unless XML_PARSE_HUGE is given;
 * on top of that we read through a bounded buffer (no file or URL access by
 * libxml2 at all), forbid the network, reject documents that declare
 * entities or reference undefined ones (no legitimate topology, GraphML or
 * hwloc file does; hwloc's DOCTYPE without an internal subset is fine, its
 * external DTD is never loaded) and bound the nesting depth.
 *
 * Errors: a structured error handler installed on the parser context keeps
 * the FIRST error, which names the real cause (the last one is often a
 * follow-up such as "Premature end of data").  Installing it also stops
 * libxml2's default printing to stderr, as do XML_PARSE_NOERROR/NOWARNING;
 * encoding and I/O errors bypass the context, so the thread's global
 * handlers point to the same sink during the parse and are restored after
 * (tm__xml_quiet_begin/end; libxml2 keeps them per thread).  XML_PARSE_BIG_LINES makes line numbers
 * beyond 65535 exact (libxml2 otherwise saturates them).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#include "topomap/net.h"
#include "xml_int.h"
#include "../util/util.h"

struct err_sink {
    tm_ctx *ctx;
    const char *name;
    bool failed;
    tm_err err; /* TM_EINPUT, or TM_ENOMEM when libxml2 ran out of memory */
};

static void record_error(struct err_sink *s, const xmlError *e, int line)
{
    char msg[512];
    size_t n;
    if (s->failed || !e || e->level < XML_ERR_ERROR)
        return;
    if (e->code == XML_ERR_NO_MEMORY) {
        /* not the input's fault: the parse failed for memory */
        s->err = tm__fail(s->ctx, TM_ENOMEM, "%s: out of memory (libxml2)", s->name);
        s->failed = true;
        return;
    }
    if (e->message && !strncmp(e->message, "Excessive depth in document", 27))
        snprintf(msg, sizeof msg, "elements nested deeper than %d", TM_XML_MAX_DEPTH);
    else
        snprintf(msg, sizeof msg, "%s", e->message ? e->message : "XML error");
    msg[strcspn(msg, "\n")] = '\0'; /* some messages add a "Bytes: 0x.." line */
    n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r' || msg[n - 1] == ' '))
        msg[--n] = '\0';
    if (e->line > 0)
        line = e->line;
    tm__fail(s->ctx, TM_EINPUT, "%s:%d: %s", s->name, line > 0 ? line : 1, msg);
    s->failed = true;
}

/* Structured handler of our parser context: data is the context (libxml2
 * passes ctxt->userData, which defaults to the context itself). */
static void on_error(void *data, xmlErrorPtr e)
{
    xmlParserCtxtPtr pc = data;
    /* encoding errors come without a line: use the parser's position */
    if (pc && pc->_private)
        record_error(pc->_private, e, pc->input ? pc->input->line : 1);
}

/* libxml2 2.9 keeps an element's line in 16 bits; XML_PARSE_BIG_LINES only
 * helps text nodes, and xmlGetLineNo() then guesses an element's line from
 * a neighbour (one off after line 65534).  So the start-element callback
 * of our own parser context also stores the exact line in the element's
 * psvi field, which only XML Schema validation (never used here) would
 * touch; tm__xml_line() reads it back. */
static void start_element(void *data, const xmlChar *localname, const xmlChar *prefix,
                          const xmlChar *uri, int nb_ns, const xmlChar **ns, int nb_attrs,
                          int nb_defaulted, const xmlChar **attrs)
{
    xmlParserCtxtPtr pc = data;
    xmlSAX2StartElementNs(data, localname, prefix, uri, nb_ns, ns, nb_attrs, nb_defaulted, attrs);
    if (pc->node && pc->input && pc->input->line >= 65535)
        pc->node->psvi = (void *)(intptr_t)pc->input->line;
}

static void drop_error(void *data, xmlErrorPtr e)
{
    (void)data;
    (void)e;
}

static void drop_generic(void *data, const char *msg, ...)
{
    (void)data;
    (void)msg;
}

void tm__xml_quiet_begin(tm__xml_quiet *q, xmlStructuredErrorFunc fn, void *data)
{
    q->old_serror = xmlStructuredError;
    q->old_sctx = xmlStructuredErrorContext;
    q->old_generic = xmlGenericError;
    q->old_gctx = xmlGenericErrorContext;
    xmlSetStructuredErrorFunc(data, fn ? fn : drop_error);
    xmlSetGenericErrorFunc(NULL, drop_generic);
}

void tm__xml_quiet_end(tm__xml_quiet *q)
{
    xmlSetStructuredErrorFunc(q->old_sctx, q->old_serror);
    /* xmlSetGenericErrorFunc(NULL, NULL) would install the default
     * stderr printer, so restore the exact previous pair. */
    xmlGenericError = q->old_generic;
    xmlGenericErrorContext = q->old_gctx;
}

static void note_nomem(void *data, xmlErrorPtr e)
{
    if (e && e->code == XML_ERR_NO_MEMORY)
        *(bool *)data = true;
}

void tm__xml_guard_begin(tm__xml_guard *g)
{
    g->nomem = false;
    xmlResetLastError();
    tm__xml_quiet_begin(&g->quiet, note_nomem, &g->nomem);
}

tm_err tm__xml_guard_end(tm__xml_guard *g, tm_ctx *ctx, const char *name, tm_err err)
{
    const xmlError *last = xmlGetLastError();
    tm__xml_quiet_end(&g->quiet);
    /* Reports raised on a parser context go to its SAX error callback
     * (igraph's parser) instead of our handler; libxml2 still keeps the
     * thread's last error. */
    if (last && last->code == XML_ERR_NO_MEMORY)
        g->nomem = true;
    /* Also a success: a NULL from xmlNodeGetContent may have been read as
     * an empty text, so the result cannot be trusted.  An error already
     * TM_ENOMEM keeps its message. */
    if (g->nomem && err != TM_ENOMEM)
        err = tm__fail(ctx, TM_ENOMEM, "%s: out of memory (libxml2)", name);
    return err;
}

/* 1-based line of the byte offset off in buf. */
static long line_at(const char *buf, size_t off)
{
    long line = 1;
    for (size_t i = 0; i < off; i++)
        if (buf[i] == '\n')
            line++;
    return line;
}

/* Walks the element tree iteratively-bounded: rejects nesting deeper than
 * TM_XML_MAX_DEPTH and any entity reference node (an entity that was not
 * declared, e.g. one that would live in an external DTD we never load). */
static tm_err check_tree(tm_ctx *ctx, const char *name, xmlNodePtr n, int depth)
{
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (c->type == XML_ENTITY_REF_NODE)
            return tm__fail(ctx, TM_EINPUT, "%s:%ld: entity reference '&%s;' is not allowed",
                            name, tm__xml_line(n), (const char *)c->name);
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (depth + 1 > TM_XML_MAX_DEPTH)
            return tm__fail(ctx, TM_EINPUT, "%s:%ld: elements nested deeper than %d", name,
                            tm__xml_line(c), TM_XML_MAX_DEPTH);
        tm_err err = check_tree(ctx, name, c, depth + 1);
        if (err)
            return err;
    }
    return TM_EOK;
}

tm_err tm__xml_parse_mem(tm_ctx *ctx, const char *buf, size_t len, const char *name,
                         xmlDocPtr *out)
{
    struct err_sink sink = {ctx, name, false, TM_EINPUT};
    tm__xml_quiet quiet;
    xmlParserCtxtPtr pc = NULL;
    xmlDocPtr doc = NULL;
    tm_err err = TM_EOK;

    *out = NULL;
    if (len > TM_XML_MAX_BYTES)
        return tm__fail(ctx, TM_EINPUT, "%s: XML file larger than %u bytes", name,
                        TM_XML_MAX_BYTES);
    if (len == 0)
        return tm__fail(ctx, TM_EINPUT, "%s:1: empty file", name);
    /* libxml2 would stop at a NUL and report "Premature end of data". */
    const char *nul = memchr(buf, '\0', len);
    if (nul)
        return tm__fail(ctx, TM_EINPUT, "%s:%ld: NUL byte in XML input", name,
                        line_at(buf, (size_t)(nul - buf)));
    pc = xmlNewParserCtxt();
    if (!pc)
        return tm__nomem(ctx);
    pc->_private = &sink;
    if (pc->sax) {
        pc->sax->serror = on_error;
        pc->sax->startElementNs = start_element;
    }
    tm__xml_quiet_begin(&quiet, on_error, pc);
    doc = xmlCtxtReadMemory(pc, buf, (int)len, name, NULL,
                            XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                                XML_PARSE_NOCDATA | XML_PARSE_BIG_LINES);
    tm__xml_quiet_end(&quiet);
    if (!doc || !pc->wellFormed || sink.failed) {
        if (!sink.failed) {
            const xmlError *e = xmlCtxtGetLastError(pc);
            if (e && e->level >= XML_ERR_ERROR)
                record_error(&sink, e, 1);
            else
                tm__fail(ctx, TM_EINPUT, "%s:1: not well-formed XML", name);
        }
        err = sink.err;
        goto out;
    }
    if (doc->intSubset && (doc->intSubset->entities || doc->intSubset->pentities)) {
        const char *at = memmem(buf, len, "<!ENTITY", 8);
        err = tm__fail(ctx, TM_EINPUT, "%s:%ld: DOCTYPE with entity declarations is not accepted",
                       name, at ? line_at(buf, (size_t)(at - buf)) : 1L);
        goto out;
    }
    if (!xmlDocGetRootElement(doc)) {
        err = tm__fail(ctx, TM_EINPUT, "%s:1: empty XML document", name);
        goto out;
    }
    err = check_tree(ctx, name, xmlDocGetRootElement(doc), 1);
out:
    if (err && doc) {
        xmlFreeDoc(doc);
        doc = NULL;
    }
    pc->_private = NULL;
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

/* ---- helpers for the readers -------------------------------------------- */

/* libxml2 gives a text node the line where it ends; report the line of
 * its first non-blank character instead. */
static long text_line(const xmlNode *t)
{
    long line = xmlGetLineNo(t);
    const char *p = (const char *)t->content;
    bool seen = false;
    for (; p && *p; p++) {
        if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
            seen = true;
        else if (*p == '\n' && seen)
            line--;
    }
    return line;
}

long tm__xml_line(const xmlNode *n)
{
    if (n->type == XML_ELEMENT_NODE && n->line == 65535 && n->psvi)
        return (long)(intptr_t)n->psvi;
    if (n->type == XML_TEXT_NODE)
        return text_line(n);
    return xmlGetLineNo(n);
}

tm_err tm__xml_error(tm_ctx *ctx, const char *name, const xmlNode *n, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    long line = n ? tm__xml_line(n) : 1;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tm__fail(ctx, TM_EINPUT, "%s:%ld: %s", name, line > 0 ? line : 1, msg);
}

const char *tm__xml_name_problem(const char *s, bool host)
{
    const unsigned char *p = (const unsigned char *)s;
    if (!s || !*s)
        return "is empty";
    if (strlen(s) > TM_XML_MAX_NAME)
        return "is too long";
    if (*p == ' ' || p[strlen(s) - 1] == ' ')
        return "starts or ends with a space";
    for (; *p; p++) {
        if (*p < ' ' || *p == 0x7f)
            return "contains a control character";
        if (*p == ' ' && host)
            return "contains a space (host names go into rankfiles)";
    }
    if (!xmlCheckUTF8((const unsigned char *)s))
        return "is not valid UTF-8";
    return NULL;
}

char *tm__xml_trimmed(const xmlChar *s)
{
    const char *b = (const char *)s, *e;
    if (!b)
        return NULL;
    while (*b == ' ' || *b == '\t' || *b == '\n' || *b == '\r')
        b++;
    e = b + strlen(b);
    while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
        e--;
    return tm__strndup(b, (size_t)(e - b));
}

int tm__xml_parse_bool(const char *s)
{
    if (!strcasecmp(s, "true") || !strcmp(s, "1"))
        return 1;
    if (!strcasecmp(s, "false") || !strcmp(s, "0"))
        return 0;
    return -1;
}

/* Only plain decimal notation: strtod would also take hex, "inf" and
 * "nan", which other GraphML readers (igraph among them) treat
 * differently. */
static bool plain_number(const char *s)
{
    if (!*s)
        return false;
    for (const char *p = s; *p; p++)
        if (!strchr("0123456789+-.eE", *p))
            return false;
    return true;
}

int tm__xml_parse_capacity(const char *s, double *out)
{
    double d;
    if (!plain_number(s) || tm__str_to_double(s, &d) != 0 || !(d >= TM_NET_MIN_CAPACITY) ||
        d > TM_NET_MAX_CAPACITY)
        return -1;
    *out = d;
    return 0;
}

int tm__xml_parse_slots(const char *s, int32_t *out)
{
    int64_t v;
    double d;
    if (!plain_number(s))
        return -1;
    /* GraphML files written by igraph declare every number as double,
     * so "4", "4.0" and "4e0" are all the integer 4. */
    if (tm__str_to_i64(s, &v) != 0) {
        if (tm__str_to_double(s, &d) != 0 || !(d > -1e12 && d < 1e12) || d != (double)(int64_t)d)
            return -1;
        v = (int64_t)d;
    }
    if (v < 0)
        return -2;
    if (v > TM_XML_MAX_SLOTS)
        return -3;
    *out = (int32_t)v;
    return 0;
}
