/* fuzz_ibnet.c - ibnetdiscover dumps (plain, -g, -p) through tm_ibnet_read,
 * with a small node-name map and, for odd-sized inputs, one host vertex
 * per HCA (the two code paths of host merging). */
#include "fuzz_topo.h"

static tm_nodemap *map;

static const char map_text[] =
    "# guid -> name\n"
    "0x0002c90300001234 \"node1\"\n"
    "0x0008f10403961354 \"node2\"\n"
    "0x0002c9020020e8b4 \"hostA\"\n";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    tm_ctx *ctx = fz_ctx();
    FILE *in = fmemopen((void *)map_text, sizeof map_text - 1, "r");
    (void)argc;
    (void)argv;
    if (!in || tm_nodemap_read(ctx, in, "map", &map) != TM_EOK)
        abort();
    fclose(in);
    tm_ctx_free(ctx);
    return 0;
}

static tm_err rd(tm_ctx *ctx, FILE *in, const char *name, void *arg, tm_net *net)
{
    return tm_ibnet_read(ctx, in, name, arg, net);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tm_ibnet_opts o = TM_IBNET_OPTS_INIT;
    o.nodemap = map;
    o.keep_hcas_separate = size & 1;
    fz_topo_one(data, size, rd, &o);
    return 0;
}
