/* bounds_print.c - the lower bounds beside the figures of eval and map
 * (docs/bounds.md): computed through the public API, printed as a table
 * (value, bound, gap, the method that gave the bound) and as the JSON keys
 * "bounds" and "gap". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

tm_err cli_bounds_network(tm_ctx *ctx, const cli_network *nw, const cli_inputs *in,
                          const tm_comm *comm, double imbalance, int32_t tasks_per_slot,
                          tm_bounds *out)
{
    tm_problem p = {0};
    tm_bounds_opts o = TM_BOUNDS_OPTS_INIT;
    p.net = nw->net;
    p.route = nw->route;
    p.alloc = &nw->alloc;
    p.comm = comm;
    p.hier = nw->have_node_hier ? &nw->node_hier : NULL;
    p.imbalance = imbalance;
    p.hop_distance = in->hop_distance;
    o.tasks_per_slot = tasks_per_slot;
    return tm_bounds_compute(ctx, &p, &o, out);
}

tm_err cli_bounds_hier(tm_ctx *ctx, const tm_hier *h, const tm_comm *comm, double imbalance,
                       int32_t tasks_per_pe, tm_bounds *out)
{
    tm_problem p = {0};
    tm_bounds_opts o = TM_BOUNDS_OPTS_INIT;
    p.hier = h;
    p.comm = comm;
    p.imbalance = imbalance;
    o.tasks_per_slot = tasks_per_pe;
    return tm_bounds_compute(ctx, &p, &o, out);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int32_t cli_tasks_per_slot(const tm_mapping *m, int64_t slots)
{
    int32_t most = 1, run = 0;
    int64_t *key;
    if (m->n <= slots)
        return 0; /* one task per slot: the problem's own capacity */
    if (!(key = malloc((size_t)m->n * sizeof *key)))
        return m->n; /* every task on one slot: valid, only weak */
    for (int32_t i = 0; i < m->n; i++)
        key[i] = m->host ? (int64_t)m->host[i] << 32 | (uint32_t)m->slot[i] : m->pe[i];
    qsort(key, (size_t)m->n, sizeof *key, cmp_i64);
    for (int32_t i = 0; i < m->n; i++) {
        run = i > 0 && key[i] == key[i - 1] ? run + 1 : 1;
        most = run > most ? run : most;
    }
    free(key);
    return most;
}

static void fig(FILE *out, const char *name, double value, double bound, double gap,
                const char *by)
{
    char g[32];
    if (isinf(gap))
        snprintf(g, sizeof g, "-");
    else
        snprintf(g, sizeof g, "%.4f", gap);
    fprintf(out, "  %-16s %16.10g %16.10g %9s  %s\n", name, value, bound, g, by);
}

void cli_print_bounds(FILE *out, const tm_bounds *b, const tm_metrics *m)
{
    tm_bounds_gap g;
    tm_bounds_gap_of(b, m, &g);
    fprintf(out, "lower bounds (every mapping of the job on the allocation; docs/bounds.md):\n");
    fprintf(out, "  %-16s %16s %16s %9s  %s\n", "", "value", "lower bound", "gap", "bound by");
    if (b->network) {
        fig(out, "max congestion", m->max_congestion, b->max_congestion, g.max_congestion,
            b->congestion_by);
        fig(out, "avg dilation", m->avg_dilation, b->avg_dilation, g.avg_dilation,
            b->dilation_by);
        fig(out, "QAP J (network)", m->qap_J, b->qap_J, g.qap_J, b->J_by);
    } else {
        fig(out, "J (hierarchy)", m->qap_J, b->qap_J, g.qap_J, b->J_by);
    }
}

/* A gap as a JSON number, null when infinite (a bound of 0). */
static void json_gap(json_w *j, const char *key, double v)
{
    if (isinf(v))
        json_null(j, key);
    else
        json_num(j, key, v);
}

void cli_json_bounds(json_w *j, const tm_bounds *b, const tm_metrics *m)
{
    static const char *const key[3] = {"max_congestion", "avg_dilation", "qap_network_J"};
    tm_bounds_gap g;
    const char *jkey = b->network ? key[2] : "J";
    tm_bounds_gap_of(b, m, &g);
    json_obj_begin(j, "bounds");
    if (b->network) {
        json_num(j, key[0], b->max_congestion);
        json_num(j, key[1], b->avg_dilation);
    }
    json_num(j, jkey, b->qap_J);
    json_obj_begin(j, "by");
    if (b->network) {
        json_str(j, key[0], b->congestion_by);
        json_str(j, key[1], b->dilation_by);
    }
    json_str(j, jkey, b->J_by);
    json_obj_end(j);
    json_obj_begin(j, "methods");
    for (int i = 0; i < b->n_methods; i++) {
        const tm_bound_method *x = &b->method[i];
        double v[3] = {x->max_congestion, x->avg_dilation, x->qap_J};
        json_obj_begin(j, x->name);
        for (int k = b->network ? 0 : 2; k < 3; k++)
            if (!isnan(v[k]))
                json_num(j, k == 2 ? jkey : key[k], v[k]);
        json_obj_end(j);
    }
    json_obj_end(j);
    json_int(j, "tasks_per_slot", b->tasks_per_slot);
    json_int(j, "flow_sources", b->flow_sources);
    json_num(j, "time_s", b->time_s);
    json_obj_end(j);
    json_obj_begin(j, "gap");
    if (b->network) {
        json_gap(j, key[0], g.max_congestion);
        json_gap(j, key[1], g.avg_dilation);
    }
    json_gap(j, jkey, g.qap_J);
    json_obj_end(j);
}
