/* shard_out.c - a shard's identity, and the shard facts beside its rows
 * (shard_cli.h). */
#include <stdlib.h>
#include <string.h>

#include "shard_cli.h"

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n > t && strcmp(s + n - t, tail) == 0;
}

tm_err cli_merge_option(void *ud, int c, const char *v)
{
    cli_merge_args *a = ud;
    switch (c) {
    case OPT_OUT:
        if (!ends_with(v, ".csv") && !ends_with(v, ".json"))
            return cli_usage_error(a->cmd, "--out '%s': the name must end in .csv or .json", v),
                   TM_EUSAGE;
        if (a->n_outs >= CLI_MERGE_MAX_OUT)
            return cli_usage_error(a->cmd, "--out: at most %d files", CLI_MERGE_MAX_OUT),
                   TM_EUSAGE;
        a->outs[a->n_outs++] = v;
        a->json_out = a->json_out || ends_with(v, ".json");
        return TM_EOK;
    case OPT_REPORT:
        if (!ends_with(v, ".html"))
            return cli_usage_error(a->cmd, "--report '%s': the name must end in .html", v),
                   TM_EUSAGE;
        a->report = v;
        return TM_EOK;
    case OPT_JSON: a->json = true; return TM_EOK;
    default: return TM_EINTERNAL;
    }
}

tm_err cli_shard_option(const char *cmd, const char *v, tm_shard *out)
{
    tm_ctx *q = NULL;
    tm_err err;
    if (tm_ctx_new(&q) != TM_EOK)
        return TM_ENOMEM;
    if ((err = tm_shard_parse(q, v, out)))
        cli_usage_error(cmd, "%s", tm_ctx_errmsg(q));
    tm_ctx_free(q);
    return err ? TM_EUSAGE : TM_EOK;
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

static int by_name(const void *a, const void *b)
{
    const cli_optval *x = *(const cli_optval *const *)a, *y = *(const cli_optval *const *)b;
    int c = strcmp(opt_name(x->id), opt_name(y->id));
    return c ? c : x < y ? -1 : x > y;
}

tm_err cli_shard_id(tm_ctx *ctx, const char *what, const cli_optval *opts, int n,
                    bool (*row_free)(int id), bool (*names_input)(int id), tm_shard_id *id)
{
    const cli_optval **sorted = malloc(((size_t)n + 1) * sizeof *sorted);
    int m = 0;
    tm_err err = TM_EOK;
    if (!sorted)
        return tm_ctx_fail(ctx, TM_ENOMEM, "out of memory");
    for (int i = 0; i < n; i++)
        if (!row_free(opts[i].id))
            sorted[m++] = &opts[i];
    qsort(sorted, (size_t)m, sizeof *sorted, by_name);
    tm_shard_id_init(id, what);
    for (int i = 0; !err && i < m; i++) {
        const char *name = opt_name(sorted[i]->id), *v = sorted[i]->val ? sorted[i]->val : "";
        err = names_input(sorted[i]->id) ? tm_shard_id_add_input(ctx, id, name, v)
                                         : (tm_shard_id_add(id, name, v), TM_EOK);
    }
    free(sorted);
    return err;
}

void cli_shard_json(json_w *j, const tm_shard *sh, const char *id, int64_t total,
                    const int64_t *pos, int64_t n)
{
    json_obj_begin(j, "shard");
    json_int(j, "index", sh->k);
    json_int(j, "count", sh->n);
    json_str(j, "id", id);
    json_int(j, "rows_total", total);
    json_arr_begin(j, "rows");
    for (int64_t i = 0; i < n; i++)
        json_int(j, NULL, pos[i]);
    json_arr_end(j);
    json_obj_end(j);
}

void cli_shard_csv(FILE *f, const tm_shard *sh, const char *id, int64_t pos, int64_t total)
{
    fprintf(f, ",%d/%d,%s,%lld,%lld", (int)sh->k, (int)sh->n, id, (long long)pos,
            (long long)total);
}
