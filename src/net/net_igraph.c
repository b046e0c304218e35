/*
 * net_igraph.c - the analyses of the host network that run on its igraph
 * graph (the multigraph of enabled cables built by tm_net_finalize):
 * connected parts and degree statistics.  Both are whole-graph questions
 * that igraph answers directly; the hot loops of routing and refinement
 * use the flat CSR snapshot instead (docs/design.md, "Threads": igraph is
 * called only while a network is finalized or inspected, in the caller's
 * thread).
 */
#include <stdlib.h>

#include "net_int.h"
#include "../util/util.h"

/* comp[v] receives the part of vertex v (igraph_connected_components,
 * weak = plain cable connectivity), renumbered so that parts are numbered
 * by their smallest vertex: the numbering then depends only on the input
 * order, not on igraph's traversal. */
tm_err tm__net_components(tm_ctx *ctx, const igraph_t *graph, int32_t nv, int32_t *comp,
                          int32_t *n_comp)
{
    igraph_vector_int_t membership;
    igraph_integer_t no = 0;
    tm__igraph_guard guard;
    igraph_error_t rc;
    int32_t *renum = NULL, next = 0;
    tm_err err = TM_EOK;

    *n_comp = 0;
    tm__igraph_begin(ctx, &guard);
    rc = igraph_vector_int_init(&membership, 0);
    if (rc) {
        err = tm__igraph_err(ctx, rc, "connected parts of the network");
        goto out;
    }
    rc = igraph_connected_components(graph, &membership, NULL, &no, IGRAPH_WEAK);
    if (rc) {
        err = tm__igraph_err(ctx, rc, "connected parts of the network");
        goto destroy;
    }
    renum = tm__malloc_n((size_t)no + 1, sizeof *renum);
    if (!renum) {
        err = tm__nomem(ctx);
        goto destroy;
    }
    for (igraph_integer_t c = 0; c < no; c++)
        renum[c] = -1;
    for (int32_t v = 0; v < nv; v++) {
        igraph_integer_t c = VECTOR(membership)[v];
        if (renum[c] < 0)
            renum[c] = next++;
        comp[v] = renum[c];
    }
    *n_comp = next;
destroy:
    igraph_vector_int_destroy(&membership);
out:
    tm__igraph_end(&guard);
    free(renum);
    return err;
}

static void deg_add(tm_net_degrees *d, int32_t k)
{
    if (d->count == 0 || k < d->min)
        d->min = k;
    if (d->count == 0 || k > d->max)
        d->max = k;
    d->count++;
    d->mean += ((double)k - d->mean) / (double)d->count;
}

/* Cables per host and per switch (igraph_degree of the multigraph: a
 * parallel cable counts once per cable, like a port). */
tm_err tm__net_degree_stats(tm_ctx *ctx, const igraph_t *graph, const uint8_t *kind, int32_t nv,
                            tm_net_degrees *hosts, tm_net_degrees *switches)
{
    igraph_vector_int_t deg;
    tm__igraph_guard guard;
    igraph_error_t rc;
    tm_err err = TM_EOK;

    *hosts = (tm_net_degrees){0};
    *switches = (tm_net_degrees){0};
    if (!graph)
        return tm__fail(ctx, TM_EINTERNAL, "network not finalized");
    tm__igraph_begin(ctx, &guard);
    rc = igraph_vector_int_init(&deg, 0);
    if (rc) {
        err = tm__igraph_err(ctx, rc, "degrees of the network");
        goto out;
    }
    rc = igraph_degree(graph, &deg, igraph_vss_all(), IGRAPH_ALL, IGRAPH_LOOPS);
    if (rc)
        err = tm__igraph_err(ctx, rc, "degrees of the network");
    for (int32_t v = 0; !rc && v < nv; v++)
        deg_add(kind[v] == TM_VERTEX_HOST ? hosts : switches, (int32_t)VECTOR(deg)[v]);
    igraph_vector_int_destroy(&deg);
out:
    tm__igraph_end(&guard);
    return err;
}
