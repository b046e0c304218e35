/* study_api.c - the public what-if study (include/topomap/study.h): checks
 * the caller's axes, fills in the defaults, runs the internal engine
 * (study.c) and copies its rows into the public row type.  The engine and
 * its CLI keep their own types; this file is the only bridge. */
#include <stdlib.h>
#include <string.h>

#include "../util/util.h"
#include "study.h"
#include "topomap/study.h"

/* One default value per axis given with n = 0 (static: read-only). */
static const int32_t default_slots[1] = {0};
static const char *const default_scales[1] = {NULL};
static const tm__failure default_fail[1] = {{TM__FAIL_NONE, 0, NULL}};
/* The public enums mirror the engine's (casts below rely on it). */
_Static_assert((int)TM_STUDY_FAIL_SWITCHES == (int)TM__FAIL_SWITCHES &&
               (int)TM_STUDY_FAIL_RANDOM == (int)TM__FAIL_RANDOM, "failure kinds");
_Static_assert((int)TM_STUDY_INFEASIBLE == (int)TM__ROW_INFEASIBLE &&
               (int)TM_STUDY_WORST == (int)TM__STAT_WORST, "row status and stat");

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

static tm_err check_axes(tm_ctx *ctx, const tm_study_spec *s)
{
    tm_err err = TM_EOK;
    if (s->n_topologies < 1 || !s->topologies || s->n_comms < 1 || !s->comms)
        return tm__fail(ctx, TM_EUSAGE, "a study needs at least one topology and one application");
    if (s->n_slots < 0 || s->n_scales < 0 || s->n_failures < 0 || s->n_routings < 0 ||
        s->n_strategies < 0 || s->samples < 0)
        return tm__fail(ctx, TM_EUSAGE, "negative axis length in a study");
    for (int i = 0; i < s->n_failures && !err; i++)
        err = check_failure(ctx, &s->failures[i], i);
    for (int i = 0; i < s->n_routings && !err; i++)
        if ((int)s->routings[i] < 0 || (int)s->routings[i] > TM_ROUTE_UPDN ||
            s->routings[i] == TM_ROUTE_LFT)
            err = tm__fail(ctx, TM_EUSAGE, "study routing %d: not a computed routing model "
                                           "(ecmp, single, dor, ftree, minhop, updn)", i);
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

/* The engine's spec from the public one; *fails and *comms are malloc'ed. */
static tm_err to_internal(tm_ctx *ctx, const tm_study_spec *s, tm__study_spec *in,
                          tm__failure **fails, tm__study_comm **comms)
{
    memset(in, 0, sizeof *in);
    *fails = s->n_failures ? tm__calloc_n((size_t)s->n_failures, sizeof **fails) : NULL;
    *comms = tm__calloc_n((size_t)s->n_comms, sizeof **comms);
    if ((s->n_failures && !*fails) || !*comms)
        return tm__nomem(ctx);
    for (int i = 0; i < s->n_failures; i++) {
        (*fails)[i].kind = (tm__fail_kind)s->failures[i].kind; /* same order by construction */
        (*fails)[i].pct = s->failures[i].pct;
        (*fails)[i].names = s->failures[i].names;
    }
    for (int i = 0; i < s->n_comms; i++)
        (*comms)[i].comm = s->comms[i], (*comms)[i].name = "";
    in->topologies = s->topologies, in->n_topologies = s->n_topologies;
    in->topo.node_name_map = s->node_name_map;
    in->topo.keep_hcas_separate = s->separate_hcas;
    in->slots = s->n_slots ? s->slots : default_slots, in->n_slots = s->n_slots ? s->n_slots : 1;
    in->scales = s->n_scales ? s->scales : default_scales;
    in->n_scales = s->n_scales ? s->n_scales : 1;
    in->fails = s->n_failures ? *fails : default_fail;
    in->n_fails = s->n_failures ? s->n_failures : 1;
    in->samples = s->samples > 0 ? s->samples : 1;
    in->routings = s->n_routings ? s->routings : default_routing;
    in->n_routings = s->n_routings ? s->n_routings : 1;
    in->comms = *comms, in->n_comms = s->n_comms;
    in->strategies = s->n_strategies ? s->strategies : default_strategy;
    in->n_strategies = s->n_strategies ? s->n_strategies : 1;
    in->alloc = s->alloc;
    in->refine = s->refine;
    in->objective = s->objective;
    in->time = s->time;
    return TM_EOK;
}

static void copy_row(tm_study_row *o, const tm__study_row *r)
{
    memset(o, 0, sizeof *o);
    o->stat = (tm_study_stat)r->stat;
    o->topology = r->topology, o->slots = r->slots, o->scale = r->scale, o->failure = r->fail;
    o->sample = r->sample, o->routing = r->routing, o->comm = r->comm;
    o->strategy = r->strategy;
    o->scaled_cables = r->scaled_cables, o->failed_cables = r->failed_cables;
    o->status = (tm_study_status)r->status;
    snprintf(o->cause, sizeof o->cause, "%s", r->cause);
    snprintf(o->best, sizeof o->best, "%s", r->best);
    o->base_congestion = r->base[TM__FIG_CONG];
    o->base_dilation = r->base[TM__FIG_DIL];
    o->base_J = r->base[TM__FIG_J];
    o->max_congestion = r->val[TM__FIG_CONG];
    o->avg_dilation = r->val[TM__FIG_DIL];
    o->qap_J = r->val[TM__FIG_J];
    o->base_est_time_s = r->base[TM__FIG_TIME];
    o->est_time_s = r->val[TM__FIG_TIME];
    o->runs = r->runs, o->not_ok = r->not_ok;
}

tm_err tm_study_run(tm_ctx *ctx, const tm_study_spec *s, tm_study_result *out)
{
    tm__study_spec in;
    tm__study_result res;
    tm__failure *fails = NULL;
    tm__study_comm *comms = NULL;
    tm_err err;
    tm_study_result_init(out);
    tm__study_result_init(&res);
    err = s ? check_axes(ctx, s) : tm__fail(ctx, TM_EUSAGE, "no study spec");
    if (!err)
        err = to_internal(ctx, s, &in, &fails, &comms);
    if (!err)
        err = tm__study_run(ctx, &in, &res);
    if (!err && !(out->rows = tm__calloc_n((size_t)res.n_rows, sizeof *out->rows)))
        err = tm__nomem(ctx);
    if (!err) {
        for (int i = 0; i < res.n_rows; i++)
            copy_row(&out->rows[i], &res.rows[i]);
        out->n_rows = res.n_rows;
        out->n_runs = res.n_runs;
    }
    tm__study_result_release(&res);
    free(fails);
    free(comms);
    return err;
}

void tm_study_result_init(tm_study_result *r) { memset(r, 0, sizeof *r); }

void tm_study_result_release(tm_study_result *r)
{
    if (!r)
        return;
    free(r->rows);
    tm_study_result_init(r);
}

const char *tm_study_status_name(tm_study_status s)
{
    return tm__study_status_name((tm__row_status)s);
}

const char *tm_study_stat_name(tm_study_stat s) { return tm__study_stat_name((tm__row_stat)s); }
