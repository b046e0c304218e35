/*
 * net_addr.c - InfiniBand addressing of a net: the port number at each end
 * of a cable and the owner (vertex, port) of each unicast LID.  Stored
 * apart from the core vertex/cable arrays because only dumps of real
 * fabrics carry it, and only forwarding-table routing reads it.
 */
#include <stdlib.h>
#include <string.h>

#include "net_int.h"
#include "../util/util.h"

/* The addressing record, created with its LID table on first use. */
static tm__net_addr *addr_of(tm_net *net)
{
    tm__net_addr **slot = tm__net_addr_slot(net);
    tm__net_addr *a = *slot;
    if (a)
        return a;
    a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->lid_owner = tm__malloc_n(TM__LID_END, sizeof *a->lid_owner);
    a->lid_port = calloc(TM__LID_END, sizeof *a->lid_port);
    if (!a->lid_owner || !a->lid_port) {
        tm__net_addr_free(a);
        return NULL;
    }
    memset(a->lid_owner, 0xff, TM__LID_END * sizeof *a->lid_owner);
    *slot = a;
    return a;
}

/* Grows a zero-filled per-element array pair to n entries. */
static int grow2(void **x, void **y, size_t *cap, size_t n, size_t sx, size_t sy)
{
    size_t old = *cap, c = old;
    if (n <= old)
        return 0;
    if (tm__grow(x, &c, n, sx) < 0)
        return -1;
    c = old;
    if (tm__grow(y, &c, n, sy) < 0)
        return -1;
    memset((char *)*x + old * sx, 0, (c - old) * sx);
    memset((char *)*y + old * sy, 0, (c - old) * sy);
    *cap = c;
    return 0;
}

tm_err tm_net_set_cable_ports(tm_ctx *ctx, tm_net *net, int32_t cable, int32_t port_a,
                              int32_t port_b)
{
    tm__net_addr *a;
    if (cable < 0 || cable >= tm_net_n_cables(net))
        return tm__fail(ctx, TM_EUSAGE, "cable id %d is not in [0, %d)", cable,
                        tm_net_n_cables(net));
    if (port_a < 0 || port_a > 255 || port_b < 0 || port_b > 255)
        return tm__fail(ctx, TM_EUSAGE, "cable %d: port numbers %d, %d are not in [0, 255]",
                        cable, port_a, port_b);
    a = addr_of(net);
    if (!a || grow2((void **)&a->port_a, (void **)&a->port_b, &a->ccap, (size_t)cable + 1, 1, 1))
        return tm__nomem(ctx);
    a->port_a[cable] = (uint8_t)port_a;
    a->port_b[cable] = (uint8_t)port_b;
    return TM_EOK;
}

void tm_net_cable_ports(const tm_net *net, int32_t cable, int32_t *port_a, int32_t *port_b)
{
    const tm__net_addr *a = tm__net_addr_get(net);
    bool known = a && cable >= 0 && (size_t)cable < a->ccap;
    *port_a = known ? a->port_a[cable] : 0;
    *port_b = known ? a->port_b[cable] : 0;
}

static tm_err check_lid(tm_ctx *ctx, const tm_net *net, int32_t v, int32_t port, uint32_t lid,
                        int lmc)
{
    uint32_t end = lid + (lmc >= 0 && lmc <= 7 ? 1u << lmc : 0);
    if (v < 0 || v >= tm_net_n_vertices(net))
        return tm__fail(ctx, TM_EUSAGE, "vertex id %d is not in [0, %d)", v,
                        tm_net_n_vertices(net));
    if (port < 0 || port > 255 || lmc < 0 || lmc > 7)
        return tm__fail(ctx, TM_EUSAGE, "'%s': port %d or LMC %d out of range",
                        tm_net_name(net, v), port, lmc);
    if (lid == 0 || end > TM__LID_END)
        return tm__fail(ctx, TM_EINPUT, "'%s': LID %u (LMC %d) is not a unicast LID (1-0xbfff)",
                        tm_net_name(net, v), lid, lmc);
    return TM_EOK;
}

tm_err tm_net_add_lid(tm_ctx *ctx, tm_net *net, int32_t v, int32_t port, uint32_t lid, int lmc)
{
    tm__net_addr *a;
    tm_err err = check_lid(ctx, net, v, port, lid, lmc);
    uint32_t n = 1u << lmc;
    if (err)
        return err;
    a = addr_of(net);
    if (!a || grow2((void **)&a->base_lid, (void **)&a->lmc, &a->vcap, (size_t)v + 1,
                    sizeof *a->base_lid, 1))
        return tm__nomem(ctx);
    for (uint32_t l = lid; l < lid + n; l++) {
        int32_t o = a->lid_owner[l];
        if (o >= 0 && (o != v || a->lid_port[l] != port))
            return tm__fail(ctx, TM_EINPUT, "LID %u of '%s' port %d is also LID of '%s' port %d",
                            l, tm_net_name(net, v), port, tm_net_name(net, o), a->lid_port[l]);
    }
    for (uint32_t l = lid; l < lid + n; l++) {
        a->lid_owner[l] = v;
        a->lid_port[l] = (uint8_t)port;
    }
    if (!a->base_lid[v] || lid < a->base_lid[v]) {
        a->base_lid[v] = lid;
        a->lmc[v] = (uint8_t)lmc;
    }
    return TM_EOK;
}

int32_t tm_net_lid_owner(const tm_net *net, uint32_t lid, int32_t *port)
{
    const tm__net_addr *a = tm__net_addr_get(net);
    int32_t o = a && lid > 0 && lid < TM__LID_END ? a->lid_owner[lid] : -1;
    if (port)
        *port = o >= 0 ? a->lid_port[lid] : 0;
    return o;
}

uint32_t tm_net_lid(const tm_net *net, int32_t v, int *lmc)
{
    const tm__net_addr *a = tm__net_addr_get(net);
    bool known = a && v >= 0 && (size_t)v < a->vcap;
    if (lmc)
        *lmc = known ? a->lmc[v] : 0;
    return known ? a->base_lid[v] : 0;
}
