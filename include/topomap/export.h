/*
 * topomap/export.h - TM_API marks the functions of the public API.
 *
 * The library is compiled with -fvisibility=hidden, so libtopomap.so
 * exports exactly the functions declared with TM_API in include/topomap/
 * and none of the internal tm__ ones (tests/cli/t90-exports.sh checks
 * both directions).  Programs linking libtopomap.a see every symbol, as
 * with any static library.
 */
#ifndef TOPOMAP_EXPORT_H
#define TOPOMAP_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define TM_API __attribute__((visibility("default")))
#else
#define TM_API
#endif

#endif
