/* qap_dist.c - the distance oracle of the QAP algorithms (their task
 * graph is src/graph/sgraph.h). */

#include <math.h>

#include "qap_int.h"

double tm__hier_dmin(const tm_hier *h)
{
    double m = INFINITY;
    for (int i = 0; i < h->k; i++)
        if (h->a[i] >= 2 && h->d[i] < m)
            m = h->d[i];
    return m;
}

void tm__qdist_init(tm__qdist *o, const tm_hier *h)
{
    int bits[TM_HIER_MAX_LEVELS + 1];
    o->h = h;
    o->d_min = tm__hier_dmin(h);
    o->net = NULL;
    o->gc = NULL;
    o->n_pe = h->n_pe;
    o->group1 = h->group[1];
    o->pow2 = true;
    bits[0] = 0;
    for (int i = 0; i < h->k; i++) {
        int32_t a = h->a[i];
        if (a & (a - 1)) {
            o->pow2 = false;
            return;
        }
        bits[i + 1] = bits[i] + __builtin_ctz((unsigned)a);
    }
    /* highest differing bit b: same group at level i iff b < bits[i] */
    for (int b = 0; b < 64; b++) {
        o->bitd[b] = h->d[h->k - 1];
        for (int i = 1; i <= h->k; i++)
            if (b < bits[i]) {
                o->bitd[b] = h->d[i - 1];
                break;
            }
    }
}
