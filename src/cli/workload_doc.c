/* workload_doc.c - a workload command's result in the form its writers
 * print (tm_workload_doc, topomap/workload_doc.h): names instead of vertex
 * ids, hostlists, labels and times as written; and a shard's identity. */
#include <stdlib.h>
#include <string.h>

#include "workload_cli.h"

/* Options that change no row: where the rows go, how fast they come. */
static bool row_free(int id)
{
    return id == OPT_SHARD || id == OPT_OUT || id == OPT_REPORT || id == OPT_THREADS ||
           id == OPT_JSON;
}

/* Options whose value may name a file whose bytes are the input. */
static bool names_input(int id)
{
    return id == OPT_TOPOLOGY || id == OPT_NODEMAP || id == OPT_JOBS || id == OPT_TRACE ||
           id == OPT_DEFAULT_COMM || id == OPT_SLURM_TOPOLOGY || id == OPT_PARTITION;
}

tm_err wl_shard_id(tm_ctx *ctx, const char *what, const wl_args *a, const tm_workload *w,
                   char *out)
{
    tm_shard_id id;
    tm_err err = cli_shard_id(ctx, what, a->opts, a->n_opts, row_free, names_input, &id);
    /* the matrices the jobs name, in the order the jobs file names them */
    for (int32_t m = 0; !err && m < w->n_matrices; m++)
        err = tm_shard_id_add_input(ctx, &id, "matrix", w->matrix_path[m]);
    tm_shard_id_hex(&id, out);
    return err;
}

tm_err wl_doc_row(tm_workload_doc *d, const tm_net *net, const tm_workload *w,
                  const tm_job_result *r, const int32_t *hosts, const tm_replay_row *rr,
                  const char *policy, tm_workload_row *x)
{
    const tm_job *job = &w->job[r->job];
    const char **with;
    char buf[4096];
    memset(x, 0, sizeof *x);
    x->policy = policy;
    x->job = job->id;
    x->index = r->job;
    x->line = job->line;
    x->nodes = hosts ? tm_workload_doc_keep(d, wl_hostlist(net, hosts, job->n_hosts)) : "";
    x->n_nodes = job->n_hosts;
    x->n_tasks = job->n_tasks;
    wl_comm_label(w, job, buf, sizeof buf);
    x->comm = tm_workload_doc_str(d, buf);
    if (w->has_times) {
        wl_time_str(job->start, buf, sizeof buf);
        x->start = tm_workload_doc_str(d, buf);
        wl_time_str(job->end, buf, sizeof buf);
        x->end = tm_workload_doc_str(d, buf);
    }
    x->placed = !rr || rr->placed;
    x->alone = r->alone;
    x->shared = r->shared;
    x->slowdown = r->slowdown;
    if (rr) {
        x->worst_slowdown = rr->worst_slowdown;
        x->worst_max_congestion = rr->worst_max_congestion;
        x->intervals = rr->intervals;
    }
    x->group = r->group >= 0 ? w->job[r->group].id : NULL;
    x->links_used = r->links_used;
    x->links_shared = r->links_shared;
    with = tm_workload_doc_keep(d, calloc((size_t)r->n_neighbours + 1, sizeof *with));
    for (int32_t k = 0; with && k < r->n_neighbours; k++)
        with[k] = w->job[r->neighbours[k]].id;
    x->shares_with = with;
    x->n_shares = r->n_neighbours;
    return x->nodes && x->comm && with && (!w->has_times || (x->start && x->end)) ? TM_EOK
                                                                                 : TM_ENOMEM;
}

static void link_ends(const tm_net *net, int32_t link, const char **a, const char **b)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    *a = tm_net_name(net, g->tail_of[link]);
    *b = tm_net_name(net, g->head_of[link]);
}

/* The fabric: names, and each job's share of a shared link's load. */
static tm_err doc_fabric(tm_workload_doc *d, const tm_net *net, const tm_workload *w,
                         const tm_workload_result *r)
{
    tm_workload_fabric *f = &d->fabric;
    f->max_congestion = r->max_congestion;
    if (r->max_link >= 0)
        link_ends(net, r->max_link, &f->max_from, &f->max_to);
    f->links_used = r->links_used;
    f->links_shared = r->links_shared;
    f->shared = tm_workload_doc_keep(d, calloc((size_t)r->n_shared + 1, sizeof *f->shared));
    if (!f->shared)
        return TM_ENOMEM;
    for (int32_t i = 0; i < r->n_shared; i++) {
        const tm_link_share *s = &r->shared[i];
        tm_workload_share *x = &f->shared[i];
        double tot = 0;
        for (int32_t k = 0; k < s->n_jobs; k++)
            tot += s->load[k];
        link_ends(net, s->link, &x->from, &x->to);
        x->congestion = s->congestion;
        x->jobs = tm_workload_doc_keep(d, calloc((size_t)s->n_jobs + 1, sizeof *x->jobs));
        if (!x->jobs)
            return TM_ENOMEM;
        for (int32_t k = 0; k < s->n_jobs; k++)
            x->jobs[k] = (tm_workload_share_job){w->job[s->jobs[k]].id, s->load[k],
                                            tot > 0 ? s->load[k] / tot : 0};
        x->n_jobs = s->n_jobs;
    }
    f->n_shared = r->n_shared;
    return TM_EOK;
}

tm_err wl_doc_eval(tm_ctx *ctx, const wl_args *a, const wl_inputs *in, int32_t n_set,
                   const tm_workload_result *res, tm_workload_doc *d)
{
    tm_err err = TM_EOK;
    d->has_head = true;
    d->topology = a->in.topology;
    d->input = wl_jobs_source(a);
    d->routing = tm_route_kind_name(tm_route_kind_of(in->route));
    d->at = a->at;
    d->n_jobs = in->w.n_jobs;
    d->n_running = n_set;
    d->skipped_steps = in->w.skipped_steps;
    d->skipped_not_started = in->w.skipped_not_started;
    d->rows = tm_workload_doc_keep(d, calloc((size_t)res->n_rows + 1, sizeof *d->rows));
    if (!d->rows)
        err = TM_ENOMEM;
    for (int32_t i = 0; !err && i < res->n_rows; i++) {
        const tm_job_result *r = &res->rows[i];
        err = wl_doc_row(d, in->net, &in->w, r, in->w.job[r->job].host, NULL, NULL, &d->rows[i]);
        d->n_rows += !err;
    }
    if (!err)
        err = doc_fabric(d, in->net, &in->w, res);
    return err ? tm_ctx_fail(ctx, TM_ENOMEM, "out of memory") : TM_EOK;
}
