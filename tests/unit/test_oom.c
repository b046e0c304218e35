/* test_oom.c - out-of-memory paths: every reader, writer, the router and
 * metrics, the levels/netdist oracles and tm_map_run (network and
 * hierarchy mode, several strategies and refinements) are run once to count
 * the K allocations they make, then once for every N in 1..K with the Nth
 * allocation failing.  Each failing run must return TM_ENOMEM with a
 * message that mentions memory, must not crash, and must leave nothing
 * allocated: under ASan (`make test-asan`) LeakSanitizer checks after the
 * sweep of every operation and again at exit.
 *
 * The hook: this binary is linked with -Wl,--wrap=malloc,calloc,realloc,
 * strdup,strndup,posix_memalign,aligned_alloc (see the Makefile), so every
 * allocation made by topomap's own code (libtopomap.a, statically linked)
 * goes through the __wrap_ functions below.  Allocations made inside the
 * shared libraries (igraph, libxml2, METIS, libc's own fopen/stdio buffers)
 * are NOT intercepted: --wrap only rewrites references resolved at static
 * link time.  Their OOM paths stay untested here; our code maps igraph's
 * IGRAPH_ENOMEM to TM_ENOMEM (src/net/igraph_glue.c).  No global state is
 * added to the library: the counter lives in this test binary only.
 *
 * Bound: K can reach tens of thousands for the mapping runs; every N up to
 * oom_dense is swept, and beyond it a deterministic stride so that about
 * oom_sparse more points are tried (the last allocation always is). */
#include "test_util.h"
#include "graph/metis_pool.h"

#include <errno.h>
#include <execinfo.h>
#include <stdatomic.h>

#include <libxml/xmlmemory.h>

#include "topomap/levels.h"
#include "topomap/metrics.h"
#include "util/util.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OOM_LSAN 1
#include <sanitizer/lsan_interface.h>
#endif
#endif

/* Under ASan every run costs several times more (make test's time budget):
 * the plain build sweeps 1000 + 250 points per operation for crashes and
 * error codes, the ASan build 300 + 100 for leaks and memory errors.  With
 * TM_OOM_FULL=1 in the environment (`make test-oom`) the sweeps are longer:
 * 1500 + 400 and 500 + 150. */
#ifdef OOM_LSAN
#define OOM_DENSE_QUICK 300
#define OOM_SPARSE_QUICK 100
#define OOM_DENSE_FULL 500
#define OOM_SPARSE_FULL 150
#else
#define OOM_DENSE_QUICK 1000
#define OOM_SPARSE_QUICK 250
#define OOM_DENSE_FULL 1500
#define OOM_SPARSE_FULL 400
#endif
/* set once in main, before any test runs */
static long oom_dense = OOM_DENSE_QUICK, oom_sparse = OOM_SPARSE_QUICK;

/* ---- the allocation-failure hook ----------------------------------------- */

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t sz);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
int __real_posix_memalign(void **p, size_t align, size_t n);
void *__real_aligned_alloc(size_t align, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t sz);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);
int __wrap_posix_memalign(void **p, size_t align, size_t n);
void *__wrap_aligned_alloc(size_t align, size_t n);

/* Counting is on while `armed`; allocation number fail_at (1-based) fails.
 * Atomics: strategies may run in threads (the sweep uses one thread so the
 * allocation order, and thus N, is deterministic). */
static atomic_bool armed;
static atomic_long alloc_count;
static long fail_at;      /* 0: never fail */
static atomic_bool failed; /* the injected failure happened */
static bool trace_on;

/* TM_OOM_TRACE=1: the call stack of the failed allocation, printed when
 * the call still succeeds (to find and document fallbacks). */
static void *fail_trace[16];
static int fail_trace_n;

static bool oom_tick(void)
{
    long k;
    if (!atomic_load(&armed))
        return false;
    k = atomic_fetch_add(&alloc_count, 1) + 1;
    if (fail_at > 0 && k == fail_at) {
        atomic_store(&failed, true);
        if (trace_on)
            fail_trace_n = backtrace(fail_trace, 16);
        errno = ENOMEM;
        return true;
    }
    return false;
}

void *__wrap_malloc(size_t n) { return oom_tick() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t sz) { return oom_tick() ? NULL : __real_calloc(n, sz); }
void *__wrap_realloc(void *p, size_t n) { return oom_tick() ? NULL : __real_realloc(p, n); }
char *__wrap_strdup(const char *s) { return oom_tick() ? NULL : __real_strdup(s); }
char *__wrap_strndup(const char *s, size_t n) { return oom_tick() ? NULL : __real_strndup(s, n); }
int __wrap_posix_memalign(void **p, size_t align, size_t n)
{
    return oom_tick() ? ENOMEM : __real_posix_memalign(p, align, n);
}
void *__wrap_aligned_alloc(size_t align, size_t n)
{
    return oom_tick() ? NULL : __real_aligned_alloc(align, n);
}

/* libxml2 allocates through replaceable function pointers (xmlMemSetup),
 * so unlike igraph and METIS its allocations can be counted too: these
 * are installed for test_libxml2_oom only (libxml2 keeps its own OOM
 * handling; what is tested is that ours maps it to TM_ENOMEM and cleans
 * up). */
static bool count_libxml2;
static void *xml_malloc(size_t n) { return count_libxml2 && oom_tick() ? NULL : __real_malloc(n); }
static void *xml_realloc(void *p, size_t n)
{
    return count_libxml2 && oom_tick() ? NULL : __real_realloc(p, n);
}
static char *xml_strdup(const char *s) { return count_libxml2 && oom_tick() ? NULL : __real_strdup(s); }
static void xml_free(void *p) { free(p); }

static void oom_arm(long n)
{
    fail_at = n;
    atomic_store(&alloc_count, 0);
    atomic_store(&failed, false);
    atomic_store(&armed, true);
}

static long oom_disarm(void)
{
    atomic_store(&armed, false);
    return atomic_load(&alloc_count);
}

/* ---- signatures of results (to compare a run with the reference) -------- */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}
#define FNV0 1469598103934665603ULL

static uint64_t sig_comm(const tm_comm *c)
{
    uint64_t h = fnv(FNV0, &c->n, sizeof c->n);
    h = fnv(h, &c->nnz, sizeof c->nnz);
    h = fnv(h, c->xadj, ((size_t)c->n + 1) * sizeof *c->xadj);
    h = fnv(h, c->adj, (size_t)c->nnz * sizeof *c->adj);
    h = fnv(h, c->w, (size_t)c->nnz * sizeof *c->w);
    if (c->vwgt)
        h = fnv(h, c->vwgt, (size_t)c->n * sizeof *c->vwgt);
    return h;
}

static uint64_t sig_net(const tm_net *net)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    uint64_t h = fnv(FNV0, &g->n, sizeof g->n);
    h = fnv(h, g->off, ((size_t)g->n + 1) * sizeof *g->off);
    h = fnv(h, g->head, (size_t)g->off[g->n] * sizeof *g->head);
    h = fnv(h, g->cap, (size_t)g->n_links * sizeof *g->cap);
    h = fnv(h, g->slots, (size_t)g->n * sizeof *g->slots);
    h = fnv(h, g->transit, (size_t)g->n * sizeof *g->transit);
    for (int32_t v = 0; v < g->n; v++) {
        const char *s = tm_net_name(net, v), *d = tm_net_desc(net, v);
        uint64_t guid = tm_net_guid(net, v);
        h = fnv(h, s, strlen(s) + 1);
        if (d)
            h = fnv(h, d, strlen(d) + 1);
        h = fnv(h, &guid, sizeof guid);
    }
    return h;
}

static uint64_t sig_mapping(uint64_t h, const tm_mapping *m)
{
    h = fnv(h, &m->n, sizeof m->n);
    if (m->host)
        h = fnv(h, m->host, (size_t)m->n * sizeof *m->host);
    if (m->slot)
        h = fnv(h, m->slot, (size_t)m->n * sizeof *m->slot);
    if (m->pe)
        h = fnv(h, m->pe, (size_t)m->n * sizeof *m->pe);
    return h;
}

static uint64_t sig_metrics(uint64_t h, const tm_metrics *m)
{
    h = fnv(h, &m->max_congestion, sizeof m->max_congestion);
    h = fnv(h, &m->sum_w_hops, sizeof m->sum_w_hops);
    h = fnv(h, &m->qap_J, sizeof m->qap_J);
    h = fnv(h, &m->congestion_sum_sq, sizeof m->congestion_sum_sq);
    h = fnv(h, m->hist, sizeof m->hist);
    if (m->link_load)
        h = fnv(h, m->link_load, (size_t)m->n_links * sizeof *m->link_load);
    return h;
}

/* A memstream's contents (libc allocates it: not counted). */
typedef struct membuf {
    char *buf;
    size_t len;
    FILE *f;
} membuf;

/* ---- fixtures built before the sweep (not counted) ----------------------- */

static tm_ctx *ctx;
static tm_net *fx_fat, *fx_torus, *fx_xml; /* fattree:k=4,n=2,slots=2; torus:3x3; explicit.xml */
static tm_net *fx_dfly;                     /* dragonfly:a=3,p=2,h=1: 24 hosts in 4 groups */
static tm_net *fx_rails;                    /* fattree:k=2,n=2,rails=2,slots=6: multi-rail */
static tm_comm fx_c24, fx_c9, fx_c32, fx_c48; /* stencils of 24, 9, 32, 48 tasks */
static tm_hier fx_h;                        /* 2:4:4 */

/* A 2-D stencil of rx x ry tasks with volumes varying by position. */
static void stencil(int32_t rx, int32_t ry, tm_comm *out)
{
    int32_t n = rx * ry, m = 0;
    int32_t *s = calloc((size_t)n * 4, sizeof *s), *d = calloc((size_t)n * 4, sizeof *d);
    double *w = calloc((size_t)n * 4, sizeof *w);
    for (int32_t y = 0; y < ry; y++)
        for (int32_t x = 0; x < rx; x++) {
            int32_t t = y * rx + x;
            if (x + 1 < rx) {
                s[m] = t, d[m] = t + 1, w[m++] = 1 + (t % 3);
                s[m] = t + 1, d[m] = t, w[m++] = 1 + (t % 3);
            }
            if (y + 1 < ry) {
                s[m] = t, d[m] = t + rx, w[m++] = 2 + (t % 5);
                s[m] = t + rx, d[m] = t, w[m++] = 2 + (t % 5);
            }
        }
    tm_comm_init(out);
    assert_tm_ok(ctx, tm_comm_from_entries(ctx, n, m, s, d, w, out));
    free(s);
    free(d);
    free(w);
}

static int setup(void **state)
{
    (void)state;
    if (tm_ctx_new(&ctx))
        return -1;
    assert_tm_ok(ctx, tm_ctx_set_threads(ctx, 1));
    /* the context's METIS pool is made on first use (tm_map_run's job
     * contexts share it) and then kept: make it now, outside the counted
     * runs, so that every run allocates the same */
    if (!tm__ctx_metis_pool(ctx))
        return -1;
    trace_on = getenv("TM_OOM_TRACE") != NULL;
    if (trace_on) /* loads libgcc's unwinder now, outside the counted runs */
        fail_trace_n = backtrace(fail_trace, 16);
    assert_tm_ok(ctx, tm_topology_load(ctx, "fattree:k=4,n=2,slots=2", NULL, &fx_fat));
    assert_tm_ok(ctx, tm_topology_load(ctx, "torus:3x3", NULL, &fx_torus));
    assert_tm_ok(ctx, tm_topology_load(ctx, "dragonfly:a=3,p=2,h=1", NULL, &fx_dfly));
    assert_tm_ok(ctx, tm_topology_load(ctx, "fattree:k=2,n=2,rails=2,slots=6", NULL, &fx_rails));
    assert_tm_ok(ctx, tm_topology_load(ctx, TEST_DATA("xml/explicit.xml"), NULL, &fx_xml));
    stencil(6, 4, &fx_c24);
    stencil(3, 3, &fx_c9);
    stencil(8, 4, &fx_c32);
    stencil(8, 6, &fx_c48);
    assert_tm_ok(ctx, tm_hier_parse(ctx, "2:4:4", "1:10:100", &fx_h));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tm_net_free(fx_fat);
    tm_net_free(fx_torus);
    tm_net_free(fx_dfly);
    tm_net_free(fx_rails);
    tm_net_free(fx_xml);
    tm_comm_release(&fx_c24);
    tm_comm_release(&fx_c9);
    tm_comm_release(&fx_c32);
    tm_comm_release(&fx_c48);
    tm_ctx_free(ctx);
    return 0;
}

/* ---- the sweep ------------------------------------------------------------ */

/* One operation: runs entirely armed, frees everything it made, and on
 * success stores a signature of its result in *sig. */
typedef tm_err (*oom_op)(const void *arg, uint64_t *sig);

static void report_k(const char *name, long k, long tried, long fallback)
{
    if (getenv("TM_OOM_VERBOSE"))
        print_message("oom: %-40s K=%6ld swept %5ld fallback/tolerated %ld\n", name, k,
                      tried, fallback);
}

/* Prints a problem of the sweep and counts it: all problems of one
 * operation are listed before the test fails. */
#define PROBLEM(...)                                                              \
    do {                                                                          \
        if (bad++ < 8)                                                            \
            print_error(__VA_ARGS__), print_error("\n");                          \
    } while (0)

/* Every N up to oom_dense, then every stride-th, and always K itself. */
static long next_n(long n, long k, long stride)
{
    if (n < oom_dense)
        return n + 1;
    if (n < k && n + stride > k)
        return k;
    return n + stride;
}

/* Runs op with no failure (K allocations, reference signature), then with
 * allocation N failing for N in 1..K (all up to oom_dense, then a stride). */
/* tolerate: for the libxml2-counted sweep only, a TM_EINPUT whose message
 * contains this text is accepted (and counted) instead of TM_ENOMEM; see
 * test_libxml2_oom.  NULL everywhere else. */
static long sweep_ex(const char *name, oom_op op, const void *arg, const char *tolerate);

static long sweep(const char *name, oom_op op, const void *arg)
{
    return sweep_ex(name, op, arg, NULL);
}

static long sweep_ex(const char *name, oom_op op, const void *arg, const char *tolerate)
{
    uint64_t ref = 0, sig;
    long k, tried = 0, stride, bad = 0, fallback = 0;
    tm_err err;

    tm_ctx_clear_error(ctx);
    oom_arm(0);
    err = op(arg, &ref);
    k = oom_disarm();
    if (err)
        fail_msg("%s: reference run failed (%d): %s", name, (int)err, tm_ctx_errmsg(ctx));
    assert_true(k > 0);
    stride = k > oom_dense ? (k - oom_dense + oom_sparse - 1) / oom_sparse : 1;
    for (long n = 1; n <= k; n = next_n(n, k, stride)) {
        tm_ctx_clear_error(ctx);
        sig = 0;
        oom_arm(n);
        err = op(arg, &sig);
        oom_disarm();
        tried++;
        if (!atomic_load(&failed))
            PROBLEM("%s: allocation %ld of %ld never happened (nondeterministic?)", name, n, k);
        if (err == TM_EOK) {
            /* A failed allocation with a fallback: the result must not change. */
            if (sig != ref)
                PROBLEM("%s: allocation %ld of %ld failed, call succeeded with a different "
                         "result", name, n, k);
            fallback++;
            if (trace_on) {
                print_message("%s: allocation %ld of %ld failed, call succeeded:\n", name, n, k);
                backtrace_symbols_fd(fail_trace, fail_trace_n, 2);
            }
            continue;
        }
        if (tolerate && err == TM_EINPUT && strstr(tm_ctx_errmsg(ctx), tolerate)) {
            fallback++;
            continue;
        }
        if (err != TM_ENOMEM)
            PROBLEM("%s: allocation %ld of %ld failed: error %d (%s) instead of TM_ENOMEM: %s",
                     name, n, k, (int)err, tm_err_str(err), tm_ctx_errmsg(ctx));
        else if (!strstr(tm_ctx_errmsg(ctx), "memory"))
            PROBLEM("%s: allocation %ld of %ld failed: message '%s' does not mention memory",
                     name, n, k, tm_ctx_errmsg(ctx));
#if defined(OOM_LSAN)
        if (getenv("TM_OOM_LEAK_EACH") && __lsan_do_recoverable_leak_check())
            PROBLEM("%s: leak after allocation %ld of %ld failed", name, n, k);
#endif
    }
#if defined(OOM_LSAN)
    if (__lsan_do_recoverable_leak_check())
        PROBLEM("%s: LeakSanitizer found leaks in the sweep (TM_OOM_LEAK_EACH=1 finds the N)",
                 name);
#endif
    if (bad)
        fail_msg("%s: %ld problem(s) in the sweep (K=%ld)", name, bad, k);
    report_k(name, k, tried, fallback);
    return k;
}

/* ---- readers ------------------------------------------------------------- */

typedef struct comm_arg {
    const char *rel;
    tm_comm_format fmt;
    bool real; /* rel is under tests/data/real, not tests/data */
} comm_arg;

static tm_err op_comm_read(const void *arg, uint64_t *sig)
{
    const comm_arg *a = arg;
    tm_comm c;
    tm_err err;
    tm_comm_init(&c);
    err = tm_comm_read_file(ctx, a->real ? REAL_DATA(a->rel) : TEST_DATA(a->rel), a->fmt, &c);
    if (!err)
        *sig = sig_comm(&c);
    tm_comm_release(&c);
    return err;
}

static void test_comm_readers(void **state)
{
    static const comm_arg args[] = {
        {"comm/ring.graph", TM_COMM_METIS, false},      {"comm/ring.mtx", TM_COMM_MTX, false},
        {"comm/ring.edges", TM_COMM_EDGES, false},      {"comm/ring.csv", TM_COMM_DENSE, false},
        {"comm/ring.mat", TM_COMM_DENSE, false},        {"comm/ring.graphStats.txt", TM_COMM_GRAPHSTATS, false},
        {"comm/ring.mpiP", TM_COMM_MPIP, false},        {"comm/ring.grf", TM_COMM_SCOTCH, false},
        {"comm/ring.mtx", TM_COMM_AUTO, false},         {"cli/three.edges", TM_COMM_AUTO, false},
        /* real files: long enough to grow every array several times */
        {"data/commmatrix/cnca_mpiP_cm/lulesh_64.graphStats.txt", TM_COMM_AUTO, true},
        {"data/commmatrix/maplib/cg/comm_matrix.p2p.size.csv", TM_COMM_AUTO, true},
        {"data/commmatrix/netloc_scotch/app.mat", TM_COMM_AUTO, true},
        {"data/scotch/grf/m16x16.grf", TM_COMM_AUTO, true},
    };
    (void)state;
    for (size_t i = 0; i < sizeof args / sizeof *args; i++)
        sweep(args[i].rel, op_comm_read, &args[i]);
}

static tm_err op_comm_ops(const void *arg, uint64_t *sig)
{
    tm_comm s, c;
    tm_err err;
    membuf mb = {0};
    (void)arg;
    tm_comm_init(&s);
    tm_comm_init(&c);
    err = tm_comm_symmetrize(ctx, &fx_c24, &s);
    if (!err)
        err = tm_comm_copy(ctx, &s, &c);
    if (!err && !(mb.f = open_memstream(&mb.buf, &mb.len)))
        err = TM_EIO;
    if (!err)
        err = tm_comm_write_metis(ctx, &c, mb.f);
    if (!err)
        err = tm_comm_write_edges(ctx, &c, mb.f);
    if (mb.f)
        fclose(mb.f);
    if (!err)
        *sig = fnv(sig_comm(&c), mb.buf, mb.len);
    free(mb.buf);
    tm_comm_release(&s);
    tm_comm_release(&c);
    return err;
}

static void test_comm_ops(void **state)
{
    (void)state;
    sweep("comm symmetrize+copy+write", op_comm_ops, NULL);
}

typedef struct topo_arg {
    const char *spec; /* generator spec, file under tests/data, or (real) under tests/data/real */
    bool real;
} topo_arg;

static tm_err analyse(const tm_net *net, uint64_t *sig);

/* Loads a topology, then detects its levels, computes `topo info` and the
 * hop-distance oracle of all hosts on it. */
static tm_err op_topology(const void *arg, uint64_t *sig)
{
    const topo_arg *a = arg;
    tm_topo_opts o = TM_TOPO_OPTS_INIT;
    tm_net *net = NULL;
    const char *spec = a->real ? REAL_DATA(a->spec)
                       : tm_gen_is_spec(a->spec) ? a->spec : TEST_DATA(a->spec);
    tm_err err = tm_topology_load(ctx, spec, &o, &net);
    if (!err)
        err = analyse(net, sig);
    if (!err)
        *sig ^= sig_net(net);
    tm_net_free(net);
    return err;
}

static void test_topologies(void **state)
{
    static const topo_arg args[] = {
        {"ib/small.topo", false},
        {"ib/quirks.topo", false},
        {"ib/mixed-tokens.topo", false},
        {"ib/notoken.topo", false},
        {"cli/star.graphml", false},
        {"xml/multigraph.graphml", false},
        {"xml/explicit.xml", false},
        {"data/ibnetdiscover/jabl_ibtopotool/3.topo", true},
        {"data/ibnetdiscover/ibsim_net/net.2sw2path4hca2port", true},
        {"torus:3x4", false},
        {"mesh:3x3x2", false},
        {"hypercube:3", false},
        {"fattree:k=4,n=2", false},
        {"fattree:k=2,n=2,rails=2", false},
        {"clos:leaves=4,hosts_per_leaf=3,spines=2,uplinks=2", false},
        {"clos3:pods=2,leaves=2,hosts_per_leaf=2", false},
        {"dragonfly:h=1", false},
        {"dragonfly:h=2,g=5", false},
        {"percs:supernodes=2", false},
    };
    (void)state;
    for (size_t i = 0; i < sizeof args / sizeof *args; i++)
        sweep(args[i].spec, op_topology, &args[i]);
}

/* ibnetdiscover with a node-name map, HCAs kept separate. */
static tm_err op_ibnet_nodemap(const void *arg, uint64_t *sig)
{
    static const char map_text[] = "# guid name\n0x0000000000000b01 renamed-b01\n"
                                   "0x0000000000000c01 \"quoted name\"\n";
    FILE *mf = tm_test_memfile(map_text), *in = fopen(TEST_DATA("ib/small.topo"), "r");
    tm_nodemap *map = NULL;
    tm_ibnet_opts o = TM_IBNET_OPTS_INIT;
    tm_net *net = NULL;
    tm_err err;
    (void)arg;
    assert_non_null(mf);
    assert_non_null(in);
    err = tm_nodemap_read(ctx, mf, "map", &map);
    if (!err)
        err = tm_net_new(ctx, &net);
    if (!err) {
        o.nodemap = map;
        o.keep_hcas_separate = true;
        err = tm_ibnet_read(ctx, in, "small.topo", &o, net);
    }
    if (!err)
        err = tm_net_finalize(ctx, net);
    if (!err)
        *sig = sig_net(net);
    tm_net_free(net);
    tm_nodemap_free(map);
    fclose(mf);
    fclose(in);
    return err;
}

/* The PSMN X5 fabric (100 nodes) with its node-name map, 16 slots. */
static tm_err op_ibnet_x5(const void *arg, uint64_t *sig)
{
    FILE *mf = fopen(REAL_DATA("data/ibnetdiscover/psmn_X5/X5.map"), "r");
    FILE *in = fopen(REAL_DATA("data/ibnetdiscover/psmn_X5/X5.topofile"), "r");
    tm_nodemap *map = NULL;
    tm_ibnet_opts o = TM_IBNET_OPTS_INIT;
    tm_net *net = NULL;
    tm_err err;
    (void)arg;
    assert_non_null(mf);
    assert_non_null(in);
    err = tm_nodemap_read(ctx, mf, "X5.map", &map);
    if (!err)
        err = tm_net_new(ctx, &net);
    if (!err) {
        o.nodemap = map;
        o.slots = 16;
        err = tm_ibnet_read(ctx, in, "X5.topofile", &o, net);
    }
    if (!err)
        err = tm_net_finalize(ctx, net);
    if (!err)
        err = analyse(net, sig);
    tm_net_free(net);
    tm_nodemap_free(map);
    fclose(mf);
    fclose(in);
    return err;
}

static void test_ibnet_nodemap(void **state)
{
    (void)state;
    sweep("ibnet + nodemap", op_ibnet_nodemap, NULL);
    sweep("ibnet X5 + X5.map", op_ibnet_x5, NULL);
}


static tm_err op_writers(const void *arg, uint64_t *sig)
{
    const tm_net *net = arg;
    static double load[4096]; /* static: the test's own allocations would be counted */
    membuf mb = {0};
    tm_err err = TM_EOK;
    assert_true(tm_net_csr_get(net)->n_links <= 4096);
    for (int32_t l = 0; l < tm_net_csr_get(net)->n_links; l++)
        load[l] = 0.5 * l;
    if (!(mb.f = open_memstream(&mb.buf, &mb.len)))
        err = TM_EIO;
    if (!err)
        err = tm_graphml_write(ctx, net, load, mb.f);
    if (!err)
        err = tm_dot_write(ctx, net, load, mb.f);
    if (!err)
        err = tm_ibnet_write(ctx, net, mb.f);
    if (mb.f)
        fclose(mb.f);
    if (!err)
        *sig = fnv(FNV0, mb.buf, mb.len);
    free(mb.buf);
    return err;
}

/* Slurm topology.conf (with LinkSpeed; of blocks) and topology.yaml (one
 * tree; a tree, blocks and a flat one): the tree levels, the blocks and the
 * hostlist compression allocate. */
static tm_err op_slurm(const void *arg, uint64_t *sig)
{
    tm_slurm_opts o = TM_SLURM_OPTS_INIT;
    membuf mb = {0};
    tm_err err = TM_EOK;
    if (!(mb.f = open_memstream(&mb.buf, &mb.len)))
        err = TM_EIO;
    o.link_speed = true;
    if (!err)
        err = tm_slurm_topology_write(ctx, arg, &o, mb.f);
    o.yaml = true;
    if (!err)
        err = tm_slurm_topology_write(ctx, arg, &o, mb.f);
    /* blocks, and a topology.yaml of a tree, blocks and a flat topology */
    o.yaml = false;
    o.plugin = TM_SLURM_BLOCK;
    if (!err)
        err = tm_slurm_topology_write(ctx, arg, &o, mb.f);
    o.yaml = true;
    o.topologies = "t=tree,b=block,f=flat";
    if (!err)
        err = tm_slurm_topology_write(ctx, arg, &o, mb.f);
    if (mb.f)
        fclose(mb.f);
    if (!err)
        *sig = fnv(FNV0, mb.buf, mb.len);
    free(mb.buf);
    return err;
}

static void test_writers(void **state)
{
    (void)state;
    sweep("writers fattree", op_writers, fx_fat);
    sweep("writers explicit.xml", op_writers, fx_xml);
    sweep("slurm topology fattree", op_slurm, fx_fat);
}

/* ---- hwloc, allocations, mappings --------------------------------------- */

static tm_err op_hwloc(const void *arg, uint64_t *sig)
{
    FILE *in = fopen(REAL_DATA(arg), "r");
    tm_hier h;
    tm_err err;
    assert_non_null(in);
    err = tm_hier_from_hwloc(ctx, in, "hwloc.xml", &h);
    fclose(in);
    if (!err)
        *sig = fnv(fnv(FNV0, h.a, sizeof h.a), h.d, sizeof h.d);
    return err;
}

static void test_hwloc(void **state)
{
    (void)state;
    sweep("hwloc power8", op_hwloc, "data/hwloc/hwloc_tests/power8gpudistances.xml");
    sweep("hwloc 24em64t", op_hwloc, "data/hwloc/hwloc_tests/24em64t-2n6c2t-pci.xml");
}

static uint64_t sig_alloc(const tm_alloc *a)
{
    uint64_t h = fnv(FNV0, &a->n, sizeof a->n);
    h = fnv(h, a->host, (size_t)a->n * sizeof *a->host);
    return fnv(h, a->slots, (size_t)a->n * sizeof *a->slots);
}

static tm_err op_alloc(const void *arg, uint64_t *sig)
{
    tm_alloc a, b, c;
    char **names = NULL;
    size_t count = 0;
    tm_err err;
    (void)arg;
    tm_alloc_init(&a);
    tm_alloc_init(&b);
    tm_alloc_init(&c);
    err = tm_alloc_parse(ctx, fx_xml, TEST_DATA("alloc/hostfile.txt"), &a);
    if (!err)
        err = tm_alloc_from_hostlist(ctx, fx_xml, "n[01-03,05-08],stor", &b);
    if (!err)
        err = tm_alloc_all(ctx, fx_xml, &c);
    if (!err)
        err = tm_hostlist_expand(ctx, "a[1-3,7],b[01-02]c[1-2],d", "expr", &names, &count);
    if (!err) {
        *sig = fnv(fnv(fnv(sig_alloc(&a), &b.n, sizeof b.n), &c.n, sizeof c.n), &count,
                   sizeof count);
        for (size_t i = 0; i < count; i++)
            *sig = fnv(*sig, names[i], strlen(names[i]));
    }
    tm_hostlist_free(names, count);
    tm_alloc_release(&a);
    tm_alloc_release(&b);
    tm_alloc_release(&c);
    return err;
}

static void test_alloc(void **state)
{
    (void)state;
    sweep("hostfile + hostlists", op_alloc, NULL);
}

static tm_err op_mapfile(const void *arg, uint64_t *sig)
{
    FILE *in = fopen(TEST_DATA("map/example.rankfile"), "r");
    FILE *pe = tm_test_memfile("3\n0\n2\n1\n");
    tm_mapping m, h;
    membuf mb = {0};
    tm_mapwrite_opts wo = TM_MAPWRITE_OPTS_INIT;
    tm_err err;
    (void)arg;
    assert_non_null(in);
    tm_mapping_init(&m);
    tm_mapping_init(&h);
    err = tm_mapping_read(ctx, fx_xml, 0, in, "example.rankfile", -1, &m);
    if (!err)
        err = tm_mapping_read(ctx, NULL, 4, pe, "pe.txt", 4, &h);
    if (!err && !(mb.f = open_memstream(&mb.buf, &mb.len)))
        err = TM_EIO;
    for (int f = TM_MAPFMT_OPENMPI; !err && f <= TM_MAPFMT_PLAIN; f++)
        err = tm_mapping_write(ctx, fx_xml, &m, (tm_mapfmt)f, &wo, mb.f);
    if (!err)
        err = tm_mapping_write(ctx, NULL, &h, TM_MAPFMT_PLAIN, &wo, mb.f);
    if (mb.f)
        fclose(mb.f);
    if (!err)
        *sig = fnv(sig_mapping(sig_mapping(FNV0, &m), &h), mb.buf, mb.len);
    free(mb.buf);
    tm_mapping_release(&m);
    tm_mapping_release(&h);
    fclose(in);
    fclose(pe);
    return err;
}

static void test_mapfile(void **state)
{
    (void)state;
    sweep("rankfile/PE read + write", op_mapfile, NULL);
}

/* ---- network analysis, routing, metrics --------------------------------- */

static tm_err analyse(const tm_net *net, uint64_t *sig)
{
    tm_net_levels lv;
    tm_net_info info = {0};
    tm_netdist *nd = NULL;
    tm_alloc a;
    tm_err err;
    tm_alloc_init(&a);
    tm_net_levels_init(&lv);
    err = tm_net_levels_detect(ctx, net, &lv);
    if (!err)
        err = tm_net_info_compute(ctx, net, true, &info);
    if (!err)
        err = tm_alloc_all(ctx, net, &a);
    if (!err)
        err = tm_netdist_new(ctx, net, a.host, a.n, &nd);
    if (!err) {
        uint64_t h = fnv(FNV0, lv.kind, sizeof lv.kind);
        h = fnv(h, lv.n_groups, sizeof lv.n_groups);
        for (int l = 0; l < lv.n_levels; l++)
            h = fnv(h, lv.group[l], (size_t)tm_net_n_vertices(net) * sizeof *lv.group[l]);
        h = fnv(h, &info.diameter, sizeof info.diameter);
        for (int32_t c = 0; c < info.n_capclasses; c++)
            h = fnv(h, &info.capclasses[c], sizeof info.capclasses[c]);
        h = fnv(h, tm_netdist_kind(nd), strlen(tm_netdist_kind(nd)));
        for (int32_t i = 0; i < a.n; i++)
            for (int32_t j = 0; j < a.n; j++) {
                int32_t d = tm_netdist_hops(nd, i, j);
                h = fnv(h, &d, sizeof d);
            }
        *sig = h;
    }
    tm_netdist_free(nd);
    tm_alloc_release(&a);
    tm_net_info_release(&info);
    tm_net_levels_release(&lv);
    return err;
}

typedef struct eval_arg {
    const tm_net *net;
    const tm_comm *comm;
    tm_route_kind kind;
    bool approximate;
} eval_arg;

static tm_err op_eval(const void *arg, uint64_t *sig)
{
    const eval_arg *a = arg;
    tm_route *r = NULL;
    tm_alloc al;
    tm_mapping m;
    tm_metrics mt;
    tm_metrics_opts o = TM_METRICS_OPTS_INIT;
    tm_err err;
    tm_alloc_init(&al);
    tm_mapping_init(&m);
    tm_metrics_init(&mt);
    o.keep_link_loads = true;
    o.approximate = a->approximate;
    err = tm_route_new(ctx, a->net, a->kind, &r);
    if (!err)
        err = tm_alloc_all(ctx, a->net, &al);
    if (!err)
        err = tm_mapping_consecutive(ctx, &al, a->comm->n, &m);
    if (!err)
        err = tm_metrics_eval(ctx, r, a->comm, &m, &o, &mt);
    if (!err)
        *sig = sig_metrics(FNV0, &mt);
    tm_metrics_release(&mt);
    tm_mapping_release(&m);
    tm_alloc_release(&al);
    tm_route_free(r);
    return err;
}

static tm_err op_eval_hier(const void *arg, uint64_t *sig)
{
    tm_mapping m;
    tm_metrics mt;
    tm_err err;
    (void)arg;
    tm_mapping_init(&m);
    tm_metrics_init(&mt);
    err = tm_mapping_alloc(ctx, &m, fx_c32.n, true);
    if (!err) {
        for (int32_t t = 0; t < m.n; t++)
            m.pe[t] = (t * 7) % 32;
        err = tm_metrics_eval_hier(ctx, &fx_h, &fx_c32, &m, &mt);
    }
    if (!err)
        *sig = sig_metrics(FNV0, &mt);
    tm_metrics_release(&mt);
    tm_mapping_release(&m);
    return err;
}

static void test_eval(void **state)
{
    eval_arg a1 = {fx_fat, &fx_c24, TM_ROUTE_ECMP, false};
    eval_arg a2 = {fx_fat, &fx_c24, TM_ROUTE_SINGLE, false};
    eval_arg a3 = {fx_torus, &fx_c9, TM_ROUTE_DOR, false};
    eval_arg a4 = {fx_torus, &fx_c9, TM_ROUTE_ECMP, true};
    eval_arg a5 = {fx_torus, &fx_c9, TM_ROUTE_ECMP, false}; /* the grid batch */
    eval_arg a6 = {fx_dfly, &fx_c24, TM_ROUTE_VALIANT, false};
    eval_arg a7 = {fx_dfly, &fx_c24, TM_ROUTE_UGAL, false};
    eval_arg a8 = {fx_rails, &fx_c24, TM_ROUTE_ECMP, false};  /* striped over rails */
    eval_arg a9 = {fx_rails, &fx_c24, TM_ROUTE_MINHOP, false}; /* port LIDs, rails */
    (void)state;
    sweep("eval fattree ecmp", op_eval, &a1);
    sweep("eval fattree single", op_eval, &a2);
    sweep("eval torus dor", op_eval, &a3);
    sweep("eval torus approximate", op_eval, &a4);
    sweep("eval torus ecmp", op_eval, &a5);
    sweep("eval dragonfly valiant", op_eval, &a6);
    sweep("eval dragonfly ugal", op_eval, &a7);
    sweep("eval multi-rail ecmp", op_eval, &a8);
    sweep("eval multi-rail minhop", op_eval, &a9);
    sweep("eval hierarchy", op_eval_hier, NULL);
}

/* ---- tm_map_run ------------------------------------------------------------ */

typedef struct map_arg {
    const tm_net *net;    /* NULL: hierarchy mode on fx_h */
    const tm_comm *comm;
    const char *strategy;
    const char *refine;
    double imbalance;
    tm_objective obj;
} map_arg;

static tm_err op_map(const void *arg, uint64_t *sig)
{
    const map_arg *a = arg;
    tm_problem p = {0};
    tm_alloc al;
    tm_route *r = NULL;
    tm_map_result res;
    tm_err err = TM_EOK;
    tm_alloc_init(&al);
    tm_map_result_init(&res);
    p.comm = a->comm;
    p.imbalance = a->imbalance;
    if (a->net) {
        p.net = a->net;
        err = tm_alloc_all(ctx, a->net, &al);
        if (!err)
            err = tm_route_new(ctx, a->net, TM_ROUTE_ECMP, &r);
        p.alloc = &al;
        p.route = r;
    } else {
        p.hier = &fx_h;
    }
    if (!err)
        err = tm_map_run(ctx, &p, a->strategy, a->refine, a->obj, &res);
    if (!err) {
        uint64_t h = sig_mapping(FNV0, &res.mapping);
        for (int32_t i = 0; i < res.n_rows; i++)
            h = sig_metrics(h, res.rows[i].metrics);
        *sig = h;
    }
    tm_map_result_release(&res);
    tm_route_free(r);
    tm_alloc_release(&al);
    return err;
}

static void test_map_network(void **state)
{
    static map_arg args[] = {
        {NULL, NULL, "identity", NULL, -1, TM_OBJ_CONGESTION},
        {NULL, NULL, "greedy", NULL, -1, TM_OBJ_CONGESTION},
        {NULL, NULL, "recursive", "nc:1", -1, TM_OBJ_CONGESTION},
        {NULL, NULL, "rcm", NULL, -1, TM_OBJ_DILATION},
        {NULL, NULL, "topdown", "ils:10+ta:200", -1, TM_OBJ_CONGESTION},
        {NULL, NULL, "all", "ta:50", -1, TM_OBJ_PARETO},
        {NULL, NULL, "topdown-ms", NULL, -1, TM_OBJ_CONGESTION},
        /* the default pipeline: its rows, levels and restarts, on the 9-task job (on the
         * 24-task one and the fat-tree K is 20,000 and the sweep half of test_oom's time) */
        {NULL, NULL, "all", "auto", -1, TM_OBJ_PARETO},
        {NULL, NULL, "grow", "np:8+ta:100", -1, TM_OBJ_QAP},
    };
    char name[96];
    (void)state;
    for (size_t i = 0; i < sizeof args / sizeof *args; i++) {
        args[i].net = i % 2 ? fx_torus : fx_fat;
        args[i].comm = i % 2 ? &fx_c9 : &fx_c24;
        snprintf(name, sizeof name, "map %s %s %s", i % 2 ? "torus" : "fattree",
                 args[i].strategy, args[i].refine ? args[i].refine : "");
        sweep(name, op_map, &args[i]);
    }
}

static void test_map_hierarchy(void **state)
{
    static const map_arg args[] = {
        {NULL, &fx_c32, "topdown", "ils:10", -1, TM_OBJ_QAP},
        {NULL, &fx_c32, "mm", "nc:2", -1, TM_OBJ_QAP},
        {NULL, &fx_c32, "allc", "n2", -1, TM_OBJ_QAP},
        {NULL, &fx_c32, "bottomup", "np:8", -1, TM_OBJ_QAP},
        {NULL, &fx_c32, "topdown-ms", NULL, -1, TM_OBJ_QAP},
        {NULL, &fx_c32, "all", NULL, -1, TM_OBJ_QAP},
        /* general mapping: 48 tasks on 32 PEs */
        {NULL, &fx_c48, "random", NULL, 0.5, TM_OBJ_QAP},
        {NULL, &fx_c48, "topdown", "nc:1", 0.5, TM_OBJ_QAP},
        {NULL, &fx_c48, "topdown-c", NULL, 0.5, TM_OBJ_QAP},
    };
    char name[96];
    (void)state;
    for (size_t i = 0; i < sizeof args / sizeof *args; i++) {
        snprintf(name, sizeof name, "map 2:4:4 %s %s%s", args[i].strategy,
                 args[i].refine ? args[i].refine : "", args[i].imbalance >= 0 ? " (48 tasks)" : "");
        sweep(name, op_map, &args[i]);
    }
}

/* The XML readers with libxml2's own allocations counted as well.  One
 * libxml2 (2.9.14) path hides its OOM: xmlParseURI returns NULL without
 * reporting, and igraph's GraphML parser then rejects the xmlns URI as
 * invalid ("... is not a valid URI" / "is not absolute"), so there is
 * nothing for us to map; those runs are tolerated as TM_EINPUT naming the
 * URI and counted.  Everything else must be TM_ENOMEM. */
static void test_libxml2_oom(void **state)
{
    static const topo_arg args[] = {
        {"cli/star.graphml", false},
        {"xml/multigraph.graphml", false},
        {"xml/explicit.xml", false},
    };
    (void)state;
    count_libxml2 = true;
    for (size_t i = 0; i < sizeof args / sizeof *args; i++)
        sweep_ex(args[i].spec, op_topology, &args[i], "URI");
    /* Not hwloc: with libxml2 counted, LeakSanitizer reports a block from
     * libxml2's xmlBufCreateSize left after some failure, and the count
     * near the end varies between runs; not yet analysed (docs/trust.md). */
    count_libxml2 = false;
}

int main(void)
{
    const char *full = getenv("TM_OOM_FULL");
    if (full && strcmp(full, "1") == 0)
        oom_dense = OOM_DENSE_FULL, oom_sparse = OOM_SPARSE_FULL;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_comm_readers),  cmocka_unit_test(test_comm_ops),
        cmocka_unit_test(test_topologies),    cmocka_unit_test(test_ibnet_nodemap),
        cmocka_unit_test(test_writers),       cmocka_unit_test(test_hwloc),
        cmocka_unit_test(test_alloc),         cmocka_unit_test(test_mapfile),
        cmocka_unit_test(test_eval),
        cmocka_unit_test(test_map_network),   cmocka_unit_test(test_map_hierarchy),
        cmocka_unit_test(test_libxml2_oom),
    };
    /* before any libxml2 allocation, so every block is freed by xml_free */
    xmlMemSetup(xml_free, xml_malloc, xml_realloc, xml_strdup);
    return cmocka_run_group_tests(tests, setup, teardown);
}
