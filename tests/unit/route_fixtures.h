/* route_fixtures.h - helpers of the routing tests (test_lft.c,
 * test_updn.c): loading a topology, the directed link between two named
 * vertices, and the link loads of a few named flows.  Include after
 * test_fixtures.h; everything is static. */
#ifndef TM_ROUTE_FIXTURES_H
#define TM_ROUTE_FIXTURES_H

static inline tm_net *load(const char *path)
{
    tm_net *net;
    tm_topo_opts o = TM_TOPO_OPTS_INIT;
    assert_tm_ok(ctx, tm_topology_load(ctx, path, &o, &net));
    return net;
}

/* Directed link from vertex a to vertex b (one cable between them). */
static inline int32_t link_of(const tm_net *net, const char *a, const char *b)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    int32_t u = tm_net_find(net, a), v = tm_net_find(net, b);
    for (int32_t l = 0; l < g->n_links; l++)
        if (g->tail_of[l] == u && g->head_of[l] == v)
            return l;
    fail_msg("no link %s -> %s", a, b);
    return -1;
}

/* Loads of k flows src[i] -> dst[i] (1 unit each) under router r. */
static inline double *flows_loads(const tm_route *r, const char *const *src, const char *const *dst,
                           int k)
{
    const tm_net *net = tm_route_net(r);
    tm_route_ws *ws;
    double *load = calloc((size_t)tm_net_csr_get(net)->n_links, sizeof *load), vol = 1;
    assert_tm_ok(ctx, tm_route_ws_new(ctx, r, &ws));
    for (int i = 0; i < k; i++) {
        int32_t s = tm_net_find(net, src[i]), t = tm_net_find(net, dst[i]);
        assert_tm_ok(ctx, tm_route_flows(ctx, r, ws, s, 1, &t, &vol, load, NULL));
    }
    tm_route_ws_free(ws);
    return load;
}

/* The same under a router of kind made for the call. */
static inline double *route_loads(const tm_net *net, tm_route_kind kind, const char *const *src,
                           const char *const *dst, int k)
{
    tm_route *r;
    double *load;
    assert_tm_ok(ctx, tm_route_new(ctx, net, kind, &r));
    load = flows_loads(r, src, dst, k);
    tm_route_free(r);
    return load;
}

#endif
