/* qap_bench.c - benchmark driver for the hierarchy-mode QAP mapper: reads
 * a METIS graph (fmt 0/1/10/11, as make_instances.py writes them), runs a
 * strategy and optional refiners with the library's registry, and prints
 * one TSV line: instance, algorithm, J, seconds, max PE load, seconds per
 * stage.
 * Usage: qap_bench GRAPH HIER DIST STRATEGY[+REFINER...] [imbalance] [threads] [seed] [time limit]
 * (A standalone reader keeps the benchmark independent of the CLI.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "topomap/topomap.h"
#include "qap/qap_int.h"

static char *next_line(FILE *f, char **buf, size_t *cap)
{
    for (;;) {
        if (getline(buf, cap, f) < 0)
            return NULL;
        if ((*buf)[0] != '%')
            return *buf;
    }
}

static int read_metis(const char *path, tm_comm *c)
{
    FILE *f = fopen(path, "r");
    char *buf = NULL, *p, *q;
    size_t cap = 0;
    long n, m, fmt = 0, ncon = 0;
    int64_t k = 0;
    if (!f)
        return -1;
    p = next_line(f, &buf, &cap);
    if (!p || sscanf(p, "%ld %ld %ld %ld", &n, &m, &fmt, &ncon) < 2)
        return -1;
    memset(c, 0, sizeof *c);
    c->n = (int32_t)n;
    c->xadj = calloc((size_t)n + 1, sizeof *c->xadj);
    c->adj = malloc((size_t)(2 * m + 1) * sizeof *c->adj);
    c->w = malloc((size_t)(2 * m + 1) * sizeof *c->w);
    if (fmt / 10 % 10)
        c->vwgt = malloc((size_t)n * sizeof *c->vwgt);
    for (long u = 0; u < n; u++) {
        p = next_line(f, &buf, &cap);
        if (!p)
            return -1;
        c->xadj[u] = k;
        if (fmt / 10 % 10) {
            c->vwgt[u] = strtod(p, &q);
            p = q;
            for (long i = 1; i < (ncon ? ncon : 1); i++)
                strtod(p, &p);
        }
        for (;;) {
            long v = strtol(p, &q, 10);
            double w = 1;
            if (q == p)
                break;
            p = q;
            if (fmt % 10) {
                w = strtod(p, &q);
                p = q;
            }
            c->adj[k] = (int32_t)(v - 1);
            c->w[k++] = w;
        }
    }
    c->xadj[n] = k;
    c->nnz = k;
    free(buf);
    fclose(f);
    return 0;
}

/* Progress lines of the library (per-thread busy time of the
 * multisection) go to stderr as comments. */
static void log_line(void *ud, tm_log_level level, const char *msg)
{
    (void)ud;
    (void)level;
    fprintf(stderr, "# %s\n", msg);
}

int main(int argc, char **argv)
{
    tm_ctx *ctx;
    tm_comm c;
    tm_hier h;
    tm_problem p = {0};
    tm_mapping m;
    char *spec, *tok, *save = NULL, stages[1024] = "";
    double t0, t1, ts, j, *load, mx = 0;
    uint64_t seed = argc > 7 ? strtoull(argv[7], NULL, 10) : 1;
    if (argc < 5) {
        fprintf(stderr, "usage: %s GRAPH HIER DIST STRATEGY[+REF...] [imb] [threads] [seed]\n",
                argv[0]);
        return 1;
    }
    tm_ctx_new(&ctx);
    if (getenv("QAP_BENCH_LOG")) {
        tm_ctx_set_log(ctx, log_line, NULL);
        tm_ctx_set_log_level(ctx, TM_LOG_INFO);
    }
    if ((argc > 6 && *argv[6] && tm_ctx_set_threads(ctx, atoi(argv[6]))) ||
        (argc > 8 && tm_ctx_set_time_limit(ctx, atof(argv[8])))) {
        fprintf(stderr, "%s\n", tm_ctx_errmsg(ctx));
        return 1;
    }
    if (read_metis(argv[1], &c) < 0) {
        fprintf(stderr, "%s: cannot read\n", argv[1]);
        return 2;
    }
    if (tm_hier_parse(ctx, argv[2], argv[3], &h)) {
        fprintf(stderr, "%s\n", tm_ctx_errmsg(ctx));
        return 1;
    }
    p.comm = &c;
    p.hier = &h;
    p.imbalance = argc > 5 ? atof(argv[5]) : -1;
    tm_mapping_init(&m);
    spec = strdup(argv[4]);
    t0 = tm__now();
    for (tok = strtok_r(spec, "+", &save); tok; tok = strtok_r(NULL, "+", &save)) {
        tm_err err;
        ts = tm__now();
        if (!m.pe) {
            const tm_strategy *s = tm_strategy_find(tok);
            if (!s) {
                fprintf(stderr, "unknown strategy %s\n", tok);
                return 1;
            }
            err = s->run(ctx, &p, seed, &m);
        } else {
            const tm_refiner *r = tm_refiner_find(tok);
            const char *arg = strchr(tok, ':');
            if (!r) {
                fprintf(stderr, "unknown refiner %s\n", tok);
                return 1;
            }
            err = r->run(ctx, &p, arg ? arg + 1 : NULL, seed, &m);
        }
        if (err) {
            fprintf(stderr, "%s: %s\n", tok, tm_ctx_errmsg(ctx));
            return tm_err_exit_code(err);
        }
        snprintf(stages + strlen(stages), sizeof stages - strlen(stages), "%s%s=%.3f",
                 stages[0] ? "," : "", tok, tm__now() - ts);
    }
    t1 = tm__now();
    j = tm__qap_eval(&c, &h, m.pe);
    load = calloc((size_t)h.n_pe, sizeof *load);
    for (int32_t u = 0; u < c.n; u++) {
        load[m.pe[u]] += c.vwgt ? c.vwgt[u] : 1;
        if (load[m.pe[u]] > mx)
            mx = load[m.pe[u]];
    }
    printf("%s\t%s\t%.0f\t%.3f\t%.0f\t%s\n", argv[1], argv[4], j, t1 - t0, mx, stages);
    return 0;
}
