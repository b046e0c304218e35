#!/bin/sh
# run.sh BUILD_DIR - the benchmarks of issue 2 (make bench).  Each case runs
# in its own process so that its peak RSS is its own.  Timings are medians
# of 5 runs (see each program's header); not a timed test.
set -e
B=${1:-build}
cd "$(dirname "$0")/../.."
status=0

echo "== exact congestion (tools/bench/bench_metrics.c) =="
echo "   targets: torus 1,728 tasks < 0.1 s; PERCS 1,792 tasks < 0.5 s"
if [ -x "$B/bench_metrics" ]; then
    for args in "torus ecmp 1" "torus dor 1" "torus ecmp 1 random baseline" "torus ecmp 2 random" \
                "percs ecmp 1" "percs ecmp 2" "percs ecmp 1 random baseline" "percs single 1" "percs approx 1" \
                "torus-msg ecmp 1" "percs-msg ecmp 1" "percs-msg ecmp 1 random"; do
        # shellcheck disable=SC2086
        "$B/bench_metrics" $args || status=1
    done
else
    echo "missing $B/bench_metrics (run make bench)" >&2
    status=1
fi

echo "== loading a 4,000-host fat-tree ibnetdiscover dump (tools/bench/bench_ibnet.c) =="
echo "   target: < 0.3 s"
if [ -x "$B/bench_ibnet" ]; then
    "$B/bench_ibnet" || status=1
    "$B/bench_ibnet" fattree:k=16,n=3 || status=1
else
    echo "missing $B/bench_ibnet" >&2
    status=1
fi

if [ -x "$B/bench_gen" ]; then
    echo "== network generators (tools/bench/bench_gen.c) =="
    "$B/bench_gen" || status=1
fi
if [ -x "$B/bench_netdist" ]; then
    echo "== hop-distance oracle (tools/bench/bench_netdist.c) =="
    "$B/bench_netdist" || status=1
fi
if [ -x "$B/bench_igraph_bfs" ]; then
    echo "== hop-distance rows: igraph_distances vs CSR BFS (tools/bench/bench_igraph_bfs.c) =="
    "$B/bench_igraph_bfs" || status=1
fi
# Threads on general process mapping (tools/bench/parallel.sh, docs/parallel.md).
echo "== threads: rgg16 -> 4:16:16, topdown+nc:1, 1 vs 2 threads (tools/bench/parallel.sh) =="
tools/bench/parallel.sh "$B" || status=1
# Time and peak RSS against size (tools/bench/scale.sh, docs/performance.md);
# `make bench-scale` runs the full range (SCALE_SIZES here, default 4k, 16k).
echo "== scaling (tools/bench/scale.sh) =="
tools/bench/scale.sh "$B" "${SCALE_SIZES:-4096 16384}" || status=1
# Mapping strategies and threshold accepting (tools/bench/map.sh, docs/mapping.md).
echo "== mapping (tools/bench/map.sh) =="
tools/bench/map.sh "$B" || status=1
# Hierarchical QAP (tools/bench/qap/run.sh, docs/qap.md): Scotch and gpmetis
# come from `make deps FOR=bench` (bench only, not needed by tests).
echo "== hierarchical QAP (tools/bench/qap/run.sh) =="
if { command -v scotch_gmap && command -v gpmetis; } >/dev/null; then
    tools/bench/qap/run.sh "$B" || status=1
else
    echo "Scotch (scotch_gmap) or gpmetis is not installed: 'make deps FOR=bench' installs them"
    status=1
fi
exit $status
