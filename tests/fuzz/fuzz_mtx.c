/* fuzz_mtx.c - Matrix Market coordinate files (general/symmetric/pattern, real/integer)
 * through tm_comm_read_mtx. */
#include "fuzz_comm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_comm_one(data, size, tm_comm_read_mtx, TM_COMM_AUTO);
    return 0;
}
