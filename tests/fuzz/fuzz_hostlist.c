/* fuzz_hostlist.c - Slurm-style hostlist expressions through
 * tm_hostlist_expand.  The expander must bound the number of names itself
 * ("n[0-99999][0-99999]" may not allocate 10^10 strings). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tm_ctx *ctx;
    char *s, **names = NULL;
    size_t count = 0;
    tm_err err;
    if (size > 4096)
        return 0;
    ctx = fz_ctx();
    s = fz_strdup(data, size);
    err = tm_hostlist_expand(ctx, s, FZ_NAME, &names, &count);
    fz_check_err(ctx, err, 0);
    if (err == TM_EOK) {
        for (size_t i = 0; i < count; i++)
            if (!names[i])
                fz_die("NULL name in expansion", err, ctx);
        tm_hostlist_free(names, count);
    }
    free(s);
    tm_ctx_free(ctx);
    return 0;
}
