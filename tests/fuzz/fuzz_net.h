/* fuzz_net.h - the small fixed network the rankfile/mapping and hostfile
 * targets resolve host names against: one switch "sw" and hosts node1..node4
 * (2 slots each) plus "gpu1.cluster.example" (4 slots, for short names). */
#ifndef TM_FUZZ_NET_H
#define TM_FUZZ_NET_H

#include "fuzz_common.h"

static inline tm_net *fz_small_net(void)
{
    static const char *hosts[] = {"node1", "node2", "node3", "node4", "gpu1.cluster.example"};
    tm_ctx *ctx = fz_ctx();
    tm_net *net = NULL;
    int32_t sw, h;
    if (tm_net_new(ctx, &net) || tm_net_add_vertex(ctx, net, "sw", TM_VERTEX_SWITCH, 0, &sw))
        abort();
    for (int i = 0; i < 5; i++)
        if (tm_net_add_vertex(ctx, net, hosts[i], TM_VERTEX_HOST, i == 4 ? 4 : 2, &h) ||
            tm_net_add_cable(ctx, net, sw, h, 100, NULL))
            abort();
    if (tm_net_finalize(ctx, net) || tm_net_check(ctx, net))
        abort();
    tm_ctx_free(ctx);
    return net;
}

#endif
