/* test_ofile.c - atomic output files (src/io/ofile.c): commit replaces the
 * target in one rename, abort and every failure leave a previous target
 * untouched and no temporary file behind.  I/O failures (disk full on
 * flush, fsync or rename errors, fdopen failure) are injected by linking
 * with -Wl,--wrap=fflush,fsync,rename,fdopen (see the Makefile). */
#include "test_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- failure injection ------------------------------------------------- */

int __real_fflush(FILE *f);
int __real_fsync(int fd);
int __real_rename(const char *a, const char *b);
FILE *__real_fdopen(int fd, const char *mode);
int __wrap_fflush(FILE *f);
int __wrap_fsync(int fd);
int __wrap_rename(const char *a, const char *b);
FILE *__wrap_fdopen(int fd, const char *mode);

static int fail_fflush, fail_fsync, fail_rename, fail_fdopen;

int __wrap_fflush(FILE *f)
{
    /* A full disk shows up when the buffered data is flushed. */
    if (fail_fflush && f && f != stdout && f != stderr) {
        errno = ENOSPC;
        return EOF;
    }
    return __real_fflush(f);
}

int __wrap_fsync(int fd)
{
    if (fail_fsync) {
        errno = EIO;
        return -1;
    }
    return __real_fsync(fd);
}

int __wrap_rename(const char *a, const char *b)
{
    if (fail_rename) {
        errno = EXDEV;
        return -1;
    }
    return __real_rename(a, b);
}

FILE *__wrap_fdopen(int fd, const char *mode)
{
    if (fail_fdopen) {
        errno = ENOMEM;
        return NULL;
    }
    return __real_fdopen(fd, mode);
}

/* ---- fixtures ------------------------------------------------------------ */

static tm_ctx *ctx;
static char dir[256];

static int setup(void **state)
{
    (void)state;
    fail_fflush = fail_fsync = fail_rename = fail_fdopen = 0;
    snprintf(dir, sizeof dir, "%s/tm_ofile_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir))
        return -1;
    return tm_ctx_new(&ctx) == TM_EOK ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[600];
    (void)state;
    tm_ctx_free(ctx);
    snprintf(cmd, sizeof cmd, "chmod -R u+w '%s' && rm -rf '%s'", dir, dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *in_dir(const char *name)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/%s", dir, name);
    return buf;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static char *slurp(const char *path)
{
    static char buf[4096];
    FILE *f = fopen(path, "r");
    size_t n;
    if (!f)
        return NULL;
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Number of directory entries other than . and .. */
static int dir_entries(const char *d)
{
    DIR *dp = opendir(d);
    struct dirent *e;
    int n = 0;
    assert_non_null(dp);
    while ((e = readdir(dp)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(dp);
    return n;
}

/* ---- tests ------------------------------------------------------------- */

static void test_commit_creates(void **state)
{
    tm_ofile of;
    struct stat st;
    mode_t um = umask(022);
    (void)state;
    assert_tm_ok(ctx, tm_ofile_open(ctx, in_dir("out.rankfile"), &of));
    assert_false(of.is_stdout);
    /* Nothing at the target until commit; only the temporary exists. */
    assert_int_equal(access(in_dir("out.rankfile"), F_OK), -1);
    assert_int_equal(dir_entries(dir), 1);
    fputs("rank 0=a slot=0\n", of.fp);
    assert_tm_ok(ctx, tm_ofile_commit(ctx, &of));
    assert_string_equal(slurp(in_dir("out.rankfile")), "rank 0=a slot=0\n");
    assert_int_equal(dir_entries(dir), 1);
    /* An ordinary user file, not mkstemp's 0600. */
    assert_int_equal(stat(in_dir("out.rankfile"), &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);
    umask(um);
}

static void test_commit_replaces_atomically(void **state)
{
    tm_ofile of;
    int fd;
    char buf[16] = {0};
    (void)state;
    write_file(in_dir("out"), "old\n");
    fd = open(in_dir("out"), O_RDONLY);
    assert_true(fd >= 0);
    assert_tm_ok(ctx, tm_ofile_open(ctx, in_dir("out"), &of));
    fputs("new\n", of.fp);
    assert_string_equal(slurp(in_dir("out")), "old\n");
    assert_tm_ok(ctx, tm_ofile_commit(ctx, &of));
    assert_string_equal(slurp(in_dir("out")), "new\n");
    /* The old file was replaced by rename, not truncated and rewritten:
     * a reader that had it open still sees the complete old content. */
    assert_int_equal(read(fd, buf, sizeof buf - 1), 4);
    assert_string_equal(buf, "old\n");
    close(fd);
    assert_int_equal(dir_entries(dir), 1);
}

static void test_abort_keeps_previous(void **state)
{
    tm_ofile of;
    (void)state;
    write_file(in_dir("out"), "previous\n");
    assert_tm_ok(ctx, tm_ofile_open(ctx, in_dir("out"), &of));
    fputs("half-written", of.fp);
    tm_ofile_abort(&of);
    assert_string_equal(slurp(in_dir("out")), "previous\n");
    assert_int_equal(dir_entries(dir), 1);
    assert_null(of.fp);
    assert_null(of.tmp);
    /* abort of an aborted (zeroed) file is harmless */
    tm_ofile_abort(&of);
}

static void test_missing_directory(void **state)
{
    tm_ofile of;
    (void)state;
    assert_tm_error(ctx, tm_ofile_open(ctx, in_dir("nodir/out"), &of), TM_EIO,
                    "nodir/out: cannot create output file: No such file or directory");
    assert_null(of.fp);
    assert_int_equal(dir_entries(dir), 0);
}

static void test_directory_is_a_file(void **state)
{
    tm_ofile of;
    (void)state;
    write_file(in_dir("file"), "x");
    assert_tm_error(ctx, tm_ofile_open(ctx, in_dir("file/out"), &of), TM_EIO,
                    "file/out: cannot create output file: Not a directory");
    assert_int_equal(dir_entries(dir), 1);
}

static void test_unwritable_directory(void **state)
{
    tm_ofile of;
    (void)state;
    assert_int_equal(mkdir(in_dir("ro"), 0755), 0);
    write_file(in_dir("ro/out"), "previous\n");
    assert_int_equal(chmod(in_dir("ro"), 0555), 0);
    if (access(in_dir("ro"), W_OK) == 0) {
        /* root ignores directory permissions; /proc refuses new files to
         * everyone, so it stands in for an unwritable directory. */
        assert_tm_error(ctx, tm_ofile_open(ctx, "/proc/topomap-test.rankfile", &of), TM_EIO,
                        "/proc/topomap-test.rankfile: cannot create output file");
        assert_int_equal(access("/proc/topomap-test.rankfile", F_OK), -1);
    } else {
        assert_tm_error(ctx, tm_ofile_open(ctx, in_dir("ro/out"), &of), TM_EIO,
                        "cannot create output file: Permission denied");
    }
    assert_null(of.fp);
    assert_string_equal(slurp(in_dir("ro/out")), "previous\n");
    assert_int_equal(dir_entries(in_dir("ro")), 1);
}

/* Disk full (ENOSPC when the buffer is flushed), failing fsync, failing
 * rename: TM_EIO naming the file and the cause, the previous target
 * untouched, no temporary left. */
static void check_commit_failure(int *flag, const char *needle)
{
    tm_ofile of;
    write_file(in_dir("out"), "previous\n");
    assert_tm_ok(ctx, tm_ofile_open(ctx, in_dir("out"), &of));
    for (int i = 0; i < 1000; i++)
        fputs("rank 0=node001 slot=0\n", of.fp);
    *flag = 1;
    assert_tm_error(ctx, tm_ofile_commit(ctx, &of), TM_EIO, needle);
    *flag = 0;
    assert_true(strstr(tm_ctx_errmsg(ctx), "/out: cannot write output file") != NULL);
    assert_string_equal(slurp(in_dir("out")), "previous\n");
    assert_int_equal(dir_entries(dir), 1);
    assert_null(of.fp);
    assert_null(of.tmp);
}

static void test_disk_full(void **state)
{
    (void)state;
    check_commit_failure(&fail_fflush, "No space left on device");
}

static void test_fsync_fails(void **state)
{
    (void)state;
    check_commit_failure(&fail_fsync, "Input/output error");
}

static void test_rename_fails(void **state)
{
    (void)state;
    check_commit_failure(&fail_rename, "Invalid cross-device link");
}

static void test_fdopen_fails(void **state)
{
    tm_ofile of;
    (void)state;
    fail_fdopen = 1;
    assert_int_equal(tm_ofile_open(ctx, in_dir("out"), &of), TM_ENOMEM);
    fail_fdopen = 0;
    assert_null(of.fp);
    assert_int_equal(dir_entries(dir), 0);
}

static void test_stdout(void **state)
{
    tm_ofile of;
    (void)state;
    assert_tm_ok(ctx, tm_ofile_open(ctx, "-", &of));
    assert_true(of.is_stdout);
    assert_ptr_equal(of.fp, stdout);
    assert_tm_ok(ctx, tm_ofile_commit(ctx, &of));
    assert_null(of.fp);
    assert_tm_ok(ctx, tm_ofile_open(ctx, NULL, &of));
    tm_ofile_abort(&of);
}

static void test_relative_name(void **state)
{
    tm_ofile of;
    char cwd[PATH_MAX];
    (void)state;
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(dir), 0);
    assert_tm_ok(ctx, tm_ofile_open(ctx, "plain.map", &of));
    fputs("x\n", of.fp);
    assert_tm_ok(ctx, tm_ofile_commit(ctx, &of));
    assert_int_equal(chdir(cwd), 0);
    assert_string_equal(slurp(in_dir("plain.map")), "x\n");
    assert_int_equal(dir_entries(dir), 1);
}

/* A legal file name of NAME_MAX bytes: the temporary's longer name must
 * not make the output impossible. */
static void test_longest_name(void **state)
{
    tm_ofile of;
    char name[NAME_MAX + 1];
    (void)state;
    memset(name, 'r', NAME_MAX);
    name[NAME_MAX] = '\0';
    assert_tm_ok(ctx, tm_ofile_open(ctx, in_dir(name), &of));
    fputs("ok\n", of.fp);
    assert_tm_ok(ctx, tm_ofile_commit(ctx, &of));
    assert_string_equal(slurp(in_dir(name)), "ok\n");
    assert_int_equal(dir_entries(dir), 1);
}

static void test_target_is_directory(void **state)
{
    tm_ofile of;
    (void)state;
    assert_int_equal(mkdir(in_dir("outdir"), 0755), 0);
    assert_tm_error(ctx, tm_ofile_open(ctx, in_dir("outdir"), &of), TM_EIO,
                    "/outdir: cannot write output file: is a directory");
    assert_null(of.fp);
    assert_int_equal(dir_entries(dir), 1);
    assert_int_equal(dir_entries(in_dir("outdir")), 0);
}

/* --out /dev/null (here through a link, so a regression cannot replace
 * the real device node when the tests run as root): written in place, the
 * device stays a device, no temporary anywhere. */
static void test_device_target(void **state)
{
    tm_ofile of;
    struct stat st;
    (void)state;
    assert_int_equal(symlink("/dev/null", in_dir("null")), 0);
    assert_tm_ok(ctx, tm_ofile_open(ctx, in_dir("null"), &of));
    assert_null(of.tmp);
    fputs("discarded\n", of.fp);
    assert_tm_ok(ctx, tm_ofile_commit(ctx, &of));
    assert_int_equal(lstat(in_dir("null"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_int_equal(dir_entries(dir), 1);
    /* abort on a device just closes it */
    assert_tm_ok(ctx, tm_ofile_open(ctx, in_dir("null"), &of));
    tm_ofile_abort(&of);
    assert_int_equal(dir_entries(dir), 1);
}

/* A link to a file: the file is replaced, the link stays a link, the
 * file keeps its permissions. */
static void test_symlink_and_mode_kept(void **state)
{
    tm_ofile of;
    struct stat st;
    (void)state;
    write_file(in_dir("real"), "old\n");
    assert_int_equal(chmod(in_dir("real"), 0600), 0);
    assert_int_equal(symlink("real", in_dir("link")), 0);
    assert_tm_ok(ctx, tm_ofile_open(ctx, in_dir("link"), &of));
    fputs("new\n", of.fp);
    assert_tm_ok(ctx, tm_ofile_commit(ctx, &of));
    assert_int_equal(lstat(in_dir("link"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_string_equal(slurp(in_dir("real")), "new\n");
    assert_int_equal(stat(in_dir("real"), &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(dir_entries(dir), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_commit_creates, setup, teardown),
        cmocka_unit_test_setup_teardown(test_commit_replaces_atomically, setup, teardown),
        cmocka_unit_test_setup_teardown(test_abort_keeps_previous, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_directory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_directory_is_a_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unwritable_directory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_disk_full, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fsync_fails, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rename_fails, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fdopen_fails, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stdout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_relative_name, setup, teardown),
        cmocka_unit_test_setup_teardown(test_longest_name, setup, teardown),
        cmocka_unit_test_setup_teardown(test_target_is_directory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_device_target, setup, teardown),
        cmocka_unit_test_setup_teardown(test_symlink_and_mode_kept, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
