/* qap_eval.c - the hierarchy-mode objective J of docs/design.md: the sum over
 * directed entries (u -> v, w) of G of w * dist(pe[u], pe[v]).  Used by the
 * strategies and tests to cross-check the fast incremental gains. */
#include <math.h>

#include "qap_int.h"

double tm__qap_eval(const tm_comm *c, const tm_hier *h, const int32_t *pe)
{
    double j = 0.0;
    for (int32_t u = 0; u < c->n; u++)
        for (int64_t i = c->xadj[u]; i < c->xadj[u + 1]; i++)
            j += c->w[i] * tm_hier_dist(h, pe[u], pe[c->adj[i]]);
    return j;
}

double tm__qap_eval_sym(const tm__sgraph *g, const tm__qdist *o, const int32_t *pe)
{
    double j = 0.0;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t i = g->xadj[u]; i < g->xadj[u + 1]; i++)
            j += g->w[i] * tm__qd(o, pe[u], pe[g->adj[i]]);
    return 0.5 * j;
}

bool tm__qap_at_lower_bound(const tm__sgraph *g, const tm__qdist *o, const int32_t *pe,
                            const double *c)
{
    for (int32_t u = 0; u < g->n; u++) {
        double lb = 0.0, cu = 0.0;
        for (int64_t i = g->xadj[u]; i < g->xadj[u + 1]; i++) {
            lb += g->w[i];
            if (!c)
                cu += g->w[i] * tm__qd(o, pe[u], pe[g->adj[i]]);
        }
        lb *= o->d_min;
        if (c)
            cu = c[u];
        /* both ways: a distance below d_min (an unreachable pair) is no
         * certificate */
        if (!(fabs(cu - lb) <= 1e-12 * fabs(lb)))
            return false;
    }
    return true;
}
