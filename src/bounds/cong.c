/* cong.c - lower bounds on the max congestion (docs/bounds.md
 * "Congestion").
 *
 * Every unit of traffic from a task on a host inside a vertex set X to a
 * task on a host outside crosses a link leaving X, whatever the routing
 * (a path is a walk of links), so the busiest link leaving X carries at
 * least (volume out of X) / (capacity out of X), and likewise into X.  The
 * volumes are bounded below by the task graph's cut bounds (phi.c) for the
 * numbers of tasks X can hold:
 *  - a partition (the hosts, the groups of a level): the tasks spread over
 *    its groups, k_g <= cap_g, sum k_g = n, and the max congestion is at
 *    least max_g need_g(k_g); so it is at least the least M for which the
 *    groups can hold n tasks with need_g(k_g) <= M each ("balancing");
 *  - the host that holds task u holds at most cap - 1 others: at least
 *    need_u over the hosts ("task-centric", the injection bound of the
 *    heaviest task);
 *  - a grid slab whose side must hold between lo and hi tasks. */
#include <math.h>
#include <stdlib.h>

#include "bounds_int.h"
#include "../util/util.h"

/* Groups larger than this are scanned only over their top WINDOW task
 * counts (a valid relaxation: a smaller count is taken as possible). */
#define WINDOW 4096
/* Work limit of the task-centric bound (tasks x host capacities). */
#define TASK_WORK 30000000LL

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct pclass {
    const tm__ngroup *g;
    int64_t lo;       /* the window: counts lo..cap */
    double *need;     /* need[k - lo] */
} pclass;

/* The most tasks class c may hold with need <= M (an upper bound on it:
 * below its window every count is taken as possible). */
static int64_t maxk(const pclass *c, double M)
{
    for (int64_t k = c->g->cap; k >= c->lo; k--)
        if (c->need[k - c->lo] <= M)
            return k;
    return c->lo > 0 ? c->lo - 1 : 0;
}

static bool holds(const pclass *pc, int n, double M, int64_t tasks)
{
    int64_t sum = 0;
    for (int i = 0; i < n && sum < tasks; i++)
        sum += pc[i].g->mult * maxk(&pc[i], M);
    return sum >= tasks;
}

/* The balancing bound of partition P (0 without memory). */
static double balance(const tm__tcut *t, const tm__npart *P)
{
    pclass *pc = calloc((size_t)P->n + 1, sizeof *pc);
    double *cand = NULL, res = 0;
    int64_t nc = 0, total = 0;
    if (!pc)
        return 0.0;
    for (int i = 0; i < P->n; i++)
        total += P->g[i].cap - (P->g[i].cap > WINDOW ? P->g[i].cap - WINDOW : 0) + 1;
    cand = malloc(((size_t)total + 1) * sizeof *cand);
    if (!cand)
        goto out;
    for (int i = 0; i < P->n; i++) {
        const tm__ngroup *g = &P->g[i];
        pc[i].g = g;
        pc[i].lo = g->cap > WINDOW ? g->cap - WINDOW : 0;
        pc[i].need = malloc(((size_t)(g->cap - pc[i].lo) + 1) * sizeof(double));
        if (!pc[i].need)
            goto out;
        for (int64_t k = pc[i].lo; k <= g->cap; k++) {
            double v = tm__phi_need(t, k, g->cout, g->cin);
            pc[i].need[k - pc[i].lo] = v;
            if (isfinite(v))
                cand[nc++] = v;
        }
    }
    qsort(cand, (size_t)nc, sizeof *cand, cmp_dbl);
    /* the least candidate at which the groups hold every task (none: the
     * capacities cannot hold the job, which a feasible mapping refutes, so
     * nothing is claimed) */
    if (nc > 0 && holds(pc, P->n, cand[nc - 1], t->n)) {
        int64_t lo = 0, hi = nc - 1;
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            if (holds(pc, P->n, cand[mid], t->n))
                hi = mid;
            else
                lo = mid + 1;
        }
        res = cand[lo];
    }
out:
    for (int i = 0; pc && i < P->n; i++)
        free(pc[i].need);
    free(pc);
    free(cand);
    return res;
}

/* need_u: task u's set (the host that holds it) on a cut of out / in
 * capacity cout / cin. */
static double need_u(const tm__tcut *t, int32_t u, int64_t k, double cout, double cin)
{
    double o = tm__phi_u(t, TM__OUT, u, k), i = tm__phi_u(t, TM__IN, u, k);
    double s = tm__phi_u(t, TM__SYM, u, k), v = 0;
    v = o > 0 ? (cout > 0 ? o / cout : INFINITY) : 0;
    if (i > 0)
        v = fmax(v, cin > 0 ? i / cin : INFINITY);
    if (s > 0)
        v = fmax(v, cout + cin > 0 ? s / (cout + cin) : INFINITY);
    return v;
}

static int cmp_task(const void *a, const void *b, void *ud)
{
    const tm__tcut *t = ud;
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    double dx = t->deg[TM__OUT][x] + t->deg[TM__IN][x], dy = t->deg[TM__OUT][y] + t->deg[TM__IN][y];
    return dx != dy ? (dx < dy) - (dx > dy) : (x > y) - (x < y);
}

/* The task-centric bound over the host classes of P: the host holding u
 * holds k <= cap tasks with u among them.  Within the work limit, the
 * tasks with the most volume first. */
static double task_centric(const tm__tcut *t, const tm__npart *P)
{
    int64_t per = 0, ntask;
    int32_t *ord;
    double best = 0;
    for (int i = 0; i < P->n; i++)
        per += P->g[i].cap;
    if (per < 1)
        return 0.0;
    ntask = TASK_WORK / per;
    if (ntask > t->n)
        ntask = t->n;
    if (ntask < 1)
        ntask = 1;
    ord = malloc(((size_t)t->n + 1) * sizeof *ord);
    if (!ord)
        return 0.0;
    for (int32_t u = 0; u < t->n; u++)
        ord[u] = u;
    if (ntask < t->n)
        qsort_r(ord, (size_t)t->n, sizeof *ord, cmp_task, (void *)t);
    for (int64_t j = 0; j < ntask; j++) {
        int32_t u = ord[j];
        double worst = INFINITY; /* u's best host: the least need over classes and counts */
        for (int i = 0; i < P->n && worst > best; i++)
            for (int64_t k = 1; k <= P->g[i].cap && worst > best; k++) {
                double v = need_u(t, u, k, P->g[i].cout, P->g[i].cin);
                worst = v < worst ? v : worst;
            }
        if (isfinite(worst) && worst > best)
            best = worst;
    }
    free(ord);
    return best;
}

void tm__cong_bounds(const tm__tcut *t, const tm__ncut *nc, double out[TM__M_N])
{
    for (int m = 0; m < TM__M_N; m++)
        out[m] = NAN;
    out[TM__M_INJECTION] = fmax(balance(t, &nc->part[0]), task_centric(t, &nc->part[0]));
    for (int i = 1; i < nc->nparts; i++) {
        double b = balance(t, &nc->part[i]);
        out[TM__M_LEVELS] = isnan(out[TM__M_LEVELS]) ? b : fmax(out[TM__M_LEVELS], b);
    }
    if (nc->set) {
        double b = 0;
        for (int64_t i = 0; i < nc->nsets; i++) {
            const tm__nset *s = &nc->set[i];
            if (s->lo >= 1)
                b = fmax(b, tm__phi_need_min(t, s->lo, s->hi, s->cout, s->cin));
        }
        out[TM__M_SLABS] = b;
    }
}
