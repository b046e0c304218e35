/* fuzz_phases.c - the phases format (docs/formats.md "Phases") through
 * tm_comm_phases_read: on success every phase is a valid CSR over the
 * file's tasks with a repeat count in range, and what tm_comm_phases_write
 * writes reads back the same; on failure the output is left empty. */
#include "fuzz_common.h"

static void check(tm_ctx *ctx, const tm_comm_phases *p)
{
    for (int32_t k = 0; k < p->n_phases; k++) {
        tm_err err = tm_comm_check(ctx, &p->phase[k]);
        if (err)
            fz_die("a phase fails tm_comm_check", err, ctx);
        if (p->phase[k].n != p->n_tasks || p->repeat[k] < 1 ||
            p->repeat[k] > TM_COMM_PHASE_MAX_REPEAT)
            fz_die("a phase's tasks or repeat count out of range", TM_EOK, ctx);
    }
}

static void round_trip(tm_ctx *ctx, const tm_comm_phases *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    tm_comm_phases q;
    tm_err err;
    if (!f)
        return;
    err = tm_comm_phases_write(ctx, p, f);
    fclose(f);
    if (err)
        fz_die("tm_comm_phases_write failed", err, ctx);
    f = fz_open((const uint8_t *)buf, len);
    err = tm_comm_phases_read(ctx, f, FZ_NAME, &q);
    fclose(f);
    if (err)
        fz_die("what tm_comm_phases_write wrote does not read back", err, ctx);
    if (q.n_tasks != p->n_tasks || q.n_phases != p->n_phases)
        fz_die("read back with other counts", TM_EOK, ctx);
    for (int32_t k = 0; k < p->n_phases; k++)
        if (q.repeat[k] != p->repeat[k] || q.phase[k].nnz != p->phase[k].nnz)
            fz_die("read back with another phase", TM_EOK, ctx);
    tm_comm_phases_release(&q);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tm_ctx *ctx = fz_ctx();
    FILE *in = fz_open(data, size);
    tm_comm_phases p;
    tm_err err = tm_comm_phases_read(ctx, in, FZ_NAME, &p);
    fz_check_err(ctx, err, 1);
    if (err == TM_EOK) {
        check(ctx, &p);
        if (p.n_tasks <= 4096) /* the writer prints every entry: keep runs short */
            round_trip(ctx, &p);
    } else if (p.n_phases || p.phase || p.repeat || p.n_tasks) {
        fz_die("output not released after an error", err, ctx);
    }
    tm_comm_phases_release(&p);
    fclose(in);
    tm_ctx_free(ctx);
    return 0;
}
