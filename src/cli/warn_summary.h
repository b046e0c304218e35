/* warn_summary.h - the CLI's warnings: one summary line per kind of
 * warning (count, first example, the fix), or every warning with
 * --verbose (warn_summary.c; docs/errors.md "Warnings"). */
#ifndef TM_CLI_WARN_SUMMARY_H
#define TM_CLI_WARN_SUMMARY_H

#include "topomap/topomap.h"

/* The log callback cli_ctx_new installs (userdata unused). */
void cli_warn_log(void *ud, tm_log_level level, const char *msg);
/* Removes every "--verbose" before a "--" from argv (updating *argc) and
 * returns whether there was one: then each warning is printed as it
 * comes; else warnings are held and summarised by cli_warn_flush. */
bool cli_warn_take_verbose(int *argc, char **argv);
/* Prints the held warnings, one line per kind, and forgets them. */
void cli_warn_flush(void);

#endif
