/* fuzz_slurm_topo.c - Slurm topology files through tm_slurm_tree_read
 * (topology.conf of switches or of blocks, and topology.yaml, told apart
 * by their text)
 * against the small fixed net of fuzz_net.h (docs/workload.md
 * "slurm-tree", docs/slurm.md): on success switches, blocks or neither (a
 * flat topology), and Slurm's pick of every job size among all
 * hosts, and among every other host, is n distinct hosts of the net, in
 * the tree's node order, or TM_EINFEASIBLE. */
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

static void picks(tm_ctx *ctx, const tm_slurm_tree *t)
{
    int32_t hosts[8], n = 0, out[8];
    for (int32_t v = 0; v < tm_net_n_vertices(net) && n < 8; v++)
        if (tm_net_kind(net, v) == TM_VERTEX_HOST)
            hosts[n++] = v;
    for (int every = 1; every <= 2; every++) {
        int32_t fr[8], nf = 0;
        for (int32_t i = 0; i < n; i += every)
            fr[nf++] = hosts[i];
        for (int32_t k = 1; k <= nf; k++) {
            tm_err err = tm_slurm_pick(ctx, t, fr, nf, k, out);
            if (err == TM_EINFEASIBLE) {
                tm_ctx_clear_error(ctx);
                continue;
            }
            if (err)
                fz_die("slurm pick failed", err, ctx);
            for (int32_t i = 0; i < k; i++) {
                bool in = false;
                for (int32_t q = 0; q < nf; q++)
                    in |= fr[q] == out[i];
                if (!in)
                    fz_die("picked a host that is not free", TM_EOK, ctx);
                for (int32_t q = 0; q < i; q++)
                    if (out[q] == out[i])
                        fz_die("picked a host twice", TM_EOK, ctx);
            }
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tm_ctx *ctx = fz_ctx();
    FILE *in = fz_open(data, size);
    tm_slurm_tree *t = NULL;
    tm_err err = tm_slurm_tree_read(ctx, net, in, FZ_NAME, &t);
    fz_check_err(ctx, err, 1);
    if (err == TM_EOK) {
        /* switches, blocks, or neither: a flat topology of topology.yaml */
        if (!t || tm_slurm_tree_switches(t) < 0 || tm_slurm_tree_blocks(t) < 0 ||
            (tm_slurm_tree_switches(t) > 0 && tm_slurm_tree_blocks(t) > 0))
            fz_die("not a tree, blocks or flat", err, ctx);
        picks(ctx, t);
    } else if (t) {
        fz_die("a tree left on error", err, ctx);
    }
    tm_slurm_tree_free(t);
    fclose(in);
    tm_ctx_free(ctx);
    return 0;
}
