/* fuzz_topo.h - the body shared by the topology reader targets: read into
 * a fresh net, then finalize and check whatever was read (the CLI does the
 * same), so malformed structure that a reader let through is exercised. */
#ifndef TM_FUZZ_TOPO_H
#define TM_FUZZ_TOPO_H

#include "fuzz_common.h"

typedef tm_err (*fz_topo_reader)(tm_ctx *, FILE *, const char *, void *, tm_net *);

static inline void fz_topo_one(const uint8_t *data, size_t size, fz_topo_reader rd, void *arg)
{
    tm_ctx *ctx = fz_ctx();
    FILE *in = fz_open(data, size);
    tm_net *net = NULL;
    tm_err err;
    if (tm_net_new(ctx, &net) != TM_EOK)
        abort();
    err = rd(ctx, in, FZ_NAME, arg, net);
    fz_check_err(ctx, err, 1);
    if (err == TM_EOK) {
        err = tm_net_finalize(ctx, net);
        fz_check_err(ctx, err, 0);
        if (err == TM_EOK && tm_net_n_vertices(net) > 0)
            fz_check_err(ctx, tm_net_check(ctx, net), 0);
    }
    tm_net_free(net);
    fclose(in);
    tm_ctx_free(ctx);
}

#endif
