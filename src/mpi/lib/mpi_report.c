/* mpi_report.c - TOPOMAP_REPORT: rank 0's JSON account of one reordering
 * (keys in docs/mpi.md), written atomically like every topomap output. */
#include <stdio.h>
#include <string.h>

#include "topomap/topomap.h"
#include "mpi_map_int.h"
#include "../../util/util.h"

static void jmetrics(FILE *f, const char *key, const tm_metrics *m)
{
    fprintf(f, "  \"%s\": {\"max_congestion\": %.17g, \"avg_dilation\": %.17g, \"qap_J\": %.17g},\n",
            key, m->max_congestion, m->avg_dilation, m->qap_J);
}

static void jhead(FILE *f, const tm__mpi_cfg *cfg, const tm__mpi_job *job)
{
    fprintf(f, "{\n  \"call\": ");
    tm__json_str(f, job->call);
    fprintf(f, ",\n  \"ranks\": %d,\n  \"vertices\": %d,\n  \"topology\": ", job->P, job->nnodes);
    tm__json_str(f, cfg->topology);
    fprintf(f, ",\n  \"strategy\": ");
    tm__json_str(f, cfg->strategy);
    fprintf(f, ",\n  \"refine\": ");
    tm__json_str(f, cfg->refine ? cfg->refine : "none");
    fprintf(f, ",\n  \"effort\": %d", cfg->effort); /* -1: the default */
    fprintf(f, ",\n  \"seed\": %ld,\n", cfg->seed);
    if (cfg->node_hierarchy) {
        fprintf(f, "  \"node_hierarchy\": ");
        tm__json_str(f, cfg->node_hierarchy);
        fprintf(f, ",\n  \"node_distances\": ");
        tm__json_str(f, cfg->node_distances ? cfg->node_distances : "");
        fprintf(f, ",\n");
    } else if (cfg->hwloc) {
        fprintf(f, "  \"hwloc\": ");
        tm__json_str(f, cfg->hwloc);
        fprintf(f, ",\n");
    }
}

/* Where vertex v runs: the host of process owner[v] and its index among
 * that host's processes (a plain mapping for `topomap eval`). */
static void host_slot(const tm__mpi_state *s, int p, int32_t *host, int32_t *slot)
{
    int32_t a = s->hv[p], k = s->first[a];
    while (s->procs[k] != p)
        k++;
    *host = s->alloc.host[a];
    *slot = k - s->first[a];
}

/* The permutation, the mapping (host and slot of every vertex) and the
 * gathered graph: enough for `topomap eval` to recompute it. */
static void jbody(FILE *f, const tm__mpi_job *job, const tm__mpi_state *s, const int *owner)
{
    int32_t h, sl;
    fprintf(f, "  \"owner\": [");
    for (int v = 0; v < job->nnodes; v++)
        fprintf(f, "%s%d", v ? ", " : "", owner[v]);
    fprintf(f, "],\n  \"hosts\": [");
    for (int v = 0; v < job->nnodes; v++) {
        host_slot(s, owner[v], &h, &sl);
        fputs(v ? ", " : "", f);
        tm__json_str(f, tm_net_name(s->net, h));
    }
    fprintf(f, "],\n  \"slots\": [");
    for (int v = 0; v < job->nnodes; v++) {
        host_slot(s, owner[v], &h, &sl);
        fprintf(f, "%s%d", v ? ", " : "", sl);
    }
    fprintf(f, "],\n  \"edges\": [");
    for (int64_t e = 0; e < job->m; e++)
        fprintf(f, "%s[%d, %d, %.17g]", e ? ", " : "", job->pair[2 * e], job->pair[2 * e + 1],
                job->w[e]);
    fprintf(f, "],\n");
}

static void jsearch(FILE *f, const tm__mpi_cfg *cfg, const tm__mpi_pick *pick)
{
    fprintf(f, "  \"search\": {\"ranks\": %d, \"winner\": %d, \"results\": [", pick->searchers,
            pick->winner);
    for (int i = 0; pick->searchers > 1 && i < pick->searchers; i++) {
        const double *a = pick->all + 4 * i;
        tm__mpi_run run;
        tm__mpi_schedule(cfg, i, pick->searchers, &run);
        fprintf(f, "%s{\"strategy\": ", i ? ", " : "");
        tm__json_str(f, run.strategy);
        fprintf(f, ", \"refine\": ");
        tm__json_str(f, run.refine[0] ? run.refine : "none");
        fprintf(f, ", \"seed\": %ld, ", run.seed);
        if (a[3] != 0)
            fprintf(f, "\"max_congestion\": %.17g, \"avg_dilation\": %.17g, \"qap_J\": %.17g}",
                    a[0], a[1], a[2]);
        else
            fprintf(f, "\"failed\": true}");
    }
    fprintf(f, "]},\n");
}

static void jfigures(FILE *f, const char *key, const double *x)
{
    fprintf(f, "  \"%s\": {\"max_congestion\": %.17g, \"avg_dilation\": %.17g, \"qap_J\": %.17g},\n",
            key, x[0], x[1], x[2]);
}

static void commit(tm_ctx *ctx, tm_ofile *of, const char *path)
{
    if (ferror(of->fp)) {
        tm_ofile_abort(of);
        tm__mpi_warn(0, "TOPOMAP_REPORT=%s: write error; no report", path);
    } else if (tm_ofile_commit(ctx, of)) {
        tm__mpi_warn(0, "TOPOMAP_REPORT: %s", tm_ctx_errmsg(ctx));
    }
}

void tm__mpi_report(const tm__mpi_cfg *cfg, const tm__mpi_job *job, const tm__mpi_state *s,
                    const int *owner, bool identity, const tm__mpi_pick *pick)
{
    tm_ctx *ctx = NULL;
    tm_ofile of;
    if (!cfg->report || tm_ctx_new(&ctx))
        return;
    if (tm_ofile_open(ctx, cfg->report, &of)) {
        tm__mpi_warn(0, "TOPOMAP_REPORT: %s", tm_ctx_errmsg(ctx));
        tm_ctx_free(ctx);
        return;
    }
    jhead(of.fp, cfg, job);
    fprintf(of.fp, "  \"best\": ");
    tm__json_str(of.fp, pick->best);
    fprintf(of.fp, ",\n  \"applied\": %s,\n  \"identity\": %s,\n  \"core_level\": %s,\n",
            pick->applied && !identity ? "true" : "false", identity ? "true" : "false",
            s->core_level ? "true" : "false");
    jmetrics(of.fp, "consecutive", &s->mc);
    jfigures(of.fp, "mapped", pick->mapped);
    jfigures(of.fp, "best_found", pick->found);
    jsearch(of.fp, cfg, pick);
    jbody(of.fp, job, s, owner);
    fprintf(of.fp, "  \"mapping_time_s\": %.6f\n}\n", s->time_s);
    commit(ctx, &of, cfg->report);
    tm_ctx_free(ctx);
}

void tm__mpi_report_error(const tm__mpi_cfg *cfg, const tm__mpi_job *job, const char *msg)
{
    tm_ctx *ctx = NULL;
    tm_ofile of;
    if (!cfg->report || tm_ctx_new(&ctx))
        return;
    if (tm_ofile_open(ctx, cfg->report, &of) == TM_EOK) {
        jhead(of.fp, cfg, job);
        fprintf(of.fp, "  \"applied\": false,\n  \"error\": ");
        tm__json_str(of.fp, msg);
        fprintf(of.fp, "\n}\n");
        commit(ctx, &of, cfg->report);
    }
    tm_ctx_free(ctx);
}
