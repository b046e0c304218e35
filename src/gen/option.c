/*
 * option.c - what a generator reads from its parsed spec (gen_int.h "spec
 * access"): its options (tm__gen_opt, tm__gen_int, tm__gen_cap), errors
 * naming the spec (tm__gen_fail), and the size plan checked against the
 * limits before anything is added (tm__gen_plan).  Below the generators
 * and spec.c, which parses the spec and dispatches to them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gen_int.h"

tm_err tm__gen_fail(tm__gen *g, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tm__fail(g->ctx, TM_EUSAGE, "generator spec '%.200s%s': %s", g->spec,
                    strlen(g->spec) > 200 ? "..." : "", msg);
}

const char *tm__gen_opt(const tm__gen *g, const char *key)
{
    for (int i = 0; i < g->n_items; i++)
        if (strcmp(g->items[i].key, key) == 0)
            return g->items[i].val;
    return NULL;
}

tm_err tm__gen_int(tm__gen *g, const char *key, int64_t min, int64_t max, int64_t dflt,
                   bool required, int64_t *out, bool *given)
{
    const char *v = tm__gen_opt(g, key);
    int64_t x;
    if (given)
        *given = v != NULL;
    if (!v) {
        if (required)
            return tm__gen_fail(g, "missing option '%s'", key);
        *out = dflt;
        return TM_EOK;
    }
    if (tm__str_to_i64(v, &x) < 0)
        return tm__gen_fail(g, "option %s=%s is not an integer", key, v);
    if (x < min || x > max)
        return tm__gen_fail(g, "option %s=%s is out of range %lld..%lld", key, v,
                            (long long)min, (long long)max);
    *out = x;
    return TM_EOK;
}

tm_err tm__gen_cap(tm__gen *g, const char *key, double dflt, double *out)
{
    const char *v = tm__gen_opt(g, key);
    double x;
    if (!v) {
        *out = dflt;
        return TM_EOK;
    }
    if (tm__str_to_double(v, &x) < 0)
        return tm__gen_fail(g, "option %s=%s is not a number", key, v);
    if (!(x > 0) || x > TM_GEN_MAX_CAP)
        return tm__gen_fail(g, "option %s=%s is not a capacity in (0, %g] Gbit/s", key, v,
                            TM_GEN_MAX_CAP);
    *out = x;
    return TM_EOK;
}

int tm__gen_digits(int64_t v, int min)
{
    int d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d > min ? d : min;
}

tm_err tm__gen_plan(tm__gen *g, int64_t n_vertices, int64_t n_cables, int64_t n_hosts)
{
    /* Saturated counts (INT64_MAX) mean "overflowed int64": say so rather
     * than printing a meaningless number. */
    if (n_vertices > TM_GEN_MAX_VERTICES)
        return n_vertices == INT64_MAX
                   ? tm__gen_fail(g, "network too large: over 2^63 vertices (at most %lld)",
                                  (long long)TM_GEN_MAX_VERTICES)
                   : tm__gen_fail(g, "network too large: %lld vertices (at most %lld)",
                                  (long long)n_vertices, (long long)TM_GEN_MAX_VERTICES);
    if (n_cables > TM_GEN_MAX_CABLES)
        return n_cables == INT64_MAX
                   ? tm__gen_fail(g, "network too large: over 2^63 cables (at most %lld)",
                                  (long long)TM_GEN_MAX_CABLES)
                   : tm__gen_fail(g, "network too large: %lld cables (at most %lld)",
                                  (long long)n_cables, (long long)TM_GEN_MAX_CABLES);
    g->plan_vertices = n_vertices;
    g->plan_cables = n_cables;
    if (g->hostfmt.width < 0)
        g->hostfmt.width = tm__gen_digits(n_hosts > 0 ? n_hosts - 1 : 0, 4);
    return TM_EOK;
}
