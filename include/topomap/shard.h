/*
 * topomap/shard.h - one long computation in N shards (a Slurm job array:
 * docs/slurm.md; docs/study.md and docs/workload.md "Shards"): "K/N", the
 * items of the computation dealt to the shards by their estimated cost,
 * and the identity every shard of one computation writes beside its rows,
 * which a merge compares.
 *
 * A computation that can be sharded is a list of items (a study's
 * (scenario, strategy) runs: tm_study_spec's shard_index and shard_count;
 * a workload's jobs: tm_workload_eval_costs, tm_replay_shard_owners) whose
 * unsharded output is a list of rows in a fixed order.  Shard K of N runs
 * the items tm_shard_assign gives it and writes the rows of those items
 * only, each with its position in the unsharded list, beside K/N, the
 * identity of the computation (its options and the bytes of its inputs)
 * and the number of rows of the unsharded output: in JSON an object
 * "shard": {"index": K, "count": N, "id": "<TM_SHARD_ID_LEN hex digits>",
 * "rows_total": R, "rows": [positions]}, in CSV the columns
 * TM_SHARD_CSV_COLUMNS after each row.  The merges (tm_study_merge,
 * tm_workload_merge) read those files back.
 */
#ifndef TOPOMAP_SHARD_H
#define TOPOMAP_SHARD_H

#include <stdint.h>

#include "topomap/error.h"
#include "topomap/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest N of --shard K/N (Slurm's default MaxArraySize is 1001). */
#define TM_SHARD_MAX 100000
/* Characters of an identity in hex. */
#define TM_SHARD_ID_LEN 16
/* The columns a sharded CSV adds after the unsharded ones. */
#define TM_SHARD_CSV_COLUMNS "shard,shard_id,shard_row,shard_rows_total"

/* Shard k (0-based) of n; n = 0: the whole computation. */
typedef struct tm_shard {
    int32_t k, n;
} tm_shard;

/* Parses "K/N" (0 <= K < N <= TM_SHARD_MAX, both decimal): TM_EUSAGE
 * naming the value otherwise. */
TM_API tm_err tm_shard_parse(tm_ctx *ctx, const char *s, tm_shard *out);

/* Deals n_items items to n shards, balanced by their estimated costs
 * (cost[i] >= 0), and writes each item's shard to owner[i].  Longest
 * processing time first: items by decreasing cost, each to the shard with
 * the least cost so far (the lowest shard among equals).  Items of equal
 * cost are taken in an order fixed by a hash of their index, so that no
 * axis of a grid lines up with the shards (strategies 0 and 1 of every
 * scenario are not all on shards 0 and 1).  A function of (cost, n_items,
 * n) alone; every shard gets an item when n <= n_items. */
TM_API tm_err tm_shard_assign(tm_ctx *ctx, const int64_t *cost, int64_t n_items, int32_t n,
                              int32_t *owner);

/* ---- identity ------------------------------------------------------------
 * A 64-bit FNV-1a hash over what decides the rows: the command and its
 * version, every option that changes a row (not --shard, --out, --threads,
 * ...) in a fixed order, and the contents of the input files.  Not a
 * cryptographic hash: it catches shards run with other options or on
 * changed inputs, not an adversary. */
typedef struct tm_shard_id {
    uint64_t h;
} tm_shard_id;
/* Starts an identity of command `what` ("study"); adds the version. */
TM_API void tm_shard_id_init(tm_shard_id *id, const char *what);
/* Adds key=value (each with its length, so pairs cannot run together). */
TM_API void tm_shard_id_add(tm_shard_id *id, const char *key, const char *val);
/* As tm_shard_id_add, then the bytes of the file val names when it is a
 * regular file (a generator spec or a hostlist is not): TM_EINPUT when it
 * cannot be read. */
TM_API tm_err tm_shard_id_add_input(tm_ctx *ctx, tm_shard_id *id, const char *key,
                                    const char *val);
/* The identity as TM_SHARD_ID_LEN lowercase hex digits and a NUL. */
TM_API void tm_shard_id_hex(const tm_shard_id *id, char *out);

#ifdef __cplusplus
}
#endif

#endif
