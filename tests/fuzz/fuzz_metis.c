/* fuzz_metis.c - METIS graph files (all fmt variants: vertex sizes, weights, edge weights)
 * through tm_comm_read_metis. */
#include "fuzz_comm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_comm_one(data, size, tm_comm_read_metis, TM_COMM_AUTO);
    return 0;
}
