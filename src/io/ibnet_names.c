/*
 * ibnet_names.c - vertex names for InfiniBand nodes, and the build step
 * that assigns every node to a host or switch vertex (docs/ibnetdiscover.md):
 *
 * - CA: hostname = first word of the node description (or of the name the
 *   node-name map gives for its node GUID or one of its port GUIDs).
 *   Firmware-default descriptions ("MT25408 ConnectX Mellanox
 *   Technologies", first word MT<digits> or "Mellanox") carry no hostname:
 *   such a CA is named by its id ("H-<guid16>") with a warning.
 *   keep_hcas_separate: "<host>/<rest of the description>" with blanks
 *   turned into '_' ("node001/mlx5_0"), or "<host>/<id>".
 * - SHARP "Aggregation Node" CAs are not hosts (excluded).
 * - Switch and router: "MF0;<name>:<model>/U1" -> <name>; else a one-word
 *   description; else (or when that name is not unique) its id
 *   ("S-<guid16>", the name Slurm topology.conf tools use).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ibnet_int.h"

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

static const char *first_word(const char *s, size_t *len)
{
    const char *t;
    while (is_blank(*s))
        s++;
    t = s;
    while (*s && !is_blank(*s))
        s++;
    *len = (size_t)(s - t);
    return t;
}

bool tm__ib_is_sharp(const char *desc) { return desc && strstr(desc, "Aggregation Node"); }

/* Firmware defaults: "MT25408 ConnectX Mellanox Technologies",
 * "MT4123 ConnectX6   Mellanox Technologies", "Mellanox Technologies ...". */
bool tm__ib_is_generic(const char *desc)
{
    size_t len;
    const char *w;
    if (!desc)
        return true;
    w = first_word(desc, &len);
    if (len == 0)
        return true;
    if (len >= 3 && w[0] == 'M' && w[1] == 'T') {
        size_t i = 2;
        while (i < len && isdigit((unsigned char)w[i]))
            i++;
        if (i == len)
            return true;
    }
    return len == 8 && !strncmp(w, "Mellanox", 8);
}

char *tm__ib_host_name(const char *eff, const char *id, bool separate, bool *generic)
{
    size_t hlen, rlen = 0, n;
    const char *h, *r;
    char *out;
    *generic = tm__ib_is_generic(eff);
    if (*generic)
        return tm__strdup(id);
    h = first_word(eff, &hlen);
    if (!separate)
        return tm__strndup(h, hlen);
    r = h + hlen;
    while (is_blank(*r))
        r++;
    rlen = strlen(r);
    while (rlen && is_blank(r[rlen - 1]))
        rlen--;
    if (!rlen) {
        r = id;
        rlen = strlen(id);
    }
    n = hlen + 1 + rlen;
    out = malloc(n + 1);
    if (!out)
        return NULL;
    memcpy(out, h, hlen);
    out[hlen] = '/';
    for (size_t i = 0; i < rlen; i++)
        out[hlen + 1 + i] = is_blank(r[i]) ? '_' : r[i];
    out[n] = '\0';
    return out;
}

char *tm__ib_switch_name(const char *eff, const char *id)
{
    size_t len;
    const char *w;
    if (eff && !strncmp(eff, "MF0;", 4)) {
        const char *s = eff + 4, *e = s;
        while (*e && *e != ':' && !is_blank(*e) && *e != '"')
            e++;
        if (e > s && (*e == ':' || !*e))
            return tm__strndup(s, (size_t)(e - s));
    }
    if (eff) {
        w = first_word(eff, &len);
        if (len && !w[len] && w == eff && !memchr(w, '"', len))
            return tm__strndup(w, len);
    }
    return tm__strdup(id);
}

int tm__ib_natural_cmp(const char *a, const char *b)
{
    const char *a0 = a, *b0 = b;
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            const char *ea, *eb;
            size_t la, lb;
            int c;
            while (*a == '0' && isdigit((unsigned char)a[1]))
                a++;
            while (*b == '0' && isdigit((unsigned char)b[1]))
                b++;
            for (ea = a; isdigit((unsigned char)*ea); ea++)
                ;
            for (eb = b; isdigit((unsigned char)*eb); eb++)
                ;
            la = (size_t)(ea - a);
            lb = (size_t)(eb - b);
            if (la != lb)
                return la < lb ? -1 : 1;
            c = memcmp(a, b, la);
            if (c)
                return c < 0 ? -1 : 1;
            a = ea;
            b = eb;
        } else {
            if (*a != *b)
                return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
            a++;
            b++;
        }
    }
    if (*a || *b)
        return *a ? 1 : -1;
    return strcmp(a0, b0); /* "n01" vs "n1": still a total order */
}

/* Effective description: the node-name map's entry for the node GUID or
 * one of its port GUIDs, else the dump's description. */
static const char *effective_desc(const tm__ib_builder *b, int32_t i)
{
    const tm__ib_dump *d = b->d;
    const tm__ib_node *n = &d->nodes[i];
    const char *m;
    if (!b->opts->nodemap)
        return n->desc;
    if (n->guid && (m = tm_nodemap_get(b->opts->nodemap, n->guid)))
        return m;
    for (int32_t p = 1; p <= n->nports; p++) {
        int32_t s = b->slot[n->port_off + p];
        if (s >= 0 && d->ports[s].port_guid &&
            (m = tm_nodemap_get(b->opts->nodemap, d->ports[s].port_guid)))
            return m;
    }
    return n->desc;
}

static bool has_links(const tm__ib_builder *b, const tm__ib_node *n)
{
    for (int32_t p = 1; p <= n->nports; p++)
        if (b->slot[n->port_off + p] >= 0)
            return true;
    return false;
}

static tm_err add_vtx(tm__ib_builder *b, char *name, int32_t node, bool host, int32_t *idx)
{
    if (tm__grow((void **)&b->v, &b->vcap, b->nv + 1, sizeof *b->v) < 0) {
        free(name);
        return tm__nomem(b->d->ctx);
    }
    b->v[b->nv].name = name;
    b->v[b->nv].node = node;
    b->v[b->nv].host = host;
    b->v[b->nv].id = -1;
    *idx = (int32_t)b->nv++;
    return TM_EOK;
}

/* A CA named by its id.  With a node-name map, say that the map was read
 * and lacks the CA's GUID: the warning then names the map and the GUID
 * to add (the CLI's summary lists every such GUID, warn_summary.c). */
static void warn_unnamed(const tm__ib_builder *b, const tm__ib_node *n, const char *eff,
                         const char *name)
{
    const tm__ib_dump *d = b->d;
    const tm_nodemap *m = b->opts->nodemap;
    if (!m) {
        tm__warn(d->ctx, "%s:%ld: CA \"%s\" has no hostname in its description \"%s\"; "
                 "named %s (give a node-name map)", d->name, n->line, n->id, eff ? eff : "",
                 name);
        return;
    }
    tm__warn(d->ctx, "%s:%ld: CA \"%s\" has no hostname in its description \"%s\", and the "
             "node-name map %s (read: %zu entries) has no line for its GUID 0x%016llx or "
             "a port GUID; named %s", d->name, n->line, n->id, eff ? eff : "",
             tm__nodemap_file(m), tm__nodemap_size(m), (unsigned long long)n->guid, name);
}

tm_err tm__ib_name_hosts(tm__ib_builder *b)
{
    tm__ib_dump *d = b->d;
    for (size_t i = 0; i < d->n_nodes; i++) {
        const tm__ib_node *n = &d->nodes[i];
        const char *eff;
        bool generic;
        char *name;
        int32_t idx, old;
        int rc;
        b->vof[i] = -1;
        if (n->type != TM_IB_CA)
            continue;
        if (d->format == 2 && !has_links(b, n))
            continue; /* -p: an unconnected CA port, not a node of its own */
        eff = effective_desc(b, (int32_t)i);
        if (tm__ib_is_sharp(n->desc) || tm__ib_is_sharp(eff)) {
            tm__log(d->ctx, TM_LOG_INFO, "%s:%ld: SHARP aggregation node \"%s\" is not a host",
                    d->name, n->line, n->id);
            continue;
        }
        name = tm__ib_host_name(eff, n->id, b->opts->keep_hcas_separate, &generic);
        if (!name)
            return tm__nomem(d->ctx);
        if (generic && n->guid_id)
            warn_unnamed(b, n, eff, name);
        rc = tm__strmap_put(&b->names, name, (int32_t)b->nv, &old);
        if (rc < 0) {
            free(name);
            return tm__nomem(d->ctx);
        }
        if (old >= 0 && b->opts->keep_hcas_separate && !generic) {
            /* two HCAs with the same description: fall back to the id */
            char *alt = malloc(strlen(name) + strlen(n->id) + 2);
            const char *slash = strchr(name, '/');
            if (!alt) {
                free(name);
                return tm__nomem(d->ctx);
            }
            sprintf(alt, "%.*s/%s", (int)(slash - name), name, n->id);
            free(name);
            name = alt;
            rc = tm__strmap_put(&b->names, name, (int32_t)b->nv, &old);
            if (rc < 0) {
                free(name);
                return tm__nomem(d->ctx);
            }
        }
        if (old >= 0) {
            if (!b->v[old].host || b->opts->keep_hcas_separate) {
                tm_err err = tm__ib_fail_at(d, n->line, "vertex name \"%s\" is not unique", name);
                free(name);
                return err;
            }
            b->vof[i] = old; /* another HCA of the same host */
            free(name);
            continue;
        }
        if (add_vtx(b, name, (int32_t)i, true, &idx))
            return TM_ENOMEM;
        b->vof[i] = idx;
    }
    return TM_EOK;
}

tm_err tm__ib_name_switches(tm__ib_builder *b)
{
    tm__ib_dump *d = b->d;
    tm__strmap cand;
    char **names = NULL;
    uint8_t *dup = NULL;
    tm_err err = TM_EOK;
    tm__strmap_init(&cand);
    names = tm__calloc_n(d->n_nodes ? d->n_nodes : 1, sizeof *names);
    dup = tm__calloc_n(d->n_nodes ? d->n_nodes : 1, 1);
    if (!names || !dup)
        goto oom;
    for (size_t i = 0; i < d->n_nodes; i++) {
        int32_t old;
        int rc;
        if (d->nodes[i].type == TM_IB_CA)
            continue;
        names[i] = tm__ib_switch_name(effective_desc(b, (int32_t)i), d->nodes[i].id);
        if (!names[i])
            goto oom;
        rc = tm__strmap_put(&cand, names[i], (int32_t)i, &old);
        if (rc < 0)
            goto oom;
        if (old >= 0)
            dup[i] = dup[old] = 1;
        if (tm__strmap_get(&b->names, names[i]) >= 0)
            dup[i] = 1;
    }
    for (size_t i = 0; i < d->n_nodes; i++) {
        int32_t idx, old;
        int rc;
        char *name;
        if (d->nodes[i].type == TM_IB_CA)
            continue;
        name = dup[i] ? tm__strdup(d->nodes[i].id) : names[i];
        if (dup[i])
            free(names[i]);
        names[i] = NULL;
        if (!name)
            goto oom;
        rc = tm__strmap_put(&b->names, name, (int32_t)b->nv, &old);
        if (rc < 0 || old >= 0) {
            err = rc < 0 ? tm__nomem(d->ctx)
                         : tm__ib_fail_at(d, d->nodes[i].line, "vertex name \"%s\" is not unique", name);
            free(name);
            goto out;
        }
        if ((err = add_vtx(b, name, (int32_t)i, false, &idx)))
            goto out;
        b->vof[i] = idx;
    }
    goto out;
oom:
    err = tm__nomem(d->ctx);
out:
    if (names)
        for (size_t i = 0; i < d->n_nodes; i++)
            free(names[i]);
    free(names);
    free(dup);
    tm__strmap_release(&cand);
    return err;
}
