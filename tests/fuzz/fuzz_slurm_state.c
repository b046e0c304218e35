/* fuzz_slurm_state.c - a cluster's saved state (docs/workload.md "Live
 * state") through tm_slurm_state_read: the input is the three copies
 * (nodes.json, jobs.json, steps.txt) cut at "--8<--" lines.  On success
 * every node and job has its strings, a job's step count is its largest,
 * the free hosts of the small net of fuzz_net.h are hosts, each once, and
 * the running jobs become a workload (tm_workload_from_slurm) whose jobs
 * are on hosts, or an error with a message.  Comment tags naming a file
 * are dropped first: a fuzzer must not read the machine's files. */
#include "fuzz_common.h"
#include "fuzz_net.h"

static tm_net *net;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    net = fz_small_net();
    return 0;
}

static void check_state(const tm_slurm_state *st, tm_ctx *ctx)
{
    for (int32_t i = 0; i < st->n_nodes; i++)
        if (!st->node[i].name || !st->node[i].state || !st->node[i].partitions)
            fz_die("node without its strings", TM_EOK, ctx);
    for (int32_t i = 0; i < st->n_jobs; i++) {
        const tm_slurm_job *j = &st->job[i];
        if (!j->id || !j->state || !j->nodes || !j->comment || !j->partition || !j->cwd)
            fz_die("job without its strings", TM_EOK, ctx);
        if (j->step_tasks < 0 || (j->step_tasks > 0) != (j->step_nodes != NULL))
            fz_die("step tasks without step nodes", TM_EOK, ctx);
    }
}

/* Only pattern tags stay: a tag naming a file would read it. */
static void drop_file_tags(tm_slurm_state *st)
{
    for (int32_t i = 0; i < st->n_jobs; i++) {
        size_t len = 0;
        const char *tag = tm_slurm_comm_tag(st->job[i].comment, &len);
        char buf[64];
        tm_pattern k;
        double b;
        const char *why;
        if (!tag)
            continue;
        snprintf(buf, sizeof buf, "%.*s", (int)(len < 63 ? len : 63), tag);
        if (len >= 63 || tm_pattern_parse(buf, &k, &b, &why) == 0)
            st->job[i].comment[0] = '\0';
    }
}

static void use_state(tm_slurm_state *st, tm_ctx *ctx)
{
    int32_t *hosts = NULL, n = 0;
    tm_workload w;
    tm_err err = tm_slurm_free_hosts(ctx, net, st, NULL, &hosts, &n);
    if (err)
        fz_die("free hosts failed", err, ctx);
    for (int32_t i = 0; i < n; i++) {
        if (tm_net_kind(net, hosts[i]) != TM_VERTEX_HOST)
            fz_die("a free node that is not a host", TM_EOK, ctx);
        for (int32_t q = 0; q < i; q++)
            if (hosts[q] == hosts[i])
                fz_die("a free host twice", TM_EOK, ctx);
    }
    free(hosts);
    drop_file_tags(st);
    err = tm_workload_from_slurm(ctx, net, st, NULL, &w);
    fz_check_err(ctx, err, 0);
    if (err) {
        tm_ctx_clear_error(ctx);
        return;
    }
    for (int32_t j = 0; j < w.n_jobs; j++)
        for (int32_t k = 0; k < w.job[j].n_hosts; k++)
            if (tm_net_kind(net, w.job[j].host[k]) != TM_VERTEX_HOST)
                fz_die("a job on a vertex that is not a host", TM_EOK, ctx);
    tm_workload_release(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *in[3] = {0};
    char names[3][16];
    tm_ctx *ctx = fz_ctx();
    tm_slurm_state st;
    int n = fz_split(data, size, in, names, 3);
    tm_err err = tm_slurm_state_read(ctx, in[0], names[0], n > 1 ? in[1] : in[0], names[1],
                                     n > 2 ? in[2] : NULL, names[2], &st);
    fz_check_err(ctx, err, 1);
    if (!err) {
        check_state(&st, ctx);
        use_state(&st, ctx);
        tm_slurm_state_release(&st);
    } else if (st.n_jobs || st.n_nodes || st.job || st.node) {
        fz_die("a failed read left a state", err, ctx);
    }
    for (int i = 0; i < n; i++)
        fclose(in[i]);
    tm_ctx_free(ctx);
    return 0;
}
