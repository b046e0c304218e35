/* study_shard.c - the identity of a sharded study (src/shard/shard.h): a
 * hash of every option that changes a row and of the bytes of the input
 * files, which every shard writes and `study merge` compares, so that
 * shards run with other options or on changed inputs are not joined. */
#include <stdlib.h>
#include <string.h>

#include "../shard/shard.h"
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

static const char *opt_name(int id)
{
    size_t n;
    const cli_opt *t = cli_options(&n);
    for (size_t i = 0; i < n; i++)
        if (t[i].id == id)
            return t[i].name;
    return "?";
}

/* By option name, the given order kept among equal names (their order is
 * an axis' order): the identity does not depend on where options stand. */
static int by_name(const void *a, const void *b)
{
    const study_opt *x = *(const study_opt *const *)a, *y = *(const study_opt *const *)b;
    int c = strcmp(opt_name(x->id), opt_name(y->id));
    return c ? c : x < y ? -1 : x > y;
}

tm_err study_shard_id(tm_ctx *ctx, const study_args *a, char *out)
{
    const study_opt *sorted[STUDY_MAX_OPTS];
    tm__shard_id id;
    int n = 0;
    tm_err err = TM_EOK;
    for (int i = 0; i < a->n_opts; i++)
        if (!no_row_change(a->opts[i].id))
            sorted[n++] = &a->opts[i];
    qsort(sorted, (size_t)n, sizeof *sorted, by_name);
    tm__shard_id_init(&id, "study");
    for (int i = 0; !err && i < n; i++) {
        const char *name = opt_name(sorted[i]->id), *v = sorted[i]->val ? sorted[i]->val : "";
        err = names_input(sorted[i]->id) ? tm__shard_id_add_input(ctx, &id, name, v)
                                         : (tm__shard_id_add(&id, name, v), TM_EOK);
    }
    tm__shard_id_hex(&id, out);
    return err;
}
