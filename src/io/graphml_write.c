/*
 * graphml_write.c - tm_graphml_write(): a tm_net as GraphML that
 * tm_graphml_read() (and igraph, yEd, Gephi, NetworkX) read back.
 *
 * Written with fprintf rather than igraph_write_graph_graphml because
 * igraph's writer declares every numeric attribute as double (slots would
 * come back as 4.0 in other tools), renames our keys, and would need the
 * whole net copied into an attributed igraph graph first.  Names are
 * XML-escaped; names that tm_graphml_read would reject (control
 * characters, invalid UTF-8, spaces in host names) are refused here so
 * that every file we write round-trips.  Numbers are written in the C
 * locale with the fewest digits that read back exactly.
 */
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlstring.h>

#include "topomap/io.h"
#include "xml_int.h"
#include "../util/util.h"

/* Shortest "%g" text of d that parses back to d. */
static void fmt_num(char *buf, size_t n, double d)
{
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            return;
    }
}

/* XML text: markup characters as entities, tab/newline/CR as character
 * references (so they survive line-end normalisation), other control
 * characters, which XML 1.0 cannot carry at all, as '?'.  Only free-text
 * descriptions can contain those; names are checked before writing. */
static void put_escaped(FILE *out, const char *s)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        switch (ch) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        case '\t': case '\n': case '\r': fprintf(out, "&#%d;", ch); break;
        default: fputc(ch < ' ' || ch == 0x7f ? '?' : ch, out);
        }
    }
}

static void put_key(FILE *out, const char *id, const char *dom, const char *type)
{
    fprintf(out, "  <key id=\"%s\" for=\"%s\" attr.name=\"%s\" attr.type=\"%s\"/>\n", id, dom, id,
            type);
}

static void put_num(FILE *out, const char *key, double d)
{
    char buf[64];
    fmt_num(buf, sizeof buf, d);
    fprintf(out, "<data key=\"%s\">%s</data>", key, buf);
}

typedef struct graphml_args {
    tm_ctx *ctx;
    const tm_net *net;
    const double *load;
} graphml_args;

static tm_err write_body(tm_ctx *ctx, const tm_net *net, const double *load, FILE *out)
{
    int32_t nv = tm_net_n_vertices(net), nc = tm_net_n_cables(net);
    bool any_transit = false, any_disabled = false, any_guid = false, any_desc = false;

    for (int32_t v = 0; v < nv; v++) {
        const char *why = tm__xml_name_problem(tm_net_name(net, v),
                                               tm_net_kind(net, v) == TM_VERTEX_HOST);
        if (why)
            return tm__fail(ctx, TM_EINPUT, "cannot write vertex name '%.100s' as GraphML: %s",
                            tm_net_name(net, v), why);
        any_transit |= tm_net_transit_policy(net, v) != TM_TRANSIT_DEFAULT;
        any_guid |= tm_net_guid(net, v) != 0;
        any_desc |= tm_net_desc(net, v) && *tm_net_desc(net, v);
        if (tm_net_desc(net, v) && !xmlCheckUTF8((const unsigned char *)tm_net_desc(net, v)))
            return tm__fail(ctx, TM_EINPUT, "cannot write the description of '%.100s' as "
                            "GraphML: not valid UTF-8", tm_net_name(net, v));
    }
    for (int32_t c = 0; c < nc; c++)
        any_disabled |= !tm_net_cable_enabled(net, c);

    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<!-- topomap network: capacities in Gbit/s per direction (docs/graphml.md) -->\n"
          "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n",
          out);
    put_key(out, "name", "node", "string");
    put_key(out, "kind", "node", "string");
    put_key(out, "slots", "node", "int");
    if (any_transit)
        put_key(out, "transit", "node", "boolean");
    if (any_guid)
        put_key(out, "guid", "node", "string");
    if (any_desc)
        put_key(out, "desc", "node", "string");
    put_key(out, "capacity", "edge", "double");
    if (any_disabled)
        put_key(out, "enabled", "edge", "boolean");
    if (load) {
        put_key(out, "load_ab", "edge", "double");
        put_key(out, "load_ba", "edge", "double");
        put_key(out, "congestion_ab", "edge", "double");
        put_key(out, "congestion_ba", "edge", "double");
    }
    fputs("  <graph id=\"G\" edgedefault=\"undirected\">\n", out);
    for (int32_t v = 0; v < nv; v++) {
        tm_transit t = tm_net_transit_policy(net, v);
        fprintf(out, "    <node id=\"n%d\"><data key=\"name\">", (int)v);
        put_escaped(out, tm_net_name(net, v));
        fprintf(out, "</data><data key=\"kind\">%s</data><data key=\"slots\">%d</data>",
                tm_net_kind(net, v) == TM_VERTEX_SWITCH ? "switch" : "host",
                (int)tm_net_slots(net, v));
        if (t != TM_TRANSIT_DEFAULT)
            fprintf(out, "<data key=\"transit\">%s</data>", t == TM_TRANSIT_YES ? "true" : "false");
        if (tm_net_guid(net, v))
            fprintf(out, "<data key=\"guid\">0x%016llx</data>",
                    (unsigned long long)tm_net_guid(net, v));
        if (tm_net_desc(net, v) && *tm_net_desc(net, v)) {
            fputs("<data key=\"desc\">", out);
            put_escaped(out, tm_net_desc(net, v));
            fputs("</data>", out);
        }
        fputs("</node>\n", out);
    }
    for (int32_t c = 0; c < nc; c++) {
        int32_t a, b;
        double cap = tm_net_capacity(net, c);
        tm_net_cable(net, c, &a, &b);
        fprintf(out, "    <edge source=\"n%d\" target=\"n%d\">", (int)a, (int)b);
        put_num(out, "capacity", cap);
        if (!tm_net_cable_enabled(net, c))
            fputs("<data key=\"enabled\">false</data>", out);
        if (load) {
            put_num(out, "load_ab", load[2 * c]);
            put_num(out, "load_ba", load[2 * c + 1]);
            put_num(out, "congestion_ab", load[2 * c] / cap);
            put_num(out, "congestion_ba", load[2 * c + 1] / cap);
        }
        fputs("</edge>\n", out);
    }
    fputs("  </graph>\n</graphml>\n", out);
    return TM_EOK;
}

static tm_err write_args(void *arg, FILE *out)
{
    const graphml_args *a = arg;
    return write_body(a->ctx, a->net, a->load, out);
}

tm_err tm_graphml_write(tm_ctx *ctx, const tm_net *net, const double *link_load, FILE *out)
{
    graphml_args a = {ctx, net, link_load};
    return tm__write_c_locale(ctx, out, NULL, write_args, &a);
}
