/* study_args.c - the options of `topomap study`.  Every value is checked
 * here, before anything is loaded, so a bad option is a usage error (exit
 * 1) and not a failure in the middle of a long study. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "study_cli.h"

static const char *const CMD = "topomap study";

enum {
    OPT_FAIL_LINKS = OPT_SHARED_END_, /* after every shared option id (cli.h) */ OPT_FAIL_LINK, OPT_FAIL_SWITCH, OPT_SEEDS,
    OPT_SCALE_CAPACITY
};

/* Appends v to an axis; -1 (printed) when the axis is full. */
static int push(const char *opt, int *n, int max)
{
    if (*n >= max)
        return cli_usage_error(CMD, "%s: at most %d values", opt, max), -1;
    return (*n)++;
}

/* Calls fn on every comma-separated item of s; stops at the first < 0. */
static int each_item(const char *s, study_args *a, int (*fn)(study_args *, const char *))
{
    char buf[256];
    const char *p = s;
    for (;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (len == 0 || len >= sizeof buf)
            return cli_usage_error(CMD, "empty or too long item in '%s'", s), -1;
        memcpy(buf, p, len);
        buf[len] = 0;
        if (fn(a, buf) < 0)
            return -1;
        if (!c)
            return 0;
        p = c + 1;
    }
}

static int add_slots(study_args *a, const char *v)
{
    long n;
    int i;
    if (cli_parse_int(CMD, "--slots", v, 1, 1 << 20, &n) < 0 || (i = push("--slots", &a->n_slots, STUDY_MAX_AXIS)) < 0)
        return -1;
    a->slots[i] = (int32_t)n;
    return 0;
}

static int add_routing(study_args *a, const char *v)
{
    int k = tm_route_kind_parse(v), i;
    if (k < 0)
        return cli_usage_error(CMD, "unknown --routing '%s' (ecmp, single, dor, ftree, "
                                    "minhop, updn, valiant, ugal)", v), -1;
    if ((i = push("--routing", &a->n_routings, STUDY_MAX_AXIS)) < 0)
        return -1;
    a->routings[i] = (tm_route_kind)k;
    return 0;
}

static int add_strategy(study_args *a, const char *v)
{
    const tm_strategy *st = tm_strategy_find(v);
    int i;
    if (strcmp(v, "all") && (!st || !(st->modes & TM_MODE_NETWORK)))
        return cli_usage_error(CMD, "unknown network-mode --strategy '%s' (see 'topomap map "
                                    "--help')", v), -1;
    if ((i = push("--strategy", &a->n_strategies, STUDY_MAX_AXIS)) < 0)
        return -1;
    /* the registry's own string: v is a piece of a comma list */
    a->strategies[i] = st ? st->name : "all";
    return 0;
}

static int add_pct(study_args *a, const char *v)
{
    char *end;
    double p = strtod(v, &end);
    int i;
    if (end == v || (*end && strcmp(end, "%")) || !(p > 0 && p <= 100))
        return cli_usage_error(CMD, "--fail-links expects a percentage in (0, 100] like 5%%, "
                                    "got '%s'", v), -1;
    if ((i = push("--fail-*", &a->n_fails, STUDY_MAX_AXIS)) < 0)
        return -1;
    a->fails[i].kind = TM__FAIL_RANDOM;
    a->fails[i].pct = p;
    return 0;
}

static int add_named(study_args *a, tm__fail_kind kind, const char *v)
{
    int i = push("--fail-*", &a->n_fails, STUDY_MAX_AXIS);
    if (i < 0)
        return -1;
    if (!*v || strstr(v, ",,") || *v == ',' || v[strlen(v) - 1] == ',')
        return cli_usage_error(CMD, "empty name in '%s'", v), -1;
    if (kind == TM__FAIL_LINKS && !strchr(v, ':'))
        return cli_usage_error(CMD, "--fail-link expects A:B[,C:D...], got '%s'", v), -1;
    a->fails[i].kind = kind;
    a->fails[i].names = v;
    return 0;
}

static int add_scale(study_args *a, const char *v)
{
    tm_ctx *q = NULL;
    tm__scale sc;
    int i;
    if (tm_ctx_new(&q) != TM_EOK)
        return -1;
    if (tm__scale_parse(q, v, &sc) != TM_EOK) {
        cli_usage_error(CMD, "--scale-capacity: %s", tm_ctx_errmsg(q));
        tm_ctx_free(q);
        return -1;
    }
    tm_ctx_free(q);
    if ((i = push("--scale-capacity", &a->n_scales, STUDY_MAX_AXIS)) < 0)
        return -1;
    a->scales[i] = v;
    return 0;
}

static int study_option(study_args *a, int c, const char *v)
{
    int i;
    switch (c) {
    case OPT_TOPOLOGY:
        if ((i = push("--topology", &a->n_topologies, STUDY_MAX_AXIS)) < 0)
            return -1;
        a->topologies[i] = v;
        return 0;
    case OPT_COMM:
        if ((i = push("--comm", &a->n_comms, STUDY_MAX_AXIS)) < 0)
            return -1;
        a->comm_paths[i] = v;
        return 0;
    case OPT_SLOTS: return each_item(v, a, add_slots);
    case OPT_ROUTING: return each_item(v, a, add_routing);
    case OPT_STRATEGY: return each_item(v, a, add_strategy);
    case OPT_FAIL_LINKS: return each_item(v, a, add_pct);
    case OPT_FAIL_LINK: return add_named(a, TM__FAIL_LINKS, v);
    case OPT_FAIL_SWITCH: return add_named(a, TM__FAIL_SWITCHES, v);
    case OPT_SCALE_CAPACITY: return add_scale(a, v);
    case OPT_REFINE: a->refine = strcmp(v, "none") == 0 ? NULL : v; return 0;
    case OPT_OBJECTIVE:
        if ((a->objective = tm_objective_parse(v)) < 0)
            return cli_usage_error(CMD, "unknown --objective '%s' (congestion, dilation, qap, "
                                        "pareto)", v), -1;
        return 0;
    case OPT_SEED: return cli_parse_int(CMD, "--seed", v, 0, 0x7fffffffL, &a->seed);
    case OPT_SEEDS: return cli_parse_int(CMD, "--seeds", v, 1, 10000, &a->samples);
    case OPT_THREADS: return cli_parse_int(CMD, "--threads", v, 0, 1024, &a->threads);
    case OPT_OUT: {
        size_t n = strlen(v);
        if ((n < 5 || (strcmp(v + n - 4, ".csv") && strcmp(v + n - 5, ".json"))))
            return cli_usage_error(CMD, "--out '%s': the name must end in .csv or .json", v), -1;
        if ((i = push("--out", &a->n_outs, 4)) < 0)
            return -1;
        a->outs[i] = v;
        return 0;
    }
    case OPT_QUIET: a->quiet = true; return 0;
    case OPT_REPORT: {
        size_t n = strlen(v);
        if (n < 6 || strcmp(v + n - 5, ".html") != 0)
            return cli_usage_error(CMD, "--report '%s': the name must end in .html", v), -1;
        a->report = v;
        return 0;
    }
    default: return cli_usage_error(CMD, "unhandled option"), -1;
    }
}

static void defaults(study_args *a)
{
    memset(a, 0, sizeof *a);
    /* the unchanged network is always the first value of its axes */
    a->n_scales = 1;
    a->n_fails = 1;
    a->refine = "ils:10+ta"; /* map's network pipeline (docs/mapping.md) */
    a->objective = TM_OBJ_PARETO;
    a->seed = 1;
    a->samples = 1;
}

/* Axes left empty get their single default value. */
static int finish(study_args *a)
{
    if (!a->n_topologies)
        return cli_usage_error(CMD, "--topology is required"), -1;
    if (!a->n_comms)
        return cli_usage_error(CMD, "--comm is required"), -1;
    if (!a->n_slots)
        a->slots[a->n_slots++] = 0;
    if (!a->n_routings)
        a->routings[a->n_routings++] = TM_ROUTE_ECMP;
    if (!a->n_strategies)
        a->strategies[a->n_strategies++] = "all";
    return 0;
}

int study_parse_args(int argc, char **argv, study_args *a)
{
    static const struct option opts[] = {
        CLI_INPUT_OPTIONS,
        {"strategy", required_argument, NULL, OPT_STRATEGY},
        {"refine", required_argument, NULL, OPT_REFINE},
        {"objective", required_argument, NULL, OPT_OBJECTIVE},
        {"seed", required_argument, NULL, OPT_SEED},
        {"seeds", required_argument, NULL, OPT_SEEDS},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"fail-links", required_argument, NULL, OPT_FAIL_LINKS},
        {"fail-link", required_argument, NULL, OPT_FAIL_LINK},
        {"fail-switch", required_argument, NULL, OPT_FAIL_SWITCH},
        {"scale-capacity", required_argument, NULL, OPT_SCALE_CAPACITY},
        {"out", required_argument, NULL, OPT_OUT},
        {"report", required_argument, NULL, OPT_REPORT},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {NULL, 0, NULL, 0},
    };
    int c;
    defaults(a);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        if (c == OPT_HELP)
            return study_usage(stdout), 0;
        if (c == OPT_HIERARCHY || c == OPT_DISTANCES || c == OPT_NODE_HIERARCHY ||
            c == OPT_NODE_DISTANCES || c == OPT_HWLOC || c == OPT_HOP_DISTANCE)
            return cli_usage_error(CMD, "'%s' is not a study option (network mode only, no "
                                        "node hierarchy)", argv[optind - 1]);
        if (c == OPT_LMC_SPREAD || c == OPT_ROOT)
            return cli_usage_error(CMD, "'%s' is not a study option (study routes with computed "
                                        "tables and automatic updn roots only)",
                                   argv[optind - 1]);
        if (c == '?' || c == ':')
            return cli_getopt_error(CMD, c, argv);
        if (c == OPT_NODEMAP || c == OPT_SEPARATE_HCAS || c == OPT_COMM_FORMAT || c == OPT_ALLOC) {
            if (cli_input_option(&a->in, c, optarg) < 0)
                return EXIT_USAGE_;
        } else if (study_option(a, c, optarg) < 0) {
            return EXIT_USAGE_;
        }
    }
    if (optind < argc)
        return cli_usage_error(CMD, "unexpected argument '%s'", argv[optind]);
    return finish(a) < 0 ? EXIT_USAGE_ : -1;
}
