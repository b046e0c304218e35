/* wl_shard.h - `workload eval` and `workload replay --policy as-recorded`
 * in shards, and `workload merge` (not installed; docs/workload.md
 * "Shards"): the public part, the costs that deal the rows, the printed
 * result (tm_workload_doc, doc.c) and the merge (merge.c, over src/shard/),
 * is topomap/workload_doc.h; here, what the merge reads. */
#ifndef TM_WL_SHARD_H
#define TM_WL_SHARD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../shard/shard.h"
#include "topomap/workload.h"
#include "topomap/workload_doc.h"

/* ---- the merge (merge.c) ----------------------------------------------------- */

/* The shard kinds: "workload eval", "workload replay". */
const tm__shard_kind *tm__wl_shard_kind(bool replay);
#endif
