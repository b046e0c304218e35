/*
 * ibnet_ports.c - lines of the `ibnetdiscover -p` ports report:
 *
 *   CA  0  1 0x0000000000100008 4x SDR - SW  0  2 0x0000000000200001 ( 'a b' - 'c' )
 *   SW  0  4 0x0000000000200001 4x SDR                                'c'
 *
 * type, LID, port, *port* GUID, width, speed, then either the peer's
 * type/LID/port/port GUID and both descriptions, or (unconnected port)
 * the node's description alone.  A switch's ports share the switch GUID;
 * a CA port has its own port GUID, so in this format a CA is keyed by its
 * port GUID (the report has no node GUIDs).
 */
#include <stdlib.h>
#include <string.h>

#include "ibnet_int.h"

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

static int type_of(const char *t, size_t len)
{
    if (len != 2)
        return -1;
    if (!strncmp(t, "SW", 2))
        return TM_IB_SW;
    if (!strncmp(t, "CA", 2))
        return TM_IB_CA;
    if (!strncmp(t, "RT", 2))
        return TM_IB_RT;
    return -1;
}

bool tm__ib_is_ports_line(const char *p)
{
    if (type_of(p, 2) < 0 || !is_blank(p[2]))
        return false;
    p = tm__skip_blank(p + 2);
    return *p >= '0' && *p <= '9';
}

/* Next blank-delimited token. */
static const char *token(const char **p, size_t *len)
{
    const char *s = tm__skip_blank(*p), *t = s;
    while (*s && !is_blank(*s))
        s++;
    *len = (size_t)(s - t);
    *p = s;
    return t;
}

typedef struct end {
    int type;
    int64_t lid;
    int64_t port;
    uint64_t guid;
} end;

/* "TYPE LID PORT 0xGUID" */
static int parse_end(const char **p, end *e)
{
    size_t len;
    const char *t = token(p, &len);
    char *x;
    e->type = type_of(t, len);
    if (e->type < 0 || tm__parse_i64(p, &e->lid) < 0 || tm__parse_i64(p, &e->port) < 0)
        return -1;
    if (e->lid < 0 || e->lid > 0xffff)
        return -1;
    t = token(p, &len);
    if (len < 3 || len > 18 || t[0] != '0' || (t[1] != 'x' && t[1] != 'X'))
        return -1;
    e->guid = strtoull(t + 2, &x, 16);
    return x == t + len ? 0 : -1;
}

static tm_err find_node(tm__ib_dump *d, const tm__lexer *lx, const end *e, const char *desc,
                        size_t desclen, int32_t *idx)
{
    static const char prefix[] = {'S', 'H', 'R'};
    char key[24], id[24];
    int32_t old;
    tm__ib_node *n;
    int rc;
    snprintf(key, sizeof key, "g%016llx", (unsigned long long)e->guid);
    *idx = tm__strmap_get(&d->keys, key);
    if (*idx >= 0) {
        n = &d->nodes[*idx];
        if (n->type != e->type)
            return tm__lex_error(lx, "GUID 0x%016llx is a %s here but a %s at line %ld",
                                 (unsigned long long)e->guid, e->type == TM_IB_SW ? "switch" : "CA",
                                 n->type == TM_IB_SW ? "switch" : "CA", n->line);
        if (e->port > n->nports)
            n->nports = (int32_t)e->port;
        return TM_EOK;
    }
    n = tm__ib_add_node(d, idx);
    if (!n)
        return TM_ENOMEM;
    rc = tm__strmap_put(&d->keys, key, *idx, &old);
    if (rc < 0)
        return tm__nomem(d->ctx);
    snprintf(id, sizeof id, "%c-%016llx", prefix[e->type], (unsigned long long)e->guid);
    n->id = tm__strdup(id);
    n->desc = tm__strndup(desc, desclen);
    if (!n->id || !n->desc)
        return tm__nomem(d->ctx);
    n->guid = e->guid;
    n->guid_id = true;
    n->line = lx->line;
    n->nports = (int32_t)e->port;
    n->type = e->type;
    return TM_EOK;
}

/* A switch's LID is the same on all its lines (port 0's); a CA port's is
 * its own. */
static tm_err note_switch_lid(tm__ib_dump *d, const tm__lexer *lx, const end *e, int32_t idx)
{
    tm__ib_node *n = &d->nodes[idx];
    if (e->type != TM_IB_SW || !e->lid)
        return TM_EOK;
    if (n->lid && n->lid != (uint32_t)e->lid)
        return tm__lex_error(lx, "switch 0x%016llx has LID %lld here but LID %u before",
                             (unsigned long long)e->guid, (long long)e->lid, n->lid);
    n->lid = (uint32_t)e->lid;
    return TM_EOK;
}

tm_err tm__ib_ports_line(tm__ib_dump *d, const tm__lexer *lx, const char *p)
{
    end me, peer;
    const char *w, *s, *desc, *q;
    size_t wlen, slen, desclen;
    bool connected;
    double cap = 0;
    int32_t idx;
    tm__ib_port *rec;
    char key[24];
    tm_err err;

    if (parse_end(&p, &me) < 0)
        return tm__lex_error(lx, "malformed -p ports line");
    w = token(&p, &wlen);
    s = token(&p, &slen);
    p = tm__skip_blank(p);
    connected = p[0] == '-' && is_blank(p[1]);
    if (connected) {
        p++;
        if (parse_end(&p, &peer) < 0)
            return tm__lex_error(lx, "malformed -p ports line: bad peer");
        p = tm__skip_blank(p);
        if (strncmp(p, "( '", 3) != 0 || !(q = strstr(p + 3, "' - '")))
            return tm__lex_error(lx, "malformed -p ports line: expected ( 'desc' - 'peer desc' )");
        desc = p + 3;
        desclen = (size_t)(q - desc);
    } else {
        const char *e;
        if (*p != '\'' || !(e = strrchr(p + 1, '\'')))
            return tm__lex_error(lx, "malformed -p ports line: expected 'desc'");
        desc = p + 1;
        desclen = (size_t)(e - desc);
    }
    if (me.port < 0 || me.port > TM_IB_MAX_PORTS || (connected && me.port == 0))
        return tm__lex_error(lx, "bad port number %lld", (long long)me.port);
    if (me.port == 0)
        return TM_EOK; /* an unconnected port 0 carries nothing */
    err = find_node(d, lx, &me, desc, desclen, &idx);
    if (!err)
        err = note_switch_lid(d, lx, &me, idx);
    if (err || !connected)
        return err; /* unconnected ports only define the node */
    if (peer.port < 1 || peer.port > TM_IB_MAX_PORTS)
        return tm__lex_error(lx, "bad port number %lld for peer 0x%016llx", (long long)peer.port,
                             (unsigned long long)peer.guid);
    if (tm__ib_width_speed_cap(w, wlen, s, slen, &cap) < 0)
        return tm__lex_error(lx, "unknown link speed '%.*s %.*s'", (int)(wlen > 20 ? 20 : wlen), w,
                             (int)(slen > 20 ? 20 : slen), s);
    rec = tm__ib_add_port(d);
    if (!rec)
        return TM_ENOMEM;
    snprintf(key, sizeof key, "g%016llx", (unsigned long long)peer.guid);
    rec->node = idx;
    rec->port = (int32_t)me.port;
    rec->peer_port = (int32_t)peer.port;
    rec->port_guid = me.guid;
    rec->cap = cap;
    rec->lid = me.type == TM_IB_SW ? 0 : (uint32_t)me.lid;
    rec->line = lx->line;
    rec->peer_key = tm__strdup(key);
    return rec->peer_key ? TM_EOK : tm__nomem(d->ctx);
}
