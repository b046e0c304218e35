/*
 * dfgroups.c - the groups of a dragonfly, for valiant and ugal routing.
 *
 * A dragonfly group is a clique of a >= 3 routers joined by local cables;
 * global cables join groups.  A router-router cable is taken as local when
 * its two routers have a common router neighbour (it lies on a triangle),
 * and the groups are the components of the local cables.  The structure
 * is accepted when there are at least 3 groups, all of one size a >= 3,
 * each a clique, and every host is cabled to routers of one group.
 *
 * All cables count, failed (disabled) ones too: a what-if study that fails
 * cables keeps the groups of the network as built (routes still avoid the
 * failed cables).  Only the graph is read, never names, so a generated
 * dragonfly exported and read back gets the same groups.
 */
#include <stdlib.h>

#include "route_int.h"
#include "../util/util.h"

typedef struct adj {
    int32_t *off, *nb; /* router-router cables, both directions, by vertex */
} adj;

static int32_t find(int32_t *up, int32_t x)
{
    while (up[x] != x)
        x = up[x] = up[up[x]];
    return x;
}

/* Is cable c a router-router cable (not a loop)?  Its ends in *x, *y. */
static bool router_cable(const tm_net *net, int32_t c, int32_t *x, int32_t *y)
{
    tm_net_cable(net, c, x, y);
    return *x != *y && tm_net_kind(net, *x) == TM_VERTEX_SWITCH &&
           tm_net_kind(net, *y) == TM_VERTEX_SWITCH;
}

static tm_err build_adj(tm_ctx *ctx, const tm_net *net, adj *a)
{
    int32_t n = tm_net_n_vertices(net), nc = tm_net_n_cables(net), x, y;
    a->off = tm__calloc_n((size_t)n + 2, sizeof *a->off);
    a->nb = tm__malloc_n(2 * (size_t)nc + 1, sizeof *a->nb);
    if (!a->off || !a->nb)
        return tm__nomem(ctx);
    for (int32_t c = 0; c < nc; c++)
        if (router_cable(net, c, &x, &y)) {
            a->off[x + 2]++;
            a->off[y + 2]++;
        }
    for (int32_t v = 2; v <= n + 1; v++)
        a->off[v] += a->off[v - 1];
    for (int32_t c = 0; c < nc; c++)
        if (router_cable(net, c, &x, &y)) {
            a->nb[a->off[x + 1]++] = y;
            a->nb[a->off[y + 1]++] = x;
        }
    return TM_EOK;
}

/* Unions the two ends of every cable that lies on a triangle. */
static void join_local(const adj *a, int32_t n, int32_t *up, int32_t *mark)
{
    for (int32_t u = 0; u < n; u++) {
        for (int32_t j = a->off[u]; j < a->off[u + 1]; j++)
            mark[a->nb[j]] = u;
        for (int32_t j = a->off[u]; j < a->off[u + 1]; j++) {
            int32_t v = a->nb[j];
            for (int32_t k = a->off[v]; k < a->off[v + 1]; k++)
                if (a->nb[k] != u && a->nb[k] != v && mark[a->nb[k]] == u) {
                    up[find(up, u)] = find(up, v);
                    break;
                }
        }
    }
}

/* Group ids by smallest router; sizes; the clique check. */
static bool number_groups(const tm_net *net, const adj *a, int32_t *up, int32_t *grp,
                          int32_t *size, int32_t *mark, int32_t *n_groups)
{
    int32_t n = tm_net_n_vertices(net), ng = 0;
    for (int32_t v = 0; v < n; v++)
        grp[v] = mark[v] = -1;
    for (int32_t v = 0; v < n; v++) {
        int32_t root;
        if (tm_net_kind(net, v) != TM_VERTEX_SWITCH)
            continue;
        root = find(up, v);
        if (mark[root] < 0) {
            size[ng] = 0;
            mark[root] = ng++;
        }
        grp[v] = mark[root];
        size[grp[v]]++;
    }
    *n_groups = ng;
    if (ng == 0 || size[0] < 3)
        return false;
    for (int32_t x = 1; x < ng; x++)
        if (size[x] != size[0])
            return false;
    for (int32_t v = 0; v < n; v++)
        mark[v] = -1;
    for (int32_t v = 0; v < n; v++) { /* distinct neighbours inside its group: a - 1 */
        int32_t inside = 0;
        if (grp[v] < 0)
            continue;
        for (int32_t j = a->off[v]; j < a->off[v + 1]; j++) {
            int32_t u = a->nb[j];
            if (grp[u] == grp[v] && mark[u] != v) {
                mark[u] = v;
                inside++;
            }
        }
        if (inside != size[0] - 1)
            return false;
    }
    return true;
}

/* Every host: the group of the routers it is cabled to (one group). */
static bool host_groups(const tm_net *net, int32_t *grp)
{
    for (int32_t c = 0; c < tm_net_n_cables(net); c++) {
        int32_t x, y, h, s;
        tm_net_cable(net, c, &x, &y);
        h = tm_net_kind(net, x) == TM_VERTEX_HOST ? x : y;
        s = h == x ? y : x;
        if (tm_net_kind(net, h) != TM_VERTEX_HOST || tm_net_kind(net, s) != TM_VERTEX_SWITCH)
            continue;
        if (grp[h] >= 0 && grp[h] != grp[s])
            return false;
        grp[h] = grp[s];
    }
    for (int32_t v = 0; v < tm_net_n_vertices(net); v++)
        if (grp[v] < 0)
            return false; /* a host without a router, or a host-host cable */
    return true;
}

tm_err tm__dragonfly_groups(tm_ctx *ctx, const tm_route *r, int32_t *grp, int32_t *n_groups)
{
    const tm_net *net = r->net;
    int32_t n = tm_net_n_vertices(net);
    int32_t *up = tm__malloc_n((size_t)n + 1, sizeof *up);
    int32_t *mark = tm__malloc_n((size_t)n + 1, sizeof *mark);
    int32_t *size = tm__malloc_n((size_t)n + 1, sizeof *size);
    adj a = {NULL, NULL};
    tm_err err = TM_EOK;
    if (!up || !mark || !size || (err = build_adj(ctx, net, &a)) != TM_EOK) {
        err = err ? err : tm__nomem(ctx);
        goto out;
    }
    for (int32_t v = 0; v < n; v++) {
        up[v] = v;
        mark[v] = -1;
    }
    join_local(&a, n, up, mark);
    if (!number_groups(net, &a, up, grp, size, mark, n_groups) || !host_groups(net, grp))
        err = tm__fail(ctx, TM_EUSAGE,
                       "%s routing needs a dragonfly (e.g. dragonfly:h=2): groups of a >= 3 "
                       "fully connected routers with the hosts on them; this network has none",
                       r->ops->name);
    else if (*n_groups < 3)
        err = tm__fail(ctx, TM_EUSAGE,
                       "%s routing needs at least 3 dragonfly groups (an intermediate group), "
                       "this dragonfly has %d",
                       r->ops->name, (int)*n_groups);
out:
    free(up);
    free(mark);
    free(size);
    free(a.off);
    free(a.nb);
    return err;
}
