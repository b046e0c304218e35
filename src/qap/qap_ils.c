/* qap_ils.c - the kicks of iterated local search on J (refiner ils:D):
 * N_C^D first, then kicks with local repair and undo (see the comment
 * below); the run: qap_ls_run.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qap_ls_int.h"

/* Iterated local search (ils:D): after nc:D converged, repeat a kick
 * (swap a random task with a random task at most two hops away, even if
 * J grows) followed by a local repair (improving swaps of the touched
 * tasks with their neighbours, spreading while it finds some); keep the
 * result if J dropped, else restore the state exactly (tm__ls_undo).
 * n * TM__ILS_KICKS kicks, or until the time limit.  Without a time
 * limit the kicks end early when the first n * TM__ILS_PROBE of them keep
 * nothing: a local optimum that resists kicks at every task (four times on
 * average) is taken as stable.  The answer is then the same as after the
 * full budget unless a kick after the probe would have been the first one
 * kept.  Measured: on the QAP bench the first kept kick comes within n / 2
 * kicks or never; on the same-results network cases within 2.01 n (grow
 * on PERCS; 2 n lost it) or never; on a 3D stencil on a fat-tree
 * (issue 28) never, where the 16 n kicks cost as much as the rest of the
 * refinement.  With a team the
 * kicks run in qap_lspar.c, with the same result. */

tm_err tm__ls_kick_init(tm_ctx *ctx, tm__ls_kick_log *k, int32_t n)
{
    memset(k, 0, sizeof *k);
    k->queue = tm__malloc_n((size_t)(n > 0 ? n : 1), sizeof *k->queue);
    k->inq = tm__calloc_n((size_t)(n > 0 ? n : 1), sizeof *k->inq);
    k->seen = tm__calloc_n((size_t)(n > 0 ? n : 1), sizeof *k->seen);
    if (!k->queue || !k->inq || !k->seen) {
        tm__ls_kick_free(k);
        return tm__nomem(ctx);
    }
    return TM_EOK;
}

void tm__ls_kick_free(tm__ls_kick_log *k)
{
    free(k->queue), free(k->inq), free(k->seen), free(k->su), free(k->sv), free(k->sd);
    memset(k, 0, sizeof *k);
}

int tm__ls_swaps_reserve(int32_t **u, int32_t **v, double **d, size_t *cap, size_t need)
{
    size_t cu = *cap, cv = *cap, cd = *cap;
    int rc = tm__grow((void **)u, &cu, need, sizeof **u) < 0 ||
             tm__grow((void **)v, &cv, need, sizeof **v) < 0 ||
             (d && tm__grow((void **)d, &cd, need, sizeof **d) < 0) ? -1 : 0;
    if (rc == 0) /* all grew alike from the same capacity */
        *cap = cu;
    return rc;
}

static int log_swap(tm__ls_kick_log *k, int32_t u, int32_t v, double d)
{
    if (tm__ls_swaps_reserve(&k->su, &k->sv, &k->sd, &k->cap, k->ns + 1) < 0)
        return -1;
    k->su[k->ns] = u;
    k->sv[k->ns] = v;
    k->sd[k->ns++] = d;
    return 0;
}

static void enqueue(tm__ls_kick_log *k, int32_t n, int32_t x)
{
    if (k->inq[x] != k->stamp && k->qt < n) {
        k->inq[x] = k->stamp;
        k->queue[k->qt++] = x;
    }
}

/* A fresh stamp for k->seen: nothing tried yet on the current state. */
static uint32_t next_tried(tm__ls_kick_log *k, int32_t n)
{
    if (++k->tried == 0) {
        memset(k->seen, 0, (size_t)n * sizeof *k->seen);
        k->tried = 1;
    }
    return k->tried;
}

int tm__ls_kick(tm__ls *L, tm__ls_kick_log *k, int32_t u, int32_t v)
{
    const tm__sgraph *sg = L->sg;
    int32_t n = sg->n, qh = 0;
    double d = tm__ls_swap_delta(L, u, v);
    k->ns = 0;
    k->qt = 0;
    L->j += d;
    tm__ls_apply_swap(L, u, v);
    if (log_swap(k, u, v, d) < 0)
        return -1;
    if (++k->stamp == 0) {
        memset(k->inq, 0, (size_t)n * sizeof *k->inq);
        k->stamp = 1;
    }
    enqueue(k, n, u);
    enqueue(k, n, v);
    while (qh < k->qt) {
        int32_t a = k->queue[qh++];
        uint32_t tried = next_tried(k, n);
        for (int64_t e = sg->xadj[a]; e < sg->xadj[a + 1]; e++) {
            int32_t b = sg->adj[e];
            for (int64_t f = sg->xadj[b]; f <= sg->xadj[b + 1]; f++) {
                /* partners: b itself and b's neighbours (two hops on the
                 * search graph); one reached again through another b is
                 * skipped until a swap changes the state (its gain would
                 * be the same: none) */
                int32_t c = f == sg->xadj[b + 1] ? b : sg->adj[f];
                if (c == a || k->seen[c] == tried)
                    continue;
                k->seen[c] = tried;
                if (!tm__ls_gain(L, a, c, &d))
                    continue;
                tm__ls_apply_swap(L, a, c);
                L->j += d;
                if (log_swap(k, a, c, d) < 0)
                    return -1;
                enqueue(k, n, c);
                tried = next_tried(k, n);
            }
        }
    }
    return 0;
}

bool tm__ls_kick_keeps(const tm__ls_kick_log *k, double j0)
{
    double j = j0;
    for (size_t i = 0; i < k->ns; i++)
        j += k->sd[i];
    return j < j0 - 1e-9 * (1.0 + fabs(j0) * 1e-6);
}

void tm__ls_kick_undo(tm__ls *L, tm__ls_undo *ul, const tm__ls_kick_log *k)
{
    tm__ls_undo_apply(ul);
    for (size_t i = k->ns; i-- > 0;) { /* each swap is its own inverse */
        int32_t t = L->pe[k->su[i]];
        L->pe[k->su[i]] = L->pe[k->sv[i]];
        L->pe[k->sv[i]] = t;
    }
}

int tm__ls_kick_run(tm__ls *L, tm__ls_kick_log *k, tm__ls_undo *ul, int32_t u, int32_t v,
                    bool *kept)
{
    double j0 = L->j;
    bool nomem;
    *kept = false;
    ul->n = 0;
    L->ul = ul;
    nomem = tm__ls_kick(L, k, u, v) < 0 || ul->nomem;
    L->ul = NULL;
    if (nomem)
        return -1;
    if ((*kept = tm__ls_kick_keeps(k, j0)))
        return 0;
    tm__ls_kick_undo(L, ul, k);
    L->j = j0; /* exact value before the kick */
    return 0;
}

bool tm__ls_kick_draw(const tm__sgraph *g, tm__rng *r, int32_t *u, int32_t *v)
{
    int32_t x;
    *u = (int32_t)tm__rng_below(r, (uint64_t)g->n);
    if (g->xadj[*u] == g->xadj[*u + 1])
        return false;
    x = g->adj[g->xadj[*u] + (int64_t)tm__rng_below(r, (uint64_t)(g->xadj[*u + 1] - g->xadj[*u]))];
    *v = g->adj[g->xadj[x] + (int64_t)tm__rng_below(r, (uint64_t)(g->xadj[x + 1] - g->xadj[x]))];
    return true;
}

bool tm__ls_kicks_futile(const tm__ls *L, int64_t it, bool kept)
{
    return !kept && L->t_end < 0 && it >= (int64_t)L->g->n * TM__ILS_PROBE;
}
