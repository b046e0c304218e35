/*
 * topomap/sim.h - the network as a SimGrid platform, so that real MPI
 * programs run in SimGrid's SMPI on the fabric topomap maps for, under the
 * routing topomap evaluates (docs/time.md "Simulated proof").
 */
#ifndef TOPOMAP_SIM_H
#define TOPOMAP_SIM_H

#include <stdint.h>
#include <stdio.h>

#include "topomap/error.h"
#include "topomap/export.h"
#include "topomap/metrics.h"
#include "topomap/route.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Options of tm_simgrid_write; start from TM_SIMGRID_OPTS_INIT. */
typedef struct tm_simgrid_opts {
    double latency_s;          /* latency of every cable, seconds (default 5e-7, the time
                                * model's latency per hop: metrics.h, docs/time.md) */
    double host_speed_flops;   /* speed of every host core (default 1e9; SMPI runs with
                                * smpi/simulate-computation:no do not use it) */
    double loopback_gbps;      /* per-host loopback (rank to rank on one host), Gbit/s
                                * (default 80: 10 GB/s, SimGrid's own loopback and the
                                * time model's host bandwidth) */
    double loopback_latency_s; /* its latency, seconds (default 0) */
    const int32_t *hosts;      /* the hosts routes are written between (vertex ids,
                                * distinct hosts); NULL: every host of the net */
    int32_t n_hosts;
} tm_simgrid_opts;
#define TM_SIMGRID_OPTS_INIT                                                                 \
    {TM_TIME_LATENCY_PER_HOP_DEFAULT, 1e9, TM_TIME_HOST_BANDWIDTH_DEFAULT, 0.0, NULL, 0}

/* Writes the router's net as a SimGrid 4.1 platform: one zone with
 * routing="Full"; every host a <host> with core = its slots (at least 1);
 * every switch a <router>; every pair of vertices joined by enabled cables
 * one SPLITDUPLEX <link> whose bandwidth is the sum of those cables'
 * capacities (a zone has one route per pair, so parallel cables cannot be
 * told apart; its UP direction goes from the lower vertex id to the
 * higher); one loopback link per selected host; and an explicit
 * asymmetric <route> for every ordered pair of selected hosts listing, in
 * path order, the links and directions the router's path uses.
 *
 * Single-path routings (single, dor, lft, ftree, minhop, updn) are written
 * as they are.  ECMP spreads a message over all shortest paths, which a
 * platform cannot express: each pair then gets the path of the `single`
 * routing (backwards from the destination, the lowest-id in-link of the
 * shortest-path DAG), a shortest path of the ECMP set.  A router whose
 * flow splits over two neighbours (lft with lmc_spread) is TM_EUSAGE.
 *
 * Size: routes for k hosts are k(k-1) elements of about (hops + 1) lines
 * each (64 hosts of a 3-level fat-tree: ~30,000 lines; 1,024 hosts: ~6
 * million): restrict to a job's hosts with opts->hosts.  Host names that
 * cannot be written as XML are TM_EINPUT; nothing else is checked about
 * names (SimGrid accepts any id). */
TM_API tm_err tm_simgrid_write(tm_ctx *ctx, const tm_route *r, const tm_simgrid_opts *opts,
                               FILE *out);

#ifdef __cplusplus
}
#endif
#endif
