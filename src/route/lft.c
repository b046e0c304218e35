/*
 * lft.c - `--routing lft:DIR`: the fabric's real routes, from the
 * forwarding tables dumped into DIR (ibroute, one file per switch, or
 * dump_lfts.sh / opensm-lfts.dump / opensm.fdbs / ibdiagnet2.fdbs, read
 * by lft_read.c and lft_fdbs.c) and followed hop by hop by fwd.c.
 *
 * Files are read in name order so that messages are reproducible; every
 * regular file of DIR whose name does not start with '.' must be a
 * forwarding-table dump.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "topomap/io.h"
#include "route_int.h"
#include "../util/util.h"

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted paths of the table files of dir. */
static tm_err list_dir(tm_ctx *ctx, const char *dir, char ***out, size_t *n)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t cap = 0;
    struct stat st;
    *out = NULL;
    *n = 0;
    if (!d)
        return tm__fail(ctx, TM_EIO, "%s: cannot open the forwarding-table directory", dir);
    while ((e = readdir(d))) {
        char *path;
        if (e->d_name[0] == '.')
            continue;
        path = tm__malloc_n(strlen(dir) + strlen(e->d_name) + 2, 1);
        if (!path || tm__grow((void **)out, &cap, *n + 1, sizeof **out) < 0) {
            free(path);
            closedir(d);
            return tm__nomem(ctx);
        }
        sprintf(path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
            (*out)[(*n)++] = path;
        else
            free(path);
    }
    closedir(d);
    if (*n)
        qsort(*out, *n, sizeof **out, cmp_str);
    return TM_EOK;
}

tm_err tm__lft_read_dir(tm_ctx *ctx, const tm_route *r, tm__fwd *f, const char *dir)
{
    char **files;
    size_t n;
    int32_t tables = 0;
    tm_err err = list_dir(ctx, dir, &files, &n);
    for (size_t i = 0; !err && i < n; i++) {
        FILE *in;
        err = tm_open_input(ctx, files[i], &in);
        if (!err) {
            err = tm__lft_read_file(ctx, r, f, in, files[i]);
            fclose(in);
        }
    }
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    free(files);
    for (int32_t s = 0; s < f->n_sw; s++)
        tables += f->has_table[s];
    if (!err && !tables)
        err = tm__fail(ctx, TM_EINPUT, "%s: no forwarding table of a switch of the topology", dir);
    return err;
}

static tm_err lft_init(tm_ctx *ctx, tm_route *r)
{
    tm__fwd *f;
    tm_err err;
    if (!r->opts.lft_dir)
        return tm__fail(ctx, TM_EUSAGE, "lft routing needs a table directory (tm_route_new_lft)");
    err = tm__fwd_new(ctx, r, true, &f);
    if (!err)
        err = tm__lft_read_dir(ctx, r, f, r->opts.lft_dir);
    if (!err && r->opts.lmc_spread)
        err = tm__fwd_spread(ctx, r, f);
    if (err) {
        tm__fwd_free(f);
        return err;
    }
    r->priv = f;
    return TM_EOK;
}

const tm__route_ops tm__route_lft_ops = TM__FWD_OPS("lft", lft_init);
