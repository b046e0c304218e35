/* cmd_slurm.c - `topomap slurm snapshot DIR`: the cluster's state saved
 * for the submit hook and for offline what-ifs (docs/slurm.md "Live
 * state"): the controller's nodes, jobs and steps, written atomically to
 * DIR/nodes.json, jobs.json and steps.txt once all three have been read. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage_head[] =
    "usage: topomap slurm snapshot DIR [--timeout S]\n"
    "\n"
    "Saves the Slurm cluster's state for 'topomap alloc' and 'topomap workload eval'\n"
    "(their option slurm-state DIR; the submit hook of contrib/slurm/job_submit.lua\n"
    "reads it): the nodes (scontrol's JSON, or sinfo's on Slurm 22.05), the jobs\n"
    "(squeue's JSON) and their steps (squeue -s) into DIR/nodes.json, jobs.json and\n"
    "steps.txt, each replaced atomically once all three have been read (a failed run\n"
    "leaves the previous snapshot whole).  Run it from cron every minute\n"
    "(docs/slurm.md).  SLURM_CONF and PATH are taken from the environment.\n"
    "\n"
    "options:\n";

static void usage(FILE *out)
{
    fputs(usage_head, out);
    cli_print_options(out, CLI_SLURM);
}

typedef struct snap_args {
    double timeout;
} snap_args;

static tm_err snap_option(void *ud, int c, const char *v)
{
    snap_args *a = ud;
    if (c == OPT_TIMEOUT)
        return cli_parse_double("topomap slurm snapshot", "--timeout", v, 0.001, 86400,
                                &a->timeout);
    return TM_EINTERNAL;
}

static int snapshot(int argc, char **argv, cli_warns *w)
{
    const char *cmd = "topomap slurm snapshot";
    snap_args a = {30.0};
    tm_ctx *ctx = NULL;
    int first = 0, rc;
    tm_err err;
    if (!cli_parse_options_args(cmd, CLI_SLURM, argc, argv, snap_option, &a, usage, &first, &rc))
        return rc;
    if (argc - first != 1)
        return cli_usage_error(cmd, "one folder DIR is needed");
    if (cli_ctx_new(&ctx, w))
        return TM_EXIT_INTERNAL;
    err = tm_slurm_state_save(ctx, argv[first], a.timeout);
    rc = err ? cli_report(ctx, w, "slurm snapshot", err) : 0;
    tm_ctx_free(ctx);
    return rc;
}

int cmd_slurm(int argc, char **argv, cli_warns *w)
{
    if (argc < 2) {
        usage(stderr);
        return TM_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "snapshot") == 0)
        return snapshot(argc - 1, argv + 1, w);
    return cli_usage_error("topomap slurm", "unknown subcommand '%s' (snapshot)", argv[1]);
}
