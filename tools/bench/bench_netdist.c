/*
 * bench_netdist.c - building the hop-distance oracle (tm_netdist_new) for
 * all hosts of a generated network, against the obvious alternative in the
 * same run: one plain BFS per class vertex filling the same class x class
 * rows.  Prints the median build time of the oracle, its backend and
 * memory, the baseline's time and the ratio, and the cost of a query
 * (random pairs through the inline tm__netdist_hops, as the QAP engine
 * calls it).  The baseline's answers are compared with the oracle's.
 * Not part of `make test` (make bench; docs/metrics.md has the numbers).
 *
 *   build/bench_netdist [spec[@nogrid|@grid]...]
 *
 * `@nogrid` drops the torus geometry, so the same torus gets a table;
 * `@grid` gives a budget of 0 bytes, so a small torus answers from its
 * coordinates instead of a table (the rows backend on other nets).  The
 * baseline runs at most BASE_MAX BFS and is extrapolated beyond (every BFS
 * of a torus costs the same).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topomap/topomap.h"
#include "../../src/net/netdist_int.h"
#include "bench_util.h"

#define REPS 5
#define BASE_MAX 4096
#define QUERIES (1 << 24)

/* Plain BFS from src through transit vertices (bfs_hosts in net.c). */
static void bfs(const tm_net_csr *g, int32_t src, int32_t *dist, int32_t *queue)
{
    int32_t qh = 0, qt = 0;
    for (int32_t v = 0; v < g->n; v++)
        dist[v] = -1;
    dist[src] = 0;
    queue[qt++] = src;
    while (qh < qt) {
        int32_t u = queue[qh++];
        if (u != src && !g->transit[u])
            continue;
        for (int32_t e = g->off[u]; e < g->off[u + 1]; e++)
            if (dist[g->head[e]] < 0) {
                dist[g->head[e]] = dist[u] + 1;
                queue[qt++] = g->head[e];
            }
    }
}

/* One BFS per class vertex (at most BASE_MAX of them), each filling its
 * row; returns seconds per BFS, *bad = rows that disagree with d. */
static double baseline(const tm_net *net, const tm_netdist *d, const int32_t *hosts, int32_t n,
                       int32_t *done, int64_t *bad)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    int32_t n_cls = 0, *cv = malloc((size_t)n * sizeof *cv), *first = malloc((size_t)n * sizeof *first);
    int32_t *dist = malloc((size_t)g->n * sizeof *dist), *queue = malloc((size_t)g->n * sizeof *queue);
    int32_t *mark = malloc((size_t)g->n * sizeof *mark), *row;
    double t0, t;
    /* the class vertices as the oracle defines them (leaf switch or host),
     * recomputed here from the net so the baseline owes nothing to it */
    for (int32_t v = 0; v < g->n; v++)
        mark[v] = -1;
    for (int32_t i = 0; i < n; i++) {
        int32_t h = hosts[i], s = g->off[h] < g->off[h + 1] ? g->head[g->off[h]] : -1;
        for (int32_t e = g->off[h]; s >= 0 && e < g->off[h + 1]; e++)
            if (g->head[e] != s || !g->transit[s])
                s = -1;
        if (s < 0)
            s = h;
        if (mark[s] < 0) {
            mark[s] = n_cls;
            first[n_cls] = i; /* a host of the class, to check against d */
            cv[n_cls++] = s;
        }
    }
    *done = n_cls < BASE_MAX ? n_cls : BASE_MAX;
    row = malloc((size_t)n_cls * (size_t)*done * sizeof *row);
    t0 = now();
    for (int32_t c = 0; c < *done; c++) {
        bfs(g, cv[c], dist, queue);
        for (int32_t k = 0; k < n_cls; k++)
            row[(size_t)c * (size_t)n_cls + (size_t)k] = dist[cv[k]];
    }
    t = (now() - t0) / *done;
    *bad = 0;
    for (int32_t c = 0; c < *done; c++) /* hops between first hosts of classes c and k */
        for (int32_t k = 0; k < n_cls; k++) {
            int32_t i = first[c], j = first[k], x = row[(size_t)c * (size_t)n_cls + (size_t)k];
            int32_t want = x < 0 ? -1 : x + (cv[c] != hosts[i]) + (cv[k] != hosts[j]);
            *bad += i != j && tm_netdist_hops(d, i, j) != want;
        }
    free(cv), free(first), free(dist), free(queue), free(mark), free(row);
    return t * n_cls;
}

/* ns per query over random pairs. */
static double query_ns(const tm_netdist *d, int32_t n, long *sink)
{
    enum { PAIRS = 1 << 16 };
    int32_t *a = malloc(PAIRS * sizeof *a), *b = malloc(PAIRS * sizeof *b);
    uint64_t x = 88172645463325252ULL;
    double t0;
    long s = 0;
    for (int k = 0; k < PAIRS; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        a[k] = (int32_t)(x % (uint64_t)n);
        b[k] = (int32_t)((x >> 32) % (uint64_t)n);
    }
    t0 = now();
    for (int r = 0; r < QUERIES / PAIRS; r++)
        for (int k = 0; k < PAIRS; k++)
            s += tm__netdist_hops(d, a[k], b[(k + r) & (PAIRS - 1)]);
    t0 = now() - t0;
    *sink += s;
    free(a), free(b);
    return 1e9 * t0 / QUERIES;
}

static int run(tm_ctx *ctx, const char *arg, long *sink)
{
    char spec[256];
    const char *at = strchr(arg, '@');
    bool nogrid = at && strcmp(at, "@nogrid") == 0;
    size_t budget = at && strcmp(at, "@grid") == 0 ? 0 : TM__NETDIST_BUDGET;
    tm_net *net;
    tm_netdist *d = NULL;
    int32_t *hosts, n = 0, done;
    int64_t bad;
    double tb[REPS], tbase;

    snprintf(spec, sizeof spec, "%.*s", at ? (int)(at - arg) : (int)strlen(arg), arg);
    if (tm_net_new(ctx, &net) || tm_gen_build(ctx, spec, NULL, net))
        return 1;
    if (nogrid) {
        tm_net_grid none;
        memset(&none, 0, sizeof none);
        tm_net_set_grid(net, &none);
    }
    if (tm_net_finalize(ctx, net))
        return 1;
    hosts = malloc((size_t)tm_net_n_hosts(net) * sizeof *hosts);
    for (int32_t v = 0; v < tm_net_n_vertices(net); v++)
        if (tm_net_kind(net, v) == TM_VERTEX_HOST)
            hosts[n++] = v;
    for (int r = 0; r < REPS; r++) {
        double t0 = now();
        tm_netdist_free(d);
        if (tm__netdist_new_budget(ctx, net, hosts, n, budget, &d))
            return 1;
        tb[r] = now() - t0;
    }
    qsort(tb, REPS, sizeof *tb, cmp);
    tbase = baseline(net, d, hosts, n, &done, &bad);
    printf("%-24s %7d %7d %-5s %9.1f %9.4f %9.3f%s %7.0fx %6.1f %s\n", arg, n,
           d->n_cls ? d->n_cls : n, tm_netdist_kind(d), (double)tm_netdist_bytes(d) / 1048576.0,
           tb[REPS / 2], tbase, done < (d->n_cls ? d->n_cls : n) ? "*" : " ", tbase / tb[REPS / 2],
           query_ns(d, n, sink), bad ? "MISMATCH" : "ok");
    tm_netdist_free(d);
    free(hosts);
    tm_net_free(net);
    return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    static const char *const dflt[] = {"fattree:k=16,n=4", "torus:32x32x32", "torus:16x16x16",
                                       "torus:16x16x16@nogrid", "percs:supernodes=49",
                                       "dragonfly:h=8"};
    const char *const *specs = argc > 1 ? (const char *const *)argv + 1 : dflt;
    int n = argc > 1 ? argc - 1 : (int)(sizeof dflt / sizeof dflt[0]), status = 0;
    long sink = 0;
    tm_ctx *ctx;
    if (tm_ctx_new(&ctx))
        return 4;
    printf("%-24s %7s %7s %-5s %9s %9s %10s %8s %6s %s\n", "spec", "hosts", "classes", "kind",
           "MiB", "build s", "1 BFS/cls", "ratio", "ns/q", "check");
    for (int i = 0; i < n; i++)
        if (run(ctx, specs[i], &sink)) {
            fprintf(stderr, "bench_netdist: %s: %s\n", specs[i], tm_ctx_errmsg(ctx));
            status = 1;
        }
    printf("(build: median of %d; 1 BFS/cls: one BFS per class vertex filling its row, "
           "* = extrapolated from %d BFS; ns/q: %d random queries; sink %ld)\n",
           REPS, BASE_MAX, QUERIES, sink % 10);
    tm_ctx_free(ctx);
    return status;
}
