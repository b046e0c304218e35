/* mpi_env.c - configuration from the environment, the mode every rank
 * follows, the local host name, and the one warning channel.
 *
 * Rank 0 reads the environment and broadcasts the mode: ranks that see a
 * different environment still make the same collective calls. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_int.h"
#include "topomap/topomap.h"

static const char *env_or(const char *name, const char *dflt)
{
    const char *v = getenv(name);
    return v && *v ? v : dflt;
}

static double env_num(const char *name, double dflt, double lo, double hi, int rank)
{
    const char *v = getenv(name);
    char *end;
    double x;
    if (!v || !*v)
        return dflt;
    x = strtod(v, &end);
    if (*end || !(x >= lo && x <= hi)) {
        tm__mpi_warn(rank, "%s=%s is not a number in [%g, %g]; using %g", name, v, lo, hi, dflt);
        return dflt;
    }
    return x;
}

static void cfg_read(tm__mpi_cfg *cfg, int rank)
{
    cfg->topology = env_or("TOPOMAP_TOPOLOGY", NULL);
    cfg->strategy = env_or("TOPOMAP_STRATEGY", "all");
    cfg->strategy_given = env_or("TOPOMAP_STRATEGY", NULL) != NULL;
    cfg->node_hierarchy = env_or("TOPOMAP_NODE_HIERARCHY", NULL);
    cfg->node_distances = env_or("TOPOMAP_NODE_DISTANCES", NULL);
    cfg->hwloc = env_or("TOPOMAP_HWLOC", NULL);
    cfg->cores = cfg->node_hierarchy || cfg->hwloc;
    cfg->refine = env_or("TOPOMAP_REFINE", "auto");
    if (strcmp(cfg->refine, "none") == 0)
        cfg->refine = NULL;
    cfg->report = env_or("TOPOMAP_REPORT", NULL);
    cfg->time_limit = env_num("TOPOMAP_TIME_LIMIT", -1, 0, 1e9, rank);
    /* "exhaustive": the chain ils:10+ta on every row, as `map --effort exhaustive` */
    if (strcmp(env_or("TOPOMAP_EFFORT", ""), "exhaustive") == 0) {
        cfg->effort = TM_EFFORT_AUTO;
        if (!getenv("TOPOMAP_REFINE") || !*getenv("TOPOMAP_REFINE"))
            cfg->refine = "ils:10+ta";
    } else {
        cfg->effort = (int)env_num("TOPOMAP_EFFORT", TM_EFFORT_AUTO, 0, TM_EFFORT_MAX, rank);
    }
    cfg->threads = (int)env_num("TOPOMAP_THREADS", 1, 0, 1024, rank);
    cfg->seed = (long)env_num("TOPOMAP_SEED", 1, 0, 2147483647.0 - TM__MPI_MAX_SEARCH, rank);
    cfg->search = (int)env_num("TOPOMAP_SEARCH", 1, 1, TM__MPI_MAX_SEARCH, rank);
}

int tm__mpi_can_reorder(MPI_Comm comm, int reorder, int *rank, int *size)
{
    int inter = 0;
    if (!reorder || comm == MPI_COMM_NULL || MPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS ||
        inter)
        return 0;
    MPI_Comm_rank(comm, rank);
    MPI_Comm_size(comm, size);
    return 1;
}

/* The note about a missing TOPOMAP_TOPOLOGY is printed once per process,
 * not once per communicator: the only process-wide state of the library. */
static int noted_no_topology;

tm__mpi_mode tm__mpi_mode_get(MPI_Comm comm, int rank, tm__mpi_cfg *cfg)
{
    int mode[3] = {TM__MPI_RUN, 1, 0};
    memset(cfg, 0, sizeof *cfg);
    if (rank == 0) {
        cfg_read(cfg, rank);
        mode[1] = cfg->search;
        mode[2] = cfg->cores;
        if (strcmp(env_or("TOPOMAP_DISABLE", "0"), "0") != 0)
            mode[0] = TM__MPI_OFF;
        else if (!cfg->topology) {
            mode[0] = TM__MPI_PASS;
            if (!noted_no_topology)
                fprintf(stderr, "topomap: note: TOPOMAP_TOPOLOGY is not set: ranks are not "
                                "reordered by topomap\n");
            noted_no_topology = 1;
        }
    }
    MPI_Bcast(mode, 3, MPI_INT, 0, comm);
    cfg->search = mode[1];
    cfg->cores = mode[2] != 0; /* every process reports its core only then */
    return (tm__mpi_mode)mode[0];
}

void tm__mpi_warn(int rank, const char *fmt, ...)
{
    va_list ap;
    char buf[1024];
    if (rank != 0)
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fprintf(stderr, "topomap: warning: %s\n", buf);
}

/* Line `line` (0-based) of path. */
static int read_line(const char *path, int line, char host[TM__MPI_HOSTLEN], char *err,
                     size_t errlen)
{
    FILE *f = fopen(path, "r");
    int rc;
    if (!f) {
        snprintf(err, errlen, "TOPOMAP_HOSTS=%s: cannot open", path);
        return -1;
    }
    rc = tm__mpi_hosts_line(f, path, line, host, err, errlen);
    fclose(f);
    return rc;
}

int tm__mpi_host(char host[TM__MPI_HOSTLEN], char *err, size_t errlen)
{
    const char *path = env_or("TOPOMAP_HOSTS", NULL);
    char name[MPI_MAX_PROCESSOR_NAME + 1];
    int wrank = 0, len = 0;
    memset(host, 0, TM__MPI_HOSTLEN);
    if (path) {
        MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
        return read_line(path, wrank, host, err, errlen);
    }
    if (MPI_Get_processor_name(name, &len) != MPI_SUCCESS || len <= 0 || len >= TM__MPI_HOSTLEN) {
        snprintf(err, errlen, "MPI_Get_processor_name failed");
        return -1;
    }
    memcpy(host, name, (size_t)len);
    return 0;
}
