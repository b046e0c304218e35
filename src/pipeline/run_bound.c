/* run_bound.c - the default pipeline's early stop on the lower bounds
 * (docs/mapping.md "Effort and time"): under a time limit and the default
 * effort the levels go on until the answer stops improving or the limit;
 * an answer already within TM_BOUNDS_STOP_GAP (1 %) of the lower bounds on
 * what the objective weighs cannot improve by more than that, so the run
 * ends there and says so (tm_map_info.stop "gap").  Kept apart from
 * run_auto.c's schedule: two calls there. */
#include "run_bound.h"

tm_err tm__autobound_init(tm_ctx *ctx, const tm__runner *rn, int effort, tm__autobound *ab)
{
    tm_problem q = *rn->p;
    tm_err err;
    ab->active = false;
    ab->b = NULL;
    ab->obj = rn->obj;
    tm_bounds_init(&ab->own);
    if (!rn->timed || effort != TM_EFFORT_AUTO || !rn->p->net || rn->obj == TM_OBJ_TIME)
        return TM_EOK;
    if (rn->p->bounds) {
        ab->b = rn->p->bounds;
    } else {
        /* a general mapping maps blocks: the bounds are the whole job's */
        if (rn->gen)
            q.comm = rn->full;
        err = tm_bounds_compute(ctx, &q, NULL, &ab->own);
        if (err)
            return err;
        ab->b = &ab->own;
    }
    ab->active = true;
    return TM_EOK;
}

bool tm__autobound_met(const tm__autobound *ab, const tm_metrics *m)
{
    return ab->active && tm_bounds_within(ab->b, m, ab->obj, TM_BOUNDS_STOP_GAP);
}
