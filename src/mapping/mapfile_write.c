/*
 * mapfile_write.c - writes a mapping for the launcher that will run the job
 * (docs/formats.md has the mpirun lines):
 *   openmpi  "rank i=host slot=s", ranks in increasing order (Open MPI 4.1
 *            rejects any other order) and always with slot=;
 *   mpich    Hydra machinefile "host:n": Hydra fills the hosts in file order
 *            in blocks of n, so every run of consecutive ranks on one host is
 *            one line (h1,h2,h1 gives three lines) and the file reproduces
 *            the mapping exactly when started with -n <tasks>;
 *   slurm    SLURM_HOSTFILE for srun --distribution=arbitrary: one host per
 *            task, in rank order;
 *   plain    "host slot" per task (network mode) or the PE index (hierarchy);
 *   smpi     SimGrid's smpirun -hostfile: one host per rank, in rank order,
 *            always the full name (the host id of the platform `topo export
 *            --format simgrid` writes); smpirun gives rank i the i-th line.
 * Host names are shortened to the part before the first '.' unless
 * full_hostnames is set: launchers compare against `hostname -s` style names
 * far more often than against fabric-side domains.
 */
#include <stdlib.h>
#include <string.h>

#include "topomap/map.h"
#include "../util/util.h"

int tm_mapfmt_parse(const char *s)
{
    static const tm__name_val names[] = {
        {"openmpi", TM_MAPFMT_OPENMPI}, {"rankfile", TM_MAPFMT_OPENMPI},
        {"mpich", TM_MAPFMT_MPICH},     {"hydra", TM_MAPFMT_MPICH},
        {"machinefile", TM_MAPFMT_MPICH}, {"slurm", TM_MAPFMT_SLURM},
        {"plain", TM_MAPFMT_PLAIN},     {"smpi", TM_MAPFMT_SMPI},
    };
    return tm__name_lookup(names, sizeof names / sizeof names[0], s);
}

static const char *fmt_name(tm_mapfmt fmt)
{
    switch (fmt) {
    case TM_MAPFMT_OPENMPI: return "openmpi";
    case TM_MAPFMT_MPICH: return "mpich";
    case TM_MAPFMT_SLURM: return "slurm";
    case TM_MAPFMT_PLAIN: return "plain";
    case TM_MAPFMT_SMPI: return "smpi";
    }
    return "?";
}

/* Length of the name as written. */
static size_t out_len(const char *name, bool full)
{
    const char *dot = full ? NULL : strchr(name, '.');
    return dot && dot > name ? (size_t)(dot - name) : strlen(name);
}

/* Checks hosts and slots, and that the written names are usable and do
 * not collide, before anything is written. */
static tm_err validate(tm_ctx *ctx, const tm_net *net, const tm_mapping *m, bool full)
{
    int32_t nv = tm_net_n_vertices(net);
    tm__strmap seen;
    tm_err err = TM_EOK;
    tm__strmap_init(&seen);
    for (int32_t t = 0; t < m->n; t++) {
        int32_t h = m->host[t], old;
        const char *name;
        size_t len;
        if (h < 0 || h >= nv || tm_net_kind(net, h) != TM_VERTEX_HOST) {
            err = tm__fail(ctx, TM_EINPUT, "task %d is not mapped to a host", t);
            goto out;
        }
        if (m->slot[t] < 0) {
            err = tm__fail(ctx, TM_EINPUT, "task %d has a negative slot %d", t, m->slot[t]);
            goto out;
        }
        name = tm_net_name(net, h);
        len = out_len(name, full);
        if (strcspn(name, " \t\r\n#:=,") < len) {
            err = tm__fail(ctx, TM_EINPUT, "host name '%s' contains a blank or one of '#:=,' and "
                           "cannot be written to a mapping file", name);
            goto out;
        }
        char *key = tm__strndup(name, len);
        int put = key ? tm__strmap_put(&seen, key, h, &old) : -1;
        free(key);
        if (put < 0) {
            err = tm__nomem(ctx);
            goto out;
        }
        if (old >= 0 && old != h) {
            err = tm__fail(ctx, TM_EUSAGE, "hosts '%s' and '%s' have the same short name '%.*s'; "
                           "write full host names", tm_net_name(net, old), name, (int)len, name);
            goto out;
        }
    }
out:
    tm__strmap_release(&seen);
    return err;
}

static int write_network(const tm_net *net, const tm_mapping *m, tm_mapfmt fmt, bool full,
                         FILE *out)
{
    for (int32_t t = 0; t < m->n; t++) {
        const char *name = tm_net_name(net, m->host[t]);
        int len = (int)out_len(name, full), rc = 0;
        switch (fmt) {
        case TM_MAPFMT_OPENMPI:
            rc = fprintf(out, "rank %d=%.*s slot=%d\n", t, len, name, m->slot[t]);
            break;
        case TM_MAPFMT_MPICH: {
            int32_t run = 1;
            while (t + 1 < m->n && m->host[t + 1] == m->host[t])
                t++, run++;
            rc = fprintf(out, "%.*s:%d\n", len, name, run);
            break;
        }
        case TM_MAPFMT_SLURM:
        case TM_MAPFMT_SMPI:
            rc = fprintf(out, "%.*s\n", len, name);
            break;
        case TM_MAPFMT_PLAIN:
            rc = fprintf(out, "%.*s %d\n", len, name, m->slot[t]);
            break;
        }
        if (rc < 0)
            return -1;
    }
    return 0;
}

tm_err tm_mapping_write(tm_ctx *ctx, const tm_net *net, const tm_mapping *m, tm_mapfmt fmt,
                        const tm_mapwrite_opts *opts, FILE *out)
{
    /* smpi: names must equal the platform's host ids */
    bool full = (opts && opts->full_hostnames) || fmt == TM_MAPFMT_SMPI;
    tm_err err;
    if ((unsigned)fmt > TM_MAPFMT_SMPI)
        return tm__fail(ctx, TM_EUSAGE, "unknown mapping format %d", (int)fmt);
    if (m->pe) {
        if (fmt != TM_MAPFMT_PLAIN)
            return tm__fail(ctx, TM_EUSAGE, "a hierarchy-mode mapping (PE per task) can only be "
                            "written as 'plain', not '%s'", fmt_name(fmt));
        for (int32_t t = 0; t < m->n; t++)
            if (fprintf(out, "%d\n", m->pe[t]) < 0)
                goto io;
    } else {
        if (!net || !m->host || !m->slot)
            return tm__fail(ctx, TM_EINTERNAL, "network mapping without net or host/slot arrays");
        if ((err = validate(ctx, net, m, full)))
            return err;
        if (write_network(net, m, fmt, full, out) < 0)
            goto io;
    }
    if (fflush(out) != 0 || ferror(out))
        goto io;
    return TM_EOK;
io:
    return tm__fail(ctx, TM_EIO, "write error while writing the %s mapping", fmt_name(fmt));
}
