/* qap_lspar.c - the local searches nc:D and ils:D with a team of threads,
 * giving exactly the result of the sequential search (so the same for
 * every thread count).
 *
 * Both searches are sequences of steps (nc: the visit of one task; ils:
 * one kick and its repair) that read the state only near their tasks and
 * usually change nothing: in a converged nc round no visit swaps, and
 * fewer than 1 % of ils' kicks are kept.  So a chunk of consecutive steps
 * is first evaluated in parallel against the state at its start, and then
 * committed one by one in order by the calling thread.  A step whose
 * evaluation is still valid (no earlier step of the chunk changed what it
 * reads) costs nothing more: nc skips a visit that found nothing, ils
 * replays a kept kick's logged swaps.  Any other step runs again on the
 * master state, as the sequential search would run it.
 *
 * What a step reads (graph distances in the task graph G):
 *  - nc visit of u: PEs and contributions of the tasks within depth + 1
 *    of u (the ball, and the neighbours of every partner);
 *  - ils kick: within 3 of the tasks its repair queued (partners are two
 *    hops away, their gains read their neighbours).
 * A swap of (a, b) writes the PEs of a and b and the contributions of
 * their neighbours.  So after a commit the tasks within depth + 2 (nc) or
 * 4 (ils) of the swapped ones are marked, and an evaluation touching a
 * marked task is redone.  Decisions compare gains with a fixed epsilon
 * (ls.eps) and rejected kicks are undone exactly (tm__ls_undo), so a step's
 * outcome is a function of the state it reads: the thread that evaluated
 * it does not matter.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "qap_ls_int.h"

#define CHUNK_MAX 4096

/* ---- marks: tasks a committed swap may have changed ---------------------- */

typedef struct marks {
    uint32_t *mk, cur;   /* mk[x] == cur: marked in this chunk */
    uint32_t *seen, scur;
    int32_t *queue, *dist;
    int64_t used, budget;
    bool over;           /* too many: treat every task as marked */
} marks;

static tm_err marks_init(tm_ctx *ctx, marks *m, int32_t n)
{
    size_t k = (size_t)(n > 0 ? n : 1);
    memset(m, 0, sizeof *m);
    m->mk = tm__calloc_n(k, sizeof *m->mk);
    m->seen = tm__calloc_n(k, sizeof *m->seen);
    m->queue = tm__malloc_n(k, sizeof *m->queue);
    m->dist = tm__malloc_n(k, sizeof *m->dist);
    /* past this many marked tasks per chunk, redoing is cheaper than marking */
    m->budget = n / 2 > 4096 ? n / 2 : 4096;
    if (!m->mk || !m->seen || !m->queue || !m->dist) {
        free(m->mk), free(m->seen), free(m->queue), free(m->dist);
        return tm__nomem(ctx);
    }
    return TM_EOK;
}

static void marks_free(marks *m) { free(m->mk), free(m->seen), free(m->queue), free(m->dist); }

static void marks_epoch(marks *m, int32_t n)
{
    if (++m->cur == 0) {
        memset(m->mk, 0, (size_t)n * sizeof *m->mk);
        m->cur = 1;
    }
    m->used = 0;
    m->over = false;
}

/* Marks the tasks within radius of src[0..ns) (one multi-source BFS). */
static void marks_add(marks *m, const tm__sgraph *g, const int32_t *src, size_t ns, int radius)
{
    int32_t qh = 0, qt = 0;
    if (m->over)
        return;
    if (++m->scur == 0) {
        memset(m->seen, 0, (size_t)g->n * sizeof *m->seen);
        m->scur = 1;
    }
    for (size_t i = 0; i < ns; i++)
        if (m->seen[src[i]] != m->scur) {
            m->seen[src[i]] = m->scur;
            m->dist[src[i]] = 0;
            m->queue[qt++] = src[i];
        }
    while (qh < qt) {
        int32_t x = m->queue[qh++];
        m->mk[x] = m->cur;
        if (++m->used > m->budget) {
            m->over = true;
            return;
        }
        if (m->dist[x] >= radius)
            continue;
        for (int64_t e = g->xadj[x]; e < g->xadj[x + 1]; e++) {
            int32_t y = g->adj[e];
            if (m->seen[y] != m->scur) {
                m->seen[y] = m->scur;
                m->dist[y] = m->dist[x] + 1;
                m->queue[qt++] = y;
            }
        }
    }
}

static bool marked(const marks *m, int32_t x) { return m->over || m->mk[x] == m->cur; }

static int32_t next_chunk(int32_t chunk, int commits, int team)
{
    if (commits)
        return chunk / 2 > 4 * team ? chunk / 2 : 4 * team;
    return chunk * 2 < CHUNK_MAX ? chunk * 2 : CHUNK_MAX;
}

/* ---- nc ------------------------------------------------------------------ */

typedef struct nc_chunk {
    const tm__ls *L;
    tm__ls_ws **ws;
    const int32_t *order;
    const uint8_t *dirty;
    uint8_t *found;
    int32_t len;
    int depth;
    atomic_int next;
} nc_chunk;

static void nc_probe_member(void *arg, int m)
{
    nc_chunk *c = arg;
    for (;;) {
        int32_t k = atomic_fetch_add(&c->next, 1), u;
        if (k >= c->len)
            return;
        u = c->order[k];
        c->found[k] = c->dirty[u] && tm__ls_nc_probe(c->L, c->ws[m], u, c->depth);
    }
}

tm_err tm__ls_par_nc_round(tm_ctx *ctx, tm__ls *L, tm__ls_ws *w, const int32_t *order,
                           const uint8_t *dirty, uint8_t *next, int depth, int *improved,
                           bool *stopped)
{
    const tm__sgraph *g = L->g;
    int32_t n = g->n, team = tm__team_size(L->team), chunk = 16 * team;
    bool alone = false;
    tm__ls_ws *own = tm__calloc_n((size_t)team, sizeof *own);
    tm__ls_ws **ws = tm__calloc_n((size_t)team, sizeof *ws);
    uint8_t *found = tm__malloc_n(CHUNK_MAX, 1);
    marks mk;
    tm_err err = marks_init(ctx, &mk, n);
    if (!err && (!own || !ws || !found))
        err = tm__nomem(ctx);
    for (int m = 1; !err && m < team; m++)
        err = tm__ls_ws_init(ctx, &own[m], n);
    if (err)
        goto out;
    ws[0] = w;
    for (int m = 1; m < team; m++)
        ws[m] = &own[m];
    w->track = true;
    for (int32_t i = 0; i < n;) {
        int32_t i1 = n - i < chunk ? n : i + chunk, visits = 0, redone = 0;
        int commits = 0;
        nc_chunk c = {L, ws, order + i, dirty, found, i1 - i, depth, 0};
        if (alone) /* most visits swap: evaluating them twice would only cost */
            memset(found, 1, (size_t)(i1 - i));
        else
            tm__team_run(L->team, nc_probe_member, &c);
        marks_epoch(&mk, n);
        for (int32_t k = i; k < i1; k++) {
            int32_t u = order[k];
            visits += dirty[u];
            if (dirty[u] && (found[k - i] || marked(&mk, u))) {
                int s;
                redone++;
                w->n_moved = 0;
                s = tm__ls_nc_visit(L, w, u, depth, next);
                if (s > 0) {
                    *improved += s;
                    commits++;
                    if (w->nomem)
                        mk.over = true; /* the partners are unknown: redo the rest */
                    else
                        marks_add(&mk, g, w->moved, w->n_moved, depth + 2);
                    marks_add(&mk, g, &u, 1, depth + 2);
                }
            }
            if ((k & 255) == 0 && tm__ls_out_of_time(L)) {
                *stopped = true;
                goto out;
            }
        }
        /* alone: one thread while more than half of the visits swap */
        alone = alone ? commits * 4 > visits : redone * 2 > visits;
        chunk = next_chunk(chunk, commits, team);
        i = i1;
    }
out:
    w->track = false;
    for (int m = 1; own && m < team; m++)
        tm__ls_ws_free(&own[m]);
    free(own), free(ws), free(found);
    marks_free(&mk);
    return err;
}

/* ---- ils kicks ------------------------------------------------------------ */

/* A kick of the batch: its iteration number and pair, and where its
 * evaluation went (member, offsets in the member's logs). */
typedef struct kentry {
    int64_t it;
    int32_t u, v;
    bool valid; /* a kick (not skipped by the draw) */
    int m;
    size_t q0, nq, s0, ns;
} kentry;

/* One member's copy of the state, and its logs for the batch. */
typedef struct member {
    tm__ls L;
    tm__ls_undo ul;
    tm__ls_kick_log k;
    int32_t *q, *su, *sv;
    double *sd;
    size_t nq, capq, ns, caps;
    bool nomem;
} member;

typedef struct kbatch {
    member *mem;
    kentry *e;
    int32_t ne;
    atomic_int next;
    /* the swaps committed in this batch, replayed on every copy */
    const int32_t *cu, *cv;
    size_t nc;
} kbatch;

static bool keep_log(member *m, const tm__ls_kick_log *k)
{
    if (tm__grow((void **)&m->q, &m->capq, m->nq + (size_t)k->qt, sizeof *m->q) < 0 ||
        tm__ls_swaps_reserve(&m->su, &m->sv, &m->sd, &m->caps, m->ns + k->ns) < 0)
        return false;
    memcpy(m->q + m->nq, k->queue, (size_t)k->qt * sizeof *m->q);
    memcpy(m->su + m->ns, k->su, k->ns * sizeof *m->su);
    memcpy(m->sv + m->ns, k->sv, k->ns * sizeof *m->sv);
    memcpy(m->sd + m->ns, k->sd, k->ns * sizeof *m->sd);
    m->nq += (size_t)k->qt;
    m->ns += k->ns;
    return true;
}

static void spec_member(void *arg, int id)
{
    kbatch *b = arg;
    member *m = &b->mem[id];
    m->nq = m->ns = 0;
    for (;;) {
        int32_t i = atomic_fetch_add(&b->next, 1);
        kentry *e;
        if (i >= b->ne)
            return;
        e = &b->e[i];
        if (!e->valid)
            continue;
        e->m = id;
        e->nq = 0; /* not evaluated: the commit runs it again */
        if (m->nomem)
            continue;
        m->ul.n = 0;
        m->L.j = 0.0; /* the kicks' changes are logged; J itself is the master's */
        if (tm__ls_kick(&m->L, &m->k, e->u, e->v) < 0 || m->ul.nomem || !keep_log(m, &m->k)) {
            m->nomem = true; /* this copy is no longer the master's: never used again */
            continue;
        } else {
            e->q0 = m->nq - (size_t)m->k.qt;
            e->nq = (size_t)m->k.qt;
            e->s0 = m->ns - m->k.ns;
            e->ns = m->k.ns;
        }
        tm__ls_kick_undo(&m->L, &m->ul, &m->k);
    }
}

static void replay_member(void *arg, int id)
{
    kbatch *b = arg;
    member *m = &b->mem[id];
    m->L.ul = NULL;
    for (size_t i = 0; i < b->nc; i++)
        tm__ls_apply_swap(&m->L, b->cu[i], b->cv[i]);
    m->L.ul = &m->ul;
}

/* Draws the kicks of iterations it0 .. it0 + count as the sequential loop
 * does (qap_ils.c seq_kicks); returns how many entries, *end set when the
 * loop's end was reached. */
static int32_t draw(const tm__ls *L, tm__rng *r, int64_t it0, int32_t count, int64_t kicks,
                    kentry *e, bool *end)
{
    int32_t ne = 0;
    for (int64_t it = it0; ne < count; it++) {
        if (!(it < kicks || L->t_end >= 0) || (L->t_end >= 0 && it >= kicks * 64)) {
            *end = true;
            break;
        }
        e[ne] = (kentry){.it = it};
        /* one-to-one: distinct tasks have distinct PEs */
        e[ne].valid = tm__ls_kick_draw(L->sg, r, &e[ne].u, &e[ne].v) && e[ne].v != e[ne].u;
        ne++;
    }
    return ne;
}

typedef struct committed {
    int32_t *u, *v;
    size_t n, cap;
} committed;

static int commit_swaps(committed *c, const int32_t *su, const int32_t *sv, size_t ns)
{
    if (tm__ls_swaps_reserve(&c->u, &c->v, NULL, &c->cap, c->n + ns) < 0)
        return -1;
    memcpy(c->u + c->n, su, ns * sizeof *su);
    memcpy(c->v + c->n, sv, ns * sizeof *sv);
    c->n += ns;
    return 0;
}

/* Commits one kick on the master: replays the member's evaluation when
 * it is still valid, else runs the kick again; *kept when J dropped and
 * the kick stays.  0, or -1 out of memory. */
static int commit_kick(tm__ls *L, kbatch *b, const kentry *e, marks *mk, tm__ls_kick_log *k,
                       tm__ls_undo *ul, committed *cm, bool *kept)
{
    const member *m = &b->mem[e->m];
    bool valid = !m->nomem && e->nq > 0;
    size_t c0 = cm->n;
    *kept = false;
    for (size_t i = 0; valid && i < e->nq; i++)
        valid = !marked(mk, m->q[e->q0 + i]);
    if (valid) {
        tm__ls_kick_log view = {.su = m->su + e->s0, .sv = m->sv + e->s0, .sd = m->sd + e->s0,
                                .ns = e->ns};
        if (!tm__ls_kick_keeps(&view, L->j))
            return 0;
        for (size_t i = 0; i < e->ns; i++) {
            tm__ls_apply_swap(L, view.su[i], view.sv[i]);
            L->j += view.sd[i];
        }
        if (commit_swaps(cm, view.su, view.sv, e->ns) < 0)
            return -1;
    } else {
        if (tm__ls_kick_run(L, k, ul, e->u, e->v, kept) < 0)
            return -1;
        if (!*kept)
            return 0;
        if (commit_swaps(cm, k->su, k->sv, k->ns) < 0)
            return -1;
    }
    marks_add(mk, L->g, cm->u + c0, cm->n - c0, 4);
    marks_add(mk, L->g, cm->v + c0, cm->n - c0, 4);
    *kept = true;
    return 0;
}

static tm_err members_init(tm_ctx *ctx, const tm__ls *L, member *mem, int team)
{
    int32_t n = L->g->n;
    for (int i = 0; i < team; i++) {
        member *m = &mem[i];
        m->L = *L;
        m->L.team = NULL;
        m->L.ul = &m->ul;
        m->L.pe = tm__malloc_n((size_t)n, sizeof *m->L.pe);
        m->L.c = L->c ? tm__malloc_n((size_t)n, sizeof *m->L.c) : NULL;
        if (!m->L.pe || (L->c && !m->L.c))
            return tm__nomem(ctx);
        memcpy(m->L.pe, L->pe, (size_t)n * sizeof *m->L.pe);
        if (L->c)
            memcpy(m->L.c, L->c, (size_t)n * sizeof *m->L.c);
        if (tm__ls_kick_init(ctx, &m->k, n))
            return TM_ENOMEM;
    }
    return TM_EOK;
}

static void members_free(member *mem, int team)
{
    for (int i = 0; mem && i < team; i++) {
        member *m = &mem[i];
        free(m->L.pe), free(m->L.c), free(m->ul.at), free(m->ul.old);
        tm__ls_kick_free(&m->k);
        free(m->q), free(m->su), free(m->sv), free(m->sd);
    }
    free(mem);
}

tm_err tm__ls_par_kicks(tm_ctx *ctx, tm__ls *L, tm__rng *r, int64_t kicks)
{
    int team = tm__team_size(L->team);
    int32_t n = L->g->n, batch = 16 * team;
    member *mem = tm__calloc_n((size_t)team, sizeof *mem);
    kentry *e = tm__malloc_n(CHUNK_MAX, sizeof *e);
    committed cm = {0};
    tm__ls_undo ul = {0};
    tm__ls_kick_log k;
    marks mk;
    bool end = false, kept = false;
    tm_err err = marks_init(ctx, &mk, n);
    if (!err)
        err = tm__ls_kick_init(ctx, &k, n);
    if (!err && (!mem || !e))
        err = tm__nomem(ctx);
    if (!err)
        err = members_init(ctx, L, mem, team);
    for (int64_t it0 = 0; !err && !end;) {
        kbatch b = {mem, e, 0, 0, NULL, NULL, 0};
        int commits = 0;
        b.ne = draw(L, r, it0, batch, kicks, e, &end);
        tm__team_run(L->team, spec_member, &b);
        marks_epoch(&mk, n);
        cm.n = 0;
        for (int32_t i = 0; i < b.ne; i++) {
            bool this_kept;
            if ((e[i].it & 63) == 0 && tm__ls_out_of_time(L)) {
                end = true;
                break;
            }
            if (tm__ls_kicks_futile(L, e[i].it, kept)) {
                end = true; /* as seq_kicks: nothing after it is committed */
                break;
            }
            if (!e[i].valid)
                continue;
            if (commit_kick(L, &b, &e[i], &mk, &k, &ul, &cm, &this_kept) < 0) {
                err = tm__nomem(ctx);
                break;
            }
            commits += this_kept;
            kept = kept || this_kept;
        }
        if (!err && !end && cm.n > 0) {
            b.cu = cm.u;
            b.cv = cm.v;
            b.nc = cm.n;
            tm__team_run(L->team, replay_member, &b);
        }
        it0 += b.ne;
        batch = next_chunk(batch, commits, team);
    }
    members_free(mem, team);
    free(e), free(cm.u), free(cm.v), free(ul.at), free(ul.old);
    tm__ls_kick_free(&k);
    marks_free(&mk);
    return err;
}
