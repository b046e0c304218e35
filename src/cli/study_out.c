/* study_out.c - the rows of a study as a table (stdout), CSV or JSON
 * (keys and columns in docs/design.md "JSON keys"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shard_cli.h"
#include "study_cli.h"

static const char *const FIG[TM_STUDY_N_FIG] = {"max_congestion", "avg_dilation", "qap_J",
                                           "est_time_s"};

static const char *routing_name(const tm_study_spec *s, int i)
{
    return tm_route_kind_name(s->routings[i]);
}

/* ---- table ----------------------------------------------------------- */

static bool same_scenario(const tm_study_row *a, const tm_study_row *b)
{
    return a->stat == b->stat && a->topology == b->topology && a->slots == b->slots &&
           a->scale == b->scale && a->failure == b->failure && a->routing == b->routing &&
           a->comm == b->comm && (a->stat != TM_STUDY_RUN || a->sample == b->sample);
}

static void print_header(FILE *out, const study_grid *g, const tm_study_row *r)
{
    const tm_study_spec *s = g->s;
    char fl[400];
    study_fail_label(s, r->failure, fl, sizeof fl);
    fprintf(out, "\n== %s | %s | %s | slots ", s->topologies[r->topology], g->comm_names[r->comm],
            routing_name(s, r->routing));
    if (s->slots[r->slots])
        fprintf(out, "%d", (int)s->slots[r->slots]);
    else
        fputs("as topology", out);
    fprintf(out, " | capacity %s", study_scale_label(s, r->scale));
    if (r->scaled_cables && r->stat == TM_STUDY_RUN)
        fprintf(out, " (%d cables)", (int)r->scaled_cables);
    fprintf(out, " | failure %s", fl);
    if (r->stat == TM_STUDY_RUN && r->sample)
        fprintf(out, " sample %d/%d", r->sample, s->samples);
    if (r->stat == TM_STUDY_RUN && r->failure && s->failures[r->failure].kind != TM_STUDY_FAIL_NONE)
        fprintf(out, " (%d cable%s failed)", (int)r->failed_cables, r->failed_cables == 1 ? "" : "s");
    if (r->stat != TM_STUDY_RUN)
        fprintf(out, " %s of %d samples (%d not ok)", tm_study_stat_name(r->stat), r->runs,
                r->not_ok);
    fprintf(out, "\n%-12s %-12s %13s %13s %8s %9s %9s %8s %13s %13s %8s %13s %13s %8s "
            "%13s %6s %9s %6s %13s %6s  %s\n",
            "strategy", "status", "cong consec", "cong mapped", "change", "dil consec",
            "dil mapped", "change", "J consec", "J mapped", "change", "time consec",
            "time mapped", "change", "cong bound", "gap", "dil bound", "gap", "J bound", "gap",
            "best");
}

static void print_row(FILE *out, const tm_study_spec *s, const tm_study_row *r)
{
    fprintf(out, "%-12s %-12s", s->strategies[r->strategy], tm_study_status_name(r->status));
    if (r->status != TM_STUDY_OK) {
        fprintf(out, " %s\n", r->cause);
        return;
    }
    for (int k = 0; k < TM_STUDY_N_FIG; k++) {
        int w = k == TM_STUDY_FIG_DILATION ? 9 : 13;
        double b = tm_study_row_fig(r, true, k), v = tm_study_row_fig(r, false, k);
        fprintf(out, k == TM_STUDY_FIG_DILATION ? " %*.4f %*.4f" : " %*.6g %*.6g", w, b, w, v);
        fprintf(out, " %+7.1f%%", tm_study_change_pct(b, v));
    }
    for (int k = 0; k < 3; k++) {
        double g = tm_study_row_gap(r, (tm_study_fig)k);
        fprintf(out, k == TM_STUDY_FIG_DILATION ? " %9.4f" : " %13.6g", tm_study_row_bound(r, (tm_study_fig)k));
        if (isinf(g))
            fprintf(out, " %6s", "-");
        else
            fprintf(out, " %6.3f", g);
    }
    fprintf(out, "  %s\n", r->best);
}

void study_print_table(FILE *out, const study_grid *g, const tm_study_result *res)
{
    for (int i = 0; i < res->n_rows; i++) {
        if (i == 0 || !same_scenario(&res->rows[i - 1], &res->rows[i]))
            print_header(out, g, &res->rows[i]);
        print_row(out, g->s, &res->rows[i]);
    }
    fputc('\n', out);
}

/* ---- CSV --------------------------------------------------------------- */

/* RFC 4180: quoted when it holds a comma, quote or line break. */
static void csv_cell(FILE *f, const char *v)
{
    if (strpbrk(v, ",\"\r\n")) {
        fputc('"', f);
        for (; *v; v++) {
            if (*v == '"')
                fputc('"', f);
            fputc(*v, f);
        }
        fputc('"', f);
    } else {
        fputs(v, f);
    }
}

static void csv_str(FILE *f, const char *v, bool last)
{
    csv_cell(f, v);
    fputc(last ? '\n' : ',', f);
}

static void csv_num(FILE *f, bool ok, double v)
{
    if (ok)
        fprintf(f, "%.17g", v);
    fputc(',', f);
}


static bool sharded(const study_outputs *o) { return o->shard.n > 0; }

static void csv_row(FILE *f, const study_outputs *o, const study_grid *g,
                    const tm_study_result *res, const tm_study_row *r)
{
    const tm_study_spec *s = g->s;
    char fl[400];
    bool ok = r->status == TM_STUDY_OK, sum = r->stat != TM_STUDY_RUN;
    study_fail_label(s, r->failure, fl, sizeof fl);
    csv_str(f, tm_study_stat_name(r->stat), false);
    csv_str(f, s->topologies[r->topology], false);
    csv_str(f, g->comm_names[r->comm], false);
    csv_str(f, routing_name(s, r->routing), false);
    fprintf(f, "%d,", (int)s->slots[r->slots]);
    csv_str(f, study_scale_label(s, r->scale), false);
    csv_str(f, fl, false);
    fprintf(f, "%d,%d,%d,", r->sample, (int)r->scaled_cables, (int)r->failed_cables);
    csv_str(f, s->strategies[r->strategy], false);
    csv_str(f, tm_study_status_name(r->status), false);
    if (sum)
        fprintf(f, "%d,%d,", r->runs, r->not_ok);
    else
        fputs(",,", f);
    for (int k = 0; k < TM_STUDY_N_FIG; k++)
        csv_num(f, ok, tm_study_row_fig(r, true, k));
    for (int k = 0; k < TM_STUDY_N_FIG; k++)
        csv_num(f, ok, tm_study_row_fig(r, false, k));
    for (int k = 0; k < TM_STUDY_N_FIG; k++)
        csv_num(f, ok,
                tm_study_change_pct(tm_study_row_fig(r, true, k), tm_study_row_fig(r, false, k)));
    for (int k = 0; k < 3; k++)
        csv_num(f, ok, tm_study_row_bound(r, (tm_study_fig)k));
    for (int k = 0; k < 3; k++) /* empty over a bound of 0 */
        csv_num(f, ok && !isinf(tm_study_row_gap(r, (tm_study_fig)k)),
                tm_study_row_gap(r, (tm_study_fig)k));
    csv_str(f, r->best, false);
    csv_cell(f, ok ? "" : r->cause);
    /* a shard's row: the unsharded line, then where it belongs */
    if (sharded(o))
        cli_shard_csv(f, &o->shard, o->shard_id, r->position, res->total_rows);
    fputc('\n', f);
}

static void write_csv(FILE *f, const study_outputs *o, const study_grid *g,
                      const tm_study_result *res)
{
    fputs(TM_STUDY_CSV_HEADER, f);
    fputs(sharded(o) ? "," TM_SHARD_CSV_COLUMNS "\n" : "\n", f);
    for (int i = 0; i < res->n_rows; i++)
        csv_row(f, o, g, res, &res->rows[i]);
}

/* ---- JSON --------------------------------------------------------------- */

static void json_figs(json_w *j, const char *key, const double *v)
{
    json_obj_begin(j, key);
    for (int k = 0; k < TM_STUDY_N_FIG; k++)
        json_num(j, FIG[k], v[k]);
    json_obj_end(j);
}

/* The row's lower bounds and the mapping's gaps (null over a bound of 0). */
static void json_bounds(json_w *j, const tm_study_row *r)
{
    json_obj_begin(j, "bounds");
    for (int k = 0; k < 3; k++)
        json_num(j, FIG[k], tm_study_row_bound(r, (tm_study_fig)k));
    json_obj_end(j);
    json_obj_begin(j, "gap");
    for (int k = 0; k < 3; k++) {
        if (isinf(tm_study_row_gap(r, (tm_study_fig)k)))
            json_null(j, FIG[k]);
        else
            json_num(j, FIG[k], tm_study_row_gap(r, (tm_study_fig)k));
    }
    json_obj_end(j);
}

static void json_row(json_w *j, const study_grid *g, const tm_study_row *r)
{
    const tm_study_spec *s = g->s;
    char fl[400];
    double base[TM_STUDY_N_FIG], val[TM_STUDY_N_FIG], pct[TM_STUDY_N_FIG];
    study_fail_label(s, r->failure, fl, sizeof fl);
    json_obj_begin(j, NULL);
    json_str(j, "stat", tm_study_stat_name(r->stat));
    json_str(j, "topology", s->topologies[r->topology]);
    json_str(j, "comm", g->comm_names[r->comm]);
    json_str(j, "routing", routing_name(s, r->routing));
    json_int(j, "slots", s->slots[r->slots]);
    json_str(j, "capacity", study_scale_label(s, r->scale));
    json_str(j, "failure", fl);
    json_int(j, "sample", r->sample);
    json_int(j, "scaled_cables", r->scaled_cables);
    json_int(j, "failed_cables", r->failed_cables);
    json_str(j, "strategy", s->strategies[r->strategy]);
    json_str(j, "status", tm_study_status_name(r->status));
    if (r->stat != TM_STUDY_RUN) {
        json_int(j, "runs", r->runs);
        json_int(j, "not_ok", r->not_ok);
    }
    if (r->status != TM_STUDY_OK) {
        json_str(j, "cause", r->cause);
    } else {
        for (int k = 0; k < TM_STUDY_N_FIG; k++) {
            base[k] = tm_study_row_fig(r, true, k);
            val[k] = tm_study_row_fig(r, false, k);
            pct[k] = tm_study_change_pct(base[k], val[k]);
        }
        json_figs(j, "consecutive", base);
        json_figs(j, "mapped", val);
        json_figs(j, "change_pct", pct);
        json_bounds(j, r);
        json_str(j, "best", r->best);
    }
    json_obj_end(j);
}

static void json_list(json_w *j, const char *key, const char *const *v, int n)
{
    json_arr_begin(j, key);
    for (int i = 0; i < n; i++)
        json_str(j, NULL, v[i]);
    json_arr_end(j);
}

static void json_grid(json_w *j, const study_outputs *o, const study_grid *g)
{
    const tm_study_spec *s = g->s;
    char fl[400];
    json_obj_begin(j, "grid");
    json_list(j, "topologies", s->topologies, s->n_topologies);
    json_arr_begin(j, "comms");
    for (int i = 0; i < s->n_comms; i++)
        json_str(j, NULL, g->comm_names[i]);
    json_arr_end(j);
    json_arr_begin(j, "routings");
    for (int i = 0; i < s->n_routings; i++)
        json_str(j, NULL, routing_name(s, i));
    json_arr_end(j);
    json_arr_begin(j, "slots");
    for (int i = 0; i < s->n_slots; i++)
        json_int(j, NULL, s->slots[i]);
    json_arr_end(j);
    json_arr_begin(j, "capacities");
    for (int i = 0; i < s->n_scales; i++)
        json_str(j, NULL, study_scale_label(s, i));
    json_arr_end(j);
    json_arr_begin(j, "failures");
    for (int i = 0; i < s->n_failures; i++)
        study_fail_label(s, i, fl, sizeof fl), json_str(j, NULL, fl);
    json_arr_end(j);
    json_list(j, "strategies", s->strategies, s->n_strategies);
    json_int(j, "samples", s->samples);
    json_str(j, "alloc", s->alloc ? s->alloc : "all hosts");
    json_str(j, "refine", s->refine ? s->refine : "none");
    json_int(j, "seed", o->seed);
    json_obj_end(j);
}

/* A shard's "shard" object: its rows' positions in the whole grid. */
static tm_err json_shard(tm_ctx *ctx, json_w *j, const study_outputs *o,
                         const tm_study_result *res)
{
    int64_t *pos = calloc((size_t)res->n_rows + 1, sizeof *pos);
    if (!pos)
        return tm_ctx_fail(ctx, TM_ENOMEM, "out of memory");
    for (int i = 0; i < res->n_rows; i++)
        pos[i] = res->rows[i].position;
    cli_shard_json(j, &o->shard, o->shard_id, res->total_rows, pos, res->n_rows);
    free(pos);
    return TM_EOK;
}

static tm_err write_json(tm_ctx *ctx, FILE *f, const study_outputs *o, const study_grid *g,
                         const tm_study_result *res)
{
    json_w j;
    tm_err err;
    json_begin(&j, f);
    json_obj_begin(&j, NULL);
    json_grid(&j, o, g);
    if (sharded(o) && (err = json_shard(ctx, &j, o, res)))
        return err;
    json_int(&j, "runs", res->n_runs);
    json_arr_begin(&j, "rows");
    for (int i = 0; i < res->n_rows; i++)
        json_row(&j, g, &res->rows[i]);
    json_arr_end(&j);
    json_obj_end(&j);
    json_end(&j);
    return TM_EOK;
}

tm_err study_write_all(tm_ctx *ctx, const study_outputs *o, const study_grid *g,
                       const tm_study_result *res)
{
    tm_ofile of[4];
    int n = 0;
    /* the page first (itself atomic): if it fails, no other file is written */
    tm_err err = o->report ? study_write_report(ctx, o->report, g, res) : TM_EOK;
    /* every file written to its temporary first, then all renamed: a
     * failing write leaves none of them */
    for (; !err && n < o->n_outs && n < 4; n++) {
        const char *p = o->outs[n];
        size_t len = strlen(p);
        err = tm_ofile_open(ctx, p, &of[n]);
        if (err)
            break;
        if (len >= 4 && strcmp(p + len - 4, ".csv") == 0)
            write_csv(of[n].fp, o, g, res);
        else
            err = write_json(ctx, of[n].fp, o, g, res);
        if (err) {
            n++;
            break;
        }
    }
    for (int i = 0; i < n; i++) {
        if (err)
            tm_ofile_abort(&of[i]);
        else
            err = tm_ofile_commit(ctx, &of[i]);
    }
    return err;
}
