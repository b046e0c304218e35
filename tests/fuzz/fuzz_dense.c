/* fuzz_dense.c - dense N x N matrices (comma or whitespace separated)
 * through tm_comm_read_dense. */
#include "fuzz_comm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_comm_one(data, size, tm_comm_read_dense, TM_COMM_AUTO);
    return 0;
}
