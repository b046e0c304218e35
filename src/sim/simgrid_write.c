/*
 * simgrid_write.c - tm_simgrid_write(): the net and its routing as a
 * SimGrid 4.1 platform (include/topomap/sim.h, docs/time.md).
 *
 * Written with libxml2's xmlTextWriter (escaping, well-formedness) to the
 * caller's stream; the CLI gives it an atomic output file (tm_ofile).
 * Each route is read from the router itself: one flow of volume 1 through
 * tm_route_flows loads exactly the directed links of its path, which are
 * then walked from the source to list them in order and cleared again, so
 * the platform's routes are the router's by construction.
 */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "topomap/sim.h"
#include "../io/xml_int.h"
#include "../util/util.h"

/* One SimGrid link per pair of cabled vertices (lo < hi). */
typedef struct sg_links {
    int32_t n;        /* merged links */
    int32_t *of;      /* of[c]: merged link of cable c (-1: disabled) */
    int32_t *lo, *hi; /* per merged link */
    double *gbps;     /* per merged link: summed capacity */
} sg_links;

typedef struct sg_writer {
    tm_ctx *ctx;
    const tm_net *net;
    const tm_net_csr *csr;
    xmlTextWriterPtr w;
    int bad;          /* an xmlTextWriter call failed */
    sg_links links;
    double *load;     /* n_links, zero between routes */
    int32_t *path;    /* directed links of the current route */
} sg_writer;

static void links_release(sg_links *L)
{
    free(L->of);
    free(L->lo);
    free(L->hi);
    free(L->gbps);
}

/* A cable by its ends, lower vertex first: sorting these groups parallel
 * cables (no context pointer needed in the comparison). */
typedef struct sg_cable {
    int32_t lo, hi, c;
} sg_cable;

static int cmp_cable(const void *x, const void *y)
{
    const sg_cable *p = x, *q = y;
    if (p->lo != q->lo)
        return p->lo < q->lo ? -1 : 1;
    if (p->hi != q->hi)
        return p->hi < q->hi ? -1 : 1;
    return (p->c > q->c) - (p->c < q->c);
}

/* Groups the enabled cables by their pair of ends, in (lo, hi) order. */
static tm_err links_build(tm_ctx *ctx, const tm_net *net, sg_links *L)
{
    int32_t nc = tm_net_n_cables(net), m = 0;
    sg_cable *order;
    memset(L, 0, sizeof *L);
    order = tm__malloc_n((size_t)nc + 1, sizeof *order);
    L->of = tm__malloc_n((size_t)nc + 1, sizeof *L->of);
    L->lo = tm__malloc_n((size_t)nc + 1, sizeof *L->lo);
    L->hi = tm__malloc_n((size_t)nc + 1, sizeof *L->hi);
    L->gbps = tm__malloc_n((size_t)nc + 1, sizeof *L->gbps);
    if (!order || !L->of || !L->lo || !L->hi || !L->gbps) {
        free(order);
        links_release(L);
        return tm__nomem(ctx);
    }
    for (int32_t c = 0; c < nc; c++) {
        int32_t a, b;
        L->of[c] = -1;
        if (!tm_net_cable_enabled(net, c))
            continue;
        tm_net_cable(net, c, &a, &b);
        order[m++] = (sg_cable){a < b ? a : b, a < b ? b : a, c};
    }
    qsort(order, (size_t)m, sizeof *order, cmp_cable);
    for (int32_t i = 0; i < m; i++) {
        if (L->n == 0 || L->lo[L->n - 1] != order[i].lo || L->hi[L->n - 1] != order[i].hi) {
            L->lo[L->n] = order[i].lo;
            L->hi[L->n] = order[i].hi;
            L->gbps[L->n++] = 0;
        }
        L->of[order[i].c] = L->n - 1;
        L->gbps[L->n - 1] += tm_net_capacity(net, order[i].c);
    }
    free(order);
    return TM_EOK;
}

/* Shortest "%g" text of d that parses back to d (C locale is in force). */
static void fmt_num(char *buf, size_t n, double d)
{
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            return;
    }
}

static void put_attr(sg_writer *s, const char *name, const char *val)
{
    s->bad |= xmlTextWriterWriteAttribute(s->w, BAD_CAST name, BAD_CAST val) < 0;
}

static void put_num(sg_writer *s, const char *name, double d, const char *unit)
{
    char buf[80], num[64];
    fmt_num(num, sizeof num, d);
    snprintf(buf, sizeof buf, "%s%s", num, unit);
    put_attr(s, name, buf);
}

static void start(sg_writer *s, const char *elem)
{
    s->bad |= xmlTextWriterStartElement(s->w, BAD_CAST elem) < 0;
}

static void end(sg_writer *s)
{
    s->bad |= xmlTextWriterEndElement(s->w) < 0;
}

static void link_id(char *buf, size_t n, int32_t k)
{
    snprintf(buf, n, "L%d", (int)k);
}

/* Hosts, routers, cable links and loopbacks. */
static void write_resources(sg_writer *s, const tm_simgrid_opts *o, const int32_t *hosts,
                            int32_t nh)
{
    int32_t nv = tm_net_n_vertices(s->net);
    char id[32], ends[64];
    for (int32_t v = 0; v < nv; v++) {
        bool host = tm_net_kind(s->net, v) == TM_VERTEX_HOST;
        int32_t slots = tm_net_slots(s->net, v);
        start(s, host ? "host" : "router");
        put_attr(s, "id", tm_net_name(s->net, v));
        if (host) {
            put_num(s, "speed", o->host_speed_flops, "f");
            put_num(s, "core", slots > 0 ? slots : 1, "");
        }
        end(s);
    }
    for (int32_t k = 0; k < s->links.n; k++) {
        link_id(id, sizeof id, k);
        start(s, "link");
        put_attr(s, "id", id);
        put_num(s, "bandwidth", s->links.gbps[k], "Gbps");
        put_num(s, "latency", o->latency_s, "s");
        put_attr(s, "sharing_policy", "SPLITDUPLEX");
        /* which vertices the link joins (UP: first to second) */
        start(s, "prop");
        put_attr(s, "id", "ends");
        snprintf(ends, sizeof ends, "%d %d", (int)s->links.lo[k], (int)s->links.hi[k]);
        put_attr(s, "value", ends);
        end(s);
        end(s);
    }
    /* Plain numbers (bytes/s, s) on the loopback: unit strings there were
     * seen to crash SimGrid 3.32 (docs/time.md); FATPIPE: ranks on one host
     * do not share a wire. */
    for (int32_t i = 0; i < nh; i++) {
        snprintf(id, sizeof id, "lo%d", (int)hosts[i]);
        start(s, "link");
        put_attr(s, "id", id);
        put_num(s, "bandwidth", o->loopback_gbps * 1e9 / 8, "");
        put_num(s, "latency", o->loopback_latency_s, "");
        put_attr(s, "sharing_policy", "FATPIPE");
        end(s);
    }
}

/* Walks the loaded links of the flow src -> dst from src, storing them in
 * s->path in order (*len of them) and clearing their load.  TM_EUSAGE if
 * the flow splits between two neighbours. */
static tm_err walk_path(sg_writer *s, const tm_route *r, int32_t src, int32_t dst, int32_t *len_out)
{
    const tm_net_csr *g = s->csr;
    int32_t v = src, len = 0;
    while (v != dst) {
        int32_t next = -1;
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++) {
            int32_t l = g->link[j];
            if (s->load[l] == 0)
                continue;
            s->load[l] = 0;
            if (next >= 0 && g->head[j] != next && v == src &&
                tm_net_host_rails(s->net, src) >= 2)
                return tm__fail(s->ctx, TM_EUSAGE, "host %s has %d rails and routing '%s' "
                                "stripes its messages over them (docs/routing.md \"Multi-rail "
                                "hosts\"): a SimGrid platform has one path per pair; export "
                                "with a routing that uses one rail of this host (on separate "
                                "planes: ftree, minhop or updn, which route its base LID only)",
                                tm_net_name(s->net, src), (int)tm_net_host_rails(s->net, src),
                                tm_route_kind_name(tm_route_kind_of(r)));
            if (next >= 0 && g->head[j] != next)
                return tm__fail(s->ctx, TM_EUSAGE, "routing '%s' splits the flow %s -> %s "
                                "over two neighbours of %s: a SimGrid platform has one path "
                                "per pair", tm_route_kind_name(tm_route_kind_of(r)),
                                tm_net_name(s->net, src), tm_net_name(s->net, dst),
                                tm_net_name(s->net, v));
            if (next < 0 && len < g->n)
                s->path[len++] = l;
            next = g->head[j];
        }
        if (next < 0 || len >= g->n)
            return tm__fail(s->ctx, TM_EINTERNAL, "the route %s -> %s does not arrive",
                            tm_net_name(s->net, src), tm_net_name(s->net, dst));
        v = next;
    }
    *len_out = len;
    return TM_EOK;
}

static tm_err write_route(sg_writer *s, const tm_route *r, tm_route_ws *ws, int32_t src,
                          int32_t dst)
{
    double one = 1;
    int32_t len = 0;
    char id[32];
    tm_err err = tm_route_flows(s->ctx, r, ws, src, 1, &dst, &one, s->load, NULL);
    if (err)
        return err;
    if ((err = walk_path(s, r, src, dst, &len)))
        return err;
    start(s, "route");
    put_attr(s, "src", tm_net_name(s->net, src));
    put_attr(s, "dst", tm_net_name(s->net, dst));
    put_attr(s, "symmetrical", "NO");
    for (int32_t i = 0; i < len; i++) {
        int32_t l = s->path[i], c = l / 2, k = s->links.of[c], a, b;
        tm_net_cable(s->net, c, &a, &b);
        /* link 2c goes a -> b; UP goes from the link's lower vertex */
        bool from_lo = (l % 2 == 0 ? a : b) == s->links.lo[k];
        link_id(id, sizeof id, k);
        start(s, "link_ctn");
        put_attr(s, "id", id);
        put_attr(s, "direction", from_lo ? "UP" : "DOWN");
        end(s);
    }
    end(s);
    return TM_EOK;
}

/* Every ordered pair of selected hosts, loopbacks first. */
static tm_err write_routes(sg_writer *s, const tm_route *r, const int32_t *hosts, int32_t nh)
{
    tm_route_ws *ws = NULL;
    char id[32];
    tm_err err;
    for (int32_t i = 0; i < nh; i++) {
        snprintf(id, sizeof id, "lo%d", (int)hosts[i]);
        start(s, "route");
        put_attr(s, "src", tm_net_name(s->net, hosts[i]));
        put_attr(s, "dst", tm_net_name(s->net, hosts[i]));
        start(s, "link_ctn");
        put_attr(s, "id", id);
        end(s);
        end(s);
    }
    if ((err = tm_route_ws_new(s->ctx, r, &ws)))
        return err;
    for (int32_t i = 0; i < nh && !err && !s->bad; i++)
        for (int32_t j = 0; j < nh && !err && !s->bad; j++)
            if (i != j)
                err = write_route(s, r, ws, hosts[i], hosts[j]);
    tm_route_ws_free(ws);
    return err;
}

/* The selected hosts (all hosts when opts->hosts is NULL), checked. */
static tm_err select_hosts(tm_ctx *ctx, const tm_net *net, const tm_simgrid_opts *o,
                           int32_t **out, int32_t *n_out)
{
    int32_t nv = tm_net_n_vertices(net), n = 0;
    int32_t *h = tm__malloc_n((size_t)nv + 1, sizeof *h);
    uint8_t *seen = tm__calloc_n((size_t)nv + 1, 1);
    tm_err err = TM_EOK;
    if (!h || !seen) {
        err = tm__nomem(ctx);
        goto out;
    }
    if (!o->hosts) {
        for (int32_t v = 0; v < nv; v++)
            if (tm_net_kind(net, v) == TM_VERTEX_HOST)
                h[n++] = v;
    } else {
        for (int32_t i = 0; i < o->n_hosts; i++) {
            int32_t v = o->hosts[i];
            if (v < 0 || v >= nv || tm_net_kind(net, v) != TM_VERTEX_HOST || seen[v]) {
                err = tm__fail(ctx, TM_EUSAGE, "simgrid: selected host %d is not a host of the "
                               "net or is listed twice", (int)v);
                goto out;
            }
            seen[v] = 1;
            h[n++] = v;
        }
    }
    for (int32_t v = 0; v < nv; v++) {
        const char *why = tm__xml_name_problem(tm_net_name(net, v), false);
        if (why) {
            err = tm__fail(ctx, TM_EINPUT, "cannot write vertex name '%.100s' in a SimGrid "
                           "platform: %s", tm_net_name(net, v), why);
            goto out;
        }
    }
out:
    free(seen);
    if (err)
        free(h);
    else
        *out = h, *n_out = n;
    return err;
}

static tm_err check_opts(tm_ctx *ctx, const tm_simgrid_opts *o)
{
    if (!(o->latency_s >= 0 && o->latency_s < 1e3) || !(o->loopback_latency_s >= 0 &&
        o->loopback_latency_s < 1e3))
        return tm__fail(ctx, TM_EUSAGE, "simgrid: latencies must be in [0, 1000) s");
    if (!(o->host_speed_flops > 0 && o->host_speed_flops < 1e30) ||
        !(o->loopback_gbps > 0 && o->loopback_gbps < 1e15))
        return tm__fail(ctx, TM_EUSAGE, "simgrid: host speed and loopback bandwidth must be "
                        "positive and finite");
    if (o->hosts && o->n_hosts < 0)
        return tm__fail(ctx, TM_EUSAGE, "simgrid: negative host count");
    return TM_EOK;
}

static tm_err write_doc(sg_writer *s, const tm_route *r, const char *rname,
                        const tm_simgrid_opts *o, const int32_t *hosts, int32_t nh)
{
    tm_err err;
    s->bad |= xmlTextWriterSetIndent(s->w, 1) < 0;
    s->bad |= xmlTextWriterSetIndentString(s->w, BAD_CAST " ") < 0;
    s->bad |= xmlTextWriterStartDocument(s->w, "1.0", "UTF-8", NULL) < 0;
    s->bad |= xmlTextWriterWriteDTD(s->w, BAD_CAST "platform", NULL,
                                    BAD_CAST "https://simgrid.org/simgrid.dtd", NULL) < 0;
    s->bad |= xmlTextWriterWriteComment(s->w, BAD_CAST
        " topomap: one link per cabled pair (parallel cables summed), routes of the routing"
        " named below (docs/time.md) ") < 0;
    start(s, "platform");
    put_attr(s, "version", "4.1");
    start(s, "zone");
    put_attr(s, "id", "topomap");
    put_attr(s, "routing", "Full");
    start(s, "prop");
    put_attr(s, "id", "topomap_routing");
    put_attr(s, "value", rname);
    end(s);
    write_resources(s, o, hosts, nh);
    err = write_routes(s, r, hosts, nh);
    if (err)
        return err;
    s->bad |= xmlTextWriterEndDocument(s->w) < 0;
    return TM_EOK;
}

static tm_err write_with(sg_writer *s, const tm_route *r, const char *rname,
                         const tm_simgrid_opts *o, FILE *out)
{
    int32_t *hosts = NULL, nh = 0;
    xmlOutputBufferPtr buf;
    tm_err err;
    if ((err = select_hosts(s->ctx, s->net, o, &hosts, &nh)))
        return err;
    if ((err = links_build(s->ctx, s->net, &s->links))) {
        free(hosts);
        return err;
    }
    s->load = tm__calloc_n((size_t)s->csr->n_links + 1, sizeof *s->load);
    s->path = tm__malloc_n((size_t)s->csr->n + 1, sizeof *s->path);
    buf = s->load && s->path ? xmlOutputBufferCreateFile(out, NULL) : NULL;
    s->w = buf ? xmlNewTextWriter(buf) : NULL;
    if (!s->w) {
        if (buf)
            xmlOutputBufferClose(buf);
        err = tm__nomem(s->ctx);
    } else {
        err = write_doc(s, r, rname, o, hosts, nh);
        xmlFreeTextWriter(s->w); /* flushes into out */
    }
    if (!err && s->bad)
        err = tm__fail(s->ctx, TM_EIO, "write error while writing the SimGrid platform");
    free(s->load);
    free(s->path);
    links_release(&s->links);
    free(hosts);
    return err;
}

tm_err tm_simgrid_write(tm_ctx *ctx, const tm_route *r, const tm_simgrid_opts *opts, FILE *out)
{
    tm_simgrid_opts def = TM_SIMGRID_OPTS_INIT;
    const tm_simgrid_opts *o = opts ? opts : &def;
    sg_writer s;
    tm_route *single = NULL;
    locale_t c_loc, old;
    tm_err err;
    memset(&s, 0, sizeof s);
    s.ctx = ctx;
    s.net = tm_route_net(r);
    s.csr = tm_net_csr_get(s.net);
    if ((err = check_opts(ctx, o)))
        return err;
    if (!s.csr)
        return tm__fail(ctx, TM_EUSAGE, "simgrid: the net is not finalized");
    /* ECMP: the `single` routing's path, one of ECMP's shortest paths */
    if (tm_route_kind_of(r) == TM_ROUTE_ECMP) {
        if ((err = tm_route_new(ctx, s.net, TM_ROUTE_SINGLE, &single)))
            return err;
    }
    c_loc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    if (!c_loc) {
        tm_route_free(single);
        return tm__nomem(ctx);
    }
    old = uselocale(c_loc); /* per thread: numbers with a decimal point */
    err = write_with(&s, single ? single : r,
                     single ? "ecmp as one shortest path per pair (single)"
                            : tm_route_kind_name(tm_route_kind_of(r)), o, out);
    uselocale(old);
    freelocale(c_loc);
    tm_route_free(single);
    if (!err && (fflush(out) != 0 || ferror(out)))
        err = tm__fail(ctx, TM_EIO, "write error while writing the SimGrid platform");
    return err;
}
