/* fuzz_workload_merge.c - `topomap workload merge`'s reader (src/shard/ and
 * src/workload/merge.c): the input is split into shard files at lines
 * "--8<--" (fuzz0, fuzz1, ...; JSON or CSV by their first byte, eval or
 * replay by the first file) and merged.  On failure: a message naming a
 * file; on success: every row once, in job order, complete (each string
 * there, a replay's rows as-recorded), the statistics of every row. */
#include "fuzz_common.h"
#include "workload/wl_shard.h"

#define MAX_FILES 8

static void check_doc(const tm_workload_doc *d, int32_t n_shards, int n_files, const tm_ctx *ctx)
{
    int64_t placed = 0;
    if (n_shards < 1 || n_shards > n_files || d->n_rows < 1 || !d->summarized)
        fz_die("merged counts", TM_EOK, ctx);
    for (int32_t i = 0; i < d->n_rows; i++) {
        const tm_workload_row *r = &d->rows[i];
        if (!r->job || !r->nodes || !r->comm || (r->n_shares && !r->shares_with))
            fz_die("a row without its strings", TM_EOK, ctx);
        for (int32_t k = 0; k < r->n_shares; k++)
            if (!r->shares_with[k])
                fz_die("a shares_with id missing", TM_EOK, ctx);
        if (i > 0 && r->index <= d->rows[i - 1].index)
            fz_die("rows out of job order", TM_EOK, ctx);
        if (d->replay && (!r->policy || strcmp(r->policy, "as-recorded") != 0 || !r->start ||
                          r->index != i))
            fz_die("a replay row that is not as-recorded", TM_EOK, ctx);
        if (!d->replay && r->policy)
            fz_die("an eval row with a policy", TM_EOK, ctx);
        if (!r->start != !r->end)
            fz_die("start without end", TM_EOK, ctx);
        placed += r->placed;
    }
    if (d->has_head && (!d->topology || !d->input || !d->routing))
        fz_die("a head without its strings", TM_EOK, ctx);
    if (!d->replay && d->slowdown.n != d->n_rows)
        fz_die("eval's statistics are not of every row", TM_EOK, ctx);
    if (d->replay) {
        if (d->n_policies != 1 || d->summary[0].jobs != d->n_rows ||
            d->summary[0].slowdown.n != placed ||
            d->summary[0].not_placed != d->n_rows - placed)
            fz_die("the replay's summary is not of every row", TM_EOK, ctx);
        for (int32_t i = 0; i < d->n_intervals; i++)
            if (!d->timeline[i].policy)
                fz_die("an interval without its policy", TM_EOK, ctx);
    }
    for (int32_t i = 0; i < d->fabric.n_shared; i++)
        for (int32_t k = 0; k < d->fabric.shared[i].n_jobs; k++)
            if (!d->fabric.shared[i].jobs[k].job)
                fz_die("a shared link's job missing", TM_EOK, ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *in[MAX_FILES];
    char names[MAX_FILES][16];
    const char *name_of[MAX_FILES];
    int32_t n_shards = 0;
    tm_ctx *ctx = fz_ctx();
    tm_workload_doc d;
    tm_err err;
    int n = fz_split(data, size, in, names, MAX_FILES);
    for (int i = 0; i < n; i++)
        name_of[i] = names[i];
    err = tm_workload_merge(ctx, in, name_of, n, &d, &n_shards);
    fz_check_err(ctx, err, 1);
    if (!err) {
        check_doc(&d, n_shards, n, ctx);
        tm_workload_doc_release(&d);
    }
    for (int i = 0; i < n; i++)
        fclose(in[i]);
    tm_ctx_free(ctx);
    return 0;
}
