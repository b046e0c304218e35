/*
 * alloc.c - the job's allocation: all hosts, a hostlist expression or an
 * Open MPI style hostfile, resolved against the network's host names.
 *
 * Name resolution: the exact name first, then the short name (up to the
 * first '.') of either side, so "node01.cluster" in a hostfile finds
 * "node01" from an ibnetdiscover dump and vice versa.  An ambiguous short
 * name (two hosts "n1.a" and "n1.b") is not resolved.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc_int.h"
#include "../net/net_int.h"
#include "../util/util.h"

void tm_alloc_init(tm_alloc *a) { memset(a, 0, sizeof *a); }

void tm_alloc_release(tm_alloc *a)
{
    if (!a)
        return;
    free(a->host);
    free(a->slots);
    memset(a, 0, sizeof *a);
}

int64_t tm_alloc_total_slots(const tm_alloc *a)
{
    int64_t s = 0;
    for (int32_t i = 0; i < a->n; i++)
        s += a->slots[i];
    return s;
}

static size_t short_len(const char *s)
{
    const char *dot = strchr(s, '.');
    return dot ? (size_t)(dot - s) : strlen(s);
}

int32_t tm_alloc_resolve_host(const tm_net *net, const char *name)
{
    int32_t v = tm_net_find(net, name), found = -1;
    size_t len = short_len(name);
    if (v >= 0)
        return v;
    if (len == 0)
        return -1;
    if (name[len]) {
        /* "n1.domain" -> "n1" in O(1), without a copy: a failed
         * allocation here used to fall through to the scan below, which
         * calls "n1" ambiguous when the net also has "n1.x" */
        v = tm__net_findn(net, name, len);
        if (v >= 0 && tm_net_kind(net, v) == TM_VERTEX_HOST)
            return v;
    }
    /* "n1" -> "n1.domain": the net's names need a scan */
    for (int32_t u = 0, nv = tm_net_n_vertices(net); u < nv; u++) {
        const char *h = tm_net_name(net, u);
        if (tm_net_kind(net, u) != TM_VERTEX_HOST || short_len(h) != len ||
            strncmp(h, name, len) != 0)
            continue;
        if (found >= 0)
            return -1; /* ambiguous */
        found = u;
    }
    return found;
}

/* The pos[] index of add_host for nv vertices, all -1 (no host listed
 * yet); NULL if out of memory. */
static int32_t *new_pos(int32_t nv)
{
    int32_t *pos = tm__malloc_n((size_t)nv + 1, sizeof *pos);
    if (pos)
        for (int32_t i = 0; i < nv; i++)
            pos[i] = -1;
    return pos;
}

/* Appends host v with s slots, or adds s to its slots if already present
 * (pos[v] >= 0). */
static int add_host(tm_alloc *a, size_t *cap_h, size_t *cap_s, int32_t *pos, int32_t v, int32_t s)
{
    if (pos[v] >= 0) {
        a->slots[pos[v]] += s;
        return 0;
    }
    if (tm__grow((void **)&a->host, cap_h, (size_t)a->n + 1, sizeof *a->host) < 0 ||
        tm__grow((void **)&a->slots, cap_s, (size_t)a->n + 1, sizeof *a->slots) < 0)
        return -1;
    pos[v] = a->n;
    a->host[a->n] = v;
    a->slots[a->n] = s;
    a->n++;
    return 0;
}

tm_err tm_alloc_all(tm_ctx *ctx, const tm_net *net, tm_alloc *out)
{
    int32_t nv = tm_net_n_vertices(net), nh = tm_net_n_hosts(net), k = 0;
    tm_alloc_init(out);
    if (nh == 0)
        return tm__fail(ctx, TM_EINPUT, "the topology has no hosts");
    out->host = tm__malloc_n((size_t)nh, sizeof *out->host);
    out->slots = tm__malloc_n((size_t)nh, sizeof *out->slots);
    if (!out->host || !out->slots) {
        tm_alloc_release(out);
        return tm__nomem(ctx);
    }
    for (int32_t v = 0; v < nv && k < nh; v++) {
        if (tm_net_kind(net, v) != TM_VERTEX_HOST)
            continue;
        out->host[k] = v;
        out->slots[k] = tm_net_slots(net, v);
        k++;
    }
    out->n = k;
    return TM_EOK;
}

/* A dump's name for a CA without a hostname: H-<16 hex digits> (R-, S- for
 * routers and switches). */
static bool guid_name(const char *s)
{
    if (!(s[0] == 'H' || s[0] == 'R' || s[0] == 'S') || s[1] != '-' || strlen(s) != 18)
        return false;
    return strspn(s + 2, "0123456789abcdefABCDEF") == 16;
}

/* The net's host names for an error message, as a short hostlist
 * ("n[0000-0015]") cut after HOSTS_SHOWN bytes at a comma (first and last
 * name when the names do not fit a hostlist); names a dump gave CAs
 * without a hostname (H-<GUID>) are counted apart, with one example:
 * their digits make no hostlist.  Writes "" without memory. */
enum { HOSTS_SHOWN = 120 };
static void host_names(const tm_net *net, int32_t n_hosts, char *buf, size_t size)
{
    const char **names = tm__malloc_n((size_t)n_hosts, sizeof *names);
    const char *guid_ex = NULL;
    char *list = NULL;
    int32_t k = 0, n_guid = 0;
    size_t len = 0;
    buf[0] = '\0';
    if (!names)
        return;
    for (int32_t u = 0, nv = tm_net_n_vertices(net); u < nv; u++) {
        const char *h = tm_net_name(net, u);
        if (tm_net_kind(net, u) != TM_VERTEX_HOST)
            continue;
        if (guid_name(h)) {
            n_guid++;
            guid_ex = guid_ex ? guid_ex : h;
        } else {
            names[k++] = h;
        }
    }
    if (k > 0 && tm_hostlist_compress(NULL, names, (size_t)k, &list) == TM_EOK) {
        len = strlen(list);
        if (len > HOSTS_SHOWN) {
            /* whole groups: cut at the last comma outside brackets that fits */
            size_t cut = 0;
            int depth = 0;
            for (size_t i = 0; i < HOSTS_SHOWN; i++) {
                depth += list[i] == '[' ? 1 : list[i] == ']' ? -1 : 0;
                if (list[i] == ',' && depth == 0)
                    cut = i;
            }
            len = cut;
        }
        if (len == 0) /* one group longer than the limit */
            snprintf(buf, size, "%.*s...", HOSTS_SHOWN, list);
        else
            snprintf(buf, size, "%.*s%s", (int)len, list, len < strlen(list) ? ",..." : "");
    } else if (k > 0) {
        snprintf(buf, size, "%.60s ... %.60s", names[0], names[k - 1]);
    }
    if (n_guid > 0) {
        len = strlen(buf);
        if (k > 0)
            snprintf(buf + len, size - len, ", and %d H-<GUID>", n_guid);
        else
            snprintf(buf, size, "H-<GUID>");
        len = strlen(buf);
        snprintf(buf + len, size - len, " (no hostname in the dump, e.g. %s)", guid_ex);
    }
    free(list);
    free(names);
}

void tm__alloc_unresolved(const tm_net *net, const char *name, char *buf, size_t size)
{
    char hosts[HOSTS_SHOWN + 160];
    int32_t n_hosts = 0;
    int32_t v = tm_alloc_resolve_host(net, name), first = -1;
    size_t len = short_len(name);
    if (v >= 0) {
        snprintf(buf, size, "'%s' is a switch, not a host", name);
        return;
    }
    for (int32_t u = 0, nv = tm_net_n_vertices(net); u < nv; u++) {
        const char *h = tm_net_name(net, u);
        if (tm_net_kind(net, u) != TM_VERTEX_HOST)
            continue;
        n_hosts++;
        if (len == 0 || short_len(h) != len || strncmp(h, name, len) != 0)
            continue;
        if (first >= 0) {
            snprintf(buf, size, "host name '%s' is ambiguous ('%s' and '%s'); use the full name",
                     name, tm_net_name(net, first), h);
            return;
        }
        first = u;
    }
    /* the names the topology has: a generated network's n0000..., a dump's
     * H-<GUID> without a node-name map */
    host_names(net, n_hosts, hosts, sizeof hosts);
    snprintf(buf, size, "unknown host '%s' (not in the topology, whose %d host%s named %s)", name,
             n_hosts, n_hosts == 1 ? " is" : "s are", hosts[0] ? hosts : "-");
}

/* Resolves a name to a host vertex; on failure records "<where><why>". */
static tm_err resolve(tm_ctx *ctx, const tm_net *net, const char *host, const char *where,
                      int32_t *v)
{
    char why[2600];
    *v = tm_alloc_resolve_host(net, host);
    if (*v >= 0 && tm_net_kind(net, *v) == TM_VERTEX_HOST)
        return TM_EOK;
    tm__alloc_unresolved(net, host, why, sizeof why);
    return tm__fail(ctx, TM_EINPUT, "%s%s", where, why);
}

tm_err tm_alloc_from_hostlist(tm_ctx *ctx, const tm_net *net, const char *expr, tm_alloc *out)
{
    char **names = NULL;
    size_t count = 0, cap_h = 0, cap_s = 0;
    int32_t *pos = NULL, nv = tm_net_n_vertices(net), v;
    tm_err err;

    tm_alloc_init(out);
    err = tm_hostlist_expand(ctx, expr, "hostlist", &names, &count);
    if (err)
        return err;
    pos = new_pos(nv);
    if (!pos) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (size_t i = 0; i < count; i++) {
        if ((err = resolve(ctx, net, names[i], "hostlist: ", &v)))
            goto out;
        if (pos[v] >= 0) {
            err = tm__fail(ctx, TM_EINPUT, "hostlist: host '%s' is listed twice",
                           tm_net_name(net, v));
            goto out;
        }
        if (add_host(out, &cap_h, &cap_s, pos, v, tm_net_slots(net, v)) < 0) {
            err = tm__nomem(ctx);
            goto out;
        }
    }
out:
    if (err)
        tm_alloc_release(out);
    tm_hostlist_free(names, count);
    free(pos);
    return err;
}

/* "key=value" option of a hostfile line. */
static tm_err hostfile_option(tm__lexer *lx, const char *tok, size_t len, int64_t *slots,
                              int64_t *max_slots)
{
    const char *eq = memchr(tok, '=', len);
    int64_t *dst;
    const char *p;
    size_t klen = eq ? (size_t)(eq - tok) : len;
    if (klen == 5 && strncmp(tok, "slots", 5) == 0)
        dst = slots;
    else if (klen == 9 && (strncmp(tok, "max_slots", 9) == 0 || strncmp(tok, "max-slots", 9) == 0))
        dst = max_slots;
    else
        return tm__lex_error(lx, "unknown hostfile option '%.*s' (slots=N or max_slots=N)",
                             (int)len, tok);
    if (!eq)
        return tm__lex_error(lx, "option '%.*s' needs '=N'", (int)len, tok);
    p = eq + 1;
    if (tm__parse_i64(&p, dst) < 0 || p != tok + len || *dst < 1 || *dst > INT32_MAX)
        return tm__lex_error(lx, "'%.*s': value must be a positive integer", (int)len, tok);
    return TM_EOK;
}

/* The current line "host [slots=N] [max_slots=M] [# comment]": the host
 * name into host (empty for a blank or comment line), the options into
 * *slots and *max_slots (-1 when absent). */
static tm_err hostfile_line(tm__lexer *lx, char *host, size_t size, int64_t *slots,
                            int64_t *max_slots)
{
    char *hash = strchr(lx->buf, '#');
    const char *p, *tok = tm__skip_blank(lx->buf);
    size_t len;
    tm_err err;
    *slots = *max_slots = -1;
    host[0] = '\0';
    if (hash)
        *hash = '\0';
    p = tok;
    while (*p && *p != ' ' && *p != '\t')
        p++;
    len = (size_t)(p - tok);
    if (len == 0)
        return TM_EOK;
    if (len >= size)
        return tm__lex_error(lx, "host name longer than %zu bytes", size - 1);
    memcpy(host, tok, len);
    host[len] = '\0';
    while (*(tok = tm__skip_blank(p))) {
        p = tok;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if ((err = hostfile_option(lx, tok, (size_t)(p - tok), slots, max_slots)))
            return err;
    }
    return TM_EOK;
}

tm_err tm_alloc_read_hostfile(tm_ctx *ctx, const tm_net *net, FILE *in, const char *name,
                              tm_alloc *out)
{
    tm__lexer lx;
    size_t cap_h = 0, cap_s = 0;
    int32_t *pos = NULL, nv = tm_net_n_vertices(net), v;
    bool line;
    tm_err err = TM_EOK;

    tm_alloc_init(out);
    tm__lex_init(&lx, ctx, in, name);
    pos = new_pos(nv);
    if (!pos) {
        err = tm__nomem(ctx);
        goto out;
    }
    while (!(err = tm__lex_next(&lx, &line)) && line) {
        char host[1024];
        int64_t slots, max_slots;
        if ((err = hostfile_line(&lx, host, sizeof host, &slots, &max_slots)))
            goto out;
        if (!host[0])
            continue;
        v = tm_alloc_resolve_host(net, host);
        if (v < 0 || tm_net_kind(net, v) != TM_VERTEX_HOST) {
            char why[2600];
            tm__alloc_unresolved(net, host, why, sizeof why);
            err = tm__lex_error(&lx, "%s", why);
            goto out;
        }
        if (slots < 0)
            slots = tm_net_slots(net, v);
        if (max_slots > 0 && max_slots < slots) {
            err = tm__lex_error(&lx, "max_slots=%lld is less than slots=%lld",
                                (long long)max_slots, (long long)slots);
            goto out;
        }
        if (slots + (pos[v] >= 0 ? out->slots[pos[v]] : 0) > tm_net_slots(net, v)) {
            err = tm__lex_error(&lx, "host '%s' has %d slot%s in the topology, the hostfile "
                                "asks for %lld", tm_net_name(net, v), tm_net_slots(net, v),
                                tm_net_slots(net, v) == 1 ? "" : "s",
                                (long long)(slots + (pos[v] >= 0 ? out->slots[pos[v]] : 0)));
            goto out;
        }
        if (add_host(out, &cap_h, &cap_s, pos, v, (int32_t)slots) < 0) {
            err = tm__nomem(ctx);
            goto out;
        }
    }
    if (err)
        goto out;
    if (out->n == 0) {
        if (!lx.line)
            lx.line = 1;
        err = tm__lex_error(&lx, "no hosts in the hostfile");
    }
out:
    if (err)
        tm_alloc_release(out);
    tm__lex_release(&lx);
    free(pos);
    return err;
}

tm_err tm_alloc_parse(tm_ctx *ctx, const tm_net *net, const char *arg, tm_alloc *out)
{
    struct stat st;
    FILE *in;
    tm_err err;
    if (!arg)
        return tm_alloc_all(ctx, net, out);
    if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
        return tm__fail(ctx, TM_EIO, "%s: is a directory (expected a hostfile or a hostlist)",
                        arg);
    if (stat(arg, &st) == 0 && S_ISREG(st.st_mode)) {
        tm_alloc_init(out);
        in = fopen(arg, "r");
        if (!in)
            return tm__fail(ctx, TM_EIO, "cannot open hostfile '%s': %s", arg, strerror(errno));
        err = tm_alloc_read_hostfile(ctx, net, in, arg, out);
        fclose(in);
        return err;
    }
    return tm_alloc_from_hostlist(ctx, net, arg, out);
}
