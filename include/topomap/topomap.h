/* topomap/topomap.h - the whole public API of libtopomap. */
#ifndef TOPOMAP_H
#define TOPOMAP_H

#define TOPOMAP_VERSION "0.1.0"

#include "topomap/error.h"
#include "topomap/export.h"
#include "topomap/net.h"
#include "topomap/netdist.h"
#include "topomap/levels.h"
#include "topomap/gen.h"
#include "topomap/io.h"
#include "topomap/comm.h"
#include "topomap/alloc.h"
#include "topomap/slurm.h"
#include "topomap/hier.h"
#include "topomap/shard.h"
#include "topomap/route.h"
#include "topomap/map.h"
#include "topomap/metrics.h"
#include "topomap/report.h"
#include "topomap/bounds.h"
#include "topomap/study.h"
#include "topomap/sim.h"
#include "topomap/workload.h"
#include "topomap/workload_doc.h"

#endif
