/* canon.h - the canonical numbering of a task graph (canon.c): the same
 * order of the tasks whatever their ids, up to ties between tasks that
 * colour refinement cannot tell apart.  Not installed. */
#ifndef TM_GRAPH_CANON_H
#define TM_GRAPH_CANON_H

#include <stdint.h>

#include "sgraph.h"

/* perm[u] = the canonical index of task u of g (a permutation of
 * 0..n-1). */
tm_err tm__canon_order(tm_ctx *ctx, const tm__sgraph *g, int32_t *perm);
/* c with task u renamed perm[u] (rows in the new order, each sorted by
 * target): the same job, numbered by perm. */
tm_err tm__comm_permute(tm_ctx *ctx, const tm_comm *c, const int32_t *perm, tm_comm *out);

#endif
