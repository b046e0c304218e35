/* summary.c - the mean and worst rows of random failures: for each
 * strategy, over the samples of one scenario whose status is OK.
 *
 * mean: every figure averaged (consecutive and strategy alike, so the
 * change is that of the means).
 * worst: every figure's maximum, each on its own: the worst consecutive
 * congestion and the worst mapped congestion may come from different
 * samples (the question is "how bad can it get", for either placement).
 * Both count the samples (runs) and those that were not OK (not_ok); with
 * no OK sample they take the status and cause of the first sample. */
#include <string.h>

#include "../util/util.h"
#include "study_int.h"

static bool same_group(const tm__study_row *a, const tm__study_row *b)
{
    return a->topology == b->topology && a->slots == b->slots && a->scale == b->scale &&
           a->fail == b->fail && a->routing == b->routing && a->comm == b->comm &&
           a->strategy == b->strategy;
}

/* Fills summary row *sr from the run rows before it (rows[0..end)). */
static void summarize_one(const tm__study_row *rows, int end, tm__study_row *sr)
{
    const tm__study_row *first = NULL;
    double sum[2][TM__N_FIG] = {{0}}, max[2][TM__N_FIG] = {{0}};
    int ok = 0;
    sr->runs = sr->not_ok = 0;
    for (int j = 0; j < end; j++) {
        const tm__study_row *r = &rows[j];
        if (r->stat != TM__STAT_RUN || !same_group(r, sr))
            continue;
        if (!first)
            first = r;
        sr->runs++;
        if (r->status != TM__ROW_OK) {
            sr->not_ok++;
            continue;
        }
        ok++;
        for (int k = 0; k < TM__N_FIG; k++) {
            sum[0][k] += r->base[k];
            sum[1][k] += r->val[k];
            max[0][k] = ok == 1 || r->base[k] > max[0][k] ? r->base[k] : max[0][k];
            max[1][k] = ok == 1 || r->val[k] > max[1][k] ? r->val[k] : max[1][k];
        }
    }
    if (!first)
        return;
    /* every sample fails as many cables (the same share of the same set) */
    sr->scaled_cables = first->scaled_cables;
    sr->failed_cables = first->failed_cables;
    if (!ok) {
        sr->status = first->status;
        memcpy(sr->cause, first->cause, sizeof sr->cause);
        return;
    }
    for (int k = 0; k < TM__N_FIG; k++) {
        bool mean = sr->stat == TM__STAT_MEAN;
        sr->base[k] = mean ? sum[0][k] / ok : max[0][k];
        sr->val[k] = mean ? sum[1][k] / ok : max[1][k];
    }
    /* no single chosen row: "all" may pick a different one per sample */
    sr->best[0] = 0;
}

void tm__study_summarize(tm__study_result *res)
{
    for (int i = 0; i < res->n_rows; i++)
        if (res->rows[i].stat != TM__STAT_RUN)
            summarize_one(res->rows, i, &res->rows[i]);
}
