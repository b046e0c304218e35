/* layout_igraph.c - the igraph layouts of the report, run on a graph of
 * the drawn vertices and cables only (so a big fabric costs what is
 * drawn, not what it has).  igraph is called here in the caller's thread
 * only, inside tm__igraph_begin/end (docs/design.md "Threads"). */
#include <math.h>
#include <stdlib.h>

#include "report_int.h"
#include "../net/net_int.h"
#include "../util/util.h"

/* The seed of igraph's RNG before a layout: Fruchterman-Reingold draws
 * random directions for coinciding vertices, and the page must be the
 * same from run to run. */
#define TM_REPORT_LAYOUT_SEED 1

static tm_err drawn_graph(tm_ctx *ctx, const tm_net *net, const tm__fabric *f, igraph_t *out)
{
    igraph_vector_int_t edges;
    igraph_error_t rc = igraph_vector_int_init(&edges, 2 * (igraph_integer_t)f->nc);
    if (rc)
        return tm__igraph_err(ctx, rc, "report layout");
    for (int32_t k = 0; k < f->nc; k++) {
        int32_t a, b;
        tm_net_cable(net, f->cable[k], &a, &b);
        VECTOR(edges)[2 * k] = f->idx[a];
        VECTOR(edges)[2 * k + 1] = f->idx[b];
    }
    rc = igraph_create(out, &edges, f->nv, IGRAPH_UNDIRECTED);
    igraph_vector_int_destroy(&edges);
    return rc ? tm__igraph_err(ctx, rc, "report layout") : TM_EOK;
}

static void take_coords(const igraph_matrix_t *res, tm__fabric *f)
{
    for (int32_t i = 0; i < f->nv; i++) {
        f->x[i] = MATRIX(*res, i, 0);
        f->y[i] = MATRIX(*res, i, 1);
    }
}

tm_err tm__layout_sugiyama(tm_ctx *ctx, const tm_net *net, tm__fabric *f, const int32_t *layer)
{
    tm__igraph_guard guard;
    igraph_t g;
    igraph_matrix_t res;
    igraph_vector_int_t layers;
    igraph_error_t rc;
    tm_err err;

    tm__igraph_begin(ctx, &guard);
    err = drawn_graph(ctx, net, f, &g);
    if (err)
        goto out;
    rc = igraph_matrix_init(&res, 0, 0);
    if (!rc)
        rc = igraph_vector_int_init(&layers, f->nv);
    if (rc) {
        err = tm__igraph_err(ctx, rc, "report layout");
        goto graph;
    }
    for (int32_t i = 0; i < f->nv; i++)
        VECTOR(layers)[i] = layer[i];
    /* hgap 1, vgap 1, 20 sweeps of crossing reduction: enough for the
     * regular fat-trees, bounded on big ones */
    rc = igraph_layout_sugiyama(&g, &res, NULL, NULL, &layers, 1.0, 1.0, 20, NULL);
    if (rc)
        err = tm__igraph_err(ctx, rc, "report layout (igraph_layout_sugiyama)");
    else
        take_coords(&res, f);
    igraph_vector_int_destroy(&layers);
    igraph_matrix_destroy(&res);
graph:
    igraph_destroy(&g);
out:
    tm__igraph_end(&guard);
    return err;
}

/* Start positions and bounds: group g is a box whose centre is on a
 * circle (the classic dragonfly drawing: local links inside a box, global
 * links across); vertices without a group may go anywhere.  Without
 * groups: a circle of all vertices, no bounds. */
static void place_groups(const tm__fabric *f, const int32_t *group, int32_t ng,
                         igraph_matrix_t *res, igraph_vector_t *b[4])
{
    double cell = 4.0 * sqrt((double)f->nv / (ng > 0 ? ng : 1)) + 2.0;
    double ring = ng > 1 ? 1.3 * cell * ng / (2 * M_PI) : 0, half = 0.4 * cell;
    for (int32_t i = 0; i < f->nv; i++) {
        int32_t gi = group && group[i] >= 0 ? group[i] : -1;
        double ga = gi >= 0 ? 2 * M_PI * gi / ng : 0, a = 2 * M_PI * i / (f->nv + 1.0);
        double cx = gi >= 0 ? ring * cos(ga) : 0, cy = gi >= 0 ? ring * sin(ga) : 0;
        double rad = gi >= 0 ? 0.8 * half : ring + cell;
        MATRIX(*res, i, 0) = cx + rad * cos(a);
        MATRIX(*res, i, 1) = cy + rad * sin(a);
        if (!b[0])
            continue;
        VECTOR(*b[0])[i] = gi >= 0 ? cx - half : -1e9;
        VECTOR(*b[1])[i] = gi >= 0 ? cx + half : 1e9;
        VECTOR(*b[2])[i] = gi >= 0 ? cy - half : -1e9;
        VECTOR(*b[3])[i] = gi >= 0 ? cy + half : 1e9;
    }
}

/* Attraction along each drawn cable: 1 inside a group, almost none between
 * groups, so that global cables do not pull every router of a group onto
 * the side of its box that faces the others. */
static igraph_error_t group_weights(const tm_net *net, const tm__fabric *f, const int32_t *group,
                                    igraph_vector_t *w)
{
    igraph_error_t rc = igraph_vector_init(w, f->nc);
    for (int32_t k = 0; !rc && k < f->nc; k++) {
        int32_t a, b;
        tm_net_cable(net, f->cable[k], &a, &b);
        VECTOR(*w)[k] = group[f->idx[a]] == group[f->idx[b]] ? 1.0 : 1e-3;
    }
    return rc;
}

static igraph_error_t run_fr(const igraph_t *g, const tm_net *net, const tm__fabric *f,
                             const int32_t *group, int32_t ng, igraph_matrix_t *res)
{
    igraph_vector_t bounds[4], *b[4] = {NULL, NULL, NULL, NULL}, w;
    int nb = 0;
    bool have_w = false;
    igraph_error_t rc = igraph_matrix_resize(res, f->nv, 2);
    for (; !rc && group && nb < 4; nb++) {
        rc = igraph_vector_init(&bounds[nb], f->nv);
        if (rc)
            break;
        b[nb] = &bounds[nb];
    }
    if (!rc && group) {
        rc = group_weights(net, f, group, &w);
        have_w = rc == IGRAPH_SUCCESS;
    }
    if (!rc) {
        place_groups(f, group, ng, res, b);
        igraph_rng_seed(igraph_rng_default(), TM_REPORT_LAYOUT_SEED);
        rc = igraph_layout_fruchterman_reingold(g, res, true, f->nv > 1000 ? 300 : 500,
                                                sqrt((double)f->nv) / 10 + 1,
                                                IGRAPH_LAYOUT_AUTOGRID, have_w ? &w : NULL,
                                                b[0], b[1], b[2], b[3]);
    }
    if (have_w)
        igraph_vector_destroy(&w);
    while (nb-- > 0)
        igraph_vector_destroy(&bounds[nb]);
    return rc;
}

tm_err tm__layout_fr(tm_ctx *ctx, const tm_net *net, tm__fabric *f, const int32_t *group,
                     int32_t n_groups)
{
    tm__igraph_guard guard;
    igraph_t g;
    igraph_matrix_t res;
    igraph_error_t rc;
    tm_err err;

    tm__igraph_begin(ctx, &guard);
    err = drawn_graph(ctx, net, f, &g);
    if (err)
        goto out;
    rc = igraph_matrix_init(&res, 0, 0);
    if (!rc) {
        rc = run_fr(&g, net, f, group, n_groups, &res);
        if (!rc)
            take_coords(&res, f);
        igraph_matrix_destroy(&res);
    }
    if (rc)
        err = tm__igraph_err(ctx, rc, "report layout (igraph_layout_fruchterman_reingold)");
    igraph_destroy(&g);
out:
    tm__igraph_end(&guard);
    return err;
}
