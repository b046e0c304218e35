/* consumer.c - a program built against an installed libtopomap (pkg-config
 * and CMake: tests/cli/t70-install.sh).  It generates torus:4x4x2, builds a
 * communication graph (task i sends i+1 units to task (i*5+3) mod 32),
 * evaluates the consecutive placement under ECMP and prints the version,
 * max congestion, average dilation and J, which the test compares with
 * `topomap eval --json` on the same input (edges file from --edges). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <topomap/topomap.h>

#define N 32

static int fail(tm_ctx *ctx, const char *what)
{
    fprintf(stderr, "consumer: %s: %s\n", what, ctx ? tm_ctx_errmsg(ctx) : "no context");
    return 1;
}

int main(int argc, char **argv)
{
    int32_t src[N], dst[N];
    double w[N];
    tm_ctx *ctx = NULL;
    tm_net *net = NULL;
    tm_route *route = NULL;
    tm_comm comm;
    tm_alloc alloc;
    tm_mapping map;
    tm_metrics m;
    int rc = 1;

    for (int i = 0; i < N; i++) {
        src[i] = i;
        dst[i] = (i * 5 + 3) % N;
        w[i] = i + 1;
    }
    if (argc == 2 && strcmp(argv[1], "--edges") == 0) {
        for (int i = 0; i < N; i++)
            printf("%d %d %g\n", src[i], dst[i], w[i]);
        return 0;
    }
    tm_comm_init(&comm);
    tm_alloc_init(&alloc);
    tm_mapping_init(&map);
    tm_metrics_init(&m);
    if (tm_ctx_new(&ctx))
        return fail(NULL, "tm_ctx_new");
    if (tm_net_new(ctx, &net) || tm_gen_build(ctx, "torus:4x4x2", NULL, net) ||
        tm_net_finalize(ctx, net) || tm_route_new(ctx, net, TM_ROUTE_ECMP, &route)) {
        rc = fail(ctx, "network");
        goto cleanup;
    }
    if (tm_comm_from_entries(ctx, N, N, src, dst, w, &comm) || tm_alloc_all(ctx, net, &alloc) ||
        tm_mapping_consecutive(ctx, &alloc, N, &map) ||
        tm_metrics_eval(ctx, route, &comm, &map, NULL, &m)) {
        rc = fail(ctx, "evaluation");
        goto cleanup;
    }
    printf("%s %.17g %.17g %.17g\n", TOPOMAP_VERSION, m.max_congestion, m.avg_dilation, m.qap_J);
    rc = 0;
cleanup:
    tm_metrics_release(&m);
    tm_mapping_release(&map);
    tm_alloc_release(&alloc);
    tm_comm_release(&comm);
    tm_route_free(route);
    tm_net_free(net);
    tm_ctx_free(ctx);
    return rc;
}
