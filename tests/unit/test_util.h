/* test_util.h - shared helpers for the CMocka unit tests. */
#ifndef TM_TEST_UTIL_H
#define TM_TEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 in the sanitizer builds (make test-asan, test-tsan), whose runs cost
 * several times more: the longest loops of a test are cut there to keep
 * make test within its 15 minutes (the plain build runs them whole). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TM_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TM_TEST_SANITIZED 1
#endif
#endif
#ifndef TM_TEST_SANITIZED
#define TM_TEST_SANITIZED 0
#endif

#include "topomap/topomap.h"

/* Path of a file under tests/data (TM_TEST_DATA, else tests/data relative to
 * the working directory); sub is "" or "real/" (third-party inputs copied
 * byte for byte, tests/data/PROVENANCE.md).  The repository holds every
 * input a test reads: nothing outside the checkout is needed. */
static inline const char *tm_test_path(const char *sub, const char *rel)
{
    static _Thread_local char buf[4096];
    const char *base = getenv("TM_TEST_DATA");
    snprintf(buf, sizeof buf, "%s/%s%s", base ? base : "tests/data", sub, rel);
    return buf;
}
#define TEST_DATA(rel) tm_test_path("", rel)
#define REAL_DATA(rel) tm_test_path("real/", rel)

/* A FILE* over a string literal. */
static inline FILE *tm_test_memfile(const char *text)
{
    return fmemopen((void *)text, strlen(text), "r");
}

/* Asserts that call returns err and that the context message contains
 * the substring `needle`. */
#define assert_tm_error(ctx, call, err, needle)                                   \
    do {                                                                          \
        tm_err e_ = (call);                                                       \
        if (e_ != (err) || !strstr(tm_ctx_errmsg(ctx), (needle)))                 \
            fail_msg("expected error %d containing '%s', got %d: '%s'", (int)(err), \
                     (needle), (int)e_, tm_ctx_errmsg(ctx));                      \
    } while (0)

#define assert_tm_ok(ctx, call)                                                   \
    do {                                                                          \
        tm_err e_ = (call);                                                       \
        if (e_ != TM_EOK)                                                         \
            fail_msg("unexpected error %d: %s", (int)e_, tm_ctx_errmsg(ctx));    \
    } while (0)

#endif
