/*
 * from_slurm.c - the running jobs of a cluster's state (tm_slurm_state,
 * src/slurm/state_read.c) as a workload: `workload eval --slurm` and the
 * background of `alloc --slurm` (docs/workload.md "Live state").
 *
 * The jobs become the lines of a jobs file, read by tm_workload_read (one
 * reader, one set of rules for tasks and Comm):
 *   nodes  its largest numbered step's (the srun that runs the program),
 *          else its allocation's;
 *   tasks  that step's count (spread as Slurm's block distribution), else
 *          the job's tasks per node, its tasks, its CPUs, else the slots;
 *   Comm   the tag of its comment ("topomap:ring:4MiB", "topomap:app.mtx",
 *          a path relative to the job's working folder), else the default.
 * A job that is not running (pending, completing, ...) is counted in
 * skipped_not_started; a job with a node the fabric lacks is left out with
 * a warning (a cluster may have nodes on other fabrics); a tag that cannot
 * be used (a bad pattern, a matrix that does not read or has another task
 * count) gives the job the default Comm with a warning: one running job's
 * comment must not stop the evaluation of every new job.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "topomap/io.h"
#include "wl_int.h"
#include "../util/util.h"

typedef struct table {
    char *text;
    size_t len, cap;
} table;

static tm_err put(tm_ctx *ctx, table *t, const char *s)
{
    size_t n = strlen(s);
    if (tm__grow((void **)&t->text, &t->cap, t->len + n + 1, 1) < 0)
        return tm__nomem(ctx);
    memcpy(t->text + t->len, s, n + 1);
    t->len += n;
    return TM_EOK;
}

/* The job's node names when every one is a host of net (n of them); 0 and
 * the first unknown name in *unknown otherwise. */
static tm_err on_fabric(tm_ctx *ctx, const tm_net *net, const char *expr, size_t *n,
                        char *unknown, size_t size)
{
    char **names = NULL;
    size_t count = 0;
    tm_err err = tm_hostlist_expand(ctx, expr, "jobs.json: nodes", &names, &count);
    *n = count;
    for (size_t i = 0; !err && i < count; i++) {
        int32_t v = tm_alloc_resolve_host(net, names[i]);
        if (v < 0 || tm_net_kind(net, v) != TM_VERTEX_HOST) {
            snprintf(unknown, size, "%s", names[i]);
            *n = 0;
            break;
        }
    }
    tm_hostlist_free(names, count);
    return err;
}

/* The tag's Comm value, checked: a pattern, or a matrix file (resolved
 * against the job's folder) with `tasks` tasks (0: not known here).  NULL
 * (and a warning) when it cannot be used. */
static char *comm_of(tm_ctx *ctx, const tm_slurm_job *j, const tm_workload_read_opts *o,
                     int64_t tasks)
{
    const char *why = NULL, *tag;
    char *spec, *path;
    size_t len = 0;
    tm_pattern kind;
    double bytes;
    tm_comm c;
    int k;
    if (!(tag = tm_slurm_comm_tag(j->comment, &len)) || !(spec = strndup(tag, len)))
        return NULL;
    if ((k = tm_pattern_parse(spec, &kind, &bytes, &why)) != 0) {
        if (k < 0)
            tm__warn(ctx, "job %s: comment 'topomap:%s': %s; the default Comm is used", j->id,
                     spec, why);
        if (k < 0)
            free(spec), spec = NULL;
        return spec;
    }
    if (spec[0] == '/' || !*j->cwd) {
        path = spec;
    } else {
        path = malloc(strlen(j->cwd) + strlen(spec) + 2);
        if (path)
            sprintf(path, "%s/%s", j->cwd, spec);
        free(spec);
    }
    if (path && tm_comm_read_file(ctx, path, o ? o->comm_format : TM_COMM_AUTO, &c) != TM_EOK) {
        tm__warn(ctx, "job %s: comment 'topomap:%.*s': %s; the default Comm is used", j->id,
                 (int)len, tag, tm_ctx_errmsg(ctx));
        tm_ctx_clear_error(ctx);
        free(path);
        return NULL;
    }
    if (!path)
        return NULL;
    if (tasks > 0 && c.n != tasks) {
        tm__warn(ctx, "job %s: comment 'topomap:%.*s': the matrix has %d tasks, the job %lld; "
                 "the default Comm is used", j->id, (int)len, tag, c.n, (long long)tasks);
        free(path), path = NULL;
    }
    tm_comm_release(&c); /* read only to check it */
    return path;
}

/* A count as a field: empty when not given. */
static const char *count(int64_t v, char *buf)
{
    buf[0] = '\0';
    if (v > 0)
        snprintf(buf, 24, "%lld", (long long)v);
    return buf;
}

/* One line: JobID|NodeList|NTasksPerNode|NTasks|NCPUS|Comm|Start|End. */
static tm_err job_line(tm_ctx *ctx, const tm_net *net, const tm_slurm_job *j,
                       const tm_workload_read_opts *o, table *t, int32_t *off)
{
    const char *nodes = j->step_tasks > 0 && j->step_nodes ? j->step_nodes : j->nodes;
    char unknown[256] = "", line[128], when[64], c[3][24];
    size_t n = 0;
    int64_t ppn = 0, tasks = 0, cpus = 0, total;
    char *comm;
    time_t start = isfinite(j->start) ? (time_t)j->start : time(NULL);
    struct tm tmv;
    tm_err err = on_fabric(ctx, net, nodes, &n, unknown, sizeof unknown);
    if (err || !n) {
        if (!err && (*off)++ == 0)
            tm__warn(ctx, "job %s: node '%s' is not in the fabric: the job is left out (so is "
                     "every running job with such a node)", j->id, unknown);
        return err;
    }
    if (j->step_tasks > 0)
        tasks = j->step_tasks;
    else if (j->tasks_per_node > 0)
        ppn = j->tasks_per_node;
    else if (j->tasks > 0)
        tasks = j->tasks;
    else
        cpus = j->cpus;
    total = tasks ? tasks : ppn ? ppn * (int64_t)n : cpus;
    comm = comm_of(ctx, j, o, total);
    gmtime_r(&start, &tmv);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tmv);
    if ((err = put(ctx, t, j->id)) || (err = put(ctx, t, "|")) || (err = put(ctx, t, nodes)))
        goto out;
    snprintf(line, sizeof line, "|%s|%s|%s|", count(ppn, c[0]), count(tasks, c[1]),
             count(cpus, c[2]));
    if ((err = put(ctx, t, line)) || (comm && (err = put(ctx, t, comm))) ||
        (err = put(ctx, t, "|")) || (err = put(ctx, t, when)) || (err = put(ctx, t, "|Unknown\n")))
        goto out;
out:
    free(comm);
    return err;
}

tm_err tm_workload_from_slurm(tm_ctx *ctx, const tm_net *net, const tm_slurm_state *st,
                              const tm_workload_read_opts *opts, tm_workload *out)
{
    table t = {NULL, 0, 0};
    int32_t off = 0, idle = 0;
    tm_workload_read_opts o = opts ? *opts : (tm_workload_read_opts)TM_WORKLOAD_READ_OPTS_INIT;
    FILE *f;
    tm_err err = put(ctx, &t, "JobID|NodeList|NTasksPerNode|NTasks|NCPUS|Comm|Start|End\n");
    tm_workload_init(out);
    for (int32_t i = 0; !err && i < st->n_jobs; i++) {
        if (!st->job[i].running || !*st->job[i].nodes)
            idle++;
        else
            err = job_line(ctx, net, &st->job[i], &o, &t, &off);
    }
    if (off > 1)
        tm__warn(ctx, "%d running jobs have nodes outside the fabric and are left out", off);
    o.base_dir = NULL; /* the Comm paths are resolved already */
    if (!err && !(f = fmemopen(t.text, t.len, "r")))
        err = tm__nomem(ctx);
    if (!err) {
        err = tm_workload_read(ctx, net, f, "the controller's jobs", &o, out);
        fclose(f);
    }
    if (!err)
        out->skipped_not_started += idle;
    free(t.text);
    return err;
}
