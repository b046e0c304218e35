/*
 * simgrid_write.c - tm_simgrid_write(): the net and its routing as a
 * SimGrid 4.1 platform (include/topomap/sim.h, docs/time.md).
 *
 * Written with libxml2's xmlTextWriter (escaping, well-formedness) to the
 * caller's stream; the CLI gives it an atomic output file (tm_ofile).
 * One SPLITDUPLEX link per cable, so parallel cables stay apart.  Each
 * route is read from the router itself: tm_route_pair_links gives the
 * directed links one message of the pair loads, walked from the source to
 * list them in order, so the platform's routes are the router's by
 * construction, cable for cable; where the router splits the pair, the
 * walk draws one branch in proportion to the split (pick_path).
 */
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "topomap/sim.h"
#include "../io/xml_int.h"
#include "../util/util.h"

typedef struct sg_writer {
    tm_ctx *ctx;
    const tm_net *net;
    const tm_net_csr *csr;
    xmlTextWriterPtr w;
    int bad;              /* an xmlTextWriter call failed */
    tm_route_pairs *pairs; /* the router's links and fractions per pair */
    int32_t *path;        /* directed links of the current route */
    int64_t split;        /* routes drawn among several paths */
} sg_writer;

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

static void link_id(char *buf, size_t n, int32_t cable)
{
    snprintf(buf, n, "L%d", (int)cable);
}

/* Hosts, routers, one link per enabled cable, loopbacks. */
static void write_resources(sg_writer *s, const tm_simgrid_opts *o, const int32_t *hosts,
                            int32_t nh)
{
    int32_t nv = tm_net_n_vertices(s->net), nc = tm_net_n_cables(s->net);
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
    /* A SPLITDUPLEX link is two resources of the full bandwidth, one per
     * direction, as topomap's two directed links of a cable; parallel
     * cables stay apart (each route names the cable its router loads). */
    for (int32_t c = 0; c < nc; c++) {
        int32_t a, b;
        if (!tm_net_cable_enabled(s->net, c))
            continue;
        tm_net_cable(s->net, c, &a, &b);
        link_id(id, sizeof id, c);
        start(s, "link");
        put_attr(s, "id", id);
        put_num(s, "bandwidth", tm_net_capacity(s->net, c), "Gbps");
        put_num(s, "latency", o->latency_s, "s");
        put_attr(s, "sharing_policy", "SPLITDUPLEX");
        /* which vertices the cable joins (UP: first to second) */
        start(s, "prop");
        put_attr(s, "id", "ends");
        snprintf(ends, sizeof ends, "%d %d", (int)a, (int)b);
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

/* The tail vertex of directed link l (link 2c goes from the cable's first
 * end to its second). */
static int32_t link_tail(const tm_net *net, int32_t l)
{
    int32_t a, b;
    tm_net_cable(net, l / 2, &a, &b);
    return l % 2 == 0 ? a : b;
}

static int32_t link_head(const tm_net *net, int32_t l)
{
    int32_t a, b;
    tm_net_cable(net, l / 2, &a, &b);
    return l % 2 == 0 ? b : a;
}

/* One path src -> dst through the router's links of the pair (n of them,
 * with their fractions), stored in s->path (*len links).  Where the router
 * splits the pair (ECMP, a multi-rail host's striping, LMC spreading), the
 * out-link at each such vertex is drawn with probability its fraction / the
 * fraction through the vertex, from a generator seeded by the pair: the
 * path is then drawn from the split itself (under ECMP uniformly among the
 * shortest paths), as a hashing fabric puts a flow on one path, and is the
 * same on every export of the same net. */
static tm_err pick_path(sg_writer *s, int32_t src, int32_t dst, int32_t n, const int32_t *links,
                        const double *frac, int32_t *len_out)
{
    int32_t v = src, len = 0;
    bool split = false;
    tm__rng rng;
    tm__rng_seed(&rng, (uint64_t)(uint32_t)src << 32 | (uint32_t)dst, 0x5349u);
    while (v != dst) {
        double through = 0, u, acc = 0;
        int32_t out = 0, pick = -1;
        for (int32_t i = 0; i < n; i++)
            if (link_tail(s->net, links[i]) == v) {
                through += frac[i];
                out++;
                pick = links[i]; /* the last one takes rounding's remainder */
            }
        if (out == 0 || len >= s->csr->n)
            return tm__fail(s->ctx, TM_EINTERNAL, "the route %s -> %s does not arrive",
                            tm_net_name(s->net, src), tm_net_name(s->net, dst));
        if (out > 1) {
            split = true;
            u = tm__rng_unit(&rng) * through;
            for (int32_t i = 0; i < n; i++)
                if (link_tail(s->net, links[i]) == v && (acc += frac[i]) > u) {
                    pick = links[i];
                    break;
                }
        }
        s->path[len++] = pick;
        v = link_head(s->net, pick);
    }
    s->split += split;
    *len_out = len;
    return TM_EOK;
}

static tm_err write_route(sg_writer *s, int32_t src, int32_t dst)
{
    const int32_t *links;
    const double *frac;
    int32_t n = 0, len = 0;
    char id[32];
    tm_err err = tm_route_pair_links(s->ctx, s->pairs, src, dst, &n, &links, &frac);
    if (err)
        return err;
    if ((err = pick_path(s, src, dst, n, links, frac, &len)))
        return err;
    start(s, "route");
    put_attr(s, "src", tm_net_name(s->net, src));
    put_attr(s, "dst", tm_net_name(s->net, dst));
    put_attr(s, "symmetrical", "NO");
    for (int32_t i = 0; i < len; i++) {
        int32_t l = s->path[i];
        link_id(id, sizeof id, l / 2);
        start(s, "link_ctn");
        put_attr(s, "id", id);
        put_attr(s, "direction", l % 2 == 0 ? "UP" : "DOWN");
        end(s);
    }
    end(s);
    return TM_EOK;
}

/* Every ordered pair of selected hosts, loopbacks first. */
static tm_err write_routes(sg_writer *s, const tm_route *r, const int32_t *hosts, int32_t nh)
{
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
    if ((err = tm_route_pairs_new(s->ctx, r, &s->pairs)))
        return err;
    for (int32_t i = 0; i < nh && !err && !s->bad; i++)
        for (int32_t j = 0; j < nh && !err && !s->bad; j++)
            if (i != j)
                err = write_route(s, hosts[i], hosts[j]);
    tm_route_pairs_free(s->pairs);
    s->pairs = NULL;
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
        " topomap: one link per cable (ends: its two vertex ids, UP from the first), every"
        " route the cables the routing named below loads; where it splits a pair, one path"
        " drawn from its split (docs/time.md) ") < 0;
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
    if (s->split > 0) {
        char note[160];
        snprintf(note, sizeof note, " %lld of %lld routes: one path drawn from the routing's "
                 "split of the pair ", (long long)s->split, (long long)nh * (nh - 1));
        s->bad |= xmlTextWriterWriteComment(s->w, BAD_CAST note) < 0;
    }
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
    s->path = tm__malloc_n((size_t)s->csr->n + 1, sizeof *s->path);
    buf = s->path ? xmlOutputBufferCreateFile(out, NULL) : NULL;
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
    free(s->path);
    free(hosts);
    return err;
}

typedef struct sg_args {
    sg_writer *s;
    const tm_route *r;
    const tm_simgrid_opts *o;
} sg_args;

static tm_err write_args(void *arg, FILE *out)
{
    const sg_args *a = arg;
    return write_with(a->s, a->r, tm_route_kind_name(tm_route_kind_of(a->r)), a->o, out);
}

tm_err tm_simgrid_write(tm_ctx *ctx, const tm_route *r, const tm_simgrid_opts *opts, FILE *out)
{
    tm_simgrid_opts def = TM_SIMGRID_OPTS_INIT;
    const tm_simgrid_opts *o = opts ? opts : &def;
    sg_writer s;
    sg_args a = {&s, r, o};
    tm_err err;
    memset(&s, 0, sizeof s);
    s.ctx = ctx;
    s.net = tm_route_net(r);
    s.csr = tm_net_csr_get(s.net);
    if ((err = check_opts(ctx, o)))
        return err;
    if (!s.csr)
        return tm__fail(ctx, TM_EUSAGE, "simgrid: the net is not finalized");
    /* Their paths leave the minimal DAG and may pass a vertex twice: a
     * walk over the pair's loaded links could not tell the visits apart. */
    if (tm_route_kind_of(r) == TM_ROUTE_VALIANT || tm_route_kind_of(r) == TM_ROUTE_UGAL)
        return tm__fail(ctx, TM_EUSAGE, "simgrid: routing '%s' (non-minimal, through other "
                        "groups) is not exported; export with a minimal routing (ecmp, single, "
                        "dor, lft, ftree, minhop, updn)", tm_route_kind_name(tm_route_kind_of(r)));
    err = tm__write_c_locale(ctx, out, "the SimGrid platform", write_args, &a);
    if (!err && o->split_pairs)
        *o->split_pairs = s.split;
    return err;
}
