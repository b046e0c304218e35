/* fuzz_study_merge.c - `topomap study merge`'s reader (src/shard/ and
 * src/study/merge.c): the input is split into shard files at lines
 * "--8<--" (fuzz0, fuzz1, ...; JSON or CSV by their first byte) and
 * merged.  On failure: a message naming a file; on success: the whole grid
 * (every run row, mean and worst rows after their samples) with the
 * shards' row count. */
#include "fuzz_common.h"
#include "study/study.h"

#define MAX_FILES 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *in[MAX_FILES];
    char names[MAX_FILES][16];
    const char *name_of[MAX_FILES];
    tm_ctx *ctx = fz_ctx();
    tm_study_merged m;
    tm_err err;
    int n = fz_split(data, size, in, names, MAX_FILES);
    for (int i = 0; i < n; i++)
        name_of[i] = names[i];
    err = tm_study_merge(ctx, in, name_of, n, &m);
    fz_check_err(ctx, err, 1);
    if (!err) {
        int runs = 0;
        if (m.res.n_rows != m.res.total_rows || m.res.n_rows < 1 || m.n_shards < 1 ||
            m.n_shards > n)
            fz_die("merged counts", err, ctx);
        for (int i = 0; i < m.res.n_rows; i++) {
            const tm_study_row *r = &m.res.rows[i];
            runs += r->stat == TM_STUDY_RUN;
            if (r->position != i || r->topology >= m.spec.n_topologies ||
                r->comm >= m.spec.n_comms ||
                r->strategy >= m.spec.n_strategies || r->failure >= m.spec.n_failures)
                fz_die("a merged row out of its grid", err, ctx);
            if (r->stat != TM_STUDY_RUN && (r->runs != m.spec.samples || i == 0))
                fz_die("a summary row without its samples", err, ctx);
        }
        if (runs != m.res.n_runs)
            fz_die("run count", err, ctx);
        tm_study_merged_release(&m);
    }
    for (int i = 0; i < n; i++)
        fclose(in[i]);
    tm_ctx_free(ctx);
    return 0;
}
