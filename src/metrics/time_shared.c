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
 *
 * A group of one job is the job alone, built and simulated exactly as
 * tm_time_eval does.  In a group of several, the messages of one job
 * between the same two hosts with the same size are one flow of k times
 * the volume, weight and rate bound (they share every link with the same
 * fractions, start together and weigh the same, so max-min gives them the
 * same rate at every moment: exact); the group is simulated exactly when
 * it has at most exact_max_flows such flows.  Above, the approximation of
 * docs/time.md (tier 2): flows load only their hosts' links, so jobs on
 * distinct hosts do not meet in that simulation and each job's is its
 * own (kept in its tm_time_prep); the network inside counts through the
 * loads, each job's estimate taking the links it loads with every group
 * job's load on them.  Its slowdown compares like with like: the job
 * alone under the same approximation (alone_est_time_s).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "time_int.h"
#include "../util/util.h"

/* A job's flows summed for tier 2: effective bytes, bytes, latest start. */
typedef struct jsum {
    double rho_sum, b_sum, lat;
} jsum;

struct tm_time_prep {
    tm__tparams p;       /* the options it was made with */
    tm__tmsg *msg;       /* network messages, matrix order */
    int64_t n;
    double intra, intra_lb;
    int64_t n_intra;
    tm__tmsg *amsg;      /* identical messages merged (made on first use) */
    int64_t *amult, an;
    bool have_agg;
    int32_t *hosts;      /* distinct hosts of its messages (made on first use) */
    int32_t n_hosts;
    bool have_alone;     /* the job alone (a group of one), as tm_time_eval gives it */
    int32_t alone_dil;   /* the max dilation it was made with */
    int64_t alone_exact_max;
    double alone_est;
    bool alone_approx;
    uint64_t hash;       /* of its messages: what its figures in a set depend on */
    /* the last group of several jobs it led (the lowest hash): its members'
     * hashes and max dilations, and their figures (an interval of a replay
     * often has the groups of the one before) */
    int32_t g_n;
    uint64_t *g_key;     /* 2 g_n: hash, dilation of each member, sorted */
    double *g_est;
    bool *g_approx;
    int32_t *touch;      /* alone and exact: the links its flows load (cross-traffic too) */
    int32_t n_touch;
    bool have_t2;        /* its own tier-2 simulation (made on first use) */
    int32_t t2_dil;      /* the max dilation it was made with */
    double t2_end;
    jsum t2;
};

tm_err tm_time_prep_new(tm_ctx *ctx, const tm_comm *comm, const tm_mapping *map,
                        const tm_time_opts *topt, tm_time_prep **out)
{
    tm_time_opts dflt = TM_TIME_OPTS_INIT;
    tm_time_prep *pr = tm__calloc_n(1, sizeof *pr);
    tm_err err;
    *out = NULL;
    if (!pr)
        return tm__nomem(ctx);
    err = tm__time_params(ctx, topt ? topt : &dflt, &pr->p);
    if (!err)
        err = tm__time_messages(ctx, comm, map, &pr->p, &pr->msg, &pr->n, &pr->intra,
                                &pr->intra_lb, &pr->n_intra);
    if (err) {
        tm_time_prep_free(pr);
        return err;
    }
    /* FNV-1a over the messages (hosts and sizes) and the intra-host times:
     * two jobs with the same hash have the same figures in any set */
    pr->hash = 0xcbf29ce484222325ull;
    for (int64_t f = 0; f < pr->n; f++) {
        uint64_t w[3];
        w[0] = (uint64_t)(uint32_t)pr->msg[f].src_host;
        w[1] = (uint64_t)(uint32_t)pr->msg[f].dst_host;
        memcpy(&w[2], &pr->msg[f].bytes, sizeof w[2]);
        for (int k = 0; k < 3; k++)
            pr->hash = (pr->hash ^ w[k]) * 0x100000001b3ull;
    }
    {
        uint64_t w;
        memcpy(&w, &pr->intra, sizeof w);
        pr->hash = (pr->hash ^ w ^ (uint64_t)pr->n_intra) * 0x100000001b3ull;
    }
    *out = pr;
    return TM_EOK;
}

void tm_time_prep_free(tm_time_prep *pr)
{
    if (!pr)
        return;
    free(pr->msg);
    free(pr->amsg);
    free(pr->amult);
    free(pr->hosts);
    free(pr->touch);
    free(pr->g_key);
    free(pr->g_est);
    free(pr->g_approx);
    free(pr);
}

/* ---- merging identical messages ---------------------------------------------- */

static uint64_t mhash(int32_t src, int32_t dst, double bytes)
{
    uint64_t b, h;
    memcpy(&b, &bytes, sizeof b);
    h = ((uint64_t)(uint32_t)src << 32 | (uint32_t)dst) * 0x9e3779b97f4a7c15ull;
    return (h ^ (b + 0x632be59bd9b4e019ull + (h << 6) + (h >> 2))) * 0xd1342543de82ef95ull;
}

/* Identical messages (same hosts, same size) as one flow each, in order
 * of first appearance; by a hash table: O(messages) (a sort of the
 * million messages of a large all-to-all cost seconds). */
static tm_err merged(tm_ctx *ctx, tm_time_prep *pr)
{
    size_t cap = 16, mask;
    int64_t *slot, k = 0;
    if (pr->have_agg)
        return TM_EOK;
    while (cap < 2 * (size_t)pr->n + 16)
        cap *= 2;
    mask = cap - 1;
    slot = tm__malloc_n(cap, sizeof *slot);
    pr->amsg = tm__malloc_n((size_t)pr->n + 1, sizeof *pr->amsg);
    pr->amult = tm__malloc_n((size_t)pr->n + 1, sizeof *pr->amult);
    if (!slot || !pr->amsg || !pr->amult) {
        free(slot);
        return tm__nomem(ctx);
    }
    for (size_t i = 0; i < cap; i++)
        slot[i] = -1;
    for (int64_t f = 0; f < pr->n; f++) {
        const tm__tmsg *m = &pr->msg[f];
        size_t i = (size_t)(mhash(m->src_host, m->dst_host, m->bytes) >> 17) & mask;
        while (slot[i] >= 0) {
            const tm__tmsg *a = &pr->amsg[slot[i]];
            if (a->src_host == m->src_host && a->dst_host == m->dst_host && a->bytes == m->bytes)
                break;
            i = (i + 1) & mask;
        }
        if (slot[i] >= 0) {
            pr->amult[slot[i]]++;
            continue;
        }
        slot[i] = k;
        pr->amsg[k] = *m;
        pr->amult[k++] = 1;
    }
    pr->an = k;
    pr->have_agg = true;
    free(slot);
    return TM_EOK;
}

/* The distinct hosts of the job's network messages (made on first use). */
static tm_err hosts_of(tm_ctx *ctx, tm_time_prep *pr, int32_t nv, int32_t *mark)
{
    if (pr->hosts)
        return TM_EOK;
    pr->hosts = tm__malloc_n((size_t)2 * (size_t)pr->n + 1, sizeof *pr->hosts);
    if (!pr->hosts)
        return tm__nomem(ctx);
    pr->n_hosts = 0;
    for (int64_t f = 0; f < pr->n; f++) {
        int32_t h[2] = {pr->msg[f].src_host, pr->msg[f].dst_host};
        for (int s = 0; s < 2; s++)
            if (h[s] >= 0 && h[s] < nv && !mark[h[s]]) {
                mark[h[s]] = 1;
                pr->hosts[pr->n_hosts++] = h[s];
            }
    }
    for (int32_t i = 0; i < pr->n_hosts; i++)
        mark[pr->hosts[i]] = 0;
    return TM_EOK;
}

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

typedef struct group {
    int32_t *jobs, n_jobs;
    tm__tmsg *msg;   /* the group's flows, job by job */
    int32_t *mjob;   /* job of each flow */
    int64_t *mult;   /* messages a flow stands for (NULL: one each) */
    int64_t n;
    bool full;       /* full paths (else tier 2) */
    bool built;      /* msg and t are filled */
    tm__tflows t;
} group;

static void group_release(group *g)
{
    free(g->jobs);
    free(g->msg);
    free(g->mjob);
    free(g->mult);
    tm__tflows_release(&g->t);
    memset(g, 0, sizeof *g);
}

/* The flows of the group's jobs (a group of one: its messages as
 * tm_time_eval lists them; else merged), not built. */
static tm_err group_flows(tm_ctx *ctx, tm_time_prep **pr, group *g)
{
    int64_t k = 0;
    bool one = g->n_jobs == 1;
    tm_err err = TM_EOK;
    g->n = 0;
    for (int32_t i = 0; i < g->n_jobs && !err; i++) {
        if (!one)
            err = merged(ctx, pr[g->jobs[i]]);
        g->n += one ? pr[g->jobs[i]]->n : pr[g->jobs[i]]->an;
    }
    if (err)
        return err;
    g->msg = tm__malloc_n((size_t)g->n + 1, sizeof *g->msg);
    g->mjob = tm__malloc_n((size_t)g->n + 1, sizeof *g->mjob);
    if (!one)
        g->mult = tm__malloc_n((size_t)g->n + 1, sizeof *g->mult);
    if (!g->msg || !g->mjob || (!one && !g->mult))
        return tm__nomem(ctx);
    for (int32_t i = 0; i < g->n_jobs; i++) {
        const tm_time_prep *p = pr[g->jobs[i]];
        int64_t m = one ? p->n : p->an;
        for (int64_t f = 0; f < m; f++, k++) {
            g->msg[k] = one ? p->msg[f] : p->amsg[f];
            g->mjob[k] = g->jobs[i];
            if (!one)
                g->mult[k] = p->amult[f];
        }
    }
    return TM_EOK;
}

/* Builds the group's paths when it is simulated exactly (a group of one
 * also under tier 2, as tm_time_eval does). */
static tm_err group_build(tm_ctx *ctx, const tm_route *route, tm_time_prep **pr,
                          const tm__tparams *p, int64_t exact_max, int32_t dil, group *g)
{
    tm_err err;
    if (g->n_jobs == 1 && pr[g->jobs[0]]->have_alone && pr[g->jobs[0]]->alone_dil == dil &&
        pr[g->jobs[0]]->alone_exact_max == exact_max)
        return TM_EOK; /* the job alone, known (its paths could still meet another
                        * group's links: the other group's paths say so) */
    err = group_flows(ctx, pr, g);
    if (err)
        return err;
    g->full = g->n <= exact_max;
    if (!g->full && g->n_jobs > 1)
        return TM_EOK; /* tier 2 of several jobs: each job's own simulation (t2) */
    if (tm__tflows_alloc(&g->t, g->n) < 0)
        return tm__nomem(ctx);
    g->built = true;
    return tm__time_build(ctx, route, g->msg, p, &g->full, &g->t);
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The links a job alone loads, kept for the sets where its result is
 * known (it is not built again there). */
static tm_err keep_touch(tm_ctx *ctx, const group *g, tm_time_prep *p)
{
    int32_t k = 0;
    if (p->touch || !g->t.n_ent)
        return TM_EOK;
    if (!(p->touch = tm__malloc_n((size_t)g->t.n_ent, sizeof *p->touch)))
        return tm__nomem(ctx);
    memcpy(p->touch, g->t.ent_link, (size_t)g->t.n_ent * sizeof *p->touch);
    qsort(p->touch, (size_t)g->t.n_ent, sizeof *p->touch, cmp_i32);
    for (int64_t e = 0; e < g->t.n_ent; e++)
        if (!k || p->touch[e] != p->touch[k - 1])
            p->touch[k++] = p->touch[e];
    p->n_touch = k;
    return TM_EOK;
}

/* A group whose paths reach a link owned by a job of another group: the
 * two groups are joined (*joined).  Full groups only (tier-2 flows load
 * only their own hosts' links); a job alone whose result is known uses
 * the links it kept. */
static tm_err join_by_paths(tm_ctx *ctx, const group *g, tm_time_prep **pr, int32_t *par,
                            const int32_t *owner, bool *joined)
{
    if (!g->built && g->n_jobs == 1) {
        const tm_time_prep *p = pr[g->jobs[0]];
        for (int32_t k = 0; k < p->n_touch; k++)
            if (owner[p->touch[k]] >= 0)
                *joined |= join(par, owner[p->touch[k]], g->jobs[0]);
        return TM_EOK;
    }
    if (!g->built || !g->full)
        return TM_EOK;
    for (int64_t f = 0; f < g->t.n; f++)
        for (int64_t e = g->t.off[f]; e < g->t.off[f + 1]; e++) {
            int32_t o = owner[g->t.ent_link[e]];
            if (o >= 0)
                *joined |= join(par, o, g->mjob[f]);
        }
    return g->n_jobs == 1 ? keep_touch(ctx, g, pr[g->jobs[0]]) : TM_EOK;
}

static void job_sums(const tm__tflows *t, const tm__tmsg *msg, const int32_t *mjob,
                     const int64_t *mult, jsum *s)
{
    for (int64_t f = 0; f < t->n; f++) {
        jsum *x = &s[mjob ? mjob[f] : 0];
        x->rho_sum += t->vol[f];
        x->b_sum += msg[f].bytes * (mult ? (double)mult[f] : 1.0);
        x->lat = t->start[f] > x->lat ? t->start[f] : x->lat;
    }
}

/* Tier 2 of one job (docs/time.md): max over the links it loads of its
 * mean 1 / bandwidth factor x (load + cross-traffic x load of the reverse)
 * / bytes/s, plus its largest latency; load is the group's (or the job's
 * own, for the job alone). */
static double approx_est(const tm_net_csr *g, const tm_time_job *job, const double *load,
                         const jsum *s, const tm__tparams *p)
{
    double est = 0.0, xt = p->smpi ? TM__TIME_CROSSTRAFFIC : 0.0;
    if (!(s->b_sum > 0))
        return 0.0;
    for (int32_t k = 0; k < job->n_loads; k++) {
        int32_t l = job->load_link[k];
        double v = s->rho_sum / s->b_sum * (load[l] + xt * load[l ^ 1]) / tm__link_Bps(g, l);
        est = v > est ? v : est;
    }
    return est + s->lat;
}

/* Simulates the flows of t (compacted, parameters set) and puts the end
 * of each job's last flow into end[j] (the max with what is there). */
static tm_err simulate(tm_ctx *ctx, const tm__tflows *t, bool full, const int32_t *mjob,
                       double *end, bool *switched)
{
    double *done = tm__malloc_n((size_t)t->n + 1, sizeof *done);
    int32_t updates;
    tm_err err;
    if (!done)
        return tm__nomem(ctx);
    err = tm__time_simulate(ctx, t, full ? 0 : TM__TIME_APPROX_EPOCHS, TM__TIME_EXACT_WORK, done,
                            &updates, switched);
    for (int64_t f = 0; !err && f < t->n; f++) {
        int32_t j = mjob ? mjob[f] : 0;
        if (done[f] > end[j])
            end[j] = done[f];
    }
    free(done);
    return err;
}

/* Sets the volume, start, weight and bound of merged flows: each stands
 * for mult identical messages.  hops: an approximate flow's (its job's max
 * dilation, as tm_time_eval takes it); full flows keep their paths'. */
static void merged_params(tm__tflows *t, const tm__tmsg *msg, const int64_t *mult,
                          const int32_t *hops, const tm__tparams *p)
{
    if (hops)
        for (int64_t f = 0; f < t->n; f++)
            t->hops[f] = hops[f];
    tm__time_flow_params(t, msg, p, 0.0, true);
    for (int64_t f = 0; mult && f < t->n; f++) {
        double k = (double)mult[f];
        t->vol[f] *= k;
        t->weight[f] *= k;
        t->bound[f] *= k;
    }
}

/* A job's own tier-2 simulation (its merged flows on its hosts' links),
 * kept in its prep: the same in every tier-2 group it joins. */
static tm_err own_tier2(tm_ctx *ctx, const tm_route *route, const tm_time_job *job,
                        tm_time_prep *pr)
{
    const tm_net_csr *g = tm_net_csr_get(tm_route_net(route));
    tm__tflows t;
    int32_t *hops = NULL;
    bool full = false, sw;
    double end[1] = {0.0};
    tm_err err;
    if (pr->have_t2 && pr->t2_dil == job->max_dilation)
        return TM_EOK;
    if ((err = merged(ctx, pr)))
        return err;
    hops = tm__malloc_n((size_t)pr->an + 1, sizeof *hops);
    if (!hops || tm__tflows_alloc(&t, pr->an) < 0) {
        free(hops);
        tm__tflows_release(&t);
        return tm__nomem(ctx);
    }
    for (int64_t f = 0; f < pr->an; f++)
        hops[f] = job->max_dilation;
    err = tm__time_build(ctx, route, pr->amsg, &pr->p, &full, &t);
    if (!err && tm__tflows_compact(&t, g) < 0)
        err = tm__nomem(ctx);
    if (!err) {
        merged_params(&t, pr->amsg, pr->amult, hops, &pr->p);
        err = simulate(ctx, &t, false, NULL, end, &sw);
    }
    if (!err) {
        pr->t2 = (jsum){0, 0, 0};
        job_sums(&t, pr->amsg, NULL, pr->amult, &pr->t2);
        pr->t2_end = end[0];
        pr->t2_dil = job->max_dilation;
        pr->have_t2 = true;
    }
    tm__tflows_release(&t);
    free(hops);
    return err;
}

/* Whether two jobs of the group run on one host (then their tier-2 flows
 * meet on its links: one simulation for the group).  host_job: per vertex,
 * -1 (and again on return). */
static tm_err shares_hosts(tm_ctx *ctx, const group *gr, tm_time_prep **pr, int32_t *host_job,
                           int32_t nv, bool *shared)
{
    tm_err err = TM_EOK;
    *shared = false;
    for (int32_t i = 0; i < gr->n_jobs && !err; i++)
        err = hosts_of(ctx, pr[gr->jobs[i]], nv, host_job + nv);
    for (int32_t i = 0; i < gr->n_jobs && !err; i++) {
        const tm_time_prep *p = pr[gr->jobs[i]];
        for (int32_t k = 0; k < p->n_hosts; k++) {
            if (host_job[p->hosts[k]] >= 0)
                *shared = true;
            host_job[p->hosts[k]] = gr->jobs[i];
        }
    }
    for (int32_t i = 0; i < gr->n_jobs && !err; i++)
        for (int32_t k = 0; k < pr[gr->jobs[i]]->n_hosts; k++)
            host_job[pr[gr->jobs[i]]->hosts[k]] = -1;
    return err;
}

/* Scratch of the group runs: per job end times and sums, per link loads,
 * per vertex owners. */
typedef struct runs {
    double *end, *dense;
    jsum *sums;
    int32_t *host_job; /* 2 nv: per vertex its job (-1), then zero marks */
    int32_t nv;
} runs;

/* Tier 2 of a group of several jobs. */
static tm_err group_tier2(tm_ctx *ctx, const tm_route *route, const tm_time_job *jobs,
                          tm_time_prep **pr, group *gr, runs *rs, tm_time_shared *out)
{
    const tm_net_csr *g = tm_net_csr_get(tm_route_net(route));
    bool together, sw = false;
    tm_err err = shares_hosts(ctx, gr, pr, rs->host_job, rs->nv, &together);
    for (int32_t i = 0; i < gr->n_jobs && !err; i++)
        err = own_tier2(ctx, route, &jobs[gr->jobs[i]], pr[gr->jobs[i]]);
    if (!err && together) {
        /* jobs on one host: their host links are shared, one simulation */
        int32_t *hops = tm__malloc_n((size_t)gr->n + 1, sizeof *hops);
        bool full = false;
        if (!hops || tm__tflows_alloc(&gr->t, gr->n) < 0)
            err = tm__nomem(ctx);
        for (int64_t f = 0; !err && f < gr->n; f++)
            hops[f] = jobs[gr->mjob[f]].max_dilation;
        if (!err)
            err = tm__time_build(ctx, route, gr->msg, &pr[gr->jobs[0]]->p, &full, &gr->t);
        if (!err && tm__tflows_compact(&gr->t, g) < 0)
            err = tm__nomem(ctx);
        if (!err) {
            merged_params(&gr->t, gr->msg, gr->mult, hops, &pr[gr->jobs[0]]->p);
            for (int32_t i = 0; i < gr->n_jobs; i++)
                rs->end[gr->jobs[i]] = 0.0;
            err = simulate(ctx, &gr->t, false, gr->mjob, rs->end, &sw);
        }
        free(hops);
    }
    for (int32_t i = 0; i < gr->n_jobs; i++)
        for (int32_t k = 0; k < jobs[gr->jobs[i]].n_loads; k++)
            rs->dense[jobs[gr->jobs[i]].load_link[k]] += jobs[gr->jobs[i]].load_bytes[k];
    for (int32_t i = 0; !err && i < gr->n_jobs; i++) {
        int32_t j = gr->jobs[i];
        const tm_time_prep *p = pr[j];
        double sim = together ? rs->end[j] : p->t2_end;
        out[j].est_time_s = fmax(fmax(sim, approx_est(g, &jobs[j], rs->dense, &p->t2, &p->p)),
                                 p->intra);
        out[j].approximate = true;
        out[j].group = gr->jobs[0];
    }
    for (int32_t i = 0; i < gr->n_jobs; i++)
        for (int32_t k = 0; k < jobs[gr->jobs[i]].n_loads; k++)
            rs->dense[jobs[gr->jobs[i]].load_link[k]] = 0.0;
    /* each job alone under the same approximation */
    for (int32_t i = 0; !err && i < gr->n_jobs; i++) {
        int32_t j = gr->jobs[i];
        const tm_time_prep *p = pr[j];
        for (int32_t k = 0; k < jobs[j].n_loads; k++)
            rs->dense[jobs[j].load_link[k]] += jobs[j].load_bytes[k];
        out[j].alone_est_time_s =
            fmax(fmax(p->t2_end, approx_est(g, &jobs[j], rs->dense, &p->t2, &p->p)), p->intra);
        for (int32_t k = 0; k < jobs[j].n_loads; k++)
            rs->dense[jobs[j].load_link[k]] = 0.0;
    }
    return err;
}

/* ---- the last result of a group, kept in its leader's prep ------------------- */

typedef struct gkey {
    uint64_t hash, dil;
    int32_t job;
} gkey;

static int cmp_gkey(const void *a, const void *b)
{
    const gkey *x = a, *y = b;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    return (x->dil > y->dil) - (x->dil < y->dil);
}

/* The group's members sorted by (hash, dilation); the first is its leader. */
static gkey *group_key(const group *gr, const tm_time_job *jobs, tm_time_prep **pr)
{
    gkey *k = tm__malloc_n((size_t)gr->n_jobs, sizeof *k);
    if (!k)
        return NULL;
    for (int32_t i = 0; i < gr->n_jobs; i++)
        k[i] = (gkey){pr[gr->jobs[i]]->hash, (uint64_t)(uint32_t)jobs[gr->jobs[i]].max_dilation,
                      gr->jobs[i]};
    qsort(k, (size_t)gr->n_jobs, sizeof *k, cmp_gkey);
    return k;
}

/* The kept result when the leader's last group is this one (true). */
static bool cached_group(const gkey *k, int32_t n, tm_time_prep **pr, tm_time_shared *out)
{
    const tm_time_prep *lead = pr[k[0].job];
    if (lead->g_n != n)
        return false;
    for (int32_t i = 0; i < n; i++)
        if (lead->g_key[2 * i] != k[i].hash || lead->g_key[2 * i + 1] != k[i].dil)
            return false;
    int32_t gid = k[0].job;
    for (int32_t i = 1; i < n; i++) /* the group's id: its lowest job */
        gid = k[i].job < gid ? k[i].job : gid;
    for (int32_t i = 0; i < n; i++) {
        int32_t j = k[i].job;
        out[j].est_time_s = lead->g_est[i];
        out[j].approximate = lead->g_approx[i];
        out[j].alone_est_time_s = 0.0; /* exact: the caller's alone figure */
        out[j].group = gid;
    }
    return true;
}

static void keep_group(const gkey *k, int32_t n, tm_time_prep **pr, const tm_time_shared *out)
{
    tm_time_prep *lead = pr[k[0].job];
    uint64_t *key = tm__malloc_n((size_t)2 * (size_t)n, sizeof *key);
    double *est = tm__malloc_n((size_t)n, sizeof *est);
    bool *ap = tm__malloc_n((size_t)n, sizeof *ap);
    if (!key || !est || !ap) { /* no memory to keep it: computed again next time */
        free(key);
        free(est);
        free(ap);
        return;
    }
    for (int32_t i = 0; i < n; i++) {
        key[2 * i] = k[i].hash;
        key[2 * i + 1] = k[i].dil;
        est[i] = out[k[i].job].est_time_s;
        ap[i] = out[k[i].job].approximate;
    }
    free(lead->g_key);
    free(lead->g_est);
    free(lead->g_approx);
    lead->g_key = key, lead->g_est = est, lead->g_approx = ap, lead->g_n = n;
}

/* A job alone whose result its prep keeps. */
static void known_alone(const tm_time_prep *p, int32_t j, tm_time_shared *out)
{
    out[j].est_time_s = out[j].alone_est_time_s = p->alone_est;
    out[j].approximate = p->alone_approx;
    out[j].group = j;
}

/* A built group (one job, or several simulated exactly). */
static tm_err group_run(tm_ctx *ctx, const tm_route *route, const tm_time_job *jobs,
                        tm_time_prep **pr, group *gr, runs *rs, tm_time_shared *out,
                        int64_t exact_max)
{
    const tm_net_csr *g = tm_net_csr_get(tm_route_net(route));
    const tm__tparams *p = &pr[gr->jobs[0]]->p;
    bool one = gr->n_jobs == 1, sw = false;
    tm_err err;
    for (int32_t i = 0; i < gr->n_jobs; i++) {
        rs->end[gr->jobs[i]] = 0.0;
        rs->sums[gr->jobs[i]] = (jsum){0, 0, 0};
    }
    if (tm__tflows_compact(&gr->t, g) < 0)
        return tm__nomem(ctx);
    if (one)
        /* exactly tm_time_eval's flows: its hops (approximate: max dilation) */
        tm__time_flow_params(&gr->t, gr->msg, p, jobs[gr->jobs[0]].max_dilation, gr->full);
    else
        merged_params(&gr->t, gr->msg, gr->mult, NULL, p);
    err = simulate(ctx, &gr->t, gr->full, gr->mjob, rs->end, &sw);
    if (err)
        return err;
    if (!gr->full) { /* a job alone under tier 2: as tm_time_eval */
        job_sums(&gr->t, gr->msg, gr->mjob, NULL, rs->sums);
        for (int32_t k = 0; k < jobs[gr->jobs[0]].n_loads; k++)
            rs->dense[jobs[gr->jobs[0]].load_link[k]] += jobs[gr->jobs[0]].load_bytes[k];
    }
    for (int32_t i = 0; i < gr->n_jobs; i++) {
        int32_t j = gr->jobs[i];
        double est = rs->end[j];
        if (!gr->full)
            est = fmax(est, approx_est(g, &jobs[j], rs->dense, &rs->sums[j], p));
        out[j].est_time_s = fmax(est, pr[j]->intra);
        out[j].approximate = !gr->full || sw;
        out[j].group = gr->jobs[0];
        out[j].alone_est_time_s = one ? out[j].est_time_s : 0.0;
    }
    if (one) { /* kept: the job alone is the same in every set it is alone in */
        tm_time_prep *pj = pr[gr->jobs[0]];
        pj->have_alone = true;
        pj->alone_dil = jobs[gr->jobs[0]].max_dilation;
        pj->alone_exact_max = exact_max;
        pj->alone_est = out[gr->jobs[0]].est_time_s;
        pj->alone_approx = out[gr->jobs[0]].approximate;
    }
    if (!gr->full)
        for (int32_t k = 0; k < jobs[gr->jobs[0]].n_loads; k++)
            rs->dense[jobs[gr->jobs[0]].load_link[k]] = 0.0;
    return TM_EOK;
}

/* An exact group of several jobs: its kept result when it is the same
 * group again (the same messages, exactly the same figures), else run and
 * kept. */
static tm_err group_run_kept(tm_ctx *ctx, const tm_route *route, const tm_time_job *jobs,
                             tm_time_prep **pr, group *gr, runs *rs, tm_time_shared *out,
                             int64_t exact_max)
{
    gkey *k = group_key(gr, jobs, pr);
    tm_err err;
    if (k && cached_group(k, gr->n_jobs, pr, out)) {
        free(k);
        return TM_EOK;
    }
    err = group_run(ctx, route, jobs, pr, gr, rs, out, exact_max);
    if (!err && k)
        keep_group(k, gr->n_jobs, pr, out);
    free(k);
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
static tm_err build_groups(tm_ctx *ctx, const tm_route *route, const tm_time_job *jobs,
                           int32_t n, tm_time_prep **pr, const tm__tparams *p, int64_t exact_max,
                           int32_t *par, const int32_t *owner, group **gs, int32_t *ng)
{
    for (;;) {
        bool joined = false;
        tm_err err = make_groups(ctx, n, par, gs, ng);
        for (int32_t i = 0; !err && i < *ng; i++)
            err = group_build(ctx, route, pr, p, exact_max,
                              jobs[(*gs)[i].jobs[0]].max_dilation, &(*gs)[i]);
        for (int32_t i = 0; !err && i < *ng; i++)
            err = join_by_paths(ctx, &(*gs)[i], pr, par, owner, &joined);
        if (err || !joined)
            return err;
        groups_free(*gs, *ng);
        *gs = NULL;
    }
}

/* Whether the group holds a wanted job (want NULL: every one). */
static bool wanted(const group *g, const bool *want)
{
    for (int32_t i = 0; want && i < g->n_jobs; i++)
        if (want[g->jobs[i]])
            return true;
    return !want;
}

/* Every job's prep: its own, or one made here (tmp[j], freed by the caller). */
static tm_err preps(tm_ctx *ctx, const tm_time_job *jobs, int32_t n, const tm_time_opts *topt,
                    const tm__tparams *p, tm_time_prep **pr, tm_time_prep **tmp)
{
    for (int32_t j = 0; j < n; j++) {
        tm_err err;
        if (jobs[j].prep) {
            pr[j] = jobs[j].prep;
            if (pr[j]->p.smpi != p->smpi || pr[j]->p.lat_hop != p->lat_hop ||
                pr[j]->p.overhead != p->overhead || pr[j]->p.host_Bps != p->host_Bps)
                return tm__fail(ctx, TM_EUSAGE, "shared time: job %d was prepared with other "
                                "time options", j);
            continue;
        }
        if ((err = tm_time_prep_new(ctx, jobs[j].comm, jobs[j].map, topt, &tmp[j])))
            return err;
        pr[j] = tmp[j];
    }
    return TM_EOK;
}

tm_err tm_time_eval_shared(tm_ctx *ctx, const tm_route *route, const tm_time_job *jobs, int32_t n,
                           const tm_time_opts *topt, const bool *want, tm_time_shared *out)
{
    const tm_net_csr *g = tm_net_csr_get(tm_route_net(route));
    tm_time_opts dflt = TM_TIME_OPTS_INIT;
    tm__tparams p;
    tm_time_prep **pr = NULL, **tmp = NULL;
    group *gs = NULL;
    int32_t *par = NULL, *owner = NULL, ng = 0;
    runs rs = {0};
    tm_err err;

    if (!topt)
        topt = &dflt;
    if (topt->phases)
        return tm__fail(ctx, TM_EUSAGE, "shared time: the jobs' phases are not supported");
    if ((err = tm__time_params(ctx, topt, &p)))
        return err;
    pr = tm__calloc_n((size_t)n + 1, sizeof *pr);
    tmp = tm__calloc_n((size_t)n + 1, sizeof *tmp);
    par = tm__malloc_n((size_t)n + 1, sizeof *par);
    owner = tm__malloc_n((size_t)g->n_links + 1, sizeof *owner);
    rs.end = tm__calloc_n((size_t)n + 1, sizeof *rs.end);
    rs.sums = tm__calloc_n((size_t)n + 1, sizeof *rs.sums);
    rs.dense = tm__calloc_n((size_t)g->n_links + 1, sizeof *rs.dense);
    rs.host_job = tm__calloc_n(2 * (size_t)g->n + 1, sizeof *rs.host_job);
    rs.nv = g->n;
    if (!pr || !tmp || !par || !owner || !rs.end || !rs.sums || !rs.dense || !rs.host_job) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t l = 0; l < g->n_links; l++)
        owner[l] = -1;
    for (int32_t v = 0; v < g->n; v++)
        rs.host_job[v] = -1;
    for (int32_t j = 0; j < n; j++) {
        par[j] = j;
        memset(&out[j], 0, sizeof out[j]);
        out[j].group = -1; /* set when its group is simulated */
    }
    if ((err = preps(ctx, jobs, n, topt, &p, pr, tmp)))
        goto out;
    join_by_loads(jobs, n, par, owner);
    err = build_groups(ctx, route, jobs, n, pr, &p, topt->exact_max_flows, par, owner, &gs, &ng);
    for (int32_t i = 0; !err && i < ng; i++) {
        if (!wanted(&gs[i], want))
            ;
        else if (gs[i].built && gs[i].n_jobs > 1)
            err = group_run_kept(ctx, route, jobs, pr, &gs[i], &rs, out, topt->exact_max_flows);
        else if (gs[i].built)
            err = group_run(ctx, route, jobs, pr, &gs[i], &rs, out, topt->exact_max_flows);
        else if (gs[i].n_jobs == 1)
            known_alone(pr[gs[i].jobs[0]], gs[i].jobs[0], out);
        else
            err = group_tier2(ctx, route, jobs, pr, &gs[i], &rs, out);
        group_release(&gs[i]); /* the peak holds one group's flows */
    }
out:
    groups_free(gs, ng);
    for (int32_t j = 0; tmp && j < n; j++)
        tm_time_prep_free(tmp[j]);
    free(pr);
    free(tmp);
    free(par);
    free(owner);
    free(rs.end);
    free(rs.sums);
    free(rs.dense);
    free(rs.host_job);
    return err;
}
