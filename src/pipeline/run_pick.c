/* run_pick.c - choosing among the rows of tm_map_run: the objective's
 * keys, dominance, the chosen row, and the baseline (the consecutive
 * placement) evaluated like every row, reusing a row's figures when its
 * mapping is the same. */
#include <stdlib.h>
#include <string.h>

#include "run_int.h"
#include "../util/util.h"

/* Objective keys in priority order (pareto ranks by congestion first
 * among the rows it keeps; time: the estimated time, then congestion,
 * dilation and J, the figures it is made of). */
#define NKEYS 4
static void keys(const tm_metrics *m, tm_objective obj, double k[NKEYS])
{
    double c = m->max_congestion, d = m->avg_dilation, j = m->qap_J;
    if (obj == TM_OBJ_TIME) {
        k[0] = m->est_time_s, k[1] = c, k[2] = d, k[3] = j;
        return;
    }
    k[0] = obj == TM_OBJ_DILATION ? d : obj == TM_OBJ_QAP ? j : c;
    k[1] = obj == TM_OBJ_CONGESTION || obj == TM_OBJ_PARETO ? d : c;
    k[2] = obj == TM_OBJ_QAP ? d : j;
    k[3] = 0;
}

static int cmp_key(double a, double b)
{
    double tol = 1e-12 * (b > 1 ? b : 1);
    return a < b - tol ? -1 : a > b + tol ? 1 : 0;
}

bool tm__run_better(const tm_metrics *a, const tm_metrics *b, tm_objective obj)
{
    double ka[NKEYS], kb[NKEYS];
    keys(a, obj, ka);
    keys(b, obj, kb);
    for (int i = 0; i < NKEYS; i++) {
        int c = cmp_key(ka[i], kb[i]);
        if (c)
            return c < 0;
    }
    return false;
}

/* a dominates b: no worse on congestion, dilation and J (and, for the
 * time objective, the estimated time), better on one. */
bool tm__run_dominates(const tm_metrics *a, const tm_metrics *b, tm_objective obj)
{
    int c0 = cmp_key(a->max_congestion, b->max_congestion);
    int c1 = cmp_key(a->avg_dilation, b->avg_dilation);
    int c2 = cmp_key(a->qap_J, b->qap_J);
    int c3 = obj == TM_OBJ_TIME ? cmp_key(a->est_time_s, b->est_time_s) : 0;
    return c0 <= 0 && c1 <= 0 && c2 <= 0 && c3 <= 0 && (c0 < 0 || c1 < 0 || c2 < 0 || c3 < 0);
}

/* est_time_s of a not predicted faster than b's by more than the time
 * model's error (TM_TIME_GAIN_TOLERANCE): slower, as fast, or faster by a
 * margin the estimate cannot vouch for. */
bool tm__run_no_clear_gain(const tm_metrics *a, const tm_metrics *b)
{
    return cmp_key(a->est_time_s * (1 + TM_TIME_GAIN_TOLERANCE), b->est_time_s) >= 0;
}

/* The chosen row.  congestion / dilation / qap / time: lexicographic (the
 * other figures break ties, then row order), which never picks a dominated
 * row.  pareto: among the rows no other row dominates, the one whose worse
 * ratio to the best congestion and the best dilation of all rows is
 * smallest (the point nearest the ideal in the Chebyshev sense, so
 * neither objective is given away for the other), ties lexicographic. */
int32_t tm__run_pick(tm_map_row *rows, int32_t n, tm_objective obj)
{
    double cmin = 0, dmin = 0;
    for (int32_t i = 0; i < n; i++) {
        const tm_metrics *m = rows[i].metrics;
        if (i == 0 || m->max_congestion < cmin)
            cmin = m->max_congestion;
        if (i == 0 || m->avg_dilation < dmin)
            dmin = m->avg_dilation;
    }
    return tm__run_pick_ideal(rows, n, obj, cmin, dmin);
}

double tm__run_ideal_score(const tm_metrics *m, double cmin, double dmin)
{
    double rc = cmin > 0 ? m->max_congestion / cmin : 1, rd = dmin > 0 ? m->avg_dilation / dmin : 1;
    return rc > rd ? rc : rd;
}

bool tm__run_ideal_beats(const tm_metrics *m, double s, const tm_metrics *best, double best_s,
                         tm_objective obj)
{
    return cmp_key(s, best_s) < 0 || (cmp_key(s, best_s) == 0 && tm__run_better(m, best, obj));
}

int32_t tm__run_pick_ideal(tm_map_row *rows, int32_t n, tm_objective obj, double cmin,
                           double dmin)
{
    double best_s = 0;
    int32_t best = -1;
    if (obj != TM_OBJ_PARETO) {
        for (int32_t i = 0; i < n; i++)
            if (best < 0 || tm__run_better(rows[i].metrics, rows[best].metrics, obj))
                best = i;
        return best;
    }
    for (int32_t i = 0; i < n; i++) {
        const tm_metrics *m = rows[i].metrics;
        double sc = tm__run_ideal_score(m, cmin, dmin);
        bool dominated = false;
        for (int32_t k = 0; k < n && !dominated; k++)
            dominated = k != i && tm__run_dominates(rows[k].metrics, m, obj);
        if (dominated)
            continue;
        if (best < 0 || tm__run_ideal_beats(m, sc, rows[best].metrics, best_s, obj)) {
            best = i;
            best_s = sc;
        }
    }
    return best;
}

bool tm__run_same_mapping(const tm_mapping *a, const tm_mapping *b)
{
    size_t n = (size_t)a->n;
    if (a->n != b->n)
        return false;
    if (a->pe || b->pe)
        return a->pe && b->pe && memcmp(a->pe, b->pe, n * sizeof *a->pe) == 0;
    return a->host && b->host && memcmp(a->host, b->host, n * sizeof *a->host) == 0 &&
           memcmp(a->slot, b->slot, n * sizeof *a->slot) == 0;
}

/* The exact metrics of a job whose final mapping is m, if there is one:
 * evaluating the same mapping again gives the same figures (evaluation is
 * deterministic), and on a big network it is most of what `identity`
 * costs. */
static bool reuse_row(const tm__runner *rn, const tm_mapping *m, tm_metrics *out)
{
    for (int i = 0; i < rn->nj; i++) {
        const tm__run_job *j = &rn->jobs[i];
        if (!j->skipped && !j->err && j->met && !j->met->link_load &&
            tm__run_same_mapping(&j->m, m)) {
            *out = *j->met;
            return true;
        }
    }
    return false;
}

/* The consecutive placement (network mode) or identity PE mapping
 * (hierarchy mode, when it exists), evaluated like every row: the
 * baseline every result is compared with. */
tm_err tm__run_baseline(tm_ctx *ctx, const tm_problem *p, const tm__runner *rn, tm_map_result *out)
{
    tm_mapping m;
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    tm_err err;
    tm_mapping_init(&m);
    out->consecutive = calloc(1, sizeof *out->consecutive);
    if (!out->consecutive)
        return tm__nomem(ctx);
    tm_metrics_init(out->consecutive);
    if (p->net) {
        o.node_hier = p->hier;
        o.hop_distance = p->hop_distance;
        o.time = p->time;
        if (rn->gen)
            err = tm_mapping_blocks(ctx, p->alloc, rn->full->n, &m);
        else
            err = tm_mapping_consecutive(ctx, p->alloc, p->comm->n, &m);
        if (!err && !reuse_row(rn, &m, out->consecutive))
            err = tm_metrics_eval(ctx, p->route, rn->gen ? rn->full : p->comm, &m, &o,
                                  out->consecutive);
    } else if (p->comm->n <= p->hier->n_pe) {
        err = tm_mapping_alloc(ctx, &m, p->comm->n, true);
        for (int32_t u = 0; !err && u < m.n; u++)
            m.pe[u] = u;
        if (!err && !reuse_row(rn, &m, out->consecutive))
            err = tm_metrics_eval_hier(ctx, p->hier, p->comm, &m, out->consecutive);
    } else {
        free(out->consecutive); /* many tasks per PE: no identity placement */
        out->consecutive = NULL;
        err = TM_EOK;
    }
    tm_mapping_release(&m);
    return err;
}
