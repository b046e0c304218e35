/* infile.c - opening an input file with the error every reader and the CLI
 * report: "path: cannot open: reason" or "path: is a directory" (fopen
 * succeeds on a directory, and reading it then fails with a vague error). */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "topomap/io.h"
#include "../util/util.h"

tm_err tm_open_input(tm_ctx *ctx, const char *path, FILE **out)
{
    struct stat st;
    *out = NULL;
    if (stat(path, &st) != 0)
        return tm__fail(ctx, TM_EIO, "%s: cannot open: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return tm__fail(ctx, TM_EIO, "%s: is a directory", path);
    *out = fopen(path, "r");
    if (!*out)
        return tm__fail(ctx, TM_EIO, "%s: cannot open: %s", path, strerror(errno));
    return TM_EOK;
}
