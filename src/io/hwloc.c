/* hwloc.c - node-internal PE hierarchy from an hwloc XML export
 * (tm_hier_from_hwloc).  PEs are the cores that hold at least one allowed
 * PU, numbered in document (depth-first) order.  The CPU tree (Machine,
 * Package/Socket, Die, Group, NUMANode when it is a CPU parent (v1),
 * unified/data caches, Core, PU) is reduced: subtrees without allowed PUs
 * are dropped and objects with one child collapse into it, keeping the
 * lower object's type.  Every remaining level must have one fan-out (the
 * VieM model); its distance comes from the type (docs/qap.md):
 *   shared L1/L2 1, L3 2, L4/L5 3, Die 4, Group 5, NUMANode 6,
 *   Package/Socket 10, Machine 20 (made non-decreasing bottom-up).
 * All three XML generations are read the same way: v1 (no version, type
 * "Socket", generic "Cache" with depth/cache_type, NUMANode as a parent),
 * 2.x (NUMANode as a memory child: it holds no PU, so it drops out) and
 * 3.0-dev.  An export taken in a restricted job (Machine allowed_cpuset
 * smaller than its complete_cpuset) uses only the allowed PUs and warns.
 * Parsing goes through tm__xml_parse only. */
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "topomap/hier.h"
#include "xml_int.h"
#include "../util/util.h"

#define MAX_WORDS 4096 /* cpuset words: up to 131072 PUs */

typedef struct cpuset {
    uint32_t *w;
    int n; /* words, least significant first */
} cpuset;

typedef struct rnode {
    double dist;   /* label distance (grouping nodes) */
    unsigned mask; /* labels of every object collapsed into this node */
    const char *type;
    int32_t first; /* first child in kids[] */
    int32_t nkids; /* 0 = core (leaf) */
    long line;
} rnode;

typedef struct rd {
    tm_ctx *ctx;
    const char *name;
    cpuset allowed;
    bool have_allowed;
    int64_t n_pu, n_allowed;
    rnode *nodes;
    size_t nnodes, capnodes;
    int32_t *kids;
    size_t nkids, capkids;
    tm_err err;
} rd;

static bool is_type(const xmlChar *t, const char *s) { return t && strcmp((const char *)t, s) == 0; }

/* "0xffffffff,,0x1" -> words (most significant first in the text; an
 * empty field is 0).  Returns -1 if malformed, -2 if out of memory (kept
 * apart so that OOM is TM_ENOMEM, not a "malformed" TM_EINPUT). */
static int parse_cpuset(const char *s, cpuset *cs)
{
    int nf = 1;
    const char *p;
    for (p = s; *p; p++)
        if (*p == ',')
            nf++;
    if (nf > MAX_WORDS)
        return -1;
    cs->w = tm__calloc_n((size_t)nf, sizeof *cs->w);
    if (!cs->w)
        return -2;
    cs->n = nf;
    p = s;
    for (int i = nf - 1; i >= 0; i--) {
        uint32_t v = 0;
        int digits = 0;
        if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
            p += 2;
        for (; *p && *p != ','; p++, digits++) {
            int c = *p;
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (d < 0 || digits >= 8)
                return -1;
            v = v << 4 | (uint32_t)d;
        }
        cs->w[i] = v;
        if (*p == ',')
            p++;
    }
    return 0;
}

static bool cs_has(const cpuset *cs, int64_t bit)
{
    return bit >= 0 && bit / 32 < cs->n && (cs->w[bit / 32] >> (bit % 32) & 1u);
}

static int64_t cs_count(const cpuset *cs)
{
    int64_t c = 0;
    for (int i = 0; i < cs->n; i++)
        c += __builtin_popcount(cs->w[i]);
    return c;
}

/* Distance label of a grouping object type, or < 0 if the object is not
 * part of the CPU tree (I/O, Misc, memory-side caches, instruction caches). */
static double type_dist(xmlNodePtr o, const xmlChar *t)
{
    if (is_type(t, "Machine"))
        return 20;
    if (is_type(t, "Package") || is_type(t, "Socket"))
        return 10;
    if (is_type(t, "NUMANode"))
        return 6;
    if (is_type(t, "Group"))
        return 5;
    if (is_type(t, "Die"))
        return 4;
    if (is_type(t, "L1Cache") || is_type(t, "L2Cache"))
        return 1;
    if (is_type(t, "L3Cache"))
        return 2;
    if (is_type(t, "L4Cache") || is_type(t, "L5Cache"))
        return 3;
    if (is_type(t, "Cache")) { /* v1: depth + cache_type (2 = instruction) */
        xmlChar *d = xmlGetProp(o, (const xmlChar *)"depth");
        xmlChar *ct = xmlGetProp(o, (const xmlChar *)"cache_type");
        double r = -1;
        if (!(ct && strcmp((const char *)ct, "2") == 0))
            r = !d || atoi((const char *)d) <= 2 ? 1 : atoi((const char *)d) == 3 ? 2 : 3;
        xmlFree(d);
        xmlFree(ct);
        return r;
    }
    return -1;
}

static const double labels[] = {1, 2, 3, 4, 5, 6, 10, 20};
#define NLABELS 8

static unsigned label_bit(double d)
{
    for (int i = 0; i < NLABELS; i++)
        if (labels[i] == d)
            return 1u << i;
    return 0;
}

static int32_t new_node(rd *R, const char *type, double dist, long line)
{
    if (tm__grow((void **)&R->nodes, &R->capnodes, R->nnodes + 1, sizeof *R->nodes) < 0) {
        R->err = tm__nomem(R->ctx);
        return -1;
    }
    R->nodes[R->nnodes] = (rnode){dist, label_bit(dist), type, 0, 0, line};
    return (int32_t)R->nnodes++;
}

/* A PU: a leaf when it is allowed, else -1 (also on error). */
static int32_t build_pu(rd *R, xmlNodePtr o)
{
    xmlChar *os = xmlGetProp(o, (const xmlChar *)"os_index");
    int64_t idx = -1;
    int32_t res = -1;
    R->n_pu++;
    if (!os || tm__str_to_i64((const char *)os, &idx) < 0 || idx < 0) {
        R->err = tm__fail(R->ctx, TM_EINPUT, "%s:%ld: PU without a valid os_index", R->name,
                          (long)xmlGetLineNo(o));
    } else if (!R->have_allowed || cs_has(&R->allowed, idx)) {
        R->n_allowed++;
        res = new_node(R, "PU", 0, (long)xmlGetLineNo(o));
    }
    xmlFree(os);
    return res;
}

static int32_t build(rd *R, xmlNodePtr o, int depth);

/* The reduced trees of o's child objects that hold an allowed PU, as a
 * malloc'ed array of *n node ids (NULL when none or on error). */
static int32_t *build_children(rd *R, xmlNodePtr o, int depth, size_t *n)
{
    int32_t *kids = NULL;
    size_t cap = 0;
    *n = 0;
    for (xmlNodePtr c = o->children; c && !R->err; c = c->next) {
        int32_t k;
        if (c->type != XML_ELEMENT_NODE || !is_type(c->name, "object"))
            continue;
        k = build(R, c, depth + 1);
        if (k < 0)
            continue;
        if (tm__grow((void **)&kids, &cap, *n + 1, sizeof *kids) < 0) {
            R->err = tm__nomem(R->ctx);
            break;
        }
        kids[(*n)++] = k;
    }
    return kids;
}

/* A node of type t (its string; renamed by build) over n kids. */
static int32_t new_inner(rd *R, const xmlChar *t, double dist, long line, const int32_t *kids,
                         size_t n)
{
    int32_t res = new_node(R, (const char *)t, dist, line);
    if (res < 0)
        return -1;
    if (tm__grow((void **)&R->kids, &R->capkids, R->nkids + n, sizeof *R->kids) < 0) {
        R->err = tm__nomem(R->ctx);
        return -1;
    }
    R->nodes[res].first = (int32_t)R->nkids;
    R->nodes[res].nkids = (int32_t)n;
    memcpy(R->kids + R->nkids, kids, n * sizeof *kids);
    R->nkids += n;
    return res;
}

/* The type name an inner node keeps: one of hwloc's, or "Group" (the
 * string read from the file does not outlive the parse). */
static const char *kept_type(const xmlChar *t)
{
    static const char *const names[] = {"Machine", "Package", "Socket", "NUMANode", "Group",
                                        "Die", "Cache"};
    const char *keep = "Group";
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strstr((const char *)t, names[i]))
            keep = names[i];
    return keep;
}

/* Reduced tree below object o; -1 = no allowed PU below (or error). */
static int32_t build(rd *R, xmlNodePtr o, int depth)
{
    xmlChar *t = xmlGetProp(o, (const xmlChar *)"type");
    int32_t res = -1, *tmp;
    size_t ntmp;
    bool core;
    double dist;
    if (!t) {
        R->err = tm__fail(R->ctx, TM_EINPUT, "%s:%ld: <object> without a type", R->name,
                          (long)xmlGetLineNo(o));
        return -1;
    }
    if (is_type(t, "PU")) {
        res = build_pu(R, o);
        xmlFree(t);
        return res;
    }
    core = is_type(t, "Core");
    dist = core ? 0 : type_dist(o, t);
    tmp = build_children(R, o, depth, &ntmp);
    if (R->err || ntmp == 0) {
        res = -1;
    } else if (core) {
        /* a core is one PE whatever its PUs: keep a single leaf */
        res = tmp[0];
        R->nodes[res].type = "Core";
    } else if (ntmp == 1 || dist < 0) {
        /* one child: collapse; non-CPU objects with CPU children
         * (unexpected) are transparent when they have one child */
        if (ntmp == 1) {
            res = tmp[0];
            if (dist >= 0)
                R->nodes[res].mask |= label_bit(dist);
        } else {
            dist = 5; /* treat as a Group */
        }
    }
    if (res < 0 && !R->err && ntmp > 1)
        res = new_inner(R, t, dist, (long)xmlGetLineNo(o), tmp, ntmp);
    /* "Core" leaves keep their PU node; the type string must outlive t */
    if (res >= 0 && R->nodes[res].nkids > 0 && R->nodes[res].type == (const char *)t)
        R->nodes[res].type = kept_type(t);
    free(tmp);
    xmlFree(t);
    return res;
}

static int leaf_depth(const rd *R, int32_t v, int d)
{
    while (R->nodes[v].nkids > 0) {
        v = R->kids[R->nodes[v].first];
        d++;
    }
    return d;
}

/* Checks that every node at height h (leaves = 0) has fan-out a[h-1]
 * and every leaf is at the same depth. */
static tm_err check_level(rd *R, int32_t v, int height, int32_t *a, unsigned *mask)
{
    const rnode *n = &R->nodes[v];
    if (height == 0) {
        if (n->nkids != 0)
            return tm__fail(R->ctx, TM_EINPUT,
                            "%s:%ld: non-uniform hierarchy: the cores are not all at one depth",
                            R->name, n->line);
        return TM_EOK;
    }
    if (n->nkids == 0)
        return tm__fail(R->ctx, TM_EINPUT,
                        "%s:%ld: non-uniform hierarchy: the cores are not all at one depth",
                        R->name, n->line);
    if (a[height - 1] == 0) {
        a[height - 1] = n->nkids;
        mask[height - 1] = n->mask;
    } else if (a[height - 1] != n->nkids) {
        return tm__fail(R->ctx, TM_EINPUT,
                        "%s:%ld: non-uniform hierarchy: %s with %d children where others have %d",
                        R->name, n->line, n->type, n->nkids, a[height - 1]);
    }
    for (int32_t i = 0; i < n->nkids; i++) {
        tm_err err = check_level(R, R->kids[n->first + i], height - 1, a, mask);
        if (err)
            return err;
    }
    return TM_EOK;
}

static tm_err hwloc_read(tm_ctx *ctx, FILE *in, const char *name, tm_hier *out);

tm_err tm_hier_from_hwloc(tm_ctx *ctx, FILE *in, const char *name, tm_hier *out)
{
    tm__xml_guard xg;
    tm_err err;
    tm__xml_guard_begin(&xg);
    err = tm__xml_guard_end(&xg, ctx, name, hwloc_read(ctx, in, name, out));
    if (err)
        memset(out, 0, sizeof *out);
    return err;
}

/* The machine object under <topology>, with a warning for unknown versions. */
static tm_err find_machine(tm_ctx *ctx, xmlDocPtr doc, const char *name, xmlNodePtr *machine)
{
    xmlNodePtr root = xmlDocGetRootElement(doc);
    xmlChar *ver;
    *machine = NULL;
    if (!root || !is_type(root->name, "topology"))
        return tm__fail(ctx, TM_EINPUT, "%s:%ld: not an hwloc topology (root element <%s>)", name,
                        root ? (long)xmlGetLineNo(root) : 1L, root ? (const char *)root->name : "");
    ver = xmlGetProp(root, (const xmlChar *)"version");
    if (ver && !(ver[0] == '2' || ver[0] == '3' || ver[0] == '1'))
        tm__warn(ctx, "%s: hwloc XML version %s is newer than the versions known (1, 2, 3)",
                 name, (const char *)ver);
    xmlFree(ver);
    for (xmlNodePtr c = root->children; c && !*machine; c = c->next)
        if (c->type == XML_ELEMENT_NODE && is_type(c->name, "object"))
            *machine = c;
    if (!*machine)
        return tm__fail(ctx, TM_EINPUT, "%s:%ld: no <object> in the topology", name,
                        (long)xmlGetLineNo(root));
    return TM_EOK;
}

/* The machine's allowed_cpuset (a restricted export, e.g. inside a job). */
static tm_err read_allowed(rd *R, xmlNodePtr machine)
{
    xmlChar *allowed = xmlGetProp(machine, (const xmlChar *)"allowed_cpuset");
    tm_err err = TM_EOK;
    int rc;
    if (!allowed)
        return TM_EOK;
    rc = parse_cpuset((const char *)allowed, &R->allowed);
    if (rc == -2)
        err = tm__nomem(R->ctx);
    else if (rc < 0)
        err = tm__fail(R->ctx, TM_EINPUT, "%s:%ld: malformed allowed_cpuset '%s'", R->name,
                       (long)xmlGetLineNo(machine), (const char *)allowed);
    else
        R->have_allowed = true;
    xmlFree(allowed);
    return err;
}

/* Says so when only part of the machine's PUs are allowed. */
static tm_err warn_restricted(rd *R, xmlNodePtr machine)
{
    xmlChar *complete = xmlGetProp(machine, (const xmlChar *)"complete_cpuset");
    int64_t total = R->n_pu;
    if (complete) {
        cpuset cc = {0};
        int rc = parse_cpuset((const char *)complete, &cc);
        if (rc == 0 && cs_count(&cc) > total)
            total = cs_count(&cc);
        free(cc.w);
        xmlFree(complete);
        if (rc == -2)
            return tm__nomem(R->ctx);
    }
    if (R->n_allowed < total)
        tm__warn(R->ctx,
                 "%s: restricted export (allowed_cpuset): using the %lld allowed of %lld PUs", R->name, (long long)R->n_allowed, (long long)total);
    return TM_EOK;
}

/* A level's distance: the smallest label of its objects above the previous
 * level's distance, and above every label below it (a Group of Packages is
 * farther than a Package). */
static void level_distances(const unsigned *mask, tm_hier *out)
{
    double below = 0; /* largest label on the levels below */
    for (int i = 0; i < out->k; i++) {
        double prev = i > 0 ? out->d[i - 1] : 0, d = -1;
        for (int b = 0; b < NLABELS; b++)
            if ((mask[i] >> b & 1u) && labels[b] > prev && d < 0)
                d = labels[b];
        if (d < 0)
            d = prev + 1;
        if (i > 0 && d <= below)
            d = below + 1;
        out->d[i] = d;
        for (int b = 0; b < NLABELS; b++)
            if ((mask[i] >> b & 1u) && labels[b] > below)
                below = labels[b];
    }
}

/* The uniform levels of the tree under top, as a hierarchy. */
static tm_err to_hier(rd *R, int32_t top, tm_hier *out)
{
    int k = leaf_depth(R, top, 0);
    if (k > TM_HIER_MAX_LEVELS)
        return tm__fail(R->ctx, TM_EINPUT, "%s: more than %d hierarchy levels", R->name,
                        TM_HIER_MAX_LEVELS);
    if (k == 0) { /* a single core */
        out->k = 1;
        out->a[0] = 1;
        out->d[0] = 1;
    } else {
        int32_t a[TM_HIER_MAX_LEVELS] = {0};
        unsigned mask[TM_HIER_MAX_LEVELS] = {0};
        tm_err err = check_level(R, top, k, a, mask);
        if (err)
            return err;
        out->k = k;
        for (int i = 0; i < k; i++)
            out->a[i] = a[i];
        level_distances(mask, out);
    }
    out->group[0] = 1;
    for (int i = 0; i < out->k; i++)
        out->group[i + 1] = out->group[i] * out->a[i];
    out->n_pe = out->group[out->k];
    return TM_EOK;
}

static tm_err hwloc_read(tm_ctx *ctx, FILE *in, const char *name, tm_hier *out)
{
    xmlDocPtr doc = NULL;
    xmlNodePtr machine = NULL;
    rd R;
    int32_t top;
    tm_err err;
    memset(out, 0, sizeof *out);
    memset(&R, 0, sizeof R);
    R.ctx = ctx;
    R.name = name;
    err = tm__xml_parse(ctx, in, name, &doc);
    if (err)
        return err;
    err = find_machine(ctx, doc, name, &machine);
    if (!err)
        err = read_allowed(&R, machine);
    if (err)
        goto out;
    top = build(&R, machine, 0);
    if (R.err) {
        err = R.err;
        goto out;
    }
    if (top < 0) {
        err = tm__fail(ctx, TM_EINPUT, "%s: no cores: %s", name,
                       R.n_pu ? "no PU is in the allowed_cpuset" : "the topology has no PU");
        goto out;
    }
    err = warn_restricted(&R, machine);
    if (!err)
        err = to_hier(&R, top, out);
out:
    if (err)
        memset(out, 0, sizeof *out);
    free(R.allowed.w);
    free(R.nodes);
    free(R.kids);
    xmlFreeDoc(doc);
    return err;
}
