/* fuzz_scotch.c - Scotch source graphs (.grf/.src) through
 * tm_comm_read_scotch. */
#include "fuzz_comm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_comm_one(data, size, tm_comm_read_scotch, TM_COMM_AUTO);
    return 0;
}
