#!/usr/bin/env bash
# Usage errors exit 1, --help exits 0 on stdout.
set -eu
. "$(dirname "$0")/lib.sh"
expect_exit 1 "$TOPOMAP"
expect_exit 0 "$TOPOMAP" --help
expect_in "usage: topomap" "$OUT"
expect_exit 1 "$TOPOMAP" frobnicate
expect_in "unknown command 'frobnicate'" "$ERR"
for c in "topo --help" "eval --help" "map --help" "study --help"; do
    expect_exit 0 "$TOPOMAP" $c
    expect_in "usage:" "$OUT"
done
expect_exit 1 "$TOPOMAP" topo bogus --topology torus:4x4
expect_exit 1 "$TOPOMAP" topo info
expect_exit 1 "$TOPOMAP" eval --topology torus:4x4
expect_in "--comm is required" "$ERR"
expect_exit 1 "$TOPOMAP" eval --topology torus:4x4 --comm x --threads abc
expect_exit 1 "$TOPOMAP" map --topology torus:4x4 --comm x --format pdf
expect_in "unknown --format 'pdf'" "$ERR"
expect_exit 1 "$TOPOMAP" map --topology torus:4x4 --comm x --routing warp
expect_exit 1 "$TOPOMAP" map --hierarchy 4:4 --comm x
expect_in "needs --distances" "$ERR"
expect_exit 0 "$TOPOMAP" version
# getopt's errors in our format: "topomap <cmd>: ..." and nothing from getopt itself
expect_exit 1 "$TOPOMAP" map --bogus
expect_in "topomap map: unknown or ambiguous option '--bogus'" "$ERR"
expect_exit 1 "$TOPOMAP" map --t x --comm y
expect_in "topomap map: unknown or ambiguous option '--t'" "$ERR"
expect_exit 1 "$TOPOMAP" eval --comm
expect_in "topomap eval: option '--comm' needs a value" "$ERR"
expect_exit 1 "$TOPOMAP" topo info --frob --topology torus:4x4
expect_in "topomap topo: unknown or ambiguous option '--frob'" "$ERR"
for c in "map --bogus" "eval --comm" "topo info --frob" "study --bogus"; do
    expect_exit 1 "$TOPOMAP" $c
    case "$ERR" in
    *unrecognized* | *"requires an argument"* | *"invalid option"*)
        echo "getopt's own message leaked: $ERR" >&2
        exit 1 ;;
    esac
done
# Every failure is exactly one line on stderr and nothing on stdout (docs/errors.md);
# usage errors end with the --help hint on that same line.
for c in "map --bogus" "eval --comm" "topo info --frob" "map --topology torus:4x4 --comm x --format pdf" \
         "map --topology torus:4x4 --comm x --routing warp" "eval --topology torus:4x4" \
         "eval --topology torus:4x4 --comm x --threads abc" "frobnicate" "topo bogus --topology torus:4x4"; do
    expect_exit 1 "$TOPOMAP" $c
    [ "$(wc -l < stderr.txt)" -eq 1 ] || { echo "'$c': stderr is not one line: $ERR" >&2; exit 1; }
    [ -z "$OUT" ] || { echo "'$c': wrote to stdout: $OUT" >&2; exit 1; }
    expect_in "--help')" "$ERR"
done
for c in "eval --topology nosuch.topo --comm x" "map --topology torus:4x0 --comm x"; do
    set +e; "$TOPOMAP" $c >stdout.txt 2>stderr.txt; set -e
    [ "$(wc -l < stderr.txt)" -eq 1 ] || { echo "'$c': stderr is not one line: $(cat stderr.txt)" >&2; exit 1; }
done
# One option table (src/cli/options.c): every option a subcommand's --help
# lists is accepted by it, once, with a description (man pages and shell
# completion are made from --help); an option of another subcommand is
# refused naming whose it is.
for c in topo eval map study; do
    expect_exit 0 "$TOPOMAP" $c --help
    echo "$OUT" > help-$c.txt
    opts=$(grep -oE '^  --[a-z-]+' help-$c.txt | sed 's/^  //')
    [ -n "$opts" ] || { echo "$c --help lists no option"; exit 1; }
    dup=$(echo "$opts" | sort | uniq -d)
    [ -z "$dup" ] || { echo "$c --help lists twice: $dup"; exit 1; }
    python3 - help-$c.txt <<'P'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
for i, l in enumerate(lines):
    m = re.match(r"  (--[a-z-]+)( \S+)?(\s+(\S.*))?$", l)
    if m and not m.group(4) and not (i + 1 < len(lines) and lines[i + 1].startswith(" " * 20)):
        sys.exit("%s: %s has no description" % (sys.argv[1], m.group(1)))
P
    for o in $opts; do
        sub=$c; [ $c = topo ] && sub="topo info"
        set +e; "$TOPOMAP" $sub $o x >stdout.txt 2>stderr.txt; set -e
        case "$(cat stderr.txt)" in *"unknown or ambiguous option"* | *"is not an option of"* | *"not handled"*)
            echo "$c --help lists $o, which $c refuses: $(cat stderr.txt)"; exit 1 ;;
        esac
    done
done
expect_exit 1 "$TOPOMAP" study --topology torus:4x4 --comm x --hierarchy 4:4
expect_in "'--hierarchy' is not an option of 'topomap study' (only of: eval, map)" "$ERR"
expect_exit 1 "$TOPOMAP" topo info --topology torus:4x4 --comm x
expect_in "'--comm' is not an option of 'topomap topo'" "$ERR"
# --routing: the library's model names, the same in every --help and error;
# study computes its routes (no forwarding tables, not even a bare 'lft')
models=$(grep -A20 -- '--routing R ' help-eval.txt | grep -oE '^ {26}[a-z]+(:DIR)?' | tr -d ' ' | paste -sd, | sed 's/,/, /g')
[ "$models" = "ecmp, single, dor, lft:DIR, ftree, minhop, updn, valiant, ugal" ] || { echo "eval --help models: $models"; exit 1; }
expect_exit 1 "$TOPOMAP" eval --topology torus:4x4 --comm x --routing warp
expect_in "unknown --routing 'warp' ($models)" "$ERR"
expect_exit 1 "$TOPOMAP" eval --topology torus:4x4 --comm x --routing lft
expect_in "--routing lft needs the tables' directory: lft:DIR" "$ERR"
smodels=$(grep -A20 -- '--routing R,' help-study.txt | grep -oE '^ {26}[a-z]+(:DIR)?' | tr -d ' ' | paste -sd, | sed 's/,/, /g')
[ "$smodels" = "ecmp, single, dor, ftree, minhop, updn, valiant, ugal" ] || { echo "study --help models: $smodels"; exit 1; }
for r in lft lft:tables ecmp,lft; do
    expect_exit 1 "$TOPOMAP" study --topology torus:4x4 --comm x --routing $r
    expect_in "forwarding tables are not a study routing (study computes the routes: $smodels)" "$ERR"
done
expect_exit 1 "$TOPOMAP" study --topology torus:4x4 --comm x --routing warp
expect_in "unknown --routing 'warp' ($smodels)" "$ERR"
# --threads and --slots: one range for every subcommand
for c in eval map study; do
    expect_exit 1 "$TOPOMAP" $c --topology torus:4x4 --comm x --threads 1025
    expect_in "--threads expects an integer in [0, 1024], got '1025'" "$ERR"
    expect_exit 1 "$TOPOMAP" $c --topology torus:4x4 --comm x --slots 0
    expect_in "--slots expects an integer in [1, 1048576], got '0'" "$ERR"
done
# A strategy's mode is said once: the registry's help text does not repeat
# the "[hierarchy mode]" / "[network mode]" tag `map --help` adds to it
# (it printed "(hierarchy mode) [hierarchy mode]").
for c in "topo" "eval" "map" "study" "study merge" "workload" "workload eval" "workload replay" \
         "workload merge" "alloc" "slurm" "slurm snapshot"; do
    expect_exit 0 "$TOPOMAP" $c --help
    if echo "$OUT" | grep -E '\((hierarchy|network) mode\).*\[(hierarchy|network) mode\]'; then
        echo "$c --help names a mode twice"; exit 1
    fi
done
# slurm snapshot: every option its --help lists is accepted
expect_exit 0 "$TOPOMAP" slurm snapshot --help
for o in $(echo "$OUT" | grep -oE '^  --[a-z-]+' | sed 's/^  //'); do
    set +e; "$TOPOMAP" slurm snapshot $o 1 >stdout.txt 2>stderr.txt; set -e
    case "$(cat stderr.txt)" in *"unknown or ambiguous option"* | *"is not an option of"* | *"not handled"*)
        echo "slurm snapshot --help lists $o, which it refuses: $(cat stderr.txt)"; exit 1 ;;
    esac
done
