/* merge.c - the outputs of the shards of a workload eval or of an
 * as-recorded replay joined into the whole result (wl_shard.h,
 * docs/workload.md "Shards").
 *
 * Every row is a shard's: the merge reads each one back (strings as
 * written, figures exactly: they are printed with 17 digits), checks that
 * every position of the unsharded list has one and that their job indices
 * follow the list's order, and takes the members that every shard holds
 * alike (the head, eval's fabric, the replay's timeline: tm__shard_set_add
 * compared them) from the first file.  The statistics of the whole set
 * (eval's slowdown, the replay's summary) are then computed from the rows
 * as the commands compute them (tm_workload_doc_summarize). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/util.h"
#include "wl_shard.h"

static const char *const VARYING[] = {"time_s", NULL};
static const tm__shard_kind EVAL = {"workload eval", "jobs", VARYING, TM_WORKLOAD_EVAL_CSV_HEADER};
static const tm__shard_kind REPLAY = {"workload replay", "jobs", VARYING,
                                      TM_WORKLOAD_REPLAY_CSV_HEADER};

const tm__shard_kind *tm__wl_shard_kind(bool replay) { return replay ? &REPLAY : &EVAL; }

/* Largest file read, as src/shard's. */
#define MAX_FILE_BYTES ((size_t)1 << 31)

#define F(j, c) ((tm__shard_field){j, c})
static const tm__shard_field F_POLICY = F("policy", "policy"), F_JOB = F("job", "job"),
    F_INDEX = F("index", "index"), F_LINE = F("line", "line"), F_NODES = F("nodes", "nodes"),
    F_N_NODES = F("n_nodes", "n_nodes"), F_N_TASKS = F("n_tasks", "n_tasks"),
    F_COMM = F("comm", "comm"), F_START = F("start", "start"), F_END = F("end", "end"),
    F_PLACED = F("placed", "placed"), F_SLOWDOWN = F("slowdown", "slowdown"),
    F_WORST_SLOW = F("worst_slowdown", "worst_slowdown"),
    F_WORST_CONG = F("worst_max_congestion", "worst_max_congestion"),
    F_INTERVALS = F("intervals", "intervals"), F_GROUP = F("group", "group"),
    F_LINKS_USED = F("links_used", "links_used"), F_LINKS_SHARED = F("links_shared", "links_shared"),
    F_SHARES = F("shares_with", "shares_with");
/* The figures: JSON keys under alone. / shared., CSV columns (shared
 * dilation and J are alone's: the CSV prints them once; one
 * time_approximate for both). */
static const tm__shard_field F_ALONE[5] = {
    F("alone.max_congestion", "alone_max_congestion"),
    F("alone.avg_dilation", "alone_avg_dilation"), F("alone.qap_J", "alone_qap_J"),
    F("alone.est_time_s", "alone_est_time_s"), F("alone.time_approximate", NULL)};
static const tm__shard_field F_SHARED[5] = {
    F("shared.max_congestion", "shared_max_congestion"),
    F("shared.avg_dilation", "alone_avg_dilation"), F("shared.qap_J", "alone_qap_J"),
    F("shared.est_time_s", "shared_est_time_s"), F("shared.time_approximate", "time_approximate")};
#undef F

typedef struct merger {
    tm_ctx *ctx;
    tm__shard_set *set;
    tm_workload_doc *d;
    bool json;
} merger;

/* ---- rows ---------------------------------------------------------------------- */

static tm_err row_error(const merger *m, const tm__shard_row *r, const char *fmt, ...)
    TM_PRINTF(3, 4);
static tm_err row_error(const merger *m, const tm__shard_row *r, const char *fmt, ...)
{
    char where[300], what[300];
    va_list ap;
    tm__shard_row_where(m->set, r, where, sizeof where);
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return tm__fail(m->ctx, TM_EINPUT, "%s: %s", where, what);
}

/* A string field, NULL when it is absent (JSON) or empty (CSV). */
static tm_err opt_str(const merger *m, const tm__shard_row *r, tm__shard_field f,
                      const char **out)
{
    tm_err err;
    *out = NULL;
    if (!tm__shard_has(m->set, r, f))
        return TM_EOK;
    if ((err = tm__shard_get_str(m->ctx, m->set, r, f, out)))
        return err;
    if (!**out)
        *out = NULL;
    return TM_EOK;
}

static tm_err get_i32(const merger *m, const tm__shard_row *r, tm__shard_field f, int32_t *out)
{
    int64_t v;
    tm_err err = tm__shard_get_int(m->ctx, m->set, r, f, 0, INT32_MAX, &v);
    *out = (int32_t)v;
    return err;
}

static tm_err figures(const merger *m, const tm__shard_row *r, const tm__shard_field *f,
                      tm_job_figures *out)
{
    tm_err err;
    if ((err = tm__shard_get_num(m->ctx, m->set, r, f[0], &out->max_congestion)) ||
        (err = tm__shard_get_num(m->ctx, m->set, r, f[1], &out->avg_dilation)) ||
        (err = tm__shard_get_num(m->ctx, m->set, r, f[2], &out->qap_J)) ||
        (err = tm__shard_get_num(m->ctx, m->set, r, f[3], &out->est_time_s)))
        return err;
    out->time_approximate = false;
    return f[4].csv || m->json ? tm__shard_get_bool(m->ctx, m->set, r, f[4], &out->time_approximate)
                               : TM_EOK;
}

/* JSON: a list of ids; CSV: ids separated by blanks (split at every one,
 * so that joining them again gives the cell back). */
static tm_err shares(const merger *m, const tm__shard_row *r, tm_workload_row *x)
{
    const char **list;
    int64_t n = 0;
    tm_err err;
    if (m->json) {
        if ((err = tm__shard_get_list(m->ctx, m->set, r, F_SHARES, &n)))
            return err;
    } else {
        const char *cell;
        if ((err = tm__shard_get_str(m->ctx, m->set, r, F_SHARES, &cell)))
            return err;
        n = *cell ? 1 : 0;
        for (const char *p = cell; *p; p++)
            n += *p == ' ';
    }
    if (n > INT32_MAX)
        return row_error(m, r, "shares_with: %lld ids", (long long)n);
    list = tm_workload_doc_keep(m->d, tm__calloc_n((size_t)n + 1, sizeof *list));
    if (!list)
        return tm__nomem(m->ctx);
    if (m->json) {
        for (int64_t i = 0; i < n; i++)
            list[i] = tm__shard_row_item(m->set, r, F_SHARES, i);
    } else if (n) {
        const char *cell;
        char *copy;
        tm__shard_get_str(m->ctx, m->set, r, F_SHARES, &cell);
        if (!(copy = tm_workload_doc_keep(m->d, tm__strdup(cell))))
            return tm__nomem(m->ctx);
        for (int64_t i = 0; i < n; i++) {
            list[i] = copy;
            copy += strcspn(copy, " ");
            if (*copy)
                *copy++ = '\0';
        }
    }
    x->shares_with = list;
    x->n_shares = (int32_t)n;
    return TM_EOK;
}

static tm_err read_row(const merger *m, const tm__shard_row *r, tm_workload_row *x)
{
    const tm_workload_doc *d = m->d;
    int64_t lo = 0, hi = INT32_MAX - 1;
    tm_err err;
    memset(x, 0, sizeof *x);
    x->placed = true;
    if (d->replay) {
        if ((err = tm__shard_get_str(m->ctx, m->set, r, F_POLICY, &x->policy)))
            return err;
        if (strcmp(x->policy, "as-recorded") != 0)
            return row_error(m, r, "policy '%.60s': only as-recorded replays are sharded",
                             x->policy);
    }
    if ((err = tm__shard_get_str(m->ctx, m->set, r, F_JOB, &x->job)) ||
        (err = tm__shard_get_int(m->ctx, m->set, r, F_INDEX, lo, hi, &x->index)) ||
        (err = tm__shard_get_int(m->ctx, m->set, r, F_LINE, 0, INT64_MAX, &x->line)) ||
        (err = tm__shard_get_str(m->ctx, m->set, r, F_NODES, &x->nodes)) ||
        (err = get_i32(m, r, F_N_NODES, &x->n_nodes)) ||
        (err = get_i32(m, r, F_N_TASKS, &x->n_tasks)) ||
        (err = tm__shard_get_str(m->ctx, m->set, r, F_COMM, &x->comm)) ||
        (err = opt_str(m, r, F_START, &x->start)) || (err = opt_str(m, r, F_END, &x->end)))
        return err;
    if (!x->start != !x->end || (d->replay && !x->start))
        return row_error(m, r, "%s", d->replay && !x->start && !x->end
                                         ? "no 'start' and 'end': a replay's rows have them"
                                         : "'start' and 'end' come together");
    if (d->replay && (err = tm__shard_get_bool(m->ctx, m->set, r, F_PLACED, &x->placed)))
        return err;
    if (x->placed) {
        if ((err = figures(m, r, F_ALONE, &x->alone)) ||
            (err = figures(m, r, F_SHARED, &x->shared)) ||
            (err = tm__shard_get_num(m->ctx, m->set, r, F_SLOWDOWN, &x->slowdown)))
            return err;
        if (d->replay &&
            ((err = tm__shard_get_num(m->ctx, m->set, r, F_WORST_SLOW, &x->worst_slowdown)) ||
             (err = tm__shard_get_num(m->ctx, m->set, r, F_WORST_CONG, &x->worst_max_congestion)) ||
             (err = get_i32(m, r, F_INTERVALS, &x->intervals))))
            return err;
    }
    if ((err = opt_str(m, r, F_GROUP, &x->group)))
        return err;
    /* a JSON row of a job not placed ends at "placed" */
    if (x->placed || !m->json) {
        if ((err = get_i32(m, r, F_LINKS_USED, &x->links_used)) ||
            (err = get_i32(m, r, F_LINKS_SHARED, &x->links_shared)) || (err = shares(m, r, x)))
            return err;
    }
    if (!x->shares_with &&
        !(x->shares_with = tm_workload_doc_keep(m->d, tm__calloc_n(1, sizeof(char *)))))
        return tm__nomem(m->ctx);
    return TM_EOK;
}

/* Every position once, job indices in the list's order (a replay's and
 * eval's without --at: the position itself). */
static tm_err read_rows(merger *m)
{
    tm_workload_doc *d = m->d;
    int64_t total = tm__shard_set_total(m->set), n = tm__shard_set_n_rows(m->set);
    bool index_is_pos = d->replay || (d->has_head && !d->at);
    tm_err err;
    if (n != total) {
        /* the first position no shard wrote */
        int64_t p = 0;
        while (p < n && tm__shard_row_pos(tm__shard_set_nth(m->set, p)) == p)
            p++;
        return tm__fail(m->ctx, TM_EINPUT, "%s: row %lld is in no shard (%lld of %lld rows "
                        "given): the shards' positions do not cover the list", 
                        tm__shard_set_name(m->set, 0), (long long)p, (long long)n,
                        (long long)total);
    }
    d->rows = tm_workload_doc_keep(d, tm__calloc_n((size_t)n + 1, sizeof *d->rows));
    if (!d->rows)
        return tm__nomem(m->ctx);
    for (int64_t p = 0; p < n; p++) {
        const tm__shard_row *r = tm__shard_set_nth(m->set, p);
        tm_workload_row *x = &d->rows[p];
        if ((err = read_row(m, r, x)))
            return err;
        if (index_is_pos && x->index != p)
            return row_error(m, r, "index %lld at row %lld: the rows are the jobs in file "
                             "order", (long long)x->index, (long long)p);
        if (p > 0 && x->index <= d->rows[p - 1].index)
            return row_error(m, r, "index %lld after %lld: the rows are the jobs in file order",
                             (long long)x->index, (long long)d->rows[p - 1].index);
        if (d->has_head && x->index >= d->n_jobs)
            return row_error(m, r, "index %lld: the jobs file has %lld jobs",
                             (long long)x->index, (long long)d->n_jobs);
        d->n_rows++;
    }
    return TM_EOK;
}

/* ---- what every shard holds alike (JSON) ---------------------------------------- */

static tm_err meta_i64(merger *m, const char *path, int64_t *out)
{
    return tm__shard_meta_int(m->ctx, m->set, path, 0, INT32_MAX, out);
}

/* A path built in the caller's buffer `path`. */
#define P(...) (snprintf(path, sizeof path, __VA_ARGS__), path)

static tm_err fabric(merger *m)
{
    tm_workload_fabric *f = &m->d->fabric;
    int64_t n = 0, nj = 0, two = 0;
    char path[96];
    tm_err err;
    if ((err = tm__shard_meta_num(m->ctx, m->set, "fabric.max_congestion", &f->max_congestion)) ||
        (err = meta_i64(m, "fabric.links_used", &f->links_used)) ||
        (err = meta_i64(m, "fabric.links_shared", &f->links_shared)) ||
        (err = tm__shard_meta_list(m->ctx, m->set, "fabric.shared_links", &n)))
        return err;
    if (tm__shard_meta_has(m->set, "fabric.max_congestion_link")) {
        if ((err = tm__shard_meta_list(m->ctx, m->set, "fabric.max_congestion_link", &two)))
            return err;
        /* names only: an integer item would come back in path */
        f->max_from = tm__shard_meta_item(m->set, "fabric.max_congestion_link", 0, path,
                                          sizeof path);
        f->max_to = tm__shard_meta_item(m->set, "fabric.max_congestion_link", 1, path,
                                        sizeof path);
        if (two != 2 || !f->max_from || !f->max_to || f->max_from == path || f->max_to == path)
            return tm__fail(m->ctx, TM_EINPUT, "%s: 'fabric.max_congestion_link' is not a list "
                            "of two names", tm__shard_set_name(m->set, 0));
    }
    if (n > INT32_MAX)
        return tm__fail(m->ctx, TM_EINPUT, "%s: too many shared links", tm__shard_set_name(m->set, 0));
    f->shared = tm_workload_doc_keep(m->d, tm__calloc_n((size_t)n + 1, sizeof *f->shared));
    if (!f->shared)
        return tm__nomem(m->ctx);
    for (int64_t i = 0; i < n; i++) {
        tm_workload_share *s = &f->shared[i];
        if ((err = tm__shard_meta_str(m->ctx, m->set, P("fabric.shared_links.%lld.from", (long long)i), &s->from)) ||
            (err = tm__shard_meta_str(m->ctx, m->set, P("fabric.shared_links.%lld.to", (long long)i), &s->to)) ||
            (err = tm__shard_meta_num(m->ctx, m->set, P("fabric.shared_links.%lld.congestion", (long long)i), &s->congestion)) ||
            (err = tm__shard_meta_list(m->ctx, m->set, P("fabric.shared_links.%lld.jobs", (long long)i), &nj)))
            return err;
        if (nj > INT32_MAX)
            return tm__fail(m->ctx, TM_EINPUT, "%s: too many jobs on a link", tm__shard_set_name(m->set, 0));
        s->jobs = tm_workload_doc_keep(m->d, tm__calloc_n((size_t)nj + 1, sizeof *s->jobs));
        if (!s->jobs)
            return tm__nomem(m->ctx);
        for (int64_t k = 0; k < nj; k++) {
            tm_workload_share_job *x = &s->jobs[k];
            if ((err = tm__shard_meta_str(m->ctx, m->set, P("fabric.shared_links.%lld.jobs.%lld.job", (long long)i, (long long)k), &x->job)) ||
                (err = tm__shard_meta_num(m->ctx, m->set, P("fabric.shared_links.%lld.jobs.%lld.load", (long long)i, (long long)k), &x->load)) ||
                (err = tm__shard_meta_num(m->ctx, m->set, P("fabric.shared_links.%lld.jobs.%lld.share", (long long)i, (long long)k), &x->share)))
                return err;
        }
        s->n_jobs = (int32_t)nj;
        f->n_shared++;
    }
    return TM_EOK;
}

static tm_err timeline(merger *m)
{
    tm_workload_doc *d = m->d;
    int64_t n = 0;
    char path[64];
    tm_err err = tm__shard_meta_list(m->ctx, m->set, "timeline", &n);
    if (err)
        return err;
    if (n > INT32_MAX)
        return tm__fail(m->ctx, TM_EINPUT, "%s: too many intervals", tm__shard_set_name(m->set, 0));
    d->timeline = tm_workload_doc_keep(d, tm__calloc_n((size_t)n + 1, sizeof *d->timeline));
    if (!d->timeline)
        return tm__nomem(m->ctx);
    for (int64_t i = 0; i < n; i++) {
        tm_workload_interval *iv = &d->timeline[i];
        if ((err = tm__shard_meta_str(m->ctx, m->set, P("timeline.%lld.policy", (long long)i), &iv->policy)) ||
            (err = tm__shard_meta_num(m->ctx, m->set, P("timeline.%lld.t0", (long long)i), &iv->t0)) ||
            (err = tm__shard_meta_num(m->ctx, m->set, P("timeline.%lld.t1", (long long)i), &iv->t1)) ||
            (err = meta_i64(m, P("timeline.%lld.running", (long long)i), &iv->running)) ||
            (err = meta_i64(m, P("timeline.%lld.busy_nodes", (long long)i), &iv->busy_nodes)) ||
            (err = tm__shard_meta_num(m->ctx, m->set, P("timeline.%lld.max_congestion", (long long)i), &iv->max_congestion)))
            return err;
        if (strcmp(iv->policy, "as-recorded") != 0)
            return tm__fail(m->ctx, TM_EINPUT, "%s: timeline[%lld]: policy '%.60s', expected "
                            "as-recorded", tm__shard_set_name(m->set, 0), (long long)i, iv->policy);
        d->n_intervals++;
    }
    return TM_EOK;
}

#undef P

static tm_err head(merger *m)
{
    tm_workload_doc *d = m->d;
    int64_t total = tm__shard_set_total(m->set), n_pol = 0, rows_key;
    const char *name = tm__shard_set_name(m->set, 0), *pol;
    char buf[16];
    tm_err err;
    d->has_head = true;
    if ((err = tm__shard_meta_str(m->ctx, m->set, "topology", &d->topology)) ||
        (err = tm__shard_meta_str(m->ctx, m->set, d->replay ? "trace" : "jobs_file", &d->input)) ||
        (err = tm__shard_meta_str(m->ctx, m->set, "routing", &d->routing)) ||
        (err = meta_i64(m, "n_jobs", &d->n_jobs)))
        return err;
    if (!d->replay) {
        if (tm__shard_meta_has(m->set, "at") &&
            (err = tm__shard_meta_str(m->ctx, m->set, "at", &d->at)))
            return err;
        if ((err = meta_i64(m, "n_running", &d->n_running)) ||
            (err = meta_i64(m, "skipped_steps", &d->skipped_steps)) ||
            (err = meta_i64(m, "skipped_not_started", &d->skipped_not_started)))
            return err;
        rows_key = d->n_running;
        if (rows_key != total)
            return tm__fail(m->ctx, TM_EINPUT, "%s: n_running is %lld, but the shards have %lld "
                            "rows in all", name, (long long)rows_key, (long long)total);
        return fabric(m);
    }
    if ((err = tm__shard_meta_str(m->ctx, m->set, "start", &d->start)) ||
        (err = tm__shard_meta_str(m->ctx, m->set, "end", &d->end)) ||
        (err = tm__shard_meta_num(m->ctx, m->set, "duration_s", &d->duration_s)) ||
        (err = tm__shard_meta_list(m->ctx, m->set, "policies", &n_pol)))
        return err;
    pol = n_pol == 1 ? tm__shard_meta_item(m->set, "policies", 0, buf, sizeof buf) : NULL;
    if (!pol || strcmp(pol, "as-recorded") != 0)
        return tm__fail(m->ctx, TM_EINPUT, "%s: 'policies' is not [\"as-recorded\"]: only an "
                        "as-recorded replay is sharded", name);
    if (d->n_jobs != total)
        return tm__fail(m->ctx, TM_EINPUT, "%s: n_jobs is %lld, but the shards have %lld rows in "
                        "all", name, (long long)d->n_jobs, (long long)total);
    return timeline(m);
}

/* ---- the files -------------------------------------------------------------------- */

/* Reads the first file into memory: which command wrote it decides the kind. */
static tm_err add_first(tm_ctx *ctx, FILE *in, const char *name, tm_workload_doc *d)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem;
    tm__shard_set *set = NULL;
    tm_err err = tm__read_all(ctx, in, name, MAX_FILE_BYTES, &buf, &len);
    if (err)
        return err;
    if (!len) {
        free(buf);
        return tm__fail(ctx, TM_EINPUT, "%s: empty file: not the output of a shard", name);
    }
    d->replay = tm__shard_sniff(buf, len, "trace") || tm__shard_sniff(buf, len, "policy");
    if (!(err = tm__shard_set_new(ctx, tm__wl_shard_kind(d->replay), &set))) {
        d->files_ = set;
        if (!(mem = fmemopen(buf, len, "r"))) {
            err = tm__nomem(ctx);
        } else {
            err = tm__shard_set_add(ctx, set, mem, name);
            fclose(mem);
        }
    }
    free(buf);
    return err;
}

tm_err tm_workload_merge(tm_ctx *ctx, FILE *const *in, const char *const *names, int n,
                         tm_workload_doc *out, int32_t *n_shards)
{
    merger m;
    tm_err err = TM_EOK;
    tm_workload_doc_init(out);
    *n_shards = 0;
    if (n < 1)
        return tm__fail(ctx, TM_EUSAGE, "no shard files");
    err = add_first(ctx, in[0], names[0], out);
    for (int i = 1; !err && i < n; i++)
        err = tm__shard_set_add(ctx, out->files_, in[i], names[i]);
    if (!err)
        err = tm__shard_set_finish(ctx, out->files_);
    memset(&m, 0, sizeof m);
    m.ctx = ctx;
    m.set = out->files_;
    m.d = out;
    m.json = !err && tm__shard_set_format(out->files_) == TM__SHARD_JSON;
    if (!err && m.json)
        err = head(&m);
    if (!err && out->replay) {
        static const char *const recorded[] = {"as-recorded"};
        out->policies = recorded;
        out->n_policies = 1;
    }
    if (!err)
        err = read_rows(&m);
    if (!err)
        err = tm_workload_doc_summarize(ctx, out);
    if (err)
        tm_workload_doc_release(out);
    else
        *n_shards = tm__shard_set_count(out->files_);
    return err;
}
