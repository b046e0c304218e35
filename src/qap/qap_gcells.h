/* qap_gcells.h - free slots counted per group of the levels form of the
 * hop oracle (internal to src/qap; used by `grow`).
 *
 * On a fat-tree or Clos network (netdist_int.h: the levels form) the hop
 * distance between hosts on different leaves depends only on the lowest
 * level whose group holds both.  The groups nest into a tree: leaf classes
 * under their level-0 groups, ..., under one root.  Given the classes of
 * some placed tasks ("partners"), mark their ancestors: every other host
 * lies in a partner's own class or in exactly one *cell*, an unmarked
 * group whose parent is marked, and every host of a cell is at the same
 * distance from every partner (their paths meet at the same levels).  So
 * the cheapest free host for a task is found by pricing one host per cell
 * with free slots: partners x levels x fan-out cells instead of every
 * free host. */
#ifndef TM_QAP_GCELLS_H
#define TM_QAP_GCELLS_H

#include <stdbool.h>
#include <stdint.h>

#include "qap_int.h"

typedef struct tm__gcells {
    int32_t nc;              /* classes: nodes 0..nc-1 */
    int32_t n;               /* nodes (classes, groups, root) */
    int32_t *parent;         /* -1 for the root */
    int32_t *kid0, *kids;    /* children (CSR over nodes) */
    int32_t *host0, *hosts;  /* hosts (allocation indices) of each class */
    int64_t *nfree;          /* free slots below each node */
    int32_t *stamp;          /* marks (tm__gcells_cells) */
    int32_t cur;
} tm__gcells;

/* Builds the tree when q's oracle has the levels form with nested groups
 * and every host at the same offset from its class (else *ok = false and
 * nothing is held). */
tm_err tm__gcells_build(tm_ctx *ctx, const tm__qnet *q, tm__gcells *c, bool *ok);
void tm__gcells_release(tm__gcells *c);
/* Free slots from free_n (per allocation index). */
void tm__gcells_reset(tm__gcells *c, const tm__qnet *q, const int32_t *free_n);
/* One slot of host a taken. */
void tm__gcells_take(tm__gcells *c, const tm__qnet *q, int32_t a);
/* The cells with free slots around the classes of hosts part[0..np)
 * (allocation indices), in a fixed order: out[0..return) holds nodes, and
 * -1 - a for each free host a of a partner's own class (whose hosts are
 * not alike: a partner's own host is at distance 0 from it).  out needs
 * c->n + (hosts) entries at most. */
int32_t tm__gcells_cells(tm__gcells *c, const tm__qnet *q, const int32_t *part, int32_t np,
                         const int32_t *free_n, int32_t *out);
/* The host of an entry of tm__gcells_cells: a node's first host with a
 * free slot (nfree[v] > 0), or the host -1 - v itself. */
int32_t tm__gcells_host(const tm__gcells *c, int32_t v, const int32_t *free_n);

#endif
