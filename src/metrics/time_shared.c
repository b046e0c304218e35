/*
 * time_shared.c - the time model with several jobs on one fabric
 * (tm_time_eval_shared, docs/workload.md "Shared figures"): every job's
 * messages are flows of one max-min fair simulation, all starting at 0,
 * and a job's shared est_time_s is the end of its last flow.
 *
 * Jobs whose flows share no link do not change each other's rates, so
 * the simulation splits into independent groups: jobs are joined when
 * their loads (given by the caller) touch a common link in either
 * direction (SMPI's cross-traffic loads the route back), and once more
 * when a group's full paths reach a link another group's job loads (a
 * route back that is not the reversed route, under forwarding tables).
 * A group of one job is exactly the job alone.  Each group is simulated
 * exactly when it has at most exact_max_flows messages, else with the
 * approximation of docs/time.md (tier 2), each job's estimate then taking
 * only the links that job loads; its slowdown must then compare like with
 * like, so the job alone is also simulated under that approximation
 * (alone_est_time_s).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "time_int.h"
#include "../util/util.h"

/* ---- union-find over jobs ------------------------------------------------ */

static int32_t find(int32_t *par, int32_t a)
{
    while (par[a] != a)
        a = par[a] = par[par[a]];
    return a;
}

/* Joins the groups of a and b (the smaller index is the root). */
static bool join(int32_t *par, int32_t a, int32_t b)
{
    a = find(par, a), b = find(par, b);
    if (a == b)
        return false;
    if (a < b)
        par[b] = a;
    else
        par[a] = b;
    return true;
}

/* Joins the jobs whose loads touch a common link, either direction;
 * owner[l] is the first job seen on link l (or its reverse). */
static void join_by_loads(const tm_time_job *jobs, int32_t n, int32_t *par, int32_t *owner)
{
    for (int32_t j = 0; j < n; j++)
        for (int32_t k = 0; k < jobs[j].n_loads; k++) {
            int32_t l = jobs[j].load_link[k];
            for (int d = 0; d < 2; d++, l ^= 1) {
                if (owner[l] < 0)
                    owner[l] = j;
                else
                    join(par, owner[l], j);
            }
        }
}

/* ---- one group ----------------------------------------------------------- */

typedef struct jobmsg {
    tm__tmsg *msg;      /* the job's network messages */
    int64_t n;
    double intra, intra_lb;
    int64_t n_intra;
} jobmsg;

typedef struct group {
    int32_t *jobs, n_jobs;
    tm__tmsg *msg;   /* the group's messages, job by job */
    int32_t *mjob;   /* job of each message */
    int64_t n;
    bool full;
    tm__tflows t;
} group;

static void group_release(group *g)
{
    free(g->jobs);
    free(g->msg);
    free(g->mjob);
    tm__tflows_release(&g->t);
    memset(g, 0, sizeof *g);
}

/* The group's messages and flows (not compacted: entries name links). */
static tm_err group_build(tm_ctx *ctx, const tm_route *route, const jobmsg *jm,
                          const tm__tparams *p, int64_t exact_max, group *g)
{
    int64_t k = 0;
    g->n = 0;
    for (int32_t i = 0; i < g->n_jobs; i++)
        g->n += jm[g->jobs[i]].n;
    g->msg = tm__malloc_n((size_t)g->n + 1, sizeof *g->msg);
    g->mjob = tm__malloc_n((size_t)g->n + 1, sizeof *g->mjob);
    if (!g->msg || !g->mjob || tm__tflows_alloc(&g->t, g->n) < 0)
        return tm__nomem(ctx);
    for (int32_t i = 0; i < g->n_jobs; i++) {
        const jobmsg *m = &jm[g->jobs[i]];
        for (int64_t f = 0; f < m->n; f++, k++) {
            g->msg[k] = m->msg[f];
            g->mjob[k] = g->jobs[i];
        }
    }
    g->full = g->n <= exact_max;
    return tm__time_build(ctx, route, g->msg, p, &g->full, &g->t);
}

/* A full group whose paths reach a link owned by a job of another group:
 * the two groups are joined (true: some were). */
static bool join_by_paths(const group *g, int32_t *par, const int32_t *owner)
{
    bool joined = false;
    if (!g->full)
        return false;
    for (int64_t f = 0; f < g->t.n; f++)
        for (int64_t e = g->t.off[f]; e < g->t.off[f + 1]; e++) {
            int32_t o = owner[g->t.ent_link[e]];
            if (o >= 0)
                joined |= join(par, o, g->mjob[f]);
        }
    return joined;
}

/* Tier 2 of one job (docs/time.md): max over the links it loads of its
 * mean 1 / bandwidth factor x (load + cross-traffic x load of the reverse)
 * / bytes/s, plus its largest latency; load is the group's (or the job's
 * own, for the job alone).  flows: the job's flows of t. */
static double approx_est(const tm_net_csr *g, const tm_time_job *job, const double *load,
                         const tm__tflows *t, const tm__tmsg *msg, const int32_t *mjob,
                         int32_t j, const tm__tparams *p)
{
    double rho_sum = 0.0, b_sum = 0.0, lat = 0.0, est = 0.0, xt;
    for (int64_t f = 0; f < t->n; f++) {
        if (mjob && mjob[f] != j)
            continue;
        rho_sum += t->vol[f];
        b_sum += msg[f].bytes;
        lat = t->start[f] > lat ? t->start[f] : lat;
    }
    if (!(b_sum > 0))
        return 0.0;
    xt = p->smpi ? TM__TIME_CROSSTRAFFIC : 0.0;
    for (int32_t k = 0; k < job->n_loads; k++) {
        int32_t l = job->load_link[k];
        double v = rho_sum / b_sum * (load[l] + xt * load[l ^ 1]) / tm__link_Bps(g, l);
        est = v > est ? v : est;
    }
    return est + lat;
}

/* Simulates the flows of t (compacted, parameters set) and puts the end
 * of each job's last flow into end[j] (the max with what is there). */
static tm_err simulate(tm_ctx *ctx, const tm__tflows *t, bool full, const int32_t *mjob,
                       int32_t job, double *end, bool *switched)
{
    double *done = tm__malloc_n((size_t)t->n + 1, sizeof *done);
    int32_t updates;
    tm_err err;
    if (!done)
        return tm__nomem(ctx);
    err = tm__time_simulate(ctx, t, full ? 0 : TM__TIME_APPROX_EPOCHS, TM__TIME_EXACT_WORK, done,
                            &updates, switched);
    for (int64_t f = 0; !err && f < t->n; f++) {
        int32_t j = mjob ? mjob[f] : job;
        if (done[f] > end[j])
            end[j] = done[f];
    }
    free(done);
    return err;
}

/* One job alone under the approximation (its alone_est_time_s in an
 * approximate group). */
static tm_err alone_approx(tm_ctx *ctx, const tm_route *route, const tm_time_job *job,
                           const jobmsg *m, const tm__tparams *p, double *dense,
                           tm_time_shared *out)
{
    const tm_net_csr *g = tm_net_csr_get(tm_route_net(route));
    tm__tflows t;
    bool full = false, sw;
    double end[1] = {0.0}, a;
    tm_err err;
    if (tm__tflows_alloc(&t, m->n) < 0) {
        tm__tflows_release(&t);
        return tm__nomem(ctx);
    }
    err = tm__time_build(ctx, route, m->msg, p, &full, &t);
    if (!err && tm__tflows_compact(&t, g) < 0)
        err = tm__nomem(ctx);
    if (!err) {
        tm__time_flow_params(&t, m->msg, p, job->max_dilation, false);
        err = simulate(ctx, &t, false, NULL, 0, end, &sw);
    }
    if (!err) {
        for (int32_t k = 0; k < job->n_loads; k++)
            dense[job->load_link[k]] += job->load_bytes[k];
        a = approx_est(g, job, dense, &t, m->msg, NULL, 0, p);
        for (int32_t k = 0; k < job->n_loads; k++)
            dense[job->load_link[k]] = 0.0;
        out->alone_est_time_s = fmax(fmax(end[0], a), m->intra);
    }
    tm__tflows_release(&t);
    return err;
}

/* Simulates a built group and fills the outputs of its jobs. */
static tm_err group_run(tm_ctx *ctx, const tm_route *route, const tm_time_job *jobs,
                        const jobmsg *jm, const tm__tparams *p, group *gr, double *end,
                        double *dense, tm_time_shared *out)
{
    const tm_net_csr *g = tm_net_csr_get(tm_route_net(route));
    bool sw = false;
    tm_err err;
    for (int32_t i = 0; i < gr->n_jobs; i++)
        end[gr->jobs[i]] = 0.0;
    if (tm__tflows_compact(&gr->t, g) < 0)
        return tm__nomem(ctx);
    /* an approximate flow's hops: its own job's max dilation (as for the
     * job alone, tm__time_eval) */
    if (!gr->full)
        for (int64_t f = 0; f < gr->t.n; f++)
            gr->t.hops[f] = jobs[gr->mjob[f]].max_dilation;
    tm__time_flow_params(&gr->t, gr->msg, p, 0.0, true);
    err = simulate(ctx, &gr->t, gr->full, gr->mjob, 0, end, &sw);
    if (err)
        return err;
    if (!gr->full)
        for (int32_t i = 0; i < gr->n_jobs; i++)
            for (int32_t k = 0; k < jobs[gr->jobs[i]].n_loads; k++)
                dense[jobs[gr->jobs[i]].load_link[k]] += jobs[gr->jobs[i]].load_bytes[k];
    for (int32_t i = 0; !err && i < gr->n_jobs; i++) {
        int32_t j = gr->jobs[i];
        double est = end[j];
        if (!gr->full)
            est = fmax(est, approx_est(g, &jobs[j], dense, &gr->t, gr->msg, gr->mjob, j, p));
        out[j].est_time_s = fmax(est, jm[j].intra);
        out[j].approximate = !gr->full || sw;
        out[j].group = gr->jobs[0];
        out[j].alone_est_time_s = gr->n_jobs == 1 ? out[j].est_time_s : 0.0;
    }
    if (!gr->full) {
        for (int32_t i = 0; i < gr->n_jobs; i++)
            for (int32_t k = 0; k < jobs[gr->jobs[i]].n_loads; k++)
                dense[jobs[gr->jobs[i]].load_link[k]] = 0.0;
        for (int32_t i = 0; !err && gr->n_jobs > 1 && i < gr->n_jobs; i++)
            err = alone_approx(ctx, route, &jobs[gr->jobs[i]], &jm[gr->jobs[i]], p, dense,
                               &out[gr->jobs[i]]);
    }
    return err;
}

/* The groups of the current union-find, jobs in increasing order. */
static tm_err make_groups(tm_ctx *ctx, int32_t n, int32_t *par, group **out, int32_t *n_groups)
{
    int32_t *count = tm__calloc_n((size_t)n + 1, sizeof *count), ng = 0, *gid;
    group *gs;
    tm_err err = TM_EOK;
    gid = tm__malloc_n((size_t)n + 1, sizeof *gid);
    gs = tm__calloc_n((size_t)n + 1, sizeof *gs);
    if (!count || !gid || !gs) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t j = 0; j < n; j++)
        count[find(par, j)]++;
    for (int32_t j = 0; j < n; j++)
        gid[j] = count[j] ? ng++ : -1;
    for (int32_t j = 0; j < n && !err; j++) {
        group *g = &gs[gid[find(par, j)]];
        if (!g->jobs && !(g->jobs = tm__malloc_n((size_t)count[find(par, j)], sizeof *g->jobs)))
            err = tm__nomem(ctx);
        else
            g->jobs[g->n_jobs++] = j;
    }
out:
    free(count);
    free(gid);
    *out = gs;
    *n_groups = ng;
    return err;
}

static void groups_free(group *gs, int32_t n)
{
    for (int32_t i = 0; gs && i < n; i++)
        group_release(&gs[i]);
    free(gs);
}

/* Builds every group; joins groups whose paths meet and builds again
 * until none do. */
static tm_err build_groups(tm_ctx *ctx, const tm_route *route, int32_t n, const jobmsg *jm,
                           const tm__tparams *p, int64_t exact_max, int32_t *par,
                           const int32_t *owner, group **gs, int32_t *ng)
{
    for (;;) {
        bool joined = false;
        tm_err err = make_groups(ctx, n, par, gs, ng);
        for (int32_t i = 0; !err && i < *ng; i++)
            err = group_build(ctx, route, jm, p, exact_max, &(*gs)[i]);
        for (int32_t i = 0; !err && i < *ng; i++)
            joined |= join_by_paths(&(*gs)[i], par, owner);
        if (err || !joined)
            return err;
        groups_free(*gs, *ng);
        *gs = NULL;
    }
}

static void jobmsg_free(jobmsg *jm, int32_t n)
{
    for (int32_t j = 0; jm && j < n; j++)
        free(jm[j].msg);
    free(jm);
}

/* Whether the group holds a wanted job (want NULL: every one). */
static bool wanted(const group *g, const bool *want)
{
    for (int32_t i = 0; want && i < g->n_jobs; i++)
        if (want[g->jobs[i]])
            return true;
    return !want;
}

tm_err tm_time_eval_shared(tm_ctx *ctx, const tm_route *route, const tm_time_job *jobs, int32_t n,
                           const tm_time_opts *topt, const bool *want, tm_time_shared *out)
{
    const tm_net_csr *g = tm_net_csr_get(tm_route_net(route));
    tm_time_opts dflt = TM_TIME_OPTS_INIT;
    tm__tparams p;
    jobmsg *jm = NULL;
    group *gs = NULL;
    int32_t *par = NULL, *owner = NULL, ng = 0;
    double *end = NULL, *dense = NULL;
    tm_err err;

    if (!topt)
        topt = &dflt;
    if (topt->phases)
        return tm__fail(ctx, TM_EUSAGE, "shared time: the jobs' phases are not supported");
    if ((err = tm__time_params(ctx, topt, &p)))
        return err;
    jm = tm__calloc_n((size_t)n + 1, sizeof *jm);
    par = tm__malloc_n((size_t)n + 1, sizeof *par);
    end = tm__calloc_n((size_t)n + 1, sizeof *end);
    owner = tm__malloc_n((size_t)g->n_links + 1, sizeof *owner);
    dense = tm__calloc_n((size_t)g->n_links + 1, sizeof *dense);
    if (!jm || !par || !end || !owner || !dense) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t l = 0; l < g->n_links; l++)
        owner[l] = -1;
    for (int32_t j = 0; j < n && !err; j++) {
        par[j] = j;
        memset(&out[j], 0, sizeof out[j]);
        out[j].group = -1; /* set when its group is simulated */
        err = tm__time_messages(ctx, jobs[j].comm, jobs[j].map, &p, &jm[j].msg, &jm[j].n,
                                &jm[j].intra, &jm[j].intra_lb, &jm[j].n_intra);
    }
    if (err)
        goto out;
    join_by_loads(jobs, n, par, owner);
    err = build_groups(ctx, route, n, jm, &p, topt->exact_max_flows, par, owner, &gs, &ng);
    for (int32_t i = 0; !err && i < ng; i++) {
        if (wanted(&gs[i], want))
            err = group_run(ctx, route, jobs, jm, &p, &gs[i], end, dense, out);
        group_release(&gs[i]); /* the peak holds one group's flows */
    }
out:
    groups_free(gs, ng);
    jobmsg_free(jm, n);
    free(par);
    free(owner);
    free(end);
    free(dense);
    return err;
}
