/* test_metis_pool.c - concurrent METIS calls (tm__metis_call) from several
 * threads, different graphs, methods and options, seeds fixed: every part
 * vector and objective must equal, bit for bit, the one of a plain serial
 * METIS call.  Run under ThreadSanitizer by `make test-tsan`.
 *
 * Raw concurrent METIS (no isolation) fails this comparison: GKlib draws
 * from the process-wide rand() stream (docs/parallel.md). */
#include <signal.h>
#include <pthread.h>
#include <unistd.h>

#include "test_util.h"
#include "graph/metis_pool.h"
#include "util/util.h"

#define NGRAPH 6
#define NCASE 24
#define NTHREAD 4
#define ROUNDS 3

typedef struct graph { idx_t n, *xadj, *adj, *vw, *ew; } graph;

typedef struct mcase {
    int g;          /* graph index */
    bool recursive;
    idx_t nparts, seed, ncuts, ufactor;
    bool weights, targets;
    idx_t ref_obj, *ref_part; /* serial result */
    int ref_rc;
} mcase;

static graph G[NGRAPH];
static mcase C[NCASE];
static tm_ctx *shared_ctx;

/* A w x h grid with random extra chords and random weights (seeded). */
static void make_graph(graph *g, int w, int h, uint64_t seed)
{
    tm__rng r;
    int n = w * h, cap = n * 8, m = 0;
    idx_t *deg = calloc((size_t)n, sizeof *deg);
    int *eu = malloc((size_t)cap * sizeof *eu), *ev = malloc((size_t)cap * sizeof *ev);
    tm__rng_seed(&r, seed, 1);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int v = y * w + x;
            if (x + 1 < w)
                eu[m] = v, ev[m++] = v + 1;
            if (y + 1 < h)
                eu[m] = v, ev[m++] = v + w;
            if (tm__rng_below(&r, 4) == 0) {
                int u = (int)tm__rng_below(&r, (uint64_t)n);
                if (u != v && u != v + 1 && u != v + w && u + 1 != v && u + w != v)
                    eu[m] = v, ev[m++] = u;
            }
        }
    /* drop duplicate chords: METIS wants a simple graph */
    g->n = n;
    g->xadj = calloc((size_t)n + 1, sizeof *g->xadj);
    g->adj = malloc((size_t)m * 2 * sizeof *g->adj);
    g->ew = malloc((size_t)m * 2 * sizeof *g->ew);
    g->vw = malloc((size_t)n * sizeof *g->vw);
    for (int i = 0; i < m; i++)
        deg[eu[i]]++, deg[ev[i]]++;
    for (int v = 0; v < n; v++)
        g->xadj[v + 1] = g->xadj[v] + deg[v];
    memset(deg, 0, (size_t)n * sizeof *deg);
    for (int i = 0; i < m; i++) {
        idx_t wgt = 1 + (idx_t)tm__rng_below(&r, 9);
        int a = eu[i], b = ev[i];
        bool dup = false;
        for (idx_t k = g->xadj[a]; k < g->xadj[a] + deg[a]; k++)
            dup = dup || g->adj[k] == b;
        if (dup)
            continue;
        g->adj[g->xadj[a] + deg[a]] = b, g->ew[g->xadj[a] + deg[a]++] = wgt;
        g->adj[g->xadj[b] + deg[b]] = a, g->ew[g->xadj[b] + deg[b]++] = wgt;
    }
    /* compact the rows (duplicates left holes) */
    {
        idx_t at = 0;
        for (int v = 0; v < n; v++) {
            idx_t s = g->xadj[v];
            g->xadj[v] = at;
            for (idx_t k = 0; k < deg[v]; k++, at++)
                g->adj[at] = g->adj[s + k], g->ew[at] = g->ew[s + k];
        }
        g->xadj[n] = at;
    }
    for (int v = 0; v < n; v++)
        g->vw[v] = 1 + (idx_t)tm__rng_below(&r, 4);
    free(deg), free(eu), free(ev);
}

static int run_case(tm_ctx *ctx, const mcase *c, idx_t *part, idx_t *obj)
{
    graph *g = &G[c->g];
    idx_t n = g->n, ncon = 1, np = c->nparts, opt[METIS_NOPTIONS];
    real_t tp[16];
    METIS_SetDefaultOptions(opt);
    opt[METIS_OPTION_SEED] = c->seed;
    opt[METIS_OPTION_NUMBERING] = 0;
    opt[METIS_OPTION_NCUTS] = c->ncuts;
    opt[METIS_OPTION_UFACTOR] = c->ufactor;
    for (idx_t j = 0; j < np; j++)
        tp[j] = (real_t)(j + 1) / (real_t)(np * (np + 1) / 2);
    if (!ctx) /* the reference: plain METIS, one call at a time */
        return c->recursive
                   ? METIS_PartGraphRecursive(&n, &ncon, g->xadj, g->adj, c->weights ? g->vw : NULL,
                                              NULL, c->weights ? g->ew : NULL, &np,
                                              c->targets ? tp : NULL, NULL, opt, obj, part)
                   : METIS_PartGraphKway(&n, &ncon, g->xadj, g->adj, c->weights ? g->vw : NULL,
                                         NULL, c->weights ? g->ew : NULL, &np,
                                         c->targets ? tp : NULL, NULL, opt, obj, part);
    return tm__metis_call(ctx, c->recursive, &n, &ncon, g->xadj, g->adj,
                          c->weights ? g->vw : NULL, c->weights ? g->ew : NULL, &np,
                          c->targets ? tp : NULL, opt, obj, part);
}

static int setup(void **state)
{
    static const int dims[NGRAPH][2] = {{40, 40}, {120, 90}, {7, 300}, {200, 150}, {33, 61}, {90, 90}};
    (void)state;
    for (int i = 0; i < NGRAPH; i++)
        make_graph(&G[i], dims[i][0], dims[i][1], 100 + (uint64_t)i);
    for (int k = 0; k < NCASE; k++) {
        mcase *c = &C[k];
        c->g = k % NGRAPH;
        c->recursive = (k / NGRAPH) % 2 == 0;
        c->nparts = (idx_t)(2 + (k * 5) % 15);
        c->seed = (idx_t)(17 + 31 * k);
        c->ncuts = 1 + k % 3;
        c->ufactor = k % 4 == 0 ? 1 : 30;
        c->weights = k % 3 != 0;
        c->targets = k % 5 == 1;
        c->ref_part = malloc((size_t)G[c->g].n * sizeof *c->ref_part);
        c->ref_rc = run_case(NULL, c, c->ref_part, &c->ref_obj);
        assert_int_equal(c->ref_rc, METIS_OK);
    }
    return tm_ctx_new(&shared_ctx) == TM_EOK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    for (int k = 0; k < NCASE; k++)
        free(C[k].ref_part);
    for (int i = 0; i < NGRAPH; i++)
        free(G[i].xadj), free(G[i].adj), free(G[i].vw), free(G[i].ew);
    tm_ctx_free(shared_ctx);
    return 0;
}

typedef struct targ {
    int id;
    pthread_barrier_t *bar;
    int mismatches;
} targ;

static void *stress(void *p)
{
    targ *a = p;
    idx_t *part = malloc(200 * 150 * sizeof *part);
    for (int round = 0; round < ROUNDS; round++) {
        pthread_barrier_wait(a->bar);
        for (int i = 0; i < NCASE; i++) {
            /* every thread walks the cases in its own order */
            const mcase *c = &C[(i * (2 * a->id + 1) + a->id * 7 + round) % NCASE];
            idx_t obj = -1;
            int rc = run_case(shared_ctx, c, part, &obj);
            if (rc != c->ref_rc || obj != c->ref_obj ||
                memcmp(part, c->ref_part, (size_t)G[c->g].n * sizeof *part) != 0)
                a->mismatches++;
        }
    }
    free(part);
    return NULL;
}

/* NTHREAD threads x ROUNDS x NCASE concurrent calls: all equal the
 * serial results, and calls did overlap (workers served some). */
static void test_concurrent_equals_serial(void **state)
{
    pthread_t th[NTHREAD];
    targ a[NTHREAD];
    pthread_barrier_t bar;
    (void)state;
    pthread_barrier_init(&bar, NULL, NTHREAD);
    /* as the library does: workers forked before the threads start */
    tm__metis_pool_prefork(tm__ctx_metis_pool(shared_ctx), NTHREAD - 1);
    for (int t = 0; t < NTHREAD; t++) {
        a[t] = (targ){t, &bar, 0};
        assert_int_equal(pthread_create(&th[t], NULL, stress, &a[t]), 0);
    }
    for (int t = 0; t < NTHREAD; t++)
        pthread_join(th[t], NULL);
    pthread_barrier_destroy(&bar);
    for (int t = 0; t < NTHREAD; t++)
        assert_int_equal(a[t].mismatches, 0);
    assert_int_equal(tm__metis_pool_workers(tm__ctx_metis_pool(shared_ctx)), NTHREAD - 1);
    assert_true(tm__metis_pool_worker_calls(tm__ctx_metis_pool(shared_ctx)) > 0);
}

/* Every call through a pre-forked worker: same answer. */
static void test_serial_through_worker(void **state)
{
    tm_ctx *ctx;
    (void)state;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    tm__metis_pool_prefork(tm__ctx_metis_pool(ctx), 2);
    assert_int_equal(tm__metis_pool_workers(tm__ctx_metis_pool(ctx)), 2);
    tm__metis_pool_force_worker(tm__ctx_metis_pool(ctx), true);
    for (int k = 0; k < NCASE; k += 5) {
        idx_t *part = malloc((size_t)G[C[k].g].n * sizeof *part), obj = -1;
        assert_int_equal(run_case(ctx, &C[k], part, &obj), METIS_OK);
        assert_int_equal(obj, C[k].ref_obj);
        assert_memory_equal(part, C[k].ref_part, (size_t)G[C[k].g].n * sizeof *part);
        free(part);
    }
    tm_ctx_free(ctx);
}

/* A worker that died (killed) and one that hangs (stopped: no CPU time,
 * as a worker stuck on an allocator lock after fork): each call still
 * returns the reference partition, run in-process, the hung one after
 * about 2 s (tm__metis_pool_set_stall). */
static void test_dead_and_hung_worker(void **state)
{
    tm_ctx *ctx;
    tm__metis_pool *p;
    (void)state;
    assert_int_equal(tm_ctx_new(&ctx), TM_EOK);
    p = tm__ctx_metis_pool(ctx);
    tm__metis_pool_prefork(p, 2);
    assert_int_equal(tm__metis_pool_workers(p), 2);
    tm__metis_pool_force_worker(p, true);
    /* idle 2 s counts as hung: a METIS call of case 0 accrues CPU time every
     * second even under TSan on a loaded machine */
    tm__metis_pool_set_stall(p, 2);
    for (int w = 0; w < 2; w++) {
        idx_t *part = malloc((size_t)G[C[0].g].n * sizeof *part), obj = -1;
        assert_int_equal(kill((pid_t)tm__metis_pool_worker_pid(p, w), w ? SIGSTOP : SIGKILL), 0);
        assert_int_equal(run_case(ctx, &C[0], part, &obj), METIS_OK);
        assert_int_equal(obj, C[0].ref_obj);
        assert_memory_equal(part, C[0].ref_part, (size_t)G[C[0].g].n * sizeof *part);
        free(part);
    }
    tm_ctx_free(ctx);
}

/* Two live contexts, each with a worker: the second context's worker was
 * forked while the first one's socket was open, and must not keep it, or
 * freeing the first context waits forever for its worker to see EOF (the
 * Python module keeps several contexts alive).  alarm() turns a hang into
 * a failure. */
static void test_two_contexts_free_in_any_order(void **state)
{
    tm_ctx *a, *b;
    (void)state;
    assert_int_equal(tm_ctx_new(&a), TM_EOK);
    assert_int_equal(tm_ctx_new(&b), TM_EOK);
    tm__metis_pool_prefork(tm__ctx_metis_pool(a), 1);
    tm__metis_pool_prefork(tm__ctx_metis_pool(b), 1);
    assert_int_equal(tm__metis_pool_workers(tm__ctx_metis_pool(b)), 1);
    alarm(60);
    tm_ctx_free(a);
    tm_ctx_free(b);
    alarm(0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_concurrent_equals_serial),
        cmocka_unit_test(test_serial_through_worker),
        cmocka_unit_test(test_dead_and_hung_worker),
        cmocka_unit_test(test_two_contexts_free_in_any_order),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
