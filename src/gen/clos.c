/*
 * clos.c - folded Clos networks with 2 levels (leaf-spine) and 3 levels
 * (pods of leaf-spine plus a super-spine layer in planes), with tapering.
 *
 * 2 levels (clos: / clos2:): L leaves with H hosts each and U uplinks each;
 * S spines; uplink u of a leaf goes to spine u mod S, so U must be a
 * multiple of S and every leaf has U/S parallel cables to every spine.
 * 3 levels (clos3:): P pods, each a 2-level Clos of L leaves and S spines;
 * S planes of X super-spines; spine s of every pod has V uplinks to the X
 * super-spines of plane s (uplink v to super-spine v mod X, V a multiple of
 * X), the usual plane wiring of data-centre fabrics and of Al-Fares'
 * fat-tree.  Defaults give a non-blocking network: U = H, S = U,
 * V = L*U/S (spine down ports), X = V.  Tapering (oversubscription
 * H*hostcap : U*upcap at the leaves) comes from fewer uplinks than hosts
 * per leaf or from lower uplink capacities.
 *
 * Names: hosts leaf-major, leaves sw-l1-NNN, spines sw-l2-NNN (pod-major),
 * super-spines sw-l3-NNN (plane-major).
 */
#include "gen_int.h"

typedef struct clos_shape {
    int64_t pods, leaves, hosts, uplinks, spines; /* leaves, spines per pod */
    double hostcap, upcap;
} clos_shape;

/* Reads leaves, hosts_per_leaf, uplinks, spines and the capacities. */
static tm_err read_pod(tm__gen *g, clos_shape *c)
{
    const int64_t max = TM_GEN_MAX_VERTICES;
    double cap;
    bool given;
    tm_err err;
    if ((err = tm__gen_int(g, "leaves", 1, max, 0, true, &c->leaves, NULL)) ||
        (err = tm__gen_int(g, "hosts_per_leaf", 1, max, 0, true, &c->hosts, NULL)) ||
        (err = tm__gen_int(g, "uplinks", 1, max, c->hosts, false, &c->uplinks, &given)) ||
        (err = tm__gen_int(g, "spines", 1, max, c->uplinks, false, &c->spines, NULL)) ||
        (err = tm__gen_cap(g, "cap", 1.0, &cap)) ||
        (err = tm__gen_cap(g, "hostcap", cap, &c->hostcap)) ||
        (err = tm__gen_cap(g, "upcap", cap, &c->upcap)))
        return err;
    if (c->uplinks % c->spines)
        return tm__gen_fail(g, "uplinks=%lld%s is not a multiple of spines=%lld",
                            (long long)c->uplinks, given ? "" : " (default: hosts_per_leaf)",
                            (long long)c->spines);
    return TM_EOK;
}

/* Adds the hosts, leaves and spines of all pods and the cables among
 * them; *spine_base gets the vertex id of the first spine. */
static tm_err build_pods(tm__gen *g, const clos_shape *c, int32_t *spine_base)
{
    int64_t n_leaves = c->pods * c->leaves, n_hosts = n_leaves * c->hosts;
    int64_t n_spines = c->pods * c->spines;
    int32_t hbase = tm_net_n_vertices(g->net), lbase, sbase, id;
    int wl = tm__gen_digits(n_leaves - 1, 3), ws = tm__gen_digits(n_spines - 1, 3);
    tm_err err;

    for (int64_t h = 0; h < n_hosts; h++)
        if ((err = tm__gen_host(g, h, NULL)))
            return err;
    lbase = tm_net_n_vertices(g->net);
    for (int64_t l = 0; l < n_leaves; l++)
        if ((err = tm__gen_switch(g, &id, "sw-l1-%0*lld", wl, (long long)l)))
            return err;
    sbase = tm_net_n_vertices(g->net);
    for (int64_t s = 0; s < n_spines; s++)
        if ((err = tm__gen_switch(g, &id, "sw-l2-%0*lld", ws, (long long)s)))
            return err;
    for (int64_t h = 0; h < n_hosts; h++)
        if ((err = tm__gen_cable(g, hbase + (int32_t)h, lbase + (int32_t)(h / c->hosts),
                                 c->hostcap)))
            return err;
    for (int64_t l = 0; l < n_leaves; l++) {
        int64_t first_spine = l / c->leaves * c->spines; /* of this leaf's pod */
        for (int64_t u = 0; u < c->uplinks; u++)
            if ((err = tm__gen_cable(g, lbase + (int32_t)l,
                                     sbase + (int32_t)(first_spine + u % c->spines), c->upcap)))
                return err;
    }
    *spine_base = sbase;
    return TM_EOK;
}

tm_err tm__gen_clos2(tm__gen *g)
{
    clos_shape c = {.pods = 1};
    int64_t hosts, n_v, n_c;
    int32_t sbase;
    tm_err err;

    if ((err = read_pod(g, &c)))
        return err;
    hosts = tm__gen_mul(c.leaves, c.hosts);
    n_v = tm__gen_add(tm__gen_add(hosts, c.leaves), c.spines);
    n_c = tm__gen_add(hosts, tm__gen_mul(c.leaves, c.uplinks));
    if ((err = tm__gen_plan(g, n_v, n_c, hosts)))
        return err;
    return build_pods(g, &c, &sbase);
}

tm_err tm__gen_clos3(tm__gen *g)
{
    clos_shape c;
    int64_t supers, spine_up, down, hosts, n_v, n_c, n_top;
    int32_t sbase, tbase, id;
    double topcap;
    bool given;
    int w;
    tm_err err;

    if ((err = tm__gen_int(g, "pods", 1, TM_GEN_MAX_VERTICES, 0, true, &c.pods, NULL)) ||
        (err = read_pod(g, &c)))
        return err;
    /* default: as many spine uplinks as the spine has down ports */
    down = tm__gen_mul(c.leaves, c.uplinks / c.spines);
    if (down > TM_GEN_MAX_VERTICES)
        down = TM_GEN_MAX_VERTICES;
    if ((err = tm__gen_int(g, "spine_uplinks", 1, TM_GEN_MAX_VERTICES, down, false, &spine_up,
                           &given)) ||
        (err = tm__gen_int(g, "supers", 1, TM_GEN_MAX_VERTICES, spine_up, false, &supers,
                           NULL)) ||
        (err = tm__gen_cap(g, "topcap", c.upcap, &topcap)))
        return err;
    if (spine_up % supers)
        return tm__gen_fail(g, "spine_uplinks=%lld%s is not a multiple of supers=%lld",
                            (long long)spine_up, given ? "" : " (default: spine down ports)",
                            (long long)supers);
    hosts = tm__gen_mul(tm__gen_mul(c.pods, c.leaves), c.hosts);
    n_top = tm__gen_mul(c.spines, supers);
    n_v = tm__gen_add(tm__gen_add(hosts, tm__gen_mul(c.pods, c.leaves)),
                      tm__gen_add(tm__gen_mul(c.pods, c.spines), n_top));
    n_c = tm__gen_add(tm__gen_add(hosts, tm__gen_mul(tm__gen_mul(c.pods, c.leaves), c.uplinks)),
                      tm__gen_mul(tm__gen_mul(c.pods, c.spines), spine_up));
    if ((err = tm__gen_plan(g, n_v, n_c, hosts)) || (err = build_pods(g, &c, &sbase)))
        return err;
    tbase = tm_net_n_vertices(g->net);
    w = tm__gen_digits(n_top - 1, 3);
    for (int64_t t = 0; t < n_top; t++)
        if ((err = tm__gen_switch(g, &id, "sw-l3-%0*lld", w, (long long)t)))
            return err;
    for (int64_t s = 0; s < c.pods * c.spines; s++) {
        int64_t plane = s % c.spines;
        for (int64_t v = 0; v < spine_up; v++)
            if ((err = tm__gen_cable(g, sbase + (int32_t)s,
                                     tbase + (int32_t)(plane * supers + v % supers), topcap)))
                return err;
    }
    return TM_EOK;
}
