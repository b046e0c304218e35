/*
 * ibnet_build.c - tm_ibnet_read(): parse a dump (ibnet_parse.c), then
 * check and pair the port lines and build the tm_net.
 *
 * Every link is printed from both ends; the two port lines must name each
 * other (else the dump is truncated or inconsistent: error).  A cable is
 * added once per port pair, parallel cables are kept, switch self-loops
 * dropped.  Nodes are keyed by GUID through hash maps, and every step is
 * linear in the dump size except the final sorts (n log n) that make the
 * vertex and cable order independent of the dump's node order: hosts
 * first, then switches, each in natural name order; cables by endpoints.
 */
#include <stdlib.h>
#include <string.h>

#include "ibnet_int.h"

/* Readable form of a node key for messages. */
static void key_display(const char *key, char *buf, size_t sz)
{
    if (key[0] == 'g')
        snprintf(buf, sz, "GUID 0x%s", key + 1);
    else
        snprintf(buf, sz, "\"%.200s\"", key + 1);
}

/* Resolves peers and fills the port slot table. */
static tm_err pair_ports(tm__ib_builder *b)
{
    tm__ib_dump *d = b->d;
    size_t total = 0;
    char disp[256];
    for (size_t i = 0; i < d->n_nodes; i++) {
        d->nodes[i].port_off = (int32_t)total;
        total += (size_t)d->nodes[i].nports + 1;
    }
    b->slot = tm__malloc_n(total ? total : 1, sizeof *b->slot);
    if (!b->slot)
        return tm__nomem(d->ctx);
    memset(b->slot, 0xff, total * sizeof *b->slot);
    for (size_t r = 0; r < d->n_ports; r++) {
        tm__ib_port *p = &d->ports[r];
        const tm__ib_node *n = &d->nodes[p->node], *pn;
        int32_t *s = &b->slot[n->port_off + p->port];
        p->peer = tm__strmap_get(&d->keys, p->peer_key);
        if (p->peer < 0) {
            key_display(p->peer_key, disp, sizeof disp);
            return tm__ib_fail_at(d, p->line, "port %d of \"%s\": peer %s is not defined (truncated dump?)",
                           p->port, n->id, disp);
        }
        pn = &d->nodes[p->peer];
        if (p->peer_port > pn->nports && d->format == 1)
            return tm__ib_fail_at(d, p->line, "bad port number %d for peer \"%s\" (it has ports 1-%d)",
                           p->peer_port, pn->id, pn->nports);
        if (*s >= 0) {
            const tm__ib_port *o = &d->ports[*s];
            if (o->peer_key && strcmp(o->peer_key, p->peer_key) == 0 && o->peer_port == p->peer_port)
                return tm__ib_fail_at(d, p->line, "port %d of \"%s\" listed twice (also at line %ld)",
                               p->port, n->id, o->line);
            return tm__ib_fail_at(d, p->line,
                           "port %d of \"%s\" listed twice with different peers (line %ld)",
                           p->port, n->id, o->line);
        }
        *s = (int32_t)r;
    }
    return TM_EOK;
}

/* Checks that both ends name each other. */
static tm_err check_ends(tm__ib_builder *b)
{
    tm__ib_dump *d = b->d;
    for (size_t r = 0; r < d->n_ports; r++) {
        const tm__ib_port *p = &d->ports[r], *q;
        const tm__ib_node *pn = &d->nodes[p->peer];
        int32_t s = p->peer_port <= pn->nports ? b->slot[pn->port_off + p->peer_port] : -1;
        if (s < 0)
            return tm__ib_fail_at(d, p->line,
                           "link \"%s\"[%d] - \"%s\"[%d] is listed from one end only (\"%s\" does "
                           "not list port %d: truncated dump?)",
                           d->nodes[p->node].id, p->port, pn->id, p->peer_port, pn->id,
                           p->peer_port);
        q = &d->ports[s];
        if (q->peer != p->node || q->peer_port != p->port) {
            const tm__ib_port *late = q->line > p->line ? q : p, *early = late == q ? p : q;
            return tm__ib_fail_at(d, late->line,
                           "inconsistent peers: \"%s\"[%d] -> \"%s\"[%d] here, but line %ld says "
                           "\"%s\"[%d] -> \"%s\"[%d]",
                           d->nodes[late->node].id, late->port, d->nodes[late->peer].id,
                           late->peer_port, early->line, d->nodes[early->node].id, early->port,
                           d->nodes[early->peer].id, early->peer_port);
        }
    }
    return TM_EOK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Links without a width x speed token get the most common capacity of a
 * mixed dump, or 1 when no link has a token. */
static tm_err fill_unknown_caps(tm__ib_builder *b, size_t unknown, long first_unknown)
{
    tm__ib_dump *d = b->d;
    double fill = 1, best = 0;
    size_t best_n = 0;
    if (unknown < b->nc) {
        /* mixed dump: the most common capacity, by sorting the known ones */
        double *k = tm__malloc_n(b->nc - unknown, sizeof *k);
        size_t nk = 0;
        if (!k)
            return tm__nomem(d->ctx);
        for (size_t i = 0; i < b->nc; i++)
            if (b->c[i].cap)
                k[nk++] = b->c[i].cap;
        qsort(k, nk, sizeof *k, cmp_double);
        for (size_t i = 0, j; i < nk; i = j) {
            for (j = i; j < nk && k[j] == k[i]; j++)
                ;
            if (j - i > best_n) {
                best_n = j - i;
                best = k[i];
            }
        }
        free(k);
        fill = best;
        tm__warn(d->ctx, "%s:%ld: %zu link(s) without a width x speed token get capacity %g, "
                 "the most common one of this dump", d->name, first_unknown, unknown, fill);
    } else {
        tm__warn(d->ctx, "%s: no link has a width x speed token (old dump?): every cable "
                 "gets capacity 1", d->name);
    }
    for (size_t i = 0; i < b->nc; i++)
        if (!b->c[i].cap)
            b->c[i].cap = fill;
    return TM_EOK;
}

/* Cables: each port pair once, self-loops and excluded nodes dropped;
 * links without a width x speed token get a documented default. */
static tm_err collect_cables(tm__ib_builder *b)
{
    tm__ib_dump *d = b->d;
    size_t cap = 0, unknown = 0, loops = 0, host_loops = 0;
    long first_unknown = 0;
    for (size_t r = 0; r < d->n_ports; r++) {
        const tm__ib_port *p = &d->ports[r];
        const tm__ib_port *q = &d->ports[b->slot[d->nodes[p->peer].port_off + p->peer_port]];
        int32_t va = b->vof[p->node], vb = b->vof[p->peer];
        if ((size_t)(q - d->ports) < r)
            continue; /* added from the other end */
        if (p->node == p->peer) {
            loops++;
            continue;
        }
        if (va < 0 || vb < 0)
            continue;
        /* Two HCAs merged into one host and cabled to each other: the
         * cable stays inside the host and carries no traffic (found by
         * tests/fuzz/fuzz_ibnet; tm_net_add_cable refuses it). */
        if (va == vb) {
            host_loops++;
            continue;
        }
        if (tm__grow((void **)&b->c, &cap, b->nc + 1, sizeof *b->c) < 0)
            return tm__nomem(d->ctx);
        b->c[b->nc].a = va;
        b->c[b->nc].b = vb;
        b->c[b->nc].pa = p->port;
        b->c[b->nc].pb = q->port;
        b->c[b->nc].line = p->line;
        b->c[b->nc].cap = p->cap && q->cap ? (p->cap < q->cap ? p->cap : q->cap)
                                           : (p->cap ? p->cap : q->cap);
        if (!b->c[b->nc].cap && !unknown++)
            first_unknown = p->line;
        b->nc++;
    }
    if (loops)
        tm__log(d->ctx, TM_LOG_INFO, "%s: dropped %zu switch self-loop cable(s)", d->name, loops);
    if (host_loops)
        tm__log(d->ctx, TM_LOG_INFO, "%s: dropped %zu cable(s) between HCAs of one host", d->name,
                host_loops);
    return unknown ? fill_unknown_caps(b, unknown, first_unknown) : TM_EOK;
}

/* The error for a dump without usable links, naming a node that has no
 * connected port if there is one (topograph's example-bad.out). */
static tm_err no_links(tm__ib_builder *b)
{
    tm__ib_dump *d = b->d;
    for (size_t i = 0; i < d->n_nodes; i++) {
        const tm__ib_node *n = &d->nodes[i];
        int32_t p;
        for (p = 1; p <= n->nports && b->slot[n->port_off + p] < 0; p++)
            ;
        if (p > n->nports)
            return tm__ib_fail_at(d, n->line,
                           "no InfiniBand links found (%s \"%s\"%s%s%s has no connected port)",
                           n->type == TM_IB_CA ? "Ca" : n->type == TM_IB_SW ? "Switch" : "Rt", n->id,
                           n->desc ? " \"" : "", n->desc ? n->desc : "", n->desc ? "\"" : "");
    }
    return tm__ib_fail_at(d, d->last_line > 0 ? d->last_line : 1,
                   "no InfiniBand links found (only switch self-loops and links to SHARP nodes)");
}

static int cmp_vtx(const void *a, const void *b)
{
    const tm__ib_vtx *x = a, *y = b;
    if (x->host != y->host)
        return x->host ? -1 : 1;
    return tm__ib_natural_cmp(x->name, y->name);
}

static int cmp_cable(const void *a, const void *b)
{
    const tm__ib_cable *x = a, *y = b;
    if (x->a != y->a)
        return x->a < y->a ? -1 : 1;
    if (x->b != y->b)
        return x->b < y->b ? -1 : 1;
    if (x->cap != y->cap)
        return x->cap < y->cap ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

/* Adds the vertices in sorted order, then the cables. */
static tm_err emit(tm__ib_builder *b, tm_net *net)
{
    tm__ib_dump *d = b->d;
    int32_t slots = b->opts->slots > 0 ? b->opts->slots : 1;
    int32_t *order = NULL;
    tm_err err = TM_EOK;
    /* remember each vtx's position before sorting: cables refer to it */
    order = tm__malloc_n(b->nv ? b->nv : 1, sizeof *order);
    if (!order)
        return tm__nomem(d->ctx);
    for (size_t i = 0; i < b->nv; i++)
        b->v[i].id = (int32_t)i;
    qsort(b->v, b->nv, sizeof *b->v, cmp_vtx);
    for (size_t i = 0; i < b->nv; i++) {
        const tm__ib_node *n = &d->nodes[b->v[i].node];
        int32_t id;
        order[b->v[i].id] = (int32_t)i;
        if (tm_net_find(net, b->v[i].name) >= 0) {
            err = tm__ib_fail_at(d, n->line, "vertex name \"%s\" already exists in the network",
                          b->v[i].name);
            goto out;
        }
        err = tm_net_add_vertex(d->ctx, net, b->v[i].name,
                                b->v[i].host ? TM_VERTEX_HOST : TM_VERTEX_SWITCH,
                                b->v[i].host ? slots : 0, &id);
        if (!err && n->desc)
            err = tm_net_set_desc(d->ctx, net, id, n->desc);
        if (err)
            goto out;
        tm_net_set_guid(net, id, n->guid);
        b->v[i].id = id;
    }
    for (size_t i = 0; i < b->nc; i++) {
        int32_t x = b->v[order[b->c[i].a]].id, y = b->v[order[b->c[i].b]].id;
        int32_t px = b->c[i].pa, py = b->c[i].pb;
        b->c[i].a = x < y ? x : y;
        b->c[i].b = x < y ? y : x;
        b->c[i].pa = x < y ? px : py;
        b->c[i].pb = x < y ? py : px;
    }
    qsort(b->c, b->nc, sizeof *b->c, cmp_cable);
    for (size_t i = 0; i < b->nc && !err; i++) {
        int32_t c;
        err = tm_net_add_cable(d->ctx, net, b->c[i].a, b->c[i].b, b->c[i].cap, &c);
        if (!err)
            err = tm_net_set_cable_ports(d->ctx, net, c, b->c[i].pa, b->c[i].pb);
    }
    if (!err)
        err = tm__ib_add_lids(b, order, net);
out:
    free(order);
    return err;
}

tm_err tm__ib_build(tm__ib_dump *d, const tm_ibnet_opts *opts, tm_net *net)
{
    tm_ibnet_opts defaults = TM_IBNET_OPTS_INIT;
    tm__ib_builder b;
    tm_err err;
    memset(&b, 0, sizeof b);
    b.d = d;
    b.opts = opts ? opts : &defaults;
    tm__strmap_init(&b.names);
    if (d->n_nodes == 0) {
        err = tm__ib_fail_at(d, d->last_line > 0 ? d->last_line : 1, "no InfiniBand nodes found");
        goto out;
    }
    b.vof = tm__malloc_n(d->n_nodes, sizeof *b.vof);
    if (!b.vof) {
        err = tm__nomem(d->ctx);
        goto out;
    }
    if ((err = pair_ports(&b)) || (err = check_ends(&b)) || (err = tm__ib_name_hosts(&b)) ||
        (err = tm__ib_name_switches(&b)) || (err = collect_cables(&b)))
        goto out;
    if (b.nc == 0) {
        err = no_links(&b);
        goto out;
    }
    err = emit(&b, net);
out:
    for (size_t i = 0; i < b.nv; i++)
        free(b.v[i].name);
    free(b.v);
    free(b.c);
    free(b.slot);
    free(b.vof);
    tm__strmap_release(&b.names);
    return err;
}

tm_err tm_ibnet_read(tm_ctx *ctx, FILE *in, const char *name, const tm_ibnet_opts *opts,
                     tm_net *net)
{
    tm__ib_dump d;
    tm_err err;
    memset(&d, 0, sizeof d);
    d.ctx = ctx;
    d.name = name ? name : "<input>";
    tm__strmap_init(&d.keys);
    err = tm__ib_parse(&d, in);
    if (!err)
        err = tm__ib_build(&d, opts, net);
    tm__ib_dump_release(&d);
    return err;
}
