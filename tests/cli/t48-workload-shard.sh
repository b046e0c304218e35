#!/usr/bin/env bash
# topomap workload eval --shard K/N, workload replay --policy as-recorded --shard K/N and
# workload merge (docs/workload.md "Shards"): the shards' JSON and CSV files merged are the
# unsharded command's files byte for byte (and its tables, its HTML page for a replay), for
# several splits, thread counts that differ between shards, options in another order, --at;
# every shard has a row and each row is in one shard; every wrong set of files is refused
# naming the file (exit 2, nothing written, an existing --out left alone), and every wrong
# --shard or merge option is a usage error (exit 1).
set -eu
. "$(dirname "$0")/lib.sh"
X=$TOPO_DIR/psmn-x5
# the X5 day with its matrix next to it (a copy: one test changes it)
sed 's|\.\./comm/lulesh-64\.graphStats\.txt|lulesh-64.graphStats.txt|' "$X/jobs-day.txt" > day.txt
cp "$TOPO_DIR/comm/lulesh-64.graphStats.txt" .
grep -q '|lulesh-64.graphStats.txt|' day.txt
T=(--topology "$X/X5.topofile" --node-name-map "$X/X5.map")
EVAL=(workload eval "${T[@]}" --jobs day.txt --routing minhop)
REPLAY=(workload replay "${T[@]}" --trace day.txt --routing minhop --policy as-recorded)

# same_as_full PREFIX: PREFIX.json/.csv (and .html) equal the unsharded ones
same_as_full() {
    cmp "$1.json" full.json
    cmp "$1.csv" full.csv
    [ ! -f full.html ] || cmp "$1.html" full.html
}
# tables FILE: the tables of a run's stdout (without the lines about the run: its inputs,
# time, shard, report)
tables() { grep -v -E '^(topology|trace|jobs|time|report|merged|shard) ' "$1" | grep -v '^$'; }
# check_split PREFIX N TOTAL: the shards' JSON PREFIX-K.json have every row once, none is
# empty, one id, and no statistics of the whole set
check_split() {
    python3 - "$1" "$2" "$3" <<'P'
import json, sys
pre, n, total = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
seen, ids = [], set()
for k in range(n):
    d = json.load(open('%s-%d.json' % (pre, k)))
    sh = d['shard']
    assert sh['index'] == k and sh['count'] == n and sh['rows_total'] == total, sh
    assert len(d['jobs']) == len(sh['rows']) > 0, (k, sh)
    assert 'time_s' not in d and 'slowdown' not in d and 'summary' not in d, sorted(d)
    seen += sh['rows']
    ids.add(sh['id'])
assert len(ids) == 1 and sorted(seen) == list(range(total)), (ids, sorted(seen))
P
}

step "eval: the unsharded files"
expect_exit 0 "$TOPOMAP" "${EVAL[@]}" --out full.json --out full.csv
echo "$OUT" > full.txt
python3 -c "import json; d = json.load(open('full.json')); assert 'time_s' not in d and d['n_jobs'] == 35"
expect_exit 0 "$TOPOMAP" "${EVAL[@]}" --json
python3 - full.json <<P
import json, sys
d, f = json.loads('''$OUT'''), json.load(open(sys.argv[1]))
assert d.pop('time_s') >= 0 and d == f   # stdout has the run time, the file does not
P
for n in 1 3 7; do
    step "eval in $n shards"
    rm -f s-*
    for k in $(seq 0 $((n - 1))); do
        expect_exit 0 "$TOPOMAP" "${EVAL[@]}" --shard "$k/$n" --threads $((k % 3 + 1)) \
            --out "s-$k.json" --out "s-$k.csv"
        expect_in "shard        $k/$n: " "$OUT"
    done
    check_split s "$n" 35
    expect_exit 0 "$TOPOMAP" workload merge s-*.json --out m.json --out m.csv
    same_as_full m
    expect_in "merged       35 rows of a workload eval from $n shards" "$OUT"
    diff <(tables full.txt) <(tables stdout.txt)
    # CSV shards, in another order
    expect_exit 0 "$TOPOMAP" workload merge $(ls s-*.csv | sort -r) --out mc.csv
    cmp mc.csv full.csv
    expect_exit 0 "$TOPOMAP" workload merge s-*.json --json
    cmp stdout.txt full.json
done
step "eval: options in another order, another thread count: the same run"
expect_exit 0 "$TOPOMAP" workload eval --routing minhop --jobs day.txt --threads 2 --shard 2/7 \
    "${T[@]}" --out s-2.json
expect_exit 0 "$TOPOMAP" workload merge s-*.json --out m.json
cmp m.json full.json

step "eval --at: the running jobs' rows"
AT=(--at 2024-03-05T10:00:00)
expect_exit 0 "$TOPOMAP" "${EVAL[@]}" "${AT[@]}" --out at.json --out at.csv
running=$(python3 -c "import json; print(json.load(open('at.json'))['n_running'])")
[ "$running" -ge 4 ] && [ "$running" -lt 35 ]
rm -f a-*
for k in 0 1 2 3; do
    expect_exit 0 "$TOPOMAP" "${EVAL[@]}" "${AT[@]}" --shard "$k/4" --out "a-$k.json" --out "a-$k.csv"
done
expect_exit 0 "$TOPOMAP" workload merge a-*.json --out am.json
cmp am.json at.json
expect_exit 0 "$TOPOMAP" workload merge a-*.csv --out am.csv
cmp am.csv at.csv
expect_exit 1 "$TOPOMAP" "${EVAL[@]}" "${AT[@]}" --shard "$running/$((running + 1))"
expect_in "$running jobs run at --at, so at most $running shards" "$ERR"

step "replay as-recorded: the unsharded files and page"
expect_exit 0 "$TOPOMAP" "${REPLAY[@]}" --out rfull.json --out rfull.csv --report rfull.html
echo "$OUT" > rfull.txt
for n in 2 5; do
    step "replay in $n shards"
    rm -f r-*
    for k in $(seq 0 $((n - 1))); do
        expect_exit 0 "$TOPOMAP" "${REPLAY[@]}" --shard "$k/$n" --threads $((k % 2 + 1)) \
            --out "r-$k.json" --out "r-$k.csv"
    done
    check_split r "$n" 35
    expect_exit 0 "$TOPOMAP" workload merge r-*.json --out rm.json --out rm.csv --report rm.html
    cmp rm.json rfull.json && cmp rm.csv rfull.csv && cmp rm.html rfull.html
    diff <(tables rfull.txt) <(tables stdout.txt)
    expect_in "merged       35 rows of a workload replay from $n shards" "$OUT"
    expect_exit 0 "$TOPOMAP" workload merge r-*.csv --out rmc.csv
    cmp rmc.csv rfull.csv
done

step "wrong --shard: usage errors"
for bad in 3/3 0/0 -1/3 a/b 1 1/3/4 "1 /3"; do
    expect_exit 1 "$TOPOMAP" "${EVAL[@]}" --shard "$bad"
    expect_in "--shard" "$ERR"
done
expect_exit 1 "$TOPOMAP" "${EVAL[@]}" --shard 35/36
expect_in "35 jobs in the jobs file, so at most 35 shards" "$ERR"
expect_exit 1 "$TOPOMAP" workload replay "${T[@]}" --trace day.txt --shard 0/2
expect_in "--shard needs --policy as-recorded" "$ERR"
expect_exit 1 "$TOPOMAP" workload replay "${T[@]}" --trace day.txt --policy as-recorded,random \
    --shard 0/2
expect_in "--shard needs --policy as-recorded" "$ERR"
expect_exit 1 "$TOPOMAP" "${REPLAY[@]}" --shard 0/2 --report x.html
expect_in "give --report to 'topomap workload merge'" "$ERR"
expect_exit 1 "$TOPOMAP" "${EVAL[@]}" --shard 0/2 --report x.html
expect_in "--report with --shard" "$ERR"
expect_exit 1 "$TOPOMAP" "${REPLAY[@]}" --shard 35/36
expect_in "the trace has 35 jobs, so at most 35 shards" "$ERR"
expect_exit 1 "$TOPOMAP" alloc "${T[@]}" --nodes 2 --shard 0/2
expect_in "'--shard' is not an option of 'topomap alloc'" "$ERR"

step "wrong sets of files: exit 2, one line naming the file, nothing written"
rm -f s-*
for k in 0 1 2; do
    expect_exit 0 "$TOPOMAP" "${EVAL[@]}" --shard "$k/3" --out "s-$k.json" --out "s-$k.csv"
done
echo keep > out.json
bad_merge() { # NEEDLE FILES...
    local needle=$1; shift
    expect_exit 2 "$TOPOMAP" workload merge "$@" --out out.json
    expect_in "$needle" "$ERR"
    [ "$(wc -l < stderr.txt)" -eq 1 ] || { echo "stderr is not one line: $ERR"; exit 1; }
    [ -z "$OUT" ] || { echo "wrote to stdout: $OUT"; exit 1; }
    [ "$(cat out.json)" = keep ] || { echo "out.json was changed"; exit 1; }
}
bad_merge "s-0.json: 1 of its 3 shards missing (2; given: 2 files)" s-0.json s-1.json
bad_merge "s-1.json: given twice" s-*.json s-1.json
cp s-1.json s-1b.json
bad_merge "s-1b.json: shard 1/3 is also s-1.json: each shard once" s-[0-2].json s-1b.json
rm s-1b.json
bad_merge "s-0.csv: CSV, but s-1.json is JSON" s-1.json s-0.csv s-2.json
bad_merge "full.json: no 'shard' object: not the output of one shard of a workload eval" \
    full.json s-*.json
bad_merge "full.csv:1: 21 columns, expected 25" full.csv
bad_merge "nosuch.json: No such file or directory" s-*.json nosuch.json
: > empty.csv
bad_merge "empty.csv: empty file: not the output of a shard" empty.csv
head -1 s-0.csv > header.csv
bad_merge "header.csv: a header and no row" header.csv s-1.csv s-2.csv
# a shard of another run (other routing), of another split, of a replay
expect_exit 0 "$TOPOMAP" workload eval "${T[@]}" --jobs day.txt --routing ecmp --shard 2/3 \
    --out other.json
bad_merge "other.json: shard id" s-0.json s-1.json other.json
expect_in "not the same workload eval (other options or changed input files)" "$ERR"
expect_exit 0 "$TOPOMAP" "${EVAL[@]}" --shard 2/5 --out split.json
bad_merge "split.json: shard 2/5, but s-0.json is a shard of 3" s-*.json split.json
bad_merge "r-1.json: shard 1/5, but s-0.json is a shard of 3" s-0.json r-1.json
bad_merge "s-0.json: shard 0/3, but r-0.json is a shard of 5" r-0.json s-0.json
expect_exit 0 "$TOPOMAP" "${REPLAY[@]}" --shard 0/3 --out rs0.json --out rs0.csv
bad_merge "rs0.json: shard id" s-1.json s-2.json rs0.json
bad_merge "s-1.csv:1: column 1 is 'job', expected 'policy'" rs0.csv s-1.csv s-2.csv
# a changed jobs file, and a changed matrix file it names, between the shards
cp day.txt day.bak && sed -i 's/^4139|/4139x|/' day.txt
expect_exit 0 "$TOPOMAP" "${EVAL[@]}" --shard 2/3 --out changed.json
mv day.bak day.txt
bad_merge "changed.json: shard id" s-0.json s-1.json changed.json
cp lulesh-64.graphStats.txt m.bak && sed -i '1s/$/ /' lulesh-64.graphStats.txt
expect_exit 0 "$TOPOMAP" "${EVAL[@]}" --shard 2/3 --out changed.json
mv m.bak lulesh-64.graphStats.txt
bad_merge "changed.json: shard id" s-0.json s-1.json changed.json
# a study's shard
printf '0 1 8\n' > one.edges
expect_exit 0 "$TOPOMAP" study --topology torus:2x2 --comm one.edges --shard 0/1 --out study.csv \
    --out study.json
bad_merge "study.csv:1: column 1 is 'stat', expected 'job'" study.csv
bad_merge "study.json: 'jobs' is missing, expected a list" study.json

step "damaged files"
head -c 300 s-2.json > trunc.json
bad_merge "trunc.json:" s-0.json s-1.json trunc.json
python3 - <<'P'
import csv, json
def dump(d, name):
    json.dump(d, open(name, 'w'), indent=2)
rows = list(csv.reader(open('s-2.csv')))
rows[1][rows[0].index('slowdown')] = 'x'
csv.writer(open('num.csv', 'w'), lineterminator='\n').writerows(rows)
rows = list(csv.reader(open('s-2.csv')))
rows[1][rows[0].index('time_approximate')] = 'maybe'
csv.writer(open('bool.csv', 'w'), lineterminator='\n').writerows(rows)
d = json.load(open('s-2.json'))
d['jobs'][0]['index'] = d['jobs'][1]['index']           # a job out of its place
dump(d, 'index.json')
d = json.load(open('s-2.json'))
d['jobs'][0]['alone']['max_congestion'] = 'high'
dump(d, 'figure.json')
d = json.load(open('s-2.json'))
d['jobs'][0]['shares_with'] = [4100, '4101']
dump(d, 'list.json')
d = json.load(open('s-2.json'))
del d['jobs'][0]['slowdown']
dump(d, 'missing.json')
d = json.load(open('s-2.json'))
d['shard']['rows'] = json.load(open('s-1.json'))['shard']['rows'][:len(d['jobs'])]
d['jobs'] = d['jobs'][:len(d['shard']['rows'])]
dump(d, 'twice.json')
d = json.load(open('s-2.json'))
d['shard']['rows'] = d['shard']['rows'][:-1]
d['jobs'] = d['jobs'][:-1]
dump(d, 'short.json')
for name in ('s-0.json', 's-1.json', 's-2.json'):   # the same change in every file
    d = json.load(open(name))
    d['n_running'] = 34
    dump(d, 'n-' + name)
r = json.load(open('r-1.json'))
r['jobs'][0]['policy'] = 'random'
dump(r, 'policy.json')
P
bad_merge "num.csv:2: column 'slowdown': 'x' is not a number" s-0.csv s-1.csv num.csv
bad_merge "bool.csv:2: column 'time_approximate': 'maybe' is not true or false" \
    s-0.csv s-1.csv bool.csv
bad_merge "index.json: jobs[0]: index" s-0.json s-1.json index.json
expect_in "the rows are the jobs in file order" "$ERR"
bad_merge "figure.json: jobs[0]: key 'alone.max_congestion' is not a number" \
    s-0.json s-1.json figure.json
bad_merge "list.json: jobs[0]: key 'shares_with' item 0 is not a string" s-0.json s-1.json list.json
bad_merge "missing.json: jobs[0]: key 'slowdown' is missing" s-0.json s-1.json missing.json
bad_merge "again (also s-1.json: jobs[0]): the shards overlap" s-0.json s-1.json twice.json
bad_merge "is in no shard" s-0.json s-1.json short.json
bad_merge "n-s-0.json: n_running is 34, but the shards have 35 rows in all" n-s-*.json
bad_merge "policy.json: jobs[0]: policy 'random': only as-recorded replays are sharded" \
    r-0.json policy.json r-[2-4].json

step "usage errors of merge (exit 1)"
expect_exit 1 "$TOPOMAP" workload merge
expect_in "give the shards' files" "$ERR"
expect_exit 1 "$TOPOMAP" workload merge s-*.csv --out u.json
expect_in "--out F.json needs the shards' JSON files" "$ERR"
expect_exit 1 "$TOPOMAP" workload merge s-*.csv --json
expect_in "--json needs the shards' JSON files" "$ERR"
expect_exit 1 "$TOPOMAP" workload merge s-*.json --report u.html
expect_in "the page of a workload eval draws the fabric" "$ERR"
expect_exit 1 "$TOPOMAP" workload merge r-*.csv --report u.html
expect_in "--report needs the shards' JSON files" "$ERR"
[ ! -e u.html ] && [ ! -e u.json ]
expect_exit 1 "$TOPOMAP" workload merge s-*.json --out u.txt
expect_exit 1 "$TOPOMAP" workload merge s-*.json --topology torus:4x4
expect_in "'--topology' is not an option of 'topomap workload merge'" "$ERR"
# every option merge --help lists is accepted
expect_exit 0 "$TOPOMAP" workload merge --help
expect_in "usage: topomap workload merge" "$OUT"
for o in $(echo "$OUT" | grep -oE '^  --[a-z-]+' | sed 's/^  //'); do
    set +e; "$TOPOMAP" workload merge "$o" x >/dev/null 2>stderr.txt; set -e
    case "$(cat stderr.txt)" in *"unknown or ambiguous option"* | *"not handled"*)
        echo "workload merge --help lists $o, which it refuses"; exit 1 ;;
    esac
done
echo "merged: eval in 1, 3 and 7 shards, --at in 4, as-recorded replay in 2 and 5; every bad set refused"
