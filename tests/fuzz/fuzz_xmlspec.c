/* fuzz_xmlspec.c - topomap XML topology specs through tm_xmlspec_read
 * (which may also run generators named in the spec), then finalize and
 * check. */
#include "fuzz_topo.h"

static tm_err rd(tm_ctx *ctx, FILE *in, const char *name, void *arg, tm_net *net)
{
    (void)arg;
    return tm_xmlspec_read(ctx, in, name, net);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_topo_one(data, size, rd, NULL);
    return 0;
}
