#!/usr/bin/env bash
# The answer for a given seed and no time limit is the same for 1, 2, 3 and
# 8 threads: general process mapping (the parallel multisection, whose top
# split shares its METIS tries out as trials), the network multisection
# (waves of parallel partitions), the portfolio of "all" with a chain, and
# the default pipeline at its default effort and at --effort 3.
set -eu
. "$(dirname "$0")/lib.sh"
# under the sanitizers 1 and 3 threads only (3 threads on 2 cores still preempt inside the
# parallel sections): every run costs several times more there
threads="1 2 3 8"
if sanitized; then threads="1 3"; fi
# 28^3 grid, 21,952 tasks: large enough for 2 trials per top bisection
python3 - > grid.graph <<'P'
n = 28
def idx(x, y, z): return x + n * (y + n * z)
adj = [[] for _ in range(n ** 3)]
for z in range(n):
    for y in range(n):
        for x in range(n):
            for dx, dy, dz in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
                a, b, c = x + dx, y + dy, z + dz
                if a < n and b < n and c < n:
                    adj[idx(x, y, z)].append(idx(a, b, c))
                    adj[idx(a, b, c)].append(idx(x, y, z))
print(n ** 3, sum(len(l) for l in adj) // 2)
for l in adj:
    print(" ".join(str(v + 1) for v in l))
P
stencil_edges 6 > st.edges
alloc=$(python3 -c "import random; r=random.Random(5); h=['n%04d'%i for i in range(216)]; r.shuffle(h); print(','.join(h))")
for t in $threads; do
    expect_exit 0 "$TOPOMAP" map --hierarchy 4:4:4 --distances 1:10:100 --comm grid.graph \
        --strategy topdown --refine nc:1 --imbalance 0.03 --threads $t --seed 2 --out h$t.txt
    expect_exit 0 "$TOPOMAP" map --topology torus:6x6x6 --comm st.edges --alloc "$alloc" \
        --strategy topdown --refine none --threads $t --seed 2 --out n$t.txt
    expect_exit 0 "$TOPOMAP" map --topology torus:6x6x6 --comm st.edges --alloc "$alloc" \
        --strategy all --refine ils:2+ta --threads $t --seed 2 --out a$t.txt
    # the default pipeline, at its default effort and at effort 3 (topdown's other
    # orientations and greedy's other starts, levels 1-3)
    expect_exit 0 "$TOPOMAP" map --topology torus:6x6x6 --comm st.edges --alloc "$alloc" \
        --threads $t --seed 2 --out d$t.txt
    expect_exit 0 "$TOPOMAP" map --topology torus:6x6x6 --comm st.edges --alloc "$alloc" \
        --effort 3 --threads $t --seed 2 --out e$t.txt
done
for t in ${threads#1 }; do
    cmp h1.txt h$t.txt
    cmp n1.txt n$t.txt
    cmp a1.txt a$t.txt
    cmp d1.txt d$t.txt
    cmp e1.txt e$t.txt
done
# at most ceil(1.03 * 21952 / 64) = 354 tasks per PE
[ "$(sort -n h1.txt | uniq -c | sort -n | tail -1 | awk '{print $1}')" -le 354 ]
