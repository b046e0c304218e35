/*
 * mapfile_read.c - reads a mapping back (topomap eval --mapping):
 *   Open MPI rankfile   "rank i=host slot=s" (detected by "rank" on the first
 *                       line); lines in any order;
 *   plain mapping       line i: "host [slot]" for task i; without a slot the
 *                       host's lowest free slot is taken, so a Slurm
 *                       arbitrary hostfile (one host per line) reads as well;
 *                       "host:n" (a Hydra machinefile line) stands for n
 *                       consecutive tasks on host;
 *   hierarchy mode      (net == NULL) line i: the PE index of task i.
 * '#' starts a comment everywhere.
 *
 * Rankfile slots: we model a host's slots as logical indices 0..slots-1,
 * which is what a plain "slot=s" means to Open MPI (logical core s).  A list
 * or range ("slot=2-3", "slot=2,5") binds the rank to several cores; we
 * place it on the first.  "socket:core" forms cannot be converted without
 * the number of cores per socket, and "+nX" relative hosts without the
 * launcher's allocation, so both are rejected with the line.
 */
#include <stdlib.h>
#include <string.h>

#include "topomap/map.h"
#include "../alloc/alloc_int.h"
#include "../util/util.h"

typedef struct rec {
    int64_t rank;
    int32_t host;
    int32_t slot; /* -1: lowest free */
    long line;
} rec;

typedef struct reader {
    tm__lexer lx;
    const tm_net *net;
    tm__strmap cache; /* name as written -> vertex (resolution may scan) */
    rec *recs;
    size_t n_recs, cap;
    bool rankfile;
    int64_t max_recs; /* the net's slots, or the task count when larger */
} reader;

static tm_err push(reader *r, int64_t rank, int32_t host, int32_t slot)
{
    if (tm__grow((void **)&r->recs, &r->cap, r->n_recs + 1, sizeof *r->recs) < 0)
        return tm__nomem(r->lx.ctx);
    r->recs[r->n_recs++] = (rec){rank, host, slot, r->lx.line};
    return TM_EOK;
}

static tm_err resolve(reader *r, const char *tok, size_t len, int32_t *v)
{
    char *name = tm__strndup(tok, len);
    tm_err err = TM_EOK;
    if (!name)
        return tm__nomem(r->lx.ctx);
    if ((*v = tm__strmap_get(&r->cache, name)) < 0) {
        *v = tm_alloc_resolve_host(r->net, name);
        if (*v < 0 || tm_net_kind(r->net, *v) != TM_VERTEX_HOST) {
            char why[2600];
            tm__alloc_unresolved(r->net, name, why, sizeof why);
            err = tm__lex_error(&r->lx, "%s", why);
        } else if (tm__strmap_put(&r->cache, name, *v, NULL) < 0)
            err = tm__nomem(r->lx.ctx);
    }
    free(name);
    return err;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* "slot=SPEC" -> the first logical slot of SPEC. */
static tm_err parse_slot(reader *r, const char *spec, size_t len, int32_t *slot)
{
    const char *p = spec;
    int64_t v;
    if (len == 0)
        return tm__lex_error(&r->lx, "empty slot=");
    if (memchr(spec, ':', len))
        return tm__lex_error(&r->lx, "slot=%.*s: socket:core slots are not supported (the "
                             "number of cores per socket is unknown); use logical slot numbers",
                             (int)len, spec);
    if (strspn(spec, "0123456789-,") < len || !is_digit(spec[0]))
        return tm__lex_error(&r->lx, "slot=%.*s is not a slot number, range or list", (int)len,
                             spec);
    if (tm__parse_i64(&p, &v) < 0 || v > INT32_MAX)
        return tm__lex_error(&r->lx, "slot=%.*s: slot number too large", (int)len, spec);
    /* "2-3" / "2,5": the rank is placed on the first listed slot */
    *slot = (int32_t)v;
    return TM_EOK;
}

/* "rank <i>=<host> slot=<spec>" */
static tm_err parse_rank_line(reader *r, const char *p)
{
    const char *tok;
    int64_t rank;
    int32_t host, slot = -1;
    size_t len;
    tm_err err;
    p = tm__skip_blank(p + 4);
    if (tm__parse_i64(&p, &rank) < 0 || rank < 0)
        return tm__lex_error(&r->lx, "expected 'rank N=host slot=S'");
    p = tm__skip_blank(p);
    if (*p != '=')
        return tm__lex_error(&r->lx, "expected '=' after 'rank %lld'", (long long)rank);
    tok = p = tm__skip_blank(p + 1);
    while (*p && *p != ' ' && *p != '\t')
        p++;
    len = (size_t)(p - tok);
    if (len == 0 || strncmp(tok, "slot=", 5) == 0)
        return tm__lex_error(&r->lx, "rank %lld: missing host name", (long long)rank);
    if (tok[0] == '+')
        return tm__lex_error(&r->lx, "rank %lld: relative host '%.*s' is not supported (it "
                             "depends on the launcher's allocation); name the host",
                             (long long)rank, (int)len, tok);
    if ((err = resolve(r, tok, len, &host)))
        return err;
    for (tok = tm__skip_blank(p); *tok; tok = tm__skip_blank(p)) {
        p = tok;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        len = (size_t)(p - tok);
        if (len < 5 || strncmp(tok, "slot=", 5) != 0)
            return tm__lex_error(&r->lx, "rank %lld: unexpected '%.*s' (expected slot=S)",
                                 (long long)rank, (int)len, tok);
        if ((err = parse_slot(r, tok + 5, len - 5, &slot)))
            return err;
    }
    if (slot < 0)
        return tm__lex_error(&r->lx, "rank %lld: missing slot=", (long long)rank);
    return push(r, rank, host, slot);
}

/* "host [slot]" or "host:n" */
static tm_err parse_plain_line(reader *r, const char *p)
{
    const char *tok = p, *colon;
    int64_t v = -1, n = 1;
    int32_t host;
    size_t len;
    tm_err err;
    while (*p && *p != ' ' && *p != '\t')
        p++;
    len = (size_t)(p - tok);
    colon = memchr(tok, ':', len);
    if (colon) {
        const char *q = colon + 1;
        if (tm__parse_i64(&q, &n) < 0 || q != p || n < 1 || n > INT32_MAX)
            return tm__lex_error(&r->lx, "'%.*s': expected host:n with n >= 1", (int)len, tok);
        len = (size_t)(colon - tok);
    }
    /* More tasks than the topology has slots is oversubscription, refused
     * when placing anyway; checked before expanding the run so that
     * "node1:2000000000" does not allocate 2e9 records (found by
     * tests/unit/test_hostile_inputs.c). */
    if (colon && (int64_t)r->n_recs + n > r->max_recs)
        return tm__lex_error(&r->lx, "'%.*s': more tasks than the %lld slots of the topology",
                             (int)(p - tok), tok, (long long)r->max_recs);
    if ((err = resolve(r, tok, len, &host)))
        return err;
    p = tm__skip_blank(p);
    if (*p) {
        if (colon)
            return tm__lex_error(&r->lx, "unexpected '%s' after host:n", p);
        if (tm__str_to_i64(p, &v) < 0 || v < 0 || v > INT32_MAX)
            return tm__lex_error(&r->lx, "slot '%s' is not a non-negative integer", p);
    }
    for (int64_t i = 0; i < n; i++)
        if ((err = push(r, (int64_t)r->n_recs, host, (int32_t)v)))
            return err;
    return TM_EOK;
}

/* The slots of place(): the state shared by the records. */
typedef struct placing {
    int32_t n, n_tasks; /* tasks; n_tasks < 0: as many as the file lists */
    int64_t *base;      /* per vertex: the index of its first slot */
    int32_t *owner;     /* per slot: its rank, or -1 */
    long *line_of;      /* per rank: the line that placed it, 0 = none yet */
    bool shared;        /* more tasks than slots: a slot may hold several ranks */
} placing;

/* Record q's rank: in range and listed once. */
static tm_err check_rank(reader *r, const placing *pl, const rec *q)
{
    int32_t n = pl->n;
    if (q->rank >= n) {
        if (!r->rankfile)
            return tm__lex_error(&r->lx, "more lines than the %d tasks", n);
        if (pl->n_tasks >= 0)
            return tm__lex_error(&r->lx, "rank %lld out of range (%d tasks)",
                                 (long long)q->rank, n);
        return tm__lex_error(&r->lx, "rank %lld out of range: the file lists %d ranks, "
                             "so they must be 0..%d", (long long)q->rank, n, n - 1);
    }
    if (pl->line_of[q->rank])
        return tm__lex_error(&r->lx, "rank %lld listed twice (first on line %ld)",
                             (long long)q->rank, pl->line_of[q->rank]);
    return TM_EOK;
}

/* Places record q: its slot, or the first free one of its host when the
 * line names none, must exist and be free (unless slots are shared). */
static tm_err place_rec(reader *r, placing *pl, const rec *q, tm_mapping *out)
{
    const tm_net *net = r->net;
    int32_t h = q->host, s = q->slot, ns = tm_net_slots(net, h);
    int32_t *own = pl->owner + pl->base[h];
    tm_err err;
    r->lx.line = q->line;
    if ((err = check_rank(r, pl, q)) != TM_EOK)
        return err;
    pl->line_of[q->rank] = q->line;
    if (s < 0) {
        for (s = 0; s < ns && own[s] >= 0; s++)
            ;
        if (s == ns && pl->shared)
            s = (int32_t)(q->rank % ns); /* spread the extra ranks over the slots */
        if (s == ns)
            return tm__lex_error(&r->lx, "rank %lld: no free slot left on host '%s' (%d slot%s)",
                                 (long long)q->rank, tm_net_name(net, h), ns, ns == 1 ? "" : "s");
    }
    if (s >= ns)
        return tm__lex_error(&r->lx, "rank %lld: slot %d does not exist on host '%s' (%d "
                             "slot%s)", (long long)q->rank, s, tm_net_name(net, h), ns,
                             ns == 1 ? "" : "s");
    if (own[s] >= 0 && !pl->shared)
        return tm__lex_error(&r->lx, "rank %lld: slot %d of host '%s' already used by rank %d",
                             (long long)q->rank, s, tm_net_name(net, h), own[s]);
    own[s] = (int32_t)q->rank;
    out->host[q->rank] = h;
    out->slot[q->rank] = s;
    return TM_EOK;
}

/* Assigns the records to the mapping, checking ranks and slots. */
static tm_err place(reader *r, int32_t n_tasks, tm_mapping *out)
{
    const tm_net *net = r->net;
    int32_t nv = tm_net_n_vertices(net);
    placing pl = {n_tasks >= 0 ? n_tasks : (int32_t)r->n_recs, n_tasks, NULL, NULL, NULL, false};
    int64_t total = 0;
    tm_err err;

    if (r->n_recs > INT32_MAX)
        return tm__lex_error(&r->lx, "too many ranks");
    if ((err = tm_mapping_alloc(r->lx.ctx, out, pl.n, false)))
        return err;
    pl.base = tm__malloc_n((size_t)nv + 1, sizeof *pl.base);
    pl.line_of = tm__calloc_n((size_t)pl.n + 1, sizeof *pl.line_of);
    if (!pl.base || !pl.line_of)
        goto nomem;
    for (int32_t v = 0; v < nv; v++) {
        pl.base[v] = total;
        total += tm_net_slots(net, v);
    }
    /* more tasks than slots: a general mapping (`map --imbalance`), whose
     * slots hold several ranks */
    pl.shared = pl.n > total;
    pl.owner = tm__malloc_n((size_t)total + 1, sizeof *pl.owner);
    if (!pl.owner)
        goto nomem;
    for (int64_t i = 0; i < total; i++)
        pl.owner[i] = -1;
    for (size_t i = 0; i < r->n_recs; i++)
        if ((err = place_rec(r, &pl, &r->recs[i], out)) != TM_EOK)
            goto out;
    for (int32_t t = 0; t < pl.n; t++) {
        if (!pl.line_of[t]) {
            err = tm__fail(r->lx.ctx, TM_EINPUT, "%s:%ld: rank %d is not listed (%d tasks)",
                           r->lx.name, r->n_recs ? r->recs[r->n_recs - 1].line : 1L, t, pl.n);
            goto out;
        }
    }
    goto out;
nomem:
    err = tm__nomem(r->lx.ctx);
out:
    if (err)
        tm_mapping_release(out);
    free(pl.base);
    free(pl.owner);
    free(pl.line_of);
    return err;
}

static tm_err read_pe_list(tm__lexer *lx, int64_t n_pe, int32_t n_tasks, tm_mapping *out)
{
    int32_t *pe = NULL;
    size_t n = 0, cap = 0;
    int64_t v;
    bool line;
    tm_err err = TM_EOK;
    if (n_pe <= 0 || n_pe > INT32_MAX)
        return tm__fail(lx->ctx, TM_EINTERNAL, "hierarchy has %lld PEs", (long long)n_pe);
    while (!(err = tm__lex_next(lx, &line)) && line) {
        char *hash = strchr(lx->buf, '#');
        if (hash)
            *hash = '\0';
        if (!*tm__skip_blank(lx->buf))
            continue;
        if (tm__str_to_i64(lx->buf, &v) < 0) {
            err = tm__lex_error(lx, "'%s' is not a PE index (one integer per line)",
                                tm__skip_blank(lx->buf));
            goto out;
        }
        if (v < 0 || v >= n_pe) {
            err = tm__lex_error(lx, "PE %lld out of range [0, %lld)", (long long)v,
                                (long long)n_pe);
            goto out;
        }
        if (n_tasks >= 0 && n == (size_t)n_tasks) {
            err = tm__lex_error(lx, "more lines than the %d tasks", n_tasks);
            goto out;
        }
        if (n >= INT32_MAX || tm__grow((void **)&pe, &cap, n + 1, sizeof *pe) < 0) {
            err = tm__nomem(lx->ctx);
            goto out;
        }
        pe[n++] = (int32_t)v;
    }
    if (err)
        goto out;
    if (n_tasks >= 0 ? n < (size_t)n_tasks : n == 0) {
        if (!lx->line)
            lx->line = 1;
        err = n_tasks < 0 ? tm__lex_error(lx, "no PE lines in the mapping file")
                          : tm__lex_error(lx, "only %zu PE lines for %d tasks", n, n_tasks);
        goto out;
    }
    if ((err = tm_mapping_alloc(lx->ctx, out, (int32_t)n, true)))
        goto out;
    memcpy(out->pe, pe, n * sizeof *pe);
out:
    free(pe);
    return err;
}

tm_err tm_mapping_read(tm_ctx *ctx, const tm_net *net, int64_t n_pe, FILE *in, const char *name,
                       int32_t n_tasks, tm_mapping *out)
{
    reader r;
    bool line;
    bool first = true;
    tm_err err = TM_EOK;

    tm_mapping_init(out);
    memset(&r, 0, sizeof r);
    tm__lex_init(&r.lx, ctx, in, name);
    tm__strmap_init(&r.cache);
    r.net = net;
    r.max_recs = net && n_tasks > tm_net_total_slots(net) ? n_tasks
                 : net                                     ? tm_net_total_slots(net)
                                                           : 0;
    if (!net) {
        err = read_pe_list(&r.lx, n_pe, n_tasks, out);
        goto out;
    }
    while (!(err = tm__lex_next(&r.lx, &line)) && line) {
        char *hash = strchr(r.lx.buf, '#');
        const char *p = tm__skip_blank(r.lx.buf);
        bool is_rank;
        if (hash)
            *hash = '\0';
        if (!*p)
            continue;
        is_rank = strncmp(p, "rank", 4) == 0 && (p[4] == ' ' || p[4] == '\t');
        if (first)
            r.rankfile = is_rank;
        first = false;
        if (r.rankfile && !is_rank)
            err = tm__lex_error(&r.lx, "expected 'rank N=host slot=S' (the file is a rankfile)");
        else if (r.rankfile)
            err = parse_rank_line(&r, p);
        else
            err = parse_plain_line(&r, p);
        if (err)
            goto out;
    }
    if (err)
        goto out;
    if (r.n_recs == 0) {
        if (!r.lx.line)
            r.lx.line = 1;
        err = tm__lex_error(&r.lx, "no ranks in the mapping file");
        goto out;
    }
    err = place(&r, n_tasks, out);
out:
    if (err)
        tm_mapping_release(out);
    tm__strmap_release(&r.cache);
    tm__lex_release(&r.lx);
    free(r.recs);
    return err;
}
