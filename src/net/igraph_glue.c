/*
 * igraph_glue.c - the one place that talks to igraph's process-wide error
 * machinery.  igraph's default handler aborts, which a library must never
 * do, so every igraph call sits between tm__igraph_begin/end: the handler
 * records the reason in the current thread's ctx and lets the call return
 * its error code.  The current ctx is thread-local because igraph's handler
 * has no user-data argument; it is set only for the duration of the guard.
 */
#include <stdio.h>

#include "net_int.h"
#include "../util/util.h"

static _Thread_local tm_ctx *cur_ctx;

static void record_error(const char *reason, const char *file, int line, igraph_error_t e)
{
    (void)file;
    (void)line;
    tm__fail(cur_ctx, TM_EINTERNAL, "igraph: %s (%s)", reason, igraph_strerror(e));
    IGRAPH_FINALLY_FREE();
}

static void drop_warning(const char *reason, const char *file, int line)
{
    (void)file;
    (void)line;
    tm__log(cur_ctx, TM_LOG_DEBUG, "igraph warning: %s", reason);
}

void tm__igraph_begin(tm_ctx *ctx, tm__igraph_guard *g)
{
    g->old_ctx = cur_ctx;
    cur_ctx = ctx;
    g->old_err = igraph_set_error_handler(record_error);
    g->old_warn = igraph_set_warning_handler(drop_warning);
}

void tm__igraph_end(tm__igraph_guard *g)
{
    igraph_set_error_handler(g->old_err);
    igraph_set_warning_handler(g->old_warn);
    cur_ctx = g->old_ctx;
}

tm_err tm__igraph_err(tm_ctx *ctx, igraph_error_t rc, const char *what)
{
    if (rc == IGRAPH_SUCCESS)
        return TM_EOK;
    if (rc == IGRAPH_ENOMEM)
        return tm__fail(ctx, TM_ENOMEM, "%s: out of memory", what);
    tm__fail_prefix(ctx, "%s", what);
    return rc == IGRAPH_PARSEERROR ? TM_EINPUT : TM_EINTERNAL;
}
