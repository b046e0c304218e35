#!/bin/sh
# tools/bench/parallel.sh BUILD [REPS] - threads on general process mapping
# (docs/parallel.md): rgg16 (65,536-vertex random geometric graph, made by
# ../shared/bench/qap/make_instances.py) onto 4:16:16 with 3% imbalance,
# topdown + nc:1, 1 and 2 threads, REPS runs each (default 3, runs
# alternate).  Prints every run (J must not depend on the thread count),
# the busy seconds of each multisection thread, and the median speed-up;
# then the machine's own ceiling: two 1-thread runs started together (on
# a machine whose two vCPUs share one core's execution units, no program
# gets 2x from 2 threads: docs/parallel.md).
set -eu
B=${1:-build}
REPS=${2:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
OUT=$B/bench-parallel
mkdir -p "$OUT"
DRV=$OUT/qap_bench
cc -std=c11 -D_GNU_SOURCE -O2 -I"$ROOT/include" -I"$ROOT/src" "$HERE/qap/qap_bench.c" \
   "$B/libtopomap.a" $(pkg-config --libs igraph libxml-2.0) -lmetis -lpthread -lm -o "$DRV"
G=$OUT/rgg16.graph
[ -f "$G" ] || WORK=$OUT python3 "$SHARED/bench/qap/make_instances.py" --base-only >/dev/null 2>&1
echo "rgg16 -> 4:16:16, 3%, topdown+nc:1, seed 1; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'threads\tJ\ttime_s\tbusy_s_per_thread\n'
: > "$OUT/times.tsv"
r=0
while [ $r -lt "$REPS" ]; do
    for t in 1 2; do
        line=$(QAP_BENCH_LOG=1 "$DRV" "$G" 4:16:16 1:10:100 topdown+nc:1 0.03 $t 1 2> "$OUT/log")
        busy=$(sed -n 's/^# multisection: .*busy s: *//p' "$OUT/log" | tr '\n' '|' | sed 's/|$//')
        j=$(echo "$line" | cut -f3)
        s=$(echo "$line" | cut -f4)
        printf '%s\t%s\t%s\t%s\n' $t "$j" "$s" "${busy:--}"
        printf '%s\t%s\t%s\n' $t "$j" "$s" >> "$OUT/times.tsv"
    done
    r=$((r + 1))
done
# the ceiling: two independent 1-thread runs at once
"$DRV" "$G" 4:16:16 1:10:100 topdown+nc:1 0.03 1 1 2>/dev/null | cut -f4 > "$OUT/pair1" &
"$DRV" "$G" 4:16:16 1:10:100 topdown+nc:1 0.03 1 1 2>/dev/null | cut -f4 > "$OUT/pair2"
wait
python3 - "$OUT/times.tsv" "$OUT/pair1" "$OUT/pair2" <<'P'
import sys, statistics
rows = [l.split('\t') for l in open(sys.argv[1]).read().split('\n') if l]
t = {k: [float(r[2]) for r in rows if r[0] == k] for k in ('1', '2')}
js = {r[1] for r in rows}
m1, m2 = statistics.median(t['1']), statistics.median(t['2'])
print("median: 1 thread %.2f s, 2 threads %.2f s, speed-up %.2fx; J %s" %
      (m1, m2, m1 / m2, "identical (%s)" % js.pop() if len(js) == 1 else "DIFFERS: %s" % sorted(js)))
pair = max(float(open(f).read()) for f in sys.argv[2:4])
print("ceiling: two 1-thread runs at once take %.2f s each (alone %.2f s): 2 threads can give at most %.2fx here" %
      (pair, m1, 2 * m1 / pair))
sys.exit(0 if len({r[1] for r in rows}) == 1 else 1)
P
