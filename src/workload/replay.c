/*
 * replay.c - a trace replayed under a node-choice policy (tm_replay,
 * docs/workload.md "replay"): one sweep over its events in time order.
 * At each event time the interval since the last one is evaluated with
 * the jobs running in it (wl_set_eval), then the jobs that end are
 * released and the jobs that start are placed (the policy picks among
 * the nodes free under its own history) and evaluated alone once.  A
 * job's instance (matrix, mapping, loads, time-model messages) lives from
 * its start to its end, so the memory follows the running jobs, not the
 * trace.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wl_int.h"
#include "../util/util.h"

static const tm__name_val policy_names[] = {{"as-recorded", TM_REPLAY_RECORDED},
                                            {"slurm-tree", TM_REPLAY_SLURM_TREE},
                                            {"random", TM_REPLAY_RANDOM},
                                            {"topomap", TM_REPLAY_TOPOMAP}};

int tm_replay_policy_parse(const char *s)
{
    return tm__name_lookup(policy_names, sizeof policy_names / sizeof *policy_names, s);
}

const char *tm_replay_policy_name(tm_replay_policy p)
{
    for (size_t i = 0; i < sizeof policy_names / sizeof *policy_names; i++)
        if (policy_names[i].val == (int)p)
            return policy_names[i].name;
    return "?";
}

void tm_replay_result_init(tm_replay_result *r)
{
    memset(r, 0, sizeof *r);
}

void tm_replay_result_release(tm_replay_result *r)
{
    if (!r)
        return;
    for (int32_t i = 0; r->rows && i < r->n_rows; i++) {
        free(r->rows[i].r.neighbours);
        free(r->rows[i].hosts);
    }
    free(r->rows);
    free(r->intervals);
    tm_replay_result_init(r);
}

/* What a row job gathers over its run. */
typedef struct acc {
    double w, cong, time, slow;      /* weight (seconds) and weighted sums */
    double worst_slow, worst_cong;
    tm_job_figures alone;            /* kept when its instance goes */
    tm_job_figures point;            /* a job of no length: the set at its start */
    bool have_point, approx;
    int32_t intervals;
    int32_t *nb, n_nb;               /* neighbours seen */
    size_t cap_nb;
} acc;

typedef struct replayer {
    tm_ctx *ctx;
    const tm_route *route;
    const tm_net_csr *g;
    const tm_workload *w;
    tm_replay_policy policy;
    const tm_time_opts *topt;
    const tm_slurm_tree *tree;
    uint64_t seed;
    bool *want;        /* per job: a row */
    wl_inst *inst;     /* per job, alive while it runs */
    bool *alive, *placed;
    int32_t **hosts;   /* per job: its nodes under the policy */
    int32_t *running, n_running;
    int32_t *busy;     /* per vertex: running jobs on it */
    bool *in_part;     /* per vertex: the policies may give it */
    double *scratch;
    acc *acc;
    tm_replay_result *out;
    size_t cap_iv;
} replayer;

/* ---- placing a job ------------------------------------------------------------ */

static tm_err free_hosts(replayer *r, int32_t **out, int32_t *n)
{
    *n = 0;
    *out = tm__malloc_n((size_t)r->g->n + 1, sizeof **out);
    if (!*out)
        return tm__nomem(r->ctx);
    for (int32_t v = 0; v < r->g->n; v++)
        if (r->in_part[v] && !r->busy[v])
            (*out)[(*n)++] = v;
    return TM_EOK;
}

/* The job's nodes under the policy, into r->hosts[j]; *ok false when the
 * policy found none (the job is reported not placed). */
static tm_err place(replayer *r, int32_t j, bool *ok)
{
    const tm_job *job = &r->w->job[j];
    wl_inst *x = &r->inst[j];
    int32_t *fr = NULL, nf = 0;
    tm_pick pk;
    wl_bg bg;
    tm_err err;
    static const tm_pick_policy pick_of[] = {
        [TM_REPLAY_SLURM_TREE] = TM_PICK_SLURM_TREE, [TM_REPLAY_RANDOM] = TM_PICK_RANDOM,
        [TM_REPLAY_TOPOMAP] = TM_PICK_TOPOMAP};
    *ok = true;
    if (!(r->hosts[j] = tm__malloc_n((size_t)job->n_hosts + 1, sizeof *r->hosts[j])))
        return tm__nomem(r->ctx);
    if (r->policy == TM_REPLAY_RECORDED) {
        memcpy(r->hosts[j], job->host, (size_t)job->n_hosts * sizeof *job->host);
        return TM_EOK;
    }
    memset(&bg, 0, sizeof bg);
    err = free_hosts(r, &fr, &nf);
    if (!err && r->policy == TM_REPLAY_TOPOMAP) {
        wl_inst **ptr = tm__malloc_n((size_t)r->n_running + 1, sizeof *ptr);
        if (!ptr) {
            err = tm__nomem(r->ctx);
        } else {
            for (int32_t i = 0; i < r->n_running; i++)
                ptr[i] = &r->inst[r->running[i]];
            err = wl_bg_make(r->ctx, r->g->n_links, ptr, r->n_running, &bg);
            if (!err)
                err = wl_pick(r->ctx, r->route, r->topt, r->tree, &bg, &x->comm, job->n_hosts,
                              job->tasks, fr, nf, TM_PICK_TOPOMAP,
                              r->seed ^ ((uint64_t)j * 0x9e3779b97f4a7c15ull), false, &pk);
            free(ptr);
        }
    } else if (!err) {
        err = wl_pick(r->ctx, r->route, r->topt, r->tree, NULL, &x->comm, job->n_hosts,
                      job->tasks, fr, nf, pick_of[r->policy],
                      r->seed ^ ((uint64_t)j * 0x9e3779b97f4a7c15ull), false, &pk);
    }
    if (err == TM_EINFEASIBLE) {
        tm_ctx_clear_error(r->ctx);
        err = TM_EOK;
        *ok = false;
        free(r->hosts[j]); /* no nodes: a row without any */
        r->hosts[j] = NULL;
    } else if (!err) {
        memcpy(r->hosts[j], pk.hosts, (size_t)job->n_hosts * sizeof *pk.hosts);
        tm_pick_release(&pk);
    }
    wl_bg_release(&bg);
    free(fr);
    return err;
}

/* A job starts: its matrix, its nodes, its instance evaluated alone (a
 * row job) or for its loads (background of a shard). */
static tm_err start(replayer *r, int32_t j)
{
    const tm_job *job = &r->w->job[j];
    wl_inst *x = &r->inst[j];
    bool ok;
    tm_err err;
    wl_inst_init(x);
    err = tm_workload_job_comm(r->ctx, r->w, j, &x->comm);
    if (!err)
        err = place(r, j, &ok);
    if (err || !ok) {
        wl_inst_release(x);
        return err;
    }
    err = tm_job_mapping(r->ctx, job->n_hosts, r->hosts[j], job->tasks, &x->map);
    if (!err)
        err = wl_inst_eval(r->ctx, r->route, r->topt, r->want[j], r->scratch, x);
    if (!err)
        err = wl_inst_prep(r->ctx, r->topt, x);
    if (err) {
        tm__fail_prefix(r->ctx, "job %s", job->id);
        wl_inst_release(x);
        return err;
    }
    r->alive[j] = r->placed[j] = true;
    for (int32_t k = 0; k < job->n_hosts; k++)
        r->busy[r->hosts[j][k]]++;
    r->running[r->n_running++] = j;
    return TM_EOK;
}

static void release(replayer *r, int32_t j)
{
    const tm_job *job = &r->w->job[j];
    if (!r->alive[j])
        return;
    for (int32_t k = 0; k < job->n_hosts; k++)
        r->busy[r->hosts[j][k]]--;
    for (int32_t i = 0; i < r->n_running; i++)
        if (r->running[i] == j) {
            memmove(r->running + i, r->running + i + 1,
                    (size_t)(r->n_running - i - 1) * sizeof *r->running);
            r->n_running--;
            break;
        }
    /* the instance goes; a row keeps its figures alone */
    {
        const tm_metrics *al = &r->inst[j].alone;
        r->acc[j].alone = (tm_job_figures){al->max_congestion, al->avg_dilation, al->qap_J,
                                           al->est_time_s, al->time_approximate};
    }
    wl_inst_release(&r->inst[j]);
    r->alive[j] = false;
}

/* ---- evaluating the running set --------------------------------------------- */

static tm_err add_neighbours(replayer *r, acc *a, const tm_job_result *x)
{
    for (int32_t k = 0; k < x->n_neighbours; k++) {
        bool seen = false;
        for (int32_t q = 0; q < a->n_nb && !seen; q++)
            seen = a->nb[q] == x->neighbours[k];
        if (seen)
            continue;
        if (tm__grow((void **)&a->nb, &a->cap_nb, (size_t)a->n_nb + 1, sizeof *a->nb) < 0)
            return tm__nomem(r->ctx);
        a->nb[a->n_nb++] = x->neighbours[k];
    }
    return TM_EOK;
}

/* The running set over [t0, t1) (t1 == t0: the instant of a job of no
 * length, only the jobs in point count). */
static tm_err evaluate(replayer *r, double t0, double t1, const bool *point)
{
    int32_t n = r->n_running, busy = 0;
    wl_inst **ptr = tm__malloc_n((size_t)n + 1, sizeof *ptr);
    bool *row = tm__calloc_n((size_t)n + 1, sizeof *row);
    tm_workload_result res;
    tm_err err;
    tm_workload_result_init(&res);
    if (!ptr || !row) {
        err = tm__nomem(r->ctx);
        goto out;
    }
    for (int32_t i = 0; i < n; i++) {
        int32_t j = r->running[i];
        ptr[i] = &r->inst[j];
        row[i] = r->want[j] && (!point || point[j]);
    }
    err = wl_set_eval(r->ctx, r->route, r->topt, ptr, r->running, n, row, -1, false, &res);
    if (err)
        goto out;
    for (int32_t k = 0; k < res.n_rows && !err; k++) {
        const tm_job_result *x = &res.rows[k];
        acc *a = &r->acc[x->job];
        double wt = t1 - t0;
        a->approx |= x->shared.time_approximate;
        if (point) {
            a->point = x->shared;
            a->worst_slow = a->slow = x->slowdown;
            a->worst_cong = x->shared.max_congestion;
            a->have_point = true;
        } else {
            a->w += wt;
            a->cong += wt * x->shared.max_congestion;
            a->time += wt * x->shared.est_time_s;
            a->slow += wt * x->slowdown;
            a->worst_slow = fmax(a->worst_slow, x->slowdown);
            a->worst_cong = fmax(a->worst_cong, x->shared.max_congestion);
        }
        a->intervals++;
        err = add_neighbours(r, a, x);
    }
    for (int32_t v = 0; v < r->g->n; v++)
        busy += r->busy[v] > 0;
    if (!err && !point) {
        tm_replay_result *o = r->out;
        if (tm__grow((void **)&o->intervals, &r->cap_iv, (size_t)o->n_intervals + 1,
                     sizeof *o->intervals) < 0) {
            err = tm__nomem(r->ctx);
            goto out;
        }
        o->intervals[o->n_intervals++] = (tm_replay_interval){
            t0 - o->start, t1 - o->start, n, busy, res.max_congestion};
    }
out:
    tm_workload_result_release(&res);
    free(ptr);
    free(row);
    return err;
}

/* ---- the sweep -------------------------------------------------------------------- */

typedef struct ev {
    double t;
    int32_t job;
} ev;

static int cmp_ev(const void *a, const void *b)
{
    const ev *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->job > y->job) - (x->job < y->job);
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The jobs that start at t (from *next in the sorted starts), placed. */
static tm_err starts_at(replayer *r, const ev *st, int32_t n_st, int32_t *next, double t,
                        bool *point)
{
    bool any_point = false;
    tm_err err = TM_EOK;
    int32_t first = *next;
    for (; !err && *next < n_st && st[*next].t == t; ++*next) {
        int32_t j = st[*next].job;
        err = start(r, j);
        if (!err && r->alive[j] && r->w->job[j].end <= t) {
            point[j] = true;
            any_point = true;
        }
    }
    if (!err && any_point) /* jobs of no length: the set of this instant */
        err = evaluate(r, t, t, point);
    for (int32_t i = first; i < *next; i++)
        if (point[st[i].job]) {
            point[st[i].job] = false;
            release(r, st[i].job);
        }
    return err;
}

static tm_err sweep(replayer *r)
{
    const tm_workload *w = r->w;
    int32_t n = w->n_jobs, n_st = 0, n_en = 0, si = 0, ei = 0;
    ev *st = tm__malloc_n((size_t)n + 1, sizeof *st), *en = tm__malloc_n((size_t)n + 1, sizeof *en);
    bool *point = tm__calloc_n((size_t)n + 1, sizeof *point);
    double prev = 0, t_end;
    tm_err err = TM_EOK;
    if (!st || !en || !point) {
        err = tm__nomem(r->ctx);
        goto out;
    }
    t_end = -INFINITY;
    for (int32_t j = 0; j < n; j++) {
        st[n_st++] = (ev){w->job[j].start, j};
        t_end = fmax(t_end, w->job[j].start);
        if (isfinite(w->job[j].end)) {
            en[n_en++] = (ev){w->job[j].end, j};
            t_end = fmax(t_end, w->job[j].end);
        }
    }
    qsort(st, (size_t)n_st, sizeof *st, cmp_ev);
    qsort(en, (size_t)n_en, sizeof *en, cmp_ev);
    r->out->start = n_st ? st[0].t : 0;
    r->out->end = n_st ? t_end : 0;
    prev = r->out->start;
    while (!err && (si < n_st || ei < n_en)) {
        double t = si < n_st && (ei >= n_en || st[si].t <= en[ei].t) ? st[si].t : en[ei].t;
        if (t > prev && r->n_running > 0)
            err = evaluate(r, prev, t, NULL);
        for (; !err && ei < n_en && en[ei].t <= t; ei++)
            release(r, en[ei].job);
        if (!err)
            err = starts_at(r, st, n_st, &si, t, point);
        prev = t;
    }
    if (!err && t_end > prev && r->n_running > 0) /* jobs still running at the end */
        err = evaluate(r, prev, t_end, NULL);
    while (!err && r->n_running > 0)
        release(r, r->running[r->n_running - 1]);
out:
    free(st);
    free(en);
    free(point);
    return err;
}

/* The rows, from what each row job gathered. */
static tm_err rows(replayer *r)
{
    tm_replay_result *o = r->out;
    int32_t n = 0;
    for (int32_t j = 0; j < r->w->n_jobs; j++)
        n += r->want[j];
    o->rows = tm__calloc_n((size_t)n + 1, sizeof *o->rows);
    if (!o->rows)
        return tm__nomem(r->ctx);
    for (int32_t j = 0; j < r->w->n_jobs; j++) {
        tm_replay_row *row;
        acc *a = &r->acc[j];
        if (!r->want[j])
            continue;
        row = &o->rows[o->n_rows++];
        row->r.job = j;
        row->r.group = -1;
        row->placed = r->placed[j];
        row->hosts = r->hosts[j];
        r->hosts[j] = NULL;
        if (!row->placed) {
            o->not_placed++;
            continue;
        }
        row->r.alone = a->alone;
        row->r.shared = row->r.alone;
        if (a->w > 0) {
            row->r.shared.max_congestion = a->cong / a->w;
            row->r.shared.est_time_s = a->time / a->w;
            row->r.slowdown = a->slow / a->w;
        } else if (a->have_point) {
            row->r.shared.max_congestion = a->point.max_congestion;
            row->r.shared.est_time_s = a->point.est_time_s;
            row->r.slowdown = a->slow;
        } else {
            row->r.slowdown = 1.0;
        }
        row->r.shared.time_approximate = a->approx;
        row->worst_slowdown = a->worst_slow;
        row->worst_max_congestion = a->worst_cong;
        row->intervals = a->intervals;
        if (a->n_nb > 1)
            qsort(a->nb, (size_t)a->n_nb, sizeof *a->nb, cmp_i32);
        row->r.neighbours = a->nb;
        row->r.n_neighbours = a->n_nb;
        a->nb = NULL;
    }
    return TM_EOK;
}

static tm_err setup(replayer *r, const tm_replay_opts *o)
{
    int32_t n = r->w->n_jobs, nv = r->g->n;
    r->want = tm__calloc_n((size_t)n + 1, sizeof *r->want);
    r->inst = tm__calloc_n((size_t)n + 1, sizeof *r->inst);
    r->alive = tm__calloc_n((size_t)n + 1, sizeof *r->alive);
    r->placed = tm__calloc_n((size_t)n + 1, sizeof *r->placed);
    r->hosts = tm__calloc_n((size_t)n + 1, sizeof *r->hosts);
    r->running = tm__malloc_n((size_t)n + 1, sizeof *r->running);
    r->acc = tm__calloc_n((size_t)n + 1, sizeof *r->acc);
    r->busy = tm__calloc_n((size_t)nv + 1, sizeof *r->busy);
    r->in_part = tm__calloc_n((size_t)nv + 1, sizeof *r->in_part);
    r->scratch = tm__calloc_n((size_t)r->g->n_links + 1, sizeof *r->scratch);
    if (!r->want || !r->inst || !r->alive || !r->placed || !r->hosts || !r->running || !r->acc ||
        !r->busy || !r->in_part || !r->scratch)
        return tm__nomem(r->ctx);
    for (int32_t j = 0; j < n; j++) {
        wl_inst_init(&r->inst[j]);
        r->want[j] = !o->rows;
    }
    for (int32_t i = 0; o->rows && i < o->n_rows; i++) {
        if (o->rows[i] < 0 || o->rows[i] >= n)
            return tm__fail(r->ctx, TM_EUSAGE, "replay: row job %d of %d", o->rows[i], n);
        r->want[o->rows[i]] = true;
    }
    for (int32_t v = 0; v < nv; v++)
        r->in_part[v] = !o->partition && r->g->is_host[v];
    for (int32_t i = 0; o->partition && i < o->n_partition; i++) {
        int32_t v = o->partition[i];
        if (v < 0 || v >= nv || !r->g->is_host[v])
            return tm__fail(r->ctx, TM_EUSAGE, "replay: partition vertex %d is not a host", v);
        r->in_part[v] = true;
    }
    return TM_EOK;
}

static void teardown(replayer *r)
{
    int32_t n = r->w->n_jobs;
    for (int32_t j = 0; r->inst && j < n; j++)
        wl_inst_release(&r->inst[j]);
    for (int32_t j = 0; r->hosts && j < n; j++)
        free(r->hosts[j]);
    for (int32_t j = 0; r->acc && j < n; j++)
        free(r->acc[j].nb);
    free(r->want);
    free(r->inst);
    free(r->alive);
    free(r->placed);
    free(r->hosts);
    free(r->running);
    free(r->acc);
    free(r->busy);
    free(r->in_part);
    free(r->scratch);
}

tm_err tm_replay(tm_ctx *ctx, const tm_route *route, const tm_workload *w,
                 tm_replay_policy policy, const tm_replay_opts *opts, tm_replay_result *out)
{
    tm_replay_opts dflt = TM_REPLAY_OPTS_INIT;
    tm_slurm_tree *own = NULL;
    replayer r;
    tm_err err;

    tm_replay_result_init(out);
    if (!opts)
        opts = &dflt;
    if (!w->has_times)
        return tm__fail(ctx, TM_EUSAGE, "replay: the trace has no Start and End times");
    if (tm_replay_policy_name(policy)[0] == '?')
        return tm__fail(ctx, TM_EUSAGE, "replay: policy %d", (int)policy);
    if (opts->rows && policy != TM_REPLAY_RECORDED)
        return tm__fail(ctx, TM_EUSAGE, "replay: only as-recorded replays a part of the jobs "
                        "(a policy's choices depend on every earlier job)");
    if (opts->time && opts->time->phases)
        return tm__fail(ctx, TM_EUSAGE, "replay: the jobs' phases are not supported");
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.route = route;
    r.g = tm_net_csr_get(tm_route_net(route));
    r.w = w;
    r.policy = policy;
    r.topt = opts->time;
    r.seed = opts->seed;
    r.tree = opts->tree;
    r.out = out;
    out->policy = policy;
    err = setup(&r, opts);
    if (!err && !r.tree && policy != TM_REPLAY_RECORDED && !(err = tm_slurm_tree_from_net(
                                                               ctx, tm_route_net(route), &own)))
        r.tree = own;
    if (!err)
        err = sweep(&r);
    if (!err)
        err = rows(&r);
    if (err)
        tm_replay_result_release(out);
    teardown(&r);
    tm_slurm_tree_free(own);
    return err;
}
