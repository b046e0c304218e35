/*
 * state_read.c - the cluster's state as Slurm's own commands print it
 * (docs/slurm.md "Live state"): the nodes (sinfo --json in 22.05, whose
 * "nodes" list later releases print with scontrol --json show nodes), the
 * jobs (squeue --json) and their steps (squeue -s -o "%i|%A|%N", which
 * 22.05 prints only as text).
 *
 * JSON is parsed by jansson, which gives syntax errors with their line.
 * Members are checked for their type only where they are used: a member
 * that is missing or null counts as not reported, so the files of other
 * releases read (numbers as {"set": true, "number": N} from 23.02 on,
 * states as lists of words from 23.11 on), and a member of another type is
 * an error naming it ("jobs.json: jobs[3]: 'nodes' is not a string").
 */
#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "slurm_int.h"
#include "topomap/alloc.h"
#include "topomap/io.h"
#include "../util/util.h"

/* Node flags that keep a new job off an idle node. */
static const char *const busy_flags[] = {"drain", "drained", "draining", "down", "fail",
                                         "failing", "maint", "reserved", "planned",
                                         "completing", "not_responding", "powering_down",
                                         "reboot_requested", "reboot_issued", "invalid_reg"};

void tm_slurm_state_init(tm_slurm_state *s)
{
    memset(s, 0, sizeof *s);
}

void tm_slurm_state_release(tm_slurm_state *s)
{
    if (!s)
        return;
    for (int32_t i = 0; s->node && i < s->n_nodes; i++) {
        free(s->node[i].name);
        free(s->node[i].state);
        free(s->node[i].partitions);
    }
    for (int32_t i = 0; s->job && i < s->n_jobs; i++) {
        tm_slurm_job *j = &s->job[i];
        free(j->id);
        free(j->state);
        free(j->nodes);
        free(j->step_nodes);
        free(j->comment);
        free(j->partition);
        free(j->cwd);
    }
    free(s->node);
    free(s->job);
    free(s->release);
    tm_slurm_state_init(s);
}

/* ---- JSON members ---------------------------------------------------------------- */

typedef struct jrd {
    tm_ctx *ctx;
    const char *name; /* the file */
    const char *list; /* "nodes" or "jobs" */
    size_t i;         /* the member's index */
} jrd;

static tm_err bad(const jrd *r, const char *key, const char *what)
{
    return tm__fail(r->ctx, TM_EINPUT, "%s: %s[%zu]: '%s' %s", r->name, r->list, r->i, key, what);
}

/* A number as 22.05 (plain) or later releases ({"set", "infinite",
 * "number"}) write it: 1 and *v when set, 0 when not reported, -1 for
 * another type. */
static int number(json_t *x, double *v)
{
    json_t *set, *inf;
    if (!x || json_is_null(x))
        return 0;
    if (json_is_number(x)) {
        *v = json_number_value(x);
        return isfinite(*v) ? 1 : -1;
    }
    if (!json_is_object(x))
        return -1;
    set = json_object_get(x, "set");
    inf = json_object_get(x, "infinite");
    if ((set && !json_is_boolean(set)) || (inf && !json_is_boolean(inf)))
        return -1;
    if ((set && !json_is_true(set)) || (inf && json_is_true(inf)))
        return 0;
    return number(json_object_get(x, "number"), v) > 0 ? 1 : -1;
}

/* An integer member in [0, hi] (0 when not reported). */
static tm_err int_member(const jrd *r, json_t *o, const char *key, int64_t hi, int64_t *out)
{
    double v = 0;
    int k = number(json_object_get(o, key), &v);
    *out = 0;
    if (k < 0)
        return bad(r, key, "is not a number");
    if (k > 0 && (v != floor(v) || v < -1 || v > (double)hi))
        return bad(r, key, "is out of range");
    *out = k > 0 && v > 0 ? (int64_t)v : 0;
    return TM_EOK;
}

/* A string member, copied ("" when not reported). */
static tm_err str_member(const jrd *r, json_t *o, const char *key, char **out)
{
    json_t *x = json_object_get(o, key);
    *out = NULL;
    if (x && !json_is_null(x) && !json_is_string(x))
        return bad(r, key, "is not a string");
    if (!(*out = tm__strdup(x && json_is_string(x) ? json_string_value(x) : "")))
        return tm__nomem(r->ctx);
    return TM_EOK;
}

/* A list of strings joined by sep into *out, each word through fold
 * (NULL: as is); a lone string is a list of one. */
static tm_err words(const jrd *r, json_t *x, const char *key, char sep, int (*fold)(int),
                    char **out)
{
    size_t len = 0, n = json_is_array(x) ? json_array_size(x) : 1;
    char *s;
    if (x && !json_is_null(x) && !json_is_string(x) && !json_is_array(x))
        return bad(r, key, "is not a string or a list of strings");
    for (size_t k = 0; x && !json_is_null(x) && k < n; k++) {
        json_t *w = json_is_array(x) ? json_array_get(x, k) : x;
        if (!json_is_string(w))
            return bad(r, key, "is not a string or a list of strings");
        len += strlen(json_string_value(w)) + 1;
    }
    if (!(s = *out = calloc(len + 1, 1)))
        return tm__nomem(r->ctx);
    for (size_t k = 0; x && !json_is_null(x) && k < n; k++) {
        const char *w = json_string_value(json_is_array(x) ? json_array_get(x, k) : x);
        if (s != *out)
            *s++ = sep;
        for (; *w; w++)
            *s++ = fold ? (char)fold((unsigned char)*w) : *w;
    }
    return TM_EOK;
}

/* The document's list `key` (an array of objects). */
static tm_err load(tm_ctx *ctx, FILE *in, const char *name, const char *key, json_t **doc,
                   json_t **list)
{
    json_error_t e;
    *doc = json_loadf(in, JSON_REJECT_DUPLICATES, &e);
    if (!*doc)
        return tm__fail(ctx, TM_EINPUT, "%s:%d: %s", name, e.line > 0 ? e.line : 1, e.text);
    *list = json_object_get(*doc, key);
    if (!json_is_object(*doc) || !json_is_array(*list))
        return tm__fail(ctx, TM_EINPUT, "%s: not Slurm's JSON: no '%s' list at the top", name,
                        key);
    for (size_t i = 0; i < json_array_size(*list); i++)
        if (!json_is_object(json_array_get(*list, i)))
            return tm__fail(ctx, TM_EINPUT, "%s: %s[%zu] is not an object", name, key, i);
    if (json_array_size(*list) > INT32_MAX / 2)
        return tm__fail(ctx, TM_EINPUT, "%s: too many %s", name, key);
    return TM_EOK;
}

/* meta.Slurm.release, when there. */
static tm_err release_of(tm_ctx *ctx, json_t *doc, char **out)
{
    json_t *rel = json_object_get(json_object_get(json_object_get(doc, "meta"), "Slurm"),
                                  "release");
    if (*out || !json_is_string(rel))
        return TM_EOK;
    return (*out = tm__strdup(json_string_value(rel))) ? TM_EOK : tm__nomem(ctx);
}

/* ---- nodes ---------------------------------------------------------------------- */

static bool is_free(const char *state)
{
    char buf[512];
    char *save = NULL, *w;
    bool first = true;
    snprintf(buf, sizeof buf, "%s", state);
    for (w = strtok_r(buf, "+", &save); w; w = strtok_r(NULL, "+", &save), first = false) {
        if (first && strcmp(w, "idle") != 0)
            return false;
        for (size_t k = 0; k < sizeof busy_flags / sizeof *busy_flags; k++)
            if (strcmp(w, busy_flags[k]) == 0)
                return false;
    }
    return !first;
}

static tm_err read_node(jrd *r, json_t *o, tm_slurm_node *nd)
{
    json_t *name = json_object_get(o, "name"), *st = json_object_get(o, "state");
    json_t *fl = json_object_get(o, "state_flags");
    char *base = NULL, *flags = NULL;
    tm_err err;
    if (!json_is_string(name) || !*json_string_value(name))
        return bad(r, "name", "is missing or not a name");
    if (!(nd->name = tm__strdup(json_string_value(name))))
        return tm__nomem(r->ctx);
    if (!st || json_is_null(st))
        return bad(r, "state", "is missing");
    err = words(r, st, "state", '+', tolower, &base);
    if (!err)
        err = words(r, fl, "state_flags", '+', tolower, &flags);
    if (!err && !(nd->state = malloc(strlen(base) + strlen(flags) + 2)))
        err = tm__nomem(r->ctx);
    if (!err) {
        sprintf(nd->state, "%s%s%s", base, *flags ? "+" : "", flags);
        nd->free = is_free(nd->state);
        err = words(r, json_object_get(o, "partitions"), "partitions", ',', NULL,
                    &nd->partitions);
    }
    free(base);
    free(flags);
    return err;
}

/* ---- jobs ----------------------------------------------------------------------- */

/* "123", "123_4" for an array task, "123+1" for a heterogeneous component. */
static tm_err job_id(jrd *r, json_t *o, tm_slurm_job *j)
{
    int64_t id, arr = 0, task = 0, het = 0, off = 0;
    double v;
    bool array;
    char buf[96];
    tm_err err = int_member(r, o, "job_id", INT64_C(1) << 53, &id);
    if (!err && !id)
        return bad(r, "job_id", "is missing");
    if (!err)
        err = int_member(r, o, "array_job_id", INT64_C(1) << 53, &arr);
    if (!err)
        err = int_member(r, o, "het_job_id", INT64_C(1) << 53, &het);
    if (!err)
        err = int_member(r, o, "het_job_offset", INT32_MAX, &off);
    if (err)
        return err;
    /* an array task's index may be 0, which int_member cannot tell from none */
    array = arr > 0 && number(json_object_get(o, "array_task_id"), &v) > 0 && v >= 0 &&
            v < 1e9 && v == floor(v);
    task = array ? (int64_t)v : 0;
    if (array)
        snprintf(buf, sizeof buf, "%lld_%lld", (long long)arr, (long long)task);
    else if (het > 0)
        snprintf(buf, sizeof buf, "%lld+%lld", (long long)het, (long long)off);
    else
        snprintf(buf, sizeof buf, "%lld", (long long)id);
    return (j->id = tm__strdup(buf)) ? TM_EOK : tm__nomem(r->ctx);
}

static tm_err read_job(jrd *r, json_t *o, tm_slurm_job *j)
{
    double start = 0;
    int k;
    tm_err err = job_id(r, o, j);
    if (!err && !json_object_get(o, "job_state"))
        err = bad(r, "job_state", "is missing");
    if (!err)
        err = words(r, json_object_get(o, "job_state"), "job_state", '+', toupper, &j->state);
    if (!err)
        err = str_member(r, o, "nodes", &j->nodes);
    if (!err && *j->nodes) { /* a hostlist: checked here, where the file is known */
        char where[600], **names = NULL;
        size_t count = 0;
        snprintf(where, sizeof where, "%s: jobs[%zu] (job %s): nodes", r->name, r->i, j->id);
        err = tm_hostlist_expand(r->ctx, j->nodes, where, &names, &count);
        tm_hostlist_free(names, count);
    }
    if (!err)
        err = int_member(r, o, "tasks", INT32_MAX, &j->tasks);
    if (!err)
        err = int_member(r, o, "tasks_per_node", INT32_MAX, &j->tasks_per_node);
    if (!err)
        err = int_member(r, o, "cpus", INT32_MAX, &j->cpus);
    if (!err)
        err = str_member(r, o, "comment", &j->comment);
    if (!err)
        err = str_member(r, o, "partition", &j->partition);
    if (!err)
        err = str_member(r, o, "current_working_directory", &j->cwd);
    if (err)
        return err;
    k = number(json_object_get(o, "start_time"), &start);
    if (k < 0)
        return bad(r, "start_time", "is not a number");
    j->running = strncmp(j->state, "RUNNING", 7) == 0 || strncmp(j->state, "CONFIGURING", 11) == 0;
    j->start = j->running && k > 0 && start > 0 ? start : NAN;
    j->index = (int32_t)r->i;
    return TM_EOK;
}

/* The document's list `key`, each member read by one into an array of
 * size-byte elements (*arr, *n of them); the release into *release. */
typedef tm_err (*read_one)(jrd *r, json_t *o, void *elem);

static tm_err read_list(tm_ctx *ctx, FILE *in, const char *name, const char *key, size_t size,
                        read_one one, void **arr, int32_t *n, char **release)
{
    json_t *doc = NULL, *list = NULL;
    jrd r = {ctx, name, key, 0};
    tm_err err = load(ctx, in, name, key, &doc, &list);
    if (!err && !(*arr = tm__calloc_n(json_array_size(list) + 1, size)))
        err = tm__nomem(ctx);
    for (r.i = 0; !err && r.i < json_array_size(list); r.i++, (*n)++)
        err = one(&r, json_array_get(list, r.i), (char *)*arr + r.i * size);
    if (!err)
        err = release_of(ctx, doc, release);
    json_decref(doc);
    return err;
}

static tm_err node_one(jrd *r, json_t *o, void *elem)
{
    return read_node(r, o, elem);
}

static tm_err job_one(jrd *r, json_t *o, void *elem)
{
    return read_job(r, o, elem);
}

/* ---- steps ------------------------------------------------------------------------ */

/* One step line "123.0|16|n[01-04]": its job's largest numbered step. */
static tm_err step_line(tm__lexer *lx, tm_slurm_state *s, const int col[3])
{
    char *f[8] = {0}, *p = lx->buf, *dot;
    int nf = 0;
    int64_t tasks;
    while (nf < 8) {
        f[nf++] = p;
        if (!(p = strchr(p, '|')))
            break;
        *p++ = '\0';
    }
    if (nf <= col[0] || nf <= col[1] || nf <= col[2] || p)
        return tm__lex_error(lx, "%d fields, not those of the header", nf);
    dot = strrchr(f[col[0]], '.');
    if (!dot || dot == f[col[0]])
        return tm__lex_error(lx, "step id '%s' is not JOB.STEP", f[col[0]]);
    if (dot[1] < '0' || dot[1] > '9')
        return TM_EOK; /* 123.batch, 123.extern, 123.interactive */
    if (tm__str_to_i64(f[col[1]], &tasks) < 0 || tasks < 1 || tasks > INT32_MAX)
        return tm__lex_error(lx, "step %s: TASKS '%s' is not a count", f[col[0]], f[col[1]]);
    s->n_steps++;
    *dot = '\0';
    for (int32_t i = 0; i < s->n_jobs; i++) {
        tm_slurm_job *j = &s->job[i];
        if (strcmp(j->id, f[col[0]]) != 0 || tasks <= j->step_tasks)
            continue;
        free(j->step_nodes);
        if (!(j->step_nodes = tm__strdup(f[col[2]])))
            return tm__nomem(lx->ctx);
        j->step_tasks = tasks;
    }
    return TM_EOK;
}

static tm_err read_steps(tm_ctx *ctx, FILE *in, const char *name, tm_slurm_state *s)
{
    static const char *const want[3] = {"STEPID", "TASKS", "NODELIST"};
    int col[3] = {-1, -1, -1};
    tm__lexer lx;
    bool line, header = true;
    tm_err err = TM_EOK;
    tm__lex_init(&lx, ctx, in, name);
    while (!err && !(err = tm__lex_next(&lx, &line)) && line) {
        if (!*tm__skip_blank(lx.buf))
            continue;
        if (!header) {
            err = step_line(&lx, s, col);
            continue;
        }
        header = false;
        {
            char *save = NULL;
            int c = 0;
            for (char *w = strtok_r(lx.buf, "|", &save); w; w = strtok_r(NULL, "|", &save), c++)
                for (int k = 0; k < 3; k++)
                    if (strcasecmp(tm__skip_blank(w), want[k]) == 0)
                        col[k] = c;
        }
        if (col[0] < 0 || col[1] < 0 || col[2] < 0)
            err = tm__lex_error(&lx, "not the header STEPID|TASKS|NODELIST (squeue -s -o "
                                "\"%%i|%%A|%%N\")");
    }
    if (!err && header)
        err = tm__fail(ctx, TM_EINPUT, "%s:1: empty: no header STEPID|TASKS|NODELIST", name);
    tm__lex_release(&lx);
    return err;
}

tm_err tm_slurm_state_read(tm_ctx *ctx, FILE *nodes, const char *nodes_name, FILE *jobs,
                           const char *jobs_name, FILE *steps, const char *steps_name,
                           tm_slurm_state *out)
{
    tm_err err;
    tm_slurm_state_init(out);
    err = read_list(ctx, nodes, nodes_name, "nodes", sizeof *out->node, node_one,
                    (void **)&out->node, &out->n_nodes, &out->release);
    if (!err)
        err = read_list(ctx, jobs, jobs_name, "jobs", sizeof *out->job, job_one,
                        (void **)&out->job, &out->n_jobs, &out->release);
    if (!err && steps)
        err = read_steps(ctx, steps, steps_name, out);
    if (err)
        tm_slurm_state_release(out);
    return err;
}

tm_err tm_slurm_state_read_dir(tm_ctx *ctx, const char *dir, tm_slurm_state *out)
{
    static const char *const file[3] = {"nodes.json", "jobs.json", "steps.txt"};
    char *path[3] = {0};
    FILE *f[3] = {0};
    tm_err err = TM_EOK;
    tm_slurm_state_init(out);
    for (int k = 0; k < 3 && !err; k++) {
        size_t n = strlen(dir) + strlen(file[k]) + 2;
        if (!(path[k] = malloc(n))) {
            err = tm__nomem(ctx);
            break;
        }
        snprintf(path[k], n, "%s/%s", dir, file[k]);
        if (k == 2 && access(path[k], F_OK) != 0)
            break; /* no steps saved */
        err = tm_open_input(ctx, path[k], &f[k]);
    }
    if (!err)
        err = tm_slurm_state_read(ctx, f[0], path[0], f[1], path[1], f[2], path[2], out);
    for (int k = 0; k < 3; k++) {
        if (f[k])
            fclose(f[k]);
        free(path[k]);
    }
    return err;
}

const char *tm_slurm_comm_tag(const char *comment, size_t *len)
{
    for (const char *p = comment; p && (p = strstr(p, "topomap:")); p++) {
        if (p != comment && p[-1] != ' ' && p[-1] != ',' && p[-1] != '\t')
            continue;
        p += 8;
        *len = strcspn(p, " ,\t\n");
        return *len ? p : NULL;
    }
    return NULL;
}
