/* alloc_int.h - host-name resolution shared by the allocation and the
 * mapping-file readers (never installed). */
#ifndef TM_ALLOC_INT_H
#define TM_ALLOC_INT_H

#include "topomap/alloc.h"

/* Why `name` did not resolve to a host, as a message fragment written into
 * buf: "unknown host 'x' (not in the topology)", "host name 'x' is
 * ambiguous ('x.a' and 'x.b')" or "'x' is a switch, not a host". */
void tm__alloc_unresolved(const tm_net *net, const char *name, char *buf, size_t size);

/* The order of host names in an allocation Slurm lists (tm_hostlist_compress,
 * `scontrol show hostlistsorted`): prefixes in natural order, then the
 * numeric suffix by value ("n9" < "n10"); < 0, 0 or > 0 as strcmp. */
int tm__host_name_cmp(const char *a, const char *b);

#endif
