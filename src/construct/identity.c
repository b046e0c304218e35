/* identity.c - the `identity` strategy: consecutive placement in allocation
 * order (network mode) or task i on PE i (hierarchy mode).  It is the
 * baseline every report compares against. */
#include "topomap/map.h"
#include "../mapping/strategies.h"
#include "../util/util.h"

tm_err tm__strategy_identity(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm_mapping *out)
{
    tm_err err;
    (void)seed;
    if (p->net)
        return tm_mapping_consecutive(ctx, p->alloc, p->comm->n, out);
    if (p->comm->n > p->hier->n_pe)
        return tm__fail(ctx, TM_EINFEASIBLE, "%d tasks but only %lld PEs", p->comm->n,
                        (long long)p->hier->n_pe);
    err = tm_mapping_alloc(ctx, out, p->comm->n, true);
    if (err)
        return err;
    for (int32_t t = 0; t < p->comm->n; t++)
        out->pe[t] = t;
    return TM_EOK;
}
