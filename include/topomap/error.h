/*
 * topomap/error.h - error codes and the library context.
 *
 * Every fallible call returns a tm_err (TM_EOK == 0).  The detailed message
 * ("file:line: what is wrong") is kept in the tm_ctx passed to the call and
 * read with tm_ctx_errmsg().  The library never prints and never exits; the
 * command-line tool maps errors to exit codes with tm_err_exit_code().
 *
 * A tm_ctx also carries the run parameters that must not be global state:
 * the seed, the thread count and an optional log callback for warnings.
 */
#ifndef TOPOMAP_ERROR_H
#define TOPOMAP_ERROR_H

#include <stdint.h>
#include <stdarg.h>

#include "topomap/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The exit codes of the command-line tool (docs/design.md "Exit codes and
 * errors"), defined here once: the CLI exits with these, and every error
 * code below has one of them (tm_err_exit_code). */
typedef enum {
    TM_EXIT_OK = 0,
    TM_EXIT_USAGE = 1,      /* unknown option, missing or bad argument */
    TM_EXIT_INPUT = 2,      /* bad input, or a file that cannot be read or written */
    TM_EXIT_INFEASIBLE = 3, /* the request cannot be met (more tasks than slots, ...) */
    TM_EXIT_INTERNAL = 4    /* out of memory, library failure */
} tm_exit_code;

/* X(name, exit code of the CLI, generic text) */
#define TM_ERRORS(X)                                              \
    X(OK, TM_EXIT_OK, "success")                                  \
    X(USAGE, TM_EXIT_USAGE, "invalid argument")                   \
    X(INPUT, TM_EXIT_INPUT, "malformed input")                    \
    X(IO, TM_EXIT_INPUT, "cannot read or write a file")           \
    X(INFEASIBLE, TM_EXIT_INFEASIBLE, "request cannot be met")    \
    X(NOMEM, TM_EXIT_INTERNAL, "out of memory")                   \
    X(INTERNAL, TM_EXIT_INTERNAL, "internal error")

typedef enum {
#define TM_X_(name, code, text) TM_E##name,
    TM_ERRORS(TM_X_)
#undef TM_X_
    TM_E_COUNT_
} tm_err;

/* Generic one-line text of an error code. */
TM_API const char *tm_err_str(tm_err err);
/* Exit code of the command-line tool for an error (a tm_exit_code). */
TM_API int tm_err_exit_code(tm_err err);

typedef struct tm_ctx tm_ctx;

/* Log levels for the optional callback. */
typedef enum { TM_LOG_WARN = 1, TM_LOG_INFO = 2, TM_LOG_DEBUG = 3 } tm_log_level;
typedef void (*tm_log_fn)(void *userdata, tm_log_level level, const char *msg);

/* Creates a context with seed 1, one thread, no log callback.  Returns
 * TM_ENOMEM on allocation failure (then *out is NULL). */
TM_API tm_err tm_ctx_new(tm_ctx **out);
/* Frees the context and ends its METIS worker processes, if any (see
 * tm_ctx_set_threads), waiting for them; NULL does nothing. */
TM_API void tm_ctx_free(tm_ctx *ctx);

/* The message of the last failure recorded in ctx ("" if none). */
TM_API const char *tm_ctx_errmsg(const tm_ctx *ctx);
TM_API void tm_ctx_clear_error(tm_ctx *ctx);
/* Records a formatted message as the context's error and returns err
 * (for callers and callbacks that report through the same context). */
TM_API tm_err tm_ctx_fail(tm_ctx *ctx, tm_err err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Seed of every randomised step run with this context (default 1): a
 * given seed gives the same results on every run. */
TM_API void tm_ctx_set_seed(tm_ctx *ctx, uint64_t seed);
TM_API uint64_t tm_ctx_seed(const tm_ctx *ctx);
/* Setters that can reject a value return TM_EUSAGE with a message in ctx
 * and leave the context unchanged. */
/* Threads in [0, TM_CTX_MAX_THREADS]; 0 means "number of online cores"
 * (at most TM_CTX_MAX_THREADS).  Negative or larger counts: TM_EUSAGE.
 *
 * More than one thread forks METIS worker processes.  METIS (libmetis 5.1)
 * is not thread-safe: every call re-seeds and draws from the process-wide
 * rand() and swaps the process's SIGABRT/SIGTERM handlers, so two calls at
 * once change each other's partitions (docs/parallel.md).  The library
 * therefore runs at most one METIS call in this process at a time and hands
 * the calls made meanwhile to worker processes (or waits for one), so every
 * partition is the one a serial call returns.  With threads > 1, tm_map_run and
 * tm_study_run (and libtopomap_mpi's calls, with TOPOMAP_THREADS > 1) fork
 * up to threads - 1 workers (at most 64 per context) from the calling
 * thread, before they start any thread of their own; with one thread
 * nothing is forked.  What that means for the caller:
 * - the workers are child processes of the caller; they live until
 *   tm_ctx_free, which closes their sockets and waits for them (they also
 *   end when the parent dies), and a SIGCHLD handler sees them end;
 * - a worker is a copy of the calling thread only: it closes every file
 *   descriptor but stdin, stdout, stderr and its own two, blocks SIGINT,
 *   SIGTERM, SIGUSR1, SIGHUP and SIGQUIT (stopping is the parent's
 *   decision: tm_ctx_set_stop) and runs nothing but METIS; a worker that
 *   does not answer (e.g. forked while another thread of the caller held an
 *   allocator lock that has no fork handler) is killed and its call runs in
 *   the calling process instead, with the same result;
 * - inside an MPI job, fork() is restricted by some transports (memory
 *   registered for RDMA); libtopomap_mpi uses one thread unless
 *   TOPOMAP_THREADS says otherwise (docs/mpi.md).
 * A METIS call that runs in the calling process installs METIS's own
 * SIGABRT/SIGTERM handlers for its duration, whatever the thread count. */
#define TM_CTX_MAX_THREADS 1024
TM_API tm_err tm_ctx_set_threads(tm_ctx *ctx, int threads);
TM_API int tm_ctx_threads(const tm_ctx *ctx);
/* Time limit in seconds for anytime algorithms; < 0 means none (default).
 * NaN and infinities: TM_EUSAGE. */
TM_API tm_err tm_ctx_set_time_limit(tm_ctx *ctx, double seconds);
TM_API double tm_ctx_time_limit(const tm_ctx *ctx);
/* Effort of tm_map_run's default pipeline (refine "auto", docs/mapping.md
 * "Effort and time"): how many levels of refinement it runs, a count of
 * iterations that does not depend on the machine or the thread count, so
 * that a given seed and effort give the same mapping everywhere.  0: the
 * constructions and a short probe of each; 1: one level on the best of
 * them; each further level doubles the local search's kicks and refines
 * one more row.  TM_EFFORT_AUTO (the default): without a time limit a
 * level set by the job's size (3 up to 128 tasks, 2 up to 256, else 1);
 * with one, levels until the answer stops improving (two levels in a row
 * without a change of 0.1 %) or the limit.  Other values outside
 * [0, TM_EFFORT_MAX]: TM_EUSAGE. */
#define TM_EFFORT_AUTO (-1)
#define TM_EFFORT_MAX 12
TM_API tm_err tm_ctx_set_effort(tm_ctx *ctx, int effort);
TM_API int tm_ctx_effort(const tm_ctx *ctx);
/* Stop request for anytime algorithms: long loops (refinements, the
 * portfolio of "all") call fn(userdata) now and then and, when it returns
 * non-zero, stop and keep their best result so far; the call still
 * succeeds.  fn must be cheap and thread-safe (e.g. an atomic load of a
 * flag a signal handler sets); the library keeps no global flag. */
typedef int (*tm_stop_fn)(void *userdata);
TM_API void tm_ctx_set_stop(tm_ctx *ctx, tm_stop_fn fn, void *userdata);
/* Progress of tm_map_run: called (from any thread, so fn must be
 * thread-safe) when a strategy run has figures, with `what` naming the run
 * and the step ("greedy#1 constructed", "topdown refined"); congestion and
 * dilation are < 0 in hierarchy mode. */
typedef void (*tm_progress_fn)(void *userdata, const char *what, double max_congestion,
                               double avg_dilation, double qap_J);
TM_API void tm_ctx_set_progress(tm_ctx *ctx, tm_progress_fn fn, void *userdata);
/* Warnings and progress go to this callback (default: dropped). */
TM_API void tm_ctx_set_log(tm_ctx *ctx, tm_log_fn fn, void *userdata);
/* Highest level passed to the callback (default TM_LOG_WARN); a value
 * that is not a tm_log_level: TM_EUSAGE. */
TM_API tm_err tm_ctx_set_log_level(tm_ctx *ctx, tm_log_level level);

#ifdef __cplusplus
}
#endif
#endif
