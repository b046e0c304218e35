/* select.c - which part of the fabric the report draws.  Small networks
 * are drawn whole; on big ones (a 65k-host fat-tree) the picture keeps
 * the switches, then the job's hosts if they all fit, then the other
 * hosts if they all fit (max_vertices), and the most loaded cables up to max_cables, so that the
 * page stays a few megabytes and the layout takes seconds
 * (docs/report.md "Big networks"). */
#include <stdlib.h>
#include <string.h>

#include "report_int.h"
#include "../util/util.h"

void tm__fabric_release(tm__fabric *f)
{
    free(f->vid);
    free(f->idx);
    free(f->job);
    free(f->cable);
    free(f->cong);
    free(f->x);
    free(f->y);
    memset(f, 0, sizeof *f);
}

/* Marks the job's hosts (job[v] = 1) and counts them. */
static void mark_job(const tm_report *r, tm__fabric *f)
{
    const tm_mapping *m = r->mapping;
    int32_t nv = tm_net_n_vertices(r->net);
    for (int32_t t = 0; m && m->host && t < m->n; t++)
        if (m->host[t] >= 0 && m->host[t] < nv && !f->job[m->host[t]]) {
            f->job[m->host[t]] = 1;
            f->job_hosts++;
        }
}

static bool in_pass(const tm_net *net, const tm__fabric *f, int pass, int32_t v)
{
    bool sw = tm_net_kind(net, v) == TM_VERTEX_SWITCH;
    return pass == 0 ? sw : pass == 1 ? !sw && f->job[v] == 1 : !sw && !f->job[v];
}

/* Drawn vertices in three passes: switches (in id order, up to the
 * limit), then the job's hosts, then the other hosts; a pass of hosts is
 * drawn whole or not at all, so a picture never shows an arbitrary part
 * of the job. */
static void pick_vertices(const tm_report *r, tm__fabric *f, int32_t limit)
{
    int32_t nv = tm_net_n_vertices(r->net);
    for (int pass = 0; pass < 3; pass++) {
        int32_t count = 0;
        for (int32_t v = 0; v < nv; v++)
            count += in_pass(r->net, f, pass, v);
        for (int32_t v = 0; v < nv; v++) {
            if (!in_pass(r->net, f, pass, v))
                continue;
            if (f->nv >= limit || (pass > 0 && f->nv + count > limit)) {
                f->omitted_vertices++;
                continue;
            }
            f->idx[v] = f->nv;
            f->vid[f->nv++] = v;
            f->job_hosts_drawn += pass == 1;
        }
    }
}

/* A switch next to a job host that is not drawn is marked (job = 2), so
 * the job still shows where its hosts are. */
static void mark_job_switches(const tm_net *net, tm__fabric *f)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    for (int32_t v = 0; v < g->n; v++) {
        if (f->job[v] != 1 || f->idx[v] >= 0)
            continue;
        for (int32_t j = g->off[v]; j < g->off[v + 1]; j++)
            if (!g->is_host[g->head[j]])
                f->job[g->head[j]] = 2;
    }
}

static double cable_cong(const tm_net_csr *g, const double *load, int32_t c)
{
    double a = load[2 * c] / g->cap[2 * c], b = load[2 * c + 1] / g->cap[2 * c + 1];
    return a > b ? a : b;
}

/* Sort: most loaded first, then by cable id (deterministic). */
typedef struct cable_key { double cong; int32_t cable; } cable_key;
static int cmp_key(const void *pa, const void *pb)
{
    const cable_key *a = pa, *b = pb;
    if (a->cong != b->cong)
        return a->cong > b->cong ? -1 : 1;
    return (a->cable > b->cable) - (a->cable < b->cable);
}

static tm_err pick_cables(tm_ctx *ctx, const tm_report *r, tm__fabric *f, int32_t limit)
{
    const tm_net_csr *g = tm_net_csr_get(r->net);
    int32_t nc = tm_net_n_cables(r->net), n = 0;
    cable_key *k = tm__malloc_n((size_t)nc + 1, sizeof *k);
    if (!k)
        return tm__nomem(ctx);
    for (int32_t c = 0; c < nc; c++) {
        int32_t a, b;
        tm_net_cable(r->net, c, &a, &b);
        if (tm_net_cable_enabled(r->net, c) && f->idx[a] >= 0 && f->idx[b] >= 0)
            k[n++] = (cable_key){cable_cong(g, r->link_load, c), c};
    }
    if (n > limit) {
        qsort(k, (size_t)n, sizeof *k, cmp_key);
        f->omitted_cables = n - limit;
        n = limit;
    }
    f->cable = tm__malloc_n((size_t)n + 1, sizeof *f->cable);
    f->cong = tm__malloc_n((size_t)n + 1, sizeof *f->cong);
    if (f->cable && f->cong)
        for (int32_t i = 0; i < n; i++)
            f->cable[i] = k[i].cable, f->cong[i] = k[i].cong;
    free(k);
    if (!f->cable || !f->cong)
        return tm__nomem(ctx);
    f->nc = n;
    return TM_EOK;
}

tm_err tm__fabric_select(tm_ctx *ctx, const tm_report *r, tm__fabric *f)
{
    const tm_net_csr *g = tm_net_csr_get(r->net);
    int32_t nv = tm_net_n_vertices(r->net);
    int32_t vlim = r->max_vertices > 0 ? r->max_vertices : TM_REPORT_MAX_VERTICES;
    int32_t clim = r->max_cables > 0 ? r->max_cables : TM_REPORT_MAX_CABLES;

    memset(f, 0, sizeof *f);
    f->vid = tm__malloc_n((size_t)nv + 1, sizeof *f->vid);
    f->idx = tm__malloc_n((size_t)nv + 1, sizeof *f->idx);
    f->job = tm__calloc_n((size_t)nv + 1, sizeof *f->job);
    if (!f->vid || !f->idx || !f->job)
        return tm__nomem(ctx);
    for (int32_t v = 0; v < nv; v++)
        f->idx[v] = -1;
    for (int32_t l = 0; l < g->n_links; l++)
        if (r->link_load[l] / g->cap[l] > f->max_cong)
            f->max_cong = r->link_load[l] / g->cap[l];
    mark_job(r, f);
    pick_vertices(r, f, vlim);
    mark_job_switches(r->net, f);
    return pick_cables(ctx, r, f, clim);
}
