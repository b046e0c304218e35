/* shard.h - one long computation split into N independent shards, and the
 * shards' outputs joined into exactly the unsharded result (docs/study.md
 * "Shards", docs/slurm.md "Job arrays").  The parts every sharded command
 * uses ("K/N", dealing the items, the identity) are public:
 * topomap/shard.h; here, internal to the library, the shards' files read
 * back for the merges (tm_study_merge, tm_workload_merge).
 *
 * A computation that can be sharded is a list of items (a study's
 * (scenario, strategy) runs; a workload's jobs) whose unsharded output is
 * a list of rows in a fixed order.  Shard K of N runs the items
 * tm_shard_assign gives it and writes the rows of those items only, each
 * with its position in the unsharded list, beside four facts that every
 * shard of the computation shares: K/N, the identity of the computation
 * (tm_shard_id: its options and the bytes of its input files), and the
 * number of rows of the unsharded output.  The merge reads the shards'
 * files back (tm__shard_set), checks that they are the N shards of one
 * computation, each once, and hands the caller every row by its position;
 * the caller computes the rows no shard can (a study's mean and worst over
 * failure samples) and writes the result with the writer of the unsharded
 * command, so the merged file is the unsharded file byte for byte.
 *
 * The formats (the writer adds them; tm__shard_set reads them):
 *   JSON: the unsharded document, its row list holding the shard's rows,
 *         plus a top-level object "shard": {"index": K, "count": N,
 *         "id": "<16 hex digits>", "rows_total": R, "rows": [positions]}
 *         (positions[i] is the position of the i-th row).
 *   CSV:  the unsharded header and rows, each row followed by the
 *         columns shard ("K/N"), shard_id, shard_row (its position) and
 *         shard_rows_total (R): TM_SHARD_CSV_COLUMNS.
 *
 * A command with --shard and merge (study; workload eval and replay:
 * topomap/workload_doc.h) lists its items and their estimated costs, keeps
 * the items tm_shard_assign gives shard K (or deals them its own way: a
 * replay's jobs go in runs, src/workload/shard_cost.c), hashes its options
 * and inputs into a tm_shard_id (topomap/shard.h), and its writers add the
 * "shard" object / the four CSV columns (src/cli/shard_cli.h).
 * Its merge describes its output in a tm__shard_kind and walks the rows
 * of a finished tm__shard_set by position with the getters below.
 */
#ifndef TM_SHARD_H
#define TM_SHARD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "topomap/error.h"
#include "topomap/shard.h"

/* ---- reading shards back ------------------------------------------------- */

typedef enum { TM__SHARD_JSON = 0, TM__SHARD_CSV } tm__shard_fmt;

/* What a command's output looks like. */
typedef struct tm__shard_kind {
    const char *what;       /* "study": in messages ("not a shard of a study") */
    const char *json_rows;  /* the JSON key of the row list ("rows") */
    /* top-level JSON keys that differ between shards (NULL-terminated;
     * "shard" and json_rows always may): every other key must be equal */
    const char *const *json_varying;
    const char *csv_header; /* the unsharded CSV's header line, without '\n' */
} tm__shard_kind;

/* A field of a row: its JSON key (a '.' goes into a nested object:
 * "mapped.max_congestion") and its CSV column. */
typedef struct tm__shard_field {
    const char *json;
    const char *csv;
} tm__shard_field;

typedef struct tm__shard_set tm__shard_set;
typedef struct tm__shard_row tm__shard_row;

tm_err tm__shard_set_new(tm_ctx *ctx, const tm__shard_kind *kind, tm__shard_set **out);
void tm__shard_set_free(tm__shard_set *s);
/* Whether a shard's output (its first len bytes, or all of it) names key
 * at its top: a member of the top-level JSON object, a column of the CSV
 * header (by its first non-blank byte, as tm__shard_set_add).  For a
 * command whose merge reads the outputs of several kinds (workload eval
 * and replay): which kind the first file is. */
bool tm__shard_sniff(const char *buf, size_t len, const char *key);
/* Reads one shard's output from in (JSON when its first non-blank byte is
 * '{', else CSV); name is the file's name in messages ("name:line: what
 * is wrong", or "name: what is wrong" where JSON has no line).  Checks the
 * file on its own and against the files read before (same format, same
 * N, identity and row count; a shard index or a row position given twice
 * names both files). */
tm_err tm__shard_set_add(tm_ctx *ctx, tm__shard_set *s, FILE *in, const char *name);
/* After the last file: every shard 0..N-1 must have been read (else
 * TM_EINPUT naming the missing ones). */
tm_err tm__shard_set_finish(tm_ctx *ctx, tm__shard_set *s);

tm__shard_fmt tm__shard_set_format(const tm__shard_set *s);
/* The name of the i-th file read ("" past the end). */
const char *tm__shard_set_name(const tm__shard_set *s, int i);
int32_t tm__shard_set_count(const tm__shard_set *s);  /* N */
int64_t tm__shard_set_total(const tm__shard_set *s);  /* rows of the unsharded output */
/* The row at position pos of the unsharded output, NULL if no shard
 * wrote one there (rows only the merge computes). */
const tm__shard_row *tm__shard_set_row(const tm__shard_set *s, int64_t pos);
/* The rows the shards wrote, by increasing position: n of them, the i-th
 * by tm__shard_set_nth. */
int64_t tm__shard_set_n_rows(const tm__shard_set *s);
const tm__shard_row *tm__shard_set_nth(const tm__shard_set *s, int64_t i);
int64_t tm__shard_row_pos(const tm__shard_row *r);
/* Where a row is, for messages: "file:line" (CSV) or "file: rows[i]". */
void tm__shard_row_where(const tm__shard_set *s, const tm__shard_row *r, char *buf, size_t size);

/* Whether a row has the field: a JSON key (null included), a non-empty
 * CSV cell. */
bool tm__shard_has(const tm__shard_set *s, const tm__shard_row *r, tm__shard_field f);
/* The field's value: TM_EINPUT naming the row and the field when it is
 * missing or of another type.  Strings: a JSON string or a CSV cell (may
 * be empty); the pointer lives as long as the set.  Integers: in [lo, hi].
 * Numbers: a JSON number or null (NaN: the writers print non-finite
 * figures as null), or a whole CSV cell read by strtod in the C locale
 * (so "inf" and "nan" too). */
tm_err tm__shard_get_str(tm_ctx *ctx, const tm__shard_set *s, const tm__shard_row *r,
                         tm__shard_field f, const char **out);
tm_err tm__shard_get_int(tm_ctx *ctx, const tm__shard_set *s, const tm__shard_row *r,
                         tm__shard_field f, int64_t lo, int64_t hi, int64_t *out);
tm_err tm__shard_get_num(tm_ctx *ctx, const tm__shard_set *s, const tm__shard_row *r,
                         tm__shard_field f, double *out);
/* Booleans: JSON true or false, a CSV cell "true" or "false". */
tm_err tm__shard_get_bool(tm_ctx *ctx, const tm__shard_set *s, const tm__shard_row *r,
                          tm__shard_field f, bool *out);
/* JSON only: a list of strings, *n of them, item i by tm__shard_row_item
 * (the pointer lives as long as the set). */
tm_err tm__shard_get_list(tm_ctx *ctx, const tm__shard_set *s, const tm__shard_row *r,
                          tm__shard_field f, int64_t *n);
const char *tm__shard_row_item(const tm__shard_set *s, const tm__shard_row *r,
                               tm__shard_field f, int64_t i);

/* JSON only: a top-level member of the first file (all files hold the
 * same: checked by tm__shard_set_add), by a '.' path of keys and list
 * indices ("grid.seed", "fabric.shared_links.0.from").  Strings, integers
 * and numbers as above; lists: their length and string items. */
/* Whether it is there and not null. */
bool tm__shard_meta_has(const tm__shard_set *s, const char *path);
tm_err tm__shard_meta_num(tm_ctx *ctx, const tm__shard_set *s, const char *path, double *out);
tm_err tm__shard_meta_str(tm_ctx *ctx, const tm__shard_set *s, const char *path,
                          const char **out);
tm_err tm__shard_meta_int(tm_ctx *ctx, const tm__shard_set *s, const char *path, int64_t lo,
                          int64_t hi, int64_t *out);
/* A list of strings (ints printed in decimal): *n items, item i via
 * tm__shard_meta_item (NULL past the end or for another type). */
tm_err tm__shard_meta_list(tm_ctx *ctx, const tm__shard_set *s, const char *path, int64_t *n);
const char *tm__shard_meta_item(const tm__shard_set *s, const char *path, int64_t i, char *buf,
                                size_t size);

#endif
