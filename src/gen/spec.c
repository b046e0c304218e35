/*
 * spec.c - generator spec strings: "<generator>:<items>", items separated
 * by commas, each "key=value" except the positional shape of torus, mesh
 * and hypercube.  Parses and validates the whole spec (unknown or repeated
 * options, numbers, ranges, the host name pattern) before the generator
 * adds anything, dispatches to the generator and supplies the help text.
 *
 * Why hand-written: the grammar is tiny and the messages must name exactly
 * which item is wrong; getsubopt() would modify the caller's string and
 * cannot report repeated keys.
 */
#include <stdlib.h>
#include <string.h>

#include "gen_int.h"

#define SPEC_MAX_LEN 4096

typedef struct gen_def {
    const char *name;
    bool shape; /* first item is a positional shape */
    tm_err (*build)(tm__gen *g);
    const char *const *keys; /* NULL-terminated; slots and hostfmt are implied */
} gen_def;

static const char *const keys_grid[] = {"cap", NULL};
static const char *const keys_fattree[] = {"k", "n", "rails", "cap", "hostcap", "upcap", NULL};
static const char *const keys_clos2[] = {"leaves", "hosts_per_leaf", "spines", "uplinks",
                                         "cap", "hostcap", "upcap", NULL};
static const char *const keys_clos3[] = {"pods", "leaves", "hosts_per_leaf", "spines",
                                         "uplinks", "supers", "spine_uplinks", "cap",
                                         "hostcap", "upcap", "topcap", NULL};
static const char *const keys_percs[] = {"supernodes", "dlinks", "dseed", "cap",
                                         "llcap", "lrcap", "dcap", NULL};
static const char *const keys_dragonfly[] = {"a", "p", "h", "g", "cap",
                                             "hostcap", "localcap", "globalcap", NULL};
static const char *const keys_common[] = {"slots", "hostfmt", NULL};

static const gen_def gens[] = {
    {"torus", true, tm__gen_torus, keys_grid},
    {"mesh", true, tm__gen_mesh, keys_grid},
    {"hypercube", true, tm__gen_hypercube, keys_grid},
    {"fattree", false, tm__gen_fattree, keys_fattree},
    {"clos", false, tm__gen_clos2, keys_clos2},
    {"clos2", false, tm__gen_clos2, keys_clos2},
    {"clos3", false, tm__gen_clos3, keys_clos3},
    {"percs", false, tm__gen_percs, keys_percs},
    {"dragonfly", false, tm__gen_dragonfly, keys_dragonfly},
};
#define N_GENS (sizeof gens / sizeof gens[0])

static const char help_text[] =
    "  torus:8x8x8         k-D torus (up to 8 dimensions), hosts at the grid points\n"
    "  mesh:16x16          k-D mesh (no wrap-around)\n"
    "  hypercube:6         2^d hosts, d <= 24\n"
    "  fattree:k=4,n=3     k-ary n-tree: k^n hosts, n levels of k^(n-1) switches\n"
    "                      [hostcap=, upcap=, rails=R: R planes, a cable per host\n"
    "                      into each (multi-rail hosts)]\n"
    "  clos:leaves=32,hosts_per_leaf=16[,uplinks=8,spines=4]\n"
    "                      2-level folded Clos; uplinks < hosts_per_leaf tapers\n"
    "                      [hostcap=, upcap=]\n"
    "  clos3:pods=4,leaves=8,hosts_per_leaf=16[,uplinks=,spines=,spine_uplinks=,supers=]\n"
    "                      3-level folded Clos, super-spines in planes\n"
    "                      [hostcap=, upcap=, topcap=]\n"
    "  percs:supernodes=289[,dlinks=9,dseed=N]\n"
    "                      IBM PERCS as in Hoefler & Snir 2011: drawers of 8 hosts,\n"
    "                      supernodes of 4 drawers [llcap=24, lrcap=5, dcap=10]\n"
    "  dragonfly:h=4[,a=8,p=4,g=33]\n"
    "                      dragonfly (Kim et al. 2008), balanced a=2p=2h, g=a*h+1\n"
    "                      [hostcap=, localcap=, globalcap=]\n"
    "  all: slots=N (default 1), cap=G (all links, Gbit/s, default 1),\n"
    "       hostfmt=node%04d (default n%04d); details in docs/generators.md\n";

const char *tm_gen_help(void) { return help_text; }

static const gen_def *find_gen(const char *name, size_t len)
{
    for (size_t i = 0; i < N_GENS; i++)
        if (strlen(gens[i].name) == len && memcmp(gens[i].name, name, len) == 0)
            return &gens[i];
    return NULL;
}

bool tm_gen_is_spec(const char *s)
{
    const char *colon = s ? strchr(s, ':') : NULL;
    return colon && find_gen(s, (size_t)(colon - s)) != NULL;
}

/* Validates a host name pattern: printable non-blank characters, "%%" for
 * a literal percent sign and exactly one "%d" / "%Nd" / "%0Nd".  The
 * pattern is never handed to printf: a user-controlled format string is
 * the classic way to crash a program. */
static tm_err parse_hostfmt(tm__gen *g, const char *f, tm__gen_hostfmt *out)
{
    char *dst = out->pre;
    size_t len = 0;
    int convs = 0;
    memset(out, 0, sizeof *out);
    for (const char *p = f; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c <= ' ' || c == 0x7f)
            return tm__gen_fail(g, "hostfmt '%s' contains a blank or control character", f);
        if (c == '%' && p[1] == '%') {
            p++;
        } else if (c == '%') {
            int width = 0, nd = 0;
            bool zero = p[1] == '0';
            const char *q = p + 1 + zero;
            while (*q >= '0' && *q <= '9' && nd < 3) {
                width = width * 10 + (*q++ - '0');
                nd++;
            }
            if (*q != 'd' || width > 20 || convs++)
                return tm__gen_fail(g, "hostfmt '%s' must contain exactly one %%d, "
                                       "optionally with a width such as %%04d", f);
            if (width > 0 && !zero)
                return tm__gen_fail(g, "hostfmt '%s': a width must be zero-padded "
                                       "(%%0%dd), names cannot contain blanks", f, width);
            out->width = width;
            out->zero = zero;
            dst = out->post;
            len = 0;
            p = q;
            continue;
        }
        if (len + 1 >= sizeof out->pre)
            return tm__gen_fail(g, "hostfmt '%.40s...' is too long", f);
        dst[len++] = *p;
        dst[len] = '\0';
    }
    if (convs != 1)
        return tm__gen_fail(g, "hostfmt '%s' must contain exactly one %%d, "
                               "optionally with a width such as %%04d", f);
    return TM_EOK;
}

static void trim(char **s)
{
    char *b = *s, *e;
    while (*b == ' ' || *b == '\t')
        b++;
    e = b + strlen(b);
    while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
        *--e = '\0';
    *s = b;
}

static bool in_list(const char *const *list, const char *key)
{
    for (; *list; list++)
        if (strcmp(*list, key) == 0)
            return true;
    return false;
}

static tm_err unknown_option(tm__gen *g, const gen_def *def, const char *key)
{
    char known[256];
    size_t len = 0;
    const char *const *lists[2] = {def->keys, keys_common};
    known[0] = '\0';
    for (int l = 0; l < 2; l++)
        for (const char *const *k = lists[l]; *k; k++)
            len += (size_t)snprintf(known + len, sizeof known - len, "%s%s", len ? ", " : "",
                                    *k);
    return tm__gen_fail(g, "unknown option '%s' for %s (known: %s)", key, def->name, known);
}

/* Splits g->buf at commas into the shape and key=value items. */
static tm_err split_items(tm__gen *g, const gen_def *def)
{
    char *p = g->buf;
    bool first = true;
    trim(&p);
    if (!*p && !def->shape) /* "percs:" - the generator names what is missing */
        return TM_EOK;
    for (;;) {
        char *item = p, *comma = strchr(p, ','), *eq;
        if (comma)
            *comma = '\0';
        trim(&item);
        if (first && def->shape) {
            if (!*item || strchr(item, '='))
                return tm__gen_fail(g, "missing the %s before the options (e.g. %s)",
                                    strcmp(def->name, "hypercube") == 0 ? "dimension"
                                                                        : "dimensions",
                                    strcmp(def->name, "hypercube") == 0 ? "hypercube:6"
                                    : strcmp(def->name, "mesh") == 0    ? "mesh:16x16"
                                                                        : "torus:8x8x8");
            g->shape = item;
        } else if (!*item) {
            return tm__gen_fail(g, "empty item (stray comma?)");
        } else {
            char *key = item, *val;
            if (!(eq = strchr(item, '=')))
                return tm__gen_fail(g, "expected key=value, got '%s'", item);
            *eq = '\0';
            val = eq + 1;
            trim(&key);
            trim(&val);
            if (!in_list(def->keys, key) && !in_list(keys_common, key))
                return unknown_option(g, def, key);
            if (!*val)
                return tm__gen_fail(g, "option '%s' has no value", key);
            if (tm__gen_opt(g, key))
                return tm__gen_fail(g, "option '%s' given twice", key);
            if (g->n_items == TM_GEN_MAX_ITEMS)
                return tm__gen_fail(g, "too many options");
            g->items[g->n_items].key = key;
            g->items[g->n_items].val = val;
            g->n_items++;
        }
        first = false;
        if (!comma)
            break;
        p = comma + 1;
    }
    return TM_EOK;
}

static tm_err parse_common(tm__gen *g)
{
    const char *fmt = tm__gen_opt(g, "hostfmt");
    int64_t slots;
    tm_err err = tm__gen_int(g, "slots", 1, TM_GEN_MAX_SLOTS, 1, false, &slots, NULL);
    if (err)
        return err;
    g->slots = (int32_t)slots;
    if (fmt)
        return parse_hostfmt(g, fmt, &g->hostfmt);
    memset(&g->hostfmt, 0, sizeof g->hostfmt);
    strcpy(g->hostfmt.pre, "n");
    g->hostfmt.zero = true;
    g->hostfmt.width = -1; /* fixed by tm__gen_plan once the host count is known */
    return TM_EOK;
}

tm_err tm_gen_build(tm_ctx *ctx, const char *spec, const char *prefix, tm_net *net)
{
    tm__gen g;
    const gen_def *def;
    const char *colon;
    tm_err err;

    memset(&g, 0, sizeof g);
    g.ctx = ctx;
    g.net = net;
    g.spec = spec ? spec : "";
    g.prefix = prefix ? prefix : "";
    colon = strchr(g.spec, ':');
    if (!colon)
        return tm__gen_fail(&g, "expected <generator>:<parameters>");
    if (!(def = find_gen(g.spec, (size_t)(colon - g.spec))))
        return tm__fail(ctx, TM_EUSAGE,
                        "unknown generator '%.*s' (known: torus, mesh, hypercube, fattree, "
                        "clos, clos2, clos3, percs, dragonfly)",
                        (int)(colon - g.spec > 64 ? 64 : colon - g.spec), g.spec);
    g.gname = def->name;
    if (strlen(colon + 1) > SPEC_MAX_LEN)
        return tm__gen_fail(&g, "longer than %d characters", SPEC_MAX_LEN);
    if (strlen(g.prefix) > TM_GEN_MAX_NAME / 2)
        return tm__gen_fail(&g, "name prefix longer than %d characters", TM_GEN_MAX_NAME / 2);
    g.buf = tm__strdup(colon + 1);
    if (!g.buf)
        return tm__nomem(ctx);
    err = split_items(&g, def);
    if (!err)
        err = parse_common(&g);
    if (!err)
        err = def->build(&g);
    free(g.buf);
    return err;
}
