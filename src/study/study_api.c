/* study_api.c - the public what-if study (include/topomap/study.h): checks
 * the caller's spec, gives every axis given with n = 0 its default value
 * (in a copy: the caller's spec is not touched) and runs the engine
 * (study.c), whose rows are the public rows.  The CLI's `topomap study`
 * and the Python module run studies through here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util/util.h"
#include "study.h"

/* One default value per axis given with n = 0 (static: read-only). */
static const int32_t default_slots[1] = {0};
static const char *const default_scales[1] = {NULL};
static const tm_study_failure default_fail[1] = {{TM_STUDY_FAIL_NONE, 0, NULL}};
static const tm_route_kind default_routing[1] = {TM_ROUTE_ECMP};
static const char *const default_strategy[1] = {"all"};

static tm_err check_failure(tm_ctx *ctx, const tm_study_failure *f, int i)
{
    switch (f->kind) {
    case TM_STUDY_FAIL_NONE: return TM_EOK;
    case TM_STUDY_FAIL_RANDOM:
        if (!(f->pct > 0 && f->pct <= 100))
            return tm__fail(ctx, TM_EUSAGE, "study failure %d: percentage %g outside (0, 100]", i,
                            f->pct);
        return TM_EOK;
    case TM_STUDY_FAIL_LINKS:
    case TM_STUDY_FAIL_SWITCHES:
        if (!f->names || !*f->names)
            return tm__fail(ctx, TM_EUSAGE, "study failure %d: no names", i);
        if (f->kind == TM_STUDY_FAIL_LINKS && !strchr(f->names, ':'))
            return tm__fail(ctx, TM_EUSAGE, "study failure %d: links are A:B[,C:D..], got '%s'",
                            i, f->names);
        return TM_EOK;
    }
    return tm__fail(ctx, TM_EUSAGE, "study failure %d: unknown kind %d", i, (int)f->kind);
}

/* A computed routing model: any but forwarding tables (a study changes
 * the network, which the dumped tables do not follow). */
static bool study_routing(tm_route_kind k)
{
    return (int)k >= 0 && (int)k <= TM_ROUTE_UGAL && k != TM_ROUTE_LFT;
}

static tm_err check_axes(tm_ctx *ctx, const tm_study_spec *s)
{
    tm_err err = TM_EOK;
    if (s->n_topologies < 1 || !s->topologies || s->n_comms < 1 || !s->comms)
        return tm__fail(ctx, TM_EUSAGE, "a study needs at least one topology and one application");
    if (s->n_slots < 0 || s->n_scales < 0 || s->n_failures < 0 || s->n_routings < 0 ||
        s->n_strategies < 0 || s->samples < 0)
        return tm__fail(ctx, TM_EUSAGE, "negative axis length in a study");
    if (s->shard_count < 0 || s->shard_count > TM_SHARD_MAX ||
        (s->shard_count > 0 && (s->shard_index < 0 || s->shard_index >= s->shard_count)))
        return tm__fail(ctx, TM_EUSAGE, "study shard %d of %d: not a shard (0 <= index < count "
                        "<= %d, or count 0)", s->shard_index, s->shard_count, TM_SHARD_MAX);
    for (int i = 0; i < s->n_failures && !err; i++)
        err = check_failure(ctx, &s->failures[i], i);
    for (int i = 0; i < s->n_routings && !err; i++)
        if (!study_routing(s->routings[i]))
            err = tm__fail(ctx, TM_EUSAGE, "study routing %d: not a computed routing model "
                                           "(ecmp, single, dor, ftree, minhop, updn, valiant, "
                                           "ugal)", i);
    for (int i = 0; i < s->n_strategies && !err; i++) {
        const char *n = s->strategies[i];
        const tm_strategy *st = n ? tm_strategy_find(n) : NULL;
        if (!n || (strcmp(n, "all") && (!st || !(st->modes & TM_MODE_NETWORK))))
            err = tm__fail(ctx, TM_EUSAGE, "unknown network-mode strategy '%s'", n ? n : "(null)");
    }
    for (int i = 0; i < s->n_comms && !err; i++)
        if (!s->comms[i])
            err = tm__fail(ctx, TM_EUSAGE, "study application %d is NULL", i);
    return err;
}

/* The spec the engine runs: the caller's, every empty axis its default. */
static void with_defaults(const tm_study_spec *s, tm_study_spec *out)
{
    *out = *s;
    if (!s->n_slots)
        out->slots = default_slots, out->n_slots = 1;
    if (!s->n_scales)
        out->scales = default_scales, out->n_scales = 1;
    if (!s->n_failures)
        out->failures = default_fail, out->n_failures = 1;
    if (s->samples < 1)
        out->samples = 1;
    if (!s->n_routings)
        out->routings = default_routing, out->n_routings = 1;
    if (!s->n_strategies)
        out->strategies = default_strategy, out->n_strategies = 1;
}

tm_err tm_study_run(tm_ctx *ctx, const tm_study_spec *s, tm_study_result *out)
{
    tm_study_spec full;
    tm_err err;
    tm_study_result_init(out);
    err = s ? check_axes(ctx, s) : tm__fail(ctx, TM_EUSAGE, "no study spec");
    if (err)
        return err;
    with_defaults(s, &full);
    return tm__study_run(ctx, &full, out);
}
