/*
 * levels_store.c - the level store of the hierarchy detection
 * (levels_int.h): the levels the rules offer bottom-up, kept only when
 * they nest in the level below and have fewer groups, so that the
 * invariants of tm_net_levels hold in one place, below the rules
 * (levels_tree.c, levels_direct.c) and the dispatch (levels.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levels_int.h"

void tm__lv_kind(tm__lv *s, const char *kind)
{
    snprintf(s->out->kind, sizeof s->out->kind, "%s", kind);
}

/* Checks that level grp (k groups) nests in the last stored level. */
static tm_err check_nested(tm__lv *s, const int32_t *grp)
{
    const tm_net_levels *o = s->out;
    const int32_t *prev = o->group[o->n_levels - 1];
    int32_t *up = tm__malloc_n((size_t)s->below, sizeof *up);
    tm_err err = TM_EOK;
    if (!up)
        return tm__nomem(s->ctx);
    for (int32_t i = 0; i < s->below; i++)
        up[i] = -1;
    for (int32_t v = 0; v < s->g->n && !err; v++) {
        if (!s->g->is_host[v])
            continue;
        if (up[prev[v]] < 0)
            up[prev[v]] = grp[v];
        else if (up[prev[v]] != grp[v])
            err = tm__fail(s->ctx, TM_EINTERNAL,
                           "hierarchy detection: level '%s' does not nest in level '%s'",
                           o->name[o->n_levels], o->name[o->n_levels - 1]);
    }
    free(up);
    return err;
}

tm_err tm__lv_push(tm__lv *s, const char *name, const int32_t *key)
{
    const tm_net_csr *g = s->g;
    tm_net_levels *o = s->out;
    int32_t k = 0, *grp;
    tm_err err;

    if (s->top)
        return TM_EOK;
    grp = tm__malloc_n((size_t)g->n, sizeof *grp);
    if (!grp)
        return tm__nomem(s->ctx);
    for (int32_t v = 0; v < g->n; v++) {
        grp[v] = -1;
        if (!g->is_host[v])
            continue;
        if (s->remap[key[v]] < 0)
            s->remap[key[v]] = k++;
        grp[v] = s->remap[key[v]];
    }
    for (int32_t v = 0; v < g->n; v++)
        if (g->is_host[v])
            s->remap[key[v]] = -1;
    /* nested and not coarser: the same partition as below, nothing to add */
    if (k == 1 || k == s->below) {
        s->top = k == 1;
        free(grp);
        return TM_EOK;
    }
    snprintf(o->name[o->n_levels], sizeof o->name[0], "%s", name);
    if (o->n_levels > 0 && (err = check_nested(s, grp))) {
        free(grp);
        return err;
    }
    o->group[o->n_levels] = grp;
    o->n_groups[o->n_levels] = k;
    o->n_levels++;
    s->below = k;
    s->top = o->n_levels == TM_NET_MAX_LEVELS;
    return TM_EOK;
}
