/*
 * build.c - vertex and cable helpers shared by all generators: host names
 * from the validated pattern, switch names, the name prefix, slots, the
 * transit policy of direct networks, and error context.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gen_int.h"

/* Adds the vertex and, if the net refuses it (a duplicate name, e.g. a
 * host pattern that collides with a switch name or with vertices already
 * in the net), says which spec produced it. */
static tm_err add_vertex(tm__gen *g, const char *name, tm_vertex_kind kind, int32_t *id)
{
    tm_err err = tm_net_add_vertex(g->ctx, g->net, name, kind,
                                   kind == TM_VERTEX_HOST ? g->slots : 0, id);
    if (err && err != TM_ENOMEM)
        tm__fail_prefix(g->ctx, "generator spec '%.200s'", g->spec);
    return err;
}

tm_err tm__gen_host(tm__gen *g, int64_t index, int32_t *id)
{
    char name[4 * TM_GEN_MAX_NAME];
    const tm__gen_hostfmt *f = &g->hostfmt;
    int32_t v = -1;
    tm_err err;
    if (f->zero)
        snprintf(name, sizeof name, "%s%s%0*lld%s", g->prefix, f->pre, f->width,
                 (long long)index, f->post);
    else
        snprintf(name, sizeof name, "%s%s%lld%s", g->prefix, f->pre, (long long)index, f->post);
    err = add_vertex(g, name, TM_VERTEX_HOST, &v);
    /* Explicit, not the default: the default makes hosts transit only in a
     * net without switches, and an XML spec may put this direct network
     * next to a switched one. */
    if (!err && g->direct)
        err = tm_net_set_transit(g->ctx, g->net, v, TM_TRANSIT_YES);
    if (id)
        *id = v;
    return err;
}

tm_err tm__gen_switch(tm__gen *g, int32_t *id, const char *fmt, ...)
{
    char name[4 * TM_GEN_MAX_NAME];
    size_t n = (size_t)snprintf(name, sizeof name, "%s", g->prefix);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name + n, sizeof name - n, fmt, ap);
    va_end(ap);
    return add_vertex(g, name, TM_VERTEX_SWITCH, id);
}

tm_err tm__gen_cable(tm__gen *g, int32_t a, int32_t b, double cap)
{
    return tm_net_add_cable(g->ctx, g->net, a, b, cap, NULL);
}
