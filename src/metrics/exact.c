/*
 * exact.c - exact link loads of a mapping: every source host's messages are
 * summed per destination host with a sparse accumulator (never an n x n
 * matrix) and routed in one tm_route_flows call, so the cost is one
 * shortest-path DAG sweep per source host (O(source hosts x links) at
 * worst), never a path search per message.  Stub hosts (route_eval.h: all
 * hosts of a fat-tree or an InfiniBand fabric) are routed together with
 * the other hosts of their switch, in one sweep from the switch, and the
 * messages to the stub hosts of one switch as one flow to the switch plus
 * their last hop (tm__route_stub_last_hop): the DAG then stops one level
 * short of the hosts, which on a fat-tree are most of the vertices.
 *
 * Threads and determinism: the source hosts are cut into chunks whose size
 * depends only on the number of source hosts, never on the thread count.
 * Each chunk accumulates into its own zeroed load array, and the chunks
 * are added to the total strictly in chunk order, so every floating-point
 * sum is the same whatever the number of threads.  At most `window` chunk
 * arrays exist at a time (memory O(threads x links)); a worker waits when
 * it would run too far ahead of the oldest unreduced chunk.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics_int.h"
#include "../route/route_eval.h"
#include "../util/util.h"

/* Chunks per evaluation (at most; fewer when there are few hosts).  Each
 * chunk costs one pass over all links when it is reduced, so more chunks
 * only buy parallel slack. */
#define TM_CHUNKS_TARGET 16
#define TM_CHUNK_MIN 16

typedef struct job {
    const tm_route *route;
    const tm_comm *comm;
    const tm_mapping *map;
    const tm_metrics_opts *opts;
    const tm__bygroup *by;
    /* source groups: the source hosts (indices into by) of one switch,
     * routed from grp_v[g]; a host alone (grp_v = the host) otherwise */
    int32_t n_grp, *grp_off, *grp_si, *grp_v;
    bool stub;            /* the router routes stub hosts from their switch */
    int32_t n_links, n_vertices;
    int32_t chunk, n_chunks, window;
    /* shared state, under lock */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int32_t next_chunk, reduced;
    double **buf;         /* window arrays of n_links */
    tm__msum *part;       /* per window slot */
    unsigned char *done;  /* per window slot */
    double *load;         /* total */
    tm__msum *sum;
    /* first error by chunk order */
    tm_err err;
    int32_t err_chunk;
    char errmsg[1024];
} job;

/* Per-thread scratch, O(vertices). */
typedef struct worker {
    job *jb;
    tm_ctx *ctx;
    tm_route_ws *ws;
    double *acc;
    int32_t *mark, *list, *hops;
    int32_t mark_gen; /* name_failure's marks: below every group id */
    double *vols;
    /* destinations merged by switch (merge_destinations) */
    double *acc2;
    int32_t *mark2, *list2, gen2;
} worker;

/* Sums the messages of source host number si into the group accumulator
 * (marked with gi); returns the volume that leaves the host. */
static double gather_source(worker *wk, int32_t gi, int32_t si, int32_t *k, tm__msum *ps)
{
    const job *jb = wk->jb;
    const tm_comm *c = jb->comm;
    int32_t h = jb->by->hosts[si];
    double out = 0.0;
    for (int32_t t = jb->by->off[si]; t < jb->by->off[si + 1]; t++) {
        int32_t u = jb->by->tasks[t];
        for (int64_t e = c->xadj[u]; e < c->xadj[u + 1]; e++) {
            int32_t hv = jb->map->host[c->adj[e]];
            double w = c->w[e];
            ps->messages++;
            ps->total_volume += w;
            if (hv == h)
                continue; /* no link; its node-internal cost is added in metrics.c */
            if (wk->mark[hv] != gi) {
                wk->mark[hv] = gi;
                wk->acc[hv] = 0.0;
                wk->list[(*k)++] = hv;
            }
            wk->acc[hv] += w;
            out += w;
        }
    }
    return out;
}

/* The error of a failed group route, named by its hosts: each source host
 * of the group routed alone (only on this failure path). */
static tm_err name_failure(worker *wk, int32_t gi, double *load)
{
    const job *jb = wk->jb;
    tm__msum scratch;
    for (int32_t i = jb->grp_off[gi]; i < jb->grp_off[gi + 1]; i++) {
        int32_t si = jb->grp_si[i], k = 0;
        tm_err err;
        memset(&scratch, 0, sizeof scratch);
        wk->mark_gen--; /* a fresh mark for every host */
        gather_source(wk, wk->mark_gen, si, &k, &scratch);
        for (int32_t j = 0; j < k; j++)
            wk->vols[j] = wk->acc[wk->list[j]];
        err = tm_route_flows(wk->ctx, jb->route, wk->ws, jb->by->hosts[si], (size_t)k, wk->list,
                             wk->vols, load, wk->hops);
        if (err)
            return err;
    }
    return tm__fail(wk->ctx, TM_EINTERNAL, "metrics: a group route failed but no host does");
}

/* The k destination hosts in list/acc become destination vertices in
 * list2 with volumes in vols: a stub host's volume goes on its last hop
 * and joins its switch's flow.  Returns their number. */
static int32_t merge_destinations(worker *wk, int32_t k, double *load)
{
    const job *jb = wk->jb;
    int32_t k2 = 0;
    wk->gen2++;
    for (int32_t i = 0; i < k; i++) {
        int32_t h = wk->list[i], v = tm__route_stub_of(jb->route, h);
        if (v != h)
            tm__route_stub_last_hop(jb->route, h, wk->acc[h], load);
        if (wk->mark2[v] != wk->gen2) {
            wk->mark2[v] = wk->gen2;
            wk->acc2[v] = 0.0;
            wk->list2[k2++] = v;
        }
        wk->acc2[v] += wk->acc[h];
    }
    for (int32_t i = 0; i < k2; i++)
        wk->vols[i] = wk->acc2[wk->list2[i]];
    return k2;
}

/* Routes the messages of source group gi into load. */
/* The messages of group gi's source hosts, into wk->list / acc; a source
 * routed from its switch puts its traffic on its own cable here.  Returns
 * the number of destination hosts. */
static int32_t gather_group(worker *wk, int32_t gi, double *load, tm__msum *ps)
{
    const job *jb = wk->jb;
    int32_t k = 0;
    for (int32_t i = jb->grp_off[gi]; i < jb->grp_off[gi + 1]; i++) {
        int32_t si = jb->grp_si[i];
        double out = gather_source(wk, gi, si, &k, ps);
        if (jb->grp_v[gi] != jb->by->hosts[si] && out > 0.0)
            tm__route_stub_hop(jb->route, jb->by->hosts[si], out, load);
    }
    return k;
}

/* A flow of volume w between two hosts `hops` apart. */
static void add_flow(tm__msum *ps, double w, int32_t hops)
{
    ps->inter_host_volume += w;
    ps->sum_w_hops += w * hops;
    if (hops > ps->max_dilation)
        ps->max_dilation = hops;
}

static tm_err do_group(worker *wk, int32_t gi, double *load, tm__msum *ps)
{
    const job *jb = wk->jb;
    const tm_net_csr *g = tm_net_csr_get(tm_route_net(jb->route));
    int32_t v = jb->grp_v[gi], k = gather_group(wk, gi, load, ps), first = 0;
    tm_err err;
    /* a stub group's messages all take one hop more than from its switch */
    if (v != jb->by->hosts[jb->grp_si[jb->grp_off[gi]]])
        first = 1;
    if (jb->stub) {
        k = merge_destinations(wk, k, load);
        err = tm__route_flows_from(wk->ctx, jb->route, wk->ws, v, (size_t)k, wk->list2,
                                   wk->vols, load, wk->hops);
    } else {
        for (int32_t i = 0; i < k; i++)
            wk->vols[i] = wk->acc[wk->list[i]];
        err = tm_route_flows(wk->ctx, jb->route, wk->ws, v, (size_t)k, wk->list, wk->vols, load,
                             wk->hops);
    }
    if (err) /* out of memory is not a route to name */
        return jb->stub && err != TM_ENOMEM ? name_failure(wk, gi, load) : err;
    for (int32_t i = 0; i < k; i++) /* a switch here stands for its stub hosts: one hop more */
        add_flow(ps, wk->vols[i], wk->hops[i] + first + (jb->stub && !g->is_host[wk->list2[i]]));
    return TM_EOK;
}

/* acc += part (the per-chunk partial sums, reduced in chunk order). */
static void msum_add(tm__msum *acc, const tm__msum *part)
{
    acc->messages += part->messages;
    acc->total_volume += part->total_volume;
    acc->inter_host_volume += part->inter_host_volume;
    acc->sum_w_hops += part->sum_w_hops;
    acc->j_node += part->j_node;
    if (part->max_dilation > acc->max_dilation)
        acc->max_dilation = part->max_dilation;
}

/* Adds finished chunks to the total in chunk order (lock held). */
static void reduce_ready(job *jb)
{
    while (jb->reduced < jb->n_chunks && jb->done[jb->reduced % jb->window]) {
        int32_t s = jb->reduced % jb->window;
        double *b = jb->buf[s];
        /* Add and re-zero in one pass: the buffer is ready for reuse. */
        for (int32_t l = 0; l < jb->n_links; l++) {
            jb->load[l] += b[l];
            b[l] = 0.0;
        }
        msum_add(jb->sum, &jb->part[s]);
        jb->done[s] = 0;
        jb->reduced++;
    }
    pthread_cond_broadcast(&jb->cond);
}

/* Member `member` of the team (tm__team_once) over the worker array arg. */
static void worker_run(void *arg, int member)
{
    worker *wk = &((worker *)arg)[member];
    job *jb = wk->jb;
    for (;;) {
        int32_t ci, s, lo, hi;
        tm_err err = TM_EOK;
        pthread_mutex_lock(&jb->lock);
        while (jb->err == TM_EOK && jb->next_chunk < jb->n_chunks &&
               jb->next_chunk >= jb->reduced + jb->window)
            pthread_cond_wait(&jb->cond, &jb->lock);
        if (jb->err != TM_EOK || jb->next_chunk >= jb->n_chunks) {
            pthread_mutex_unlock(&jb->lock);
            return;
        }
        ci = jb->next_chunk++;
        pthread_mutex_unlock(&jb->lock);

        s = ci % jb->window;
        memset(&jb->part[s], 0, sizeof jb->part[s]);
        lo = ci * jb->chunk;
        hi = lo + jb->chunk < jb->n_grp ? lo + jb->chunk : jb->n_grp;
        for (int32_t gi = lo; gi < hi && !err; gi++)
            err = do_group(wk, gi, jb->buf[s], &jb->part[s]);

        pthread_mutex_lock(&jb->lock);
        if (err) {
            /* Keep the error of the lowest chunk: the same whatever the
             * thread count (all lower chunks were handed out before). */
            if (jb->err == TM_EOK || ci < jb->err_chunk) {
                jb->err = err;
                jb->err_chunk = ci;
                snprintf(jb->errmsg, sizeof jb->errmsg, "%s", tm_ctx_errmsg(wk->ctx));
            }
            pthread_cond_broadcast(&jb->cond);
        } else {
            jb->done[s] = 1;
            reduce_ready(jb);
        }
        pthread_mutex_unlock(&jb->lock);
    }
}

static void worker_release(worker *wk)
{
    tm_route_ws_free(wk->ws);
    tm_ctx_free(wk->ctx);
    free(wk->acc);
    free(wk->mark);
    free(wk->list);
    free(wk->hops);
    free(wk->vols);
    free(wk->acc2);
    free(wk->mark2);
    free(wk->list2);
}

static tm_err worker_init(tm_ctx *ctx, job *jb, worker *wk)
{
    size_t n = (size_t)jb->n_vertices + 1;
    tm_err err;
    memset(wk, 0, sizeof *wk);
    wk->jb = jb;
    if (tm_ctx_new(&wk->ctx) != TM_EOK)
        return tm__nomem(ctx);
    err = tm_route_ws_new(wk->ctx, jb->route, &wk->ws);
    if (err)
        return tm__fail(ctx, err, "%s", tm_ctx_errmsg(wk->ctx));
    wk->acc = tm__malloc_n(n, sizeof *wk->acc);
    wk->mark = tm__malloc_n(n, sizeof *wk->mark);
    wk->list = tm__malloc_n(n, sizeof *wk->list);
    wk->hops = tm__malloc_n(n, sizeof *wk->hops);
    wk->vols = tm__malloc_n(n, sizeof *wk->vols);
    wk->acc2 = tm__malloc_n(n, sizeof *wk->acc2);
    wk->mark2 = tm__malloc_n(n, sizeof *wk->mark2);
    wk->list2 = tm__malloc_n(n, sizeof *wk->list2);
    if (!wk->acc || !wk->mark || !wk->list || !wk->hops || !wk->vols || !wk->acc2 ||
        !wk->mark2 || !wk->list2)
        return tm__nomem(ctx);
    for (size_t v = 0; v < n; v++)
        wk->mark[v] = wk->mark2[v] = -1;
    wk->mark_gen = -1;
    return TM_EOK;
}

/* Groups the source hosts by switch (stub hosts, route_eval.h), in order
 * of their first host, each group's hosts in host order; every host alone
 * when the router cannot route from a switch.  Deterministic: the chunks,
 * and so every floating-point sum, depend only on the input. */
static tm_err make_groups(tm_ctx *ctx, job *jb)
{
    const tm__bygroup *by = jb->by;
    int32_t nh = by->n_hosts, *first = NULL, *cnt = NULL;
    bool stub = jb->stub = tm__route_stub_ok(jb->route);
    tm_err err = TM_EOK;
    jb->grp_off = tm__malloc_n((size_t)nh + 1, sizeof *jb->grp_off);
    jb->grp_si = tm__malloc_n((size_t)nh + 1, sizeof *jb->grp_si);
    jb->grp_v = tm__malloc_n((size_t)nh + 1, sizeof *jb->grp_v);
    /* group of a vertex (hosts are vertices: nh <= n_vertices) */
    first = tm__malloc_n((size_t)jb->n_vertices + 1, sizeof *first);
    cnt = tm__calloc_n((size_t)nh + 1, sizeof *cnt);
    if (!jb->grp_off || !jb->grp_si || !jb->grp_v || !first || !cnt) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t v = 0; v < jb->n_vertices; v++)
        first[v] = -1;
    jb->n_grp = 0;
    /* pass 1: group of each host (grp_si used as scratch), sizes */
    for (int32_t si = 0; si < nh; si++) {
        int32_t h = by->hosts[si], v = stub ? tm__route_stub_of(jb->route, h) : h;
        if (first[v] < 0) {
            first[v] = jb->n_grp;
            jb->grp_v[jb->n_grp++] = v;
        }
        jb->grp_si[si] = first[v];
        cnt[first[v]]++;
    }
    jb->grp_off[0] = 0;
    for (int32_t gi = 0; gi < jb->n_grp; gi++)
        jb->grp_off[gi + 1] = jb->grp_off[gi] + cnt[gi];
    /* pass 2: hosts into place, in host order (cnt becomes the fill
     * position; first[] is reused for the group of each host index) */
    for (int32_t si = 0; si < nh; si++)
        first[si] = jb->grp_si[si];
    for (int32_t gi = 0; gi < jb->n_grp; gi++)
        cnt[gi] = jb->grp_off[gi];
    for (int32_t si = 0; si < nh; si++)
        jb->grp_si[cnt[first[si]]++] = si;
out:
    free(first);
    free(cnt);
    return err;
}

/* The fat-trees of src/net/ftclass.h: each flow adds its volume to the
 * class totals of the levels it crosses (tm__route_classes_add), and every
 * link then gets its class's share; the stub hops are added as in
 * do_group.  One thread: it costs O(messages x levels + links), less than
 * reducing one chunk of the DAG evaluation per thread. */
static tm_err classes_run(tm_ctx *ctx, job *jb, tm__route_classes *cls)
{
    tm__msum ps;
    worker wk;
    tm_err err = worker_init(ctx, jb, &wk);
    memset(&ps, 0, sizeof ps);
    for (int32_t gi = 0; !err && gi < jb->n_grp; gi++) {
        int32_t k = merge_destinations(&wk, gather_group(&wk, gi, jb->load, &ps), jb->load);
        for (int32_t i = 0; i < k; i++)
            add_flow(&ps, wk.vols[i],
                     tm__route_classes_add(cls, jb->grp_v[gi], wk.list2[i], wk.vols[i]));
    }
    if (!err) {
        tm__route_classes_load(cls, jb->load);
        msum_add(jb->sum, &ps);
    }
    worker_release(&wk);
    return err;
}

/* The k destinations of grid vertex v go as boxes (tm__route_grid_boxes) when
 * the boxes are at most TM_BOX_PER_VERTEX times the vertices, what one
 * DAG from v costs at most: measured on tori, a vertex of a box costs
 * 1.3 ns in the batch (for a message and its reverse), a vertex of a DAG
 * 16 ns (a search step and a sweep step).  Depends on the input only. */
#define TM_BOX_PER_VERTEX 8
/* A healthy torus or mesh under ECMP: the messages of every grid host
 * whose boxes pay go to *msg (for tm__route_grid_batch), with their sums;
 * the other groups stay in jb for the DAG evaluation (their order kept).
 * One thread: O(messages). */
static tm_err grid_split(tm_ctx *ctx, job *jb, tm__gridmsg **msg, size_t *m)
{
    tm__msum ps;
    worker wk;
    size_t cap = 0;
    int32_t ng = 0, pos = 0;
    tm_err err = worker_init(ctx, jb, &wk);
    memset(&ps, 0, sizeof ps);
    *m = 0;
    for (int32_t gi = 0; !err && gi < jb->n_grp; gi++) {
        int32_t v = jb->grp_v[gi], lo = jb->grp_off[gi], hi = jb->grp_off[gi + 1], k;
        int64_t max;
        tm__msum gs;
        memset(&gs, 0, sizeof gs);
        /* a grid vertex is a host routed from itself: no stub hop */
        if (tm__route_grid_on(jb->route, v) &&
            tm__route_grid_boxes(jb->route, v,
                                 (size_t)(k = gather_group(&wk, gi, jb->load, &gs)), wk.list,
                                 (int64_t)TM_BOX_PER_VERTEX * jb->n_vertices, &max) >= 0) {
            if (tm__grow((void **)msg, &cap, *m + (size_t)k, sizeof **msg) < 0) {
                err = tm__nomem(ctx);
                break;
            }
            for (int32_t i = 0; i < k; i++) {
                tm__gridmsg *e = &(*msg)[(*m)++];
                e->src = v;
                e->dst = wk.list[i];
                e->w = wk.acc[e->dst];
                add_flow(&gs, e->w, tm__route_grid_hops(jb->route, v, e->dst));
            }
            msum_add(&ps, &gs);
            continue;
        }
        jb->grp_off[ng] = pos; /* keep the group (ng <= gi: read before written) */
        for (int32_t i = lo; i < hi; i++)
            jb->grp_si[pos++] = jb->grp_si[i];
        jb->grp_v[ng++] = v;
    }
    jb->grp_off[ng] = pos;
    jb->n_grp = ng;
    if (!err)
        msum_add(jb->sum, &ps);
    worker_release(&wk);
    return err;
}

/* The groups left in jb through the shortest-path DAGs: chunks of groups
 * on the context's threads, reduced in chunk order (the file's comment). */
static tm_err dag_run(tm_ctx *ctx, job *jb)
{
    worker *wk = NULL;
    int threads = tm_ctx_threads(ctx);
    tm_err err = TM_EOK;
    jb->chunk = (jb->n_grp + TM_CHUNKS_TARGET - 1) / TM_CHUNKS_TARGET;
    if (jb->chunk < TM_CHUNK_MIN)
        jb->chunk = TM_CHUNK_MIN;
    jb->n_chunks = (jb->n_grp + jb->chunk - 1) / jb->chunk;
    if (threads < 1)
        threads = 1;
    if (threads > jb->n_chunks)
        threads = jb->n_chunks > 0 ? jb->n_chunks : 1;
    jb->window = 2 * threads;
    pthread_mutex_init(&jb->lock, NULL);
    pthread_cond_init(&jb->cond, NULL);

    jb->buf = calloc((size_t)jb->window, sizeof *jb->buf);
    jb->part = calloc((size_t)jb->window, sizeof *jb->part);
    jb->done = calloc((size_t)jb->window, 1);
    wk = calloc((size_t)threads, sizeof *wk);
    if (!jb->buf || !jb->part || !jb->done || !wk) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int i = 0; i < jb->window; i++)
        if (!(jb->buf[i] = tm__calloc_n((size_t)jb->n_links + 1, sizeof(double)))) {
            err = tm__nomem(ctx);
            goto out;
        }
    for (int i = 0; i < threads; i++)
        if ((err = worker_init(ctx, jb, &wk[i])) != TM_EOK)
            goto out;
    /* The calling thread is worker 0; no igraph call happens in workers. */
    tm__team_once(threads, worker_run, wk);
    if (jb->err != TM_EOK)
        err = tm__fail(ctx, jb->err, "%s", jb->errmsg);
    else if (jb->reduced != jb->n_chunks)
        err = tm__fail(ctx, TM_EINTERNAL, "metrics: %d of %d chunks reduced", (int)jb->reduced,
                       (int)jb->n_chunks);
out:
    for (int i = 0; wk && i < threads; i++)
        worker_release(&wk[i]);
    for (int i = 0; jb->buf && i < jb->window; i++)
        free(jb->buf[i]);
    free(jb->buf);
    free(jb->part);
    free(jb->done);
    free(wk);
    pthread_cond_destroy(&jb->cond);
    pthread_mutex_destroy(&jb->lock);
    return err;
}

tm_err tm__metrics_exact(tm_ctx *ctx, const tm_route *route, const tm_comm *comm,
                         const tm_mapping *map, const tm_metrics_opts *opts,
                         const tm__bygroup *by, double *load, tm__msum *sum)
{
    const tm_net_csr *g = tm_net_csr_get(tm_route_net(route));
    job jb;
    tm__route_classes *cls = NULL;
    tm__gridmsg *msg = NULL;
    size_t n_msg = 0;
    tm_err err = TM_EOK;

    memset(&jb, 0, sizeof jb);
    jb.route = route;
    jb.comm = comm;
    jb.map = map;
    jb.opts = opts;
    jb.by = by;
    jb.n_links = g->n_links;
    jb.n_vertices = g->n;
    jb.load = load;
    jb.sum = sum;
    if ((err = make_groups(ctx, &jb)) != TM_EOK)
        goto out;
    /* regular fat-trees: class totals, no DAG at all */
    if (jb.stub && (err = tm__route_classes_new(ctx, route, &cls)) != TM_EOK)
        goto out;
    if (cls) {
        err = classes_run(ctx, &jb, cls);
        goto out;
    }
    /* healthy tori and meshes: the groups whose boxes pay go to the batch */
    if (tm__route_grid_batch_ok(route) && (err = grid_split(ctx, &jb, &msg, &n_msg)) != TM_EOK)
        goto out;
    err = dag_run(ctx, &jb);
    if (!err && n_msg > 0)
        err = tm__route_grid_batch(ctx, route, msg, n_msg, load);
    if (!err && tm__route_nonminimal(route)) {
        /* the flows' hops are their longest paths; volume x hops travelled
         * is the total link load (route_eval.h), summed in link order */
        sum->sum_w_hops = 0.0;
        for (int32_t l = 0; l < jb.n_links; l++)
            sum->sum_w_hops += load[l];
    }
out:
    tm__route_classes_free(cls);
    free(msg);
    free(jb.grp_off);
    free(jb.grp_si);
    free(jb.grp_v);
    return err;
}
