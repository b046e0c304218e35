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
    int64_t *split_pairs;      /* output, if not NULL: how many routes were drawn from a
                                * split of the pair over several paths (below) */
} tm_simgrid_opts;
#define TM_SIMGRID_OPTS_INIT                                                                 \
    {TM_TIME_LATENCY_PER_HOP_DEFAULT, 1e9, TM_TIME_HOST_BANDWIDTH_DEFAULT, 0.0, NULL, 0, NULL}

/* Writes the router's net as a SimGrid 4.1 platform: one zone with
 * routing="Full"; every host a <host> with core = its slots (at least 1);
 * every switch a <router>; every enabled cable one SPLITDUPLEX <link>
 * "L<cable id>" of the cable's capacity (two resources of that bandwidth,
 * one per direction, as topomap's two directed links; parallel cables stay
 * separate links), with a prop "ends" = its two vertex ids, UP from the
 * first to the second; one loopback link per selected host; and an
 * explicit asymmetric <route> for every ordered pair of selected hosts
 * listing, in path order, the cables and directions the router loads.
 *
 * Single-path routings (single, dor, lft, ftree, minhop, updn) are written
 * as they are, cable for cable.  A router that splits a pair over several
 * paths (ECMP; a multi-rail host striping over its rails; lft with
 * lmc_spread) cannot be written as such (a platform has one route per
 * pair): the route is one path drawn from the split, the out-link at each
 * branching vertex with probability (its fraction / the fraction through
 * the vertex), from a generator seeded by the pair, so the same net always
 * gives the same platform and under ECMP each shortest path is equally
 * likely (as a fabric that hashes flows to paths); docs/time.md says how
 * far a simulation can then differ from the split the time model
 * evaluates.  opts->split_pairs receives the number of such routes.
 * valiant and ugal (non-minimal) are TM_EUSAGE.
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
