#!/usr/bin/env bash
# topomap workload replay (docs/workload.md "replay"): the X5 day of topologies/psmn-x5 under
# every policy; the as-recorded figures of a job and of the fabric are those `workload eval
# --at` gives for the jobs running then; --out CSV/JSON; the HTML pages of replay and eval are
# self-contained and render in headless Chromium without any request.
set -eu
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
T="--topology $TOPO_DIR/psmn-x5/X5.topofile --node-name-map $TOPO_DIR/psmn-x5/X5.map"
DAY=$TOPO_DIR/psmn-x5/jobs-day.txt

# 1. every policy
expect_exit 0 "$TOPOMAP" workload replay $T --trace $DAY --routing minhop --json --out r.csv \
    --out r.json --report r.html
echo "$OUT" > all.json
python3 - all.json r.json r.csv <<'P'
import csv, json, sys
d, f = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
pol = ["as-recorded", "slurm-tree", "random", "topomap"]
assert d["policies"] == pol and [s["policy"] for s in d["summary"]] == pol
n = d["n_jobs"]
assert n == 35 and len(d["jobs"]) == 4 * n
for s in d["summary"]:
    st = s["slowdown"]
    assert s["jobs"] == n and st["jobs"] + s["not_placed"] == n
    assert st["min"] <= st["median"] <= st["p90"] <= st["p99"] <= st["max"], st
    assert s["max_congestion_mean"] <= s["max_congestion_peak"]
for j in d["jobs"]:
    if j["placed"]:
        assert j["slowdown"] <= j["worst_slowdown"] * (1 + 1e-12), j
        assert j["intervals"] >= 1
# the timeline covers the trace for every policy, without gaps
for p in pol:
    tl = [t for t in d["timeline"] if t["policy"] == p]
    assert tl[0]["t0"] == 0 and all(a["t1"] == b["t0"] for a, b in zip(tl, tl[1:])), p
# on this scattered day, compact picks slow nobody down; the recorded and random ones do
summ = {s["policy"]: s["slowdown"] for s in d["summary"]}
assert summ["topomap"]["mean"] <= summ["as-recorded"]["mean"] < summ["random"]["mean"], summ
assert summ["topomap"]["max"] <= 1.05, summ
# --out: the same rows
assert f["jobs"] == d["jobs"] and f["summary"] == d["summary"]
rows = list(csv.DictReader(open(sys.argv[3])))
assert len(rows) == 4 * n and [r["policy"] for r in rows[::n]] == pol
for r, j in zip(rows, d["jobs"]):
    assert r["job"] == j["job"] and r["placed"] == ("true" if j["placed"] else "false")
    if j["placed"]:
        assert float(r["slowdown"]) == j["slowdown"] and r["nodes"] == j["nodes"]
print("X5 day:", ", ".join("%s %.3fx" % (p, summ[p]["mean"]) for p in pol))
P

# 2. as-recorded = workload eval --at for the jobs running then: a job's slowdown is the
# mean over the intervals of its run, weighted by their lengths, of what eval --at gives in
# each; the fabric's max congestion of each interval is eval's
python3 - all.json <<'P' > ivs.txt
import datetime, json, sys
d = json.load(open(sys.argv[1]))
start = datetime.datetime.fromisoformat(d["start"])
rec = [j for j in d["jobs"] if j["policy"] == "as-recorded" and j["placed"]]
j = min((j for j in rec if j["intervals"] > 1), key=lambda j: j["intervals"])
t0, t1 = (datetime.datetime.fromisoformat(j[k]) for k in ("start", "end"))
for t in d["timeline"]:
    a, b = (start + datetime.timedelta(seconds=t[k]) for k in ("t0", "t1"))
    if t["policy"] == "as-recorded" and t0 <= a and b <= t1:
        mid = a + (b - a) / 2
        print(j["job"], mid.isoformat(), (b - a).total_seconds(), t["max_congestion"], j["slowdown"])
P
[ "$(wc -l < ivs.txt)" -ge 2 ]
: > evals.txt
while read -r job at w cong slow; do
    expect_exit 0 "$TOPOMAP" workload eval $T --jobs $DAY --routing minhop --at "$at" --json
    echo "$OUT" | python3 -c "
import json, sys
d = json.load(sys.stdin)
j = next(j for j in d['jobs'] if j['job'] == '$job')
assert abs(d['fabric']['max_congestion'] - $cong) <= 1e-9 * $cong, (d['fabric'], $cong)
print($w, j['slowdown'], $slow)" >> evals.txt
done < ivs.txt
python3 -c "
rows = [list(map(float, l.split())) for l in open('evals.txt')]
mean = sum(w * s for w, s, _ in rows) / sum(w for w, _, _ in rows)
assert abs(mean - rows[0][2]) <= 1e-9 * mean, (mean, rows[0][2])
print('a job of %d intervals: slowdown %.6f = the weighted mean of eval --at' % (len(rows), mean))"

# 3. one policy, a partition, the random one's seed
expect_exit 0 "$TOPOMAP" workload replay $T --trace $DAY --policy random --seed 3 --json
s3=$(echo "$OUT" | json_py "d['summary'][0]['slowdown']['mean']")
expect_exit 0 "$TOPOMAP" workload replay $T --trace $DAY --policy random --seed 3 --json
[ "$(echo "$OUT" | json_py "d['summary'][0]['slowdown']['mean']")" = "$s3" ]
expect_exit 0 "$TOPOMAP" workload replay $T --trace $DAY --policy slurm-tree \
    --partition 'sl390lin[1-5,7-11,13-18,20-21,24-27,29,33,101-124]' --json
echo "$OUT" | json_py "d['summary'][0]['not_placed'] > 0 and all(set(j['nodes']) <= set('sl390lin[],-0123456789') for j in d['jobs'] if j['placed'])" |
    grep -qx True
expect_exit 0 "$TOPOMAP" workload replay $T --trace $DAY --policy as-recorded,topomap
expect_in "as-recorded" "$OUT"
expect_in "topomap" "$OUT"

# 4. errors
expect_exit 1 "$TOPOMAP" workload replay $T --trace $DAY --policy best
expect_in "unknown --policy 'best'" "$ERR"
expect_exit 1 "$TOPOMAP" workload replay $T --trace $DAY --policy random,random
expect_exit 1 "$TOPOMAP" workload replay $T
expect_in "--trace is required" "$ERR"
printf 'JobID|NodeList\n1|sl390lin1\n' > notimes.txt
expect_exit 1 "$TOPOMAP" workload replay $T --trace notimes.txt
expect_in "no Start and End columns" "$ERR"
expect_exit 2 "$TOPOMAP" workload replay $T --trace $TM_TEST_DATA/bad/workload/end-before-start.txt
expect_in "end-before-start.txt:2:" "$ERR"
expect_exit 0 "$TOPOMAP" workload replay --help
for o in $(echo "$OUT" | grep -oE '^  --[a-z-]+' | sed 's/^  //'); do
    set +e; "$TOPOMAP" workload replay $o x >stdout.txt 2>stderr.txt; set -e
    case "$(cat stderr.txt)" in *"unknown or ambiguous option"* | *"is not an option of"* | *"not handled"*)
        echo "workload replay --help lists $o, which it refuses: $(cat stderr.txt)"; exit 1 ;;
    esac
done

# 5. the pages: self-contained, and in headless Chromium no request and a non-blank picture
grep -q 'Slowdowns by policy' r.html && grep -q 'Fabric load over time' r.html
grep -q 'class="timeline"' r.html && grep -q 'class="cdf"' r.html
! grep -qiE '<script|https?:|<img|<link|src=|href=' r.html
expect_exit 0 "$TOPOMAP" workload eval $T --jobs $DAY --at 2024-03-05T10:00:00 --routing minhop \
    --report e.html
! grep -qiE '<script|https?:|<img|<link|src=|href=' e.html
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || { echo "chromium not installed (tools/install-deps.sh installs it)"; exit 77; }
for page in r e; do
    rm -rf profile
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
        --user-data-dir="$PWD/profile" --host-resolver-rules="MAP * ~NOTFOUND" \
        --log-net-log="$PWD/$page.netlog" --screenshot="$PWD/$page.png" --window-size=1150,1400 \
        "file://$PWD/$page.html" >/dev/null 2>&1
    python3 - "$page.netlog" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
kinds = {v: k for k, v in d["constants"]["logEventTypes"].items()}
urls = {e["params"]["url"] for e in d["events"]
        if kinds.get(e["type"]) == "URL_REQUEST_START_JOB"
        and "file://" in e["params"].get("network_isolation_key", "")
        and not e["params"]["url"].startswith(("file:", "data:"))}
assert not urls, urls
P
    # width height colours non-white-fraction (policy colours: Tableau blue and red)
    read -r w h ncol nonwhite blue red < <("$here/pngstat.py" $page.png '#4e79a7' '#e15759')
    echo "$page.png: ${w}x$h, $ncol colours, non-white $nonwhite, blue $blue px, red $red px"
    [ "$ncol" -ge 20 ] && [ "$blue" -ge 100 ] && [ "$red" -ge 50 ]
    python3 -c "import sys; assert float(sys.argv[1]) > 0.05" "$nonwhite"
done
