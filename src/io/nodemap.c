/*
 * nodemap.c - GUID -> name map for InfiniBand dumps (--node-name-map).
 *
 * Accepts ibnetdiscover's own format, one entry per line:
 *     0x0008f10403961354 "node001 HCA-1"
 * and the PSMN-style map that uses dump ids as keys and bare names:
 *     H-0002c90300080e84 r510gluster1
 * Blank lines and '#' comments (whole line or after the name) are
 * ignored.  A name is quoted (may hold spaces) or one bare word.
 */
#include <stdlib.h>
#include <string.h>

#include "ibnet_int.h"

struct tm_nodemap {
    tm__strmap index;   /* "%016llx" -> entry */
    char *file;         /* the name it was read from (the warnings name it) */
    char **names;
    long *lines;
    size_t n, cap;
};

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

void tm_nodemap_free(tm_nodemap *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++)
        free(m->names[i]);
    free(m->names);
    free(m->lines);
    free(m->file);
    tm__strmap_release(&m->index);
    free(m);
}

const char *tm__nodemap_file(const tm_nodemap *m) { return m->file; }

size_t tm__nodemap_size(const tm_nodemap *m) { return m->n; }

static void guid_key(uint64_t guid, char *buf) { sprintf(buf, "%016llx", (unsigned long long)guid); }

const char *tm_nodemap_get(const tm_nodemap *m, uint64_t guid)
{
    char key[24];
    int32_t i;
    if (!m)
        return NULL;
    guid_key(guid, key);
    i = tm__strmap_get(&m->index, key);
    return i >= 0 ? m->names[i] : NULL;
}

/* "0x<hex>" or "S-/H-/R-<hex>". */
static int parse_key(const char **p, uint64_t *guid)
{
    const char *s = *p;
    char *e;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    else if ((s[0] == 'S' || s[0] == 'H' || s[0] == 'R') && s[1] == '-')
        s += 2;
    else
        return -1;
    if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F')))
        return -1;
    *guid = strtoull(s, &e, 16);
    if (e - s > 16 || (*e && !is_blank(*e)))
        return -1;
    *p = e;
    return 0;
}

static tm_err entry(tm_nodemap *m, const tm__lexer *lx, const char *p)
{
    const char *name, *e;
    size_t len;
    uint64_t guid;
    char key[24];
    int32_t old;
    int rc;
    if (parse_key(&p, &guid) < 0)
        return tm__lex_error(lx, "bad GUID '%.*s' (expected 0x<hex> or H-<hex>)",
                             (int)strcspn(p, " \t"), p);
    p = tm__skip_blank(p);
    if (*p == '"') {
        name = p + 1;
        e = strchr(name, '"');
        if (!e)
            return tm__lex_error(lx, "unterminated quoted name");
        len = (size_t)(e - name);
        p = e + 1;
    } else {
        name = p;
        while (*p && !is_blank(*p) && *p != '#')
            p++;
        len = (size_t)(p - name);
    }
    if (len == 0)
        return tm__lex_error(lx, "missing name for GUID 0x%016llx", (unsigned long long)guid);
    p = tm__skip_blank(p);
    if (*p && *p != '#')
        return tm__lex_error(lx, "unexpected text after the name: '%.40s' (quote names with spaces)",
                             p);
    guid_key(guid, key);
    rc = tm__strmap_put(&m->index, key, (int32_t)m->n, &old);
    if (rc < 0)
        return tm__nomem(lx->ctx);
    if (old >= 0)
        return tm__lex_error(lx, "duplicate GUID 0x%016llx (first at line %ld)",
                             (unsigned long long)guid, m->lines[old]);
    if (tm__grow((void **)&m->names, &(size_t){m->cap}, m->n + 1, sizeof *m->names) < 0 ||
        tm__grow((void **)&m->lines, &m->cap, m->n + 1, sizeof *m->lines) < 0)
        return tm__nomem(lx->ctx);
    m->names[m->n] = tm__strndup(name, len);
    if (!m->names[m->n])
        return tm__nomem(lx->ctx);
    m->lines[m->n++] = lx->line;
    return TM_EOK;
}

tm_err tm_nodemap_read(tm_ctx *ctx, FILE *in, const char *name, tm_nodemap **out)
{
    tm__lexer lx;
    tm_nodemap *m;
    tm_err err = TM_EOK;
    bool line;
    *out = NULL;
    m = calloc(1, sizeof *m);
    if (!m)
        return tm__nomem(ctx);
    tm__strmap_init(&m->index);
    m->file = strdup(name ? name : "<node-name-map>");
    if (!m->file) {
        tm_nodemap_free(m);
        return tm__nomem(ctx);
    }
    tm__lex_init(&lx, ctx, in, m->file);
    while (!(err = tm__lex_next(&lx, &line)) && line) {
        const char *p = tm__skip_blank(lx.buf);
        if (!*p || *p == '#')
            continue;
        if ((err = entry(m, &lx, p)))
            break;
    }
    tm__lex_release(&lx);
    if (err) {
        tm_nodemap_free(m);
        return err;
    }
    *out = m;
    return TM_EOK;
}
