#!/usr/bin/env bash
# topomap workload eval (docs/workload.md): a job alone is `topomap eval` of the job; the
# fabric's max congestion and the latest job's shared est_time_s are those of one `eval` of
# the jobs' union (one matrix on the union of their hosts); real sacct output (steps, pending
# jobs) reads; --at, --out (CSV, JSON), --report; every malformed jobs file is exit 2 with
# file:line and nothing written.
set -eu
. "$(dirname "$0")/lib.sh"
T="--topology $TOPO_DIR/psmn-x5/X5.topofile --node-name-map $TOPO_DIR/psmn-x5/X5.map"
D=$TM_TEST_DATA/workload
B=$TM_TEST_DATA/bad/workload

# 1. the four jobs of x5-jobs.txt, all at once
expect_exit 0 "$TOPOMAP" workload eval $T --jobs $D/x5-jobs.txt --json
echo "$OUT" > all.json
python3 - all.json <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
assert [j["job"] for j in d["jobs"]] == ["2001", "2002", "2003", "2004"], d["jobs"]
assert d["n_jobs"] == 4 and d["n_running"] == 4 and d["at"] is None
for j in d["jobs"]:
    for k in ("alone", "shared"):
        for f in ("max_congestion", "avg_dilation", "qap_J", "est_time_s"):
            assert j[k][f] >= 0, (j["job"], k, f)
    assert j["shared"]["max_congestion"] >= j["alone"]["max_congestion"]
    assert j["shared"]["avg_dilation"] == j["alone"]["avg_dilation"]
    assert j["slowdown"] > 0
    # shares links with exactly the jobs whose loads meet its own
    assert (j["links_shared"] > 0) == bool(j["shares_with"]), j
fab = d["fabric"]
assert fab["max_congestion"] == max(j["shared"]["max_congestion"] for j in d["jobs"])
assert d["jobs"][0]["nodes"] == "r422node[1,35,57],r815lin[104,110-111],sl390lin[1,7,13,22,28,101,105,110],x5570comp[1-2]"
assert d["jobs"][1]["comm"] == "alltoall:256KiB" and d["jobs"][1]["n_tasks"] == 56
assert d["jobs"][3]["end"] == "Unknown"
assert set(d["slowdown"]) >= {"mean", "median", "p90", "p99", "max", "slowed", "jobs"}
P

# 2. job 2001 alone is `topomap eval` of its matrix on its nodes, 4 slots each in its order
printf '%s slots=4\n' r422node1 r422node35 r422node57 r815lin104 r815lin110 r815lin111 sl390lin1 \
    sl390lin7 sl390lin13 sl390lin22 sl390lin28 sl390lin101 sl390lin105 sl390lin110 x5570comp1 \
    x5570comp2 > job2001.hosts
expect_exit 0 "$TOPOMAP" eval $T --slots 4 --alloc job2001.hosts --json \
    --comm $TM_TEST_DATA/real/data/commmatrix/cnca_mpiP_cm/lulesh_64.graphStats.txt
echo "$OUT" > e2001.json
python3 - all.json e2001.json <<'P'
import json, sys
w, e = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
a = w["jobs"][0]["alone"]
for k, ek in (("max_congestion", "max_congestion"), ("avg_dilation", "avg_dilation"),
              ("qap_J", "qap_network_J"), ("est_time_s", "est_time_s")):
    assert a[k] == e[ek], (k, a[k], e[ek])
P

# 3. the union: three jobs whose links meet (edges files), evaluated once as one matrix on the
# union of their hosts by `topomap eval --mapping`, under ECMP and single-path routing (on X5's
# parallel uplinks only the latter makes the jobs slow each other down)
python3 - <<'P'
import random
r = random.Random(35)
jobs = [("u1", ["sl390lin1", "r422node1", "sl390lin101"], 3),
        ("u2", ["sl390lin2", "r422node2", "sl390lin102"], 2),
        ("u3", ["sl390lin3", "r422node5", "sl390lin103"], 2)]
rows, edges, mapping, off = ["JobID|NodeList|NTasksPerNode|Comm"], [], [], 0
for name, hosts, ppn in jobs:
    n = len(hosts) * ppn
    with open(name + ".edges", "w") as f:
        for u in range(n):
            for v in r.sample([x for x in range(n) if x != u], 3):
                w = r.randint(1, 8) * 65536
                f.write("%d %d %d\n" % (u, v, w))
                edges.append("%d %d %d" % (off + u, off + v, w))
    mapping += ["%s %d" % (h, s) for h in hosts for s in range(ppn)]
    rows.append("%s|%s|%d|%s.edges" % (name, ",".join(hosts), ppn, name))
    off += n
open("u.jobs", "w").write("\n".join(rows) + "\n")
open("union.edges", "w").write("\n".join(edges) + "\n")
open("union.map", "w").write("\n".join(mapping) + "\n")
P
for r in ecmp single; do
    expect_exit 0 "$TOPOMAP" workload eval $T --jobs u.jobs --routing $r --json
    echo "$OUT" > u.json
    expect_exit 0 "$TOPOMAP" eval $T --slots 3 --comm union.edges --mapping union.map --routing $r --json
    echo "$OUT" > union.json
    python3 - u.json union.json $r <<'P'
import json, sys
w, e = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert len({j["group"] for j in w["jobs"]}) == 1, [j["group"] for j in w["jobs"]]
assert all(j["shares_with"] for j in w["jobs"])
fab, latest = w["fabric"]["max_congestion"], max(j["shared"]["est_time_s"] for j in w["jobs"])
assert abs(fab - e["max_congestion"]) <= 1e-9 * fab, (fab, e["max_congestion"])
assert not e["time_approximate"]
assert abs(latest - e["est_time_s"]) <= 1e-9 * latest, (latest, e["est_time_s"])
if sys.argv[3] == "single":
    assert min(j["slowdown"] for j in w["jobs"]) > 1.1, [j["slowdown"] for j in w["jobs"]]
P
done

# 4. real sacct output: steps give the task counts, pending jobs are skipped with a warning
expect_exit 0 "$TOPOMAP" workload eval $T --jobs $D/x5-sacct.txt --json
echo "$OUT" | json_py "[(j['job'], j['n_tasks']) for j in d['jobs']] == [('3001', 64), ('3002', 96), ('3003_7', 24)] and d['skipped_steps'] == 4 and d['skipped_not_started'] == 2" |
    grep -qx True
expect_in "never started" "$ERR"
# --at: the jobs running then
expect_exit 0 "$TOPOMAP" workload eval $T --jobs $D/x5-jobs.txt --at 2024-03-05T10:45:00 --json
echo "$OUT" | json_py "[j['job'] for j in d['jobs']] == ['2001', '2002', '2003'] and d['n_running'] == 3" |
    grep -qx True
expect_exit 1 "$TOPOMAP" workload eval $T --jobs $D/x5-jobs.txt --at noon
expect_in "--at 'noon'" "$ERR"
expect_exit 1 "$TOPOMAP" workload eval $T --jobs u.jobs --at 2024-03-05T10:45:00
expect_in "no Start and End" "$ERR"
expect_exit 1 "$TOPOMAP" workload eval --topology dragonfly:h=2 --jobs u.jobs --routing ugal
expect_exit 1 "$TOPOMAP" workload eval $T
expect_in "--jobs is required" "$ERR"
expect_exit 1 "$TOPOMAP" workload frob
expect_in "unknown subcommand 'frob'" "$ERR"

# 5. --out: CSV and JSON rows, the same figures as stdout; the table names every job
expect_exit 0 "$TOPOMAP" workload eval $T --jobs $D/x5-jobs.txt --out rows.csv --out rows.json
for j in 2001 2002 2003 2004; do expect_in "$j" "$OUT"; done
expect_in "fabric       max congestion" "$OUT"
python3 - rows.csv rows.json all.json <<'P'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
js, ref = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
assert [r["job"] for r in rows] == ["2001", "2002", "2003", "2004"]
for r, j in zip(rows, ref["jobs"]):
    assert float(r["shared_est_time_s"]) == j["shared"]["est_time_s"]
    assert float(r["alone_max_congestion"]) == j["alone"]["max_congestion"]
    assert r["nodes"] == j["nodes"] and int(r["index"]) == j["index"]
assert js["jobs"] == ref["jobs"]
P

# 6. --report: one self-contained page, both fabric pictures
expect_exit 0 "$TOPOMAP" workload eval $T --jobs $D/x5-jobs.txt --report w.html
grep -q 'Fabric by job' w.html && grep -q 'class="fabric jobs"' w.html
for j in 2001 2002 2003 2004; do grep -q " $j</td>" w.html; done
! grep -qiE '<script|https?:|<img|<link' w.html

# 7. malformed jobs files: exit 2, "file:line: what", nothing on stdout, no output written
check_bad() { # FILE EXPECTED
    rm -f bad.csv bad.html
    expect_exit 2 "$TOPOMAP" workload eval $T --jobs "$B/$1" --out bad.csv --report bad.html
    expect_in "$2" "$ERR"
    [ -z "$OUT" ] && [ ! -e bad.csv ] && [ ! -e bad.html ]
    # one error line, the last (X5's dump warns about its unnamed CAs before it)
    [ "$(grep -c '^topomap workload eval: ' stderr.txt)" -eq 1 ] &&
        tail -1 stderr.txt | grep -qF "$2" || { echo "$1: $ERR"; exit 1; }
}
check_bad no-nodelist.txt "no-nodelist.txt:1: the header line must name the columns JobID and NodeList"
check_bad no-header.txt "no-header.txt:1: the header line must name"
check_bad fields.txt "fields.txt:2: 4 fields, but the header has 3"
check_bad unknown-host.txt "unknown-host.txt:2: job 1: unknown host 'sl390lin999'"
check_bad host-twice.txt "host-twice.txt:2: job 1: host 'sl390lin1' is listed twice"
check_bad bad-time.txt "bad-time.txt:2: Start '2024-03-05 10h' is not a time"
check_bad end-before-start.txt "end-before-start.txt:2: job 1 ends (2024-03-05T09:00:00) before it starts"
check_bad bad-count.txt "bad-count.txt:2: NTasksPerNode 'many' is not an integer"
check_bad bad-pattern.txt "bad-pattern.txt:2: job 1: Comm 'ring:lots'"
check_bad matrix-size.txt "matrix-size.txt:2: job 1 has 8 tasks (from NTasksPerNode), but its matrix"
check_bad missing-matrix.txt "missing-matrix.txt:2: job 1: "
check_bad bad-matrix.txt "bad-matrix.txt:2: job 1: $B/bad.edges:2:"
check_bad start-only.txt "start-only.txt:1: column Start without End"
check_bad empty-jobid.txt "empty-jobid.txt:2: empty JobID"
expect_exit 2 "$TOPOMAP" workload eval $T --jobs no-such-jobs.txt
expect_in "no-such-jobs.txt" "$ERR"

# 8. every option --help lists is accepted (one option table, src/cli/options.c)
expect_exit 0 "$TOPOMAP" workload eval --help
for o in $(echo "$OUT" | grep -oE '^  --[a-z-]+' | sed 's/^  //'); do
    set +e; "$TOPOMAP" workload eval $o x >stdout.txt 2>stderr.txt; set -e
    case "$(cat stderr.txt)" in *"unknown or ambiguous option"* | *"is not an option of"* | *"not handled"*)
        echo "workload eval --help lists $o, which it refuses: $(cat stderr.txt)"; exit 1 ;;
    esac
done
expect_exit 1 "$TOPOMAP" workload eval --strategy all
expect_in "is not an option of 'topomap workload eval' (only of: map, study)" "$ERR"
