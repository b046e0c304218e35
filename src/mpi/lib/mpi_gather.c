/* mpi_gather.c - the collective part of a reordering: every process sends
 * its host and its edge list to rank 0 (MPI_Gather + MPI_Gatherv: O(P + E)
 * memory on rank 0, never P x P), rank 0 maps, and every process learns
 * its new rank and where its vertex lists go (MPI_Scatter).
 *
 * Every failure is turned into "keep the old ranks", decided on rank 0 and
 * broadcast, so that all processes always make the same collective calls. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_int.h"

/* One process's contribution to the first gather: its host name, or the
 * reason it has none (m < 0), and its core (-1: not asked, or not bound). */
typedef struct rec {
    char host[TM__MPI_HOSTLEN];
    long long m;
    int core;
} rec;

typedef struct gather {
    rec *recs;
    int *cnt2, *disp2, *cnt1, *disp1;
    int *owner;   /* nnodes: the mapping's owner of every vertex */
    tm__mpi_job job;
    char *cfgb;   /* searchers: rank 0's configuration (tm__mpi_cfg_pack) */
} gather;

static void gather_free(gather *g)
{
    free(g->recs);
    free(g->cnt2);
    free(g->disp2);
    free(g->cnt1);
    free(g->disp1);
    free(g->owner);
    free(g->job.hosts);
    free(g->job.pair);
    free(g->job.w);
    free(g->job.cores);
    free(g->cfgb);
    memset(g, 0, sizeof *g);
}

/* Rank 0, after the first gather: checks every record, sizes the edge
 * gather.  Returns 1 to go on, 0 (warned) to keep the old ranks. */
static int root_check(gather *g, int P)
{
    long long total = 0;
    for (int p = 0; p < P; p++) {
        if (g->recs[p].m < 0) {
            g->recs[p].host[TM__MPI_HOSTLEN - 1] = '\0';
            tm__mpi_warn(0, "rank %d: %s; ranks not reordered", p, g->recs[p].host);
            return 0;
        }
        total += g->recs[p].m;
    }
    if (total > INT_MAX / 2) {
        tm__mpi_warn(0, "%lld edges: more than MPI_Gatherv can count; ranks not reordered", total);
        return 0;
    }
    g->cnt2 = malloc((size_t)P * sizeof *g->cnt2);
    g->disp2 = malloc((size_t)P * sizeof *g->disp2);
    g->cnt1 = malloc((size_t)P * sizeof *g->cnt1);
    g->disp1 = malloc((size_t)P * sizeof *g->disp1);
    g->job.pair = malloc((size_t)(2 * total + 1) * sizeof *g->job.pair);
    g->job.w = malloc((size_t)(total + 1) * sizeof *g->job.w);
    g->job.hosts = malloc((size_t)P * TM__MPI_HOSTLEN);
    g->job.cores = malloc((size_t)P * sizeof *g->job.cores);
    if (!g->cnt2 || !g->disp2 || !g->cnt1 || !g->disp1 || !g->job.pair || !g->job.w ||
        !g->job.hosts || !g->job.cores) {
        tm__mpi_warn(0, "out of memory gathering %lld edges; ranks not reordered", total);
        return 0;
    }
    for (int p = 0, off = 0; p < P; off += (int)g->recs[p].m, p++) {
        g->cnt1[p] = (int)g->recs[p].m;
        g->disp1[p] = off;
        g->cnt2[p] = 2 * g->cnt1[p];
        g->disp2[p] = 2 * off;
        memcpy(g->job.hosts + (size_t)p * TM__MPI_HOSTLEN, g->recs[p].host, TM__MPI_HOSTLEN);
        g->job.cores[p] = g->recs[p].core;
    }
    g->job.m = total;
    return 1;
}

/* This process's record: host, edge count, core (when asked). */
static void own_rec(bool cores, const tm__mpi_edges *mine, rec *r)
{
    r->core = -1;
    if (mine->m < 0) {
        snprintf(r->host, sizeof r->host, "no edge list (a negative degree, or out of memory)");
        r->m = -1;
    } else if (tm__mpi_host(r->host, r->host, sizeof r->host) < 0 ||
               (cores && tm__mpi_core(&r->core, r->host, sizeof r->host) < 0)) {
        r->m = -1;
    } else {
        r->m = mine->m;
    }
}

/* First round: hosts, cores and edge counts.  Returns 1 (every rank) to
 * go on. */
static int gather_hosts(MPI_Comm comm, int rank, int P, bool cores, const tm__mpi_edges *mine,
                        gather *g)
{
    rec r;
    int ok = 1;
    memset(&r, 0, sizeof r);
    if (rank == 0) {
        g->recs = malloc((size_t)P * sizeof *g->recs);
        ok = g->recs != NULL;
        if (!ok)
            tm__mpi_warn(0, "out of memory for %d host names; ranks not reordered", P);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
    if (!ok)
        return 0;
    own_rec(cores, mine, &r);
    MPI_Gather(&r, (int)sizeof r, MPI_BYTE, g->recs, (int)sizeof r, MPI_BYTE, 0, comm);
    if (rank == 0)
        ok = root_check(g, P);
    MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
    return ok;
}

/* Search across ranks: ranks 0..K-1 get a communicator, rank 0's
 * configuration (the searchers never read their own environment) and its
 * job (hosts, cores and edges), one MPI_Bcast each.  MPI_COMM_NULL on the
 * others, or for everyone when K = 1 or a searcher is out of memory. */
static MPI_Comm search_comm(MPI_Comm comm, int rank, const tm__mpi_cfg *cfg, gather *g, int ok)
{
    MPI_Comm s = MPI_COMM_NULL;
    int k = cfg->search < g->job.P ? cfg->search : g->job.P, all;
    size_t blen = 0;
    long long m[2] = {g->job.m, 0};
    if (k <= 1)
        return MPI_COMM_NULL;
    MPI_Comm_split(comm, rank < k ? 0 : MPI_UNDEFINED, rank, &s);
    if (s == MPI_COMM_NULL)
        return s;
    if (rank == 0) {
        g->cfgb = tm__mpi_cfg_pack(cfg, &blen);
        ok = ok && g->cfgb;
        m[1] = (long long)blen;
    }
    MPI_Bcast(m, 2, MPI_LONG_LONG, 0, s);
    if (rank != 0) {
        g->job.m = m[0];
        g->job.hosts = malloc((size_t)g->job.P * TM__MPI_HOSTLEN);
        g->job.cores = malloc((size_t)g->job.P * sizeof *g->job.cores);
        g->job.pair = malloc((size_t)(2 * m[0] + 1) * sizeof *g->job.pair);
        g->job.w = malloc((size_t)(m[0] + 1) * sizeof *g->job.w);
        g->owner = malloc((size_t)(g->job.nnodes + 1) * sizeof *g->owner);
        g->cfgb = malloc((size_t)m[1] + 1);
        ok = g->job.hosts && g->job.cores && g->job.pair && g->job.w && g->owner && g->cfgb;
    }
    /* every searcher must be able to take part to the end, or none does */
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, s);
    if (!all) {
        MPI_Comm_free(&s);
        return MPI_COMM_NULL;
    }
    MPI_Bcast(g->cfgb, (int)m[1], MPI_BYTE, 0, s);
    MPI_Bcast(g->job.hosts, g->job.P * TM__MPI_HOSTLEN, MPI_CHAR, 0, s);
    MPI_Bcast(g->job.cores, g->job.P, MPI_INT, 0, s);
    MPI_Bcast(g->job.pair, (int)(2 * m[0]), MPI_INT, 0, s);
    MPI_Bcast(g->job.w, (int)m[0], MPI_DOUBLE, 0, s);
    return s;
}

/* A searcher other than rank 0: maps its entry of the schedule with rank
 * 0's configuration, takes part in the choice; rank 0 decides what
 * happens. */
static void searcher(MPI_Comm search, gather *g)
{
    tm__mpi_cfg cfg;
    bool identity;
    char err[256];
    tm__mpi_cfg_unpack(g->cfgb, &cfg);
    cfg.report = NULL;
    tm__mpi_map(&cfg, &g->job, search, g->owner, &identity, err, sizeof err);
}

/* Rank 0: maps and fills the (key, owner_of_mine) pair of every process.
 * Returns 1 when ranks change, 0 otherwise. */
static int root_plan(const tm__mpi_cfg *cfg, gather *g, int *pairs, MPI_Comm search)
{
    int P = g->job.P, n = g->job.nnodes, rc = 0, *owner = g->owner;
    bool identity = false;
    char err[1024];
    if (!owner || !pairs) {
        tm__mpi_warn(0, "out of memory; ranks not reordered");
        return 0;
    }
    if (tm__mpi_map(cfg, &g->job, search, owner, &identity, err, sizeof err) < 0) {
        tm__mpi_warn(0, "%s; ranks not reordered", err);
    } else if (!identity) {
        /* processes that own no vertex (Cartesian grids smaller than the
         * communicator) keep their order after the owners */
        for (int p = 0; p < P; p++)
            pairs[2 * p] = n + p, pairs[2 * p + 1] = p;
        for (int v = 0; v < n; v++) {
            pairs[2 * owner[v]] = v;
            pairs[2 * v + 1] = owner[v];
        }
        rc = 1;
    }
    return rc;
}

void tm__mpi_plan_make(MPI_Comm comm, const tm__mpi_cfg *cfg, const tm__mpi_edges *mine,
                       int nnodes, const char *call, tm__mpi_plan *plan)
{
    gather g;
    int rank, P, go = 0, mine_pair[2], *pairs = NULL;
    MPI_Comm search;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &P);
    memset(&g, 0, sizeof g);
    plan->reorder = false;
    plan->key = rank;
    plan->owner_of_mine = rank;
    g.job.P = P;
    g.job.nnodes = nnodes;
    g.job.call = call;
    if (!gather_hosts(comm, rank, P, cfg->cores, mine, &g))
        goto cleanup;
    MPI_Gatherv(mine->pair, (int)(2 * mine->m), MPI_INT, g.job.pair, g.cnt2, g.disp2, MPI_INT, 0,
                comm);
    MPI_Gatherv(mine->w, (int)mine->m, MPI_DOUBLE, g.job.w, g.cnt1, g.disp1, MPI_DOUBLE, 0, comm);
    if (rank == 0) {
        pairs = malloc((size_t)P * 2 * sizeof *pairs);
        g.owner = malloc((size_t)(nnodes + 1) * sizeof *g.owner);
    }
    search = search_comm(comm, rank, cfg, &g, rank != 0 || (pairs && g.owner));
    if (rank == 0) {
        go = root_plan(cfg, &g, pairs, search);
    } else if (search != MPI_COMM_NULL) {
        searcher(search, &g);
    }
    if (search != MPI_COMM_NULL)
        MPI_Comm_free(&search);
    MPI_Bcast(&go, 1, MPI_INT, 0, comm);
    if (!go)
        goto cleanup;
    MPI_Scatter(pairs, 2, MPI_INT, mine_pair, 2, MPI_INT, 0, comm);
    plan->reorder = true;
    plan->key = mine_pair[0];
    plan->owner_of_mine = mine_pair[1];
cleanup:
    free(pairs);
    gather_free(&g);
}

int tm__mpi_split(MPI_Comm comm, const tm__mpi_plan *plan, MPI_Comm *out)
{
    return MPI_Comm_split(comm, 0, plan->key, out);
}

int tm__mpi_finish(MPI_Comm comm_old, const tm__mpi_cfg *cfg, tm__mpi_edges *mine, int nnodes,
                   const char *call, tm__mpi_create_fn create, void *arg)
{
    tm__mpi_plan plan;
    MPI_Comm newc;
    int rc;
    tm__mpi_plan_make(comm_old, cfg, mine, nnodes, call, &plan);
    free(mine->pair);
    free(mine->w);
    memset(mine, 0, sizeof *mine);
    if (!plan.reorder)
        return create(comm_old, arg);
    rc = tm__mpi_split(comm_old, &plan, &newc);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = create(newc, arg);
    MPI_Comm_free(&newc);
    return rc;
}
