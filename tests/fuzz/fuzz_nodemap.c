/* fuzz_nodemap.c - ibnetdiscover node-name maps ("0x<guid> \"name\"")
 * through tm_nodemap_read and a few look-ups. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tm_ctx *ctx = fz_ctx();
    FILE *in = fz_open(data, size);
    tm_nodemap *m = NULL;
    tm_err err = tm_nodemap_read(ctx, in, FZ_NAME, &m);
    fz_check_err(ctx, err, 1);
    if (err == TM_EOK) {
        static const uint64_t guids[] = {0, 1, 0x0002c90300001234ull, UINT64_MAX};
        for (size_t i = 0; i < sizeof guids / sizeof guids[0]; i++) {
            const char *s = tm_nodemap_get(m, guids[i]);
            if (s)
                (void)strlen(s);
        }
    }
    tm_nodemap_free(m);
    fclose(in);
    tm_ctx_free(ctx);
    return 0;
}
