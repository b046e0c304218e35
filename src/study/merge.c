/* merge.c - the outputs of a study's shards joined into the whole result
 * (study.h "merging", docs/study.md "Shards").
 *
 * The grid is rebuilt from the rows themselves: every value of every axis
 * appears in some run row, and in grid order the first row holding a value
 * comes before the first holding the next value of that axis, so each
 * axis is its labels in order of first appearance (a sharded study refuses
 * two equal labels on one axis, so this is exact).  The rebuilt grid must
 * have the shards' row count, every run row at its position with its own
 * labels, and no row where the merge computes one (mean, worst).  JSON
 * shards also carry the grid, which must agree.  The mean and worst rows
 * are then computed by tm__study_summarize over figures read back exactly
 * (printed with 17 digits), as the unsharded study computes them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util/util.h"
#include "study_int.h"

static const char *const VARYING[] = {"runs", NULL};
static const tm__shard_kind KIND = {"study", "rows", VARYING, TM_STUDY_CSV_HEADER};

const tm__shard_kind *tm__study_shard_kind(void) { return &KIND; }

#define F(j, c) ((tm__shard_field){j, c})
static const tm__shard_field F_STAT = F("stat", "stat"), F_TOPO = F("topology", "topology"),
    F_COMM = F("comm", "comm"), F_ROUTING = F("routing", "routing"), F_SLOTS = F("slots", "slots"),
    F_CAP = F("capacity", "capacity"), F_FAIL = F("failure", "failure"),
    F_SAMPLE = F("sample", "sample"), F_SCALED = F("scaled_cables", "scaled_cables"),
    F_FAILED = F("failed_cables", "failed_cables"), F_STRATEGY = F("strategy", "strategy"),
    F_STATUS = F("status", "status"), F_CAUSE = F("cause", "cause"), F_BEST = F("best", "best");
static const tm__shard_field F_BASE[TM_STUDY_N_FIG] = {
    F("consecutive.max_congestion", "consecutive_max_congestion"),
    F("consecutive.avg_dilation", "consecutive_avg_dilation"),
    F("consecutive.qap_J", "consecutive_qap_J"),
    F("consecutive.est_time_s", "consecutive_est_time_s")};
static const tm__shard_field F_VAL[TM_STUDY_N_FIG] = {
    F("mapped.max_congestion", "max_congestion"), F("mapped.avg_dilation", "avg_dilation"),
    F("mapped.qap_J", "qap_J"), F("mapped.est_time_s", "est_time_s")};
static const tm__shard_field F_BOUND[3] = {F("bounds.max_congestion", "bound_max_congestion"),
                                           F("bounds.avg_dilation", "bound_avg_dilation"),
                                           F("bounds.qap_J", "bound_qap_J")};
#undef F

/* One axis: its labels in order of first appearance. */
typedef struct axis {
    tm__strmap index;
    const char **label; /* borrowed from the set */
    size_t n, cap;
} axis;

enum { AX_TOPO, AX_SLOTS, AX_CAP, AX_FAIL, AX_ROUTING, AX_COMM, AX_STRATEGY, N_AX };
static const char *const AX_NAME[N_AX] = {"topology", "slots", "capacity", "failure",
                                          "routing", "comm", "strategy"};
/* the JSON grid's list of each axis */
static const char *const AX_GRID[N_AX] = {"grid.topologies", "grid.slots", "grid.capacities",
                                          "grid.failures", "grid.routings", "grid.comms",
                                          "grid.strategies"};

/* What the merged spec points into. */
typedef struct store {
    tm__shard_set *set;
    axis ax[N_AX];
    char **slot_text;          /* decimal slots, owned */
    size_t n_slot_text;
    bool fixed;                /* the axes are the JSON grid's: no label is added */
    const char **topologies, **scales, **strategies;
    int32_t *slots;
    tm_study_failure *failures;
    tm_route_kind *routings;
    const char **comm_names;
    int *row_ax;               /* per shard row: N_AX axis indices, then its sample */
} store;

static int intern(axis *a, const char *label)
{
    int32_t i = tm__strmap_get(&a->index, label);
    if (i >= 0)
        return i;
    if (tm__grow((void **)&a->label, &a->cap, a->n + 1, sizeof *a->label) ||
        tm__strmap_put(&a->index, label, (int32_t)a->n, NULL) < 0)
        return -1;
    a->label[a->n] = label;
    return (int)a->n++;
}

/* "none", "links P%", "link A:B,..", "switch S,..": the failure that
 * tm_study_failure_label prints as label. */
static bool parse_fail(const char *label, tm_study_failure *f)
{
    char back[400];
    memset(f, 0, sizeof *f);
    if (strcmp(label, "none") == 0) {
        f->kind = TM_STUDY_FAIL_NONE;
    } else if (strncmp(label, "links ", 6) == 0) {
        const char *p = label + 6;
        size_t len = strlen(p);
        char num[64];
        if (len < 2 || len >= sizeof num || p[len - 1] != '%')
            return false;
        memcpy(num, p, len - 1);
        num[len - 1] = 0;
        if (tm__str_to_double(num, &f->pct) || !(f->pct > 0 && f->pct <= 100))
            return false;
        f->kind = TM_STUDY_FAIL_RANDOM;
    } else if (strncmp(label, "link ", 5) == 0 && label[5]) {
        f->kind = TM_STUDY_FAIL_LINKS;
        f->names = label + 5;
    } else if (strncmp(label, "switch ", 7) == 0 && label[7]) {
        f->kind = TM_STUDY_FAIL_SWITCHES;
        f->names = label + 7;
    } else {
        return false;
    }
    tm_study_failure_label(f, back, sizeof back);
    return strcmp(back, label) == 0;
}

/* A slots value of the JSON grid: 0 (the topology's) up to 2^20. */
static bool json_slots_ok(const char *g)
{
    int64_t v;
    return strspn(g, "0123456789") == strlen(g) && tm__str_to_i64(g, &v) == 0 && v <= (1L << 20);
}

static tm_err bad_label(tm_ctx *ctx, const tm__shard_set *set, const tm__shard_row *r,
                        const char *col, const char *val, const char *expect)
{
    char w[300];
    tm__shard_row_where(set, r, w, sizeof w);
    return tm__fail(ctx, TM_EINPUT, "%s: %s '%.80s' is not %s", w, col, val, expect);
}

/* The axis index of a label; a new label is appended unless the axes are
 * the grid's (JSON), where it is -2.  Slots are kept by their decimal text
 * (copied: one string map for every axis). */
static int axis_index(store *st, int k, const char *label)
{
    int32_t i = tm__strmap_get(&st->ax[k].index, label);
    char *copy, **grown;
    if (i >= 0 || st->fixed)
        return i >= 0 ? i : -2;
    if (k != AX_SLOTS)
        return intern(&st->ax[k], label);
    if (!(copy = tm__strdup(label)) ||
        !(grown = tm__realloc_n(st->slot_text, st->n_slot_text + 1, sizeof *grown))) {
        free(copy);
        return -1;
    }
    st->slot_text = grown;
    st->slot_text[st->n_slot_text++] = copy;
    return intern(&st->ax[k], copy);
}

/* The labels of shard row r as axis indices ax[0..N_AX), and its sample
 * in ax[N_AX]. */
static tm_err row_labels(tm_ctx *ctx, store *st, const tm__shard_row *r, int *ax, int *max_sample)
{
    static const tm__shard_field *const fields[N_AX] = {&F_TOPO, &F_SLOTS, &F_CAP, &F_FAIL,
                                                        &F_ROUTING, &F_COMM, &F_STRATEGY};
    const tm__shard_set *set = st->set;
    const char *v[N_AX], *stat;
    char slots_text[24];
    int64_t slots, sample;
    tm_study_failure f;
    tm_err err;
    if ((err = tm__shard_get_str(ctx, set, r, F_STAT, &stat)))
        return err;
    if (strcmp(stat, "run") != 0)
        return bad_label(ctx, set, r, "stat", stat, "'run' (a shard holds run rows only: the "
                         "merge computes mean and worst)");
    for (int k = 0; k < N_AX; k++)
        if (k != AX_SLOTS && (err = tm__shard_get_str(ctx, set, r, *fields[k], &v[k])))
            return err;
    if ((err = tm__shard_get_int(ctx, set, r, F_SLOTS, 0, 1L << 20, &slots)) ||
        (err = tm__shard_get_int(ctx, set, r, F_SAMPLE, 0, 10000, &sample)))
        return err;
    snprintf(slots_text, sizeof slots_text, "%lld", (long long)slots);
    v[AX_SLOTS] = slots_text;
    if (!parse_fail(v[AX_FAIL], &f))
        return bad_label(ctx, set, r, "failure", v[AX_FAIL], "a failure (none, links P%, link "
                         "A:B, switch S)");
    if ((f.kind == TM_STUDY_FAIL_RANDOM) != (sample > 0))
        return bad_label(ctx, set, r, "sample", f.kind == TM_STUDY_FAIL_RANDOM ? "0" : "> 0",
                         "the sample of this failure (1..N for random failures, else 0)");
    if (tm_route_kind_parse(v[AX_ROUTING]) < 0 || tm_route_kind_parse(v[AX_ROUTING]) == TM_ROUTE_LFT)
        return bad_label(ctx, set, r, "routing", v[AX_ROUTING], "a study's routing model");
    if (!*v[AX_TOPO] || !*v[AX_COMM] || !*v[AX_STRATEGY] || !*v[AX_CAP])
        return bad_label(ctx, set, r, "label", "", "allowed empty (topology, comm, capacity, "
                         "strategy)");
    for (int k = 0; k < N_AX; k++) {
        if ((ax[k] = axis_index(st, k, v[k])) == -1)
            return tm__nomem(ctx);
        if (ax[k] == -2) {
            char w[300];
            tm__shard_row_where(set, r, w, sizeof w);
            return tm__fail(ctx, TM_EINPUT, "%s: %s '%.80s' is not in the study's '%s'", w,
                            AX_NAME[k], v[k], AX_GRID[k]);
        }
    }
    ax[N_AX] = (int)sample;
    if (sample > *max_sample)
        *max_sample = (int)sample;
    return TM_EOK;
}

/* JSON: the axes are the grid the shards carry (the same in every file),
 * each label once and each a valid value. */
static tm_err grid_axes(tm_ctx *ctx, store *st, tm_study_merged *m)
{
    const tm__shard_set *set = st->set;
    int64_t n, samples, seed;
    char buf[32];
    tm_err err;
    for (int k = 0; k < N_AX; k++) {
        if ((err = tm__shard_meta_list(ctx, set, AX_GRID[k], &n)))
            return err;
        for (int64_t i = 0; i < n; i++) {
            const char *g = tm__shard_meta_item(set, AX_GRID[k], i, buf, sizeof buf);
            tm_study_failure f;
            bool valid = g && *g && (k != AX_FAIL || parse_fail(g, &f)) &&
                         (k != AX_ROUTING || (tm_route_kind_parse(g) >= 0 &&
                                              tm_route_kind_parse(g) != TM_ROUTE_LFT)) &&
                         (k != AX_SLOTS || json_slots_ok(g));
            if (!valid || tm__strmap_get(&st->ax[k].index, g) >= 0)
                return tm__fail(ctx, TM_EINPUT, "%s: item %lld of '%s' ('%.60s') is %s",
                                tm__shard_set_name(set, 0), (long long)i, AX_GRID[k],
                                g ? g : "not a string", valid ? "there twice" : "not a valid value");
            if (axis_index(st, k, g) < 0)
                return tm__nomem(ctx);
        }
        if (!st->ax[k].n)
            return tm__fail(ctx, TM_EINPUT, "%s: '%s' is empty", tm__shard_set_name(set, 0),
                            AX_GRID[k]);
    }
    if ((err = tm__shard_meta_int(ctx, set, "grid.samples", 1, 10000, &samples)) ||
        (err = tm__shard_meta_int(ctx, set, "grid.seed", 0, INT64_MAX, &seed)) ||
        (err = tm__shard_meta_str(ctx, set, "grid.alloc", &m->alloc)) ||
        (err = tm__shard_meta_str(ctx, set, "grid.refine", &m->refine)))
        return err;
    m->spec.samples = (int)samples;
    m->seed = seed;
    m->has_grid = true;
    st->fixed = true;
    return TM_EOK;
}

/* The spec of the rebuilt axes. */
static tm_err make_spec(tm_ctx *ctx, store *st, int samples, tm_study_spec *s)
{
    axis *ax = st->ax;
    size_t nt = ax[AX_TOPO].n, nc = ax[AX_COMM].n;
    memset(s, 0, sizeof *s);
    st->topologies = tm__malloc_n(nt, sizeof *st->topologies);
    st->comm_names = tm__calloc_n(nc, sizeof *st->comm_names);
    st->slots = tm__malloc_n(ax[AX_SLOTS].n, sizeof *st->slots);
    st->scales = tm__malloc_n(ax[AX_CAP].n, sizeof *st->scales);
    st->failures = tm__malloc_n(ax[AX_FAIL].n, sizeof *st->failures);
    st->routings = tm__malloc_n(ax[AX_ROUTING].n, sizeof *st->routings);
    st->strategies = tm__malloc_n(ax[AX_STRATEGY].n, sizeof *st->strategies);
    if (!st->topologies || !st->comm_names || !st->slots || !st->scales || !st->failures ||
        !st->routings || !st->strategies)
        return tm__nomem(ctx);
    for (size_t i = 0; i < nt; i++)
        st->topologies[i] = ax[AX_TOPO].label[i];
    for (size_t i = 0; i < nc; i++)
        st->comm_names[i] = ax[AX_COMM].label[i];
    for (size_t i = 0; i < ax[AX_SLOTS].n; i++)
        st->slots[i] = (int32_t)atol(ax[AX_SLOTS].label[i]);
    for (size_t i = 0; i < ax[AX_CAP].n; i++)
        st->scales[i] = strcmp(ax[AX_CAP].label[i], "none") == 0 ? NULL : ax[AX_CAP].label[i];
    for (size_t i = 0; i < ax[AX_FAIL].n; i++)
        parse_fail(ax[AX_FAIL].label[i], &st->failures[i]); /* checked in row_labels */
    for (size_t i = 0; i < ax[AX_ROUTING].n; i++)
        st->routings[i] = (tm_route_kind)tm_route_kind_parse(ax[AX_ROUTING].label[i]);
    for (size_t i = 0; i < ax[AX_STRATEGY].n; i++)
        st->strategies[i] = ax[AX_STRATEGY].label[i];
    s->topologies = st->topologies;
    s->n_topologies = (int)nt;
    s->comms = NULL; /* labels only: the names are the merged comm_names */
    s->n_comms = (int)nc;
    s->slots = st->slots;
    s->n_slots = (int)ax[AX_SLOTS].n;
    s->scales = st->scales;
    s->n_scales = (int)ax[AX_CAP].n;
    s->failures = st->failures;
    s->n_failures = (int)ax[AX_FAIL].n;
    s->routings = st->routings;
    s->n_routings = (int)ax[AX_ROUTING].n;
    s->strategies = st->strategies;
    s->n_strategies = (int)ax[AX_STRATEGY].n;
    s->samples = samples;
    return TM_EOK;
}

/* Rows (runs: only the run rows) of the grid of s, or -1 above INT32_MAX
 * (tm__grid_count_rows counts in int). */
static int64_t grid_rows(const tm_study_spec *s, bool runs)
{
    int64_t per = 0, rows;
    for (int f = 0; f < s->n_failures; f++) {
        bool random = s->failures[f].kind == TM_STUDY_FAIL_RANDOM;
        per += (int64_t)(random ? s->samples : 1) * s->n_strategies +
               (!runs && random && s->samples > 1 ? 2 * s->n_strategies : 0);
    }
    rows = per;
    const int64_t mult[] = {s->n_topologies, s->n_slots, s->n_scales, s->n_routings, s->n_comms};
    for (size_t i = 0; i < sizeof mult / sizeof *mult; i++) {
        if (mult[i] && rows > INT32_MAX / mult[i])
            return -1;
        rows *= mult[i];
    }
    return rows;
}

static tm_err read_status(tm_ctx *ctx, const tm__shard_set *set, const tm__shard_row *r,
                          tm_study_status *out)
{
    const char *v;
    tm_err err = tm__shard_get_str(ctx, set, r, F_STATUS, &v);
    if (err)
        return err;
    for (int k = TM_STUDY_OK; k <= TM_STUDY_INFEASIBLE; k++)
        if (strcmp(v, tm_study_status_name((tm_study_status)k)) == 0) {
            *out = (tm_study_status)k;
            return TM_EOK;
        }
    return bad_label(ctx, set, r, "status", v, "a status (ok, disconnected, unroutable, infeasible)");
}

static tm_err copy_text(tm_ctx *ctx, const tm__shard_set *set, const tm__shard_row *r,
                        tm__shard_field f, char *dst, size_t size)
{
    const char *v;
    tm_err err = tm__shard_get_str(ctx, set, r, f, &v);
    if (err)
        return err;
    if (strlen(v) >= size)
        return bad_label(ctx, set, r, f.json, v, "as short as a study writes it");
    memcpy(dst, v, strlen(v) + 1);
    return TM_EOK;
}

/* The figures and outcome of run row out from shard row r. */
static tm_err read_run(tm_ctx *ctx, const tm__shard_set *set, const tm__shard_row *r,
                       tm_study_row *out)
{
    int64_t scaled, failed;
    tm_err err;
    if ((err = tm__shard_get_int(ctx, set, r, F_SCALED, 0, INT32_MAX, &scaled)) ||
        (err = tm__shard_get_int(ctx, set, r, F_FAILED, 0, INT32_MAX, &failed)) ||
        (err = read_status(ctx, set, r, &out->status)))
        return err;
    out->scaled_cables = (int32_t)scaled;
    out->failed_cables = (int32_t)failed;
    if (out->status != TM_STUDY_OK)
        return copy_text(ctx, set, r, F_CAUSE, out->cause, sizeof out->cause);
    for (int k = 0; k < TM_STUDY_N_FIG; k++)
        if ((err = tm__shard_get_num(ctx, set, r, F_BASE[k], tm__study_fig(out, true, k))) ||
            (err = tm__shard_get_num(ctx, set, r, F_VAL[k], tm__study_fig(out, false, k))))
            return err;
    for (int k = 0; k < 3; k++) /* the gaps follow from these */
        if ((err = tm__shard_get_num(ctx, set, r, F_BOUND[k], tm__study_bound(out, k))))
            return err;
    return copy_text(ctx, set, r, F_BEST, out->best, sizeof out->best);
}

/* A row's labels as text, for messages. */
static void describe(const tm_study_spec *s, const char *const *comm_names, const tm_study_row *r,
                     char *buf, size_t size)
{
    char fl[400];
    tm_study_failure_label(&s->failures[r->failure], fl, sizeof fl);
    snprintf(buf, size, "%.80s | %.80s | %s | slots %d | capacity %.40s | %.80s | sample %d | %.40s",
             s->topologies[r->topology], comm_names[r->comm],
             tm_route_kind_name(s->routings[r->routing]), (int)s->slots[r->slots],
             s->scales[r->scale] ? s->scales[r->scale] : "none", fl, r->sample,
             s->strategies[r->strategy]);
}

/* Every run row of the grid from its shard row, which must bear its labels. */
static tm_err fill_rows(tm_ctx *ctx, store *st, const tm_study_spec *s, tm_study_result *res)
{
    const tm__shard_set *set = st->set;
    int64_t n_shard = tm__shard_set_n_rows(set), j = 0;
    char w[300], a[600], b[600];
    for (int i = 0; i < res->n_rows; i++) {
        tm_study_row *g = &res->rows[i];
        const tm__shard_row *r = j < n_shard ? tm__shard_set_nth(set, j) : NULL;
        const int *ax;
        bool here = r && tm__shard_row_pos(r) == i;
        tm_err err;
        g->position = i;
        if (g->stat != TM_STUDY_RUN) {
            if (here) {
                tm__shard_row_where(set, r, w, sizeof w);
                return tm__fail(ctx, TM_EINPUT, "%s: row %d of the study is a %s row, which only "
                                "the merge computes", w, i, tm_study_stat_name(g->stat));
            }
            continue;
        }
        if (!here) {
            describe(s, st->comm_names, g, a, sizeof a);
            return tm__fail(ctx, TM_EINPUT, "%s: row %d of its study (%s) is in none of the "
                            "shards' files", tm__shard_set_name(set, 0), i, a);
        }
        ax = &st->row_ax[j * (N_AX + 1)];
        if (ax[AX_TOPO] != g->topology || ax[AX_SLOTS] != g->slots || ax[AX_CAP] != g->scale ||
            ax[AX_FAIL] != g->failure || ax[AX_ROUTING] != g->routing || ax[AX_COMM] != g->comm ||
            ax[AX_STRATEGY] != g->strategy || ax[N_AX] != g->sample) {
            tm_study_row got = *g;
            got.topology = ax[AX_TOPO], got.slots = ax[AX_SLOTS], got.scale = ax[AX_CAP];
            got.failure = ax[AX_FAIL], got.routing = ax[AX_ROUTING], got.comm = ax[AX_COMM];
            got.strategy = ax[AX_STRATEGY], got.sample = ax[N_AX];
            tm__shard_row_where(set, r, w, sizeof w);
            describe(s, st->comm_names, &got, a, sizeof a);
            describe(s, st->comm_names, g, b, sizeof b);
            return tm__fail(ctx, TM_EINPUT, "%s: row %d is %s, but the study's grid has %s "
                            "there", w, i, a, b);
        }
        if ((err = read_run(ctx, set, r, g)))
            return err;
        j++;
    }
    return TM_EOK;
}

static tm_err merge(tm_ctx *ctx, store *st, tm_study_merged *m)
{
    const tm__shard_set *set = st->set;
    int64_t n = tm__shard_set_n_rows(set), rows;
    int max_sample = 0, n_grid = 0, n_nc, samples;
    tm__netcase *nc = NULL;
    tm_err err;
    if (!(st->row_ax = tm__malloc_n((size_t)n * (N_AX + 1), sizeof *st->row_ax)))
        return tm__nomem(ctx);
    if (tm__shard_set_format(set) == TM__SHARD_JSON && (err = grid_axes(ctx, st, m)))
        return err;
    for (int64_t j = 0; j < n; j++)
        if ((err = row_labels(ctx, st, tm__shard_set_nth(set, j), &st->row_ax[j * (N_AX + 1)],
                              &max_sample)))
            return err;
    if (!m->has_grid)
        m->spec.samples = max_sample > 0 ? max_sample : 1;
    samples = m->spec.samples;
    if ((err = make_spec(ctx, st, samples, &m->spec)))
        return err;
    m->comm_names = st->comm_names;
    if (max_sample > samples)
        return tm__fail(ctx, TM_EINPUT, "%s: a row of sample %d, but 'grid.samples' is %d",
                        tm__shard_set_name(set, 0), max_sample, samples);
    /* every run once: also bounds what is allocated by the files' size */
    if (grid_rows(&m->spec, true) != n)
        return tm__fail(ctx, TM_EINPUT, "%s: the shards hold %lld rows, but the grid of their "
                        "labels has %lld runs: not every run of one study", tm__shard_set_name(set, 0),
                        (long long)n, (long long)grid_rows(&m->spec, true));
    rows = grid_rows(&m->spec, false);
    if (rows != tm__shard_set_total(set))
        return tm__fail(ctx, TM_EINPUT, "%s: the shards' rows make a grid of %lld rows (%zu topologies, %zu "
                        "slots, %zu capacities, %zu failures, %zu routings, %zu comms, %zu "
                        "strategies, %d samples), but the shards say %lld: not the shards of one "
                        "study", tm__shard_set_name(set, 0), (long long)rows, st->ax[AX_TOPO].n, st->ax[AX_SLOTS].n,
                        st->ax[AX_CAP].n, st->ax[AX_FAIL].n, st->ax[AX_ROUTING].n,
                        st->ax[AX_COMM].n, st->ax[AX_STRATEGY].n, m->spec.samples,
                        (long long)tm__shard_set_total(set));
    n_grid = (int)rows;
    n_nc = tm__grid_count_netcases(&m->spec);
    m->res.rows = tm__calloc_n((size_t)n_grid, sizeof *m->res.rows);
    nc = tm__calloc_n((size_t)n_nc + 1, sizeof *nc);
    if (!m->res.rows || !nc) {
        free(nc);
        return tm__nomem(ctx);
    }
    m->res.n_rows = m->res.total_rows = n_grid;
    tm__grid_fill(&m->spec, m->res.rows, nc);
    free(nc);
    err = fill_rows(ctx, st, &m->spec, &m->res);
    if (err)
        return err;
    for (int i = 0; i < n_grid; i++)
        m->res.n_runs += m->res.rows[i].stat == TM_STUDY_RUN;
    m->res.total_runs = m->res.n_runs;
    tm__study_summarize(&m->res);
    m->n_shards = tm__shard_set_count(set);
    return TM_EOK;
}

static void store_free(store *st)
{
    if (!st)
        return;
    for (int k = 0; k < N_AX; k++) {
        tm__strmap_release(&st->ax[k].index);
        free(st->ax[k].label);
    }
    for (size_t i = 0; i < st->n_slot_text; i++)
        free(st->slot_text[i]);
    free(st->slot_text);
    free(st->topologies);
    free(st->scales);
    free(st->strategies);
    free(st->slots);
    free(st->failures);
    free(st->routings);
    free(st->comm_names);
    free(st->row_ax);
    tm__shard_set_free(st->set);
    free(st);
}

tm_err tm_study_merge(tm_ctx *ctx, FILE *const *in, const char *const *names, int n,
                      tm_study_merged *out)
{
    store *st = tm__calloc_n(1, sizeof *st);
    tm_err err;
    memset(out, 0, sizeof *out);
    if (!st)
        return tm__nomem(ctx);
    out->store_ = st;
    for (int k = 0; k < N_AX; k++)
        tm__strmap_init(&st->ax[k].index);
    err = tm__shard_set_new(ctx, &KIND, &st->set);
    for (int i = 0; !err && i < n; i++)
        err = tm__shard_set_add(ctx, st->set, in[i], names[i]);
    if (!err)
        err = tm__shard_set_finish(ctx, st->set);
    if (!err)
        err = merge(ctx, st, out);
    if (err)
        tm_study_merged_release(out);
    return err;
}

void tm_study_merged_release(tm_study_merged *m)
{
    tm_study_result_release(&m->res);
    store_free(m->store_);
    memset(m, 0, sizeof *m);
}
