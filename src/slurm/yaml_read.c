/*
 * yaml_read.c - topology.yaml (Slurm 25.05 and later; topology.yaml(5),
 * read by Slurm's data_parser: TOPOLOGY_CONF_ARRAY in
 * src/plugins/data_parser/v0.0.43/parsers.c): a list of topologies (or a
 * single one), each a mapping with "topology" (its name),
 * "cluster_default" and exactly one of
 *
 *   tree:   {switches: [{switch: S, children: HOSTLIST | nodes: HOSTLIST}, ...]}
 *   block:  {block_sizes: [N, ...], blocks: [{block: B, nodes: HOSTLIST}, ...]}
 *   flat:   true (or a mapping of options)
 *
 * (ring and torus3d, 26.05's, are read but not emulated).  Parsed by
 * libyaml (yaml_parser_load: a document of nodes with their lines); the
 * chosen topology's records go to the builders of tree_read.c and
 * block_build.c, which check them as for topology.conf.  Errors are
 * "name:line: what is wrong", the line of the node concerned.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "topo_int.h"
#include "../util/util.h"

typedef struct yr {
    tm_ctx *ctx;
    const char *name;
    yaml_document_t doc;
} yr;

static long line_of(const yaml_node_t *n)
{
    return (long)n->start_mark.line + 1;
}

static tm_err bad(const yr *r, const yaml_node_t *n, const char *what, const char *key)
{
    return tm__fail(r->ctx, TM_EINPUT, "%s:%ld: %s%s%s", r->name, n ? line_of(n) : 1L,
                    key ? key : "", key ? ": " : "", what);
}

static yaml_node_t *node(yr *r, int id)
{
    return yaml_document_get_node(&r->doc, id);
}

static const char *scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* The value of key in mapping m (NULL when absent). */
static yaml_node_t *member(yr *r, yaml_node_t *m, const char *key)
{
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
        const char *k = scalar(node(r, p->key));
        if (k && strcmp(k, key) == 0)
            return node(r, p->value);
    }
    return NULL;
}

/* Every key of mapping m is one of keys (NULL-terminated). */
static tm_err known_keys(yr *r, yaml_node_t *m, const char *const *keys, const char *where)
{
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
        yaml_node_t *kn = node(r, p->key);
        const char *k = scalar(kn);
        bool ok = false;
        for (const char *const *q = keys; k && *q && !ok; q++)
            ok = strcmp(k, *q) == 0;
        if (!ok)
            return tm__fail(r->ctx, TM_EINPUT, "%s:%ld: %s: unknown key '%s'", r->name,
                            line_of(kn), where, k ? k : "?");
        for (yaml_node_pair_t *o = m->data.mapping.pairs.start; o < p; o++)
            if (strcmp(scalar(node(r, o->key)) ? scalar(node(r, o->key)) : "", k) == 0)
                return tm__fail(r->ctx, TM_EINPUT, "%s:%ld: %s: '%s' given twice", r->name,
                                line_of(kn), where, k);
    }
    return TM_EOK;
}

/* A string member (NULL when absent; an error when not a scalar). */
static tm_err str(yr *r, yaml_node_t *m, const char *key, const char *where, char **out)
{
    yaml_node_t *v = member(r, m, key);
    *out = NULL;
    if (!v)
        return TM_EOK;
    if (!scalar(v) || !*scalar(v))
        return bad(r, v, "not a name or hostlist", key);
    (void)where;
    return (*out = tm__strdup(scalar(v))) ? TM_EOK : tm__nomem(r->ctx);
}

/* The items of a list (a lone mapping is a list of one, as Slurm reads it). */
static tm_err items(yr *r, yaml_node_t *v, const char *key, yaml_node_t ***out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (v->type == YAML_MAPPING_NODE) {
        if (!(*out = malloc(sizeof **out)))
            return tm__nomem(r->ctx);
        (*out)[(*n)++] = v;
        return TM_EOK;
    }
    if (v->type != YAML_SEQUENCE_NODE)
        return bad(r, v, "not a list", key);
    *out = tm__malloc_n((size_t)(v->data.sequence.items.top - v->data.sequence.items.start) + 1,
                        sizeof **out);
    if (!*out)
        return tm__nomem(r->ctx);
    for (yaml_node_item_t *i = v->data.sequence.items.start; i < v->data.sequence.items.top; i++)
        (*out)[(*n)++] = node(r, *i);
    return TM_EOK;
}

static tm_err tree(yr *r, const tm_net *net, yaml_node_t *v, tm_slurm_tree *t)
{
    static const char *const tree_keys[] = {"switches", NULL};
    static const char *const sw_keys[] = {"switch", "children", "nodes", NULL};
    yaml_node_t **it = NULL, *list;
    size_t n = 0, k = 0;
    tm__swline *sw = NULL;
    tm_err err;
    if (v->type != YAML_MAPPING_NODE)
        return bad(r, v, "not a mapping with switches:", "tree");
    if ((err = known_keys(r, v, tree_keys, "tree")))
        return err;
    if (!(list = member(r, v, "switches")))
        return bad(r, v, "no switches (Slurm: \"No switches configured\")", "tree");
    if ((err = items(r, list, "switches", &it, &n)))
        return err;
    if (!(sw = tm__calloc_n(n + 1, sizeof *sw)))
        err = tm__nomem(r->ctx);
    for (; !err && k < n; k++) {
        yaml_node_t *m = it[k];
        if (m->type != YAML_MAPPING_NODE) {
            err = bad(r, m, "not a mapping (switch:, children: or nodes:)", "switches");
            break;
        }
        sw[k].line = line_of(m);
        if ((err = known_keys(r, m, sw_keys, "switch")) ||
            (err = str(r, m, "switch", "switch", &sw[k].name)) ||
            (err = str(r, m, "children", "switch", &sw[k].switches)) ||
            (err = str(r, m, "nodes", "switch", &sw[k].nodes)))
            break;
        if (!sw[k].name)
            err = bad(r, m, "a switch without its name (switch:)", NULL);
        else if (strlen(sw[k].name) > 64)
            err = bad(r, m, "a switch name longer than 64 characters", sw[k].name);
        else if (sw[k].nodes && sw[k].switches)
            err = tm__fail(r->ctx, TM_EINPUT, "%s:%ld: switch %s has both child switches and "
                           "nodes", r->name, sw[k].line, sw[k].name);
        else if (!sw[k].nodes && !sw[k].switches)
            err = tm__fail(r->ctx, TM_EINPUT, "%s:%ld: switch %s has neither child switches "
                           "nor nodes", r->name, sw[k].line, sw[k].name);
        for (size_t j = 0; !err && j < k; j++)
            if (strcmp(sw[j].name, sw[k].name) == 0)
                err = tm__fail(r->ctx, TM_EINPUT, "%s:%ld: switch %s has already been defined "
                               "(line %ld)", r->name, sw[k].line, sw[k].name, sw[j].line);
    }
    if (!err)
        err = tm__slurm_tree_records(r->ctx, net, r->name, sw, n, t);
    for (size_t j = 0; sw && j < n; j++) {
        free(sw[j].name);
        free(sw[j].nodes);
        free(sw[j].switches);
    }
    free(sw);
    free(it);
    return err;
}

static tm_err block(yr *r, const tm_net *net, yaml_node_t *v, tm_slurm_tree *t)
{
    static const char *const block_keys[] = {"block_sizes", "blocks", NULL};
    static const char *const b_keys[] = {"block", "nodes", NULL};
    yaml_node_t **it = NULL, *list, *sz;
    size_t n = 0, k = 0, len = 0;
    tm__blockline *bl = NULL;
    char *sizes = NULL;
    long sizes_line = 0;
    tm_err err;
    if (v->type != YAML_MAPPING_NODE)
        return bad(r, v, "not a mapping with block_sizes: and blocks:", "block");
    if ((err = known_keys(r, v, block_keys, "block")))
        return err;
    if ((sz = member(r, v, "block_sizes")) && sz->type != YAML_SEQUENCE_NODE)
        return bad(r, sz, "not a list of sizes", "block_sizes");
    if (sz && sz->data.sequence.items.top > sz->data.sequence.items.start) {
        size_t cnt = (size_t)(sz->data.sequence.items.top - sz->data.sequence.items.start);
        if (!(sizes = calloc(cnt * 24 + 1, 1)))
            return tm__nomem(r->ctx);
        sizes_line = line_of(sz);
        for (yaml_node_item_t *i = sz->data.sequence.items.start; i < sz->data.sequence.items.top;
             i++) {
            const char *s = scalar(node(r, *i));
            if (!s || strlen(s) > 20 || strchr(s, ',')) {
                free(sizes);
                return bad(r, node(r, *i), "not a size in nodes", "block_sizes");
            }
            len += (size_t)sprintf(sizes + len, "%s%s", len ? "," : "", s);
        }
    }
    if (!(list = member(r, v, "blocks"))) {
        free(sizes);
        return bad(r, v, "no blocks (Slurm: \"No blocks configured\")", "block");
    }
    if (!(err = items(r, list, "blocks", &it, &n)) && !(bl = tm__calloc_n(n + 1, sizeof *bl)))
        err = tm__nomem(r->ctx);
    for (; !err && k < n; k++) {
        yaml_node_t *m = it[k];
        if (m->type != YAML_MAPPING_NODE) {
            err = bad(r, m, "not a mapping (block: and nodes:)", "blocks");
            break;
        }
        bl[k].line = line_of(m);
        if ((err = known_keys(r, m, b_keys, "block")) ||
            (err = str(r, m, "block", "block", &bl[k].name)) ||
            (err = str(r, m, "nodes", "block", &bl[k].nodes)))
            break;
        if (!bl[k].name)
            err = bad(r, m, "a block without its name (block:)", NULL);
    }
    if (!err)
        err = tm__slurm_blocks_records(r->ctx, net, r->name, bl, n, sizes, sizes_line, t);
    for (size_t j = 0; bl && j < n; j++) {
        free(bl[j].name);
        free(bl[j].nodes);
    }
    free(bl);
    free(it);
    free(sizes);
    return err;
}

/* The topology mapping m: checked; its name, whether cluster_default. */
static tm_err topo_head(yr *r, yaml_node_t *m, const char **nm, bool *def, yaml_node_t **kind,
                        const char **kind_name)
{
    static const char *const keys[] = {"topology", "cluster_default", "tree", "block", "flat",
                                       "ring", "torus3d", NULL};
    static const char *const kinds[] = {"tree", "block", "flat", "ring", "torus3d"};
    yaml_node_t *d;
    tm_err err;
    if (m->type != YAML_MAPPING_NODE)
        return bad(r, m, "not a topology (a mapping with topology:)", NULL);
    if ((err = known_keys(r, m, keys, "topology")))
        return err;
    *nm = scalar(member(r, m, "topology"));
    if (!*nm || !**nm)
        return bad(r, m, "a topology without its name (topology:)", NULL);
    d = member(r, m, "cluster_default");
    *def = false;
    if (d) {
        const char *s = scalar(d);
        if (s && (strcasecmp(s, "true") == 0 || strcasecmp(s, "yes") == 0))
            *def = true;
        else if (!s || (strcasecmp(s, "false") != 0 && strcasecmp(s, "no") != 0))
            return bad(r, d, "not true or false", "cluster_default");
    }
    *kind = NULL;
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        yaml_node_t *v = member(r, m, kinds[k]);
        if (!v)
            continue;
        if (*kind)
            return tm__fail(r->ctx, TM_EINPUT, "%s:%ld: topology %s: %s and %s (one of tree, "
                            "block, flat, ring, torus3d)", r->name, line_of(v), *nm, *kind_name,
                            kinds[k]);
        *kind = v;
        *kind_name = kinds[k];
    }
    if (!*kind)
        return bad(r, m, "none of tree, block, flat, ring, torus3d", *nm);
    return TM_EOK;
}

static tm_err read_doc(yr *r, const tm_net *net, const char *topo, tm_slurm_tree *t)
{
    yaml_node_t *root = yaml_document_get_root_node(&r->doc), **it = NULL, *kind = NULL;
    const char *kind_name = NULL, *nm = NULL;
    size_t n = 0, chosen = SIZE_MAX, first_def = SIZE_MAX;
    bool def;
    tm_err err;
    if (!root)
        return tm__fail(r->ctx, TM_EINPUT, "%s:1: empty: no topology", r->name);
    if ((err = items(r, root, "the file", &it, &n)))
        return err;
    for (size_t k = 0; k < n && !err; k++) {
        if ((err = topo_head(r, it[k], &nm, &def, &kind, &kind_name)))
            break;
        for (size_t j = 0; j < k && !err; j++)
            if (strcmp(scalar(member(r, it[j], "topology")), nm) == 0)
                err = bad(r, it[k], "a topology named twice", nm);
        if (topo && strcmp(nm, topo) == 0)
            chosen = k;
        if (def && first_def == SIZE_MAX)
            first_def = k; /* Slurm sorts the cluster_default first (_cmp_tctx) */
    }
    if (!err && !topo)
        chosen = first_def != SIZE_MAX ? first_def : 0;
    if (!err && chosen == SIZE_MAX)
        err = tm__fail(r->ctx, TM_EINPUT, "%s: no topology named '%s'", r->name, topo);
    if (!err)
        err = topo_head(r, it[chosen], &nm, &def, &kind, &kind_name);
    free(it);
    if (err)
        return err;
    if (!(t->topology = tm__strdup(nm)))
        return tm__nomem(r->ctx);
    if (strcmp(kind_name, "tree") == 0)
        return tree(r, net, kind, t);
    if (strcmp(kind_name, "block") == 0)
        return block(r, net, kind, t);
    if (strcmp(kind_name, "flat") == 0)
        return TM_EOK; /* no plugin: Slurm's choice without a topology */
    return tm__fail(r->ctx, TM_EINPUT, "%s:%ld: topology %s uses topology/%s, which topomap "
                    "does not emulate (tree, block and flat)", r->name, line_of(kind), nm,
                    kind_name);
}

tm_err tm__slurm_yaml_read(tm_ctx *ctx, const tm_net *net, const char *text, size_t len,
                           const char *name, const char *topo, tm_slurm_tree *t)
{
    yaml_parser_t p;
    yr r;
    tm_err err;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.name = name;
    if (!yaml_parser_initialize(&p))
        return tm__nomem(ctx);
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    if (!yaml_parser_load(&p, &r.doc)) {
        err = p.error == YAML_MEMORY_ERROR
                  ? tm__nomem(ctx)
                  : tm__fail(ctx, TM_EINPUT, "%s:%ld: %s%s%s", name,
                             (long)(p.problem_mark.line + 1), p.problem ? p.problem : "bad YAML",
                             p.context ? " " : "", p.context ? p.context : "");
        yaml_parser_delete(&p);
        return err;
    }
    err = read_doc(&r, net, topo, t);
    yaml_document_delete(&r.doc);
    yaml_parser_delete(&p);
    return err;
}
