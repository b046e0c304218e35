#!/usr/bin/env bash
# Anytime map (docs/errors.md "Interrupted runs"): SIGINT, SIGTERM or SIGUSR1
# during a long `map` stop the refinements; the best mapping so far is
# written atomically and reported, exit 0, well before the time limit; the
# file is complete (eval reads it, one line per task) and no temporary file
# is left.  python3 starts topomap so that SIGINT is not ignored (a shell
# without job control ignores it in background commands).
set -eu
. "$(dirname "$0")/lib.sh"
python3 - > spmv.edges <<'P'
import random
r = random.Random(3)
n = 512
for u in range(n):
    for k in range(12):
        v = r.randrange(n)
        if v != u:
            print(u, v, r.randint(1, 100))
P
for sig in INT TERM USR1; do
    rm -f r.txt
    python3 - "$TOPOMAP" "$sig" > res.txt <<'P'
import json, signal, subprocess, sys, time
topomap, sig = sys.argv[1], getattr(signal, "SIG" + sys.argv[2])
t0 = time.time()
p = subprocess.Popen([topomap, "map", "--topology", "torus:8x8x8", "--comm", "spmv.edges",
                      "--strategy", "all", "--refine", "ta", "--time-limit", "40", "--threads", "2",
                      "--out", "r.txt", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
time.sleep(1.5)
p.send_signal(sig)
out, err = p.communicate(timeout=120)
d = json.loads(out) if p.returncode == 0 else {}
print(p.returncode, round(time.time() - t0, 1), d.get("interrupted"), d.get("max_congestion"))
sys.stderr.write(err.decode())
P
    read -r rc secs interrupted cong < res.txt
    [ "$rc" = 0 ] || { echo "SIG$sig: exit $rc"; exit 1; }
    [ "$interrupted" = "SIG$sig" ] || { echo "SIG$sig: interrupted=$interrupted"; exit 1; }
    python3 -c "import sys; sys.exit(0 if float('$secs') < 20 else 1)" ||
        { echo "SIG$sig: took $secs s (limit 40 s): the signal did not stop the run"; exit 1; }
    [ "$(wc -l < r.txt)" = 512 ]
    [ -z "$(ls -A | grep '\.tmp\.')" ] || { echo "temporary file left: $(ls -A)"; exit 1; }
    expect_exit 0 "$TOPOMAP" eval --topology torus:8x8x8 --comm spmv.edges --mapping r.txt --json
    [ "$(echo "$OUT" | json_get "['max_congestion']")" = "$cong" ]
done
