/*
 * bench_metrics.c - median wall time of exact congestion (tm_metrics_eval)
 * for the benchmark instances, and the process's peak memory.
 * Not part of `make test`; run by tools/bench/run.sh (`make bench`).
 *
 *   build/bench_metrics CASE [ROUTING] [THREADS] [PLACEMENT]
 *     CASE      torus : 1,728-task 3D 7-point stencil (12x12x12, not
 *                       periodic) on torus:12x12x12
 *               percs : 1,792-task 3D 7-point stencil (16x16x7) on
 *                       percs:supernodes=289 (9,248 hosts)
 *     ROUTING   ecmp (default) | single | dor | approx (Hoefler & Snir
 *               Algorithm 3, opts.approximate)
 *     THREADS   default 1
 *     PLACEMENT consecutive (default: task i on host i) | random (a
 *               seeded random set of hosts in random order)
 *   build/bench_metrics CASE-msg [ROUTING] 1 [PLACEMENT]
 *     time per tm_route_flows call with k = 1 (+vol then -vol for random
 *     messages of the stencil, one workspace), as refinement uses it
 *
 * One case per process so that the peak RSS (getrusage ru_maxrss) belongs
 * to that case alone; it includes building the network.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "topomap/topomap.h"

#define REPS 5

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of the process: less disturbed than wall time on a shared
 * machine (equal to it for one thread on an idle core). */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* splitmix64: the benchmark's own seeded generator (never rand()). */
static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* 7-point stencil on an X x Y x Z box: volume 1 to each existing
 * neighbour; CSR rows sorted by target (neighbour ids increase in the
 * order -z, -y, -x, +x, +y, +z). */
static int stencil(int X, int Y, int Z, tm_comm *c)
{
    int n = X * Y * Z;
    memset(c, 0, sizeof *c);
    c->n = n;
    c->xadj = calloc((size_t)n + 1, sizeof *c->xadj);
    c->adj = malloc((size_t)n * 6 * sizeof *c->adj);
    c->w = malloc((size_t)n * 6 * sizeof *c->w);
    if (!c->xadj || !c->adj || !c->w)
        return -1;
    for (int u = 0; u < n; u++) {
        int x = u % X, y = u / X % Y, z = u / (X * Y);
        int nb[6], k = 0;
        if (z > 0)
            nb[k++] = u - X * Y;
        if (y > 0)
            nb[k++] = u - X;
        if (x > 0)
            nb[k++] = u - 1;
        if (x + 1 < X)
            nb[k++] = u + 1;
        if (y + 1 < Y)
            nb[k++] = u + X;
        if (z + 1 < Z)
            nb[k++] = u + X * Y;
        for (int i = 0; i < k; i++) {
            c->adj[c->nnz] = nb[i];
            c->w[c->nnz++] = 1.0;
        }
        c->xadj[u + 1] = c->nnz;
    }
    return 0;
}

/* Hosts of the net in vertex order; random: a seeded shuffle. */
static int place(const tm_net *net, int n_tasks, bool random, tm_mapping *m)
{
    int32_t nv = tm_net_n_vertices(net), nh = 0, *hosts = malloc((size_t)nv * sizeof *hosts);
    uint64_t seed = 12345;
    if (!hosts)
        return -1;
    for (int32_t v = 0; v < nv; v++)
        if (tm_net_kind(net, v) == TM_VERTEX_HOST)
            hosts[nh++] = v;
    if (nh < n_tasks) {
        free(hosts);
        return -1;
    }
    if (random)
        for (int32_t i = nh - 1; i > 0; i--) {
            int32_t j = (int32_t)(next_rand(&seed) % (uint64_t)(i + 1)), t = hosts[i];
            hosts[i] = hosts[j];
            hosts[j] = t;
        }
    memset(m, 0, sizeof *m);
    m->n = n_tasks;
    m->host = malloc((size_t)n_tasks * sizeof *m->host);
    m->slot = calloc((size_t)n_tasks, sizeof *m->slot);
    if (!m->host || !m->slot) {
        free(hosts);
        return -1;
    }
    memcpy(m->host, hosts, (size_t)n_tasks * sizeof *hosts);
    free(hosts);
    return 0;
}

/* The baseline the design rules out: one shortest-path search per message
 * (a fresh workspace, so no DAG is reused), on a seeded sample of at most
 * 2,000 messages, scaled to all messages.  Printed with its ratio to the
 * grouped evaluation measured in the same run. */
static tm_err naive_baseline(tm_ctx *ctx, const tm_route *r, const tm_comm *c,
                             const tm_mapping *map, double grouped_s)
{
    const tm_net_csr *g = tm_net_csr_get(tm_route_net(r));
    double *load = calloc((size_t)g->n_links, sizeof *load), t0;
    int64_t sample = c->nnz < 2000 ? c->nnz : 2000;
    uint64_t seed = 99;
    tm_err err = TM_EOK;
    if (!load)
        return TM_ENOMEM;
    t0 = now();
    for (int64_t i = 0; i < sample && !err; i++) {
        int64_t e = (int64_t)(next_rand(&seed) % (uint64_t)c->nnz);
        int32_t u = 0, dst;
        double v = c->w[e];
        tm_route_ws *ws = NULL;
        while (c->xadj[u + 1] <= e) /* owner of entry e (linear: fine for a bench) */
            u++;
        dst = map->host[c->adj[e]];
        err = tm_route_ws_new(ctx, r, &ws);
        if (!err)
            err = tm_route_flows(ctx, r, ws, map->host[u], 1, &dst, &v, load, NULL);
        tm_route_ws_free(ws);
    }
    t0 = (now() - t0) / (double)sample * (double)c->nnz;
    if (!err)
        printf("       baseline: one shortest-path search per message (%lld sampled of %lld): "
               "%.3f s for all -> grouped evaluation is %.0fx faster\n",
               (long long)sample, (long long)c->nnz, t0, t0 / grouped_s);
    free(load);
    return err;
}

int main(int argc, char **argv)
{
    char cas[32];
    const char *routing = argc > 2 ? argv[2] : "ecmp";
    int threads = argc > 3 ? atoi(argv[3]) : 1;
    bool random = argc > 4 && strcmp(argv[4], "random") == 0;
    bool baseline = argc > 5 && strcmp(argv[5], "baseline") == 0;
    const char *spec;
    bool approx = strcmp(routing, "approx") == 0;
    int X, Y, Z, kind = approx ? TM_ROUTE_ECMP : tm_route_kind_parse(routing), rc = 4;
    tm_metrics_opts mo = TM_METRICS_OPTS_INIT;
    tm_ctx *ctx = NULL;
    tm_net *net = NULL;
    tm_route *r = NULL;
    tm_comm c;
    tm_mapping map = {0};
    tm_metrics m;
    double t[REPS], tc[REPS], tb;
    bool per_msg = false;
    struct rusage ru;
    tm_err err_bl;

    memset(&c, 0, sizeof c);
    snprintf(cas, sizeof cas, "%s", argc > 1 ? argv[1] : "torus");
    if (strlen(cas) > 4 && strcmp(cas + strlen(cas) - 4, "-msg") == 0) {
        per_msg = true;
        cas[strlen(cas) - 4] = '\0';
    }
    if (strcmp(cas, "torus") == 0) {
        spec = "torus:12x12x12";
        X = Y = Z = 12;
    } else if (strcmp(cas, "percs") == 0) {
        spec = "percs:supernodes=289";
        X = 16;
        Y = 16;
        Z = 7;
    } else {
        fprintf(stderr, "usage: bench_metrics torus|percs [ecmp|single|dor] [threads] "
                        "[consecutive|random] [baseline]\n");
        return 1;
    }
    if (kind < 0 || tm_ctx_new(&ctx))
        return 1;
    if (tm_ctx_set_threads(ctx, threads))
        goto fail;
    tb = now();
    if (tm_net_new(ctx, &net) || tm_gen_build(ctx, spec, NULL, net) || tm_net_finalize(ctx, net) ||
        tm_route_new(ctx, net, (tm_route_kind)kind, &r))
        goto fail;
    tb = now() - tb;
    if (stencil(X, Y, Z, &c) || place(net, X * Y * Z, random, &map)) {
        fprintf(stderr, "bench_metrics: out of memory or too few hosts\n");
        goto out;
    }
    if (per_msg) {
        tm_route_ws *ws;
        double *load = calloc((size_t)tm_net_csr_get(net)->n_links, sizeof *load);
        uint64_t seed = 7;
        int calls = 200000;
        if (!load || tm_route_ws_new(ctx, r, &ws))
            goto fail;
        for (int i = 0; i < REPS; i++) {
            double t0 = now();
            for (int q = 0; q < calls; q += 2) {
                int32_t u = (int32_t)(next_rand(&seed) % (uint64_t)c.n), e, dst;
                double v;
                if (c.xadj[u + 1] == c.xadj[u])
                    continue;
                e = (int32_t)(c.xadj[u] + (int64_t)(next_rand(&seed) % (uint64_t)(c.xadj[u + 1] - c.xadj[u])));
                dst = map.host[c.adj[e]];
                v = c.w[e];
                if (tm_route_flows(ctx, r, ws, map.host[u], 1, &dst, &v, load, NULL))
                    goto fail;
                v = -v;
                if (tm_route_flows(ctx, r, ws, map.host[u], 1, &dst, &v, load, NULL))
                    goto fail;
            }
            t[i] = (now() - t0) / calls;
        }
        qsort(t, REPS, sizeof t[0], cmp_double);
        getrusage(RUSAGE_SELF, &ru);
        printf("%-6s %-22s k=1 flows %-6s %-11s  median %.2f us per call (min %.2f)  peak RSS %.1f MiB\n",
               cas, spec, routing, random ? "random" : "consecutive", t[REPS / 2] * 1e6, t[0] * 1e6,
               (double)ru.ru_maxrss / 1024.0);
        tm_route_ws_free(ws);
        free(load);
        rc = 0;
        goto out;
    }
    for (int i = 0; i < REPS; i++) {
        double t0 = now(), c0 = cpu_now();
        mo.approximate = approx;
        if (tm_metrics_eval(ctx, r, &c, &map, &mo, &m))
            goto fail;
        t[i] = now() - t0;
        tc[i] = cpu_now() - c0;
        if (i < REPS - 1)
            tm_metrics_release(&m);
    }
    qsort(t, REPS, sizeof t[0], cmp_double);
    qsort(tc, REPS, sizeof tc[0], cmp_double);
    getrusage(RUSAGE_SELF, &ru);
    printf("%-6s %-22s tasks=%-5d %-6s %-11s threads=%d  median %.4f s (min %.4f, max %.4f; "
           "cpu %.4f s)  maxcong=%.6g avgdil=%.4f  net build %.3f s  peak RSS %.1f MiB\n",
           cas, spec, c.n, routing, random ? "random" : "consecutive", tm_ctx_threads(ctx),
           t[REPS / 2], t[0], t[REPS - 1], tc[REPS / 2], m.max_congestion, m.avg_dilation, tb,
           (double)ru.ru_maxrss / 1024.0);
    tm_metrics_release(&m);
    if (baseline && (err_bl = naive_baseline(ctx, r, &c, &map, t[REPS / 2])) != TM_EOK)
        goto fail;
    rc = 0;
    goto out;
fail:
    fprintf(stderr, "bench_metrics: %s\n", tm_ctx_errmsg(ctx));
out:
    free(map.host);
    free(map.slot);
    free(c.xadj);
    free(c.adj);
    free(c.w);
    tm_route_free(r);
    tm_net_free(net);
    tm_ctx_free(ctx);
    return rc;
}
