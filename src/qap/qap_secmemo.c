/* qap_secmemo.c - remembered splits of the network multisection (see
 * qap_secmemo.h). */
#include <stdlib.h>
#include <string.h>

#include "qap_secmemo.h"
#include "../util/util.h"

void tm__secmemo_init(tm__secmemo *m) { memset(m, 0, sizeof *m); }

void tm__secmemo_release(tm__secmemo *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->e[i].verts);
        free(m->e[i].tg);
        free(m->e[i].part);
    }
    free(m->e);
    free(m->slot);
    memset(m, 0, sizeof *m);
}

static uint64_t mix(uint64_t h, uint64_t x)
{
    h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 31);
}

uint64_t tm__secmemo_hash(const int32_t *verts, int32_t nv, const int64_t *tg, int32_t a)
{
    uint64_t h = mix((uint64_t)nv, (uint64_t)a);
    for (int32_t j = 0; j < a; j++)
        h = mix(h, (uint64_t)tg[j]);
    for (int32_t i = 0; i < nv; i++)
        h = mix(h, (uint64_t)(uint32_t)verts[i]);
    return h;
}

static bool same(const tm__secsplit *s, uint64_t h, const int32_t *verts, int32_t nv,
                 const int64_t *tg, int32_t a)
{
    return s->h == h && s->nv == nv && s->a == a &&
           memcmp(s->tg, tg, (size_t)a * sizeof *tg) == 0 &&
           memcmp(s->verts, verts, (size_t)nv * sizeof *verts) == 0;
}

const int32_t *tm__secmemo_find(const tm__secmemo *m, uint64_t h, const int32_t *verts, int32_t nv,
                                const int64_t *tg, int32_t a)
{
    if (!m->nslot)
        return NULL;
    for (size_t i = (size_t)h & (m->nslot - 1);; i = (i + 1) & (m->nslot - 1)) {
        int32_t k = m->slot[i];
        if (k < 0)
            return NULL;
        if (same(&m->e[k], h, verts, nv, tg, a))
            return m->e[k].part;
    }
}

/* Every split into the open-addressing table slot of ns entries. */
static void fill_slots(const tm__secmemo *m, int32_t *slot, size_t ns)
{
    for (size_t i = 0; i < ns; i++)
        slot[i] = -1;
    for (size_t k = 0; k < m->n; k++) {
        size_t i = (size_t)m->e[k].h & (ns - 1);
        while (slot[i] >= 0)
            i = (i + 1) & (ns - 1);
        slot[i] = (int32_t)k;
    }
}

/* Keeps the table at most half full. */
static int rehash(tm__secmemo *m)
{
    size_t ns = m->nslot ? 2 * m->nslot : 64;
    int32_t *slot;
    if (m->n + 1 <= m->nslot / 2)
        return 0;
    slot = tm__malloc_n(ns, sizeof *slot);
    if (!slot)
        return -1;
    fill_slots(m, slot, ns);
    free(m->slot);
    m->slot = slot;
    m->nslot = ns;
    return 0;
}

int tm__secmemo_add(tm__secmemo *m, uint64_t h, const int32_t *verts, int32_t nv,
                    const int64_t *tg, int32_t a, const int32_t *part)
{
    tm__secsplit s = {h, nv, a, NULL, NULL, NULL};
    size_t i;
    if (rehash(m) < 0 || tm__grow((void **)&m->e, &m->cap, m->n + 1, sizeof *m->e) < 0)
        return -1;
    s.verts = tm__malloc_n((size_t)(nv ? nv : 1), sizeof *s.verts);
    s.tg = tm__malloc_n((size_t)(a ? a : 1), sizeof *s.tg);
    s.part = tm__malloc_n((size_t)(nv ? nv : 1), sizeof *s.part);
    if (!s.verts || !s.tg || !s.part) {
        free(s.verts), free(s.tg), free(s.part);
        return -1;
    }
    memcpy(s.verts, verts, (size_t)nv * sizeof *verts);
    memcpy(s.tg, tg, (size_t)a * sizeof *tg);
    memcpy(s.part, part, (size_t)nv * sizeof *part);
    m->e[m->n] = s;
    for (i = (size_t)h & (m->nslot - 1); m->slot[i] >= 0; i = (i + 1) & (m->nslot - 1))
        ;
    m->slot[i] = (int32_t)m->n++;
    return 0;
}

typedef struct vp { int32_t v, part; } vp;

static int cmp_vp(const void *a, const void *b)
{
    int32_t x = ((const vp *)a)->v, y = ((const vp *)b)->v;
    return (x > y) - (x < y);
}

/* Renames one split's tasks through `to`, ascending again.  The sets of a
 * multisection are ranges of the order the renaming comes from, so the
 * usual case is a scatter into place; any other set is sorted. */
static int relabel_split(tm__secsplit *s, const int32_t *to)
{
    int32_t lo = INT32_MAX, hi = INT32_MIN, nv = s->nv;
    vp *t;
    for (int32_t i = 0; i < nv; i++) {
        int32_t x = to[s->verts[i]];
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    if (nv > 0 && (int64_t)hi - lo + 1 == nv) {
        int32_t *part = tm__malloc_n((size_t)nv, sizeof *part);
        if (!part)
            return -1;
        for (int32_t i = 0; i < nv; i++)
            part[to[s->verts[i]] - lo] = s->part[i];
        for (int32_t i = 0; i < nv; i++)
            s->verts[i] = lo + i;
        free(s->part);
        s->part = part;
        return 0;
    }
    t = tm__malloc_n((size_t)(nv ? nv : 1), sizeof *t);
    if (!t)
        return -1;
    for (int32_t i = 0; i < nv; i++)
        t[i] = (vp){to[s->verts[i]], s->part[i]};
    qsort(t, (size_t)nv, sizeof *t, cmp_vp);
    for (int32_t i = 0; i < nv; i++) {
        s->verts[i] = t[i].v;
        s->part[i] = t[i].part;
    }
    free(t);
    return 0;
}

int tm__secmemo_relabel(tm__secmemo *m, const int32_t *to)
{
    for (size_t k = 0; k < m->n; k++) {
        tm__secsplit *s = &m->e[k];
        if (relabel_split(s, to) < 0)
            return -1;
        s->h = tm__secmemo_hash(s->verts, s->nv, s->tg, s->a);
    }
    fill_slots(m, m->slot, m->nslot);
    return 0;
}
