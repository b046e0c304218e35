/*
 * ibnet_write.c - tm_ibnet_write(): a tm_net as an ibnetdiscover topology
 * dump (switches first, then CAs, every link from both ends) that
 * tm_ibnet_read() and ibsim read back.
 *
 * - GUIDs: the vertex GUID when set and unique, else a deterministic
 *   synthetic one (0x7000000000000000 + (v+1) * 256, skipping used ones).
 *   A CA's port p has port GUID node GUID + p; switch ports share the
 *   switch GUID.
 * - Ports are numbered 1..degree in cable order (at most 255).
 * - Capacity -> width x speed token (4xEDR for 100); a capacity with no
 *   exact token is written as the nearest one, with a warning.  When every
 *   cable has capacity 1 (a dump without tokens) no token is written, so
 *   such dumps round-trip too.  Disabled cables are not written.
 * - Descriptions are chosen so that the reader's naming rules give the
 *   vertex name back: the vertex's own description when it does, else
 *   "<name> HCA-1" for hosts and "<name>" for switches.
 */
#include <stdlib.h>
#include <string.h>

#include "ibnet_int.h"

typedef struct wr {
    tm_ctx *ctx;
    const tm_net *net;
    FILE *out;
    uint64_t *guid;     /* per vertex */
    char **desc;        /* per vertex */
    int32_t *off;       /* per vertex: offsets into adj */
    int32_t *adj;       /* cable ids, per vertex in cable order */
    int32_t *port_a, *port_b; /* per cable: port at endpoint a / b */
    bool tokens;
    double warned[16];
    int n_warned;
} wr;

static const char *token_of(wr *w, double cap)
{
    bool exact;
    double tc;
    const char *t = tm__ib_cap_token(cap, &exact, &tc);
    if (!exact) {
        int i;
        for (i = 0; i < w->n_warned && w->warned[i] != cap; i++)
            ;
        if (i == w->n_warned && w->n_warned < 16) {
            w->warned[w->n_warned++] = cap;
            tm__warn(w->ctx, "capacity %g has no InfiniBand width x speed; written as %s (%g)", cap,
                     t, tc);
        }
    }
    return t;
}

static bool plain_text(const char *s)
{
    return s && *s && !strpbrk(s, "\"\n\r");
}

/* Picks descriptions that read back as the vertex names. */
static tm_err choose_desc(wr *w, int32_t v)
{
    const tm_net *net = w->net;
    const char *name = tm_net_name(net, v), *own = tm_net_desc(net, v);
    bool host = tm_net_kind(net, v) == TM_VERTEX_HOST, generic;
    char id[24], *back;
    snprintf(id, sizeof id, "%c-%016llx", host ? 'H' : 'S', (unsigned long long)w->guid[v]);
    for (int attempt = 0; attempt < 2; attempt++) {
        char *cand;
        if (attempt == 0) {
            if (!plain_text(own))
                continue;
            cand = tm__strdup(own);
        } else if (host) {
            cand = malloc(strlen(name) + 8);
            if (cand)
                sprintf(cand, "%s HCA-1", name);
        } else {
            cand = tm__strdup(name);
        }
        if (!cand)
            return tm__nomem(w->ctx);
        back = host ? tm__ib_host_name(cand, id, false, &generic) : tm__ib_switch_name(cand, id);
        if (!back) {
            free(cand);
            return tm__nomem(w->ctx);
        }
        if (strcmp(back, name) == 0 && plain_text(cand)) {
            free(back);
            w->desc[v] = cand;
            return TM_EOK;
        }
        free(back);
        free(cand);
    }
    return tm__fail(w->ctx, TM_EINPUT,
                    "vertex '%s' cannot be written to an ibnetdiscover dump (names must be one "
                    "word without quotes)", name);
}

/* A GUID for every vertex: its own when no vertex before it has the same,
 * else a fresh unused one (counting up from 0x7000000000000100); then its
 * description. */
static tm_err assign_guids(wr *w)
{
    const tm_net *net = w->net;
    int32_t nv = tm_net_n_vertices(net);
    tm__strmap used;
    tm_err err = TM_EOK;
    uint64_t next = 0x7000000000000000ULL;
    char key[24];
    tm__strmap_init(&used);
    for (int32_t v = 0; v < nv; v++) {
        uint64_t g = tm_net_guid(net, v);
        int32_t old;
        if (!g)
            continue;
        snprintf(key, sizeof key, "%016llx", (unsigned long long)g);
        if (tm__strmap_put(&used, key, v, &old) < 0)
            goto oom;
        if (old < 0) /* inserted: the GUID is this vertex's */
            w->guid[v] = g;
    }
    for (int32_t v = 0; v < nv; v++) {
        while (!w->guid[v]) {
            int32_t old;
            next += 256;
            snprintf(key, sizeof key, "%016llx", (unsigned long long)next);
            if (tm__strmap_put(&used, key, v, &old) < 0)
                goto oom;
            if (old < 0)
                w->guid[v] = next;
        }
        if ((err = choose_desc(w, v)))
            goto out;
    }
    goto out;
oom:
    err = tm__nomem(w->ctx);
out:
    tm__strmap_release(&used);
    return err;
}

/* Port numbers: a vertex's working cables in cable order are its ports
 * 1, 2, ... (w->off, w->adj, w->port_a, w->port_b). */
static tm_err number_ports(wr *w)
{
    const tm_net *net = w->net;
    int32_t nv = tm_net_n_vertices(net), nc = tm_net_n_cables(net), *fill;
    w->tokens = false;
    for (int32_t c = 0; c < nc; c++) {
        int32_t a, b;
        if (!tm_net_cable_enabled(net, c))
            continue;
        tm_net_cable(net, c, &a, &b);
        w->off[a + 1]++;
        w->off[b + 1]++;
        if (tm_net_capacity(net, c) != 1)
            w->tokens = true;
    }
    for (int32_t v = 0; v < nv; v++) {
        if (w->off[v + 1] > TM_IB_MAX_PORTS)
            return tm__fail(w->ctx, TM_EINPUT,
                            "vertex '%s' has %d cables; an InfiniBand node has at most %d ports",
                            tm_net_name(net, v), w->off[v + 1], TM_IB_MAX_PORTS);
        w->off[v + 1] += w->off[v];
    }
    fill = tm__calloc_n((size_t)nv + 1, sizeof *fill);
    if (!fill)
        return tm__nomem(w->ctx);
    for (int32_t c = 0; c < nc; c++) {
        int32_t a, b;
        if (!tm_net_cable_enabled(net, c))
            continue;
        tm_net_cable(net, c, &a, &b);
        w->port_a[c] = ++fill[a];
        w->adj[w->off[a] + fill[a] - 1] = c;
        w->port_b[c] = ++fill[b];
        w->adj[w->off[b] + fill[b] - 1] = c;
    }
    free(fill);
    return TM_EOK;
}

static tm_err prepare(wr *w)
{
    int32_t nv = tm_net_n_vertices(w->net), nc = tm_net_n_cables(w->net);
    tm_err err;
    w->guid = tm__calloc_n((size_t)nv + 1, sizeof *w->guid);
    w->desc = tm__calloc_n((size_t)nv + 1, sizeof *w->desc);
    w->off = tm__calloc_n((size_t)nv + 2, sizeof *w->off);
    w->adj = tm__malloc_n(2 * (size_t)nc + 1, sizeof *w->adj);
    w->port_a = tm__malloc_n((size_t)nc + 1, sizeof *w->port_a);
    w->port_b = tm__malloc_n((size_t)nc + 1, sizeof *w->port_b);
    if (!w->guid || !w->desc || !w->off || !w->adj || !w->port_a || !w->port_b)
        return tm__nomem(w->ctx);
    err = assign_guids(w);
    return err ? err : number_ports(w);
}

static void write_node(wr *w, int32_t v)
{
    const tm_net *net = w->net;
    FILE *f = w->out;
    bool host = tm_net_kind(net, v) == TM_VERTEX_HOST;
    int32_t deg = w->off[v + 1] - w->off[v];
    unsigned long long g = (unsigned long long)w->guid[v];
    fprintf(f, "\nvendid=0x0\ndevid=0x0\nsysimgguid=0x%llx\n", g);
    if (host)
        fprintf(f, "caguid=0x%llx\nCa\t%d \"H-%016llx\"\t\t# \"%s\"\n", g, deg ? deg : 1, g,
                w->desc[v]);
    else
        fprintf(f, "switchguid=0x%llx(%llx)\nSwitch\t%d \"S-%016llx\"\t\t# \"%s\" enhanced port 0 "
                   "lid 0 lmc 0\n", g, g, deg ? deg : 1, g, w->desc[v]);
    for (int32_t j = w->off[v]; j < w->off[v + 1]; j++) {
        int32_t c = w->adj[j], a, b, peer, myport, pport;
        bool phost;
        unsigned long long pg;
        const char *tok = w->tokens ? token_of(w, tm_net_capacity(net, c)) : NULL;
        tm_net_cable(net, c, &a, &b);
        /* a cable from a vertex to itself is rejected by tm_net; a == v
         * picks the side */
        peer = a == v ? b : a;
        myport = a == v ? w->port_a[c] : w->port_b[c];
        pport = a == v ? w->port_b[c] : w->port_a[c];
        phost = tm_net_kind(net, peer) == TM_VERTEX_HOST;
        pg = (unsigned long long)w->guid[peer];
        if (host)
            fprintf(f, "[%d](%llx) \t\"%c-%016llx\"[%d]", myport, g + (unsigned)myport,
                    phost ? 'H' : 'S', pg, pport);
        else
            fprintf(f, "[%d]\t\"%c-%016llx\"[%d]", myport, phost ? 'H' : 'S', pg, pport);
        if (phost)
            fprintf(f, host ? " (%llx) " : "(%llx) ", pg + (unsigned)pport);
        fprintf(f, "\t\t# %s\"%s\" lid 0%s%s\n", host ? "lid 0 lmc 0 " : "", w->desc[peer],
                tok ? " " : "", tok ? tok : "");
    }
}

tm_err tm_ibnet_write(tm_ctx *ctx, const tm_net *net, FILE *out)
{
    wr w;
    int32_t nv = tm_net_n_vertices(net);
    tm_err err;
    memset(&w, 0, sizeof w);
    w.ctx = ctx;
    w.net = net;
    w.out = out;
    if (nv == 0) {
        err = tm__fail(ctx, TM_EINPUT, "cannot write an empty network as an ibnetdiscover dump");
        goto out;
    }
    if ((err = prepare(&w)))
        goto out;
    fprintf(out, "#\n# Topology file: generated by topomap\n#\n"
                 "# Initiated from node %016llx port %016llx\n",
            (unsigned long long)w.guid[0], (unsigned long long)w.guid[0]);
    for (int32_t v = 0; v < nv; v++)
        if (tm_net_kind(net, v) == TM_VERTEX_SWITCH)
            write_node(&w, v);
    for (int32_t v = 0; v < nv; v++)
        if (tm_net_kind(net, v) == TM_VERTEX_HOST)
            write_node(&w, v);
    if (ferror(out))
        err = tm__fail(ctx, TM_EIO, "cannot write the ibnetdiscover dump");
out:
    if (w.desc)
        for (int32_t v = 0; v < nv; v++)
            free(w.desc[v]);
    free(w.desc);
    free(w.guid);
    free(w.off);
    free(w.adj);
    free(w.port_a);
    free(w.port_b);
    return err;
}
