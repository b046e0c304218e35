/* fuzz_edges.c - edge lists "src dst volume"
 * through tm_comm_read_edges. */
#include "fuzz_comm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_comm_one(data, size, tm_comm_read_edges, TM_COMM_AUTO);
    return 0;
}
