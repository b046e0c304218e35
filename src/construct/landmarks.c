/* landmarks.c - hop distances from a few well-spread landmark hosts, used by
 * recursive bisection to orient its halves: for hosts x, y the value
 * max over landmarks |d(l, x) - d(l, y)| is a lower bound of their hop
 * distance (triangle inequality) that costs O(landmarks) to evaluate, with
 * O(landmarks x links) preprocessing and no host x host table.  Landmarks
 * are chosen by farthest-point sampling among the candidates.  The BFS is
 * src/graph/bfs.h: it runs in worker threads, where igraph must not be used. */
#include <stdlib.h>
#include <string.h>

#include "netmap.h"
#include "../graph/bfs.h"
#include "../util/util.h"

tm_err tm__landmarks(tm_ctx *ctx, const tm_net_csr *g, const int32_t *cand, int32_t ncand,
                     int32_t nl, float *out)
{
    int32_t *dist = tm__malloc_n((size_t)g->n + 1, sizeof *dist);
    int32_t *q = tm__malloc_n((size_t)g->n + 1, sizeof *q);
    int32_t *mind = tm__malloc_n((size_t)ncand + 1, sizeof *mind);
    int32_t next = 0;
    tm__bfs b;
    if (!dist || !q || !mind) {
        free(dist);
        free(q);
        free(mind);
        return tm__nomem(ctx);
    }
    tm__bfs_init(&b, g, dist, q);
    for (int32_t i = 0; i < ncand; i++)
        mind[i] = INT32_MAX;
    for (int32_t l = 0; l < nl; l++) {
        int32_t best = -1;
        tm__bfs_from(&b, cand[next]);
        for (int32_t i = 0; i < ncand; i++) {
            /* unreachable counts as far: such hosts never share traffic */
            int32_t d = dist[cand[i]] < 0 ? 1000 : dist[cand[i]];
            out[(size_t)l * (size_t)ncand + (size_t)i] = (float)d;
            if (d < mind[i])
                mind[i] = d;
            if (best < 0 || mind[i] > mind[best])
                best = i;
        }
        next = best;
    }
    free(dist);
    free(q);
    free(mind);
    return TM_EOK;
}
