/*
 * xmlspec.c - tm_xmlspec_read(): the topomap XML topology spec
 * (docs/xml-spec.md), which combines generated networks with explicitly
 * listed hosts, switches and cables in one file:
 *
 *   <topology version="1" capacity="100" slots="32">
 *     <generate spec="fattree:k=4,n=2" prefix="a-"/>
 *     <switch name="stor-sw"/>
 *     <host names="stor[1-4]" slots="0" transit="false"/>
 *     <link a="stor[1-4]" b="stor-sw" capacity="200" count="2"/>
 *   </topology>
 *
 * Parsed with tm__xml_parse (no network, no entities, bounded); every
 * semantic error is "file:line: what" with the element's line.  Vertices
 * (generate, host, switch) are added in document order first, then links,
 * so a link may name a vertex declared further down.  Nothing here is
 * hand-made XML parsing: libxml2 builds the tree, tm_gen_build generates,
 * tm_hostlist_expand expands name patterns.
 */
#include <stdlib.h>
#include <string.h>

#include "topomap/alloc.h"
#include "topomap/gen.h"
#include "topomap/io.h"
#include "xml_int.h"
#include "../util/util.h"

/* Most cables one <link> may create (|a| x |b| x count). */
#ifndef SPEC_MAX_LINK_CABLES
#define SPEC_MAX_LINK_CABLES 10000000LL
#endif
/* Most vertices one spec may hold, generated ones included: the
 * generators' own cap, so a 200-byte spec cannot ask for more memory than
 * a generator spec can (tests/fuzz found <host names="n[0-1803004]"/>
 * building 1.8M hosts).  The fuzz build lowers both (Makefile). */
#ifndef SPEC_MAX_VERTICES
#define SPEC_MAX_VERTICES (INT64_C(1) << 24)
#endif
/* Most parallel cables per pair. */
#define SPEC_MAX_COUNT 1024

struct spec {
    tm_ctx *ctx;
    const char *name;
    tm_net *net;
    int32_t base;    /* vertices the net had before this file */
    long *line;      /* line[v - base]: where vertex v was declared */
    size_t line_cap, n_lined;
    double capacity; /* default link capacity */
    int32_t slots;   /* default host slots */
};

/* A name list: either one literal name or a hostlist expansion. */
struct names {
    char **v;
    size_t n;
    char *one;
};

static void names_release(struct names *nl)
{
    if (nl->one)
        free(nl->one);
    else if (nl->v)
        tm_hostlist_free(nl->v, nl->n);
    memset(nl, 0, sizeof *nl);
}

static bool is_elem(const xmlNode *n, const char *name)
{
    return strcmp((const char *)n->name, name) == 0;
}

/* Rejects attributes outside allowed (NULL-terminated), child elements and
 * stray text. */
static tm_err check_shape(struct spec *s, const xmlNode *e, const char *const *allowed)
{
    for (const xmlAttr *a = e->properties; a; a = a->next) {
        size_t i = 0;
        while (allowed[i] && strcmp(allowed[i], (const char *)a->name))
            i++;
        if (!allowed[i])
            return tm__xml_error(s->ctx, s->name, e, "unknown attribute '%.100s' on <%s>",
                                 (const char *)a->name, (const char *)e->name);
    }
    for (const xmlNode *c = e->children; c; c = c->next) {
        if (c->type == XML_ELEMENT_NODE)
            return tm__xml_error(s->ctx, s->name, c, "<%s> may not contain <%.100s>",
                                 (const char *)e->name, (const char *)c->name);
        if (c->type == XML_TEXT_NODE && !xmlIsBlankNode(c))
            return tm__xml_error(s->ctx, s->name, c, "unexpected text inside <%s>",
                                 (const char *)e->name);
    }
    return TM_EOK;
}

/* Attribute value, trimmed; NULL if absent (check *err for OOM). */
static char *attr(struct spec *s, const xmlNode *e, const char *name, tm_err *err)
{
    xmlChar *v = xmlGetProp(e, BAD_CAST name);
    char *t;
    if (!v)
        return NULL;
    t = tm__xml_trimmed(v);
    xmlFree(v);
    if (!t)
        *err = tm__nomem(s->ctx);
    return t;
}

static tm_err get_slots(struct spec *s, const xmlNode *e, const char *v, int32_t *out)
{
    switch (tm__xml_parse_slots(v, out)) {
    case 0:
        return TM_EOK;
    case -2:
        return tm__xml_error(s->ctx, s->name, e, "negative slots '%.100s'", v);
    case -3:
        return tm__xml_error(s->ctx, s->name, e, "slots '%.100s' larger than %d", v,
                             TM_XML_MAX_SLOTS);
    default:
        return tm__xml_error(s->ctx, s->name, e, "slots '%.100s' is not an integer", v);
    }
}

static tm_err get_capacity(struct spec *s, const xmlNode *e, const char *v, double *out)
{
    if (tm__xml_parse_capacity(v, out) != 0)
        return tm__xml_error(s->ctx, s->name, e, "capacity '%.100s' is not a number in "
                             "[%g, %g] (Gbit/s)", v, TM_NET_MIN_CAPACITY, TM_NET_MAX_CAPACITY);
    return TM_EOK;
}

/* How expand() treats a value. */
enum { LITERAL, HOSTLIST, GUESS };

/* Expands v as a single literal name, as a hostlist expression, or
 * (GUESS, for link ends) as a hostlist expression exactly when it contains
 * '[' or ',': switch names may contain spaces, which a hostlist expression
 * would split. */
static tm_err expand(struct spec *s, const xmlNode *e, const char *v, int mode,
                     struct names *out)
{
    char where[1200];
    tm_err err;
    memset(out, 0, sizeof *out);
    if (mode == LITERAL || (mode == GUESS && !strpbrk(v, "[,"))) {
        out->one = tm__strdup(v);
        if (!out->one)
            return tm__nomem(s->ctx);
        out->v = &out->one;
        out->n = 1;
        return TM_EOK;
    }
    snprintf(where, sizeof where, "%s:%ld", s->name, tm__xml_line(e));
    err = tm_hostlist_expand(s->ctx, v, where, &out->v, &out->n);
    if (err)
        return err == TM_ENOMEM ? err : TM_EINPUT;
    if (out->n == 0) {
        names_release(out);
        return tm__xml_error(s->ctx, s->name, e, "'%.100s' expands to no names", v);
    }
    return TM_EOK;
}

/* Records that the vertices added since the last call were declared at
 * line. */
static tm_err note_lines(struct spec *s, long line)
{
    size_t need = (size_t)(tm_net_n_vertices(s->net) - s->base);
    if (tm__grow((void **)&s->line, &s->line_cap, need, sizeof *s->line) < 0)
        return tm__nomem(s->ctx);
    for (size_t i = s->n_lined; i < need; i++)
        s->line[i] = line;
    s->n_lined = need;
    return TM_EOK;
}

static tm_err duplicate(struct spec *s, const xmlNode *e, const char *nm, int32_t v)
{
    if (v >= s->base && (size_t)(v - s->base) < s->n_lined)
        return tm__xml_error(s->ctx, s->name, e, "name '%.100s' already defined at line %ld", nm,
                             s->line[v - s->base]);
    return tm__xml_error(s->ctx, s->name, e, "name '%.100s' is already in the network", nm);
}

static tm_err do_generate(struct spec *s, const xmlNode *e)
{
    static const char *const allowed[] = {"spec", "prefix", NULL};
    tm_err err = check_shape(s, e, allowed);
    char *spec = NULL, *prefix = NULL;
    const char *why;

    if (!err)
        spec = attr(s, e, "spec", &err);
    if (!err)
        prefix = attr(s, e, "prefix", &err);
    if (err)
        goto out;
    if (!spec || !*spec) {
        err = tm__xml_error(s->ctx, s->name, e, "<generate> needs a spec attribute");
        goto out;
    }
    if (prefix && *prefix && (why = tm__xml_name_problem(prefix, true))) {
        err = tm__xml_error(s->ctx, s->name, e, "prefix '%.100s' %s", prefix, why);
        goto out;
    }
    if (!tm_gen_is_spec(spec)) {
        err = tm__xml_error(s->ctx, s->name, e, "unknown generator '%.100s'", spec);
        goto out;
    }
    err = tm_gen_build(s->ctx, spec, prefix && *prefix ? prefix : NULL, s->net);
    if (err) {
        tm__fail_prefix(s->ctx, "%s:%ld", s->name, tm__xml_line(e));
        err = err == TM_ENOMEM ? err : TM_EINPUT;
        goto out;
    }
    if (tm_net_n_vertices(s->net) > SPEC_MAX_VERTICES) {
        err = tm__xml_error(s->ctx, s->name, e, "the network has more than %lld vertices",
                            (long long)SPEC_MAX_VERTICES);
        goto out;
    }
    err = note_lines(s, tm__xml_line(e));
out:
    free(spec);
    free(prefix);
    return err;
}

/* <host> and <switch>. */
static tm_err do_vertex(struct spec *s, const xmlNode *e, bool host)
{
    static const char *const h_allowed[] = {"name", "names", "slots", "transit", NULL};
    static const char *const s_allowed[] = {"name", "names", "transit", NULL};
    const char *what = host ? "host" : "switch";
    char *nm = NULL, *nms = NULL, *slots_s = NULL, *transit_s = NULL;
    struct names nl = {0};
    int32_t slots = host ? s->slots : 0;
    int transit = -1;
    tm_err err = check_shape(s, e, host ? h_allowed : s_allowed);

    if (!err)
        nm = attr(s, e, "name", &err);
    if (!err)
        nms = attr(s, e, "names", &err);
    if (!err)
        slots_s = attr(s, e, "slots", &err);
    if (!err)
        transit_s = attr(s, e, "transit", &err);
    if (err)
        goto out;
    if (!nm == !nms) {
        err = tm__xml_error(s->ctx, s->name, e, "<%s> needs exactly one of name and names", what);
        goto out;
    }
    if (slots_s && (err = get_slots(s, e, slots_s, &slots)))
        goto out;
    if (host && slots < 1) {
        err = tm__xml_error(s->ctx, s->name, e, "a host needs at least 1 slot");
        goto out;
    }
    if (transit_s && (transit = tm__xml_parse_bool(transit_s)) < 0) {
        err = tm__xml_error(s->ctx, s->name, e, "transit '%.100s' is not true or false",
                            transit_s);
        goto out;
    }
    if ((err = expand(s, e, nm ? nm : nms, nm ? LITERAL : HOSTLIST, &nl)))
        goto out;
    if ((int64_t)tm_net_n_vertices(s->net) + (int64_t)nl.n > SPEC_MAX_VERTICES) {
        err = tm__xml_error(s->ctx, s->name, e, "the network would have more than %lld vertices",
                            (long long)SPEC_MAX_VERTICES);
        goto out;
    }
    for (size_t i = 0; i < nl.n && !err; i++) {
        const char *why = tm__xml_name_problem(nl.v[i], host);
        int32_t v = tm_net_find(s->net, nl.v[i]);
        if (why)
            err = tm__xml_error(s->ctx, s->name, e, "%s name '%.100s' %s", what, nl.v[i], why);
        else if (v >= 0)
            err = duplicate(s, e, nl.v[i], v);
        else
            err = tm_net_add_vertex(s->ctx, s->net, nl.v[i],
                                    host ? TM_VERTEX_HOST : TM_VERTEX_SWITCH, slots, &v);
        if (!err && transit >= 0)
            err = tm_net_set_transit(s->ctx, s->net, v, transit ? TM_TRANSIT_YES : TM_TRANSIT_NO);
        if (!err)
            err = note_lines(s, tm__xml_line(e));
    }
out:
    names_release(&nl);
    free(nm);
    free(nms);
    free(slots_s);
    free(transit_s);
    return err;
}

static tm_err resolve(struct spec *s, const xmlNode *e, const struct names *nl, int32_t **ids)
{
    *ids = tm__malloc_n(nl->n, sizeof **ids);
    if (!*ids)
        return tm__nomem(s->ctx);
    for (size_t i = 0; i < nl->n; i++)
        if (((*ids)[i] = tm_net_find(s->net, nl->v[i])) < 0)
            return tm__xml_error(s->ctx, s->name, e, "link to unknown vertex '%.100s'", nl->v[i]);
    return TM_EOK;
}

static tm_err do_link(struct spec *s, const xmlNode *e)
{
    static const char *const allowed[] = {"a", "b", "capacity", "count", NULL};
    char *a = NULL, *b = NULL, *cap_s = NULL, *count_s = NULL;
    struct names la = {0}, lb = {0};
    int32_t *ia = NULL, *ib = NULL, count = 1;
    double cap = s->capacity;
    tm_err err = check_shape(s, e, allowed);

    if (!err)
        a = attr(s, e, "a", &err);
    if (!err)
        b = attr(s, e, "b", &err);
    if (!err)
        cap_s = attr(s, e, "capacity", &err);
    if (!err)
        count_s = attr(s, e, "count", &err);
    if (err)
        goto out;
    if (!a || !b || !*a || !*b) {
        err = tm__xml_error(s->ctx, s->name, e, "<link> needs attributes a and b");
        goto out;
    }
    if (cap_s && (err = get_capacity(s, e, cap_s, &cap)))
        goto out;
    if (count_s && (tm__xml_parse_slots(count_s, &count) != 0 || count < 1 ||
                    count > SPEC_MAX_COUNT)) {
        err = tm__xml_error(s->ctx, s->name, e, "count '%.100s' is not an integer in 1..%d",
                            count_s, SPEC_MAX_COUNT);
        goto out;
    }
    if ((err = expand(s, e, a, GUESS, &la)) || (err = expand(s, e, b, GUESS, &lb)))
        goto out;
    if ((long long)la.n * (long long)lb.n > SPEC_MAX_LINK_CABLES / count) {
        err = tm__xml_error(s->ctx, s->name, e, "<link> would create more than %lld cables",
                            SPEC_MAX_LINK_CABLES);
        goto out;
    }
    if ((err = resolve(s, e, &la, &ia)) || (err = resolve(s, e, &lb, &ib)))
        goto out;
    for (size_t i = 0; i < la.n && !err; i++)
        for (size_t j = 0; j < lb.n && !err; j++) {
            if (ia[i] == ib[j]) {
                err = tm__xml_error(s->ctx, s->name, e, "link joins '%.100s' to itself",
                                    la.v[i]);
                break;
            }
            for (int32_t k = 0; k < count && !err; k++)
                err = tm_net_add_cable(s->ctx, s->net, ia[i], ib[j], cap, NULL);
        }
out:
    free(ia);
    free(ib);
    names_release(&la);
    names_release(&lb);
    free(a);
    free(b);
    free(cap_s);
    free(count_s);
    return err;
}

static tm_err read_root(struct spec *s, const xmlNode *root)
{
    static const char *const allowed[] = {"version", "capacity", "slots", NULL};
    char *ver = NULL, *cap = NULL, *slots = NULL;
    tm_err err = TM_EOK;

    if (!is_elem(root, "topology"))
        return tm__xml_error(s->ctx, s->name, root, "root element is <%.100s>, expected <topology>",
                             (const char *)root->name);
    /* hwloc exports share the root element name: say what the file is */
    for (const xmlNode *c = root->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && is_elem(c, "object"))
            return tm__xml_error(s->ctx, s->name, c, "this is an hwloc topology (the hardware of "
                                 "one node), not a topomap network spec (docs/xml-spec.md)");
    for (const xmlAttr *a = root->properties; a && !err; a = a->next) {
        size_t i = 0;
        while (allowed[i] && strcmp(allowed[i], (const char *)a->name))
            i++;
        if (!allowed[i])
            err = tm__xml_error(s->ctx, s->name, root, "unknown attribute '%.100s' on <topology>",
                                (const char *)a->name);
    }
    if (!err)
        ver = attr(s, root, "version", &err);
    if (!err)
        cap = attr(s, root, "capacity", &err);
    if (!err)
        slots = attr(s, root, "slots", &err);
    if (err)
        goto out;
    if (ver && strcmp(ver, "1")) {
        err = tm__xml_error(s->ctx, s->name, root, "unsupported version '%.100s' (expected 1)", ver);
        goto out;
    }
    if ((cap && (err = get_capacity(s, root, cap, &s->capacity))) ||
        (slots && (err = get_slots(s, root, slots, &s->slots))))
        goto out;
    if (s->slots < 1)
        err = tm__xml_error(s->ctx, s->name, root, "a host needs at least 1 slot");
out:
    free(ver);
    free(cap);
    free(slots);
    return err;
}

static tm_err read_spec(struct spec *s, const xmlNode *root)
{
    tm_err err = read_root(s, root);
    const xmlNode *e;

    for (e = root->children; e && !err; e = e->next) {
        if (e->type == XML_TEXT_NODE && !xmlIsBlankNode(e))
            return tm__xml_error(s->ctx, s->name, e, "unexpected text inside <topology>");
        if (e->type != XML_ELEMENT_NODE)
            continue;
        if (is_elem(e, "generate"))
            err = do_generate(s, e);
        else if (is_elem(e, "host"))
            err = do_vertex(s, e, true);
        else if (is_elem(e, "switch"))
            err = do_vertex(s, e, false);
        else if (!is_elem(e, "link"))
            err = tm__xml_error(s->ctx, s->name, e, "unknown element <%.100s> (expected generate, "
                                "host, switch or link)", (const char *)e->name);
    }
    if (!err && tm_net_n_vertices(s->net) == s->base)
        return tm__xml_error(s->ctx, s->name, root, "<topology> declares no vertices");
    for (e = root->children; e && !err; e = e->next)
        if (e->type == XML_ELEMENT_NODE && is_elem(e, "link"))
            err = do_link(s, e);
    return err;
}

tm_err tm_xmlspec_read(tm_ctx *ctx, FILE *in, const char *name, tm_net *net)
{
    struct spec s = {ctx, name, net, tm_net_n_vertices(net), NULL, 0, 0, 1.0, 1};
    xmlDocPtr doc = NULL;
    tm__xml_guard xg;
    tm_err err;

    tm__xml_guard_begin(&xg);
    err = tm__xml_parse(ctx, in, name, &doc);
    if (!err)
        err = read_spec(&s, xmlDocGetRootElement(doc));
    if (doc)
        xmlFreeDoc(doc);
    free(s.line);
    return tm__xml_guard_end(&xg, ctx, name, err);
}
