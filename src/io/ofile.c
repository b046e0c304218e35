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

/* A target that exists and is not a regular file (/dev/null, /dev/stdout,
 * a FIFO) is written in place: renaming over it would replace the device
 * node itself (as root, /dev/null would become a regular file) and there
 * is nothing to keep atomic.  Such a file has tmp == NULL. */
static tm_err open_direct(tm_ctx *ctx, const char *path, tm_ofile *of)
{
    of->path = tm__strdup(path);
    if (!of->path)
        return tm__nomem(ctx);
    of->fp = fopen(path, "w");
    if (!of->fp) {
        int e = errno;
        tm_ofile_abort(of);
        return tm__fail(ctx, TM_EIO, "%s: cannot open output file: %s", path, strerror(e));
    }
    return TM_EOK;
}

tm_err tm_ofile_open(tm_ctx *ctx, const char *path, tm_ofile *of)
{
    const char *slash, *target = path;
    char *real = NULL;
    struct stat st, lst;
    mode_t mode;
    size_t dirlen;
    int fd;
    memset(of, 0, sizeof *of);
    if (!path || strcmp(path, "-") == 0) {
        of->fp = stdout;
        of->is_stdout = true;
        return TM_EOK;
    }
    {
        mode_t um = umask(0);
        umask(um);
        mode = 0666 & ~um;
    }
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return tm__fail(ctx, TM_EIO, "%s: cannot write output file: is a directory", path);
        if (!S_ISREG(st.st_mode))
            return open_direct(ctx, path, of);
        /* A symlink to a file: replace the file, keep the link. */
        if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
            real = realpath(path, NULL);
            if (!real)
                return tm__fail(ctx, TM_EIO, "%s: cannot resolve output file: %s", path,
                                strerror(errno));
            target = real;
        }
        /* Replacing a file keeps its permissions. */
        mode = st.st_mode & 07777;
    }
    slash = strrchr(target, '/');
    dirlen = slash ? (size_t)(slash - target) + 1 : 0;
    of->path = tm__strdup(target);
    of->tmp = malloc(dirlen + strlen(slash ? slash + 1 : target) + 32);
    free(real);
    if (!of->path || !of->tmp) {
        tm_ofile_abort(of);
        return tm__nomem(ctx);
    }
    memcpy(of->tmp, of->path, dirlen);
    /* The temporary's name adds 12 bytes to the target's: cut the target's
     * part so a legal name of up to NAME_MAX bytes stays writable. */
    sprintf(of->tmp + dirlen, ".%.*s.tmp.XXXXXX", NAME_MAX - 12, of->path + dirlen);
    fd = mkstemp(of->tmp);
    if (fd < 0) {
        int e = errno;
        free(of->tmp);
        of->tmp = NULL;
        tm_ofile_abort(of);
        return tm__fail(ctx, TM_EIO, "%s: cannot create output file: %s", path, strerror(e));
    }
    /* mkstemp creates 0600; output files are ordinary user files. */
    (void)fchmod(fd, mode);
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
    errno = 0;
    if (fflush(of->fp) != 0 || ferror(of->fp) || (of->tmp && fsync(fileno(of->fp)) != 0))
        e = errno ? errno : EIO;
    if (fclose(of->fp) != 0 && !e)
        e = errno;
    of->fp = NULL;
    if (!e && of->tmp && rename(of->tmp, of->path) != 0)
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
