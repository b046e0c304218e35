/* fuzz_graphstats.c - graphStats.txt "i , j = w" pair lists
 * through tm_comm_read_graphstats. */
#include "fuzz_comm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_comm_one(data, size, tm_comm_read_graphstats, TM_COMM_AUTO);
    return 0;
}
