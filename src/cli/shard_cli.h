/* shard_cli.h - what a shard's output adds to the unsharded one
 * (topomap/shard.h): the JSON "shard" object and the CSV
 * columns TM_SHARD_CSV_COLUMNS.  For every command that takes --shard. */
#ifndef TM_SHARD_CLI_H
#define TM_SHARD_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "topomap/shard.h"
#include "cli.h"

/* The options of a merge (`study merge`, `workload merge`): --out F.csv or
 * F.json (json_out: one is JSON), --report F.html, --json; as a
 * cli_option_fn over a cli_merge_args whose cmd is set. */
#define CLI_MERGE_MAX_OUT 8
typedef struct cli_merge_args {
    const char *cmd; /* "topomap study merge": in usage errors */
    const char *outs[CLI_MERGE_MAX_OUT];
    int n_outs;
    bool json_out, json;
    const char *report;
} cli_merge_args;
tm_err cli_merge_option(void *ud, int c, const char *v);

/* --shard's value (tm_shard_parse): TM_EOK, or TM_EUSAGE after a usage
 * error of cmd (printed); as cli_option_fn. */
tm_err cli_shard_option(const char *cmd, const char *v, tm_shard *out);

/* An option as given (id OPT_*, value NULL for a flag), kept for the
 * identity. */
typedef struct cli_optval {
    int id;
    const char *val;
} cli_optval;

/* The identity (topomap/shard.h) of command `what` ("study", "workload
 * eval") from its options, sorted by name (the given order kept among equal
 * names: their order may be an axis'), so that it does not depend on where
 * options stand; the options row_free(id) says change no row (--out,
 * --threads, ...) are left out, and the files the options names_input(id)
 * says may name are hashed with their bytes.  The caller may add more
 * before tm_shard_id_hex. */
tm_err cli_shard_id(tm_ctx *ctx, const char *what, const cli_optval *opts, int n,
                    bool (*row_free)(int id), bool (*names_input)(int id), tm_shard_id *id);

/* "shard": {"index": K, "count": N, "id": id, "rows_total": total,
 * "rows": [pos[0], ..., pos[n-1]]} (pos: each written row's position in
 * the unsharded output). */
void cli_shard_json(json_w *j, const tm_shard *sh, const char *id, int64_t total,
                    const int64_t *pos, int64_t n);
/* The shard cells of one CSV row, each after a comma: ",K/N,id,pos,total"
 * (the caller ends the line). */
void cli_shard_csv(FILE *f, const tm_shard *sh, const char *id, int64_t pos, int64_t total);

#endif
