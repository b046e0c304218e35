/*
 * fwd_walk.c - following forwarding tables hop by hop (fwd_walk.h): one
 * flow from its source's cable to the destination LID's owner, every
 * failure (no table, no entry, a port without cable, a loop, delivery to
 * another vertex) named with the entry's file and line.  Below fwd.c (the
 * model's flows) and fwd_rails.c (multi-rail sources), which both walk.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fwd_walk.h"
#include "../util/util.h"

/* "file:line" of switch s's entry for the walk's LID, or "routing". */
static const char *where(const tm__fwd_walk *w, int32_t s, char *buf, size_t sz)
{
    const tm__fwd *f = w->f;
    size_t i = (size_t)s * f->n_lid + w->dlid;
    if (!f->file || !f->file[s])
        return "routing";
    snprintf(buf, sz, "%s:%ld", f->file[s], f->line && f->line[i] ? (long)f->line[i] : 1L);
    return buf;
}

#define NAME(v) tm_net_name(w->r->net, (v))

/* The link switch s forwards the walk's LID to, or -1 with w->why set;
 * prev is the switch before s on the path (-1 at the first switch). */
static int32_t next_link(const tm__fwd_walk *w, int32_t s, int32_t prev)
{
    const tm__fwd *f = w->f;
    char at[512];
    unsigned port;
    int32_t l;
    if (!f->has_table[s]) {
        if (prev < 0)
            snprintf(w->why, w->whysz, "routing: switch '%s', the first hop of host '%s', has no "
                     "forwarding table", NAME(f->vertex_of[s]), NAME(w->src));
        else
            snprintf(w->why, w->whysz, "%s: switch '%s' forwards LID %u (host '%s') to switch "
                     "'%s', which has no forwarding table", where(w, prev, at, sizeof at),
                     NAME(f->vertex_of[prev]), w->dlid, NAME(w->dst), NAME(f->vertex_of[s]));
        return -1;
    }
    port = f->out[(size_t)s * f->n_lid + w->dlid];
    if (port == TM__FWD_NONE || port == TM__FWD_CONFLICT || port == 0) {
        snprintf(w->why, w->whysz, "%s: switch '%s' %s LID %u (host '%s')",
                 where(w, s, at, sizeof at), NAME(f->vertex_of[s]),
                 port == TM__FWD_NONE ? "has no entry for" : port ? "has conflicting entries for"
                                                                  : "claims as its own (port 0)",
                 w->dlid, NAME(w->dst));
        return -1;
    }
    l = port < 256 ? f->port_link[(size_t)s * 256 + port] : -1;
    if (l < 0)
        snprintf(w->why, w->whysz, "%s: switch '%s' forwards LID %u (host '%s') out of port %u, "
                 "which has no cable", where(w, s, at, sizeof at), NAME(f->vertex_of[s]), w->dlid,
                 NAME(w->dst), port);
    return l;
}

/* Walks src -> dst, adding vol to every link; returns the hop count or
 * -1 with w->why set. */
int32_t tm__fwd_follow(const tm__fwd_walk *w, double vol, double *load)
{
    const tm__fwd *f = w->f;
    const tm_net_csr *g = w->r->g;
    int32_t l = w->first >= 0 ? w->first : f->first_link[w->src], v, prev = -1, hops = 1;
    char at[512];
    if (!w->dlid || l < 0) {
        snprintf(w->why, w->whysz, "routing: host '%s' has no LID in the topology, or no cable "
                 "at its LID's port", NAME(w->dlid ? w->src : w->dst));
        return -1;
    }
    for (;;) {
        if (load)
            load[l] += vol;
        v = g->head_of[l];
        if (v == w->dst)
            return hops;
        if (f->sw_of[v] < 0) {
            snprintf(w->why, w->whysz, "%s: LID %u (host '%s') is delivered to '%s', which does "
                     "not own it", prev >= 0 ? where(w, prev, at, sizeof at) : "routing", w->dlid,
                     NAME(w->dst), NAME(v));
            return -1;
        }
        if (hops > f->n_sw) {
            snprintf(w->why, w->whysz, "%s: forwarding loop: LID %u (host '%s') from host '%s' is "
                     "not delivered after %d hops", where(w, prev, at, sizeof at), w->dlid,
                     NAME(w->dst), NAME(w->src), (int)hops);
            return -1;
        }
        l = next_link(w, f->sw_of[v], prev);
        if (l < 0)
            return -1;
        prev = f->sw_of[v];
        hops++;
    }
}
