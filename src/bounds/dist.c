/* dist.c - lower bounds on the sum of volume x hops (so on the average
 * dilation and the network J) and on the hierarchy J (docs/bounds.md
 * "Dilation and J").
 *
 * No route is shorter than the least hop distance, so every bound here
 * counts least distances and holds for every routing (valiant and ugal
 * travel further; a multi-rail part goes from host to host too):
 *  - profile (Gilmore-Lawler's cheap form): the partners of task u occupy
 *    distinct task positions other than u's, at most N(r) - 1 of them
 *    within r hops (the ball profile, ncut.c), so the i-th largest volume
 *    of u travels at least prof[i - 1] hops;
 *  - levels: a hop distance is at least a sum of cut indicators with
 *    nonnegative coefficients (different hosts: mu_host; different groups
 *    of a level: the increase of the least distance there), and the volume
 *    a partition into parts of at most c tasks cuts is bounded by phi.c;
 *  - slabs: on a grid the distance is exactly a sum of slab indicators
 *    (the thresholds of a line; on a ring of L, half the arcs of L/2
 *    planes that separate the two ends), each bounded by phi.c for the
 *    numbers of tasks the slab can hold. */
#include <math.h>
#include <stdlib.h>

#include "bounds_int.h"
#include "../util/util.h"

static double gl3(const tm__tcut *t, const double *prof, int32_t np)
{
    double o = tm__tcut_gl(t, TM__OUT, prof, np), i = tm__tcut_gl(t, TM__IN, prof, np);
    double s = tm__tcut_gl(t, TM__SYM, prof, np) / 2; /* each message from both ends */
    return fmax(fmax(o, i), s);
}

void tm__dist_sum_bounds(const tm__tcut *t, const tm__ncut *nc, double out[TM__M_N])
{
    double lv = 0;
    for (int m = 0; m < TM__M_N; m++)
        out[m] = NAN;
    if (nc->prof)
        out[TM__M_PROFILE] = gl3(t, nc->prof, nc->nprof);
    for (int i = 0; i < nc->nparts; i++)
        if (nc->part[i].coef > 0)
            lv += nc->part[i].coef * tm__phi_part(t, nc->part[i].maxcap);
    out[TM__M_LEVELS] = lv;
    if (nc->set) {
        double s = 0;
        for (int64_t i = 0; i < nc->nsets; i++)
            if (nc->set[i].coef > 0)
                s += nc->set[i].coef * tm__phi_sym_min(t, nc->set[i].lo, nc->set[i].hi);
        out[TM__M_SLABS] = s;
    }
}

/* d'_i = min over j >= i of d_j: nondecreasing and never above d, so the
 * level decomposition below has nonnegative coefficients and stays below
 * the true distance when the given distances are not increasing. */
static void envelope(const tm_hier *h, double *dp)
{
    double m = INFINITY;
    for (int i = h->k - 1; i >= 0; i--) {
        m = h->d[i] < m ? h->d[i] : m;
        dp[i] = m;
    }
}

/* sum_i (d'_i - d'_{i-1}) x (volume between groups of group[i-1] PEs),
 * the groups holding at most cap_of(group[i-1]) tasks. */
static double level_sum(const tm__tcut *t, const tm_hier *h, int64_t max_pes, int64_t per_pe)
{
    double dp[TM_HIER_MAX_LEVELS], prev = 0, sum = 0;
    envelope(h, dp);
    for (int i = 0; i < h->k; i++) {
        int64_t pes = h->group[i] < max_pes ? h->group[i] : max_pes;
        if (dp[i] > prev)
            sum += (dp[i] - prev) * tm__phi_part(t, pes * per_pe);
        prev = dp[i] > prev ? dp[i] : prev;
    }
    return sum;
}

double tm__dist_node_J(const tm__tcut *t, const tm_hier *h, int32_t max_slots,
                       int32_t tasks_per_slot)
{
    /* a message between tasks on different hosts costs d_top = d_k =
     * the sum of every level's increase: all the indicators are 1 */
    return level_sum(t, h, max_slots, tasks_per_slot);
}

typedef struct pblock {
    double d;
    int64_t count;
} pblock;

static int cmp_block(const void *a, const void *b)
{
    const pblock *x = a, *y = b;
    return (x->d > y->d) - (x->d < y->d);
}

tm_err tm__dist_hier_J(tm_ctx *ctx, const tm__tcut *t, const tm_hier *h, int32_t tasks_per_pe,
                       double out[TM__M_N])
{
    pblock blk[TM_HIER_MAX_LEVELS + 1];
    int nb = 0;
    int32_t np = t->maxlen;
    double *prof;
    for (int m = 0; m < TM__M_N; m++)
        out[m] = NAN;
    out[TM__M_LEVELS] = level_sum(t, h, h->n_pe, tasks_per_pe);
    if (np <= 0) {
        out[TM__M_PROFILE] = 0;
        return TM_EOK;
    }
    /* the positions around a PE (every PE alike): the other tasks of its
     * own PE at 0, then the PEs of each level at that level's distance */
    blk[nb++] = (pblock){0.0, (int64_t)tasks_per_pe - 1};
    for (int i = 1; i <= h->k; i++)
        blk[nb++] = (pblock){h->d[i - 1], (h->group[i] - h->group[i - 1]) * (int64_t)tasks_per_pe};
    qsort(blk, (size_t)nb, sizeof *blk, cmp_block);
    prof = tm__malloc_n((size_t)np, sizeof *prof);
    if (!prof)
        return tm__nomem(ctx);
    for (int32_t i = 0, b = 0; i < np; i++) {
        while (b < nb - 1 && blk[b].count <= 0)
            b++;
        prof[i] = blk[b].d;
        blk[b].count--;
    }
    out[TM__M_PROFILE] = gl3(t, prof, np);
    free(prof);
    return TM_EOK;
}
