/*
 * graphml_read.c - tm_graphml_read(): GraphML into a tm_net through
 * igraph's GraphML reader.
 *
 * Steps: read the bytes once (bounded); parse them with tm__xml_parse_mem
 * and validate the tree (graphml_check.c), because igraph accepts things a
 * network must not have and reports no line numbers for them; then give
 * igraph the very same bytes through fmemopen and copy its attributes into
 * the tm_net.  igraph's attribute handler is process-wide, so the C
 * attribute table is installed only around the read and the previous one
 * restored (after the graph, which owns attribute data of that table, is
 * destroyed).  Main thread only, like every igraph call.
 *
 * Defaults (docs/graphml.md): name = node id, kind = host, slots = 1 for
 * hosts and 0 for switches, transit = the net's default policy, no guid or
 * desc, capacity = 1, enabled = true.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <igraph.h>

#include "topomap/io.h"
#include "graphml_int.h"
#include "xml_int.h"
#include "../net/net_int.h"
#include "../util/util.h"

/* Trimmed copy of a string attribute of vertex v, "" if absent. */
static char *vas_trimmed(const igraph_t *g, const char *attr, igraph_integer_t v)
{
    if (!igraph_cattribute_has_attr(g, IGRAPH_ATTRIBUTE_VERTEX, attr))
        return tm__strdup("");
    return tm__xml_trimmed(BAD_CAST VAS(g, attr, v));
}

static double van(const igraph_t *g, const char *attr, igraph_integer_t v)
{
    if (!igraph_cattribute_has_attr(g, IGRAPH_ATTRIBUTE_VERTEX, attr))
        return NAN;
    return VAN(g, attr, v);
}

/* Copies the igraph graph into net.  The graph's vertex and edge order is
 * the document order the checker recorded in d. */
static tm_err copy_graph(tm_ctx *ctx, const char *name, const igraph_t *g, const tm__gml_doc *d,
                         tm_net *net)
{
    int32_t base = tm_net_n_vertices(net);
    bool has_cap = igraph_cattribute_has_attr(g, IGRAPH_ATTRIBUTE_EDGE, "capacity");
    bool has_en = igraph_cattribute_has_attr(g, IGRAPH_ATTRIBUTE_EDGE, "enabled");
    tm_err err = TM_EOK;

    if (igraph_vcount(g) != d->n_nodes || igraph_ecount(g) != d->n_edges)
        return tm__fail(ctx, TM_EINTERNAL, "%s: igraph read %lld vertices and %lld edges, "
                        "expected %d and %d", name, (long long)igraph_vcount(g),
                        (long long)igraph_ecount(g), (int)d->n_nodes, (int)d->n_edges);
    for (int32_t v = 0; v < d->n_nodes && !err; v++) {
        char *nm = vas_trimmed(g, "name", v), *kind = vas_trimmed(g, "kind", v);
        double slots = van(g, "slots", v);
        bool sw = kind && !strcmp(kind, "switch");
        int32_t id;

        if (!nm || !kind) {
            err = tm__nomem(ctx);
        } else if (tm_net_find(net, *nm ? nm : d->nodes[v].id) >= 0) {
            err = tm__fail(ctx, TM_EINPUT, "%s:%ld: node name '%.100s' is already in the network",
                           name, d->nodes[v].line, *nm ? nm : d->nodes[v].id);
        } else if (!isnan(slots) && !(slots >= 0 && slots <= TM_XML_MAX_SLOTS)) {
            /* the validation pass rules this out; never convert blindly */
            err = tm__fail(ctx, TM_EINTERNAL, "%s:%ld: igraph read slots %g", name,
                           d->nodes[v].line, slots);
        } else {
            int32_t s = isnan(slots) ? (sw ? 0 : 1) : (int32_t)slots;
            err = tm_net_add_vertex(ctx, net, *nm ? nm : d->nodes[v].id,
                                    sw ? TM_VERTEX_SWITCH : TM_VERTEX_HOST, s, &id);
            if (!err && id != base + v)
                err = tm__fail(ctx, TM_EINTERNAL, "%s: vertex numbering mismatch", name);
            if (!err && d->nodes[v].has_transit)
                err = tm_net_set_transit(ctx, net, id,
                                         VAB(g, "transit", v) ? TM_TRANSIT_YES : TM_TRANSIT_NO);
            if (!err && d->nodes[v].guid)
                tm_net_set_guid(net, id, d->nodes[v].guid);
            /* the description is kept verbatim (not trimmed) */
            if (!err && igraph_cattribute_has_attr(g, IGRAPH_ATTRIBUTE_VERTEX, "desc") &&
                *VAS(g, "desc", v))
                err = tm_net_set_desc(ctx, net, id, VAS(g, "desc", v));
        }
        free(nm);
        free(kind);
    }
    for (int32_t e = 0; e < d->n_edges && !err; e++) {
        igraph_integer_t from, to;
        double cap = has_cap ? EAN(g, "capacity", e) : NAN;
        int32_t cable;
        igraph_edge(g, e, &from, &to);
        /* igraph may swap the endpoints of an undirected edge; keep the
         * file's source -> target orientation for link 2c. */
        if (!((from == d->edges[e].src && to == d->edges[e].dst) ||
              (from == d->edges[e].dst && to == d->edges[e].src))) {
            err = tm__fail(ctx, TM_EINTERNAL, "%s: edge numbering mismatch", name);
            break;
        }
        if (!isnan(cap) && !(cap >= TM_NET_MIN_CAPACITY && cap <= TM_NET_MAX_CAPACITY)) {
            err = tm__fail(ctx, TM_EINTERNAL, "%s:%ld: igraph read capacity %g", name,
                           d->edges[e].line, cap);
            break;
        }
        err = tm_net_add_cable(ctx, net, base + d->edges[e].src, base + d->edges[e].dst,
                               isnan(cap) ? 1.0 : cap, &cable);
        if (!err && has_en && d->edges[e].has_enabled && !EAB(g, "enabled", e))
            tm_net_set_cable_enabled(net, cable, false);
    }
    return err;
}

/* Runs igraph's GraphML reader on buf and copies the result into net. */
static tm_err igraph_read(tm_ctx *ctx, const char *name, char *buf, size_t len,
                          const tm__gml_doc *d, tm_net *net)
{
    tm__igraph_guard guard;
    tm__xml_guard xg;
    igraph_attribute_table_t *old_table;
    igraph_safelocale_t loc;
    bool have_loc = false, have_graph = false;
    igraph_t g;
    igraph_error_t rc;
    FILE *f = NULL;
    tm_err err = TM_EOK;

    tm__igraph_begin(ctx, &guard);
    tm__xml_guard_begin(&xg); /* igraph's libxml2 parser prints otherwise */
    old_table = igraph_set_attribute_table(&igraph_cattribute_table);
    /* igraph parses numbers with the current locale. */
    rc = igraph_enter_safelocale(&loc);
    if (rc != IGRAPH_SUCCESS) {
        err = tm__igraph_err(ctx, rc, name);
        goto out;
    }
    have_loc = true;
    f = fmemopen(buf, len, "r");
    if (!f) {
        err = tm__nomem(ctx);
        goto out;
    }
    rc = igraph_read_graph_graphml(&g, f, 0);
    if (rc != IGRAPH_SUCCESS) {
        err = tm__igraph_err(ctx, rc, name);
        goto out;
    }
    have_graph = true;
    err = copy_graph(ctx, name, &g, d, net);
out:
    if (f)
        fclose(f);
    if (have_graph)
        igraph_destroy(&g);
    if (have_loc)
        igraph_exit_safelocale(&loc);
    igraph_set_attribute_table(old_table);
    /* igraph reports libxml2's OOM as a parse error */
    err = tm__xml_guard_end(&xg, ctx, name, err);
    tm__igraph_end(&guard);
    return err;
}

static tm_err graphml_read(tm_ctx *ctx, FILE *in, const char *name, tm_net *net)
{
    char *buf = NULL;
    size_t len = 0;
    xmlDocPtr doc = NULL;
    tm__gml_doc d = {0};
    tm_err err;

    err = tm__read_all(ctx, in, name, TM_XML_MAX_BYTES, &buf, &len);
    if (err)
        goto out;
    err = tm__xml_parse_mem(ctx, buf, len, name, &doc);
    if (err)
        goto out;
    err = tm__gml_check(ctx, doc, name, &d);
    if (err)
        goto out;
    xmlFreeDoc(doc); /* before igraph builds its copy: lower peak memory */
    doc = NULL;
    err = igraph_read(ctx, name, buf, len, &d, net);
out:
    tm__gml_doc_release(&d);
    if (doc)
        xmlFreeDoc(doc);
    free(buf);
    return err;
}

tm_err tm_graphml_read(tm_ctx *ctx, FILE *in, const char *name, tm_net *net)
{
    tm__xml_guard xg;
    tm__xml_guard_begin(&xg);
    return tm__xml_guard_end(&xg, ctx, name, graphml_read(ctx, in, name, net));
}
