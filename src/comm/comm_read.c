/*
 * comm_read.c - tm_comm_read/tm_comm_read_file: picks the reader from the
 * format, the file extension (.graph .metis .mtx .edges .el .csv .mat .mpiP,
 * *graphStats.txt) or, failing that, the content.
 *
 * Content sniffing reads the whole stream into memory first (a pipe cannot
 * be rewound) and looks at the lines in this order: a %%MatrixMarket banner;
 * an mpiP communication-matrix block; a graphStats "Graph Information"
 * heading; commas in the first data line (CSV); a Scotch header ("0", then
 * two lines of two numbers); a square block of k lines
 * with k values each (dense); a METIS header "n m ..." followed by n vertex
 * lines; lines of 2 or 3 numbers (edge list).  Anything else asks the user
 * to name the format.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "comm_int.h"
#include "topomap/io.h"

/* Largest stream read into memory for sniffing. */
#define SNIFF_MAX ((size_t)1 << 31)

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

/* Format by the name's extension; TM_COMM_AUTO if it does not decide. */
static tm_comm_format by_extension(const char *name)
{
    static const struct { const char *ext; tm_comm_format fmt; } ext[] = {
        {".graph", TM_COMM_METIS},  {".metis", TM_COMM_METIS},
        {".mtx", TM_COMM_MTX},      {".edges", TM_COMM_EDGES},
        {".el", TM_COMM_EDGES},     {".csv", TM_COMM_DENSE},
        {".mat", TM_COMM_DENSE},    {".mpiP", TM_COMM_MPIP},
        {".grf", TM_COMM_SCOTCH},   {".src", TM_COMM_SCOTCH},
        {"graphStats.txt", TM_COMM_GRAPHSTATS},
    };
    if (!name)
        return TM_COMM_AUTO;
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
        if (ends_with(name, ext[i].ext))
            return ext[i].fmt;
    return TM_COMM_AUTO;
}

typedef struct line_view {
    const char *s;
    size_t len;
} line_view;

/* Next line of buf (without "\n"/"\r\n"); 0 at the end. */
static int next_line(const char **p, const char *end, line_view *l)
{
    const char *s = *p, *e;
    if (s >= end)
        return 0;
    e = memchr(s, '\n', (size_t)(end - s));
    if (!e)
        e = end;
    l->s = s;
    l->len = (size_t)(e - s);
    if (l->len && s[l->len - 1] == '\r')
        l->len--;
    *p = e < end ? e + 1 : end;
    return 1;
}

static size_t count_tokens(line_view l)
{
    size_t k = 0;
    for (size_t i = 0; i < l.len; i++)
        if (l.s[i] != ' ' && l.s[i] != '\t' && (i == 0 || l.s[i - 1] == ' ' || l.s[i - 1] == '\t'))
            k++;
    return k;
}

static bool contains(line_view l, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= l.len; i++)
        if (memcmp(l.s + i, needle, n) == 0)
            return true;
    return false;
}

static char first_char(line_view l)
{
    for (size_t i = 0; i < l.len; i++)
        if (l.s[i] != ' ' && l.s[i] != '\t')
            return l.s[i];
    return '\0';
}

static tm_comm_format sniff(const char *buf, size_t len)
{
    const char *p = buf, *end = buf + len;
    line_view l, first = {NULL, 0};
    size_t data = 0, k = 0, after_hdr = 0, after_hdr_nonblank = 0;
    bool same_k = true, two_three = true, percent = false, text = false;
    int64_t n_hdr = -1;
    int scotch = 0; /* data lines matching "0", "n m", "base flags" so far */
    while (next_line(&p, end, &l)) {
        char c = first_char(l);
        if (!first.s && c && contains(l, "%%MatrixMarket"))
            return TM_COMM_MTX;
        if (contains(l, "Start Communication Matrix"))
            return TM_COMM_MPIP;
        if (contains(l, "Graph Information"))
            return TM_COMM_GRAPHSTATS;
        if (c == '%') {
            percent = true;
            continue;
        }
        if (c == '#')
            continue;
        if (first.s)
            after_hdr++;
        if (!c)
            continue;
        if (!(c >= '0' && c <= '9') && c != '.' && c != '-' && c != '+') {
            text = true; /* the remaining formats are all numbers */
            continue;
        }
        if (!first.s) {
            char tmp[64];
            first = l;
            k = count_tokens(l);
            if (memchr(l.s, ',', l.len))
                return TM_COMM_DENSE;
            if (k >= 2 && k <= 4 && l.len < sizeof tmp) {
                memcpy(tmp, l.s, l.len);
                tmp[l.len] = '\0';
                const char *q = tmp;
                if (tm__parse_i64(&q, &n_hdr) < 0 || n_hdr < 1)
                    n_hdr = -1;
            }
        } else {
            after_hdr_nonblank = after_hdr;
        }
        size_t t = count_tokens(l);
        if (scotch == (int)data && data < 3 &&
            (data == 0 ? t == 1 && first_char(l) == '0' && l.len == 1 : t == 2))
            scotch++;
        same_k = same_k && t == k;
        two_three = two_three && (t == 2 || t == 3);
        data++;
    }
    if (!first.s || text)
        return TM_COMM_AUTO;
    if (scotch == 3)
        return TM_COMM_SCOTCH;
    if (!percent && same_k && k == data)
        return TM_COMM_DENSE;
    if (n_hdr > 0 && after_hdr_nonblank <= (size_t)n_hdr && (size_t)n_hdr <= after_hdr)
        return TM_COMM_METIS;
    if (two_three && !percent)
        return TM_COMM_EDGES;
    return TM_COMM_AUTO;
}

/* Reads the stream, sniffs and runs the reader on an in-memory copy. */
static tm_err read_sniffed(tm_ctx *ctx, FILE *in, const char *name, tm_comm *out)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = NULL;
    tm_comm_format fmt;
    tm_err err = tm__read_all(ctx, in, name, SNIFF_MAX, &buf, &len);
    if (err)
        return err;
    fmt = sniff(buf, len);
    if (fmt == TM_COMM_AUTO) {
        err = tm__fail(ctx, TM_EINPUT, "%s:1: cannot tell the communication-graph format from "
                       "the content; name it (metis, mtx, edges, dense, graphstats, mpip, "
                       "scotch)", name);
        goto out;
    }
    mem = fmemopen(buf, len, "r");
    if (!mem) {
        err = tm__fail(ctx, TM_EIO, "%s: fmemopen: %s", name, strerror(errno));
        goto out;
    }
    err = tm_comm_read(ctx, mem, name, fmt, out);
out:
    if (mem)
        fclose(mem);
    free(buf);
    return err;
}

tm_err tm_comm_read(tm_ctx *ctx, FILE *in, const char *name, tm_comm_format fmt, tm_comm *out)
{
    tm_comm_init(out);
    if (!name)
        name = "<input>";
    if (fmt == TM_COMM_AUTO)
        fmt = by_extension(name);
    switch (fmt) {
    case TM_COMM_AUTO: return read_sniffed(ctx, in, name, out);
    case TM_COMM_METIS: return tm_comm_read_metis(ctx, in, name, out);
    case TM_COMM_MTX: return tm_comm_read_mtx(ctx, in, name, out);
    case TM_COMM_EDGES: return tm_comm_read_edges(ctx, in, name, out);
    case TM_COMM_DENSE: return tm_comm_read_dense(ctx, in, name, out);
    case TM_COMM_GRAPHSTATS: return tm_comm_read_graphstats(ctx, in, name, out);
    case TM_COMM_MPIP: return tm_comm_read_mpip(ctx, in, name, out);
    case TM_COMM_SCOTCH: return tm_comm_read_scotch(ctx, in, name, out);
    }
    tm_comm_init(out);
    return tm__fail(ctx, TM_EUSAGE, "unknown communication-graph format %d", (int)fmt);
}

tm_err tm_comm_read_file(tm_ctx *ctx, const char *path, tm_comm_format fmt, tm_comm *out)
{
    FILE *in;
    tm_err err;
    tm_comm_init(out);
    err = tm_open_input(ctx, path, &in);
    if (err)
        return err;
    err = tm_comm_read(ctx, in, path, fmt, out);
    fclose(in);
    return err;
}
