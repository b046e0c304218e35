/*
 * fwd_walk.h - following forwarding tables hop by hop (fwd_walk.c), shared
 * by the flows of fwd.c and the multi-rail sources of fwd_rails.c.  Private
 * to src/route/fwd*.c.
 */
#ifndef TM_FWD_WALK_H
#define TM_FWD_WALK_H

#include "route_int.h"

/* One flow being followed: src -> dst's LID dlid. */
typedef struct tm__fwd_walk {
    const tm_route *r;
    const tm__fwd *f;
    int32_t src, dst;
    uint32_t dlid;
    char *why; /* error message buffer */
    size_t whysz;
    int32_t first; /* the link the flow leaves src by; -1: its base LID's */
} tm__fwd_walk;

/* Walks w->src -> w->dst, adding vol to every link (load may be NULL);
 * returns the hop count or -1 with w->why set. */
int32_t tm__fwd_follow(const tm__fwd_walk *w, double vol, double *load);
/* The flow of a multi-rail w->src (fwd_rails.c): the longest part's hops,
 * or -1 with w->why set and nothing loaded; load NULL: hops only. */
int32_t tm__fwd_route_rails(tm__fwd_walk *w, double vol, double *load);

#endif
