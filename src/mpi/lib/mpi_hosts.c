/* mpi_hosts.c - TOPOMAP_HOSTS: line i names the host of MPI_COMM_WORLD
 * rank i (docs/mpi.md).  Each process reads its own line. */
#include <stdbool.h>
#include <string.h>

#include "mpi_hosts.h"

int tm__mpi_hosts_line(FILE *f, const char *path, int line, char host[TM__MPI_HOSTLEN], char *err,
                       size_t errlen)
{
    char buf[TM__MPI_HOSTLEN + 2];
    int i = 0, rc = -1;
    memset(host, 0, TM__MPI_HOSTLEN);
    while (fgets(buf, sizeof buf, f)) {
        size_t len = strcspn(buf, " \t\r\n");
        bool whole = strchr(buf, '\n') != NULL || feof(f);
        int c;
        if (!whole) /* a line longer than any host name: skip its rest */
            while ((c = fgetc(f)) != EOF && c != '\n')
                ;
        if (i++ != line)
            continue;
        if (len == 0 || len >= TM__MPI_HOSTLEN) {
            snprintf(err, errlen, "%s:%d: no host name (or longer than %d)", path, line + 1,
                     TM__MPI_HOSTLEN - 1);
            return -1;
        }
        memcpy(host, buf, len);
        return 0;
    }
    snprintf(err, errlen, "%s: %d lines, no host for world rank %d", path, i, line);
    return rc;
}
