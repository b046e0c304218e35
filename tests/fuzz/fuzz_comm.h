/* fuzz_comm.h - the body shared by the communication-graph reader targets:
 * read, and on success the result must pass tm_comm_check (a valid CSR);
 * on failure the output must be left released (comm.h). */
#ifndef TM_FUZZ_COMM_H
#define TM_FUZZ_COMM_H

#include "fuzz_common.h"

typedef tm_err (*fz_comm_reader)(tm_ctx *, FILE *, const char *, tm_comm *);

static inline void fz_comm_one(const uint8_t *data, size_t size, fz_comm_reader rd,
                               tm_comm_format fmt)
{
    tm_ctx *ctx = fz_ctx();
    FILE *in = fz_open(data, size);
    tm_comm c;
    tm_err err;
    tm_comm_init(&c);
    err = rd ? rd(ctx, in, FZ_NAME, &c) : tm_comm_read(ctx, in, FZ_NAME, fmt, &c);
    fz_check_err(ctx, err, 1);
    if (err == TM_EOK) {
        err = tm_comm_check(ctx, &c);
        if (err)
            fz_die("reader returned a graph that fails tm_comm_check", err, ctx);
        (void)tm_comm_total_volume(&c);
    } else if (c.n != 0 || c.xadj || c.adj || c.w || c.vwgt) {
        fz_die("output not released after an error", err, ctx);
    }
    tm_comm_release(&c);
    fclose(in);
    tm_ctx_free(ctx);
}

#endif
