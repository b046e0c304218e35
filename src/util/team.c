/*
 * team.c - a few threads that run one function together, again and again
 * (the parallel local searches of src/qap/qap_lspar.c run thousands of
 * short parallel steps; a thread per step would cost more than the step).
 *
 * The caller is member 0; tm__team_run returns when every member has
 * returned from fn.  tm__team_once and tm__parallel_for are the one-shot
 * forms (threads started for one call and joined), used by every other
 * threaded part (exact metrics, multisections, `all`, studies).  Why hand-written: igraph's threading is off in
 * Debian's build and there is no pool in the C library; this is one mutex,
 * two condition variables and a generation counter.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "util.h"

struct tm__team {
    int n;                   /* members, the caller included */
    pthread_t *th;
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned long gen;       /* incremented for every run */
    int busy;                /* members still in fn */
    bool quit;
    void (*fn)(void *arg, int member);
    void *arg;
    struct member { struct tm__team *t; int id; } *mem;
};

static void *member_main(void *p)
{
    struct member *m = p;
    struct tm__team *t = m->t;
    unsigned long seen = 0;
    for (;;) {
        void (*fn)(void *, int);
        void *arg;
        pthread_mutex_lock(&t->mu);
        while (!t->quit && t->gen == seen)
            pthread_cond_wait(&t->go, &t->mu);
        if (t->quit) {
            pthread_mutex_unlock(&t->mu);
            return NULL;
        }
        seen = t->gen;
        fn = t->fn;
        arg = t->arg;
        pthread_mutex_unlock(&t->mu);
        fn(arg, m->id);
        pthread_mutex_lock(&t->mu);
        if (--t->busy == 0)
            pthread_cond_signal(&t->done);
        pthread_mutex_unlock(&t->mu);
    }
}

tm_err tm__team_new(tm_ctx *ctx, int n, tm__team **out)
{
    tm__team *t = calloc(1, sizeof *t);
    *out = NULL;
    if (n < 1)
        n = 1;
    if (!t || !(t->th = tm__calloc_n((size_t)n, sizeof *t->th)) ||
        !(t->mem = tm__calloc_n((size_t)n, sizeof *t->mem))) {
        if (t)
            free(t->th);
        free(t);
        return tm__nomem(ctx);
    }
    pthread_mutex_init(&t->mu, NULL);
    pthread_cond_init(&t->go, NULL);
    pthread_cond_init(&t->done, NULL);
    t->n = 1;
    for (int i = 1; i < n; i++) {
        t->mem[i] = (struct member){t, i};
        if (pthread_create(&t->th[i], NULL, member_main, &t->mem[i]) != 0)
            break; /* fewer members: slower, same results */
        t->n++;
    }
    *out = t;
    return TM_EOK;
}

int tm__team_size(const tm__team *t) { return t ? t->n : 1; }

void tm__team_run(tm__team *t, void (*fn)(void *arg, int member), void *arg)
{
    if (!t || t->n == 1) {
        fn(arg, 0);
        return;
    }
    pthread_mutex_lock(&t->mu);
    t->fn = fn;
    t->arg = arg;
    t->busy = t->n - 1;
    t->gen++;
    pthread_cond_broadcast(&t->go);
    pthread_mutex_unlock(&t->mu);
    fn(arg, 0);
    pthread_mutex_lock(&t->mu);
    while (t->busy > 0)
        pthread_cond_wait(&t->done, &t->mu);
    pthread_mutex_unlock(&t->mu);
}

void tm__team_free(tm__team *t)
{
    if (!t)
        return;
    pthread_mutex_lock(&t->mu);
    t->quit = true;
    pthread_cond_broadcast(&t->go);
    pthread_mutex_unlock(&t->mu);
    for (int i = 1; i < t->n; i++)
        pthread_join(t->th[i], NULL);
    pthread_mutex_destroy(&t->mu);
    pthread_cond_destroy(&t->go);
    pthread_cond_destroy(&t->done);
    free(t->th);
    free(t->mem);
    free(t);
}

typedef struct once_member {
    void (*fn)(void *arg, int member);
    void *arg;
    int member;
} once_member;

static void *once_main(void *p)
{
    once_member *o = p;
    o->fn(o->arg, o->member);
    return NULL;
}

int tm__team_once(int n, void (*fn)(void *arg, int member), void *arg)
{
    pthread_t *th = NULL;
    once_member *o = NULL;
    int started = 1;
    /* without memory for the thread table: the caller alone, same results */
    if (n > 1 && (th = tm__calloc_n((size_t)n, sizeof *th)) &&
        (o = tm__calloc_n((size_t)n, sizeof *o)))
        for (; started < n; started++) {
            o[started] = (once_member){fn, arg, started};
            if (pthread_create(&th[started], NULL, once_main, &o[started]) != 0)
                break; /* fewer members: slower, same results */
        }
    fn(arg, 0);
    for (int i = 1; i < started; i++)
        pthread_join(th[i], NULL);
    free(th);
    free(o);
    return started;
}

typedef struct pfor {
    void (*fn)(void *arg, int i, int member);
    void *arg;
    int n;
    atomic_int next;
} pfor;

static void pfor_member(void *p, int member)
{
    pfor *f = p;
    for (int i; (i = atomic_fetch_add(&f->next, 1)) < f->n;)
        f->fn(f->arg, i, member);
}

void tm__parallel_for(int threads, int n, void (*fn)(void *arg, int i, int member), void *arg)
{
    pfor f = {fn, arg, n, 0};
    atomic_init(&f.next, 0);
    if (threads > n)
        threads = n;
    tm__team_once(threads, pfor_member, &f);
}
