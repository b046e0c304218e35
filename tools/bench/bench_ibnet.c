/*
 * bench_ibnet.c - median wall time of tm_ibnet_read() on a generated
 * 4,000-host fat-tree dump (issue target: < 0.3 s), and the peak memory
 * of the process.  The dump is written by tm_ibnet_write() into memory
 * first, so only parsing and building are timed.  Not part of `make test`.
 *   cc -O2 -Iinclude tools/bench/bench_ibnet.c build/libtopomap.a \
 *      $(pkg-config --libs igraph libxml-2.0) -lmetis -lpthread -lm -o build/bench_ibnet
 *   build/bench_ibnet [generator spec]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "topomap/topomap.h"
#include "bench_util.h"

#define REPS 11

int main(int argc, char **argv)
{
    const char *spec = argc > 1 ? argv[1] : "clos:leaves=100,hosts_per_leaf=40,spines=40,cap=200";
    tm_ctx *ctx = NULL;
    tm_net *net = NULL;
    char *buf = NULL;
    size_t len = 0;
    double t[REPS];
    struct rusage ru;
    FILE *f;
    int rc = 4;

    if (tm_ctx_new(&ctx) || tm_net_new(ctx, &net))
        goto out;
    if (tm_gen_build(ctx, spec, NULL, net)) {
        fprintf(stderr, "bench_ibnet: %s\n", tm_ctx_errmsg(ctx));
        goto out;
    }
    f = open_memstream(&buf, &len);
    if (!f || tm_ibnet_write(ctx, net, f)) {
        fprintf(stderr, "bench_ibnet: %s\n", tm_ctx_errmsg(ctx));
        goto out;
    }
    fclose(f);
    tm_net_free(net);
    net = NULL;
    for (int r = 0; r < REPS; r++) {
        double t0 = now();
        f = fmemopen(buf, len, "r");
        if (!f || tm_net_new(ctx, &net) || tm_ibnet_read(ctx, f, "dump", NULL, net)) {
            fprintf(stderr, "bench_ibnet: %s\n", tm_ctx_errmsg(ctx));
            goto out;
        }
        fclose(f);
        t[r] = now() - t0;
        if (r < REPS - 1) {
            tm_net_free(net);
            net = NULL;
        }
    }
    qsort(t, REPS, sizeof t[0], cmp);
    getrusage(RUSAGE_SELF, &ru);
    printf("ibnetdiscover load  %-52s %6d hosts %6d cables %8zu bytes  median %.3f s  peak RSS %ld MB\n",
           spec, tm_net_n_hosts(net), tm_net_n_cables(net), len, t[REPS / 2], ru.ru_maxrss / 1024);
    rc = 0;
out:
    tm_net_free(net);
    free(buf);
    tm_ctx_free(ctx);
    return rc;
}
