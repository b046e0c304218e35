/*
 * jobs_read.c - the jobs file (docs/workload.md "Jobs files"): a header
 * line naming the columns, then one job per line, fields separated by '|'
 * as `sacct -P` prints them (`sacct -p` adds a '|' at the end of every
 * line, header included: one trailing empty field is dropped).
 *
 * Real sacct output is input, not an attack: besides the allocations it
 * lists job steps (123.batch, 123.extern, 123.0), whose NTasks is the only
 * place sacct prints a task count (the job's own line leaves it empty), and
 * jobs that never started (NodeList "None assigned", Start "Unknown" or
 * "None").  Steps give their job its task count and are skipped; jobs that
 * never started are skipped; both with one warning per line (the CLI
 * summarises them).  A "sacct: ..." line (the tool's own warning or error,
 * when stderr went into the file) is skipped with a warning.
 *
 * The tasks of a job, in this order of precedence: NTasksPerNode on every
 * node; NTasks (or the largest NTasks of its numbered steps) spread as
 * Slurm's block distribution does (n / nodes each, the first n % nodes one
 * more); its matrix file's task count, spread alike; NCPUS (or AllocCPUS),
 * spread alike; else every node's slots in the topology.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "topomap/io.h"
#include "wl_int.h"
#include "../alloc/alloc_int.h"
#include "../util/util.h"

enum { C_JOBID, C_NODELIST, C_PPN, C_NTASKS, C_NCPUS, C_COMM, C_START, C_END, N_COLS };

static const tm__name_val columns[] = {
    {"jobid", C_JOBID},     {"jobidraw", C_JOBID}, {"nodelist", C_NODELIST},
    {"ntaskspernode", C_PPN}, {"ntasks", C_NTASKS}, {"ncpus", C_NCPUS},
    {"alloccpus", C_NCPUS}, {"comm", C_COMM},     {"start", C_START},
    {"end", C_END}};
static const char *const column_label[N_COLS] = {"JobID", "NodeList", "NTasksPerNode", "NTasks",
                                                 "NCPUS", "Comm", "Start", "End"};

#define MAX_PPN (INT64_C(1) << 20)
#define MAX_TASKS (INT64_C(1) << 26)
#define MAX_FIELDS 4096

/* What a job line says about its task count, resolved at the end (its
 * steps may follow it). */
typedef struct raw_counts {
    int64_t ppn, ntasks, ncpus, step_tasks; /* -1: not given */
} raw_counts;

typedef struct reader {
    tm_ctx *ctx;
    const tm_net *net;
    const char *name;
    const tm_workload_read_opts *o;
    tm__lexer lx;
    tm_workload *w;
    int col[N_COLS];     /* field of each column, -1 when absent */
    int n_fields;        /* of the header, a trailing empty one dropped */
    char **f;            /* the current line's fields */
    size_t cap_f;
    raw_counts *raw;     /* per job */
    size_t cap_jobs, cap_raw;
    tm__strmap ids;      /* job id -> first job index, for the steps */
    tm__strmap paths;    /* resolved matrix path -> matrix index */
    size_t cap_mat, cap_mpath;
    int32_t *pos;        /* per net vertex: position in the current job, -1 */
} reader;

static char *trim(char *s)
{
    size_t n;
    while (*s == ' ' || *s == '\t')
        s++;
    n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    return s;
}

/* Splits the line in place at every '|'; *n fields (a trailing empty one
 * after a final '|' kept: the caller decides). */
static tm_err split(reader *r, int *n)
{
    char *p = r->lx.buf;
    *n = 0;
    for (;;) {
        char *bar = strchr(p, '|');
        if (*n >= MAX_FIELDS)
            return tm__lex_error(&r->lx, "more than %d fields", MAX_FIELDS);
        if (tm__grow((void **)&r->f, &r->cap_f, (size_t)*n + 1, sizeof *r->f) < 0)
            return tm__nomem(r->ctx);
        if (bar)
            *bar = '\0';
        r->f[(*n)++] = trim(p);
        if (!bar)
            return TM_EOK;
        p = bar + 1;
    }
}

static bool blank(const char *s)
{
    return *s == '\0';
}

static tm_err header(reader *r)
{
    int n;
    tm_err err = split(r, &n);
    if (err)
        return err;
    if (n > 1 && blank(r->f[n - 1]))
        n--; /* sacct -p */
    for (int c = 0; c < N_COLS; c++)
        r->col[c] = -1;
    for (int i = 0; i < n; i++) {
        char low[32];
        size_t len = strlen(r->f[i]);
        int c;
        if (len >= sizeof low)
            continue;
        for (size_t k = 0; k <= len; k++)
            low[k] = (char)(r->f[i][k] >= 'A' && r->f[i][k] <= 'Z' ? r->f[i][k] + 32 : r->f[i][k]);
        c = tm__name_lookup(columns, sizeof columns / sizeof *columns, low);
        if (c < 0)
            continue;
        if (r->col[c] >= 0)
            return tm__lex_error(&r->lx, "column %s given twice (fields %d and %d)",
                                 column_label[c], r->col[c] + 1, i + 1);
        r->col[c] = i;
    }
    if (r->col[C_JOBID] < 0 || r->col[C_NODELIST] < 0)
        return tm__lex_error(&r->lx, "the header line must name the columns JobID and NodeList "
                             "('|'-separated, as sacct -P -o JobID,NodeList,NTasks,Start,End "
                             "prints it; without -n, which drops the header)");
    if ((r->col[C_START] < 0) != (r->col[C_END] < 0))
        return tm__lex_error(&r->lx, "column %s without %s: times need both",
                             r->col[C_START] >= 0 ? "Start" : "End",
                             r->col[C_START] >= 0 ? "End" : "Start");
    r->n_fields = n;
    r->w->has_times = r->col[C_START] >= 0;
    return TM_EOK;
}

/* A count field: -1 when empty, else an integer in [lo, hi]. */
static tm_err count_field(reader *r, int c, int64_t lo, int64_t hi, int64_t *out)
{
    const char *s;
    *out = -1;
    if (r->col[c] < 0 || blank(s = r->f[r->col[c]]))
        return TM_EOK;
    if (tm__str_to_i64(s, out) < 0 || *out < lo || *out > hi)
        return tm__lex_error(&r->lx, "%s '%s' is not an integer in [%lld, %lld]", column_label[c],
                             s, (long long)lo, (long long)hi);
    return TM_EOK;
}

static bool unknown_time(const char *s)
{
    return blank(s) || strcmp(s, "Unknown") == 0 || strcmp(s, "None") == 0;
}

static tm_err time_field(reader *r, int c, double *out)
{
    const char *s = r->f[r->col[c]];
    if (tm__iso_time(s, out) < 0)
        return tm__lex_error(&r->lx, "%s '%s' is not a time YYYY-MM-DDTHH:MM:SS (as sacct prints "
                             "it when SLURM_TIME_FORMAT is not set), 'Unknown' or 'None'",
                             column_label[c], s);
    return TM_EOK;
}

/* A job step "123.batch", "123.0": a numbered step's NTasks goes to its
 * job (the largest of its steps'). */
static tm_err step_line(reader *r, const char *id, const char *dot)
{
    int64_t nt;
    int32_t j;
    bool numbered = dot[1] != '\0';
    tm_err err;
    for (const char *p = dot + 1; *p; p++)
        numbered &= *p >= '0' && *p <= '9';
    r->w->skipped_steps++;
    if (!numbered)
        return TM_EOK;
    err = count_field(r, C_NTASKS, 0, MAX_TASKS, &nt);
    if (err)
        return err;
    j = tm__strmap_getn(&r->ids, id, (size_t)(dot - id));
    if (j >= 0 && nt > r->raw[j].step_tasks)
        r->raw[j].step_tasks = nt;
    return TM_EOK;
}

/* The resolved path of a Comm value that is not a pattern (malloc'ed). */
static char *resolve_path(const char *dir, const char *v)
{
    size_t nd, nv = strlen(v);
    char *p;
    if (v[0] == '/' || !dir || !*dir)
        return tm__strdup(v);
    nd = strlen(dir);
    p = malloc(nd + nv + 2);
    if (p)
        snprintf(p, nd + nv + 2, "%s%s%s", dir, dir[nd - 1] == '/' ? "" : "/", v);
    return p;
}

/* The matrix at path, read once (index into w->matrix). */
static tm_err matrix_of(reader *r, const char *path, const char *job, int32_t *idx)
{
    tm_workload *w = r->w;
    int32_t k = tm__strmap_get(&r->paths, path);
    tm_comm c;
    tm_err err;
    if (k >= 0) {
        *idx = k;
        return TM_EOK;
    }
    err = tm_comm_read_file(r->ctx, path, r->o->comm_format, &c);
    if (err) {
        tm__fail_prefix(r->ctx, "%s:%ld: job %s", r->name, r->lx.line, job);
        return err;
    }
    if (tm__grow((void **)&w->matrix, &r->cap_mat, (size_t)w->n_matrices + 1, sizeof *w->matrix) <
            0 ||
        tm__grow((void **)&w->matrix_path, &r->cap_mpath, (size_t)w->n_matrices + 1,
                 sizeof *w->matrix_path) < 0 ||
        !(w->matrix_path[w->n_matrices] = tm__strdup(path)) ||
        tm__strmap_put(&r->paths, path, w->n_matrices, NULL) < 0) {
        tm_comm_release(&c);
        return tm__nomem(r->ctx);
    }
    w->matrix[w->n_matrices] = c;
    *idx = w->n_matrices++;
    return TM_EOK;
}

/* The Comm of job j: a pattern, or a matrix file relative to dir. */
static tm_err comm_value(reader *r, tm_job *job, const char *v, const char *dir)
{
    const char *why = NULL;
    char *path;
    tm_err err;
    int k = tm_pattern_parse(v, &job->pattern, &job->pattern_bytes, &why);
    job->matrix = -1;
    if (k < 0)
        return tm__lex_error(&r->lx, "job %s: Comm '%s': %s", job->id, v, why);
    if (k > 0)
        return TM_EOK;
    job->pattern = TM_PATTERN_NONE;
    if (!(path = resolve_path(dir, v)))
        return tm__nomem(r->ctx);
    err = matrix_of(r, path, job->id, &job->matrix);
    free(path);
    return err;
}

/* The job's nodes: the hostlist resolved, no host twice. */
static tm_err nodes(reader *r, tm_job *job, const char *expr)
{
    char where[600], **names = NULL;
    size_t count = 0;
    tm_err err;
    snprintf(where, sizeof where, "%s:%ld: job %s: NodeList", r->name, r->lx.line, job->id);
    err = tm_hostlist_expand(r->ctx, expr, where, &names, &count);
    if (err)
        return err;
    job->host = tm__malloc_n(count + 1, sizeof *job->host);
    if (!job->host) {
        err = tm__nomem(r->ctx);
        goto out;
    }
    for (size_t i = 0; i < count; i++) {
        int32_t v = tm_alloc_resolve_host(r->net, names[i]);
        if (v < 0 || tm_net_kind(r->net, v) != TM_VERTEX_HOST) {
            char why[2600];
            tm__alloc_unresolved(r->net, names[i], why, sizeof why);
            err = tm__lex_error(&r->lx, "job %s: %s", job->id, why);
            goto out;
        }
        if (r->pos[v] >= 0) {
            err = tm__lex_error(&r->lx, "job %s: host '%s' is listed twice", job->id, names[i]);
            goto out;
        }
        r->pos[v] = job->n_hosts;
        job->host[job->n_hosts++] = v;
    }
out:
    for (int32_t k = 0; job->host && k < job->n_hosts; k++)
        r->pos[job->host[k]] = -1;
    tm_hostlist_free(names, count);
    return err;
}

/* The times of a started job; false in *started when Start is unknown. */
static tm_err times(reader *r, tm_job *job, bool *started)
{
    *started = true;
    job->start = job->end = NAN;
    if (r->col[C_START] < 0)
        return TM_EOK;
    if (unknown_time(r->f[r->col[C_START]])) {
        *started = false;
        return TM_EOK;
    }
    tm_err err = time_field(r, C_START, &job->start);
    if (err)
        return err;
    if (unknown_time(r->f[r->col[C_END]])) {
        job->end = INFINITY; /* still running */
        return TM_EOK;
    }
    if ((err = time_field(r, C_END, &job->end)))
        return err;
    if (job->end < job->start)
        return tm__lex_error(&r->lx, "job %s ends (%s) before it starts (%s)", job->id,
                             r->f[r->col[C_END]], r->f[r->col[C_START]]);
    return TM_EOK;
}

static bool not_started_nodes(const char *s)
{
    return blank(s) || strcmp(s, "None assigned") == 0 || strcmp(s, "(null)") == 0 ||
           strcmp(s, "None") == 0;
}

static tm_err job_line(reader *r, const char *dir)
{
    tm_workload *w = r->w;
    const char *id = r->f[r->col[C_JOBID]], *dot, *comm;
    tm_job job;
    raw_counts rc = {-1, -1, -1, -1};
    bool started;
    tm_err err;

    if (blank(id))
        return tm__lex_error(&r->lx, "empty JobID");
    if ((dot = strchr(id, '.')))
        return step_line(r, id, dot);
    memset(&job, 0, sizeof job);
    job.matrix = -1;
    if (not_started_nodes(r->f[r->col[C_NODELIST]])) {
        w->skipped_not_started++;
        tm__warn(r->ctx, "%s:%ld: job %s has no nodes ('%s': it never started); skipped", r->name,
                 r->lx.line, id, r->f[r->col[C_NODELIST]]);
        return TM_EOK;
    }
    if (!(job.id = tm__strdup(id)))
        return tm__nomem(r->ctx);
    job.line = r->lx.line;
    err = times(r, &job, &started);
    if (!err && !started) {
        w->skipped_not_started++;
        tm__warn(r->ctx, "%s:%ld: job %s has no Start time ('%s': it never started); skipped",
                 r->name, r->lx.line, id, r->f[r->col[C_START]]);
        free(job.id);
        return TM_EOK;
    }
    if (!err)
        err = count_field(r, C_PPN, 1, MAX_PPN, &rc.ppn);
    if (!err)
        err = count_field(r, C_NTASKS, 1, MAX_TASKS, &rc.ntasks);
    if (!err)
        err = count_field(r, C_NCPUS, 1, MAX_TASKS, &rc.ncpus);
    if (!err)
        err = nodes(r, &job, r->f[r->col[C_NODELIST]]);
    if (!err) {
        comm = r->col[C_COMM] >= 0 ? r->f[r->col[C_COMM]] : "";
        err = blank(comm) ? comm_value(r, &job, r->o->default_comm ? r->o->default_comm
                                                                   : "stencil3d", NULL)
                          : comm_value(r, &job, comm, dir);
    }
    if (!err && (tm__grow((void **)&w->job, &r->cap_jobs, (size_t)w->n_jobs + 1, sizeof *w->job) <
                     0 ||
                 tm__grow((void **)&r->raw, &r->cap_raw, (size_t)w->n_jobs + 1, sizeof *r->raw) <
                     0 ||
                 tm__strmap_put(&r->ids, job.id, w->n_jobs, NULL) < 0))
        err = tm__nomem(r->ctx);
    if (err) {
        free(job.id);
        free(job.host);
        return err;
    }
    r->raw[w->n_jobs] = rc;
    w->job[w->n_jobs++] = job;
    return TM_EOK;
}

/* Block distribution of n tasks over the job's hosts. */
static void spread(tm_job *job, int64_t n)
{
    for (int32_t k = 0; k < job->n_hosts; k++)
        job->tasks[k] = (int32_t)(n / job->n_hosts + (k < n % job->n_hosts));
}

/* The tasks of every job (the order of precedence above), checked
 * against its matrix. */
static tm_err job_tasks(reader *r, int32_t j)
{
    tm_job *job = &r->w->job[j];
    const raw_counts *rc = &r->raw[j];
    int64_t n = rc->ntasks >= 0 ? rc->ntasks : rc->step_tasks > 0 ? rc->step_tasks : -1;
    const tm_comm *m = job->matrix >= 0 ? &r->w->matrix[job->matrix] : NULL;
    const char *how;
    job->tasks = tm__malloc_n((size_t)job->n_hosts + 1, sizeof *job->tasks);
    if (!job->tasks)
        return tm__nomem(r->ctx);
    if (rc->ppn > 0) {
        if (n >= 0 && n != rc->ppn * job->n_hosts)
            return tm__fail(r->ctx, TM_EINPUT, "%s:%lld: job %s: NTasksPerNode %lld on %d nodes "
                            "is %lld tasks, but NTasks says %lld", r->name, (long long)job->line,
                            job->id, (long long)rc->ppn, job->n_hosts,
                            (long long)(rc->ppn * job->n_hosts), (long long)n);
        for (int32_t k = 0; k < job->n_hosts; k++)
            job->tasks[k] = (int32_t)rc->ppn;
        how = "NTasksPerNode";
    } else if (n >= 0) {
        spread(job, n);
        how = rc->ntasks >= 0 ? "NTasks" : "the NTasks of its steps";
    } else if (m) {
        spread(job, m->n);
        how = "its matrix";
    } else if (rc->ncpus > 0) {
        spread(job, rc->ncpus);
        how = "NCPUS";
    } else {
        for (int32_t k = 0; k < job->n_hosts; k++)
            job->tasks[k] = tm_net_slots(r->net, job->host[k]);
        how = "the slots of its nodes in the topology";
    }
    job->n_tasks = 0;
    for (int32_t k = 0; k < job->n_hosts; k++) {
        if ((int64_t)job->n_tasks + job->tasks[k] > MAX_TASKS)
            return tm__fail(r->ctx, TM_EINPUT, "%s:%lld: job %s: more than %lld tasks", r->name,
                            (long long)job->line, job->id, (long long)MAX_TASKS);
        job->n_tasks += job->tasks[k];
    }
    if (m && m->n != job->n_tasks)
        return tm__fail(r->ctx, TM_EINPUT, "%s:%lld: job %s has %d tasks (from %s), but its "
                        "matrix %s has %d", r->name, (long long)job->line, job->id,
                        job->n_tasks, how, r->w->matrix_path[job->matrix], m->n);
    return TM_EOK;
}

/* A line of sacct's own (its warnings and errors, when stderr went into
 * the file): skipped. */
static bool tool_line(reader *r)
{
    if (strncmp(r->lx.buf, "sacct: ", 7) != 0)
        return false;
    tm__warn(r->ctx, "%s:%ld: sacct's own message skipped: %s", r->name, r->lx.line, r->lx.buf);
    return true;
}

static tm_err read_lines(reader *r, const char *dir)
{
    int n;
    bool line, have_header = false;
    tm_err err = TM_EOK;
    while (!(err = tm__lex_next(&r->lx, &line)) && line) {
        const char *p = tm__skip_blank(r->lx.buf);
        if (!*p || *p == '#' || tool_line(r))
            continue;
        if (!have_header) {
            if ((err = header(r)))
                return err;
            have_header = true;
            continue;
        }
        if ((err = split(r, &n)))
            return err;
        if (n == r->n_fields + 1 && blank(r->f[n - 1]))
            n--; /* sacct -p */
        if (n != r->n_fields)
            return tm__lex_error(&r->lx, "%d fields, but the header has %d", n, r->n_fields);
        if ((err = job_line(r, dir)))
            return err;
    }
    if (err)
        return err;
    if (!have_header)
        return tm__lex_error(&r->lx, "no header line (JobID|NodeList|...)");
    return TM_EOK;
}

static void skipped_note(reader *r)
{
    if (r->w->skipped_steps)
        tm__warn(r->ctx, "%s: %d job steps (JobID with a '.', e.g. 123.batch, 123.0) skipped: "
                 "each is part of its job's line; a numbered step's NTasks gives the job its "
                 "task count", r->name, r->w->skipped_steps);
}

tm_err tm_workload_read(tm_ctx *ctx, const tm_net *net, FILE *in, const char *name,
                        const tm_workload_read_opts *opts, tm_workload *out)
{
    tm_workload_read_opts dflt = TM_WORKLOAD_READ_OPTS_INIT;
    int32_t nv = tm_net_n_vertices(net);
    reader r;
    tm_err err;

    tm_workload_init(out);
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.net = net;
    r.name = name;
    r.o = opts ? opts : &dflt;
    r.w = out;
    tm__lex_init(&r.lx, ctx, in, name);
    tm__strmap_init(&r.ids);
    tm__strmap_init(&r.paths);
    r.pos = tm__malloc_n((size_t)nv + 1, sizeof *r.pos);
    if (!r.pos) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t v = 0; v < nv; v++)
        r.pos[v] = -1;
    err = read_lines(&r, r.o->base_dir);
    for (int32_t j = 0; !err && j < out->n_jobs; j++)
        err = job_tasks(&r, j);
    if (!err)
        skipped_note(&r);
out:
    if (err)
        tm_workload_release(out);
    tm__lex_release(&r.lx);
    tm__strmap_release(&r.ids);
    tm__strmap_release(&r.paths);
    free(r.f);
    free(r.raw);
    free(r.pos);
    return err;
}

tm_err tm_workload_read_file(tm_ctx *ctx, const tm_net *net, const char *path,
                             const tm_workload_read_opts *opts, tm_workload *out)
{
    tm_workload_read_opts o = TM_WORKLOAD_READ_OPTS_INIT;
    const char *slash = strrchr(path, '/');
    char *dir = NULL;
    FILE *in;
    tm_err err;
    tm_workload_init(out);
    if (opts)
        o = *opts;
    if (!o.base_dir && slash) {
        if (!(dir = tm__strndup(path, (size_t)(slash - path) + 1)))
            return tm__nomem(ctx);
        o.base_dir = dir;
    }
    err = tm_open_input(ctx, path, &in);
    if (!err) {
        err = tm_workload_read(ctx, net, in, path, &o, out);
        fclose(in);
    }
    free(dir);
    return err;
}
