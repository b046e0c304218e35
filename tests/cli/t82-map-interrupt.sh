#!/usr/bin/env bash
# tm-test: serial (it times signals against a running map)
# Anytime map (docs/errors.md "Interrupted runs"): SIGINT, SIGTERM or SIGUSR1
# during a long `map` stop the refinements; the best mapping so far is
# written atomically and reported, exit 0, well before the time limit; the
# file is complete (eval reads it, one line per task) and no temporary file
# is left.
#
# Independent of how the test was started: topomap rightly keeps a signal
# that was ignored when it started ignored (nohup, `make test &`, a shell
# without job control), so python3 starts it with the three signals at
# their default disposition and unblocked (a shell cannot un-ignore a
# signal ignored at its own start).  And independent of the machine's load:
# topomap's stderr is a terminal (a pty), so it shows its progress line,
# and the signal goes only once that line says a strategy was constructed,
# i.e. its refinement is running (no fixed sleep).
set -eu
. "$(dirname "$0")/lib.sh"
spmv512_edges > spmv.edges
for sig in INT TERM USR1; do
    rm -f r.txt
    python3 - "$TOPOMAP" "$sig" > res.txt <<'P'
import json, os, pty, signal, subprocess, sys, threading, time
topomap, sig = sys.argv[1], getattr(signal, "SIG" + sys.argv[2])
SIGS = {signal.SIGINT, signal.SIGTERM, signal.SIGUSR1}

def default_signals():  # in the child, before exec
    for s in SIGS:
        signal.signal(s, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGS)

master, slave = pty.openpty()
seen, cond = bytearray(), threading.Condition()

def drain():  # the pty must be read all along, or topomap would block on it
    while True:
        try:
            b = os.read(master, 4096)
        except OSError:  # EIO: every writer has closed the terminal
            b = b""
        with cond:
            if not b:
                seen.extend(b"\0")  # end mark
                cond.notify_all()
                return
            seen.extend(b)
            cond.notify_all()

t0 = time.time()
p = subprocess.Popen([topomap, "map", "--topology", "torus:8x8x8", "--comm", "spmv.edges",
                      "--strategy", "all", "--refine", "ta", "--time-limit", "40", "--threads", "2",
                      "--out", "r.txt", "--json"], stdout=subprocess.PIPE, stderr=slave,
                     preexec_fn=default_signals)
os.close(slave)
reader = threading.Thread(target=drain)
reader.start()
with cond:  # a strategy constructed: refinement under way (at most 60 s)
    refining = cond.wait_for(lambda: b" constructed" in seen or b"\0" in seen, timeout=60)
if not refining or b" constructed" not in seen:
    p.kill()
    sys.exit("no progress line saying a strategy was constructed: " + seen.decode(errors="replace"))
t_sig = time.time()
p.send_signal(sig)
out, _ = p.communicate(timeout=120)
reader.join()
os.close(master)
d = json.loads(out) if p.returncode == 0 else {}
print(p.returncode, round(time.time() - t_sig, 1), round(time.time() - t0, 1), d.get("interrupted"),
      d.get("max_congestion"))
if p.returncode != 0 or not d.get("interrupted"):  # what topomap said, to see why
    sys.stderr.write(seen.decode(errors="replace").rstrip("\0") + "\n")
P
    read -r rc secs total interrupted cong < res.txt
    [ "$rc" = 0 ] || { echo "SIG$sig: exit $rc"; exit 1; }
    [ "$interrupted" = "SIG$sig" ] || { echo "SIG$sig: interrupted=$interrupted"; exit 1; }
    python3 -c "import sys; sys.exit(0 if float('$secs') < 20 else 1)" ||
        { echo "SIG$sig: stopped $secs s after the signal ($total s in all; limit 40 s):" \
            "the signal did not stop the run"; exit 1; }
    [ "$(wc -l < r.txt)" = 512 ]
    [ -z "$(ls -A | grep '\.tmp\.')" ] || { echo "temporary file left: $(ls -A)"; exit 1; }
    expect_exit 0 "$TOPOMAP" eval --topology torus:8x8x8 --comm spmv.edges --mapping r.txt --json
    [ "$(echo "$OUT" | json_get "['max_congestion']")" = "$cong" ]
done
