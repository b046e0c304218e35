/*
 * ctx.c - the library context: last error message, seed, threads, time
 * limit and the log callback.  A context may be shared by threads: the
 * message buffer is guarded by a mutex (the last failure wins).
 */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

#define TM_MSG_MAX 1024

struct tm_ctx {
    pthread_mutex_t lock;
    char msg[TM_MSG_MAX];
    uint64_t seed;
    int threads;
    double time_limit;
    int effort;
    tm_log_fn log_fn;
    void *log_ud;
    tm_log_level log_level;
    tm_stop_fn stop_fn;      /* asked by long loops: stop early, keep the best */
    void *stop_ud;
    tm_progress_fn progress_fn;
    void *progress_ud;
    /* the METIS worker pool (src/graph/metis_pool.c), created on first use
     * and shared by inheriting contexts; opaque here so that the bottom
     * layer does not depend on the graph layer */
    void *pool;
    void (*pool_free)(void *);
    bool own_pool;
    tm_ctx *pool_parent;  /* tm__ctx_inherit: use the parent's pool (it outlives us) */
    struct tm__memo *memo; /* a call's shared results (memo.c), not owned */
};

static const char *const err_text[] = {
#define TM_X_(name, code, text) text,
    TM_ERRORS(TM_X_)
#undef TM_X_
};
static const int err_code[] = {
#define TM_X_(name, code, text) code,
    TM_ERRORS(TM_X_)
#undef TM_X_
};

const char *tm_err_str(tm_err err)
{
    if ((unsigned)err >= TM_E_COUNT_)
        return "unknown error";
    return err_text[err];
}

int tm_err_exit_code(tm_err err)
{
    if ((unsigned)err >= TM_E_COUNT_)
        return 4;
    return err_code[err];
}

tm_err tm_ctx_new(tm_ctx **out)
{
    tm_ctx *ctx = calloc(1, sizeof *ctx);
    *out = NULL;
    if (!ctx)
        return TM_ENOMEM;
    pthread_mutex_init(&ctx->lock, NULL);
    ctx->seed = 1;
    ctx->threads = 1;
    ctx->time_limit = -1.0;
    ctx->effort = TM_EFFORT_AUTO;
    ctx->log_level = TM_LOG_WARN;
    *out = ctx;
    return TM_EOK;
}

void tm_ctx_free(tm_ctx *ctx)
{
    if (!ctx)
        return;
    if (ctx->own_pool && ctx->pool_free)
        ctx->pool_free(ctx->pool);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
}

const char *tm_ctx_errmsg(const tm_ctx *ctx) { return ctx ? ctx->msg : ""; }

void tm_ctx_clear_error(tm_ctx *ctx)
{
    if (ctx)
        ctx->msg[0] = '\0';
}

void tm_ctx_set_seed(tm_ctx *ctx, uint64_t seed) { ctx->seed = seed; }
uint64_t tm_ctx_seed(const tm_ctx *ctx) { return ctx->seed; }

tm_err tm_ctx_set_threads(tm_ctx *ctx, int threads)
{
    if (threads < 0 || threads > TM_CTX_MAX_THREADS)
        return tm__fail(ctx, TM_EUSAGE, "thread count %d is not in [0, %d]", threads,
                        TM_CTX_MAX_THREADS);
    if (threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n < 1 ? 1 : n > TM_CTX_MAX_THREADS ? TM_CTX_MAX_THREADS : (int)n;
    }
    ctx->threads = threads;
    return TM_EOK;
}
int tm_ctx_threads(const tm_ctx *ctx) { return ctx->threads; }

tm_err tm_ctx_set_time_limit(tm_ctx *ctx, double s)
{
    /* NaN would compare false against every clock reading: no limit and
     * no "none" either; infinity is spelt "< 0". */
    if (!isfinite(s))
        return tm__fail(ctx, TM_EUSAGE, "time limit %g is not a finite number of seconds", s);
    ctx->time_limit = s;
    return TM_EOK;
}
double tm_ctx_time_limit(const tm_ctx *ctx) { return ctx->time_limit; }

tm_err tm_ctx_set_effort(tm_ctx *ctx, int effort)
{
    if (effort != TM_EFFORT_AUTO && (effort < 0 || effort > TM_EFFORT_MAX))
        return tm__fail(ctx, TM_EUSAGE, "effort %d is not in [0, %d]", effort, TM_EFFORT_MAX);
    ctx->effort = effort;
    return TM_EOK;
}
int tm_ctx_effort(const tm_ctx *ctx) { return ctx->effort; }

void tm_ctx_set_stop(tm_ctx *ctx, tm_stop_fn fn, void *ud)
{
    ctx->stop_fn = fn;
    ctx->stop_ud = ud;
}

void tm_ctx_set_progress(tm_ctx *ctx, tm_progress_fn fn, void *ud)
{
    ctx->progress_fn = fn;
    ctx->progress_ud = ud;
}

void tm__progress(tm_ctx *ctx, const char *what, double c, double d, double j)
{
    if (ctx && ctx->progress_fn)
        ctx->progress_fn(ctx->progress_ud, what, c, d, j);
}

bool tm__stopped(const tm_ctx *ctx) { return ctx && ctx->stop_fn && ctx->stop_fn(ctx->stop_ud); }

void *tm__ctx_shared_pool(tm_ctx *ctx, void *(*make)(void), void (*drop)(void *))
{
    void *p;
    if (!ctx)
        return NULL;
    if (ctx->pool_parent)
        return tm__ctx_shared_pool(ctx->pool_parent, make, drop);
    pthread_mutex_lock(&ctx->lock);
    if (!ctx->pool) {
        ctx->pool = make();
        ctx->pool_free = drop;
        ctx->own_pool = ctx->pool != NULL;
    }
    p = ctx->pool;
    pthread_mutex_unlock(&ctx->lock);
    return p;
}

void tm__ctx_inherit(tm_ctx *child, tm_ctx *parent)
{
    child->memo = parent->memo;
    child->stop_fn = parent->stop_fn;
    child->stop_ud = parent->stop_ud;
    child->progress_fn = parent->progress_fn;
    child->progress_ud = parent->progress_ud;
    if (!child->pool)
        child->pool_parent = parent;
}

void tm_ctx_set_log(tm_ctx *ctx, tm_log_fn fn, void *ud)
{
    ctx->log_fn = fn;
    ctx->log_ud = ud;
}
tm_err tm_ctx_set_log_level(tm_ctx *ctx, tm_log_level level)
{
    if (level < TM_LOG_WARN || level > TM_LOG_DEBUG)
        return tm__fail(ctx, TM_EUSAGE, "log level %d is not in [%d, %d]", (int)level,
                        (int)TM_LOG_WARN, (int)TM_LOG_DEBUG);
    ctx->log_level = level;
    return TM_EOK;
}

static tm_err vfail(tm_ctx *ctx, tm_err err, const char *fmt, va_list ap)
{
    if (!ctx)
        return err;
    pthread_mutex_lock(&ctx->lock);
    vsnprintf(ctx->msg, sizeof ctx->msg, fmt, ap);
    pthread_mutex_unlock(&ctx->lock);
    return err;
}

tm_err tm__fail(tm_ctx *ctx, tm_err err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err = vfail(ctx, err, fmt, ap);
    va_end(ap);
    return err;
}

tm_err tm_ctx_fail(tm_ctx *ctx, tm_err err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err = vfail(ctx, err, fmt, ap);
    va_end(ap);
    return err;
}

void tm__fail_prefix(tm_ctx *ctx, const char *fmt, ...)
{
    char pre[TM_MSG_MAX], old[TM_MSG_MAX];
    size_t n;
    va_list ap;
    if (!ctx)
        return;
    va_start(ap, fmt);
    vsnprintf(pre, sizeof pre, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&ctx->lock);
    memcpy(old, ctx->msg, sizeof old);
    /* "pre: old", truncated to the buffer */
    n = strlen(pre);
    if (n > TM_MSG_MAX - 3)
        n = TM_MSG_MAX - 3;
    memcpy(ctx->msg, pre, n);
    memcpy(ctx->msg + n, ": ", 2);
    n += 2;
    memcpy(ctx->msg + n, old, strnlen(old, TM_MSG_MAX - 1 - n));
    ctx->msg[n + strnlen(old, TM_MSG_MAX - 1 - n)] = '\0';
    pthread_mutex_unlock(&ctx->lock);
}

void tm__log(tm_ctx *ctx, tm_log_level level, const char *fmt, ...)
{
    char buf[TM_MSG_MAX];
    va_list ap;
    if (!ctx || !ctx->log_fn || level > ctx->log_level)
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    ctx->log_fn(ctx->log_ud, level, buf);
}

tm_err tm__nomem(tm_ctx *ctx) { return tm__fail(ctx, TM_ENOMEM, "out of memory"); }

void tm__ctx_set_memo(tm_ctx *ctx, tm__memo *m) { ctx->memo = m; }
tm__memo *tm__ctx_memo(const tm_ctx *ctx) { return ctx ? ctx->memo : NULL; }
