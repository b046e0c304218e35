/*
 * lft_read.c - reads the linear forwarding tables that `ibroute` prints,
 * one file per switch (the format of infiniband-diags' ibroute; real
 * examples: tests/data/real/data/ibroute_lft/):
 *
 *   Unicast lids [0x0-0x91] of switch Lid 2 guid 0x000b8cffff004939 (desc):
 *     Lid  Out   Destination
 *          Port     Info
 *   0x0001 015 : (Channel Adapter portguid 0x0002c9030002da23: 'bonobo020 HCA-1')
 *   ...
 *   134 valid lids dumped
 *
 * The switch is found by GUID (LID if the topology has no GUIDs); a table
 * of a switch the topology does not hold (another subnet's file in the
 * same directory) is skipped with a warning.  A LID listed twice with
 * different ports is marked conflicting and only the routes that need it
 * fail; nothing is guessed (docs/routing.md).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "route_int.h"
#include "../util/util.h"

/* Skips blanks, then the literal s; 0 if it matched. */
static int lit(const char **p, const char *s)
{
    const char *q = tm__skip_blank(*p);
    size_t n = strlen(s);
    if (strncmp(q, s, n) != 0)
        return -1;
    *p = q + n;
    return 0;
}

/* An unsigned number in base 10 or 16 ("0x" prefix required for 16),
 * at most max; 0 on success. */
static int num(const char **p, int base, uint64_t max, uint64_t *v)
{
    const char *q = tm__skip_blank(*p);
    char *e;
    if (base == 16 && (q[0] != '0' || (q[1] != 'x' && q[1] != 'X')))
        return -1;
    if (base == 16)
        q += 2;
    if (!((*q >= '0' && *q <= '9') || (base == 16 && strchr("abcdefABCDEF", *q) && *q)))
        return -1;
    errno = 0;
    *v = strtoull(q, &e, base);
    if (errno || *v > max)
        return -1;
    *p = e;
    return 0;
}

typedef struct lft_file {
    const tm_route *r;
    tm__fwd *f;
    tm__lexer *lx;
    int32_t sw;      /* switch index, -1 before the header, -2 skipped */
    uint64_t lo, hi; /* LID range of the header */
} lft_file;

/* The switch a header names (by GUID, else by LID); -1 = not in the
 * topology (warned), or an error. */
static tm_err find_switch(lft_file *lf, uint64_t lid, uint64_t guid, int32_t *sw)
{
    const tm_net *net = lf->r->net;
    int32_t v = -1, n = tm_net_n_vertices(net);
    bool any_guid = false;
    *sw = -1;
    for (int32_t u = 0; u < n && v < 0; u++) {
        any_guid |= tm_net_guid(net, u) != 0;
        if (lf->f->sw_of[u] >= 0 && tm_net_guid(net, u) == guid)
            v = u;
    }
    if (v < 0 && !any_guid)
        v = tm_net_lid_owner(net, (uint32_t)lid, NULL);
    if (v < 0 || lf->f->sw_of[v] < 0) {
        tm__warn(lf->lx->ctx, "%s:%ld: switch LID %llu GUID 0x%016llx is not in the topology; "
                 "table skipped", lf->lx->name, lf->lx->line, (unsigned long long)lid,
                 (unsigned long long)guid);
        return TM_EOK;
    }
    if (tm_net_lid(net, v, NULL) != lid)
        return tm__lex_error(lf->lx, "switch '%s' has LID %u in the topology, but LID %llu here",
                             tm_net_name(net, v), tm_net_lid(net, v, NULL),
                             (unsigned long long)lid);
    *sw = lf->f->sw_of[v];
    return TM_EOK;
}

static tm_err header(lft_file *lf, const char *p)
{
    uint64_t lid, guid;
    int32_t s;
    tm_err err;
    if (lf->sw != -1)
        return tm__lex_error(lf->lx, "second 'Unicast lids' header (one switch per file)");
    if (lit(&p, "Unicast lids [") || num(&p, 16, 0xffff, &lf->lo) || lit(&p, "-") ||
        num(&p, 16, 0xffff, &lf->hi) || lit(&p, "] of switch Lid") || num(&p, 10, 0xffff, &lid) ||
        lit(&p, "guid") || num(&p, 16, UINT64_MAX, &guid) || lf->lo > lf->hi)
        return tm__lex_error(lf->lx, "malformed header: expected 'Unicast lids [0xLO-0xHI] of "
                             "switch Lid N guid 0xG'");
    err = find_switch(lf, lid, guid, &s);
    if (err || s < 0) {
        lf->sw = -2;
        return err;
    }
    if (lf->f->has_table[s])
        return tm__lex_error(lf->lx, "second table for switch '%s' (first in %s)",
                             tm_net_name(lf->r->net, lf->f->vertex_of[s]), lf->f->file[s]);
    lf->f->file[s] = tm__strdup(lf->lx->name);
    if (!lf->f->file[s])
        return tm__nomem(lf->lx->ctx);
    lf->f->has_table[s] = true;
    lf->sw = s;
    return TM_EOK;
}

/* "0xLID PORT : ..." */
static tm_err row(lft_file *lf, const char *p)
{
    uint64_t lid, port;
    size_t i;
    tm__fwd *f = lf->f;
    if (num(&p, 16, 0xffff, &lid) || num(&p, 10, 255, &port) || lit(&p, ":"))
        return tm__lex_error(lf->lx, "malformed entry: expected '0xLID PORT : destination'");
    if (lf->sw == -1)
        return tm__lex_error(lf->lx, "entry before the 'Unicast lids' header");
    if (lid < lf->lo || lid > lf->hi)
        return tm__lex_error(lf->lx, "LID 0x%04llx is outside the header's range [0x%llx-0x%llx]",
                             (unsigned long long)lid, (unsigned long long)lf->lo,
                             (unsigned long long)lf->hi);
    if (lf->sw < 0 || lid >= f->n_lid)
        return TM_EOK; /* skipped table, or a LID no vertex of the topology owns */
    i = (size_t)lf->sw * f->n_lid + lid;
    if (f->out[i] == TM__FWD_NONE || f->out[i] == port)
        f->out[i] = (uint16_t)port;
    else
        f->out[i] = TM__FWD_CONFLICT; /* the line of the second entry is kept */
    if (f->line[i] == 0 || f->out[i] == TM__FWD_CONFLICT)
        f->line[i] = (int32_t)(lf->lx->line > INT32_MAX ? INT32_MAX : lf->lx->line);
    return TM_EOK;
}

static tm_err line_of(lft_file *lf, const char *p)
{
    uint64_t n;
    const char *q = p;
    if (!*p)
        return TM_EOK;
    if (!strncmp(p, "Unicast lids", 12))
        return header(lf, p);
    if (!strncmp(p, "Lid", 3) || !strncmp(p, "Port", 4))
        return TM_EOK; /* column titles */
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        return row(lf, p);
    if (!num(&q, 10, UINT64_MAX, &n) && !lit(&q, "valid lids dumped"))
        return TM_EOK;
    return tm__lex_error(lf->lx, "not a line of ibroute's forwarding-table output");
}

tm_err tm__lft_read_file(tm_ctx *ctx, const tm_route *r, tm__fwd *f, FILE *in, const char *name)
{
    tm__lexer lx;
    lft_file lf = {r, f, &lx, -1, 0, 0};
    tm_err err = TM_EOK;
    int rc;
    tm__lex_init(&lx, ctx, in, name);
    while (!err && (rc = tm__lex_next(&lx)) > 0)
        err = line_of(&lf, tm__skip_blank(lx.buf));
    if (!err && rc < 0)
        err = (tm_err)-rc;
    if (!err && lf.sw == -1)
        err = tm__fail(ctx, TM_EINPUT, "%s:%ld: no 'Unicast lids ... of switch' header (not "
                       "ibroute output)", name, lx.line > 0 ? lx.line : 1L);
    tm__lex_release(&lx);
    return err;
}
