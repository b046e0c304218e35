/* anytime.c - `topomap map` under SIGINT / SIGTERM / SIGUSR1: stop the
 * refinements, keep the best mapping so far, write it, exit 0
 * (docs/errors.md "Interrupted runs"); and the progress line on a terminal.
 *
 * No signal handler: the three signals are blocked in every thread (the
 * mask is set before the library starts any) and one watcher thread takes
 * them with sigtimedwait, so nothing runs in signal context and METIS,
 * which swaps the process-wide SIGTERM handler during its calls, never sees
 * them.  The watcher stores the signal in an atomic flag that the library
 * reads through the stop predicate (tm_ctx_set_stop); the library keeps no
 * flag of its own.  A second signal ends the process at once (default
 * action), for a user who does not want to wait.  Signals ignored when
 * topomap starts (nohup, background jobs of a shell) stay ignored. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define TICK_NS 250000000L /* progress refresh and shutdown latency: 0.25 s */

static const int sigs[] = {SIGINT, SIGTERM, SIGUSR1};

static int stop_pred(void *ud)
{
    const cli_anytime *a = ud;
    return atomic_load_explicit(&a->sig, memory_order_relaxed) != 0;
}

static void progress_cb(void *ud, const char *what, double c, double d, double j)
{
    cli_anytime *a = ud;
    pthread_mutex_lock(&a->mu);
    snprintf(a->last, sizeof a->last, "%s", what);
    if (c >= 0 && (a->best_c < 0 || c < a->best_c))
        a->best_c = c;
    if (d >= 0 && (a->best_d < 0 || d < a->best_d))
        a->best_d = d;
    if (a->best_j < 0 || j < a->best_j)
        a->best_j = j;
    pthread_mutex_unlock(&a->mu);
}

static void print_progress(cli_anytime *a)
{
    char line[320];
    int n;
    pthread_mutex_lock(&a->mu);
    n = snprintf(line, sizeof line, "\r[map %s %.1f s] %s", a->strategy, cli_now() - a->t0,
                 a->last[0] ? a->last : "constructing");
    if (a->best_j >= 0 && n < (int)sizeof line) {
        if (a->best_c >= 0)
            n += snprintf(line + n, sizeof line - (size_t)n,
                          " | best so far: congestion %.6g, dilation %.4g, J %.6g", a->best_c,
                          a->best_d, a->best_j);
        else
            n += snprintf(line + n, sizeof line - (size_t)n, " | best so far: J %.6g",
                          a->best_j);
    }
    pthread_mutex_unlock(&a->mu);
    fprintf(stderr, "%s\033[K", line);
    fflush(stderr);
    a->shown = true;
}

static void *watch(void *arg)
{
    cli_anytime *a = arg;
    struct timespec tick = {0, TICK_NS};
    for (;;) {
        siginfo_t info;
        int s = sigtimedwait(&a->set, &info, &tick);
        if (atomic_load(&a->done))
            return NULL;
        if (s > 0) {
            int zero = 0;
            if (!atomic_compare_exchange_strong(&a->sig, &zero, s)) {
                /* second signal: the default action, now */
                sigset_t one;
                signal(s, SIG_DFL);
                sigemptyset(&one);
                sigaddset(&one, s);
                pthread_sigmask(SIG_UNBLOCK, &one, NULL);
                raise(s);
            }
        } else if (a->progress) {
            print_progress(a);
        }
    }
}

tm_err cli_anytime_start(cli_anytime *a, tm_ctx *ctx, const char *strategy, bool progress)
{
    memset(a, 0, sizeof *a);
    atomic_init(&a->sig, 0);
    atomic_init(&a->done, false);
    pthread_mutex_init(&a->mu, NULL);
    a->best_c = a->best_d = a->best_j = -1;
    a->t0 = cli_now();
    a->progress = progress && isatty(STDERR_FILENO);
    snprintf(a->strategy, sizeof a->strategy, "%s", strategy);
    sigemptyset(&a->set);
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction old;
        /* an ignored signal is discarded even when blocked: keep it so */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaddset(&a->set, sigs[i]);
    }
    if (pthread_sigmask(SIG_BLOCK, &a->set, NULL) != 0)
        return TM_EINTERNAL;
    if (pthread_create(&a->th, NULL, watch, a) != 0) {
        pthread_sigmask(SIG_UNBLOCK, &a->set, NULL);
        return TM_EINTERNAL;
    }
    a->running = true;
    tm_ctx_set_stop(ctx, stop_pred, a);
    tm_ctx_set_progress(ctx, progress_cb, a);
    return TM_EOK;
}

void cli_anytime_stop(cli_anytime *a, tm_ctx *ctx)
{
    if (!a->running)
        return;
    tm_ctx_set_stop(ctx, NULL, NULL);
    tm_ctx_set_progress(ctx, NULL, NULL);
    atomic_store(&a->done, true);
    /* wake the watcher with one of its own signals (at the latest it sees
     * `done` after one tick) */
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        if (sigismember(&a->set, sigs[i]) == 1) {
            pthread_kill(a->th, sigs[i]);
            break;
        }
    pthread_join(a->th, NULL);
    a->running = false;
    if (a->shown) {
        fputs("\r\033[K", stderr); /* the summary starts on a clean line */
        fflush(stderr);
    }
    pthread_mutex_destroy(&a->mu);
    /* signals that come now stay pending (blocked) and end with the
     * process: the run is complete */
}

int cli_anytime_signal(const cli_anytime *a) { return atomic_load(&a->sig); }

const char *cli_signal_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGUSR1 ? "SIGUSR1"
                                                                                 : "a signal";
}
