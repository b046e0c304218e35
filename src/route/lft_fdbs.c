/*
 * lft_fdbs.c - the unicast forwarding tables in the format of OpenSM's
 * `dump_ucast_routes` (opensm/osm_dump.c, the file opensm.fdbs), which
 * ibdiagnet also writes (ibdiagnet2.fdbs; ibdm, of ibutils, reads such
 * files back in IBFabric::parseFdbFile):
 *
 *   osm_ucast_mgr_dump_ucast_routes: Switch 0x0002c9030068ec10
 *   LID    : Port : Hops : Optimal
 *   0x0001 : UNREACHABLE
 *   0x0002 : 003  : 00   : yes
 *
 * (OpenSM itself prints "dump_ucast_routes: Switch ..."; both are read).  One block per
 * switch, found by GUID only: the header has no LID.  Hops and
 * "Optimal" are not needed.  ibdiagnet may precede a block with
 * "PLFT_NUM: n"; only the linear table (PLFT 0) is routed by LID, so
 * another number is refused rather than mixed in.
 */
#include <string.h>

#include "lft_int.h"

static tm_err header(tm__lft_file *lf, const char *p)
{
    uint64_t guid;
    tm_err err = tm__lft_set_format(lf, TM__LFT_FDBS);
    if (err)
        return err;
    if (tm__lft_lit(&p, "Switch") || tm__lft_num(&p, 16, UINT64_MAX, &guid) ||
        *tm__skip_blank(p))
        return tm__lex_error(lf->lx, "malformed header: expected 'dump_ucast_routes: Switch "
                             "0xGUID'");
    lf->ranged = false;
    return tm__lft_begin(lf, 0, guid);
}

/* "0xLID : PORT : HOPS : ..." or "0xLID : UNREACHABLE" */
static tm_err row(tm__lft_file *lf, const char *p)
{
    uint64_t lid, port;
    if (tm__lft_num(&p, 16, 0xffff, &lid) || tm__lft_lit(&p, ":"))
        return tm__lex_error(lf->lx, "malformed entry: expected '0xLID : PORT : HOPS : ...' or "
                             "'0xLID : UNREACHABLE'");
    if (!tm__lft_lit(&p, "UNREACHABLE"))
        return TM_EOK; /* no route: no entry */
    if (tm__lft_num(&p, 10, 255, &port) || (*tm__skip_blank(p) && tm__lft_lit(&p, ":")))
        return tm__lex_error(lf->lx, "malformed entry: expected '0xLID : PORT : HOPS : ...' "
                             "(port 0-255)");
    return tm__lft_entry(lf, lid, port);
}

tm_err tm__lft_fdbs_line(tm__lft_file *lf, const char *p, bool *mine)
{
    static const char *const heads[] = {"osm_ucast_mgr_dump_ucast_routes:",
                                        "dump_ucast_routes:"};
    uint64_t n;
    *mine = true;
    for (int i = 0; i < 2; i++)
        if (!strncmp(p, heads[i], strlen(heads[i])))
            return header(lf, p + strlen(heads[i]));
    if (!strncmp(p, "LID", 3) && strstr(p, "Port : Hops"))
        return TM_EOK; /* column titles */
    if (!strncmp(p, "PLFT_NUM:", 9)) {
        p += 9;
        if (tm__lft_num(&p, 10, 255, &n) || *tm__skip_blank(p))
            return tm__lex_error(lf->lx, "malformed 'PLFT_NUM: n' line");
        return n ? tm__lex_error(lf->lx, "private LFT %llu (PLFT_NUM): only the linear "
                                 "forwarding table (PLFT 0) is read", (unsigned long long)n)
                 : TM_EOK;
    }
    if (lf->fmt == TM__LFT_FDBS && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        return row(lf, p);
    *mine = false;
    return TM_EOK;
}
