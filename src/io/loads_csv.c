/* loads_csv.c - tm_loads_csv_write(): the loads of a mapping's used
 * directed links as CSV, for plotting (`eval --export-loads F.csv`), beside
 * the GraphML and DOT writers that draw the same loads on the network. */
#include "topomap/io.h"
#include "../util/util.h"

typedef struct loads_args {
    const tm_net *net;
    const double *load;
} loads_args;

static tm_err write_rows(void *arg, FILE *out)
{
    const tm_net *net = ((const loads_args *)arg)->net;
    const double *load = ((const loads_args *)arg)->load;
    const tm_net_csr *g = tm_net_csr_get(net);
    fputs("from,to,capacity,load,congestion\n", out);
    for (int32_t l = 0; l < g->n_links; l++) {
        if (load[l] <= 0)
            continue;
        fprintf(out, "%s,%s,%.17g,%.17g,%.17g\n", tm_net_name(net, g->tail_of[l]),
                tm_net_name(net, g->head_of[l]), g->cap[l], load[l], load[l] / g->cap[l]);
    }
    return TM_EOK;
}

tm_err tm_loads_csv_write(tm_ctx *ctx, const tm_net *net, const double *link_load, FILE *out)
{
    loads_args a = {net, link_load};
    if (!net || !link_load || !out)
        return tm__fail(ctx, TM_EUSAGE, "tm_loads_csv_write: no network, loads or stream");
    if (!tm_net_csr_get(net))
        return tm__fail(ctx, TM_EUSAGE, "tm_loads_csv_write: the network is not finalized");
    return tm__write_c_locale(ctx, out, NULL, write_rows, &a);
}
