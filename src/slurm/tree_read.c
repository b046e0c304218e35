/*
 * tree_read.c - Slurm's view of the fabric, as its topology/tree plugin
 * (Slurm 22.05, Debian's slurmctld) builds it from topology.conf: one
 * record per "SwitchName=S Nodes=<hostlist>" or "SwitchName=S
 * Switches=<hostlist>" line, in file order; a leaf (Nodes=) has level 0,
 * an upper switch 1 + the highest level of its children and the union of
 * their nodes; a child's parent is the last line (in file order) that
 * lists it, and a switch no line lists has parent 0 (Slurm's records are
 * zeroed, and the selection walks up through it: tree_pick.c keeps
 * that); the distance between two switches is the number of child links
 * between them (computed where needed: Slurm keeps an n x n table).  Rules checked by Slurm and here: a line with both or
 * neither of Nodes= and Switches=, a switch named twice, a child that is
 * no switch or the switch itself, children that never resolve ("not a
 * tree").  Names of nodes the fabric lacks are ignored, as Slurm ignores
 * them (with a warning each).
 *
 * Nodes are numbered as Slurm numbers them (its bitmaps): in slurm.conf
 * order, taken here as the natural order of the hosts' names (node2
 * before node10), which it is when slurm.conf lists sorted hostlists.
 *
 * Hand-written: Slurm's parser is not a library.  topology.conf (and the
 * s_p parser Slurm reads it with): '#' starts a comment, a '\' at the end
 * of a line continues it, keys are case-insensitive, values hostlists.
 */
#include <stdlib.h>
#include <string.h>

#include "topo_int.h"
#include "../alloc/alloc_int.h"
#include "../util/util.h"

/* Slurm gives up resolving levels after 20 passes ("not a tree"). */
#define MAX_DEPTH 20

void tm_slurm_tree_free(tm_slurm_tree *t)
{
    if (!t)
        return;
    for (int32_t i = 0; t->name && i < t->n_sw; i++)
        free(t->name[i]);
    free(t->name);
    free(t->level);
    free(t->parent);
    free(t->adj_off);
    free(t->adj);
    free(t->bits);
    free(t->order);
    free(t->rank);
    for (int32_t i = 0; t->block_name && i < t->n_blocks; i++)
        free(t->block_name[i]);
    free(t->block_name);
    free(t->block_bits);
    free(t->topology);
    free(t);
}

int32_t tm_slurm_tree_switches(const tm_slurm_tree *t)
{
    return t->n_sw;
}

int32_t tm_slurm_tree_blocks(const tm_slurm_tree *t)
{
    return t->n_blocks;
}

/* ---- the natural order of the hosts -------------------------------------- */

/* "node2" < "node10": digit runs compare as numbers (longer run of
 * significant digits is larger), the rest byte by byte. */
int tm__slurm_natural_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
            const char *ea = a, *eb = b;
            size_t la, lb;
            while (*a == '0' && a[1] >= '0' && a[1] <= '9')
                a++;
            while (*b == '0' && b[1] >= '0' && b[1] <= '9')
                b++;
            for (ea = a; *ea >= '0' && *ea <= '9'; ea++)
                ;
            for (eb = b; *eb >= '0' && *eb <= '9'; eb++)
                ;
            la = (size_t)(ea - a), lb = (size_t)(eb - b);
            if (la != lb)
                return la < lb ? -1 : 1;
            for (; a < ea; a++, b++)
                if (*a != *b)
                    return *a < *b ? -1 : 1;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++, b++;
    }
    return *a ? 1 : *b ? -1 : 0;
}

static int cmp_hosts(const void *x, const void *y, void *net)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    int c = tm__slurm_natural_cmp(tm_net_name(net, a), tm_net_name(net, b));
    return c ? c : (a > b) - (a < b);
}

/* Every host of the net in Slurm's node order, and each one's rank. */
tm_err tm__slurm_node_order(tm_ctx *ctx, const tm_net *net, tm_slurm_tree *t)
{
    int32_t nv = tm_net_n_vertices(net);
    t->order = tm__malloc_n((size_t)tm_net_n_hosts(net) + 1, sizeof *t->order);
    t->rank = tm__malloc_n((size_t)nv + 1, sizeof *t->rank);
    if (!t->order || !t->rank)
        return tm__nomem(ctx);
    t->n_nodes = 0;
    t->nv = nv;
    for (int32_t v = 0; v < nv; v++) {
        t->rank[v] = -1;
        if (tm_net_kind(net, v) == TM_VERTEX_HOST)
            t->order[t->n_nodes++] = v;
    }
    qsort_r(t->order, (size_t)t->n_nodes, sizeof *t->order, cmp_hosts, (void *)net);
    for (int32_t i = 0; i < t->n_nodes; i++)
        t->rank[t->order[i]] = i;
    return TM_EOK;
}

/* ---- reading topology.conf ------------------------------------------------ */

typedef tm__swline swline;

typedef struct rd {
    tm_ctx *ctx;
    const tm_net *net;
    const char *name;
    swline *sw;
    size_t n, cap;
    tm__blockline *bl; /* topology/block: BlockName= lines */
    size_t nb, capb;
    char *sizes;       /* BlockSizes= */
    long sizes_line;
    char *text;  /* the current logical line (continuations joined) */
    size_t cap_text;
} rd;

static void rd_release(rd *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->sw[i].name);
        free(r->sw[i].nodes);
        free(r->sw[i].switches);
    }
    free(r->sw);
    for (size_t i = 0; i < r->nb; i++) {
        free(r->bl[i].name);
        free(r->bl[i].nodes);
    }
    free(r->bl);
    free(r->sizes);
    free(r->text);
}

static bool key_is(const char *k, size_t len, const char *want)
{
    return strlen(want) == len && strncasecmp(k, want, len) == 0;
}

/* Stores value v of key tok (klen long) in *dst unless it is there already. */
static tm_err store(rd *r, long line, char **dst, const char *tok, size_t klen, const char *v)
{
    if (*dst)
        return tm__fail(r->ctx, TM_EINPUT, "%s:%ld: %.*s given twice", r->name, line, (int)klen,
                        tok);
    return (*dst = tm__strdup(v)) ? TM_EOK : tm__nomem(r->ctx);
}

/* A topology/block line: "BlockName=B [Nodes=H]" or "BlockSizes=N[,N..]"
 * (Slurm 23.11 and later; BlockSizes from 24.05, which replaced 23.11's
 * BlockLevels). */
static tm_err block_line(rd *r, char *s, long line)
{
    tm__blockline b = {NULL, NULL, line};
    char *save = NULL;
    tm_err err = TM_EOK;
    for (char *tok = strtok_r(s, " \t", &save); tok && !err; tok = strtok_r(NULL, " \t", &save)) {
        char *eq = strchr(tok, '='), **dst = NULL;
        size_t klen = eq ? (size_t)(eq - tok) : strlen(tok);
        if (!eq || !eq[1]) {
            err = tm__fail(r->ctx, TM_EINPUT, "%s:%ld: '%s' is not key=value", r->name, line, tok);
            break;
        }
        if (key_is(tok, klen, "BlockName"))
            dst = &b.name;
        else if (key_is(tok, klen, "Nodes") && b.name)
            dst = &b.nodes;
        else if (key_is(tok, klen, "BlockSizes") && !b.name)
            dst = &r->sizes;
        else if (key_is(tok, klen, "SwitchName") || key_is(tok, klen, "Switches"))
            err = tm__fail(r->ctx, TM_EINPUT, "%s:%ld: %.*s in a file of blocks (topology/block "
                           "reads BlockName= and BlockSizes=; switches are topology/tree's)",
                           r->name, line, (int)klen, tok);
        else
            err = tm__fail(r->ctx, TM_EINPUT, "%s:%ld: unknown key '%.*s' (BlockName, Nodes, "
                           "BlockSizes)", r->name, line, (int)klen, tok);
        if (!err && !(err = store(r, line, dst, tok, klen, eq + 1)) && dst == &r->sizes)
            r->sizes_line = line;
    }
    if (!err && b.name && tm__grow((void **)&r->bl, &r->capb, r->nb + 1, sizeof *r->bl) < 0)
        err = tm__nomem(r->ctx);
    if (err || !b.name) {
        free(b.name);
        free(b.nodes);
        return err;
    }
    r->bl[r->nb++] = b;
    return TM_EOK;
}

/* One logical line: "SwitchName=S [Nodes=H] [Switches=H] [LinkSpeed=N]",
 * or a block line (block_line). */
static tm_err parse_line(rd *r, char *s, long line)
{
    const char *first = tm__skip_blank(s);
    if (strncasecmp(first, "BlockName=", 10) == 0 || strncasecmp(first, "BlockSizes=", 11) == 0) {
        if (r->n)
            return tm__fail(r->ctx, TM_EINPUT, "%s:%ld: a block in a file of switches "
                            "(topology/tree reads SwitchName=; blocks are topology/block's)",
                            r->name, line);
        return block_line(r, s, line);
    }
    if (r->nb || r->sizes)
        return tm__fail(r->ctx, TM_EINPUT, "%s:%ld: a switch in a file of blocks (topology/block "
                        "reads BlockName= and BlockSizes=; switches are topology/tree's)",
                        r->name, line);
    {
    swline w = {NULL, NULL, NULL, line};
    char *save = NULL;
    tm_err err = TM_EOK;
    for (char *tok = strtok_r(s, " \t", &save); tok && !err; tok = strtok_r(NULL, " \t", &save)) {
        char *eq = strchr(tok, '='), **dst = NULL;
        size_t klen = eq ? (size_t)(eq - tok) : strlen(tok);
        int64_t speed;
        if (!eq || !eq[1]) {
            err = tm__fail(r->ctx, TM_EINPUT, "%s:%ld: '%s' is not key=value", r->name, line, tok);
            break;
        }
        if (key_is(tok, klen, "SwitchName"))
            dst = &w.name;
        else if (key_is(tok, klen, "Nodes"))
            dst = &w.nodes;
        else if (key_is(tok, klen, "Switches"))
            dst = &w.switches;
        else if (key_is(tok, klen, "LinkSpeed")) {
            if (tm__str_to_i64(eq + 1, &speed) < 0 || speed < 0 || speed > UINT32_MAX)
                err = tm__fail(r->ctx, TM_EINPUT, "%s:%ld: LinkSpeed '%s' is not an integer",
                               r->name, line, eq + 1);
            continue;
        } else {
            err = tm__fail(r->ctx, TM_EINPUT, "%s:%ld: unknown key '%.*s' (SwitchName, Nodes, "
                           "Switches, LinkSpeed)", r->name, line, (int)klen, tok);
            break;
        }
        err = store(r, line, dst, tok, klen, eq + 1);
    }
    if (!err && !w.name)
        err = tm__fail(r->ctx, TM_EINPUT, "%s:%ld: a line without SwitchName=", r->name, line);
    if (!err && w.nodes && w.switches)
        err = tm__fail(r->ctx, TM_EINPUT, "%s:%ld: switch %s has both child switches and nodes",
                       r->name, line, w.name);
    if (!err && !w.nodes && !w.switches)
        err = tm__fail(r->ctx, TM_EINPUT, "%s:%ld: switch %s has neither child switches nor "
                       "nodes", r->name, line, w.name);
    for (size_t i = 0; !err && i < r->n; i++)
        if (strcmp(r->sw[i].name, w.name) == 0)
            err = tm__fail(r->ctx, TM_EINPUT, "%s:%ld: switch %s has already been defined (line "
                           "%ld)", r->name, line, w.name, r->sw[i].line);
    if (!err && tm__grow((void **)&r->sw, &r->cap, r->n + 1, sizeof *r->sw) < 0)
        err = tm__nomem(r->ctx);
    if (err) {
        free(w.name);
        free(w.nodes);
        free(w.switches);
        return err;
    }
    r->sw[r->n++] = w;
    return TM_EOK;
    }
}

static tm_err read_lines(rd *r, FILE *in)
{
    tm__lexer lx;
    size_t len = 0;
    long first = 0;
    bool line;
    tm_err err = TM_EOK;
    tm__lex_init(&lx, r->ctx, in, r->name);
    while (!err && !(err = tm__lex_next(&lx, &line)) && line) {
        char *hash = strchr(lx.buf, '#');
        size_t n;
        bool more;
        if (hash)
            *hash = '\0';
        n = strlen(lx.buf);
        more = n > 0 && lx.buf[n - 1] == '\\';
        if (more)
            lx.buf[--n] = ' ';
        if (!len)
            first = lx.line;
        if (tm__grow((void **)&r->text, &r->cap_text, len + n + 2, 1) < 0) {
            err = tm__nomem(r->ctx);
            break;
        }
        memcpy(r->text + len, lx.buf, n);
        len += n;
        r->text[len] = '\0';
        if (more)
            continue;
        if (*tm__skip_blank(r->text))
            err = parse_line(r, r->text, first);
        len = 0;
    }
    if (!err && len && *tm__skip_blank(r->text))
        err = parse_line(r, r->text, first);
    tm__lex_release(&lx);
    return err;
}

/* ---- the records ------------------------------------------------------------ */

static int32_t switch_index(const rd *r, const char *name)
{
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->sw[i].name, name) == 0)
            return (int32_t)i;
    return -1;
}

/* Sets the bits of the nodes of a leaf's Nodes= in bits (ranks); unknown
 * names warned about and ignored. */
static tm_err leaf_nodes(rd *r, tm_slurm_tree *t, size_t i, uint64_t *bits)
{
    char where[600], **names = NULL;
    size_t count = 0;
    tm_err err;
    snprintf(where, sizeof where, "%s:%ld: switch %s: Nodes", r->name, r->sw[i].line,
             r->sw[i].name);
    err = tm_hostlist_expand(r->ctx, r->sw[i].nodes, where, &names, &count);
    for (size_t k = 0; !err && k < count; k++) {
        int32_t v = tm_alloc_resolve_host(r->net, names[k]);
        if (v < 0 || tm_net_kind(r->net, v) != TM_VERTEX_HOST)
            tm__warn(r->ctx, "%s:%ld: switch %s: node '%s' is not a host of the topology; "
                     "ignored (Slurm ignores it too)", r->name, r->sw[i].line, r->sw[i].name,
                     names[k]);
        else
            bits[t->rank[v] / 64] |= UINT64_C(1) << (t->rank[v] % 64);
    }
    tm_hostlist_free(names, count);
    return err;
}

/* The children of upper switch i (indices), in hostlist order. */
static tm_err children(rd *r, size_t i, int32_t **out, size_t *n)
{
    char where[600], **names = NULL;
    size_t count = 0;
    tm_err err;
    snprintf(where, sizeof where, "%s:%ld: switch %s: Switches", r->name, r->sw[i].line,
             r->sw[i].name);
    *out = NULL;
    *n = 0;
    err = tm_hostlist_expand(r->ctx, r->sw[i].switches, where, &names, &count);
    if (!err && !(*out = tm__malloc_n(count + 1, sizeof **out)))
        err = tm__nomem(r->ctx);
    for (size_t k = 0; !err && k < count; k++) {
        int32_t j = switch_index(r, names[k]);
        if (j < 0 || (size_t)j == i)
            err = tm__fail(r->ctx, TM_EINPUT, "%s:%ld: switch %s has invalid child (%s)", r->name,
                           r->sw[i].line, r->sw[i].name, names[k]);
        else
            (*out)[(*n)++] = j;
    }
    tm_hostlist_free(names, count);
    return err;
}

/* Levels and node sets: leaves first, then upper switches as their
 * children resolve (Slurm's passes). */
typedef struct build {
    int32_t **kids;
    size_t *n_kids;
} build;

static tm_err resolve_levels(rd *r, tm_slurm_tree *t, build *b)
{
    size_t nw = (size_t)t->words;
    for (int depth = 1;; depth++) {
        bool resolved = true;
        for (int32_t i = 0; i < t->n_sw; i++) {
            if (t->level[i] != -1)
                continue;
            int32_t lv = -1;
            for (size_t k = 0; k < b->n_kids[i]; k++) {
                int32_t j = b->kids[i][k];
                if (t->level[j] == -1) {
                    lv = -2;
                    break;
                }
                lv = t->level[j] + 1 > lv ? t->level[j] + 1 : lv;
            }
            if (lv < 0) {
                resolved = false;
                continue;
            }
            t->level[i] = lv;
            for (size_t k = 0; k < b->n_kids[i]; k++)
                for (size_t q = 0; q < nw; q++)
                    t->bits[(size_t)i * nw + q] |= t->bits[(size_t)b->kids[i][k] * nw + q];
        }
        if (resolved)
            return TM_EOK;
        if (depth > MAX_DEPTH)
            return tm__fail(r->ctx, TM_EINPUT, "%s: switch configuration is not a tree (a cycle "
                            "through the Switches= lists)", r->name);
    }
}

/* The child links as an undirected graph (CSR), for the distances
 * between switches (tree_pick.c: a BFS from each switch chosen). */
static tm_err links(tm_ctx *ctx, tm_slurm_tree *t, const build *b)
{
    int32_t n = t->n_sw, *at;
    size_t m = 0;
    for (int32_t i = 0; i < n; i++)
        m += b->n_kids[i];
    t->adj_off = tm__calloc_n((size_t)n + 1, sizeof *t->adj_off);
    t->adj = tm__malloc_n(2 * m + 1, sizeof *t->adj);
    at = tm__calloc_n((size_t)n + 1, sizeof *at);
    if (!t->adj_off || !t->adj || !at) {
        free(at);
        return tm__nomem(ctx);
    }
    for (int32_t i = 0; i < n; i++)
        for (size_t k = 0; k < b->n_kids[i]; k++)
            at[i]++, at[b->kids[i][k]]++;
    for (int32_t i = 0; i < n; i++)
        t->adj_off[i + 1] = t->adj_off[i] + at[i];
    for (int32_t i = 0; i < n; i++)
        at[i] = t->adj_off[i];
    for (int32_t i = 0; i < n; i++)
        for (size_t k = 0; k < b->n_kids[i]; k++) {
            t->adj[at[i]++] = b->kids[i][k];
            t->adj[at[b->kids[i][k]]++] = i;
        }
    free(at);
    return TM_EOK;
}

static tm_err records(rd *r, tm_slurm_tree *t)
{
    size_t nw;
    build b = {0};
    tm_err err = TM_EOK;
    t->n_sw = (int32_t)r->n;
    t->name = tm__calloc_n(r->n + 1, sizeof *t->name);
    t->level = tm__malloc_n(r->n + 1, sizeof *t->level);
    t->parent = tm__calloc_n(r->n + 1, sizeof *t->parent);
    b.kids = tm__calloc_n(r->n + 1, sizeof *b.kids);
    b.n_kids = tm__calloc_n(r->n + 1, sizeof *b.n_kids);
    t->words = (t->n_nodes + 63) / 64;
    nw = (size_t)t->words;
    t->bits = tm__calloc_n(r->n * nw + 1, sizeof *t->bits);
    if (!t->name || !t->level || !t->parent || !b.kids || !b.n_kids || !t->bits) {
        err = tm__nomem(r->ctx);
        goto out;
    }
    for (size_t i = 0; i < r->n && !err; i++) {
        t->level[i] = r->sw[i].nodes ? 0 : -1;
        if (r->sw[i].nodes)
            err = leaf_nodes(r, t, i, t->bits + i * nw);
    }
    for (size_t i = 0; i < r->n && !err; i++)
        if (r->sw[i].switches)
            err = children(r, i, &b.kids[i], &b.n_kids[i]);
    if (!err)
        err = resolve_levels(r, t, &b);
    /* the parent of a child: the last line listing it */
    for (int32_t i = 0; !err && i < t->n_sw; i++)
        for (size_t k = 0; k < b.n_kids[i]; k++)
            t->parent[b.kids[i][k]] = i;
    if (!err)
        err = links(r->ctx, t, &b);
    for (size_t i = 0; i < r->n && !err; i++) { /* the names move to the tree */
        t->name[i] = r->sw[i].name;
        r->sw[i].name = NULL;
    }
out:
    for (size_t i = 0; b.kids && i < r->n; i++)
        free(b.kids[i]);
    free(b.kids);
    free(b.n_kids);
    return err;
}

tm_err tm__slurm_tree_records(tm_ctx *ctx, const tm_net *net, const char *name,
                              tm__swline *sw, size_t n, tm_slurm_tree *t)
{
    rd r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.net = net;
    r.name = name;
    r.sw = sw;
    r.n = n;
    if (n == 0)
        return tm__fail(ctx, TM_EINPUT, "%s: no switch (Slurm: \"No switches configured\")",
                        name);
    return records(&r, t);
}

tm_err tm__slurm_conf_text(tm_ctx *ctx, const tm_net *net, const char *text, size_t len,
                           const char *name, tm_slurm_tree *t)
{
    FILE *f = fmemopen((void *)text, len ? len : 1, "r");
    tm_err err;
    if (!f)
        return tm__nomem(ctx);
    err = tm__slurm_conf_read(ctx, net, f, name, t);
    fclose(f);
    return err;
}

tm_err tm__slurm_conf_read(tm_ctx *ctx, const tm_net *net, FILE *in, const char *name,
                           tm_slurm_tree *t)
{
    rd r;
    tm_err err;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.net = net;
    r.name = name;
    err = read_lines(&r, in);
    if (!err && r.n == 0 && r.nb == 0 && !r.sizes)
        err = tm__fail(ctx, TM_EINPUT, "%s:1: no SwitchName= line, nor BlockName= (Slurm: \"No "
                       "switches configured\")", name);
    if (!err && r.n)
        err = records(&r, t);
    else if (!err)
        err = tm__slurm_blocks_records(ctx, net, name, r.bl, r.nb, r.sizes, r.sizes_line, t);
    rd_release(&r);
    return err;
}

tm_err tm_slurm_topology_from_net(tm_ctx *ctx, const tm_net *net, const tm_slurm_opts *opts,
                                  tm_slurm_tree **out)
{
    tm_slurm_opts so = opts ? *opts : (tm_slurm_opts)TM_SLURM_OPTS_INIT;
    tm_slurm_tree *t = tm__calloc_n(1, sizeof *t);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = NULL;
    tm_err err;
    *out = NULL;
    if (!t)
        return tm__nomem(ctx);
    so.yaml = false;
    so.topologies = NULL;
    err = tm__slurm_node_order(ctx, net, t);
    /* no switches, no tree: Slurm without a topology plugin */
    if (!err && tm_net_n_switches(net) > 0) {
        if (!(f = open_memstream(&buf, &len)))
            err = tm__nomem(ctx);
        if (!err)
            err = tm_slurm_topology_write(ctx, net, &so, f);
        if (f && fclose(f) != 0 && !err)
            err = tm__nomem(ctx);
        if (!err)
            err = tm__slurm_conf_text(ctx, net, buf, len, so.plugin == TM_SLURM_BLOCK
                                      ? "topology.conf (topo export --format slurm-block)"
                                      : "topology.conf (topo export --format slurm)", t);
    }
    free(buf);
    if (err) {
        tm_slurm_tree_free(t);
        return err;
    }
    *out = t;
    return TM_EOK;
}

tm_err tm_slurm_tree_from_net(tm_ctx *ctx, const tm_net *net, tm_slurm_tree **out)
{
    return tm_slurm_topology_from_net(ctx, net, NULL, out);
}
