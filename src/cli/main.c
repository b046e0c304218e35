/* main.c - the topomap command table and dispatch. */
#include <stdio.h>
#include <string.h>

#include <libxml/parser.h>

#include "cli.h"
#include "warn_summary.h"

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv, cli_warns *w);
    const char *help;
} commands[] = {
    {"topo", cmd_topo, "inspect or export a network (info, export)"},
    {"eval", cmd_eval, "exact congestion, dilation and QAP cost of a mapping"},
    {"map", cmd_map, "compute a mapping and write a rankfile"},
    {"study", cmd_study, "what-if grid: topologies, failures, capacities x strategies"},
    {"workload", cmd_workload, "many jobs on one fabric: eval, replay (docs/workload.md)"},
    {"alloc", cmd_alloc, "choose the nodes of a new job among the free ones"},
    {"slurm", cmd_slurm, "save the Slurm cluster's state (snapshot) for alloc and the hook"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: topomap <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].help);
    fprintf(out, "  version  print the version\n\n"
                 "'topomap <command> --help' describes each command.  Warnings about the\n"
                 "inputs are summarised, one line per kind; --verbose (any command) lists each.\n"
                 "exit codes: 0 ok, 1 usage error, 2 bad input, 3 infeasible request, "
                 "4 internal error\n");
}

int main(int argc, char **argv)
{
    int rc;
    bool verbose = cli_warn_take_verbose(&argc, argv);
    if (argc < 2) {
        usage(stderr);
        return TM_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "version") == 0 || strcmp(argv[1], "--version") == 0) {
        printf("topomap %s\n", TOPOMAP_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        if (strcmp(argv[1], commands[i].name) == 0) {
            cli_warns w; /* the command's warnings, printed after it */
            cli_warns_init(&w, verbose);
            rc = commands[i].run(argc - 1, argv + 1, &w);
            cli_warns_release(&w);
            xmlCleanupParser();
            return rc;
        }
    }
    return cli_usage_error("topomap", "unknown command '%s' (topo, eval, map, study, workload, alloc, version)", argv[1]);
}
