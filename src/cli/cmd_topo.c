/* cmd_topo.c - `topomap topo info` and `topomap topo export`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "topo_simgrid.h"

static const char usage_text[] =
    "usage: topomap topo info   --topology T [--json] [--no-diameter]\n"
    "       topomap topo export --topology T --format graphml|dot|ibnetdiscover [--out F]\n"
    "       topomap topo export --topology T --format slurm|slurm-yaml [--link-speed] [--out F]\n"
    "       topomap topo export --topology T --format slurm-block [--block-level L]\n"
    "                           [--block-sizes N[,N..]] [--out F]\n"
    "       topomap topo export --topology T --format slurm-yaml --slurm-topologies SPEC\n"
    "       topomap topo export --topology T --format simgrid [--routing R] [--alloc A]\n"
    "                           [--latency-per-hop S] [--host-bandwidth G] [--out F]\n"
    "\n"
    "T is a file or a generator spec:\n"
    "  ibnetdiscover dump (plain, -g or -p output)   use --node-name-map F for GUID->host names,\n"
    "                                                --separate-hcas to keep one vertex per HCA\n"
    "  *.graphml                                     GraphML (name, kind, slots, transit, capacity)\n"
    "  *.xml                                         topomap XML topology spec (docs/xml-spec.md)\n"
    "%s"
    "\n"
    "options:\n";

static const char usage_formats[] =
    "\n"
    "formats: graphml, dot, ibnetdiscover (dump that topomap and ibsim read back),\n"
    "  slurm (topology.conf for Slurm's topology/tree: switches with hosts list them\n"
    "  as Nodes=, upper switches list the switches one level down as Switches=),\n"
    "  slurm-block (topology.conf for topology/block, Slurm 23.11 and later: the\n"
    "  hosts of each leaf switch, or of each switch of --block-level, as a block,\n"
    "  and BlockSizes=), slurm-yaml (the same tree as topology.yaml, Slurm 25.05\n"
    "  and later, or several topologies: --slurm-topologies); docs/slurm.md;\n"
    "  simgrid (SimGrid 4.1 platform for SMPI with topomap's routes; docs/time.md)\n";

static void usage(FILE *out)
{
    fprintf(out, usage_text, tm_gen_help());
    cli_print_options(out, CLI_TOPO); /* options.c */
    fputs(usage_formats, out);
}

typedef struct topo_args {
    cli_inputs in;
    bool json, diameter, link_speed;
    const char *format, *out;
    long block_level;
    int32_t block_sizes[16];
    int n_block_sizes;
    const char *topologies;
} topo_args;

/* --block-sizes N[,N..] */
static tm_err block_sizes(topo_args *a, const char *v)
{
    const char *p = v;
    a->n_block_sizes = 0;
    while (*p) {
        char *end;
        long x = strtol(p, &end, 10);
        if (end == p || x < 1 || x > INT32_MAX || (*end && *end != ',') || a->n_block_sizes == 16)
            return cli_usage_error("topomap topo export", "--block-sizes '%s': up to 16 node "
                                   "counts, comma-separated", v), TM_EUSAGE;
        a->block_sizes[a->n_block_sizes++] = (int32_t)x;
        p = *end ? end + 1 : end;
    }
    return a->n_block_sizes ? TM_EOK
                            : (cli_usage_error("topomap topo export", "--block-sizes: empty"),
                               TM_EUSAGE);
}

static tm_err topo_option(void *ud, int c, const char *v)
{
    topo_args *a = ud;
    switch (c) {
    case OPT_JSON: a->json = true; return TM_EOK;
    case OPT_NO_DIAMETER: a->diameter = false; return TM_EOK;
    case OPT_FORMAT: a->format = v; return TM_EOK;
    case OPT_OUT: a->out = v; return TM_EOK;
    case OPT_LINK_SPEED: a->link_speed = true; return TM_EOK;
    case OPT_BLOCK_LEVEL:
        return cli_parse_int("topomap topo export", "--block-level", v, 0, 1000, &a->block_level);
    case OPT_BLOCK_SIZES: return block_sizes(a, v);
    case OPT_SLURM_TOPOLOGIES: a->topologies = v; return TM_EOK;
    default: return cli_input_option("topomap topo", &a->in, c, v);
    }
}

/* Smallest and largest group of level l, in hosts. */
static void group_sizes(const tm_net *net, const tm_net_levels *lv, int l, int32_t *min,
                        int32_t *max)
{
    int32_t n = tm_net_n_vertices(net), *count = calloc((size_t)lv->n_groups[l], sizeof *count);
    *min = *max = 0;
    if (!count)
        return; /* sizes are cosmetic: print 0 rather than fail the command */
    for (int32_t v = 0; v < n; v++)
        if (lv->group[l][v] >= 0)
            count[lv->group[l][v]]++;
    *min = count[0];
    for (int32_t i = 0; i < lv->n_groups[l]; i++) {
        if (count[i] < *min)
            *min = count[i];
        if (count[i] > *max)
            *max = count[i];
    }
    free(count);
}

static void json_hierarchy(json_w *j, const tm_net *net, const tm_net_levels *lv)
{
    json_obj_begin(j, "hierarchy");
    json_str(j, "kind", lv->kind);
    json_arr_begin(j, "levels");
    for (int l = 0; l < lv->n_levels; l++) {
        int32_t min, max;
        group_sizes(net, lv, l, &min, &max);
        json_obj_begin(j, NULL);
        json_str(j, "name", lv->name[l]);
        json_int(j, "groups", lv->n_groups[l]);
        json_int(j, "min_hosts", min);
        json_int(j, "max_hosts", max);
        if (lv->hops[l] >= 0)
            json_num(j, "hops", lv->hops[l]);
        else
            json_null(j, "hops");
        json_obj_end(j);
    }
    json_arr_end(j);
    if (lv->hops[lv->n_levels] >= 0)
        json_num(j, "top_hops", lv->hops[lv->n_levels]);
    else
        json_null(j, "top_hops");
    json_obj_end(j);
}

/* "hierarchy  fat-tree, 2 levels: leaf 16 groups (4 hosts each), ..." and
 * the hop distance by lowest common level ("mixed" when not uniform). */
static void print_hierarchy(const tm_net *net, const tm_net_levels *lv)
{
    printf("hierarchy  %s, ", lv->kind);
    if (lv->n_levels == 0) {
        printf("no levels\n");
        return;
    }
    printf("%d level%s:", lv->n_levels, lv->n_levels > 1 ? "s" : "");
    for (int l = 0; l < lv->n_levels; l++) {
        int32_t min, max;
        group_sizes(net, lv, l, &min, &max);
        printf("%s %s %d groups (", l ? "," : "", lv->name[l], lv->n_groups[l]);
        if (min == max)
            printf("%d hosts each)", min);
        else
            printf("%d-%d hosts)", min, max);
    }
    printf("\n           hops by lowest common level:");
    for (int l = 0; l <= lv->n_levels; l++) {
        printf("%s %s ", l ? "," : "", l < lv->n_levels ? lv->name[l] : "top");
        if (lv->hops[l] >= 0)
            printf("%g", lv->hops[l]);
        else
            printf("mixed");
    }
    printf("\n");
}

static void json_degrees(json_w *j, const char *key, const tm_net_degrees *d)
{
    json_obj_begin(j, key);
    json_int(j, "count", d->count);
    json_int(j, "min", d->min);
    json_int(j, "max", d->max);
    json_num(j, "mean", d->mean);
    json_obj_end(j);
}

/* Degree statistics and connected parts (both from igraph). */
/* Hosts per number of rails (tm_net_host_rails): cnt[r] for r in
 * [0, *n_out); NULL without memory.  Only asked of switched networks. */
static int64_t *rails_histogram(const tm_net *net, int32_t *n_out)
{
    int32_t nv = tm_net_n_vertices(net), max = 0;
    int64_t *cnt;
    for (int32_t v = 0; v < nv; v++)
        if (tm_net_kind(net, v) == TM_VERTEX_HOST && tm_net_host_rails(net, v) > max)
            max = tm_net_host_rails(net, v);
    cnt = calloc((size_t)max + 1, sizeof *cnt);
    if (!cnt)
        return NULL;
    for (int32_t v = 0; v < nv; v++)
        if (tm_net_kind(net, v) == TM_VERTEX_HOST)
            cnt[tm_net_host_rails(net, v)]++;
    *n_out = max + 1;
    return cnt;
}

/* "rails": {"<rails>": hosts, ...}: 0 = a host on no switch (cabled to
 * hosts only, or to nothing). */
static void json_rails(json_w *j, const tm_net *net)
{
    int32_t n = 0;
    int64_t *cnt = tm_net_n_switches(net) > 0 ? rails_histogram(net, &n) : NULL;
    char key[16];
    if (!cnt)
        return;
    json_obj_begin(j, "rails");
    for (int32_t r = 0; r < n; r++)
        if (cnt[r]) {
            snprintf(key, sizeof key, "%d", (int)r);
            json_int(j, key, cnt[r]);
        }
    json_obj_end(j);
    free(cnt);
}

/* "rails      4 per host (all 64 hosts)", or one count per kind. */
static void print_rails(const tm_net *net, int32_t hosts)
{
    int32_t n = 0, kinds = 0;
    int64_t *cnt = tm_net_n_switches(net) > 0 ? rails_histogram(net, &n) : NULL;
    if (!cnt)
        return;
    for (int32_t r = 0; r < n; r++)
        kinds += cnt[r] > 0;
    printf("rails     ");
    if (kinds == 1)
        printf(" %d per host (all %d hosts)", (int)(n - 1), (int)hosts);
    for (int32_t r = 0, first = 1; kinds > 1 && r < n; r++)
        if (cnt[r]) {
            printf("%s %d: %lld host%s", first ? "" : ",", (int)r, (long long)cnt[r],
                   cnt[r] > 1 ? "s" : "");
            first = 0;
        }
    if (n > 2)
        printf(" (multi-rail: messages striped over the rails, docs/routing.md)");
    printf("\n");
    free(cnt);
}

static void json_structure(json_w *j, const tm_net *net, const tm_net_info *info)
{
    json_obj_begin(j, "degrees");
    json_degrees(j, "hosts", &info->host_degree);
    json_degrees(j, "switches", &info->switch_degree);
    json_obj_end(j);
    json_arr_begin(j, "parts");
    for (int32_t i = 0; i < info->parts; i++) {
        json_obj_begin(j, NULL);
        json_int(j, "hosts", info->part_hosts[i]);
        json_str(j, "first_host", tm_net_name(net, info->part_first_host[i]));
        json_obj_end(j);
    }
    json_arr_end(j);
    json_rails(j, net);
}

static void print_structure(const tm_net *net, const tm_net_info *info)
{
    printf("degrees    hosts %d-%d cables (mean %.2f)", info->host_degree.min,
           info->host_degree.max, info->host_degree.mean);
    if (info->switch_degree.count > 0)
        printf(", switches %d-%d (mean %.2f)", info->switch_degree.min, info->switch_degree.max,
               info->switch_degree.mean);
    printf("\n");
    print_rails(net, info->hosts);
    if (info->parts <= 1) {
        printf("parts      1 (connected)\n");
        return;
    }
    printf("parts      %d, not connected to each other (a failed cable or switch?); a job must "
           "lie in one part:\n", info->parts);
    for (int32_t i = 0; i < info->parts && i < 8; i++)
        printf("           %d host%s, e.g. %s\n", info->part_hosts[i],
               info->part_hosts[i] > 1 ? "s" : "", tm_net_name(net, info->part_first_host[i]));
    if (info->parts > 8)
        printf("           ... %d more parts\n", info->parts - 8);
}

static void print_info(const char *spec, const tm_net *net, const tm_net_info *info,
                       const tm_net_levels *lv, bool json)
{
    const tm_net_grid *grid = tm_net_grid_info(net);
    if (json) {
        json_w j;
        char key[64];
        json_begin(&j, stdout);
        json_obj_begin(&j, NULL);
        json_str(&j, "topology", spec);
        json_int(&j, "hosts", info->hosts);
        json_int(&j, "switches", info->switches);
        json_int(&j, "cables", info->cables);
        json_int(&j, "slots", info->slots);
        if (info->diameter >= 0)
            json_int(&j, "diameter", info->diameter);
        else
            json_null(&j, "diameter");
        json_obj_begin(&j, "capacities");
        for (int32_t i = 0; i < info->n_capclasses; i++) {
            snprintf(key, sizeof key, "%g", info->capclasses[i].capacity);
            json_int(&j, key, info->capclasses[i].cables);
        }
        json_obj_end(&j);
        json_structure(&j, net, info);
        if (grid->ndims > 0) {
            json_arr_begin(&j, "grid_dims");
            for (int d = 0; d < grid->ndims; d++)
                json_int(&j, NULL, grid->dims[d]);
            json_arr_end(&j);
        }
        json_hierarchy(&j, net, lv);
        json_obj_end(&j);
        json_end(&j);
        return;
    }
    printf("topology   %s\n", spec);
    printf("hosts      %d\n", info->hosts);
    printf("switches   %d\n", info->switches);
    printf("cables     %d\n", info->cables);
    printf("slots      %lld\n", (long long)info->slots);
    if (info->diameter >= 0)
        printf("diameter   %d hops (between hosts%s)\n", info->diameter,
               info->parts > 1 ? " of one part" : "");
    else
        printf("diameter   not computed\n");
    printf("capacities");
    for (int32_t i = 0; i < info->n_capclasses; i++)
        printf("%s%g Gbit/s x %lld", i ? ", " : " ", info->capclasses[i].capacity,
               (long long)info->capclasses[i].cables);
    printf("\n");
    print_structure(net, info);
    if (grid->ndims > 0) {
        printf("grid      ");
        for (int d = 0; d < grid->ndims; d++)
            printf("%s%d", d ? "x" : " ", grid->dims[d]);
        printf(" (%s)\n", grid->wrap[0] ? "torus" : "mesh");
    }
    print_hierarchy(net, lv);
}

static bool is_slurm(const char *format)
{
    return strcmp(format, "slurm") == 0 || strcmp(format, "slurm-yaml") == 0 ||
           strcmp(format, "slurm-block") == 0;
}

static int run_export(tm_ctx *ctx, cli_warns *w, const tm_net *net, const topo_args *a)
{
    const char *format = a->format, *out_path = a->out;
    tm_ofile of;
    tm_err err = tm_ofile_open(ctx, out_path ? out_path : "-", &of);
    if (err)
        return cli_report(ctx, w, "topo export", err);
    if (strcmp(format, "graphml") == 0)
        err = tm_graphml_write(ctx, net, NULL, of.fp);
    else if (strcmp(format, "dot") == 0)
        err = tm_dot_write(ctx, net, NULL, of.fp);
    else if (is_slurm(format)) {
        tm_slurm_opts so = TM_SLURM_OPTS_INIT;
        so.yaml = strcmp(format, "slurm-yaml") == 0;
        so.link_speed = a->link_speed;
        so.plugin = strcmp(format, "slurm-block") == 0 ? TM_SLURM_BLOCK : TM_SLURM_TREE;
        so.block_level = (int32_t)a->block_level;
        so.block_sizes = a->n_block_sizes ? a->block_sizes : NULL;
        so.n_block_sizes = a->n_block_sizes;
        so.topologies = a->topologies;
        err = tm_slurm_topology_write(ctx, net, &so, of.fp);
    } else
        err = tm_ibnet_write(ctx, net, of.fp);
    if (err) {
        tm_ofile_abort(&of);
        return cli_report(ctx, w, "topo export", err);
    }
    err = tm_ofile_commit(ctx, &of);
    return err ? cli_report(ctx, w, "topo export", err) : 0;
}

/* Options after "info" / "export" into *a: true to go on, false to end
 * with exit code *rc. */
static bool parse_args(int argc, char **argv, const char *sub, topo_args *a, int *rc)
{
    memset(a, 0, sizeof *a);
    a->diameter = true;
    if (!cli_parse_options("topomap topo", CLI_TOPO, argc, argv, topo_option, a, usage, rc))
        return false;
    *rc = TM_EXIT_USAGE;
    if (!a->in.topology)
        return cli_usage_error("topomap topo", "--topology is required"), false;
    if (strcmp(sub, "export") == 0) {
        if (!a->format)
            return cli_usage_error("topomap topo export", "--format is required"), false;
        if (strcmp(a->format, "graphml") && strcmp(a->format, "dot") &&
            strcmp(a->format, "ibnetdiscover") && !is_slurm(a->format) &&
            strcmp(a->format, "simgrid"))
            return cli_usage_error("topomap topo export", "unknown --format '%s' (graphml, dot, "
                                   "ibnetdiscover, slurm, slurm-block, slurm-yaml, simgrid)",
                                   a->format), false;
        if ((a->block_level || a->n_block_sizes) && strcmp(a->format, "slurm-block") != 0 &&
            !(strcmp(a->format, "slurm-yaml") == 0 && a->topologies))
            return cli_usage_error("topomap topo export", "--block-level and --block-sizes need "
                                   "--format slurm-block (or slurm-yaml --slurm-topologies)"),
                   false;
        if (a->topologies && strcmp(a->format, "slurm-yaml") != 0)
            return cli_usage_error("topomap topo export", "--slurm-topologies needs --format "
                                   "slurm-yaml"), false;
        if ((a->in.time_set || a->in.routing || a->in.alloc) && strcmp(a->format, "simgrid") != 0)
            return cli_usage_error("topomap topo export", "--latency-per-hop, --host-bandwidth, "
                                   "--routing and --alloc need --format simgrid"), false;
        if (a->link_speed && strcmp(a->format, "slurm") != 0)
            return cli_usage_error("topomap topo export", "--link-speed needs --format slurm "
                                   "(topology.yaml has no link speed)"), false;
    } else if (a->block_level || a->n_block_sizes || a->topologies) {
        return cli_usage_error("topomap topo info", "--block-level, --block-sizes and "
                               "--slurm-topologies are options of 'topo export'"), false;
    } else if (a->link_speed || a->in.time_set || a->in.routing || a->in.alloc) {
        return cli_usage_error("topomap topo info", "--%s is an option of 'topo export'",
                               a->link_speed
                                   ? "link-speed"
                                   : "routing/--alloc/--latency-per-hop/--host-bandwidth"),
               false;
    }
    *rc = TM_EXIT_OK;
    return true;
}

static int run_info(tm_ctx *ctx, cli_warns *w, const topo_args *a, tm_net *net)
{
    tm_net_info info;
    tm_net_levels levels;
    tm_err err = tm_net_info_compute(ctx, net, a->diameter, &info);
    if (err)
        return cli_report(ctx, w, "topo info", err);
    err = tm_net_levels_detect(ctx, net, &levels);
    if (err) {
        tm_net_info_release(&info);
        return cli_report(ctx, w, "topo info", err);
    }
    print_info(a->in.topology, net, &info, &levels, a->json);
    tm_net_levels_release(&levels);
    tm_net_info_release(&info);
    return 0;
}

int cmd_topo(int argc, char **argv, cli_warns *w)
{
    topo_args a;
    const char *sub;
    tm_ctx *ctx = NULL;
    tm_net *net = NULL;
    tm_err err;
    int rc;

    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? TM_EXIT_USAGE : 0;
    }
    sub = argv[1];
    if (strcmp(sub, "info") != 0 && strcmp(sub, "export") != 0)
        return cli_usage_error("topomap topo", "unknown subcommand '%s' (info, export)", sub);
    if (!parse_args(argc - 1, argv + 1, sub, &a, &rc))
        return rc;
    if (cli_ctx_new(&ctx, w))
        return TM_EXIT_INTERNAL;
    err = cli_load_topology(ctx, &a.in, &net);
    if (err)
        rc = cli_report(ctx, w, "topo", err);
    else if (strcmp(sub, "export") == 0 && strcmp(a.format, "simgrid") == 0)
        rc = cli_topo_simgrid(ctx, w, net, &a.in, a.out);
    else if (strcmp(sub, "export") == 0)
        rc = run_export(ctx, w, net, &a);
    else
        rc = run_info(ctx, w, &a, net);
    tm_net_free(net);
    tm_ctx_free(ctx);
    return rc;
}
