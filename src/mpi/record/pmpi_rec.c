/* pmpi_rec.c - the recorder's counters (docs/mpi.md, "Recording a job's
 * communication"): a hash of destination world rank -> (bytes, messages)
 * per process (sparse: a process holds only the ranks it sends to), the
 * world ranks of each communicator cached as an attribute, the persistent
 * send requests, and the setup at MPI_Init.
 *
 * Process-wide state: the MPI calls that feed the recorder carry no
 * context of ours.  Under MPI_THREAD_MULTIPLE one mutex guards it; at
 * lower thread levels it is not taken. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmpi_rec.h"
#include "../lib/mpi_int.h"

#define TM__REC_NAME(e, name) name,
const char *const tm__rec_kind_name[TM__REC_NKINDS] = {TM__REC_KINDS(TM__REC_NAME)};
#undef TM__REC_NAME
const char *const tm__rec_algo_name[TM__REC_NALGOS] = {"auto", "skip", "ring",
                                                       "recursive-doubling", "binomial"};

/* Open addressing, linear probing; key -1: empty. */
typedef struct cell_tab {
    tm__rec_cell *c;
    size_t cap, n;
} cell_tab;

/* Persistent send requests: handle -> what one start sends. */
typedef struct preq {
    MPI_Request req;
    int used;        /* 0 empty, 1 live, 2 deleted */
    int kind, wdst;
    uint64_t bytes;
} preq;

typedef struct cstat_tab {
    tm__rec_cstat *s;
    size_t cap, n;
} cstat_tab;

static struct {
    int on, mt, provided, keyval, nomem;
    tm__rec_algo algo;
    char *path;
    double t0;
    pthread_mutex_t mu;
    cell_tab cells;
    preq *preqs;
    size_t npreq_cap, npreq_used;
    cstat_tab cstats;
    uint64_t kinds[TM__REC_NKINDS][3];
    tm__rec_comm world;
    int want_task, reorderings, *task;
    const char *task_call;
} st = {.mu = PTHREAD_MUTEX_INITIALIZER, .keyval = MPI_KEYVAL_INVALID};

static _Thread_local int quiet;

int tm__rec_on(void)
{
    return st.on && !quiet;
}

void tm__rec_quiet(int on)
{
    quiet += on ? 1 : -1;
}

void tm__rec_lock(void)
{
    if (st.mt)
        pthread_mutex_lock(&st.mu);
}

void tm__rec_unlock(void)
{
    if (st.mt)
        pthread_mutex_unlock(&st.mu);
}

tm__rec_algo tm__rec_algo_get(void)
{
    return st.algo;
}

static size_t hash_int(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

static int cells_grow(cell_tab *t)
{
    size_t cap = t->cap ? 2 * t->cap : 64;
    tm__rec_cell *c = malloc(cap * sizeof *c);
    if (!c)
        return -1;
    for (size_t i = 0; i < cap; i++)
        c[i].dst = -1;
    for (size_t i = 0; i < t->cap; i++) {
        size_t h;
        if (t->c[i].dst < 0)
            continue;
        for (h = hash_int((uint64_t)t->c[i].dst) & (cap - 1); c[h].dst >= 0; h = (h + 1) & (cap - 1))
            ;
        c[h] = t->c[i];
    }
    free(t->c);
    t->c = c;
    t->cap = cap;
    return 0;
}

void tm__rec_add(tm__rec_kind kind, int wdst, uint64_t bytes)
{
    cell_tab *t = &st.cells;
    size_t h;
    st.kinds[kind][1]++;
    st.kinds[kind][2] += bytes;
    if (wdst < 0)
        return;
    if (2 * (t->n + 1) > t->cap && cells_grow(t)) {
        st.nomem = 1;
        return;
    }
    for (h = hash_int((uint64_t)wdst) & (t->cap - 1); t->c[h].dst >= 0 && t->c[h].dst != wdst;
         h = (h + 1) & (t->cap - 1))
        ;
    if (t->c[h].dst < 0) {
        t->c[h].dst = wdst;
        t->c[h].bytes = t->c[h].msgs = 0;
        t->n++;
    }
    t->c[h].bytes += bytes;
    t->c[h].msgs++;
    tm__rec_phase_add(wdst, bytes);
}

uint64_t tm__rec_bytes(int count, MPI_Datatype type)
{
    MPI_Count sz = 0;
    if (count <= 0 || type == MPI_DATATYPE_NULL || PMPI_Type_size_x(type, &sz) != MPI_SUCCESS ||
        sz < 0)
        return 0;
    return (uint64_t)count * (uint64_t)sz;
}

/* ---- communicators ------------------------------------------------------- */

static void comm_free(tm__rec_comm *c)
{
    if (!c)
        return;
    free(c->world);
    free(c->rworld);
    free(c->out);
    free(c);
}

static int comm_delete(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    comm_free(attr);
    return MPI_SUCCESS;
}

/* group -> world ranks (malloc'ed), NULL when out of memory. */
static int *translate(MPI_Group g, int n)
{
    MPI_Group wg;
    int *in = malloc((size_t)(n ? n : 1) * sizeof *in), *out = malloc((size_t)(n ? n : 1) * sizeof *out);
    if (!in || !out) {
        free(in);
        free(out);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        in[i] = i;
    PMPI_Comm_group(MPI_COMM_WORLD, &wg);
    PMPI_Group_translate_ranks(g, n, in, wg, out);
    PMPI_Group_free(&wg);
    free(in);
    return out;
}

static tm__rec_comm *comm_new(MPI_Comm comm)
{
    tm__rec_comm *c = calloc(1, sizeof *c);
    MPI_Group g;
    if (!c)
        return NULL;
    c->nout = -1;
    PMPI_Comm_rank(comm, &c->rank);
    PMPI_Comm_size(comm, &c->size);
    PMPI_Comm_test_inter(comm, &c->inter);
    PMPI_Comm_group(comm, &g);
    c->world = translate(g, c->size);
    PMPI_Group_free(&g);
    if (c->inter) {
        PMPI_Comm_remote_size(comm, &c->rsize);
        PMPI_Comm_remote_group(comm, &g);
        c->rworld = translate(g, c->rsize);
        PMPI_Group_free(&g);
    }
    if (!c->world || (c->inter && !c->rworld)) {
        comm_free(c);
        return NULL;
    }
    return c;
}

/* Lock held. */
tm__rec_comm *tm__rec_comm_of(MPI_Comm comm)
{
    tm__rec_comm *c = NULL;
    int found = 0;
    if (comm == MPI_COMM_WORLD)
        return &st.world;
    if (PMPI_Comm_get_attr(comm, st.keyval, &c, &found) == MPI_SUCCESS && found)
        return c;
    if (!(c = comm_new(comm))) {
        st.nomem = 1;
        return NULL;
    }
    PMPI_Comm_set_attr(comm, st.keyval, c);
    return c;
}

static int world_of(const tm__rec_comm *c, int dest)
{
    if (c->inter)
        return dest >= 0 && dest < c->rsize ? c->rworld[dest] : -1;
    if (dest < 0 || dest >= c->size)
        return -1;
    return c->world ? c->world[dest] : dest;
}

void tm__rec_p2p(tm__rec_kind kind, MPI_Comm comm, int dest, int count, MPI_Datatype type)
{
    tm__rec_comm *c;
    uint64_t bytes;
    if (!tm__rec_on())
        return;
    bytes = tm__rec_bytes(count, type);
    tm__rec_lock();
    st.kinds[kind][0]++;
    if (dest != MPI_PROC_NULL && (c = tm__rec_comm_of(comm)))
        tm__rec_add(kind, world_of(c, dest), bytes);
    tm__rec_unlock();
}

void tm__rec_wait_cut(void)
{
    if (!tm__rec_on())
        return;
    tm__rec_lock();
    tm__rec_phase_cut();
    tm__rec_unlock();
}

/* ---- persistent requests ------------------------------------------------- */

static size_t hash_req(MPI_Request r)
{
    uint64_t x = 0;
    memcpy(&x, &r, sizeof r < sizeof x ? sizeof r : sizeof x);
    return hash_int(x);
}

static preq *preq_find(MPI_Request r)
{
    if (!st.npreq_cap)
        return NULL;
    for (size_t h = hash_req(r) & (st.npreq_cap - 1);; h = (h + 1) & (st.npreq_cap - 1)) {
        if (st.preqs[h].used == 0)
            return NULL;
        if (st.preqs[h].used == 1 && st.preqs[h].req == r)
            return &st.preqs[h];
    }
}

static int preq_rehash(void)
{
    size_t cap = st.npreq_cap ? st.npreq_cap : 64, live = 0;
    preq *old = st.preqs, *p;
    for (size_t i = 0; i < st.npreq_cap; i++)
        live += old[i].used == 1;
    while (4 * (live + 1) > cap)
        cap *= 2;
    if (!(p = calloc(cap, sizeof *p)))
        return -1;
    for (size_t i = 0; i < st.npreq_cap; i++) {
        size_t h;
        if (old[i].used != 1)
            continue;
        for (h = hash_req(old[i].req) & (cap - 1); p[h].used; h = (h + 1) & (cap - 1))
            ;
        p[h] = old[i];
    }
    free(old);
    st.preqs = p;
    st.npreq_cap = cap;
    st.npreq_used = live;
    return 0;
}

void tm__rec_persist(tm__rec_kind kind, MPI_Comm comm, int dest, int count, MPI_Datatype type,
                     MPI_Request req)
{
    tm__rec_comm *c;
    preq *p;
    size_t h;
    if (!tm__rec_on() || req == MPI_REQUEST_NULL)
        return;
    tm__rec_lock();
    st.kinds[kind][0]++;
    if ((p = preq_find(req)))
        p->used = 2; /* a handle MPI reused */
    if (2 * (st.npreq_used + 1) > st.npreq_cap && preq_rehash()) {
        st.nomem = 1;
        goto out;
    }
    for (h = hash_req(req) & (st.npreq_cap - 1); st.preqs[h].used == 1;
         h = (h + 1) & (st.npreq_cap - 1))
        ;
    st.npreq_used += st.preqs[h].used == 0;
    st.preqs[h].req = req;
    st.preqs[h].used = 1;
    st.preqs[h].kind = kind;
    st.preqs[h].bytes = tm__rec_bytes(count, type);
    c = dest == MPI_PROC_NULL ? NULL : tm__rec_comm_of(comm);
    st.preqs[h].wdst = c ? world_of(c, dest) : -2; /* -2: MPI_PROC_NULL, nothing sent */
out:
    tm__rec_unlock();
}

void tm__rec_start(MPI_Request req)
{
    preq *p;
    if (!tm__rec_on())
        return;
    tm__rec_lock();
    if ((p = preq_find(req)) && p->wdst != -2)
        tm__rec_add((tm__rec_kind)p->kind, p->wdst, p->bytes);
    tm__rec_unlock();
}

void tm__rec_forget(MPI_Request req)
{
    preq *p;
    if (!st.on)
        return;
    tm__rec_lock();
    if ((p = preq_find(req)))
        p->used = 2;
    tm__rec_unlock();
}

/* ---- collective statistics ------------------------------------------------ */

static size_t cstat_hash(uint64_t kind, uint64_t csize, uint64_t bytes, uint64_t expanded)
{
    return hash_int((kind << 40) ^ (csize << 20) ^ bytes ^ (expanded << 62));
}

static int cstats_grow(cstat_tab *t)
{
    size_t cap = t->cap ? 2 * t->cap : 32, h;
    tm__rec_cstat *s = calloc(cap, sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < t->cap; i++) {
        const tm__rec_cstat *o = &t->s[i];
        if (!o->calls)
            continue;
        for (h = cstat_hash(o->kind, o->csize, o->bytes, o->expanded) & (cap - 1); s[h].calls;
             h = (h + 1) & (cap - 1))
            ;
        s[h] = *o;
    }
    free(t->s);
    t->s = s;
    t->cap = cap;
    return 0;
}

void tm__rec_coll_stat(tm__rec_kind kind, int csize, uint64_t bytes, bool expanded)
{
    cstat_tab *t = &st.cstats;
    tm__rec_cstat key = {(uint64_t)kind, (uint64_t)csize, bytes, 0, (uint64_t)expanded};
    size_t h;
    if (2 * (t->n + 1) > t->cap && cstats_grow(t)) {
        st.nomem = 1;
        return;
    }
    for (h = cstat_hash(key.kind, key.csize, bytes, key.expanded) & (t->cap - 1); t->s[h].calls;
         h = (h + 1) & (t->cap - 1)) {
        const tm__rec_cstat *o = &t->s[h];
        if (o->kind == key.kind && o->csize == key.csize && o->bytes == bytes &&
            o->expanded == key.expanded)
            break;
    }
    if (!t->s[h].calls) {
        t->s[h] = key;
        t->n++;
    }
    t->s[h].calls++;
}

void tm__rec_lost(void)
{
    st.nomem = 1;
}

void tm__rec_count_call(tm__rec_kind kind)
{
    st.kinds[kind][0]++;
}

/* ---- MPI_Init / MPI_Finalize ----------------------------------------------- */

static tm__rec_algo algo_parse(const char *s, int *bad)
{
    *bad = 0;
    if (!s || !*s)
        return TM__REC_AUTO;
    for (int a = 0; a < TM__REC_NALGOS; a++)
        if (strcmp(s, tm__rec_algo_name[a]) == 0)
            return (tm__rec_algo)a;
    *bad = 1;
    return TM__REC_AUTO;
}

void tm__rec_reordered(MPI_Comm newcomm, const char *call)
{
    MPI_Group g, wg;
    int size = 0, P = st.world.size, *in, *out, same = 1;
    if (!st.on || newcomm == MPI_COMM_NULL)
        return;
    PMPI_Comm_size(newcomm, &size);
    if (size != P)
        return;
    in = malloc((size_t)P * sizeof *in);
    out = malloc((size_t)P * sizeof *out);
    if (!in || !out) {
        st.nomem = 1;
        goto out;
    }
    for (int i = 0; i < P; i++)
        in[i] = i;
    PMPI_Comm_group(MPI_COMM_WORLD, &wg);
    PMPI_Comm_group(newcomm, &g);
    PMPI_Group_translate_ranks(wg, P, in, g, out);
    PMPI_Group_free(&g);
    PMPI_Group_free(&wg);
    for (int i = 0; i < P; i++)
        same &= out[i] == i;
    if (same)
        goto out;
    st.reorderings++;
    if (st.task || !st.want_task)
        goto out;
    st.task = out;
    st.task_call = call;
    out = NULL;
out:
    free(in);
    free(out);
}

void tm__rec_init(int provided)
{
    int rank = 0, cfg[3] = {0, TM__REC_AUTO, 1}, bad = 0;
    const char *path = getenv("TOPOMAP_RECORD");
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        const char *d = getenv("TOPOMAP_DISABLE");
        cfg[0] = path && *path && !(d && *d && strcmp(d, "0") != 0);
        cfg[1] = algo_parse(getenv("TOPOMAP_RECORD_COLLECTIVES"), &bad);
        if (bad)
            tm__mpi_warn(0, "TOPOMAP_RECORD_COLLECTIVES=%s is not skip, ring, recursive-doubling, "
                            "binomial or auto; using auto", getenv("TOPOMAP_RECORD_COLLECTIVES"));
        const char *ranks = getenv("TOPOMAP_RECORD_RANKS");
        if (ranks && *ranks && strcmp(ranks, "task") != 0) {
            cfg[2] = 0;
            if (strcmp(ranks, "world") != 0) {
                cfg[2] = 1;
                tm__mpi_warn(0, "TOPOMAP_RECORD_RANKS=%s is not task or world; using task", ranks);
            }
        }
    }
    PMPI_Bcast(cfg, 3, MPI_INT, 0, MPI_COMM_WORLD);
    if (!cfg[0])
        return;
    if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_delete, &st.keyval, NULL) !=
        MPI_SUCCESS)
        return;
    st.algo = (tm__rec_algo)cfg[1];
    st.want_task = cfg[2];
    st.provided = provided;
    st.mt = provided == MPI_THREAD_MULTIPLE;
    st.path = rank == 0 ? strdup(path) : NULL;
    st.world.rank = rank;
    PMPI_Comm_size(MPI_COMM_WORLD, &st.world.size);
    st.world.nout = -1;
    st.t0 = PMPI_Wtime();
    st.on = 1;
}

static int cell_cmp(const void *a, const void *b)
{
    const tm__rec_cell *x = a, *y = b;
    return (x->dst > y->dst) - (x->dst < y->dst);
}

int tm__rec_take(tm__rec_out *o, int *rank, int *lost)
{
    int n = 0, k = 0;
    if (!st.on)
        return 0;
    st.on = 0;
    memset(o, 0, sizeof *o);
    o->path = st.path;
    o->algo = st.algo;
    o->provided = st.provided;
    o->wall_s = PMPI_Wtime() - st.t0;
    for (size_t i = 0; i < st.cells.cap; i++)
        if (st.cells.c[i].dst >= 0)
            st.cells.c[n++] = st.cells.c[i];
    if (n)
        qsort(st.cells.c, (size_t)n, sizeof *st.cells.c, cell_cmp);
    o->cells = st.cells.c;
    o->ncells = n;
    memcpy(o->kinds, st.kinds, sizeof o->kinds);
    for (size_t i = 0; i < st.cstats.cap; i++)
        if (st.cstats.s[i].calls)
            st.cstats.s[k++] = st.cstats.s[i];
    o->cstats = st.cstats.s;
    o->ncstats = k;
    o->task = st.task;
    o->task_call = st.task_call;
    o->reorderings = st.reorderings;
    *rank = st.world.rank;
    *lost = st.nomem;
    return 1;
}

void tm__rec_free(void)
{
    free(st.cells.c);
    free(st.cstats.s);
    free(st.preqs);
    free(st.path);
    free(st.world.out);
    free(st.task);
    st.task = NULL;
    PMPI_Comm_free_keyval(&st.keyval);
    memset(&st.cells, 0, sizeof st.cells);
    memset(&st.cstats, 0, sizeof st.cstats);
    st.preqs = NULL;
    st.path = NULL;
}
