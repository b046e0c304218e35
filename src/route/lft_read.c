/*
 * lft_read.c - reads linear forwarding tables dumped by the InfiniBand
 * tools, autodetecting the format of each file by its first switch
 * header (docs/routing.md "Input"):
 *
 * - the `Unicast lids` family: ibroute (one switch per file; real
 *   examples: tests/data/real/data/ibroute_lft/), dump_lfts.sh / dump_fts
 *   (the same blocks for every switch in one file; the switch may be
 *   named by "DR path ..." instead of "Lid N"), and OpenSM's
 *   opensm-lfts.dump (decimal range, '#' before the destination):
 *
 *     Unicast lids [0x0-0x91] of switch Lid 2 guid 0x000b8cffff004939 (desc):
 *       Lid  Out   Destination
 *            Port     Info
 *     0x0001 015 : (Channel Adapter portguid 0x0002c9030002da23: 'bonobo020 HCA-1')
 *     ...
 *     134 valid lids dumped
 *
 * - the `dump_ucast_routes` family of opensm.fdbs / ibdiagnet2.fdbs
 *   (lft_fdbs.c).
 *
 * Lines the tools print about themselves (`ibroute: iberror: ...`,
 * `ibwarn: ...`, a failed SubnGet) are read by lft_diag.c.
 *
 * A switch is found by GUID (LID if the topology has no GUIDs); a table
 * of a switch the topology does not hold (another subnet's file in the
 * same directory) is skipped with a warning.  A LID listed twice with
 * different ports is marked conflicting and only the routes that need it
 * fail; nothing is guessed (docs/routing.md).
 */
#include <stdlib.h>
#include <string.h>

#include "lft_int.h"

/* "[LO-HI]": hex with 0x (ibroute, dump_fts) or decimal (opensm-lfts.dump). */
static int lid_range(const char **p, uint64_t *lo, uint64_t *hi)
{
    const char *q = tm__skip_blank(*p);
    int base = q[0] == '0' && (q[1] == 'x' || q[1] == 'X') ? 16 : 10;
    if (tm__lft_num(p, base, 0xffff, lo) || tm__lft_lit(p, "-") ||
        tm__lft_num(p, base, 0xffff, hi) || tm__lft_lit(p, "]") || *lo > *hi)
        return -1;
    return 0;
}

/* "of switch Lid N [Gid G] guid 0xG" or "of switch DR path ... guid 0xG":
 * a directed-route header (dump_fts) names no LID (0). */
static int switch_id(const char **p, uint64_t *lid, uint64_t *guid)
{
    const char *g;
    *lid = 0;
    if (tm__lft_lit(p, "of switch"))
        return -1;
    if (!tm__lft_lit(p, "Lid")) {
        if (tm__lft_num(p, 10, 0xffff, lid) || !*lid)
            return -1;
    } else if (tm__lft_lit(p, "DR path")) {
        return -1;
    }
    g = strstr(*p, " guid ");
    if (!g)
        return -1;
    *p = g + 6;
    return tm__lft_num(p, 16, UINT64_MAX, guid);
}

static tm_err header(tm__lft_file *lf, const char *p)
{
    uint64_t lid, guid;
    tm_err err = tm__lft_set_format(lf, TM__LFT_UNICAST_LIDS);
    if (err)
        return err;
    if (tm__lft_lit(&p, "Unicast lids [") || lid_range(&p, &lf->lo, &lf->hi) ||
        switch_id(&p, &lid, &guid))
        return tm__lex_error(lf->lx, "malformed header: expected 'Unicast lids [0xLO-0xHI] of "
                             "switch Lid N guid 0xG'");
    lf->ranged = true;
    return tm__lft_begin(lf, lid, guid);
}

/* "0xLID PORT [: destination]" (ibroute -n prints no destination;
 * opensm-lfts.dump puts '#' before it). */
static tm_err row(tm__lft_file *lf, const char *p)
{
    uint64_t lid, port;
    if (tm__lft_num(&p, 16, 0xffff, &lid) || tm__lft_num(&p, 10, 255, &port) ||
        (*tm__skip_blank(p) && tm__lft_lit(&p, ":") && tm__lft_lit(&p, "#")))
        return tm__lex_error(lf->lx, "malformed entry: expected '0xLID PORT : destination'");
    return tm__lft_entry(lf, lid, port);
}

static tm_err line_of(tm__lft_file *lf, const char *p)
{
    uint64_t n;
    const char *q = p;
    bool mine;
    tm_err err;
    if (!*p || *p == '#')
        return TM_EOK; /* ibdiagnet's files open with '#' comments */
    err = tm__lft_diag_line(lf, p, &mine);
    if (err || mine)
        return err;
    if (!strncmp(p, "Unicast lids", 12))
        return header(lf, p);
    err = tm__lft_fdbs_line(lf, p, &mine);
    if (err || mine)
        return err;
    if (!strncmp(p, "Lid", 3) || !strncmp(p, "Port", 4))
        return TM_EOK; /* column titles */
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        return row(lf, p);
    if (!tm__lft_num(&q, 10, UINT64_MAX, &n) && (!tm__lft_lit(&q, "valid lids dumped") ||
                                                 !tm__lft_lit(&q, "lids dumped"))) {
        lf->trailer = true;
        return TM_EOK;
    }
    if (!strncmp(p, "Switch 0x", 9) || !strncmp(p, "Multicast mlids", 15))
        return tm__lex_error(lf->lx, "multicast forwarding tables (OpenSM's opensm.mcfdbs "
                             "or ibroute -M); routing needs the unicast ones");
    return tm__lex_error(lf->lx, "not a line of a forwarding-table dump (ibroute, dump_lfts.sh, "
                         "opensm-lfts.dump, opensm.fdbs, ibdiagnet2.fdbs)");
}

tm_err tm__lft_read_file(tm_ctx *ctx, const tm_route *r, tm__fwd *f, FILE *in, const char *name)
{
    tm__lexer lx;
    tm__lft_file lf = {r, f, &lx, TM__LFT_NONE, -1, false, 0, 0, -1, false, false, 0};
    tm_err err;
    bool line;
    tm__lex_init(&lx, ctx, in, name);
    while (!(err = tm__lex_next(&lx, &line)) && line)
        if ((err = line_of(&lf, tm__skip_blank(lx.buf))))
            break;
    if (!err && lf.sw == -1 && lf.diag_line)
        err = tm__fail(ctx, TM_EINPUT, "%s:%ld: the tool printed diagnostics but no table "
                       "('Unicast lids ... of switch' or 'dump_ucast_routes: Switch')", name,
                       lf.diag_line);
    else if (!err && lf.sw == -1)
        err = tm__fail(ctx, TM_EINPUT, "%s:%ld: no switch header ('Unicast lids ... of switch' "
                       "or 'dump_ucast_routes: Switch'): not a forwarding-table dump", name,
                       lx.line > 0 ? lx.line : 1L);
    tm__lex_release(&lx);
    return err;
}
