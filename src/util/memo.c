/*
 * memo.c - results that several jobs of one call compute alike, kept once
 * (the auto pipeline's rows greedy, recursive and rcm each cut the task
 * graph into the same blocks of a multicore allocation: the same METIS
 * k-way call three times).  An entry is found by a 128-bit key the caller
 * derives from everything the result depends on (the inputs' contents,
 * not their addresses), and holds a copy of an int32 array.  A few entries
 * only (the oldest go first); thread-safe.  Two jobs that miss the same key
 * at once both compute it: the memo saves work, it does not order it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MEMO_ENTRIES 8

typedef struct memo_entry {
    uint64_t key[2];
    int32_t *v;
    size_t n;
} memo_entry;

struct tm__memo {
    pthread_mutex_t lock;
    memo_entry e[MEMO_ENTRIES];
    int next; /* the slot the next put takes (oldest first) */
};

tm_err tm__memo_new(tm_ctx *ctx, tm__memo **out)
{
    tm__memo *m = calloc(1, sizeof *m);
    *out = NULL;
    if (!m)
        return tm__nomem(ctx);
    pthread_mutex_init(&m->lock, NULL);
    *out = m;
    return TM_EOK;
}

void tm__memo_free(tm__memo *m)
{
    if (!m)
        return;
    for (int i = 0; i < MEMO_ENTRIES; i++)
        free(m->e[i].v);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

bool tm__memo_get_i32(tm__memo *m, const uint64_t key[2], int32_t *out, size_t n)
{
    bool hit = false;
    if (!m)
        return false;
    pthread_mutex_lock(&m->lock);
    for (int i = 0; i < MEMO_ENTRIES && !hit; i++) {
        memo_entry *e = &m->e[i];
        if (e->v && e->n == n && e->key[0] == key[0] && e->key[1] == key[1]) {
            memcpy(out, e->v, n * sizeof *out);
            hit = true;
        }
    }
    pthread_mutex_unlock(&m->lock);
    return hit;
}

void tm__memo_put_i32(tm__memo *m, const uint64_t key[2], const int32_t *v, size_t n)
{
    int32_t *copy;
    memo_entry *e;
    if (!m || !(copy = tm__malloc_n(n ? n : 1, sizeof *copy)))
        return; /* out of memory: the next caller computes it again */
    memcpy(copy, v, n * sizeof *copy);
    pthread_mutex_lock(&m->lock);
    e = &m->e[m->next];
    m->next = (m->next + 1) % MEMO_ENTRIES;
    free(e->v);
    e->key[0] = key[0];
    e->key[1] = key[1];
    e->v = copy;
    e->n = n;
    pthread_mutex_unlock(&m->lock);
}

/* FNV-1a over bytes, from h (two different start values give the key's two
 * halves). */
uint64_t tm__memo_hash(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}
