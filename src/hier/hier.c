/* hier.c - parsing of a1:...:ak hierarchies and d1:...:dk distances. */
#include <string.h>

#include "topomap/hier.h"
#include "../util/util.h"

static int split_numbers(const char *s, double *vals, int max, bool integer)
{
    const char *p = s;
    int n = 0;
    for (;;) {
        double v;
        if (n == max)
            return -2;
        if (integer) {
            int64_t iv;
            if (tm__parse_i64(&p, &iv) < 0)
                return -1;
            v = (double)iv;
        } else if (tm__parse_double(&p, &v) < 0) {
            return -1;
        }
        vals[n++] = v;
        p = tm__skip_blank(p);
        if (*p == '\0')
            return n;
        if (*p != ':')
            return -1;
        p++;
    }
}

tm_err tm_hier_parse(tm_ctx *ctx, const char *levels, const char *distances, tm_hier *out)
{
    double a[TM_HIER_MAX_LEVELS], d[TM_HIER_MAX_LEVELS];
    int k, kd;
    memset(out, 0, sizeof *out);
    k = split_numbers(levels, a, TM_HIER_MAX_LEVELS, true);
    if (k == -2)
        return tm__fail(ctx, TM_EINPUT, "hierarchy '%s': more than %d levels", levels,
                        TM_HIER_MAX_LEVELS);
    if (k < 0)
        return tm__fail(ctx, TM_EINPUT, "hierarchy '%s': expected integers separated by ':'",
                        levels);
    kd = split_numbers(distances, d, TM_HIER_MAX_LEVELS, false);
    if (kd < 0)
        return tm__fail(ctx, TM_EINPUT, "distances '%s': expected numbers separated by ':'",
                        distances);
    if (kd != k)
        return tm__fail(ctx, TM_EINPUT, "hierarchy '%s' has %d levels but distances '%s' has %d",
                        levels, k, distances, kd);
    out->k = k;
    out->group[0] = 1;
    for (int i = 0; i < k; i++) {
        if (a[i] < 1)
            return tm__fail(ctx, TM_EINPUT, "hierarchy '%s': level %d is %.0f, must be >= 1",
                            levels, i + 1, a[i]);
        /* Checked before the int32 conversion below, which is undefined
         * behaviour out of range (found by tests/fuzz/fuzz_hier). */
        if (a[i] > (double)INT32_MAX)
            return tm__fail(ctx, TM_EINPUT, "hierarchy '%s': more than 2^31 PEs", levels);
        if (!(d[i] >= 0))
            return tm__fail(ctx, TM_EINPUT, "distances '%s': distance %d is negative", distances,
                            i + 1);
        /* 1.3e308 parsed and made J infinite (found by tests/fuzz/fuzz_hier). */
        if (d[i] > TM_HIER_MAX_DISTANCE)
            return tm__fail(ctx, TM_EINPUT, "distances '%s': distance %d is %g, larger than the "
                            "limit %g", distances, i + 1, d[i], TM_HIER_MAX_DISTANCE);
        out->a[i] = (int32_t)a[i];
        out->d[i] = d[i];
        if (out->group[i] > (INT64_C(1) << 31) / out->a[i])
            return tm__fail(ctx, TM_EINPUT, "hierarchy '%s': more than 2^31 PEs", levels);
        out->group[i + 1] = out->group[i] * out->a[i];
        if (i > 0 && d[i] <= d[i - 1])
            tm__warn(ctx, "distances '%s' are not increasing", distances);
    }
    out->n_pe = out->group[k];
    return TM_EOK;
}
