/* loads_csv.c - tm_loads_csv_write(): the loads of a mapping's used
 * directed links as CSV, for plotting (`eval --export-loads F.csv`), beside
 * the GraphML and DOT writers that draw the same loads on the network. */
#include <locale.h>

#include "topomap/io.h"
#include "../util/util.h"

static void write_rows(const tm_net *net, const double *load, FILE *out)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    fputs("from,to,capacity,load,congestion\n", out);
    for (int32_t l = 0; l < g->n_links; l++) {
        if (load[l] <= 0)
            continue;
        fprintf(out, "%s,%s,%.17g,%.17g,%.17g\n", tm_net_name(net, g->tail_of[l]),
                tm_net_name(net, g->head_of[l]), g->cap[l], load[l], load[l] / g->cap[l]);
    }
}

tm_err tm_loads_csv_write(tm_ctx *ctx, const tm_net *net, const double *link_load, FILE *out)
{
    locale_t c_loc, old;
    if (!net || !link_load || !out)
        return tm__fail(ctx, TM_EUSAGE, "tm_loads_csv_write: no network, loads or stream");
    if (!tm_net_csr_get(net))
        return tm__fail(ctx, TM_EUSAGE, "tm_loads_csv_write: the network is not finalized");
    if (!(c_loc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0)))
        return tm__nomem(ctx);
    old = uselocale(c_loc); /* per thread: numbers need a decimal point */
    write_rows(net, link_load, out);
    uselocale(old);
    freelocale(c_loc);
    if (fflush(out) != 0 || ferror(out))
        return tm__fail(ctx, TM_EIO, "write error");
    return TM_EOK;
}
