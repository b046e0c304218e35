/*
 * pattern.c - the communication of a job without a recorded matrix
 * (docs/workload.md "Patterns"): ring, all-to-all and a 3-D stencil, each
 * message of a given size in bytes.  The CSR is built directly, targets
 * in increasing order (tm_comm's invariants), without an entry list.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "topomap/workload.h"
#include "../util/util.h"

/* An all-to-all of n tasks has n (n - 1) entries: above this many the
 * matrix (12 bytes an entry) is refused rather than half a machine's
 * memory. */
#define PATTERN_MAX_ENTRIES (INT64_C(1) << 28)

static const tm__name_val pattern_names[] = {
    {"ring", TM_PATTERN_RING}, {"alltoall", TM_PATTERN_ALLTOALL},
    {"stencil3d", TM_PATTERN_STENCIL3D}};

const char *tm_pattern_name(tm_pattern kind)
{
    for (size_t i = 0; i < sizeof pattern_names / sizeof *pattern_names; i++)
        if (pattern_names[i].val == (int)kind)
            return pattern_names[i].name;
    return "file";
}

/* "64KiB", "1e6", "2MB": bytes, > 0 and at most TM_COMM_MAX_VOLUME. */
static int parse_bytes(const char *s, double *out)
{
    static const struct { const char *pre; double mult; } units[] = {
        {"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0},
        {"k", 1e3}, {"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"", 1.0}};
    const char *p = s;
    double v;
    if (tm__parse_double(&p, &v) < 0 || p == s)
        return -1;
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        size_t n = strlen(units[i].pre);
        if (strncmp(p, units[i].pre, n) != 0)
            continue;
        if (strcmp(p + n, "") != 0 && strcmp(p + n, "B") != 0)
            continue;
        v *= units[i].mult;
        if (!(v > 0) || v > TM_COMM_MAX_VOLUME)
            return -1;
        *out = v;
        return 0;
    }
    return -1;
}

int tm_pattern_parse(const char *spec, tm_pattern *kind, double *bytes, const char **why)
{
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    int k = -1;
    for (size_t i = 0; i < sizeof pattern_names / sizeof *pattern_names; i++)
        if (strlen(pattern_names[i].name) == len && strncmp(spec, pattern_names[i].name, len) == 0)
            k = pattern_names[i].val;
    if (k < 0)
        return 0;
    *kind = (tm_pattern)k;
    *bytes = TM_PATTERN_BYTES_DEFAULT;
    if (colon && parse_bytes(colon + 1, bytes) < 0) {
        *why = "the message size after ':' must be a positive number of bytes, with an "
               "optional k, M, G, Ki, Mi or Gi prefix and B (e.g. ring:64KiB)";
        return -1;
    }
    return 1;
}

/* The most even d0 >= d1 >= d2 with d0 d1 d2 = n (MPI_Dims_create(n, 3)
 * gives the same dimensions: the smallest largest-minus-smallest). */
static void dims3(int32_t n, int32_t d[3])
{
    int64_t best = -1;
    d[0] = n, d[1] = d[2] = 1;
    for (int64_t a = 1; a * a * a <= n; a++) {
        if (n % a)
            continue;
        for (int64_t b = a; a * b * b <= n; b++) {
            int64_t c;
            if ((n / a) % b)
                continue;
            c = n / a / b;
            if (best < 0 || c - a < best) {
                best = c - a;
                d[0] = (int32_t)c, d[1] = (int32_t)b, d[2] = (int32_t)a;
            }
        }
    }
}

/* Sorted distinct targets of task u into t[], their count returned. */
static int32_t targets(tm_pattern kind, int32_t n, const int32_t d[3], int32_t u, int32_t *t)
{
    int32_t k = 0;
    if (kind == TM_PATTERN_RING) {
        int32_t a = (u + n - 1) % n, b = (u + 1) % n;
        if (a > b) {
            int32_t x = a;
            a = b, b = x;
        }
        if (a != u)
            t[k++] = a;
        if (b != u && b != a)
            t[k++] = b;
        return k;
    }
    if (kind == TM_PATTERN_STENCIL3D) {
        /* row-major: u = (i0 d1 + i1) d2 + i2; neighbours in increasing id order */
        int32_t i2 = u % d[2], i1 = (u / d[2]) % d[1], i0 = u / d[2] / d[1];
        int32_t s1 = d[2], s0 = d[1] * d[2];
        if (i0 > 0) t[k++] = u - s0;
        if (i1 > 0) t[k++] = u - s1;
        if (i2 > 0) t[k++] = u - 1;
        if (i2 < d[2] - 1) t[k++] = u + 1;
        if (i1 < d[1] - 1) t[k++] = u + s1;
        if (i0 < d[0] - 1) t[k++] = u + s0;
        return k;
    }
    return 0;
}

tm_err tm_pattern_comm(tm_ctx *ctx, tm_pattern kind, int32_t n, double bytes, tm_comm *out)
{
    int32_t d[3] = {1, 1, 1}, t[6];
    int64_t nnz = 0;
    tm_comm_init(out);
    if (n < 1 || !(bytes > 0) || bytes > TM_COMM_MAX_VOLUME ||
        (kind != TM_PATTERN_RING && kind != TM_PATTERN_ALLTOALL && kind != TM_PATTERN_STENCIL3D))
        return tm__fail(ctx, TM_EUSAGE, "pattern: %d tasks of %g bytes (%s)", n, bytes,
                        tm_pattern_name(kind));
    if (kind == TM_PATTERN_ALLTOALL) {
        nnz = (int64_t)n * (n - 1);
        if (nnz > PATTERN_MAX_ENTRIES || bytes * (double)nnz > TM_COMM_MAX_VOLUME)
            return tm__fail(ctx, TM_EINPUT, "alltoall of %d tasks: %lld messages, more than the "
                            "%lld a pattern may have (give the job a matrix file)", n,
                            (long long)nnz, (long long)PATTERN_MAX_ENTRIES);
    } else {
        if (kind == TM_PATTERN_STENCIL3D)
            dims3(n, d);
        for (int32_t u = 0; u < n; u++)
            nnz += targets(kind, n, d, u, t);
        if (bytes * (double)nnz > TM_COMM_MAX_VOLUME)
            return tm__fail(ctx, TM_EINPUT, "%s of %d tasks: more than %g bytes in all",
                            tm_pattern_name(kind), n, TM_COMM_MAX_VOLUME);
    }
    out->xadj = tm__malloc_n((size_t)n + 1, sizeof *out->xadj);
    out->adj = tm__malloc_n((size_t)nnz + 1, sizeof *out->adj);
    out->w = tm__malloc_n((size_t)nnz + 1, sizeof *out->w);
    if (!out->xadj || !out->adj || !out->w) {
        tm_comm_release(out);
        return tm__nomem(ctx);
    }
    out->n = n;
    out->nnz = nnz;
    out->xadj[0] = 0;
    for (int32_t u = 0, e = 0; u < n; u++) {
        if (kind == TM_PATTERN_ALLTOALL) {
            for (int32_t v = 0; v < n; v++)
                if (v != u) {
                    out->adj[out->xadj[u] + e] = v;
                    out->w[out->xadj[u] + e++] = bytes;
                }
        } else {
            int32_t k = targets(kind, n, d, u, t);
            for (int32_t i = 0; i < k; i++) {
                out->adj[out->xadj[u] + e] = t[i];
                out->w[out->xadj[u] + e++] = bytes;
            }
        }
        out->xadj[u + 1] = out->xadj[u] + e;
        e = 0;
    }
    return TM_EOK;
}
