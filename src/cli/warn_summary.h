/* warn_summary.h - the CLI's warnings: one summary line per kind of
 * warning (count, first example, the fix), or every warning with
 * --verbose (warn_summary.c; docs/errors.md "Warnings"). */
#ifndef TM_CLI_WARN_SUMMARY_H
#define TM_CLI_WARN_SUMMARY_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "topomap/topomap.h"

/* The warnings of one command: main.c makes one per command and passes
 * it down; every context the command makes logs into it (cli_ctx_new).
 * Guarded: the library may warn from its threads. */
typedef struct cli_warn_kind cli_warn_kind;
typedef struct cli_warns {
    pthread_mutex_t mu;
    bool verbose; /* print each warning as it comes */
    cli_warn_kind *kinds;
    size_t n, cap;
} cli_warns;

/* An empty holder; verbose as cli_warn_take_verbose found. */
void cli_warns_init(cli_warns *w, bool verbose);
/* Prints what is still held (cli_warn_flush) and frees the holder. */
void cli_warns_release(cli_warns *w);
/* The log callback cli_ctx_new installs; ud is the command's cli_warns. */
void cli_warn_log(void *ud, tm_log_level level, const char *msg);
/* Removes every "--verbose" before a "--" from argv (updating *argc) and
 * returns whether there was one: then each warning is printed as it
 * comes; else warnings are held and summarised by cli_warn_flush. */
bool cli_warn_take_verbose(int *argc, char **argv);
/* Prints the held warnings, one line per kind, and forgets them. */
void cli_warn_flush(cli_warns *w);

#endif
