/* strmap.c - string -> int32 open-addressing hash map (linear probing), and
 * linear lookup in small constant name tables. */
#include <stdlib.h>
#include <string.h>

#include "util.h"

static uint64_t fnv1a(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

void tm__strmap_init(tm__strmap *m) { memset(m, 0, sizeof *m); }

void tm__strmap_release(tm__strmap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static size_t probe(const tm__strmap *m, const char *key, size_t len)
{
    size_t mask = m->cap - 1, i = (size_t)fnv1a(key, len) & mask;
    while (m->keys[i] && !(strncmp(m->keys[i], key, len) == 0 && m->keys[i][len] == '\0'))
        i = (i + 1) & mask;
    return i;
}

static int rehash(tm__strmap *m, size_t ncap)
{
    tm__strmap n = {0};
    n.keys = calloc(ncap, sizeof *n.keys);
    n.vals = calloc(ncap, sizeof *n.vals);
    if (!n.keys || !n.vals) {
        free(n.keys);
        free(n.vals);
        return -1;
    }
    n.cap = ncap;
    n.count = m->count;
    for (size_t i = 0; i < m->cap; i++) {
        if (m->keys[i]) {
            size_t j = probe(&n, m->keys[i], strlen(m->keys[i]));
            n.keys[j] = m->keys[i];
            n.vals[j] = m->vals[i];
        }
    }
    free(m->keys);
    free(m->vals);
    *m = n;
    return 0;
}

int tm__strmap_put(tm__strmap *m, const char *key, int32_t val, int32_t *old)
{
    size_t len = strlen(key), i;
    if (old)
        *old = -1;
    if ((m->count + 1) * 2 > m->cap && rehash(m, m->cap ? m->cap * 2 : 64) < 0)
        return -1;
    i = probe(m, key, len);
    if (m->keys[i]) {
        if (old)
            *old = m->vals[i];
        return 0;
    }
    m->keys[i] = tm__strndup(key, len);
    if (!m->keys[i])
        return -1;
    m->vals[i] = val;
    m->count++;
    return 0;
}

int32_t tm__strmap_getn(const tm__strmap *m, const char *key, size_t len)
{
    size_t i;
    if (!m->cap)
        return -1;
    i = probe(m, key, len);
    return m->keys[i] ? m->vals[i] : -1;
}

int32_t tm__strmap_get(const tm__strmap *m, const char *key)
{
    return tm__strmap_getn(m, key, strlen(key));
}

int tm__name_lookup(const tm__name_val *table, size_t n, const char *s)
{
    if (!s)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, table[i].name) == 0)
            return table[i].val;
    return -1;
}
