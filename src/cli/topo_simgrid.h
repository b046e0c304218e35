/* topo_simgrid.h - `topomap topo export --format simgrid` (topo_simgrid.c). */
#ifndef TM_CLI_TOPO_SIMGRID_H
#define TM_CLI_TOPO_SIMGRID_H

#include "cli.h"

/* Writes net as a SimGrid platform to out_path (NULL: stdout, atomically
 * otherwise) with the routes of --routing between the hosts of --alloc
 * (all hosts without it), cable latency and host loopback from the time
 * model's --latency-per-hop and --host-bandwidth (the same defaults, so a
 * platform and est_time_s describe one network).  Returns the exit code
 * (message printed). */
int cli_topo_simgrid(tm_ctx *ctx, cli_warns *w, const tm_net *net, const cli_inputs *in, const char *out_path);

#endif
