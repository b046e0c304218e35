/* fuzz_hostfile.c - hostfiles ("host [slots=N] [max_slots=M]") through
 * tm_alloc_read_hostfile against the small fixed net of fuzz_net.h. */
#include "fuzz_common.h"
#include "fuzz_net.h"

static tm_net *net;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    net = fz_small_net();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tm_ctx *ctx = fz_ctx();
    FILE *in = fz_open(data, size);
    tm_alloc a;
    tm_err err;
    tm_alloc_init(&a);
    err = tm_alloc_read_hostfile(ctx, net, in, FZ_NAME, &a);
    fz_check_err(ctx, err, 1);
    if (err == TM_EOK) {
        for (int32_t i = 0; i < a.n; i++) {
            if (a.host[i] < 0 || a.host[i] >= tm_net_n_vertices(net) ||
                tm_net_kind(net, a.host[i]) != TM_VERTEX_HOST || a.slots[i] < 0)
                fz_die("bad allocation entry", err, ctx);
            for (int32_t j = 0; j < i; j++)
                if (a.host[j] == a.host[i])
                    fz_die("host listed twice in an allocation", err, ctx);
        }
        (void)tm_alloc_total_slots(&a);
    }
    tm_alloc_release(&a);
    fclose(in);
    tm_ctx_free(ctx);
    return 0;
}
