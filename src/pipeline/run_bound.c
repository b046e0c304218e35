/* run_bound.c - the default pipeline's early stop on the lower bounds
 * (docs/mapping.md "Effort and time"): at the default effort, an answer
 * already within TM_BOUNDS_STOP_GAP (1 %) of the lower bounds on what the
 * objective weighs cannot improve by more than that, so the levels end
 * there and say so (tm_map_info.stop "gap").  Under a time limit (the
 * levels then go on until the answer stops improving) the bounds are
 * computed here when the caller gave none; without one they are used only
 * when given (tm_problem.bounds, as `map` does): computing them costs up
 * to a tenth of a default run, more than the levels they could save on
 * small jobs.  The decision depends on the answer only, which is the same
 * for every thread count, so a seed's answer stays byte-identical.  Kept
 * apart from run_auto.c's schedule: two calls there. */
#include "run_bound.h"

tm_err tm__autobound_init(tm_ctx *ctx, const tm__runner *rn, int effort, tm__autobound *ab)
{
    tm_problem q = *rn->p;
    tm_err err;
    ab->active = false;
    ab->b = NULL;
    ab->obj = rn->obj;
    tm_bounds_init(&ab->own);
    if (effort != TM_EFFORT_AUTO || !rn->p->net || rn->obj == TM_OBJ_TIME)
        return TM_EOK;
    if (!rn->timed && !rn->p->bounds)
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
