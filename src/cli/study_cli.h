/* study_cli.h - `topomap study`: its parsed options and its writers.  The
 * study runs through the public API (topomap/study.h: tm_study_run, the
 * rows' figures by index, the CSV header, tm_study_merge for the shards'
 * files), as any program's would. */
#ifndef TM_STUDY_CLI_H
#define TM_STUDY_CLI_H

#include <stdio.h>

#include "topomap/study.h"
#include "cli.h"
#include "shard_cli.h"

#define STUDY_MAX_AXIS 64
/* Options remembered for the shard identity (study_shard.c). */
#define STUDY_MAX_OPTS 1024

typedef cli_optval study_opt; /* OPT_* and its value (NULL for a flag) */

typedef struct study_args {
    cli_inputs in;  /* node-name map, HCAs, comm format, alloc, threads, time model */
    tm_time_opts topt; /* cli_time_opts(&in), which the spec points to */
    const char *topologies[STUDY_MAX_AXIS]; int n_topologies;
    const char *comm_paths[STUDY_MAX_AXIS]; int n_comms;
    int32_t slots[STUDY_MAX_AXIS]; int n_slots;
    const char *scales[STUDY_MAX_AXIS]; int n_scales;        /* [0] = NULL: no change */
    tm_study_failure failures[STUDY_MAX_AXIS]; int n_failures;  /* [0] = none */
    tm_route_kind routings[STUDY_MAX_AXIS]; int n_routings;
    const char *strategies[STUDY_MAX_AXIS]; int n_strategies;
    const char *outs[4]; int n_outs;
    const char *report; /* --report F.html */
    const char *refine;
    int effort;     /* TM_EFFORT_AUTO, a level, or CLI_EFFORT_EXHAUSTIVE */
    bool refine_given, effort_given;
    int objective;
    long seed, samples;
    bool quiet;
    tm_shard shard;    /* --shard K/N; n = 0: the whole study */
    study_opt opts[STUDY_MAX_OPTS]; int n_opts; /* every option, in order */
} study_args;

/* What the writers print: the study's spec (the values of its axes) and
 * the applications' names as given (--comm), which the spec does not hold. */
typedef struct study_grid {
    const tm_study_spec *s;
    const char *const *comm_names;
} study_grid;

/* Where the rows go and what the files say beside them. */
typedef struct study_outputs {
    const char *const *outs; int n_outs; /* F.csv / F.json */
    const char *report;                  /* F.html or NULL */
    long seed;                           /* the JSON grid's seed */
    tm_shard shard;                      /* n = 0: not a shard */
    char shard_id[TM_SHARD_ID_LEN + 1];
} study_outputs;

/* `topomap study --help` (study_args.c). */
void study_usage(FILE *out);
/* Parses argv: true to go on, false to end with exit code *rc (0 after
 * --help; usage errors printed). */
bool study_parse_args(int argc, char **argv, study_args *a, int *rc);
/* Writes the results to every --out file, CSV or JSON by its extension,
 * atomically (all or none), after the --report page. */
tm_err study_write_all(tm_ctx *ctx, const study_outputs *o, const study_grid *g,
                       const tm_study_result *res);
/* The shard identity of the parsed options (study_shard.c): every option
 * but those that do not change a row, and the input files' bytes. */
tm_err study_shard_id(tm_ctx *ctx, const study_args *a, char *out);
/* `topomap study merge F1 F2 ...` (cmd_study_merge.c). */
int cmd_study_merge(int argc, char **argv, cli_warns *w);
/* --report: the OK rows as one HTML page (study_report.c). */
tm_err study_write_report(tm_ctx *ctx, const char *path, const study_grid *g,
                          const tm_study_result *res);
/* The table on stdout. */
void study_print_table(FILE *out, const study_grid *g, const tm_study_result *res);
/* Axis labels shared by the writers (the table, CSV, JSON, the report). */
static inline const char *study_scale_label(const tm_study_spec *s, int i)
{
    return s->scales[i] ? s->scales[i] : "none";
}
static inline void study_fail_label(const tm_study_spec *s, int i, char *buf, size_t size)
{
    tm_study_failure_label(&s->failures[i], buf, size);
}

#endif
