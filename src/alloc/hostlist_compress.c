/*
 * hostlist_compress.c - tm_hostlist_compress(): host names -> one Slurm
 * hostlist expression, the inverse of tm_hostlist_expand (hostlist.c).
 *
 * The rules mimic Slurm's hostlist_sort + hostlist_ranged_string
 * (src/common/hostlist.c, one-dimensional names), which is what
 * `scontrol show hostlistsorted` prints:
 *  - a name is a prefix and a decimal suffix (its trailing digits); a name
 *    without trailing digits is written as it is (Slurm's "single host");
 *  - names sort by prefix in natural order (digit runs by value), names
 *    without a suffix before numbered ones of the same prefix, then by
 *    number; duplicates are dropped;
 *  - numbers with one prefix join into ranges when printing them with the
 *    range's width gives the names back (Slurm's _width_equiv):
 *    n9,n10 -> n[9-10]; n08,n09,n10 -> n[08-10]; n1,n01 stay apart -> n[1,01];
 *  - one bracket per prefix, n[1-3,5]; a prefix with one name has none: n7.
 * Suffixes longer than 18 digits (which tm_hostlist_expand would not read
 * back) are kept in the prefix.  Hand-written for the same reason as the
 * expansion: Slurm's hostlist code is not a library.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc_int.h"
#include "../util/util.h"

#define MAX_DIGITS 18
#define MAX_LIVE 24 /* live ranges of one prefix: at most one per width */

typedef struct hname {
    const char *s;
    size_t plen;    /* prefix length; == strlen(s) for a name without suffix */
    int width;      /* suffix length, 0 without suffix */
    uint64_t num;
} hname;

typedef struct hrange {
    uint64_t lo, hi;
    int width;
} hrange;

typedef struct sbuf {
    char *p;
    size_t len, cap;
} sbuf;

static int sb_put(sbuf *b, const char *s, size_t n)
{
    if (tm__grow((void **)&b->p, &b->cap, b->len + n + 1, 1) < 0)
        return -1;
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
    return 0;
}

static int sb_num(sbuf *b, uint64_t v, int width)
{
    char d[32];
    int n = snprintf(d, sizeof d, "%0*llu", width, (unsigned long long)v);
    return sb_put(b, d, (size_t)n);
}

static int digits(uint64_t v)
{
    int n = 1;
    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

static void split(const char *s, hname *h)
{
    size_t len = strlen(s), i = len;
    while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
        i--;
    h->s = s;
    h->num = 0;
    if (i == len || len - i > MAX_DIGITS) {
        h->plen = len;
        h->width = 0;
        return;
    }
    h->plen = i;
    h->width = (int)(len - i);
    for (; i < len; i++)
        h->num = h->num * 10 + (uint64_t)(s[i] - '0');
}

/* Natural order of two byte strings (like Slurm's strnatcmp): runs of
 * digits compare by value, everything else byte by byte. */
static int natcmp(const char *a, size_t na, const char *b, size_t nb)
{
    size_t i = 0, j = 0;
    while (i < na && j < nb) {
        bool da = a[i] >= '0' && a[i] <= '9', db = b[j] >= '0' && b[j] <= '9';
        if (da && db) {
            size_t ei, ej;
            while (i < na - 1 && a[i] == '0' && a[i + 1] >= '0' && a[i + 1] <= '9')
                i++;
            while (j < nb - 1 && b[j] == '0' && b[j + 1] >= '0' && b[j + 1] <= '9')
                j++;
            for (ei = i; ei < na && a[ei] >= '0' && a[ei] <= '9'; ei++)
                ;
            for (ej = j; ej < nb && b[ej] >= '0' && b[ej] <= '9'; ej++)
                ;
            if (ei - i != ej - j)
                return ei - i < ej - j ? -1 : 1;
            int c = memcmp(a + i, b + j, ei - i);
            if (c)
                return c;
            i = ei;
            j = ej;
            continue;
        }
        if (a[i] != b[j])
            return (unsigned char)a[i] < (unsigned char)b[j] ? -1 : 1;
        i++;
        j++;
    }
    return (i < na) - (j < nb);
}

static int hname_cmp(const void *pa, const void *pb)
{
    const hname *a = pa, *b = pb;
    int c = natcmp(a->s, a->plen, b->s, b->plen);
    size_t n = a->plen < b->plen ? a->plen : b->plen;
    if (c)
        return c;
    /* equal in natural order but not byte for byte (a01b vs a1b) */
    if ((c = memcmp(a->s, b->s, n)) != 0 || a->plen != b->plen)
        return c ? c : (a->plen < b->plen ? -1 : 1);
    if ((a->width == 0) != (b->width == 0))
        return a->width == 0 ? -1 : 1;
    if (a->num != b->num)
        return a->num < b->num ? -1 : 1;
    return (a->width > b->width) - (a->width < b->width);
}

int tm__host_name_cmp(const char *a, const char *b)
{
    hname ha, hb;
    split(a, &ha);
    split(b, &hb);
    return hname_cmp(&ha, &hb);
}

static bool same_prefix(const hname *a, const hname *b)
{
    return a->plen == b->plen && (a->width == 0) == (b->width == 0) &&
           memcmp(a->s, b->s, a->plen) == 0;
}

/* Ranges of the numbered names h[0..n) (one prefix, sorted by number).
 * A name joins a range when it is the next number and prints with the
 * range's width to the same digits; a range is live while its next
 * number can still come. */
static size_t make_ranges(const hname *h, size_t n, hrange *r)
{
    size_t nr = 0, live[MAX_LIVE], nlive = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k, keep = 0;
        bool placed = false;
        for (k = 0; k < nlive; k++) /* drop ranges that can no longer grow */
            if (r[live[k]].hi + 1 >= h[i].num)
                live[keep++] = live[k];
        nlive = keep;
        for (k = 0; k < nlive && !placed; k++) {
            hrange *g = &r[live[k]];
            int w = digits(h[i].num) > g->width ? digits(h[i].num) : g->width;
            if (w != h[i].width)
                continue;
            if (h[i].num == g->hi + 1)
                g->hi = h[i].num;
            placed = true; /* extended, or a duplicate inside g */
        }
        if (placed)
            continue;
        r[nr].lo = r[nr].hi = h[i].num;
        r[nr].width = h[i].width;
        if (nlive < MAX_LIVE)
            live[nlive++] = nr;
        nr++;
    }
    return nr;
}

/* Appends prefix[ranges] (or prefixN for a single name). */
static int put_group(sbuf *b, const hname *h, size_t n, hrange *r)
{
    size_t nr = make_ranges(h, n, r);
    if (sb_put(b, h[0].s, h[0].plen) < 0)
        return -1;
    if (nr == 1 && r[0].lo == r[0].hi)
        return sb_num(b, r[0].lo, r[0].width);
    if (sb_put(b, "[", 1) < 0)
        return -1;
    for (size_t k = 0; k < nr; k++) {
        if ((k && sb_put(b, ",", 1) < 0) || sb_num(b, r[k].lo, r[k].width) < 0)
            return -1;
        if (r[k].hi != r[k].lo && (sb_put(b, "-", 1) < 0 || sb_num(b, r[k].hi, r[k].width) < 0))
            return -1;
    }
    return sb_put(b, "]", 1);
}

tm_err tm_hostlist_compress(tm_ctx *ctx, const char *const *names, size_t count, char **out)
{
    hname *h = NULL;
    hrange *r = NULL;
    sbuf b = {NULL, 0, 0};
    tm_err err = TM_EOK;

    *out = NULL;
    h = tm__malloc_n(count ? count : 1, sizeof *h);
    r = tm__malloc_n(count ? count : 1, sizeof *r);
    if (!h || !r || sb_put(&b, "", 0) < 0) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (size_t i = 0; i < count; i++) {
        if (!names[i] || !names[i][0] || strpbrk(names[i], "[], \t\n\r")) {
            err = tm__fail(ctx, TM_EINPUT, "host name '%s' cannot be written in a hostlist "
                           "(empty, or contains brackets, commas or blanks)",
                           names[i] ? names[i] : "");
            goto out;
        }
        split(names[i], &h[i]);
    }
    qsort(h, count, sizeof *h, hname_cmp);
    for (size_t i = 0, j; i < count; i = j) {
        for (j = i + 1; j < count && same_prefix(&h[i], &h[j]); j++)
            ;
        if (b.len && sb_put(&b, ",", 1) < 0)
            goto nomem;
        if (h[i].width == 0) {
            /* names without a suffix: each once */
            if (sb_put(&b, h[i].s, h[i].plen) < 0)
                goto nomem;
            continue;
        }
        if (put_group(&b, h + i, j - i, r) < 0)
            goto nomem;
    }
    *out = b.p;
    b.p = NULL;
    goto out;
nomem:
    err = tm__nomem(ctx);
out:
    free(b.p);
    free(h);
    free(r);
    return err;
}
