/* cmd_alloc.c - `topomap alloc`: the nodes of a new job among the free
 * ones, chosen for the least predicted time with the running jobs'
 * traffic, beside the nodes Slurm's tree plugin would give it and a
 * random pick (docs/workload.md "alloc"). */
#include <stdlib.h>
#include <string.h>

#include "workload_cli.h"

static const char usage_head[] =
    "usage: topomap alloc --topology T --nodes N [--free HOSTLIST] [--exclude HOSTLIST]\n"
    "                     [--ppn N] [--comm M]\n"
    "                     [--jobs F [--at TIME] | --slurm | --slurm-state DIR\n"
    "                      [--slurm-partition P]] [--slurm-topology F [--slurm-topology-name N]]\n"
    "                     [--policy topomap|slurm-tree|slurm-block|random] [--json]\n"
    "\n"
    "Chooses N of the free nodes for a new job whose communication is M, so that its\n"
    "predicted time (est_time_s) with the running jobs of F as background traffic is\n"
    "least, and prints them as a Slurm hostlist: sbatch --nodelist=$(topomap alloc ...).\n"
    "--json adds its figures, and the same for the nodes Slurm's topology/tree and\n"
    "topology/block plugins would give (emulated) and for a random pick.\n"
    "docs/workload.md.\n"
    "\n"
    "options:\n";

static void usage(FILE *out)
{
    fputs(usage_head, out);
    cli_print_options(out, CLI_ALLOC);
}

/* Keeps in fr only the hosts the cluster's state says are free (of
 * --slurm-partition). */
static tm_err state_free(tm_ctx *ctx, const wl_args *a, const wl_inputs *in, tm_alloc *fr)
{
    int32_t *hosts = NULL, n = 0, k = 0, nv = tm_net_n_vertices(in->net);
    uint8_t *ok = calloc((size_t)nv + 1, 1);
    tm_err err = ok ? tm_slurm_free_hosts(ctx, in->net, &in->st, a->slurm_partition, &hosts, &n)
                    : tm_ctx_fail(ctx, TM_ENOMEM, "out of memory");
    for (int32_t i = 0; !err && i < n; i++)
        ok[hosts[i]] = 1;
    for (int32_t i = 0; !err && i < fr->n; i++)
        if (ok[fr->host[i]]) {
            fr->host[k] = fr->host[i];
            fr->slots[k++] = fr->slots[i];
        }
    if (!err)
        fr->n = k;
    free(hosts);
    free(ok);
    return err;
}

/* The free hosts: --free (default every host), with --slurm or
 * --slurm-state those the controller says are free, without those of
 * --exclude and those a running job uses. */
static tm_err free_hosts(tm_ctx *ctx, const wl_args *a, const wl_inputs *in, const int32_t *set,
                         int32_t n_set, tm_alloc *out)
{
    int32_t nv = tm_net_n_vertices(in->net), k = 0;
    uint8_t *busy;
    tm_err err = a->free ? tm_alloc_from_hostlist(ctx, in->net, a->free, out)
                         : tm_alloc_all(ctx, in->net, out);
    if (!err && in->have_state)
        err = state_free(ctx, a, in, out);
    if (err)
        return err;
    if (!(busy = calloc((size_t)nv + 1, 1)))
        return tm_ctx_fail(ctx, TM_ENOMEM, "out of memory");
    if (a->exclude) {
        tm_alloc ex;
        tm_alloc_init(&ex);
        if ((err = tm_alloc_from_hostlist(ctx, in->net, a->exclude, &ex))) {
            free(busy);
            return err;
        }
        for (int32_t i = 0; i < ex.n; i++)
            busy[ex.host[i]] = 1;
        tm_alloc_release(&ex);
    }
    for (int32_t i = 0; (a->jobs || in->have_state) && i < n_set; i++) {
        const tm_job *job = &in->w.job[set ? set[i] : i];
        for (int32_t h = 0; h < job->n_hosts; h++)
            busy[job->host[h]] = 1;
    }
    for (int32_t i = 0; i < out->n; i++)
        if (!busy[out->host[i]]) {
            out->host[k] = out->host[i];
            out->slots[k++] = out->slots[i];
        }
    out->n = k;
    free(busy);
    return TM_EOK;
}

/* --ppn, or the free nodes' slots when they all have the same. */
static tm_err tasks_per_node(tm_ctx *ctx, const wl_args *a, const tm_alloc *fr, int32_t *ppn)
{
    *ppn = (int32_t)a->ppn;
    if (fr->n < a->nodes)
        return tm_ctx_fail(ctx, TM_EINFEASIBLE, "%ld nodes asked, %d free", a->nodes, fr->n);
    if (a->ppn > 0)
        return TM_EOK;
    for (int32_t i = 0; i < fr->n; i++) {
        if (i && fr->slots[i] != *ppn)
            return tm_ctx_fail(ctx, TM_EUSAGE, "the free nodes have different slots (%d and %d): "
                               "give --ppn", *ppn, fr->slots[i]);
        *ppn = fr->slots[i];
    }
    return TM_EOK;
}

typedef struct picks {
    tm_pick p[4];     /* by tm_pick_policy */
    tm_err err[4];
    char why[4][400]; /* when a policy could not place the job */
} picks;

static void json_pick(json_w *j, const char *key, const wl_inputs *in, const picks *pk, int i)
{
    const tm_pick *p = &pk->p[i];
    char *nodes;
    json_obj_begin(j, key);
    json_bool(j, "feasible", pk->err[i] == TM_EOK);
    if (pk->err[i]) {
        json_str(j, "reason", pk->why[i]);
        json_obj_end(j);
        return;
    }
    nodes = wl_hostlist(in->net, p->hosts, p->n_hosts);
    json_str(j, "nodes", nodes ? nodes : "");
    free(nodes);
    json_num(j, "est_time_s", p->shared.est_time_s);
    json_num(j, "max_congestion", p->shared.max_congestion);
    json_num(j, "slowdown", p->slowdown);
    json_obj_begin(j, "alone");
    json_num(j, "max_congestion", p->alone.max_congestion);
    json_num(j, "avg_dilation", p->alone.avg_dilation);
    json_num(j, "qap_J", p->alone.qap_J);
    json_num(j, "est_time_s", p->alone.est_time_s);
    json_obj_end(j);
    json_bool(j, "time_approximate", p->shared.time_approximate || p->alone.time_approximate);
    json_int(j, "neighbours", p->n_neighbours);
    json_num(j, "neighbours_slowdown", p->neighbours_slowdown);
    if (i == TM_PICK_TOPOMAP)
        json_int(j, "candidates", p->candidates);
    json_obj_end(j);
}

static void print_json(const wl_args *a, const wl_inputs *in, const picks *pk, int policy,
                       int32_t n_running, int32_t n_free, int32_t ppn, double secs)
{
    const tm_pick *p = &pk->p[policy];
    json_w j;
    char *nodes = wl_hostlist(in->net, p->hosts, p->n_hosts);
    json_begin(&j, stdout);
    json_obj_begin(&j, NULL);
    json_str(&j, "topology", a->in.topology);
    json_str(&j, "routing", tm_route_kind_name(tm_route_kind_of(in->route)));
    json_str(&j, "policy", tm_pick_policy_name((tm_pick_policy)policy));
    json_str(&j, "nodes", nodes ? nodes : "");
    json_num(&j, "est_time_s", p->shared.est_time_s);
    json_int(&j, "n_nodes", a->nodes);
    json_int(&j, "ppn", ppn);
    json_str(&j, "comm", a->in.comm ? a->in.comm : "stencil3d:1MiB");
    json_int(&j, "running_jobs", n_running);
    json_int(&j, "free_nodes", n_free);
    json_pick(&j, "topomap", in, pk, TM_PICK_TOPOMAP);
    json_pick(&j, "slurm_tree", in, pk, TM_PICK_SLURM_TREE);
    json_pick(&j, "random", in, pk, TM_PICK_RANDOM);
    json_pick(&j, "slurm_block", in, pk, TM_PICK_SLURM_BLOCK);
    json_num(&j, "time_s", secs);
    json_obj_end(&j);
    json_end(&j);
    free(nodes);
}

/* --comm: a pattern, or a matrix file (read once). */
static tm_err job_comm(tm_ctx *ctx, const wl_args *a, tm_pick_request *rq, tm_comm *c)
{
    const char *why = NULL;
    const char *spec = a->in.comm ? a->in.comm : "stencil3d";
    int k = tm_pattern_parse(spec, &rq->pattern, &rq->pattern_bytes, &why);
    if (k < 0)
        return tm_ctx_fail(ctx, TM_EUSAGE, "--comm '%s': %s", spec, why);
    if (k > 0)
        return TM_EOK;
    rq->comm = c;
    return cli_load_comm(ctx, &a->in, c);
}

static tm_err run(tm_ctx *ctx, const wl_args *a, wl_inputs *in, picks *pk, int policy,
                  int32_t *n_running, int32_t *n_free, int32_t *ppn)
{
    tm_pick_request rq;
    tm_slurm_tree *tree = NULL, *blocks = NULL;
    tm_alloc fr;
    tm_comm comm;
    int32_t *set = NULL, n_set = 0;
    tm_err err;
    memset(&rq, 0, sizeof rq);
    tm_alloc_init(&fr);
    tm_comm_init(&comm);
    err = wl_at_set(ctx, a, &in->w, &set, &n_set);
    if (!err)
        err = free_hosts(ctx, a, in, set, n_set, &fr);
    if (!err)
        err = tasks_per_node(ctx, a, &fr, ppn);
    if (!err)
        err = job_comm(ctx, a, &rq, &comm);
    if (!err)
        err = wl_slurm_topology(ctx, a, in->net, &tree);
    /* a file of blocks is topology/block's; the tree is then topomap's export */
    if (!err && tree && tm_slurm_tree_blocks(tree) > 0) {
        blocks = tree;
        tree = NULL;
    }
    if (!err && !tree)
        err = tm_slurm_tree_from_net(ctx, in->net, &tree);
    *n_running = n_set;
    *n_free = fr.n;
    rq.n_nodes = (int32_t)a->nodes;
    rq.ppn = *ppn;
    rq.free = fr.host;
    rq.n_free = fr.n;
    rq.running = a->jobs || in->have_state ? &in->w : NULL;
    rq.set = set;
    rq.n_set = n_set;
    rq.time = &in->topt;
    rq.tree = tree;
    rq.blocks = blocks;
    rq.seed = (uint64_t)a->seed;
    /* the hostlist alone (a scheduler's path): the policy's pick only;
     * --json compares all four */
    for (int i = 0; !err && i < 4; i++) {
        if (!a->json && i != policy)
            continue;
        pk->err[i] = tm_pick_nodes(ctx, in->route, &rq, (tm_pick_policy)i, &pk->p[i]);
        if (pk->err[i] == TM_EINFEASIBLE && i != policy) {
            snprintf(pk->why[i], sizeof pk->why[i], "%s", tm_ctx_errmsg(ctx));
            tm_ctx_clear_error(ctx);
        } else {
            err = pk->err[i];
        }
    }
    tm_slurm_tree_free(tree);
    tm_slurm_tree_free(blocks);
    tm_comm_release(&comm);
    tm_alloc_release(&fr);
    free(set);
    return err;
}

int cmd_alloc(int argc, char **argv, cli_warns *w)
{
    const char *cmd = "topomap alloc";
    wl_args a = {0};
    wl_parse p = {cmd, &a};
    tm_ctx *ctx = NULL;
    wl_inputs in;
    picks pk;
    int policy = TM_PICK_TOPOMAP;
    int32_t n_running = 0, n_free = 0, ppn = 0;
    double t0 = cli_now();
    tm_err err;
    int rc;
    a.seed = 1;
    if (!cli_parse_options(cmd, CLI_ALLOC, argc, argv, wl_option, &p, usage, &rc))
        return rc;
    if (!a.in.topology)
        return cli_usage_error(cmd, "--topology is required");
    if (a.nodes < 1)
        return cli_usage_error(cmd, "--nodes is required");
    if (a.policy && (policy = tm_pick_policy_parse(a.policy)) < 0)
        return cli_usage_error(cmd, "unknown --policy '%s' (topomap, slurm-tree, slurm-block, "
                                    "random)",
                               a.policy);
    if (a.at && !a.jobs && !a.slurm && !a.slurm_state)
        return cli_usage_error(cmd, "--at needs --jobs");
    if (wl_check_jobs_source(cmd, &a, false))
        return TM_EXIT_USAGE;
    if (cli_ctx_new(&ctx, w))
        return TM_EXIT_INTERNAL;
    memset(&pk, 0, sizeof pk);
    wl_inputs_init(&in);
    err = tm_ctx_set_threads(ctx, (int)a.in.threads);
    if (!err)
        err = wl_inputs_load(ctx, &a, a.jobs, &in);
    if (!err)
        err = run(ctx, &a, &in, &pk, policy, &n_running, &n_free, &ppn);
    rc = 0;
    if (err) {
        rc = cli_report(ctx, w, "alloc", err);
    } else if (a.json) {
        print_json(&a, &in, &pk, policy, n_running, n_free, ppn, cli_now() - t0);
    } else {
        char *nodes = wl_hostlist(in.net, pk.p[policy].hosts, pk.p[policy].n_hosts);
        printf("%s\n", nodes ? nodes : "");
        free(nodes);
    }
    for (int i = 0; i < 4; i++)
        tm_pick_release(&pk.p[i]);
    wl_inputs_release(&in);
    tm_ctx_free(ctx);
    return rc;
}
