/* landmarks.c - hop distances from a few well-spread landmark hosts, used by
 * recursive bisection to orient its halves: for hosts x, y the value
 * max over landmarks |d(l, x) - d(l, y)| is a lower bound of their hop
 * distance (triangle inequality) that costs O(landmarks) to evaluate, with
 * O(landmarks x links) preprocessing and no host x host table.  Landmarks
 * are chosen by farthest-point sampling among the candidates.  BFS is
 * hand-written: it runs in worker threads, where igraph must not be used. */
#include <stdlib.h>
#include <string.h>

#include "netmap.h"
#include "../util/util.h"

/* BFS hop distances from src through transit vertices (-1 unreachable). */
static void bfs(const tm_net_csr *g, int32_t src, int32_t *dist, int32_t *q)
{
    int32_t head = 0, tail = 0;
    for (int32_t v = 0; v < g->n; v++)
        dist[v] = -1;
    dist[src] = 0;
    q[tail++] = src;
    while (head < tail) {
        int32_t v = q[head++];
        if (v != src && !g->transit[v])
            continue;
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++)
            if (dist[g->head[j]] < 0) {
                dist[g->head[j]] = dist[v] + 1;
                q[tail++] = g->head[j];
            }
    }
}

tm_err tm__landmarks(tm_ctx *ctx, const tm_net_csr *g, const int32_t *cand, int32_t ncand,
                     int32_t nl, float *out)
{
    int32_t *dist = tm__malloc_n((size_t)g->n + 1, sizeof *dist);
    int32_t *q = tm__malloc_n((size_t)g->n + 1, sizeof *q);
    int32_t *mind = tm__malloc_n((size_t)ncand + 1, sizeof *mind);
    int32_t next = 0;
    if (!dist || !q || !mind) {
        free(dist);
        free(q);
        free(mind);
        return tm__nomem(ctx);
    }
    for (int32_t i = 0; i < ncand; i++)
        mind[i] = INT32_MAX;
    for (int32_t l = 0; l < nl; l++) {
        int32_t best = -1;
        bfs(g, cand[next], dist, q);
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
