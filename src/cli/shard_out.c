/* shard_out.c - the shard facts beside a shard's rows (shard_cli.h). */
#include "shard_cli.h"

void cli_shard_json(json_w *j, const tm__shard *sh, const char *id, int64_t total,
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

void cli_shard_csv(FILE *f, const tm__shard *sh, const char *id, int64_t pos, int64_t total)
{
    fprintf(f, ",%d/%d,%s,%lld,%lld", (int)sh->k, (int)sh->n, id, (long long)pos,
            (long long)total);
}
