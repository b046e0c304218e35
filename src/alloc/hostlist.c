/*
 * hostlist.c - expansion of Slurm-style hostlist expressions, with the
 * behaviour `scontrol show hostnames` was checked to have (reference.md §2):
 *   node[001-004,010],gpu[1-2]  ->  node001 .. node004 node010 gpu1 gpu2
 *   padding follows the lower bound: n[08-11] -> n08..n11, n[8-011] -> n8..n11
 *   several brackets form a product, leftmost outermost:
 *     r[1-2]-n[01-03] -> r1-n01 r1-n02 r1-n03 r2-n01 ...
 *   rejected: text after the last ']' (x[1-3]y), descending ranges (a[3-1])
 * Terms are separated by commas or blanks outside brackets; duplicates are
 * kept.  Hand-written: no packaged library expands hostlists (Slurm's own
 * code is not a library).  The result is bounded (TM_HOSTLIST_MAX names)
 * before anything is expanded.
 */
#include <stdlib.h>
#include <string.h>

#include "topomap/alloc.h"
#include "../util/util.h"

#define TM_HOSTLIST_MAX 10000000u
#define MAX_DIGITS 18

typedef struct range {
    uint64_t lo, hi;
    int width;
} range;

typedef struct group {
    size_t first, n; /* ranges[first .. first+n) */
} group;

typedef struct term {
    const char *s; /* the term, for messages */
    size_t len;
    /* literal i precedes group i; lits has n_groups + 1 entries, the last
     * one empty (a suffix is rejected) */
    const char **lit;
    size_t *lit_len;
    group *groups;
    range *ranges;
    size_t n_groups, n_ranges;
    size_t cap_lit, cap_litlen, cap_groups, cap_ranges;
    uint64_t count;
} term;

typedef struct out_list {
    char **names;
    size_t count, cap;
} out_list;

static void term_release(term *t)
{
    free(t->lit);
    free(t->lit_len);
    free(t->groups);
    free(t->ranges);
    memset(t, 0, sizeof *t);
}

static tm_err term_fail(tm_ctx *ctx, const char *name, const term *t, const char *what,
                        const char *detail, size_t detail_len)
{
    return tm__fail(ctx, TM_EINPUT, "%s: hostlist term '%.*s': %s%s%.*s%s", name, (int)t->len,
                    t->s, what, detail ? " '" : "", (int)detail_len, detail ? detail : "",
                    detail ? "'" : "");
}

static int push_lit(term *t, const char *s, size_t len)
{
    if (tm__grow((void **)&t->lit, &t->cap_lit, t->n_groups + 1, sizeof *t->lit) < 0 ||
        tm__grow((void **)&t->lit_len, &t->cap_litlen, t->n_groups + 1, sizeof *t->lit_len) < 0)
        return -1;
    t->lit[t->n_groups] = s;
    t->lit_len[t->n_groups] = len;
    return 0;
}

/* Parses one number of a bracket (digits only). */
static int parse_num(const char *s, size_t len, uint64_t *v)
{
    if (len == 0 || len > MAX_DIGITS)
        return -1;
    *v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        *v = *v * 10 + (uint64_t)(s[i] - '0');
    }
    return 0;
}

/* Parses the bracket body [b, e) into ranges of a new group. */
static tm_err parse_bracket(tm_ctx *ctx, const char *name, term *t, const char *b, const char *e)
{
    group g = {t->n_ranges, 0};
    uint64_t n = 0;
    if (b == e)
        return term_fail(ctx, name, t, "empty brackets", NULL, 0);
    while (b <= e) {
        const char *c = memchr(b, ',', (size_t)(e - b)), *dash;
        size_t len;
        range r;
        if (!c)
            c = e;
        len = (size_t)(c - b);
        dash = memchr(b, '-', len);
        if (len == 0)
            return term_fail(ctx, name, t, "empty item in brackets", NULL, 0);
        if (dash) {
            if (parse_num(b, (size_t)(dash - b), &r.lo) < 0 ||
                parse_num(dash + 1, (size_t)(c - dash - 1), &r.hi) < 0)
                return term_fail(ctx, name, t, "range needs two numbers of at most 18 digits, "
                                 "got", b, len);
            if (r.hi < r.lo)
                return term_fail(ctx, name, t, "descending range", b, len);
        } else {
            if (parse_num(b, len, &r.lo) < 0)
                return term_fail(ctx, name, t, "not a number of at most 18 digits:", b, len);
            r.hi = r.lo;
            dash = c;
        }
        r.width = (int)(dash - b); /* padding follows the lower bound */
        if (r.hi - r.lo >= TM_HOSTLIST_MAX || n + (r.hi - r.lo + 1) > TM_HOSTLIST_MAX)
            return tm__fail(ctx, TM_EINPUT, "%s: hostlist term '%.*s' expands to more than %u "
                            "names", name, (int)t->len, t->s, TM_HOSTLIST_MAX);
        n += r.hi - r.lo + 1;
        if (tm__grow((void **)&t->ranges, &t->cap_ranges, t->n_ranges + 1, sizeof *t->ranges) < 0)
            return tm__nomem(ctx);
        t->ranges[t->n_ranges++] = r;
        g.n++;
        b = c + 1;
    }
    if (tm__grow((void **)&t->groups, &t->cap_groups, t->n_groups + 1, sizeof *t->groups) < 0)
        return tm__nomem(ctx);
    t->groups[t->n_groups++] = g;
    if (t->count > TM_HOSTLIST_MAX / n)
        return tm__fail(ctx, TM_EINPUT, "%s: hostlist term '%.*s' expands to more than %u names",
                        name, (int)t->len, t->s, TM_HOSTLIST_MAX);
    t->count *= n;
    return TM_EOK;
}

static tm_err parse_term(tm_ctx *ctx, const char *name, term *t)
{
    const char *p = t->s, *end = t->s + t->len, *lit = p;
    tm_err err;
    t->count = 1;
    while (p < end) {
        if (*p == ']')
            return term_fail(ctx, name, t, "']' without '['", NULL, 0);
        if (*p != '[') {
            p++;
            continue;
        }
        const char *close = p + 1;
        while (close < end && *close != ']' && *close != '[')
            close++;
        if (close == end)
            return term_fail(ctx, name, t, "unclosed '['", NULL, 0);
        if (*close == '[')
            return term_fail(ctx, name, t, "nested '['", NULL, 0);
        if (push_lit(t, lit, (size_t)(p - lit)) < 0)
            return tm__nomem(ctx);
        if ((err = parse_bracket(ctx, name, t, p + 1, close)))
            return err;
        p = lit = close + 1;
    }
    if (t->n_groups > 0 && lit < end)
        return term_fail(ctx, name, t, "text after the last ']' is not allowed:", lit,
                         (size_t)(end - lit));
    if (push_lit(t, lit, (size_t)(end - lit)) < 0)
        return tm__nomem(ctx);
    return TM_EOK;
}

/* Appends every name of groups gi.. to out, with buf[0..len) as prefix. */
static int expand(const term *t, size_t gi, char *buf, size_t len, out_list *out)
{
    memcpy(buf + len, t->lit[gi], t->lit_len[gi]);
    len += t->lit_len[gi];
    if (gi == t->n_groups) {
        char *s = tm__strndup(buf, len);
        if (!s ||
            tm__grow((void **)&out->names, &out->cap, out->count + 1, sizeof *out->names) < 0) {
            free(s);
            return -1;
        }
        out->names[out->count++] = s;
        return 0;
    }
    const group *g = &t->groups[gi];
    for (size_t r = g->first; r < g->first + g->n; r++) {
        const range *rg = &t->ranges[r];
        for (uint64_t v = rg->lo;; v++) {
            int k = snprintf(buf + len, MAX_DIGITS + 1, "%0*llu", rg->width, (unsigned long long)v);
            if (expand(t, gi + 1, buf, len + (size_t)k, out) < 0)
                return -1;
            if (v == rg->hi)
                break;
        }
    }
    return 0;
}

void tm_hostlist_free(char **names, size_t count)
{
    if (!names)
        return;
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

static bool is_sep(char c) { return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

tm_err tm_hostlist_expand(tm_ctx *ctx, const char *expr, const char *name, char ***names,
                          size_t *count)
{
    out_list out = {NULL, 0, 0};
    const char *p = expr;
    char *buf = NULL;
    tm_err err = TM_EOK;

    *names = NULL;
    *count = 0;
    if (!name)
        name = "hostlist";
    /* a name is never longer than its term plus the digits of its numbers */
    buf = malloc(strlen(expr) * (MAX_DIGITS + 2) + 2);
    if (!buf)
        return tm__nomem(ctx);
    while (*p) {
        term t;
        int depth = 0;
        memset(&t, 0, sizeof t);
        while (*p && is_sep(*p))
            p++;
        if (!*p)
            break;
        t.s = p;
        /* commas split terms only outside brackets */
        while (*p && (depth > 0 || !is_sep(*p))) {
            depth += *p == '[' ? 1 : *p == ']' ? -1 : 0;
            p++;
        }
        t.len = (size_t)(p - t.s);
        err = parse_term(ctx, name, &t);
        if (!err && out.count + t.count > TM_HOSTLIST_MAX)
            err = tm__fail(ctx, TM_EINPUT, "%s: hostlist expands to more than %u names", name,
                           TM_HOSTLIST_MAX);
        if (!err && expand(&t, 0, buf, 0, &out) < 0)
            err = tm__nomem(ctx);
        term_release(&t);
        if (err)
            goto out;
    }
    if (out.count == 0)
        err = tm__fail(ctx, TM_EINPUT, "%s: empty hostlist", name);
out:
    free(buf);
    if (err) {
        tm_hostlist_free(out.names, out.count);
        return err;
    }
    *names = out.names;
    *count = out.count;
    return TM_EOK;
}
