/*
 * time_sim.c - the fluid simulation of the time model (time_int.h,
 * docs/time.md "Exact").
 *
 * Rates: weighted max-min fairness by progressive filling.  Every
 * unfrozen flow f runs at weight(f) x lambda; lambda grows until a link is
 * full (sum of coef x rate = cap) or a flow meets its own bound; the flows
 * of a full link (or that flow) are frozen at their rate, and the others
 * go on.  The next level at which each link fills is kept in an indexed
 * heap, updated in place: one computation costs O(E log L) for the E
 * (flow, link) entries of the active flows on L links.
 *
 * Time: all flows of one exchange are in flight at once; between two
 * events (a flow starts after its latency, or one ends) rates are
 * constant, so the remaining bytes fall linearly.  A step freezes the
 * flows of one full link and then updates each changed link's level once
 * (not once per frozen flow: 10x fewer heap operations on a torus).
 * When the work exceeds the caller's bound, the rest runs in bounded
 * epochs (time_int.h, docs/time.md "Approximation").
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "time_int.h"
#include "../util/util.h"

#define DONE_TOL 1e-9 /* a flow with <= this fraction of its bytes left is done */

typedef struct hent {
    double key;
    int32_t id;   /* link, or -(flow index in act[] + 1) for a flow's bound */
} hent;

/* Scratch of the rate computation. */
typedef struct fillws {
    int32_t n_res;
    double *wsum, *used;   /* per resource */
    int32_t *cnt;          /* per resource: count, then the end of its list */
    int32_t *beg;          /* per resource: start of its list in lflow */
    int32_t *touched;      /* resources with entries */
    int32_t n_touched;
    int32_t *lflow;        /* CSR by link: index in act[] */
    bool *frozen;          /* per act[] index */
    int32_t n_frozen;
    int32_t *dirty;        /* links whose level changed in this freezing step */
    int32_t n_dirty;
    bool *is_dirty;        /* per resource */
    /* Indexed min-heap of fill levels: a link's level only grows as flows
     * freeze (the frozen flow ran at the current level, below the link's),
     * so it is updated in place and nothing stale is ever popped. */
    hent *heap;            /* room for every resource and flow */
    int32_t *pos;          /* per resource, then per act[] index: heap slot, -1 */
    size_t n_heap;
} fillws;

static size_t hidx(const fillws *w, int32_t id)
{
    return id >= 0 ? (size_t)id : (size_t)w->n_res + (size_t)(-id - 1);
}

static void hset(fillws *w, size_t i, hent e)
{
    w->heap[i] = e;
    w->pos[hidx(w, e.id)] = (int32_t)i;
}

static void sift_up(fillws *w, size_t i)
{
    hent e = w->heap[i];
    while (i > 0 && w->heap[(i - 1) / 2].key > e.key) {
        hset(w, i, w->heap[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    hset(w, i, e);
}

static void sift_down(fillws *w, size_t i)
{
    hent e = w->heap[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= w->n_heap)
            break;
        if (c + 1 < w->n_heap && w->heap[c + 1].key < w->heap[c].key)
            c++;
        if (w->heap[c].key >= e.key)
            break;
        hset(w, i, w->heap[c]);
        i = c;
    }
    hset(w, i, e);
}

static void heap_insert(fillws *w, double key, int32_t id)
{
    w->heap[w->n_heap++] = (hent){key, id};
    sift_up(w, w->n_heap - 1);
}

static void heap_update(fillws *w, size_t i, double key)
{
    int32_t id = w->heap[i].id;
    w->heap[i].key = key;
    sift_up(w, i);
    sift_down(w, (size_t)w->pos[hidx(w, id)]);
}

static void heap_remove_at(fillws *w, size_t i)
{
    hent last = w->heap[--w->n_heap];
    w->pos[hidx(w, w->heap[i].id)] = -1;
    if (i < w->n_heap) {
        w->heap[i] = last;
        sift_up(w, i);
        sift_down(w, (size_t)w->pos[hidx(w, last.id)]);
    }
}

static hent heap_pop(fillws *w)
{
    hent top = w->heap[0];
    heap_remove_at(w, 0);
    return top;
}

/* Freezes flow act[a] at level lambda; its links' levels change (they
 * are pushed once per step by push_dirty, not once per flow). */
static void freeze(const tm__tflows *t, fillws *w, const int64_t *act, int32_t a, double lambda,
                   double *rate)
{
    int64_t f = act[a];
    double r = t->weight[f] * lambda;
    w->frozen[a] = true;
    w->n_frozen++;
    rate[a] = r;
    for (int64_t e = t->off[f]; e < t->off[f + 1]; e++) {
        int32_t l = t->ent_link[e];
        double c = t->ent_coef[e];
        w->used[l] += r * c;
        w->wsum[l] -= t->weight[f] * c;
        if (!w->is_dirty[l]) {
            w->is_dirty[l] = true;
            w->dirty[w->n_dirty++] = l;
        }
    }
}

/* The new fill level of every link changed by the last step (a link
 * left without unfrozen flows leaves the heap). */
static int push_dirty(const tm__tflows *t, fillws *w, double lambda)
{
    for (int32_t i = 0; i < w->n_dirty; i++) {
        int32_t l = w->dirty[i];
        w->is_dirty[l] = false;
        if (w->pos[l] < 0)
            continue;
        if (w->wsum[l] > 1e-12) {
            double k = (t->cap[l] - w->used[l]) / w->wsum[l];
            heap_update(w, (size_t)w->pos[l], k > lambda ? k : lambda);
        } else {
            heap_remove_at(w, (size_t)w->pos[l]);
        }
    }
    w->n_dirty = 0;
    return 0;
}

/* Builds the per-link lists of the active flows and the first heap. */
static int fill_setup(const tm__tflows *t, fillws *w, const int64_t *act, int32_t na)
{
    int32_t pos = 0;
    w->n_touched = 0;
    w->n_heap = 0;
    w->n_frozen = 0;
    for (int32_t a = 0; a < na; a++) /* first: fill() reads them even on failure */
        w->frozen[a] = false;
    for (int32_t a = 0; a < na; a++)
        for (int64_t e = t->off[act[a]]; e < t->off[act[a] + 1]; e++) {
            int32_t l = t->ent_link[e];
            if (w->cnt[l]++ == 0)
                w->touched[w->n_touched++] = l;
            w->wsum[l] += t->weight[act[a]] * t->ent_coef[e];
        }
    for (int32_t i = 0; i < w->n_touched; i++) { /* counts -> starts (then ends) */
        int32_t l = w->touched[i], c = w->cnt[l];
        w->cnt[l] = w->beg[l] = pos;
        pos += c;
    }
    for (int32_t a = 0; a < na; a++)
        for (int64_t e = t->off[act[a]]; e < t->off[act[a] + 1]; e++)
            w->lflow[w->cnt[t->ent_link[e]]++] = a;
    for (int32_t i = 0; i < w->n_touched; i++) {
        int32_t l = w->touched[i];
        if (w->wsum[l] > 1e-12)
            heap_insert(w, t->cap[l] / w->wsum[l], l);
    }
    for (int32_t a = 0; a < na; a++) {
        int64_t f = act[a];
        if (t->bound[f] > 0)
            heap_insert(w, t->bound[f] / t->weight[f], -(a + 1));
    }
    return 0;
}

/* Max-min fair rates of the na active flows act[] into rate[] (a flow
 * that loads nothing and has no bound gets INFINITY). */
static int fill(const tm__tflows *t, fillws *w, const int64_t *act, int32_t na, double *rate)
{
    double lambda = 0.0;
    int rc = fill_setup(t, w, act, na);
    while (rc == 0 && w->n_heap > 0 && w->n_frozen < na) {
        hent h = heap_pop(w);
        if (h.key > lambda)
            lambda = h.key;
        if (h.id < 0) {
            if (!w->frozen[-h.id - 1])
                freeze(t, w, act, -h.id - 1, lambda, rate);
        } else {
            for (int32_t i = w->beg[h.id]; i < w->cnt[h.id]; i++)
                if (!w->frozen[w->lflow[i]])
                    freeze(t, w, act, w->lflow[i], lambda, rate);
        }
        rc = push_dirty(t, w, lambda);
    }
    for (int32_t a = 0; a < na; a++)
        if (!w->frozen[a])
            rate[a] = INFINITY;
    while (w->n_heap > 0) /* what is left: links and bounds no flow needed */
        w->pos[hidx(w, w->heap[--w->n_heap].id)] = -1;
    for (int32_t i = 0; i < w->n_touched; i++) {
        int32_t l = w->touched[i];
        w->wsum[l] = w->used[l] = 0.0;
        w->cnt[l] = 0;
    }
    return rc;
}

static void fillws_free(fillws *w)
{
    free(w->wsum);
    free(w->used);
    free(w->cnt);
    free(w->beg);
    free(w->touched);
    free(w->lflow);
    free(w->frozen);
    free(w->dirty);
    free(w->is_dirty);
    free(w->heap);
    free(w->pos);
}

static int fillws_init(fillws *w, const tm__tflows *t)
{
    size_t nr = (size_t)t->n_res + 1, nf = (size_t)t->n + 1;
    memset(w, 0, sizeof *w);
    w->wsum = tm__calloc_n(nr, sizeof *w->wsum);
    w->used = tm__calloc_n(nr, sizeof *w->used);
    w->n_res = t->n_res;
    w->heap = tm__malloc_n(nr + nf, sizeof *w->heap);
    w->pos = tm__malloc_n(nr + nf, sizeof *w->pos);
    if (w->pos)
        for (size_t i = 0; i < nr + nf; i++)
            w->pos[i] = -1;
    w->cnt = tm__calloc_n(nr, sizeof *w->cnt);
    w->beg = tm__calloc_n(nr, sizeof *w->beg);
    w->touched = tm__malloc_n(nr, sizeof *w->touched);
    w->lflow = tm__malloc_n((size_t)t->n_ent + 1, sizeof *w->lflow);
    w->frozen = tm__malloc_n(nf, sizeof *w->frozen);
    w->dirty = tm__malloc_n(nr, sizeof *w->dirty);
    w->is_dirty = tm__calloc_n(nr, sizeof *w->is_dirty);
    return w->wsum && w->used && w->heap && w->pos && w->cnt && w->beg && w->touched && w->lflow &&
                   w->frozen && w->dirty && w->is_dirty
               ? 0
               : -1;
}

static int cmp_start(const void *a, const void *b, const tm__tflows *t)
{
    double x = t->start[*(const int64_t *)a], y = t->start[*(const int64_t *)b];
    if (x != y)
        return x < y ? -1 : 1;
    return (*(const int64_t *)a > *(const int64_t *)b) - (*(const int64_t *)a < *(const int64_t *)b);
}

/* The flows by start time, ties by index: a merge sort (C11's qsort has
 * no context argument). */
static void sort_by_start(int64_t *ix, int64_t *tmp, int64_t n, const tm__tflows *t)
{
    if (n < 2)
        return;
    sort_by_start(ix, tmp, n / 2, t);
    sort_by_start(ix + n / 2, tmp, n - n / 2, t);
    for (int64_t i = 0, j = n / 2, k = 0; k < n; k++)
        tmp[k] = (j >= n || (i < n / 2 && cmp_start(&ix[i], &ix[j], t) <= 0)) ? ix[i++] : ix[j++];
    memcpy(ix, tmp, (size_t)n * sizeof *ix);
}

/* The k-th smallest of a[0..n) (0-based), a reordered: Hoare's
 * selection with a median-of-three pivot, O(n) on average where sorting
 * the whole array to read one entry was O(n log n) (on AMG2013 1,000's
 * 450,000 messages the sort was a quarter of the default map's time).
 * The value is the order statistic, the same whatever the algorithm, so
 * the estimate does not change. */
static double kth_smallest(double *a, int32_t n, int32_t k)
{
    int32_t lo = 0, hi = n - 1;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2, i = lo, j = hi;
        double x = a[lo], y = a[mid], z = a[hi];
        double pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
        while (i <= j) {
            while (a[i] < pivot)
                i++;
            while (a[j] > pivot)
                j--;
            if (i <= j) {
                double t = a[i];
                a[i++] = a[j];
                a[j--] = t;
            }
        }
        /* [lo, j] <= pivot <= [i, hi], and (j, i) equal to the pivot */
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return a[k];
    }
    return a[k];
}

/* One step of the simulation from time *now with rates rate[]: the exact
 * mode runs to the next event (next_start or the first end); the bounded
 * mode until `share` of the flows have ended: ceil(na / 8) from the start,
 * an even share of the epochs left after a switch (all on the last one). */
static double step_length(const int64_t *act, int32_t na, const double *rem, const double *rate,
                          bool bounded, int32_t epochs_left, bool even, double *buf)
{
    double dt = INFINITY;
    if (!bounded) {
        for (int32_t a = 0; a < na; a++) {
            double d = rate[a] == INFINITY ? 0.0 : rem[act[a]] / rate[a];
            if (d < dt)
                dt = d;
        }
        return dt;
    }
    for (int32_t a = 0; a < na; a++)
        buf[a] = rate[a] == INFINITY ? 0.0 : rem[act[a]] / rate[a];
    if (epochs_left <= 1)
        return kth_smallest(buf, na, na - 1);
    return kth_smallest(buf, na, even ? (na + epochs_left - 1) / epochs_left - 1 : (na + 7) / 8 - 1);
}

typedef struct simstate {
    int64_t *order, *act;
    double *rem, *rate, *buf;
    int64_t next;
    int32_t na;
    double now, t_switch, work;
    bool bounded, switched;
    int32_t epochs, max_epochs;
} simstate;

/* Starts the flows due (all of them in the bounded mode, which adds
 * their remaining latency after their bandwidth phase instead). */
static void admit(const tm__tflows *t, simstate *st)
{
    while (st->next < t->n && (st->bounded || t->start[st->order[st->next]] <= st->now))
        st->act[st->na++] = st->order[st->next++];
    if (st->next == t->n) { /* not read again: freed before the rate computations
                             * when all start at once (the bounded mode) */
        free(st->order);
        st->order = NULL;
    }
}

/* The latency flow f adds after its bandwidth phase: what was left of it
 * when the bounded mode began (none for a flow started before, whose
 * start <= t_switch; none before the switch).  Computed when the flow
 * ends rather than kept per flow. */
static double lag(const tm__tflows *t, const simstate *st, int64_t f)
{
    return st->bounded ? fmax(0.0, t->start[f] - st->t_switch) : 0.0;
}

/* Runs the active flows for dt at their rates; the ended ones leave. */
static void advance(const tm__tflows *t, simstate *st, double dt, double *done)
{
    int32_t keep = 0;
    for (int32_t a = 0; a < st->na; a++) {
        int64_t f = st->act[a];
        double d = st->rate[a] == INFINITY ? 0.0 : st->rem[f] / st->rate[a];
        st->work += (double)(t->off[f + 1] - t->off[f]);
        if (d <= dt || st->rem[f] - st->rate[a] * dt <= DONE_TOL * t->vol[f]) {
            done[f] = st->now + (d < dt ? d : dt) + lag(t, st, f);
            continue;
        }
        st->rem[f] -= st->rate[a] * dt;
        st->act[keep++] = f;
    }
    st->na = keep;
    st->now += dt;
}

static void simstate_free(simstate *st)
{
    free(st->order);
    free(st->act);
    free(st->rem);
    free(st->rate);
    free(st->buf);
}

static int simstate_init(simstate *st, const tm__tflows *t, int32_t max_epochs)
{
    size_t m = (size_t)t->n + 1;
    memset(st, 0, sizeof *st);
    st->order = tm__malloc_n(m, sizeof *st->order);
    st->act = tm__malloc_n(m, sizeof *st->act);
    st->rem = tm__malloc_n(m, sizeof *st->rem);
    st->rate = tm__malloc_n(m, sizeof *st->rate);
    st->buf = tm__malloc_n(m, sizeof *st->buf);
    if (!st->order || !st->act || !st->rem || !st->rate || !st->buf)
        return -1;
    for (int64_t f = 0; f < t->n; f++) {
        st->order[f] = f;
        st->rem[f] = t->vol[f];
    }
    sort_by_start(st->order, st->act, t->n, t);
    st->bounded = max_epochs > 0;
    st->max_epochs = max_epochs; /* after a switch: set then */
    return 0;
}

tm_err tm__time_simulate(tm_ctx *ctx, const tm__tflows *t, int32_t max_epochs, double work_budget,
                         double *done, int32_t *updates, bool *switched)
{
    simstate st = {0};
    fillws w;
    tm_err err = TM_EOK;
    *updates = 0;
    *switched = false;
    if (fillws_init(&w, t) < 0 || simstate_init(&st, t, max_epochs) < 0)
        goto nomem;
    while (st.next < t->n || st.na > 0) {
        double dt;
        admit(t, &st);
        if (st.na == 0) {
            st.now = t->start[st.order[st.next]];
            continue;
        }
        if (fill(t, &w, st.act, st.na, st.rate) < 0)
            goto nomem;
        ++*updates;
        st.epochs += st.bounded;
        dt = step_length(st.act, st.na, st.rem, st.rate, st.bounded,
                         st.max_epochs - st.epochs + 1, st.switched, st.buf);
        if (!st.bounded && st.next < t->n && t->start[st.order[st.next]] - st.now < dt)
            dt = t->start[st.order[st.next]] - st.now;
        advance(t, &st, dt, done);
        if (!st.bounded && work_budget > 0 && st.work > work_budget) {
            /* too many events to afford each: bounded epochs from here */
            double ent = 0;
            for (int32_t a = 0; a < st.na; a++)
                ent += (double)(t->off[st.act[a] + 1] - t->off[st.act[a]]);
            st.bounded = st.switched = *switched = true;
            st.t_switch = st.now;
            /* about half as much work again, in 8 to 128 epochs */
            st.max_epochs = (int32_t)fmax(TM__TIME_SWITCH_MIN,
                                          fmin(TM__TIME_SWITCH_MAX, work_budget / 2 / fmax(ent, 1)));
            st.epochs = 0;
        }
    }
    goto out;
nomem:
    err = tm__nomem(ctx);
out:
    fillws_free(&w);
    simstate_free(&st);
    return err;
}
