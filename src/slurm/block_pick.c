/*
 * block_pick.c - the nodes Slurm's topology/block plugin gives a job that
 * asks only for a node count (docs/slurm.md "Slurm's node choice,
 * emulated"), from the source of Slurm 25.11 (the same in 26.05 for such
 * jobs): eval_nodes_block() in src/plugins/topology/block/
 * eval_nodes_block.c, and the retry loop of common_topo_choose_nodes() in
 * src/plugins/topology/common/common_topo.c.  Nodes of one weight, one CPU
 * counted per node, no --segment, no required nodes.
 *
 * One evaluation, for n nodes:
 *  - the job's block level: ceil(log2(ceil(n / base size))), raised to the
 *    next enforced level (none: the whole set of blocks is one block); the
 *    "low-level" blocks (llblocks) are those of the highest enforced level
 *    below it, and the job may use at most ceil(n / llblock size) of them;
 *  - the block: among the blocks of the job's level (2^level consecutive
 *    base blocks) whose free nodes in their fullest allowed llblocks are
 *    enough, the one with the fewest free nodes (the last of equals);
 *  - then base blocks one at a time (_choose_best_bblock): one in an
 *    llblock already used first, else an llblock that holds the rest (the
 *    smallest such), else the fullest llblock; within those, a base block
 *    that holds the rest (the smallest), else the fullest; its free nodes
 *    in Slurm's order until the job has n.
 * When that falls short (the llblock limit), Slurm retries with the first
 * node it had taken left out, and so on (common_topo_choose_nodes); nodes
 * of equal resources are taken in their order (a stable sort).  When no
 * block holds enough, the job stays pending: TM_EINFEASIBLE.
 */
#include <stdlib.h>
#include <string.h>

#include "topo_int.h"
#include "../util/util.h"

#define MAX_LEVEL 15

enum { OK, BREAK, HINT, FAIL }; /* SLURM_SUCCESS, ESLURM_BREAK_EVAL, ..._RETRY_EVAL_HINT, error */

typedef struct bk {
    const tm_slurm_tree *t;
    int32_t nb;          /* base blocks */
    int32_t **member;    /* per block: its node ranks, ascending */
    int32_t *n_member;
    /* per evaluation */
    int32_t *on_bb, *on_ll, *on_block;
    uint8_t *required, *chosen, *in_block;
} bk;

static bool bit(const uint64_t *s, int32_t i)
{
    return (s[i / 64] >> (i % 64)) & 1;
}

/* bit_fls_from_bit / bit_ffs_from_bit over the enforced levels. */
static int fls_level(uint32_t levels, int from)
{
    for (int l = from > MAX_LEVEL ? MAX_LEVEL : from; l >= 0; l--)
        if (levels & (1u << l))
            return l;
    return -1;
}

static int ffs_level(uint32_t levels, int from)
{
    for (int l = from < 0 ? 0 : from; l <= MAX_LEVEL; l++)
        if (levels & (1u << l))
            return l;
    return -1;
}

/* _get_block_level */
static int block_level(const tm_slurm_tree *t, int32_t rem, int *ll_level)
{
    int32_t per = (rem + t->bblock_nodes - 1) / t->bblock_nodes;
    int level = 0;
    while ((INT64_C(1) << level) < per)
        level++;
    *ll_level = level > 0 ? fls_level(t->block_levels, level - 1) : 0;
    if (*ll_level < 0)
        *ll_level = 0;
    return ffs_level(t->block_levels, level);
}

static bool same_ll(int32_t a, int32_t b, int l)
{
    return (a >> l) == (b >> l); /* -1 >> l is -1: never an index's */
}

static int cmp_desc(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x < y) - (x > y);
}

typedef struct best {
    int32_t inx;
    bool fit, same;
} best;

/* _choose_best_bblock */
static void choose(const bk *k, int ll, int32_t rem, bool use_ll, int32_t i, best *b)
{
    bool fit = k->on_bb[i] >= rem, same = false;
    if (use_ll && !same_ll(b->inx, i, ll)) {
        int32_t lo = i & (int32_t)(~0u << ll), hi = i | (int32_t)~(~0u << ll);
        for (int32_t j = lo; j < k->nb && j <= hi && !same; j++)
            same = k->required[j] != 0;
        if (b->inx == -1 || (same && !b->same)) {
            *b = (best){i, fit, same};
            return;
        }
        if (!same && b->same)
            return;
        int32_t bc = k->on_ll[b->inx >> ll], c = k->on_ll[i >> ll];
        bool lfit = c >= rem, bfit = bc >= rem;
        if (lfit && !bfit) {
            *b = (best){i, fit, same};
            return;
        }
        if (!lfit && bfit)
            return;
        if (lfit && bfit) {
            if (c < bc) {
                *b = (best){i, fit, same};
                return;
            }
            if (c > bc)
                return;
        } else {
            if (c > bc) {
                *b = (best){i, fit, same};
                return;
            }
            if (c < bc)
                return;
        }
    }
    if (b->inx == -1 || (fit && !b->fit) ||
        (!fit && !b->fit && k->on_bb[i] >= k->on_bb[b->inx]) ||
        (fit && k->on_bb[i] <= k->on_bb[b->inx])) {
        b->inx = i;
        b->fit = fit;
    }
}

/* One eval_nodes_block() on the free nodes avail (ranks); the nodes taken
 * are marked in k->chosen (on OK and on HINT). */
static int eval(bk *k, const uint8_t *avail, int32_t n)
{
    const tm_slurm_tree *t = k->t;
    int ll, level = block_level(t, n, &ll);
    int32_t bbpb = level < 0 ? k->nb : (int32_t)1 << level, bbpll = (int32_t)1 << ll;
    int32_t block_cnt = level < 0 ? 1 : (k->nb + bbpb - 1) / bbpb;
    int32_t ll_size = bbpll * t->bblock_nodes, max_ll = (n + ll_size - 1) / ll_size;
    int32_t ll_cnt = (k->nb + bbpll - 1) / bbpll, chosen_block = -1, chosen_cnt = 0;
    int32_t rem = n, free_n = 0, prev;
    bool use_ll = bbpb != bbpll * max_ll;
    memset(k->chosen, 0, (size_t)t->n_nodes);
    for (int32_t r = 0; r < t->n_nodes; r++)
        free_n += avail[r];
    if (free_n < n)
        return BREAK; /* eval_nodes(): fewer nodes than min_nodes */
    memset(k->on_block, 0, (size_t)block_cnt * sizeof *k->on_block);
    memset(k->on_ll, 0, (size_t)ll_cnt * sizeof *k->on_ll);
    for (int32_t i = 0; i < k->nb; i++) {
        int32_t c = 0;
        for (int32_t q = 0; q < k->n_member[i]; q++)
            c += avail[k->member[i][q]];
        k->on_block[i / bbpb] += c;
        if (use_ll)
            k->on_ll[i / bbpll] += c;
    }
    for (int32_t b = 0; b < block_cnt; b++) {
        int32_t bnc = k->on_block[b], avail_bnc = bnc, union_n = 0;
        if (use_ll) {
            int32_t per = bbpb / bbpll, off = b * per, m;
            per = per < ll_cnt - off ? per : ll_cnt - off;
            qsort(k->on_ll + off, (size_t)(per > 0 ? per : 0), sizeof *k->on_ll, cmp_desc);
            m = max_ll < per ? max_ll : per;
            avail_bnc = 0;
            for (int32_t j = 0; j < m; j++)
                avail_bnc += k->on_ll[off + j];
        }
        /* the block's free nodes (its CPUs: one each) */
        memset(k->in_block, 0, (size_t)t->n_nodes);
        for (int32_t i = b * bbpb; i < k->nb && i < (b + 1) * bbpb; i++)
            for (int32_t q = 0; q < k->n_member[i]; q++)
                if (avail[k->member[i][q]] && !k->in_block[k->member[i][q]]++)
                    union_n++;
        if (avail_bnc < n || n > union_n)
            continue;
        if (chosen_block == -1 || bnc <= chosen_cnt) {
            chosen_block = b;
            chosen_cnt = bnc;
        }
    }
    if (chosen_block == -1)
        return BREAK;
    /* the chosen block's free nodes, and its base blocks' counts */
    memset(k->in_block, 0, (size_t)t->n_nodes);
    for (int32_t i = chosen_block * bbpb; i < k->nb && i < (chosen_block + 1) * bbpb; i++)
        for (int32_t q = 0; q < k->n_member[i]; q++)
            k->in_block[k->member[i][q]] = avail[k->member[i][q]];
    memset(k->required, 0, (size_t)k->nb);
    memset(k->on_ll, 0, (size_t)ll_cnt * sizeof *k->on_ll);
    for (int32_t i = 0; i < k->nb; i++) {
        k->on_bb[i] = 0;
        if (i / bbpb != chosen_block)
            continue;
        for (int32_t q = 0; q < k->n_member[i]; q++)
            k->on_bb[i] += k->in_block[k->member[i][q]];
        if (use_ll)
            k->on_ll[i / bbpll] += k->on_bb[i];
    }
    prev = rem + 1;
    while (prev != rem) {
        best b = {-1, false, true};
        prev = rem;
        for (int32_t i = chosen_block * bbpb; i < k->nb && i < (chosen_block + 1) * bbpb; i++)
            if (!k->required[i])
                choose(k, ll, rem, use_ll, i, &b);
        if (b.inx == -1 || (max_ll <= 0 && !b.same))
            break;
        k->required[b.inx] = 1;
        for (int32_t q = 0; q < k->n_member[b.inx]; q++) {
            int32_t r = k->member[b.inx][q];
            if (!k->in_block[r] || k->chosen[r])
                continue;
            k->chosen[r] = 1;
            if (--rem <= 0)
                return OK;
        }
        if (!b.same)
            max_ll--;
    }
    return rem <= 0 ? OK : HINT;
}

/* common_topo_choose_nodes(): evaluations with nodes left out in turn. */
static int choose_nodes(bk *k, uint8_t *orig, int32_t n)
{
    int32_t nn = k->t->n_nodes, res_cnt = 0, idx = 0, rem_nodes = 0, *sorted;
    bool need_test = false;
    int ec = eval(k, orig, n);
    if (ec == OK)
        return OK;
    if (!(sorted = tm__malloc_n((size_t)nn + 1, sizeof *sorted)))
        return -1;
    for (int32_t r = 0; r < nn; r++)
        if (orig[r]) {
            sorted[res_cnt++] = r; /* equal resources: their order (a stable sort) */
            rem_nodes++;
        }
    do {
        ec = eval(k, orig, n);
        if (ec == OK || ec == BREAK || rem_nodes <= n)
            break;
        if (ec == HINT) {
            int32_t tmp = idx;
            bool any = false;
            for (int32_t r = 0; r < nn && !any; r++)
                any = k->chosen[r];
            if (any) {
                while (tmp < res_cnt && !k->chosen[sorted[tmp]])
                    tmp++;
                if (tmp == res_cnt)
                    break;
                orig[sorted[tmp]] = 0;
                rem_nodes--;
                if (tmp == idx)
                    idx++;
                else
                    need_test = true;
                continue;
            }
        }
        while (need_test && idx < res_cnt && !orig[sorted[idx]])
            idx++;
        if (idx == res_cnt)
            break;
        orig[sorted[idx++]] = 0;
        rem_nodes--;
    } while (idx < res_cnt);
    free(sorted);
    return ec;
}

tm_err tm__slurm_block_pick(tm_ctx *ctx, const tm_slurm_tree *t, const uint64_t *avail_bits,
                            int32_t n, uint8_t *chosen)
{
    bk k;
    uint8_t *avail = tm__calloc_n((size_t)t->n_nodes + 1, 1);
    int32_t nb = t->n_blocks;
    tm_err err = TM_EOK;
    int ec;
    memset(&k, 0, sizeof k);
    k.t = t;
    k.nb = nb;
    k.member = tm__calloc_n((size_t)nb + 1, sizeof *k.member);
    k.n_member = tm__calloc_n((size_t)nb + 1, sizeof *k.n_member);
    k.on_bb = tm__calloc_n((size_t)nb + 1, sizeof *k.on_bb);
    k.on_ll = tm__calloc_n((size_t)nb + 1, sizeof *k.on_ll);
    k.on_block = tm__calloc_n((size_t)nb + 1, sizeof *k.on_block);
    k.required = tm__calloc_n((size_t)nb + 1, 1);
    k.chosen = tm__calloc_n((size_t)t->n_nodes + 1, 1);
    k.in_block = tm__calloc_n((size_t)t->n_nodes + 1, 1);
    if (!avail || !k.member || !k.n_member || !k.on_bb || !k.on_ll || !k.on_block ||
        !k.required || !k.chosen || !k.in_block) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t r = 0; r < t->n_nodes; r++)
        avail[r] = bit(avail_bits, r);
    for (int32_t i = 0; i < nb && !err; i++) {
        const uint64_t *s = t->block_bits + (size_t)i * (size_t)t->words;
        if (!(k.member[i] = tm__malloc_n((size_t)t->n_nodes + 1, sizeof **k.member)))
            err = tm__nomem(ctx);
        for (int32_t r = 0; !err && r < t->n_nodes; r++)
            if (bit(s, r))
                k.member[i][k.n_member[i]++] = r;
    }
    if (err)
        goto out;
    ec = choose_nodes(&k, avail, n);
    if (ec < 0)
        err = tm__nomem(ctx);
    else if (ec != OK)
        err = tm__fail(ctx, TM_EINFEASIBLE, "slurm-block: no block holds %d free nodes the way "
                       "topology/block takes them (Slurm would keep the job pending)", n);
    else
        memcpy(chosen, k.chosen, (size_t)t->n_nodes);
out:
    for (int32_t i = 0; k.member && i < nb; i++)
        free(k.member[i]);
    free(k.member);
    free(k.n_member);
    free(k.on_bb);
    free(k.on_ll);
    free(k.on_block);
    free(k.required);
    free(k.chosen);
    free(k.in_block);
    free(avail);
    return err;
}
