/* netmap.c - the frame every network-mode strategy runs in: feasibility
 * (more tasks than slots is TM_EINFEASIBLE), the multicore step of Hoefler &
 * Snir Sec. 3.4/4.2 (METIS k-way into one block per host of exactly that
 * host's slot count, then the strategy maps the quotient graph with one block
 * per host), and the placement of tasks inside a host.
 *
 * The multicore step is used when all allocated hosts have the same slot
 * count p > 1 (the case the paper and partitioners support); then
 * ceil(n/p) blocks of p tasks (the last one smaller) are formed.  With
 * heterogeneous slot counts the strategies place tasks directly with
 * capacities C(v) = slots, which all three algorithms support. */
#include <stdlib.h>
#include <string.h>

#include "netmap.h"
#include "../util/util.h"

/* Orders the tasks of one host so heavily communicating tasks get adjacent
 * slots (which share caches/sockets when slots are numbered by core): grow
 * from the task of largest internal weight, always adding the task with the
 * largest connection to those already placed. */
static tm_err order_in_host(tm_ctx *ctx, const tm__sgraph *g, const int32_t *tasks, int32_t cnt,
                            int32_t *local, double *gain, int32_t *out)
{
    tm__pq q, seeds; /* q: (connection to placed, task); seeds: (internal weight, task) */
    tm__pq_item it;
    int32_t done = 0;
    tm_err err = TM_EOK;
    tm__pq_init(&q);
    tm__pq_init(&seeds);
    for (int32_t i = 0; i < cnt; i++) {
        local[tasks[i]] = i;
        gain[i] = 0;
    }
    for (int32_t i = 0; i < cnt; i++) {
        double s = 0;
        int32_t t = tasks[i];
        for (int64_t j = g->xadj[t]; j < g->xadj[t + 1]; j++)
            if (local[g->adj[j]] >= 0)
                s += g->w[j];
        if (tm__pq_push(&seeds, (tm__pq_item){s, t, i, 1}))
            goto nomem;
    }
    while (done < cnt) {
        int32_t i;
        /* grow while connected tasks remain; otherwise start a new seed */
        if (!tm__pq_pop(&q, &it) && !tm__pq_pop(&seeds, &it))
            break;
        i = it.id;
        if (gain[i] < 0 || (it.aux == 0 && it.key != gain[i]))
            continue; /* placed already, or a stale queue entry */
        gain[i] = -1;
        out[done++] = tasks[i];
        for (int64_t j = g->xadj[tasks[i]]; j < g->xadj[tasks[i] + 1]; j++) {
            int32_t l = local[g->adj[j]];
            if (l < 0 || gain[l] < 0)
                continue;
            gain[l] += g->w[j];
            if (tm__pq_push(&q, (tm__pq_item){gain[l], tasks[l], l, 0}))
                goto nomem;
        }
    }
    goto out;
nomem:
    err = tm__nomem(ctx);
out:
    for (int32_t i = 0; i < cnt; i++)
        local[tasks[i]] = -1;
    tm__pq_release(&q);
    tm__pq_release(&seeds);
    return err;
}

/* hostof[t] = allocation index of task t -> mapping with slots numbered in
 * the intra-host order. */
static tm_err assign_slots(tm_ctx *ctx, const tm__sgraph *g, int32_t nh, const int32_t *hosts,
                           const int32_t *hostof, tm_mapping *out)
{
    int32_t n = g->n;
    int32_t *start = tm__calloc_n((size_t)nh + 1, sizeof *start);
    int32_t *bucket = tm__malloc_n((size_t)n + 1, sizeof *bucket);
    int32_t *fill = tm__calloc_n((size_t)nh + 1, sizeof *fill);
    int32_t *local = tm__malloc_n((size_t)n + 1, sizeof *local);
    int32_t *ord = tm__malloc_n((size_t)n + 1, sizeof *ord);
    double *gain = tm__malloc_n((size_t)n + 1, sizeof *gain);
    tm_err err = TM_EOK;
    if (!start || !bucket || !fill || !local || !ord || !gain) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t t = 0; t < n; t++) {
        start[hostof[t] + 1]++;
        local[t] = -1;
    }
    for (int32_t i = 0; i < nh; i++)
        start[i + 1] += start[i];
    for (int32_t t = 0; t < n; t++)
        bucket[start[hostof[t]] + fill[hostof[t]]++] = t;
    for (int32_t i = 0; i < nh; i++) {
        int32_t cnt = start[i + 1] - start[i];
        if (cnt == 0)
            continue;
        err = order_in_host(ctx, g, bucket + start[i], cnt, local, gain, ord);
        if (err)
            goto out;
        for (int32_t s = 0; s < cnt; s++) {
            out->host[ord[s]] = hosts[i];
            out->slot[ord[s]] = s;
        }
    }
out:
    free(start);
    free(bucket);
    free(fill);
    free(local);
    free(ord);
    free(gain);
    return err;
}

/* The METIS k-way cut of g into blocks of the sizes target, from the
 * call's memo when a job of the same call (greedy, recursive and rcm of
 * the auto pipeline share the seed) made the same cut: the key is the
 * graph's contents, the sizes and the seed. */
static tm_err cut_blocks(tm_ctx *ctx, const tm__sgraph *g, int32_t k, const int64_t *target,
                         uint64_t seed, int32_t *part)
{
    tm__memo *memo = tm__ctx_memo(ctx);
    uint64_t key[2] = {0xcbf29ce484222325ULL, 0x6b7761792d637574ULL}; /* "kway-cut" */
    tm_err err;
    for (int h = 0; memo && h < 2; h++) {
        key[h] = tm__memo_hash(key[h], &g->n, sizeof g->n);
        key[h] = tm__memo_hash(key[h], g->xadj, ((size_t)g->n + 1) * sizeof *g->xadj);
        key[h] = tm__memo_hash(key[h], g->adj, (size_t)g->xadj[g->n] * sizeof *g->adj);
        key[h] = tm__memo_hash(key[h], g->w, (size_t)g->xadj[g->n] * sizeof *g->w);
        key[h] = tm__memo_hash(key[h], target, (size_t)k * sizeof *target);
        key[h] = tm__memo_hash(key[h], &seed, sizeof seed);
    }
    if (memo && tm__memo_get_i32(memo, key, part, (size_t)g->n))
        return TM_EOK;
    err = tm__metis_part(ctx, g, NULL, k, target, seed, part);
    if (!err && memo)
        tm__memo_put_i32(memo, key, part, (size_t)g->n);
    return err;
}

/* Multicore hosts (every host has `uniform` > 1 slots): g is cut into
 * blocks of `uniform` tasks, the contracted block graph is placed one
 * block per host by core, and each task goes to its block's host. */
static tm_err place_blocks(tm_ctx *ctx, const tm__sgraph *g, tm__placeprob *pp, int32_t uniform,
                           uint64_t seed, tm__core_fn core, int32_t *hostof)
{
    int32_t n = g->n, k = (int32_t)((n + uniform - 1) / uniform);
    int64_t *target = tm__malloc_n((size_t)k, sizeof *target);
    int32_t *part = tm__malloc_n((size_t)n, sizeof *part);
    int32_t *ones = tm__malloc_n((size_t)pp->nh, sizeof *ones);
    int32_t *bplace = tm__malloc_n((size_t)k, sizeof *bplace);
    tm__sgraph q = {0};
    tm_err err;
    if (!target || !part || !ones || !bplace) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t b = 0; b < k; b++)
        target[b] = b < k - 1 ? uniform : n - (int64_t)(k - 1) * uniform;
    for (int32_t i = 0; i < pp->nh; i++)
        ones[i] = 1;
    err = cut_blocks(ctx, g, k, target, seed, part);
    if (!err)
        err = tm__sgraph_contract(ctx, g, part, k, TM__SG_SORTED_ROWS, &q);
    if (err)
        goto out;
    pp->cap = ones;
    pp->g = &q;
    err = core(ctx, pp, seed, bplace);
    if (err)
        goto out;
    for (int32_t t = 0; t < n; t++)
        hostof[t] = bplace[part[t]];
out:
    tm__sgraph_release(&q);
    free(target);
    free(part);
    free(ones);
    free(bplace);
    return err;
}

tm_err tm__map_network(tm_ctx *ctx, const tm_problem *p, uint64_t seed, tm__core_fn core,
                       tm_mapping *out)
{
    const tm_alloc *al = p->alloc;
    int32_t n = p->comm->n, nh = 0, uniform = -1;
    int32_t *hosts = NULL, *caps = NULL, *hostof = NULL;
    tm__sgraph g = {0};
    tm__placeprob pp;
    tm_err err;
    int64_t slots = 0;

    for (int32_t i = 0; i < al->n; i++)
        slots += al->slots[i] > 0 ? al->slots[i] : 0;
    if (n > slots)
        return tm__fail(ctx, TM_EINFEASIBLE, "%d tasks but only %lld slots on %d hosts", n,
                        (long long)slots, al->n);
    err = tm_mapping_alloc(ctx, out, n, false);
    if (err || n == 0)
        return err;
    hosts = tm__malloc_n((size_t)al->n + 1, sizeof *hosts);
    caps = tm__malloc_n((size_t)al->n + 1, sizeof *caps);
    hostof = tm__malloc_n((size_t)n, sizeof *hostof);
    if (!hosts || !caps || !hostof) {
        err = tm__nomem(ctx);
        goto out;
    }
    for (int32_t i = 0; i < al->n; i++) {
        if (al->slots[i] <= 0)
            continue;
        hosts[nh] = al->host[i];
        caps[nh++] = al->slots[i];
        uniform = uniform == -1 || uniform == al->slots[i] ? al->slots[i] : 0;
    }
    err = tm__sgraph_from_comm(ctx, p->comm, TM__SG_POSITIVE, &g);
    if (err)
        goto out;
    pp.net = tm_net_csr_get(p->net);
    pp.nh = nh;
    pp.host = hosts;
    if (nh == 1) {
        memset(hostof, 0, (size_t)n * sizeof *hostof);
    } else if (uniform > 1 && n > 1) {
        err = place_blocks(ctx, &g, &pp, uniform, seed, core, hostof);
    } else {
        pp.cap = caps;
        pp.g = &g;
        err = core(ctx, &pp, seed, hostof);
    }
    if (!err)
        err = assign_slots(ctx, &g, nh, hosts, hostof, out);
out:
    if (err)
        tm_mapping_release(out);
    tm__sgraph_release(&g);
    free(hosts);
    free(caps);
    free(hostof);
    return err;
}
