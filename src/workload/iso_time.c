/* iso_time.c - the Start and End times of a jobs file, as sacct prints
 * them ("%FT%T" of the local time, no zone, unless SLURM_TIME_FORMAT is
 * set).  Converted by hand, without mktime or timegm: no time zone or
 * locale of the machine that reads the file may change the answer. */
#include <string.h>

#include "wl_int.h"

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar
 * (H. Hinnant's days_from_civil). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    int64_t era, yoe, doy, doe;
    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int days_in_month(int64_t y, int m)
{
    static const int dm[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : dm[m - 1];
}

/* n decimal digits at *p into *v. */
static int digits(const char **p, int n, int *v)
{
    *v = 0;
    for (int i = 0; i < n; i++) {
        if ((*p)[i] < '0' || (*p)[i] > '9')
            return -1;
        *v = *v * 10 + ((*p)[i] - '0');
    }
    *p += n;
    return 0;
}

static int zone(const char *p, int *offset_s)
{
    int sign, hh, mm = 0;
    *offset_s = 0;
    if (*p == '\0')
        return 0;
    if (p[0] == 'Z' && p[1] == '\0')
        return 0;
    if (*p != '+' && *p != '-')
        return -1;
    sign = *p++ == '-' ? -1 : 1;
    if (digits(&p, 2, &hh) < 0 || hh > 23)
        return -1;
    if (*p == ':')
        p++;
    if (*p && (digits(&p, 2, &mm) < 0 || mm > 59))
        return -1;
    if (*p)
        return -1;
    *offset_s = sign * (hh * 3600 + mm * 60);
    return 0;
}

int tm__iso_time(const char *s, double *out)
{
    const char *p = s;
    int y, mo, d, h, mi, sec, off;
    double frac = 0.0;
    if (digits(&p, 4, &y) < 0 || *p++ != '-' || digits(&p, 2, &mo) < 0 || *p++ != '-' ||
        digits(&p, 2, &d) < 0 || (*p != 'T' && *p != ' '))
        return -1;
    p++; /* sacct's 'T'; a blank is ISO 8601's other separator */
    if (digits(&p, 2, &h) < 0 || *p++ != ':' || digits(&p, 2, &mi) < 0 || *p++ != ':' ||
        digits(&p, 2, &sec) < 0)
        return -1;
    if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 || sec > 60)
        return -1;
    if (*p == '.' || *p == ',') {
        double scale = 0.1;
        p++;
        if (*p < '0' || *p > '9')
            return -1;
        for (; *p >= '0' && *p <= '9'; p++, scale /= 10)
            frac += (*p - '0') * scale;
    }
    if (zone(p, &off) < 0)
        return -1;
    *out = (double)(days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec) + frac - off;
    return 0;
}
