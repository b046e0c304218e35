/* shard_cli.h - what a shard's output adds to the unsharded one
 * (src/shard/shard.h "The formats"): the JSON "shard" object and the CSV
 * columns TM__SHARD_CSV_COLUMNS.  For every command that takes --shard. */
#ifndef TM_SHARD_CLI_H
#define TM_SHARD_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "../shard/shard.h"
#include "cli.h"

/* "shard": {"index": K, "count": N, "id": id, "rows_total": total,
 * "rows": [pos[0], ..., pos[n-1]]} (pos: each written row's position in
 * the unsharded output). */
void cli_shard_json(json_w *j, const tm__shard *sh, const char *id, int64_t total,
                    const int64_t *pos, int64_t n);
/* The shard cells of one CSV row, each after a comma: ",K/N,id,pos,total"
 * (the caller ends the line). */
void cli_shard_csv(FILE *f, const tm__shard *sh, const char *id, int64_t pos, int64_t total);

#endif
