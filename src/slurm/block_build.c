/*
 * block_build.c - Slurm's view of a topology/block description (Slurm
 * 23.11 and later): base blocks in file order, each a set of nodes, the
 * base block size and the levels of aggregated blocks Slurm enforces, as
 * src/plugins/topology/block/block_record.c (25.11) builds them:
 *
 *   BlockSizes=N[,N..]  the first is the base block size; each one a
 *                       multiple of it by a power of two of at most 2^15
 *                       ("Invalid BlockSizes value"); its level is that
 *                       exponent.  Without BlockSizes, levels 0 to 4
 *                       (bit_nset(levels, 0, 4)) and the base block size is
 *                       the node count of the first block with nodes.
 *   BlockName=B Nodes=H a base block; a name given twice ("Block (B) has
 *                       already been defined"), no block ("No blocks
 *                       configured") and blocks without nodes and without
 *                       BlockSizes are errors, unknown node names warned
 *                       about and ignored, as Slurm does.
 *
 * Aggregated blocks are not stored: block_pick.c counts them from the
 * base blocks' order, as eval_nodes_block does.
 */
#include <stdlib.h>
#include <string.h>

#include "topo_int.h"
#include "topomap/alloc.h"
#include "../util/util.h"

#define MAX_BLOCK_LEVELS 16

/* BlockSizes: the base size and the levels' bits; TM_EINPUT as Slurm's
 * fatal "Invalid BlockSizes value". */
static tm_err sizes_of(tm_ctx *ctx, const char *name, const char *sizes, long line,
                       tm_slurm_tree *t)
{
    const char *p = sizes;
    while (*p) {
        int64_t v;
        char buf[32];
        size_t len = strcspn(p, ",");
        int level = 0;
        snprintf(buf, sizeof buf, "%.*s", (int)(len < 31 ? len : 31), p);
        if (len > 30 || tm__str_to_i64(buf, &v) < 0 || v <= 0 || v > INT32_MAX)
            return tm__fail(ctx, TM_EINPUT, "%s:%ld: invalid BlockSizes value '%s' (a size in "
                            "nodes)", name, line, buf);
        if (!t->bblock_nodes)
            t->bblock_nodes = (int32_t)v;
        if (v % t->bblock_nodes)
            return tm__fail(ctx, TM_EINPUT, "%s:%ld: invalid BlockSizes value %lld: not a "
                            "multiple of the base block size %d", name, line, (long long)v,
                            t->bblock_nodes);
        for (int64_t r = v / t->bblock_nodes; r > 1; r >>= 1, level++)
            if (r & 1)
                return tm__fail(ctx, TM_EINPUT, "%s:%ld: invalid BlockSizes value %lld: %lld "
                                "base blocks is not a power of two", name, line, (long long)v,
                                (long long)(v / t->bblock_nodes));
        if (level >= MAX_BLOCK_LEVELS)
            return tm__fail(ctx, TM_EINPUT, "%s:%ld: invalid BlockSizes value %lld: more than "
                            "2^%d base blocks", name, line, (long long)v, MAX_BLOCK_LEVELS - 1);
        t->block_levels |= 1u << level;
        p += len + (p[len] == ',');
    }
    if (!t->bblock_nodes)
        return tm__fail(ctx, TM_EINPUT, "%s:%ld: invalid BlockSizes value '' (a size in nodes)",
                        name, line);
    return TM_EOK;
}

/* The nodes of block i into its bits; names net lacks warned about. */
static tm_err block_nodes(tm_ctx *ctx, const tm_net *net, const char *name,
                          const tm__blockline *b, tm_slurm_tree *t, uint64_t *bits)
{
    char where[600], **names = NULL;
    size_t count = 0;
    tm_err err;
    snprintf(where, sizeof where, "%s:%ld: block %s: Nodes", name, b->line, b->name);
    err = tm_hostlist_expand(ctx, b->nodes, where, &names, &count);
    for (size_t k = 0; !err && k < count; k++) {
        int32_t v = tm_alloc_resolve_host(net, names[k]);
        if (v < 0 || tm_net_kind(net, v) != TM_VERTEX_HOST)
            tm__warn(ctx, "%s:%ld: block %s: node '%s' is not a host of the topology; ignored "
                     "(Slurm ignores it too)", name, b->line, b->name, names[k]);
        else
            bits[t->rank[v] / 64] |= UINT64_C(1) << (t->rank[v] % 64);
    }
    tm_hostlist_free(names, count);
    return err;
}

static int32_t count_bits(const uint64_t *b, int32_t words)
{
    int32_t c = 0;
    for (int32_t w = 0; w < words; w++)
        c += __builtin_popcountll(b[w]);
    return c;
}

tm_err tm__slurm_blocks_records(tm_ctx *ctx, const tm_net *net, const char *name,
                                const tm__blockline *bl, size_t n, const char *sizes,
                                long sizes_line, tm_slurm_tree *t)
{
    size_t nw;
    tm_err err = TM_EOK;
    if (n == 0)
        return tm__fail(ctx, TM_EINPUT, "%s:%ld: no BlockName= line (Slurm: \"No blocks "
                        "configured\")", name, sizes_line > 0 ? sizes_line : 1);
    if (n > INT32_MAX / 2)
        return tm__fail(ctx, TM_EINPUT, "%s: too many blocks", name);
    t->words = (t->n_nodes + 63) / 64;
    nw = (size_t)t->words;
    if (sizes)
        err = sizes_of(ctx, name, sizes, sizes_line, t);
    else
        t->block_levels = 0x1f; /* bit_nset(levels, 0, 4) */
    if (err)
        return err;
    t->block_name = tm__calloc_n(n + 1, sizeof *t->block_name);
    t->block_bits = tm__calloc_n(n * nw + 1, sizeof *t->block_bits);
    if (!t->block_name || !t->block_bits)
        return tm__nomem(ctx);
    for (size_t i = 0; i < n && !err; i++) {
        for (size_t j = 0; j < i && !err; j++)
            if (strcmp(bl[j].name, bl[i].name) == 0)
                err = tm__fail(ctx, TM_EINPUT, "%s:%ld: block (%s) has already been defined "
                               "(line %ld)", name, bl[i].line, bl[i].name, bl[j].line);
        if (!err && !(t->block_name[i] = tm__strdup(bl[i].name)))
            err = tm__nomem(ctx);
        t->n_blocks = (int32_t)i + (t->block_name[i] != NULL);
        if (!err && bl[i].nodes) {
            err = block_nodes(ctx, net, name, &bl[i], t, t->block_bits + i * nw);
            if (!err && !t->bblock_nodes)
                t->bblock_nodes = count_bits(t->block_bits + i * nw, t->words);
        }
    }
    if (!err && !t->bblock_nodes)
        err = tm__fail(ctx, TM_EINPUT, "%s: blocks do not contain any nodes and the BlockSizes "
                       "are not set", name);
    return err;
}
