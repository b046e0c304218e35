/*
 * ibnet_lids.c - the InfiniBand addresses of a dump: LIDs (a switch's on
 * its header line or -p lines, a CA port's at the start of its port-line
 * comment or in its -p line) handed to the net (tm_net_add_lid), so that
 * forwarding tables, which are indexed by LID, can be followed.
 */
#include <string.h>

#include "ibnet_int.h"

/* The number after a "lid"/"lmc" keyword at p; -1 if malformed. */
static int number_after(const char **p, const char *end, int64_t *v)
{
    const char *s = tm__skip_blank(*p);
    if (s >= end || tm__parse_i64(&s, v) < 0 || s > end)
        return -1;
    *p = s;
    return 0;
}

int tm__ib_scan_lid(const char *p, const char *end, uint32_t *lid, int *lmc)
{
    int64_t v;
    while (p < end) {
        const char *t = tm__skip_blank(p);
        bool is_lid, is_lmc;
        if (t >= end)
            break;
        is_lid = end - t > 3 && !strncmp(t, "lid", 3) && (t[3] == ' ' || t[3] == '\t');
        is_lmc = end - t > 3 && !strncmp(t, "lmc", 3) && (t[3] == ' ' || t[3] == '\t');
        p = t + 3;
        if (!is_lid && !is_lmc) {
            for (p = t; p < end && *p != ' ' && *p != '\t'; p++)
                ;
            continue;
        }
        if (number_after(&p, end, &v) < 0 || v < 0 || v > (is_lid ? 0xffff : 7))
            return -1;
        if (is_lid)
            *lid = (uint32_t)v;
        else
            *lmc = (int)v;
    }
    return 0;
}

/* Adds one LID; a LID already owned by another vertex is a warning (the
 * dump is still a usable topology, only its forwarding cannot reach it). */
static tm_err add_one(tm__ib_dump *d, tm_net *net, int32_t v, int32_t port, uint32_t lid,
                      int lmc, long line)
{
    int32_t oport, o;
    if (!lid)
        return TM_EOK;
    if (lid >= 0xc000 || lid + (1u << lmc) > 0xc000) {
        tm__warn(d->ctx, "%s:%ld: LID %u is not a unicast LID; ignored", d->name, line, lid);
        return TM_EOK;
    }
    for (uint32_t l = lid; l < lid + (1u << lmc); l++) {
        o = tm_net_lid_owner(net, l, &oport);
        if (o >= 0 && (o != v || oport != port)) {
            tm__warn(d->ctx, "%s:%ld: LID %u of '%s' port %d is already LID of '%s' port %d; "
                     "ignored", d->name, line, l, tm_net_name(net, v), port, tm_net_name(net, o),
                     oport);
            return TM_EOK;
        }
    }
    return tm_net_add_lid(d->ctx, net, v, port, lid, lmc);
}

tm_err tm__ib_add_lids(tm__ib_builder *b, const int32_t *order, tm_net *net)
{
    tm__ib_dump *d = b->d;
    tm_err err = TM_EOK;
    for (size_t i = 0; i < d->n_nodes && !err; i++) {
        const tm__ib_node *n = &d->nodes[i];
        if (n->type == TM_IB_SW && b->vof[i] >= 0)
            err = add_one(d, net, b->v[order[b->vof[i]]].id, 0, n->lid, n->lmc, n->line);
    }
    for (size_t r = 0; r < d->n_ports && !err; r++) {
        const tm__ib_port *p = &d->ports[r];
        if (p->lid && b->vof[p->node] >= 0)
            err = add_one(d, net, b->v[order[b->vof[p->node]]].id, p->port, p->lid, p->lmc,
                          p->line);
    }
    return err;
}
