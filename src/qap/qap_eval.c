/* qap_eval.c - the hierarchy-mode objective J of docs/design.md: the sum over
 * directed entries (u -> v, w) of G of w * dist(pe[u], pe[v]).  Used by the
 * strategies and tests to cross-check the fast incremental gains. */
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
