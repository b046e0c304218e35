/*
 * lft_table.c - what every forwarding-table reader shares (lft_int.h): the
 * tokens of a line (literals, numbers), the file's format fixed at its
 * first header, and the table being filled: a switch's block started by
 * GUID or LID, its entries recorded (a LID listed twice with different
 * ports marked conflicting).  Below the readers of each format
 * (lft_read.c, lft_fdbs.c, lft_diag.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lft_int.h"

int tm__lft_lit(const char **p, const char *s)
{
    const char *q = tm__skip_blank(*p);
    size_t n = strlen(s);
    if (strncmp(q, s, n) != 0)
        return -1;
    *p = q + n;
    return 0;
}

int tm__lft_num(const char **p, int base, uint64_t max, uint64_t *v)
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

static const char *format_name(tm__lft_format fmt)
{
    return fmt == TM__LFT_FDBS ? "'dump_ucast_routes: Switch' (opensm.fdbs, ibdiagnet2.fdbs)"
                               : "'Unicast lids' (ibroute, dump_lfts.sh, opensm-lfts.dump)";
}

tm_err tm__lft_set_format(tm__lft_file *lf, tm__lft_format fmt)
{
    if (lf->fmt && lf->fmt != fmt)
        return tm__lex_error(lf->lx, "a %s header in a file of %s tables", format_name(fmt),
                             format_name(lf->fmt));
    lf->fmt = fmt;
    return TM_EOK;
}

/* The switch vertex a header names; -1 if the topology has no such switch. */
static int32_t find_switch(const tm__lft_file *lf, uint64_t lid, uint64_t guid)
{
    const tm_net *net = lf->r->net;
    int32_t n = tm_net_n_vertices(net), v;
    bool any_guid = false;
    for (int32_t u = 0; u < n; u++) {
        any_guid |= tm_net_guid(net, u) != 0;
        if (lf->f->sw_of[u] >= 0 && tm_net_guid(net, u) == guid)
            return u;
    }
    v = !any_guid && lid ? tm_net_lid_owner(net, (uint32_t)lid, NULL) : -1;
    return v >= 0 && lf->f->sw_of[v] >= 0 ? v : -1;
}

tm_err tm__lft_begin(tm__lft_file *lf, uint64_t lid, uint64_t guid)
{
    const tm_net *net = lf->r->net;
    int32_t v = find_switch(lf, lid, guid), s;
    lf->sw = -2;
    lf->max_lid = -1;
    lf->trailer = lf->stopped = false;
    if (v < 0) {
        tm__warn(lf->lx->ctx, "%s:%ld: switch LID %llu GUID 0x%016llx is not in the topology; "
                 "table skipped", lf->lx->name, lf->lx->line, (unsigned long long)lid,
                 (unsigned long long)guid);
        return TM_EOK;
    }
    if (lid && tm_net_lid(net, v, NULL) != lid)
        return tm__lex_error(lf->lx, "switch '%s' has LID %u in the topology, but LID %llu here",
                             tm_net_name(net, v), tm_net_lid(net, v, NULL),
                             (unsigned long long)lid);
    s = lf->f->sw_of[v];
    if (lf->f->has_table[s])
        return tm__lex_error(lf->lx, "second table for switch '%s' (first in %s)",
                             tm_net_name(net, v), lf->f->file[s]);
    lf->f->file[s] = tm__strdup(lf->lx->name);
    if (!lf->f->file[s])
        return tm__nomem(lf->lx->ctx);
    lf->f->has_table[s] = true;
    lf->sw = s;
    return TM_EOK;
}

tm_err tm__lft_entry(tm__lft_file *lf, uint64_t lid, uint64_t port)
{
    tm__fwd *f = lf->f;
    size_t i;
    if (lf->sw == -1)
        return tm__lex_error(lf->lx, "entry before the first switch header");
    if (lf->stopped)
        return tm__lex_error(lf->lx, "entry after the tool's error line ended the table");
    if ((int64_t)lid > lf->max_lid)
        lf->max_lid = (int64_t)lid;
    if (lf->ranged && (lid < lf->lo || lid > lf->hi))
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
