/* stats.c - the distribution of slowdowns: mean, quantiles (linear
 * interpolation between order statistics, as numpy.quantile and
 * pandas.Series.quantile do by default, so the Python module's tables
 * give the same numbers), the share of slowed jobs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wl_int.h"
#include "../util/util.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile(const double *s, int32_t n, double q)
{
    double pos = q * (n - 1), lo = floor(pos);
    int32_t i = (int32_t)lo;
    if (i + 1 >= n)
        return s[n - 1];
    return s[i] + (pos - lo) * (s[i + 1] - s[i]);
}

tm_err tm_slowdown_stats_compute(tm_ctx *ctx, const double *v, int32_t n, tm_slowdown_stats *out)
{
    double *s, sum = 0.0;
    memset(out, 0, sizeof *out);
    if (n <= 0)
        return TM_EOK;
    s = tm__malloc_n((size_t)n, sizeof *s);
    if (!s)
        return tm__nomem(ctx);
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    for (int32_t i = 0; i < n; i++) {
        sum += s[i];
        out->slowed += s[i] > TM_SLOWED;
    }
    out->n = n;
    out->mean = sum / n;
    out->min = s[0];
    out->max = s[n - 1];
    out->median = quantile(s, n, 0.5);
    out->p90 = quantile(s, n, 0.9);
    out->p99 = quantile(s, n, 0.99);
    free(s);
    return TM_EOK;
}
