/*
 * dragonfly.c - dragonfly networks (Kim, Dally, Scott, Abts,
 * "Technology-driven, highly-scalable dragonfly topology", ISCA 2008).
 *
 * g groups of a routers; the routers of a group are fully connected by
 * local cables; each router has p hosts and h global ports.  Defaults are
 * Kim et al.'s balanced dragonfly, a = 2p = 2h, with the largest group
 * count g = a*h + 1 (one global cable between every pair of groups); any
 * one of a, p, h determines the others.
 *
 * Global wiring: every pair of groups gets m = floor(a*h / (g-1)) parallel
 * global cables (g-1 <= a*h is required so that groups are fully
 * connected).  In group x, partner group t has rank r = t - (t > x) and
 * uses global ports r*m .. r*m+m-1; port k belongs to router k mod a, so
 * the ports in use are spread evenly and no router exceeds h.
 *
 * Names: routers sw-gGGG-rRR, hosts numbered group, router, host.
 */
#include "gen_int.h"

typedef struct dfly {
    int64_t a, p, h, g, m;
    double hostcap, localcap, globalcap;
} dfly;

static tm_err read_options(tm__gen *g, dfly *d)
{
    const int64_t max = TM_GEN_MAX_VERTICES;
    bool ga, gp, gh;
    double cap;
    tm_err err;
    if ((err = tm__gen_int(g, "a", 1, max, 0, false, &d->a, &ga)) ||
        (err = tm__gen_int(g, "p", 1, max, 0, false, &d->p, &gp)) ||
        (err = tm__gen_int(g, "h", 1, max, 0, false, &d->h, &gh)))
        return err;
    if (!ga && !gp && !gh)
        return tm__gen_fail(g, "give at least one of a, p, h (e.g. dragonfly:h=4)");
    if (!gh)
        d->h = gp ? d->p : d->a / 2;
    if (d->h < 1)
        return tm__gen_fail(g, "cannot derive h from a=%lld (give h)", (long long)d->a);
    if (!gp)
        d->p = d->h;
    if (!ga)
        d->a = 2 * d->h;
    /* a, h <= 2^24: a*h + 1 fits; an oversized default fails in tm__gen_plan */
    if ((err = tm__gen_int(g, "g", 1, max, d->a * d->h + 1, false, &d->g, NULL)) ||
        (err = tm__gen_cap(g, "cap", 1.0, &cap)) ||
        (err = tm__gen_cap(g, "hostcap", cap, &d->hostcap)) ||
        (err = tm__gen_cap(g, "localcap", cap, &d->localcap)) ||
        (err = tm__gen_cap(g, "globalcap", cap, &d->globalcap)))
        return err;
    if (d->g - 1 > tm__gen_mul(d->a, d->h))
        return tm__gen_fail(g, "g=%lld groups need %lld global links per group, but a*h = %lld",
                            (long long)d->g, (long long)(d->g - 1), (long long)(d->a * d->h));
    d->m = d->g > 1 ? d->a * d->h / (d->g - 1) : 0;
    return TM_EOK;
}

tm_err tm__gen_dragonfly(tm__gen *g)
{
    dfly d;
    int64_t routers, hosts, n_c;
    int32_t hbase, rbase, id;
    int wg, wr;
    tm_err err;

    if ((err = read_options(g, &d)))
        return err;
    routers = tm__gen_mul(d.g, d.a);
    hosts = tm__gen_mul(routers, d.p);
    /* a <= 2^24 so a*(a-1)/2 cannot overflow before saturation checks */
    n_c = tm__gen_add(tm__gen_add(hosts, tm__gen_mul(d.g, d.a * (d.a - 1) / 2)),
                      tm__gen_mul(tm__gen_mul(d.g, d.g - 1) / 2, d.m));
    if ((err = tm__gen_plan(g, tm__gen_add(hosts, routers), n_c, hosts)))
        return err;
    hbase = tm_net_n_vertices(g->net);
    for (int64_t i = 0; i < hosts; i++)
        if ((err = tm__gen_host(g, i, NULL)))
            return err;
    rbase = tm_net_n_vertices(g->net);
    wg = tm__gen_digits(d.g - 1, 3);
    wr = tm__gen_digits(d.a - 1, 2);
    for (int64_t x = 0; x < d.g; x++)
        for (int64_t r = 0; r < d.a; r++)
            if ((err = tm__gen_switch(g, &id, "sw-g%0*lld-r%0*lld", wg, (long long)x, wr,
                                      (long long)r)))
                return err;
    for (int64_t i = 0; i < hosts; i++)
        if ((err = tm__gen_cable(g, hbase + (int32_t)i, rbase + (int32_t)(i / d.p), d.hostcap)))
            return err;
    for (int64_t x = 0; x < d.g; x++)
        for (int64_t r = 0; r < d.a; r++)
            for (int64_t q = r + 1; q < d.a; q++)
                if ((err = tm__gen_cable(g, rbase + (int32_t)(x * d.a + r),
                                         rbase + (int32_t)(x * d.a + q), d.localcap)))
                    return err;
    for (int64_t x = 0; x < d.g; x++)
        for (int64_t t = x + 1; t < d.g; t++)
            for (int64_t c = 0; c < d.m; c++) {
                int64_t kx = (t - 1) * d.m + c, kt = x * d.m + c; /* ranks: t-1 in x, x in t */
                if ((err = tm__gen_cable(g, rbase + (int32_t)(x * d.a + kx % d.a),
                                         rbase + (int32_t)(t * d.a + kt % d.a), d.globalcap)))
                    return err;
            }
    return TM_EOK;
}
