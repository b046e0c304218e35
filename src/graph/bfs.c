/* bfs.c - transit-rule breadth-first search (bfs.h). */
#include "bfs.h"

void tm__bfs_init(tm__bfs *b, const tm_net_csr *g, int32_t *dist, int32_t *queue)
{
    b->g = g;
    b->dist = dist;
    b->queue = queue;
    b->head = b->tail = 0;
    for (int32_t v = 0; v < g->n; v++)
        dist[v] = -1;
}

void tm__bfs_start(tm__bfs *b, const int32_t *src, int32_t nsrc)
{
    for (int32_t i = 0; i < b->tail; i++)
        b->dist[b->queue[i]] = -1;
    b->head = b->tail = 0;
    for (int32_t i = 0; i < nsrc; i++)
        if (b->dist[src[i]] < 0) {
            b->dist[src[i]] = 0;
            b->queue[b->tail++] = src[i];
        }
}

int32_t tm__bfs_level(tm__bfs *b)
{
    const tm_net_csr *g = b->g;
    /* locals: dist and queue are int32_t too, so the fields could alias */
    int32_t *dist = b->dist, *queue = b->queue, head = b->head, tail = b->tail, before = tail;
    int32_t level;
    if (head == tail)
        return 0;
    level = dist[queue[head]];
    while (head < tail && dist[queue[head]] == level) {
        int32_t u = queue[head++];
        /* a source starts paths; anything else must be transit */
        if (level > 0 && !g->transit[u])
            continue;
        for (int32_t j = g->off[u]; j < g->off[u + 1]; j++) {
            int32_t v = g->head[j];
            if (dist[v] < 0) {
                dist[v] = level + 1;
                queue[tail++] = v;
            }
        }
    }
    b->head = head;
    b->tail = tail;
    return tail - before;
}

int32_t tm__bfs_run(tm__bfs *b)
{
    while (b->head < b->tail)
        tm__bfs_level(b);
    return b->tail;
}

int32_t tm__bfs_from(tm__bfs *b, int32_t src)
{
    tm__bfs_start(b, &src, 1);
    return tm__bfs_run(b);
}
