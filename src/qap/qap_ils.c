/* qap_ils.c - iterated local search on J (refiner ils:D): N_C^D first,
 * then kicks with local repair and undo (see the comment below). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qap_ls_int.h"

/* Iterated local search (ils:D): after nc:D converged, repeat a kick
 * (swap a random task with a random task at most two hops away, even if
 * J grows) followed by a local repair (improving swaps of the touched
 * tasks with their neighbours, spreading while it finds some); keep the
 * result if J dropped, else undo the logged swaps.  n * ILS_KICKS kicks,
 * or until the time limit. */
#define ILS_KICKS 16

typedef struct swaplog { int32_t *u, *v; size_t n, cap; } swaplog;

static int log_swap(swaplog *lg, int32_t u, int32_t v)
{
    size_t c = lg->cap;
    if (tm__grow((void **)&lg->u, &c, lg->n + 1, sizeof *lg->u) < 0)
        return -1;
    if (tm__grow((void **)&lg->v, &lg->cap, lg->n + 1, sizeof *lg->v) < 0)
        return -1;
    lg->u[lg->n] = u;
    lg->v[lg->n++] = v;
    return 0;
}

static void force_swap(ls *L, int32_t u, int32_t v)
{
    L->j += tm__ls_swap_delta(L, u, v);
    tm__ls_apply_swap(L, u, v);
}

static bool load_ok(const ls *L, int32_t u, int32_t v)
{
    double du;
    if (!L->load)
        return true;
    du = L->g->vw[v] - L->g->vw[u];
    return du == 0 || (L->load[L->pe[u]] + du <= L->bound * (1 + 1e-12) &&
                       L->load[L->pe[v]] - du <= L->bound * (1 + 1e-12));
}

tm_err tm__ls_run_ils(tm_ctx *ctx, ls *L, int depth, tm__rng *r)
{
    const tm__sgraph *g = L->g;
    int32_t n = g->n, *queue = NULL;
    uint32_t *inq = NULL, stamp = 0;
    swaplog lg = {0};
    int64_t kicks = (int64_t)n * ILS_KICKS;
    tm_err err = tm__ls_run_nc(ctx, L, depth, r);
    if (err || n < 3)
        return err;
    queue = tm__malloc_n((size_t)n, sizeof *queue);
    inq = tm__calloc_n((size_t)n, sizeof *inq);
    if (!queue || !inq) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int64_t it = 0; it < kicks || L->t_end >= 0; it++) {
        int32_t u = (int32_t)tm__rng_below(r, (uint64_t)n), x, v, qh = 0, qt = 0;
        double j0 = L->j;
        if ((it & 63) == 0 && tm__ls_out_of_time(L))
            break;
        if (L->t_end >= 0 && it >= kicks * 64)
            break;
        if (g->xadj[u] == g->xadj[u + 1])
            continue;
        x = g->adj[g->xadj[u] + (int64_t)tm__rng_below(r, (uint64_t)(g->xadj[u + 1] - g->xadj[u]))];
        v = g->adj[g->xadj[x] + (int64_t)tm__rng_below(r, (uint64_t)(g->xadj[x + 1] - g->xadj[x]))];
        if (v == u || L->pe[u] == L->pe[v] || !load_ok(L, u, v))
            continue;
        lg.n = 0;
        force_swap(L, u, v);
        if (log_swap(&lg, u, v) < 0) {
            err = tm__nomem(ctx);
            goto out;
        }
        if (++stamp == 0) {
            memset(inq, 0, (size_t)n * sizeof *inq);
            stamp = 1;
        }
        queue[qt++] = u;
        queue[qt++] = v;
        inq[u] = inq[v] = stamp;
        while (qh < qt) {
            int32_t a = queue[qh++];
            for (int64_t e = g->xadj[a]; e < g->xadj[a + 1]; e++) {
                int32_t b = g->adj[e];
                for (int64_t f = g->xadj[b]; f <= g->xadj[b + 1]; f++) {
                    /* partners: b itself and b's neighbours (two hops) */
                    int32_t c = f == g->xadj[b + 1] ? b : g->adj[f];
                    if (c == a || !tm__ls_try_swap(L, a, c))
                        continue;
                    if (log_swap(&lg, a, c) < 0) {
                        err = tm__nomem(ctx);
                        goto out;
                    }
                    if (inq[c] != stamp && qt < n) {
                        inq[c] = stamp;
                        queue[qt++] = c;
                    }
                }
            }
        }
        if (!(L->j < j0 - 1e-9 * (1.0 + fabs(j0) * 1e-6))) {
            for (size_t i = lg.n; i-- > 0;)
                force_swap(L, lg.u[i], lg.v[i]);
            L->j = j0; /* exact value before the kick */
        }
    }
out:
    free(queue);
    free(inq);
    free(lg.u);
    free(lg.v);
    return err;
}

