/* modify.c - the network changes of a what-if scenario: capacity scaling
 * by cable level, random cable failures (seeded samples), named cables and
 * switches.  Everything goes through the public setters of net.h
 * (tm_net_set_capacity, tm_net_set_cable_enabled); the caller finalizes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util/util.h"
#include "study.h"

/* One "L=F" item of a --scale-capacity value. */
static tm_err scale_item(tm_ctx *ctx, const char *spec, const char *it, size_t len,
                         tm_study_scale *o)
{
    char buf[64];
    const char *eq;
    int64_t lv;
    double f;
    if (len == 0 || len >= sizeof buf)
        return tm__fail(ctx, TM_EUSAGE, "capacity change '%s': empty or too long item", spec);
    memcpy(buf, it, len);
    buf[len] = 0;
    eq = strchr(buf, '=');
    if (!eq || o->n == TM_STUDY_SCALE_MAX)
        return tm__fail(ctx, TM_EUSAGE, "capacity change '%s': '%s' is not LEVEL=FACTOR%s", spec,
                        buf, eq ? " (at most 8 items)" : "");
    buf[eq - buf] = 0;
    if (strcmp(buf, "all") == 0)
        lv = 0;
    else if (tm__str_to_i64(buf, &lv) < 0 || lv < 1 || lv > 64)
        return tm__fail(ctx, TM_EUSAGE, "capacity change '%s': level '%s' is not 'all' or an "
                        "integer in [1, 64]", spec, buf);
    if (tm__str_to_double(eq + 1, &f) < 0 || !isfinite(f) || f <= 0 || f > 1e6)
        return tm__fail(ctx, TM_EUSAGE, "capacity change '%s': factor '%s' is not a number in "
                        "(0, 1e6]", spec, eq + 1);
    o->level[o->n] = (int)lv;
    o->factor[o->n++] = f;
    return TM_EOK;
}

tm_err tm_study_scale_parse(tm_ctx *ctx, const char *spec, tm_study_scale *out)
{
    const char *p = spec;
    memset(out, 0, sizeof *out);
    for (;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        tm_err err = scale_item(ctx, spec, p, len, out);
        if (err)
            return err;
        if (!c)
            return TM_EOK;
        p = c + 1;
    }
}

/* Hop distance of every vertex to its nearest host (multi-source BFS over
 * enabled cables; -1 if none).  Hand-written: a plain BFS on the CSR
 * snapshot, which worker threads may also read, keeps igraph out. */
static tm_err heights(tm_ctx *ctx, const tm_net_csr *g, int32_t **out)
{
    int32_t *h = tm__malloc_n((size_t)g->n, sizeof *h), *q = tm__malloc_n((size_t)g->n, sizeof *q);
    int32_t qh = 0, qt = 0;
    if (!h || !q) {
        free(h);
        free(q);
        return tm__nomem(ctx);
    }
    for (int32_t v = 0; v < g->n; v++) {
        h[v] = g->is_host[v] ? 0 : -1;
        if (g->is_host[v])
            q[qt++] = v;
    }
    while (qh < qt) {
        int32_t v = q[qh++];
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++)
            if (h[g->head[j]] < 0) {
                h[g->head[j]] = h[v] + 1;
                q[qt++] = g->head[j];
            }
    }
    free(q);
    *out = h;
    return TM_EOK;
}

tm_err tm__cable_levels(tm_ctx *ctx, const tm_net *net, int32_t **out)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    int32_t nc = tm_net_n_cables(net), *h = NULL, *lv;
    tm_err err;
    if (!g)
        return tm__fail(ctx, TM_EUSAGE, "cable levels need a finalized network");
    err = heights(ctx, g, &h);
    if (err)
        return err;
    lv = tm__malloc_n(nc > 0 ? (size_t)nc : 1, sizeof *lv);
    if (!lv) {
        free(h);
        return tm__nomem(ctx);
    }
    for (int32_t c = 0; c < nc; c++) {
        int32_t a, b, m;
        tm_net_cable(net, c, &a, &b);
        m = h[a] < h[b] ? h[a] : h[b];
        lv[c] = m < 0 ? 0 : m + 1;
    }
    free(h);
    *out = lv;
    return TM_EOK;
}

tm_err tm__scale_apply(tm_ctx *ctx, tm_net *net, const tm_study_scale *s, const char *what,
                       int32_t *n_cables)
{
    int32_t *lv = NULL, nc = tm_net_n_cables(net);
    tm_err err = tm__cable_levels(ctx, net, &lv);
    *n_cables = 0;
    for (int i = 0; !err && i < s->n; i++) {
        int32_t hit = 0;
        for (int32_t c = 0; !err && c < nc; c++)
            if (s->level[i] == 0 || lv[c] == s->level[i]) {
                err = tm_net_set_capacity(ctx, net, c, tm_net_capacity(net, c) * s->factor[i]);
                hit++;
            }
        if (!err && hit == 0)
            err = tm__fail(ctx, TM_EUSAGE, "%s: no cable at level %d (level 1 = the cables "
                           "at the hosts, 2 = leaf uplinks, ...)", what, s->level[i]);
        *n_cables += hit;
    }
    free(lv);
    return err;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

tm_err tm__fail_sample(tm_ctx *ctx, const tm_net *net, double pct, uint64_t seed,
                       uint64_t sample, int32_t **out, int32_t *n)
{
    int32_t nc = tm_net_n_cables(net), ne = 0, k;
    int32_t *el = tm__malloc_n(nc > 0 ? (size_t)nc : 1, sizeof *el);
    tm__rng rng;
    if (!el)
        return tm__nomem(ctx);
    if (!(pct > 0 && pct <= 100)) {
        free(el);
        return tm__fail(ctx, TM_EUSAGE, "failure percentage %g is not in (0, 100]", pct);
    }
    for (int32_t c = 0; c < nc; c++) {
        int32_t a, b;
        tm_net_cable(net, c, &a, &b);
        if (tm_net_cable_enabled(net, c) && tm_net_is_transit(net, a) && tm_net_is_transit(net, b))
            el[ne++] = c;
    }
    k = (int32_t)floor(pct / 100.0 * ne + 0.5);
    /* partial Fisher-Yates: the first k entries are the sample */
    tm__rng_seed(&rng, seed, sample);
    for (int32_t i = 0; i < k; i++) {
        int32_t j = i + (int32_t)tm__rng_below(&rng, (uint64_t)(ne - i)), t = el[i];
        el[i] = el[j];
        el[j] = t;
    }
    qsort(el, (size_t)k, sizeof *el, cmp_i32);
    *out = el;
    *n = k;
    return TM_EOK;
}

/* Vertex ids of "A:B": the split at a ':' where both sides are vertex
 * names (names may contain ':' themselves). */
static int resolve_link(const tm_net *net, const char *s, size_t len, int32_t *a, int32_t *b)
{
    char buf[1024];
    if (len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = 0;
    for (char *c = strchr(buf, ':'); c; c = strchr(c + 1, ':')) {
        *c = 0;
        *a = tm_net_find(net, buf);
        *b = tm_net_find(net, c + 1);
        *c = ':';
        if (*a >= 0 && *b >= 0)
            return 0;
    }
    return -1;
}

/* Disables the cables of one named item; 0 cables is an error. */
static tm_err fail_item(tm_ctx *ctx, tm_net *net, const tm_study_failure *f, const char *it,
                        size_t len, const char *what, int32_t *n_cables)
{
    int32_t a = -1, b = -1, hit = 0, nc = tm_net_n_cables(net);
    if (f->kind == TM_STUDY_FAIL_LINKS && resolve_link(net, it, len, &a, &b) < 0)
        return tm__fail(ctx, TM_EINPUT, "%s: link '%.*s' is not A:B with A and B vertices of "
                        "the topology", what, (int)len, it);
    if (f->kind == TM_STUDY_FAIL_SWITCHES) {
        char buf[1024];
        snprintf(buf, sizeof buf, "%.*s", (int)len, it);
        a = len < sizeof buf ? tm_net_find(net, buf) : -1;
        if (a < 0 || tm_net_kind(net, a) != TM_VERTEX_SWITCH)
            return tm__fail(ctx, TM_EINPUT, "%s: '%.*s' is not a switch of the topology", what,
                            (int)len, it);
    }
    for (int32_t c = 0; c < nc; c++) {
        int32_t x, y;
        tm_net_cable(net, c, &x, &y);
        if (f->kind == TM_STUDY_FAIL_SWITCHES ? (x == a || y == a)
                                         : ((x == a && y == b) || (x == b && y == a))) {
            hit += tm_net_cable_enabled(net, c);
            tm_net_set_cable_enabled(net, c, false);
        }
    }
    if (hit == 0)
        return tm__fail(ctx, TM_EINPUT, "%s: no working cable %s '%.*s'", what,
                        f->kind == TM_STUDY_FAIL_LINKS ? "joins" : "at", (int)len, it);
    *n_cables += hit;
    return TM_EOK;
}

tm_err tm__fail_apply(tm_ctx *ctx, tm_net *net, const tm_study_failure *f, uint64_t seed,
                      uint64_t sample, const char *what, int32_t *n_cables)
{
    const char *p = f->names;
    tm_err err = TM_EOK;
    *n_cables = 0;
    if (f->kind == TM_STUDY_FAIL_NONE)
        return TM_EOK;
    if (f->kind == TM_STUDY_FAIL_RANDOM) {
        int32_t *cab = NULL, n = 0;
        err = tm__fail_sample(ctx, net, f->pct, seed, sample, &cab, &n);
        for (int32_t i = 0; !err && i < n; i++)
            tm_net_set_cable_enabled(net, cab[i], false);
        free(cab);
        *n_cables = err ? 0 : n;
        return err;
    }
    while (!err) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        err = fail_item(ctx, net, f, p, len, what, n_cables);
        if (!c)
            break;
        p = c + 1;
    }
    return err;
}

void tm_study_failure_label(const tm_study_failure *f, char *buf, size_t size)
{
    switch (f->kind) {
    case TM_STUDY_FAIL_RANDOM: snprintf(buf, size, "links %g%%", f->pct); break;
    case TM_STUDY_FAIL_LINKS: snprintf(buf, size, "link %s", f->names); break;
    case TM_STUDY_FAIL_SWITCHES: snprintf(buf, size, "switch %s", f->names); break;
    default: snprintf(buf, size, "none"); break;
    }
}
