/* layout.c - where each drawn vertex goes.  The kind of network decides
 * (docs/report.md "Layouts"): tori and meshes keep their grid
 * coordinates, trees and Clos networks are drawn by level (igraph's
 * Sugiyama layout with the levels as layers), dragonflies and PERCS by
 * group (Fruchterman-Reingold with each group held in its own box), and
 * anything else by plain Fruchterman-Reingold. */
#include <stdlib.h>
#include <string.h>

#include "report_int.h"
#include "topomap/levels.h"
#include "../util/util.h"

/* Grid coordinates: even dimensions spread along x, odd ones along y,
 * each higher one as side-by-side copies of the lower ones (a 3-D torus
 * is its z slices in a row).  False if a drawn vertex is off the grid. */
static bool layout_grid(const tm_net *net, tm__fabric *f)
{
    const tm_net_grid *gr = tm_net_grid_info(net);
    for (int32_t i = 0; i < f->nv; i++) {
        int64_t rest = (int64_t)f->vid[i] - gr->base, sx = 1, sy = 1;
        double x = 0, y = 0;
        if (rest < 0)
            return false;
        for (int d = 0; d < gr->ndims; d++) {
            int64_t c = rest % gr->dims[d];
            rest /= gr->dims[d];
            if (d % 2 == 0)
                x += (double)(c * sx), sx *= gr->dims[d] + 1;
            else
                y += (double)(c * sy), sy *= gr->dims[d] + 1;
        }
        if (rest != 0)
            return false;
        f->x[i] = x;
        f->y[i] = y;
    }
    snprintf(f->layout, sizeof f->layout, "grid coordinates of the %d-D %s", gr->ndims,
             gr->wrap[0] ? "torus" : "mesh");
    return true;
}

/* Level of every vertex: hop distance from the nearest host (hosts 0,
 * leaf switches 1, ...), by a multi-source BFS over the whole network.
 * Unreached vertices get level 0. */
static tm_err host_levels(tm_ctx *ctx, const tm_net *net, int32_t *level, int32_t *top)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    int32_t *queue = tm__malloc_n((size_t)g->n + 1, sizeof *queue), head = 0, tail = 0;
    if (!queue)
        return tm__nomem(ctx);
    for (int32_t v = 0; v < g->n; v++) {
        level[v] = g->is_host[v] ? 0 : -1;
        if (g->is_host[v])
            queue[tail++] = v;
    }
    *top = 0;
    while (head < tail) {
        int32_t v = queue[head++];
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++)
            if (level[g->head[j]] < 0) {
                level[g->head[j]] = level[v] + 1;
                *top = level[v] + 1 > *top ? level[v] + 1 : *top;
                queue[tail++] = g->head[j];
            }
    }
    for (int32_t v = 0; v < g->n; v++)
        level[v] = level[v] < 0 ? 0 : level[v];
    free(queue);
    return TM_EOK;
}

/* Sort key of spread_layers: layer, then Sugiyama's x, then index. */
typedef struct layer_key { int32_t layer; double x; int32_t i; } layer_key;
static int cmp_layer_key(const void *pa, const void *pb)
{
    const layer_key *a = pa, *b = pb;
    if (a->layer != b->layer)
        return a->layer < b->layer ? -1 : 1;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* Every level spans the whole width, in Sugiyama's order: levels of very
 * different sizes (4096 leaves, 16 spines) and vertices without a drawn
 * cable would otherwise sit in narrow, staggered bands. */
static tm_err spread_layers(tm_ctx *ctx, tm__fabric *f, const int32_t *layer)
{
    layer_key *k = tm__malloc_n((size_t)f->nv + 1, sizeof *k);
    if (!k)
        return tm__nomem(ctx);
    for (int32_t i = 0; i < f->nv; i++)
        k[i] = (layer_key){layer[i], f->x[i], i};
    qsort(k, (size_t)f->nv, sizeof *k, cmp_layer_key);
    for (int32_t a = 0, b; a < f->nv; a = b) {
        for (b = a; b < f->nv && k[b].layer == k[a].layer; b++)
            ;
        for (int32_t j = a; j < b; j++) {
            /* width 8.5 per level height: ~130 px between levels in the
             * 1100 px picture (fabric_svg.c keeps the aspect ratio) */
            f->x[k[j].i] = 8.5 * (j - a + 0.5) / (b - a);
            f->y[k[j].i] = k[j].layer;
        }
    }
    free(k);
    return TM_EOK;
}

/* Trees: Sugiyama layers, the top switches first (igraph's layer 0). */
static tm_err layout_tree(tm_ctx *ctx, const tm_net *net, tm__fabric *f)
{
    int32_t nv = tm_net_n_vertices(net), top = 0;
    int32_t *level = tm__malloc_n((size_t)nv + 1, sizeof *level);
    int32_t *layer = tm__malloc_n((size_t)f->nv + 1, sizeof *layer);
    tm_err err = level && layer ? host_levels(ctx, net, level, &top) : tm__nomem(ctx);
    if (!err) {
        for (int32_t i = 0; i < f->nv; i++)
            layer[i] = top - level[f->vid[i]];
        err = tm__layout_sugiyama(ctx, net, f, layer);
    }
    if (!err)
        err = spread_layers(ctx, f, layer);
    if (!err)
        snprintf(f->layout, sizeof f->layout,
                 "by level: igraph_layout_sugiyama (order within a level), %d switch "
                 "level(s) above the hosts", top);
    free(level);
    free(layer);
    return err;
}

/* The group of a host at the top detected level; a switch takes the
 * group of its first host neighbour (-1 if it has none). */
static void vertex_groups(const tm_net *net, const tm_net_levels *lv, const tm__fabric *f,
                          int32_t *group)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    const int32_t *top = lv->group[lv->n_levels - 1];
    for (int32_t i = 0; i < f->nv; i++) {
        int32_t v = f->vid[i];
        group[i] = top[v];
        for (int32_t j = g->off[v]; group[i] < 0 && j < g->off[v + 1]; j++)
            if (g->is_host[g->head[j]])
                group[i] = top[g->head[j]];
    }
}

static tm_err layout_groups(tm_ctx *ctx, const tm_net *net, const tm_net_levels *lv,
                            tm__fabric *f)
{
    int32_t *group = tm__malloc_n((size_t)f->nv + 1, sizeof *group);
    int32_t ng = lv->n_groups[lv->n_levels - 1];
    tm_err err;
    if (!group)
        return tm__nomem(ctx);
    vertex_groups(net, lv, f, group);
    err = tm__layout_fr(ctx, net, f, group, ng);
    if (!err)
        snprintf(f->layout, sizeof f->layout,
                 "by %s: igraph_layout_fruchterman_reingold inside one box per %s (%d)",
                 lv->name[lv->n_levels - 1], lv->name[lv->n_levels - 1], ng);
    free(group);
    return err;
}

static bool is_kind(const tm_net_levels *lv, const char *kind)
{
    return strcmp(lv->kind, kind) == 0;
}

tm_err tm__fabric_layout(tm_ctx *ctx, const tm_net *net, tm__fabric *f)
{
    tm_net_levels lv;
    tm_err err;
    f->x = tm__calloc_n((size_t)f->nv + 1, sizeof *f->x);
    f->y = tm__calloc_n((size_t)f->nv + 1, sizeof *f->y);
    if (!f->x || !f->y)
        return tm__nomem(ctx);
    if (tm_net_grid_info(net)->ndims > 0 && layout_grid(net, f))
        return TM_EOK;
    err = tm_net_levels_detect(ctx, net, &lv);
    if (err)
        return err;
    if ((is_kind(&lv, "fat-tree") || is_kind(&lv, "flat")) && tm_net_n_switches(net) > 0) {
        err = layout_tree(ctx, net, f);
    } else if ((is_kind(&lv, "dragonfly") || is_kind(&lv, "percs")) && lv.n_levels > 0) {
        err = layout_groups(ctx, net, &lv, f);
    } else {
        err = tm__layout_fr(ctx, net, f, NULL, 0);
        if (!err)
            snprintf(f->layout, sizeof f->layout, "force-directed: igraph_layout_fruchterman_reingold");
    }
    tm_net_levels_release(&lv);
    return err;
}
