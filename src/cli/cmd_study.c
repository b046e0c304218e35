/* cmd_study.c - `topomap study`: a grid of what-if scenarios, each mapped
 * by every strategy given and compared with its consecutive placement
 * (run through the public tm_study_run, topomap/study.h; engine:
 * src/study/; options and --help: study_args.c; CSV/JSON: study_out.c). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "study_cli.h"

/* A progress bar on stderr when it is a terminal. */
static void progress_bar(void *ud, int done, int total)
{
    const int w = 30;
    int fill = total > 0 ? (int)((long)done * w / total) : w;
    (void)ud;
    fprintf(stderr, "\rstudy [%.*s%*s] %d/%d runs", fill,
            "##############################", w - fill, "", done, total);
    if (done == total)
        fputs("\r\033[K", stderr);
    fflush(stderr);
}

/* Otherwise (a batch job, a pipe, a log file) one line per finished run,
 * so that a long study is seen to progress; ud: the study's start time. */
static void progress_lines(void *ud, int done, int total)
{
    double t = cli_now() - *(const double *)ud;
    if (done == 0)
        return;
    fprintf(stderr, "study: %d/%d runs done, %.1f s", done, total, t);
    if (done < total)
        fprintf(stderr, ", about %.0f s left", t / done * (total - done));
    fputc('\n', stderr);
    fflush(stderr);
}

static tm_err load_comms(tm_ctx *ctx, study_args *a, tm_comm *comms, const tm_comm **sc)
{
    for (int i = 0; i < a->n_comms; i++) {
        tm_err err;
        a->in.comm = a->comm_paths[i];
        err = cli_load_comm(ctx, &a->in, &comms[i]);
        if (err)
            return err;
        sc[i] = &comms[i];
    }
    return cli_load_phases(ctx, &a->in, &comms[0]); /* one --comm with --comm-phases */
}

static void make_spec(study_args *a, const tm_comm *const *sc, tm_study_spec *s,
                      const double *t0)
{
    memset(s, 0, sizeof *s);
    s->topologies = a->topologies;
    s->n_topologies = a->n_topologies;
    s->node_name_map = a->in.node_name_map;
    s->separate_hcas = a->in.separate_hcas;
    s->slots = a->slots;
    s->n_slots = a->n_slots;
    s->scales = a->scales;
    s->n_scales = a->n_scales;
    s->failures = a->failures;
    s->n_failures = a->n_failures;
    s->samples = (int)a->samples;
    s->routings = a->routings;
    s->n_routings = a->n_routings;
    s->comms = sc;
    s->n_comms = a->n_comms;
    s->strategies = a->strategies;
    s->n_strategies = a->n_strategies;
    s->alloc = a->in.alloc;
    s->refine = a->refine;
    s->objective = (tm_objective)a->objective;
    a->topt = cli_time_opts(&a->in);
    s->time = &a->topt;
    s->shard_index = (int)a->shard.k;
    s->shard_count = (int)a->shard.n;
    if (!a->quiet) {
        s->progress = isatty(STDERR_FILENO) ? progress_bar : progress_lines;
        s->progress_userdata = (void *)t0;
    }
}

static void make_outputs(const study_args *a, study_outputs *o)
{
    memset(o, 0, sizeof *o);
    o->outs = a->outs;
    o->n_outs = a->n_outs;
    o->report = a->report;
    o->seed = a->seed;
    o->shard = a->shard;
}

int cmd_study(int argc, char **argv, cli_warns *w)
{
    static study_args a;
    tm_comm comms[STUDY_MAX_AXIS];
    const tm_comm *sc[STUDY_MAX_AXIS];
    tm_study_spec spec;
    study_grid grid = {&spec, a.comm_paths};
    tm_study_result res;
    study_outputs out;
    tm_ctx *ctx = NULL;
    tm_err err;
    double t0 = cli_now();
    int rc;
    if (argc > 1 && strcmp(argv[1], "merge") == 0)
        return cmd_study_merge(argc - 1, argv + 1, w);
    if (!study_parse_args(argc, argv, &a, &rc))
        return rc;
    for (int i = 0; i < STUDY_MAX_AXIS; i++)
        tm_comm_init(&comms[i]);
    tm_study_result_init(&res);
    if (cli_ctx_new(&ctx, w))
        return TM_EXIT_INTERNAL;
    tm_ctx_set_seed(ctx, (uint64_t)a.seed);
    err = tm_ctx_set_threads(ctx, (int)a.in.threads);
    if (!err && a.effort >= 0)
        err = tm_ctx_set_effort(ctx, a.effort);
    make_outputs(&a, &out);
    /* the identity first: an input that cannot be read stops the shard now */
    if (!err && a.shard.n)
        err = study_shard_id(ctx, &a, out.shard_id);
    if (!err)
        err = load_comms(ctx, &a, comms, sc);
    if (!err) {
        make_spec(&a, sc, &spec, &t0);
        err = tm_study_run(ctx, &spec, &res);
    }
    /* the files first: a failing write prints no table */
    if (!err)
        err = study_write_all(ctx, &out, &grid, &res);
    if (err) {
        rc = cli_report_in(ctx, w, "study", err, &a.in);
    } else {
        study_print_table(stdout, &grid, &res);
        if (a.shard.n)
            printf("shard %d/%d: %d of %d runs in %.2f s\n", (int)a.shard.k, (int)a.shard.n,
                   res.n_runs, res.total_runs, cli_now() - t0);
        else
            printf("%d runs in %.2f s\n", res.n_runs, cli_now() - t0);
    }
    tm_study_result_release(&res);
    for (int i = 0; i < STUDY_MAX_AXIS; i++)
        tm_comm_release(&comms[i]);
    cli_inputs_release(&a.in);
    tm_ctx_free(ctx);
    return rc;
}
