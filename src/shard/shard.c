/* shard.c - "K/N", which shard runs which item, and the identity of a
 * sharded computation (shard.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../util/util.h"
#include "shard.h"
#include "topomap/topomap.h"

tm_err tm_shard_parse(tm_ctx *ctx, const char *s, tm_shard *out)
{
    const char *slash = s ? strchr(s, '/') : NULL;
    int64_t k, n;
    char num[24];
    size_t len = slash ? (size_t)(slash - s) : 0;
    /* digits only: no sign, blank or exponent in either number */
    bool digits = slash && len > 0 && len < sizeof num && strspn(s, "0123456789") == len &&
                  slash[1] && strspn(slash + 1, "0123456789") == strlen(slash + 1) &&
                  strlen(slash + 1) < sizeof num;
    if (digits) {
        memcpy(num, s, len);
        num[len] = 0;
        digits = tm__str_to_i64(num, &k) == 0 && tm__str_to_i64(slash + 1, &n) == 0;
    }
    if (!digits)
        return tm__fail(ctx, TM_EUSAGE, "--shard expects K/N (shard K of N, K from 0 to N-1, "
                                        "as SLURM_ARRAY_TASK_ID of --array=0-(N-1)), got '%s'",
                        s ? s : "");
    if (n < 1 || n > TM_SHARD_MAX)
        return tm__fail(ctx, TM_EUSAGE, "--shard %s: N must be from 1 to %d", s, TM_SHARD_MAX);
    if (k >= n)
        return tm__fail(ctx, TM_EUSAGE, "--shard %s: K must be from 0 to N-1 = %lld (shards are "
                                        "numbered from 0, as Slurm's array task ids)",
                        s, (long long)n - 1);
    out->k = (int32_t)k;
    out->n = (int32_t)n;
    return TM_EOK;
}

/* ---- assignment ---------------------------------------------------------- */

typedef struct item {
    int64_t cost;
    uint64_t mix; /* tie order */
    int64_t i;
} item;

/* splitmix64's finaliser: a fixed, well-spread order for equal costs. */
static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static int by_cost(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost > y->cost ? -1 : 1;
    if (x->mix != y->mix)
        return x->mix < y->mix ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* Binary min-heap of shards by (load, index). */
typedef struct slot {
    int64_t load;
    int32_t k;
} slot;

static bool before(const slot *a, const slot *b)
{
    return a->load != b->load ? a->load < b->load : a->k < b->k;
}

static void sift_down(slot *h, int32_t n, int32_t i)
{
    for (;;) {
        int32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && before(&h[l], &h[m]))
            m = l;
        if (r < n && before(&h[r], &h[m]))
            m = r;
        if (m == i)
            return;
        slot t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

tm_err tm_shard_assign(tm_ctx *ctx, const int64_t *cost, int64_t n_items, int32_t n,
                       int32_t *owner)
{
    item *it;
    slot *h;
    if (n < 1 || n_items < 0)
        return tm__fail(ctx, TM_EUSAGE, "shard assignment: %d shards", (int)n);
    it = tm__malloc_n((size_t)n_items + 1, sizeof *it);
    h = tm__malloc_n((size_t)n, sizeof *h);
    if (!it || !h) {
        free(it);
        free(h);
        return tm__nomem(ctx);
    }
    for (int64_t i = 0; i < n_items; i++)
        it[i] = (item){cost[i] < 0 ? 0 : cost[i], mix64((uint64_t)i), i};
    qsort(it, (size_t)n_items, sizeof *it, by_cost);
    /* the heap starts sorted by index, every load 0: already a heap */
    for (int32_t k = 0; k < n; k++)
        h[k] = (slot){0, k};
    for (int64_t j = 0; j < n_items; j++) {
        owner[it[j].i] = h[0].k;
        /* a cost of 0 still counts one, so that free items spread too */
        h[0].load += it[j].cost > 0 ? it[j].cost : 1;
        sift_down(h, n, 0);
    }
    free(it);
    free(h);
    return TM_EOK;
}

/* ---- identity ------------------------------------------------------------ */

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static void fnv(tm_shard_id *id, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        id->h ^= b[i];
        id->h *= FNV_PRIME;
    }
}

/* The length first, in 8 bytes of fixed order: "ab"+"c" differs from "a"+"bc". */
static void fnv_len(tm_shard_id *id, uint64_t n)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(n >> (8 * i));
    fnv(id, b, sizeof b);
}

static void fnv_str(tm_shard_id *id, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    fnv_len(id, n);
    fnv(id, s ? s : "", n);
}

void tm_shard_id_init(tm_shard_id *id, const char *what)
{
    id->h = FNV_OFFSET;
    tm_shard_id_add(id, "topomap", TOPOMAP_VERSION);
    tm_shard_id_add(id, "command", what);
}

void tm_shard_id_add(tm_shard_id *id, const char *key, const char *val)
{
    fnv_str(id, key);
    fnv_str(id, val);
}

tm_err tm_shard_id_add_input(tm_ctx *ctx, tm_shard_id *id, const char *key, const char *val)
{
    struct stat st;
    unsigned char buf[1 << 16];
    size_t got;
    uint64_t total = 0;
    FILE *f;
    tm_shard_id_add(id, key, val);
    if (!val || stat(val, &st) != 0 || !S_ISREG(st.st_mode))
        return TM_EOK; /* a generator spec, a hostlist: the string is the input */
    if (!(f = fopen(val, "rb")))
        return tm__fail(ctx, TM_EINPUT, "%s: %s", val, strerror(errno));
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
        fnv(id, buf, got);
        total += got;
    }
    if (ferror(f)) {
        fclose(f);
        return tm__fail(ctx, TM_EINPUT, "%s: read error", val);
    }
    fclose(f);
    fnv_len(id, total);
    return TM_EOK;
}

void tm_shard_id_hex(const tm_shard_id *id, char *out)
{
    snprintf(out, TM_SHARD_ID_LEN + 1, "%016llx", (unsigned long long)id->h);
}
