/*
 * tree_pick.c - the nodes Slurm 22.05 gives a job of n nodes (docs/
 * workload.md "slurm-tree"), emulated from its source:
 * src/plugins/select/cons_tres/job_test.c, _eval_nodes_topo (topology/
 * tree) and _eval_nodes (no topology plugin), for a job that asks only
 * for a node count, on nodes of one weight, one CPU counted per node.
 * tests/cli/t45-alloc.sh checks the emulation against the real
 * slurmctld's choices.
 */
#include <stdlib.h>
#include <string.h>

#include "topo_int.h"
#include "../util/util.h"

#define INF UINT32_MAX /* Slurm's INFINITE */

static int32_t popcount_and(const uint64_t *a, const uint64_t *b, int32_t words)
{
    int32_t c = 0;
    for (int32_t w = 0; w < words; w++)
        c += __builtin_popcountll(a[w] & b[w]);
    return c;
}

static bool bit(const uint64_t *s, int32_t i)
{
    return (s[i / 64] >> (i % 64)) & 1;
}

/* _topo_compare_switches: > 0 when i is the better leaf for rem nodes.
 * Slurm climbs both switches' parents in step until they share one; a
 * switch no line lists has parent 0 (zeroed records), so on a tree of
 * uneven depth the climb can cycle without end (slurmctld 22.05 would
 * hang there): the climb stops after n_sw steps, as if they met. */
static int compare_switches(const tm_slurm_tree *t, int32_t i, int32_t j, int32_t rem,
                            const int32_t *cnt)
{
    for (int32_t steps = 0; steps <= t->n_sw; steps++) {
        bool i_fit = cnt[i] >= rem, j_fit = cnt[j] >= rem;
        if (i_fit && j_fit) {
            if (cnt[i] < cnt[j])
                return 1;
            if (cnt[i] > cnt[j])
                return -1;
            break;
        } else if (i_fit) {
            return 1;
        } else if (j_fit) {
            return -1;
        }
        if ((t->parent[i] != i || t->parent[j] != j) && t->parent[i] != t->parent[j]) {
            i = t->parent[i];
            j = t->parent[j];
            continue;
        }
        break;
    }
    if (cnt[i] > cnt[j])
        return 1;
    if (cnt[i] < cnt[j])
        return -1;
    if (t->level[i] < t->level[j])
        return 1;
    if (t->level[i] > t->level[j])
        return -1;
    return 0;
}

/* _topo_choose_best_switch */
static void choose_best(const tm_slurm_tree *t, const uint32_t *dist, const int32_t *cnt,
                        int32_t rem, int32_t i, int32_t *best)
{
    int tcs;
    if (*best == -1 || dist[i] == INF || !cnt[i]) {
        if (cnt[i] && dist[i] < INF)
            *best = i;
        return;
    }
    tcs = compare_switches(t, i, *best, rem, cnt);
    if ((dist[i] < dist[*best] && tcs >= 0) || (dist[i] == dist[*best] && tcs > 0))
        *best = i;
}

/* _topo_add_dist: dist += the hops from switch s (a BFS over the child
 * links; INF where either is). */
static void add_dist(const tm_slurm_tree *t, int32_t s, uint32_t *dist, uint32_t *d,
                     int32_t *queue)
{
    int32_t head = 0, tail = 0;
    for (int32_t i = 0; i < t->n_sw; i++)
        d[i] = INF;
    d[s] = 0;
    queue[tail++] = s;
    while (head < tail) {
        int32_t v = queue[head++];
        for (int32_t e = t->adj_off[v]; e < t->adj_off[v + 1]; e++)
            if (d[t->adj[e]] == INF) {
                d[t->adj[e]] = d[v] + 1;
                queue[tail++] = t->adj[e];
            }
    }
    for (int32_t i = 0; i < t->n_sw; i++)
        dist[i] = dist[i] == INF || d[i] == INF ? INF : dist[i] + d[i];
}

typedef struct scratch {
    int32_t *cnt, *queue;
    uint32_t *dist, *d;
    uint64_t *sw;  /* n_sw node sets restricted to the top switch's free nodes */
} scratch;

static tm_err tree_pick(tm_ctx *ctx, const tm_slurm_tree *t, const uint64_t *avail, int32_t n,
                        uint8_t *chosen)
{
    int32_t ns = t->n_sw, nw = t->words, top = -1, rem = n, prev;
    scratch s = {0};
    tm_err err = TM_EOK;
    s.cnt = tm__calloc_n((size_t)ns + 1, sizeof *s.cnt);
    s.queue = tm__malloc_n((size_t)ns + 1, sizeof *s.queue);
    s.dist = tm__calloc_n((size_t)ns + 1, sizeof *s.dist);
    s.d = tm__malloc_n((size_t)ns + 1, sizeof *s.d);
    s.sw = tm__malloc_n((size_t)ns * (size_t)nw + 1, sizeof *s.sw);
    if (!s.cnt || !s.queue || !s.dist || !s.d || !s.sw) {
        err = tm__nomem(ctx);
        goto out;
    }
    /* the top switch: the highest level with enough free nodes, the last
     * such in file order (one node weight) */
    for (int32_t i = 0; i < ns; i++) {
        s.cnt[i] = popcount_and(t->bits + (size_t)i * nw, avail, nw);
        if (s.cnt[i] >= rem && (top == -1 || t->level[i] >= t->level[top]))
            top = i;
    }
    if (top == -1) {
        err = tm__fail(ctx, TM_EINFEASIBLE, "slurm-tree: no switch holds %d free nodes (Slurm "
                       "would keep the job pending)", n);
        goto out;
    }
    /* every switch's free nodes under the top switch */
    for (int32_t i = 0; i < ns; i++) {
        for (int32_t w = 0; w < nw; w++)
            s.sw[(size_t)i * nw + w] = t->bits[(size_t)i * nw + w] & avail[w] &
                                       t->bits[(size_t)top * nw + w];
        s.cnt[i] = popcount_and(s.sw + (size_t)i * nw, s.sw + (size_t)i * nw, nw);
    }
    /* leaves one at a time, nearest the ones taken, best fit */
    prev = rem + 1;
    while (rem > 0 && prev != rem) {
        int32_t best = -1;
        prev = rem;
        for (int32_t i = 0; i < ns; i++)
            if (t->level[i] == 0)
                choose_best(t, s.dist, s.cnt, rem, i, &best);
        if (best == -1)
            break;
        add_dist(t, best, s.dist, s.d, s.queue);
        for (int32_t r = 0; r < t->n_nodes && rem > 0; r++)
            if (bit(s.sw + (size_t)best * nw, r) && !chosen[r]) {
                chosen[r] = 1;
                rem--;
            }
        s.cnt[best] = 0; /* used all */
    }
    if (rem > 0)
        err = tm__fail(ctx, TM_EINFEASIBLE, "slurm-tree: %d of %d nodes found under the top "
                       "switch", n - rem, n);
out:
    free(s.cnt);
    free(s.queue);
    free(s.dist);
    free(s.d);
    free(s.sw);
    return err;
}

/* Without a topology: runs of consecutive free nodes, the smallest that
 * fits first, else the largest; nodes from the start of the run. */
static tm_err consec_pick(tm_ctx *ctx, const tm_slurm_tree *t, const uint64_t *avail, int32_t n,
                          uint8_t *chosen)
{
    int32_t *start = tm__malloc_n((size_t)t->n_nodes + 1, sizeof *start), runs = 0, rem = n;
    int32_t *len = tm__malloc_n((size_t)t->n_nodes + 1, sizeof *len);
    if (!start || !len) {
        free(start);
        free(len);
        return tm__nomem(ctx);
    }
    for (int32_t r = 0; r < t->n_nodes; r++) {
        if (!bit(avail, r))
            continue;
        if (runs && start[runs - 1] + len[runs - 1] == r)
            len[runs - 1]++;
        else
            start[runs] = r, len[runs++] = 1;
    }
    while (rem > 0) {
        int32_t best = -1;
        bool best_ok = false;
        for (int32_t i = 0; i < runs; i++) {
            bool ok = len[i] >= rem;
            if (!len[i])
                continue;
            if (best < 0 || (ok && !best_ok) || (ok && len[i] < len[best]) ||
                (!ok && len[i] > len[best]))
                best = i, best_ok = ok;
        }
        if (best < 0)
            break;
        for (int32_t r = start[best]; r < start[best] + len[best] && rem > 0; r++, rem--)
            chosen[r] = 1;
        len[best] = 0;
    }
    free(start);
    free(len);
    if (rem > 0)
        return tm__fail(ctx, TM_EINFEASIBLE, "slurm-tree: %d nodes asked, %d free", n, n - rem);
    return TM_EOK;
}

tm_err tm_slurm_pick(tm_ctx *ctx, const tm_slurm_tree *t, const int32_t *free_hosts,
                     int32_t n_free, int32_t n, int32_t *out)
{
    uint64_t *avail = tm__calloc_n((size_t)(t->n_nodes + 63) / 64 + 1, sizeof *avail);
    uint8_t *chosen = tm__calloc_n((size_t)t->n_nodes + 1, 1);
    int32_t k = 0;
    tm_err err = TM_EOK;
    if (!avail || !chosen) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t i = 0; i < n_free; i++) {
        int32_t v = free_hosts[i];
        int32_t r = v >= 0 && v < t->nv ? t->rank[v] : -1;
        if (r < 0) {
            err = tm__fail(ctx, TM_EUSAGE, "slurm-tree: free vertex %d is not a host", v);
            goto out;
        }
        avail[r / 64] |= UINT64_C(1) << (r % 64);
    }
    if (n < 1 || n > n_free) {
        err = tm__fail(ctx, TM_EINFEASIBLE, "slurm-tree: %d nodes asked, %d free", n, n_free);
        goto out;
    }
    err = t->n_blocks ? tm__slurm_block_pick(ctx, t, avail, n, chosen)
          : t->n_sw    ? tree_pick(ctx, t, avail, n, chosen)
                       : consec_pick(ctx, t, avail, n, chosen);
    for (int32_t r = 0; !err && r < t->n_nodes; r++)
        if (chosen[r])
            out[k++] = t->order[r];
out:
    free(avail);
    free(chosen);
    return err;
}
