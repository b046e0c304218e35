/* qap_secmemo.h - the splits of the network multisection, remembered
 * across its trials (internal to src/qap).
 *
 * The trials of `topdown` on a grid differ only in the orientation of the
 * coordinate bisection (which dimension is cut first on ties).  On a box
 * whose cuts give equal halves every trial builds the same binary tree of
 * capacities, so the tasks are split into the same sets; only which set
 * goes to which half of the box changes.  A split is a function of the
 * task set, the tasks each child receives and the METIS seed, so with a
 * seed drawn from the set itself (not from the tree node or the trial)
 * the later trials find every split of the first one here and only orient
 * them: one trial's METIS work instead of six. */
#ifndef TM_QAP_SECMEMO_H
#define TM_QAP_SECMEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tm__secsplit {
    uint64_t h;
    int32_t nv, a;        /* tasks, children of the node */
    int32_t *verts;       /* the task set, ascending */
    int64_t *tg;          /* tasks per child (a entries) */
    int32_t *part;        /* block of verts[i] among the active children */
} tm__secsplit;

typedef struct tm__secmemo {
    tm__secsplit *e;
    size_t n, cap;
    int32_t *slot;        /* open addressing: index into e, -1 = empty */
    size_t nslot;         /* power of two or 0 */
} tm__secmemo;

void tm__secmemo_init(tm__secmemo *m);
void tm__secmemo_release(tm__secmemo *m);
/* Key of a split: the task set and the tasks per child. */
uint64_t tm__secmemo_hash(const int32_t *verts, int32_t nv, const int64_t *tg, int32_t a);
/* The remembered blocks of that split, or NULL. */
const int32_t *tm__secmemo_find(const tm__secmemo *m, uint64_t h, const int32_t *verts, int32_t nv,
                                const int64_t *tg, int32_t a);
/* Remembers a split (copies everything); -1 on OOM. */
int tm__secmemo_add(tm__secmemo *m, uint64_t h, const int32_t *verts, int32_t nv,
                    const int64_t *tg, int32_t a, const int32_t *part);
/* Renames the tasks of every split, task u becoming to[u] (a permutation
 * of the task ids), so that the trials after the first can run on the
 * task graph renumbered in the first one's order; -1 on OOM (the memo is
 * then only fit for tm__secmemo_release). */
int tm__secmemo_relabel(tm__secmemo *m, const int32_t *to);

#endif
