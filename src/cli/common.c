/* common.c - input loading, value parsing and error reporting shared by
 * the subcommands (the option table is options.c). */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "warn_summary.h"

tm_time_opts cli_time_opts(const cli_inputs *in)
{
    tm_time_opts o = TM_TIME_OPTS_INIT;
    if (in->time_set & 1u)
        o.latency_per_hop_s = in->time_lat;
    if (in->time_set & 2u)
        o.message_overhead_s = in->time_overhead;
    if (in->time_set & 4u)
        o.host_bandwidth_gbps = in->time_host_bw;
    if (in->time_set & 8u)
        o.model = (tm_time_model)in->time_model;
    if (in->time_set & 16u)
        o.exact_max_flows = in->time_exact;
    o.phases = in->phases_loaded ? &in->phases : NULL;
    return o;
}

int cli_report_in(tm_ctx *ctx, cli_warns *w, const char *cmd, tm_err err, const cli_inputs *in)
{
    const char *msg = tm_ctx_errmsg(ctx);
    char hint[1024];
    if (!*msg)
        msg = tm_err_str(err);
    cli_hints(cmd, msg, in, hint, sizeof hint);
    cli_warn_flush(w); /* the warnings, then the error */
    fprintf(stderr, "topomap %s: %s%s\n", cmd, msg, hint);
    return tm_err_exit_code(err);
}

int cli_report(tm_ctx *ctx, cli_warns *w, const char *cmd, tm_err err)
{
    return cli_report_in(ctx, w, cmd, err, NULL);
}

int cli_getopt_error(const char *cmd, int c, char *const *argv)
{
    /* getopt's own messages are off (opterr = 0, optstring ":"): the
     * option it stopped at is argv[optind - 1] */
    const char *opt = optind > 0 ? argv[optind - 1] : "?";
    if (c == ':')
        return cli_usage_error(cmd, "option '%s' needs a value", opt);
    return cli_usage_error(cmd, "unknown or ambiguous option '%s'", opt);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    /* One line, like every other error (docs/errors.md). */
    fprintf(stderr, " (see '%s --help')\n", cmd);
    return TM_EXIT_USAGE;
}

tm_err cli_parse_int(const char *cmd, const char *opt, const char *s, long lo, long hi,
                     long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi) {
        cli_usage_error(cmd, "%s expects an integer in [%ld, %ld], got '%s'", opt, lo, hi, s);
        return TM_EUSAGE;
    }
    *out = v;
    return TM_EOK;
}

tm_err cli_parse_effort(const char *cmd, const char *s, int *out)
{
    long v;
    if (strcmp(s, "exhaustive") == 0) {
        *out = CLI_EFFORT_EXHAUSTIVE;
        return TM_EOK;
    }
    v = strspn(s, "0123456789") == strlen(s) && *s && strlen(s) < 4 ? atol(s) : -1;
    if (v < 0 || v > TM_EFFORT_MAX) {
        cli_usage_error(cmd, "--effort expects a level in [0, %d] or 'exhaustive', got '%s'",
                        TM_EFFORT_MAX, s);
        return TM_EUSAGE;
    }
    *out = (int)v;
    return TM_EOK;
}

tm_err cli_parse_double(const char *cmd, const char *opt, const char *s, double lo, double hi,
                        double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= lo && v <= hi)) {
        cli_usage_error(cmd, "%s expects a number in [%g, %g], got '%s'", opt, lo, hi, s);
        return TM_EUSAGE;
    }
    *out = v;
    return TM_EOK;
}

tm_err cli_ctx_new(tm_ctx **out, cli_warns *w)
{
    tm_err err = tm_ctx_new(out);
    if (err)
        return err;
    tm_ctx_set_log(*out, cli_warn_log, w); /* summarised: warn_summary.c */
    return TM_EOK;
}

tm_err cli_load_topology(tm_ctx *ctx, const cli_inputs *in, tm_net **out)
{
    tm_topo_opts o = TM_TOPO_OPTS_INIT;
    o.node_name_map = in->node_name_map;
    o.keep_hcas_separate = in->separate_hcas;
    o.slots = in->slots;
    return tm_topology_load(ctx, in->topology, &o, out);
}

tm_err cli_load_node_hier(tm_ctx *ctx, const cli_inputs *in, tm_hier *out, bool *have)
{
    FILE *f;
    tm_err err;
    *have = false;
    if (in->node_hierarchy) {
        err = tm_hier_parse(ctx, in->node_hierarchy, in->node_distances, out);
        *have = err == TM_EOK;
        return err;
    }
    if (!in->hwloc)
        return TM_EOK;
    err = tm_open_input(ctx, in->hwloc, &f);
    if (err)
        return err;
    err = tm_hier_from_hwloc(ctx, f, in->hwloc, out);
    fclose(f);
    *have = err == TM_EOK;
    return err;
}

void cli_network_init(cli_network *nw)
{
    memset(nw, 0, sizeof *nw);
    tm_alloc_init(&nw->alloc);
}

void cli_network_release(cli_network *nw)
{
    tm_route_free(nw->route);
    tm_alloc_release(&nw->alloc);
    tm_net_free(nw->net);
    cli_network_init(nw);
}

/* --root a,b,c: switch names -> vertex ids (*n of them, in roots). */
static tm_err parse_roots(tm_ctx *ctx, const tm_net *net, const char *list, int32_t **roots,
                          int32_t *n)
{
    char *copy = strdup(list), *save = NULL;
    *n = 0;
    *roots = malloc((strlen(list) / 2 + 1) * sizeof **roots);
    if (!copy || !*roots) {
        free(copy);
        return TM_ENOMEM;
    }
    for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        int32_t v = tm_net_find(net, name);
        if (v < 0 || tm_net_kind(net, v) != TM_VERTEX_SWITCH) {
            tm_err err = tm_ctx_fail(ctx, TM_EUSAGE, "--root: '%s' is not a switch of the "
                                     "topology", name);
            free(copy);
            return err;
        }
        (*roots)[(*n)++] = v;
    }
    free(copy);
    return TM_EOK;
}

/* --routing: a model name, or lft:DIR for forwarding tables. */
tm_err cli_route_new(tm_ctx *ctx, const tm_net *net, const cli_inputs *in, tm_route **out)
{
    tm_route_opts o = TM_ROUTE_OPTS_INIT;
    int32_t *roots = NULL;
    tm_route_kind kind = in->routing ? in->route.kind : TM_ROUTE_ECMP;
    tm_err err = TM_EOK;
    o.lft_dir = in->routing ? in->route.lft_dir : NULL;
    o.lmc_spread = in->lmc_spread;
    if (in->roots)
        err = parse_roots(ctx, net, in->roots, &roots, &o.n_roots);
    o.roots = roots;
    if (!err)
        err = tm_route_new_opts(ctx, net, kind, &o, out);
    free(roots);
    return err;
}

tm_err cli_network_load(tm_ctx *ctx, const cli_inputs *in, cli_network *nw)
{
    tm_err err = cli_load_topology(ctx, in, &nw->net);
    if (!err)
        err = tm_alloc_parse(ctx, nw->net, in->alloc, &nw->alloc);
    if (!err)
        err = cli_load_node_hier(ctx, in, &nw->node_hier, &nw->have_node_hier);
    if (!err)
        err = cli_route_new(ctx, nw->net, in, &nw->route);
    return err;
}

tm_err cli_check_inputs(const char *cmd, const cli_inputs *in)
{
    bool node = in->node_hierarchy || in->hwloc;
    if (!in->comm)
        return cli_usage_error(cmd, "--comm is required"), TM_EUSAGE;
    if (in->hierarchy && in->topology)
        return cli_usage_error(cmd, "--hierarchy and --topology exclude each other"), TM_EUSAGE;
    if (!in->hierarchy && !in->topology)
        return cli_usage_error(cmd, "--topology (or --hierarchy) is required"), TM_EUSAGE;
    if (in->hierarchy && !in->distances)
        return cli_usage_error(cmd, "--hierarchy needs --distances"), TM_EUSAGE;
    if (in->node_hierarchy && !in->node_distances)
        return cli_usage_error(cmd, "--node-hierarchy needs --node-distances"), TM_EUSAGE;
    if (in->node_hierarchy && in->hwloc)
        return cli_usage_error(cmd, "--node-hierarchy and --hwloc exclude each other"), TM_EUSAGE;
    if (node && !in->topology)
        return cli_usage_error(cmd, "--node-hierarchy and --hwloc describe the hosts of a "
                                    "network (--topology)"), TM_EUSAGE;
    if (in->hierarchy && (in->routing || in->alloc || in->slots || in->node_name_map))
        return cli_usage_error(cmd, "--routing, --alloc, --slots and --node-name-map need a "
                                    "network (--topology)"), TM_EUSAGE;
    if (in->lmc_spread && (!in->routing || in->route.kind != TM_ROUTE_LFT))
        return cli_usage_error(cmd, "--lmc-spread needs forwarding tables (--routing lft:DIR)"),
               TM_EUSAGE;
    if (in->roots && (!in->routing || in->route.kind != TM_ROUTE_UPDN))
        return cli_usage_error(cmd, "--root needs --routing updn"), TM_EUSAGE;
    if (in->hierarchy && in->comm_phases)
        return cli_usage_error(cmd, "--comm-phases needs a network (--topology)"), TM_EUSAGE;
    if (in->hierarchy && in->time_set)
        return cli_usage_error(cmd, "the time model's options need a network (--topology)"),
               TM_EUSAGE;
    return TM_EOK;
}

tm_err cli_load_comm(tm_ctx *ctx, const cli_inputs *in, tm_comm *out)
{
    int fmt = in->comm_format ? tm_comm_format_parse(in->comm_format) : TM_COMM_AUTO;
    return tm_comm_read_file(ctx, in->comm, (tm_comm_format)fmt, out);
}

tm_err cli_load_phases(tm_ctx *ctx, cli_inputs *in, const tm_comm *comm)
{
    tm_err err;
    if (!in->comm_phases)
        return TM_EOK;
    err = tm_comm_phases_read_file(ctx, in->comm_phases, &in->phases);
    if (err)
        return err;
    in->phases_loaded = true;
    if (in->phases.n_tasks != comm->n)
        return tm_ctx_fail(ctx, TM_EINPUT, "%s: %d tasks, but the communication graph %s has %d",
                           in->comm_phases, in->phases.n_tasks, in->comm, comm->n);
    return TM_EOK;
}

void cli_inputs_release(cli_inputs *in)
{
    tm_comm_phases_release(&in->phases);
    in->phases_loaded = false;
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
