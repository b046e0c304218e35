/*
 * bench_igraph_bfs.c - hop-distance rows from igraph against the CSR BFS
 * the library uses (src/net/netdist.c, net.c), in the same run, with the
 * same answers checked.  igraph's BFS has no notion of "a host may end a
 * path but not lie inside one" (docs/design.md, "Transit"), so igraph gets
 * the standard encoding of that rule: every non-transit host h gets a
 * sink copy h', cables into h go to h', and h itself keeps only its
 * outgoing arcs; the hop distance to h is then the directed distance to h'.
 *
 * Prints, per network, the median over REPS of: building the directed
 * split graph, igraph_distances from SRC sources to all hosts (one call,
 * an SRC x hosts matrix of doubles), the same one source per call (what an
 * on-demand row oracle does), and the CSR BFS for the same rows; then the
 * ratios.  Not part of make test (make bench; docs/performance.md).
 *
 *   build/bench_igraph_bfs [spec...]
 */
#include <igraph.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topomap/topomap.h"
#include "../../src/graph/bfs.h"
#include "bench_util.h"

#define REPS 3
#define SRC 256

/* The directed split graph; sink[v] = vertex that represents "arrive at v". */
static int split_graph(const tm_net_csr *g, igraph_t *out, igraph_integer_t *sink)
{
    igraph_vector_int_t edges;
    igraph_integer_t nv = g->n, m = 0;
    for (int32_t v = 0; v < g->n; v++)
        sink[v] = g->transit[v] ? v : nv++;
    if (igraph_vector_int_init(&edges, 2 * (igraph_integer_t)g->n_links))
        return -1;
    for (int32_t u = 0; u < g->n; u++)
        for (int32_t e = g->off[u]; e < g->off[u + 1]; e++) {
            VECTOR(edges)[m++] = u;
            VECTOR(edges)[m++] = sink[g->head[e]];
        }
    if (igraph_create(out, &edges, nv, IGRAPH_DIRECTED)) {
        igraph_vector_int_destroy(&edges);
        return -1;
    }
    igraph_vector_int_destroy(&edges);
    return 0;
}

static double median(double *t)
{
    qsort(t, REPS, sizeof *t, cmp);
    return t[REPS / 2];
}

static int run(const char *spec)
{
    tm_ctx *ctx;
    tm_net *net;
    const tm_net_csr *g;
    int32_t nh = 0, *hosts, src[SRC], ns, *dist, *queue;
    tm__bfs bfs;
    igraph_integer_t *sink;
    igraph_vector_int_t from, to;
    double tb[REPS], ta[REPS], tr[REPS], tc[REPS];
    long long bad = 0;

    if (tm_ctx_new(&ctx) || tm_topology_load(ctx, spec, NULL, &net)) {
        fprintf(stderr, "%s: cannot load\n", spec);
        return 1;
    }
    g = tm_net_csr_get(net);
    hosts = malloc((size_t)g->n * sizeof *hosts);
    sink = malloc((size_t)g->n * sizeof *sink);
    dist = malloc((size_t)g->n * sizeof *dist);
    queue = malloc((size_t)g->n * sizeof *queue);
    tm__bfs_init(&bfs, g, dist, queue);
    for (int32_t v = 0; v < g->n; v++)
        if (g->is_host[v])
            hosts[nh++] = v;
    ns = nh < SRC ? nh : SRC;
    for (int32_t i = 0; i < ns; i++)
        src[i] = hosts[(int64_t)i * nh / ns];
    igraph_vector_int_init(&from, ns);
    igraph_vector_int_init(&to, nh);
    for (int r = 0; r < REPS; r++) {
        igraph_t sg;
        igraph_matrix_t res;
        double t0 = now();
        split_graph(g, &sg, sink);
        tb[r] = now() - t0;
        for (int32_t i = 0; i < ns; i++)
            VECTOR(from)[i] = src[i];
        for (int32_t i = 0; i < nh; i++)
            VECTOR(to)[i] = sink[hosts[i]];
        igraph_matrix_init(&res, 0, 0);
        t0 = now();
        igraph_distances(&sg, &res, igraph_vss_vector(&from), igraph_vss_vector(&to), IGRAPH_OUT);
        ta[r] = now() - t0;
        t0 = now();
        for (int32_t i = 0; i < ns; i++)
            igraph_distances(&sg, &res, igraph_vss_1(src[i]), igraph_vss_vector(&to), IGRAPH_OUT);
        tr[r] = now() - t0;
        /* check the last row and, below, every row against the CSR BFS */
        t0 = now();
        for (int32_t i = 0; i < ns; i++)
            tm__bfs_from(&bfs, src[i]); /* the library's BFS */
        tc[r] = now() - t0;
        if (r == 0) {
            igraph_distances(&sg, &res, igraph_vss_vector(&from), igraph_vss_vector(&to), IGRAPH_OUT);
            for (int32_t i = 0; i < ns; i++) {
                tm__bfs_from(&bfs, src[i]); /* the library's BFS */
                for (int32_t k = 0; k < nh; k++) {
                    double d = MATRIX(res, i, k);
                    int32_t want = dist[hosts[k]];
                    if (hosts[k] == src[i]) /* 0 by definition; h -> h' is a round trip */
                        continue;
                    if ((want < 0) != (d == IGRAPH_INFINITY) || (want >= 0 && d != (double)want))
                        bad++;
                }
            }
        }
        igraph_matrix_destroy(&res);
        igraph_destroy(&sg);
    }
    printf("%-24s hosts %6d  %d rows: split graph %.4f s, igraph one call %.4f s, igraph per row "
           "%.4f s, CSR BFS %.4f s  (igraph/CSR %.1fx one call, %.1fx per row)  mismatches %lld\n",
           spec, nh, ns, median(tb), median(ta), median(tr), median(tc),
           median(ta) / median(tc), median(tr) / median(tc), bad);
    igraph_vector_int_destroy(&from);
    igraph_vector_int_destroy(&to);
    free(hosts), free(sink), free(dist), free(queue);
    tm_net_free(net);
    tm_ctx_free(ctx);
    return bad != 0;
}

int main(int argc, char **argv)
{
    static const char *defaults[] = {"fattree:k=16,n=3", "torus:16x16x16", "percs:supernodes=64",
                                     "dragonfly:h=4"};
    int status = 0;
    if (argc > 1)
        for (int i = 1; i < argc; i++)
            status |= run(argv[i]);
    else
        for (size_t i = 0; i < sizeof defaults / sizeof *defaults; i++)
            status |= run(defaults[i]);
    return status;
}
