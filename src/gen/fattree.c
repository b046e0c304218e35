/*
 * fattree.c - k-ary n-trees (Petrini & Vanneschi, "k-ary n-trees: high
 * performance networks for massively parallel architectures", IPPS 1997).
 *
 * k^n hosts and n levels of k^(n-1) switches with k down and k up ports
 * (the top level uses only its down ports).  Petrini's switch <w, l> with
 * w = w0..w(n-2) in {0..k-1}^(n-1) and level l (0 = root) is joined to
 * <w', l+1> iff w and w' agree everywhere except digit l; host p0..p(n-1)
 * hangs off <p0..p(n-2), n-1>.  We number levels from the hosts up
 * (sw-l1 = leaves = Petrini level n-1) and switch index j = sum w_i
 * k^(n-2-i), so host h is on leaf h / k and the digit that changes between
 * our levels L and L+1 has weight k^(L-1).  Cables: n * k^n.
 *
 * rails=R (default 1) builds R planes of the whole tree, as multi-rail
 * NDR/HDR systems are cabled: each host has one HCA per plane, cabled to
 * its leaf of that plane, and the planes meet only in the hosts
 * (docs/generators.md).  Plane p's switches are named "rail<p>-sw-...";
 * with R = 1 the names are the plain ones.  Cables: R * n * k^n.
 */
#include "gen_int.h"

/* The switches and cables of one plane; hosts are hbase .. hbase+k^n-1. */
static tm_err plane(tm__gen *g, int64_t k, int64_t n, int64_t rail, int64_t rails, int32_t hbase,
                    double hostcap, double upcap)
{
    int64_t hosts = tm__gen_pow(k, n), per_level = tm__gen_pow(k, n - 1), weight = 1;
    int32_t sbase = tm_net_n_vertices(g->net), id;
    int w = tm__gen_digits(per_level - 1, 3);
    tm_err err;
    for (int64_t L = 1; L <= n; L++)
        for (int64_t j = 0; j < per_level; j++)
            if ((err = rails > 1 ? tm__gen_switch(g, &id, "rail%lld-sw-l%lld-%0*lld",
                                                   (long long)rail, (long long)L, w, (long long)j)
                                 : tm__gen_switch(g, &id, "sw-l%lld-%0*lld", (long long)L, w,
                                                  (long long)j)))
                return err;
    for (int64_t h = 0; h < hosts; h++)
        if ((err = tm__gen_cable(g, hbase + (int32_t)h, sbase + (int32_t)(h / k), hostcap)))
            return err;
    for (int64_t L = 1; L < n; L++, weight *= k) {
        int32_t lo = sbase + (int32_t)((L - 1) * per_level), hi = lo + (int32_t)per_level;
        for (int64_t j = 0; j < per_level; j++) {
            int64_t cleared = j - (j / weight % k) * weight; /* digit of weight k^(L-1) = 0 */
            for (int64_t x = 0; x < k; x++)
                if ((err = tm__gen_cable(g, lo + (int32_t)j, hi + (int32_t)(cleared + x * weight),
                                         upcap)))
                    return err;
        }
    }
    return TM_EOK;
}

tm_err tm__gen_fattree(tm__gen *g)
{
    int64_t k, n, rails, hosts, per_level, n_v, n_c;
    int32_t hbase;
    double cap, hostcap, upcap;
    tm_err err;

    if ((err = tm__gen_int(g, "k", 2, TM_GEN_MAX_VERTICES, 0, true, &k, NULL)) ||
        (err = tm__gen_int(g, "n", 1, 24, 0, true, &n, NULL)) ||
        (err = tm__gen_int(g, "rails", 1, 64, 1, false, &rails, NULL)) ||
        (err = tm__gen_cap(g, "cap", 1.0, &cap)) ||
        (err = tm__gen_cap(g, "hostcap", cap, &hostcap)) ||
        (err = tm__gen_cap(g, "upcap", cap, &upcap)))
        return err;
    hosts = tm__gen_pow(k, n);
    per_level = tm__gen_pow(k, n - 1);
    n_v = tm__gen_add(hosts, tm__gen_mul(rails, tm__gen_mul(n, per_level)));
    n_c = tm__gen_mul(rails, tm__gen_mul(n, hosts));
    if ((err = tm__gen_plan(g, n_v, n_c, hosts)))
        return err;
    hbase = tm_net_n_vertices(g->net);
    for (int64_t h = 0; h < hosts; h++)
        if ((err = tm__gen_host(g, h, NULL)))
            return err;
    for (int64_t p = 0; p < rails; p++)
        if ((err = plane(g, k, n, p, rails, hbase, hostcap, upcap)))
            return err;
    return TM_EOK;
}
