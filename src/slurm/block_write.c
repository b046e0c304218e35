/*
 * block_write.c - a fabric as Slurm's topology/block description (Slurm
 * 23.11 and later; BlockSizes= from 24.05, topology.yaml from 25.05):
 * disjoint blocks of hosts, from the switch tree of swtree_build.c.
 *
 *   level 0  a block per leaf line of the tree: the hosts of a leaf switch
 *            (a virtual leaf's: the hosts of a switch that also lists
 *            switches), named after it;
 *   level L  a block per switch of Slurm level L: the hosts below it;
 *            switches with the same hosts (the spines of one pod) give one
 *            block, switches whose hosts overlap otherwise give no blocks
 *            (TM_EINFEASIBLE, naming them).
 *
 * Slurm joins neighbouring base blocks (in file order) into aggregated
 * blocks of 2, 4, 8, ... (block_record.c), so the order matters: blocks
 * come in the order a walk from the top switch of the tree meets their
 * hosts, so that the blocks under one switch are neighbours.  BlockSizes:
 * the given ones, else the smallest block's host count (the base block)
 * and each power of two of it up to every block.
 */
#include <stdlib.h>
#include <string.h>

#include "slurm_int.h"
#include "topomap/alloc.h"
#include "../util/util.h"

void tm__slurm_blocks_release(tm__slurm_blocks *b)
{
    for (int32_t i = 0; b->hosts && i < b->n; i++)
        free(b->hosts[i]);
    free(b->hosts);
    free(b->name);
    free(b->count);
    free(b->sizes);
    memset(b, 0, sizeof *b);
}

typedef struct walk {
    const tm_net *net;
    const tm_net_csr *g;
    const tm__slurm_tree *t;
    int32_t *stack, *mark, stamp;
} walk;

/* The hosts below item (a switch or a virtual leaf), into h (*nh). */
static void below(walk *w, int32_t item, int32_t *h, int32_t *nh)
{
    int32_t top = 0;
    *nh = 0;
    w->stamp++;
    w->stack[top++] = item;
    while (top > 0) {
        int32_t it = w->stack[--top], v = it < w->t->n ? it : it - w->t->n;
        bool vleaf = it >= w->t->n;
        for (int32_t j = w->g->off[v]; j < w->g->off[v + 1]; j++) {
            int32_t u = w->g->head[j];
            bool child = vleaf ? tm__slurm_home(w->net, v, u) : tm__slurm_is_child(w->net, w->t, v, u);
            if (!child || w->mark[u] == w->stamp)
                continue;
            w->mark[u] = w->stamp;
            if (tm_net_kind(w->net, u) == TM_VERTEX_SWITCH)
                w->stack[top++] = u;
            else
                h[(*nh)++] = u;
        }
        if (!vleaf && w->t->vname[v])
            w->stack[top++] = w->t->n + v;
    }
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Walk order of the hosts from the top lines (pos[h], 1-based). */
static void host_order(walk *w, int32_t *pos, int32_t *h)
{
    int32_t next = 1, nh;
    for (int32_t i = w->t->n_items - 1; i >= 0; i--) {
        int32_t it = w->t->order[i];
        if (it == 2 * w->t->n) /* the virtual root: its children are the top lines */
            continue;
        below(w, it, h, &nh);
        qsort(h, (size_t)nh, sizeof *h, cmp_i32);
        for (int32_t k = 0; k < nh; k++)
            if (!pos[h[k]])
                pos[h[k]] = next++;
    }
}

typedef struct cand {
    int32_t key, item, first;
} cand;

static int cmp_cand(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    return x->key != y->key ? (x->key > y->key) - (x->key < y->key)
                            : (x->item > y->item) - (x->item < y->item);
}

/* BlockSizes: the given ones, or the base and its powers of two. */
static tm_err sizes(tm_ctx *ctx, const tm_slurm_opts *o, tm__slurm_blocks *b)
{
    int32_t base = INT32_MAX, k = 0;
    for (int32_t i = 0; i < b->n; i++)
        base = b->count[i] < base ? b->count[i] : base;
    if (o->n_block_sizes > 0) {
        if (!(b->sizes = tm__malloc_n((size_t)o->n_block_sizes, sizeof *b->sizes)))
            return tm__nomem(ctx);
        for (int32_t i = 0; i < o->n_block_sizes; i++) {
            int32_t v = o->block_sizes[i], r = v / (o->block_sizes[0] > 0 ? o->block_sizes[0] : 1);
            if (v < 1 || v % o->block_sizes[0] || (r & (r - 1)) || r > (1 << 15) ||
                (i && v <= o->block_sizes[i - 1]))
                return tm__fail(ctx, TM_EUSAGE, "block sizes: %d is not the base size %d times "
                                "a power of two (at most 2^15) larger than the one before "
                                "(topology.conf(5): BlockSizes)", v, o->block_sizes[0]);
            b->sizes[b->n_sizes++] = v;
        }
        if (o->block_sizes[0] > base)
            tm__warn(ctx, "Slurm topology: block sizes: a block has %d hosts, fewer than the base "
                     "block size %d (topology.conf(5): each block must have at least as many "
                     "nodes)", base, o->block_sizes[0]);
        return TM_EOK;
    }
    if (!(b->sizes = tm__malloc_n(17, sizeof *b->sizes)))
        return tm__nomem(ctx);
    do
        b->sizes[b->n_sizes++] = (int32_t)((int64_t)base << k);
    while ((INT64_C(1) << k++) < b->n && k <= 15 && ((int64_t)base << k) <= INT32_MAX);
    return TM_EOK;
}

tm_err tm__slurm_blocks_of(tm_ctx *ctx, const tm_net *net, const tm__slurm_tree *t,
                           const tm_slurm_opts *o, int32_t level, tm__slurm_blocks *b)
{
    walk w = {net, tm_net_csr_get(net), t, NULL, NULL, 0};
    int32_t n = t->n, *h = tm__malloc_n((size_t)n + 1, sizeof *h), nh, nc = 0;
    int32_t *pos = tm__calloc_n((size_t)n + 1, sizeof *pos);
    int32_t *owner = tm__malloc_n((size_t)n + 1, sizeof *owner);
    cand *c = tm__malloc_n(2 * (size_t)n + 1, sizeof *c);
    const char **names = tm__malloc_n((size_t)n + 1, sizeof *names);
    tm_err err = TM_EOK;
    memset(b, 0, sizeof *b);
    b->level = level;
    w.stack = tm__malloc_n(2 * (size_t)n + 1, sizeof *w.stack);
    w.mark = tm__calloc_n((size_t)n + 1, sizeof *w.mark);
    if (!h || !pos || !owner || !c || !names || !w.stack || !w.mark) {
        err = tm__nomem(ctx);
        goto out;
    }
    if (level < 0 || level >= t->n_levels - (t->root_name != NULL)) {
        err = tm__fail(ctx, TM_EUSAGE, "block level %d: the tree has levels 0 to %d", level,
                       t->n_levels - 1 - (t->root_name != NULL));
        goto out;
    }
    host_order(&w, pos, h);
    /* the level's lines, by the walk position of their first host */
    for (int32_t i = 0; i < t->n_items; i++) {
        int32_t it = t->order[i], first = INT32_MAX;
        bool leaf = it >= n ? it < 2 * n : t->slevel[it] == 0;
        if (it == 2 * n || (level == 0 ? !leaf : it >= n || t->slevel[it] != level))
            continue;
        below(&w, it, h, &nh);
        for (int32_t k = 0; k < nh; k++)
            first = pos[h[k]] < first ? pos[h[k]] : first;
        if (nh)
            c[nc++] = (cand){first, it, 0};
    }
    qsort(c, (size_t)nc, sizeof *c, cmp_cand);
    b->name = tm__calloc_n((size_t)nc + 1, sizeof *b->name);
    b->hosts = tm__calloc_n((size_t)nc + 1, sizeof *b->hosts);
    b->count = tm__calloc_n((size_t)nc + 1, sizeof *b->count);
    if (!b->name || !b->hosts || !b->count) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t v = 0; v < n; v++)
        owner[v] = -1;
    for (int32_t i = 0; i < nc && !err; i++) {
        int32_t it = c[i].item, same = 0, prev = -1;
        below(&w, it, h, &nh);
        for (int32_t k = 0; k < nh; k++) {
            if (owner[h[k]] >= 0 && prev < 0)
                prev = owner[h[k]];
            same += owner[h[k]] >= 0 && owner[h[k]] == prev;
        }
        if (prev >= 0 && same == nh && b->count[prev] == nh)
            continue; /* the hosts of a block already written */
        if (prev >= 0) {
            err = tm__fail(ctx, TM_EINFEASIBLE, "block level %d: %s and %s hold overlapping "
                           "but different sets of hosts, so they are no blocks (blocks are "
                           "disjoint: try another level)", level, b->name[prev],
                           it < n ? tm_net_name(net, it) : t->vname[it - n]);
            break;
        }
        for (int32_t k = 0; k < nh; k++) {
            owner[h[k]] = b->n;
            names[k] = tm_net_name(net, h[k]);
        }
        b->name[b->n] = it < n ? (char *)tm_net_name(net, it) : t->vname[it - n];
        b->count[b->n] = nh;
        err = tm_hostlist_compress(ctx, names, (size_t)nh, &b->hosts[b->n]);
        b->n++;
    }
    for (int32_t v = 0; !err && v < n; v++)
        b->uncovered += tm_net_kind(net, v) == TM_VERTEX_HOST && pos[v] && owner[v] < 0;
    if (!err)
        err = sizes(ctx, o, b);
out:
    free(h);
    free(pos);
    free(owner);
    free(c);
    free(names);
    free(w.stack);
    free(w.mark);
    if (err)
        tm__slurm_blocks_release(b);
    return err;
}

void tm__slurm_blocks_write(FILE *out, const tm__slurm_blocks *b, bool yaml)
{
    if (yaml) {
        fputs("  block:\n    block_sizes:\n", out);
        for (int32_t i = 0; i < b->n_sizes; i++)
            fprintf(out, "      - %d\n", b->sizes[i]);
        fputs("    blocks:\n", out);
        for (int32_t i = 0; i < b->n; i++) {
            fputs("      - block: ", out);
            tm__slurm_yaml_scalar(out, b->name[i]);
            fputs("\n        nodes: ", out);
            tm__slurm_yaml_scalar(out, b->hosts[i]);
            fputc('\n', out);
        }
        return;
    }
    for (int32_t i = 0; i < b->n; i++)
        fprintf(out, "BlockName=%s Nodes=%s\n", b->name[i], b->hosts[i]);
    fputs("BlockSizes=", out);
    for (int32_t i = 0; i < b->n_sizes; i++)
        fprintf(out, "%s%d", i ? "," : "", b->sizes[i]);
    fputc('\n', out);
}
