/* fuzz_comm_auto.c - tm_comm_read with TM_COMM_AUTO: format detection by
 * content (the display name has no extension), then the chosen reader. */
#include "fuzz_comm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_comm_one(data, size, NULL, TM_COMM_AUTO);
    return 0;
}
