/* bfs.h - breadth-first search over a network under the transit rule
 * (not installed): a path may pass through a vertex only if it is transit
 * or a source (docs/design.md "Transit"), so a non-transit host ends paths but
 * never lies inside one.  Every hop-count search of the library over
 * tm_net_csr goes through here (net.c, levels.c, netdist.c, run.c,
 * landmarks.c, greedy.c, qap_grow.c, ta_init.c); only the routing DAG
 * (src/route/dag.c) keeps its own, since it also counts shortest paths
 * through every predecessor and answers single vertices one level ahead
 * ("peek") without expanding the level.
 *
 * Hand-written rather than igraph_bfs: igraph's "restricted" vertex set
 * cannot express "may end but not cross a vertex", cannot stop after a
 * level and resume, and must not be called from worker threads.
 *
 * The caller owns the scratch: dist[] and queue[] of g->n entries each.
 * dist[] is all -1 after tm__bfs_init and between searches only the
 * vertices visited by the last search differ, so a search costs the area
 * it visits, not O(n).  queue[0..tail) lists the visited vertices in BFS
 * order (sources first, in the order given), queue[0..head) the expanded
 * ones.  The order in which a level is discovered is fixed by the CSR
 * order, so lists built from the queue are deterministic. */
#ifndef TM_GRAPH_BFS_H
#define TM_GRAPH_BFS_H

#include <stdint.h>

#include "topomap/net.h"

typedef struct tm__bfs {
    const tm_net_csr *g;
    int32_t *dist;  /* hops from the nearest source, -1 = not reached */
    int32_t *queue; /* visited vertices in BFS order */
    int32_t head, tail;
} tm__bfs;

/* Sets dist[] to -1 on all g->n vertices (once). */
void tm__bfs_init(tm__bfs *b, const tm_net_csr *g, int32_t *dist, int32_t *queue);
/* Forgets the last search (dist back to -1 on its vertices) and starts a
 * new one from src[0..nsrc) (duplicates ignored) at distance 0. */
void tm__bfs_start(tm__bfs *b, const int32_t *src, int32_t nsrc);
/* Expands every reached vertex of the lowest unexpanded level, which
 * reaches the next level: queue[old tail..new tail).  Returns how many
 * vertices it reached (0: the search is complete). */
int32_t tm__bfs_level(tm__bfs *b);
/* Runs the search to the end; returns the number of vertices reached. */
int32_t tm__bfs_run(tm__bfs *b);
/* Single source, to the end: tm__bfs_start + tm__bfs_run. */
int32_t tm__bfs_from(tm__bfs *b, int32_t src);

#endif
