/*
 * bench_map.c - the mapping benchmark of docs/mapping.md: for one topology,
 * communication graph and allocation, the max congestion, average dilation
 * and time of identity, greedy, recursive and rcm, each followed by
 * threshold accepting (TA), and of the `all` portfolio.  Times of the
 * constructions are the median of --reps runs; TA reports its swap
 * evaluations per second.  Prints markdown table rows.  Not part of
 * `make test`; built by `make bench` (or tools/bench/map.sh).
 *
 *   bench_map --topology T [--slots N] --comm F [--first P | --stride S:P]
 *             [--reps R] [--ta-limit SEC] [--all-limit SEC] [--threads N] [--label L]
 *             [--only STRATEGY] [--node-name-map F]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "topomap/topomap.h"
#include "../../src/ta/ta.h"
#include "../../src/util/util.h"

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* CPU time of this thread: the machine is shared, so rates are also given
 * per CPU second. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(tm_ctx *ctx, tm_err err)
{
    fprintf(stderr, "bench_map: %s\n", tm_ctx_errmsg(ctx));
    exit(tm_err_exit_code(err));
}

static void eval(tm_ctx *ctx, const tm_problem *p, const tm_mapping *m, double *c, double *d)
{
    tm_metrics met;
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    tm_err err;
    tm_metrics_init(&met);
    err = tm_metrics_eval(ctx, p->route, p->comm, m, &o, &met);
    if (err)
        die(ctx, err);
    *c = met.max_congestion;
    *d = met.avg_dilation;
    tm_metrics_release(&met);
}

int main(int argc, char **argv)
{
    const char *topo = NULL, *commf = NULL, *label = "", *only = NULL;
    int32_t slots = 0, first = 0, stride = 1, reps = 5, threads = 2;
    double ta_limit = 10, all_limit = 10;
    tm_topo_opts to = TM_TOPO_OPTS_INIT;
    tm_ctx *ctx;
    tm_net *net;
    tm_comm comm;
    tm_alloc al;
    tm_route *route;
    tm_problem p = {0};
    tm_err err;
    static const char *const names[] = {"identity", "greedy", "recursive", "rcm"};

    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--topology")) topo = argv[i + 1];
        else if (!strcmp(argv[i], "--comm")) commf = argv[i + 1];
        else if (!strcmp(argv[i], "--slots")) slots = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--first")) first = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--stride")) sscanf(argv[i + 1], "%d:%d", &stride, &first);
        else if (!strcmp(argv[i], "--reps")) reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--ta-limit")) ta_limit = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--all-limit")) all_limit = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--threads")) threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--label")) label = argv[i + 1];
        else if (!strcmp(argv[i], "--only")) only = argv[i + 1];
        else if (!strcmp(argv[i], "--node-name-map")) to.node_name_map = argv[i + 1];
        else { fprintf(stderr, "bench_map: unknown option %s\n", argv[i]); return 1; }
    }
    if (!topo || !commf || tm_ctx_new(&ctx))
        return 1;
    to.slots = slots;
    if ((err = tm_topology_load(ctx, topo, &to, &net)))
        die(ctx, err);
    tm_comm_init(&comm);
    if ((err = tm_comm_read_file(ctx, commf, TM_COMM_AUTO, &comm)))
        die(ctx, err);
    /* allocation: every stride-th host, `first` of them (0: all) */
    tm_alloc_init(&al);
    {
        int32_t nv = tm_net_n_vertices(net), k = 0, seen = 0;
        al.host = malloc((size_t)nv * sizeof *al.host);
        al.slots = malloc((size_t)nv * sizeof *al.slots);
        for (int32_t v = 0; v < nv; v++) {
            if (tm_net_kind(net, v) != TM_VERTEX_HOST || seen++ % stride)
                continue;
            if (first > 0 && k >= first)
                break;
            al.host[k] = v;
            al.slots[k++] = tm_net_slots(net, v);
        }
        al.n = k;
    }
    if ((err = tm_route_new(ctx, net, TM_ROUTE_ECMP, &route)))
        die(ctx, err);
    p.net = net;
    p.route = route;
    p.alloc = &al;
    p.comm = &comm;
    if ((err = tm_ctx_set_threads(ctx, threads)))
        die(ctx, err);
    printf("<!-- %s: %d hosts allocated, %lld slots, %d tasks, %lld messages -->\n", label, al.n,
           (long long)tm_alloc_total_slots(&al), comm.n, (long long)comm.nnz);
    for (size_t s = 0; s < sizeof names / sizeof *names; s++) {
        const tm_strategy *st = tm_strategy_find(names[s]);
        double *t = malloc((size_t)reps * sizeof *t), c0, d0, c1, d1;
        tm_mapping m;
        tm__ta_opts o = {0, ta_limit, 0, NULL, NULL, 0};
        tm__ta_stats stats;
        if (only && strcmp(only, names[s]) != 0)
            continue;
        tm_mapping_init(&m);
        for (int r = 0; r < reps; r++) {
            double t0 = tm__now();
            if ((err = st->run(ctx, &p, 1, &m)))
                die(ctx, err);
            t[r] = tm__now() - t0;
        }
        qsort(t, (size_t)reps, sizeof *t, cmpd);
        eval(ctx, &p, &m, &c0, &d0);
        printf("| %s | %s | %.4g | %.3f | %.4f |\n", label, names[s], c0, d0, t[reps / 2]);
        if (ta_limit != 0) {
            double cpu0 = cpu_now(), cpu;
            if ((err = tm__ta_run(ctx, &p, &o, 1, &m, &stats)))
                die(ctx, err);
            cpu = cpu_now() - cpu0;
            eval(ctx, &p, &m, &c1, &d1);
            printf("| %s | %s+ta | %.4g (%+.1f%%) | %.3f | %.2f (%.0f swaps/s, %.0f per CPU-s) |\n",
                   label, names[s], c1, c0 > 0 ? 100.0 * (c1 - c0) / c0 : 0.0, d1, stats.time_s,
                   stats.time_s > 0 ? (double)stats.evaluations / stats.time_s : 0.0,
                   cpu > 0 ? (double)stats.evaluations / cpu : 0.0);
        }
        tm_mapping_release(&m);
        free(t);
    }
    if (all_limit != 0) {
        tm_map_result res;
        const tm_metrics *bm;
        if ((err = tm_ctx_set_time_limit(ctx, all_limit)))
            die(ctx, err);
        tm_map_result_init(&res);
        if ((err = tm_map_run(ctx, &p, "all", "ta", TM_OBJ_CONGESTION, &res)))
            die(ctx, err);
        bm = res.metrics;
        printf("| %s | all+ta (best: %s) | %.4g | %.3f | %.2f |\n", label,
               res.rows[res.best].name, bm->max_congestion, bm->avg_dilation, res.time_s);
        tm_map_result_release(&res);
    }
    tm_route_free(route);
    tm_alloc_release(&al);
    tm_comm_release(&comm);
    tm_net_free(net);
    tm_ctx_free(ctx);
    return 0;
}
