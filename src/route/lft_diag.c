/*
 * lft_diag.c - the diagnostics the InfiniBand tools print into a
 * forwarding-table dump (infiniband-diags' ibdiag_common.c and libibmad's
 * mad.h give their forms; docs/routing.md "Tool diagnostics"):
 *
 *   /usr/sbin/ibroute: iberror: failed: dump tables: linear forwarding table get failed
 *   ibroute: iberror: [pid 4242] main: failed: dump tables: node desc failed
 *   ibpanic: [4242] mad_rpc_open_port: can't open UMAD port (...): (No such device)
 *   ibwarn: [4242] mad_rpc: _do_madrpc failed; dport (Lid 12)
 *   SubnGet() failed; MAD status 0x1c AM 0x5
 *   SubnGet(LFT) failed on switch 'sw1' Lid 12 Node GUID 0x... SMA LID 12; MAD status 0x1c AM 0x5
 *
 * `iberror`/`ibpanic` end the tool: older ibroute asks for one LFT block
 * past its table's top and stops with the first line above after printing
 * the whole range.  Such a line is a warning when the table before it
 * covers its header's range (its entries reach the range's last 64-LID
 * block, or the "N valid lids dumped" line was printed), an error
 * otherwise: a table that stops short is not guessed at.  A failed
 * SubnGet names the block (AM): past the range it is a warning, inside it
 * the block's entries are missing (ibroute) and the file is refused;
 * dump_fts's form is always refused (it prints stale entries).
 * `ibwarn`/`ibdebug` lines are warnings.
 */
#include <inttypes.h>
#include <string.h>

#include "lft_int.h"

typedef enum { DIAG_NONE, DIAG_NOTE, DIAG_STOP, DIAG_BLOCK } diag_kind;

#define LFT_BLOCK 64 /* LIDs per LinearForwardingTable block (IB spec) */

/* tag at the start of p, or after "PROG: " (PROG without blanks, maybe
 * empty: ibexit prints prog_name or ""). */
static bool tagged(const char *p, const char *tag)
{
    const char *q = strstr(p, tag);
    if (!q)
        return false;
    if (q == p)
        return true;
    if (q - p < 2 || q[-1] != ' ' || q[-2] != ':')
        return false;
    for (const char *c = p; c < q - 2; c++)
        if (*c == ' ' || *c == '\t')
            return false;
    return true;
}

static diag_kind classify(const char *p)
{
    if (tagged(p, "iberror: ") || tagged(p, "ibpanic: "))
        return DIAG_STOP;
    if (!strncmp(p, "ibwarn: ", 8) || !strncmp(p, "ibdebug: ", 9))
        return DIAG_NOTE;
    if (!strncmp(p, "SubnGet() failed", 16) || !strncmp(p, "SubnGet(LFT) failed", 19))
        return DIAG_BLOCK;
    return DIAG_NONE;
}

static const char *switch_name(const tm__lft_file *lf)
{
    return lf->sw >= 0 ? tm_net_name(lf->r->net, lf->f->vertex_of[lf->sw]) : "(skipped)";
}

/* The current table reaches the last LFT block of its header's range. */
static bool covered(const tm__lft_file *lf)
{
    uint64_t last = lf->hi - lf->hi % LFT_BLOCK;
    if (last < lf->lo)
        last = lf->lo;
    return lf->trailer || (lf->max_lid >= 0 && (uint64_t)lf->max_lid >= last);
}

static tm_err ignored(const tm__lft_file *lf, const char *p)
{
    tm__warn(lf->lx->ctx, "%s:%ld: tool diagnostic ignored: '%.160s'", lf->lx->name,
             lf->lx->line, p);
    return TM_EOK;
}

static tm_err stop(tm__lft_file *lf, const char *p)
{
    if (lf->sw == -1 || !lf->ranged)
        return ignored(lf, p); /* before any table, or a table with no range */
    lf->stopped = true;
    if (!covered(lf))
        return tm__lex_error(lf->lx, "the tool stopped ('%.120s') before the table of switch "
                             "'%s' reached the end of its range [0x%" PRIx64 "-0x%" PRIx64 "] "
                             "(last LID listed 0x%" PRIx64 "): dump it again", p,
                             switch_name(lf), lf->lo, lf->hi,
                             (uint64_t)(lf->max_lid < 0 ? 0 : lf->max_lid));
    tm__warn(lf->lx->ctx, "%s:%ld: tool diagnostic ignored: '%.160s' (the table of switch '%s' "
             "covers its range [0x%" PRIx64 "-0x%" PRIx64 "])", lf->lx->name, lf->lx->line, p,
             switch_name(lf), lf->lo, lf->hi);
    return TM_EOK;
}

/* "... AM 0xB": LFT block B could not be read.  dump_fts names the switch
 * in the line and reads only blocks of the range, then prints the
 * previous block's entries for it: always an error, blamed on the switch
 * the line names (its stderr line may land next to another table). */
static tm_err failed_block(tm__lft_file *lf, const char *p)
{
    const char *am = strstr(p, " AM ");
    uint64_t b;
    if (!strncmp(p, "SubnGet(LFT) failed on switch", 29))
        return tm__lex_error(lf->lx, "the tool could not read an LFT block ('%.160s'): the "
                             "entries it printed for that block are stale; dump it again", p);
    if (!am || lf->sw == -1 || !lf->ranged)
        return stop(lf, p);
    am += 4;
    if (tm__lft_num(&am, 16, UINT32_MAX, &b))
        return stop(lf, p);
    if (b * LFT_BLOCK > lf->hi || (b + 1) * LFT_BLOCK <= lf->lo)
        return ignored(lf, p);
    return tm__lex_error(lf->lx, "the tool could not read LFT block %" PRIu64 " (LIDs 0x%" PRIx64
                         "-0x%" PRIx64 ") of switch '%s' ('%.120s'): its entries there are "
                         "missing or stale; dump it again", b, b * LFT_BLOCK,
                         b * LFT_BLOCK + LFT_BLOCK - 1, switch_name(lf), p);
}

tm_err tm__lft_diag_line(tm__lft_file *lf, const char *p, bool *mine)
{
    diag_kind k = classify(p);
    *mine = k != DIAG_NONE;
    if (!*mine)
        return TM_EOK;
    if (!lf->diag_line)
        lf->diag_line = lf->lx->line;
    if (k == DIAG_NOTE)
        return ignored(lf, p);
    return k == DIAG_STOP ? stop(lf, p) : failed_block(lf, p);
}
