/* fuzz_mpip.c - mpiP reports with a communication-matrix block
 * through tm_comm_read_mpip. */
#include "fuzz_comm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_comm_one(data, size, tm_comm_read_mpip, TM_COMM_AUTO);
    return 0;
}
