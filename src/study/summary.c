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

static bool same_group(const tm_study_row *a, const tm_study_row *b)
{
    return a->topology == b->topology && a->slots == b->slots && a->scale == b->scale &&
           a->failure == b->failure && a->routing == b->routing && a->comm == b->comm &&
           a->strategy == b->strategy;
}

/* Fills summary row *sr from the run rows before it (rows[0..end)). */
static void summarize_one(const tm_study_row *rows, int end, tm_study_row *sr)
{
    const tm_study_row *first = NULL;
    double sum[2][TM_STUDY_N_FIG] = {{0}}, max[2][TM_STUDY_N_FIG] = {{0}};
    double bsum[3] = {0}, bmax[3] = {0};
    int ok = 0;
    sr->runs = sr->not_ok = 0;
    for (int j = 0; j < end; j++) {
        const tm_study_row *r = &rows[j];
        if (r->stat != TM_STUDY_RUN || !same_group(r, sr))
            continue;
        if (!first)
            first = r;
        sr->runs++;
        if (r->status != TM_STUDY_OK) {
            sr->not_ok++;
            continue;
        }
        ok++;
        for (int b = 0; b < 2; b++)
            for (int k = 0; k < TM_STUDY_N_FIG; k++) {
                double v = tm_study_row_fig(r, b == 0, k);
                sum[b][k] += v;
                max[b][k] = ok == 1 || v > max[b][k] ? v : max[b][k];
            }
        for (int k = 0; k < 3; k++) {
            double v = tm_study_row_bound(r, (tm_study_fig)k);
            bsum[k] += v;
            bmax[k] = ok == 1 || v > bmax[k] ? v : bmax[k];
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
    for (int b = 0; b < 2; b++)
        for (int k = 0; k < TM_STUDY_N_FIG; k++)
            *tm__study_fig(sr, b == 0, k) = sr->stat == TM_STUDY_MEAN ? sum[b][k] / ok : max[b][k];
    /* the bounds alike: the mean, or the largest (the worst sample's best
     * possible) */
    for (int k = 0; k < 3; k++)
        *tm__study_bound(sr, k) = sr->stat == TM_STUDY_MEAN ? bsum[k] / ok : bmax[k];
    /* no single chosen row: "all" may pick a different one per sample */
    sr->best[0] = 0;
}

void tm__study_summarize(tm_study_result *res)
{
    for (int i = 0; i < res->n_rows; i++)
        if (res->rows[i].stat != TM_STUDY_RUN)
            summarize_one(res->rows, i, &res->rows[i]);
}
