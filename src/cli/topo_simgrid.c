/* topo_simgrid.c - `topomap topo export --format simgrid`: the platform
 * SMPI runs MPI programs on (docs/time.md "Simulated proof"). */
#include "topo_simgrid.h"

#include "topomap/sim.h"

int cli_topo_simgrid(tm_ctx *ctx, cli_warns *w, const tm_net *net, const cli_inputs *in, const char *out_path)
{
    tm_simgrid_opts so = TM_SIMGRID_OPTS_INIT;
    tm_time_opts t = cli_time_opts(in);
    tm_route *route = NULL;
    tm_alloc alloc;
    tm_ofile of = {0};
    int64_t split = 0;
    bool open = false;
    tm_err err;
    tm_alloc_init(&alloc);
    so.latency_s = t.latency_per_hop_s;
    so.loopback_gbps = t.host_bandwidth_gbps;
    so.split_pairs = &split;
    err = cli_route_new(ctx, net, in, &route);
    if (!err && in->alloc) {
        err = tm_alloc_parse(ctx, net, in->alloc, &alloc);
        so.hosts = alloc.host;
        so.n_hosts = alloc.n;
    }
    if (!err && !(err = tm_ofile_open(ctx, out_path ? out_path : "-", &of)))
        open = true;
    if (!err)
        err = tm_simgrid_write(ctx, route, &so, of.fp);
    if (!err) {
        open = false;
        err = tm_ofile_commit(ctx, &of);
    }
    if (open)
        tm_ofile_abort(&of);
    /* stderr: the platform may be on stdout */
    if (!err && split > 0)
        fprintf(stderr, "topomap: note: routing '%s' splits %lld host pair(s) over several "
                "paths; the platform gives each one path drawn from that split, so SimGrid "
                "and est_time_s can differ there (docs/time.md \"Routings that split a "
                "pair\")\n", tm_route_kind_name(tm_route_kind_of(route)), (long long)split);
    tm_alloc_release(&alloc);
    tm_route_free(route);
    return err ? cli_report_in(ctx, w, "topo export", err, in) : 0;
}
