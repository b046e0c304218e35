/* alloc_int.h - host-name resolution shared by the allocation and the
 * mapping-file readers (never installed). */
#ifndef TM_ALLOC_INT_H
#define TM_ALLOC_INT_H

#include "topomap/alloc.h"

/* Why `name` did not resolve to a host, as a message fragment written into
 * buf: "unknown host 'x' (not in the topology)", "host name 'x' is
 * ambiguous ('x.a' and 'x.b')" or "'x' is a switch, not a host". */
void tm__alloc_unresolved(const tm_net *net, const char *name, char *buf, size_t size);

#endif
