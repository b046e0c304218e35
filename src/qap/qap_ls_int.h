/* qap_ls_int.h - the swap local-search state shared by qap_ls.c (nc, np,
 * n2) and qap_ils.c (iterated local search).  Not installed. */
#ifndef TM_QAP_LS_INT_H
#define TM_QAP_LS_INT_H

#include "qap_int.h"

typedef struct ls {
    const tm__sgraph *g;
    tm__qdist o;
    int32_t *pe;
    double *load; /* per PE; NULL when one-to-one */
    double bound;
    double j;
    double t_end; /* < 0: no limit */
    const tm_ctx *ctx; /* its stop predicate ends the search early (NULL: none) */
    double *c;      /* c[u] = sum over N(u) of w * dist(pe u, pe x) (VieM's
                     * per-vertex contributions), or NULL */
} ls;

/* Exact change of J if u and v exchanged PEs (no contributions used). */
double tm__ls_swap_delta(const ls *L, int32_t u, int32_t v);
/* Swaps u and v if that lowers J and keeps the balance; 1 if done. */
int tm__ls_try_swap(ls *L, int32_t u, int32_t v);
/* Exchanges the PEs of u and v, updating loads and contributions (not J). */
void tm__ls_apply_swap(ls *L, int32_t u, int32_t v);
/* Time limit reached or the caller asked to stop (tm_ctx_set_stop). */
bool tm__ls_out_of_time(const ls *L);
tm_err tm__ls_run_nc(tm_ctx *ctx, ls *L, int depth, tm__rng *r);
tm_err tm__ls_run_ils(tm_ctx *ctx, ls *L, int depth, tm__rng *r);

#endif
