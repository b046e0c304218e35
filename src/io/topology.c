/*
 * topology.c - tm_topology_load(): one entry point that turns a
 * --topology argument into a finalized, checked network.  Generator specs
 * are recognised by name; files by extension (.graphml, .xml) and
 * otherwise read as ibnetdiscover dumps (plain, -g or -p).
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "topomap/gen.h"
#include "topomap/io.h"
#include "../util/util.h"

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcasecmp(s + n - m, suf) == 0;
}

static tm_err read_file(tm_ctx *ctx, const char *path, const tm_topo_opts *opts, tm_net *net)
{
    FILE *in = NULL, *mapf = NULL;
    tm_nodemap *map = NULL;
    tm_err err;

    err = tm_open_input(ctx, path, &in);
    if (err)
        goto out;
    if (has_suffix(path, ".graphml")) {
        err = tm_graphml_read(ctx, in, path, net);
    } else if (has_suffix(path, ".xml")) {
        err = tm_xmlspec_read(ctx, in, path, net);
    } else {
        tm_ibnet_opts io = TM_IBNET_OPTS_INIT;
        if (opts->node_name_map) {
            err = tm_open_input(ctx, opts->node_name_map, &mapf);
            if (!err)
                err = tm_nodemap_read(ctx, mapf, opts->node_name_map, &map);
            if (err)
                goto out;
        }
        io.nodemap = map;
        io.keep_hcas_separate = opts->keep_hcas_separate;
        io.slots = opts->slots;
        err = tm_ibnet_read(ctx, in, path, &io, net);
    }
out:
    if (in)
        fclose(in);
    if (mapf)
        fclose(mapf);
    tm_nodemap_free(map);
    return err;
}

tm_err tm_topology_load(tm_ctx *ctx, const char *spec, const tm_topo_opts *opts, tm_net **out)
{
    tm_topo_opts defaults = TM_TOPO_OPTS_INIT;
    tm_net *net = NULL;
    tm_err err;

    *out = NULL;
    if (!opts)
        opts = &defaults;
    err = tm_net_new(ctx, &net);
    if (err)
        return err;
    if (tm_gen_is_spec(spec)) {
        struct stat st;
        if (stat(spec, &st) == 0) /* a file that happens to look like a spec */
            err = read_file(ctx, spec, opts, net);
        else
            err = tm_gen_build(ctx, spec, NULL, net);
    } else {
        err = read_file(ctx, spec, opts, net);
    }
    if (err)
        goto fail;
    if (opts->slots > 0) {
        for (int32_t v = 0; v < tm_net_n_vertices(net) && !err; v++)
            if (tm_net_kind(net, v) == TM_VERTEX_HOST)
                err = tm_net_set_slots(ctx, net, v, opts->slots);
    }
    if (!err)
        err = tm_net_finalize(ctx, net);
    if (!err)
        err = tm_net_check(ctx, net);
    if (err) {
        tm__fail_prefix(ctx, "%s", spec);
        goto fail;
    }
    *out = net;
    return TM_EOK;
fail:
    tm_net_free(net);
    return err;
}
