/* fuzz_mpi_hosts.c - the TOPOMAP_HOSTS reader of libtopomap_mpi
 * (src/mpi/lib/mpi_hosts.c, built here without MPI).  The first byte picks
 * the line asked for; the rest is the file. */
#include <string.h>

#include "fuzz_common.h"
#include "mpi/lib/mpi_hosts.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char host[TM__MPI_HOSTLEN], err[512];
    int line = size ? data[0] % 32 : 0;
    FILE *in = fz_open(size ? data + 1 : data, size ? size - 1 : 0);
    size_t len;
    err[0] = '\0';
    if (tm__mpi_hosts_line(in, FZ_NAME, line, host, err, sizeof err) == 0) {
        len = strnlen(host, sizeof host);
        if (len == 0 || len >= sizeof host || strcspn(host, " \t\r\n") != len)
            fz_die("bad host name", TM_EOK, NULL);
    } else if (strncmp(err, FZ_NAME, strlen(FZ_NAME)) != 0) {
        fz_die("error does not start with the file name", TM_EOK, NULL);
    }
    fclose(in);
    return 0;
}
