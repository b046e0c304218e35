/* mpi_hosts.h - the TOPOMAP_HOSTS reader, free of MPI so that the fuzz
 * target (tests/fuzz/fuzz_mpi_hosts.c) can build it without an MPI. */
#ifndef TOPOMAP_MPI_HOSTS_H
#define TOPOMAP_MPI_HOSTS_H

#include <stddef.h>
#include <stdio.h>

/* Host names travel in fixed records (one MPI_Gather, no P x P data). */
#define TM__MPI_HOSTLEN 256

/* The host name of line `line` (0-based) of f: the line up to its first
 * blank.  0, or -1 with "path:N: ..." / "path: ..." in err. */
int tm__mpi_hosts_line(FILE *f, const char *path, int line, char host[TM__MPI_HOSTLEN], char *err,
                       size_t errlen);

#endif
