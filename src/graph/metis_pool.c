/* metis_pool.c - METIS isolated per call (see metis_pool.h for why).
 *
 * A worker is a child process forked from the library with a socketpair
 * and a memfd.  The parent writes one request into the memfd (header, then
 * the METIS arrays at 8-byte aligned offsets), sends one byte; the worker
 * maps the memfd (remapping when it grew), calls METIS with pointers into
 * it, writes the part vector and return code back and answers one byte.
 * A worker ends at EOF on its socket (pool freed, or the parent died) and
 * blocks the termination signals: stopping is the parent's decision
 * (an interrupted `topomap map` still finishes its METIS calls quickly).
 *
 * Why by hand: no library offers an isolated METIS; processes are the only
 * way to give each call its own libc rand() state and signal dispositions. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "metis_pool.h"
#include "../util/util.h"

#define MAX_WORKERS 64
/* How long a new worker may take to say it is alive (see spawn). */
#define READY_MS 10000
/* A worker that holds a call and uses no CPU for this many seconds is hung
 * (a fork while another thread held an allocator lock: seen under ASan,
 * whose allocator has no fork handler, on a loaded machine) and is killed;
 * the call then runs in this process.  A working METIS call accrues CPU
 * time every second. */
#define STALL_S 10

/* The one piece of process-wide state: METIS itself is process-wide, so at
 * most one call runs in this process (whatever the number of contexts). */
static pthread_mutex_t inproc_mutex = PTHREAD_MUTEX_INITIALIZER;

typedef struct worker {
    pid_t pid;
    int sock, memfd;
    void *map;
    size_t mapsz;
    bool busy, dead;
} worker;

struct tm__metis_pool {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    worker w[MAX_WORKERS];
    int nw;
    long calls_to_workers; /* tests: calls that did overlap */
    bool force_worker; /* tests: never run METIS in this process */
    int stall_s;       /* STALL_S; tests shorten it */
};

typedef struct req {
    int64_t recursive, nv, ncon, nparts, nadj, has_vwgt, has_adjwgt, has_tp;
    int64_t rc, objval;
    idx_t options[METIS_NOPTIONS];
    /* offsets of the arrays from the start of the segment */
    int64_t o_xadj, o_adj, o_vwgt, o_adjwgt, o_tp, o_part, size;
} req;

static int64_t align8(int64_t x) { return (x + 7) & ~(int64_t)7; }

static void layout(req *q)
{
    int64_t at = align8((int64_t)sizeof *q);
    q->o_xadj = at;
    at = align8(at + (q->nv + 1) * (int64_t)sizeof(idx_t));
    q->o_adj = at;
    at = align8(at + q->nadj * (int64_t)sizeof(idx_t));
    q->o_vwgt = at;
    at = align8(at + (q->has_vwgt ? q->nv * q->ncon : 0) * (int64_t)sizeof(idx_t));
    q->o_adjwgt = at;
    at = align8(at + (q->has_adjwgt ? q->nadj : 0) * (int64_t)sizeof(idx_t));
    q->o_tp = at;
    at = align8(at + (q->has_tp ? q->nparts * q->ncon : 0) * (int64_t)sizeof(real_t));
    q->o_part = at;
    q->size = align8(at + q->nv * (int64_t)sizeof(idx_t));
}

/* ---- worker side --------------------------------------------------------- */

static void serve_one(char *seg)
{
    req *q = (req *)seg;
    idx_t nv = (idx_t)q->nv, ncon = (idx_t)q->ncon, np = (idx_t)q->nparts, obj = 0;
    idx_t *xadj = (idx_t *)(seg + q->o_xadj), *adj = (idx_t *)(seg + q->o_adj);
    idx_t *vw = q->has_vwgt ? (idx_t *)(seg + q->o_vwgt) : NULL;
    idx_t *ew = q->has_adjwgt ? (idx_t *)(seg + q->o_adjwgt) : NULL;
    real_t *tp = q->has_tp ? (real_t *)(seg + q->o_tp) : NULL;
    idx_t *part = (idx_t *)(seg + q->o_part);
    if (q->recursive)
        q->rc = METIS_PartGraphRecursive(&nv, &ncon, xadj, adj, vw, NULL, ew, &np, tp, NULL,
                                         q->options, &obj, part);
    else
        q->rc = METIS_PartGraphKway(&nv, &ncon, xadj, adj, vw, NULL, ew, &np, tp, NULL,
                                    q->options, &obj, part);
    q->objval = obj;
}

static void worker_main(int sock, int memfd)
{
    void *map = NULL;
    size_t mapsz = 0;
    sigset_t set;
    /* Ctrl-C reaches the whole process group and Slurm signals every
     * process of the step: only the parent decides to stop. */
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGUSR1);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGQUIT);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);
    for (;;) {
        char c;
        struct stat st;
        ssize_t r = read(sock, &c, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0 || fstat(memfd, &st) < 0)
            _exit(0);
        if ((size_t)st.st_size > mapsz) {
            if (map)
                munmap(map, mapsz);
            mapsz = (size_t)st.st_size;
            map = mmap(NULL, mapsz, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
            if (map == MAP_FAILED)
                _exit(1);
        }
        serve_one(map);
        if (send(sock, &c, 1, MSG_NOSIGNAL) != 1)
            _exit(0);
    }
}

/* ---- parent side --------------------------------------------------------- */

tm__metis_pool *tm__metis_pool_new(void)
{
    tm__metis_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    p->stall_s = STALL_S;
    return p;
}

static void worker_close(worker *w)
{
    if (w->map)
        munmap(w->map, w->mapsz);
    if (w->sock >= 0)
        close(w->sock);
    if (w->memfd >= 0)
        close(w->memfd);
    w->map = NULL;
    w->sock = w->memfd = -1;
    if (w->pid > 0)
        while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR) {
        }
    w->pid = 0;
}

static void *pool_make(void) { return tm__metis_pool_new(); }
static void pool_drop(void *p) { tm__metis_pool_free(p); }

tm__metis_pool *tm__ctx_metis_pool(tm_ctx *ctx)
{
    return tm__ctx_shared_pool(ctx, pool_make, pool_drop);
}

void tm__metis_pool_free(tm__metis_pool *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->nw; i++)
        worker_close(&p->w[i]);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p);
}

/* The child's first act: allocate in every size range METIS uses, then
 * say "ready".  A fork copies the allocator's locks as they were; with
 * glibc's malloc that is safe (fork takes its locks), but ASan's allocator
 * in clang 14 has no fork handler, and a lock that another thread held at
 * the fork stays locked in the child forever (seen once in make test: the
 * worker hung in METIS's first malloc, the parent in read()).  A child
 * that hangs here never answers, and the parent gives up on it. */
static void worker_ready(int sock)
{
    static const size_t sizes[] = {16, 256, 4096, 65536, 1 << 20};
    char c = 'R';
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        free(malloc(sizes[i]));
    if (send(sock, &c, 1, MSG_NOSIGNAL) != 1)
        _exit(0);
}

/* True when the new worker answered within READY_MS; otherwise it is killed
 * (SIGKILL: it blocks the other signals) and reaped, and the caller runs
 * its METIS calls in this process instead (same results, no parallelism). */
static bool await_ready(int sock, pid_t pid)
{
    struct pollfd pf = {.fd = sock, .events = POLLIN};
    char c = 0;
    int r;
    while ((r = poll(&pf, 1, READY_MS)) < 0 && errno == EINTR) {
    }
    if (r == 1 && read(sock, &c, 1) == 1 && c == 'R')
        return true;
    kill(pid, SIGKILL);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
    return false;
}

/* In a new worker: closes every descriptor but a and b (stdin, stdout and
 * stderr stay).  close_range (Linux 5.9, glibc 2.34) with a bounded loop
 * as the fallback. */
static void close_other_fds(int a, int b)
{
    unsigned lo = (unsigned)(a < b ? a : b), hi = (unsigned)(a < b ? b : a);
    long max = sysconf(_SC_OPEN_MAX);
    if ((lo <= 3 || close_range(3, lo - 1, 0) == 0) &&
        (hi <= lo + 1 || close_range(lo + 1, hi - 1, 0) == 0) && close_range(hi + 1, ~0U, 0) == 0)
        return;
    for (long fd = 3; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
        if (fd != a && fd != b)
            close((int)fd);
}

/* Called with p->mu held.  -1 if the worker cannot be created. */
static int spawn(tm__metis_pool *p)
{
    worker *w = &p->w[p->nw];
    int sv[2], memfd;
    pid_t pid;
    if (p->nw == MAX_WORKERS)
        return -1;
    memfd = memfd_create("topomap-metis", MFD_CLOEXEC);
    if (memfd < 0)
        return -1;
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        close(memfd);
        return -1;
    }
    pid = fork();
    if (pid == 0) {
        /* the child: forked only where the library starts its threads,
         * before they exist (never from a worker thread); drop every other
         * descriptor, the sockets of this pool's other workers and of the
         * pools of other live contexts alike, so each worker sees EOF when
         * its own pool goes (a process with several contexts, e.g. the
         * Python module, would otherwise wait forever in tm_ctx_free) */
        close_other_fds(sv[1], memfd);
        worker_ready(sv[1]);
        worker_main(sv[1], memfd);
        _exit(0);
    }
    close(sv[1]);
    if (pid < 0 || !await_ready(sv[0], pid)) {
        close(sv[0]);
        close(memfd);
        return -1;
    }
    memset(w, 0, sizeof *w);
    w->pid = pid;
    w->sock = sv[0];
    w->memfd = memfd;
    return p->nw++;
}

void tm__metis_pool_prefork(tm__metis_pool *p, int n)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    while (p->nw < n && p->nw < MAX_WORKERS && spawn(p) >= 0) {
    }
    pthread_mutex_unlock(&p->mu);
}

void tm__metis_pool_force_worker(tm__metis_pool *p, bool on)
{
    pthread_mutex_lock(&p->mu);
    p->force_worker = on;
    pthread_mutex_unlock(&p->mu);
}

void tm__metis_pool_set_stall(tm__metis_pool *p, int seconds)
{
    pthread_mutex_lock(&p->mu);
    p->stall_s = seconds > 0 ? seconds : STALL_S;
    pthread_mutex_unlock(&p->mu);
}

long tm__metis_pool_worker_calls(tm__metis_pool *p)
{
    long n;
    pthread_mutex_lock(&p->mu);
    n = p->calls_to_workers;
    pthread_mutex_unlock(&p->mu);
    return n;
}

long tm__metis_pool_worker_pid(tm__metis_pool *p, int i)
{
    long pid = -1;
    pthread_mutex_lock(&p->mu);
    if (i >= 0 && i < p->nw)
        pid = (long)p->w[i].pid;
    pthread_mutex_unlock(&p->mu);
    return pid;
}

int tm__metis_pool_workers(tm__metis_pool *p)
{
    int n;
    pthread_mutex_lock(&p->mu);
    n = p->nw;
    pthread_mutex_unlock(&p->mu);
    return n;
}

/* An idle live worker of p, marked busy; -1 if none.  Called with p->mu. */
static int take_idle(tm__metis_pool *p, int *live)
{
    *live = 0;
    for (int i = 0; i < p->nw; i++) {
        if (p->w[i].dead)
            continue;
        ++*live;
        if (!p->w[i].busy) {
            p->w[i].busy = true;
            p->calls_to_workers++;
            return i;
        }
    }
    return -1;
}

static void release(tm__metis_pool *p, int k, bool dead)
{
    pthread_mutex_lock(&p->mu);
    p->w[k].busy = false;
    p->w[k].dead = p->w[k].dead || dead;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

/* The request in worker w's segment (grown to fit).  0 on success. */
static int stage(worker *w, const req *q, const idx_t *xadj, const idx_t *adj, const idx_t *vw,
                 const idx_t *ew, const real_t *tp)
{
    char *seg;
    if ((size_t)q->size > w->mapsz) {
        size_t sz = (size_t)q->size + ((size_t)q->size >> 1);
        void *m;
        if (ftruncate(w->memfd, (off_t)sz) < 0)
            return -1;
        m = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_SHARED, w->memfd, 0);
        if (m == MAP_FAILED)
            return -1;
        if (w->map)
            munmap(w->map, w->mapsz);
        w->map = m;
        w->mapsz = sz;
    }
    seg = w->map;
    memcpy(seg, q, sizeof *q);
    memcpy(seg + q->o_xadj, xadj, (size_t)(q->nv + 1) * sizeof *xadj);
    memcpy(seg + q->o_adj, adj, (size_t)q->nadj * sizeof *adj);
    if (vw)
        memcpy(seg + q->o_vwgt, vw, (size_t)(q->nv * q->ncon) * sizeof *vw);
    if (ew)
        memcpy(seg + q->o_adjwgt, ew, (size_t)q->nadj * sizeof *ew);
    if (tp)
        memcpy(seg + q->o_tp, tp, (size_t)(q->nparts * q->ncon) * sizeof *tp);
    return 0;
}

/* One round trip; 0 on success, -1 if the worker is gone. */
/* CPU time (clock ticks) the process has used, -1 if it is gone. */
static long cpu_ticks(pid_t pid)
{
    char path[64], buf[1024], *p;
    unsigned long ut = 0, st = 0;
    FILE *f;
    size_t n;
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    if (!(f = fopen(path, "r")))
        return -1;
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    /* fields after "(comm)": state is 3rd, utime 14th, stime 15th */
    if (!(p = strrchr(buf, ')')) ||
        sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
        return -1;
    return (long)(ut + st);
}

/* Hands the staged call to worker w and waits for its answer: 0 done, -1
 * the worker died, -2 it hung (killed here: STALL_S). */
static int round_trip(worker *w, int stall_s)
{
    char c = 1;
    long last = -1;
    int idle = 0;
    if (send(w->sock, &c, 1, MSG_NOSIGNAL) != 1)
        return -1;
    for (;;) {
        struct pollfd pf = {w->sock, POLLIN, 0};
        long t;
        int r = poll(&pf, 1, 1000);
        if (r < 0 && errno == EINTR)
            continue;
        if (r > 0) {
            ssize_t got;
            while ((got = read(w->sock, &c, 1)) < 0 && errno == EINTR) {
            }
            return got == 1 ? 0 : -1;
        }
        if (r < 0 || (t = cpu_ticks(w->pid)) < 0)
            return -1;
        idle = t == last ? idle + 1 : 0;
        last = t;
        if (idle >= stall_s) {
            kill(w->pid, SIGKILL);
            return -2;
        }
    }
}

static int call_inproc(bool recursive, idx_t *nvtxs, idx_t *ncon, idx_t *xadj, idx_t *adjncy,
                       idx_t *vwgt, idx_t *adjwgt, idx_t *nparts, real_t *tpwgts, idx_t *options,
                       idx_t *objval, idx_t *part)
{
    return recursive ? METIS_PartGraphRecursive(nvtxs, ncon, xadj, adjncy, vwgt, NULL, adjwgt,
                                                nparts, tpwgts, NULL, options, objval, part)
                     : METIS_PartGraphKway(nvtxs, ncon, xadj, adjncy, vwgt, NULL, adjwgt, nparts,
                                           tpwgts, NULL, options, objval, part);
}

/* Runs request q in worker k (already marked busy). */
static int call_worker(tm_ctx *ctx, tm__metis_pool *p, int k, req *q, idx_t *xadj, idx_t *adj,
                       idx_t *vw, idx_t *ew, real_t *tp, idx_t *objval, idx_t *part)
{
    worker *w = &p->w[k];
    int rc;
    if (stage(w, q, xadj, adj, vw, ew, tp) < 0) {
        release(p, k, false);
        return METIS_ERROR_MEMORY;
    }
    if ((rc = round_trip(w, p->stall_s)) < 0) {
        /* the same call in this process gives the same partition (the seed
         * is in the options) */
        tm__log(ctx, TM_LOG_INFO, "METIS worker process %ld %s: the call runs in-process",
                (long)w->pid, rc == -2 ? "hung" : "died");
        idx_t nv = (idx_t)q->nv, ncon = (idx_t)q->ncon, np = (idx_t)q->nparts;
        release(p, k, true);
        pthread_mutex_lock(&inproc_mutex);
        rc = call_inproc(q->recursive != 0, &nv, &ncon, xadj, adj, vw, ew, &np, tp, q->options,
                         objval, part);
        pthread_mutex_unlock(&inproc_mutex);
        return rc;
    }
    rc = (int)((req *)w->map)->rc;
    *objval = (idx_t)((req *)w->map)->objval;
    memcpy(part, (char *)w->map + q->o_part, (size_t)q->nv * sizeof *part);
    release(p, k, false);
    return rc;
}


/* Where the call runs: -1 in this process (inproc_mutex then held), else
 * the index of a worker marked busy.  Waits while the in-process slot and
 * every worker are busy.  Workers are never forked here: this runs in
 * threads, and a fork while other threads allocate can leave the child
 * with a lock held forever (seen as a hang under ThreadSanitizer). */
static int place(tm__metis_pool *p)
{
    int k = -1, live;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        if (!p->force_worker && pthread_mutex_trylock(&inproc_mutex) == 0)
            break;
        if ((k = take_idle(p, &live)) >= 0)
            break;
        if (live == 0 && !p->force_worker) {
            /* no worker to wait for: queue for the in-process slot */
            pthread_mutex_unlock(&p->mu);
            pthread_mutex_lock(&inproc_mutex);
            return -1;
        }
        if (live == 0)
            break; /* forced, but no worker was forked: run here after all */
        pthread_cond_wait(&p->cv, &p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    if (k < 0 && p->force_worker)
        pthread_mutex_lock(&inproc_mutex);
    return k;
}

int tm__metis_call(tm_ctx *ctx, bool recursive, idx_t *nvtxs, idx_t *ncon, idx_t *xadj,
                   idx_t *adjncy, idx_t *vwgt, idx_t *adjwgt, idx_t *nparts, real_t *tpwgts,
                   idx_t *options, idx_t *objval, idx_t *part)
{
    tm__metis_pool *p = tm__ctx_metis_pool(ctx);
    req q;
    int k, rc;
    if (!p) { /* no pool (out of memory): one call at a time */
        pthread_mutex_lock(&inproc_mutex);
        rc = call_inproc(recursive, nvtxs, ncon, xadj, adjncy, vwgt, adjwgt, nparts, tpwgts,
                         options, objval, part);
        pthread_mutex_unlock(&inproc_mutex);
        return rc;
    }
    k = place(p);
    if (k < 0) {
        rc = call_inproc(recursive, nvtxs, ncon, xadj, adjncy, vwgt, adjwgt, nparts, tpwgts,
                         options, objval, part);
        pthread_mutex_unlock(&inproc_mutex);
        /* a caller of this pool may wait for the in-process slot */
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
        return rc;
    }
    memset(&q, 0, sizeof q);
    q.recursive = recursive;
    q.nv = *nvtxs;
    q.ncon = *ncon;
    q.nparts = *nparts;
    q.nadj = xadj[*nvtxs];
    q.has_vwgt = vwgt != NULL;
    q.has_adjwgt = adjwgt != NULL;
    q.has_tp = tpwgts != NULL;
    if (options)
        memcpy(q.options, options, sizeof q.options);
    else
        METIS_SetDefaultOptions(q.options);
    layout(&q);
    return call_worker(ctx, p, k, &q, xadj, adjncy, vwgt, adjwgt, tpwgts, objval, part);
}
