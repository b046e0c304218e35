/* study_cli.h - `topomap study`: its parsed options and its writers. */
#ifndef TM_STUDY_CLI_H
#define TM_STUDY_CLI_H

#include <stdio.h>

#include "../study/study.h"
#include "cli.h"

#define STUDY_MAX_AXIS 64

typedef struct study_args {
    cli_inputs in;  /* node-name map, HCAs, comm format, alloc, threads, time model */
    tm_time_opts topt; /* cli_time_opts(&in), which the spec points to */
    const char *topologies[STUDY_MAX_AXIS]; int n_topologies;
    const char *comm_paths[STUDY_MAX_AXIS]; int n_comms;
    int32_t slots[STUDY_MAX_AXIS]; int n_slots;
    const char *scales[STUDY_MAX_AXIS]; int n_scales;        /* [0] = NULL: no change */
    tm__failure fails[STUDY_MAX_AXIS]; int n_fails;             /* [0] = none */
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
} study_args;

void study_usage(FILE *out);
/* Parses argv; returns -1 to go on, else the exit code (0 for --help). */
int study_parse_args(int argc, char **argv, study_args *a);
/* Writes the results to every --out file, CSV or JSON by its extension,
 * atomically (all or none). */
tm_err study_write_all(tm_ctx *ctx, const study_args *a, const tm__study_spec *s,
                       const tm__study_result *res);
/* --report: the OK rows as one HTML page (study_report.c). */
tm_err study_write_report(tm_ctx *ctx, const char *path, const tm__study_spec *s,
                          const tm__study_result *res);
/* The table on stdout. */
void study_print_table(FILE *out, const tm__study_spec *s, const tm__study_result *res);
/* Axis labels shared by the writers. */
const char *study_scale_label(const tm__study_spec *s, int i);
void study_fail_label(const tm__study_spec *s, int i, char *buf, size_t size);

#endif
