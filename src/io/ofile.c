/*
 * ofile.c - atomic output files: temp file in the target's directory,
 * fsync, rename over the target.  A failure at any point before commit
 * leaves the previous target untouched and no temporary behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "topomap/io.h"
#include "../util/util.h"

tm_err tm_ofile_open(tm_ctx *ctx, const char *path, tm_ofile *of)
{
    const char *slash;
    size_t dirlen;
    int fd;
    memset(of, 0, sizeof *of);
    if (!path || strcmp(path, "-") == 0) {
        of->fp = stdout;
        of->is_stdout = true;
        return TM_EOK;
    }
    slash = strrchr(path, '/');
    dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    of->path = tm__strdup(path);
    of->tmp = malloc(dirlen + strlen(slash ? slash + 1 : path) + 32);
    if (!of->path || !of->tmp) {
        tm_ofile_abort(of);
        return tm__nomem(ctx);
    }
    memcpy(of->tmp, path, dirlen);
    /* The temporary's name adds 12 bytes to the target's: cut the target's
     * part so a legal name of up to NAME_MAX bytes stays writable. */
    sprintf(of->tmp + dirlen, ".%.*s.tmp.XXXXXX", NAME_MAX - 12, slash ? slash + 1 : path);
    fd = mkstemp(of->tmp);
    if (fd < 0) {
        int e = errno;
        free(of->tmp);
        of->tmp = NULL;
        tm_ofile_abort(of);
        return tm__fail(ctx, TM_EIO, "%s: cannot create output file: %s", path, strerror(e));
    }
    /* mkstemp creates 0600; output files are ordinary user files. */
    {
        mode_t um = umask(0);
        umask(um);
        (void)fchmod(fd, 0666 & ~um);
    }
    of->fp = fdopen(fd, "w");
    if (!of->fp) {
        close(fd);
        tm_ofile_abort(of);
        return tm__nomem(ctx);
    }
    return TM_EOK;
}

tm_err tm_ofile_commit(tm_ctx *ctx, tm_ofile *of)
{
    tm_err err = TM_EOK;
    int e = 0;
    if (of->is_stdout) {
        if (fflush(stdout) != 0 || ferror(stdout))
            err = tm__fail(ctx, TM_EIO, "<stdout>: write error");
        memset(of, 0, sizeof *of);
        return err;
    }
    if (fflush(of->fp) != 0 || ferror(of->fp) || fsync(fileno(of->fp)) != 0)
        e = errno ? errno : EIO;
    if (fclose(of->fp) != 0 && !e)
        e = errno;
    of->fp = NULL;
    if (!e && rename(of->tmp, of->path) != 0)
        e = errno;
    if (e) {
        err = tm__fail(ctx, TM_EIO, "%s: cannot write output file: %s", of->path, strerror(e));
        tm_ofile_abort(of);
        return err;
    }
    free(of->tmp);
    free(of->path);
    memset(of, 0, sizeof *of);
    return TM_EOK;
}

void tm_ofile_abort(tm_ofile *of)
{
    if (of->fp && !of->is_stdout)
        fclose(of->fp);
    if (of->tmp)
        unlink(of->tmp);
    free(of->tmp);
    free(of->path);
    memset(of, 0, sizeof *of);
}
