/*
 * lft_int.h - shared state of the forwarding-table readers (lft_read.c:
 * the `Unicast lids` family of ibroute, dump_lfts.sh / dump_fts and
 * OpenSM's opensm-lfts.dump; lft_fdbs.c: the `dump_ucast_routes` family
 * of OpenSM's opensm.fdbs and ibdiagnet's ibdiagnet2.fdbs; lft_diag.c: the
 * tools' own lines; lft_table.c: the tokens and the table they fill).
 * Private to src/route/lft*.c.
 */
#ifndef TM_LFT_INT_H
#define TM_LFT_INT_H

#include "route_int.h"
#include "../util/util.h"

/* The format of a file, fixed by its first switch header. */
typedef enum { TM__LFT_NONE = 0, TM__LFT_UNICAST_LIDS, TM__LFT_FDBS } tm__lft_format;

typedef struct tm__lft_file {
    const tm_route *r;
    tm__fwd *f;
    tm__lexer *lx;
    tm__lft_format fmt;
    int32_t sw;       /* switch index, -1 before the first header, -2 skipped block */
    bool ranged;      /* the header gave a LID range [lo, hi] */
    uint64_t lo, hi;
    int64_t max_lid;  /* largest LID listed in the current block, -1 none */
    bool trailer;     /* the block's "N valid lids dumped" line was seen */
    bool stopped;     /* a tool's error line ended the current block */
    long diag_line;   /* first tool diagnostic of the file (0: none) */
} tm__lft_file;

/* ---- lft_table.c ---- */
/* Skips blanks, then the literal s; 0 if it matched. */
int tm__lft_lit(const char **p, const char *s);
/* An unsigned number in base 10 or 16 ("0x" prefix required for 16), at
 * most max; 0 on success. */
int tm__lft_num(const char **p, int base, uint64_t max, uint64_t *v);
/* Fixes the file's format at its first header; a header of the other
 * family later in the file is an error. */
tm_err tm__lft_set_format(tm__lft_file *lf, tm__lft_format fmt);
/* Starts the block of the switch a header names: by GUID, else (no GUIDs
 * in the topology) by LID; lid 0 = the header gave none.  A switch the
 * topology does not hold is skipped with a warning; a second block for one
 * switch is an error. */
tm_err tm__lft_begin(tm__lft_file *lf, uint64_t lid, uint64_t guid);
/* Records "LID lid goes out of port" for the current block. */
tm_err tm__lft_entry(tm__lft_file *lf, uint64_t lid, uint64_t port);
/* A diagnostic line the InfiniBand tools print between or after tables
 * (lft_diag.c): *mine is false when p is not one.  A warning naming the
 * file and line when the current table is complete; an error when it
 * stopped short of its header's range. */
tm_err tm__lft_diag_line(tm__lft_file *lf, const char *p, bool *mine);

/* One line of the dump_ucast_routes family (lft_fdbs.c); *mine is false
 * when the line is not one of its forms. */
tm_err tm__lft_fdbs_line(tm__lft_file *lf, const char *p, bool *mine);

#endif
