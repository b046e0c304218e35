/*
 * graphml_keys.c - GraphML <key> declarations and value checks for the
 * validation pass (graphml_check.c).
 *
 * topomap's attributes (name, kind, slots, transit on nodes; capacity,
 * enabled on edges) must be declared once, for "node" or "edge" (igraph
 * 0.10 ignores keys for "all"), with a fitting attr.type and a valid
 * <default>.  Values of every other typed key are checked too, because
 * igraph parses them all and fails without a line number.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "topomap/net.h"
#include "graphml_int.h"
#include "xml_int.h"
#include "../util/util.h"

const tm__gml_attr tm__gml_known[GA_COUNT] = {
    [GA_NAME] = {"name", TM_GML_NODE, TM_GML_STRING},
    [GA_KIND] = {"kind", TM_GML_NODE, TM_GML_STRING},
    [GA_SLOTS] = {"slots", TM_GML_NODE, TM_GML_NUMBER},
    [GA_TRANSIT] = {"transit", TM_GML_NODE, TM_GML_BOOL},
    [GA_GUID] = {"guid", TM_GML_NODE, TM_GML_STRING},
    [GA_DESC] = {"desc", TM_GML_NODE, TM_GML_STRING},
    [GA_CAPACITY] = {"capacity", TM_GML_EDGE, TM_GML_NUMBER},
    [GA_ENABLED] = {"enabled", TM_GML_EDGE, TM_GML_BOOL},
};

int tm__gml_parse_guid(const char *s, uint64_t *out)
{
    uint64_t g = 0;
    size_t n = 0;
    if (!s || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
        return -1;
    for (s += 2; *s; s++, n++) {
        int d = *s >= '0' && *s <= '9'   ? *s - '0'
                : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
                : *s >= 'A' && *s <= 'F' ? *s - 'A' + 10
                                         : -1;
        if (d < 0 || n >= 16)
            return -1;
        g = g << 4 | (uint64_t)d;
    }
    if (n == 0)
        return -1;
    if (out)
        *out = g;
    return 0;
}

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

static int type_class(const char *t)
{
    if (!t)
        return TM_GML_NONE; /* igraph ignores such a key */
    if (!strcmp(t, "string"))
        return TM_GML_STRING;
    if (!strcmp(t, "int") || !strcmp(t, "long") || !strcmp(t, "float") || !strcmp(t, "double"))
        return TM_GML_NUMBER;
    if (!strcmp(t, "boolean"))
        return TM_GML_BOOL;
    return TM_GML_OTHER;
}

/* Validates value v of attribute a found at element at. */
tm_err tm__gml_check_value(struct tm__gml_checker *c, const xmlNode *at, int a, const char *v)
{
    int32_t slots;
    double cap;
    switch (a) {
    case GA_NAME: /* checked in check_node, which knows the kind */
        break;
    case GA_KIND:
        if (strcmp(v, "host") && strcmp(v, "switch"))
            return tm__xml_error(c->ctx, c->name, at, "kind '%.100s' is not host or switch", v);
        break;
    case GA_SLOTS:
        switch (tm__xml_parse_slots(v, &slots)) {
        case 0:
            break;
        case -2:
            return tm__xml_error(c->ctx, c->name, at, "negative slots '%.100s'", v);
        case -3:
            return tm__xml_error(c->ctx, c->name, at, "slots '%.100s' larger than %d", v,
                                 TM_XML_MAX_SLOTS);
        default:
            return tm__xml_error(c->ctx, c->name, at, "slots '%.100s' is not an integer", v);
        }
        break;
    case GA_TRANSIT:
    case GA_ENABLED:
        if (tm__xml_parse_bool(v) < 0)
            return tm__xml_error(c->ctx, c->name, at, "%s '%.100s' is not true or false",
                                 tm__gml_known[a].name, v);
        break;
    case GA_GUID:
        if (tm__gml_parse_guid(v, NULL) != 0)
            return tm__xml_error(c->ctx, c->name, at, "guid '%.100s' is not 0x and 1 to 16 hex digits",
                                 v);
        break;
    case GA_DESC:
        break;
    case GA_CAPACITY:
        if (tm__xml_parse_capacity(v, &cap) != 0)
            return tm__xml_error(c->ctx, c->name, at, "capacity '%.100s' is not a number in "
                                 "[%g, %g] (Gbit/s)", v, TM_NET_MIN_CAPACITY,
                                 TM_NET_MAX_CAPACITY);
        break;
    }
    return TM_EOK;
}

/* Values of attributes topomap does not use must still be readable by
 * igraph, which parses every typed value and fails without a line number:
 * numbers as C doubles (in range), booleans as true/false/yes/no/1/0. */
tm_err tm__gml_check_other(struct tm__gml_checker *c, const xmlNode *at, int type, const char *id,
                          const char *v)
{
    static const char *const bools[] = {"true", "false", "yes", "no", "1", "0"};
    double d;
    if (!*v)
        return TM_EOK;
    if (type == TM_GML_NUMBER && (tm__str_to_double(v, &d) != 0 ||
                                 (isinf(d) && !strcasestr(v, "inf"))))
        return tm__xml_error(c->ctx, c->name, at, "value '%.100s' of key '%.100s' is not a number",
                             v, id);
    if (type == TM_GML_BOOL) {
        for (size_t i = 0; i < sizeof bools / sizeof bools[0]; i++)
            if (!strcasecmp(v, bools[i]))
                return TM_EOK;
        return tm__xml_error(c->ctx, c->name, at, "value '%.100s' of key '%.100s' is not a boolean",
                             v, id);
    }
    return TM_EOK;
}

/* for="..." of key id into key->dom (0 for the domains topomap ignores). */
static tm_err key_domain(struct tm__gml_checker *c, const xmlNode *k, const char *id,
                         const char *dom, struct tm__gml_key *key)
{
    if (!dom || !strcmp(dom, "all"))
        key->dom = TM_GML_NODE | TM_GML_EDGE;
    else if (!strcmp(dom, "node"))
        key->dom = TM_GML_NODE;
    else if (!strcmp(dom, "edge"))
        key->dom = TM_GML_EDGE;
    else if (strcmp(dom, "graph") && strcmp(dom, "graphml") && strcmp(dom, "hyperedge") &&
             strcmp(dom, "port") && strcmp(dom, "endpoint"))
        return tm__xml_error(c->ctx, c->name, k, "key '%.100s': unknown for=\"%.100s\"", id, dom);
    return TM_EOK;
}

/* igraph keeps one attribute per name and domain and fails ("Attribute
 * types do not match") on a second declaration; keys for "all" and keys
 * without attr.type it ignores. */
static tm_err key_name_once(struct tm__gml_checker *c, const xmlNode *k, const char *id,
                            const char *dom, const char *an, const struct tm__gml_key *key)
{
    char dn[1200];
    int32_t old;
    if (!an || !dom || key->type == TM_GML_NONE || !strcmp(dom, "all"))
        return TM_EOK;
    snprintf(dn, sizeof dn, "%.20s:%.1000s", dom, an);
    if (tm__strmap_put(&c->attr_names, dn, (int32_t)c->n_keys, &old) < 0)
        return tm__nomem(c->ctx);
    if (old >= 0)
        return tm__xml_error(c->ctx, c->name, k, "key '%.100s': attribute '%.100s' declared twice "
                             "for %.20s", id, an, dom);
    return TM_EOK;
}

/* A key that declares one of the attributes topomap reads (name, kind,
 * capacity, ...): its type and domain must be what the reader expects, and
 * it may be declared once; key->attr is set to it. */
static tm_err key_known_attr(struct tm__gml_checker *c, const xmlNode *k, const char *id,
                             const char *an, const char *ty, struct tm__gml_key *key)
{
    for (int a = 0; an && a < GA_COUNT; a++) {
        if (strcmp(an, tm__gml_known[a].name) || !(key->dom & tm__gml_known[a].dom))
            continue;
        if (type_class(ty) != tm__gml_known[a].type)
            return tm__xml_error(c->ctx, c->name, k, "key '%.100s': attribute '%s' must have %s",
                                 id, an,
                                 tm__gml_known[a].type == TM_GML_STRING   ? "attr.type=\"string\""
                                 : tm__gml_known[a].type == TM_GML_NUMBER ? "a numeric attr.type"
                                                              : "attr.type=\"boolean\"");
        if (key->dom == (TM_GML_NODE | TM_GML_EDGE))
            /* igraph 0.10 ignores keys for "all" (with a warning). */
            return tm__xml_error(c->ctx, c->name, k, "key '%.100s': attribute '%s' needs "
                                 "for=\"%s\" (for=\"all\" is not supported)", id, an,
                                 tm__gml_known[a].dom == TM_GML_NODE ? "node" : "edge");
        int d = tm__gml_known[a].dom == TM_GML_NODE ? 0 : 1;
        if (c->key_of[a][d] >= 0)
            return tm__xml_error(c->ctx, c->name, k, "key '%.100s': attribute '%s' declared twice",
                                 id, an);
        c->key_of[a][d] = (int)c->n_keys;
        key->attr = a;
    }
    return TM_EOK;
}

/* The <default> children of the key: the last one is kept in key->def,
 * each checked like a value of the key. */
static tm_err key_defaults(struct tm__gml_checker *c, const xmlNode *k, const char *id,
                           struct tm__gml_key *key)
{
    tm_err err = TM_EOK;
    for (const xmlNode *ch = k->children; ch; ch = ch->next) {
        if (!is_elem(ch, "default"))
            continue;
        xmlChar *txt = xmlNodeGetContent(ch);
        free(key->def);
        key->def = tm__xml_trimmed(txt ? txt : BAD_CAST "");
        xmlFree(txt);
        if (!key->def)
            return tm__nomem(c->ctx);
        if (key->attr >= 0 ? (err = tm__gml_check_value(c, ch, key->attr, key->def)) != TM_EOK
                           : (err = tm__gml_check_other(c, ch, key->type, id, key->def)) != TM_EOK)
            return err;
    }
    return TM_EOK;
}

tm_err tm__gml_check_key(struct tm__gml_checker *c, const xmlNode *k)
{
    char *id = prop(k, "id"), *dom = prop(k, "for"), *an = prop(k, "attr.name");
    char *ty = prop(k, "attr.type");
    if (!an && id) /* igraph names such an attribute after the key id */
        an = prop(k, "id");
    struct tm__gml_key key = {k, 0, type_class(ty), -1, NULL, -1};
    tm_err err = TM_EOK;
    int32_t old;
    int r;

    if (!id || !*id) {
        err = tm__xml_error(c->ctx, c->name, k, "<key> without id");
        goto out;
    }
    if ((err = key_domain(c, k, id, dom, &key)))
        goto out;
    if (key.type == TM_GML_OTHER) {
        err = tm__xml_error(c->ctx, c->name, k, "key '%.100s': unknown attr.type \"%.100s\"", id, ty);
        goto out;
    }
    if ((err = key_name_once(c, k, id, dom, an, &key)) ||
        (err = key_known_attr(c, k, id, an, ty, &key)) || (err = key_defaults(c, k, id, &key)))
        goto out;
    r = tm__strmap_put(&c->key_ids, id, (int32_t)c->n_keys, &old);
    if (r == 0 && old >= 0) {
        err = tm__xml_error(c->ctx, c->name, k, "duplicate key id '%.100s'", id);
        goto out;
    }
    if (r < 0 || tm__grow((void **)&c->keys, &c->keys_cap, c->n_keys + 1, sizeof *c->keys) < 0) {
        err = tm__nomem(c->ctx);
        goto out;
    }
    c->keys[c->n_keys++] = key;
    key.def = NULL;
out:
    free(key.def);
    xmlFree(id);
    xmlFree(dom);
    xmlFree(an);
    xmlFree(ty);
    return err;
}
