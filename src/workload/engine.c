/*
 * engine.c - the figures of jobs that share a fabric (docs/workload.md
 * "Figures"): each job placed on its hosts (an instance) is evaluated
 * once alone, which gives its figures and its link loads (kept sparse:
 * the links it loads, a few per host, never an n_links array per job);
 * a set of instances is then evaluated from the sum of their loads (the
 * congestion every job sees, the links they share) and one max-min
 * simulation of their flows (tm_time_eval_shared: the time).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wl_int.h"
#include "../util/util.h"

void wl_inst_init(wl_inst *x)
{
    memset(x, 0, sizeof *x);
    tm_comm_init(&x->comm);
    tm_mapping_init(&x->map);
    tm_metrics_init(&x->alone);
}

void wl_inst_release(wl_inst *x)
{
    tm_comm_release(&x->comm);
    tm_mapping_release(&x->map);
    tm_metrics_release(&x->alone);
    free(x->load_link);
    free(x->load_bytes);
    tm_time_prep_free(x->prep);
    wl_inst_init(x);
}

tm_err wl_inst_prep(tm_ctx *ctx, const tm_time_opts *topt, wl_inst *x)
{
    return x->prep ? TM_EOK : tm_time_prep_new(ctx, &x->comm, &x->map, topt, &x->prep);
}

tm_time_job wl_inst_time_job(const wl_inst *x)
{
    tm_time_job tj;
    tj.comm = &x->comm;
    tj.map = &x->map;
    tj.load_link = x->load_link;
    tj.load_bytes = x->load_bytes;
    tj.n_loads = x->n_loads;
    tj.max_dilation = x->alone.max_dilation;
    tj.prep = x->prep;
    return tj;
}

tm_err wl_inst_make(tm_ctx *ctx, const tm_comm *comm, int32_t n_hosts, const int32_t *hosts,
                    const int32_t *tasks, wl_inst *x)
{
    tm_err err;
    wl_inst_init(x);
    err = tm_job_mapping(ctx, n_hosts, hosts, tasks, &x->map);
    if (!err && x->map.n != comm->n)
        err = tm__fail(ctx, TM_EUSAGE, "job: %d tasks on its hosts, %d in its matrix", x->map.n,
                       comm->n);
    if (!err)
        err = tm_comm_copy(ctx, comm, &x->comm);
    if (err)
        wl_inst_release(x);
    return err;
}

tm_err wl_inst_job(tm_ctx *ctx, const tm_workload *w, int32_t j, const int32_t *hosts,
                   wl_inst *x)
{
    const tm_job *job = &w->job[j];
    tm_err err;
    wl_inst_init(x);
    err = tm_workload_job_comm(ctx, w, j, &x->comm);
    if (!err)
        err = tm_job_mapping(ctx, job->n_hosts, hosts ? hosts : job->host, job->tasks, &x->map);
    if (err)
        wl_inst_release(x);
    return err;
}

/* The nonzero entries of scratch (zeroed again) as x's sparse loads. */
static tm_err sparse_loads(tm_ctx *ctx, int32_t n_links, double *scratch, wl_inst *x)
{
    int32_t k = 0;
    for (int32_t l = 0; l < n_links; l++)
        k += scratch[l] > 0;
    free(x->load_link);
    free(x->load_bytes);
    x->load_link = tm__malloc_n((size_t)k + 1, sizeof *x->load_link);
    x->load_bytes = tm__malloc_n((size_t)k + 1, sizeof *x->load_bytes);
    if (!x->load_link || !x->load_bytes) {
        memset(scratch, 0, (size_t)n_links * sizeof *scratch);
        return tm__nomem(ctx);
    }
    x->n_loads = 0;
    for (int32_t l = 0; l < n_links; l++)
        if (scratch[l] != 0) {
            if (scratch[l] > 0) {
                x->load_link[x->n_loads] = l;
                x->load_bytes[x->n_loads++] = scratch[l];
            }
            scratch[l] = 0;
        }
    x->have_loads = true;
    return TM_EOK;
}

tm_err wl_inst_eval(tm_ctx *ctx, const tm_route *route, const tm_time_opts *topt, bool alone,
                    double *scratch, wl_inst *x)
{
    const tm_net_csr *g = tm_net_csr_get(tm_route_net(route));
    tm_metrics_opts mo = TM_METRICS_OPTS_INIT;
    tm_err err;
    if (!alone) {
        int32_t maxdil = 0;
        if (x->have_loads)
            return TM_EOK;
        err = tm_metrics_link_loads(ctx, route, &x->comm, &x->map, scratch, &maxdil);
        x->alone.max_dilation = maxdil;
        if (err) {
            memset(scratch, 0, (size_t)g->n_links * sizeof *scratch);
            return err;
        }
        return sparse_loads(ctx, g->n_links, scratch, x);
    }
    if (x->have_alone)
        return TM_EOK;
    if (tm_route_kind_of(route) == TM_ROUTE_UGAL)
        return tm__fail(ctx, TM_EUSAGE, "workload: UGAL routes by the loads of the whole "
                        "traffic, so the jobs' loads do not add up (use minimal or valiant)");
    mo.keep_link_loads = true;
    mo.time = topt;
    tm_metrics_release(&x->alone);
    err = tm_metrics_eval(ctx, route, &x->comm, &x->map, &mo, &x->alone);
    if (err)
        return err;
    memcpy(scratch, x->alone.link_load, (size_t)g->n_links * sizeof *scratch);
    free(x->alone.link_load);
    x->alone.link_load = NULL;
    x->have_alone = true;
    return sparse_loads(ctx, g->n_links, scratch, x);
}
