/* fuzz_mapping.c - Open MPI rankfiles and plain mappings through
 * tm_mapping_read, in the three ways the CLI calls it: network mode with
 * as many tasks as the file lists, network mode with a fixed task count,
 * and hierarchy mode (PE indices, no net).  Every mapping returned must
 * pass tm_mapping_check. */
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

static void one(const uint8_t *data, size_t size, const tm_net *n, int64_t n_pe, int32_t tasks)
{
    tm_ctx *ctx = fz_ctx();
    FILE *in = fz_open(data, size);
    tm_mapping m;
    tm_err err;
    tm_mapping_init(&m);
    err = tm_mapping_read(ctx, n, n_pe, in, FZ_NAME, tasks, &m);
    fz_check_err(ctx, err, 1);
    if (err == TM_EOK) {
        if (tasks >= 0 && m.n != tasks)
            fz_die("wrong task count", err, ctx);
        if (n) {
            err = tm_mapping_check(ctx, n, NULL, &m);
            if (err)
                fz_die("mapping read without error fails tm_mapping_check", err, ctx);
        } else {
            for (int32_t t = 0; t < m.n; t++)
                if (!m.pe || m.pe[t] < 0 || m.pe[t] >= n_pe)
                    fz_die("PE out of range", err, ctx);
        }
    }
    tm_mapping_release(&m);
    fclose(in);
    tm_ctx_free(ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    one(data, size, net, 0, -1);
    one(data, size, net, 0, 4);
    one(data, size, NULL, 16, -1);
    return 0;
}
