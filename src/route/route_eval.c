/* route_eval.c - the fat-tree class totals and the grid boxes of
 * route_eval.h: the evaluation's view of the structures an ECMP router
 * found at init (src/net/ftclass.h, gridbox.h). */
#include <stdlib.h>

#include "gridbox.h"
#include "route_eval.h"
#include "route_int.h"
#include "../net/ftclass.h"
#include "../util/util.h"

struct tm__route_classes {
    const tm_route *r;
    const tm__ftclass *u;
    double *up;   /* per class: the volume that leaves it upward */
    double *down; /* per class: the volume that enters it from above */
};

bool tm__route_has_classes(const tm_route *r) { return tm__route_ftclass(r) != NULL; }

tm_err tm__route_classes_new(tm_ctx *ctx, const tm_route *r, tm__route_classes **out)
{
    const tm__ftclass *u = tm__route_ftclass(r);
    tm__route_classes *c;
    *out = NULL;
    if (!u)
        return TM_EOK;
    if (!(c = calloc(1, sizeof *c)))
        return tm__nomem(ctx);
    c->r = r;
    c->u = u;
    c->up = tm__calloc_n((size_t)u->n_cls + 1, sizeof *c->up);
    c->down = tm__calloc_n((size_t)u->n_cls + 1, sizeof *c->down);
    if (!c->up || !c->down) {
        tm__route_classes_free(c);
        return tm__nomem(ctx);
    }
    *out = c;
    return TM_EOK;
}

/* The flow crosses the levels below the one where the classes of its two
 * leaves first meet: up out of its source's classes, down into its
 * destination's. */
int32_t tm__route_classes_add(tm__route_classes *c, int32_t s, int32_t d, double w)
{
    const tm__ftclass *u = c->u;
    int32_t a = u->leaf_of[s], b = u->leaf_of[d];
    int meet = tm__ftclass_meet(u, a, b);
    for (int l = 1; l < meet; l++) {
        c->up[u->cls[(size_t)(l - 1) * (size_t)u->n_leaf + (size_t)a]] += w;
        c->down[u->cls[(size_t)(l - 1) * (size_t)u->n_leaf + (size_t)b]] += w;
    }
    return 2 * meet;
}

/* Every link up out of a class gets the same share of its totals. */
void tm__route_classes_load(const tm__route_classes *c, double *load)
{
    const tm__ftclass *u = c->u;
    const tm_net_csr *g = c->r->g;
    for (int32_t v = 0; v < g->n; v++) {
        int32_t k = u->vcls[v];
        if (k < 0 || u->den[k] == 0)
            continue; /* a host, or the top level */
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++)
            if (u->level[g->head[j]] == u->level[v] + 1) {
                load[g->link[j]] += c->up[k] / u->den[k];
                load[g->link[j] ^ 1] += c->down[k] / u->den[k];
            }
    }
}

void tm__route_classes_free(tm__route_classes *c)
{
    if (!c)
        return;
    free(c->up);
    free(c->down);
    free(c);
}

bool tm__route_grid_batch_ok(const tm_route *r)
{
    const tm__gridbox *gb = tm__route_gridbox(r);
    return gb && gb->max_steps <= TM__GRIDBOX_CLOSED_MAX;
}

bool tm__route_grid_on(const tm_route *r, int32_t v)
{
    return tm__gridbox_on(tm__route_gridbox(r), v);
}

int64_t tm__route_grid_boxes(const tm_route *r, int32_t v, size_t k, const int32_t *dst,
                             int64_t limit, int64_t *max)
{
    return tm__gridbox_boxes(tm__route_gridbox(r), v, k, dst, limit, max);
}

int32_t tm__route_grid_hops(const tm_route *r, int32_t s, int32_t t)
{
    return tm__gridbox_hops(tm__route_gridbox(r), s, t);
}

tm_err tm__route_grid_batch(tm_ctx *ctx, const tm_route *r, const tm__gridmsg *msg, size_t m,
                            double *load)
{
    return tm__gridbox_batch(ctx, tm__route_gridbox(r), msg, m, load);
}
