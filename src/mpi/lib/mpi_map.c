/* mpi_map.c - rank 0's part of a reordering: the gathered job becomes a
 * topomap problem (network, allocation = the hosts the processes run on,
 * communication graph = the gathered edges), tm_map_run maps it, and the
 * result is turned into "process that owns vertex v".
 *
 * The baseline is the placement without reordering (vertex v on old rank
 * v's process).  The mapping is kept only when it is at least as good on
 * congestion and better on (congestion, dilation, J) in that order: the
 * reported mapped congestion is never above the baseline's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "topomap/topomap.h"
#include "mpi_int.h"
#include "mpi_map_int.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static tm_err fail_host(tm_ctx *ctx, const tm__mpi_job *job, int p)
{
    return tm_ctx_fail(ctx, TM_EINPUT, "rank %d runs on host '%s', which is not a host of the "
                       "topology", p, job->hosts + (size_t)p * TM__MPI_HOSTLEN);
}

/* Allocation = distinct hosts in order of first rank; slots = processes
 * there; procs[first[a]..first[a+1]) = the old ranks on host a, ascending. */
static tm_err build_alloc(tm_ctx *ctx, const tm__mpi_job *job, tm__mpi_state *s)
{
    int P = job->P;
    int32_t nv = tm_net_n_vertices(s->net), *aof = malloc((size_t)nv * sizeof *aof), *fill;
    tm_err err = TM_EOK;
    s->aof = aof;
    s->hv = malloc((size_t)P * sizeof *s->hv);
    s->procs = malloc((size_t)P * sizeof *s->procs);
    s->first = calloc((size_t)P + 1, sizeof *s->first);
    s->alloc.host = malloc((size_t)P * sizeof *s->alloc.host);
    s->alloc.slots = calloc((size_t)P, sizeof *s->alloc.slots);
    if (!aof || !s->hv || !s->procs || !s->first || !s->alloc.host || !s->alloc.slots) {
        err = tm_ctx_fail(ctx, TM_ENOMEM, "out of memory for %d processes", P);
        goto cleanup;
    }
    for (int32_t v = 0; v < nv; v++)
        aof[v] = -1;
    for (int p = 0; p < P; p++) {
        int32_t v = tm_alloc_resolve_host(s->net, job->hosts + (size_t)p * TM__MPI_HOSTLEN);
        if (v < 0 || tm_net_kind(s->net, v) != TM_VERTEX_HOST) {
            err = fail_host(ctx, job, p);
            goto cleanup;
        }
        if (aof[v] < 0) {
            aof[v] = s->alloc.n;
            s->alloc.host[s->alloc.n++] = v;
        }
        s->hv[p] = aof[v];
        s->alloc.slots[aof[v]]++;
    }
    for (int32_t a = 0; a < s->alloc.n; a++)
        s->first[a + 1] = s->first[a] + s->alloc.slots[a];
    fill = malloc((size_t)(s->alloc.n + 1) * sizeof *fill);
    if (!fill) {
        err = tm_ctx_fail(ctx, TM_ENOMEM, "out of memory for %d processes", P);
        goto cleanup;
    }
    for (int32_t a = 0; a < s->alloc.n; a++)
        fill[a] = s->first[a];
    for (int p = 0; p < P; p++)
        s->procs[fill[s->hv[p]]++] = p;
    free(fill);
cleanup:
    return err;
}

/* The node hierarchy of TOPOMAP_NODE_HIERARCHY/_DISTANCES or TOPOMAP_HWLOC
 * (none given: per-host placement, s->hier unused). */
static tm_err load_hier(tm_ctx *ctx, const tm__mpi_cfg *cfg, tm__mpi_state *s)
{
    FILE *f;
    tm_err err;
    if (cfg->node_hierarchy && cfg->hwloc)
        return tm_ctx_fail(ctx, TM_EUSAGE, "TOPOMAP_NODE_HIERARCHY and TOPOMAP_HWLOC exclude "
                                           "each other");
    if (cfg->node_hierarchy && !cfg->node_distances)
        return tm_ctx_fail(ctx, TM_EUSAGE, "TOPOMAP_NODE_HIERARCHY=%s needs "
                           "TOPOMAP_NODE_DISTANCES", cfg->node_hierarchy);
    if (cfg->node_hierarchy)
        return tm_hier_parse(ctx, cfg->node_hierarchy, cfg->node_distances, &s->hier);
    f = fopen(cfg->hwloc, "r");
    if (!f)
        return tm_ctx_fail(ctx, TM_EINPUT, "TOPOMAP_HWLOC=%s: cannot open", cfg->hwloc);
    err = tm_hier_from_hwloc(ctx, f, cfg->hwloc, &s->hier);
    fclose(f);
    return err;
}

/* Core-level placement needs every process bound to its own core and the
 * cores of each host to be exactly 0..k-1 (k processes there) inside the
 * node hierarchy: the mapper's slot s of a host is node PE s, and an
 * allocation has no holes.  Then procs[first[a] + c] = the process on core
 * c of host a.  Otherwise false with the reason in s->why. */
static bool order_by_core(const tm__mpi_job *job, tm__mpi_state *s, int32_t *by)
{
    for (int p = 0; p < job->P; p++)
        by[p] = -1;
    for (int p = 0; p < job->P; p++) {
        int c = job->cores[p], a = s->hv[p];
        const char *h = job->hosts + (size_t)p * TM__MPI_HOSTLEN;
        if (c < 0)
            snprintf(s->why, sizeof s->why, "rank %d is not bound to one core", p);
        else if (c >= s->hier.n_pe)
            snprintf(s->why, sizeof s->why, "rank %d is on core %d, beyond the node "
                     "hierarchy's %lld cores", p, c, (long long)s->hier.n_pe);
        else if (c >= s->alloc.slots[a])
            snprintf(s->why, sizeof s->why, "the cores of host %.64s are not 0..%d (rank %d on "
                     "core %d)", h, s->alloc.slots[a] - 1, p, c);
        else if (by[s->first[a] + c] >= 0)
            snprintf(s->why, sizeof s->why, "ranks %d and %d share core %d of host %.64s",
                     by[s->first[a] + c], p, c, h);
        else {
            by[s->first[a] + c] = p;
            continue;
        }
        return false;
    }
    memcpy(s->procs, by, (size_t)job->P * sizeof *by);
    return true;
}

static tm_err use_cores(tm_ctx *ctx, const tm__mpi_cfg *cfg, const tm__mpi_job *job,
                        tm__mpi_state *s)
{
    int32_t *by;
    tm_err err;
    if (!cfg->node_hierarchy && !cfg->hwloc)
        return TM_EOK;
    err = load_hier(ctx, cfg, s);
    if (err)
        return err;
    by = malloc((size_t)job->P * sizeof *by);
    if (!by)
        return tm_ctx_fail(ctx, TM_ENOMEM, "out of memory for %d processes", job->P);
    s->core_level = order_by_core(job, s, by);
    free(by);
    return TM_EOK;
}

/* Vertex v on old rank v's process (slot = its index among its host's
 * processes: its core with core-level placement). */
static tm_err baseline(tm_ctx *ctx, const tm__mpi_job *job, tm__mpi_state *s)
{
    tm_err err = tm_mapping_alloc(ctx, &s->cur, job->nnodes, false);
    for (int v = 0; !err && v < job->nnodes; v++) {
        int32_t a = s->hv[v], k = s->first[a];
        while (s->procs[k] != v)
            k++;
        s->cur.host[v] = s->alloc.host[a];
        s->cur.slot[v] = k - s->first[a];
    }
    return err;
}

static tm_err load(tm_ctx *ctx, const tm__mpi_cfg *cfg, const tm__mpi_job *job, tm__mpi_state *s)
{
    tm_topo_opts o = TM_TOPO_OPTS_INIT;
    int32_t *src = malloc((size_t)(job->m + 1) * sizeof *src);
    int32_t *dst = malloc((size_t)(job->m + 1) * sizeof *dst);
    tm_err err = src && dst ? TM_EOK : tm_ctx_fail(ctx, TM_ENOMEM, "out of memory for the graph");
    for (int64_t e = 0; !err && e < job->m; e++)
        src[e] = job->pair[2 * e], dst[e] = job->pair[2 * e + 1];
    if (!err)
        err = tm_comm_from_entries(ctx, job->nnodes, job->m, src, dst, job->w, &s->comm);
    free(src);
    free(dst);
    if (!err)
        err = tm_topology_load(ctx, cfg->topology, &o, &s->net);
    if (!err)
        err = tm_route_new(ctx, s->net, TM_ROUTE_ECMP, &s->route);
    if (!err)
        err = build_alloc(ctx, job, s);
    if (!err)
        err = use_cores(ctx, cfg, job, s);
    if (!err)
        err = baseline(ctx, job, s);
    return err;
}

/* Strictly better in (congestion, dilation, J) order, never worse on
 * congestion (relative tolerance for equal sums in another order). */
static bool better(const tm_metrics *m, const tm_metrics *c)
{
    const double f[3][2] = {{m->max_congestion, c->max_congestion},
                            {m->avg_dilation, c->avg_dilation}, {m->qap_J, c->qap_J}};
    for (int k = 0; k < 3; k++) {
        double tol = 1e-9 * (f[k][1] > 0 ? f[k][1] : 1);
        if (f[k][0] < f[k][1] - tol)
            return true;
        if (f[k][0] > f[k][1] + tol)
            return false;
    }
    return false;
}

/* Maps with this searcher's (strategy, refine, seed) of the schedule;
 * with core-level placement the node hierarchy enters J, which the
 * refinements and the (congestion, dilation, J) comparison use. */
static tm_err map_and_eval(tm_ctx *ctx, const tm__mpi_cfg *cfg, tm__mpi_state *s)
{
    tm_problem p = {0};
    tm_metrics_opts mo = TM_METRICS_OPTS_INIT;
    tm_err err = tm_ctx_set_threads(ctx, cfg->threads);
    p.net = s->net;
    p.route = s->route;
    p.alloc = &s->alloc;
    p.comm = &s->comm;
    p.imbalance = -1;
    p.hier = s->core_level ? &s->hier : NULL;
    mo.node_hier = p.hier;
    tm_ctx_set_seed(ctx, (uint64_t)s->run.seed);
    if (!err)
        err = tm_ctx_set_time_limit(ctx, cfg->time_limit);
    if (!err)
        err = tm_ctx_set_effort(ctx, cfg->effort);
    if (!err)
        err = tm_map_run(ctx, &p, s->run.strategy, s->run.refine[0] ? s->run.refine : NULL,
                         TM_OBJ_CONGESTION, &s->res);
    if (!err)
        err = tm_metrics_eval(ctx, s->route, &s->comm, &s->cur, &mo, &s->mc);
    if (!err)
        err = tm_metrics_eval(ctx, s->route, &s->comm, &s->res.mapping, &mo, &s->mm);
    return err;
}

/* owner[v] from the mapping (host, slot) -> the slot-th process there. */
static void owners(const tm__mpi_job *job, const tm__mpi_state *s, const tm_mapping *m,
                   int *owner, bool *identity)
{
    *identity = true;
    for (int v = 0; v < job->nnodes; v++) {
        int32_t a = s->aof[m->host[v]]; /* the mapping uses allocated hosts only */
        owner[v] = s->procs[s->first[a] + m->slot[v]];
        if (owner[v] != v)
            *identity = false;
    }
}

static void state_release(tm__mpi_state *s)
{
    tm_metrics_release(&s->mc);
    tm_metrics_release(&s->mm);
    tm_map_result_release(&s->res);
    tm_mapping_release(&s->cur);
    tm_comm_release(&s->comm);
    tm_alloc_release(&s->alloc);
    tm_route_free(s->route);
    tm_net_free(s->net);
    free(s->aof);
    free(s->hv);
    free(s->procs);
    free(s->first);
}

static void pick_local(const tm__mpi_state *s, tm__mpi_pick *pick)
{
    const tm_metrics *a = s->applied ? &s->mm : &s->mc;
    pick->applied = s->applied;
    pick->mapped[0] = a->max_congestion, pick->mapped[1] = a->avg_dilation;
    pick->mapped[2] = a->qap_J;
    pick->found[0] = s->mm.max_congestion, pick->found[1] = s->mm.avg_dilation;
    pick->found[2] = s->mm.qap_J;
    snprintf(pick->best, sizeof pick->best, "%s", s->res.rows[s->res.best].name);
    pick->winner = 0;
    pick->searchers = 1;
}

/* Loads, maps and evaluates; 0 with the local pick and owner[], or the
 * error of ctx. */
static tm_err map_local(tm_ctx *ctx, const tm__mpi_cfg *cfg, const tm__mpi_job *job,
                        tm__mpi_state *s, int *owner, tm__mpi_pick *pick, bool *loaded)
{
    bool identity;
    tm_err e = load(ctx, cfg, job, s);
    if (!e)
        e = map_and_eval(ctx, cfg, s);
    *loaded = e == TM_EOK;
    if (e)
        return e;
    s->applied = better(&s->mm, &s->mc);
    owners(job, s, s->applied ? &s->res.mapping : &s->cur, owner, &identity);
    pick_local(s, pick);
    return TM_EOK;
}

static void state_init(tm__mpi_state *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->why, sizeof s->why, "not asked");
    tm_alloc_init(&s->alloc);
    tm_comm_init(&s->comm);
    tm_mapping_init(&s->cur);
    tm_map_result_init(&s->res);
    tm_metrics_init(&s->mc);
    tm_metrics_init(&s->mm);
    s->t0 = now_s();
}

int tm__mpi_map(const tm__mpi_cfg *cfg, const tm__mpi_job *job, MPI_Comm search, int *owner,
                bool *identity, char *err, size_t errlen)
{
    tm__mpi_state s;
    tm__mpi_pick pick;
    tm_ctx *ctx = NULL;
    bool loaded = false, ok;
    int rc = -1, me = 0, k = 1;
    state_init(&s);
    memset(&pick, 0, sizeof pick);
    snprintf(err, errlen, "out of memory");
    if (search != MPI_COMM_NULL)
        MPI_Comm_rank(search, &me);
    if (search != MPI_COMM_NULL)
        MPI_Comm_size(search, &k);
    tm__mpi_schedule(cfg, me, k, &s.run);
    ok = tm_ctx_new(&ctx) == TM_EOK;
    if (ok) {
        ok = map_local(ctx, cfg, job, &s, owner, &pick, &loaded) == TM_EOK;
        if (!ok)
            snprintf(err, errlen, "%s", tm_ctx_errmsg(ctx));
    }
    if (loaded && me == 0 && !s.core_level && (cfg->node_hierarchy || cfg->hwloc))
        fprintf(stderr, "topomap: note: core-level placement not used (%s): ranks placed per "
                        "host\n", s.why);
    if (search != MPI_COMM_NULL && tm__mpi_search_pick(search, job, ok, owner, &pick) == 0)
        ok = true;
    /* rank 0's report needs its own net, allocation and baseline */
    if (ok && loaded) {
        *identity = true;
        for (int v = 0; v < job->nnodes; v++)
            *identity = *identity && owner[v] == v;
        s.time_s = now_s() - s.t0;
        tm__mpi_report(cfg, job, &s, owner, *identity, &pick);
        rc = 0;
    } else {
        tm__mpi_report_error(cfg, job, err);
    }
    state_release(&s);
    tm_ctx_free(ctx);
    return rc;
}
