/*
 * state_take.c - the cluster's state from the controller itself: runs
 * Slurm's commands (tm_slurm_state_query), or saves their output as the
 * snapshot the submit hook reads (tm_slurm_state_save), then reads it with
 * state_read.c.
 *
 *   nodes.json  scontrol --json show nodes (23.02 and later), else
 *               sinfo --json (22.05 has no JSON in scontrol)
 *   jobs.json   squeue --json
 *   steps.txt   squeue -s -o "%i|%A|%N"
 *
 * Each command runs with a deadline (killed past it) and its output is
 * kept in memory: the three are read before anything is written, so a
 * failed run leaves the previous snapshot whole.  Commands are found in
 * PATH and read SLURM_CONF from the environment, as a user's would.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "slurm_int.h"
#include "topomap/io.h"
#include "../util/util.h"

extern char **environ;

typedef struct outbuf {
    char *data;
    size_t len, cap;
} outbuf;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Appends what fd has to b; false at its end (or an error). */
static bool drain(int fd, outbuf *b, bool *nomem)
{
    char chunk[65536];
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return true;
    if (n <= 0)
        return false;
    if (tm__grow((void **)&b->data, &b->cap, b->len + (size_t)n + 1, 1) < 0) {
        *nomem = true;
        return false;
    }
    memcpy(b->data + b->len, chunk, (size_t)n);
    b->len += (size_t)n;
    b->data[b->len] = '\0';
    return true;
}

/* Runs argv with stdout into out; TM_EIO naming the command (and the first
 * line of its stderr) when it cannot start, fails or outlives timeout_s. */
static tm_err run(tm_ctx *ctx, char *const argv[], double timeout_s, outbuf *out)
{
    int po[2] = {-1, -1}, pe[2] = {-1, -1}, status = 0;
    posix_spawn_file_actions_t fa;
    outbuf err_text = {NULL, 0, 0};
    pid_t pid = -1;
    bool open_o = true, open_e = true, nomem = false, late = false;
    double deadline = now() + timeout_s;
    tm_err err = TM_EOK;
    int rc;

    if (pipe(po) != 0 || pipe(pe) != 0) {
        err = tm__fail(ctx, TM_EIO, "%s: cannot make a pipe: %s", argv[0], strerror(errno));
        goto out;
    }
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, po[1], 1);
    posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
    posix_spawn_file_actions_addclose(&fa, po[0]);
    posix_spawn_file_actions_addclose(&fa, pe[0]);
    rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(po[1]);
    close(pe[1]);
    po[1] = pe[1] = -1;
    if (rc != 0) {
        pid = -1;
        err = tm__fail(ctx, TM_EIO, "%s: cannot run it: %s", argv[0], strerror(rc));
        goto out;
    }
    while ((open_o || open_e) && !nomem) {
        struct pollfd p[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
        double left = deadline - now();
        if (left <= 0) {
            late = true;
            break;
        }
        p[0].fd = open_o ? po[0] : -1;
        p[1].fd = open_e ? pe[0] : -1;
        if (poll(p, 2, (int)(left * 1000) + 1) < 0 && errno != EINTR)
            break;
        if (open_o && (p[0].revents & (POLLIN | POLLHUP | POLLERR)))
            open_o = drain(po[0], out, &nomem);
        if (open_e && (p[1].revents & (POLLIN | POLLHUP | POLLERR)))
            open_e = drain(pe[0], &err_text, &nomem);
    }
    if (late || nomem)
        kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (nomem)
        err = tm__nomem(ctx);
    else if (late)
        err = tm__fail(ctx, TM_EIO, "%s %s: no answer within %g s (is slurmctld up?)", argv[0],
                       argv[1], timeout_s);
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        err = tm__fail(ctx, TM_EIO, "%s %s failed (exit %d): %.*s", argv[0], argv[1],
                       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
                       err_text.data ? (int)strcspn(err_text.data, "\n") : 0,
                       err_text.data ? err_text.data : "");
out:
    for (int k = 0; k < 2; k++) {
        if (po[k] >= 0)
            close(po[k]);
        if (pe[k] >= 0)
            close(pe[k]);
    }
    free(err_text.data);
    return err;
}

/* The three outputs: nodes, jobs, steps. */
static tm_err take(tm_ctx *ctx, double timeout_s, outbuf out[3])
{
    static char *const scontrol[] = {"scontrol", "--json", "show", "nodes", NULL};
    static char *const sinfo[] = {"sinfo", "--json", NULL};
    static char *const squeue[] = {"squeue", "--json", NULL};
    static char *const steps[] = {"squeue", "-s", "-o", "%i|%A|%N", NULL};
    tm_err err;
    memset(out, 0, 3 * sizeof *out);
    /* 22.05's scontrol has no --json: sinfo's list of nodes is the same */
    if ((err = run(ctx, scontrol, timeout_s, &out[0])) == TM_EIO) {
        tm_ctx_clear_error(ctx);
        out[0].len = 0;
        err = run(ctx, sinfo, timeout_s, &out[0]);
    }
    if (!err)
        err = run(ctx, squeue, timeout_s, &out[1]);
    if (!err)
        err = run(ctx, steps, timeout_s, &out[2]);
    return err;
}

/* Reads the three outputs (named as the files they go to). */
static tm_err parse(tm_ctx *ctx, outbuf out[3], tm_slurm_state *st)
{
    static const char *const name[3] = {"nodes.json", "jobs.json", "steps.txt"};
    FILE *f[3] = {0};
    tm_err err = TM_EOK;
    tm_slurm_state_init(st);
    for (int k = 0; k < 3 && !err; k++)
        if (!(f[k] = fmemopen(out[k].data ? out[k].data : (char *)"", out[k].len ? out[k].len : 1,
                              "r")))
            err = tm__nomem(ctx);
    if (!err)
        err = tm_slurm_state_read(ctx, f[0], name[0], f[1], name[1], f[2], name[2], st);
    for (int k = 0; k < 3; k++)
        if (f[k])
            fclose(f[k]);
    return err;
}

tm_err tm_slurm_state_query(tm_ctx *ctx, double timeout_s, tm_slurm_state *out)
{
    outbuf o[3];
    tm_err err = take(ctx, timeout_s, o);
    if (!err)
        err = parse(ctx, o, out);
    else
        tm_slurm_state_init(out);
    for (int k = 0; k < 3; k++)
        free(o[k].data);
    return err;
}

tm_err tm_slurm_state_save(tm_ctx *ctx, const char *dir, double timeout_s)
{
    static const char *const name[3] = {"nodes.json", "jobs.json", "steps.txt"};
    tm_ofile of[3];
    outbuf o[3];
    tm_slurm_state st;
    int opened = 0;
    tm_err err = take(ctx, timeout_s, o);
    memset(of, 0, sizeof of);
    if (!err && !(err = parse(ctx, o, &st)))
        tm_slurm_state_release(&st);
    for (; !err && opened < 3; opened++) {
        size_t n = strlen(dir) + strlen(name[opened]) + 2;
        char *path = malloc(n);
        if (!path) {
            err = tm__nomem(ctx);
            break;
        }
        snprintf(path, n, "%s/%s", dir, name[opened]);
        err = tm_ofile_open(ctx, path, &of[opened]);
        free(path);
        if (!err && o[opened].len && fwrite(o[opened].data, 1, o[opened].len, of[opened].fp) !=
                                         o[opened].len)
            err = tm__fail(ctx, TM_EIO, "%s/%s: write error", dir, name[opened]);
        if (err) {
            tm_ofile_abort(&of[opened]);
            break;
        }
    }
    /* all three written: commit them together (the jobs last, the hook's sign) */
    for (int k = 0; k < 3; k++) {
        if (k < opened && !err)
            err = tm_ofile_commit(ctx, &of[k]);
        else if (k < opened)
            tm_ofile_abort(&of[k]);
    }
    for (int k = 0; k < 3; k++)
        free(o[k].data);
    return err;
}
