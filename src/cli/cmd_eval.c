/* cmd_eval.c - `topomap eval`: exact quality figures of a given mapping
 * (or of the consecutive placement when no mapping is given). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage_text[] =
    "usage: topomap eval --topology T --comm G [--mapping M] [--alloc A] [--routing R] [--json]\n"
    "       topomap eval --hierarchy a1:..:ak --distances d1:..:dk --comm G [--mapping M] [--json]\n"
    "\n"
    "Computes, for the mapping M of the tasks of G onto the network T, the exact maximum\n"
    "link congestion (traffic / capacity, and which links), the average dilation (hops per\n"
    "unit of volume) and the QAP cost J (docs/design.md).  Without --mapping the consecutive\n"
    "placement of the allocation is evaluated (what a batch system does).\n"
    "\n"
    "  --topology T      ibnetdiscover dump, .graphml, .xml spec or generator spec (topo --help)\n"
    "  --node-name-map F --separate-hcas --slots N   see 'topomap topo --help'\n"
    "  --comm G          communication graph (METIS, .mtx, edge list, dense matrix, graphStats, mpiP)\n"
    "  --comm-format F   force the format: metis, mtx, edges, dense, graphstats, mpip, scotch\n"
    "  --mapping M       Open MPI rankfile or plain mapping ('host [slot]' per line;\n"
    "                    hierarchy mode: one PE index per line)\n"
    "  --alloc A         hostlist expression (node[001-064]) or hostfile; default: all hosts\n"
    "  --routing R       ecmp (default: all minimum-hop paths equally), single, dor (tori/meshes)\n"
    "  --approx          congestion by Hoefler & Snir's Algorithm 3 (approximate)\n"
    "  --hwloc F         node-internal levels of every host from an hwloc XML export, or\n"
    "  --node-hierarchy a:b:.. --node-distances d1:d2:..   the same as a spec; J then counts\n"
    "                    d_node within a host and d_top + C * hops between hosts\n"
    "  --hop-distance C  J distance of one hop (default 1; 50 with a node hierarchy)\n"
    "  --export-loads F  write per-link loads: F.csv, F.graphml or F.dot\n"
    "  --threads N       threads (default: all cores; results do not depend on it)\n"
    "  --json            one JSON object (keys in docs/design.md)\n";

int cmd_eval(int argc, char **argv)
{
    static const struct option opts[] = {
        CLI_INPUT_OPTIONS,
        {"mapping", required_argument, NULL, OPT_MAPPING},
        {"json", no_argument, NULL, OPT_JSON},
        {"approx", no_argument, NULL, OPT_APPROX},
        {"export-loads", required_argument, NULL, OPT_EXPORT_LOADS},
        {"threads", required_argument, NULL, OPT_THREADS},
        {NULL, 0, NULL, 0},
    };
    cli_inputs in = {0};
    const char *mapping_path = NULL, *loads_path = NULL;
    bool json = false, approx = false;
    long threads = 0;
    tm_ctx *ctx = NULL;
    cli_network nw;
    tm_comm comm;
    tm_mapping map;
    tm_metrics met;
    tm_hier hier;
    tm_metrics_opts mo = TM_METRICS_OPTS_INIT;
    tm_err err = TM_EOK;
    bool hmode;
    int c, rc = 0;
    double t0;

    tm_comm_init(&comm);
    cli_network_init(&nw);
    tm_mapping_init(&map);
    tm_metrics_init(&met);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        int r = cli_input_option(&in, c, optarg);
        if (r < 0)
            return EXIT_USAGE_;
        if (r > 0)
            continue;
        switch (c) {
        case OPT_HELP: fputs(usage_text, stdout); return 0;
        case OPT_MAPPING: mapping_path = optarg; break;
        case OPT_JSON: json = true; break;
        case OPT_APPROX: approx = true; break;
        case OPT_EXPORT_LOADS: loads_path = optarg; break;
        case OPT_THREADS:
            if (cli_parse_int("topomap eval", "--threads", optarg, 0, 1024, &threads) < 0)
                return EXIT_USAGE_;
            break;
        default: return cli_getopt_error("topomap eval", c, argv);
        }
    }
    if (optind < argc)
        return cli_usage_error("topomap eval", "unexpected argument '%s'", argv[optind]);
    hmode = in.hierarchy != NULL;
    if (cli_check_inputs("topomap eval", &in) < 0)
        return EXIT_USAGE_;
    if (hmode && (loads_path || approx))
        return cli_usage_error("topomap eval", "--export-loads and --approx need a network "
                                               "(--topology)");
    if (cli_ctx_new(&ctx, false))
        return EXIT_INTERNAL_;
    t0 = cli_now();
    err = tm_ctx_set_threads(ctx, (int)threads);
    if (err)
        goto fail;
    if (hmode) {
        err = tm_hier_parse(ctx, in.hierarchy, in.distances, &hier);
        if (!err)
            err = cli_load_comm(ctx, &in, &comm);
        if (err)
            goto fail;
        if (mapping_path) {
            err = cli_read_mapping(ctx, NULL, hier.n_pe, mapping_path, comm.n, &map);
        } else {
            tm_problem p = {0};
            p.comm = &comm;
            p.hier = &hier;
            err = tm_strategy_find("identity")->run(ctx, &p, 0, &map);
        }
        if (!err)
            err = tm_metrics_eval_hier(ctx, &hier, &comm, &map, &met);
        if (err)
            goto fail;
    } else {
        err = cli_network_load(ctx, &in, &nw);
        if (!err)
            err = cli_load_comm(ctx, &in, &comm);
        if (err)
            goto fail;
        if (mapping_path)
            err = cli_read_mapping(ctx, nw.net, 0, mapping_path, comm.n, &map);
        else
            err = tm_mapping_consecutive(ctx, &nw.alloc, comm.n, &map);
        if (!err)
            err = tm_mapping_check(ctx, nw.net, in.alloc ? &nw.alloc : NULL, &map);
        if (err)
            goto fail;
        mo.keep_link_loads = loads_path != NULL;
        mo.approximate = approx;
        mo.node_hier = nw.have_node_hier ? &nw.node_hier : NULL;
        mo.hop_distance = in.hop_distance;
        err = tm_metrics_eval(ctx, nw.route, &comm, &map, &mo, &met);
        if (!err && loads_path)
            err = cli_export_loads(ctx, nw.net, &met, loads_path);
        if (err)
            goto fail;
    }
    if (json) {
        json_w j;
        json_begin(&j, stdout);
        json_obj_begin(&j, NULL);
        json_str(&j, "mode", hmode ? "hierarchy" : "network");
        json_str(&j, "mapping", mapping_path ? mapping_path : "consecutive");
        if (!hmode)
            json_str(&j, "routing", tm_route_kind_name(tm_route_kind_of(nw.route)));
        cli_json_metrics(&j, nw.net, &met, hmode);
        json_num(&j, "time_s", cli_now() - t0);
        json_obj_end(&j);
        json_end(&j);
    } else {
        printf("mapping            %s\n", mapping_path ? mapping_path : "consecutive (allocation order)");
        if (!hmode)
            printf("routing            %s\n", tm_route_kind_name(tm_route_kind_of(nw.route)));
        cli_print_metrics(stdout, nw.net, &met, hmode);
        printf("time               %.3f s\n", cli_now() - t0);
    }
    goto out;
fail:
    rc = cli_report(ctx, "eval", err);
out:
    tm_metrics_release(&met);
    tm_mapping_release(&map);
    tm_comm_release(&comm);
    cli_network_release(&nw);
    tm_ctx_free(ctx);
    return rc;
}
