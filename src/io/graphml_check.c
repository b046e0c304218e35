/*
 * graphml_check.c - validation pass of the GraphML reader (keys and values:
 * graphml_keys.c).
 *
 * igraph's GraphML reader is lenient where topomap must not be: an edge to
 * an undeclared node id silently creates a vertex, self-loops and
 * duplicate ids pass, and attribute values are only checked for their
 * type.  This pass walks the libxml2 tree (parsed by tm__xml_parse, so the
 * document is already known to be safe) before igraph sees the bytes and
 * reports every problem as "file:line: what" with the element's line.
 * It checks: the root is <graphml> with exactly one undirected <graph>;
 * keys are unique and topomap's attributes (name, kind, slots, transit on
 * nodes; capacity, enabled on edges) have a fitting attr.type and valid
 * defaults; node ids are unique; every <data> refers to a declared key of
 * the right domain, at most once per element, with a valid value; edges
 * join two declared, distinct nodes; effective vertex names are unique
 * and usable; switches have no slots.
 */
#include <stdlib.h>
#include <string.h>

#include "graphml_int.h"
#include "xml_int.h"
#include "../util/util.h"


/* An element of GraphML: igraph, like the GraphML spec, only looks at
 * elements without a namespace or in GraphML's own. */
static bool is_elem(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0 &&
           (!n->ns || !n->ns->href || !strcmp((const char *)n->ns->href, TM_GRAPHML_NS));
}

static char *prop(const xmlNode *n, const char *attr)
{
    return (char *)xmlGetProp(n, BAD_CAST attr);
}

/* Collects the values of topomap's attributes on element e of domain dom
 * into val[] (malloc'ed, trimmed; key defaults filled in); checks every
 * <data> child. */
static tm_err collect_data(struct tm__gml_checker *c, const xmlNode *e, unsigned dom, char *val[GA_COUNT])
{
    const char *what = dom == TM_GML_NODE ? "nodes" : "edges";
    int d = dom == TM_GML_NODE ? 0 : 1;
    tm_err err = TM_EOK;

    c->stamp++;
    for (const xmlNode *ch = e->children; ch; ch = ch->next) {
        if (!is_elem(ch, "data"))
            continue;
        char *kid = prop(ch, "key");
        int32_t ki = kid ? tm__strmap_get(&c->key_ids, kid) : -1;
        if (!kid)
            err = tm__xml_error(c->ctx, c->name, ch, "<data> without key");
        else if (ki < 0)
            err = tm__xml_error(c->ctx, c->name, ch, "undeclared key '%.100s'", kid);
        else if (!(c->keys[ki].dom & dom))
            err = tm__xml_error(c->ctx, c->name, ch, "key '%.100s' is not declared for %s", kid,
                                what);
        else if (c->keys[ki].stamp == c->stamp)
            err = tm__xml_error(c->ctx, c->name, ch, "key '%.100s' given twice", kid);
        if (!err) {
            struct tm__gml_key *k = &c->keys[ki];
            k->stamp = c->stamp;
            if (k->attr < 0 || !(tm__gml_known[k->attr].dom & dom)) {
                xmlChar *txt = xmlNodeGetContent(ch);
                char *v = tm__xml_trimmed(txt ? txt : BAD_CAST "");
                xmlFree(txt);
                err = v ? tm__gml_check_other(c, ch, k->type, kid, v) : tm__nomem(c->ctx);
                free(v);
            } else {
                xmlChar *txt = xmlNodeGetContent(ch);
                char *v = tm__xml_trimmed(txt ? txt : BAD_CAST "");
                xmlFree(txt);
                if (!v)
                    err = tm__nomem(c->ctx);
                else if (!(err = tm__gml_check_value(c, ch, k->attr, v))) {
                    free(val[k->attr]);
                    val[k->attr] = v;
                    v = NULL;
                }
                free(v);
            }
        }
        xmlFree(kid);
        if (err)
            return err;
    }
    for (int a = 0; a < GA_COUNT; a++) {
        int ki = c->key_of[a][d];
        if (val[a] || ki < 0 || !(tm__gml_known[a].dom & dom) || !c->keys[ki].def)
            continue;
        if (!(val[a] = tm__strdup(c->keys[ki].def)))
            return tm__nomem(c->ctx);
    }
    return TM_EOK;
}

static void free_vals(char *val[GA_COUNT])
{
    for (int a = 0; a < GA_COUNT; a++) {
        free(val[a]);
        val[a] = NULL;
    }
}

static tm_err check_node(struct tm__gml_checker *c, const xmlNode *n, tm__gml_doc *d)
{
    char *val[GA_COUNT] = {0};
    char *id = NULL;
    const char *nm, *why;
    int32_t slots = 1, prev;
    bool is_switch;
    tm_err err = TM_EOK;
    int r;

    for (const xmlNode *ch = n->children; ch; ch = ch->next)
        if (is_elem(ch, "graph")) {
            err = tm__xml_error(c->ctx, c->name, ch, "nested graphs are not supported");
            goto out;
        }
    id = prop(n, "id");
    if (!id || !*id) {
        err = tm__xml_error(c->ctx, c->name, n, "<node> without id");
        goto out;
    }
    r = tm__strmap_put(&c->node_ids, id, d->n_nodes, &prev);
    if (r == 0 && prev >= 0) {
        err = tm__xml_error(c->ctx, c->name, n, "duplicate node id '%.100s' (first at line %ld)",
                            id, d->nodes[prev].line);
        goto out;
    }
    if (r < 0) {
        err = tm__nomem(c->ctx);
        goto out;
    }
    if ((err = collect_data(c, n, TM_GML_NODE, val)))
        goto out;
    nm = val[GA_NAME] ? val[GA_NAME] : id;
    is_switch = val[GA_KIND] && !strcmp(val[GA_KIND], "switch");
    if ((why = tm__xml_name_problem(nm, !is_switch))) {
        err = tm__xml_error(c->ctx, c->name, n, "%s name '%.100s'%s %s", is_switch ? "switch" : "host",
                            nm, val[GA_NAME] ? "" : " (node id used as name)", why);
        goto out;
    }
    if (val[GA_SLOTS])
        tm__xml_parse_slots(val[GA_SLOTS], &slots);
    if (is_switch && val[GA_SLOTS] && slots > 0) {
        err = tm__xml_error(c->ctx, c->name, n, "switch '%.100s' with %d slots (switches have 0)",
                            nm, (int)slots);
        goto out;
    }
    if (!is_switch && val[GA_SLOTS] && slots < 1) {
        err = tm__xml_error(c->ctx, c->name, n, "host '%.100s' with 0 slots (hosts need at least 1)",
                            nm);
        goto out;
    }
    r = tm__strmap_put(&c->names, nm, d->n_nodes, &prev);
    if (r == 0 && prev >= 0) {
        err = tm__xml_error(c->ctx, c->name, n,
                            "duplicate node name '%.100s' (node '%.100s' at line %ld)", nm,
                            d->nodes[prev].id, d->nodes[prev].line);
        goto out;
    }
    if (r < 0 || tm__grow((void **)&d->nodes, &c->nodes_cap, (size_t)d->n_nodes + 1,
                          sizeof *d->nodes) < 0) {
        err = tm__nomem(c->ctx);
        goto out;
    }
    d->nodes[d->n_nodes].line = tm__xml_line(n);
    d->nodes[d->n_nodes].id = id;
    id = NULL;
    d->nodes[d->n_nodes].has_transit = val[GA_TRANSIT] != NULL;
    d->nodes[d->n_nodes].guid = 0;
    if (val[GA_GUID])
        tm__gml_parse_guid(val[GA_GUID], &d->nodes[d->n_nodes].guid);
    d->n_nodes++;
out:
    xmlFree(id);
    free_vals(val);
    return err;
}

static tm_err check_edge(struct tm__gml_checker *c, const xmlNode *e, tm__gml_doc *d)
{
    char *val[GA_COUNT] = {0};
    char *src = prop(e, "source"), *dst = prop(e, "target"), *dir = prop(e, "directed");
    int32_t a, b;
    tm_err err = TM_EOK;

    if (!src || !dst) {
        err = tm__xml_error(c->ctx, c->name, e, "<edge> without %s", src ? "target" : "source");
        goto out;
    }
    if (dir && strcmp(dir, "false")) {
        err = tm__xml_error(c->ctx, c->name, e, "directed edges are not supported (cables are "
                                                "undirected)");
        goto out;
    }
    a = tm__strmap_get(&c->node_ids, src);
    b = tm__strmap_get(&c->node_ids, dst);
    if (a < 0 || b < 0) {
        err = tm__xml_error(c->ctx, c->name, e, "edge to undeclared node id '%.100s'",
                            a < 0 ? src : dst);
        goto out;
    }
    if (a == b) {
        err = tm__xml_error(c->ctx, c->name, e, "self-loop on node '%.100s'", src);
        goto out;
    }
    if ((err = collect_data(c, e, TM_GML_EDGE, val)))
        goto out;
    if (tm__grow((void **)&d->edges, &c->edges_cap, (size_t)d->n_edges + 1, sizeof *d->edges) <
        0) {
        err = tm__nomem(c->ctx);
        goto out;
    }
    d->edges[d->n_edges].line = tm__xml_line(e);
    d->edges[d->n_edges].src = a;
    d->edges[d->n_edges].dst = b;
    d->edges[d->n_edges].has_enabled = val[GA_ENABLED] != NULL;
    d->n_edges++;
out:
    free_vals(val);
    xmlFree(src);
    xmlFree(dst);
    xmlFree(dir);
    return err;
}

static tm_err check_graph(struct tm__gml_checker *c, const xmlNode *g, tm__gml_doc *d)
{
    char *ed = prop(g, "edgedefault");
    tm_err err = TM_EOK;

    if (!ed || strcmp(ed, "undirected")) {
        err = tm__xml_error(c->ctx, c->name, g, "<graph> needs edgedefault=\"undirected\"%s",
                            ed ? " (cables are undirected)" : "");
        goto out;
    }
    for (const xmlNode *n = g->children; n && !err; n = n->next) {
        if (!is_elem(n, "data"))
            continue;
        char *kid = prop(n, "key");
        int32_t ki = kid ? tm__strmap_get(&c->key_ids, kid) : -1;
        if (!kid) {
            err = tm__xml_error(c->ctx, c->name, n, "<data> without key");
        } else if (ki < 0) {
            err = tm__xml_error(c->ctx, c->name, n, "undeclared key '%.100s'", kid);
        } else {
            xmlChar *txt = xmlNodeGetContent(n);
            char *v = tm__xml_trimmed(txt ? txt : BAD_CAST "");
            xmlFree(txt);
            err = v ? tm__gml_check_other(c, n, c->keys[ki].type, kid, v) : tm__nomem(c->ctx);
            free(v);
        }
        xmlFree(kid);
    }
    /* Nodes first: GraphML lets an edge precede the nodes it joins. */
    for (const xmlNode *n = g->children; n && !err; n = n->next) {
        if (is_elem(n, "node"))
            err = check_node(c, n, d);
        else if (is_elem(n, "hyperedge"))
            err = tm__xml_error(c->ctx, c->name, n, "hyperedges are not supported");
    }
    for (const xmlNode *n = g->children; n && !err; n = n->next)
        if (is_elem(n, "edge"))
            err = check_edge(c, n, d);
out:
    xmlFree(ed);
    return err;
}

tm_err tm__gml_check(tm_ctx *ctx, xmlDocPtr doc, const char *name, tm__gml_doc *out)
{
    struct tm__gml_checker c;
    const xmlNode *root = xmlDocGetRootElement(doc), *graph = NULL;
    tm_err err = TM_EOK;

    memset(out, 0, sizeof *out);
    memset(&c, 0, sizeof c);
    c.ctx = ctx;
    c.name = name;
    memset(c.key_of, -1, sizeof c.key_of);
    tm__strmap_init(&c.key_ids);
    tm__strmap_init(&c.attr_names);
    tm__strmap_init(&c.node_ids);
    tm__strmap_init(&c.names);

    if (!strcmp((const char *)root->name, "graphml") && !is_elem(root, "graphml")) {
        err = tm__xml_error(ctx, name, root, "<graphml> in namespace '%.100s', expected none or "
                            "%s", (const char *)root->ns->href, TM_GRAPHML_NS);
        goto out;
    }
    if (!is_elem(root, "graphml")) {
        err = tm__xml_error(ctx, name, root, "root element is <%.100s>, expected <graphml>",
                            (const char *)root->name);
        goto out;
    }
    for (const xmlNode *n = root->children; n && !err; n = n->next) {
        if (is_elem(n, "key")) {
            err = tm__gml_check_key(&c, n);
        } else if (is_elem(n, "graph")) {
            if (graph)
                err = tm__xml_error(ctx, name, n, "more than one <graph> (topomap reads one "
                                                  "network per file)");
            graph = n;
        }
    }
    if (err)
        goto out;
    if (!graph) {
        err = tm__xml_error(ctx, name, root, "no <graph> element");
        goto out;
    }
    err = check_graph(&c, graph, out);
out:
    for (size_t i = 0; i < c.n_keys; i++)
        free(c.keys[i].def);
    free(c.keys);
    tm__strmap_release(&c.key_ids);
    tm__strmap_release(&c.attr_names);
    tm__strmap_release(&c.node_ids);
    tm__strmap_release(&c.names);
    if (err)
        tm__gml_doc_release(out);
    return err;
}

void tm__gml_doc_release(tm__gml_doc *d)
{
    for (int32_t i = 0; i < d->n_nodes; i++)
        xmlFree(d->nodes[i].id);
    free(d->nodes);
    free(d->edges);
    memset(d, 0, sizeof *d);
}
