/* phi.c - the task graph's cut bounds combined (docs/bounds.md "Cuts of
 * the task graph"): for a set of k tasks the volume leaving it is at least
 * the degree bound of the set, and, since what leaves K enters its
 * complement, the receiving side's degree bound of n - k tasks; both
 * directions together at least the flow certificate's bound too.  The
 * largest of the valid bounds is a valid bound. */
#include <math.h>

#include "bounds_int.h"

static double dmax(double a, double b) { return a > b ? a : b; }

double tm__phi(const tm__tcut *t, int x, int64_t k)
{
    int64_t n = t->n;
    double o, i;
    if (k <= 0 || k >= n)
        return 0.0;
    o = dmax(tm__tcut_phi(t, TM__OUT, k), tm__tcut_phi(t, TM__IN, n - k));
    i = dmax(tm__tcut_phi(t, TM__IN, k), tm__tcut_phi(t, TM__OUT, n - k));
    o = dmax(o, tm__tgrid_out(t, k)); /* a grid: as much enters as leaves */
    i = dmax(i, tm__tgrid_out(t, k));
    if (x == TM__OUT)
        return o;
    if (x == TM__IN)
        return i;
    return dmax(dmax(tm__tcut_phi(t, TM__SYM, k), tm__tcut_phi(t, TM__SYM, n - k)),
                dmax(tm__flow_phi(t, k), o + i));
}

double tm__phi_u(const tm__tcut *t, int x, int32_t u, int64_t k)
{
    double o, i;
    if (k <= 0 || k >= t->n)
        return 0.0;
    o = dmax(tm__tcut_phi_u(t, TM__OUT, u, k), tm__phi(t, TM__OUT, k));
    i = dmax(tm__tcut_phi_u(t, TM__IN, u, k), tm__phi(t, TM__IN, k));
    if (x == TM__OUT)
        return o;
    if (x == TM__IN)
        return i;
    return dmax(dmax(tm__tcut_phi_u(t, TM__SYM, u, k), tm__phi(t, TM__SYM, k)), o + i);
}

double tm__phi_part(const tm__tcut *t, int64_t c)
{
    double b;
    if (c >= t->n)
        return 0.0;
    if (c < 1)
        c = 1;
    b = dmax(tm__tcut_rsum(t, TM__OUT, c), tm__tcut_rsum(t, TM__IN, c));
    b = dmax(b, tm__tcut_rsum(t, TM__SYM, c) / 2);
    b = dmax(b, tm__tgrid_part(t, c));
    return dmax(b, tm__flow_part(t, c));
}

/* v over capacity c, INFINITY when nothing can carry a positive v. */
static double over(double v, double c)
{
    if (!(v > 0))
        return 0.0;
    return c > 0 ? v / c : INFINITY;
}

double tm__phi_need(const tm__tcut *t, int64_t k, double cout, double cin)
{
    double o = over(tm__phi(t, TM__OUT, k), cout), i = over(tm__phi(t, TM__IN, k), cin);
    return dmax(dmax(o, i), over(tm__phi(t, TM__SYM, k), cout + cin));
}

/* The degree bounds of both directions together, without the flow term. */
static double sym_deg(const tm__tcut *t, int64_t k)
{
    int64_t n = t->n;
    double o, i;
    if (k <= 0 || k >= n)
        return 0.0;
    o = dmax(tm__tcut_phi(t, TM__OUT, k), tm__tcut_phi(t, TM__IN, n - k));
    i = dmax(tm__tcut_phi(t, TM__IN, k), tm__tcut_phi(t, TM__OUT, n - k));
    return dmax(dmax(tm__tcut_phi(t, TM__SYM, k), tm__tcut_phi(t, TM__SYM, n - k)), o + i);
}

/* tm__phi_need without the flow term. */
static double need_deg(const tm__tcut *t, int64_t k, double cout, double cin)
{
    int64_t n = t->n;
    double o, i;
    if (k <= 0 || k >= n)
        return 0.0;
    o = dmax(tm__tcut_phi(t, TM__OUT, k), tm__tcut_phi(t, TM__IN, n - k));
    i = dmax(tm__tcut_phi(t, TM__IN, k), tm__tcut_phi(t, TM__OUT, n - k));
    return dmax(dmax(over(o, cout), over(i, cin)), over(sym_deg(t, k), cout + cin));
}

/* The least over k in [lo, hi] (1 <= lo <= hi < n) of the degree part
 * (need_deg, or sym_deg when sym_only): 0 when the range holds a k with
 * K < k < n - K (out of both tables' reach), else a scan of the ends. */
static double deg_min(const tm__tcut *t, int64_t lo, int64_t hi, double cout, double cin,
                      bool sym_only)
{
    int64_t n = t->n, K = t->K;
    int64_t gap_lo = lo > K + 1 ? lo : K + 1, gap_hi = hi < n - K - 1 ? hi : n - K - 1;
    double best = INFINITY;
    if (gap_lo <= gap_hi)
        return 0.0;
    for (int64_t k = lo; k <= hi; k++) {
        double v = sym_only ? sym_deg(t, k) : need_deg(t, k, cout, cin);
        best = v < best ? v : best;
    }
    return best;
}

/* Ranges at most this long are scanned k by k. */
#define SCAN_MAX 512

/* The least over k in [lo, hi] of tm__phi_need (sym_only: of tm__phi's
 * symmetric cut bound): scanned k by k on short ranges; on long ones
 * min_k max(a(k), b(k)) >= max(min_k a, min_k b), the degree bound's
 * least from its tables' reach and the flow bound's, concave in k, at an
 * end. */
static double range_min(const tm__tcut *t, int64_t lo, int64_t hi, double cout, double cin,
                        bool sym_only)
{
    double best = INFINITY, f_lo, f_hi;
    if (lo < 0)
        lo = 0;
    if (hi > t->n)
        hi = t->n;
    if (lo > hi || lo == 0 || hi == t->n)
        return 0.0; /* a side that may be empty, or hold every task, cuts nothing */
    if (hi - lo <= SCAN_MAX + 2 * (int64_t)t->K) {
        for (int64_t k = lo; k <= hi; k++) {
            double v = sym_only ? tm__phi(t, TM__SYM, k) : tm__phi_need(t, k, cout, cin);
            best = v < best ? v : best;
        }
        return best;
    }
    f_lo = tm__flow_phi(t, lo);
    f_hi = tm__flow_phi(t, hi);
    if (!sym_only) {
        f_lo = over(f_lo, cout + cin);
        f_hi = over(f_hi, cout + cin);
    }
    return dmax(deg_min(t, lo, hi, cout, cin, sym_only), f_lo < f_hi ? f_lo : f_hi);
}

double tm__phi_need_min(const tm__tcut *t, int64_t lo, int64_t hi, double cout, double cin)
{
    return range_min(t, lo, hi, cout, cin, false);
}

double tm__phi_sym_min(const tm__tcut *t, int64_t lo, int64_t hi)
{
    return range_min(t, lo, hi, 0, 0, true);
}
