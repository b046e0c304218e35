/* mpi_sched.c - what each searcher runs (TOPOMAP_SEARCH, docs/mpi.md), and
 * rank 0's configuration as bytes for the searchers.
 *
 * Searcher i of k takes (strategy, refine, seed) from a schedule computed
 * from rank 0's configuration alone: the strategies cycle fastest, then
 * the refinements, then the seed.  The searchers receive that
 * configuration from rank 0 (tm__mpi_cfg_pack/unpack) and never read their
 * own environment, so the result depends only on rank 0's settings and k. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topomap/topomap.h"
#include "mpi_int.h"

/* Item j of a comma-separated list (cut to `len` bytes); returns the
 * number of items. */
static int list_item(const char *list, int j, char *out, size_t len)
{
    int n = 0;
    out[0] = '\0';
    for (const char *p = list;; n++) {
        size_t w = strcspn(p, ",");
        if (n == j)
            snprintf(out, len, "%.*s", (int)w, p);
        if (!p[w])
            return n + 1;
        p += w + 1;
    }
}

/* Strategies of `all` in network mode, in registry order (unset
 * TOPOMAP_STRATEGY with several searchers). */
static int net_all(int j, char *out, size_t len)
{
    int n = 0;
    for (const tm_strategy *s = tm_strategies(); s->name; s++) {
        if (!s->in_all || !(s->modes & TM_MODE_NETWORK))
            continue;
        if (n == j)
            snprintf(out, len, "%s", s->name);
        n++;
    }
    return n;
}

void tm__mpi_schedule(const tm__mpi_cfg *cfg, int i, int k, tm__mpi_run *run)
{
    int ns, nr;
    char tmp[sizeof run->strategy];
    if (k <= 1 && !cfg->strategy_given) /* rank 0 alone: the whole portfolio */
        ns = 1, snprintf(run->strategy, sizeof run->strategy, "all");
    else if (!cfg->strategy_given)
        ns = net_all(0, tmp, sizeof tmp), net_all(i % ns, run->strategy, sizeof run->strategy);
    else
        ns = list_item(cfg->strategy, 0, tmp, sizeof tmp),
        list_item(cfg->strategy, i % ns, run->strategy, sizeof run->strategy);
    nr = cfg->refine ? list_item(cfg->refine, 0, tmp, sizeof tmp) : 1;
    if (cfg->refine)
        list_item(cfg->refine, (i / ns) % nr, run->refine, sizeof run->refine);
    else
        run->refine[0] = '\0';
    run->seed = cfg->seed + i / (ns * nr);
}

/* ---- rank 0's configuration as bytes ------------------------------------- */

#define NSTR 6
#define NNUM 6

static const char **strs(tm__mpi_cfg *cfg, int j)
{
    const char **s[NSTR] = {&cfg->topology,       &cfg->strategy,       &cfg->refine,
                            &cfg->node_hierarchy, &cfg->node_distances, &cfg->hwloc};
    return s[j];
}

/* Layout: NNUM doubles, then per string a presence byte and the string
 * with its NUL (empty when absent). */
char *tm__mpi_cfg_pack(const tm__mpi_cfg *cfg, size_t *len)
{
    tm__mpi_cfg c = *cfg;
    double num[NNUM] = {c.time_limit, c.threads, (double)c.seed, c.strategy_given, c.search,
                        c.effort};
    size_t n = sizeof num, k;
    char *b;
    for (int j = 0; j < NSTR; j++)
        n += 2 + (*strs(&c, j) ? strlen(*strs(&c, j)) : 0);
    b = malloc(n);
    if (!b)
        return NULL;
    memcpy(b, num, sizeof num);
    k = sizeof num;
    for (int j = 0; j < NSTR; j++) {
        const char *s = *strs(&c, j) ? *strs(&c, j) : "";
        b[k++] = *strs(&c, j) != NULL;
        memcpy(b + k, s, strlen(s) + 1);
        k += strlen(s) + 1;
    }
    *len = n;
    return b;
}

/* cfg's strings point into b afterwards (b stays the caller's). */
void tm__mpi_cfg_unpack(char *b, tm__mpi_cfg *cfg)
{
    double num[NNUM];
    size_t k = sizeof num;
    memset(cfg, 0, sizeof *cfg);
    memcpy(num, b, sizeof num);
    cfg->time_limit = num[0];
    cfg->threads = (int)num[1];
    cfg->seed = (long)num[2];
    cfg->strategy_given = num[3] != 0;
    cfg->search = (int)num[4];
    cfg->effort = (int)num[5];
    for (int j = 0; j < NSTR; j++) {
        bool present = b[k++] != 0;
        *strs(cfg, j) = present ? b + k : NULL;
        k += strlen(b + k) + 1;
    }
}
