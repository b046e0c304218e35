/* test_qap_gcells.c - the cells of qap_gcells.h (used by `grow` for tasks
 * whose partners' hosts are full): on fat-trees, with
 * whole and partial allocations and random free slots, every free host
 * lies in exactly one cell listed around random partner hosts, costs
 * exactly what the cell's chosen host costs (brute force over every free
 * host and the network-mode distance), and the free-slot counts kept by
 * tm__gcells_take equal a recount. */
#include <math.h>

#include "map_fixtures.h"
#include "test_fixtures.h"
#include "qap/qap_gcells.h"

/* J of one unit of traffic from the first PE of host a to each partner. */
static double cost(const tm__qnet *q, int32_t a, const int32_t *part, const double *w, int32_t np)
{
    double c = 0;
    for (int32_t i = 0; i < np; i++)
        c += w[i] * tm__qnet_d(q, (int32_t)q->host_pe0[a], (int32_t)q->host_pe0[part[i]]);
    return c;
}

/* Every free host is listed once: itself, or a node above its class. */
static void check_partition(const tm__gcells *c, const tm__qnet *q, const int32_t *cells,
                            int32_t n, const int32_t *free_n)
{
    for (int32_t a = 0; a < q->n_hosts; a++) {
        int hits = 0;
        if (free_n[a] == 0)
            continue;
        for (int32_t i = 0; i < n; i++) {
            hits += cells[i] == -1 - a;
            for (int32_t v = q->hd->cls[a]; v >= 0; v = c->parent[v])
                hits += v == cells[i];
        }
        assert_int_equal(hits, 1);
    }
}

static void run_case(const char *spec, int32_t slots, int32_t every, uint64_t seed)
{
    tm_net *net = tm_test_gen_net(spec, slots);
    int32_t nv = tm_net_n_vertices(net), k = 0, i = 0, *hosts = malloc((size_t)nv * sizeof *hosts);
    tm_alloc al;
    tm_comm cm;
    int32_t s0 = 0, d0 = 1;
    double w0 = 1;
    tm_problem p = {0};
    tm__qnet q;
    tm__gcells c;
    tm__rng r;
    bool ok;
    for (int32_t v = 0; v < nv; v++)
        if (tm_net_kind(net, v) == TM_VERTEX_HOST && i++ % every == 0)
            hosts[k++] = v;
    fx_alloc(&al, net, k, hosts);
    p.net = net;
    p.alloc = &al;
    fx_comm(&cm, 2, 1, &s0, &d0, &w0);
    p.comm = &cm;
    assert_tm_ok(ctx, tm__qnet_build(ctx, &p, &q));
    assert_tm_ok(ctx, tm__gcells_build(ctx, &q, &c, &ok));
    assert_true(ok);
    tm__rng_seed(&r, seed, 1);
    {
        int32_t *free_n = malloc((size_t)q.n_hosts * sizeof *free_n);
        int32_t *cells = malloc(((size_t)c.n + (size_t)q.n_hosts) * sizeof *cells);
        int64_t *recount = malloc((size_t)c.n * sizeof *recount);
        for (int32_t a = 0; a < q.n_hosts; a++)
            free_n[a] = slots;
        tm__gcells_reset(&c, &q, free_n);
        for (int round = 0; round < 40; round++) {
            int32_t part[6], np = 1 + (int32_t)tm__rng_below(&r, 6), n;
            double w[6], best_all = INFINITY, best_cells = INFINITY;
            /* take some slots, as grow does */
            for (int t = 0; t < q.n_hosts / 20 + 1; t++) {
                int32_t a = (int32_t)tm__rng_below(&r, (uint64_t)q.n_hosts);
                if (free_n[a] > 0) {
                    free_n[a]--;
                    tm__gcells_take(&c, &q, a);
                }
            }
            memcpy(recount, c.nfree, (size_t)c.n * sizeof *recount);
            tm__gcells_reset(&c, &q, free_n);
            assert_memory_equal(recount, c.nfree, (size_t)c.n * sizeof *recount);
            for (int32_t j = 0; j < np; j++) {
                part[j] = (int32_t)tm__rng_below(&r, (uint64_t)q.n_hosts);
                w[j] = 1 + (double)tm__rng_below(&r, 5);
            }
            n = tm__gcells_cells(&c, &q, part, np, free_n, cells);
            check_partition(&c, &q, cells, n, free_n);
            for (int32_t a = 0; a < q.n_hosts; a++) {
                int32_t v = q.hd->cls[a];
                double x;
                if (free_n[a] == 0)
                    continue;
                x = cost(&q, a, part, w, np);
                best_all = fmin(best_all, x);
                /* the cell's host costs the same */
                for (; v >= 0; v = c.parent[v])
                    for (int32_t j = 0; j < n; j++)
                        if (cells[j] == v) {
                            int32_t h = tm__gcells_host(&c, v, free_n);
                            assert_true(free_n[h] > 0);
                            assert_true(fabs(cost(&q, h, part, w, np) - x) < 1e-9);
                        }
            }
            for (int32_t j = 0; j < n; j++)
                best_cells = fmin(best_cells, cost(&q, tm__gcells_host(&c, cells[j], free_n), part,
                                                   w, np));
            assert_true(best_all == best_cells);
        }
        free(free_n), free(cells), free(recount);
    }
    tm__gcells_release(&c);
    tm__qnet_release(&q);
    fx_alloc_free(&al);
    fx_comm_free(&cm);
    tm_net_free(net);
    free(hosts);
}

static void test_cells_vs_every_host(void **state)
{
    (void)state;
    run_case("fattree:k=4,n=3", 1, 1, 1);
    run_case("fattree:k=4,n=3", 2, 3, 2);
    run_case("fattree:k=8,n=3", 1, 1, 3);
    run_case("fattree:k=8,n=3", 1, 5, 4);
    run_case("fattree:k=4,n=4", 1, 1, 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cells_vs_every_host),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
