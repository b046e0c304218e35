#!/usr/bin/env bash
# topomap study --shard K/N and study merge: the shards' JSON and CSV files merged are the
# unsharded study's files byte for byte (and its table and HTML page), for several splits,
# thread counts that differ between shards, options in another order, mean/worst rows of
# random failures, disconnected and infeasible rows, the default refinement and strategy
# all; every shard runs something and each run is in one shard; every wrong set of files is
# refused naming the file (exit 2, nothing written, an existing --out left alone), and every
# wrong --shard is a usage error.  docs/study.md "Shards".
set -eu
. "$(dirname "$0")/lib.sh"
stencil_edges 3 > st.edges
printf '0 2 8\n1 3 4\n' > two.edges
printf '0 2 8\n' > one.edges

# same_as_full PREFIX: PREFIX.json/.csv/.html and the table equal the unsharded ones
same_as_full() {
    cmp "$1.json" full.json
    cmp "$1.csv" full.csv
    [ ! -f full.html ] || cmp "$1.html" full.html
}

# --- grid A: 2 topologies x 2 slots x 2 capacities x (none + 3 random samples) x 2 routings
# x 2 applications x 2 strategies = 256 runs, 96 infeasible rows (27 tasks, 16 hosts, 1 slot)
A=(--topology fattree:k=4,n=2 --topology torus:4x4 --comm st.edges --comm two.edges --slots 2,1
   --scale-capacity all=0.5 --fail-links 25% --seeds 3 --routing ecmp,single
   --strategy identity,greedy --refine none)
expect_exit 0 "$TOPOMAP" study "${A[@]}" --out full.json --out full.csv --report full.html
sed '$d' stdout.txt > full-table.txt
expect_in "256 runs in" "$OUT"
[ "$(grep -c ',infeasible,' full.csv)" = 96 ] || { echo "expected 96 infeasible rows"; exit 1; }
grep -q '^mean,' full.csv && grep -q '^worst,' full.csv
for n in 1 3 8; do
    rm -f s-*.json s-*.csv
    for k in $(seq 0 $((n - 1))); do
        expect_exit 0 "$TOPOMAP" study "${A[@]}" --shard "$k/$n" --threads $((k % 3 + 1)) \
            --out "s-$k.json" --out "s-$k.csv"
        expect_in "shard $k/$n: " "$OUT"
    done
    # each run in one shard; none empty; the shard ids and totals agree
    python3 - "$n" <<'P'
import json, sys
n = int(sys.argv[1])
seen, ids = [], set()
for k in range(n):
    d = json.load(open('s-%d.json' % k))
    sh = d['shard']
    assert sh['index'] == k and sh['count'] == n and sh['rows_total'] == 384, sh
    assert d['runs'] == len(d['rows']) == len(sh['rows']) > 0
    assert all(r['stat'] == 'run' for r in d['rows'])
    seen += sh['rows']
    ids.add(sh['id'])
assert len(ids) == 1 and len(seen) == len(set(seen)) == 256, (ids, len(seen))
P
    expect_exit 0 "$TOPOMAP" study merge s-*.json --out m.json --out m.csv --report m.html
    same_as_full m
    diff full-table.txt <(sed '$d' stdout.txt)
    expect_in "256 runs, merged from $n shards" "$OUT"
    # CSV shards, in another order
    expect_exit 0 "$TOPOMAP" study merge $(ls s-*.csv | sort -r) --out mc.csv
    cmp mc.csv full.csv
done
# a shard run with its options in another order (and the same values) is the same study
expect_exit 0 "$TOPOMAP" study --refine none --strategy identity,greedy --routing ecmp,single \
    --seeds 3 --fail-links 25% --scale-capacity all=0.5 --slots 2,1 --comm st.edges --comm two.edges \
    --topology fattree:k=4,n=2 --topology torus:4x4 --out s-2.json --shard 2/8 --threads 2
expect_exit 0 "$TOPOMAP" study merge s-*.json --out m.json
cmp m.json full.json

# --- grid B: the default refinement and strategy all, disconnected rows (both roots fail),
# random failures of 4 samples; as many shards as runs (7)
B=(--topology fattree:k=2,n=2,hostcap=100 --comm one.edges --fail-switch sw-l2-001
   --fail-switch sw-l2-000,sw-l2-001 --fail-links 50% --seeds 4)
expect_exit 0 "$TOPOMAP" study "${B[@]}" --out full.json --out full.csv
rm -f full.html m.html
expect_in "7 runs in" "$OUT"
grep -q ',disconnected,' full.csv
rm -f s-*
for k in 0 1 2 3 4 5 6; do
    expect_exit 0 "$TOPOMAP" study "${B[@]}" --shard "$k/7" --threads $((k % 2 + 1)) --out "s-$k.json" \
        --out "s-$k.csv"
done
expect_exit 0 "$TOPOMAP" study merge s-*.json --out m.json --out m.csv
same_as_full m
expect_exit 0 "$TOPOMAP" study merge s-*.csv --out m.csv
cmp m.csv full.csv
# 8 shards of 7 runs: one would run nothing
expect_exit 1 "$TOPOMAP" study "${B[@]}" --shard 7/8 --out x.json
expect_in "the study has 7 runs, so at most 7 shards" "$ERR"

# --- wrong --shard values and axes (usage errors, exit 1)
for bad in 3/3 0/0 -1/3 a/b 1 1/3/4 "1 /3"; do
    expect_exit 1 "$TOPOMAP" study "${B[@]}" --shard "$bad"
    expect_in "--shard" "$ERR"
done
expect_exit 1 "$TOPOMAP" study "${B[@]}" --strategy identity,identity --shard 0/2
expect_in "--strategy 'identity' is given twice" "$ERR"
expect_exit 1 "$TOPOMAP" study "${B[@]}" --fail-links 5%,5.0000001% --shard 0/2
expect_in "failure 'links 5%' is given twice" "$ERR"

# --- wrong sets of files: exit 2, one line naming the file, nothing written
echo keep > out.json
bad_merge() { # NEEDLE FILES...
    local needle=$1; shift
    expect_exit 2 "$TOPOMAP" study merge "$@" --out out.json
    expect_in "$needle" "$ERR"
    [ "$(wc -l < stderr.txt)" -eq 1 ] || { echo "stderr is not one line: $ERR"; exit 1; }
    [ -z "$OUT" ] || { echo "wrote to stdout: $OUT"; exit 1; }
    [ "$(cat out.json)" = keep ] || { echo "out.json was changed"; exit 1; }
}
bad_merge "s-0.json: 5 of its 7 shards missing (2, 3, 4, 5, 6; given: 2 files)" s-0.json s-1.json
bad_merge "s-1.json: given twice" s-*.json s-1.json
cp s-1.json s-1b.json
bad_merge "s-1b.json: shard 1/7 is also s-1.json: each shard once" s-[0-6].json s-1b.json
rm s-1b.json
bad_merge "s-0.csv: CSV, but s-1.json is JSON" s-1.json s-0.csv s-[2-6].json
bad_merge "full.json: no 'shard' object: not the output of one shard of a study" full.json s-*.json
bad_merge "full.csv:1: 34 columns, expected 38" full.csv
bad_merge "nosuch.json: No such file or directory" s-*.json nosuch.json
# a shard of another study (other seed), of another split
expect_exit 0 "$TOPOMAP" study "${B[@]}" --seed 2 --shard 3/7 --out other.json
bad_merge "other.json: shard id" s-[0-24-6].json other.json
expect_in "not the same study (other options or changed input files)" "$ERR"
expect_exit 0 "$TOPOMAP" study "${B[@]}" --shard 3/5 --out split.json
bad_merge "split.json: shard 3/5, but s-0.json is a shard of 7" s-*.json split.json
# an input file changed between the shards
cp one.edges one.bak && printf '0 2 9\n' > one.edges
expect_exit 0 "$TOPOMAP" study "${B[@]}" --shard 3/7 --out changed.json
mv one.bak one.edges
bad_merge "changed.json: shard id" s-[0-24-6].json changed.json
# damaged files: truncated JSON (file:line), a number, a label, a row twice
head -c 300 s-3.json > trunc.json
bad_merge "trunc.json:" s-[0-24-6].json trunc.json
python3 - <<'P'
import csv, json
rows = list(csv.reader(open('s-3.csv')))
rows[1][rows[0].index('max_congestion')] = 'x'
csv.writer(open('num.csv', 'w'), lineterminator='\n').writerows(rows)
d = json.load(open('s-3.json'))
d['rows'][0]['strategy'] = 'greedy'
json.dump(d, open('label.json', 'w'), indent=2)
# a label of the grid at another row's place: the two switch failures swapped
import glob
for f in sorted(glob.glob('s-*.json')):
    d = json.load(open(f))
    r = d['rows'][0]
    if r['failure'].startswith('switch'):
        r['failure'] = {'switch sw-l2-001': 'switch sw-l2-000,sw-l2-001'}.get(r['failure'], 'switch sw-l2-001')
        json.dump(d, open('moved.json', 'w'), indent=2)
        open('moved.name', 'w').write(f)
        break
d = json.load(open('s-3.json'))
d['shard']['rows'] = json.load(open('s-4.json'))['shard']['rows']
json.dump(d, open('twice.json', 'w'), indent=2)
P
bad_merge "num.csv:2: column 'max_congestion': 'x' is not a number" s-[0-24-6].csv num.csv
bad_merge "label.json: rows[0]: strategy 'greedy' is not in the study's 'grid.strategies'" \
    s-[0-24-6].json label.json
moved=$(cat moved.name)
bad_merge "moved.json: rows[0]: row " $(ls s-*.json | grep -v "^$moved\$") moved.json
expect_in "but the study's grid has" "$ERR"
bad_merge "row" s-[0-24-6].json twice.json
expect_in "again (also s-4.json: rows[0]): the shards overlap" "$ERR"

# usage errors of merge (exit 1)
expect_exit 1 "$TOPOMAP" study merge
expect_in "give the shards' files" "$ERR"
expect_exit 1 "$TOPOMAP" study merge s-*.csv --out m.json
expect_in "--out F.json needs the shards' JSON files" "$ERR"
expect_exit 1 "$TOPOMAP" study merge s-*.json --out m.txt
expect_exit 1 "$TOPOMAP" study merge s-*.json --topology torus:4x4
expect_in "'--topology' is not an option of 'topomap study merge'" "$ERR"
# every option merge --help lists is accepted
expect_exit 0 "$TOPOMAP" study merge --help
expect_in "usage: topomap study merge" "$OUT"
for o in $(echo "$OUT" | grep -oE '^  --[a-z-]+' | sed 's/^  //'); do
    set +e; "$TOPOMAP" study merge "$o" x >/dev/null 2>stderr.txt; set -e
    case "$(cat stderr.txt)" in *"unknown or ambiguous option"* | *"not handled"*)
        echo "study merge --help lists $o, which it refuses"; exit 1 ;;
    esac
done
echo "merged: grid A in 1, 3 and 8 shards, grid B in 7; every bad set refused"
