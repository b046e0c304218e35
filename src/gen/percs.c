/*
 * percs.c - the IBM PERCS network as modelled by Hoefler & Snir, "Generic
 * topology mapping strategies for large-scale parallel architectures"
 * (ICS 2011), Sec. 5.3.2, after Arimilli et al., "The PERCS high-performance
 * interconnect" (HOTI 2010).
 *
 * A direct network: hosts forward traffic.  A drawer is 8 hosts fully
 * connected by LL links (7 per host, 24 by default); a supernode is 4
 * drawers whose hosts are also fully connected across drawers by LR links
 * (24 per host, 5 by default); supernodes are fully connected by D links
 * (10 by default), at most 16 per host.  With D D-links per host a
 * supernode has 32*D D ports; the paper assumes 9 per host, i.e. 288 ports,
 * exactly one D link to each of the other 288 supernodes: 289 supernodes,
 * 9,248 hosts, hop diameter 3.
 *
 * Wiring: every pair of supernodes gets m = floor(32*D / (S-1)) parallel D
 * links (so D >= (S-1)/32 is needed; the default D is the smallest such
 * value).  In supernode x, partner t has rank r = t - (t > x) and uses D
 * ports r*m .. r*m+m-1; port k belongs to host k mod 32 (round-robin, so
 * hosts differ by at most one D link).  The paper connects D links
 * "randomly": dseed=N shuffles each supernode's port-to-host assignment
 * with that seed, keeping every host's D-link count.  Either way the
 * network is a pure function of the spec string.
 *
 * Host i = 32*s + 8*d + j is node j of drawer d of supernode s.
 */
#include <stdlib.h>

#include "gen_int.h"

#define DRAWER 8
#define DRAWERS 4
#define SN_HOSTS (DRAWER * DRAWERS)
#define MAX_DLINKS 16
#define MAX_SUPERNODES (SN_HOSTS * MAX_DLINKS + 1)

typedef struct percs {
    int64_t sn, dlinks, m;
    double llcap, lrcap, dcap;
    int32_t base;
    int32_t *port_host; /* [sn][32*dlinks] host of each D port, within its supernode */
} percs;

static tm_err read_options(tm__gen *g, percs *p, bool *seeded, int64_t *seed)
{
    double cap;
    int64_t need;
    bool d_given;
    tm_err err;
    if ((err = tm__gen_int(g, "supernodes", 1, MAX_SUPERNODES, 0, true, &p->sn, NULL)))
        return err;
    need = (p->sn - 1 + SN_HOSTS - 1) / SN_HOSTS;
    if ((err = tm__gen_int(g, "dlinks", 1, MAX_DLINKS, need > 0 ? need : 1, false, &p->dlinks,
                           &d_given)) ||
        (err = tm__gen_int(g, "dseed", 0, INT64_MAX, 0, false, seed, seeded)) ||
        (err = tm__gen_cap(g, "cap", 0.0, &cap)) ||
        (err = tm__gen_cap(g, "llcap", cap > 0 ? cap : 24.0, &p->llcap)) ||
        (err = tm__gen_cap(g, "lrcap", cap > 0 ? cap : 5.0, &p->lrcap)) ||
        (err = tm__gen_cap(g, "dcap", cap > 0 ? cap : 10.0, &p->dcap)))
        return err;
    if (p->dlinks < need)
        return tm__gen_fail(g, "supernodes=%lld need %lld D links per supernode, but "
                               "dlinks=%lld gives only %lld (32 hosts x %lld)",
                            (long long)p->sn, (long long)(p->sn - 1), (long long)p->dlinks,
                            (long long)(SN_HOSTS * p->dlinks), (long long)p->dlinks);
    p->m = p->sn > 1 ? SN_HOSTS * p->dlinks / (p->sn - 1) : 0;
    return TM_EOK;
}

/* Host (vertex id) behind D port k of supernode s. */
static int32_t port_vertex(const percs *p, int64_t s, int64_t k)
{
    int64_t h = p->port_host ? p->port_host[s * SN_HOSTS * p->dlinks + k] : k % SN_HOSTS;
    return p->base + (int32_t)(s * SN_HOSTS + h);
}

static tm_err shuffle_ports(tm__gen *g, percs *p, uint64_t seed)
{
    int64_t ports = SN_HOSTS * p->dlinks;
    tm__rng rng;
    p->port_host = tm__malloc_n((size_t)(p->sn * ports), sizeof *p->port_host);
    if (!p->port_host)
        return tm__nomem(g->ctx);
    for (int64_t s = 0; s < p->sn; s++) {
        int32_t *t = p->port_host + s * ports;
        tm__rng_seed(&rng, seed, (uint64_t)s); /* one stream per supernode */
        for (int64_t k = 0; k < ports; k++)
            t[k] = (int32_t)(k % SN_HOSTS);
        for (int64_t k = ports - 1; k > 0; k--) { /* Fisher-Yates */
            int64_t j = (int64_t)tm__rng_below(&rng, (uint64_t)k + 1);
            int32_t x = t[k];
            t[k] = t[j];
            t[j] = x;
        }
    }
    return TM_EOK;
}

static tm_err add_local_cables(tm__gen *g, const percs *p)
{
    tm_err err;
    for (int64_t s = 0; s < p->sn; s++) {
        int32_t first = p->base + (int32_t)(s * SN_HOSTS);
        for (int32_t a = 0; a < SN_HOSTS; a++)
            for (int32_t b = a + 1; b < SN_HOSTS; b++) {
                bool same_drawer = a / DRAWER == b / DRAWER;
                if ((err = tm__gen_cable(g, first + a, first + b,
                                         same_drawer ? p->llcap : p->lrcap)))
                    return err;
            }
    }
    return TM_EOK;
}

static tm_err add_d_cables(tm__gen *g, const percs *p)
{
    tm_err err;
    for (int64_t s = 0; s < p->sn; s++)
        for (int64_t t = s + 1; t < p->sn; t++) {
            int64_t ks = (t - 1) * p->m, kt = s * p->m; /* ranks: t-1 in s, s in t */
            for (int64_t c = 0; c < p->m; c++)
                if ((err = tm__gen_cable(g, port_vertex(p, s, ks + c), port_vertex(p, t, kt + c),
                                         p->dcap)))
                    return err;
        }
    return TM_EOK;
}

tm_err tm__gen_percs(tm__gen *g)
{
    percs p = {0};
    int64_t seed, hosts, n_c;
    bool seeded;
    tm_err err;

    g->direct = true;
    if ((err = read_options(g, &p, &seeded, &seed)))
        return err;
    hosts = p.sn * SN_HOSTS;
    n_c = p.sn * (SN_HOSTS * (SN_HOSTS - 1) / 2) + p.sn * (p.sn - 1) / 2 * p.m;
    if ((err = tm__gen_plan(g, hosts, n_c, hosts)))
        return err;
    if (seeded && (err = shuffle_ports(g, &p, (uint64_t)seed)))
        goto out;
    p.base = tm_net_n_vertices(g->net);
    for (int64_t h = 0; h < hosts; h++)
        if ((err = tm__gen_host(g, h, NULL)))
            goto out;
    if ((err = add_local_cables(g, &p)))
        goto out;
    err = add_d_cables(g, &p);
out:
    free(p.port_host);
    return err;
}
