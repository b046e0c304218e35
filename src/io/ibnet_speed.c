/*
 * ibnet_speed.c - InfiniBand link width x speed <-> capacity in Gbit/s.
 *
 * Capacity = lanes x per-lane data rate after line encoding (docs/design.md):
 * SDR 2, DDR 4, QDR 8, FDR10 10, FDR 13.64, EDR 25, HDR 50, NDR 100,
 * XDR 200, so 4xQDR = 32 and 4xEDR = 100.
 */
#include <math.h>
#include <string.h>

#include "ibnet_int.h"

static const struct {
    const char *name;
    double rate;
} speeds[] = {
    {"SDR", 2}, {"DDR", 4}, {"QDR", 8}, {"FDR10", 10}, {"FDR", 13.64},
    {"EDR", 25}, {"HDR", 50}, {"NDR", 100}, {"XDR", 200},
};
#define N_SPEEDS (sizeof speeds / sizeof speeds[0])

/* Writer preference when several tokens give the same capacity: 4x links
 * are by far the most common, then the split-port 2x, then the rest. */
static const int widths[] = {4, 2, 1, 8, 12};
#define N_WIDTHS (sizeof widths / sizeof widths[0])

/* Token strings for the writer, indexed [width][speed]. */
static const char *const tokens[N_WIDTHS][N_SPEEDS] = {
#define ROW(w) {w "SDR", w "DDR", w "QDR", w "FDR10", w "FDR", w "EDR", w "HDR", w "NDR", w "XDR"}
    ROW("4x"), ROW("2x"), ROW("1x"), ROW("8x"), ROW("12x"),
#undef ROW
};

static int parse_width(const char *w, size_t len, int *lanes)
{
    int v = 0;
    if (len < 2 || w[len - 1] != 'x')
        return -1;
    for (size_t i = 0; i + 1 < len; i++) {
        if (w[i] < '0' || w[i] > '9' || v > 100)
            return -1;
        v = v * 10 + (w[i] - '0');
    }
    for (size_t i = 0; i < N_WIDTHS; i++) {
        if (widths[i] == v) {
            *lanes = v;
            return 0;
        }
    }
    return -1;
}

static int parse_speed(const char *s, size_t len, double *rate)
{
    for (size_t i = 0; i < N_SPEEDS; i++) {
        if (strlen(speeds[i].name) == len && memcmp(speeds[i].name, s, len) == 0) {
            *rate = speeds[i].rate;
            return 0;
        }
    }
    return -1;
}

int tm__ib_width_speed_cap(const char *w, size_t wlen, const char *s, size_t slen, double *cap)
{
    int lanes;
    double rate;
    if (parse_width(w, wlen, &lanes) < 0 || parse_speed(s, slen, &rate) < 0)
        return -1;
    *cap = lanes * rate;
    return 0;
}

int tm__ib_token_cap(const char *tok, size_t len, double *cap)
{
    const char *x = memchr(tok, 'x', len);
    if (!x)
        return -1;
    return tm__ib_width_speed_cap(tok, (size_t)(x - tok) + 1, x + 1, len - (size_t)(x - tok) - 1,
                                  cap);
}

int tm__ib_mask_cap(unsigned wmask, unsigned smask, double *cap)
{
    static const int wbits[] = {1, 4, 8, 12};
    int lanes = 4;
    double rate = 2;
    if (wmask > 15 || smask > 7)
        return -1;
    for (int b = 3; b >= 0; b--) {
        if (wmask & (1u << b)) {
            lanes = wbits[b];
            break;
        }
    }
    for (int b = 2; b >= 0; b--) {
        if (smask & (1u << b)) {
            rate = speeds[b].rate;
            break;
        }
    }
    *cap = lanes * rate;
    return 0;
}

const char *tm__ib_cap_token(double cap, bool *exact, double *token_cap)
{
    const char *best = tokens[0][0];
    double best_d = INFINITY, best_c = 8;
    for (size_t w = 0; w < N_WIDTHS; w++) {
        for (size_t s = 0; s < N_SPEEDS; s++) {
            double c = widths[w] * speeds[s].rate, d = fabs(c - cap);
            /* strictly smaller: ties keep the earlier (preferred) width */
            if (d < best_d - 1e-9 * (cap > 1 ? cap : 1)) {
                best_d = d;
                best = tokens[w][s];
                best_c = c;
            }
        }
    }
    *exact = best_d <= 1e-9 * (cap > 1 ? cap : 1);
    if (token_cap)
        *token_cap = best_c;
    return best;
}
