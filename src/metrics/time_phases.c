/*
 * time_phases.c - est_time_s of a job that runs in phases (docs/time.md
 * "Phases"): the phases run one after the other, so the job's time is the
 * sum over its distinct phases of repeat x the time of one exchange of the
 * phase's matrix, each with every message in flight at once and its own
 * latency and overhead.  This is not the time of the sum: the messages of
 * two phases do not share links, and a phase's message keeps its own size
 * (the SMPI bandwidth and latency factors depend on it).
 */
#include "metrics_int.h"
#include "time_int.h"

tm_err tm__time_eval_phases(tm_ctx *ctx, const tm_route *route, const tm_comm *comm,
                            const tm_mapping *map, const tm_time_opts *topt, tm_metrics *out)
{
    const tm_comm_phases *ph = topt->phases;
    tm_time_opts one = *topt;
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    double est = 0.0, lb = 0.0;
    int64_t flows = 0;
    int64_t updates = 0;
    bool approx = false;
    if (ph->n_tasks != comm->n)
        return tm_ctx_fail(ctx, TM_EINPUT, "the phases have %d tasks but the communication "
                                           "graph has %d", ph->n_tasks, comm->n);
    one.phases = NULL; /* each phase alone */
    o.time = &one;
    for (int32_t k = 0; k < ph->n_phases; k++) {
        tm_metrics m;
        tm_err err;
        if (ph->phase[k].n != comm->n)
            return tm_ctx_fail(ctx, TM_EINPUT, "phase %d has %d tasks, not %d", k + 1,
                               ph->phase[k].n, comm->n);
        err = tm_metrics_eval(ctx, route, &ph->phase[k], map, &o, &m);
        if (err)
            return err;
        est += (double)ph->repeat[k] * m.est_time_s;
        lb += (double)ph->repeat[k] * m.time_lower_bound_s;
        approx = approx || m.time_approximate;
        flows += m.time_flows;
        updates += m.time_rate_updates;
        tm_metrics_release(&m);
    }
    out->est_time_s = est;
    out->time_lower_bound_s = lb;
    out->time_approximate = approx;
    out->time_flows = flows;
    out->time_rate_updates = updates > INT32_MAX ? INT32_MAX : (int32_t)updates;
    return TM_EOK;
}
