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

#define SLURM_SWITCH_NAME_MAX 64

typedef struct line_buf {
    const char **names;
    int32_t *mark; /* per vertex: 1 + index of the switch that listed it */
    double min_cap;
} line_buf;

static tm_err check_name(tm_ctx *ctx, const tm_net *net, int32_t v)
{
    const char *s = tm_net_name(net, v);
    bool sw = tm_net_kind(net, v) == TM_VERTEX_SWITCH;
    for (const char *p = s; *p; p++)
        if ((unsigned char)*p <= ' ' || *p == 0x7f || strchr(",[]#=\"'", *p))
            return tm__fail(ctx, TM_EINFEASIBLE, "%s name '%s' cannot be written in a Slurm "
                            "topology file (blank, control character or one of , [ ] # = \" ')",
                            sw ? "switch" : "host", s);
    if (sw && strlen(s) > SLURM_SWITCH_NAME_MAX)
        return tm__fail(ctx, TM_EINFEASIBLE, "switch name '%s' is longer than Slurm's limit of "
                        "%d characters", s, SLURM_SWITCH_NAME_MAX);
    return TM_EOK;
}

/* Every name the file will hold, before anything is written. */
static tm_err check_names(tm_ctx *ctx, const tm_net *net, const tm__slurm_tree *t)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    tm_err err;
    for (int32_t s = 0; s < t->n; s++) {
        if (t->slevel[s] < 0)
            continue;
        if ((err = check_name(ctx, net, s)))
            return err;
        for (int32_t j = g->off[s]; j < g->off[s + 1] && t->level[s] == 0; j++)
            if (tm_net_kind(net, g->head[j]) == TM_VERTEX_HOST &&
                (err = check_name(ctx, net, g->head[j])))
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

/* A YAML scalar: plain when it cannot be read as anything but a string,
 * double-quoted otherwise (names have no control characters here). */
static void yaml_scalar(FILE *out, const char *s)
{
    static const char *const words[] = {"true", "false", "yes", "no", "on", "off", "null", "y",
                                        "n", "~"};
    bool plain = (s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_';
    for (const char *p = s; *p && plain; p++)
        plain = strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-[],/+@",
                       *p) != NULL;
    for (size_t k = 0; k < sizeof words / sizeof *words && plain; k++)
        plain = strcasecmp(s, words[k]) != 0;
    if (plain) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        fputc(*s, out);
    }
    fputc('"', out);
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
        yaml_scalar(out, item_name(net, t, item));
        fputs(leaf ? "\n        nodes: " : "\n        children: ", out);
        yaml_scalar(out, list);
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

tm_err tm_slurm_topology_write(tm_ctx *ctx, const tm_net *net, const tm_slurm_opts *opts,
                               FILE *out)
{
    static const tm_slurm_opts defaults = TM_SLURM_OPTS_INIT;
    const tm_slurm_opts *o = opts ? opts : &defaults;
    tm__slurm_tree t;
    line_buf lb = {NULL, NULL, 0};
    tm_err err;

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
    write_header(out, &t, o->yaml);
    if (o->yaml) {
        fputs("- topology: ", out);
        yaml_scalar(out, o->topology && o->topology[0] ? o->topology : "default");
        fputs("\n  cluster_default: true\n  tree:\n    switches:\n", out);
    }
    for (int32_t i = 0; i < t.n_items; i++) {
        char *list = NULL;
        if ((err = children_list(ctx, net, &t, i, &lb, &list)))
            goto out;
        write_line(out, net, &t, t.order[i], list, lb.min_cap, o);
        free(list);
    }
    if (fflush(out) != 0 || ferror(out)) {
        err = tm__fail(ctx, TM_EIO, "write error");
        goto out;
    }
    warn_outsiders(ctx, &t);
out:
    free(lb.names);
    free(lb.mark);
    tm__slurm_tree_release(&t);
    return err;
}
