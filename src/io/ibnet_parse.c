/*
 * ibnet_parse.c - line parser for ibnetdiscover topology dumps (default
 * and -g output) and ibsim's hand-written "net" files, filling the raw
 * dump model of ibnet_int.h.  Hand-written because no library parses this
 * format (libibnetdisc only writes it; ibsim's parser is not a library).
 *
 * Tolerated, as seen in real dumps (reference.md section 1): tabs or
 * spaces, stderr noise and other stray lines (anything that is not a
 * record line is skipped), "Non-Chassis Nodes" / chassis headings and
 * "[ext N]" tokens of -g, "enhanced"/"base port 0", descriptions holding
 * spaces and '#', ports with or without port GUIDs, with or without a
 * width x speed token, and ibsim's "[p] \"peer\"[q]" lines (q defaults to
 * 1; w=/s= masks).  Lines of the -p ports report go to ibnet_ports.c.
 */
#include <stdlib.h>
#include <string.h>

#include "ibnet_int.h"

#define KEY_MAX 512

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Parses 1..16 hex digits at *p; advances *p. */
static int parse_hex(const char **p, uint64_t *out)
{
    const char *s = *p;
    uint64_t v = 0;
    int n = 0;
    while (hexval(*s) >= 0) {
        if (++n > 16)
            return -1;
        v = v << 4 | (uint64_t)hexval(*s++);
    }
    if (!n)
        return -1;
    *p = s;
    *out = v;
    return 0;
}

int tm__ib_key(const char *id, size_t len, char *out, size_t outsz, uint64_t *guid, bool *guid_id)
{
    *guid = 0;
    *guid_id = false;
    if (len >= 3 && len <= 18 && (id[0] == 'S' || id[0] == 'H' || id[0] == 'R') && id[1] == '-') {
        const char *p = id + 2;
        uint64_t g;
        if (parse_hex(&p, &g) == 0 && p == id + len) {
            *guid = g;
            *guid_id = true;
            snprintf(out, outsz, "g%016llx", (unsigned long long)g);
            return 17;
        }
    }
    if (len + 2 > outsz)
        return -1;
    out[0] = 'i';
    memcpy(out + 1, id, len);
    out[len + 1] = '\0';
    return (int)len + 1;
}

static bool starts(const char *p, const char *prefix)
{
    return strncmp(p, prefix, strlen(prefix)) == 0;
}

/* "Switch", "Ca", "Hca" or "Rt" followed by blanks and a digit. */
static int header_type(const char *p, const char **after)
{
    static const struct { const char *kw; int type; } kws[] = {
        {"Switch", TM_IB_SW}, {"Ca", TM_IB_CA}, {"Hca", TM_IB_CA}, {"Rt", TM_IB_RT}};
    for (size_t i = 0; i < sizeof kws / sizeof kws[0]; i++) {
        size_t n = strlen(kws[i].kw);
        if (strncmp(p, kws[i].kw, n) == 0 && is_blank(p[n])) {
            const char *q = tm__skip_blank(p + n);
            if (*q >= '0' && *q <= '9') {
                *after = q;
                return kws[i].type;
            }
        }
    }
    return -1;
}

/* Reads "<text>" at p (p at the opening quote); sets [*s, *s + *len). */
static int quoted(const char *p, const char **s, size_t *len, const char **after)
{
    const char *e;
    if (*p != '"')
        return -1;
    e = strchr(p + 1, '"');
    if (!e)
        return -1;
    *s = p + 1;
    *len = (size_t)(e - p - 1);
    *after = e + 1;
    return 0;
}

static tm_err set_format(tm__ib_dump *d, const tm__lexer *lx, int format)
{
    if (d->format && d->format != format)
        return tm__lex_error(lx, format == 2 ? "-p ports report line in a topology dump"
                                             : "topology record in a -p ports report");
    d->format = format;
    return TM_EOK;
}

static tm_err header_line(tm__ib_dump *d, const tm__lexer *lx, const char *p, int type,
                          uint64_t *pending, int32_t *cur)
{
    char key[KEY_MAX];
    const char *id, *desc = NULL, *e;
    size_t idlen, desclen = 0;
    int64_t nports;
    int32_t idx, old;
    uint64_t guid;
    bool guid_id;
    tm__ib_node *n;
    uint32_t n_lid = 0;
    int n_lmc = 0, rc;
    tm_err err = set_format(d, lx, 1);
    if (err)
        return err;
    if (tm__parse_i64(&p, &nports) < 0 || !is_blank(*p))
        return tm__lex_error(lx, "malformed node header: expected a port count");
    if (nports < 1 || nports > TM_IB_MAX_PORTS)
        return tm__lex_error(lx, "bad port count %lld (1-%d)", (long long)nports, TM_IB_MAX_PORTS);
    p = tm__skip_blank(p);
    if (quoted(p, &id, &idlen, &p) < 0 || idlen == 0)
        return tm__lex_error(lx, "malformed node header: expected a quoted node id");
    if (tm__ib_key(id, idlen, key, sizeof key, &guid, &guid_id) < 0)
        return tm__lex_error(lx, "node id longer than %d bytes", KEY_MAX - 2);
    p = tm__skip_blank(p);
    if (*p == '#') {
        /* The description runs from the first quote after '#' to the
         * last quote of the line: it may itself contain '#' and spaces. */
        const char *q = strchr(p, '"');
        e = strrchr(p, '"');
        if (!q || e == q)
            return tm__lex_error(lx, "malformed node header: unterminated description");
        desc = q + 1;
        desclen = (size_t)(e - q - 1);
        if (type == TM_IB_SW && tm__ib_scan_lid(e + 1, e + strlen(e), &n_lid, &n_lmc) < 0)
            return tm__lex_error(lx, "malformed node header: bad lid or lmc");
    } else if (*p) {
        return tm__lex_error(lx, "malformed node header: unexpected text '%.40s'", p);
    }
    n = tm__ib_add_node(d, &idx);
    if (!n)
        return TM_ENOMEM;
    rc = tm__strmap_put(&d->keys, key, idx, &old);
    if (rc < 0)
        return tm__nomem(d->ctx);
    if (old >= 0) {
        d->n_nodes--;
        if (guid_id)
            return tm__lex_error(lx, "duplicate node GUID 0x%016llx (first defined at line %ld)",
                                 (unsigned long long)guid, d->nodes[old].line);
        return tm__lex_error(lx, "duplicate node id \"%.*s\" (first defined at line %ld)",
                             (int)idlen, id, d->nodes[old].line);
    }
    n->id = tm__strndup(id, idlen);
    n->desc = desc ? tm__strndup(desc, desclen) : NULL;
    if (!n->id || (desc && !n->desc))
        return tm__nomem(d->ctx);
    n->guid = *pending ? *pending : guid;
    n->guid_id = guid_id;
    n->line = lx->line;
    n->nports = (int32_t)nports;
    n->type = type;
    n->lid = n_lid;
    n->lmc = n_lmc;
    *pending = 0;
    *cur = idx;
    return TM_EOK;
}

/* "[<int>]" at *p; advances. */
static int bracket_int(const char **p, int64_t *v)
{
    const char *s = *p;
    if (*s != '[')
        return -1;
    s++;
    if (tm__parse_i64(&s, v) < 0 || *s != ']')
        return -1;
    *p = s + 1;
    return 0;
}

/* Skips a -g "[ext N]" token. */
static void skip_ext(const char **p)
{
    if (starts(*p, "[ext ")) {
        const char *e = strchr(*p, ']');
        if (e)
            *p = e + 1;
    }
}

/* "(hex)" at *p; advances. */
static int paren_guid(const char **p, uint64_t *g)
{
    const char *s = *p;
    if (*s != '(')
        return -1;
    s++;
    if (parse_hex(&s, g) < 0 || *s != ')')
        return -1;
    *p = s + 1;
    return 0;
}

/* The width x speed token of a port line's comment: the first token after
 * the last quoted description that is not "lid N", "lmc N" or a -f
 * "s=/w=/v=" code.  No token (old dumps) leaves *cap at 0. */
static tm_err comment_speed(const tm__lexer *lx, const char *hash, double *cap)
{
    const char *p = strrchr(hash, '"');
    p = p ? p + 1 : hash + 1;
    *cap = 0;
    for (;;) {
        const char *t;
        size_t len;
        p = tm__skip_blank(p);
        if (!*p)
            return TM_EOK;
        t = p;
        while (*p && !is_blank(*p))
            p++;
        len = (size_t)(p - t);
        if ((len == 3 && (!strncmp(t, "lid", 3) || !strncmp(t, "lmc", 3)))) {
            p = tm__skip_blank(p);
            while (*p && !is_blank(*p))
                p++;
            continue;
        }
        if (memchr(t, '=', len))
            continue;
        if (tm__ib_token_cap(t, len, cap) < 0)
            return tm__lex_error(lx, "unknown link speed '%.*s'", (int)(len > 40 ? 40 : len), t);
        return TM_EOK;
    }
}

/* ibsim options after the peer: "w=<mask>" and "s=<mask>". */
static tm_err ibsim_options(const tm__lexer *lx, const char *p, double *cap)
{
    unsigned long w = 0, s = 0;
    for (;;) {
        const char *t;
        char *e;
        unsigned long v;
        p = tm__skip_blank(p);
        if (!*p)
            break;
        t = p;
        if ((t[0] != 'w' && t[0] != 's') || t[1] != '=')
            return tm__lex_error(lx, "malformed port line: unexpected text '%.40s'", t);
        v = strtoul(t + 2, &e, 0);
        if (e == t + 2 || (*e && !is_blank(*e)))
            return tm__lex_error(lx, "malformed port line: bad value in '%.40s'", t);
        if (t[0] == 'w')
            w = v;
        else
            s = v;
        p = e;
    }
    if (tm__ib_mask_cap((unsigned)(w > 15 ? 16 : w), (unsigned)(s > 7 ? 8 : s), cap) < 0)
        return tm__lex_error(lx, "unknown link speed: bad ibsim width/speed mask w=%lu s=%lu", w,
                             s);
    return TM_EOK;
}

static tm_err port_line(tm__ib_dump *d, const tm__lexer *lx, const char *p, int32_t cur)
{
    char key[KEY_MAX];
    const char *peer;
    size_t peerlen;
    int64_t port, peer_port = 1;
    uint64_t lguid = 0, g, pguid;
    bool guid_id;
    tm__ib_port *rec;
    double cap;
    uint32_t lid = 0;
    int lmc = 0;
    tm_err err;
    const tm__ib_node *n;

    if (cur < 0)
        return tm__lex_error(lx, "port line outside a node block");
    n = &d->nodes[cur];
    if (bracket_int(&p, &port) < 0)
        return tm__lex_error(lx, "malformed port line: expected [port]");
    if (port < 1 || port > n->nports)
        return tm__lex_error(lx, "bad port number %lld (\"%s\" has ports 1-%d)", (long long)port,
                             n->id, n->nports);
    skip_ext(&p);
    if (*p == '(' && paren_guid(&p, &lguid) < 0)
        return tm__lex_error(lx, "malformed port line: bad port GUID");
    p = tm__skip_blank(p);
    if (quoted(p, &peer, &peerlen, &p) < 0 || peerlen == 0)
        return tm__lex_error(lx, "malformed port line: expected a quoted peer id");
    if (*p == '[') {
        if (bracket_int(&p, &peer_port) < 0)
            return tm__lex_error(lx, "malformed port line: bad peer port");
        if (peer_port < 1 || peer_port > TM_IB_MAX_PORTS)
            return tm__lex_error(lx, "bad port number %lld for peer \"%.*s\"",
                                 (long long)peer_port, (int)peerlen, peer);
    }
    skip_ext(&p);
    if (*p == '(' && paren_guid(&p, &g) < 0) /* peer port GUID (peer is a CA) */
        return tm__lex_error(lx, "malformed port line: bad peer port GUID");
    p = tm__skip_blank(p);
    if (*p == '(' && paren_guid(&p, &g) < 0) /* CA-CA: " (peer guid) " */
        return tm__lex_error(lx, "malformed port line: bad peer port GUID");
    p = tm__skip_blank(p);
    if (*p == '#' && n->type != TM_IB_SW) {
        /* a CA's port line starts its comment with its own "lid N lmc M" */
        const char *q = strchr(p, '"');
        if (tm__ib_scan_lid(p + 1, q ? q : p + strlen(p), &lid, &lmc) < 0)
            return tm__lex_error(lx, "malformed port line: bad lid or lmc");
    }
    if (*p == '#')
        err = comment_speed(lx, p, &cap);
    else
        err = ibsim_options(lx, p, &cap);
    if (err)
        return err;
    if (tm__ib_key(peer, peerlen, key, sizeof key, &pguid, &guid_id) < 0)
        return tm__lex_error(lx, "peer id longer than %d bytes", KEY_MAX - 2);
    rec = tm__ib_add_port(d);
    if (!rec)
        return TM_ENOMEM;
    rec->node = cur;
    rec->port = (int32_t)port;
    rec->peer_port = (int32_t)peer_port;
    rec->port_guid = lguid;
    rec->cap = cap;
    rec->lid = lid;
    rec->lmc = lmc;
    rec->line = lx->line;
    rec->peer_key = tm__strdup(key);
    if (!rec->peer_key)
        return tm__nomem(d->ctx);
    return TM_EOK;
}

static tm_err guid_line(const tm__lexer *lx, const char *p, uint64_t *pending)
{
    p = strchr(p, '=') + 1;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        p += 2;
    if (parse_hex(&p, pending) < 0)
        return tm__lex_error(lx, "bad GUID '%.40s'", p);
    return TM_EOK;
}

tm_err tm__ib_parse(tm__ib_dump *d, FILE *in)
{
    tm__lexer lx;
    tm_err err = TM_EOK;
    int32_t cur = -1;
    uint64_t pending = 0;
    int type;
    bool line;

    tm__lex_init(&lx, d->ctx, in, d->name);
    while (!(err = tm__lex_next(&lx, &line)) && line) {
        const char *p = tm__skip_blank(lx.buf), *after;
        if (!*p || *p == '#')
            continue;
        if (*p == '[') {
            err = port_line(d, &lx, p, cur);
        } else if (starts(p, "switchguid=") || starts(p, "caguid=") || starts(p, "rtguid=")) {
            cur = -1;
            err = guid_line(&lx, p, &pending);
        } else if (starts(p, "vendid=") || starts(p, "devid=") || starts(p, "sysimgguid=")) {
            cur = -1;
        } else if ((type = header_type(p, &after)) >= 0) {
            err = header_line(d, &lx, after, type, &pending, &cur);
        } else if (tm__ib_is_ports_line(p)) {
            err = set_format(d, &lx, 2);
            if (!err)
                err = tm__ib_ports_line(d, &lx, p);
        }
        /* anything else is a stray line: stderr noise, -g headings, ... */
        if (err)
            goto out;
    }
    d->last_line = lx.line;
out:
    tm__lex_release(&lx);
    return err;
}
