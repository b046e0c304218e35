/* row.c - the rows of a study's result (topomap/study.h): the result's
 * release, the names of a row's status and statistic, its figures by index
 * and their change in percent, which the engine (study.c), the summaries
 * (summary.c), the merge (merge.c) and the public API (study_api.c) share. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "study.h"

void tm_study_result_init(tm_study_result *r) { memset(r, 0, sizeof *r); }

void tm_study_result_release(tm_study_result *r)
{
    if (!r)
        return;
    free(r->rows);
    tm_study_result_init(r);
}

const char *tm_study_status_name(tm_study_status s)
{
    static const char *const n[] = {"ok", "disconnected", "unroutable", "infeasible"};
    return (unsigned)s < 4 ? n[s] : "?";
}

const char *tm_study_stat_name(tm_study_stat s)
{
    static const char *const n[] = {"run", "mean", "worst"};
    return (unsigned)s < 3 ? n[s] : "?";
}

double *tm__study_fig(tm_study_row *r, bool base, int k)
{
    switch (k) {
    case TM_STUDY_FIG_CONGESTION: return base ? &r->base_congestion : &r->max_congestion;
    case TM_STUDY_FIG_DILATION: return base ? &r->base_dilation : &r->avg_dilation;
    case TM_STUDY_FIG_J: return base ? &r->base_J : &r->qap_J;
    default: return base ? &r->base_est_time_s : &r->est_time_s;
    }
}

double tm_study_row_fig(const tm_study_row *r, bool base, tm_study_fig k)
{
    return *tm__study_fig((tm_study_row *)r, base, k);
}

double tm_study_change_pct(double base, double v)
{
    return base > 0 ? 100.0 * (v - base) / base : 0.0;
}

double *tm__study_bound(tm_study_row *r, int k)
{
    return k == TM_STUDY_FIG_CONGESTION ? &r->bound_congestion
           : k == TM_STUDY_FIG_DILATION ? &r->bound_dilation
                                        : &r->bound_J;
}

double tm_study_row_bound(const tm_study_row *r, tm_study_fig k)
{
    return k == TM_STUDY_FIG_TIME ? 0.0 : *tm__study_bound((tm_study_row *)r, (int)k);
}

double tm_study_row_gap(const tm_study_row *r, tm_study_fig k)
{
    double value = tm_study_row_fig(r, false, k), bound = tm_study_row_bound(r, k);
    if (!(value > 0))
        return 1.0;
    return bound > 0 ? value / bound : INFINITY;
}
