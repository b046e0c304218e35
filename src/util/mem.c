/* mem.c - overflow-checked allocation helpers and monotonic time. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util.h"

void *tm__malloc_n(size_t n, size_t sz)
{
    if (sz && n > SIZE_MAX / sz)
        return NULL;
    return malloc(n * sz != 0 ? n * sz : 1);
}

void *tm__calloc_n(size_t n, size_t sz)
{
    if (n == 0 || sz == 0)
        return calloc(1, 1);
    return calloc(n, sz);
}

void *tm__realloc_n(void *p, size_t n, size_t sz)
{
    if (sz && n > SIZE_MAX / sz)
        return NULL;
    return realloc(p, n * sz != 0 ? n * sz : 1);
}

int tm__grow(void **p, size_t *cap, size_t need, size_t sz)
{
    size_t ncap;
    void *np;
    if (need <= *cap)
        return 0;
    ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return -1;
        ncap *= 2;
    }
    np = tm__realloc_n(*p, ncap, sz);
    if (!np)
        return -1;
    *p = np;
    *cap = ncap;
    return 0;
}

char *tm__strdup(const char *s) { return s ? tm__strndup(s, strlen(s)) : NULL; }

char *tm__strndup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

double tm__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
