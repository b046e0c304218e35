/* bench_util.h - the timing helpers the bench_* programs share: a
 * monotonic clock in seconds and a qsort comparator for taking the median
 * of repeated runs. */
#ifndef TM_BENCH_UTIL_H
#define TM_BENCH_UTIL_H

#include <time.h>

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#endif
