/* doc.c - the printed result of workload eval and replay
 * (topomap/workload_doc.h, tm_workload_doc): its memory and the statistics
 * computed from its rows, the same for a command's own result and for a
 * merge of its shards. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util/util.h"
#include "wl_shard.h"

void tm_workload_doc_init(tm_workload_doc *d)
{
    memset(d, 0, sizeof *d);
}

void tm_workload_doc_release(tm_workload_doc *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->n_own; i++)
        free(d->own[i]);
    free(d->own);
    tm__shard_set_free(d->files_);
    tm_workload_doc_init(d);
}

void *tm_workload_doc_keep(tm_workload_doc *d, void *p)
{
    if (!p)
        return NULL;
    if (tm__grow((void **)&d->own, &d->cap_own, d->n_own + 1, sizeof *d->own)) {
        free(p);
        return NULL;
    }
    d->own[d->n_own++] = p;
    return p;
}

const char *tm_workload_doc_str(tm_workload_doc *d, const char *s)
{
    return tm_workload_doc_keep(d, tm__strdup(s ? s : ""));
}

/* The peak and the time-weighted mean of the policy's max congestion. */
static void over_time(const tm_workload_doc *d, const char *policy, double *peak, double *mean)
{
    double w = 0, s = 0;
    *peak = 0;
    for (int32_t i = 0; i < d->n_intervals; i++) {
        const tm_workload_interval *iv = &d->timeline[i];
        if (strcmp(iv->policy, policy) != 0)
            continue;
        *peak = fmax(*peak, iv->max_congestion);
        s += (iv->t1 - iv->t0) * iv->max_congestion;
        w += iv->t1 - iv->t0;
    }
    *mean = w > 0 ? s / w : 0;
}

tm_err tm_workload_doc_summarize(tm_ctx *ctx, tm_workload_doc *d)
{
    double *v = tm__malloc_n((size_t)d->n_rows + 1, sizeof *v);
    tm_err err = TM_EOK;
    if (!v)
        return tm__nomem(ctx);
    if (!d->replay) {
        for (int32_t i = 0; i < d->n_rows; i++)
            v[i] = d->rows[i].slowdown;
        err = tm_slowdown_stats_compute(ctx, v, d->n_rows, &d->slowdown);
        free(v);
        d->summarized = !err;
        return err;
    }
    d->summary = tm_workload_doc_keep(d, tm__calloc_n((size_t)d->n_policies + 1,
                                                      sizeof *d->summary));
    if (!d->summary) {
        free(v);
        return tm__nomem(ctx);
    }
    for (int32_t p = 0; p < d->n_policies && !err; p++) {
        tm_workload_summary *s = &d->summary[p];
        int32_t nv = 0;
        s->policy = d->policies[p];
        for (int32_t i = 0; i < d->n_rows; i++) {
            const tm_workload_row *r = &d->rows[i];
            if (strcmp(r->policy, s->policy) != 0)
                continue;
            s->jobs++;
            if (r->placed)
                v[nv++] = r->slowdown;
            else
                s->not_placed++;
        }
        err = tm_slowdown_stats_compute(ctx, v, nv, &s->slowdown);
        over_time(d, s->policy, &s->peak, &s->mean);
    }
    free(v);
    d->summarized = !err;
    return err;
}
