/* study_args.c - the options of `topomap study` and its --help.  Every
 * value is checked here, before anything is loaded, so a bad option is a
 * usage error (exit 1) and not a failure in the middle of a long study. */
#include <stdlib.h>
#include <string.h>

#include "study_cli.h"

static const char *const CMD = "topomap study";

static const char usage_text[] =
    "usage: topomap study --topology T [--topology T2 ...] --comm G [--comm G2 ...]\n"
    "                     [--alloc A] [--strategy S[,S2..]] [--routing R[,R2..]] [--slots N[,N2..]]\n"
    "                     [--scale-capacity LEVEL=FACTOR[,..]] [--fail-links P%[,P2%..]] [--seeds N]\n"
    "                     [--fail-link A:B[,C:D..]] [--fail-switch S[,S2..]] [--seed N] [--threads N]\n"
    "                     [--refine R] [--objective O] [--out F.csv|F.json] [--report F.html]\n"
    "                     [--quiet] [--shard K/N]\n"
    "       topomap study merge F1 F2 ... [--out F.csv|F.json] [--report F.html]\n"
    "\n"
    "Runs every combination of the values given (topologies x slots x capacity changes x\n"
    "failures x routing models x applications) and prints, for every scenario and strategy,\n"
    "max congestion, average dilation and J of the consecutive placement and of the\n"
    "strategy's mapping, with the change in percent (docs/study.md).  --shard K/N runs\n"
    "one shard of the runs (a Slurm job array: docs/slurm.md); 'topomap study merge'\n"
    "joins the shards' --out files into exactly the unsharded study's files\n"
    "('topomap study merge --help').\n"
    "\n"
    "options:\n";

static const char usage_tail[] =
    "\n"
    "The unchanged network (no capacity change, no failure) is always part of the grid.  A\n"
    "scenario whose failures split the allocation is kept as a row with status\n"
    "'disconnected' and the hosts that were cut apart.\n";

void study_usage(FILE *out)
{
    fputs(usage_text, out);
    cli_print_options(out, CLI_STUDY); /* options.c */
    fputs(usage_tail, out);
}

/* A new value of an axis, its index in *i; TM_EUSAGE (printed) when the
 * axis is full. */
static tm_err push(const char *opt, int *n, int max, int *i)
{
    if (*n >= max)
        return cli_usage_error(CMD, "%s: at most %d values", opt, max), TM_EUSAGE;
    *i = (*n)++;
    return TM_EOK;
}

/* Calls fn on every comma-separated item of s; stops at the first error. */
static tm_err each_item(const char *s, study_args *a, tm_err (*fn)(study_args *, const char *))
{
    char buf[256];
    const char *p = s;
    for (;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (len == 0 || len >= sizeof buf)
            return cli_usage_error(CMD, "empty or too long item in '%s'", s), TM_EUSAGE;
        memcpy(buf, p, len);
        buf[len] = 0;
        if (fn(a, buf))
            return TM_EUSAGE;
        if (!c)
            return TM_EOK;
        p = c + 1;
    }
}

static tm_err add_slots(study_args *a, const char *v)
{
    long n;
    int i;
    if (cli_parse_slots(CMD, v, &n) || push("--slots", &a->n_slots, STUDY_MAX_AXIS, &i))
        return TM_EUSAGE;
    a->slots[i] = (int32_t)n;
    return TM_EOK;
}

static tm_err add_routing(study_args *a, const char *v)
{
    cli_routing r;
    int i;
    /* study computes its routes: no lft:DIR (options.c) */
    if (cli_parse_routing(CMD, v, false, &r) ||
        push("--routing", &a->n_routings, STUDY_MAX_AXIS, &i))
        return TM_EUSAGE;
    a->routings[i] = r.kind;
    return TM_EOK;
}

static tm_err add_strategy(study_args *a, const char *v)
{
    const tm_strategy *st = tm_strategy_find(v);
    int i;
    if (strcmp(v, "all") && (!st || !(st->modes & TM_MODE_NETWORK)))
        return cli_usage_error(CMD, "unknown network-mode --strategy '%s' (see 'topomap map "
                                    "--help')", v), TM_EUSAGE;
    if (push("--strategy", &a->n_strategies, STUDY_MAX_AXIS, &i))
        return TM_EUSAGE;
    /* the registry's own string: v is a piece of a comma list */
    a->strategies[i] = st ? st->name : "all";
    return TM_EOK;
}

static tm_err add_pct(study_args *a, const char *v)
{
    char *end;
    double p = strtod(v, &end);
    int i;
    if (end == v || (*end && strcmp(end, "%")) || !(p > 0 && p <= 100))
        return cli_usage_error(CMD, "--fail-links expects a percentage in (0, 100] like 5%%, "
                                    "got '%s'", v), TM_EUSAGE;
    if (push("--fail-*", &a->n_failures, STUDY_MAX_AXIS, &i))
        return TM_EUSAGE;
    a->failures[i].kind = TM_STUDY_FAIL_RANDOM;
    a->failures[i].pct = p;
    return TM_EOK;
}

static tm_err add_named(study_args *a, tm_study_fail_kind kind, const char *v)
{
    int i;
    if (push("--fail-*", &a->n_failures, STUDY_MAX_AXIS, &i))
        return TM_EUSAGE;
    if (!*v || strstr(v, ",,") || *v == ',' || v[strlen(v) - 1] == ',')
        return cli_usage_error(CMD, "empty name in '%s'", v), TM_EUSAGE;
    if (kind == TM_STUDY_FAIL_LINKS && !strchr(v, ':'))
        return cli_usage_error(CMD, "--fail-link expects A:B[,C:D...], got '%s'", v), TM_EUSAGE;
    a->failures[i].kind = kind;
    a->failures[i].names = v;
    return TM_EOK;
}

static tm_err add_scale(study_args *a, const char *v)
{
    tm_ctx *q = NULL;
    tm_study_scale sc;
    int i;
    if (tm_ctx_new(&q) != TM_EOK)
        return TM_ENOMEM;
    if (tm_study_scale_parse(q, v, &sc) != TM_EOK) {
        cli_usage_error(CMD, "--scale-capacity: %s", tm_ctx_errmsg(q));
        tm_ctx_free(q);
        return TM_EUSAGE;
    }
    tm_ctx_free(q);
    if (push("--scale-capacity", &a->n_scales, STUDY_MAX_AXIS, &i))
        return TM_EUSAGE;
    a->scales[i] = v;
    return TM_EOK;
}

/* As cli_option_fn for the options of study alone: TM_EINTERNAL for the
 * others (cli_input_option's). */
static tm_err study_option(study_args *a, int c, const char *v)
{
    int i;
    switch (c) {
    case OPT_TOPOLOGY:
        if (push("--topology", &a->n_topologies, STUDY_MAX_AXIS, &i))
            return TM_EUSAGE;
        a->topologies[i] = v;
        return TM_EOK;
    case OPT_COMM:
        if (push("--comm", &a->n_comms, STUDY_MAX_AXIS, &i))
            return TM_EUSAGE;
        a->comm_paths[i] = v;
        return TM_EOK;
    case OPT_SLOTS: return each_item(v, a, add_slots);
    case OPT_ROUTING: return each_item(v, a, add_routing);
    case OPT_STRATEGY: return each_item(v, a, add_strategy);
    case OPT_FAIL_LINKS: return each_item(v, a, add_pct);
    case OPT_FAIL_LINK: return add_named(a, TM_STUDY_FAIL_LINKS, v);
    case OPT_FAIL_SWITCH: return add_named(a, TM_STUDY_FAIL_SWITCHES, v);
    case OPT_SCALE_CAPACITY: return add_scale(a, v);
    case OPT_REFINE:
        a->refine = strcmp(v, "none") == 0 ? NULL : v;
        a->refine_given = true;
        return TM_EOK;
    case OPT_EFFORT:
        a->effort_given = true;
        return cli_parse_effort(CMD, v, &a->effort);
    case OPT_OBJECTIVE:
        if ((a->objective = tm_objective_parse(v)) < 0)
            return cli_usage_error(CMD, "unknown --objective '%s' (congestion, dilation, qap, "
                                        "pareto, time)", v), TM_EUSAGE;
        return TM_EOK;
    case OPT_SEED: return cli_parse_int(CMD, "--seed", v, 0, 0x7fffffffL, &a->seed);
    case OPT_SEEDS: return cli_parse_int(CMD, "--seeds", v, 1, 10000, &a->samples);

    case OPT_OUT: {
        size_t n = strlen(v);
        if ((n < 5 || (strcmp(v + n - 4, ".csv") && strcmp(v + n - 5, ".json"))))
            return cli_usage_error(CMD, "--out '%s': the name must end in .csv or .json", v),
                   TM_EUSAGE;
        if (push("--out", &a->n_outs, 4, &i))
            return TM_EUSAGE;
        a->outs[i] = v;
        return TM_EOK;
    }
    case OPT_QUIET: a->quiet = true; return TM_EOK;
    case OPT_SHARD: return cli_shard_option(CMD, v, &a->shard);
    case OPT_REPORT: {
        size_t n = strlen(v);
        if (n < 6 || strcmp(v + n - 5, ".html") != 0)
            return cli_usage_error(CMD, "--report '%s': the name must end in .html", v), TM_EUSAGE;
        a->report = v;
        return TM_EOK;
    }
    default: return TM_EINTERNAL;
    }
}

static tm_err study_option_fn(void *ud, int c, const char *v)
{
    study_args *a = ud;
    tm_err err;
    if (a->n_opts >= STUDY_MAX_OPTS)
        return cli_usage_error(CMD, "more than %d options", STUDY_MAX_OPTS), TM_EUSAGE;
    a->opts[a->n_opts++] = (study_opt){c, v};
    err = study_option(a, c, v);
    return err == TM_EINTERNAL ? cli_input_option(CMD, &a->in, c, v) : err;
}

static void defaults(study_args *a)
{
    memset(a, 0, sizeof *a);
    /* the unchanged network is always the first value of its axes */
    a->n_scales = 1;
    a->n_failures = 1;
    a->refine = "auto"; /* map's default pipeline (docs/mapping.md "Effort and time") */
    a->effort = TM_EFFORT_AUTO;
    a->objective = TM_OBJ_PARETO;
    a->seed = 1;
    a->samples = 1;
}

/* Index of the first repeat of a label among n, or -1. */
static int repeated(const char *const *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(v[i], v[j]) == 0)
                return i;
    return -1;
}

static tm_err twice(const char *opt, const char *v)
{
    return cli_usage_error(CMD, "--shard: %s '%s' is given twice: a sharded study needs distinct "
                           "values on every axis", opt, v), TM_EUSAGE;
}

/* A sharded study's axes hold distinct labels: the merge rebuilds the grid
 * from the rows' labels (docs/study.md "Shards"). */
static tm_err distinct_axes(const study_args *a)
{
    static char lab[STUDY_MAX_AXIS][400];
    const char *v[STUDY_MAX_AXIS];
    int i;
    if ((i = repeated(a->topologies, a->n_topologies)) >= 0)
        return twice("--topology", a->topologies[i]);
    if ((i = repeated(a->comm_paths, a->n_comms)) >= 0)
        return twice("--comm", a->comm_paths[i]);
    if ((i = repeated(a->strategies, a->n_strategies)) >= 0)
        return twice("--strategy", a->strategies[i]);
    for (i = 0; i < a->n_slots; i++) {
        snprintf(lab[i], sizeof lab[i], "%d", (int)a->slots[i]);
        v[i] = lab[i];
    }
    if ((i = repeated(v, a->n_slots)) >= 0)
        return twice("--slots", v[i]);
    for (i = 0; i < a->n_routings; i++)
        v[i] = tm_route_kind_name(a->routings[i]);
    if ((i = repeated(v, a->n_routings)) >= 0)
        return twice("--routing", v[i]);
    if ((i = repeated(a->scales + 1, a->n_scales - 1)) >= 0) /* [0] is no change */
        return twice("--scale-capacity", a->scales[i + 1]);
    for (i = 0; i < a->n_failures; i++) {
        tm_study_failure_label(&a->failures[i], lab[i], sizeof lab[i]);
        v[i] = lab[i];
    }
    if ((i = repeated(v, a->n_failures)) >= 0)
        return twice("failure", v[i]);
    return TM_EOK;
}

/* Axes left empty get their single default value. */
static tm_err finish(study_args *a)
{
    if (a->effort_given && a->refine_given)
        return cli_usage_error(CMD, "--effort sets the work of the default pipeline; with "
                               "--refine the chain given runs instead (drop one of them)"),
               TM_EUSAGE;
    if (a->effort == CLI_EFFORT_EXHAUSTIVE)
        a->refine = CLI_NET_PIPELINE;
    if (!a->n_topologies)
        return cli_usage_error(CMD, "--topology is required"), TM_EUSAGE;
    if (!a->n_comms)
        return cli_usage_error(CMD, "--comm is required"), TM_EUSAGE;
    if (a->in.comm_phases && a->n_comms > 1)
        return cli_usage_error(CMD, "--comm-phases describes one application: give one --comm"),
               TM_EUSAGE;
    if (!a->n_slots)
        a->slots[a->n_slots++] = 0;
    if (!a->n_routings)
        a->routings[a->n_routings++] = TM_ROUTE_ECMP;
    if (!a->n_strategies)
        a->strategies[a->n_strategies++] = "all";
    return a->shard.n ? distinct_axes(a) : TM_EOK;
}

bool study_parse_args(int argc, char **argv, study_args *a, int *rc)
{
    defaults(a);
    if (!cli_parse_options(CMD, CLI_STUDY, argc, argv, study_option_fn, a, study_usage, rc))
        return false;
    *rc = finish(a) ? TM_EXIT_USAGE : TM_EXIT_OK;
    return *rc == TM_EXIT_OK;
}
