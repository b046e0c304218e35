/*
 * gen_comm.c - communication graphs like Hoefler & Snir's (Sec. 5.2): the
 * sparse matrix-vector product of a mesh distributed over P processes.
 * A mesh (3D 7-point or 27-point grid, or a random geometric graph in the
 * unit cube) is partitioned with METIS into P parts; the volume from part i
 * to part j is the number of distinct vector entries owned by i that j needs
 * (entries of i's vertices adjacent to j's vertices).  Also a plain 3D
 * 7-point stencil on a P = X*Y*Z task grid.  Output: "src dst volume" per
 * line (the `edges` format of topomap).
 *
 *   gen_comm grid7:64x64x64 P out.edges [seed]
 *   gen_comm grid27:40x40x40 P out.edges
 *   gen_comm rgg:200000,12 P out.edges       (points, average degree)
 *   gen_comm stencil:12x12x12 - out.edges [seed]  (periodic; no partitioning;
 *                                                 a seed relabels the tasks)
 *
 * An optional last argument S > 0 relabels the parts by a random
 * permutation (seed S): the rank numbering then has no locality, like the
 * initial mappings in the paper (avg dilation of the consecutive placement
 * 9.00 on a 12^3 torus = its mean distance).  METIS's own part numbers are
 * already local (recursive structure), which flatters the consecutive
 * placement.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <metis.h>

typedef struct {
    idx_t n;
    idx_t *xadj, *adj;
    size_t m, cap;
} graph;

static void die(const char *msg)
{
    fprintf(stderr, "gen_comm: %s\n", msg);
    exit(2);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory");
    return p;
}

/* Grid graph: 7-point (faces) or 27-point (all neighbours), no wrap. */
static void grid(graph *g, int X, int Y, int Z, int full)
{
    idx_t n = (idx_t)X * Y * Z;
    size_t m = 0;
    g->n = n;
    g->xadj = xmalloc(((size_t)n + 1) * sizeof *g->xadj);
    g->adj = xmalloc((size_t)n * (full ? 26 : 6) * sizeof *g->adj);
    g->xadj[0] = 0;
    for (int z = 0; z < Z; z++)
        for (int y = 0; y < Y; y++)
            for (int x = 0; x < X; x++) {
                for (int dz = -1; dz <= 1; dz++)
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++) {
                            int nx = x + dx, ny = y + dy, nz = z + dz;
                            int k = abs(dx) + abs(dy) + abs(dz);
                            if (k == 0 || (!full && k != 1))
                                continue;
                            if (nx < 0 || ny < 0 || nz < 0 || nx >= X || ny >= Y || nz >= Z)
                                continue;
                            g->adj[m++] = (idx_t)((nz * Y + ny) * X + nx);
                        }
                g->xadj[(z * Y + y) * X + x + 1] = (idx_t)m;
            }
    g->m = m;
}

static uint64_t rng_state = 88172645463325252ULL;
static double unit(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

/* Random geometric graph: n points in the unit cube, joined within radius
 * r chosen for the requested average degree; cell lists keep it O(n). */
static void rgg(graph *g, int n, double deg)
{
    double r = cbrt(deg / (n * 4.0 / 3.0 * M_PI));
    int C = (int)(1.0 / r);
    double *p;
    int *cell_start, *cell_next;
    size_t cap = (size_t)n * (size_t)(deg * 1.5 + 8), m = 0;
    if (C < 1)
        C = 1;
    p = xmalloc((size_t)n * 3 * sizeof *p);
    cell_start = xmalloc((size_t)C * C * C * sizeof *cell_start);
    cell_next = xmalloc((size_t)n * sizeof *cell_next);
    for (int i = 0; i < C * C * C; i++)
        cell_start[i] = -1;
    for (int i = 0; i < n; i++) {
        int cx, cy, cz, c;
        for (int d = 0; d < 3; d++)
            p[3 * i + d] = unit();
        cx = (int)(p[3 * i] * C), cy = (int)(p[3 * i + 1] * C), cz = (int)(p[3 * i + 2] * C);
        c = ((cz < C ? cz : C - 1) * C + (cy < C ? cy : C - 1)) * C + (cx < C ? cx : C - 1);
        cell_next[i] = cell_start[c];
        cell_start[c] = i;
    }
    g->n = n;
    g->xadj = xmalloc(((size_t)n + 1) * sizeof *g->xadj);
    g->adj = xmalloc(cap * sizeof *g->adj);
    g->xadj[0] = 0;
    for (int i = 0; i < n; i++) {
        int cx = (int)(p[3 * i] * C), cy = (int)(p[3 * i + 1] * C), cz = (int)(p[3 * i + 2] * C);
        for (int dz = -1; dz <= 1; dz++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int x = cx + dx, y = cy + dy, z = cz + dz;
                    if (x < 0 || y < 0 || z < 0 || x >= C || y >= C || z >= C)
                        continue;
                    for (int j = cell_start[(z * C + y) * C + x]; j >= 0; j = cell_next[j]) {
                        double d2 = 0;
                        if (j == i)
                            continue;
                        for (int d = 0; d < 3; d++)
                            d2 += (p[3 * i + d] - p[3 * j + d]) * (p[3 * i + d] - p[3 * j + d]);
                        if (d2 > r * r)
                            continue;
                        if (m == cap) {
                            cap *= 2;
                            g->adj = realloc(g->adj, cap * sizeof *g->adj);
                            if (!g->adj)
                                die("out of memory");
                        }
                        g->adj[m++] = j;
                    }
                }
        g->xadj[i + 1] = (idx_t)m;
    }
    g->m = m;
    free(p);
    free(cell_start);
    free(cell_next);
}

typedef struct {
    int32_t a, b;
} pair;

static int cmp_pair(const void *x, const void *y)
{
    const pair *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return (p->b > q->b) - (p->b < q->b);
}

int main(int argc, char **argv)
{
    graph g = {0};
    idx_t P, *part, ncon = 1, obj;
    idx_t opt[METIS_NOPTIONS];
    pair *pr;
    size_t np = 0;
    FILE *out;
    int X, Y, Z, n;
    double deg;
    unsigned long long shuffle = 0;
    if (argc < 4)
        die("usage: gen_comm grid7:XxYxZ|grid27:XxYxZ|rgg:N,DEG|stencil:XxYxZ P|- out.edges "
            "[shuffle-seed]");
    if (argc > 4)
        shuffle = strtoull(argv[4], NULL, 10);
    if (shuffle)
        rng_state ^= shuffle * 0x9e3779b97f4a7c15ULL;
    out = strcmp(argv[3], "-") ? fopen(argv[3], "w") : stdout;
    if (!out)
        die("cannot open the output file");
    if (sscanf(argv[1], "stencil:%dx%dx%d", &X, &Y, &Z) == 3) {
        /* task (x,y,z) sends one unit to each face neighbour (torus wrap);
         * with a shuffle seed the task ids are a random permutation */
        int nt = X * Y * Z, *lab = xmalloc((size_t)nt * sizeof *lab);
        for (int i = 0; i < nt; i++)
            lab[i] = i;
        for (int i = nt - 1; shuffle && i > 0; i--) {
            int j = (int)(unit() * (double)(i + 1)), t = lab[i];
            lab[i] = lab[j];
            lab[j] = t;
        }
        for (int z = 0; z < Z; z++)
            for (int y = 0; y < Y; y++)
                for (int x = 0; x < X; x++)
                    for (int d = 0; d < 6; d++) {
                        int c[3] = {x, y, z}, dim = d / 2, s = d % 2 ? -1 : 1;
                        int L[3] = {X, Y, Z};
                        if (L[dim] < 2)
                            continue;
                        c[dim] = (c[dim] + s + L[dim]) % L[dim];
                        fprintf(out, "%d %d 1\n", lab[(z * Y + y) * X + x],
                                lab[(c[2] * Y + c[1]) * X + c[0]]);
                    }
        free(lab);
        return fclose(out) ? 2 : 0;
    }
    if (sscanf(argv[1], "grid7:%dx%dx%d", &X, &Y, &Z) == 3)
        grid(&g, X, Y, Z, 0);
    else if (sscanf(argv[1], "grid27:%dx%dx%d", &X, &Y, &Z) == 3)
        grid(&g, X, Y, Z, 1);
    else if (sscanf(argv[1], "rgg:%d,%lf", &n, &deg) == 2)
        rgg(&g, n, deg);
    else
        die("unknown mesh kind");
    P = (idx_t)atoi(argv[2]);
    if (P < 1)
        die("P must be >= 1");
    part = xmalloc((size_t)g.n * sizeof *part);
    if (P == 1) {
        memset(part, 0, (size_t)g.n * sizeof *part);
    } else {
        METIS_SetDefaultOptions(opt);
        opt[METIS_OPTION_SEED] = 1;
        if (METIS_PartGraphKway(&g.n, &ncon, g.xadj, g.adj, NULL, NULL, NULL, &P, NULL, NULL, opt,
                                &obj, part) != METIS_OK)
            die("METIS failed");
    }
    if (shuffle && P > 1) {
        idx_t *perm = xmalloc((size_t)P * sizeof *perm);
        for (idx_t i = 0; i < P; i++)
            perm[i] = i;
        for (idx_t i = P - 1; i > 0; i--) {
            idx_t j = (idx_t)(unit() * (double)(i + 1)), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (idx_t v = 0; v < g.n; v++)
            part[v] = perm[part[v]];
        free(perm);
    }
    /* distinct (vertex, needing part) pairs, then counted per part pair */
    pr = xmalloc(g.m * sizeof *pr);
    for (idx_t v = 0; v < g.n; v++) {
        size_t first = np;
        for (idx_t j = g.xadj[v]; j < g.xadj[v + 1]; j++) {
            idx_t q = part[g.adj[j]];
            bool dup = false;
            if (q == part[v])
                continue;
            for (size_t k = first; k < np; k++)
                if (pr[k].b == q)
                    dup = true;
            if (!dup)
                pr[np++] = (pair){part[v], q};
        }
    }
    qsort(pr, np, sizeof *pr, cmp_pair);
    for (size_t i = 0; i < np;) {
        size_t j = i;
        while (j < np && pr[j].a == pr[i].a && pr[j].b == pr[i].b)
            j++;
        fprintf(out, "%d %d %zu\n", pr[i].a, pr[i].b, j - i);
        i = j;
    }
    if (fclose(out))
        die("write error");
    free(pr);
    free(part);
    free(g.xadj);
    free(g.adj);
    return 0;
}
