/*
 * conf_write.c - tm_slurm_topology_write(): a network as Slurm's
 * topology.conf (topology/tree plugin) or as the tree form of the newer
 * topology.yaml, from the tree of swtree_build.c in the line order of
 * swtree_order.c (virtual leaves and root included).
 *
 *   SwitchName=S-0008f105002036b4 Nodes=sl390lin[101-124]
 *   SwitchName=S-0008f10500108c5c Switches=S-0002c90200417670,...
 *
 * Names are hostlist-compressed (src/alloc/hostlist_compress.c) and must
 * survive Slurm's parsers: no blanks, ',', '[', ']', '#', '=', quotes or
 * control characters, and switch names of at most 64 characters (the
 * limit both man pages state).  LinkSpeed (topology.conf only; Slurm reads
 * an integer and documents it as unused) is the smallest capacity, in
 * whole Gbit/s, of the cables from the switch to the children it lists.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "slurm_int.h"
#include "topomap/alloc.h"
#include "../util/util.h"

typedef struct line_buf {
    const char **names;
    int32_t *mark; /* per vertex: 1 + index of the switch that listed it */
    double min_cap;
} line_buf;

/* Every name the file will hold, before anything is written. */
static tm_err check_names(tm_ctx *ctx, const tm_net *net, const tm__slurm_tree *t)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    tm_err err;
    for (int32_t s = 0; s < t->n; s++) {
        if (t->slevel[s] < 0)
            continue;
        if ((err = tm__slurm_check_name(ctx, net, s)))
            return err;
        for (int32_t j = g->off[s]; j < g->off[s + 1] && t->level[s] == 0; j++)
            if (tm_net_kind(net, g->head[j]) == TM_VERTEX_HOST &&
                (err = tm__slurm_check_name(ctx, net, g->head[j])))
                return err;
    }
    return TM_EOK;
}

/* The item's name: a switch, a virtual leaf or the virtual root. */
static const char *item_name(const tm_net *net, const tm__slurm_tree *t, int32_t item)
{
    return item < t->n ? tm_net_name(net, item)
                       : item < 2 * t->n ? t->vname[item - t->n] : t->root_name;
}

/* The switches the virtual root lists: those no other line lists. */
static size_t root_children(const tm_net *net, const tm__slurm_tree *t, line_buf *lb)
{
    size_t n = 0;
    for (int32_t v = 0; v < t->n; v++)
        if (t->slevel[v] >= 0 && !t->listed[v])
            lb->names[n++] = tm_net_name(net, v);
    return n;
}

/* Whether neighbour v of the switch of item is on the item's line. */
static bool on_line(const tm_net *net, const tm__slurm_tree *t, int32_t item, int32_t v)
{
    if (item >= t->n) /* a virtual leaf: the hosts of its switch */
        return tm__slurm_home(net, item - t->n, v);
    return tm__slurm_is_child(net, t, item, v);
}

/* The children of line order[i] as one compressed hostlist in *out. */
static tm_err children_list(tm_ctx *ctx, const tm_net *net, const tm__slurm_tree *t, int32_t i,
                            line_buf *lb, char **out)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    int32_t item = t->order[i], s = item < t->n ? item : item - t->n;
    size_t n = 0;
    lb->min_cap = HUGE_VAL;
    if (item == 2 * t->n)
        return tm_hostlist_compress(ctx, lb->names, root_children(net, t, lb), out);
    if (item < t->n && t->vname[s])
        lb->names[n++] = t->vname[s];
    for (int32_t j = g->off[s]; j < g->off[s + 1]; j++) {
        int32_t v = g->head[j];
        if (!on_line(net, t, item, v))
            continue;
        if (g->cap[g->link[j]] < lb->min_cap)
            lb->min_cap = g->cap[g->link[j]];
        if (lb->mark[v] == i + 1)
            continue; /* parallel cables */
        lb->mark[v] = i + 1;
        lb->names[n++] = tm_net_name(net, v);
    }
    return tm_hostlist_compress(ctx, lb->names, n, out);
}

static unsigned long link_speed(double cap)
{
    double r = floor(cap + 0.5);
    return r < 1 ? 1ul : r > 4294967295.0 ? 4294967295ul : (unsigned long)r;
}

static void write_header(FILE *out, const tm__slurm_tree *t, bool yaml)
{
    fprintf(out, "# Slurm %s for the topology/tree plugin, written by topomap.\n"
            "# %d switches on %d level%s (%d leaf switches list their hosts, each upper switch\n"
            "# lists its neighbours one level down), %d hosts.\n",
            yaml ? "topology.yaml" : "topology.conf", t->n_switches, t->n_levels,
            t->n_levels == 1 ? "" : "s", t->leaves, t->hosts);
    if (t->virtual_leaves)
        fprintf(out, "# %d virtual leaf switch%s (<switch>-hosts, not in the fabric) hold%s the "
                "hosts of\n# switches that also have child switches.\n", t->virtual_leaves,
                t->virtual_leaves == 1 ? "" : "es", t->virtual_leaves == 1 ? "s" : "");
    if (t->root_name)
        fprintf(out, "# %s is not in the fabric: no switch reaches every host, and Slurm runs "
                "a job\n# only under the first top-level switch that holds all its nodes.\n",
                t->root_name);
    if (t->hosts_off_switch)
        fprintf(out, "# Not written: %d hosts cabled to no switch.\n", t->hosts_off_switch);
    if (t->unreached_switches)
        fprintf(out, "# Not written: %d switches that reach no host.\n", t->unreached_switches);
    if (!t->spanning)
        fprintf(out, "# The fabric is in parts: no switch reaches every host.\n");
}

static void write_line(FILE *out, const tm_net *net, const tm__slurm_tree *t, int32_t item,
                       const char *list, double min_cap, const tm_slurm_opts *o)
{
    bool leaf = item < t->n ? t->slevel[item] == 0 : item < 2 * t->n;
    if (o->yaml) {
        fputs("      - switch: ", out);
        tm__slurm_yaml_scalar(out, item_name(net, t, item));
        fputs(leaf ? "\n        nodes: " : "\n        children: ", out);
        tm__slurm_yaml_scalar(out, list);
        fputc('\n', out);
        return;
    }
    fprintf(out, "SwitchName=%s %s=%s", item_name(net, t, item), leaf ? "Nodes" : "Switches",
            list);
    if (o->link_speed && min_cap < HUGE_VAL)
        fprintf(out, " LinkSpeed=%lu", link_speed(min_cap));
    fputc('\n', out);
}

static void warn_outsiders(tm_ctx *ctx, const tm__slurm_tree *t)
{
    if (t->hosts_off_switch)
        tm__warn(ctx, "Slurm topology: %d hosts are cabled to no switch and are not written "
                 "(Slurm wants every node below a switch)", t->hosts_off_switch);
    if (t->unreached_switches)
        tm__warn(ctx, "Slurm topology: %d switches reach no host and are not written",
                 t->unreached_switches);
    if (!t->spanning)
        tm__warn(ctx, "Slurm topology: the fabric is in parts and no switch reaches every host: "
                 "Slurm cannot start a job on hosts of two parts (and warns that no switch "
                 "reaches all nodes)");
}

/* One topology of the file: its name, its plugin (or flat), its level. */
typedef struct topo_spec {
    char name[128];
    int kind; /* TM_SLURM_TREE, TM_SLURM_BLOCK, or FLAT */
    int32_t level;
} topo_spec;
#define FLAT 2
#define MAX_TOPOS 16

/* "NAME=tree,NAME=block[:LEVEL],NAME=flat" (TM_EUSAGE when malformed). */
static tm_err parse_topologies(tm_ctx *ctx, const tm_slurm_opts *o, topo_spec *ts, int *n)
{
    const char *p = o->topologies;
    *n = 0;
    if (!o->yaml || !p) {
        snprintf(ts[0].name, sizeof ts[0].name, "%s",
                 o->yaml && o->topology && o->topology[0] ? o->topology : "default");
        ts[0].kind = o->plugin == TM_SLURM_BLOCK ? TM_SLURM_BLOCK : TM_SLURM_TREE;
        ts[0].level = o->block_level;
        *n = 1;
        return TM_EOK;
    }
    while (*p) {
        size_t len = strcspn(p, ","), nl = strcspn(p, "=");
        char kind[64] = "";
        int64_t lv = 0;
        topo_spec *t = &ts[*n];
        if (*n == MAX_TOPOS || nl >= len || nl == 0 || nl >= sizeof t->name ||
            len - nl - 1 >= sizeof kind)
            return tm__fail(ctx, TM_EUSAGE, "topologies '%s': NAME=tree, NAME=block[:LEVEL] or "
                            "NAME=flat, comma-separated (at most %d)", o->topologies, MAX_TOPOS);
        snprintf(t->name, sizeof t->name, "%.*s", (int)nl, p);
        snprintf(kind, sizeof kind, "%.*s", (int)(len - nl - 1), p + nl + 1);
        t->level = o->block_level;
        if (strcmp(kind, "tree") == 0) {
            t->kind = TM_SLURM_TREE;
        } else if (strcmp(kind, "flat") == 0) {
            t->kind = FLAT;
        } else if (strncmp(kind, "block", 5) == 0 &&
                   (!kind[5] || (kind[5] == ':' && tm__str_to_i64(kind + 6, &lv) == 0 && lv >= 0 &&
                                 lv < 1000))) {
            t->kind = TM_SLURM_BLOCK;
            if (kind[5])
                t->level = (int32_t)lv;
        } else {
            return tm__fail(ctx, TM_EUSAGE, "topologies: '%s' is not tree, block[:LEVEL] or "
                            "flat", kind);
        }
        for (int k = 0; k < *n; k++)
            if (strcmp(ts[k].name, t->name) == 0)
                return tm__fail(ctx, TM_EUSAGE, "topologies: '%s' is named twice", t->name);
        (*n)++;
        p += len + (p[len] == ',');
    }
    if (*n == 0)
        return tm__fail(ctx, TM_EUSAGE, "topologies: none given");
    return TM_EOK;
}

static void block_header(FILE *out, const tm__slurm_blocks *b, const char *topo)
{
    fprintf(out, "# topology/block (Slurm 23.11 and later; BlockSizes from 24.05)%s%s: %d blocks,\n"
            "# the hosts below each %s; BlockSizes in nodes.\n", topo ? " of " : "",
            topo ? topo : "", b->n, b->level ? "switch of its level" : "leaf switch");
    if (b->level)
        fprintf(out, "# Blocks of level %d.\n", b->level);
    if (b->uncovered)
        fprintf(out, "# %d hosts are in no block.\n", b->uncovered);
}

/* The tree's lines (topology.conf, or the switches of a YAML tree:). */
static tm_err tree_lines(tm_ctx *ctx, const tm_net *net, const tm__slurm_tree *t,
                         const tm_slurm_opts *o, line_buf *lb, FILE *out)
{
    tm_err err = TM_EOK;
    if (o->yaml)
        fputs("  tree:\n    switches:\n", out);
    for (int32_t i = 0; i < t->n_items && !err; i++) {
        char *list = NULL;
        if (!(err = children_list(ctx, net, t, i, lb, &list)))
            write_line(out, net, t, t->order[i], list, lb->min_cap, o);
        free(list);
    }
    return err;
}

tm_err tm_slurm_topology_write(tm_ctx *ctx, const tm_net *net, const tm_slurm_opts *opts,
                               FILE *out)
{
    static const tm_slurm_opts defaults = TM_SLURM_OPTS_INIT;
    const tm_slurm_opts *o = opts ? opts : &defaults;
    topo_spec ts[MAX_TOPOS];
    tm__slurm_blocks blocks[MAX_TOPOS];
    tm__slurm_tree t;
    line_buf lb = {NULL, NULL, 0};
    int n_ts = 0;
    bool any_tree = false;
    tm_err err;

    memset(blocks, 0, sizeof blocks); /* LinkSpeed: a topology.conf of switches only */
    if ((err = parse_topologies(ctx, o, ts, &n_ts)))
        return err;
    if ((err = tm__slurm_tree_build(ctx, net, &t)))
        return err;
    if ((err = tm__slurm_tree_top(ctx, net, &t))) {
        tm__slurm_tree_release(&t);
        return err;
    }
    lb.names = tm__malloc_n((size_t)t.n + 1, sizeof *lb.names);
    lb.mark = tm__calloc_n((size_t)t.n, sizeof *lb.mark);
    if (!lb.names || !lb.mark) {
        err = tm__nomem(ctx);
        goto out;
    }
    if ((err = check_names(ctx, net, &t)))
        goto out;
    /* every block before anything is written: a level may not split the hosts */
    for (int k = 0; k < n_ts && !err; k++) {
        any_tree |= ts[k].kind == TM_SLURM_TREE;
        if (ts[k].kind == TM_SLURM_BLOCK)
            err = tm__slurm_blocks_of(ctx, net, &t, o, ts[k].level, &blocks[k]);
    }
    if (err)
        goto out;
    if (any_tree)
        write_header(out, &t, o->yaml);
    for (int k = 0; k < n_ts; k++)
        if (ts[k].kind == TM_SLURM_BLOCK)
            block_header(out, &blocks[k], o->yaml ? ts[k].name : NULL);
    for (int k = 0; k < n_ts && !err; k++) {
        if (o->yaml) {
            fputs("- topology: ", out);
            tm__slurm_yaml_scalar(out, ts[k].name);
            fprintf(out, "\n  cluster_default: %s\n", k == 0 ? "true" : "false");
        }
        if (ts[k].kind == TM_SLURM_TREE)
            err = tree_lines(ctx, net, &t, o, &lb, out);
        else if (ts[k].kind == TM_SLURM_BLOCK)
            tm__slurm_blocks_write(out, &blocks[k], o->yaml);
        else
            fputs("  flat: true\n", out);
    }
    if (!err && (fflush(out) != 0 || ferror(out)))
        err = tm__fail(ctx, TM_EIO, "write error");
    if (!err)
        warn_outsiders(ctx, &t);
out:
    for (int k = 0; k < n_ts; k++)
        tm__slurm_blocks_release(&blocks[k]);
    free(lb.names);
    free(lb.mark);
    tm__slurm_tree_release(&t);
    return err;
}
