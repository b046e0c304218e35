/* metis_pool.h - METIS calls that may run concurrently (not installed).
 *
 * Debian's libmetis 5.1 is not safe to call from several threads at once
 * (docs/parallel.md): GKlib seeds and draws from the process-wide libc
 * rand() stream (gk_randinit = srand, gk_randint64 = rand) and swaps the
 * process-wide SIGABRT/SIGTERM handlers (gk_sigtrap) on every call.  Two
 * concurrent calls interleave one random stream, so partitions stop being
 * reproducible, and can leave gk_sigthrow installed as the SIGTERM handler.
 *
 * tm__metis_call therefore runs at most one METIS call in this process at a
 * time (the first caller, no overhead), and hands every concurrent call to
 * an idle worker process (its own rand() state and signal
 * dispositions), inputs and the result passed through a shared memfd.
 * Either way the partition is exactly the one a serial call returns. */
#ifndef TM_METIS_POOL_H
#define TM_METIS_POOL_H

#include <stdbool.h>

#include <metis.h>

#include "topomap/error.h"

typedef struct tm__metis_pool tm__metis_pool;

/* METIS_PartGraphRecursive (recursive) or METIS_PartGraphKway, same
 * arguments and return codes (METIS_ERROR when a worker died).  vsize and
 * ubvec must be NULL (unused by the library). */
int tm__metis_call(tm_ctx *ctx, bool recursive, idx_t *nvtxs, idx_t *ncon, idx_t *xadj,
                   idx_t *adjncy, idx_t *vwgt, idx_t *adjwgt, idx_t *nparts, real_t *tpwgts,
                   idx_t *options, idx_t *objval, idx_t *part);

/* The pool of a context (ctx.c owns it and frees it with the context). */
tm__metis_pool *tm__metis_pool_new(void);
void tm__metis_pool_free(tm__metis_pool *pool);
/* The context's pool, created on first use (tm__ctx_shared_pool); a
 * per-job context (tm__ctx_inherit) uses its parent's.  NULL when out of
 * memory. */
tm__metis_pool *tm__ctx_metis_pool(tm_ctx *ctx);
/* Forks workers until n exist.  Call it where threads are about to start,
 * before they exist: tm__metis_call never forks (a fork while other threads
 * allocate can leave the child holding a lock forever), it waits for the
 * in-process slot or an idle worker.  Without workers every call runs in
 * this process, one at a time.  Early is also cheap: a worker shares the
 * parent's pages copy-on-write for its whole life. */
void tm__metis_pool_prefork(tm__metis_pool *pool, int n);
/* Tests: send every call to a worker, even when none runs in-process. */
void tm__metis_pool_force_worker(tm__metis_pool *pool, bool on);
/* Tests: a worker idle this many seconds during a call counts as hung
 * (default 10; <= 0 restores it), so the hung-worker test does not wait
 * 10 s in each of make test's three builds. */
void tm__metis_pool_set_stall(tm__metis_pool *pool, int seconds);
/* Process id of worker i, -1 if there is none (tests). */
long tm__metis_pool_worker_pid(tm__metis_pool *pool, int i);
/* Workers forked so far (tests). */
int tm__metis_pool_workers(tm__metis_pool *pool);
/* Calls handed to a worker so far (tests). */
long tm__metis_pool_worker_calls(tm__metis_pool *pool);

#endif
