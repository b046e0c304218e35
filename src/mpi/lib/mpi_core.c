/* mpi_core.c - the core a process runs on, for core-level placement
 * (docs/mpi.md): line (world rank + 1) of TOPOMAP_CORES, or the first CPU
 * of sched_getaffinity turned into a logical core index.
 *
 * Logical core index: the distinct (physical package id, core id) pairs of
 * the configured CPUs (Linux sysfs), in increasing order, as hwloc numbers
 * cores on usual machines; hyperthreads of one core are one core.  A
 * process whose affinity spans more than one core is not bound (-1). */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi_int.h"

/* (package << 32 | core) of cpu, or -1 when sysfs does not say. */
static long long core_key(int cpu)
{
    static const char *const item[2] = {"physical_package_id", "core_id"};
    long long v[2];
    for (int i = 0; i < 2; i++) {
        char path[128];
        FILE *f;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, item[i]);
        f = fopen(path, "r");
        if (!f)
            return -1;
        if (fscanf(f, "%lld", &v[i]) != 1 || v[i] < 0 || v[i] > 0x7fffffff)
            v[i] = -1;
        fclose(f);
        if (v[i] < 0)
            return -1;
    }
    return v[0] << 32 | v[1];
}

/* Logical index of the core holding the CPUs of `set`, or -1 when they
 * are on several cores or sysfs is unreadable. */
static int logical_core(const cpu_set_t *set)
{
    long ncpu = sysconf(_SC_NPROCESSORS_CONF);
    long long mine = -1, *keys;
    int n = 0, below = 0, rc = -1;
    if (ncpu <= 0 || ncpu > CPU_SETSIZE)
        ncpu = CPU_SETSIZE;
    keys = malloc((size_t)ncpu * sizeof *keys);
    if (!keys)
        return -1;
    for (int c = 0; c < ncpu; c++) {
        long long k = core_key(c);
        if (k < 0)
            continue;
        if (CPU_ISSET(c, set)) {
            if (mine >= 0 && k != mine)
                goto cleanup; /* bound to several cores: not bound */
            mine = k;
        }
        keys[n++] = k;
    }
    if (mine < 0)
        goto cleanup;
    /* distinct keys below mine: O(ncpu^2) compares at most, once per call */
    for (int i = 0; i < n; i++) {
        int first = 1;
        for (int j = 0; j < i && first; j++)
            first = keys[j] != keys[i];
        below += first && keys[i] < mine;
    }
    rc = below;
cleanup:
    free(keys);
    return rc;
}

static int core_from_file(const char *path, int *core, char *err, size_t errlen)
{
    char tok[TM__MPI_HOSTLEN], *end;
    long v;
    int wrank = 0, rc;
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "TOPOMAP_CORES=%s: cannot open", path);
        return -1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    rc = tm__mpi_hosts_line(f, path, wrank, tok, err, errlen);
    fclose(f);
    if (rc < 0)
        return -1;
    v = strtol(tok, &end, 10);
    if (*end || v < -1 || v > 0x7fffffff) {
        snprintf(err, errlen, "%s:%d: '%.32s' is not a core index (or -1: not bound)", path,
                 wrank + 1, tok);
        return -1;
    }
    *core = (int)v;
    return 0;
}

int tm__mpi_core(int *core, char *err, size_t errlen)
{
    const char *path = getenv("TOPOMAP_CORES");
    cpu_set_t set;
    *core = -1;
    if (path && *path)
        return core_from_file(path, core, err, errlen);
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        *core = logical_core(&set);
    return 0;
}
