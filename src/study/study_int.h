/* study_int.h - pieces shared inside src/study (not installed). */
#ifndef TM_STUDY_INT_H
#define TM_STUDY_INT_H

#include "study.h"

/* One network to build: (topology, slots, capacity change, failure,
 * sample) in key; built, used and freed by the calling thread. */
typedef struct tm__netcase {
    tm_study_row key;
    tm_net *net;
    tm_alloc alloc;
    tm_route **routes;        /* one per routing model of the spec */
    int32_t scaled, failed;   /* cables changed */
    tm_study_status status;    /* OK or DISCONNECTED */
    bool needed;              /* a run of this shard uses it (study.c) */
    char cause[320];
} tm__netcase;

int tm__grid_count_rows(const tm_study_spec *s);
int tm__grid_count_netcases(const tm_study_spec *s);
void tm__grid_fill(const tm_study_spec *s, tm_study_row *rows, tm__netcase *nc);
int tm__grid_netcase_of(const tm__netcase *nc, int n, const tm_study_row *r);

/* Builds netcase nc (calling thread only: loads and finalizes through
 * igraph); `quiet` loads without warnings (every topology warns once). */
tm_err tm__netcase_build(tm_ctx *ctx, const tm_study_spec *s, bool quiet, tm__netcase *nc);
void tm__netcase_release(const tm_study_spec *s, tm__netcase *nc);

#endif
