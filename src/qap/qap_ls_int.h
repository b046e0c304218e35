/* qap_ls_int.h - the swap local-search state shared by qap_ls.c (nc, np,
 * n2), qap_ils.c (iterated local search) and qap_lspar.c (the same
 * searches with a team of threads, same results).  Not installed. */
#ifndef TM_QAP_LS_INT_H
#define TM_QAP_LS_INT_H

#include "qap_int.h"

/* Old values of the doubles a swap overwrote, so that a rejected kick is
 * undone exactly (adding the change back would leave rounding residue,
 * and the parallel search needs every copy of the state to stay equal to
 * the master bit for bit). */
typedef struct tm__ls_undo {
    double **at;
    double *old;
    size_t n, cap;
    bool nomem;
} tm__ls_undo;

typedef struct tm__ls {
    const tm__sgraph *g;
    /* The search graph: g's heavy edges (TM__SEARCH_RATIO), or g
     * itself.  The partners a search tries are found on it (N_C^D's balls,
     * the kicks and their repairs); every gain is computed on g.  On a real
     * trace the collectives link rank 0 to every rank with a few bytes, so
     * on g every ball of radius 2 is the whole job. */
    const tm__sgraph *sg;
    tm__qdist o;
    int32_t *pe;
    double *load; /* per PE; NULL when one-to-one */
    double bound;
    double j;
    /* A swap is improving when it changes J by less than eps (< 0).  Fixed
     * for the whole search (from the starting J): a decision must depend
     * only on the tasks around the swap, never on how J was summed. */
    double eps;
    double t_end; /* < 0: no limit */
    double kicks;  /* ils: kicks per task after nc (TM__ILS_KICKS unless set) */
    const tm_ctx *ctx; /* its stop predicate ends the search early (NULL: none) */
    double *c;      /* c[u] = sum over N(u) of w * dist(pe u, pe x) (VieM's
                     * per-vertex contributions), or NULL */
    const double *wdeg; /* weighted degrees, when the distances obey the
                         * triangle inequality and no weight is negative
                         * (then tm__ls_gain skips far pairs), or NULL */
    tm__ls_undo *ul;    /* when set, tm__ls_apply_swap logs what it overwrites */
    tm__team *team; /* threads for the parallel passes (qap_lspar.c), or NULL */
} tm__ls;

/* Work arrays of one bounded BFS over the tasks (N_C^D). */
typedef struct tm__ls_ws {
    int32_t *queue, *dist;
    uint32_t *stamp, cur;
    int32_t *moved;   /* when track: the partners of the swaps of a visit */
    size_t n_moved, cap_moved;
    bool track, nomem;
} tm__ls_ws;

tm_err tm__ls_ws_init(tm_ctx *ctx, tm__ls_ws *w, int32_t n);
void tm__ls_ws_free(tm__ls_ws *w);

/* Exact change of J if u and v exchanged PEs (no contributions used). */
double tm__ls_swap_delta(const tm__ls *L, int32_t u, int32_t v);
/* Whether exchanging u and v lowers J by more than -L->eps and keeps the
 * balance; *d is the change when it does.  Reads only. */
bool tm__ls_gain(const tm__ls *L, int32_t u, int32_t v, double *d);
/* Swaps u and v if that lowers J and keeps the balance: whether it did. */
bool tm__ls_try_swap(tm__ls *L, int32_t u, int32_t v);
/* Exchanges the PEs of u and v, updating loads and contributions (not J). */
void tm__ls_apply_swap(tm__ls *L, int32_t u, int32_t v);
/* Puts back what the undo log recorded (newest first) and empties it. */
void tm__ls_undo_apply(tm__ls_undo *ul);
/* Time limit reached or the caller asked to stop (tm_ctx_set_stop). */
bool tm__ls_out_of_time(const tm__ls *L);

/* N_C^D from task u: tries every task within distance depth, applying
 * improving swaps at once; marks the moved tasks and their neighbours in
 * next.  Returns the number of swaps. */
int tm__ls_nc_visit(tm__ls *L, tm__ls_ws *w, int32_t u, int depth, uint8_t *next);
/* Whether tm__ls_nc_visit(u) would swap anything now (reads only). */
bool tm__ls_nc_probe(const tm__ls *L, tm__ls_ws *w, int32_t u, int depth);

/* J's part at task u: the sum over its edges of weight x distance. */
double tm__ls_contrib(const tm__ls *L, int32_t u);
/* Many-to-one only: one pass of single-task moves to a neighbour's PE that
 * lower J and fit the balance, tasks in `order`.  Returns the moves made. */
int tm__ls_move_pass(tm__ls *L, const int32_t *order);

/* qap_ls_run.c: the runs of nc and ils on L. */
tm_err tm__ls_run_nc(tm_ctx *ctx, tm__ls *L, int depth, tm__rng *r);
tm_err tm__ls_run_ils(tm_ctx *ctx, tm__ls *L, int depth, tm__rng *r);

/* qap_lspar.c: one round of N_C^D over `order` (the tasks with dirty set)
 * with L->team, the same swaps in the same order as visiting them one
 * after the other.  *stopped when the time limit or stop predicate ended it. */
tm_err tm__ls_par_nc_round(tm_ctx *ctx, tm__ls *L, tm__ls_ws *w, const int32_t *order,
                           const uint8_t *dirty, uint8_t *next, int depth, int *improved,
                           bool *stopped);

/* The kicks of ils (qap_ils.c, run in parallel by qap_lspar.c). */
typedef struct tm__ls_kick_log {
    int32_t *queue;     /* tasks queued by the repair (the kick's pair first) */
    uint32_t *inq, stamp;
    /* partners tried from the task being repaired since the last swap
     * (seen[c] == tried): the same pair on the same state gains nothing */
    uint32_t *seen, tried;
    int32_t qt;
    int32_t *su, *sv;   /* the swaps, in order (the forced one first) */
    double *sd;         /* their changes of J */
    size_t ns, cap;
} tm__ls_kick_log;

tm_err tm__ls_kick_init(tm_ctx *ctx, tm__ls_kick_log *k, int32_t n);
void tm__ls_kick_free(tm__ls_kick_log *k);
/* Forces the swap (u, v) and repairs around it (improving swaps of the
 * touched tasks with tasks at most two hops away), logging the swaps in k;
 * L->j follows.  -1 when out of memory. */
int tm__ls_kick(tm__ls *L, tm__ls_kick_log *k, int32_t u, int32_t v);
/* Whether a kick whose swaps changed J by k->sd keeps, from J = j0. */
bool tm__ls_kick_keeps(const tm__ls_kick_log *k, double j0);
/* Undoes the kick logged in k exactly: the doubles from ul (L's undo log
 * during the kick), the PEs by swapping back. */
void tm__ls_kick_undo(tm__ls *L, tm__ls_undo *ul, const tm__ls_kick_log *k);
/* Runs the kick (u, v) on L and keeps it if J dropped (*kept), else
 * restores the state exactly; ul is L's undo log for it.  0, or -1 out of
 * memory. */
int tm__ls_kick_run(tm__ls *L, tm__ls_kick_log *k, tm__ls_undo *ul, int32_t u, int32_t v,
                    bool *kept);
/* Draws a kick's pair from r as ils does: u, and unless u has no
 * neighbour (then false), a neighbour x of u and a neighbour v of x, on
 * the search graph g (tm__ls.sg).  The draws depend on the graph only, so
 * a batch can be drawn ahead. */
bool tm__ls_kick_draw(const tm__sgraph *g, tm__rng *r, int32_t *u, int32_t *v);
/* Grows the parallel arrays of a swap log (u, v and, unless NULL, d) to
 * hold need entries; *cap is the capacity they all have.  -1 when out of
 * memory (then *cap still holds for all of them). */
int tm__ls_swaps_reserve(int32_t **u, int32_t **v, double **d, size_t *cap, size_t need);
/* The kicks of ils:D after nc: n * TM__ILS_KICKS of them, drawn from r. */
#define TM__ILS_KICKS 16
/* Without a time limit the kicks end after n * TM__ILS_PROBE of them if
 * none was kept (qap_ils.c). */
#define TM__ILS_PROBE 4
/* Whether the kicks end before iteration it, given whether one was kept. */
bool tm__ls_kicks_futile(const tm__ls *L, int64_t it, bool kept);
tm_err tm__ls_par_kicks(tm_ctx *ctx, tm__ls *L, tm__rng *r, int64_t kicks);

#endif
