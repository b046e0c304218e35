/*
 * topo_read.c - Slurm's view of a topology file (tm_slurm_topology_read):
 * topology.yaml (yaml_read.c) or topology.conf (tree_read.c, switches or
 * blocks), told apart as Slurm tells them apart by name (a file named
 * *.yaml or *.yml), or by its text (YAML's "---" or a list item "- ").
 */
#include <stdlib.h>
#include <string.h>

#include "topo_int.h"
#include "../util/util.h"

static bool is_yaml(const char *name, const char *text, size_t len)
{
    size_t n = strlen(name);
    const char *p = text, *end = text + len;
    if ((n > 5 && strcmp(name + n - 5, ".yaml") == 0) || (n > 4 && strcmp(name + n - 4, ".yml") == 0))
        return true;
    while (p < end) { /* the first line that is neither blank nor a comment */
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
            p++;
        if (p < end && *p == '#') {
            while (p < end && *p != '\n')
                p++;
            continue;
        }
        break;
    }
    return p < end && *p == '-';
}

/* The whole input (at most 1 GiB), NUL-terminated. */
static tm_err slurp(tm_ctx *ctx, FILE *in, const char *name, char **buf, size_t *len)
{
    size_t cap = 0, got;
    *buf = NULL;
    *len = 0;
    do {
        if (tm__grow((void **)buf, &cap, *len + 65537, 1) < 0)
            return tm__nomem(ctx);
        got = fread(*buf + *len, 1, 65536, in);
        *len += got;
        if (*len > ((size_t)1 << 30))
            return tm__fail(ctx, TM_EINPUT, "%s: larger than 1 GiB", name);
    } while (got > 0);
    if (ferror(in))
        return tm__fail(ctx, TM_EIO, "%s: read error", name);
    (*buf)[*len] = '\0';
    return TM_EOK;
}

tm_err tm_slurm_topology_read(tm_ctx *ctx, const tm_net *net, FILE *in, const char *name,
                              const char *topo, tm_slurm_tree **out)
{
    tm_slurm_tree *t = tm__calloc_n(1, sizeof *t);
    char *buf = NULL;
    size_t len = 0;
    tm_err err;
    *out = NULL;
    if (!t)
        return tm__nomem(ctx);
    err = tm__slurm_node_order(ctx, net, t);
    if (!err)
        err = slurp(ctx, in, name, &buf, &len);
    if (!err && is_yaml(name, buf, len)) {
        err = tm__slurm_yaml_read(ctx, net, buf, len, name, topo, t);
    } else if (!err && topo) {
        err = tm__fail(ctx, TM_EUSAGE, "%s: a topology.conf has one topology: a name (%s) is "
                       "for topology.yaml", name, topo);
    } else if (!err) {
        err = tm__slurm_conf_text(ctx, net, buf, len, name, t);
    }
    free(buf);
    if (err) {
        tm_slurm_tree_free(t);
        return err;
    }
    *out = t;
    return TM_EOK;
}

tm_err tm_slurm_tree_read(tm_ctx *ctx, const tm_net *net, FILE *in, const char *name,
                          tm_slurm_tree **out)
{
    return tm_slurm_topology_read(ctx, net, in, name, NULL, out);
}
