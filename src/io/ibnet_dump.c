/*
 * ibnet_dump.c - the raw dump model of ibnet_int.h as the readers fill it
 * (ibnet_parse.c, ibnet_ports.c) and the build step reads it (ibnet_build.c,
 * ibnet_names.c): appending node and port records, errors at a line of the
 * dump, and the release.  Below all four.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibnet_int.h"

tm__ib_node *tm__ib_add_node(tm__ib_dump *d, int32_t *idx)
{
    tm__ib_node *n;
    if (d->n_nodes >= (size_t)INT32_MAX - 1 ||
        tm__grow((void **)&d->nodes, &d->cap_nodes, d->n_nodes + 1, sizeof *d->nodes) < 0) {
        tm__nomem(d->ctx);
        return NULL;
    }
    n = &d->nodes[d->n_nodes];
    memset(n, 0, sizeof *n);
    *idx = (int32_t)d->n_nodes++;
    return n;
}

tm__ib_port *tm__ib_add_port(tm__ib_dump *d)
{
    tm__ib_port *p;
    if (d->n_ports >= (size_t)INT32_MAX - 1 ||
        tm__grow((void **)&d->ports, &d->cap_ports, d->n_ports + 1, sizeof *d->ports) < 0) {
        tm__nomem(d->ctx);
        return NULL;
    }
    p = &d->ports[d->n_ports++];
    memset(p, 0, sizeof *p);
    p->peer = -1;
    return p;
}

tm_err tm__ib_fail_at(tm__ib_dump *d, long line, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tm__fail(d->ctx, TM_EINPUT, "%s:%ld: %s", d->name, line, msg);
}

void tm__ib_dump_release(tm__ib_dump *d)
{
    for (size_t i = 0; i < d->n_nodes; i++) {
        free(d->nodes[i].id);
        free(d->nodes[i].desc);
    }
    for (size_t i = 0; i < d->n_ports; i++)
        free(d->ports[i].peer_key);
    free(d->nodes);
    free(d->ports);
    tm__strmap_release(&d->keys);
}
