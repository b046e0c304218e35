/*
 * bench_gen.c - median wall time of tm_gen_build() (and of tm_net_finalize)
 * for the generated networks the benchmarks use.  Not part of `make test`.
 *   cc -O2 -Iinclude tools/bench/bench_gen.c build/libtopomap.a \
 *      $(pkg-config --libs igraph libxml-2.0) -lmetis -lpthread -lm -o build/bench_gen
 *   build/bench_gen [spec...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "topomap/topomap.h"
#include "bench_util.h"

#define REPS 11

int main(int argc, char **argv)
{
    static const char *const dflt[] = {"percs:supernodes=289", "fattree:k=16,n=3",
                                       "clos:leaves=125,hosts_per_leaf=32,spines=16,uplinks=16",
                                       "torus:12x12x12", "dragonfly:h=8"};
    const char *const *specs = argc > 1 ? (const char *const *)argv + 1 : dflt;
    int n = argc > 1 ? argc - 1 : (int)(sizeof dflt / sizeof dflt[0]);
    tm_ctx *ctx;
    if (tm_ctx_new(&ctx))
        return 4;
    printf("%-58s %8s %8s %10s %10s\n", "spec", "hosts", "cables", "build ms", "final ms");
    for (int i = 0; i < n; i++) {
        double tb[REPS], tf[REPS];
        int32_t hosts = 0, cables = 0;
        for (int r = 0; r < REPS; r++) {
            tm_net *net;
            double t0;
            if (tm_net_new(ctx, &net))
                return 4;
            t0 = now();
            if (tm_gen_build(ctx, specs[i], NULL, net)) {
                fprintf(stderr, "bench_gen: %s\n", tm_ctx_errmsg(ctx));
                return 1;
            }
            tb[r] = now() - t0;
            t0 = now();
            if (tm_net_finalize(ctx, net)) {
                fprintf(stderr, "bench_gen: %s\n", tm_ctx_errmsg(ctx));
                return 4;
            }
            tf[r] = now() - t0;
            hosts = tm_net_n_hosts(net);
            cables = tm_net_n_cables(net);
            tm_net_free(net);
        }
        qsort(tb, REPS, sizeof *tb, cmp);
        qsort(tf, REPS, sizeof *tf, cmp);
        printf("%-58s %8d %8d %10.2f %10.2f\n", specs[i], hosts, cables, 1e3 * tb[REPS / 2],
               1e3 * tf[REPS / 2]);
    }
    tm_ctx_free(ctx);
    return 0;
}
