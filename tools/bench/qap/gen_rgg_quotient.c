/* gen_rgg_quotient.c - communication graph for the 2^19-PE scalability
 * run: a random geometric graph (n points in the unit square, radius
 * 0.55 * sqrt(ln n / n), as make_instances.py) cut into k equal blocks
 * along a Hilbert curve (instead of gpmetis: a METIS k-way run with
 * k = 2^19 on 2^22 vertices takes far longer than the mapping itself),
 * written as the weighted quotient graph in METIS format (edge weight =
 * number of rgg edges between the two blocks).
 * usage: gen_rgg_quotient LOG2_N LOG2_K SEED > out.graph */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t rng_state;
static double unit(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

/* Hilbert index of (x, y) on a 2^16 x 2^16 grid. */
static uint64_t hilbert(uint32_t x, uint32_t y)
{
    uint64_t d = 0;
    for (uint32_t s = 1u << 15; s > 0; s >>= 1) {
        uint32_t rx = (x & s) > 0, ry = (y & s) > 0;
        d += (uint64_t)s * s * ((3 * rx) ^ ry);
        if (ry == 0) {
            if (rx == 1) {
                x = s - 1 - x;
                y = s - 1 - y;
            }
            uint32_t t = x;
            x = y;
            y = t;
        }
    }
    return d;
}

typedef struct { uint64_t key; uint32_t id; } pt;
static int cmp_pt(const void *a, const void *b)
{
    const pt *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int ln = argc > 1 ? atoi(argv[1]) : 22, lk = argc > 2 ? atoi(argv[2]) : 19;
    uint32_t n = 1u << ln, k = 1u << lk, per = n / k, g;
    double r;
    double *x, *y;
    uint32_t *block, *cstart, *cell_pts;
    pt *p;
    uint64_t *pairs = NULL;
    size_t np = 0, cap = 0;
    rng_state = argc > 3 ? strtoull(argv[3], NULL, 10) : 20240601;
    r = 0.55 * sqrt(log((double)n) / n);
    x = malloc(n * sizeof *x);
    y = malloc(n * sizeof *y);
    p = malloc(n * sizeof *p);
    block = malloc(n * sizeof *block);
    for (uint32_t i = 0; i < n; i++) {
        x[i] = unit();
        y[i] = unit();
        p[i].key = hilbert((uint32_t)(x[i] * 65535.999), (uint32_t)(y[i] * 65535.999));
        p[i].id = i;
    }
    qsort(p, n, sizeof *p, cmp_pt);
    for (uint32_t i = 0; i < n; i++)
        block[p[i].id] = i / per;
    free(p);
    /* cell grid of side >= r: neighbours only in the 3x3 cells around */
    g = (uint32_t)(1.0 / r);
    cstart = calloc((size_t)g * g + 1, sizeof *cstart);
    cell_pts = malloc(n * sizeof *cell_pts);
#define CELL(i) ((uint32_t)fmin(x[i] * g, g - 1) * g + (uint32_t)fmin(y[i] * g, g - 1))
    for (uint32_t i = 0; i < n; i++)
        cstart[CELL(i) + 1]++;
    for (uint32_t c = 0; c < g * g; c++)
        cstart[c + 1] += cstart[c];
    {
        uint32_t *fill = malloc((size_t)g * g * sizeof *fill);
        for (uint32_t c = 0; c < g * g; c++)
            fill[c] = cstart[c];
        for (uint32_t i = 0; i < n; i++)
            cell_pts[fill[CELL(i)]++] = i;
        free(fill);
    }
    for (uint32_t cx = 0; cx < g; cx++)
        for (uint32_t cy = 0; cy < g; cy++)
            for (int dx = -1; dx <= 1; dx++)
                for (int dy = -1; dy <= 1; dy++) {
                    int64_t ox = (int64_t)cx + dx, oy = (int64_t)cy + dy;
                    uint32_t c = cx * g + cy, o;
                    if (ox < 0 || oy < 0 || ox >= g || oy >= g)
                        continue;
                    o = (uint32_t)(ox * g + oy);
                    for (uint32_t a = cstart[c]; a < cstart[c + 1]; a++)
                        for (uint32_t b = cstart[o]; b < cstart[o + 1]; b++) {
                            uint32_t i = cell_pts[a], j = cell_pts[b];
                            double ddx = x[i] - x[j], ddy = y[i] - y[j];
                            if (i == j || block[i] == block[j] || ddx * ddx + ddy * ddy > r * r)
                                continue;
                            if (np == cap) {
                                cap = cap ? 2 * cap : 1 << 20;
                                pairs = realloc(pairs, cap * sizeof *pairs);
                            }
                            pairs[np++] = (uint64_t)block[i] << 32 | block[j];
                        }
                }
    qsort(pairs, np, sizeof *pairs, cmp_u64);
    {
        size_t m = 0;
        for (size_t i = 0; i < np; i++)
            if (i == 0 || pairs[i] != pairs[i - 1])
                m++;
        printf("%u %zu 001\n", k, m / 2);
        size_t i = 0;
        for (uint32_t b = 0; b < k; b++) {
            int first = 1;
            while (i < np && (uint32_t)(pairs[i] >> 32) == b) {
                size_t j = i;
                while (j < np && pairs[j] == pairs[i])
                    j++;
                printf("%s%u %zu", first ? "" : " ", (uint32_t)pairs[i] + 1, j - i);
                first = 0;
                i = j;
            }
            printf("\n");
        }
    }
    return 0;
}
