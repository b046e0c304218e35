/* grid.c - the rows of a study and the networks they need.
 *
 * Rows come in grid order: topology > slots > capacity change > failure >
 * routing > application > failure sample > strategy, and after the samples
 * of a random failure (when there are several) one mean row per strategy,
 * then one worst row per strategy.  A "netcase" is one network to build:
 * (topology, slots, capacity change, failure, sample); the routing models
 * and applications of a netcase share its network. */
#include <stdlib.h>
#include <string.h>

#include "../util/util.h"
#include "study_int.h"

static int samples_of(const tm_study_spec *s, int f)
{
    return s->failures[f].kind == TM_STUDY_FAIL_RANDOM ? s->samples : 1;
}

static bool has_summary(const tm_study_spec *s, int f)
{
    return s->failures[f].kind == TM_STUDY_FAIL_RANDOM && s->samples > 1;
}

/* Appends the rows of one (netcase block, routing, application). */
static void block_rows(const tm_study_spec *s, tm_study_row *key, tm_study_row *rows, int *n)
{
    int ns = samples_of(s, key->failure);
    for (int smp = 0; smp < ns; smp++)
        for (int st = 0; st < s->n_strategies; st++) {
            tm_study_row *r = &rows[(*n)++];
            *r = *key;
            r->stat = TM_STUDY_RUN;
            r->sample = s->failures[key->failure].kind == TM_STUDY_FAIL_RANDOM ? smp + 1 : 0;
            r->strategy = st;
        }
    if (!has_summary(s, key->failure))
        return;
    for (int k = 0; k < 2; k++)
        for (int st = 0; st < s->n_strategies; st++) {
            tm_study_row *r = &rows[(*n)++];
            *r = *key;
            r->stat = k == 0 ? TM_STUDY_MEAN : TM_STUDY_WORST;
            r->strategy = st;
        }
}

int tm__grid_count_rows(const tm_study_spec *s)
{
    long per = 0;
    for (int f = 0; f < s->n_failures; f++)
        per += (long)samples_of(s, f) * s->n_strategies + (has_summary(s, f) ? 2 * s->n_strategies : 0);
    return (int)(per * s->n_topologies * s->n_slots * s->n_scales * s->n_routings * s->n_comms);
}

int tm__grid_count_netcases(const tm_study_spec *s)
{
    long per = 0;
    for (int f = 0; f < s->n_failures; f++)
        per += samples_of(s, f);
    return (int)(per * s->n_topologies * s->n_slots * s->n_scales);
}

/* Fills rows (tm__grid_count_rows entries) and netcase keys. */
void tm__grid_fill(const tm_study_spec *s, tm_study_row *rows, tm__netcase *nc)
{
    int n = 0, k = 0;
    tm_study_row key;
    memset(&key, 0, sizeof key);
    for (key.topology = 0; key.topology < s->n_topologies; key.topology++)
        for (key.slots = 0; key.slots < s->n_slots; key.slots++)
            for (key.scale = 0; key.scale < s->n_scales; key.scale++)
                for (key.failure = 0; key.failure < s->n_failures; key.failure++) {
                    for (int smp = 0; smp < samples_of(s, key.failure); smp++, k++) {
                        nc[k].key = key;
                        bool random = s->failures[key.failure].kind == TM_STUDY_FAIL_RANDOM;
                        nc[k].key.sample = random ? smp + 1 : 0;
                    }
                    for (key.routing = 0; key.routing < s->n_routings; key.routing++)
                        for (key.comm = 0; key.comm < s->n_comms; key.comm++)
                            block_rows(s, &key, rows, &n);
                    key.routing = key.comm = 0;
                }
}

/* Index of the netcase of a run row: netcases are in the same nested
 * order, so it is found by its key (few netcases; linear is fine). */
int tm__grid_netcase_of(const tm__netcase *nc, int n, const tm_study_row *r)
{
    for (int i = 0; i < n; i++) {
        const tm_study_row *k = &nc[i].key;
        if (k->topology == r->topology && k->slots == r->slots && k->scale == r->scale &&
            k->failure == r->failure && k->sample == r->sample)
            return i;
    }
    return -1;
}
