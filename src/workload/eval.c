/*
 * eval.c - tm_workload_eval: every row job's figures alone and with the
 * other jobs of the set, and the fabric's load under the set
 * (docs/workload.md "Figures").  Rows jobs are evaluated alone (figures
 * and loads); the other jobs of the set only for their loads, so a shard
 * that gives rows for a few jobs pays the time model for those only.
 */
#include <stdlib.h>
#include <string.h>

#include "wl_int.h"
#include "../util/util.h"

static tm_err check_list(tm_ctx *ctx, const char *what, const int32_t *list, int32_t n,
                         int32_t n_jobs, int32_t *pos)
{
    for (int32_t i = 0; i < n; i++) {
        if (list[i] < 0 || list[i] >= n_jobs)
            return tm__fail(ctx, TM_EUSAGE, "workload: %s names job %d (%d jobs)", what, list[i],
                            n_jobs);
        if (pos[list[i]] >= 0)
            return tm__fail(ctx, TM_EUSAGE, "workload: %s names job %d twice", what, list[i]);
        pos[list[i]] = i;
    }
    return TM_EOK;
}

/* The set (every job when not given) and which of its members are rows. */
static tm_err members(tm_ctx *ctx, const tm_workload *w, const tm_workload_eval_opts *o,
                      int32_t **set, int32_t *n, bool **row)
{
    int32_t *pos = tm__malloc_n((size_t)w->n_jobs + 1, sizeof *pos);
    tm_err err = TM_EOK;
    *n = o->set ? o->n_set : w->n_jobs;
    *set = tm__malloc_n((size_t)*n + 1, sizeof **set);
    *row = tm__calloc_n((size_t)*n + 1, sizeof **row);
    if (!pos || !*set || !*row) {
        free(pos);
        return tm__nomem(ctx);
    }
    for (int32_t j = 0; j < w->n_jobs; j++)
        pos[j] = -1;
    for (int32_t i = 0; i < *n; i++)
        (*set)[i] = o->set ? o->set[i] : i;
    err = check_list(ctx, "the set", *set, *n, w->n_jobs, pos);
    for (int32_t i = 0; !err && i < (o->rows ? o->n_rows : 0); i++) {
        int32_t j = o->rows[i];
        if (j < 0 || j >= w->n_jobs || pos[j] < 0)
            err = tm__fail(ctx, TM_EUSAGE, "workload: row job %d is not in the set", j);
        else if ((*row)[pos[j]])
            err = tm__fail(ctx, TM_EUSAGE, "workload: row job %d given twice", j);
        else
            (*row)[pos[j]] = true;
    }
    if (!o->rows)
        for (int32_t i = 0; i < *n; i++)
            (*row)[i] = true;
    free(pos);
    return err;
}

/* The rows in the order of o->rows (wl_set_eval gives them in set order). */
static tm_err reorder(tm_ctx *ctx, const tm_workload_eval_opts *o, tm_workload_result *r)
{
    tm_job_result *sorted;
    if (!o->rows)
        return TM_EOK;
    sorted = tm__malloc_n((size_t)r->n_rows + 1, sizeof *sorted);
    if (!sorted)
        return tm__nomem(ctx);
    for (int32_t i = 0; i < o->n_rows; i++)
        for (int32_t k = 0; k < r->n_rows; k++)
            if (r->rows[k].job == o->rows[i])
                sorted[i] = r->rows[k];
    free(r->rows);
    r->rows = sorted;
    return TM_EOK;
}

tm_err tm_workload_eval(tm_ctx *ctx, const tm_route *route, const tm_workload *w,
                        const tm_workload_eval_opts *opts, tm_workload_result *out)
{
    const tm_net_csr *g = tm_net_csr_get(tm_route_net(route));
    tm_workload_eval_opts dflt = TM_WORKLOAD_EVAL_OPTS_INIT;
    int32_t *set = NULL, n = 0;
    bool *row = NULL;
    wl_inst *inst = NULL, **ptr = NULL;
    double *scratch = NULL;
    tm_err err;

    tm_workload_result_init(out);
    if (!opts)
        opts = &dflt;
    if (opts->time && opts->time->phases)
        return tm__fail(ctx, TM_EUSAGE, "workload: the jobs' phases are not supported");
    err = members(ctx, w, opts, &set, &n, &row);
    if (err)
        goto out;
    inst = tm__calloc_n((size_t)n + 1, sizeof *inst);
    ptr = tm__malloc_n((size_t)n + 1, sizeof *ptr);
    scratch = tm__calloc_n((size_t)g->n_links + 1, sizeof *scratch);
    if (!inst || !ptr || !scratch) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t i = 0; i < n; i++)
        wl_inst_init(&inst[i]);
    for (int32_t i = 0; i < n && !err; i++) {
        const int32_t *hosts = opts->hosts ? opts->hosts[set[i]] : NULL;
        ptr[i] = &inst[i];
        err = wl_inst_job(ctx, w, set[i], hosts, &inst[i]);
        if (!err)
            err = wl_inst_eval(ctx, route, opts->time, row[i], scratch, &inst[i]);
        if (err)
            tm__fail_prefix(ctx, "job %s", w->job[set[i]].id);
    }
    if (!err)
        err = wl_set_eval(ctx, route, opts->time, ptr, set, n, row, opts->max_shared,
                          opts->keep_link_loads, out);
    if (!err)
        err = reorder(ctx, opts, out);
    if (err)
        tm_workload_result_release(out);
out:
    for (int32_t i = 0; inst && i < n; i++)
        wl_inst_release(&inst[i]);
    free(inst);
    free(ptr);
    free(scratch);
    free(set);
    free(row);
    return err;
}
