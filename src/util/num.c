/*
 * num.c - number parsing and writing that ignore the process locale: an
 * MPI application embedding the library may have set LC_NUMERIC to a
 * locale with a decimal comma, and files always use '.'.
 */
#include <errno.h>
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>

#include "util.h"

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

/* The C locale object is created once and never changes: it is a constant,
 * not mutable global state. */
static void make_c_locale(void) { c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0); }

const char *tm__skip_blank(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' || *p == '\v' || *p == '\f')
        p++;
    return p;
}

int tm__parse_i64(const char **p, int64_t *out)
{
    const char *s = tm__skip_blank(*p);
    bool neg = false;
    uint64_t v = 0;
    if (*s == '+' || *s == '-')
        neg = *s++ == '-';
    if (*s < '0' || *s > '9')
        return -1;
    while (*s >= '0' && *s <= '9') {
        unsigned d = (unsigned)(*s++ - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)
        return -1;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    *p = s;
    return 0;
}

int tm__parse_double(const char **p, double *out)
{
    const char *s = tm__skip_blank(*p);
    char *end;
    double v;
    pthread_once(&c_locale_once, make_c_locale);
    if (!c_locale)
        return -1;
    /* strtod accepts "nan", "inf" and hex floats: volumes and capacities
     * must be finite decimal numbers. */
    if (!((*s >= '0' && *s <= '9') || *s == '.' || *s == '-' || *s == '+'))
        return -1;
    if ((s[0] == '-' || s[0] == '+') && !((s[1] >= '0' && s[1] <= '9') || s[1] == '.'))
        return -1;
    if ((s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ||
        ((s[0] == '-' || s[0] == '+') && s[1] == '0' && (s[2] == 'x' || s[2] == 'X')))
        return -1;
    errno = 0;
    v = strtod_l(s, &end, c_locale);
    if (end == s || errno == ERANGE)
        return -1;
    *out = v;
    *p = end;
    return 0;
}

int tm__str_to_i64(const char *s, int64_t *out)
{
    const char *p = s;
    if (tm__parse_i64(&p, out) < 0)
        return -1;
    return *tm__skip_blank(p) ? -1 : 0;
}

int tm__str_to_double(const char *s, double *out)
{
    const char *p = s;
    if (tm__parse_double(&p, out) < 0)
        return -1;
    return *tm__skip_blank(p) ? -1 : 0;
}

tm_err tm__write_c_locale(tm_ctx *ctx, FILE *out, const char *what,
                          tm_err (*write)(void *arg, FILE *out), void *arg)
{
    locale_t c_loc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0), old;
    tm_err err;
    if (!c_loc)
        return tm__nomem(ctx);
    old = uselocale(c_loc);
    err = write(arg, out);
    uselocale(old);
    freelocale(c_loc);
    if (!err && (fflush(out) != 0 || ferror(out)))
        err = what ? tm__fail(ctx, TM_EIO, "write error while writing %s", what)
                   : tm__fail(ctx, TM_EIO, "write error");
    return err;
}
