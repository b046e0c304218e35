/* pmpi_rec_write.c - TOPOMAP_RECORD's files (docs/mpi.md): rank 0 gathers
 * every process's sparse row (one MPI_Gatherv: memory O(pairs) on rank 0,
 * never P x P), the hosts (fixed records), the per-call counters, the
 * collective statistics and the phases (pmpi_rec_phase.c), and writes FILE
 * (Matrix Market, bytes), FILE.messages.mtx (messages), FILE.phases and
 * FILE.json, each atomically.  A file
 * that cannot be written is one warning; the job goes on. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topomap/topomap.h"
#include "pmpi_rec.h"
#include "../lib/mpi_int.h"
#include "../../util/util.h"

typedef struct gathered {
    int P;
    uint64_t *cells;     /* 3 per entry: dst, bytes, msgs; rows in rank order */
    int *row_len;        /* P */
    int64_t ncells;
    char *hosts;         /* P records */
    uint64_t kinds[TM__REC_NKINDS][3];
    double wall_max;
    tm__rec_cstat *cstats;
    int ncstats;
    char mpi[MPI_MAX_LIBRARY_VERSION_STRING];
} gathered;

/* Gathers n records of `width` uint64 from every process on rank 0 (*out,
 * *lens per process in records); -1 on rank 0 when too large or out of
 * memory (every process makes the same calls regardless). */
static int gather_u64(const uint64_t *mine, int n, int width, int rank, int P, uint64_t **out,
                      int **lens, int64_t *total)
{
    int *cnt = NULL, *disp = NULL, ok = 1, rc = 0;
    int64_t t = 0;
    *out = NULL;
    if (rank == 0 && (!(cnt = malloc((size_t)P * sizeof *cnt)) ||
                      !(disp = malloc((size_t)P * sizeof *disp))))
        ok = 0;
    PMPI_Gather(&n, 1, MPI_INT, cnt, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0 && ok) {
        for (int i = 0; i < P; i++) {
            disp[i] = (int)(t * width);
            t += cnt[i];
            if (t * width > INT_MAX)
                ok = 0;
        }
        if (ok && !(*out = malloc((size_t)(t ? t : 1) * (size_t)width * sizeof **out)))
            ok = 0;
        for (int i = 0; ok && i < P; i++)
            cnt[i] *= width;
    }
    PMPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (ok)
        PMPI_Gatherv(mine, n * width, MPI_UINT64_T, *out, cnt, disp, MPI_UINT64_T, 0,
                     MPI_COMM_WORLD);
    else
        rc = -1;
    if (rank == 0 && ok)
        for (int i = 0; i < P; i++)
            cnt[i] /= width;
    free(disp);
    if (lens && ok)
        *lens = cnt;
    else
        free(cnt);
    *total = t;
    return rc;
}

static void my_host(char host[TM__MPI_HOSTLEN])
{
    char err[512];
    int len = 0;
    if (tm__mpi_host(host, err, sizeof err) == 0)
        return;
    memset(host, 0, TM__MPI_HOSTLEN);
    if (PMPI_Get_processor_name(host, &len) != MPI_SUCCESS)
        strcpy(host, "unknown");
}

/* Collective over MPI_COMM_WORLD; g filled on rank 0.  -1: no files. */
static int gather_all(const tm__rec_out *o, int rank, gathered *g)
{
    uint64_t *mine = malloc((size_t)(o->ncells ? o->ncells : 1) * 3 * sizeof *mine);
    uint64_t *cs = malloc((size_t)(o->ncstats ? o->ncstats : 1) * 5 * sizeof *cs), *cg = NULL;
    char host[TM__MPI_HOSTLEN];
    int64_t ncs = 0;
    int rc = 0, len = 0, n = mine && cs ? o->ncells : 0, m = mine && cs ? o->ncstats : 0;
    for (int i = 0; i < n; i++) {
        mine[3 * i] = (uint64_t)o->cells[i].dst;
        mine[3 * i + 1] = o->cells[i].bytes;
        mine[3 * i + 2] = o->cells[i].msgs;
    }
    for (int i = 0; i < m; i++)
        memcpy(&cs[5 * i], &o->cstats[i], 5 * sizeof *cs);
    rc |= !(mine && cs);
    rc |= gather_u64(mine, n, 3, rank, g->P, &g->cells, &g->row_len, &g->ncells);
    rc |= gather_u64(cs, m, 5, rank, g->P, &cg, NULL, &ncs);
    g->cstats = (tm__rec_cstat *)cg;
    g->ncstats = (int)ncs;
    my_host(host);
    if (rank == 0 && !(g->hosts = malloc((size_t)g->P * TM__MPI_HOSTLEN)))
        rc = -1;
    PMPI_Gather(host, TM__MPI_HOSTLEN, MPI_CHAR, g->hosts, TM__MPI_HOSTLEN, MPI_CHAR, 0,
                MPI_COMM_WORLD);
    PMPI_Reduce(o->kinds, g->kinds, TM__REC_NKINDS * 3, MPI_UINT64_T, MPI_SUM, 0,
                MPI_COMM_WORLD);
    PMPI_Reduce(&o->wall_s, &g->wall_max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    PMPI_Get_library_version(g->mpi, &len);
    g->mpi[strcspn(g->mpi, "\n")] = '\0';
    free(mine);
    free(cs);
    return rc ? -1 : 0;
}

static int commit(tm_ctx *ctx, tm_ofile *of, const char *path)
{
    if (ferror(of->fp)) {
        tm_ofile_abort(of);
        tm__mpi_warn(0, "TOPOMAP_RECORD=%s: write error; recording not (fully) written", path);
        return -1;
    }
    if (tm_ofile_commit(ctx, of)) {
        tm__mpi_warn(0, "TOPOMAP_RECORD: %s; recording not (fully) written", tm_ctx_errmsg(ctx));
        return -1;
    }
    return 0;
}

static int open_out(tm_ctx *ctx, const char *path, tm_ofile *of)
{
    if (tm_ofile_open(ctx, path, of) == TM_EOK)
        return 0;
    tm__mpi_warn(0, "TOPOMAP_RECORD: %s; recording not (fully) written", tm_ctx_errmsg(ctx));
    return -1;
}

typedef struct entry {
    int i, j;
    uint64_t v;
} entry;

static int entry_cmp(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->i != y->i)
        return x->i < y->i ? -1 : 1;
    return (x->j > y->j) - (x->j < y->j);
}

/* The nonzero entries of column col (1: bytes, 2: messages), renumbered
 * by o->task when set, in (row, column) order; NULL when out of memory. */
static entry *entries(const gathered *g, const tm__rec_out *o, int col, int64_t *n)
{
    entry *e = malloc((size_t)(g->ncells ? g->ncells : 1) * sizeof *e);
    int64_t k = 0, m = 0;
    if (!e)
        return NULL;
    for (int src = 0; src < g->P; src++)
        for (int j = 0; j < g->row_len[src]; j++, k++) {
            int dst = (int)g->cells[3 * k];
            if (!g->cells[3 * k + col])
                continue;
            e[m].i = o->task ? o->task[src] : src;
            e[m].j = o->task ? o->task[dst] : dst;
            e[m++].v = g->cells[3 * k + col];
        }
    if (o->task && m)
        qsort(e, (size_t)m, sizeof *e, entry_cmp);
    *n = m;
    return e;
}

static int write_mtx(tm_ctx *ctx, const char *path, const gathered *g, const tm__rec_out *o,
                     int col)
{
    tm_ofile of;
    int64_t nnz = 0;
    uint64_t msgs = 0, bytes = 0;
    entry *e = entries(g, o, col, &nnz);
    if (!e) {
        tm__mpi_warn(0, "TOPOMAP_RECORD: out of memory; recording not written");
        return -1;
    }
    if (open_out(ctx, path, &of)) {
        free(e);
        return -1;
    }
    for (int64_t i = 0; i < g->ncells; i++) {
        bytes += g->cells[3 * i + 1];
        msgs += g->cells[3 * i + 2];
    }
    fprintf(of.fp, "%%%%MatrixMarket matrix coordinate real general\n"
                   "%% topomap libtopomap_pmpi.so TOPOMAP_RECORD: %s sent by %s i-1 to %s j-1\n"
                   "%% ranks %d, pairs %lld, messages %llu, bytes %llu, collectives %s\n%% MPI: ",
            col == 1 ? "bytes" : "messages", o->task ? "task" : "MPI_COMM_WORLD rank",
            o->task ? "task" : "rank", g->P, (long long)nnz, (unsigned long long)msgs,
            (unsigned long long)bytes, tm__rec_algo_name[o->algo]);
    for (const char *s = g->mpi; *s; s++)
        fputc(*s == '\r' ? ' ' : *s, of.fp);
    if (o->task)
        fprintf(of.fp, "\n%% task = rank in the communicator %s reordered (FILE.json: "
                       "task_of_world_rank)", o->task_call);
    fprintf(of.fp, "\n%d %d %lld\n", g->P, g->P, (long long)nnz);
    for (int64_t k = 0; k < nnz; k++)
        fprintf(of.fp, "%d %d %llu\n", e[k].i + 1, e[k].j + 1, (unsigned long long)e[k].v);
    free(e);
    return commit(ctx, &of, path);
}

static int cstat_cmp(const void *a, const void *b)
{
    const tm__rec_cstat *x = a, *y = b;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (x->csize != y->csize)
        return x->csize < y->csize ? -1 : 1;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? -1 : 1;
    return (x->expanded > y->expanded) - (x->expanded < y->expanded);
}

static void json_calls(FILE *f, const gathered *g)
{
    int first = 1;
    fprintf(f, "  \"calls\": {");
    for (int k = 0; k < TM__REC_NKINDS; k++) {
        if (!g->kinds[k][0])
            continue;
        fprintf(f, "%s\n    \"%s\": {\"calls\": %llu, \"messages\": %llu, \"bytes\": %llu}",
                first ? "" : ",", tm__rec_kind_name[k], (unsigned long long)g->kinds[k][0],
                (unsigned long long)g->kinds[k][1], (unsigned long long)g->kinds[k][2]);
        first = 0;
    }
    fprintf(f, "\n  },\n  \"collectives\": [");
    qsort(g->cstats, (size_t)g->ncstats, sizeof *g->cstats, cstat_cmp);
    for (int i = 0, out = 0; i < g->ncstats; i++) {
        tm__rec_cstat s = g->cstats[i];
        while (i + 1 < g->ncstats && cstat_cmp(&s, &g->cstats[i + 1]) == 0)
            s.calls += g->cstats[++i].calls;
        fprintf(f, "%s\n    {\"call\": \"%s\", \"comm_size\": %llu, \"bytes\": %llu, "
                   "\"calls\": %llu, \"expanded\": %s}",
                out++ ? "," : "", tm__rec_kind_name[s.kind], (unsigned long long)s.csize,
                (unsigned long long)s.bytes, (unsigned long long)s.calls,
                s.expanded ? "true" : "false");
    }
    fprintf(f, "\n  ],\n");
}

static const char *thread_level(int t)
{
    return t == MPI_THREAD_MULTIPLE ? "MPI_THREAD_MULTIPLE"
         : t == MPI_THREAD_SERIALIZED ? "MPI_THREAD_SERIALIZED"
         : t == MPI_THREAD_FUNNELED ? "MPI_THREAD_FUNNELED" : "MPI_THREAD_SINGLE";
}

static void json_hosts(FILE *f, const gathered *g)
{
    fprintf(f, "  \"hosts\": [");
    for (int i = 0; i < g->P; i++) {
        char h[TM__MPI_HOSTLEN + 1];
        memcpy(h, g->hosts + (size_t)i * TM__MPI_HOSTLEN, TM__MPI_HOSTLEN);
        h[TM__MPI_HOSTLEN] = '\0';
        fprintf(f, "%s", i ? ", " : "");
        tm__json_str(f, h);
    }
    fprintf(f, "],\n");
}

static void json_patterns(FILE *f, tm__rec_algo algo)
{
    fprintf(f, "  \"collective_patterns\": {");
    for (int k = TM__REC_FIRST_COLL, first = 1; k < TM__REC_NKINDS; k += 2, first = 0)
        fprintf(f, "%s\n    \"%s\": \"%s\"", first ? "" : ",", tm__rec_kind_name[k],
                tm__rec_pattern_name((tm__rec_kind)k, algo));
    fprintf(f, "\n  },\n");
}

/* FILE.phases (tm_comm_phases_write's format), atomically. */
static int write_phases(tm_ctx *ctx, const char *path, const tm_comm_phases *ph)
{
    tm_ofile of;
    if (open_out(ctx, path, &of))
        return -1;
    if (tm_comm_phases_write(ctx, ph, of.fp)) {
        tm_ofile_abort(&of);
        tm__mpi_warn(0, "TOPOMAP_RECORD: %s; recording not (fully) written", tm_ctx_errmsg(ctx));
        return -1;
    }
    return commit(ctx, &of, path);
}

static void json_phases(FILE *f, const char *path, const tm_comm_phases *ph, int waits)
{
    int64_t runs = 0;
    fprintf(f, "  \"phases\": ");
    tm__json_str(f, path);
    for (int32_t k = 0; k < ph->n_phases; k++)
        runs += ph->repeat[k];
    fprintf(f, ",\n  \"phases_distinct\": %d,\n  \"phase_runs\": %lld,\n", ph->n_phases,
            (long long)runs);
    fprintf(f, "  \"phase_cuts\": \"%s\",\n", waits ? "collectives, MPI_Waitall, MPI_Sendrecv"
                                                  : "collectives");
}

static int write_json(tm_ctx *ctx, const char *path, const char *msgs_path, const gathered *g,
                      const tm__rec_out *o, const char *ph_path, const tm_comm_phases *ph)
{
    tm_ofile of;
    uint64_t msgs = 0, bytes = 0;
    int64_t pairs = 0, mpairs = 0;
    if (open_out(ctx, path, &of))
        return -1;
    for (int64_t i = 0; i < g->ncells; i++) {
        pairs += g->cells[3 * i + 1] > 0;
        mpairs += g->cells[3 * i + 2] > 0;
        bytes += g->cells[3 * i + 1];
        msgs += g->cells[3 * i + 2];
    }
    fprintf(of.fp, "{\n  \"tool\": \"topomap libtopomap_pmpi.so (TOPOMAP_RECORD)\",\n"
                   "  \"mpi\": ");
    tm__json_str(of.fp, g->mpi);
    fprintf(of.fp, ",\n  \"thread_level\": \"%s\",\n  \"ranks\": %d,\n  \"numbering\": \"%s\",\n",
            thread_level(o->provided), g->P, o->task ? "task" : "MPI_COMM_WORLD");
    if (o->task) {
        fprintf(of.fp, "  \"task_call\": \"%s\",\n  \"task_of_world_rank\": [", o->task_call);
        for (int i = 0; i < g->P; i++)
            fprintf(of.fp, "%s%d", i ? ", " : "", o->task[i]);
        fprintf(of.fp, "],\n");
    }
    fprintf(of.fp, "  \"reorderings\": %d,\n  \"matrix\": ", o->reorderings);
    tm__json_str(of.fp, o->path);
    fprintf(of.fp, ",\n  \"messages_matrix\": ");
    tm__json_str(of.fp, msgs_path);
    fprintf(of.fp, ",\n  \"pairs\": %lld,\n  \"message_pairs\": %lld,\n"
                   "  \"messages\": %llu,\n  \"bytes\": %llu,\n"
                   "  \"wall_time_s\": %.6f,\n  \"wall_time_max_s\": %.6f,\n"
                   "  \"collectives_algorithm\": \"%s\",\n",
            (long long)pairs, (long long)mpairs, (unsigned long long)msgs,
            (unsigned long long)bytes, o->wall_s, g->wall_max, tm__rec_algo_name[o->algo]);
    json_patterns(of.fp, o->algo);
    if (ph)
        json_phases(of.fp, ph_path, ph, o->phase_waits);
    else
        fprintf(of.fp, "  \"phases\": null,\n");
    json_hosts(of.fp, g);
    json_calls(of.fp, g);
    fprintf(of.fp, "  \"complete\": true\n}\n");
    return commit(ctx, &of, path);
}

/* ph NULL: the phases could not be gathered (FILE.json says null). */
static void write_files(tm_ctx *ctx, const tm__rec_out *o, const gathered *g,
                        const tm_comm_phases *ph)
{
    size_t n = strlen(o->path);
    char *json = malloc(n + 6), *msgs = malloc(n + 14), *phs = malloc(n + 8);
    if (!json || !msgs || !phs) {
        tm__mpi_warn(0, "TOPOMAP_RECORD: out of memory; recording not written");
    } else {
        sprintf(json, "%s.json", o->path);
        sprintf(msgs, "%s.messages.mtx", o->path);
        sprintf(phs, "%s.phases", o->path);
        if (!ph)
            tm__mpi_warn(0, "TOPOMAP_RECORD: out of memory (or more than 2^31 values) while "
                            "gathering the phases; %s not written", phs);
        if (write_mtx(ctx, o->path, g, o, 1) == 0 && write_mtx(ctx, msgs, g, o, 2) == 0 &&
            (!ph || write_phases(ctx, phs, ph) == 0))
            write_json(ctx, json, msgs, g, o, phs, ph);
    }
    free(json);
    free(msgs);
    free(phs);
}

void tm__rec_write(const tm__rec_out *o)
{
    gathered g;
    tm_comm_phases ph;
    int rank = 0, ok, have_ph;
    tm_ctx *ctx = NULL;
    memset(&g, 0, sizeof g);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &g.P);
    ok = gather_all(o, rank, &g) == 0;
    if (rank == 0 && tm_ctx_new(&ctx) != TM_EOK)
        ctx = NULL;
    have_ph = tm__rec_phase_gather(ctx, rank, g.P, o->task, &ph) == 0; /* every process */
    if (ok && rank == 0) {
        if (ctx)
            write_files(ctx, o, &g, have_ph ? &ph : NULL);
        else
            tm__mpi_warn(0, "TOPOMAP_RECORD: out of memory; recording not written");
    } else if (rank == 0) {
        tm__mpi_warn(0, "TOPOMAP_RECORD: out of memory (or more than 2^31 entries); recording "
                        "not written");
    }
    tm_comm_phases_release(&ph);
    tm_ctx_free(ctx);
    free(g.cells);
    free(g.row_len);
    free(g.hosts);
    free(g.cstats);
}
