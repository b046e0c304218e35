/* cmd_eval.c - `topomap eval`: exact quality figures of a given mapping
 * (or of the consecutive placement when no mapping is given). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage_head[] =
    "usage: topomap eval --topology T --comm G [--mapping M] [--alloc A] [--routing R] [--json]\n"
    "                    [--export-loads F] [--report F.html]\n"
    "       topomap eval --hierarchy a1:..:ak --distances d1:..:dk --comm G [--mapping M] [--json]\n"
    "\n"
    "Computes, for the mapping M of the tasks of G onto the network T, the exact maximum\n"
    "link congestion (traffic / capacity, and which links), the average dilation (hops per\n"
    "unit of volume) and the QAP cost J (docs/design.md).  Without --mapping the consecutive\n"
    "placement of the allocation is evaluated (what a batch system does).  With --mapping, it\n"
    "is compared with the consecutive placement of --alloc, or without --alloc of the same job\n"
    "on the mapping's own hosts in name order (the line 'baseline' says which).\n"
    "\n"
    "options:\n";

static void usage(FILE *out)
{
    fputs(usage_head, out);
    cli_print_options(out, CLI_EVAL); /* options.c */
}

typedef struct eval_args {
    cli_inputs in;
    const char *mapping_path, *loads_path, *report_path;
    bool json, approx, hmode, compare;
    /* --mapping without --alloc: the baseline is the mapping's own hosts
     * (mapping_baseline), listed in base_hosts (malloc'ed hostlist) */
    bool base_of_mapping;
    char *base_hosts;
} eval_args;

static tm_err eval_option(void *ud, int c, const char *v)
{
    eval_args *a = ud;
    switch (c) {
    case OPT_MAPPING: a->mapping_path = v; return TM_EOK;
    case OPT_JSON: a->json = true; return TM_EOK;
    case OPT_APPROX: a->approx = true; return TM_EOK;
    case OPT_COMPARE_ROUTING: a->compare = true; return TM_EOK;
    case OPT_EXPORT_LOADS: a->loads_path = v; return TM_EOK;
    case OPT_REPORT: a->report_path = v; return TM_EOK;
    default: return cli_input_option("topomap eval", &a->in, c, v);
    }
}

/* Options into *a: true to go on, false to end with exit code *rc. */
static bool parse_args(int argc, char **argv, eval_args *a, int *rc)
{
    if (!cli_parse_options("topomap eval", CLI_EVAL, argc, argv, eval_option, a, usage, rc))
        return false;
    a->hmode = a->in.hierarchy != NULL;
    *rc = TM_EXIT_USAGE;
    if (cli_check_inputs("topomap eval", &a->in))
        return false;
    if (a->hmode && (a->loads_path || a->approx || a->compare || a->report_path))
        return cli_usage_error("topomap eval", "--export-loads, --report, --approx and "
                                               "--compare-routing need a network (--topology)"),
               false;
    *rc = TM_EXIT_OK;
    return true;
}

/* Hierarchy mode: the given mapping, or identity (PE i for task i). */
static tm_err eval_hier(tm_ctx *ctx, const eval_args *a, tm_comm *comm, tm_mapping *map,
                        tm_metrics *met, tm_bounds *bnd)
{
    tm_hier hier;
    tm_err err = tm_hier_parse(ctx, a->in.hierarchy, a->in.distances, &hier);
    if (!err)
        err = cli_load_comm(ctx, &a->in, comm);
    if (err)
        return err;
    if (a->mapping_path) {
        err = cli_read_mapping(ctx, NULL, hier.n_pe, a->mapping_path, comm->n, map);
    } else {
        tm_problem p = {0};
        p.comm = comm;
        p.hier = &hier;
        err = tm_strategy_find("identity")->run(ctx, &p, 0, map);
    }
    if (!err)
        err = tm_metrics_eval_hier(ctx, &hier, comm, map, met);
    /* every mapping of the job on the hierarchy (the PEs it has) */
    return err ? err : cli_bounds_hier(ctx, &hier, comm, -1, cli_tasks_per_slot(map, hier.n_pe),
                                       bnd);
}

/* --report: the page shows the exact loads of the mapping, beside the
 * consecutive placement (docs/report.md). */
static tm_err eval_report(tm_ctx *ctx, const eval_args *a, const cli_network *nw,
                          const tm_comm *comm, const tm_mapping *map, const tm_metrics *met,
                          const tm_bounds *bnd)
{
    cli_report_args ra = {0};
    ra.met = met->approximate ? NULL : met;  /* the page shows exact loads */
    ra.map_is_consecutive = a->mapping_path == NULL;
    ra.path = a->report_path;
    ra.title = "topomap eval";
    ra.nw = nw;
    ra.in = &a->in;
    ra.comm = comm;
    ra.map = map;
    ra.map_label = a->mapping_path ? a->mapping_path : "consecutive";
    ra.alloc_label = a->base_of_mapping ? "the mapping's hosts" : NULL;
    ra.bounds = bnd;
    return cli_write_report(ctx, &ra);
}

/* Network mode: the given mapping, or the consecutive placement of the
 * allocation (what a batch system does), checked against the allocation. */
/* --compare-routing: the same mapping under ECMP (same options). */
static tm_err eval_ecmp(tm_ctx *ctx, const cli_network *nw, const tm_comm *comm,
                        const tm_mapping *map, const tm_metrics_opts *mo, tm_metrics *out)
{
    tm_route *ecmp;
    tm_metrics_opts o = *mo;
    tm_err err = tm_route_new(ctx, nw->net, TM_ROUTE_ECMP, &ecmp);
    o.keep_link_loads = false;
    if (!err)
        err = tm_metrics_eval(ctx, ecmp, comm, map, &o, out);
    tm_route_free(ecmp);
    return err;
}

/* With --mapping: the consecutive placement of the allocation under the
 * same options, for the comparison (skipped when the tasks do not fit). */
static tm_err eval_consecutive(tm_ctx *ctx, const cli_network *nw, const tm_comm *comm,
                               const tm_metrics_opts *mo, tm_metrics *out, bool *have)
{
    tm_metrics_opts o = *mo;
    tm_mapping cm;
    tm_err err;
    if (comm->n > tm_alloc_total_slots(&nw->alloc))
        return TM_EOK;
    tm_mapping_init(&cm);
    o.keep_link_loads = false;
    err = tm_mapping_consecutive(ctx, &nw->alloc, comm->n, &cm);
    if (!err)
        err = tm_metrics_eval(ctx, nw->route, comm, &cm, &o, out);
    tm_mapping_release(&cm);
    *have = !err;
    return err;
}

/* --mapping without --alloc: compare with what the batch system would do
 * with the same job on the same hosts, the consecutive placement on the
 * mapping's hosts in name order with as many tasks on each as the mapping
 * (tm_alloc_of_mapping), not with the first hosts of the whole topology,
 * which would change the baseline behind the user's back (make demo's
 * rankfile would compare with 6 hosts of 12 slots instead of its 16). */
static tm_err mapping_baseline(tm_ctx *ctx, eval_args *a, cli_network *nw, const tm_mapping *map)
{
    const char **names;
    tm_err err = tm_alloc_of_mapping(ctx, nw->net, map, &nw->alloc);
    if (err)
        return err;
    a->base_of_mapping = true;
    names = malloc((nw->alloc.n ? (size_t)nw->alloc.n : 1) * sizeof *names);
    if (!names)
        return tm_ctx_fail(ctx, TM_ENOMEM, "out of memory");
    for (int32_t i = 0; i < nw->alloc.n; i++)
        names[i] = tm_net_name(nw->net, nw->alloc.host[i]);
    /* names a hostlist cannot hold are only not listed */
    if (tm_hostlist_compress(NULL, names, (size_t)nw->alloc.n, &a->base_hosts) != TM_EOK)
        a->base_hosts = NULL;
    free(names);
    return TM_EOK;
}

static tm_err eval_net(tm_ctx *ctx, eval_args *a, cli_network *nw, tm_comm *comm,
                       tm_mapping *map, tm_metrics *met, tm_metrics *ecmp_met, tm_metrics *cons,
                       bool *have_cons, tm_bounds *bnd)
{
    tm_metrics_opts mo = TM_METRICS_OPTS_INIT;
    tm_time_opts to;
    tm_err err = cli_network_load(ctx, &a->in, nw);
    if (!err)
        err = cli_load_comm(ctx, &a->in, comm);
    if (!err)
        err = cli_load_phases(ctx, &a->in, comm);
    if (err)
        return err;
    to = cli_time_opts(&a->in);
    if (a->mapping_path)
        err = cli_read_mapping(ctx, nw->net, 0, a->mapping_path, comm->n, map);
    else if (comm->n > tm_alloc_total_slots(&nw->alloc))
        /* no silent oversubscription: a wrong hostfile would look like one */
        err = tm_ctx_fail(ctx, TM_EINFEASIBLE,
                          "%d tasks but only %lld slots on %d hosts%s; give --slots N (every "
                          "host N slots)%s, or --mapping M for an oversubscribed placement (e.g. "
                          "one written by 'map --imbalance')",
                          comm->n, (long long)tm_alloc_total_slots(&nw->alloc), nw->alloc.n,
                          a->in.alloc ? " of the allocation" : "",
                          a->in.alloc ? ", a larger --alloc" : "");
    else
        err = tm_mapping_consecutive(ctx, &nw->alloc, comm->n, map);
    if (!err)
        err = tm_mapping_check(ctx, nw->net, a->in.alloc ? &nw->alloc : NULL, map);
    if (!err && a->mapping_path && !a->in.alloc)
        err = mapping_baseline(ctx, a, nw, map);
    if (err)
        return err;
    mo.keep_link_loads = a->loads_path != NULL || a->report_path != NULL;
    mo.approximate = a->approx;
    mo.node_hier = nw->have_node_hier ? &nw->node_hier : NULL;
    mo.hop_distance = a->in.hop_distance;
    mo.time = &to;
    err = tm_metrics_eval(ctx, nw->route, comm, map, &mo, met);
    if (!err && a->compare)
        err = eval_ecmp(ctx, nw, comm, map, &mo, ecmp_met);
    if (!err && a->mapping_path)
        err = eval_consecutive(ctx, nw, comm, &mo, cons, have_cons);
    /* every mapping of the job on the allocation the baseline uses (--alloc,
     * all hosts, or the mapping's hosts with its tasks on each), at most as
     * many tasks on a slot as the mapping has when it oversubscribes */
    if (!err)
        err = cli_bounds_network(ctx, nw, &a->in, comm, -1,
                                 cli_tasks_per_slot(map, tm_alloc_total_slots(&nw->alloc)), bnd);
    if (!err && a->loads_path)
        err = cli_export_loads(ctx, nw->net, met, a->loads_path);
    if (!err && a->report_path)
        err = eval_report(ctx, a, nw, comm, map, met, bnd);
    return err;
}

/* Figure of a metrics set by name, for the comparison table. */
static double figure(const tm_metrics *m, int i)
{
    return i == 0 ? m->max_congestion : i == 1 ? m->avg_dilation : m->qap_J;
}

static const char *const figure_key[] = {"max_congestion", "avg_dilation", "qap_network_J"};

static void json_compare(json_w *j, const cli_network *nw, const tm_metrics *met,
                         const tm_metrics *ecmp)
{
    json_obj_begin(j, "compare_routing");
    json_str(j, "routing", tm_route_kind_name(tm_route_kind_of(nw->route)));
    for (int k = 0; k < 2; k++) {
        json_obj_begin(j, k ? "routed" : "ecmp");
        for (int i = 0; i < 3; i++)
            json_num(j, figure_key[i], figure(k ? met : ecmp, i));
        json_obj_end(j);
    }
    json_num(j, "congestion_ratio",
             ecmp->max_congestion > 0 ? met->max_congestion / ecmp->max_congestion : 1);
    json_obj_end(j);
}

static void print_compare(const cli_network *nw, const tm_metrics *met, const tm_metrics *ecmp)
{
    static const char *const label[] = {"max congestion", "avg dilation", "QAP J (network)"};
    printf("routing comparison %16s %16s    ratio\n", "ecmp",
           tm_route_kind_name(tm_route_kind_of(nw->route)));
    for (int i = 0; i < 3; i++) {
        double e = figure(ecmp, i), r = figure(met, i);
        printf("  %-16s %16.10g %16.10g   x%.3f\n", label[i], e, r, e > 0 ? r / e : 1.0);
    }
}

static double change_pct(double base, double v)
{
    return base > 0 ? 100.0 * (v - base) / base : 0.0;
}

/* Which consecutive placement the mapping is compared with; the hosts'
 * hostlist is cut after whole groups (JSON has all of it). */
static void print_baseline(const eval_args *a, const cli_network *nw)
{
    const char *h = a->base_hosts ? a->base_hosts : "-";
    int len = (int)strlen(h), cut = len, inner = 0, depth = 0;
    if (!a->base_of_mapping) {
        printf("baseline           consecutive on the allocation in its order (--alloc %s)\n",
               a->in.alloc);
        return;
    }
    for (int i = 0; len > 150 && i < 150; i++) {
        depth += h[i] == '[' ? 1 : h[i] == ']' ? -1 : 0;
        if (h[i] == ',' && depth == 0)
            cut = i;
        else if (h[i] == ',')
            inner = i;
    }
    bool in_group = cut == len && len > 150; /* one group longer than that: cut inside it */
    if (in_group)
        cut = inner;
    printf("baseline           consecutive on the mapping's %d hosts in name order, as many "
           "tasks on each as the mapping puts there:\n", nw->alloc.n);
    printf("                   %.*s%s (--alloc A: the job's own hosts and order)\n", cut, h,
           cut == len ? "" : in_group ? ",...]" : ",...");
}

/* The given mapping beside the consecutive placement (--mapping), with a
 * note for every figure on which it is worse. */
static void print_vs_consecutive(const eval_args *a, const cli_network *nw, const tm_metrics *c,
                                 const tm_metrics *m)
{
    static const char *const name[4] = {"max congestion", "avg dilation", "QAP J",
                                        "est. time (s)"};
    double base[4] = {c->max_congestion, c->avg_dilation, c->qap_J, c->est_time_s};
    double val[4] = {m->max_congestion, m->avg_dilation, m->qap_J, m->est_time_s};
    print_baseline(a, nw);
    printf("%-18s %16s %16s %9s\n", "", "consecutive", "mapping", "change");
    for (int k = 0; k < 4; k++)
        printf("%-18s %16.10g %16.10g %+8.1f%%\n", name[k], base[k], val[k],
               change_pct(base[k], val[k]));
    for (int k = 0; k < 4; k++)
        if (val[k] > base[k] * (1 + 1e-9) + 1e-12)
            printf("note: %s is %.1f%% worse than the consecutive placement\n", name[k],
                   change_pct(base[k], val[k]));
}

static void json_vs_consecutive(json_w *j, const tm_metrics *c, const tm_metrics *m)
{
    json_obj_begin(j, "consecutive");
    json_num(j, "max_congestion", c->max_congestion);
    json_num(j, "avg_dilation", c->avg_dilation);
    json_num(j, "qap_network_J", c->qap_J);
    json_num(j, "est_time_s", c->est_time_s);
    json_num(j, "time_lower_bound_s", c->time_lower_bound_s);
    json_obj_end(j);
    json_obj_begin(j, "change_pct");
    json_num(j, "max_congestion", change_pct(c->max_congestion, m->max_congestion));
    json_num(j, "avg_dilation", change_pct(c->avg_dilation, m->avg_dilation));
    json_num(j, "qap_network_J", change_pct(c->qap_J, m->qap_J));
    json_num(j, "est_time_s", change_pct(c->est_time_s, m->est_time_s));
    json_obj_end(j);
}

static void report(const eval_args *a, const cli_network *nw, const tm_metrics *met,
                   const tm_metrics *ecmp, const tm_metrics *cons, const tm_bounds *bnd, double t0)
{
    if (a->json) {
        json_w j;
        json_begin(&j, stdout);
        json_obj_begin(&j, NULL);
        json_str(&j, "mode", a->hmode ? "hierarchy" : "network");
        json_str(&j, "mapping", a->mapping_path ? a->mapping_path : "consecutive");
        if (a->report_path)
            json_str(&j, "report", a->report_path);
        if (!a->hmode)
            json_str(&j, "routing", tm_route_kind_name(tm_route_kind_of(nw->route)));
        if (!a->hmode && tm_route_kind_of(nw->route) == TM_ROUTE_LFT)
            json_bool(&j, "lmc_spread", a->in.lmc_spread);
        cli_json_metrics(&j, nw->net, met, a->hmode);
        cli_json_bounds(&j, bnd, met);
        if (a->compare)
            json_compare(&j, nw, met, ecmp);
        if (cons) {
            json_str(&j, "baseline", a->base_of_mapping ? "mapping_hosts" : "alloc");
            if (a->base_of_mapping && a->base_hosts)
                json_str(&j, "baseline_hosts", a->base_hosts);
            json_vs_consecutive(&j, cons, met);
        }
        json_num(&j, "time_s", cli_now() - t0);
        json_obj_end(&j);
        json_end(&j);
        return;
    }
    printf("mapping            %s\n",
           a->mapping_path ? a->mapping_path : "consecutive (allocation order)");
    if (!a->hmode)
        printf("routing            %s%s\n", tm_route_kind_name(tm_route_kind_of(nw->route)),
               a->in.lmc_spread ? " (--lmc-spread: flows split over the LMC LIDs)" : "");
    cli_print_metrics(stdout, nw->net, met, a->hmode);
    cli_print_bounds(stdout, bnd, met);
    if (a->compare)
        print_compare(nw, met, ecmp);
    if (cons)
        print_vs_consecutive(a, nw, cons, met);
    printf("time               %.3f s\n", cli_now() - t0);
    if (a->report_path)
        printf("report             %s\n", a->report_path);
}

int cmd_eval(int argc, char **argv, cli_warns *w)
{
    eval_args a = {0};
    tm_ctx *ctx = NULL;
    cli_network nw;
    tm_comm comm;
    tm_mapping map;
    tm_metrics met, ecmp, cons;
    tm_bounds bnd;
    bool have_cons = false;
    tm_err err;
    int rc;
    double t0;

    if (!parse_args(argc, argv, &a, &rc))
        return rc;
    if (cli_ctx_new(&ctx, w))
        return TM_EXIT_INTERNAL;
    tm_comm_init(&comm);
    cli_network_init(&nw);
    tm_mapping_init(&map);
    tm_metrics_init(&met);
    tm_metrics_init(&ecmp);
    tm_metrics_init(&cons);
    tm_bounds_init(&bnd);
    t0 = cli_now();
    err = tm_ctx_set_threads(ctx, (int)a.in.threads);
    if (!err)
        err = a.hmode ? eval_hier(ctx, &a, &comm, &map, &met, &bnd)
                      : eval_net(ctx, &a, &nw, &comm, &map, &met, &ecmp, &cons, &have_cons, &bnd);
    rc = err ? cli_report_in(ctx, w, "eval", err, &a.in) : 0;
    if (!err)
        report(&a, &nw, &met, &ecmp, have_cons ? &cons : NULL, &bnd, t0);
    tm_metrics_release(&met);
    tm_metrics_release(&cons);
    tm_metrics_release(&ecmp);
    tm_mapping_release(&map);
    tm_comm_release(&comm);
    cli_network_release(&nw);
    cli_inputs_release(&a.in);
    free(a.base_hosts);
    tm_ctx_free(ctx);
    return rc;
}
