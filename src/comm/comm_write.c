/*
 * comm_write.c - writes a communication graph as a METIS graph (undirected,
 * integer weights, as gpmetis and other tools read it) or as an edge list of
 * directed entries (exact volumes).  Numbers are written in the C locale
 * whatever the process locale is.
 */
#include <locale.h>
#include <math.h>
#include <stdlib.h>

#include "comm_int.h"

/* METIS reads idx_t = int32 weights. */
#define METIS_WMAX 2147483647.0

static const int64_t *find_entry(const tm_comm *c, int32_t u, int32_t v, int64_t *j)
{
    int64_t lo = c->xadj[u], hi = c->xadj[u + 1];
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (c->adj[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    *j = lo;
    return lo < c->xadj[u + 1] && c->adj[lo] == v ? j : NULL;
}

static double metis_weight(double w) { return w < 1 ? 1 : floor(w + 0.5); }

tm_err tm_comm_write_metis(tm_ctx *ctx, const tm_comm *c, FILE *out)
{
    int64_t j;
    /* check first so that nothing is written for an unsuitable graph */
    for (int32_t u = 0; u < c->n; u++) {
        for (int64_t k = c->xadj[u]; k < c->xadj[u + 1]; k++) {
            int32_t v = c->adj[k];
            if (!find_entry(c, v, u, &j))
                return tm__fail(ctx, TM_EINPUT, "cannot write METIS: graph is not symmetric "
                                "(%d -> %d has no reverse entry); symmetrize it first", u, v);
            if (metis_weight(c->w[j]) != metis_weight(c->w[k]))
                return tm__fail(ctx, TM_EINPUT, "cannot write METIS: volumes %d -> %d (%g) and "
                                "%d -> %d (%g) differ; symmetrize it first", u, v, c->w[k], v, u,
                                c->w[j]);
            if (metis_weight(c->w[k]) > METIS_WMAX)
                return tm__fail(ctx, TM_EINPUT, "cannot write METIS: volume %g of %d -> %d "
                                "exceeds METIS's 32-bit weights; scale the graph", c->w[k], u, v);
        }
        if (c->vwgt && floor(c->vwgt[u] + 0.5) > METIS_WMAX)
            return tm__fail(ctx, TM_EINPUT, "cannot write METIS: weight %g of task %d exceeds "
                            "METIS's 32-bit weights", c->vwgt[u], u);
    }
    if (fprintf(out, "%% METIS graph written by topomap: %d vertices, %lld edges\n%d %lld %s\n",
                c->n, (long long)(c->nnz / 2), c->n, (long long)(c->nnz / 2),
                c->vwgt ? "011" : "001") < 0)
        goto io;
    for (int32_t u = 0; u < c->n; u++) {
        const char *sep = "";
        if (c->vwgt) {
            if (fprintf(out, "%lld", (long long)floor(c->vwgt[u] + 0.5)) < 0)
                goto io;
            sep = " ";
        }
        for (int64_t k = c->xadj[u]; k < c->xadj[u + 1]; k++, sep = " ")
            if (fprintf(out, "%s%d %lld", sep, c->adj[k] + 1, (long long)metis_weight(c->w[k])) < 0)
                goto io;
        if (fputc('\n', out) == EOF)
            goto io;
    }
    if (fflush(out) != 0 || ferror(out))
        goto io;
    return TM_EOK;
io:
    return tm__fail(ctx, TM_EIO, "write error while writing the METIS graph");
}

/* Shortest of %.15g..%.17g that reads back as the same double. */
static int write_entry(FILE *out, int32_t u, int32_t v, double w, locale_t cl)
{
    char buf[64];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, w);
        if (strtod_l(buf, NULL, cl) == w)
            break;
    }
    return fprintf(out, "%d %d %s\n", u, v, buf);
}

tm_err tm_comm_write_edges(tm_ctx *ctx, const tm_comm *c, FILE *out)
{
    /* %.17g round-trips a double; uselocale() makes '.' the decimal point
     * for this thread only, without touching the process locale. */
    locale_t cl = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0), old;
    tm_err err = TM_EOK;
    if (!cl)
        return tm__nomem(ctx);
    old = uselocale(cl);
    if (fprintf(out, "# src dst volume (directed, 0-based): %d tasks, %lld entries\n", c->n,
                (long long)c->nnz) < 0)
        err = TM_EIO;
    for (int32_t u = 0; u < c->n && !err; u++)
        for (int64_t k = c->xadj[u]; k < c->xadj[u + 1] && !err; k++)
            if (write_entry(out, u, c->adj[k], c->w[k], cl) < 0)
                err = TM_EIO;
    if (!err && (fflush(out) != 0 || ferror(out)))
        err = TM_EIO;
    uselocale(old);
    freelocale(cl);
    if (err)
        return tm__fail(ctx, TM_EIO, "write error while writing the edge list");
    return TM_EOK;
}
