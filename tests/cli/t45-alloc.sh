#!/usr/bin/env bash
# topomap alloc (docs/workload.md "alloc"): one Slurm hostlist of N free nodes; --json gives
# the figures of topomap's, Slurm's (emulated) and a random pick; topomap's pick is never
# predicted slower than Slurm's, and its figures are those `workload eval` gives the new job
# among the running ones; the emulated tree plugin picks what the real slurmctld picks (Debian's
# Slurm 22.05, no slurmd: tests/cli/slurm_pick.py); malformed topology.conf files are exit 2.
set -eu
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
T="--topology $TOPO_DIR/psmn-x5/X5.topofile --node-name-map $TOPO_DIR/psmn-x5/X5.map"
D=$TM_TEST_DATA/workload
B=$TM_TEST_DATA/bad/slurm

# 1. plain: one line, 8 free nodes
expect_exit 0 "$TOPOMAP" alloc $T --nodes 8 --ppn 8 --jobs $D/x5-jobs.txt --routing minhop
[ "$(echo "$OUT" | wc -l)" = 1 ]
nodes=$OUT
expect_exit 0 "$TOPOMAP" alloc $T --nodes 8 --ppn 8 --jobs $D/x5-jobs.txt --routing minhop --json
echo "$OUT" > a.json
python3 - a.json "$nodes" <<'P'
import json, re, sys
d = json.load(open(sys.argv[1]))
assert d["nodes"] == sys.argv[2] == d["topomap"]["nodes"], (d["nodes"], sys.argv[2])
assert d["policy"] == "topomap" and d["running_jobs"] == 4 and d["free_nodes"] == 89 - 37
for k in ("topomap", "slurm_tree", "random"):
    p = d[k]
    assert p["feasible"], k
    for f in ("est_time_s", "max_congestion", "slowdown", "neighbours", "neighbours_slowdown"):
        assert f in p, (k, f)
    assert p["est_time_s"] >= p["alone"]["est_time_s"] * (1 - 1e-9), k
assert d["est_time_s"] == d["topomap"]["est_time_s"]
# never predicted slower than Slurm's pick
assert d["topomap"]["est_time_s"] <= d["slurm_tree"]["est_time_s"], d
P

# 2. the pick's figures are those of `workload eval` with the new job among the running ones
python3 - a.json $D/x5-jobs.txt <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
rows = [l.rstrip("\n") for l in open(sys.argv[2]) if l.strip() and not l.startswith("#")]
rows = [r.replace("../real/", sys.argv[2].rsplit("/", 1)[0] + "/../real/") for r in rows]
rows.append("new|%s|8|stencil3d|2024-03-05T11:00:00|Unknown" % d["nodes"])
open("with-new.jobs", "w").write("\n".join(rows) + "\n")
P
expect_exit 0 "$TOPOMAP" workload eval $T --jobs with-new.jobs --routing minhop --at 2024-03-05T11:45:00 --json
echo "$OUT" > w.json
python3 - a.json w.json <<'P'
import json, sys
a, w = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
new = [j for j in w["jobs"] if j["job"] == "new"][0]
t = a["topomap"]
assert abs(new["shared"]["est_time_s"] - t["est_time_s"]) <= 1e-9 * t["est_time_s"], (new, t)
assert abs(new["shared"]["max_congestion"] - t["max_congestion"]) <= 1e-9 * t["max_congestion"]
assert new["alone"]["est_time_s"] == t["alone"]["est_time_s"]
assert abs(new["slowdown"] - t["slowdown"]) <= 1e-9
assert len(new["shares_with"]) == t["neighbours"], (new["shares_with"], t["neighbours"])
P

# 3. a busy Clos: topomap's pick against Slurm's and a random one (a matrix file as --comm)
python3 - <<'P'
import random
r = random.Random(45)
hosts = ["n%04d" % i for i in range(128)]
free = hosts[:]
rows = ["JobID|NodeList|NTasksPerNode|Comm"]
for j, (n, pat) in enumerate([(16, "alltoall:64KiB"), (8, "ring:4MiB"), (24, "stencil3d:1MiB"),
                              (12, "alltoall:16KiB"), (20, "stencil3d:256KiB")]):
    sel = sorted(r.sample(free, n))
    free = [h for h in free if h not in sel]
    rows.append("J%d|%s|4|%s" % (j, ",".join(sel), pat))
open("clos.jobs", "w").write("\n".join(rows) + "\n")
P
C="--topology clos:leaves=8,hosts_per_leaf=16,spines=4,cap=100"
expect_exit 0 "$TOPOMAP" alloc $C --jobs clos.jobs --nodes 16 --ppn 4 \
    --comm $TOPO_DIR/comm/lulesh-64.graphStats.txt --routing single --json
echo "$OUT" | json_py "d['topomap']['est_time_s'] <= d['slurm_tree']['est_time_s'] and d['free_nodes'] == 48 and d['running_jobs'] == 5" |
    grep -qx True
echo "$OUT" | json_py "'clos %.4g s, slurm-tree %.4g s, random %.4g s, %d candidates, %.2f s' % (d['topomap']['est_time_s'], d['slurm_tree']['est_time_s'], d['random']['est_time_s'], d['topomap']['candidates'], d['time_s'])"
# the policies print their own pick; random follows --seed
for p in slurm-tree random; do
    expect_exit 0 "$TOPOMAP" alloc $C --jobs clos.jobs --nodes 16 --ppn 4 --policy $p
    [ "$OUT" = "$(echo "$(cat stdout.txt)")" ]
done
expect_exit 0 "$TOPOMAP" alloc $C --jobs clos.jobs --nodes 16 --ppn 4 --policy random --seed 7
r7=$OUT
expect_exit 0 "$TOPOMAP" alloc $C --jobs clos.jobs --nodes 16 --ppn 4 --policy random --seed 7
[ "$OUT" = "$r7" ]
# --free limits the choice; an empty fabric without --jobs
expect_exit 0 "$TOPOMAP" alloc $C --free 'n[0000-0031]' --nodes 4 --ppn 2 --comm ring:1MiB --json
echo "$OUT" | json_py "d['free_nodes'] == 32 and d['running_jobs'] == 0 and d['nodes'] == 'n[0000-0003]'" |
    grep -qx True

# 4. errors
expect_exit 1 "$TOPOMAP" alloc $C --ppn 4
expect_in "--nodes is required" "$ERR"
expect_exit 1 "$TOPOMAP" alloc $C --nodes 4 --policy best
expect_in "unknown --policy 'best'" "$ERR"
expect_exit 3 "$TOPOMAP" alloc $C --jobs clos.jobs --nodes 60 --ppn 4
expect_in "60 nodes asked, 48 free" "$ERR"
expect_exit 2 "$TOPOMAP" alloc $C --free 'n[0000-0003],x9' --nodes 2 --ppn 1
expect_in "unknown host 'x9'" "$ERR"
expect_exit 2 "$TOPOMAP" alloc $C --nodes 4 --ppn 4 --comm $TOPO_DIR/comm/lulesh-64.graphStats.txt
expect_in "the matrix has 64 tasks, 4 nodes x their tasks make 16" "$ERR"
expect_exit 1 "$TOPOMAP" alloc $C --nodes 2 --ppn 1 --comm ring:zero
expect_in "--comm 'ring:zero'" "$ERR"
expect_exit 1 "$TOPOMAP" alloc --topology $TOPO_DIR/examples/two-islands.xml --nodes 2
expect_in "the free nodes have different slots" "$ERR"
F="--topology fattree:k=4,n=3"
check_bad() { # FILE EXPECTED
    expect_exit 2 "$TOPOMAP" alloc $F --nodes 2 --ppn 1 --slurm-topology "$B/$1"
    expect_in "$2" "$ERR"
    [ -z "$OUT" ]
}
check_bad twice.conf "twice.conf:2: switch a has already been defined (line 1)"
check_bad both.conf "both.conf:1: switch a has both child switches and nodes"
check_bad neither.conf "neither.conf:1: switch a has neither child switches nor nodes"
check_bad unknown-key.conf "unknown-key.conf:1: unknown key 'Color'"
check_bad invalid-child.conf "invalid-child.conf:2: switch top has invalid child (b)"
check_bad cycle.conf "cycle.conf: switch configuration is not a tree"
check_bad empty.conf "empty.conf:1: no SwitchName= line"
check_bad bad-speed.conf "bad-speed.conf:1: LinkSpeed 'fast' is not an integer"
check_bad no-name.conf "no-name.conf:1: a line without SwitchName="
check_bad bad-hostlist.conf "bad-hostlist.conf:1: switch a: Nodes: hostlist term"
check_bad no-value.conf "no-value.conf:1: 'Nodes' is not key=value"
# a topology.conf with a node the fabric lacks: warned about and ignored, as Slurm does
printf 'SwitchName=a Nodes=n[0000-0003],ghost1\nSwitchName=b Nodes=n[0004-0063]\nSwitchName=t Switches=a,b\n' > ghost.conf
expect_exit 0 "$TOPOMAP" alloc $F --nodes 4 --ppn 1 --policy slurm-tree --slurm-topology ghost.conf
expect_in "ghost1" "$ERR"
[ "$OUT" = "n[0000-0003]" ]

# 5. every option --help lists is accepted
expect_exit 0 "$TOPOMAP" alloc --help
for o in $(echo "$OUT" | grep -oE '^  --[a-z-]+' | sed 's/^  //'); do
    set +e; "$TOPOMAP" alloc $o x >stdout.txt 2>stderr.txt; set -e
    case "$(cat stderr.txt)" in *"unknown or ambiguous option"* | *"is not an option of"* | *"not handled"*)
        echo "alloc --help lists $o, which it refuses: $(cat stderr.txt)"; exit 1 ;;
    esac
done

# 6. the real controller: the emulated tree plugin picks as slurmctld does, with busy nodes
# drained, on X5, a fat-tree, a topology.conf of leaves only (jobs across leaves never start)
# and a torus without a topology plugin.  Not under the sanitizers (the plain build is the
# same code); skipped (77) only when slurmctld or sbatch is missing.
if sanitized; then echo "sanitizer build: the controller comparison runs on the plain build"; exit 0; fi
for t in slurmctld sbatch scontrol; do
    command -v "$t" >/dev/null || [ -x "/usr/sbin/$t" ] ||
        { echo "$t not installed (tools/install-deps.sh installs slurmctld and slurm-client)"; exit 77; }
done
expect_exit 0 "$TOPOMAP" topo export $T --format slurm --out x5.conf
python3 "$here/slurm_pick.py" ctld x5 x5.conf 30 "$TOPOMAP" $T
expect_exit 0 "$TOPOMAP" topo export $F --format slurm --out ft.conf
python3 "$here/slurm_pick.py" ctld fattree ft.conf 30 "$TOPOMAP" $F
grep 'Nodes=' ft.conf > leaves.conf
python3 "$here/slurm_pick.py" ctld leaves leaves.conf 20 "$TOPOMAP" $F | tee leaves.txt
grep -qE '\([1-9][0-9]* where Slurm would not start' leaves.txt
expect_exit 0 "$TOPOMAP" topo export --topology torus:4x4x2 --format dot
echo "$OUT" | grep -o '"n[0-9]*" \[shape=box' | cut -d'"' -f2 > torus.hosts
python3 "$here/slurm_pick.py" ctld torus none:torus.hosts 30 "$TOPOMAP" --topology torus:4x4x2
