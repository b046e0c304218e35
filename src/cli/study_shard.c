/* study_shard.c - the identity of a sharded study (topomap/shard.h): a
 * hash of every option that changes a row and of the bytes of the input
 * files, which every shard writes and `study merge` compares, so that
 * shards run with other options or on changed inputs are not joined. */

#include "shard_cli.h"
#include "study_cli.h"

/* Options that change no row: where the rows go, how fast they come. */
static bool no_row_change(int id)
{
    return id == OPT_SHARD || id == OPT_OUT || id == OPT_REPORT || id == OPT_THREADS ||
           id == OPT_QUIET;
}

/* Options whose value may name a file whose bytes are the input. */
static bool names_input(int id)
{
    return id == OPT_TOPOLOGY || id == OPT_COMM || id == OPT_ALLOC || id == OPT_NODEMAP ||
           id == OPT_COMM_PHASES;
}

tm_err study_shard_id(tm_ctx *ctx, const study_args *a, char *out)
{
    tm_shard_id id;
    tm_err err = cli_shard_id(ctx, "study", a->opts, a->n_opts, no_row_change, names_input, &id);
    tm_shard_id_hex(&id, out);
    return err;
}
