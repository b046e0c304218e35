/* qap_skeleton.c - `skeleton`: grow on the job's heavy edges.
 *
 * A real trace is a few weight classes: a 3D code's faces, then its edge
 * and corner neighbours (LULESH: 54x and 2,000x lighter), then the
 * collectives, traced as a few bytes from rank 0 to every rank.  The light
 * classes hide the geometry from the constructions: grow's structural key
 * counts common neighbours, and with 26 neighbours and rank 0 beside
 * everyone no placement looks like a grid, so on LULESH 1,000 renumbered
 * every construction ended 2.1-2.3 hops a byte from the 1.03 of the job's
 * own order (issue 42).  The skeleton is the edges of at least
 * SKELETON_RATIO of the heaviest weight at one endpoint (tm__sgraph_heavy:
 * by weight only, so it is the same whatever the numbering); grow rebuilds
 * it as it rebuilds a stencil, and the refinements that follow work on the
 * whole job.  A job without light classes (an SpMV of METIS parts keeps
 * 88 % of its edges) is its own skeleton: then the construction does not
 * exist in the default pipeline (*out empty) and is grow when named. */
#include <stdlib.h>
#include <string.h>

#include "qap_int.h"

/* An edge of the skeleton weighs at least this share of the heaviest at
 * the lighter of its endpoints: the classes of ../shared/data/commmatrix/
 * are 1 (faces), 1e-2 to 5e-2 (edges), 5e-4 (corners), 1e-5 to 1e-9
 * (collectives); the faces of a subdomain twice as long as wide (0.5)
 * stay. */
#define SKELETON_RATIO 0.1
/* A skeleton that keeps more of the job's edges than this is the job. */
#define SKELETON_MAX_KEPT 0.75

/* The job's skeleton into *out; *is_job when it keeps too much of the job
 * to be a skeleton (then *out is empty). */
static tm_err skeleton_of(tm_ctx *ctx, const tm_comm *c, tm_comm *out, bool *is_job)
{
    tm__heavy_share kept;
    tm_err err = tm__comm_heavy(ctx, c, SKELETON_RATIO, out, &kept);
    *is_job = err || kept.edges > SKELETON_MAX_KEPT;
    if (!err && *is_job)
        tm_comm_release(out);
    return err;
}

tm_err tm__skeleton_starts(tm_ctx *ctx, const tm_problem *p, uint64_t seed, int first, int count,
                           tm_mapping *out)
{
    tm_problem q = *p;
    tm_comm sk;
    bool is_job;
    tm_err err;
    if (!p->net)
        return tm__fail(ctx, TM_EUSAGE, "strategy skeleton needs a network");
    if ((err = skeleton_of(ctx, p->comm, &sk, &is_job)) != TM_EOK || is_job)
        return err; /* *out stays empty: no skeleton */
    q.comm = &sk;
    err = tm__grow_starts(ctx, &q, seed, first, count, out);
    tm_comm_release(&sk);
    return err;
}

tm_err tm__strategy_skeleton(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out)
{
    tm_err err = tm__skeleton_starts(ctx, p, seed, 0, tm__grow_n_starts(p), out);
    if (!err && out->n == 0 && p->comm->n > 0)
        err = tm__strategy_grow(ctx, p, seed, out); /* the job is its own skeleton */
    return err;
}
