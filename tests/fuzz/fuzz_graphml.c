/* fuzz_graphml.c - GraphML through tm_graphml_read (igraph's reader plus
 * topomap's attribute checks), then finalize and check. */
#include "fuzz_topo.h"

static tm_err rd(tm_ctx *ctx, FILE *in, const char *name, void *arg, tm_net *net)
{
    (void)arg;
    return tm_graphml_read(ctx, in, name, net);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_topo_one(data, size, rd, NULL);
    return 0;
}
